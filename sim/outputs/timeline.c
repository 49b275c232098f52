/* timeline.c - bounded per-request records for the time charts. */
#include "timeline.h"
#include "grow.h"
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct point {
    int64_t intended_ns, sent_ns, reply_ns, latency_ns;
    uint64_t index;  /* the request's index in the run */
    int recorded;
    int64_t work_ns; /* its service's start (tester_request.start_ns): work_ns
                        - sent_ns its wait for a worker or a stall; 0 for a
                        synthetic sample (not written) */
} point;

typedef struct track {
    point *pts;       /* exact mode: up to max points */
    size_t n;
    uint64_t seen;    /* requests in the window */
    uint64_t unrecorded; /* ... of them not recorded (warm-up, timed out,
                            failed, dropped at the end): not drawn */
    /* binned mode: max latency (-1 empty), sum and count per bin */
    int64_t *bin_max;
    double *bin_sum;
    uint64_t *bin_n;
    /* the backlog, kept for every request in both modes, per bin: */
    int64_t *bin_delta;     /* sends minus replies in each bin */
    int64_t *bin_peak;      /* requests at the server just after each send
                               in the bin, the most of them (0: no send) */
    int64_t level0;         /* requests at the server when the window opens */
    int64_t *pend;          /* min-heap of the replies still due */
    size_t n_pend, cap_pend;
    int from_sent;          /* a request's latency began after its intended
                               send (latency_from = sent): 1 */
    /* the schedule (timeline_set_tester) */
    int grid;               /* paced, corrected: slots floor(i D) */
    units_interval iv;
    int64_t end_ns;         /* slots before it are planned */
    uint64_t first_slot;    /* the first planned: users with Go's ticker
                               (late = ticker: tester_paced.c ticker_start
                               skips each user's slot at its start), else 0 */
    int64_t expected_ns;    /* corrected: the correction's D; 0 none */
    hist_correction rule;
    point *syn;             /* synthetic samples kept: intended = time, latency = value */
    size_t n_syn;
    uint64_t syn_total;
} track;

struct timeline {
    size_t n_testers, max_points;
    int64_t from, to, bin_width;
    /* the backlog's own grid: bl_width a round 1, 2 or 5 x 10^k ns, at
     * least bin_width, so bl_bins <= max_points (its sums per bin) */
    int64_t bl_width;
    size_t bl_bins;
    int by_reply;
    track *tracks;
};

/* The smallest 1, 2 or 5 x 10^k ns at least x_ns (x_ns >= 1): a bin
 * width printed plainly ("50 ms", not "32.175 ms"). */
static int64_t round_up_125(int64_t x_ns)
{
    int64_t p = 1;
    for (;;) {
        if (p >= x_ns)
            return p;
        if (2 * p >= x_ns)
            return 2 * p;
        if (5 * p >= x_ns)
            return 5 * p;
        if (p > INT64_MAX / 100)
            return x_ns;
        p *= 10;
    }
}

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
    /* ceil(span / bins): every instant of the window falls in a bin */
    uint64_t span = (uint64_t)to_ns - (uint64_t)from_ns;
    t->bin_width = (int64_t)(span / max_points + (span % max_points != 0));
    t->bl_width = round_up_125(t->bin_width);
    t->bl_bins = (size_t)((span + (uint64_t)t->bl_width - 1) / (uint64_t)t->bl_width);
    t->tracks = calloc(n_testers ? n_testers : 1, sizeof *t->tracks);
    if (!t->tracks) {
        free(t);
        return -ENOMEM;
    }
    for (size_t i = 0; i < n_testers; i++) {
        t->tracks[i].pts = malloc(max_points * sizeof(point));
        t->tracks[i].bin_delta = calloc(max_points, sizeof(int64_t));
        t->tracks[i].bin_peak = calloc(max_points, sizeof(int64_t));
        if (!t->tracks[i].pts || !t->tracks[i].bin_delta || !t->tracks[i].bin_peak) {
            timeline_free(t);
            return -ENOMEM;
        }
    }
    *out = t;
    return 0;
}

int timeline_set_tester(timeline *t, size_t i, const tester_spec *spec, int64_t end_ns)
{
    if (i >= t->n_testers)
        return -EINVAL;
    track *k = &t->tracks[i];
    tester_grid g;
    if (!tester_grid_of(spec, &g))
        return 0; /* no grid of slots (a shared schedule or staggered users have none) */
    k->grid = 1;
    k->iv = g.interval;
    k->end_ns = end_ns;
    k->first_slot = g.first_slot;
    if (g.corrects) {
        k->expected_ns = g.expected_ns;
        k->rule = spec->correction;
        if (!k->syn && !(k->syn = malloc(t->max_points * sizeof(point))))
            return -ENOMEM;
    }
    return 0;
}

