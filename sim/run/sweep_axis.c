/* sweep_axis.c - one --vary of a sweep: KEY=FROM..TO:STEPS or
 * KEY=FROM..TO*FACTOR into the value texts, each checked as its key reads
 * it (units.h's one number grammar). */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most values of one --vary, and the longest unit. */
#define AXIS_MAX_VALUES 10000

/* Whether s (blanks around it aside) is digits only, a whole number as a
 * count key (scenario.seed) reads it, up to 2^64 - 1: 1 with its value in
 * *out, -1 (*why set) past 2^64 - 1, 0 when s is not digits only. */
static int whole_number(const char *s, uint64_t *out, const char **why)
{
    while (*s == ' ')
        s++;
    size_t n = strspn(s, "0123456789");
    if (n == 0 || s[n + strspn(s + n, " ")] != '\0')
        return 0;
    if (units_parse_count(s, UINT64_MAX, out, why) == 0)
        return 1;
    *why = "number too large: a whole number is at most 18446744073709551615 (2^64 - 1)";
    return -1;
}

/* Split "12.5ms" into 12.5 (the one number grammar, units.h), its decimals
 * and "ms". 0, or -1 with *why. */
static int split_number(const char *s, long double *v, unsigned *decimals, char *unit, size_t len, const char **why)
{
    const char *rest;
    uint64_t whole;
    int w = whole_number(s, &whole, why);
    if (w < 0)
        return -1;
    if (w > 0) { /* a seed may have 20 digits, beyond the 18 of a decimal */
        *v = (long double)whole;
        *decimals = 0;
        unit[0] = '\0';
        return 0;
    }
    if (units_parse_decimal_prefix(s, v, decimals, &rest, why))
        return -1;
    while (*rest == ' ')
        rest++;
    size_t n = strlen(rest);
    while (n > 0 && rest[n - 1] == ' ')
        n--;
    if (n > SWEEP_UNIT_MAX || n >= len) {
        *why = "the unit is longer than 31 characters";
        return -1;
    }
    memcpy(unit, rest, n);
    unit[n] = '\0';
    return 0;
}

/* v with `decimals` decimals, trailing zeros (and a bare point) dropped:
 * 0.1, 250, 1000000. At most 18 significant digits and 18 decimals, as the
 * grammar wants: decimals beyond them are rounded away. */
