/* tester_paced.c - the paced loop and the corrected tester (MODEL.md,
 * "paced", "corrected"): one request every interval D intended, each user
 * waiting for its reply; U users are dealt the grid t_i = floor(i D)
 * round-robin (user u owns t_u, t_{u+U}, ...), a late reply handled by the
 * tester's policy. The corrected tester is the same schedule recorded with
 * the expected interval (HdrHistogram's recordValueWithExpectedInterval,
 * the book's Listing 5.2). */
#include "tester_loop.h"

/* i + U, saturated (a saturated index lies past any end). */
static inline uint64_t next_index(uint64_t i, uint64_t n_users)
{
    return i > UINT64_MAX - n_users ? UINT64_MAX : i + n_users;
}

/* Users on the grid, the planned count, and the correction's D: each
 * user's own interval floor(U D) unless the spec gives one. */
static int paced_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    int rc = tester_loop_alloc_users(L, (size_t)spec->users);
    if (!rc && spec->kind == TESTER_CORRECTED && spec->late == TESTER_LATE_CATCH_UP)
        rc = -EINVAL; /* it would count each gap twice (MODEL.md) */
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    L->expected_ns = spec->expected_interval_ns > 0 ? spec->expected_interval_ns
                                                    : units_interval_at(spec->interval, 0, (uint64_t)L->n_users);
    tester_loop_init_users(L, 1);
    L->plans = 1;
    L->out->planned = units_interval_count_before(spec->interval, 0, L->end_ns);
    return 0;
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
    const units_interval d = h->spec->interval;
    const uint64_t n_users = h->n_users;
    const int64_t reply_ns = rq->reply_ns;
    uint64_t i1 = next_index(u->idx, n_users);
    int64_t t1 = units_interval_at(d, u->anchor_ns, i1);
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
        u->idx = next_slot_index(u, d, n_users, i1, reply_ns);
        u->next_ns = u->intended_ns = units_interval_at(d, u->anchor_ns, u->idx);
        break;
    case TESTER_LATE_CATCH_UP: /* send now for the slot missed; the grid is kept */
        u->idx = i1;
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        break;
    }
    return 0;
}

static int paced_run(tester_loop *L);
static int corrected_run(tester_loop *L);

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

TESTER_LOOP_FN int paced_run(tester_loop *L)
{
    return L->spec->latency_from_intended ? tester_loop_run(L, &paced_from_intended)
                                          : tester_loop_run(L, &tester_paced_strategy);
}

TESTER_LOOP_FN int corrected_run(tester_loop *L)
{
    return L->spec->latency_from_intended ? tester_loop_run(L, &corrected_from_intended)
                                          : tester_loop_run(L, &tester_corrected_strategy);
}
