/* gclog_jdk.c - pauses from JVM logs (part of the gclog module, API in
 * gclog.h): JDK 9+ unified logging (-Xlog:gc, safepoint) and JDK 8
 * -XX:+PrintGCDetails logs, and the time stamps they carry.
 *
 * Grammar, JDK unified logging (a line is "[DECORATORS...] MESSAGE"):
 *   records: "[GC(N) ][y: ]Pause TITLE [HEAP] LENGTH" at info level, not
 *            tagged start: TITLE words of letters ('-', '_') and "(...)"
 *            groups, HEAP "N[BKMGT]->N[BKMGT](N[BKMGT])", LENGTH a number
 *            and s, ms, us or ns (textin_number: no sign, no exponent);
 *            text after LENGTH is another writer's, named in a warning;
 *            "Safepoint \"...\", ..., Total: N ns";
 *            "Total time for which application threads were stopped: N
 *            seconds[, ...]".
 *   known:   every other decorated line (a title alone opens a pause),
 *            blank lines.
 *   not understood: a line that does not begin with '[' (another
 *            program's); one holding a record's text after other text is
 *            a record that cannot be read.
 * Grammar, JDK 8:
 *   records: STAMPS "[GC ..." or "[Full GC ..." up to the ']' that closes
 *            it (over lines), its length the token before " secs]";
 *            STAMPS "Total time for which ... stopped: N seconds" anywhere
 *            in a line (the JVM prints it into others); STAMPS are
 *            "2024-01-15T10:30:45.123+0100: " and/or "12.345: ".
 *   known:   stamped lines of other events, a record's own lines, the
 *            banner, "CommandLine flags:", "Memory:", the heap printout,
 *            blank lines.
 *   not understood: anything else; a GC record after text that is not a
 *            stamp is a record that cannot be read. */
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

/* The units of the JVM's stopped-time and safepoint lines. */
static const textin_unit seconds_unit[] = {{"seconds", NS_PER_S}, {NULL, 0}};
static const textin_unit ns_unit[] = {{"ns", 1}, {NULL, 0}};

