/* gclog_jdk.c - pauses from JVM logs (part of the gclog module, API in
 * gclog.h): JDK 9+ unified logging (-Xlog:gc, safepoint) and JDK 8
 * -XX:+PrintGCDetails logs, and the time stamps they carry. */
#include "gclog_internal.h"
#include "textin.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

/* ---- time stamps and lengths ---- */

/* The two-digit number at s. */
static int64_t num2(const char *s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

/* Days since 1970-01-01 of a proleptic Gregorian date (the era-based
 * "days from civil" formula: years counted from March so the leap day is
 * last; H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

size_t gcl_parse_iso(const char *s, size_t n, int64_t *out)
{
    if (n < 19 || gcl_digits_at(s, 4) != 4 || s[4] != '-' || gcl_digits_at(s + 5, 2) != 2 || s[7] != '-' ||
        gcl_digits_at(s + 8, 2) != 2 || s[10] != 'T' || gcl_digits_at(s + 11, 2) != 2 || s[13] != ':' ||
        gcl_digits_at(s + 14, 2) != 2 || s[16] != ':' || gcl_digits_at(s + 17, 2) != 2)
        return 0;
    int64_t y = num2(s) * 100 + num2(s + 2), mo = num2(s + 5), d = num2(s + 8);
    int64_t h = num2(s + 11), mi = num2(s + 14), se = num2(s + 17);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return 0;
    size_t i = 19;
    int64_t frac = 0;
    if (i < n && (s[i] == '.' || s[i] == ',') && i + 1 < n && gcl_is_digit(s[i + 1])) {
        size_t k = gcl_digits_at(s + i + 1, n - i - 1);
        if (k > 9)
            return 0;
        int64_t scale = NS_PER_S;
        for (size_t j = 0; j < k; j++) {
            scale /= 10;
            frac += (s[i + 1 + j] - '0') * scale;
        }
        i += 1 + k;
    }
    int64_t zone = 0;
    if (i < n && (s[i] == '+' || s[i] == '-') && n - i >= 5 && gcl_digits_at(s + i + 1, 4) == 4) {
        zone = (num2(s + i + 1) * 60 + num2(s + i + 3)) * 60 * (s[i] == '-' ? -1 : 1);
        i += 5;
    } else if (i < n && s[i] == 'Z') {
        i++;
    }
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - zone, ns;
    /* ns since 1970 fit int64 until the year 2262 */
    if (__builtin_mul_overflow(secs, NS_PER_S, &ns) || __builtin_add_overflow(ns, frac, &ns))
        return 0;
    *out = ns;
    return i;
}

/* A length "12.345ms" / "0.142s" / "12us" / "345ns": ns, or -1. */
static int parse_length(const char *s, size_t n, int comma_ok, int64_t *out)
{
    size_t k = textin_decimal_span(s, n, comma_ok);
    if (k == 0)
        return -EINVAL;
    int64_t per;
    const char *u = s + k;
    size_t un = n - k;
    if (un == 2 && memcmp(u, "ms", 2) == 0)
        per = NS_PER_MS;
    else if (un == 2 && memcmp(u, "us", 2) == 0)
        per = 1000;
    else if (un == 2 && memcmp(u, "ns", 2) == 0)
        per = 1;
    else if (un == 1 && u[0] == 's')
        per = NS_PER_S;
    else
        return -EINVAL;
    return textin_decimal(s, k, per, comma_ok, out);
}

/* ---- JDK unified logging ---- */

typedef struct decorations {
    int64_t up_ns, up_ms, up_s;       /* uptime decorators, -1 when absent */
    int64_t wall_ns, wall_ms, wall_iso; /* wall-clock decorators, -1 when absent */
    int level;                         /* 0 none, 1 trace/debug, 2 info or above */
    int start_tag;                     /* the tags include "start" */
} decorations;

/* Parse the "[...]" blocks at the start of a line. Returns the offset of
 * the message, or -1 with an error. */
