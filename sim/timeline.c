/* timeline.c - bounded per-request records for the time charts. */
#include "timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct point {
    int64_t intended_ns, sent_ns, reply_ns, latency_ns;
} point;

typedef struct track {
    point *pts;     /* exact mode: up to max points */
    size_t n;
    int64_t *bin_max; /* binned mode: max latency per bin, -1 for empty */
    /* binned mode: the bin last seen, b, and its instants [lo, hi) */
    size_t bin;
    int64_t bin_lo, bin_hi;
} track;

struct timeline {
    size_t n_testers, max_points;
    int64_t from, to;
    track *tracks;
};

int timeline_new(timeline **out, size_t n_testers, int64_t from_ns, int64_t to_ns, size_t max_points)
{
    *out = NULL;
    if (to_ns <= from_ns || max_points == 0)
        return -EINVAL;
    timeline *t = calloc(1, sizeof *t);
    if (!t)
        return -ENOMEM;
    t->n_testers = n_testers;
    t->max_points = max_points;
    t->from = from_ns;
    t->to = to_ns;
    t->tracks = calloc(n_testers ? n_testers : 1, sizeof *t->tracks);
    if (!t->tracks) {
        free(t);
        return -ENOMEM;
    }
    for (size_t i = 0; i < n_testers; i++) {
        t->tracks[i].pts = malloc(max_points * sizeof(point));
        if (!t->tracks[i].pts) {
            timeline_free(t);
            return -ENOMEM;
        }
    }
    *out = t;
    return 0;
}

void timeline_free(timeline *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_testers; i++) {
        free(t->tracks[i].pts);
        free(t->tracks[i].bin_max);
    }
    free(t->tracks);
    free(t);
}

/* Bin b of P equal bins of the window [from, to) of width W holds the
 * instants at with floor((at - from) P / W) = b, that is
 * ceil(b W / P) <= at - from < ceil((b + 1) W / P): the offset of its first
 * instant (128-bit: b W may pass 2^64). */
static int64_t bin_start(const timeline *t, size_t b)
{
    __extension__ unsigned __int128 w = (uint64_t)(t->to - t->from);
    return t->from + (int64_t)(((unsigned __int128)b * w + t->max_points - 1) / t->max_points);
}

/* The bin of instant at (from <= at < to): the track's last bin when at is
 * in it, else found with one division (a division per bin, not per
 * request, while the intended times come in order). */
static size_t bin_of(const timeline *t, track *k, int64_t at)
{
    if (at >= k->bin_lo && at < k->bin_hi)
        return k->bin;
    __extension__ unsigned __int128 x = (unsigned __int128)(uint64_t)(at - t->from) * t->max_points;
    size_t b = (size_t)(x / (uint64_t)(t->to - t->from));
    k->bin = b;
    k->bin_lo = bin_start(t, b);
    k->bin_hi = b + 1 < t->max_points ? bin_start(t, b + 1) : t->to;
    return b;
}

static void bin_add(timeline *t, track *k, int64_t at, int64_t latency)
{
    size_t b = bin_of(t, k, at);
    if (latency > k->bin_max[b])
        k->bin_max[b] = latency;
}

/* What the track no longer needs after seeing a request intended at
 * intended_ns: before the window, the time up to it; past it, the time
 * after it; in a binned window, the latencies up to the bin's largest in
 * the bin's time; every request of an exact window (nothing skipped). */
static void narrow(const timeline *t, const track *k, int64_t intended_ns, tester_gate *gate)
{
    if (intended_ns < t->from)
        tester_gate_narrow(gate, INT64_MIN, t->from, INT64_MAX);
    else if (intended_ns >= t->to)
        tester_gate_narrow(gate, t->to, INT64_MAX, INT64_MAX);
    else if (k->bin_max)
        tester_gate_narrow(gate, k->bin_lo, k->bin_hi, k->bin_max[k->bin]);
    else
        tester_gate_narrow(gate, 0, 0, 0);
}

