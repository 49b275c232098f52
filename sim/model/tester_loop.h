/* tester_loop.h - the one event loop every tester kind runs on, and the
 * strategy a kind plugs into it (internal to the tester files; the public
 * API is tester.h).
 *
 * The loop takes the earliest due user (a min-heap on its next send time),
 * waits for a free connection if the tester has fewer than users, lets the
 * server answer, counts the request, records it (or keeps it aside when it
 * is dropped at the end of the run) and asks the kind when that user sends
 * next. What differs between kinds is a tester_strategy: a few hooks and
 * flags. Each kind's file defines its strategy as a static const object and
 * instantiates tester_loop_run with it; the loop is always inlined and the
 * strategy's members are compile-time constants there, so the compiler
 * calls the hooks directly (no indirect call per request) and drops every
 * branch the kind does not need (connections for open loops, the session
 * source for all but partly-open, the correction for all but corrected).
 *
 * To add a tester kind: docs/hacking.md, "To add a tester kind".
 */
#ifndef COSIM_TESTER_LOOP_H
#define COSIM_TESTER_LOOP_H

#include "tester.h"

#include <errno.h>
#include <gsl/gsl_rng.h>

/* The loop's rare calls (probes, a dropped arrival or reply, a stall's
 * span): out of line, so the kinds' flattened loops do not pay for their
 * registers on every request (bench/instructions.sh). */
#define TESTER_RARE __attribute__((noinline))

/* A paced user's catch-up limit (catch_up_factor; wrk2's
 * usec_to_next_send): the anchor, the instant of its last send made on
 * schedule, and the requests it sent since (the anchor's included). */
struct tester_catch_up {
    int64_t anchor_ns;
    uint64_t sent_since;
};

/* A connection of a pipelined quota tester (tester_quota.c): the last
 * interval its sends are booked in, how many it holds, and the last reply
 * it has taken in (replies are taken in send order, as on a TCP stream). */
struct tester_pipe {
    int64_t interval;
    uint64_t used;
    int64_t last_ready_ns;
};

/* One user's position in its schedule. A paced user's current slot is
 * anchor + floor(idx D), D the tester's interval; its next slots are
 * idx + U, idx + 2U, ... (U users). User u starts with anchor 0 and idx u,
 * so it owns exactly the tester's grid instants t_u, t_{u+U}, ...
 * (t_i = floor(i D), dealt round-robin); a from_now restart at r makes the
 * anchor r and idx 0 (r + floor(j U D)). */
typedef struct tester_user {
    int64_t next_ns;     /* when it sends next */
    int64_t intended_ns; /* when it meant to send that request */
    int64_t anchor_ns;
    uint64_t idx;        /* index of its current slot on the anchor's grid */
    uint64_t id;
} tester_user;

