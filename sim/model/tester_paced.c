/* tester_paced.c - the paced loop and the corrected tester (MODEL.md,
 * "paced", "corrected"): one request every interval D intended, each user
 * waiting for its reply; U users are dealt the grid t_i = floor(i D)
 * round-robin (user u owns t_u, t_{u+U}, ...), a late reply handled by the
 * tester's policy. The corrected tester is the same schedule recorded with
 * the expected interval (HdrHistogram's recordValueWithExpectedInterval,
 * the book's Listing 5.2). */
#include "tester_loop.h"

#include <stdlib.h>

/* i + U, saturated (a saturated index lies past any end). */
static inline uint64_t next_index(uint64_t i, uint64_t n_users)
{
    return i > UINT64_MAX - n_users ? UINT64_MAX : i + n_users;
}

/* Go's time.Ticker sends its first tick one period after the start: user
 * u's first slot is t_{u+U}, one of its own intervals after t_u, and the
 * grid's first U instants are never planned. */
static void ticker_start(tester_loop *L)
{
    uint64_t n = L->n_users;
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        u->idx = next_index(u->idx, n);
        u->next_ns = u->intended_ns = units_interval_at(L->spec->interval, u->anchor_ns, u->idx);
    }
    L->out->planned = L->out->planned > n ? L->out->planned - n : 0;
}

/* stagger: user u's own schedule from u x stagger, every U D (wrk2's
 * connections connect 5 ms apart, each on its own clock; hey's workers
 * all start their tickers at 0). With threads T, the users are T runs of
 * U / T, each staggered from 0 again (wrk2's thread_main staggers its own
 * connections): user u from (u mod (U / T)) x stagger. Anchors only;
 * stagger_planned counts. */
static int stagger_start(tester_loop *L)
{
    const uint64_t threads = L->spec->threads > 1 ? L->spec->threads : 1;
    if (L->n_users % threads)
        return -EINVAL; /* the reader refuses it: wrk2 would drop the rest */
    const uint64_t per_thread = L->n_users / threads;
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        int64_t a;
        if (__builtin_mul_overflow((int64_t)(i % per_thread), L->spec->stagger_ns, &a))
            return -ERANGE;
        u->anchor_ns = u->next_ns = u->intended_ns = a;
        u->idx = 0;
    }
    return 0;
}

/* The slots of staggered users before the end, from each one's first.
 * A staggered user's slots are anchor + floor(m U D), m = idx / U, idx / U
 * + 1, ... (idx 0, or U once the ticker's first tick moved it): counted
 * on that grid from the anchor, less the m below its first, never from
 * its first slot on (floor(U D) + floor(k U D) can fall 1 ns before
 * floor((k + 1) U D): at 3/s a tick at exactly the end was planned,
 * issue 30). */
static int stagger_planned(tester_loop *L)
{
    units_interval du;
    if (units_interval_mul(L->spec->interval, L->n_users, &du))
        return -ERANGE;
    uint64_t n = 0;
    for (size_t i = 0; i < L->n_users; i++) {
        const tester_user *u = &L->users[i];
        uint64_t on_grid = units_interval_count_before(du, u->anchor_ns, L->end_ns), before = u->idx / L->n_users;
        n += on_grid > before ? on_grid - before : 0;
    }
    L->out->planned = n;
    return 0;
}

/* The catch-up limit: each user's gap U D / factor, and its anchor at its
 * first send (wrk2 starts a connection "caught up", so its first check
 * anchors there). */
static int catch_up_start(tester_loop *L)
{
    units_interval du;
    if (L->spec->late != TESTER_LATE_CATCH_UP ||
        units_interval_mul(L->spec->interval, L->n_users, &du) ||
        __builtin_mul_overflow(du.den, L->spec->catch_up_factor, &du.den))
        return -EINVAL;
    L->catch_up_gap = du;
    L->catch_up = calloc(L->n_users, sizeof *L->catch_up);
    if (!L->catch_up)
        return -ENOMEM;
    for (size_t i = 0; i < L->n_users; i++)
        L->catch_up[i] = (struct tester_catch_up){.anchor_ns = L->users[i].next_ns, .sent_since = 1};
    return 0;
}

/* Users on the grid, the planned count, and the correction's D: each
 * user's own interval floor(U D) unless the spec gives one. */
