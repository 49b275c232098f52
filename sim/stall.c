/* stall.c - stall windows and request stalls. */
#include "stall.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

stall_window stall_periodic_next(const stall_spec *s, int64_t t)
{
    /* windows end at O + jP + L; want the smallest j >= 0 with end > t */
    int64_t first_end = s->first_ns + s->length_ns;
    int64_t j = t < first_end ? 0 : (t - first_end) / s->period_ns + 1;
    stall_window w;
    w.start_ns = s->first_ns + j * s->period_ns;
    w.end_ns = w.start_ns + s->length_ns;
    return w;
}

static int cmp_window(const void *a, const void *b)
{
    const stall_window *x = a, *y = b;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

int stall_windows_normalise(stall_window *w, size_t n, size_t *bad)
{
    qsort(w, n, sizeof *w, cmp_window);
    for (size_t i = 0; i < n; i++) {
        if (w[i].end_ns <= w[i].start_ns || (i > 0 && w[i].start_ns < w[i - 1].end_ns)) {
            *bad = i;
            return -EINVAL;
        }
    }
    return 0;
}

static int cmp_range(const void *a, const void *b)
{
    const stall_range *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

int stall_ranges_normalise(stall_range *r, size_t n, size_t *bad)
{
    qsort(r, n, sizeof *r, cmp_range);
    for (size_t i = 0; i < n; i++) {
        if (r[i].last < r[i].first || (i > 0 && r[i].first <= r[i - 1].last)) {
            *bad = i;
            return -EINVAL;
        }
    }
    return 0;
}

char *stall_describe(const stall_spec *s, char *buf, size_t len)
{
    char a[32], b[32], c[32];
    switch (s->kind) {
    case STALL_PERIODIC:
        snprintf(buf, len, "%s every %s from %s", units_format_duration_exact(s->length_ns, a, sizeof a),
                 units_format_duration_exact(s->period_ns, b, sizeof b),
                 units_format_duration_exact(s->first_ns, c, sizeof c));
        break;
    case STALL_WINDOWS:
        if (s->n_windows == 1)
            snprintf(buf, len, "window %s..%s",
                     units_format_duration_exact(s->windows[0].start_ns, a, sizeof a),
                     units_format_duration_exact(s->windows[0].end_ns, b, sizeof b));
        else
            snprintf(buf, len, "%zu windows", s->n_windows);
        break;
    case STALL_RANDOM: {
        char d[96];
        snprintf(buf, len, "random, every %s on average, %s",
                 units_format_duration_exact(s->mean_gap_ns, a, sizeof a),
                 dist_describe(&s->length_dist, d, sizeof d));
        break;
    }
    case STALL_REQUESTS:
        units_format_duration_exact(s->extra_ns, a, sizeof a);
        if (s->n_ranges == 1 && s->ranges[0].first == s->ranges[0].last)
            snprintf(buf, len, "+%s on request %llu", a, (unsigned long long)s->ranges[0].first);
        else if (s->n_ranges == 1)
            snprintf(buf, len, "+%s on requests %llu..%llu", a,
                     (unsigned long long)s->ranges[0].first, (unsigned long long)s->ranges[0].last);
        else
            snprintf(buf, len, "+%s on %zu request ranges", a, s->n_ranges);
        break;
    }
    return buf;
}
