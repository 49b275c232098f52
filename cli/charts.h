/* charts.h - the chart table of the command line (cli/charts.c) and what
 * the charts need from a run (chart_data). Not part of libcosim.
 *
 * To add a chart (docs/hacking.md, "To add a chart"): one row in
 * chart_kinds (charts.c) with its NAME.dat writer, N_CHARTS one more, and
 * plots/NAME.gp to style it.
 */
#ifndef COSIM_CLI_CHARTS_H
#define COSIM_CLI_CHARTS_H

#include "band.h"
#include "run.h"
#include "scenario.h"
#include "timeline.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The x range of a chart: the run, or one of the two time windows. */
typedef enum chart_window { CHART_WHOLE_RUN, CHART_TIMELINE_WINDOW, CHART_BARS_WINDOW } chart_window;

struct chart_data;

/** A chart, one row each (docs/hacking.md, "To add a chart"); --charts
 * names them, plots/NAME.gp styles them. */
typedef struct chart_kind {
    const char *name;
    chart_window window;  /* the x range: the run, or one of the time windows */
    int linear;           /* 1: a linear latency axis whatever --latency-axis says */
    int spectrum_blocks;  /* 1: the spectrum's block order and slots, and the band */
    /* the chart's NAME.dat from the run's results; 0 or a negative errno */
    int (*write)(FILE *f, const scenario *s, const run_result *r, const struct chart_data *cd,
                 const char *const *names);
    /* the chart's own name before the scenario's title, NULL for the
     * spectrum (the scenario's title is its: "Latency by percentile ...");
     * figure_5_3's title was stamped on its timeline and bars too */
    const char *title_prefix;
} chart_kind;

/** The number of rows of chart_kinds (a bit each in options.charts). */
#define N_CHARTS 4
/** The requests chart's row in chart_kinds (--animate draws it again). */
#define CHART_REQUESTS 2
/** Requests kept per tester for the timeline before it bins them. */
#define TIMELINE_MAX_POINTS 4000
/** Requests kept per tester for the bars: a window with more is refused. */
#define BARS_MAX_POINTS 20000
/** Bars drawn per panel: a tester with more is thinned (every k-th, and
 *  every slow one). */
#define BARS_MAX_DRAW 60

/** The chart table. */
extern const chart_kind chart_kinds[N_CHARTS];

/**
 * A chart by name.
 * @param name  the name's first len bytes (not NUL-terminated: a word of --charts)
 * @param len   its length in bytes
 * @return its index in chart_kinds, or -1
 */
int chart_kind_find(const char *name, size_t len);

/** What the charts need from the run, and the job's progress. */
typedef struct chart_data {
    const char *style[N_CHARTS]; /* style script per chart, NULL: not drawn */
    char style_buf[N_CHARTS][4096];
    timeline *timeline;          /* the whole run (or --window), binned */
    timeline *bars;              /* the request-bar window, exact */
    int64_t tl_from, tl_to, bars_from, bars_to; /* the windows, ns */
    band *band;                  /* --replications: the spread over seeds */
    const char *anim_style;      /* --animate: plots/animate.gp, NULL: none */
    char anim_buf[4096];
    /* progress on a terminal, over the whole job */
    int tty, printed;            /* printed: the widest progress line, 0: none */
    const scenario *s;
    int64_t next_check_ns;       /* the run's simulated time of the next clock check */
    run_work work;               /* the estimate of one run */
    unsigned reps, rep;          /* runs in the job; the current one (0-based) */
    size_t cur;                  /* the tester running (n_testers: the truth) */
    int any;                     /* a tester run has been seen */
    double started, last_print;  /* monotonic seconds */
} chart_data;

#endif
