/* band.c - percentiles over several seeds, with confidence intervals. */
#include "band.h"
#include "stats.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 0, then the nines and halves up to 99.999% (x = 1/(1-p) from 1 to 1e5) */
const double band_levels[] = {0, 0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999,
                              0.9995, 0.9998, 0.9999, 0.99995, 0.99998, 0.99999};
const size_t band_n_levels = sizeof band_levels / sizeof band_levels[0];

/* the same levels as exact fractions num / 100000 */
static const uint64_t level_num[] = {0, 50000, 75000, 90000, 95000, 98000, 99000, 99500, 99800,
                                     99900, 99950, 99980, 99990, 99995, 99998, 99999};

struct band {
    unsigned seeds;
    size_t n_testers;
    double *v;          /* [seed][tester][level], ns */
    uint64_t *min_count; /* per tester: the fewest samples over the seeds */
    unsigned *empty;     /* per tester: the seeds in which it recorded none */
};

static void gather(band *b, unsigned seed, const scenario *s, const run_result *r)
{
    for (size_t i = 0; i < b->n_testers; i++) {
        const hist *h = r->testers[i].hist;
        if (seed == 0 || hist_count(h) < b->min_count[i])
            b->min_count[i] = hist_count(h);
        b->empty[i] += hist_count(h) == 0;
        for (size_t k = 0; k < band_n_levels; k++)
            b->v[((size_t)seed * b->n_testers + i) * band_n_levels + k] =
                (double)hist_value_at_percentile(h, s->rank_rule, level_num[k], 100000);
    }
}

int band_run(band **out, const scenario *s, const run_result *r, unsigned n, run_observer observer, void *ctx,
             char *err, size_t errlen)
{
    *out = NULL;
    band *b = calloc(1, sizeof *b);
    if (!b)
        return -ENOMEM;
    b->seeds = n;
    b->n_testers = s->n_testers;
    b->v = calloc((size_t)n * s->n_testers * band_n_levels, sizeof *b->v);
    b->min_count = calloc(s->n_testers ? s->n_testers : 1, sizeof *b->min_count);
    b->empty = calloc(s->n_testers ? s->n_testers : 1, sizeof *b->empty);
    if (!b->v || !b->min_count || !b->empty) {
        band_free(b);
        return -ENOMEM;
    }
    gather(b, 0, s, r);
    scenario copy = *s; /* the arrays stay shared; only the seed changes */
    copy.hlog_interval_ns = 0; /* the interval log is the base seed's only */
    for (unsigned k = 1; k < n; k++) {
        copy.seed = s->seed + k;
        run_result rk;
        int rc = run_scenario_observed(&copy, observer, ctx, &rk, err, errlen);
        if (rc) {
            band_free(b);
            return rc;
        }
        gather(b, k, s, &rk);
        run_result_free(&rk);
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
    stats_mean_t95(&b->v[i * band_n_levels + k], b->seeds, b->n_testers * band_n_levels, mean, ci);
}

int band_write(const band *b, FILE *f, const scenario *s, const run_result *r)
{
    fprintf(f, "# cosim spectrum band over %u seeds (%llu..%llu): a block per tester;\n"
               "# columns: 1/(1-p) mean_ms low_ms high_ms (mean -+ 95%% confidence half-width)\n",
            b->seeds, (unsigned long long)s->seed, (unsigned long long)(s->seed + b->seeds - 1));
    size_t block = 0;
    for (size_t i = 0; i < b->n_testers; i++) {
        if (hist_count(r->testers[i].hist) == 0)
            continue; /* the spectrum has no block for it either */
        if (b->min_count[i] == 0) { /* a seed without samples: no mean to draw */
            fprintf(f, "%s# tester %s: a seed recorded no sample\nnan nan nan nan\n", block++ ? "\n\n" : "",
                    s->testers[i].name);
            continue;
        }
        fprintf(f, "%s# tester %s\n", block++ ? "\n\n" : "", s->testers[i].name);
        for (size_t k = 0; k < band_n_levels; k++) {
            /* only levels below the last sample of the smallest run */
            if (band_levels[k] > 0 && 1.0 / (1.0 - band_levels[k]) > (double)b->min_count[i])
                break;
            double m, c;
            band_get(b, i, k, &m, &c);
            fprintf(f, "%.2f %.6f %.6f %.6f\n", 1.0 / (1.0 - band_levels[k]), m / 1e6, (m - c) / 1e6,
                    (m + c) / 1e6);
        }
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int band_report(const band *b, FILE *f, const scenario *s)
{
    static const size_t show[3] = {1, 6, 9}; /* 50%, 99%, 99.9% */
    fprintf(f, "\nover %u seeds (%llu..%llu): mean +- 95%% confidence half-width\n", b->seeds,
            (unsigned long long)s->seed, (unsigned long long)(s->seed + b->seeds - 1));
    fprintf(f, "%-12s %22s %22s %22s\n", "tester", "p50", "p99", "p99.9");
    for (size_t i = 0; i < b->n_testers; i++) {
        fprintf(f, "%-12s", s->testers[i].name);
        if (b->empty[i]) { /* never "0 ns +- 0 ns": there is no figure to average */
            char cell[48];
            if (b->empty[i] == b->seeds)
                snprintf(cell, sizeof cell, "no samples");
            else
                snprintf(cell, sizeof cell, "no samples in %u seed%s", b->empty[i], b->empty[i] > 1 ? "s" : "");
            fprintf(f, " %22s %22s %22s\n", cell, cell, cell);
            continue;
        }
        for (int k = 0; k < 3; k++) {
            double m, c;
            char a[32], d[32], cell[80];
            band_get(b, i, show[k], &m, &c);
            snprintf(cell, sizeof cell, "%s +- %s", units_format_duration((int64_t)(m + 0.5), a, sizeof a),
                     units_format_duration((int64_t)(c + 0.5), d, sizeof d));
            fprintf(f, " %22s", cell);
        }
        fputc('\n', f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}
