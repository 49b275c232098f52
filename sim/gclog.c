/* gclog.c - stop-the-world pauses from GC logs (formats and stamp rules in
 * gclog.h). */
#include "gclog.h"
#include "hlog.h"
#include "textin.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S INT64_C(1000000000)
#define NS_PER_MS INT64_C(1000000)
/* A stamp this far before the latest one is a clock step, not reordering. */
#define CLOCK_STEP_NS NS_PER_S

void gclog_options_default(gclog_options *o)
{
    memset(o, 0, sizeof *o);
    o->from_ns = 0;
    o->to_ns = INT64_MAX;
    o->offset_ns = 0;
    o->min_pause_ns = 0;
    o->scale = 1.0;
    o->source = GCLOG_SOURCE_AUTO;
    o->hlog_unit_ns = 1;
}

const char *gclog_format_name(gclog_format f)
{
    switch (f) {
    case GCLOG_JDK_UNIFIED: return "JDK unified logging";
    case GCLOG_JDK8: return "JDK 8 GC log";
    case GCLOG_GO: return "Go gctrace";
    case GCLOG_HLOG: return "HdrHistogram interval log";
    default: return "unknown";
    }
}

void gclog_free(gclog_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i]);
    free(r->notes);
    free(r->windows);
    free(r);
}

/* ---- the reading context ---- */

enum { KIND_GC = 0, KIND_SAFEPOINT = 1 };
enum { CLOCK_NONE = 0, CLOCK_UPTIME, CLOCK_WALL };

typedef struct raw_pause {
    int64_t start, end; /* on the log's clock (wall: epoch ns until rebased) */
    size_t line;
} raw_pause;

typedef struct plist {
    raw_pause *p;
    size_t n, cap;
} plist;

typedef struct ctx {
    const char *name;
    char *err;
    size_t errlen;
    plist list[2];        /* KIND_GC, KIND_SAFEPOINT */
    int clock;            /* CLOCK_* of the file's stamps */
    size_t clock_line;
    int64_t latest;       /* the latest stamp so far */
    size_t latest_line;
    int have_latest;
    int64_t origin;       /* wall clock: the first stamp */
    int have_origin;
} ctx;

static int fail(ctx *c, int rc, size_t line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(ctx *c, int rc, size_t line, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        snprintf(c->err, c->errlen, "%s:%zu: %s", c->name, line, msg);
    else
        snprintf(c->err, c->errlen, "%s: %s", c->name, msg);
    return rc;
}

static int add_pause(ctx *c, int kind, int64_t start, int64_t end, size_t line)
{
    plist *l = &c->list[kind];
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        raw_pause *np = realloc(l->p, nc * sizeof *np);
        if (!np)
            return fail(c, -ENOMEM, 0, "out of memory");
        l->p = np;
        l->cap = nc;
    }
    l->p[l->n++] = (raw_pause){start, end, line};
    return 0;
}

/* Record a stamp of the given clock; a step back of more than
 * CLOCK_STEP_NS is an error. */
static int note_stamp(ctx *c, int clock, int64_t t, size_t line)
{
    if (c->clock == CLOCK_NONE) {
        c->clock = clock;
        c->clock_line = line;
    } else if (c->clock != clock) {
        return fail(c, -EINVAL, line, "the time stamps change from %s (line %zu) to %s; cosim needs one clock per file",
                    c->clock == CLOCK_UPTIME ? "uptime" : "wall-clock time", c->clock_line,
                    clock == CLOCK_UPTIME ? "uptime" : "wall-clock time");
    }
    if (clock == CLOCK_WALL && !c->have_origin) {
        c->origin = t;
        c->have_origin = 1;
    }
    if (c->have_latest && t < c->latest - CLOCK_STEP_NS) {
        int64_t back = c->latest - t;
        return fail(c, -EINVAL, line,
                    "the time stamp goes back %lld.%03lld s from line %zu's: a clock step, or two runs in one "
                    "file; cut the file or choose a window of it",
                    (long long)(back / NS_PER_S), (long long)(back % NS_PER_S / NS_PER_MS), c->latest_line);
    }
    if (!c->have_latest || t > c->latest) {
        c->latest = t;
        c->latest_line = line;
        c->have_latest = 1;
    }
    return 0;
}

