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
 * its send). */
#include "tester_loop.h"

int tester_quota_prepare(tester_loop *L)
{
    if (L->spec->quota_interval_ns <= 0)
        return -EINVAL;
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

static const tester_strategy quota_rows = {
    .kind = TESTER_CLOSED, .prepare = tester_quota_prepare, .run = tester_quota_run, .connections = 1,
    .extras = 1, .next_send = quota_next,
};

__attribute__((flatten)) int tester_quota_run(tester_loop *L)
{
    return tester_loop_run(L, &quota_rows);
}