/* The state of one tester's run, shared by the loop and the kind's hooks. */
typedef struct tester_loop {
    const tester_spec *spec;
    const tester_run_config *cfg;
    tester_result *out;
    tester_observer observer;
    void *ctx;
    tester_truth *truth;       /* NULL: no probes */
    server *srv;
    gsl_rng *arrivals;         /* RNG_ARRIVALS: Poisson open, partly-open */
    gsl_rng *think;            /* RNG_THINK, when the spec has a think time */
    gsl_rng *sessions;         /* RNG_SESSIONS: partly-open */
    gsl_rng *probe_rng;        /* RNG_TRUTH */
    tester_user *users;        /* min-heap on (next_ns, id) */
    size_t n_users, cap_users;
    int64_t *conns;            /* min-heap of connection free times */
    size_t n_conns;            /* 0: one connection per user */
    hist *dropped;             /* latencies of the replies dropped at the end */
    int64_t end_ns;            /* the duration */
    int64_t send_end_ns;       /* sends only before it: end_ns, or with
                                  first_send = interval the slot after the
                                  last one before end_ns (tester_loop_first_send) */
    int64_t mid_ns;            /* half the duration */
    int64_t expected_ns;       /* corrected: the correction's interval D */
    double mean_gap_ns;        /* timed kinds: D as a real number */
    uint64_t max_requests;     /* UINT64_MAX: no limit */
    uint64_t open_i;           /* open on a fractional grid: the last index */
    int64_t open_step_ns;      /* open on a whole-ns grid: D (else 0) */
    uint64_t next_id;          /* partly-open: the next session's id */
    int plans;                 /* 1: out->planned is the grid's count */
    int ext;                   /* 1: the spec uses a primitive (requests,
                                  warmup, timeout, a paced think time, the
                                  ticker, a catch-up limit, a VU pool, a
                                  batch) or the run takes probes or records
                                  queue waits: the kind runs its ext
                                  strategy */
    struct tester_catch_up *catch_up; /* catch_up_factor: per user id */
    units_interval catch_up_gap; /* catch_up_factor: U D / factor */
    struct tester_pipe *pipe;  /* quota with pipeline > 1: per connection
                                  (user id / pipeline) */
    size_t cap_conns;          /* VU pool: max_vus */
    int64_t vu_ready_ns;       /* VU pool: a VU starting until then */
    int idle;                  /* the truth's run with no load: no users */
    int64_t shared_anchor_ns;  /* schedule = shared: the schedule's last slot */
    uint64_t shared_j;         /* is shared_anchor_ns + floor(shared_j D) */
    struct tester_ramp *ramp;  /* open with stages: the arrival schedule
                                  (tester_ramp.c; freed by the run) */
    tester_gate gate;          /* corrected: the observer's gate a loop starts
                                  with ({0, 0, 0, 0} at first), kept by a
                                  within_max loop that stops for the loop
                                  that counts against max_requests */
} tester_loop;

/* Corrected's bounds, locals of the loop (tester_loop_run_counted), changed
 * only where the added values grow (tester_loop_record_corrected). */
typedef struct tester_correct_bounds {
    uint64_t max_sent;      /* max_requests less the added values (sent +
                               added <= max_requests) */
    int64_t as_measured_ns; /* a latency up to this is recorded as measured
                               (expected_ns; -1 once the added values reach
                               2^63) */
    int64_t quiet_ns;       /* the least of as_measured_ns and the run's
                               threshold: a latency up to this is recorded
                               as measured and is not over the threshold
                               (one test per request) */
    int64_t stop_ns;        /* a within_max loop sends while the earliest
                               user is due before this: send_end_ns, or INT64_MIN
                               (stop) once out->planned + added may pass
                               max_requests */
} tester_correct_bounds;

typedef struct tester_hot tester_hot;

/* A tester kind: how it starts, when its users send, what it records.
 * Hooks marked "may be NULL" are left out by kinds that do not need them;
 * the flags are read at compile time inside tester_loop_run. */
typedef struct tester_strategy {
    tester_kind kind;
    /* Set up the users and the kind's own streams: L->n_users, L->users
     * (allocated with tester_loop_alloc_users), L->plans and out->planned,
     * L->expected_ns. 0 or a negative errno. */
    int (*prepare)(tester_loop *L);
    /* The run itself: tester_loop_run(L, &this strategy). */
    int (*run)(tester_loop *L);
    /* May be NULL. An event of users[0] that is not a request (partly-open's
     * session source): 1 handled, 0 a request, or a negative errno. */
    int (*source)(tester_loop *L);
    /* 1: the users may share fewer connections (L->n_conns). */
    int connections;
    /* 1: latency from the intended time; 0: from the actual send. */
    int from_intended;
    /* 1: record with the correction (corrected); 0: as measured. */
    int corrects;
    /* 1: the primitives of tester_spec (requests, warmup, timeout), the
     * probes and the queue-wait record are tested per request; 0 for the
     * plain rows, which test none (a run with probes or queue_wait =
     * record takes its kind's ext row: L->ext). */
    int extras;
    /* 1: the arrivals are served by a pool of VUs (open with vus); an
     * arrival that finds none free is dropped. */
    int pool;
    /* 1: exactly one user, always (open's one schedule): no heap to keep. */
    int one_user;
    /* 1: every request is sent at its intended time (no connection is
     * waited for, and the intended time is next_ns: the loop reads no
     * user's intended_ns, which next_send may leave as it is): open, and
     * closed with a connection per user. */
    int on_time;
    /* 1: the kind sends at most max_requests (the run checked it before:
     * open's whole grid of out->planned sends), so the loop does not
     * count against it per request. */
    int within_max;
    /* When user u, whose request rq just got its reply, sends next (sets
     * u->next_ns and u->intended_ns); h holds the run's constants. 1 if
     * the user left the heap (a session that ends), else 0. Kinds with a
     * source may change L->users and L->n_users (the others' are fixed). */
    int (*next_send)(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq);
} tester_strategy;