static void format_decimal(long double v, unsigned decimals, char *buf, size_t len)
{
    int d = decimals > 18 ? 18 : (int)decimals;
    if (v >= 1) { /* below 1 the zeros after the point are not significant */
        int int_digits = (int)floorl(log10l(v)) + 1;
        if (int_digits + d > 18)
            d = 18 - int_digits > 0 ? 18 - int_digits : 0;
    }
    snprintf(buf, len, "%.*Lf", d, v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *e = buf + strlen(buf) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
}

void sweep_axis_free(sweep_axis *a)
{
    for (size_t i = 0; i < a->n_values; i++)
        free(a->values[i]);
    free(a->values);
    a->values = NULL;
    a->n_values = 0;
}

/* The value text: a duration, a rate or a plain number, as the unit says;
 * each generated value is checked as the key will read it. 0 or -1. */
static int check_value(const char *text, const char *unit, const char **why)
{
    int64_t ns;
    units_interval iv;
    double x;
    if (unit[0] == '/')
        return units_parse_rate(text, &iv, why) ? -1 : 0;
    if (unit[0])
        return units_parse_duration(text, &ns, why) ? -1 : 0;
    uint64_t whole;
    int w = whole_number(text, &whole, why);
    if (w) /* a whole number: its key says whether it fits */
        return w < 0 ? -1 : 0;
    return units_parse_number(text, &x, why) ? -1 : 0;
}

/* The n values of an axis from FROM (dfrom decimals) to TO (dto): linear
 * steps (factor 0) or FROM x factor^i; each value is the number and the
 * unit, checked as its key reads it. 0, or a negative errno (err set for
 * -EINVAL). */
static int fill_values(sweep_axis *out, const char *opt, const char *text, size_t n, long double from, unsigned dfrom,
                       long double to, unsigned dto, long double factor, const char *ufrom, char *err,
                       size_t errlen)
{
    const char *why;
    out->values = calloc(n, sizeof *out->values);
    if (!out->values)
        return -ENOMEM;
    /* linear steps get 6 decimals more than FROM and TO; the ends are
     * printed with their own, so they are exactly what was given */
    unsigned dec = (dfrom > dto ? dfrom : dto) + 6;
    for (size_t i = 0; i < n; i++) {
        long double v = !factor ? from + (to - from) * (long double)i / (long double)(n - 1)
                               : from * powl(factor, (long double)i);
        char num[64], buf[128];
        if (i == 0 || (!factor && i == n - 1))
            format_decimal(i == 0 ? from : to, i == 0 ? dfrom : dto, num, sizeof num);
        else
            format_decimal(v, dec, num, sizeof num);
        snprintf(buf, sizeof buf, "%s%s", num, ufrom);
        if (i > 0 && i < n - 1 && check_value(buf, ufrom, &why)) { /* the ends: checked by the scenario */
            snprintf(err, errlen, "%s %s: the value %s (number %zu of %zu): %s", opt, text, buf, i + 1, n, why);
            sweep_axis_free(out);
            return -EINVAL;
        }
        out->values[i] = strdup(buf);
        if (!out->values[i]) {
            sweep_axis_free(out);
            return -ENOMEM;
        }
        out->n_values = i + 1;
    }
    return 0;
}

/* KEY=V1,V2,...: each value a number with the unit of the first, checked
 * as its key reads it, kept as written (blanks around it dropped). 0, or
 * a negative errno (err set for -EINVAL). */
static int list_values(sweep_axis *out, const char *opt, const char *text, char *list, char *err, size_t errlen)
{
    size_t n = 1;
    for (const char *c = list; *c; c++)
        n += *c == ',';
    if (n > AXIS_MAX_VALUES) {
        snprintf(err, errlen, "%s %s: more than %d values", opt, text, AXIS_MAX_VALUES);
        return -EINVAL;
    }
    out->values = calloc(n, sizeof *out->values);
    if (!out->values)
        return -ENOMEM;
    char first_unit[SWEEP_UNIT_MAX + 1] = "";
    char *next = list;
    for (size_t i = 0; i < n; i++) {
        char *tok = next, unit[SWEEP_UNIT_MAX + 1], *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        next = comma ? comma + 1 : tok + strlen(tok);
        long double x;
        unsigned dec;
        const char *why = "an empty value";
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len > 0 && tok[len - 1] == ' ')
            tok[--len] = '\0';
        int bad = !*tok || split_number(tok, &x, &dec, unit, sizeof unit, &why);
        if (!bad && i > 0 && strcmp(unit, first_unit) != 0) {
            bad = 1;
            why = "every value takes the unit of the first";
        }
        if (!bad && check_value(tok, unit, &why))
            bad = 1;
        if (bad) {
            snprintf(err, errlen, "%s %s: value %zu of %zu: %s", opt, text, i + 1, n, why);
            sweep_axis_free(out);
            return -EINVAL;
        }
        if (i == 0)
            memcpy(first_unit, unit, sizeof unit);
        out->values[i] = strdup(tok);
        if (!out->values[i]) {
            sweep_axis_free(out);
            return -ENOMEM;
        }
        out->n_values = i + 1;
    }
    return 0;
}

