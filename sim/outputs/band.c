/* band.c - percentiles over several seeds, with confidence intervals. */
#include "band.h"
#include "levels.h"
#include "stats.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct band {
    unsigned seeds;
    size_t n_testers;
    size_t n_levels;     /* levels_count(LEVELS_BAND) */
    double *v;           /* [seed][tester][level], ns */
    uint64_t *min_count; /* per tester: the fewest samples over the seeds */
    unsigned *empty;     /* per tester: the seeds in which it recorded none */
};

int band_new(band **out, const run_reps *reps)
{
    *out = NULL;
    band *b = calloc(1, sizeof *b);
    if (!b)
        return -ENOMEM;
    size_t nt = reps->n_testers ? reps->n_testers : 1;
    b->seeds = reps->n;
    b->n_testers = reps->n_testers;
    b->n_levels = levels_count(LEVELS_BAND);
    b->v = calloc((size_t)reps->n * nt * b->n_levels, sizeof *b->v);
    b->min_count = calloc(nt, sizeof *b->min_count);
    b->empty = calloc(nt, sizeof *b->empty);
    if (!b->v || !b->min_count || !b->empty) {
        band_free(b);
        return -ENOMEM;
    }
    for (unsigned r = 0; r < reps->n; r++)
        for (size_t i = 0; i < b->n_testers; i++) {
            uint64_t count = run_reps_count(reps, r, i);
            if (r == 0 || count < b->min_count[i])
                b->min_count[i] = count;
            b->empty[i] += count == 0;
            for (size_t k = 0; k < b->n_levels; k++)
                b->v[((size_t)r * b->n_testers + i) * b->n_levels + k] = (double)run_reps_value_ns(reps, r, i, k);
        }
    *out = b;
    return 0;
}

void band_free(band *b)
{
    if (!b)
        return;
    free(b->v);
    free(b->min_count);
    free(b->empty);
    free(b);
}

unsigned band_seeds(const band *b)
{
    return b->seeds;
}

void band_get(const band *b, size_t i, size_t k, double *mean, double *ci)
{
    /* seed r's value at [r][i][k]: a stride of n_testers x levels */
    stats_mean_t95(&b->v[i * b->n_levels + k], b->seeds, b->n_testers * b->n_levels, mean, ci);
}

/* Band level k's place on the spectrum's axis, x = 1 / (1 - p). */
static double level_x(size_t k)
{
    return 1.0 / (1.0 - levels_nth(LEVELS_BAND, k)->fraction);
}

/* The band's relative half-width (ci / mean) at x = 1/(1-p) for tester i,
 * interpolated in log x between the levels k0 <= k1 that bracket it (k0 =
 * k1 at a level). */
static double band_rel_at(const band *b, size_t i, double x, size_t first, size_t last)
{
    size_t k = first;
    while (k < last && level_x(k + 1) <= x)
        k++;
    double m0, c0, m1, c1;
    band_get(b, i, k, &m0, &c0);
    double r0 = m0 > 0 ? c0 / m0 : 0;
    if (k == last)
        return r0;
    band_get(b, i, k + 1, &m1, &c1);
    double r1 = m1 > 0 ? c1 / m1 : 0;
    double x0 = level_x(k);
    double x1 = level_x(k + 1);
    double t = (log(x) - log(x0)) / (log(x1) - log(x0));
    return r0 + (r1 - r0) * (t < 0 ? 0 : t > 1 ? 1 : t);
}

