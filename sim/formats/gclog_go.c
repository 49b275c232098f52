/* gclog_go.c - pauses from Go's gctrace (GODEBUG=gctrace=1; part of the
 * gclog module, API in gclog.h). */
#include "gclog_internal.h"
#include "textin.h"

#include <errno.h>

/* "gc 7 @2.018s 1%: 0.021+1.5+0.030 ms clock, ..." */
int gcl_go_line(gcl_ctx *c, const char *s, size_t n, size_t line)
{
    if (!textin_starts(s, n, "gc ") || n < 4 || !gcl_is_digit(s[3]))
        return 0;
    size_t i = 3 + gcl_digits_at(s + 3, n - 3);
    const char *why = "expected \"gc N @S.SSSs P%: A+B+C ms clock\"";
    if (!textin_starts(s + i, n - i, " @"))
        return gcl_fail(c, -EINVAL, line, "%s", why);
    i += 2;
    size_t k = textin_decimal_span(s + i, n - i, 0);
    int64_t at, ph[3];
    if (!k || i + k >= n || s[i + k] != 's' || textin_decimal(s + i, k, NS_PER_S, 0, &at))
        return gcl_fail(c, -EINVAL, line, "%s", why);
    i += k + 1;
    if (!textin_starts(s + i, n - i, " "))
        return gcl_fail(c, -EINVAL, line, "%s", why);
    i++;
    k = gcl_digits_at(s + i, n - i);
    if (!k || !textin_starts(s + i + k, n - i - k, "%: "))
        return gcl_fail(c, -EINVAL, line, "%s", why);
    i += k + 3;
    for (int p = 0; p < 3; p++) {
        k = textin_decimal_span(s + i, n - i, 0);
        if (!k || textin_decimal(s + i, k, NS_PER_MS, 0, &ph[p]))
            return gcl_fail(c, -EINVAL, line, "%s", why);
        i += k;
        if (p < 2) {
            if (i >= n || s[i] != '+')
                return gcl_fail(c, -EINVAL, line, "%s", why);
            i++;
        }
    }
    if (!textin_starts(s + i, n - i, " ms clock"))
        return gcl_fail(c, -EINVAL, line, "%s", why);
    int rc = gcl_note_stamp(c, CLOCK_UPTIME, at, line);
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
