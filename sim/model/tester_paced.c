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

/* stop_test = when_ready (hey -z -q, requester/requester.go runWorker:
 * select on the stop channel, then <-throttle, then makeRequest): a user
 * ready before the duration D_end sends at its next tick, which comes
 * before D_end + its own interval U D (its previous slot was before
 * D_end, or it is late and sends at once); ticker_next stops a user ready
 * at or after D_end. So sends are bounded by D_end + U D, not D_end.
 * 0, or -ERANGE past the clock. */
static int stop_when_ready_start(tester_loop *L)
{
    int64_t own = units_interval_at(L->spec->interval, 0, L->n_users); /* floor(U D) */
    if (own < 0 || own > INT64_MAX - L->end_ns)
        return -ERANGE;
    L->send_end_ns = L->end_ns + own;
    return 0;
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

/* ramp_up: user u's own schedule from its start (tester_ramp_up_start),
 * every U D from there, as a staggered user's (JMeter's thread i runs its
 * first sample when its ramp-up delay is over; the timer's previousTime
 * is then behind, so it runs at once). Anchors only; stagger_planned
 * counts. */
static void ramp_up_start(tester_loop *L)
{
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        u->anchor_ns = u->next_ns = u->intended_ns = tester_ramp_up_start(L->spec, i);
        u->idx = 0;
    }
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
    if ((rc = tester_loop_first_send(L)) != 0) /* vegeta: one interval later */
        return rc;
    if (spec->has_stagger && (rc = stagger_start(L)) != 0)
        return rc;
    if (spec->ramp_up_ns || spec->has_ramp_up)
        ramp_up_start(L);
    if (spec->late == TESTER_LATE_TICKER)
        ticker_start(L);
    if (spec->stop_test == TESTER_STOP_WHEN_READY && (rc = stop_when_ready_start(L)) != 0)
        return rc;
    if ((spec->has_stagger || spec->ramp_up_ns || spec->has_ramp_up) && (rc = stagger_planned(L)) != 0)
        return rc;
    if (spec->step_started) { /* each user's previousTime is its first send; no fixed grid */
        for (size_t i = 0; i < L->n_users; i++)
            L->users[i].anchor_ns = L->users[i].next_ns;
        L->plans = 0;
    }
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
    if (h->spec->stop_test == TESTER_STOP_WHEN_READY && ready_ns >= h->end_ns) {
        u->next_ns = INT64_MAX; /* hey: the stop seen before the wait: no more sends */
        return 0;
    }
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

/* The clock a tool with timers of grain g reads its times on: a
 * thousandth of g, at least 1 ns (wrk2: ms timers, time_us in src/wrk.c). */
static inline int64_t tool_clock_ns(int64_t g)
{
    return g >= 1000 ? g / 1000 : 1;
}

/* t_ns on that clock: truncated to a whole tick of c (t_ns >= 0). */
static inline int64_t tool_clock(int64_t t_ns, int64_t c)
{
    return t_ns - t_ns % c;
}

/* When a connection that finds at now_ns that it must wait until due_c (a
 * tick of the tool's clock c, after now's) wakes, as wrk2 sleeps it on one
 * connection: src/wrk.c socket_writeable / delay_request turn the wait w =
 * due - time_us() (whole us) into an ae timer of round(w / 1000.0 + 0.5) =
 * floor(w / 1 ms) + 1 whole ms; src/ae.c aeAddMillisecondsToNow sets it at
 * when = now truncated to ms + that many ms, and aeProcessEvents computes
 * epoll_wait's timeout from the same truncated clock, when - now truncated
 * = that many whole ms, which epoll_wait sleeps from the real now: the
 * timer fires at now_ns + (floor(w / g) + 1) g, the fraction of a ms of
 * now carried (g the grain, 1 ms). The fire always comes after due (the
 * step passes w by at least one tick of c), so delay_request sends at
 * once. Another socket or timer of the thread's loop that wakes the poll
 * early would make processTimeEvents fire it on the first whole ms at or
 * past when instead: left out (a lone connection). Saturates at INT64_MAX
 * (past any end). */
static inline int64_t wrk2_wake(int64_t now_ns, int64_t due_c, int64_t g, int64_t c)
{
    int64_t wait_ns = due_c - tool_clock(now_ns, c), step, wake;
    if (__builtin_mul_overflow(wait_ns / g + 1, g, &step) || __builtin_add_overflow(now_ns, step, &wake))
        return INT64_MAX;
    return wake;
}

/* wrk2's catch-up limit (wrk2 src/wrk.c, usec_to_next_send, and
 * socket_writeable/delay_request that call it before each request): a
 * connection whose next slot is still ahead waits for it, and the check
 * made then finds it due and anchors the catch-up there; one whose slot
 * has passed sends at once, but no sooner than anchor + j U D / factor, j
 * its requests since the anchor (catch_up_throughput = 2 x throughput).
 * The anchor is thus the user's last send made on schedule, so after a
 * stall the backlog goes out back to back until j U D / factor passes the
 * stall. Intended time: the slot (wrk2 records from its expected start).
 * With sleep_granularity (wrk2's timers, wrk2_wake) the checks are made
 * on the tool's clock (a thousandth of the grain: wrk2's time_us), as
 * usec_to_next_send makes them: the slot and the catch-up instant
 * truncated to us (thread_start + complete / throughput,
 * catch_up_start_time + complete since / catch_up_throughput, both stored
 * as whole us) against time_us(). */
TESTER_INLINE int catch_up_limited_next(tester_loop *L, const tester_hot *h, tester_user *u, int64_t ready_ns)
{
    struct tester_catch_up *c = &L->catch_up[u->id];
    uint64_t i1 = next_index(u->idx, h->n_users);
    int64_t t1 = units_interval_at(h->spec->interval, u->anchor_ns, i1);
    const int64_t g = h->spec->sleep_granularity_ns;
    u->idx = i1;
    u->intended_ns = t1;
    if (g) {
        const int64_t tick = tool_clock_ns(g), now_c = tool_clock(ready_ns, tick);
        if (tool_clock(t1, tick) > now_c) { /* on pace: sleeps, and anchors where it wakes */
            u->next_ns = wrk2_wake(ready_ns, tool_clock(t1, tick), g, tick);
            c->anchor_ns = u->next_ns;
            c->sent_since = 1;
            return 0;
        }
        int64_t allowed = tool_clock(c->anchor_ns, tick) +
                          tool_clock(units_interval_at(L->catch_up_gap, 0, c->sent_since), tick);
        u->next_ns = allowed > now_c ? wrk2_wake(ready_ns, allowed, g, tick) : ready_ns;
        c->sent_since++;
        return 0;
    }
    if (t1 > ready_ns) { /* on pace: waits for its slot, and anchors where it wakes */
        u->next_ns = t1;
        c->anchor_ns = t1;
        c->sent_since = 1;
        return 0;
    }
    int64_t allowed = units_interval_at(L->catch_up_gap, c->anchor_ns, c->sent_since);
    u->next_ns = allowed > ready_ns ? allowed : ready_ns;
    c->sent_since++;
    return 0;
}

/* How many of the tester's users have started (made their first send) by
 * t_ns: their starts rise with the user's number (a ramp-up, or the dealt
 * grid floor(u D)), so a binary search. At least 1 for a user that asks. */
static uint64_t users_started_by(const tester_loop *L, int64_t t_ns)
{
    const tester_spec *s = L->spec;
    uint64_t lo = 1, hi = L->n_users; /* user 0 starts at 0 */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        int64_t start = s->ramp_up_ns || s->has_ramp_up ? tester_ramp_up_start(s, mid)
                                                         : units_interval_at(s->interval, 0, mid);
        if (start <= t_ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* JMeter's Constant Throughput Timer, AllActiveThreads
 * (ConstantThroughputTimer.delay and calculateDelay): at each call (after
 * the reply, before the next sample) the delay is the threads running
 * then (JMeterContextService.getNumberOfThreads, counted once a thread's
 * ramp-up delay is over: JMeterThread.initRun, threadStarted) times the
 * time per sample, rounded as interval_round says (Math.round to whole
 * ms); target = previousTime + delay; past it: run now and previousTime =
 * now, else wait for it and previousTime = target. The user's anchor is
 * its previousTime; intended: the target it was due at. */
TESTER_INLINE int started_step_next(tester_loop *L, const tester_hot *h, tester_user *u, int64_t ready_ns)
{
    const tester_spec *s = h->spec;
    const unsigned __int128 a = users_started_by(L, ready_ns);
    const unsigned __int128 num = a * s->step_interval.num_ns, den = s->step_interval.den;
    const unsigned __int128 g = (unsigned __int128)(s->interval_round_ns > 0 ? s->interval_round_ns : 0);
    unsigned __int128 step = g ? (2 * num + g * den) / (2 * g * den) * g : num / den;
    unsigned __int128 target = (unsigned __int128)u->anchor_ns + step;
    int64_t t = target > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)target;
    u->intended_ns = t;
    u->anchor_ns = u->next_ns = ready_ns > t ? ready_ns : t;
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
    if (h->spec->step_started)
        return started_step_next(L, h, u, r.reply_ns);
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
    return !L->n_conns && L->spec->late == TESTER_LATE_NEXT_SLOT && L->spec->interval.den == 1 && L->send_end_ns >= 0 &&
           !__builtin_mul_overflow(L->spec->interval.num_ns, (uint64_t)L->n_users, &gap_ns) &&
           gap_ns <= (uint64_t)(INT64_MAX - L->send_end_ns);
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
