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

static const char *const metric_names[] = {
    [EXPECT_PLANNED] = "planned", [EXPECT_SENT] = "sent", [EXPECT_RECORDED] = "recorded",
    [EXPECT_IN_FLIGHT] = "in_flight_at_end", [EXPECT_OVER] = "over_threshold",
    [EXPECT_DROPPED_ARRIVALS] = "dropped_arrivals", [EXPECT_TIMEOUTS] = "timeouts",
    [EXPECT_WARMUP_SKIPPED] = "warmup_skipped", [EXPECT_ADDED] = "added", [EXPECT_MIN] = "min",
    [EXPECT_MEAN] = "mean", [EXPECT_MAX] = "max",
};
const names_table expect_metric_names = {metric_names, ARRAY_SIZE(metric_names)};

int expect_metric_is_duration(expect_metric m)
{
    return m >= EXPECT_MIN;
}

static int is_duration(const expect_item *x)
{
    return expect_metric_is_duration(x->metric);
}

int expect_parse_key(const char *key, expect_item *x, const char **why)
{
    int m = names_find(expect_metric_names, key);
    if (m >= 0) {
        x->metric = (expect_metric)m;
        return 0;
    }
    if (key[0] != 'p' || !key[1] || !strchr("0123456789.+-", key[1]))
        return -ENOENT;
    /* a percentile key: a wrong one says what is wrong with it */
    if (units_parse_percentile(key + 1, &x->p_num, &x->p_den, why) != 0)
        return -EINVAL;
    x->metric = EXPECT_PERCENTILE;
    return 0;
}

/* VALUE, a count or a duration, into *out. */
static int parse_amount(const char *text, int is_dur, int64_t *out, const char **why)
{
    if (is_dur)
        return units_parse_duration(text, out, why);
    uint64_t n;
    if (units_parse_count(text, INT64_MAX, &n, why))
        return -EINVAL;
    *out = (int64_t)n;
    return 0;
}

/* TOL after "+-": a percentage, or an amount of VALUE's kind. */
static int parse_tolerance(char *tol, int is_dur, expect_item *x, char *why, size_t whylen)
{
    const char *w;
    size_t n = strlen(tol);
    if (n > 1 && tol[n - 1] == '%') {
        tol[n - 1] = '\0';
        double pct = 0;
        if (units_parse_number(tol, &pct, &w) || pct > 1000) {
            snprintf(why, whylen, "a relative tolerance is a percentage from 0 to 1000 such as 3%%%s%s",
                     pct > 1000 ? "" : ": ", pct > 1000 ? "" : w);
            return -EINVAL;
        }
        x->tol = EXPECT_RELATIVE;
        x->tol_rel = pct / 100;
        return 0;
    }
    if (parse_amount(tol, is_dur, &x->tol_abs, &w)) {
        snprintf(why, whylen, "%s", is_dur ? "the tolerance is a duration (0.1ms) or a percentage (3%)"
                                           : "the tolerance is a count (50) or a percentage (1%)");
        return -EINVAL;
    }
    x->tol = EXPECT_ABSOLUTE;
    return 0;
}

/* Trim blanks from both ends of s, in place. */
static char *trim_blanks(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = '\0';
    return s;
}

/* The grammar of expect_parse_value on buf, a copy of the text cut up here. */
static int parse_value(char *buf, int is_dur, expect_item *x, char *why, size_t whylen)
{
    char *tol = strstr(buf, "+-");
    if (!tol)
        tol = strstr(buf, "\xc2\xb1"); /* U+00B1, two bytes like "+-" */
    char *exact = strstr(buf, "exact");
    if (tol) {
        *tol = '\0';
        tol = trim_blanks(tol + 2);
    } else if (exact) {
        if (*trim_blanks(exact + 5)) {
            snprintf(why, whylen, "nothing may follow 'exact'");
            return -EINVAL;
        }
        *exact = '\0';
    }
    const char *w;
    if (parse_amount(trim_blanks(buf), is_dur, &x->value, &w)) {
        snprintf(why, whylen, "%s", is_dur ? "expected a duration and a tolerance, e.g. 1.87ms +- 3%"
                                           : "expected a count and a tolerance, e.g. 18000 +- 1%");
        return -EINVAL;
    }
    x->tol = EXPECT_EXACT;
    return tol ? parse_tolerance(tol, is_dur, x, why, whylen) : 0;
}

int expect_parse_value(const char *text, int is_duration, expect_item *x, char *why, size_t whylen)
{
    char *buf = strdup(text);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        return -ENOMEM;
    }
    int rc = parse_value(buf, is_duration, x, why, whylen);
    free(buf);
    return rc;
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