static int paced_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    if (spec->schedule == TESTER_SCHEDULE_SHARED) /* JMeter's shared modes: tester_shared.c */
        return tester_shared_prepare(L);
    int rc = tester_loop_alloc_users(L, (size_t)spec->users);
    if (!rc && tester_kind_has(spec->kind, TESTER_KIND_CORRECTS) && spec->late == TESTER_LATE_CATCH_UP)
        rc = -EINVAL; /* it would count each gap twice (MODEL.md) */
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    L->expected_ns = tester_expected_interval_ns(spec);
    tester_loop_init_users(L, 1);
    L->plans = 1;
    L->out->planned = units_interval_count_before(spec->interval, 0, L->end_ns);
    if (spec->has_stagger && (rc = stagger_start(L)) != 0)
        return rc;
    if (spec->late == TESTER_LATE_TICKER)
        ticker_start(L);
    if (spec->has_stagger && (rc = stagger_planned(L)) != 0)
        return rc;
    return spec->catch_up_factor ? catch_up_start(L) : 0;
}

/* The first of the user's own slots idx + k U at or after the reply. */
static uint64_t next_slot_index(const tester_user *u, units_interval d, uint64_t n_users, uint64_t i1,
                                int64_t reply_ns)
{
    uint64_t i = units_interval_count_before(d, u->anchor_ns, reply_ns);
    if (i <= i1)
        return i1;
    uint64_t k = (i - u->idx - 1) / n_users + 1; /* ceil((i - idx) / U) */
    return k > (UINT64_MAX - u->idx) / n_users ? UINT64_MAX : u->idx + k * n_users;
}

/* The next send of a paced user whose last request got its reply at
 * reply_ns (MODEL.md, "paced"; each policy applies to the user's own
 * slots, docs/model.md):
 *  - on time (reply at or before the user's next slot): that slot;
 *  - from_now: at once; the user's schedule restarts at the reply, and the
 *    request's intended time is the slot it was due at;
 *  - next_slot: the user's first slot at or after the reply;
 *  - catch_up: at once, for the next slot it missed (intended = that slot);
 *    the schedule is kept. */
TESTER_INLINE int paced_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)L;
    const uint64_t n_users = h->n_users;
    const int64_t reply_ns = rq->reply_ns;
    uint64_t i1;
    int64_t t1;
    if (u->idx < h->slot_lim) { /* a whole-ns D far from overflow: units_interval_at's value, in two steps */
        i1 = u->idx + n_users;
        t1 = u->anchor_ns + (int64_t)(i1 * h->slot_step_ns);
    } else {
        i1 = next_index(u->idx, n_users);
        t1 = units_interval_at(h->spec->interval, u->anchor_ns, i1);
    }
    if (reply_ns <= t1) { /* on time: the next slot */
        u->idx = i1;
        u->next_ns = u->intended_ns = t1;
        return 0;
    }
    switch (h->spec->late) {
    case TESTER_LATE_FROM_NOW: /* send now, for the slot it was due at; the schedule restarts here */
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        u->anchor_ns = reply_ns;
        u->idx = 0;
        break;
    case TESTER_LATE_NEXT_SLOT:
        u->idx = next_slot_index(u, h->spec->interval, n_users, i1, reply_ns);
        u->next_ns = u->intended_ns = units_interval_at(h->spec->interval, u->anchor_ns, u->idx);
        break;
    case TESTER_LATE_CATCH_UP: /* send now for the slot missed; the grid is kept */
    case TESTER_LATE_TICKER:   /* (ticker_next handles it; never here) */
        u->idx = i1;
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        break;
    }
    return 0;
}

/* paced_next_on_time's other case, a late reply: late = next_slot's rule
 * of paced_next. The on-time path leaves anchor and idx behind; with a
 * whole-ns D (the on-time rows' condition) the user's slot anchor + idx D
 * is its next_ns (sent_ns here), so the grid is taken up again from there
 * (anchor sent_ns, idx 0: the same instants, a saturated slot lying past
 * the end and never sent). */
TESTER_RARE static tester_user paced_next_slot_slow(const tester_loop *L, tester_user user, int64_t sent_ns,
                                                    int64_t reply_ns)
{
    tester_user *u = &user; /* by value: the loop's copy of a one-user run never escapes */
    const units_interval d = L->spec->interval;
    const uint64_t n_users = L->n_users;
    if (d.den == 1) {
        u->anchor_ns = sent_ns;
        u->idx = 0;
    }
    uint64_t i1 = next_index(u->idx, n_users);
    int64_t t1 = units_interval_at(d, u->anchor_ns, i1);
    u->idx = reply_ns <= t1 ? i1 : next_slot_index(u, d, n_users, i1, reply_ns);
    u->next_ns = u->intended_ns = reply_ns <= t1 ? t1 : units_interval_at(d, u->anchor_ns, u->idx);
    return user;
}

