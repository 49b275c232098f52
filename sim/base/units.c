/* units.c - exact decimal parsing of durations and rates; human formatting. */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* A decimal "123.456" read as mantissa 123456 and 3 decimals. At most 18
 * significant digits, so the mantissa fits in uint64_t. */
typedef struct decimal {
    uint64_t mant;
    unsigned decimals;
} decimal;

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Parse a decimal at *sp; advance *sp past it. Returns 0 or -EINVAL.
 *
 * The one number grammar of cosim (docs/scenario-format.md, "Numbers"):
 * DIGITS or DIGITS.DIGITS, at most 18 significant digits and 18 decimals.
 * No sign, no exponent, no hexadecimal, no inf or nan, no point without a
 * digit on both sides (".5", "5."): what strtod would take beyond that is
 * refused with the reason. */
static int parse_decimal(const char **sp, decimal *out, const char **why)
{
    const char *s = *sp;
    uint64_t mant = 0;
    unsigned digits = 0, decimals = 0, pending = 0; /* pending: zeros of the fraction not yet followed by a digit */
    int seen_point = 0, int_digits = 0, frac_digits = 0;

    if (*s == '-' || *s == '+') {
        *why = "a sign is not accepted (values are never negative)";
        return -EINVAL;
    }
    if (*s == '.') {
        *why = "a decimal point needs a digit before it (0.5, not .5)";
        return -EINVAL;
    }
    for (;; s++) {
        if (*s == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            break;
        if (seen_point)
            frac_digits++;
        else
            int_digits++;
        if (mant == 0 && *s == '0') {
            if (seen_point)
                decimals++;
            continue; /* leading zeros are not significant */
        }
        if (seen_point && *s == '0') {
            pending++; /* nor are trailing ones (7.000ms is 7ms): counted once a digit follows */
            continue;
        }
        for (; pending; pending--) {
            if (++digits > 18) {
                *why = "too many digits (at most 18 significant)";
                return -EINVAL;
            }
            mant *= 10;
            decimals++;
        }
        if (++digits > 18) {
            *why = "too many digits (at most 18 significant)";
            return -EINVAL;
        }
        mant = mant * 10 + (uint64_t)(*s - '0');
        if (seen_point)
            decimals++;
    }
    if (!int_digits) {
        *why = (*s == 'i' || *s == 'I' || *s == 'n' || *s == 'N')
                   ? "expected a decimal number such as 0.25 (inf and nan are not numbers here)"
                   : "expected a number";
        return -EINVAL;
    }
    if (seen_point && !frac_digits) {
        *why = "a decimal point needs a digit after it (5 or 5.0, not 5.)";
        return -EINVAL;
    }
    if (*s == ',' && isdigit((unsigned char)s[1])) {
        *why = "a comma is not accepted in a number: the decimal separator is a point (0.5, not 0,5), "
               "and thousands are not separated (1000, not 1,000)";
        return -EINVAL;
    }
    if (*s == '.') {
        *why = "a number has at most one decimal point";
        return -EINVAL;
    }
    if ((*s == 'x' || *s == 'X') && int_digits == 1 && !seen_point && mant == 0) {
        *why = "hexadecimal numbers are not accepted; write the number in decimal";
        return -EINVAL;
    }
    if ((*s == 'e' || *s == 'E') &&
        (isdigit((unsigned char)s[1]) || ((s[1] == '-' || s[1] == '+') && isdigit((unsigned char)s[2])))) {
        *why = "an exponent is not accepted; write the number out (1000, not 1e3)";
        return -EINVAL;
    }
    if (decimals + pending > 18) {
        *why = "too many decimals (at most 18)";
        return -EINVAL;
    }
    out->mant = mant;
    out->decimals = decimals;
    *sp = s;
    return 0;
}

static uint64_t pow10u(unsigned k)
{
    uint64_t p = 1;
    while (k--)
        p *= 10;
    return p;
}

struct unit {
    const char *name;
    int64_t ns;
};

static const struct unit duration_units[] = {
    {"ns", 1}, {"us", 1000}, {"\xc2\xb5s", 1000}, {"\xce\xbcs", 1000}, {"ms", 1000000}, {"s", 1000000000},
    {"min", (int64_t)60 * 1000000000}, {NULL, 0},
};

/* Match a unit name at s exactly up to trailing blanks. */
static const struct unit *match_unit(const char *s, const struct unit *table)
{
    for (const struct unit *u = table; u->name; u++) {
        size_t n = strlen(u->name);
        if (strncmp(s, u->name, n) == 0 && *skip_blanks(s + n) == '\0')
            return u;
    }
    return NULL;
}

int units_parse_duration(const char *text, int64_t *out_ns, const char **why)
{
    const char *s = skip_blanks(text);
    decimal d;
    int rc = parse_decimal(&s, &d, why);
    if (rc)
        return rc;
    if (*skip_blanks(s) == '\0') {
        *why = "a duration needs a unit: ns, us (or \xc2\xb5s), ms, s or min (e.g. 500ms)";
        return -EINVAL;
    }
    const struct unit *u = match_unit(skip_blanks(s), duration_units);
    if (!u) {
        *why = "unknown unit; use ns, us (or \xc2\xb5s), ms, s or min (e.g. 2.5s, 500ms, 100us)";
        return -EINVAL;
    }
    u128 total = (u128)d.mant * (uint64_t)u->ns;
    uint64_t scale = pow10u(d.decimals);
    if (total % scale != 0) {
        *why = "not a whole number of nanoseconds";
        return -EINVAL;
    }
    total /= scale;
    if (total > (u128)UNITS_MAX_DURATION_NS) {
        *why = "too long: at most 1000000s";
        return -ERANGE;
    }
    *out_ns = (int64_t)total;
    return 0;
}

uint64_t units_gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static u128 gcd_u128(u128 a, u128 b)
{
    while (b) {
        u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Reduce num/den exactly; -ERANGE if the reduced fraction does not fit in
 * 64-bit numerator and denominator (it is never approximated). */
static int reduce_interval(u128 num, u128 den, units_interval *out)
{
    if (num == 0 || den == 0)
        return -ERANGE;
    u128 g = gcd_u128(num, den);
    num /= g;
    den /= g;
    if (num > UINT64_MAX || den > UINT64_MAX)
        return -ERANGE;
    out->num_ns = (uint64_t)num;
    out->den = (uint64_t)den;
    return 0;
}

int units_parse_rate(const char *text, units_interval *out, const char **why)
{
    const char *s = skip_blanks(text);
    decimal d;
    int rc = parse_decimal(&s, &d, why);
    if (rc)
        return rc;
    s = skip_blanks(s);
    if (*s != '/') {
        *why = "a rate needs a unit: a number followed by /s (e.g. 1000/s)";
        return -EINVAL;
    }
    s = skip_blanks(s + 1);
    const struct unit *u = match_unit(s, duration_units);
    if (!u) {
        *why = "unknown rate unit; use /s, /ms, /us or /min (e.g. 1000/s)";
        return -EINVAL;
    }
    if (d.mant == 0) {
        *why = "a rate must be above zero";
        return -EINVAL;
    }
    /* rate = mant / 10^dec per u->ns nanoseconds, so the interval is
     * u->ns * 10^dec / mant nanoseconds. */
    u128 num = (u128)(uint64_t)u->ns * pow10u(d.decimals);
    u128 den = d.mant;
    /* Range: at least 1/1000 ns, at most the longest duration. */
    if (num * 1000 < den) {
        *why = "rate too high: more than 10^12 per second";
        return -ERANGE;
    }
    if (num / den > (u128)UNITS_MAX_DURATION_NS) {
        *why = "rate too low: less than one per 1000000s";
        return -ERANGE;
    }
    if (reduce_interval(num, den, out)) {
        *why = "too many digits: the interval cannot be kept exactly; give fewer digits";
        return -ERANGE;
    }
    return 0;
}

int units_parse_number(const char *text, double *out, const char **why)
{
    const char *s = skip_blanks(text);
    decimal d;
    const char *start = s;
    int rc = parse_decimal(&s, &d, why);
    if (rc)
        return rc;
    if (*skip_blanks(s) != '\0') {
        *why = "expected a plain number such as 0.2 (digits and at most one '.', no unit)";
        return -EINVAL;
    }
    /* the text is a plain decimal now: strtod rounds it correctly */
    *out = strtod(start, NULL);
    return 0;
}

int units_parse_decimal_prefix(const char *text, long double *out, unsigned *decimals, const char **rest,
                               const char **why)
{
    const char *s = skip_blanks(text);
    const char *start = s;
    decimal d;
    int rc = parse_decimal(&s, &d, why);
    if (rc)
        return rc;
    *out = strtold(start, NULL); /* a plain decimal now: rounded to nearest */
    const char *dot = memchr(start, '.', (size_t)(s - start));
    *decimals = dot ? (unsigned)(s - dot - 1) : 0;
    *rest = s;
    return 0;
}

int units_parse_count(const char *text, uint64_t max, uint64_t *out, const char **why)
{
    const char *s = skip_blanks(text);
    uint64_t v = 0;
    int any = 0;
    for (; isdigit((unsigned char)*s); s++) {
        any = 1;
        unsigned dgt = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - dgt) / 10) {
            *why = "number too large";
            return -ERANGE;
        }
        v = v * 10 + dgt;
    }
    if (!any || *skip_blanks(s) != '\0') {
        *why = "expected a whole number (digits only)";
        return -EINVAL;
    }
    if (v > max) {
        *why = "number too large";
        return -ERANGE;
    }
    *out = v;
    return 0;
}

int units_parse_percentile(const char *text, uint64_t *num, uint64_t *den, const char **why)
{
    const char *s = skip_blanks(text);
    decimal d;
    int rc = parse_decimal(&s, &d, why);
    if (rc)
        return rc;
    if (*skip_blanks(s) != '\0') {
        *why = "expected a percentile such as 99.9";
        return -EINVAL;
    }
    if (d.decimals > 9) {
        *why = "at most 9 decimals";
        return -EINVAL;
    }
    /* p/100 = mant / (100 * 10^decimals) */
    uint64_t dn = 100 * pow10u(d.decimals);
    if (d.mant > dn) {
        *why = "a percentile is between 0 and 100";
        return -EINVAL;
    }
    uint64_t g = d.mant ? units_gcd_u64(d.mant, dn) : dn;
    *num = d.mant / g;
    *den = dn / g;
    return 0;
}

int64_t units_interval_floor_ns(units_interval iv)
{
    return (int64_t)(iv.num_ns / iv.den);
}

int64_t units_interval_at(units_interval iv, int64_t anchor_ns, uint64_t i)
{
    uint64_t off_ns; /* whole-ns intervals: no division (none per request on the hot path) */
    if (iv.den == 1 && !__builtin_mul_overflow(i, iv.num_ns, &off_ns) && off_ns <= (uint64_t)INT64_MAX &&
        (int64_t)off_ns <= INT64_MAX - anchor_ns)
        return anchor_ns + (int64_t)off_ns;
    u128 off = (u128)i * iv.num_ns / iv.den;
    u128 t = (u128)anchor_ns + off;
    return t > (u128)INT64_MAX ? INT64_MAX : (int64_t)t;
}

uint64_t units_interval_count_before(units_interval iv, int64_t anchor_ns, int64_t end_ns)
{
    if (end_ns <= anchor_ns)
        return 0;
    /* floor(i*num/den) < T  <=>  i*num/den < T (T whole)  <=>  i*num < T*den,
     * so the count is ceil(T*den/num). */
    u128 t = (u128)(uint64_t)(end_ns - anchor_ns) * iv.den;
    u128 c = (t + iv.num_ns - 1) / iv.num_ns;
    return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

int units_interval_mul(units_interval iv, uint64_t k, units_interval *out)
{
    if (k == 0)
        return -ERANGE;
    uint64_t g = units_gcd_u64(k, iv.den), num;
    if (__builtin_mul_overflow(iv.num_ns, k / g, &num))
        return -ERANGE;
    out->num_ns = num;
    out->den = iv.den / g;
    return 0;
}

units_interval units_interval_scale(units_interval iv, uint64_t k)
{
    units_interval out;
    if (units_interval_mul(iv, k, &out)) { /* callers check first; never wrap */
        out.num_ns = UINT64_MAX;
        out.den = 1;
    }
    return out;
}

char *units_format_duration(int64_t ns, char *buf, size_t len)
{
    static const struct {
        int64_t scale;
        const char *name;
    } u[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}, {1, "ns"}};
    int64_t a = ns < 0 ? -ns : ns;
    for (size_t i = 0; i < 4; i++) {
        if (a >= u[i].scale || i == 3) {
            if (u[i].scale == 1) {
                snprintf(buf, len, "%lld ns", (long long)ns);
                return buf;
            }
            double v = (double)ns / (double)u[i].scale;
            double av = fabs(v);
            int prec = av >= 1000 ? 0 : av >= 100 ? 1 : av >= 10 ? 2 : 3;
            snprintf(buf, len, "%.*f %s", prec, v, u[i].name);
            /* 999.95 ms rounds to "1000.0 ms": keep it, the digits are right */
            return buf;
        }
    }
    return buf;
}

char *units_format_duration_exact(int64_t ns, char *buf, size_t len)
{
    static const struct {
        int64_t scale;
        const char *name;
    } u[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}, {1, "ns"}};
    if (ns == 0) {
        snprintf(buf, len, "0s");
        return buf;
    }
    for (size_t i = 0; i < 4; i++) {
        if (ns >= u[i].scale || i == 3) {
            int64_t whole = ns / u[i].scale, frac = ns % u[i].scale;
            if (frac == 0) {
                snprintf(buf, len, "%lld%s", (long long)whole, u[i].name);
            } else {
                /* decimals: strip trailing zeros of the fraction */
                char f[24]; /* room for any int64 (the fraction has at most 9 digits) */
                int width = i == 0 ? 9 : i == 1 ? 6 : 3;
                snprintf(f, sizeof f, "%0*lld", width, (long long)frac);
                for (int k = (int)strlen(f) - 1; k > 0 && f[k] == '0'; k--)
                    f[k] = '\0';
                snprintf(buf, len, "%lld.%s%s", (long long)whole, f, u[i].name);
            }
            return buf;
        }
    }
    return buf;
}

