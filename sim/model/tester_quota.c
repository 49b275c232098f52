/* tester_quota.c - a closed loop whose users each have a quota of N
 * requests per interval I, as memtier_benchmark's rate limiter
 * (RedisLabs/memtier_benchmark at 2f74d61, 2.2.0+28): with
 * --rate-limiting=R (per connection) memtier_benchmark.cpp main sets
 * N = ceil(R / 50) (request_per_interval) and I = 10^6 / floor(R / N) us
 * (request_interval_microsecond); shard_connection.cpp handle_event arms
 * an EV_PERSIST timer of I at connect with the quota at N, and
 * handle_timer_event sets the quota back to N at every tick (what was not
 * used is lost, never carried) and calls fill_pipeline, which sends while
 * the pipeline has room and the quota is not spent (push_req spends it);
 * each reply calls fill_pipeline again. With a pipeline of 1 (memtier's
 * default, cosim's user) a user ready at t in interval k = floor(t / I)
 * sends at t if it has sent fewer than N in interval k, else at (k + 1) I,
 * the next tick. Latency from the send (memtier times each request from
 * its send).
 *
 * With a pipeline of P > 1 each connection (user) is P slots, loop users
 * c P .. c P + P - 1, each one request outstanding; a slot that is free
 * (its reply in, or at the start) sends as soon as the connection's quota
 * allows: fill_pipeline sends min(free slots, quota left) at each reply
 * and each tick. The slots free up in reply order, so each is booked in
 * turn: ready at r in interval k = floor(r / I), it sends at r if the
 * connection's sends booked in k are fewer than N, else at the first tick
 * after whose interval still has room (the intervals between are full).
 * Replies are taken in send order (a TCP stream): a slot whose reply came
 * before an earlier-sent one's is ready at that one's. */
#include "tester_loop.h"

#include <stdlib.h>

/* Book a send for a slot of connection p ready at ready_ns: at once while
 * interval floor(ready / I) has room, else at the next tick whose interval
 * has (INT64_MAX past the clock's range). */
static int64_t pipe_book(struct tester_pipe *p, int64_t ready_ns, int64_t every, uint64_t quota)
{
    if (ready_ns < p->last_ready_ns)
        ready_ns = p->last_ready_ns; /* in send order */
    p->last_ready_ns = ready_ns;
    int64_t k = ready_ns / every;
    if (k > p->interval) {
        p->interval = k;
        p->used = 0;
    } else if (k < p->interval) {
        k = p->interval; /* the intervals from k on are booked full up to here */
    }
    if (p->used < quota) {
        p->used++;
        if (k == ready_ns / every)
            return ready_ns;
    } else {
        k = ++p->interval;
        p->used = 1;
    }
    int64_t t;
    return __builtin_mul_overflow(k, every, &t) ? INT64_MAX : t;
}

/* A pipelined connection's P slots, all free at 0: booked in slot order
 * (the first N at 0, the rest at later ticks). */
static int pipe_prepare(tester_loop *L, uint64_t pipeline)
{
    const tester_spec *spec = L->spec;
    size_t n;
    if (__builtin_mul_overflow((size_t)spec->users, (size_t)pipeline, &n))
        return -EINVAL;
    int rc = tester_loop_alloc_users(L, n);
    if (rc)
        return rc;
    L->pipe = calloc((size_t)spec->users, sizeof *L->pipe);
    if (!L->pipe)
        return -ENOMEM;
    tester_loop_init_users(L, 0);
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        u->next_ns = u->intended_ns = pipe_book(&L->pipe[i / pipeline], 0, spec->quota_interval_ns, spec->quota);
    }
    return 0;
}

int tester_quota_prepare(tester_loop *L)
{
    if (L->spec->quota_interval_ns <= 0)
        return -EINVAL;
    if (L->spec->pipeline > 1)
        return pipe_prepare(L, L->spec->pipeline);
    int rc = tester_loop_alloc_users(L, (size_t)L->spec->users);
    if (rc)
        return rc;
    tester_loop_init_users(L, 0); /* every user sends at 0 */
    for (size_t i = 0; i < L->n_users; i++) {
        L->users[i].anchor_ns = 0; /* the interval the user's count is of */
        L->users[i].idx = 1;       /* sent in it: the send at 0 */
    }
    return 0;
}

/* The next send: ready at the reply (plus a think time); at once while
 * the interval's quota lasts, else at the next interval's start. */
TESTER_INLINE int quota_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)L;
    const int64_t every = h->spec->quota_interval_ns;
    int64_t t = rq->reply_ns + (h->think ? dist_draw_ns(&h->spec->think, h->think) : 0);
    int64_t k = t / every;
    if (k != u->anchor_ns) { /* a tick came: the quota is N again */
        u->anchor_ns = k;
        u->idx = 0;
    }
    if (u->idx < h->spec->quota) {
        u->idx++;
    } else if (__builtin_mul_overflow(k + 1, every, &t)) {
        t = INT64_MAX; /* past any end */
    } else {
        u->anchor_ns = k + 1;
        u->idx = 1;
    }
    u->next_ns = u->intended_ns = t;
    return 0;
}

/* The next send of a pipelined slot: booked on its connection's quota
 * from its reply (plus a think time). */
TESTER_INLINE int pipe_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    int64_t t = rq->reply_ns + (h->think ? dist_draw_ns(&h->spec->think, h->think) : 0);
    struct tester_pipe *p = &L->pipe[u->id / h->spec->pipeline];
    u->next_ns = u->intended_ns = pipe_book(p, t, h->spec->quota_interval_ns, h->spec->quota);
    return 0;
}

static const tester_strategy quota_rows = {
    .kind = TESTER_CLOSED, .prepare = tester_quota_prepare, .run = tester_quota_run, .connections = 1,
    .extras = 1, .next_send = quota_next,
};

static const tester_strategy pipe_rows = {
    .kind = TESTER_CLOSED, .prepare = tester_quota_prepare, .run = tester_quota_run, .extras = 1,
    .next_send = pipe_next,
};

__attribute__((flatten)) int tester_quota_run(tester_loop *L)
{
    if (L->spec->pipeline > 1)
        return tester_loop_run(L, &pipe_rows);
    return tester_loop_run(L, &quota_rows);
}
