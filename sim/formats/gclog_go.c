/* gclog_go.c - pauses from Go's gctrace (GODEBUG=gctrace=1; part of the
 * gclog module, API in gclog.h).
 *
 * Grammar (runtime/mgc.go, gcMarkTermination's print):
 *   record: "gc" N "@"SECONDS"s" PCT"%:" A"+"B"+"C" ms clock, ..." where N
 *           and PCT are whole numbers, SECONDS, A, B, C plain decimals
 *           (no sign, no exponent); one record a line, at its start.
 *   known:  "scvg..." (the scavenger), "GC forced", "pacer:", blank lines.
 *   other lines are not understood (the program's own output); a record's
 *   text after other text on a line is an error. */
#include "gclog_internal.h"
#include "textin.h"

#include <errno.h>

static const textin_unit go_seconds[] = {{"s", NS_PER_S}, {NULL, 0}};

/* Whether s[0..n) starts a gctrace record: "gc " and a digit. */
static int is_record(const char *s, size_t n)
{
    return textin_starts(s, n, "gc ") && n > 3 && gcl_is_digit(s[3]);
}

/* The end of the token at s[i..n): the next blank (or `stop`) or the end. */
static size_t token_end(const char *s, size_t n, size_t i, char stop)
{
    while (i < n && s[i] != ' ' && s[i] != stop)
        i++;
    return i;
}

/* "gc 7 @2.018s 1%: 0.021+1.5+0.030 ms clock, ..." */
int gcl_go_line(gcl_ctx *c, const char *s, size_t n, size_t line)
{
    if (!is_record(s, n)) {
        if (n == 0 || textin_starts(s, n, "scvg") || textin_starts(s, n, "GC forced") ||
            textin_starts(s, n, "pacer:"))
            return 0;
        const char *g = textin_find(s, n, "gc ");
        if (g && g > s && is_record(g, (size_t)(s + n - g)) && textin_find(g, (size_t)(s + n - g), " ms clock"))
            return gcl_bad_record(c, line, "a gctrace record after other text on the line (another program's output "
                                           "spliced in before it?)");
        c->cls = TEXTIN_LINE_UNKNOWN;
        return 0;
    }
    size_t i = 3 + gcl_digits_at(s + 3, n - 3);
    const char *why = "expected \"gc N @S.SSSs P%: A+B+C ms clock\"";
    if (!textin_starts(s + i, n - i, " @"))
        return gcl_bad_record(c, line, "%s", why);
    i += 2;
    size_t e = token_end(s, n, i, 0);
    int64_t at, ph[3];
    int rc = gcl_number(c, s + i, e - i, "the cycle's start", go_seconds, 0, line, &at);
    if (rc)
        return rc;
    i = e;
    if (!textin_starts(s + i, n - i, " "))
        return gcl_bad_record(c, line, "%s", why);
    i++;
    size_t k = gcl_digits_at(s + i, n - i);
    if (!k || !textin_starts(s + i + k, n - i - k, "%: "))
        return gcl_bad_record(c, line, "%s", why);
    i += k + 3;
    for (int p = 0; p < 3; p++) {
        e = token_end(s, n, i, '+');
        rc = gcl_number(c, s + i, e - i, p == 0 ? "the sweep termination" : p == 1 ? "the concurrent mark"
                                                                                   : "the mark termination",
                        NULL, NS_PER_MS, line, &ph[p]);
        if (rc)
            return rc;
        i = e;
        if (p < 2) {
            if (i >= n || s[i] != '+')
                return gcl_bad_record(c, line, "%s", why);
            i++;
        }
    }
    if (!textin_starts(s + i, n - i, " ms clock"))
        return gcl_bad_record(c, line, "%s", why);
    c->cls = TEXTIN_LINE_RECORD;
    rc = gcl_note_stamp(c, CLOCK_UPTIME, at, line);
    if (rc)
        return rc;
    /* sweep termination [@, @ + a) and mark termination [@ + a + b, @ + a + b + c) */
    int64_t e1, mt, e2;
    if (__builtin_add_overflow(at, ph[0], &e1) || __builtin_add_overflow(e1, ph[1], &mt) ||
        __builtin_add_overflow(mt, ph[2], &e2))
        return gcl_fail(c, -ERANGE, line, "the cycle ends beyond 2^63 ns");
    if (ph[0] > 0 && (rc = gcl_add_pause(c, KIND_GC, at, e1, line)))
        return rc;
    if (ph[2] > 0 && (rc = gcl_add_pause(c, KIND_GC, mt, e2, line)))
        return rc;
    return 0;
}