static long parse_decorators(gcl_ctx *c, const char *s, size_t n, size_t line, decorations *d)
{
    d->up_ns = d->up_ms = d->up_s = d->wall_ns = d->wall_ms = d->wall_iso = -1;
    d->level = 0;
    d->start_tag = 0;
    size_t i = 0;
    while (i < n && s[i] == '[') {
        const char *close = memchr(s + i, ']', n - i);
        if (!close)
            break;
        const char *b = s + i + 1;
        size_t bn = (size_t)(close - b);
        while (bn && b[bn - 1] == ' ')
            bn--;
        int64_t v;
        size_t dg = gcl_digits_at(b, bn);
        if (bn && gcl_parse_iso(b, bn, &v) == bn) {
            d->wall_iso = v;
        } else if (dg && dg + 2 == bn && memcmp(b + dg, "ns", 2) == 0) {
            if (textin_decimal(b, dg, 1, 0, &v))
                return gcl_fail(c, -ERANGE, line, "the decorator [%.*s] is beyond 2^63 ns", (int)bn, b), -1;
            if (v >= INT64_C(1000000000000000000))
                d->wall_ns = v;
            else
                d->up_ns = v;
        } else if (dg && dg + 2 == bn && memcmp(b + dg, "ms", 2) == 0) {
            if (textin_decimal(b, dg, NS_PER_MS, 0, &v))
                return gcl_fail(c, -ERANGE, line, "the decorator [%.*s] is beyond 2^63 ns", (int)bn, b), -1;
            if (v >= INT64_C(1000000000000) * NS_PER_MS)
                d->wall_ms = v;
            else
                d->up_ms = v;
        } else if (dg && bn && b[bn - 1] == 's' && textin_decimal_span(b, bn - 1, 1) == bn - 1) {
            /* uptime "12.345s" (a decimal comma in some locales) */
            if (textin_decimal(b, bn - 1, NS_PER_S, 1, &v))
                return gcl_fail(c, -ERANGE, line, "the decorator [%.*s] is beyond 2^63 ns", (int)bn, b), -1;
            d->up_s = v;
        } else if (dg && dg != bn && (memchr(b, ':', bn) || memchr(b, '.', bn) || b[bn - 1] == 's')) {
            return gcl_fail(c, -EINVAL, line, "[%.*s] is not a time decorator (uptime 12.345s, uptimemillis 12345ms, "
                            "uptimenanos, or time 2024-01-15T10:30:45.123+0000)", (int)bn, b), -1;
        } else if ((bn == 5 && memcmp(b, "trace", 5) == 0) || (bn == 5 && memcmp(b, "debug", 5) == 0)) {
            d->level = 1;
        } else if ((bn == 4 && memcmp(b, "info", 4) == 0) || (bn == 7 && memcmp(b, "warning", 7) == 0) ||
                   (bn == 5 && memcmp(b, "error", 5) == 0)) {
            d->level = 2;
        } else if (bn && !dg) {
            /* tags such as "gc,start" */
            for (size_t j = 0; j + 5 <= bn; j++)
                if (memcmp(b + j, "start", 5) == 0 && (j == 0 || b[j - 1] == ',') &&
                    (j + 5 == bn || b[j + 5] == ','))
                    d->start_tag = 1;
        }
        i = (size_t)(close - s) + 1;
    }
    while (i < n && s[i] == ' ')
        i++;
    return (long)i;
}

/* The line's stamp: uptime preferred, then wall clock. 0 when it has none. */
static int pick_stamp(const decorations *d, int *clock, int64_t *t)
{
    if (d->up_ns >= 0 || d->up_ms >= 0 || d->up_s >= 0) {
        *clock = CLOCK_UPTIME;
        *t = d->up_ns >= 0 ? d->up_ns : d->up_ms >= 0 ? d->up_ms : d->up_s;
        return 1;
    }
    if (d->wall_ns >= 0 || d->wall_ms >= 0 || d->wall_iso >= 0) {
        *clock = CLOCK_WALL;
        *t = d->wall_ns >= 0 ? d->wall_ns : d->wall_ms >= 0 ? d->wall_ms : d->wall_iso;
        return 1;
    }
    return 0;
}

/* The length of a stopped-time line m[0..mn) (it starts with
 * GCL_STOPPED): "... stopped: 0.0123456 seconds" (decimal comma allowed). */
static int stopped_length(gcl_ctx *c, const char *m, size_t mn, size_t line, int64_t *len)
{
    const char *t = m + strlen(GCL_STOPPED);
    size_t rest = (size_t)(m + mn - t);
    size_t k = textin_decimal_span(t, rest, 1);
    if (!k || !textin_starts(t + k, rest - k, " seconds"))
        return gcl_fail(c, -EINVAL, line, "expected \"%sN seconds\"", GCL_STOPPED);
    if (textin_decimal(t, k, NS_PER_S, 1, len))
        return gcl_fail(c, -ERANGE, line, "the stopped time is beyond 2^63 ns");
    return 0;
}

/* Step *m, *mn past a unified message's "GC(12) " and a generation prefix
 * such as "y: ", and trailing blanks. */
