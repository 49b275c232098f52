/* tester_shared.c - a paced tester whose users share one schedule, as
 * JMeter's Constant Throughput Timer does in its modes "all active threads
 * (shared)" and "all active threads in current thread group (shared)"
 * (apache/jmeter, src/components/.../timers/ConstantThroughputTimer.java,
 * read at bb30edf). Before each sample a thread calls delay(): the shared
 * calculation (calculateSharedDelay) takes the schedule's next slot
 * n = max(now, last + D) and makes it the schedule's last, giving
 * n - now; delay() then adds that to the thread's own previousTime p (its
 * previous sample's start, not now), so the sample starts at
 * max(now, p + (n - now)) and p becomes that start. A thread thus starts
 * its sample as much before the shared slot as its own last cycle (p to
 * now) took. At the start every thread's p is 0 in JMeter's clock (the
 * epoch): each thread's first sample runs at once, while the schedule
 * moves on by D for each. Latency is from the sample's start (JMeter
 * times the sample); the intended time is that start. D is the tester's
 * interval truncated to whole ns (JMeter rounds it to whole ms). */
#include "tester_loop.h"

int tester_shared_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    int rc = tester_loop_alloc_users(L, (size_t)spec->users);
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    L->shared_gap_ns = units_interval_floor_ns(spec->interval);
    /* every thread calls delay() at 0: the first takes slot 0, the others
     * D, 2D, ..., and each runs at once (p = the epoch) */
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        u->id = u->idx = i;
        u->next_ns = u->intended_ns = u->anchor_ns = 0; /* anchor: p, the last send */
    }
    uint64_t last;
    if (__builtin_mul_overflow((uint64_t)L->shared_gap_ns, (uint64_t)(L->n_users - 1), &last) ||
        last > (uint64_t)INT64_MAX / 2)
        return -ERANGE;
    L->shared_last_ns = (int64_t)last;
    L->plans = 0; /* no grid: planned = sent */
    return 0;
}

/* The user's next sample: ready at the reply (plus a think time), it takes
 * the shared schedule's next slot and starts at max(ready, p + (slot -
 * ready)). */
TESTER_INLINE int shared_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    int64_t ready = rq->reply_ns;
    if (h->think)
        ready += dist_draw_ns(&h->spec->think, h->think);
    int64_t slot, target;
    if (__builtin_add_overflow(L->shared_last_ns, L->shared_gap_ns, &slot))
        slot = INT64_MAX; /* past any end: the user sends no more */
    if (slot < ready)
        slot = ready;
    L->shared_last_ns = slot;
    if (__builtin_add_overflow(u->anchor_ns, slot - ready, &target))
        target = INT64_MAX;
    u->anchor_ns = u->next_ns = u->intended_ns = target > ready ? target : ready;
    return 0;
}

static const tester_strategy shared_rows = {
    .kind = TESTER_PACED, .prepare = tester_shared_prepare, .run = tester_shared_run, .connections = 1,
    .extras = 1, .next_send = shared_next,
};

__attribute__((flatten)) int tester_shared_run(tester_loop *L)
{
    return tester_loop_run(L, &shared_rows);
}