/* paced_next for a user sent at its intended slot every time (late =
 * next_slot with a connection per user, a whole-ns D and U D + the end
 * within INT64_MAX: the on_time rows, paced_on_time_ok): its next_ns is its
 * current slot, so its next is next_ns + U D, one addition that cannot
 * overflow, when the reply comes by then (the loop reads no intended_ns,
 * anchor or idx, which only paced_next_slot_slow needs). */
TESTER_INLINE int paced_next_on_time(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    int64_t t1 = rq->sent_ns + h->slot_gap_ns;
    if (rq->reply_ns <= t1) {
        u->next_ns = t1;
        return 0;
    }
    *u = paced_next_slot_slow(L, *u, rq->sent_ns, rq->reply_ns);
    return 0;
}

/* Go's time.Ticker (runtime/time.go: a ticker that fires at `when` moves to
 * when + period (1 + (now - when) / period), the first instant of its grid
 * after now; time/sleep.go sendTime: a non-blocking send into a channel of
 * capacity 1). A user that is ready at or before its next slot sends then;
 * one that is late finds the one tick its channel kept (the first slot it
 * missed: its intended time) and sends at once; the ticks after it were
 * dropped, and the next comes at its first slot strictly after that send. */
TESTER_INLINE int ticker_next(const tester_hot *h, tester_user *u, int64_t ready_ns)
{
    const units_interval d = h->spec->interval;
    const uint64_t n_users = h->n_users;
    uint64_t i1 = next_index(u->idx, n_users);
    int64_t t1 = units_interval_at(d, u->anchor_ns, i1);
    if (ready_ns <= t1) {
        u->idx = i1;
        u->next_ns = u->intended_ns = t1;
        return 0;
    }
    u->intended_ns = t1;
    u->next_ns = ready_ns;
    /* the slot after the late send becomes the user's next: idx + U */
    uint64_t after = next_slot_index(u, d, n_users, i1, ready_ns + 1);
    u->idx = after >= n_users ? after - n_users : 0;
    return 0;
}

/* When a user that must wait from now_ns until due_ns wakes, sleeping as
 * wrk2 sleeps (src/wrk.c socket_writeable and delay_request: an ae timer
 * of round(w / 1000.0 + 0.5) = floor(w) + 1 whole ms; src/ae.c
 * aeAddMillisecondsToNow and processTimeEvents: the timer is set on the
 * clock truncated to whole ms and fires when that clock reaches it, and
 * delay_request sets it again while the send is not yet due): at
 * floor(now / g) g + (floor(w / g) + 1) g, repeated until at or past due
 * (g the grain, 1 ms; the run's start on a whole ms of that clock).
 * Saturates at INT64_MAX (past any end). */
static inline int64_t sleep_until(int64_t now_ns, int64_t due_ns, int64_t g)
{
    while (due_ns > now_ns) {
        int64_t step;
        if (__builtin_mul_overflow((due_ns - now_ns) / g + 1, g, &step) ||
            __builtin_add_overflow(now_ns - now_ns % g, step, &now_ns))
            return INT64_MAX;
    }
    return now_ns;
}

/* wrk2's catch-up limit (wrk2 src/wrk.c, usec_to_next_send, and
 * socket_writeable/delay_request that call it before each request): a
 * connection whose next slot is still ahead waits for it, and the check
 * made then finds it due and anchors the catch-up there; one whose slot
 * has passed sends at once, but no sooner than anchor + j U D / factor, j
 * its requests since the anchor (catch_up_throughput = 2 x throughput).
 * The anchor is thus the user's last send made on schedule, so after a
 * stall the backlog goes out back to back until j U D / factor passes the
 * stall. Intended time: the slot (wrk2 records from its expected start). */
TESTER_INLINE int catch_up_limited_next(tester_loop *L, const tester_hot *h, tester_user *u, int64_t ready_ns)
{
    struct tester_catch_up *c = &L->catch_up[u->id];
    uint64_t i1 = next_index(u->idx, h->n_users);
    int64_t t1 = units_interval_at(h->spec->interval, u->anchor_ns, i1);
    const int64_t g = h->spec->sleep_granularity_ns;
    u->idx = i1;
    u->intended_ns = t1;
    if (t1 > ready_ns) { /* on pace: waits for its slot, and anchors where it wakes */
        u->next_ns = g ? sleep_until(ready_ns, t1, g) : t1;
        c->anchor_ns = u->next_ns;
        c->sent_since = 1;
        return 0;
    }
    int64_t allowed = units_interval_at(L->catch_up_gap, c->anchor_ns, c->sent_since);
    u->next_ns = allowed > ready_ns ? (g ? sleep_until(ready_ns, allowed, g) : allowed) : ready_ns;
    c->sent_since++;
    return 0;
}