static void skip_message_prefixes(const char **m, size_t *mn)
{
    while (*mn && ((*m)[*mn - 1] == ' ' || (*m)[*mn - 1] == '\t'))
        (*mn)--;
    if (textin_starts(*m, *mn, "GC(")) {
        size_t k = gcl_digits_at(*m + 3, *mn - 3);
        if (k && 3 + k < *mn && (*m)[3 + k] == ')') {
            *m += 4 + k;
            *mn -= 4 + k;
            while (*mn && **m == ' ')
                (*m)++, (*mn)--;
        }
    }
    const char *p = *m;
    if (*mn >= 3 && p[1] == ':' && p[2] == ' ' && ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z'))) {
        *m += 3;
        *mn -= 3;
    }
}

/* The pause a unified message m[0..mn) reports: 1 with its KIND_* and
 * length, 0 when it reports none, or a negative errno with the message. */
static int unified_pause(gcl_ctx *c, const decorations *d, const char *m, size_t mn, size_t line, int *kind,
                         int64_t *len)
{
    if (textin_starts(m, mn, "Pause ")) {
        if (d->level == 1)
            return 0; /* a debug sub-phase of a pause */
        const char *sp = m + mn;
        while (sp > m && sp[-1] != ' ')
            sp--;
        size_t tn = (size_t)(m + mn - sp);
        /* a length is the last word: digits and a unit ending in 's'; a
         * word ending in 's' that begins as a number would (a sign, a
         * point) or is NaN or Inf is a bad length, said, not a pause
         * skipped in silence ("Pause Init Update Refs", a start line, is
         * a word) */
        int numberish = tn && (gcl_is_digit(sp[0]) || sp[0] == '-' || sp[0] == '+' || sp[0] == '.' ||
                               (tn >= 3 && (strncasecmp(sp, "nan", 3) == 0 || strncasecmp(sp, "inf", 3) == 0)));
        int looks = numberish && sp[tn - 1] == 's';
        if (!looks || d->start_tag)
            return 0; /* the line that opens a pause (gc,start): no length */
        if (parse_length(sp, tn, 1, len))
            return gcl_fail(c, -EINVAL, line, "the pause length '%.*s' is not a number with a unit", (int)tn, sp);
        *kind = KIND_GC;
    } else if (textin_starts(m, mn, "Safepoint \"")) {
        const char *t = textin_find(m, mn, "Total: ");
        if (!t)
            return gcl_fail(c, -EINVAL, line, "a safepoint line without \"Total: N ns\"");
        t += 7;
        size_t k = gcl_digits_at(t, (size_t)(m + mn - t));
        if (!k || !textin_starts(t + k, (size_t)(m + mn - t - k), " ns"))
            return gcl_fail(c, -EINVAL, line, "a safepoint line whose \"Total:\" is not \"N ns\"");
        if (textin_decimal(t, k, 1, 0, len))
            return gcl_fail(c, -ERANGE, line, "the safepoint's total is beyond 2^63 ns");
        *kind = KIND_SAFEPOINT;
    } else if (textin_starts(m, mn, GCL_STOPPED)) {
        int rc = stopped_length(c, m, mn, line, len);
        if (rc)
            return rc;
        *kind = KIND_SAFEPOINT;
    } else {
        return 0;
    }
    return 1;
}

int gcl_unified_line(gcl_ctx *c, const char *s, size_t n, size_t line)
{
    decorations d;
    long off = parse_decorators(c, s, n, line, &d);
    if (off < 0)
        return -EINVAL;
    int clock;
    int64_t stamp = 0; /* read only when has_stamp (gcc -O3 cannot see it) */
    int has_stamp = pick_stamp(&d, &clock, &stamp);
    if (has_stamp) {
        int rc = gcl_note_stamp(c, clock, stamp, line);
        if (rc)
            return rc;
    }
    const char *m = s + off;
    size_t mn = n - (size_t)off;
    skip_message_prefixes(&m, &mn);
    int kind = KIND_GC;
    int64_t len = 0;
    int found = unified_pause(c, &d, m, mn, line, &kind, &len);
    if (found <= 0)
        return found;
    if (!has_stamp)
        return gcl_fail(c, -EINVAL, line,
                        "a pause line without a time decorator: log with -Xlog:gc:FILE:uptime (or uptimemillis, "
                        "uptimenanos, time, utctime)");
    /* end-stamped: [stamp - length, stamp) */
    return gcl_add_pause(c, kind, stamp - len, stamp, line);
}

/* ---- JDK 8 ---- */