int band_write(const band *b, FILE *f, const scenario *s, const run_result *r)
{
    fprintf(f, "# cosim spectrum band over %u seeds (%llu..%llu): a block per tester drawn;\n"
               "# columns: 1/(1-p) latency_ms low_ms high_ms: the spectrum's own points\n"
               "# (this run, seed %llu), -+ the 95%% confidence half-width of the mean over\n"
               "# the seeds as a share of that mean (interpolated in log x between the\n"
               "# levels 50%%, 75%%, 90%%, ...), from p50 to the last level every seed reaches\n",
            b->seeds, (unsigned long long)s->seed, (unsigned long long)(s->seed + b->seeds - 1),
            (unsigned long long)s->seed);
    /* the levels past p0 (the minimum: a band from it to p50, its chord
     * across the curve's climb, drew a wedge from 1 ns to 3 ms at 0-3% on
     * M/M/1) */
    size_t first = 0;
    while (first < b->n_levels && levels_nth(LEVELS_BAND, first)->fraction <= 0)
        first++;
    size_t block = 0;
    for (size_t i = 0; i < b->n_testers; i++) {
        const hist *h = r->testers[i].hist;
        if (hist_count(h) == 0 || s->testers[i].chart_hidden)
            continue; /* the spectrum has no block for it either */
        /* the last level the fewest samples reach */
        size_t last = first;
        while (last + 1 < b->n_levels &&
               level_x(last + 1) <= (double)b->min_count[i])
            last++;
        if (b->min_count[i] == 0 || first >= b->n_levels ||
            level_x(first) > (double)b->min_count[i]) {
            /* a seed without samples, or too few for p50: no band */
            fprintf(f, "%s# tester %s: a seed recorded %s\nnan nan nan nan\n", block++ ? "\n\n" : "",
                    s->testers[i].name, b->min_count[i] == 0 ? "no sample" : "too few samples");
            continue;
        }
        fprintf(f, "%s# tester %s\n", block++ ? "\n\n" : "", s->testers[i].name);
        double x_lo = level_x(first);
        double x_hi = level_x(last);
        /* the spectrum's rows (plot.c: the same iteration, so the band's
         * corners are the curve's and it surrounds the curve between them;
         * its chords between the levels ran under the curve's bend) */
        hist_iter it;
        hist_iter_init(&it, h, s->rank_rule, 5);
        double last_x = 0, x;
        while (hist_iter_next_spectrum(&it, &last_x, &x)) {
            if (x < x_lo * (1 - 1e-9) || x > x_hi * (1 + 1e-9))
                continue;
            double v = (double)it.value_ns / 1e6, rel = band_rel_at(b, i, x, first, last);
            fprintf(f, "%.2f %.6f %.6f %.6f\n", x, v, v * (1 - rel), v * (1 + rel));
        }
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* The index among the LEVELS_BAND levels of level l (every level is one). */
static size_t band_level_index(const level *l)
{
    size_t k = 0;
    while (levels_nth(LEVELS_BAND, k) && levels_nth(LEVELS_BAND, k) != l)
        k++;
    return k;
}

int band_report(const band *b, FILE *f, const scenario *s)
{
    fprintf(f, "\nover %u seeds (%llu..%llu): mean +- 95%% confidence half-width\n", b->seeds,
            (unsigned long long)s->seed, (unsigned long long)(s->seed + b->seeds - 1));
    size_t n_show = levels_count(LEVELS_HEADLINE);
    fprintf(f, "%-12s", "tester");
    for (size_t k = 0; k < n_show; k++)
        fprintf(f, " %22s", levels_nth(LEVELS_HEADLINE, k)->label);
    fputc('\n', f);
    for (size_t i = 0; i < b->n_testers; i++) {
        fprintf(f, "%-12s", s->testers[i].name);
        if (b->empty[i]) { /* never "0 ns +- 0 ns": there is no figure to average */
            char cell[48];
            if (b->empty[i] == b->seeds)
                snprintf(cell, sizeof cell, "no samples");
            else
                snprintf(cell, sizeof cell, "no samples in %u seed%s", b->empty[i], b->empty[i] > 1 ? "s" : "");
            for (size_t k = 0; k < n_show; k++)
                fprintf(f, " %22s", cell);
            fputc('\n', f);
            continue;
        }
        for (size_t k = 0; k < n_show; k++) {
            double m, c;
            char a[32], d[32], cell[80];
            band_get(b, i, band_level_index(levels_nth(LEVELS_HEADLINE, k)), &m, &c);
            snprintf(cell, sizeof cell, "%s +- %s", units_format_duration((int64_t)(m + 0.5), a, sizeof a),
                     units_format_duration((int64_t)(c + 0.5), d, sizeof d));
            fprintf(f, " %22s", cell);
        }
        fputc('\n', f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}