/* Each kind's strategy, tester_NAME_strategy for each row of
 * tester_kinds.def (defined in its file, tester_NAME.c); tester_loop.c
 * looks them up by kind. */
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) extern const tester_strategy tester_##NAME##_strategy;
#include "tester_kinds.def"
#undef TESTER_KIND

/* Allocate L->users for n users (calloc'd, capacity at least 1) and set
 * L->n_users = n. 0, -EINVAL (no user, unless L->idle) or -ENOMEM. */
int tester_loop_alloc_users(tester_loop *L, size_t n);

/* Users 0..n-1 with id and idx i, each due at its grid slot floor(i D)
 * when grid is set (paced), else at 0. */
void tester_loop_init_users(tester_loop *L, int grid);

/* The spec's interval D checked (-EINVAL when zero) and kept as a real
 * mean gap in L->mean_gap_ns. */
int tester_loop_need_interval(tester_loop *L);

/* first_send = interval (vegeta, tester.h): each user's first slot moves
 * one index on (user u from t_u to t_{u+1}, its later slots t_{u+1+kU})
 * and send_end_ns becomes t_{m+1}, m the grid's count before end_ns, so
 * t_1 ... t_m are sent: out->planned, the count, is unchanged. Call after
 * the users are on the grid (anchor 0, idx u). 0, or -ERANGE when t_{m+1}
 * would pass the clock's range. */
int tester_loop_first_send(tester_loop *L);

/* Ground-truth probes due before until (and before the end); see
 * tester_loop.c. */
TESTER_RARE void tester_loop_probes(tester_loop *L, int64_t until);

/* An arrival at t_ns that found every VU of the pool busy: counted (and
 * in its second), and, if the pool may grow and no VU is starting, one
 * more VU starts, free from t_ns + vu_init (k6: an unplanned VU started in
 * the background for later arrivals). Returns 2 (tester_loop_send's
 * "dropped"). */
TESTER_RARE int tester_loop_drop_arrival(tester_loop *L, int64_t t_ns);

/* The open tester's VU pool (vus, max_vus): vus VUs free at 0, room for
 * max_vus, the drops' seconds. 0 or -ENOMEM. */
int tester_open_make_pool(tester_loop *L);

/* An open tester with stages (a rate ramp, tester_ramp.c): its prepare
 * and run, called by the open kind's. 0 or a negative errno. */
int tester_ramp_prepare(tester_loop *L);
int tester_ramp_run(tester_loop *L);
void tester_ramp_free(struct tester_ramp *r);

/* A closed tester with a quota (tester_quota.c: memtier's rate limiter):
 * its prepare and run, called by the closed kind's. */
int tester_quota_prepare(tester_loop *L);
int tester_quota_run(tester_loop *L);

/* A paced tester with schedule = shared (tester_shared.c): its prepare and
 * run, called by the paced kind's. 0 or a negative errno. */
int tester_shared_prepare(tester_loop *L);
int tester_shared_run(tester_loop *L);

/* A dropped reply's latency, kept aside (the measured value, no
 * backfill). 0 or -ENOMEM. */
TESTER_RARE int tester_loop_keep_dropped(tester_loop *L, int64_t latency_ns);


