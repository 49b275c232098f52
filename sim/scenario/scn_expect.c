/* scn_expect.c - the grammar of [expect NAME] keys and values. */
#include "scn_expect.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const metric_names[] = {
    [EXPECT_PLANNED] = "planned", [EXPECT_SENT] = "sent", [EXPECT_RECORDED] = "recorded",
    [EXPECT_IN_FLIGHT] = "in_flight_at_end", [EXPECT_OVER] = "over_threshold",
    [EXPECT_DROPPED_ARRIVALS] = "dropped_arrivals", [EXPECT_TIMEOUTS] = "timeouts",
    [EXPECT_WARMUP_SKIPPED] = "warmup_skipped", [EXPECT_ADDED] = "added", [EXPECT_MIN] = "min",
    [EXPECT_MEAN] = "mean", [EXPECT_MAX] = "max",
};
const names_table scn_expect_metric_names = {metric_names, ARRAY_SIZE(metric_names)};

int scn_expect_metric_is_duration(expect_metric m)
{
    return m >= EXPECT_MIN;
}

int scn_expect_parse_key(const char *key, expect_item *x, const char **why)
{
    int m = names_find(scn_expect_metric_names, key);
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

/* The grammar of scn_expect_parse_value on buf, a copy of the text cut up here. */
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

int scn_expect_parse_value(const char *text, int is_duration, expect_item *x, char *why, size_t whylen)
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
