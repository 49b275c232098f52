/* outputs.h - the output folder of a cosim run (cli/outputs.c): the chart
 * table, what the charts need from the run, and writing, rendering and
 * committing every file. Not part of libcosim. */
#ifndef COSIM_CLI_OUTPUTS_H
#define COSIM_CLI_OUTPUTS_H

#include "band.h"
#include "options.h"
#include "outdir.h"
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

/**
 * Take the output folder before the run: refused folders fail fast, and a
 * second writer learns at once.
 *
 * @param o       the options (-o, --force, the scenario's path)
 * @param s       the scenario (its name for the default folder)
 * @param d       the open folder (outdir_close it), NULL on failure
 * @param dir     gets the folder's name (dirlen bytes)
 * @return the exit code: COSIM_EXIT_OK, or COSIM_EXIT_OUTPUT after a message
 */
int outputs_open(const options *o, const scenario *s, outdir **d, char *dir, size_t dirlen);

/**
 * Stage a run's files in d without committing: summary.json, summary.md,
 * summary.csv, the .hgrm spectra, each drawn chart's .dat and .gp, and the
 * charts gnuplot renders (each checked complete).
 *
 * @param charts      gets each chart's file name (chart_kinds order; "" for
 *                    a chart not drawn)
 * @param no_gnuplot  set when gnuplot is missing (the charts not rendered)
 * @param drawn       gets ", NAME" for each chart rendered (drawnlen bytes)
 * @param err         on failure, "DIR/NAME: reason"
 * @return 0, or -1 (err says why; nothing committed)
 */
int outputs_stage(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                  char charts[N_CHARTS + 1][64], int *no_gnuplot, char *drawn, size_t drawnlen, char *err,
                  size_t errlen);

/**
 * The output folder of a run: files and charts staged (each chart checked
 * complete), then committed all at once, or nothing changes. Closes d.
 *
 * @param exit_code  the exit code so far
 * @return the exit code, given the one so far
 */
int outputs_write_run(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                      const char *dir, int exit_code);

#endif