void timeline_set_by_reply(timeline *t, int by_reply)
{
    t->by_reply = by_reply;
}

void timeline_free(timeline *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_testers; i++) {
        free(t->tracks[i].pts);
        free(t->tracks[i].pend);
        free(t->tracks[i].bin_peak);
        free(t->tracks[i].syn);
        free(t->tracks[i].bin_max);
        free(t->tracks[i].bin_sum);
        free(t->tracks[i].bin_n);
        free(t->tracks[i].bin_delta);
    }
    free(t->tracks);
    free(t);
}

/* The window a saved track belongs to (timeline_save_tester). */
typedef struct saved_window {
    int64_t from, to, bin_width;
    uint64_t max_points, bl_bins;
} saved_window;

int timeline_save_tester(const timeline *t, size_t i, FILE *f)
{
    if (i >= t->n_testers)
        return -EINVAL;
    const track *k = &t->tracks[i];
    saved_window w = {t->from, t->to, t->bin_width, t->max_points, t->bl_bins};
    unsigned char has[3] = {k->bin_max != NULL, k->syn != NULL, k->pend != NULL};
    fwrite(&w, sizeof w, 1, f);
    fwrite(k, sizeof *k, 1, f);
    fwrite(has, sizeof has, 1, f);
    fwrite(k->pts, sizeof *k->pts, k->n, f);
    fwrite(k->bin_delta, sizeof *k->bin_delta, t->max_points, f);
    fwrite(k->bin_peak, sizeof *k->bin_peak, t->max_points, f);
    if (k->bin_max) {
        fwrite(k->bin_max, sizeof *k->bin_max, t->max_points, f);
        fwrite(k->bin_sum, sizeof *k->bin_sum, t->max_points, f);
        fwrite(k->bin_n, sizeof *k->bin_n, t->max_points, f);
    }
    if (k->syn)
        fwrite(k->syn, sizeof *k->syn, k->n_syn, f);
    if (k->pend)
        fwrite(k->pend, sizeof *k->pend, k->n_pend, f);
    return ferror(f) ? -EIO : 0;
}

/* n items of size bytes from *at into dst (malloc'd when *dst is NULL and
 * alloc); -EINVAL when fewer are left, -ENOMEM. */
static int take_items(const unsigned char **at, const unsigned char *end, void **dst, size_t n, size_t size,
                      int alloc)
{
    if (n > (size_t)(end - *at) / size)
        return -EINVAL;
    if (alloc && !*dst && !(*dst = malloc(n * size + 1)))
        return -ENOMEM;
    memcpy(*dst, *at, n * size);
    *at += n * size;
    return 0;
}

int timeline_load_tester(timeline *t, size_t i, const unsigned char **at, const unsigned char *end)
{
    saved_window w;
    track saved;
    unsigned char has[3];
    void *p = &w;
    if (i >= t->n_testers || take_items(at, end, &p, 1, sizeof w, 0))
        return -EINVAL;
    if (w.from != t->from || w.to != t->to || w.bin_width != t->bin_width || w.max_points != t->max_points ||
        w.bl_bins != t->bl_bins)
        return -EINVAL;
    p = &saved;
    if (take_items(at, end, &p, 1, sizeof saved, 0))
        return -EINVAL;
    p = has;
    if (take_items(at, end, &p, 1, sizeof has, 0) || has[0] > 1 || has[1] > 1 || has[2] > 1 ||
        saved.n > t->max_points || saved.n_syn > t->max_points || saved.n_pend > saved.cap_pend)
        return -EINVAL;
    track *k = &t->tracks[i];
    if (k->n || k->seen || k->bin_max || k->n_pend || k->n_syn || (has[1] && !k->syn))
        return -EINVAL; /* not as the saved one was made, or it saw requests */
    /* the figures as saved, the arrays this timeline's own */
    track mine = *k;
    *k = saved;
    k->pts = mine.pts;
    k->bin_delta = mine.bin_delta;
    k->bin_peak = mine.bin_peak;
    k->syn = mine.syn;
    k->bin_max = NULL;
    k->bin_sum = NULL;
    k->bin_n = NULL;
    k->pend = NULL;
    k->cap_pend = 0;
    size_t n_pend = k->n_pend;
    k->n_pend = 0;
    int rc = take_items(at, end, (void **)&k->pts, k->n, sizeof *k->pts, 0);
    if (!rc)
        rc = take_items(at, end, (void **)&k->bin_delta, t->max_points, sizeof *k->bin_delta, 0);
    if (!rc)
        rc = take_items(at, end, (void **)&k->bin_peak, t->max_points, sizeof *k->bin_peak, 0);
    if (!rc && has[0]) {
        rc = take_items(at, end, (void **)&k->bin_max, t->max_points, sizeof *k->bin_max, 1);
        if (!rc)
            rc = take_items(at, end, (void **)&k->bin_sum, t->max_points, sizeof *k->bin_sum, 1);
        if (!rc)
            rc = take_items(at, end, (void **)&k->bin_n, t->max_points, sizeof *k->bin_n, 1);
    }
    if (!rc && has[1])
        rc = take_items(at, end, (void **)&k->syn, k->n_syn, sizeof *k->syn, 0);
    else if (!has[1])
        k->n_syn = 0;
    if (!rc && has[2]) {
        rc = take_items(at, end, (void **)&k->pend, n_pend, sizeof *k->pend, 1);
        if (!rc) {
            k->n_pend = n_pend;
            k->cap_pend = n_pend;
        }
    }
    if (rc) { /* a track that holds nothing, its arrays kept for timeline_free */
        k->n = k->n_syn = k->n_pend = 0;
        k->seen = 0;
    }
    return rc;
}