/* hist_record and hist_record_corrected out of line, for the rare
 * records (the queue wait, the correction's series): inlined into the
 * kinds' flattened loops they would cost registers on every request. The
 * latency's own record is hist_record inlined (since the loops keep no
 * connection test and no request in memory it costs fewer instructions
 * than the call: bench/instructions.sh). */
__attribute__((noinline)) void tester_loop_hist_record(hist *h, int64_t value_ns);
__attribute__((noinline)) uint64_t tester_loop_hist_corrected(hist *h, int64_t value_ns, int64_t interval_ns,
                                                              hist_correction rule, int64_t over_ns, uint64_t *over);

/* Min-heap on (next_ns, id): ties go to the lower user id, so a run is the
 * same on every machine. */
static inline int tester_user_before(const tester_user *a, const tester_user *b)
{
    return a->next_ns < b->next_ns || (a->next_ns == b->next_ns && a->id < b->id);
}

static inline void tester_heap_sift_down(tester_user *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && tester_user_before(&h[l], &h[m]))
            m = l;
        if (r < n && tester_user_before(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        tester_user t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static inline void tester_heap_sift_up(tester_user *h, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!tester_user_before(&h[i], &h[parent]))
            return;
        tester_user t = h[i];
        h[i] = h[parent];
        h[parent] = t;
        i = parent;
    }
}

/* Remove the root of a heap of *n users. */
static inline void tester_heap_pop(tester_user *h, size_t *n)
{
    h[0] = h[--*n];
    tester_heap_sift_down(h, *n, 0);
}

/* A min-heap of instants (connection free times). */
static inline void tester_times_sift_down(int64_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l] < h[m])
            m = l;
        if (r < n && h[r] < h[m])
            m = r;
        if (m == i)
            return;
        int64_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* Keep the request stall rq met (its service span, rq->start_ns to
 * rq->reply_ns) in out->stall_spans, the first TESTER_MAX_STALL_SPANS of
 * them; count every one. 0 or -ENOMEM. */
TESTER_RARE int tester_loop_stall_span(tester_result *out, const tester_request *rq);

#define TESTER_INLINE static inline __attribute__((always_inline))

/* A kind's run function (the loop instantiated for its strategy): the
 * server's and the histogram's per-request calls are inlined into it too,
 * as they were into the single loop before the kinds got files of their
 * own (link-time inlining otherwise declines a function called from
 * several files). */
#define TESTER_LOOP_FN static __attribute__((flatten))

/* What the loop reads on every request, copied out of the tester_loop into
 * a local of tester_loop_run: the copy never escapes (only always-inlined
 * code sees it), so these stay in registers across the calls into the
 * server and the histogram instead of being reloaded after each. */
typedef struct tester_hot {
    const tester_spec *spec;
    tester_result *out;
    server *srv;
    hist *hist;
    int64_t end_ns, mid_ns, threshold_ns;
    int64_t send_end_ns;  /* sends only before it (tester_loop's) */
    int64_t expected_ns;  /* corrected */
    int64_t warmup_ns;    /* extras: not recorded when intended before */
    int64_t timeout_ns;   /* extras: not recorded when above (INT64_MAX: none) */
    int64_t client_ns;    /* extras: a request reaches the server this long
                             after its send (client_time; 0: none) */
    uint64_t requests;    /* extras: sends at most this many (UINT64_MAX) */
    hist_correction correction;
    uint64_t max_requests;
    int64_t *conns;
    size_t n_conns;
    tester_user *users;   /* kinds with fixed users only */
    size_t n_users;       /* kinds with fixed users only */
    int truth;            /* 1: probes to take */
    int drop_in_flight;
    gsl_rng *think;       /* NULL: no think time */
    tester_observer observer;
    void *ctx;
    /* paced and corrected: a user whose idx is below slot_lim has its
     * next slot at anchor + (idx + U) slot_step_ns, exactly (a whole-ns D,
     * no overflow: (idx + U) D <= INT64_MAX - send_end_ns, and a sending
     * user's anchor lies in [0, send_end_ns)); 0 for any other D
     * (tester_paced.c) */
    uint64_t slot_lim;
    uint64_t slot_step_ns;
    /* paced and corrected on time (tester_paced.c, paced_next_on_time): a
     * user's next slot is its current one plus slot_gap_ns (U D; those rows
     * run only for a whole-ns D with U D + send_end_ns <= INT64_MAX, so the
     * sum cannot overflow: a sending user's slot lies before send_end_ns) */
    int64_t slot_gap_ns;
} tester_hot;