/* The end of the token at s[0..n) that ends at ", " or the end: its length. */
static size_t upto_comma_blank(const char *s, size_t n)
{
    const char *e = textin_find(s, n, ", ");
    return e ? (size_t)(e - s) : n;
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

/* The length of a stopped-time record m[0..mn) (it starts with
 * GCL_STOPPED): "... stopped: 0.0123456 seconds[, Stopping threads took:
 * ...]" (decimal comma allowed). */
static int stopped_length(gcl_ctx *c, const char *m, size_t mn, size_t line, int64_t *len)
{
    const char *t = m + strlen(GCL_STOPPED);
    size_t rest = (size_t)(m + mn - t);
    return gcl_number(c, t, upto_comma_blank(t, rest), "the stopped time", seconds_unit, 0, line, len);
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

static int is_letter(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* "N[.N]U" with U one of B K M G T at s[*i..n): 1 and *i past it. */
static int heap_size(const char *s, size_t n, size_t *i)
{
    size_t k = textin_decimal_span(s + *i, n - *i, 0);
    if (!k || *i + k >= n || !strchr("BKMGT", s[*i + k]))
        return 0;
    *i += k + 1;
    return 1;
}

/* A heap transition "512M->256M(1024M)" is all of s[0..n). */
static int is_heap_transition(const char *s, size_t n)
{
    size_t i = 0;
    if (!heap_size(s, n, &i) || !textin_starts(s + i, n - i, "->"))
        return 0;
    i += 2;
    if (!heap_size(s, n, &i) || i >= n || s[i] != '(')
        return 0;
    i++;
    return heap_size(s, n, &i) && i + 1 == n && s[i] == ')';
}

/* A GC pause message m[0..mn) (after the prefixes; it starts with "Pause ")
 * read by its grammar:
 *   "Pause" TITLE [HEAP] LENGTH
 * TITLE is words of letters ('-', '_') and parenthesized groups ("Young",
 * "(Normal)", "(G1 Evacuation Pause)", "(System.gc())"), HEAP a transition
 * "512M->256M(1024M)", LENGTH a number with its unit (s, ms, us, ns). A
 * title alone is the line that opens a pause (no record). Text after the
 * length is not the JVM's (another writer's output spliced into the line):
 * the pause is read, the text named in a warning. Returns 1 with *len, 0
 * for an opening line, or a negative errno with the message. */
static int pause_length(gcl_ctx *c, const char *m, size_t mn, size_t line, int64_t *len)
{
    size_t i = 6, j;
    for (;;) {
        while (i < mn && m[i] == ' ')
            i++;
        if (i >= mn)
            return 0; /* the title alone */
        if (m[i] == '(') {
            int depth = 0;
            for (j = i; j < mn; j++) {
                depth += m[j] == '(' ? 1 : m[j] == ')' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (j >= mn)
                return gcl_bad_record(c, line, "the pause's title '%.*s' opens a '(' that does not close", (int)mn, m);
            i = j + 1;
            continue;
        }
        for (j = i; j < mn && m[j] != ' ' && m[j] != '('; j++)
            if (!is_letter(m[j]) && m[j] != '-' && m[j] != '_')
                break;
        if (j < mn && m[j] != ' ' && m[j] != '(')
            break; /* not a word: the heap or the length */
        i = j;
    }
    for (j = i; j < mn && m[j] != ' '; j++)
        ;
    if (textin_find(m + i, j - i, "->")) {
        if (!is_heap_transition(m + i, j - i))
            return gcl_bad_record(c, line, "the heap sizes '%.*s' are not N[KMG]->N[KMG](N[KMG])", (int)(j - i), m + i);
        for (i = j; i < mn && m[i] == ' '; i++)
            ;
        if (i >= mn)
            return gcl_bad_record(c, line, "a pause line without its length (12.345ms) after the heap sizes");
        for (j = i; j < mn && m[j] != ' '; j++)
            ;
    }
    int rc = gcl_number(c, m + i, j - i, "the pause length", textin_duration_units, 0, line, len);
    if (rc)
        return rc;
    for (i = j; i < mn && m[i] == ' '; i++)
        ;
    if (i < mn && (rc = gcl_warn(c, line, "the text '%.*s' after the pause's length is not the JVM's (another "
                                          "program's output spliced into the line?); the pause read, the text not",
                                 (int)(mn - i > 80 ? 80 : mn - i), m + i)))
        return rc;
    return 1;
}

/* The pause a unified message m[0..mn) reports: 1 with its KIND_* and
 * length, 0 when it reports none, or a negative errno with the message. */
static int unified_pause(gcl_ctx *c, const decorations *d, const char *m, size_t mn, size_t line, int *kind,
                         int64_t *len)
{
    if (textin_starts(m, mn, "Pause ")) {
        if (d->level == 1 || d->start_tag)
            return 0; /* a debug sub-phase of a pause; the line that opens a pause (gc,start) */
        *kind = KIND_GC;
        return pause_length(c, m, mn, line, len);
    }
    if (textin_starts(m, mn, "Safepoint \"")) {
        const char *t = textin_find(m, mn, "Total: ");
        if (!t)
            return gcl_bad_record(c, line, "a safepoint line without \"Total: N ns\"");
        t += 7;
        int rc = gcl_number(c, t, upto_comma_blank(t, (size_t)(m + mn - t)), "the safepoint's total", ns_unit, 0,
                            line, len);
        if (rc)
            return rc;
        *kind = KIND_SAFEPOINT;
        return 1;
    }
    if (textin_starts(m, mn, GCL_STOPPED)) {
        int rc = stopped_length(c, m, mn, line, len);
        if (rc)
            return rc;
        *kind = KIND_SAFEPOINT;
        return 1;
    }
    return 0;
}

/* Whether a line that is not the JVM's (no decorators at its start) holds a
 * record's text: spliced after another program's output. */
static int holds_record_text(const char *s, size_t n)
{
    return textin_find(s, n, "] GC(") || textin_find(s, n, "Pause ") || textin_find(s, n, GCL_STOPPED) ||
           textin_find(s, n, "Safepoint \"");
}

int gcl_unified_line(gcl_ctx *c, const char *s, size_t n, size_t line)
{
    if (n == 0)
        return 0;
    const char *m0 = s;
    size_t mn0 = n;
    skip_message_prefixes(&m0, &mn0);
    int record_start = textin_starts(m0, mn0, "Pause ") || textin_starts(m0, mn0, "Safepoint \"") ||
                       textin_starts(m0, mn0, GCL_STOPPED);
    if (s[0] != '[' && !record_start) {
        if (holds_record_text(s, n))
            return gcl_bad_record(c, line, "a GC or safepoint record that does not begin the line (another "
                                           "program's output spliced in before it?)");
        c->cls = TEXTIN_LINE_UNKNOWN;
        return 0;
    }
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
    c->cls = TEXTIN_LINE_RECORD;
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
 * length from the ", N secs]" that closes it: N is the token after the
 * last blank before " secs]", read strictly (no sign, no exponent, nothing
 * before its digits). */
static int jdk8_scan(gcl_ctx *c, jdk8_record *r, const char *s, size_t n, size_t line)
{
    for (size_t i = 0; i < n && r->open; i++) {
        if (s[i] == '[') {
            r->depth++;
        } else if (s[i] == ']') {
            r->depth--;
            if (r->depth > 0)
                continue;
            r->open = 0;
            if (i < 5 || memcmp(s + i - 5, " secs", 5) != 0)
                return gcl_bad_record(c, line, "the GC record of line %zu closes without its length (\", N secs]\")",
                                      r->line);
            size_t e = i - 5, b = e;
            while (b > 0 && s[b - 1] != ' ')
                b--;
            int64_t v, end;
            int rc = gcl_number(c, s + b, e - b, "the pause length", NULL, NS_PER_S, line, &v);
            if (rc)
                return rc;
            if (__builtin_add_overflow(r->start, v, &end))
                return gcl_fail(c, -ERANGE, r->line, "the GC record ends beyond 2^63 ns");
            return gcl_add_pause(c, KIND_GC, r->start, end, r->line);
        }
    }
    return 0;
}

/* Lines of a JDK 8 log that are known and not records: the JVM's banner
 * and flags, the heap printout (-XX:+PrintHeapAtGC, at exit: indented
 * lines), the tenuring distribution inside a record. */
static int jdk8_known(const char *s, size_t n)
{
    static const char *const known[] = {"CommandLine flags:", "Java HotSpot", "OpenJDK", "Memory:", "Heap",
                                        "{Heap", "}", " ", "\t", "Desired survivor", "- age", NULL};
    for (const char *const *k = known; *k; k++)
        if (textin_starts(s, n, *k))
            return 1;
    return n == 0;
}

/* Where in s[0..p) the stamps of a record at p begin: the earliest q whose
 * text up to p is all stamps ("2024-...+0100: 12.345: "), not glued to a
 * number before it; p when there are none. */
static size_t stamps_before(const char *s, size_t p)
{
    for (size_t q = p > 64 ? p - 64 : 0; q < p; q++) {
        if (q > 0 && (gcl_is_digit(s[q - 1]) || strchr(".,:-+T", s[q - 1])))
            continue;
        int hu, hw, bad;
        int64_t up, wall;
        if (gcl_jdk8_stamps(s + q, p - q, &hu, &up, &hw, &wall, &bad) == p - q && !bad)
            return q;
    }
    return p;
}

/* A stopped-time record at m[0..mn) stamped by the stamps of s[q..p). */
static int jdk8_stopped(gcl_ctx *c, const char *m, size_t mn, int clock, int64_t stamp, size_t line)
{
    int64_t len;
    int rc = stopped_length(c, m, mn, line, &len);
    if (rc)
        return rc;
    if (clock == CLOCK_NONE)
        return gcl_fail(c, -EINVAL, line,
                        "a stopped-time line without a time stamp: log with -XX:+PrintGCTimeStamps or "
                        "-XX:+PrintGCDateStamps");
    c->cls = TEXTIN_LINE_RECORD;
    return gcl_add_pause(c, KIND_SAFEPOINT, stamp - len, stamp, line);
}

/* The stamps at the start of s[0..n): their clock (CLOCK_NONE for none)
 * and time, noted; the offset after them in *off. */
static int jdk8_line_stamps(gcl_ctx *c, const char *s, size_t n, size_t line, size_t *off, int *clock,
                            int64_t *stamp)
{
    int has_up, has_wall, bad;
    int64_t up = 0, wall = 0;
    *off = gcl_jdk8_stamps(s, n, &has_up, &up, &has_wall, &wall, &bad);
    if (bad)
        return gcl_fail(c, -ERANGE, line, "the time stamp is beyond 2^63 ns");
    *clock = has_up ? CLOCK_UPTIME : has_wall ? CLOCK_WALL : CLOCK_NONE;
    *stamp = has_up ? up : wall;
    if (*clock != CLOCK_NONE)
        return gcl_note_stamp(c, *clock, *stamp, line);
    return 0;
}

/* Where a GC record ("[GC ...", "[Full GC ...", not "[GC concurrent")
 * starts in s[0..n), or NULL. */
static const char *find_record(const char *s, size_t n)
{
    for (const char *g = s; (g = textin_find(g, (size_t)(s + n - g), "[")) != NULL; g++) {
        size_t rest = (size_t)(s + n - g);
        if (textin_starts(g, rest, "[GC (") || textin_starts(g, rest, "[GC pause") ||
            textin_starts(g, rest, "[GC remark") || textin_starts(g, rest, "[GC cleanup") ||
            textin_starts(g, rest, "[GC--") || textin_starts(g, rest, "[Full GC"))
            return g;
    }
    return NULL;
}

int gcl_jdk8_line(gcl_ctx *c, jdk8_record *r, const char *s, size_t n, size_t line)
{
    /* a stopped-time record the JVM printed into the middle of another
     * line (it does: the safepoint's end is printed while another thread's
     * line is open): read, and the line before it read on its own */
    const char *st = textin_find(s, n, GCL_STOPPED);
    if (st && st > s) {
        size_t p = (size_t)(st - s), q = stamps_before(s, p);
        if (q == p)
            return gcl_bad_record(c, line, "a stopped-time record in the middle of the line without its time stamp");
        if (q > 0) {
            size_t off;
            int clock;
            int64_t stamp;
            int rc = jdk8_line_stamps(c, s + q, p - q, line, &off, &clock, &stamp);
            if (!rc)
                rc = jdk8_stopped(c, st, n - p, clock, stamp, line);
            if (rc)
                return rc;
            n = q;
        }
    }
    size_t off;
    int clock;
    int64_t stamp;
    int rc = jdk8_line_stamps(c, s, n, line, &off, &clock, &stamp);
    if (rc)
        return rc;
    const char *m = s + off;
    size_t mn = n - off;
    int starts_record = (textin_starts(m, mn, "[GC") || textin_starts(m, mn, "[Full GC")) &&
                        !textin_starts(m, mn, "[GC concurrent") && (off > 0 || r->open == 0);
    if (r->open) {
        if (starts_record && off > 0)
            return gcl_bad_record(c, line, "a GC record starts before the one of line %zu closed", r->line);
        c->cls = TEXTIN_LINE_RECORD;
        r->lines++;
        return jdk8_scan(c, r, s, n, line);
    }
    if (textin_starts(m, mn, GCL_STOPPED))
        return jdk8_stopped(c, m, mn, clock, stamp, line);
    if (!starts_record) {
        const char *g = s[0] == ' ' || s[0] == '\t' ? NULL : find_record(m, mn);
        if (g)
            return gcl_bad_record(c, line, "the text '%.*s' before the GC record is not a time stamp (12.345: )",
                                  (int)(g - m > 40 ? 40 : g - m), m);
        if (c->cls != TEXTIN_LINE_RECORD) /* a stopped-time record after it makes it one */
            c->cls = off > 0 || jdk8_known(s, n) ? TEXTIN_LINE_KNOWN : TEXTIN_LINE_UNKNOWN;
        return 0;
    }
    if (clock == CLOCK_NONE)
        return gcl_fail(c, -EINVAL, line,
                        "a GC record without a time stamp: log with -XX:+PrintGCTimeStamps or -XX:+PrintGCDateStamps");
    /* start-stamped: [stamp, stamp + length) */
    c->cls = TEXTIN_LINE_RECORD;
    r->open = 1;
    r->depth = 0;
    r->start = stamp;
    r->line = line;
    r->lines = 1;
    return jdk8_scan(c, r, m, mn, line);
}