/* The paced schedule with the primitives: a think time between the reply
 * and the moment the user is ready to send (the policies then apply to
 * that moment), the ticker, the catch-up limit. */
TESTER_INLINE int paced_next_ext(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    tester_request r = *rq;
    if (h->think)
        r.reply_ns += dist_draw_ns(&h->spec->think, h->think);
    if (h->spec->late == TESTER_LATE_TICKER)
        return ticker_next(h, u, r.reply_ns);
    if (h->spec->catch_up_factor)
        return catch_up_limited_next(L, h, u, r.reply_ns);
    return paced_next(L, h, u, &r);
}

static int paced_run(tester_loop *L);
static int corrected_run(tester_loop *L);

/* 1 when a plain run may take the on-time rows: late = next_slot, a
 * connection per user (so every request is sent at its slot), a whole-ns
 * D and U D <= INT64_MAX - end (a sending user's slot lies before the end,
 * so slot + U D cannot overflow). */
static int paced_on_time_ok(const tester_loop *L)
{
    uint64_t gap_ns;
    return !L->n_conns && L->spec->late == TESTER_LATE_NEXT_SLOT && L->spec->interval.den == 1 && L->end_ns >= 0 &&
           !__builtin_mul_overflow(L->spec->interval.num_ns, (uint64_t)L->n_users, &gap_ns) &&
           gap_ns <= (uint64_t)(INT64_MAX - L->end_ns);
}

/* The rows: paced and corrected share the schedule; each comes timed from
 * the actual send and, for latency_from = intended (wrk2), from the
 * intended time, a loop of its own so neither tests the setting per
 * request. */
const tester_strategy tester_paced_strategy = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .connections = 1,
    .next_send = paced_next,
};

static const tester_strategy paced_from_intended = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .connections = 1, .from_intended = 1,
    .next_send = paced_next,
};

const tester_strategy tester_corrected_strategy = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .connections = 1, .corrects = 1,
    .next_send = paced_next,
};

static const tester_strategy corrected_from_intended = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .connections = 1,
    .from_intended = 1, .corrects = 1, .next_send = paced_next,
};

/* The plain rows when every user has a connection of its own (no
 * `connections` below the users: L->n_conns = 0), the common case: the
 * loop then tests no connection per request. */
static const tester_strategy paced_own_conns = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .next_send = paced_next,
};
static const tester_strategy paced_from_intended_own_conns = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .from_intended = 1, .next_send = paced_next,
};
static const tester_strategy corrected_own_conns = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .corrects = 1,
    .next_send = paced_next,
};
static const tester_strategy corrected_from_intended_own_conns = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .from_intended = 1, .corrects = 1,
    .next_send = paced_next,
};

/* The plain paced rows when the grid's instants before the end (out->planned)
 * are at most max_requests: a plain paced user sends at most once for each
 * of its slots before the end (on time at the slot; late for one slot,
 * catch_up and next_slot moving on past it, from_now restarting its grid
 * at the send, after that slot, so its m-th later send comes after its
 * m-th later slot), so the limit cannot be reached and is not tested per
 * request (as open's open_whole_within_max). */
static const tester_strategy paced_within_max = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .connections = 1, .within_max = 1,
    .next_send = paced_next,
};
static const tester_strategy paced_from_intended_within_max = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .connections = 1, .from_intended = 1,
    .within_max = 1, .next_send = paced_next,
};
static const tester_strategy paced_own_conns_within_max = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .within_max = 1, .next_send = paced_next,
};
static const tester_strategy paced_from_intended_own_conns_within_max = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .from_intended = 1, .within_max = 1,
    .next_send = paced_next,
};

/* The plain rows for late = next_slot with a connection per user: every
 * request is sent at its intended slot (on time; latency_from = intended
 * then measures the same), the next slot one addition (paced_next_on_time). */
static const tester_strategy paced_on_time = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .on_time = 1, .next_send = paced_next_on_time,
};
static const tester_strategy paced_on_time_within_max = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .on_time = 1, .within_max = 1,
    .next_send = paced_next_on_time,
};
static const tester_strategy corrected_on_time = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .on_time = 1, .corrects = 1,
    .next_send = paced_next_on_time,
};
/* The same with one user (the default): no heap to keep, the sent count
 * in a local (as open's one user). */