/* tester_hot's slot_lim for interval d, n_users users and the duration
 * end_ns (>= 0): the first idx whose next slot idx + U might pass
 * (INT64_MAX - end_ns) / D, or 0 (never fast) for a fractional D. */
TESTER_INLINE uint64_t tester_loop_slot_lim(units_interval d, uint64_t n_users, int64_t end_ns)
{
    if (d.den != 1 || d.num_ns == 0 || end_ns < 0)
        return 0;
    uint64_t m = (uint64_t)(INT64_MAX - end_ns) / d.num_ns; /* the largest safe index */
    return m >= n_users ? m - n_users + 1 : 0;
}

TESTER_INLINE tester_hot tester_loop_hot(const tester_loop *L, const tester_strategy *k)
{
    uint64_t gap_ns; /* U D, for a whole-ns D */
    int whole = L->spec->interval.den == 1 && !__builtin_mul_overflow(L->spec->interval.num_ns, L->n_users, &gap_ns) &&
                gap_ns <= (uint64_t)INT64_MAX;
    tester_hot h = {
        .spec = L->spec, .out = L->out, .srv = L->srv, .hist = L->out->hist,
        .end_ns = L->end_ns, .send_end_ns = L->send_end_ns, .mid_ns = L->mid_ns, .threshold_ns = L->cfg->threshold_ns,
        .expected_ns = L->expected_ns, .correction = L->spec->correction,
        .max_requests = L->max_requests, .conns = k->connections || k->pool ? L->conns : NULL,
        .n_conns = k->connections ? L->n_conns : 0, .users = L->users, .n_users = L->n_users,
        .truth = L->truth != NULL, .drop_in_flight = L->cfg->drop_in_flight,
        .think = L->think, .observer = L->observer, .ctx = L->ctx,
        .warmup_ns = L->spec->warmup_ns,
        .timeout_ns = L->spec->timeout_ns > 0 ? L->spec->timeout_ns : INT64_MAX,
        .client_ns = L->spec->client_ns,
        .requests = L->spec->requests ? L->spec->requests : UINT64_MAX,
        .slot_lim = tester_loop_slot_lim(L->spec->interval, L->n_users, L->send_end_ns),
        .slot_step_ns = L->spec->interval.num_ns,
        .slot_gap_ns = whole ? (int64_t)gap_ns : 0,
    };
    return h;
}

/* Record a request's latency_ns in to. plain (a constant): the kind's plain row,
 * whose latency is never negative (its reply comes no earlier than its
 * send, which comes no earlier than its intended time: a plain row sends
 * on schedule or later), so no clamp to 0 is needed. */
TESTER_INLINE void tester_loop_hist_latency(hist *to, int64_t latency_ns, int plain)
{
    if (plain)
        hist_record_nonneg(to, latency_ns);
    else
        hist_record(to, latency_ns);
}

/* A corrected record of latency_ns (hist_record_corrected): the added
 * values count against max_requests with the requests sent (sent, the
 * run's count so far; b, the loop's bounds, lowered as they grow).
 * plain: as for tester_loop_hist_latency. 0, or -EOVERFLOW (with
 * out->refused_*) when they would pass it. */