/* The bin of a time: (at - from) / width, one 64-bit division; times
 * outside the window go to the nearest end bin. */
static size_t bin_of(const timeline *t, int64_t at)
{
    if (at <= t->from)
        return 0;
    uint64_t b = ((uint64_t)at - (uint64_t)t->from) / (uint64_t)t->bin_width;
    return b < t->max_points ? (size_t)b : t->max_points - 1;
}

/* The same on the backlog's grid (bl_width wide, bl_bins of them). */
static size_t bl_of(const timeline *t, int64_t at)
{
    if (at <= t->from)
        return 0;
    uint64_t b = ((uint64_t)at - (uint64_t)t->from) / (uint64_t)t->bl_width;
    return b < t->bl_bins ? (size_t)b : t->bl_bins - 1;
}

/* Pop the min-heap's smallest reply. */
static void pend_pop(track *k)
{
    int64_t *h = k->pend, last = h[--k->n_pend];
    size_t j = 0, n = k->n_pend;
    for (;;) {
        size_t c = 2 * j + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1] < h[c])
            c++;
        if (h[c] >= last)
            break;
        h[j] = h[c];
        j = c;
    }
    if (n)
        h[j] = last;
}

/* Push a reply on the min-heap. 0 or -ENOMEM. */
static int pend_push(track *k, int64_t reply_ns)
{
    if (k->n_pend == k->cap_pend) {
        int64_t *h = grow_array(k->pend, &k->cap_pend, sizeof *h, 64);
        if (!h)
            return -ENOMEM;
        k->pend = h;
    }
    size_t j = k->n_pend++;
    while (j > 0 && k->pend[(j - 1) / 2] > reply_ns) {
        k->pend[j] = k->pend[(j - 1) / 2];
        j = (j - 1) / 2;
    }
    k->pend[j] = reply_ns;
    return 0;
}

/* The backlog of one request (observed in send order, as the engine sends
 * them): its send and reply in their bins' sums, and the requests at the
 * server just after its send (the replies due later than the send, itself
 * included; a reply at the send's instant comes first) in its bin's peak.
 * A request answered before the window opens changes nothing in it. */
static void backlog_add(const timeline *t, track *k, const point *p)
{
    if (p->reply_ns <= t->from)
        return;
    if (p->sent_ns <= t->from)
        k->level0++;
    else if (p->sent_ns < t->to)
        k->bin_delta[bl_of(t, p->sent_ns)]++;
    if (p->reply_ns < t->to)
        k->bin_delta[bl_of(t, p->reply_ns)]--;
    while (k->n_pend && k->pend[0] <= p->sent_ns)
        pend_pop(k);
    if (pend_push(k, p->reply_ns))
        return; /* no memory: this bin's peak may read low */
    if (p->sent_ns >= t->from && p->sent_ns < t->to) {
        int64_t *pk = &k->bin_peak[bl_of(t, p->sent_ns)];
        if ((int64_t)k->n_pend > *pk)
            *pk = (int64_t)k->n_pend;
    }
}