char *units_format_number(double x, char *buf, size_t len)
{
    if (!(x >= 0) || isinf(x) || len == 0) {
        snprintf(buf, len, "%g", x);
        return buf;
    }
    if (x == 0) {
        snprintf(buf, len, "0");
        return buf;
    }
    int p = 1;
    char e[40];
    for (; p < 17; p++) { /* the shortest that reads back */
        snprintf(e, sizeof e, "%.*e", p - 1, x);
        if (strtod(e, NULL) == x)
            break;
    }
    snprintf(e, sizeof e, "%.*e", p - 1, x);
    int exp10 = atoi(strchr(e, 'e') + 1);
    int decimals = p - 1 - exp10 > 0 ? p - 1 - exp10 : 0;
    int n = snprintf(buf, len, "%.*f", decimals, x);
    if (n < 0 || (size_t)n >= len) {
        snprintf(buf, len, "%g", x);
        return buf;
    }
    if (strchr(buf, '.')) { /* rounding may leave zeros at the end */
        char *end = buf + n - 1;
        while (*end == '0')
            *end-- = '\0';
        if (*end == '.')
            *end = '\0';
    }
    return buf;
}

char *units_format_count(uint64_t n, char *buf, size_t len)
{
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)n);
    char out[40];
    int o = 0;
    for (int i = 0; i < k; i++) {
        if (i > 0 && (k - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = tmp[i];
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
    return buf;
}

int units_parse_window(const char *text, int64_t *start_ns, int64_t *end_ns, units_window_error *err)
{
    const char *dots = strstr(text, "..");
    err->side = 0;
    err->dots = 0;
    if (!dots) {
        err->why = "expected START..END with units, e.g. 0.85s..1.6s";
        return -EINVAL;
    }
    err->dots = (size_t)(dots - text);
    char *start = strndup(text, err->dots);
    if (!start) {
        err->why = "out of memory";
        return -ENOMEM;
    }
    int rc = units_parse_duration(start, start_ns, &err->why);
    free(start);
    if (rc) {
        err->side = 1;
        return rc;
    }
    rc = units_parse_duration(dots + 2, end_ns, &err->why);
    if (rc)
        err->side = 2;
    return rc;
}