TESTER_INLINE int tester_loop_record_corrected(const tester_hot *h, int64_t latency_ns, int plain, int within_max,
                                               uint64_t sent, tester_correct_bounds *b)
{
    tester_result *out = h->out;
    /* A reply within the expected interval adds no value (both rules add
     * only for latency > D): recorded as measured, as by the uncorrected
     * kinds, with no call into the correction (hist_record_corrected
     * would record just the same). Its check that the histogram's count
     * stays below 2^64 holds here: the count is at most sent + added,
     * and sent is far below 2^63 (whole requests simulated one by one).
     * b->as_measured_ns holds both tests: expected_ns while added < 2^63,
     * then -1 (set below, where added grows). */
    if (latency_ns <= b->quiet_ns) { /* the common case: one test */
        tester_loop_hist_latency(h->hist, latency_ns, plain);
        return 0;
    }
    if (latency_ns <= b->as_measured_ns) { /* over the threshold, not over D */
        tester_loop_hist_record(h->hist, latency_ns);
        out->over_threshold++;
        return 0;
    }
    /* the added values count against max_requests with the requests sent
     * (sent + added <= max_requests holds here) */
    uint64_t added = hist_correction_count(latency_ns, h->expected_ns, h->correction);
    if (added > h->max_requests - sent - out->added ||
        !tester_loop_hist_corrected(h->hist, latency_ns, h->expected_ns, h->correction, h->threshold_ns,
                                    &out->over_threshold)) {
        out->refused_latency_ns = latency_ns;
        out->refused_added = added;
        return -EOVERFLOW;
    }
    out->added += added;
    b->max_sent = h->max_requests - out->added;
    /* a within_max loop stops when its sends might now reach max_sent
     * (they are at most out->planned); corrected_run goes on counting */
    if (within_max && out->planned > b->max_sent)
        b->stop_ns = INT64_MIN;
    if (out->added >= (UINT64_C(1) << 63))
        b->as_measured_ns = b->quiet_ns = -1;
    return 0;
}

/* Record what request rq measured: with the kind's correction or as is, or
 * aside when it is dropped at the end of the run. 0 or a negative errno. */
TESTER_INLINE int tester_loop_record(tester_loop *L, const tester_strategy *k, const tester_hot *h,
                                     tester_request *rq, uint64_t sent, tester_correct_bounds *b)
{
    if (k->extras) /* the plain rows' is set where it is read (the observer's copy) */
        rq->recorded = 1;
    if (rq->reply_ns > h->end_ns) { /* late: in flight at the end (rare) */
        h->out->in_flight_at_end++;
        /* a warm-up request is never measured, so its drop hides nothing:
         * it counts as warm-up (below), not among the dropped latencies */
        if (h->drop_in_flight && !(k->extras && rq->intended_ns < h->warmup_ns)) {
            rq->recorded = 0;
            return tester_loop_keep_dropped(L, rq->latency_ns);
        }
    }
    if (k->extras && (rq->intended_ns < h->warmup_ns || rq->latency_ns > h->timeout_ns)) {
        /* warm-up first: a sample of the warm-up is not a timeout either */
        if (rq->intended_ns < h->warmup_ns)
            h->out->warmup_skipped++;
        else
            h->out->timeouts++;
        rq->recorded = 0;
        return 0;
    }
    if (k->extras && h->out->wait) /* queue_wait = record (the plain rows have none: L->ext) */
        tester_loop_hist_record(h->out->wait, rq->start_ns - rq->sent_ns - h->client_ns);
    if (k->corrects)
        return tester_loop_record_corrected(h, rq->latency_ns, !k->extras, k->within_max, sent, b);
    tester_loop_hist_latency(h->hist, rq->latency_ns, !k->extras);
    if (__builtin_expect(rq->latency_ns > h->threshold_ns, 0)) /* a branch: rarely taken */
        h->out->over_threshold++;
    return 0;
}

/* Send user u's request (*sent: the run's count, out->sent kept in a local
 * by tester_loop_run): wait for a connection if the kind shares them,
 * take the probes due by then, submit it and measure it. 1 when no
 * connection frees before the end (nobody sends again), 2 when a VU pool
 * had no VU free (the arrival dropped), 0 sent, or a negative errno (the
 * server's failure). */
