/* charts.c - the chart table: each chart's name, window, axis and the
 * writer of its NAME.dat from the run's results. */
#include "charts.h"
#include "plot.h"

#include <string.h>

static int write_spectrum(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                          const char *const *names)
{
    (void)cd;
    (void)names;
    return plot_write_spectrum_data(f, s, r);
}

static int write_timeline(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                          const char *const *names)
{
    (void)s;
    (void)r;
    return timeline_write_points(cd->timeline, f, names);
}

static int write_requests(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                          const char *const *names)
{
    (void)s;
    (void)r;
    return timeline_write_bars(cd->bars, f, names, BARS_MAX_DRAW);
}

static int write_summary(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                         const char *const *names)
{
    (void)cd;
    (void)names;
    return plot_write_summary_data(f, s, r);
}

const chart_kind chart_kinds[N_CHARTS] = {
    {"spectrum", CHART_WHOLE_RUN, 0, 1, write_spectrum, NULL},
    {"timeline", CHART_TIMELINE_WINDOW, 1, 0, write_timeline, /* a queue's triangle reads on a linear axis */
     "Each request's latency: "},
    {"requests", CHART_BARS_WINDOW, 0, 0, write_requests, "Requests, send to reply: "},
    {"summary", CHART_WHOLE_RUN, 0, 0, write_summary, "Percentiles: "},
};

int chart_kind_find(const char *name, size_t len)
{
    for (size_t k = 0; k < N_CHARTS; k++)
        if (strlen(chart_kinds[k].name) == len && strncmp(name, chart_kinds[k].name, len) == 0)
            return (int)k;
    return -1;
}
