/* stall.c - stall windows and request stalls. */
#include "stall.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const preemption_names[] = {
    [STALL_PREEMPT_RESUME] = "resume", [STALL_PREEMPT_RESTART] = "restart",
    [STALL_PREEMPT_RESAMPLE] = "resample", [STALL_PREEMPT_NONE] = "none",
    [STALL_PREEMPT_OVERTIME] = "overtime",
};
const names_table stall_preemption_names = {preemption_names, ARRAY_SIZE(preemption_names)};

const char *stall_preemption_name(stall_preemption p)
{
    return names_get(stall_preemption_names, (int)p);
}

int stall_preemption_parse(const char *name, stall_preemption *out)
{
    int i = names_find(stall_preemption_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (stall_preemption)i;
    return 0;
}

static const char *const kind_names[] = {
#define STALL_KIND(ENUM, NAME, FLAGS) [STALL_##ENUM] = #NAME,
#include "stall_kinds.def"
#undef STALL_KIND
};
const names_table stall_kind_names = {kind_names, ARRAY_SIZE(kind_names)};

const char *stall_kind_name(stall_kind k)
{
    return names_get(stall_kind_names, (int)k);
}

int stall_kind_parse(const char *name, stall_kind *out)
{
    int i = names_find(stall_kind_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (stall_kind)i;
    return 0;
}

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

/* Most windows one hyperperiod may hold for the exact check, and most
 * windows all the checks of one scenario may sweep together. */
#define UNION_MAX_WINDOWS 4000000
#define UNION_MAX_SWEPT 40000000

/* Whether the periodic stalls st[idx[0..m)] cover [T0, infinity): 1 yes;
 * 0 no; -1 unknown: the pattern is too long to sweep (H past 2^62 ns, more
 * than UNION_MAX_WINDOWS windows in it, or past the *swept budget), every
 * sum and product checked for overflow. */
static int periodic_cover(const stall_spec *st, const size_t *idx, size_t m, int64_t *from_ns,
                          uint64_t *swept)
{
    double fill = 0;
    int64_t t0 = 0;
    uint64_t h = 1;
    for (size_t k = 0; k < m; k++) {
        const stall_spec *x = &st[idx[k]];
        fill += (double)x->length_ns / (double)x->period_ns;
        if (x->first_ns > t0)
            t0 = x->first_ns;
        uint64_t p = (uint64_t)x->period_ns;
        uint64_t g = units_gcd_u64(h, p);
        if (__builtin_mul_overflow(h / g, p, &h) || h > ((uint64_t)1 << 62))
            return -1; /* too long a pattern to check */
    }
    uint64_t windows = 0;
    for (size_t k = 0; k < m; k++)
        if (__builtin_add_overflow(windows, h / (uint64_t)st[idx[k]].period_ns + 1, &windows) ||
            windows > UNION_MAX_WINDOWS)
            return -1;
    /* the windows fill L/P of every long stretch each: below 1 in all,
     * some time is always left over (1e-9: the exact sweep decides) */
    if (fill < 1 - 1e-9)
        return 0;
    if (m > 64 || windows > UNION_MAX_SWEPT - *swept)
        return -1;
    *swept += windows;
    /* sweep the windows that meet [t0, t0 + h) in order of start: each
     * stall's next window is w[k]; a start after the covered prefix is a
     * gap. t0 <= 1e15 and h <= 2^62, so no sum below passes 2^63. */
    stall_window w[64];
    for (size_t k = 0; k < m; k++)
        w[k] = stall_periodic_next(&st[idx[k]], t0);
    int64_t covered = t0, until = t0 + (int64_t)h;
    for (;;) {
        size_t best = 0;
        for (size_t k = 1; k < m; k++)
            if (w[k].start_ns < w[best].start_ns)
                best = k;
        if (w[best].start_ns > covered)
            return 0; /* a gap [covered, start) */
        if (w[best].end_ns > covered)
            covered = w[best].end_ns;
        if (covered >= until) {
            *from_ns = t0;
            return 1;
        }
        w[best].start_ns += st[idx[best]].period_ns;
        w[best].end_ns += st[idx[best]].period_ns;
    }
}

/* Grow a set of the periodic stalls order[0..n) one at a time, in that
 * order, leaving out a stall whose joint pattern with the set is too long
 * to sweep; 1 (with *used, *from_ns) as soon as the set leaves no gap. */
static int grow_cover(const stall_spec *st, const size_t *order, size_t n, uint64_t *used, int64_t *from_ns,
                      uint64_t *swept)
{
    size_t idx[64], m = 0;
    for (size_t i = 0; i < n && m < 64; i++) {
        idx[m++] = order[i];
        int rc = m >= 2 ? periodic_cover(st, idx, m, from_ns, swept) : 0;
        if (rc == 1) {
            *used = 0;
            for (size_t k = 0; k < m; k++)
                *used |= (uint64_t)1 << idx[k];
            return 1;
        }
        if (rc < 0)
            m--; /* too long together: try the others without it */
    }
    return 0;
}

int stall_periodic_union_endless(const stall_spec *st, size_t n, uint64_t *used, int64_t *from_ns)
{
    size_t order[64] = {0}, m = 0;
    uint64_t swept = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (stall_kind_has(st[i].kind, STALL_KIND_GRID) && st[i].period_ns > 0)
            order[m++] = i;
    /* in the scenario's order first (the first set that covers), then by
     * period, shortest first (short joint patterns first) */
    if (grow_cover(st, order, m, used, from_ns, &swept))
        return 1;
    for (size_t i = 1; i < m; i++) /* insertion sort: stable, m <= 64 */
        for (size_t j = i; j > 0 && st[order[j]].period_ns < st[order[j - 1]].period_ns; j--) {
            size_t x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    return grow_cover(st, order, m, used, from_ns, &swept);
}

static int cover_walk(const stall_spec *st, size_t n, int64_t from, int64_t until, uint64_t *used,
                      stall_cursor **cur);

int stall_windows_cover(const stall_spec *st, size_t n, int64_t from, int64_t until, uint64_t *used)
{
    stall_cursor *cur[64] = {0}; /* streamed files: `covered` only grows */
    int rc = cover_walk(st, n, from, until, used, cur);
    for (size_t i = 0; i < 64; i++)
        free(cur[i]);
    return rc;
}

static int cover_walk(const stall_spec *st, size_t n, int64_t from, int64_t until, uint64_t *used,
                      stall_cursor **cur)
{
    int64_t covered = from;
    uint64_t mask = 0;
    for (long steps = 0; covered < until; steps++) {
        if (steps >= UNION_MAX_WINDOWS)
            return 0;
        /* the window, among all stalls, that holds `covered` and ends last */
        int64_t best_end = covered;
        size_t best = n;
        for (size_t i = 0; i < n && i < 64; i++) {
            stall_window w = {0, 0};
            if (stall_kind_has(st[i].kind, STALL_KIND_GRID) && st[i].period_ns > 0) {
                w = stall_periodic_next(&st[i], covered);
            } else if (st[i].file) {
                if (!cur[i] && (!(cur[i] = malloc(sizeof *cur[i])) || stall_cursor_init(cur[i], st[i].file)))
                    return 0; /* unknown: the run's own checks remain */
                if (stall_cursor_seek(cur[i], covered, &w) != 1)
                    continue;
            } else if (stall_kind_has(st[i].kind, STALL_KIND_LISTED)) {
                size_t lo = 0, hi = st[i].n_windows; /* first ending after covered */
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (st[i].windows[mid].end_ns <= covered)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo == st[i].n_windows)
                    continue;
                w = st[i].windows[lo];
            } else {
                continue;
            }
            if (w.start_ns <= covered && w.end_ns > best_end) {
                best_end = w.end_ns;
                best = i;
            }
        }
        if (best == n)
            return 0; /* nothing stops the server at `covered` */
        mask |= (uint64_t)1 << best;
        covered = best_end;
    }
    *used = mask;
    return 1;
}

static int cmp_window(const void *a, const void *b)
{
    const stall_window *x = a, *y = b;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

int stall_windows_normalise(stall_window *w, size_t n, size_t *bad)
{
    size_t sorted = 1;
    while (sorted < n && w[sorted - 1].start_ns <= w[sorted].start_ns)
        sorted++;
    if (sorted < n) /* glibc's qsort takes a copy of the array: spared when in order (a stall file) */
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
    if (stall_kind_has(s->kind, STALL_KIND_GRID)) {
        snprintf(buf, len, "%s every %s from %s", units_format_duration_exact(s->length_ns, a, sizeof a),
                 units_format_duration_exact(s->period_ns, b, sizeof b),
                 units_format_duration_exact(s->first_ns, c, sizeof c));
    } else if (stall_kind_has(s->kind, STALL_KIND_LISTED)) {
        if (s->n_windows == 1)
            snprintf(buf, len, "window %s..%s",
                     units_format_duration_exact(stall_first_window(s).start_ns, a, sizeof a),
                     units_format_duration_exact(stall_first_window(s).end_ns, b, sizeof b));
        else
            snprintf(buf, len, "%zu windows", s->n_windows);
    } else if (stall_kind_has(s->kind, STALL_KIND_DRAWN)) {
        char d[96];
        snprintf(buf, len, "random, every %s on average, %s",
                 units_format_duration_exact(s->mean_gap_ns, a, sizeof a),
                 dist_describe(&s->length_dist, d, sizeof d));
    } else if (stall_kind_has(s->kind, STALL_KIND_WORK)) {
        units_format_duration_exact(s->extra_ns, a, sizeof a);
        if (s->n_ranges == 1 && s->ranges[0].first == s->ranges[0].last)
            snprintf(buf, len, "+%s on request %llu", a, (unsigned long long)s->ranges[0].first);
        else if (s->n_ranges == 1)
            snprintf(buf, len, "+%s on requests %llu..%llu", a,
                     (unsigned long long)s->ranges[0].first, (unsigned long long)s->ranges[0].last);
        else
            snprintf(buf, len, "+%s on %zu request ranges", a, s->n_ranges);
    } else {
        snprintf(buf, len, "?");
    }
    if (stall_kind_has(s->kind, STALL_KIND_STOPS) && s->preemption != STALL_PREEMPT_RESUME) {
        size_t n = strlen(buf); /* resume, the default, goes unsaid */
        if (n < len)
            snprintf(buf + n, len - n, ", preemption %s", stall_preemption_name(s->preemption));
    }
    return buf;
}
