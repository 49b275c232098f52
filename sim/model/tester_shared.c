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
 * times the sample); the intended time is that start.
 *
 * The slots are taken in the order the users are ready (a thread calls
 * delay() when its sample is done), not the order they sent: a user is in
 * the heap at its ready instant first, and the source hook books its slot
 * there (ties by user id, as the heap orders them), then puts it back at
 * its send. D is the tester's interval as an exact fraction (a rate's
 * 10^9 / r ns): the schedule's slots are anchor + floor(j D), the anchor
 * moving to a ready instant that finds the schedule behind (n = r), so
 * no truncation of D adds up (interval_round gives JMeter's whole ms). */
#include "tester_loop.h"

/* A user waiting in the heap to book its slot (at its ready instant) has
 * idx = SHARED_READY; a booked one, idx = 0. */
#define SHARED_READY 1

int tester_shared_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    int rc = tester_loop_alloc_users(L, (size_t)spec->users);
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    /* every thread calls delay() at 0: the first takes slot 0, the others
     * D, 2D, ... (user order), and each runs at once (p = the epoch) */
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        u->id = i;
        u->idx = 0;
        u->next_ns = u->intended_ns = u->anchor_ns = 0; /* anchor: p, the last send */
    }
    L->shared_anchor_ns = 0;
    L->shared_j = (uint64_t)L->n_users - 1; /* the last slot taken: floor((U - 1) D) */
    if (units_interval_at(spec->interval, 0, L->shared_j) > INT64_MAX / 2)
        return -ERANGE;
    L->plans = 0; /* no grid: planned = sent */
    return 0;
}

/* After a reply: the user is ready at the reply plus any think time, and
 * waits in the heap until then to book its slot (shared_book). */
TESTER_INLINE int shared_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)L;
    int64_t ready = rq->reply_ns;
    if (h->think && __builtin_add_overflow(ready, dist_draw_ns(&h->spec->think, h->think), &ready))
        ready = INT64_MAX;
    u->next_ns = u->intended_ns = ready;
    u->idx = SHARED_READY;
    return 0;
}

/* users[0] is due: if it is a user ready to book (not a send), it takes
 * the schedule's next slot n = max(r, last + D) (last + D exact: anchor +
 * floor((j + 1) D)) and goes back in the heap at its start, max(r, p +
 * (n - r)). 1 when that was the event, 0 for a send. */
static int shared_book(tester_loop *L)
{
    tester_user *u = &L->users[0];
    if (u->idx != SHARED_READY)
        return 0;
    const int64_t ready = u->next_ns;
    int64_t slot = units_interval_at(L->spec->interval, L->shared_anchor_ns, L->shared_j + 1);
    if (slot < ready) { /* the schedule is behind: it restarts at r */
        L->shared_anchor_ns = slot = ready;
        L->shared_j = 0;
    } else {
        L->shared_j++;
    }
    int64_t target;
    if (__builtin_add_overflow(u->anchor_ns, slot - ready, &target))
        target = INT64_MAX; /* past any end: the user sends no more */
    u->anchor_ns = u->next_ns = u->intended_ns = target > ready ? target : ready;
    u->idx = 0;
    tester_heap_sift_down(L->users, L->n_users, 0);
    return 1;
}

static const tester_strategy shared_rows = {
    .kind = TESTER_PACED, .prepare = tester_shared_prepare, .run = tester_shared_run, .source = shared_book,
    .connections = 1, .extras = 1, .next_send = shared_next,
};

__attribute__((flatten)) int tester_shared_run(tester_loop *L)
{
    return tester_loop_run(L, &shared_rows);
}