/* ---- small text helpers ---- */

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static size_t digits_at(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_digit(s[i]))
        i++;
    return i;
}

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

/* "YYYY-MM-DDTHH:MM:SS[.fff][+hhmm|-hhmm|Z]" at s: its length (0 if none)
 * and the UTC time in ns since the epoch. */
static size_t parse_iso(const char *s, size_t n, int64_t *out)
{
    if (n < 19 || digits_at(s, 4) != 4 || s[4] != '-' || digits_at(s + 5, 2) != 2 || s[7] != '-' ||
        digits_at(s + 8, 2) != 2 || s[10] != 'T' || digits_at(s + 11, 2) != 2 || s[13] != ':' ||
        digits_at(s + 14, 2) != 2 || s[16] != ':' || digits_at(s + 17, 2) != 2)
        return 0;
    int64_t y = num2(s) * 100 + num2(s + 2), mo = num2(s + 5), d = num2(s + 8);
    int64_t h = num2(s + 11), mi = num2(s + 14), se = num2(s + 17);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return 0;
    size_t i = 19;
    int64_t frac = 0;
    if (i < n && (s[i] == '.' || s[i] == ',') && i + 1 < n && is_digit(s[i + 1])) {
        size_t k = digits_at(s + i + 1, n - i - 1);
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
    if (i < n && (s[i] == '+' || s[i] == '-') && n - i >= 5 && digits_at(s + i + 1, 4) == 4) {
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
static long parse_decorators(ctx *c, const char *s, size_t n, size_t line, decorations *d)
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
        size_t dg = digits_at(b, bn);
        if (bn && parse_iso(b, bn, &v) == bn) {
            d->wall_iso = v;
        } else if (dg && dg + 2 == bn && memcmp(b + dg, "ns", 2) == 0) {
            if (textin_decimal(b, dg, 1, 0, &v))
                return fail(c, -ERANGE, line, "the decorator [%.*s] is beyond 2^63 ns", (int)bn, b), -1;
            if (v >= INT64_C(1000000000000000000))
                d->wall_ns = v;
            else
                d->up_ns = v;
        } else if (dg && dg + 2 == bn && memcmp(b + dg, "ms", 2) == 0) {
            if (textin_decimal(b, dg, NS_PER_MS, 0, &v))
                return fail(c, -ERANGE, line, "the decorator [%.*s] is beyond 2^63 ns", (int)bn, b), -1;
            if (v >= INT64_C(1000000000000) * NS_PER_MS)
                d->wall_ms = v;
            else
                d->up_ms = v;
        } else if (dg && bn && b[bn - 1] == 's' && textin_decimal_span(b, bn - 1, 1) == bn - 1) {
            /* uptime "12.345s" (a decimal comma in some locales) */
            if (textin_decimal(b, bn - 1, NS_PER_S, 1, &v))
                return fail(c, -ERANGE, line, "the decorator [%.*s] is beyond 2^63 ns", (int)bn, b), -1;
            d->up_s = v;
        } else if (dg && dg != bn && (memchr(b, ':', bn) || memchr(b, '.', bn) || b[bn - 1] == 's')) {
            return fail(c, -EINVAL, line, "[%.*s] is not a time decorator (uptime 12.345s, uptimemillis 12345ms, "
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

static const char STOPPED[] = "Total time for which application threads were stopped: ";

static int unified_line(ctx *c, const char *s, size_t n, size_t line)
{
    decorations d;
    long off = parse_decorators(c, s, n, line, &d);
    if (off < 0)
        return -EINVAL;
    int clock;
    int64_t stamp = 0; /* read only when has_stamp (gcc -O3 cannot see it) */
    int has_stamp = pick_stamp(&d, &clock, &stamp);
    if (has_stamp) {
        int rc = note_stamp(c, clock, stamp, line);
        if (rc)
            return rc;
    }
    const char *m = s + off;
    size_t mn = n - (size_t)off;
    while (mn && (m[mn - 1] == ' ' || m[mn - 1] == '\t'))
        mn--;
    /* "GC(12) " and a generation prefix such as "y: " */
    if (textin_starts(m, mn, "GC(")) {
        size_t k = digits_at(m + 3, mn - 3);
        if (k && 3 + k < mn && m[3 + k] == ')') {
            m += 4 + k;
            mn -= 4 + k;
            while (mn && *m == ' ')
                m++, mn--;
        }
    }
    if (mn >= 3 && m[1] == ':' && m[2] == ' ' && ((m[0] >= 'a' && m[0] <= 'z') || (m[0] >= 'A' && m[0] <= 'Z'))) {
        m += 3;
        mn -= 3;
    }
    int kind;
    int64_t len;
    if (textin_starts(m, mn, "Pause ")) {
        if (d.level == 1)
            return 0; /* a debug sub-phase of a pause */
        const char *sp = m + mn;
        while (sp > m && sp[-1] != ' ')
            sp--;
        size_t tn = (size_t)(m + mn - sp);
        int looks = tn && is_digit(sp[0]) && (sp[tn - 1] == 's');
        if (!looks || d.start_tag)
            return 0; /* the line that opens a pause (gc,start): no length */
        if (parse_length(sp, tn, 1, &len))
            return fail(c, -EINVAL, line, "the pause length '%.*s' is not a number with a unit", (int)tn, sp);
        kind = KIND_GC;
    } else if (textin_starts(m, mn, "Safepoint \"")) {
        const char *t = textin_find(m, mn, "Total: ");
        if (!t)
            return fail(c, -EINVAL, line, "a safepoint line without \"Total: N ns\"");
        t += 7;
        size_t k = digits_at(t, (size_t)(m + mn - t));
        if (!k || !textin_starts(t + k, (size_t)(m + mn - t - k), " ns"))
            return fail(c, -EINVAL, line, "a safepoint line whose \"Total:\" is not \"N ns\"");
        if (textin_decimal(t, k, 1, 0, &len))
            return fail(c, -ERANGE, line, "the safepoint's total is beyond 2^63 ns");
        kind = KIND_SAFEPOINT;
    } else if (textin_starts(m, mn, STOPPED)) {
        const char *t = m + strlen(STOPPED);
        size_t rest = (size_t)(m + mn - t);
        size_t k = textin_decimal_span(t, rest, 1);
        if (!k || !textin_starts(t + k, rest - k, " seconds"))
            return fail(c, -EINVAL, line, "expected \"%sN seconds\"", STOPPED);
        if (textin_decimal(t, k, NS_PER_S, 1, &len))
            return fail(c, -ERANGE, line, "the stopped time is beyond 2^63 ns");
        kind = KIND_SAFEPOINT;
    } else {
        return 0;
    }
    if (!has_stamp)
        return fail(c, -EINVAL, line,
                    "a pause line without a time decorator: log with -Xlog:gc:FILE:uptime (or uptimemillis, "
                    "uptimenanos, time, utctime)");
    /* end-stamped: [stamp - length, stamp) */
    return add_pause(c, kind, stamp - len, stamp, line);
}

/* ---- JDK 8 ---- */

typedef struct jdk8_record {
    int open;
    int depth;
    int64_t start;
    size_t line;
    int64_t length;
    int have_length;
} jdk8_record;

/* Stamps at the start of a JDK 8 line: "2024-...+0100: " and/or
 * "12.345: " (decimal comma allowed). Returns the offset after them. */
static size_t jdk8_stamps(const char *s, size_t n, int *has_up, int64_t *up, int *has_wall, int64_t *wall, int *bad)
{
    size_t i = 0;
    *has_up = *has_wall = *bad = 0;
    for (;;) {
        int64_t v;
        size_t k = parse_iso(s + i, n - i, &v);
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
static int jdk8_scan(ctx *c, jdk8_record *r, const char *s, size_t n, size_t line)
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
                while (j > 0 && (is_digit(s[j - 1]) || s[j - 1] == '.' || s[j - 1] == ','))
                    j--;
                int64_t v;
                int64_t end;
                if (j < e && textin_decimal(s + j, e - j, NS_PER_S, 1, &v) == 0) {
                    r->open = 0;
                    if (__builtin_add_overflow(r->start, v, &end))
                        return fail(c, -ERANGE, r->line, "the GC record ends beyond 2^63 ns");
                    return add_pause(c, KIND_GC, r->start, end, r->line);
                }
            }
            return fail(c, -EINVAL, line, "the GC record of line %zu closes without its length (\", N secs]\")",
                        r->line);
        }
    }
    return 0;
}

static int jdk8_line(ctx *c, jdk8_record *r, const char *s, size_t n, size_t line)
{
    int has_up, has_wall, bad;
    int64_t up = 0, wall = 0;
    size_t off = jdk8_stamps(s, n, &has_up, &up, &has_wall, &wall, &bad);
    if (bad)
        return fail(c, -ERANGE, line, "the time stamp is beyond 2^63 ns");
    int clock = has_up ? CLOCK_UPTIME : has_wall ? CLOCK_WALL : CLOCK_NONE;
    int64_t stamp = has_up ? up : wall;
    if (clock != CLOCK_NONE) {
        int rc = note_stamp(c, clock, stamp, line);
        if (rc)
            return rc;
    }
    const char *m = s + off;
    size_t mn = n - off;
    int starts_record = (textin_starts(m, mn, "[GC") || textin_starts(m, mn, "[Full GC")) &&
                        !textin_starts(m, mn, "[GC concurrent") && (off > 0 || r->open == 0);
    if (r->open) {
        if (starts_record && off > 0)
            return fail(c, -EINVAL, line, "a GC record starts before the one of line %zu closed", r->line);
        return jdk8_scan(c, r, s, n, line);
    }
    if (textin_starts(m, mn, STOPPED)) {
        const char *t = m + strlen(STOPPED);
        size_t rest = (size_t)(m + mn - t);
        size_t k = textin_decimal_span(t, rest, 1);
        int64_t len;
        if (!k || !textin_starts(t + k, rest - k, " seconds"))
            return fail(c, -EINVAL, line, "expected \"%sN seconds\"", STOPPED);
        if (textin_decimal(t, k, NS_PER_S, 1, &len))
            return fail(c, -ERANGE, line, "the stopped time is beyond 2^63 ns");
        if (clock == CLOCK_NONE)
            return fail(c, -EINVAL, line,
                        "a stopped-time line without a time stamp: log with -XX:+PrintGCTimeStamps or "
                        "-XX:+PrintGCDateStamps");
        return add_pause(c, KIND_SAFEPOINT, stamp - len, stamp, line);
    }
    if (!starts_record)
        return 0;
    if (clock == CLOCK_NONE)
        return fail(c, -EINVAL, line,
                    "a GC record without a time stamp: log with -XX:+PrintGCTimeStamps or -XX:+PrintGCDateStamps");
    /* start-stamped: [stamp, stamp + length) */
    r->open = 1;
    r->depth = 0;
    r->start = stamp;
    r->line = line;
    return jdk8_scan(c, r, m, mn, line);
}

/* ---- Go gctrace ---- */

/* "gc 7 @2.018s 1%: 0.021+1.5+0.030 ms clock, ..." */
static int go_line(ctx *c, const char *s, size_t n, size_t line)
{
    if (!textin_starts(s, n, "gc ") || n < 4 || !is_digit(s[3]))
        return 0;
    size_t i = 3 + digits_at(s + 3, n - 3);
    const char *why = "expected \"gc N @S.SSSs P%: A+B+C ms clock\"";
    if (!textin_starts(s + i, n - i, " @"))
        return fail(c, -EINVAL, line, "%s", why);
    i += 2;
    size_t k = textin_decimal_span(s + i, n - i, 0);
    int64_t at, ph[3];
    if (!k || i + k >= n || s[i + k] != 's' || textin_decimal(s + i, k, NS_PER_S, 0, &at))
        return fail(c, -EINVAL, line, "%s", why);
    i += k + 1;
    if (!textin_starts(s + i, n - i, " "))
        return fail(c, -EINVAL, line, "%s", why);
    i++;
    k = digits_at(s + i, n - i);
    if (!k || !textin_starts(s + i + k, n - i - k, "%: "))
        return fail(c, -EINVAL, line, "%s", why);
    i += k + 3;
    for (int p = 0; p < 3; p++) {
        k = textin_decimal_span(s + i, n - i, 0);
        if (!k || textin_decimal(s + i, k, NS_PER_MS, 0, &ph[p]))
            return fail(c, -EINVAL, line, "%s", why);
        i += k;
        if (p < 2) {
            if (i >= n || s[i] != '+')
                return fail(c, -EINVAL, line, "%s", why);
            i++;
        }
    }
    if (!textin_starts(s + i, n - i, " ms clock"))
        return fail(c, -EINVAL, line, "%s", why);
    int rc = note_stamp(c, CLOCK_UPTIME, at, line);
    if (rc)
        return rc;
    /* sweep termination [@, @ + a) and mark termination [@ + a + b, @ + a + b + c) */
    int64_t e1, mt, e2;
    if (__builtin_add_overflow(at, ph[0], &e1) || __builtin_add_overflow(e1, ph[1], &mt) ||
        __builtin_add_overflow(mt, ph[2], &e2))
        return fail(c, -ERANGE, line, "the cycle ends beyond 2^63 ns");
    if (ph[0] > 0 && (rc = add_pause(c, KIND_GC, at, e1, line)))
        return rc;
    if (ph[2] > 0 && (rc = add_pause(c, KIND_GC, mt, e2, line)))
        return rc;
    return 0;
}

/* ---- format detection ---- */

static gclog_format detect(const char *text, size_t len)
{
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    while (textin_next_line(&it, &s, &n)) {
        if (n == 0)
            continue;
        if (textin_starts(s, n, "#[Histogram log format version") || textin_starts(s, n, "#[StartTime:") ||
            textin_starts(s, n, "#[BaseTime:") || textin_starts(s, n, "\"StartTimestamp\"") ||
            textin_starts(s, n, "#[Logged with jHiccup") || textin_starts(s, n, "Tag="))
            return GCLOG_HLOG;
        if (textin_starts(s, n, "gc ") && n > 3 && is_digit(s[3]) && textin_find(s, n, " @"))
            return GCLOG_GO;
        if (textin_starts(s, n, "[GC") || textin_starts(s, n, "[Full GC") ||
            textin_starts(s, n, "CommandLine flags:") || textin_starts(s, n, STOPPED))
            return GCLOG_JDK8;
        int hu, hw, bad;
        int64_t up, wall;
        if (jdk8_stamps(s, n, &hu, &up, &hw, &wall, &bad) > 0)
            return GCLOG_JDK8;
        if (s[0] == '[') {
            const char *close = memchr(s, ']', n);
            if (close) {
                const char *b = s + 1;
                size_t bn = (size_t)(close - b);
                int64_t v;
                if ((bn && is_digit(b[0]) && (b[bn - 1] == 's' || parse_iso(b, bn, &v) == bn)) ||
                    (bn == 4 && memcmp(b, "info", 4) == 0) || (bn == 5 && memcmp(b, "debug", 5) == 0) ||
                    (bn == 5 && memcmp(b, "trace", 5) == 0) || (bn == 7 && memcmp(b, "warning", 7) == 0))
                    return GCLOG_JDK_UNIFIED;
            }
        }
        const char *g = textin_find(s, n, "GC(");
        if (g && (size_t)(s + n - g) > 3 && is_digit(g[3]))
            return GCLOG_JDK_UNIFIED;
        if (textin_starts(s, n, "Using G1") || textin_starts(s, n, "Using Parallel") ||
            textin_starts(s, n, "Using Serial") || textin_starts(s, n, "Using The Z Garbage Collector") ||
            textin_starts(s, n, "Using Shenandoah"))
            return GCLOG_JDK_UNIFIED;
    }
    return GCLOG_UNKNOWN;
}

/* ---- after reading: choose, filter, map, merge ---- */

static int cmp_pause(const void *a, const void *b)
{
    const raw_pause *x = a, *y = b;
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    if (x->line != y->line)
        return (x->line > y->line) - (x->line < y->line);
    return (x->end > y->end) - (x->end < y->end);
}

static void fmt_s(char *buf, size_t len, int64_t ns)
{
    const char *sign = ns < 0 ? "-" : "";
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(buf, len, "%s%llu.%09llus", sign, (unsigned long long)(a / NS_PER_S),
             (unsigned long long)(a % NS_PER_S));
}

static int add_note(gclog_result *r, const char *text)
{
    char **nn = realloc(r->notes, (r->n_notes + 1) * sizeof *nn);
    if (!nn)
        return -ENOMEM;
    r->notes = nn;
    r->notes[r->n_notes] = strdup(text);
    if (!r->notes[r->n_notes])
        return -ENOMEM;
    r->n_notes++;
    return 0;
}

static int finish(ctx *c, const plist *use, const gclog_options *o, gclog_result *r)
{
    raw_pause *w = malloc((use->n ? use->n : 1) * sizeof *w);
    if (!w)
        return fail(c, -ENOMEM, 0, "out of memory");
    int64_t base = c->clock == CLOCK_WALL && c->have_origin ? c->origin : 0;
    size_t k = 0;
    for (size_t i = 0; i < use->n; i++) {
        int64_t s, e;
        if (__builtin_sub_overflow(use->p[i].start, base, &s) || __builtin_sub_overflow(use->p[i].end, base, &e)) {
            free(w);
            return fail(c, -ERANGE, use->p[i].line, "the pause lies beyond 2^63 ns from the log's first stamp");
        }
        if (e - s <= 0 || e - s < o->min_pause_ns)
            continue;
        if (s < o->from_ns)
            s = o->from_ns;
        if (e > o->to_ns)
            e = o->to_ns;
        if (s >= e)
            continue;
        /* onto the run's clock; the length scaled, the start kept */
        int64_t ns, len = e - s;
        if (__builtin_sub_overflow(s, o->from_ns, &ns) || __builtin_add_overflow(ns, o->offset_ns, &ns)) {
            free(w);
            return fail(c, -ERANGE, use->p[i].line, "the pause's time on the run's clock is beyond 2^63 ns");
        }
        double scaled = (double)len * o->scale;
        if (!(scaled < 9.2e18)) {
            free(w);
            return fail(c, -ERANGE, use->p[i].line, "the scaled pause is beyond 2^63 ns");
        }
        int64_t slen = (int64_t)llround(scaled), ne;
        if (__builtin_add_overflow(ns, slen, &ne)) {
            free(w);
            return fail(c, -ERANGE, use->p[i].line, "the pause's end on the run's clock is beyond 2^63 ns");
        }
        if (ne <= 0 || slen <= 0)
            continue;
        if (ns < 0)
            ns = 0;
        w[k++] = (raw_pause){ns, ne, use->p[i].line};
    }
    r->n_kept = k;
    qsort(w, k, sizeof *w, cmp_pause);
    r->windows = malloc((k ? k : 1) * sizeof *r->windows);
    if (!r->windows) {
        free(w);
        return fail(c, -ENOMEM, 0, "out of memory");
    }
    size_t m = 0;
    size_t last_line = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && w[i].start < r->windows[m - 1].end_ns) {
            char a[40], b[40], e[40], note[256];
            fmt_s(a, sizeof a, w[i].start);
            fmt_s(b, sizeof b, w[i].end);
            fmt_s(e, sizeof e, r->windows[m - 1].end_ns);
            snprintf(note, sizeof note, "%s:%zu: the pause [%s, %s) overlaps the one of line %zu, which ends at %s; "
                     "merged", c->name, w[i].line, a, b, last_line, e);
            if (add_note(r, note)) {
                free(w);
                return fail(c, -ENOMEM, 0, "out of memory");
            }
            if (w[i].end > r->windows[m - 1].end_ns)
                r->windows[m - 1].end_ns = w[i].end;
            r->n_merged++;
        } else {
            r->windows[m].start_ns = w[i].start;
            r->windows[m].end_ns = w[i].end;
            m++;
        }
        last_line = w[i].line;
    }
    free(w);
    r->n_windows = m;
    for (size_t i = 0; i < m; i++) {
        int64_t len = r->windows[i].end_ns - r->windows[i].start_ns;
        if (__builtin_add_overflow(r->total_ns, len, &r->total_ns))
            return fail(c, -ERANGE, 0, "the total paused time is beyond 2^63 ns");
        if (len > r->longest_ns)
            r->longest_ns = len;
    }
    return 0;
}

static int read_hlog(ctx *c, const char *text, size_t len, const gclog_options *o)
{
    hlog_log *log;
    int rc = hlog_parse(&log, c->name, text, len, c->err, c->errlen);
    if (rc)
        return rc;
    for (size_t i = 0; i < log->n && !rc; i++) {
        const hlog_interval *iv = &log->iv[i];
        int64_t max = hlog_histogram_max(&iv->hist), end;
        if (max <= 0)
            continue;
        if (__builtin_mul_overflow(max, o->hlog_unit_ns, &max) ||
            __builtin_add_overflow(iv->start_ns, iv->length_ns, &end)) {
            rc = fail(c, -ERANGE, iv->line, "the interval's max or end is beyond 2^63 ns");
            break;
        }
        rc = add_pause(c, KIND_GC, end - max, end, iv->line);
    }
    hlog_log_free(log);
    return rc;
}

int gclog_parse(gclog_result **out, const char *name, const char *text, size_t len, const gclog_options *opt,
                char *err, size_t errlen)
{
    *out = NULL;
    gclog_options def;
    if (!opt) {
        gclog_options_default(&def);
        opt = &def;
    }
    ctx c = {.name = name, .err = err, .errlen = errlen};
    if (!(opt->scale > 0.0) || !isfinite(opt->scale) || opt->from_ns >= opt->to_ns || opt->min_pause_ns < 0 ||
        opt->hlog_unit_ns < 1)
        return fail(&c, -EINVAL, 0, "bad options: scale must be > 0, the window's start before its end, the "
                    "minimum pause >= 0, the .hlog unit >= 1 ns");
    gclog_result *r = calloc(1, sizeof *r);
    if (!r)
        return fail(&c, -ENOMEM, 0, "out of memory");
    r->format = detect(text, len);
    int rc = 0;
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    jdk8_record rec = {0};
    switch (r->format) {
    case GCLOG_JDK_UNIFIED:
        while (!rc && textin_next_line(&it, &s, &n))
            rc = unified_line(&c, s, n, it.line);
        break;
    case GCLOG_JDK8:
        while (!rc && textin_next_line(&it, &s, &n))
            rc = jdk8_line(&c, &rec, s, n, it.line);
        if (!rc && rec.open)
            rc = fail(&c, -EINVAL, rec.line, "the GC record does not close before the end of the file");
        break;
    case GCLOG_GO:
        while (!rc && textin_next_line(&it, &s, &n))
            rc = go_line(&c, s, n, it.line);
        break;
    case GCLOG_HLOG:
        rc = read_hlog(&c, text, len, opt);
        break;
    default:
        rc = fail(&c, -EINVAL, 0, "not a log cosim reads pauses from (JDK 9+ unified logging, JDK 8 "
                  "-XX:+PrintGCDetails, Go gctrace, HdrHistogram interval log)");
        break;
    }
    if (!rc) {
        const plist *gc = &c.list[KIND_GC], *sp = &c.list[KIND_SAFEPOINT], *use;
        int jvm = r->format == GCLOG_JDK_UNIFIED || r->format == GCLOG_JDK8;
        const char *gc_name = r->format == GCLOG_GO ? "gctrace stop-the-world phases"
                              : r->format == GCLOG_HLOG ? "interval maxima"
                              : r->format == GCLOG_JDK8 ? "GC records" : "GC pause lines";
        const char *sp_name = r->format == GCLOG_JDK8 ? "stopped-time lines" : "safepoint lines";
        int use_sp = jvm && (opt->source == GCLOG_SOURCE_SAFEPOINT || (opt->source == GCLOG_SOURCE_AUTO && sp->n));
        use = use_sp ? sp : gc;
        r->source = use_sp ? sp_name : gc_name;
        r->n_read = use->n;
        r->n_set_aside = use_sp ? gc->n : sp->n;
        r->set_aside = r->n_set_aside ? (use_sp ? gc_name : sp_name) : NULL;
        rc = finish(&c, use, opt, r);
    }
    free(c.list[0].p);
    free(c.list[1].p);
    if (rc) {
        gclog_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int gclog_read(gclog_result **out, const char *path, const gclog_options *opt, char *err, size_t errlen)
{
    char *text;
    size_t len;
    *out = NULL;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = gclog_parse(out, path, text, len, opt, err, errlen);
    free(text);
    return rc;
}

int64_t gclog_paused_within(const gclog_result *r, int64_t run_ns)
{
    int64_t t = 0;
    for (size_t i = 0; i < r->n_windows; i++) {
        int64_t s = r->windows[i].start_ns, e = r->windows[i].end_ns;
        if (s >= run_ns)
            break;
        t += (e < run_ns ? e : run_ns) - s;
    }
    return t;
}

static void fmt_ms(char *buf, size_t len, int64_t ns)
{
    snprintf(buf, len, "%lld.%06lld ms", (long long)(ns / NS_PER_MS), (long long)(ns % NS_PER_MS));
}

int gclog_summary(const gclog_result *r, int64_t run_ns, char *buf, size_t len)
{
    char total[48], longest[48], aside[96] = "", share[64] = "", merged[48] = "";
    fmt_ms(total, sizeof total, r->total_ns);
    fmt_ms(longest, sizeof longest, r->longest_ns);
    if (r->n_set_aside)
        snprintf(aside, sizeof aside, " (%zu %s set aside)", r->n_set_aside, r->set_aside);
    if (r->n_merged)
        snprintf(merged, sizeof merged, ", %zu overlap%s merged", r->n_merged, r->n_merged == 1 ? "" : "s");
    if (run_ns > 0) {
        double pct = 100.0 * (double)gclog_paused_within(r, run_ns) / (double)run_ns;
        snprintf(share, sizeof share, ", %.2f%% of the run", pct);
    }
    return snprintf(buf, len, "%s: %zu pause%s from %s%s, %zu kept%s; paused %s in total, longest %s%s",
                    gclog_format_name(r->format), r->n_read, r->n_read == 1 ? "" : "s", r->source, aside, r->n_kept,
                    merged, total, longest, share);
}