TESTER_INLINE int tester_loop_send(tester_loop *L, const tester_strategy *k, const tester_hot *h,
                                   const tester_user *u, tester_request *rq, uint64_t *sent)
{
    tester_result *out = h->out;
    /* rq->index and rq->user: set where they are read (a stall span, the
     * observer), not on every request */
    rq->intended_ns = k->on_time ? u->next_ns : u->intended_ns; /* the same when on time */
    rq->sent_ns = u->next_ns;
    if (k->connections && h->n_conns && h->conns[0] > rq->sent_ns) { /* every connection is busy: wait */
        if (h->conns[0] >= h->send_end_ns)
            return 1; /* none frees before the end: nobody sends again */
        out->blocked++;
        out->blocked_ns += h->conns[0] - rq->sent_ns;
        rq->sent_ns = h->conns[0];
    }
    if (k->pool && h->conns[0] > rq->sent_ns) /* no VU free: the arrival is dropped */
        return tester_loop_drop_arrival(L, rq->sent_ns);
    if (k->extras && h->truth) /* the plain rows have no probes (L->ext) */
        tester_loop_probes(L, rq->sent_ns);
    /* the request reaches the server client_time after its send (the
     * tool's own time, in its latency: tester.h client_ns); the plain rows
     * have none (L->ext). A constant, so the arrivals keep the sends'
     * order; sent_ns < send_end_ns <= 10^15 + one interval and client_ns
     * <= 1 h: no overflow. */
    int64_t arrival_ns = k->extras ? rq->sent_ns + h->client_ns : rq->sent_ns;
    /* no backlog: sent on schedule to an idle server (or one in a window
     * with nothing queued) */
    if ((k->on_time || rq->sent_ns == rq->intended_ns) && server_free_at(h->srv) <= arrival_ns)
        out->last_clear_ns = k->on_time ? rq->sent_ns : rq->intended_ns; /* the same here */
    rq->reply_ns = server_submit_spans(h->srv, arrival_ns, &rq->start_ns, &rq->stall_extra_ns);
    int rc;
    if (rq->stall_extra_ns > 0) {
        tester_request copy = *rq; /* rq itself never escapes: its fields may stay in registers */
        copy.index = *sent;
        if ((rc = tester_loop_stall_span(out, &copy)) != 0)
            return rc;
    }
    if (rq->reply_ns > h->end_ns && (rc = server_failed(h->srv))) /* e.g. a backlog past the clock's limit */
        return rc;
    if ((k->connections && h->n_conns) || k->pool) {
        h->conns[0] = rq->reply_ns;
        tester_times_sift_down(h->conns, k->pool ? L->n_conns : h->n_conns, 0);
    }
    ++*sent;
    out->last_reply_ns = rq->reply_ns;
    rq->latency_ns = rq->reply_ns - (k->from_intended ? rq->intended_ns : rq->sent_ns);
    out->latency_last_ns = rq->latency_ns;
    return 0;
}

/* The event loop, specialised for strategy k (a constant at every call):
 * until no user is due before the end, the earliest due user sends, its
 * request is recorded and observed, and the kind schedules its next send.
 * Kinds whose users come and go (k->source) keep the heap in L; the others
 * in locals. 0, or a negative errno (-E2BIG past max_requests, the hooks'
 * errors). */