static const tester_strategy paced_on_time_one = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .on_time = 1, .one_user = 1,
    .next_send = paced_next_on_time,
};
static const tester_strategy paced_on_time_within_max_one = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .on_time = 1, .within_max = 1, .one_user = 1,
    .next_send = paced_next_on_time,
};
static const tester_strategy corrected_on_time_one = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .on_time = 1, .corrects = 1,
    .one_user = 1, .next_send = paced_next_on_time,
};
/* Corrected on time while out->planned + the added values are at most
 * max_requests: the sends (at most out->planned, as paced's within_max)
 * cannot reach max_requests less the added values, so the loop does not
 * count against it per request; it stops (bounds.stop_ns) when the added
 * values grow past that, and corrected_run goes on with the rows above. */
static const tester_strategy corrected_on_time_within_max = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .on_time = 1, .corrects = 1,
    .within_max = 1, .next_send = paced_next_on_time,
};
static const tester_strategy corrected_on_time_within_max_one = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .on_time = 1, .corrects = 1,
    .within_max = 1, .one_user = 1, .next_send = paced_next_on_time,
};

/* The primitives' rows (think time, ticker, catch-up limit, requests,
 * warmup, timeout), so the plain ones test none of them. */
static const tester_strategy paced_ext = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .connections = 1, .extras = 1,
    .next_send = paced_next_ext,
};
static const tester_strategy paced_from_intended_ext = {
    .kind = TESTER_PACED, .prepare = paced_prepare, .run = paced_run, .connections = 1, .from_intended = 1,
    .extras = 1, .next_send = paced_next_ext,
};
static const tester_strategy corrected_ext = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .connections = 1, .corrects = 1,
    .extras = 1, .next_send = paced_next_ext,
};
static const tester_strategy corrected_from_intended_ext = {
    .kind = TESTER_CORRECTED, .prepare = paced_prepare, .run = corrected_run, .connections = 1,
    .from_intended = 1, .corrects = 1, .extras = 1, .next_send = paced_next_ext,
};

TESTER_LOOP_FN int paced_run(tester_loop *L)
{
    if (L->spec->schedule == TESTER_SCHEDULE_SHARED)
        return tester_shared_run(L);
    if (L->ext)
        return L->spec->latency_from_intended ? tester_loop_run(L, &paced_from_intended_ext)
                                              : tester_loop_run(L, &paced_ext);
    const int on_time = paced_on_time_ok(L);
    if (L->out->planned <= L->max_requests) {
        if (on_time)
            return L->n_users == 1 ? tester_loop_run(L, &paced_on_time_within_max_one)
                                   : tester_loop_run(L, &paced_on_time_within_max);
        if (!L->n_conns)
            return L->spec->latency_from_intended ? tester_loop_run(L, &paced_from_intended_own_conns_within_max)
                                                  : tester_loop_run(L, &paced_own_conns_within_max);
        return L->spec->latency_from_intended ? tester_loop_run(L, &paced_from_intended_within_max)
                                              : tester_loop_run(L, &paced_within_max);
    }
    if (on_time)
        return L->n_users == 1 ? tester_loop_run(L, &paced_on_time_one) : tester_loop_run(L, &paced_on_time);
    if (!L->n_conns)
        return L->spec->latency_from_intended ? tester_loop_run(L, &paced_from_intended_own_conns)
                                              : tester_loop_run(L, &paced_own_conns);
    return L->spec->latency_from_intended ? tester_loop_run(L, &paced_from_intended)
                                          : tester_loop_run(L, &tester_paced_strategy);
}

TESTER_LOOP_FN int corrected_run(tester_loop *L)
{
    if (L->ext)
        return L->spec->latency_from_intended ? tester_loop_run(L, &corrected_from_intended_ext)
                                              : tester_loop_run(L, &corrected_ext);
    if (paced_on_time_ok(L)) {
        if (L->out->planned <= L->max_requests - L->out->added) {
            int rc = L->n_users == 1 ? tester_loop_run(L, &corrected_on_time_within_max_one)
                                     : tester_loop_run(L, &corrected_on_time_within_max);
            if (rc || L->out->planned <= L->max_requests - L->out->added)
                return rc; /* ran to the end */
            /* stopped: the added values may now bring the sends to max_requests */
        }
        return L->n_users == 1 ? tester_loop_run(L, &corrected_on_time_one)
                               : tester_loop_run(L, &corrected_on_time);
    }
    if (!L->n_conns)
        return L->spec->latency_from_intended ? tester_loop_run(L, &corrected_from_intended_own_conns)
                                              : tester_loop_run(L, &corrected_own_conns);
    return L->spec->latency_from_intended ? tester_loop_run(L, &corrected_from_intended)
                                          : tester_loop_run(L, &tester_corrected_strategy);
}