/* sweep_axis_parse for option opt ("--vary", "--zip": named in messages). */
static int parse_as(const char *opt, const char *text, sweep_axis *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *eq = strchr(text, '=');
    if (!eq || !strchr(text, '.') || eq == text) {
        snprintf(err, errlen, "%s %s: expected KEY=FROM..TO:STEPS, KEY=FROM..TO*FACTOR or KEY=V1,V2,..., "
                              "e.g. %s tester.open.rate=100/s..900/s:5", opt, text, opt);
        return -EINVAL;
    }
    if ((size_t)(eq - text) >= sizeof out->key) {
        snprintf(err, errlen, "%s %.40s...: the key is longer than %zu characters", opt, text, sizeof out->key - 1);
        return -EINVAL;
    }
    memcpy(out->key, text, (size_t)(eq - text));
    out->key[eq - text] = '\0';
    char *range = strdup(eq + 1);
    if (!range)
        return -ENOMEM;
    int rc = -EINVAL;
    char *dots = strstr(range, "..");
    if (!dots && strchr(range, ',')) { /* a list */
        rc = list_values(out, opt, text, range, err, errlen);
        goto out;
    }
    char *colon = dots ? strrchr(dots, ':') : NULL, *star = dots ? strrchr(dots, '*') : NULL;
    long double from, to;
    unsigned dfrom, dto;
    char ufrom[SWEEP_UNIT_MAX + 1], uto[SWEEP_UNIT_MAX + 1];
    const char *why;
    size_t n = 0;
    long double factor = 0;
    if (!dots || (!colon == !star)) {
        snprintf(err, errlen, "%s %s: expected FROM..TO:STEPS, FROM..TO*FACTOR or V1,V2,...", opt, text);
        goto out;
    }
    *dots = '\0';
    char *mark = colon ? colon : star;
    *mark = '\0';
    if (split_number(range, &from, &dfrom, ufrom, sizeof ufrom, &why) ||
        split_number(dots + 2, &to, &dto, uto, sizeof uto, &why)) {
        snprintf(err, errlen, "%s %s: FROM and TO must be numbers with the same unit: %s", opt, text, why);
        goto out;
    }
    if (strcmp(ufrom, uto) != 0 || to < from) {
        snprintf(err, errlen, "%s %s: FROM and TO must be numbers with the same unit, FROM <= TO", opt, text);
        goto out;
    }
    if (colon) {
        uint64_t steps;
        if (units_parse_count(mark + 1, AXIS_MAX_VALUES, &steps, &why) || steps < 2) {
            snprintf(err, errlen, "%s %s: STEPS is a whole number from 2 to %d", opt, text, AXIS_MAX_VALUES);
            goto out;
        }
        n = (size_t)steps;
    } else {
        double f;
        if (units_parse_number(mark + 1, &f, &why) || !(f > 1 && f < 1e6)) {
            snprintf(err, errlen, "%s %s: FACTOR is a number above 1 (and below 1000000)", opt, text);
            goto out;
        }
        factor = (long double)f;
        if (from <= 0) {
            snprintf(err, errlen, "%s %s: a geometric range starts above zero", opt, text);
            goto out;
        }
        /* FROM x FACTOR^i up to TO (a hair over, for the rounding of TO) */
        for (long double v = from; v <= to * (1 + 1e-12L); v *= factor)
            if (++n > AXIS_MAX_VALUES) {
                snprintf(err, errlen, "%s %s: more than %d values; take a larger FACTOR", opt, text,
                         AXIS_MAX_VALUES);
                goto out;
            }
    }
    rc = fill_values(out, opt, text, n, from, dfrom, to, dto, colon ? 0 : factor, ufrom, err, errlen);
    if (rc)
        goto out;
    rc = 0;
out:
    free(range);
    return rc;
}

void sweep_axis_unit(const sweep_axis *a, char *unit, size_t len)
{
    long double x;
    unsigned dec;
    const char *why;
    if (a->n_values == 0 || split_number(a->values[0], &x, &dec, unit, len, &why))
        unit[0] = '\0';
}

int sweep_value_number(const char *value, long double *x)
{
    char unit[SWEEP_UNIT_MAX + 1];
    unsigned dec;
    const char *why;
    return split_number(value, x, &dec, unit, sizeof unit, &why);
}

int sweep_axis_parse(const char *text, sweep_axis *out, char *err, size_t errlen)
{
    return parse_as("--vary", text, out, err, errlen);
}

int sweep_axis_parse_zip(const char *text, sweep_axis *out, char *err, size_t errlen)
{
    int rc = parse_as("--zip", text, out, err, errlen);
    out->zipped = 1;
    return rc;
}