size_t gcl_jdk8_stamps(const char *s, size_t n, int *has_up, int64_t *up, int *has_wall, int64_t *wall, int *bad)
{
    size_t i = 0;
    *has_up = *has_wall = *bad = 0;
    for (;;) {
        int64_t v;
        size_t k = gcl_parse_iso(s + i, n - i, &v);
        if (k && i + k + 1 < n && s[i + k] == ':' && s[i + k + 1] == ' ') {
            *wall = v;
            *has_wall = 1;
            i += k + 2;
            continue;
        }
        k = textin_decimal_span(s + i, n - i, 1);
        if (k && i + k + 1 < n && s[i + k] == ':' && s[i + k + 1] == ' ') {
            if (textin_decimal(s + i, k, NS_PER_S, 1, &v)) {
                *bad = 1;
                return i;
            }
            *up = v;
            *has_up = 1;
            i += k + 2;
            continue;
        }
        return i;
    }
}

/* Scan text for the brackets of an open record; on its close, take the
 * length from the "N secs]" that closes it. */
static int jdk8_scan(gcl_ctx *c, jdk8_record *r, const char *s, size_t n, size_t line)
{
    for (size_t i = 0; i < n && r->open; i++) {
        if (s[i] == '[') {
            r->depth++;
        } else if (s[i] == ']') {
            r->depth--;
            if (r->depth > 0)
                continue;
            /* "..., 0.0123456 secs]" */
            size_t j = i;
            if (j >= 5 && memcmp(s + j - 5, " secs", 5) == 0) {
                j -= 5;
                size_t e = j;
                while (j > 0 && (gcl_is_digit(s[j - 1]) || s[j - 1] == '.' || s[j - 1] == ','))
                    j--;
                int64_t v;
                int64_t end;
                if (j < e && textin_decimal(s + j, e - j, NS_PER_S, 1, &v) == 0) {
                    r->open = 0;
                    if (__builtin_add_overflow(r->start, v, &end))
                        return gcl_fail(c, -ERANGE, r->line, "the GC record ends beyond 2^63 ns");
                    return gcl_add_pause(c, KIND_GC, r->start, end, r->line);
                }
            }
            return gcl_fail(c, -EINVAL, line, "the GC record of line %zu closes without its length (\", N secs]\")",
                            r->line);
        }
    }
    return 0;
}

int gcl_jdk8_line(gcl_ctx *c, jdk8_record *r, const char *s, size_t n, size_t line)
{
    int has_up, has_wall, bad;
    int64_t up = 0, wall = 0;
    size_t off = gcl_jdk8_stamps(s, n, &has_up, &up, &has_wall, &wall, &bad);
    if (bad)
        return gcl_fail(c, -ERANGE, line, "the time stamp is beyond 2^63 ns");
    int clock = has_up ? CLOCK_UPTIME : has_wall ? CLOCK_WALL : CLOCK_NONE;
    int64_t stamp = has_up ? up : wall;
    if (clock != CLOCK_NONE) {
        int rc = gcl_note_stamp(c, clock, stamp, line);
        if (rc)
            return rc;
    }
    const char *m = s + off;
    size_t mn = n - off;
    int starts_record = (textin_starts(m, mn, "[GC") || textin_starts(m, mn, "[Full GC")) &&
                        !textin_starts(m, mn, "[GC concurrent") && (off > 0 || r->open == 0);
    if (r->open) {
        if (starts_record && off > 0)
            return gcl_fail(c, -EINVAL, line, "a GC record starts before the one of line %zu closed", r->line);
        return jdk8_scan(c, r, s, n, line);
    }
    if (textin_starts(m, mn, GCL_STOPPED)) {
        int64_t len;
        int rc = stopped_length(c, m, mn, line, &len);
        if (rc)
            return rc;
        if (clock == CLOCK_NONE)
            return gcl_fail(c, -EINVAL, line,
                            "a stopped-time line without a time stamp: log with -XX:+PrintGCTimeStamps or "
                            "-XX:+PrintGCDateStamps");
        return gcl_add_pause(c, KIND_SAFEPOINT, stamp - len, stamp, line);
    }
    if (!starts_record)
        return 0;
    if (clock == CLOCK_NONE)
        return gcl_fail(c, -EINVAL, line,
                        "a GC record without a time stamp: log with -XX:+PrintGCTimeStamps or -XX:+PrintGCDateStamps");
    /* start-stamped: [stamp, stamp + length) */
    r->open = 1;
    r->depth = 0;
    r->start = stamp;
    r->line = line;
    return jdk8_scan(c, r, m, mn, line);
}