static void bin_add(const timeline *t, track *k, const point *p)
{
    if (!p->recorded)
        return;
    size_t b = bin_of(t, t->by_reply ? p->reply_ns : p->intended_ns);
    if (p->latency_ns > k->bin_max[b])
        k->bin_max[b] = p->latency_ns;
    k->bin_sum[b] += (double)p->latency_ns;
    k->bin_n[b]++;
}

/* From max_points requests on, bins instead of points. 0 or -ENOMEM. */
static int start_bins(const timeline *t, track *k)
{
    k->bin_max = malloc(t->max_points * sizeof *k->bin_max);
    k->bin_sum = calloc(t->max_points, sizeof *k->bin_sum);
    k->bin_n = calloc(t->max_points, sizeof *k->bin_n);
    if (!k->bin_max || !k->bin_sum || !k->bin_n) {
        free(k->bin_max);
        free(k->bin_sum);
        free(k->bin_n);
        k->bin_max = NULL;
        k->bin_sum = NULL;
        k->bin_n = NULL;
        return -ENOMEM;
    }
    for (size_t b = 0; b < t->max_points; b++)
        k->bin_max[b] = -1;
    for (size_t j = 0; j < k->n; j++)
        bin_add(t, k, &k->pts[j]);
    return 0;
}

/* The correction's samples of one reply that fall in the window: value
 * v - jD at time (reply - v) + jD for j = 1 .. hist_correction_count. */
static void add_synthetic(const timeline *t, track *k, const tester_request *rq)
{
    int64_t d = k->expected_ns, v = rq->latency_ns;
    uint64_t c = hist_correction_count(v, d, k->rule);
    if (c == 0)
        return;
    int64_t base = rq->reply_ns - v;
    uint64_t j0 = 1, j1 = c;
    if (base + d < t->from) /* the first j with base + j d >= from */
        j0 = (uint64_t)((t->from - base + d - 1) / d);
    if (base >= t->to)
        return;
    uint64_t last = (uint64_t)((t->to - 1 - base) / d); /* base + j d < to */
    if (last < j1)
        j1 = last;
    for (uint64_t j = j0; j <= j1; j++) {
        k->syn_total++;
        if (k->n_syn < t->max_points) {
            int64_t at = base + (int64_t)j * d;
            point p = {at, at, rq->reply_ns, v - (int64_t)j * d, rq->index, 1, 0};
            k->syn[k->n_syn++] = p;
        }
    }
}

/* What the chart no longer needs after a request intended at intended_ns
 * (tester_gate): past the window, nothing more of this run; before it, a
 * request matters only while it is still at the server when the window
 * opens (its backlog and its correction's samples), so the requests
 * intended in [intended_ns, from - M) with latency up to M are skipped,
 * M half the distance to the window: about log2(distance) calls, plus one
 * per slow request. In the window every request counts (its point, or its
 * bin's largest latency, mean and backlog). */
static void narrow(const timeline *t, int64_t intended_ns, tester_gate *gate)
{
    if (intended_ns >= t->to) {
        tester_gate_narrow(gate, t->to, INT64_MAX, INT64_MAX);
    } else if (intended_ns < t->from) {
        int64_t m = (int64_t)(((uint64_t)t->from - (uint64_t)intended_ns) / 2);
        tester_gate_narrow(gate, intended_ns, t->from - m, m);
    } else {
        tester_gate_narrow(gate, 0, 0, 0);
    }
}

void timeline_observe(timeline *t, size_t i, const tester_request *rq, tester_gate *gate)
{
    if (i >= t->n_testers)
        return; /* not a tester of the chart: its skip set is everything */
    narrow(t, rq->intended_ns, gate);
    if (rq->intended_ns >= t->to)
        return;
    track *k = &t->tracks[i];
    if (k->expected_ns > 0 && rq->recorded && rq->reply_ns > t->from)
        add_synthetic(t, k, rq);
    point p = {rq->intended_ns, rq->sent_ns, rq->reply_ns, rq->latency_ns, rq->index, rq->recorded, rq->start_ns};
    backlog_add(t, k, &p);
    if (rq->intended_ns < t->from)
        return; /* only its backlog (still at the server when the window opens) */
    /* where the tester's latency starts: the intended send, or (latency_from
     * = sent) the actual one, which a late request tells apart */
    if (rq->recorded && rq->sent_ns != rq->intended_ns && rq->reply_ns - rq->latency_ns == rq->sent_ns)
        k->from_sent = 1;
    k->seen++;
    k->unrecorded += !rq->recorded;
    if (!k->bin_max && k->n < t->max_points) {
        k->pts[k->n++] = p;
        return;
    }
    if (!k->bin_max && start_bins(t, k))
        return; /* keep what we have (timeline_exact still says so) */
    bin_add(t, k, &p);
}

