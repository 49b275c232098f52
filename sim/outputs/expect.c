/* expect.c - expectations against results. */
#include "expect.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t expect_got(const scenario *s, const expect_item *x, const tester_result *t)
{
    switch (x->metric) {
    case EXPECT_PLANNED:
        return (int64_t)t->planned;
    case EXPECT_SENT:
        return (int64_t)t->sent;
    case EXPECT_RECORDED:
        return (int64_t)hist_count(t->hist);
    case EXPECT_IN_FLIGHT:
        return (int64_t)t->in_flight_at_end;
    case EXPECT_OVER:
        return (int64_t)t->over_threshold;
    case EXPECT_DROPPED_ARRIVALS:
        return (int64_t)t->dropped_arrivals;
    case EXPECT_TIMEOUTS:
        return (int64_t)t->timeouts;
    case EXPECT_WARMUP_SKIPPED:
        return (int64_t)t->warmup_skipped;
    case EXPECT_ADDED:
        return (int64_t)t->added;
    case EXPECT_MIN:
        return hist_min(t->hist);
    case EXPECT_MEAN:
        return (int64_t)llround(hist_mean(t->hist));
    case EXPECT_MAX:
        return hist_max(t->hist);
    case EXPECT_PERCENTILE:
        return hist_value_at_percentile(t->hist, s->rank_rule, x->p_num, x->p_den);
    }
    return 0;
}

int expect_meets(const expect_item *x, int64_t got, const hist *h)
{
    double diff = fabs((double)got - (double)x->value);
    switch (x->tol) {
    case EXPECT_ABSOLUTE:
        return diff <= (double)x->tol_abs;
    case EXPECT_RELATIVE:
        return diff <= x->tol_rel * fabs((double)x->value) * (1 + 1e-12);
    case EXPECT_EXACT:
        if (x->metric == EXPECT_PERCENTILE) {
            /* the histogram cannot tell values of one bucket apart */
            uint64_t lo, hi;
            hist_bucket_range(hist_index_of((uint64_t)got, hist_sub_bits(h)), hist_sub_bits(h), &lo, &hi);
            return x->value >= (int64_t)lo && x->value <= got;
        }
        return got == x->value;
    }
    return 0;
}

static int is_duration(const expect_item *x)
{
    return scn_expect_metric_is_duration(x->metric);
}

static char *fmt_value(const expect_item *x, int64_t v, char *buf, size_t len)
{
    return is_duration(x) ? units_format_duration(v, buf, len) : units_format_count((uint64_t)v, buf, len);
}

static char *fmt_expected(const expect_item *x, char *buf, size_t len)
{
    char v[32], t[32];
    fmt_value(x, x->value, v, sizeof v);
    switch (x->tol) {
    case EXPECT_EXACT:
        snprintf(buf, len, "%s exact", v);
        break;
    case EXPECT_ABSOLUTE:
        snprintf(buf, len, "%s +- %s", v, fmt_value(x, x->tol_abs, t, sizeof t));
        break;
    case EXPECT_RELATIVE:
        snprintf(buf, len, "%s +- %g%%", v, x->tol_rel * 100);
        break;
    }
    return buf;
}

size_t expect_check(FILE *out, FILE *err, const scenario *s, const run_result *r)
{
    size_t misses = 0, w = 6;
    for (size_t i = 0; i < s->n_testers; i++)
        if (strlen(s->testers[i].name) > w)
            w = strlen(s->testers[i].name);
    fprintf(out, "check: %s, seed %llu, %s rank\n", s->name, (unsigned long long)s->seed,
            hist_rank_rule_name(s->rank_rule));
    fprintf(out, "%-*s  %-17s %-22s %-12s %s\n", (int)w, "tester", "what", "expected", "got", "verdict");
    for (size_t i = 0; i < s->n_expects; i++) {
        const expect_item *x = &s->expects[i];
        const tester_result *t = &r->testers[x->tester];
        int64_t got = expect_got(s, x, t);
        /* a latency of a tester without samples does not exist: never "0 ns" */
        int none = is_duration(x) && hist_count(t->hist) == 0;
        int ok = !none && expect_meets(x, got, t->hist);
        char e[64], g[32], dev[32] = "";
        fmt_expected(x, e, sizeof e);
        if (none)
            snprintf(g, sizeof g, "no samples");
        else
            fmt_value(x, got, g, sizeof g);
        /* an exact percentile passes within its bucket: say so, or "exact"
         * beside two different numbers reads as a contradiction */
        int same_bucket = ok && x->tol == EXPECT_EXACT && x->metric == EXPECT_PERCENTILE && got != x->value;
        if (!none && x->value != 0 && got != x->value)
            snprintf(dev, sizeof dev, " (%+.1f%%%s)", ((double)got / (double)x->value - 1) * 100,
                     same_bucket ? ": the same bucket" : "");
        fprintf(out, "%-*s  %-17s %-22s %-12s %s%s\n", (int)w, s->testers[x->tester].name, x->key, e,
                g, ok ? "ok" : "MISS", dev);
        if (!ok) {
            misses++;
            if (x->line)
                fprintf(err, "cosim: %s:%d: [expect %s] %s: expected %s, got %s%s\n", s->path, x->line,
                        s->testers[x->tester].name, x->key, e, g, dev);
            else
                fprintf(err, "cosim: %s: [expect %s] %s: expected %s, got %s%s\n", x->set[0] ? x->set : "--set",
                        s->testers[x->tester].name, x->key, e, g, dev);
        }
    }
    if (s->n_expects == 0)
        fprintf(out, "check: %s has no [expect NAME] section: nothing to check\n", s->path);
    else
        fprintf(out, "check: %zu of %zu expectations met%s\n", s->n_expects - misses, s->n_expects,
                misses ? "" : " (all)");
    return misses;
}