TESTER_INLINE int tester_loop_run_counted(tester_loop *L, const tester_strategy *k, uint64_t *sent,
                                          tester_user *one)
{
    const tester_hot h = tester_loop_hot(L, k);
    tester_result *out = h.out;
    /* empty: the observer sees every request until it widens it (corrected:
     * as a within_max loop that stopped left it) */
    tester_gate gate = k->corrects ? L->gate : (tester_gate){0, 0, 0, 0};
    if (!h.observer) /* no observer: a gate that shows nothing (intended < end <= INT64_MAX), so no test of h.observer */
        tester_gate_skip_all(&gate);
    /* out->latency_mid_ns is taken from the first request intended at or
     * after mid_ns while it is unset (< 0): mid_from holds both tests
     * (mid_ns, then INT64_MAX, which no intended time reaches) in one
     * comparison with a local */
    int64_t mid_from = out->latency_mid_ns < 0 ? h.mid_ns : INT64_MAX;
    int rc;
    tester_correct_bounds bounds = {h.max_requests - out->added,
                                    out->added < (UINT64_C(1) << 63) ? h.expected_ns : -1, 0, h.send_end_ns};
    bounds.quiet_ns = bounds.as_measured_ns < h.threshold_ns ? bounds.as_measured_ns : h.threshold_ns;
    for (;;) {
        tester_user *users = k->one_user ? one : k->source ? L->users : h.users;
        size_t n_users = k->one_user ? 1 : k->source ? L->n_users : h.n_users;
        if (n_users == 0 || users[0].next_ns >= (k->corrects && k->within_max ? bounds.stop_ns : h.send_end_ns)) {
            if (k->corrects && k->within_max)
                L->gate = gate; /* for the loop that goes on, if it stopped */
            return 0;
        }
        if (k->source && (rc = k->source(L)) != 0) {
            if (rc < 0)
                return rc;
            continue;
        }
        tester_user *u = &users[0];
        /* the correction's values count too */
        if (!k->within_max && *sent >= (k->corrects ? bounds.max_sent : h.max_requests))
            return -E2BIG;
        if (k->extras && *sent >= h.requests)
            return 0; /* requests = N: the run's count is reached */
        tester_request rq;
        if ((rc = tester_loop_send(L, k, &h, u, &rq, sent)) == 2) {
            rq.sent_ns = rq.reply_ns = rq.intended_ns; /* the next arrival is drawn from it */
            if (k->next_send(L, &h, u, &rq))
                continue;
            if (n_users > 1)
                tester_heap_sift_down(users, n_users, 0);
            continue;
        }
        if (rc != 0)
            return rc > 0 ? 0 : rc;
        if (__builtin_expect(rq.intended_ns >= mid_from, 0)) {
            out->latency_mid_ns = rq.latency_ns;
            if (rq.latency_ns >= 0) /* set: later requests leave it */
                mid_from = INT64_MAX;
        }
        if ((rc = tester_loop_record(L, k, &h, &rq, *sent, &bounds)) != 0)
            return rc;
        if (tester_gate_shows(&gate, rq.intended_ns, rq.latency_ns)) {
            tester_request shown = rq; /* a copy: rq never escapes */
            shown.index = *sent - 1; /* counted by tester_loop_send */
            if (!k->extras) /* a plain row records every request but a late one dropped */
                shown.recorded = !(rq.reply_ns > h.end_ns && h.drop_in_flight);
            shown.user = u->id;
            h.observer(h.ctx, &shown, &gate);
        }
        if (k->next_send(L, &h, u, &rq))
            continue; /* the user left the heap */
        if (n_users > 1)
            tester_heap_sift_down(users, n_users, 0);
    }
}

/* The event loop for strategy k (tester_loop_run_counted). A kind with one
 * user (open; paced and corrected on time with one user) keeps out->sent
 * and the user in locals for the run, written back at its end: no load and
 * store of them per request (neither the hooks nor the rare calls read
 * them; a rare call that changes the user takes it and returns it by
 * value, so the local's address never escapes). The others count in
 * out->sent itself: with their heap of users they have no register to
 * spare for it (the local cost them 2 to 4 instructions a request,
 * bench/instructions.sh). */
TESTER_INLINE int tester_loop_run(tester_loop *L, const tester_strategy *k)
{
    if (!k->one_user)
        return tester_loop_run_counted(L, k, &L->out->sent, NULL);
    uint64_t sent = L->out->sent;
    tester_user one = L->users[0];
    int rc = tester_loop_run_counted(L, k, &sent, &one);
    L->users[0] = one;
    L->out->sent = sent;
    return rc;
}

#endif