size_t timeline_points(const timeline *t, size_t i)
{
    const track *k = &t->tracks[i];
    size_t n = 0;
    if (!k->bin_max) {
        for (size_t j = 0; j < k->n; j++)
            n += k->pts[j].recorded != 0;
        return n + k->n_syn;
    }
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
    return i < t->n_testers && !t->tracks[i].bin_max && t->tracks[i].seen == t->tracks[i].n;
}

int timeline_from_sent(const timeline *t, size_t i)
{
    return i < t->n_testers && t->tracks[i].from_sent;
}

uint64_t timeline_seen(const timeline *t, size_t i)
{
    return t->tracks[i].seen;
}

uint64_t timeline_unrecorded(const timeline *t, size_t i)
{
    return t->tracks[i].unrecorded;
}

uint64_t timeline_synthetic(const timeline *t, size_t i, uint64_t *kept)
{
    if (kept)
        *kept = t->tracks[i].n_syn;
    return t->tracks[i].syn_total;
}

/* A time's slot on tester k's grid: the last i with floor(i D) <= at. */
static uint64_t slot_of(const track *k, int64_t at)
{
    uint64_t c = units_interval_count_before(k->iv, 0, at + 1);
    return c ? c - 1 : 0;
}

/* The window's slots on k's grid: [*s0, *s1), planned before the end. */
static void window_slots(const timeline *t, const track *k, uint64_t *s0, uint64_t *s1)
{
    int64_t to = t->to < k->end_ns ? t->to : k->end_ns;
    *s0 = units_interval_count_before(k->iv, 0, t->from);
    *s1 = to > t->from ? units_interval_count_before(k->iv, 0, to) : *s0;
    if (*s0 < k->first_slot)
        *s0 = *s1 < k->first_slot ? *s1 : k->first_slot;
}

/* Most slots a window may have for never-sent markers (a bitmap each). */
#define MAX_SLOTS ((uint64_t)1 << 20)

/* Which of the window's slots a request claimed (claimed[j] for slot
 * s0 + j), NULL with *n 0 when there is no grid or too many slots. */
static unsigned char *claimed_slots(const timeline *t, const track *k, uint64_t *s0, uint64_t *n)
{
    uint64_t s1;
    *n = 0;
    if (!k->grid || k->bin_max)
        return NULL;
    window_slots(t, k, s0, &s1);
    if (s1 <= *s0 || s1 - *s0 > MAX_SLOTS)
        return NULL;
    unsigned char *c = calloc((size_t)(s1 - *s0), 1);
    if (!c)
        return NULL;
    *n = s1 - *s0;
    for (size_t j = 0; j < k->n; j++) {
        uint64_t s = slot_of(k, k->pts[j].intended_ns);
        if (s >= *s0 && s < s1)
            c[s - *s0] = 1;
    }
    return c;
}

uint64_t timeline_never_sent(const timeline *t, size_t i)
{
    const track *k = &t->tracks[i];
    uint64_t s0, n, never = 0;
    unsigned char *c = claimed_slots(t, k, &s0, &n);
    for (uint64_t j = 0; j < n; j++)
        never += !c[j];
    free(c);
    return never;
}

/* How many bins of the backlog's grid make one bin of the backlog as
 * written: enough that a bin holds two requests of the sparsest tester (at
 * one request a bin, a level going 1, 0, 1 between requests drew a comb),
 * and at least 20 bins, at most the grid's; then widened to the first
 * width of 1, 2 or 5 x 10^k ns that is a whole number of the grid's bins
 * (one_stall's 32.175 ms, 3.5 ms x 9 + ..., became 50 ms: a width that
 * reads plainly, and one that does not beat against a round send rate). */
static size_t backlog_factor(const timeline *t)
{
    uint64_t fewest = 0;
    for (size_t i = 0; i < t->n_testers; i++)
        if (t->tracks[i].seen && (fewest == 0 || t->tracks[i].seen < fewest))
            fewest = t->tracks[i].seen;
    uint64_t bins = fewest / 2;
    if (bins < 20)
        bins = 20;
    if (bins > t->bl_bins)
        bins = t->bl_bins;
    size_t f = (t->bl_bins + bins - 1) / bins;
    int64_t want = (int64_t)f * t->bl_width;
    for (int64_t w = round_up_125(want);; w = round_up_125(w + 1))
        if (w % t->bl_width == 0 || w / t->bl_width >= (int64_t)t->bl_bins)
            return w / t->bl_width > 0 ? (size_t)(w / t->bl_width) : 1;
}