void timeline_observe(timeline *t, size_t i, const tester_request *rq, tester_gate *gate)
{
    if (i >= t->n_testers)
        return; /* not a tester of the chart: its skip set is everything */
    track *k = &t->tracks[i];
    if (rq->intended_ns < t->from || rq->intended_ns >= t->to || !rq->recorded) {
        if (k->bin_max && rq->intended_ns >= t->from && rq->intended_ns < t->to)
            bin_of(t, k, rq->intended_ns);
        narrow(t, k, rq->intended_ns, gate);
        return;
    }
    if (!k->bin_max && k->n < t->max_points) {
        point p = {rq->intended_ns, rq->sent_ns, rq->reply_ns, rq->latency_ns};
        k->pts[k->n++] = p;
        narrow(t, k, rq->intended_ns, gate);
        return;
    }
    if (!k->bin_max) { /* too many: from now on, the largest latency per bin */
        k->bin_max = malloc(t->max_points * sizeof *k->bin_max);
        if (!k->bin_max) {
            narrow(t, k, rq->intended_ns, gate);
            return; /* keep what we have (the chart shows fewer points) */
        }
        for (size_t b = 0; b < t->max_points; b++)
            k->bin_max[b] = -1;
        k->bin_lo = k->bin_hi = 0; /* no bin seen yet */
        for (size_t j = 0; j < k->n; j++)
            bin_add(t, k, k->pts[j].intended_ns, k->pts[j].latency_ns);
    }
    bin_add(t, k, rq->intended_ns, rq->latency_ns);
    narrow(t, k, rq->intended_ns, gate);
}

size_t timeline_points(const timeline *t, size_t i)
{
    const track *k = &t->tracks[i];
    if (!k->bin_max)
        return k->n;
    size_t n = 0;
    for (size_t b = 0; b < t->max_points; b++)
        n += k->bin_max[b] >= 0;
    return n;
}

size_t timeline_bars(const timeline *t, size_t i)
{
    return t->tracks[i].bin_max ? 0 : t->tracks[i].n;
}

int timeline_exact(const timeline *t, size_t i)
{
    return i < t->n_testers && !t->tracks[i].bin_max;
}

int timeline_write_points(const timeline *t, FILE *f, const char *const *names)
{
    fprintf(f, "# cosim timeline: one block per tester; columns: intended_s latency_ms\n"
               "# (a binned block holds the largest latency of each of %zu equal bins)\n",
            t->max_points);
    for (size_t i = 0; i < t->n_testers; i++) {
        const track *k = &t->tracks[i];
        fprintf(f, "%s# tester %s%s\n", i ? "\n\n" : "", names[i], k->bin_max ? " (binned)" : "");
        if (!k->bin_max) {
            for (size_t j = 0; j < k->n; j++)
                fprintf(f, "%.9f %.6f\n", (double)k->pts[j].intended_ns / 1e9,
                        (double)k->pts[j].latency_ns / 1e6);
        } else {
            double width = (double)(t->to - t->from) / (double)t->max_points;
            for (size_t b = 0; b < t->max_points; b++)
                if (k->bin_max[b] >= 0)
                    fprintf(f, "%.9f %.6f\n", ((double)t->from + ((double)b + 0.5) * width) / 1e9,
                            (double)k->bin_max[b] / 1e6);
        }
        if ((k->bin_max == NULL && k->n == 0))
            fprintf(f, "nan nan\n"); /* gnuplot needs a row to keep the block */
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int timeline_write_bars(const timeline *t, FILE *f, const char *const *names)
{
    fprintf(f, "# cosim request bars: one block per tester; columns:\n"
               "# intended_s sent_s reply_s row (row 1 is the first request in the window)\n");
    for (size_t i = 0; i < t->n_testers; i++) {
        const track *k = &t->tracks[i];
        fprintf(f, "%s# tester %s%s\n", i ? "\n\n" : "", names[i],
                k->bin_max ? " (too many requests in the window: not drawn)" : "");
        if (!k->bin_max)
            for (size_t j = 0; j < k->n; j++)
                fprintf(f, "%.9f %.9f %.9f %zu\n", (double)k->pts[j].intended_ns / 1e9,
                        (double)k->pts[j].sent_ns / 1e9, (double)k->pts[j].reply_ns / 1e9, j + 1);
        if (k->bin_max || k->n == 0)
            fprintf(f, "nan nan nan nan\n");
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}