int64_t timeline_backlog_bin_ns(const timeline *t)
{
    return (int64_t)backlog_factor(t) * t->bl_width;
}

/* Tester k's backlog over the window, rows "bin_start_s requests": the
 * most requests at the server at any instant of each bin (its level when
 * the bin opens, or just after one of its sends), then the window's end. */
static void write_backlog(const timeline *t, const track *k, size_t factor, FILE *f)
{
    int64_t level = k->level0;
    for (size_t b = 0; b < t->bl_bins; b += factor) {
        int64_t start = t->from + (int64_t)b * t->bl_width;
        if (start >= t->to)
            break;
        int64_t peak = level;
        for (size_t j = b; j < b + factor && j < t->bl_bins; j++) {
            if (k->bin_peak[j] > peak)
                peak = k->bin_peak[j];
            level += k->bin_delta[j];
        }
        fprintf(f, "%.9f %lld\n", (double)start / 1e9, (long long)peak);
        if (b + factor >= t->bl_bins || start + (int64_t)factor * t->bl_width >= t->to)
            fprintf(f, "%.9f %lld\n", (double)t->to / 1e9, (long long)peak);
    }
}

int timeline_write_points(const timeline *t, FILE *f, const char *const *names)
{
    fprintf(f, "# cosim timeline: one block per tester, columns: %s_s latency_ms kind\n"
               "# kind 0: a request; 1: a sample the correction added; binned blocks\n"
               "# (more than %zu requests in the window): 3 the largest, 4 the mean latency\n"
               "# of each of %zu equal bins (at the bin's centre). Then one block per\n"
               "# tester: the backlog, columns: bin_start_s requests (the most sent, not yet\n"
               "# answered, at any instant of the bin)\n",
            t->by_reply ? "reply" : "intended", t->max_points, t->max_points);
    for (size_t i = 0; i < t->n_testers; i++) {
        const track *k = &t->tracks[i];
        fprintf(f, "%s# tester %s%s\n", i ? "\n\n" : "", names[i], k->bin_max ? " (binned)" : "");
        size_t rows = 0;
        if (!k->bin_max) {
            /* only recorded requests make a row: a block of unrecorded
             * ones alone (warm-up, timeouts) got no row, gnuplot dropped
             * it and every later tester's panel took its neighbour's data */
            for (size_t j = 0; j < k->n; j++) {
                const point *p = &k->pts[j];
                if (!p->recorded)
                    continue;
                fprintf(f, "%.9f %.6f 0\n", (double)(t->by_reply ? p->reply_ns : p->intended_ns) / 1e9,
                        (double)p->latency_ns / 1e6);
                rows++;
            }
            for (size_t j = 0; j < k->n_syn; j++, rows++)
                fprintf(f, "%.9f %.6f 1\n",
                        (double)(t->by_reply ? k->syn[j].reply_ns : k->syn[j].intended_ns) / 1e9,
                        (double)k->syn[j].latency_ns / 1e6);
        } else {
            for (size_t b = 0; b < t->max_points; b++) {
                if (k->bin_max[b] < 0)
                    continue;
                double centre = ((double)t->from + ((double)b + 0.5) * (double)t->bin_width) / 1e9;
                fprintf(f, "%.9f %.6f 3\n%.9f %.6f 4\n", centre, (double)k->bin_max[b] / 1e6, centre,
                        k->bin_sum[b] / (double)k->bin_n[b] / 1e6);
                rows++;
            }
        }
        if (rows == 0)
            fprintf(f, "nan nan nan\n"); /* gnuplot needs a row to keep the block */
    }
    size_t factor = backlog_factor(t);
    for (size_t i = 0; i < t->n_testers; i++) {
        fprintf(f, "\n\n# backlog %s: the most requests at the server in each bin of %.6f s\n", names[i],
                (double)factor * (double)t->bl_width / 1e9);
        write_backlog(t, &t->tracks[i], factor, f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* The fastest latency of k's requests, for the thinning. */
static int64_t fastest(const track *k)
{
    int64_t m = INT64_MAX;
    for (size_t j = 0; j < k->n; j++)
        if (k->pts[j].latency_ns < m)
            m = k->pts[j].latency_ns;
    return m;
}

size_t timeline_bars_every(const timeline *t, size_t i, size_t max_draw)
{
    const track *k = &t->tracks[i];
    if (max_draw == 0 || k->n <= max_draw)
        return 1;
    return (k->n + max_draw - 1) / max_draw;
}

/* The bar's row: the slot for a tester with a grid, else the index. */
static uint64_t row_of(const track *k, const point *p)
{
    return k->grid ? slot_of(k, p->intended_ns) : p->index;
}

/* The never-sent slots of k's window, rows "intended nan nan slot 2". */
static void write_never_sent(const timeline *t, const track *k, FILE *f)
{
    uint64_t s0, n;
    unsigned char *c = claimed_slots(t, k, &s0, &n);
    for (uint64_t j = 0; j < n; j++)
        if (!c[j])
            fprintf(f, "%.9f nan nan %llu 2 nan nan\n", (double)units_interval_at(k->iv, 0, s0 + j) / 1e9,
                    (unsigned long long)(s0 + j));
    free(c);
}

int timeline_write_bars(const timeline *t, FILE *f, const char *const *names, size_t max_draw)
{
    fprintf(f, "# cosim request bars: one block per tester; columns:\n"
               "# intended_s sent_s reply_s row kind start_s service_s; row: the request's index in\n"
               "# the run (from 0, in send order), or for a paced or corrected tester its\n"
               "# slot i on the grid floor(i D); kind 0: a request sent, 1: a sample the\n"
               "# correction added (bar from its time to the reply), 2: a slot never sent;\n"
               "# start_s: where the tester's latency starts (reply - latency: the intended\n"
               "# or, latency_from = sent, the actual send); service_s: when its service\n"
               "# began (from start_s to it: its wait for a worker, or a stall; nan for\n"
               "# rows 1 and 2)\n");
    for (size_t i = 0; i < t->n_testers; i++) {
        const track *k = &t->tracks[i];
        size_t every = timeline_bars_every(t, i, max_draw);
        fprintf(f, "%s# tester %s%s\n", i ? "\n\n" : "", names[i],
                k->bin_max ? " (too many requests in the window: not drawn)" : "");
        if (every > 1)
            fprintf(f, "# thinned: every %zu-th of %zu requests, and every one slower than 5x the "
                       "fastest\n", every, k->n);
        if (k->bin_max || k->n == 0) {
            fprintf(f, "nan nan nan nan nan nan nan\n");
            continue;
        }
        int64_t slow = fastest(k);
        slow = slow > INT64_MAX / 5 ? INT64_MAX : 5 * slow;
        for (size_t j = 0; j < k->n; j++) {
            const point *p = &k->pts[j];
            uint64_t row = row_of(k, p);
            if (every > 1 && row % every != 0 && p->latency_ns <= slow)
                continue;
            fprintf(f, "%.9f %.9f %.9f %llu 0 %.9f %.9f\n", (double)p->intended_ns / 1e9, (double)p->sent_ns / 1e9,
                    (double)p->reply_ns / 1e9, (unsigned long long)row,
                    (double)(p->reply_ns - p->latency_ns) / 1e9, (double)p->work_ns / 1e9);
        }
        for (size_t j = 0; j < k->n_syn; j++)
            fprintf(f, "%.9f nan %.9f %llu 1 %.9f nan\n", (double)k->syn[j].intended_ns / 1e9,
                    (double)k->syn[j].reply_ns / 1e9, (unsigned long long)row_of(k, &k->syn[j]),
                    (double)k->syn[j].intended_ns / 1e9);
        write_never_sent(t, k, f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* The smallest interval between requests of the scenario's testers: of
 * the testers with a rate, else of the closed ones. 0 if none. */
static double densest_interval_ns(const scenario *s)
{
    double best = 0, closed = 0;
    for (size_t i = 0; i < s->n_testers; i++) {
        const tester_spec *ts = &s->testers[i];
        double rate = tester_request_rate_per_ns(ts);
        if (rate > 0) {
            if (best == 0 || 1 / rate < best)
                best = 1 / rate;
            continue;
        }
        double cycle = dist_mean_ns(&s->service) + (ts->has_think ? dist_mean_ns(&ts->think) : 0);
        double users = ts->users ? (double)ts->users : 1;
        if (cycle > 0 && (closed == 0 || cycle / users < closed))
            closed = cycle / users;
    }
    return best > 0 ? best : closed;
}

/* How long the queue a stall of len_ns builds takes to drain, ns: the
 * requests it holds back, lambda L, served at mu - lambda once it ends,
 * L rho / (1 - rho) with rho the largest offered utilisation per worker
 * of the testers with a rate (scenario_utilisation; M/G/c with a vacation:
 * the backlog falls at the rate c mu - lambda, lambda L / (c mu - lambda)
 * = L rho / (1 - rho)). A tester at rho >= 0.95
 * never drains within the run: 20 L then (the run's end clips it); no
 * tester with a rate (closed loops): 0. */
static double drain_ns(const scenario *s, double len_ns)
{
    double rho = 0;
    for (size_t i = 0; i < s->n_testers; i++)
        rho = fmax(rho, scenario_utilisation(s, i));
    return rho >= 0.95 ? 20 * len_ns : len_ns * rho / (1 - rho);
}

/* [from, to) clipped to [0, end), kept at least 1 ns wide. */
static void clip(int64_t end, double from, double to, int64_t *f, int64_t *t)
{
    if (from < 0)
        from = 0;
    if (to > (double)end)
        to = (double)end;
    *f = from < (double)end ? (int64_t)from : 0;
    *t = to > (double)*f ? (int64_t)to : end;
}

/* The smallest of 1, 2 and 5 x 10^k ns (k >= 0) that is at least x_ns:
 * a width that reads as a round figure (500 ns, 2 ms, 10 s). */
static int64_t round_width_ns(double x_ns)
{
    int64_t p = 1;
    for (;;) {
        for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) /* 1, 2, 5 */
            if ((double)(m * p) >= x_ns)
                return m * p;
        if (p > INT64_MAX / 10)
            return INT64_MAX;
        p *= 10;
    }
}

/* A window of a round width at least w_ns, starting at the run's middle
 * rounded down to a multiple of that width (so both ends read as round
 * figures: 500ms..500.5ms); the whole run if as wide. It ends by the
 * run's end: a width over half the run starts at 0. */
static void round_window(int64_t end, double w_ns, int64_t *from, int64_t *to)
{
    int64_t w = round_width_ns(w_ns);
    if (w >= end) {
        *from = 0;
        *to = end;
        return;
    }
    *from = end / 2 / w * w;
    *to = *from + w;
}

int timeline_default_windows(const scenario *s, int64_t *tl_from, int64_t *tl_to, int64_t *bars_from,
                             int64_t *bars_to)
{
    int64_t end = s->duration_ns;
    if (end <= 0)
        return -EINVAL;
    double d = densest_interval_ns(s);
    if (!(d > 0))
        d = (double)end / 1000;
    enum { MAX_WINDOWS = 1000 };
    stall_window w = {0, 0}, first = {0, 0}, best = {0, 0};
    stall_window *win = malloc(MAX_WINDOWS * sizeof *win);
    size_t nw = 0;
    int found = 0, any = 0;
    if (win && run_stop_windows(s, 0, end, win, MAX_WINDOWS, &nw) == 0) {
        /* the longest (the earliest of equals: a periodic stall's first),
         * so a GC log's Full GC is drawn, not the first 11 ms young pause */
        for (size_t n = 0; n < nw; n++) {
            w = win[n];
            if (!any) {
                first = w;
                any = 1;
            }
            if ((double)w.start_ns >= 8 * d &&
                (!found || w.end_ns - w.start_ns > best.end_ns - best.start_ns)) {
                best = w;
                found = 1;
            }
        }
    }
    free(win);
    w = found ? best : first;
    if (!any) {
        /* closed loops alone send once a reply comes: at most c requests
         * per mean service time however many users wait (100000 users on a
         * 1 ms server drew a 400 ns window holding one request or none) */
        int rated = 0;
        for (size_t i = 0; i < s->n_testers; i++)
            rated |= tester_request_rate_per_ns(&s->testers[i]) > 0;
        double served = dist_mean_ns(&s->service) / (double)(s->workers ? s->workers : 1);
        if (!rated && served > d)
            d = served;
        round_window(end, 40 * d, bars_from, bars_to);
        round_window(end, 2000 * d, tl_from, tl_to);
        return 0;
    }
    double start = (double)w.start_ns, len = (double)(w.end_ns - w.start_ns);
    double drain = drain_ns(s, len), stop = (double)w.end_ns + drain; /* the queue is empty again */
    clip(end, start - 8 * d, fmax(start - 8 * d + 40 * d, stop + 8 * d), bars_from, bars_to);
    double from = start - fmax(len, 50 * d), to = (double)w.end_ns + fmax(fmax(3 * len, 150 * d), 1.5 * drain);
    if (to - from > 2500 * d) /* narrower, but never before the queue has drained */
        to = fmax(from + 2500 * d, stop + fmax(len, 50 * d));
    clip(end, from, to, tl_from, tl_to);
    return 0;
}
