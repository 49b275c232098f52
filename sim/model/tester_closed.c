/* tester_closed.c - the closed loop: U users, each sends the instant its
 * previous reply arrives, plus a think time (MODEL.md, "closed"); latency
 * = reply - actual send time. */
#include "tester_loop.h"

static int closed_prepare(tester_loop *L)
{
    if (L->spec->quota) /* memtier's rate limiter: tester_quota.c */
        return tester_quota_prepare(L);
    int rc = tester_loop_alloc_users(L, (size_t)L->spec->users);
    if (rc)
        return rc;
    tester_loop_init_users(L, 0); /* every user sends at 0 */
    if (L->spec->ramp_up_ns) /* or at its start: in user order, so still a heap */
        for (size_t i = 0; i < L->n_users; i++)
            L->users[i].next_ns = L->users[i].intended_ns = tester_ramp_up_start(L->spec, i);
    if (L->spec->think_first && L->think) /* a think before the first request too, drawn in user order;
                                           * tester_run re-heaps the users */
        for (size_t i = 0; i < L->n_users; i++) {
            int64_t t = L->users[i].next_ns, d = dist_draw_ns(&L->spec->think, L->think);
            if (__builtin_add_overflow(t, d, &t))
                t = INT64_MAX;
            L->users[i].next_ns = L->users[i].intended_ns = t;
        }
    return 0;
}

/* The next send: the reply, plus a think time when the spec has one. */
TESTER_INLINE int closed_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)L;
    u->next_ns = rq->reply_ns + (h->think ? dist_draw_ns(&h->spec->think, h->think) : 0);
    u->intended_ns = u->next_ns;
    return 0;
}

/* closed_next without a think time. */
TESTER_INLINE int closed_next_now(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)L;
    (void)h;
    u->next_ns = rq->reply_ns; /* on_time: the loop reads no intended_ns */
    return 0;
}

static int closed_run(tester_loop *L);

const tester_strategy tester_closed_strategy = {
    .kind = TESTER_CLOSED, .prepare = closed_prepare, .run = closed_run, .connections = 1,
    .next_send = closed_next,
};

/* With the primitives (requests, warmup, timeout): a loop of its own, so
 * the plain one tests none of them. */
static const tester_strategy closed_ext = {
    .kind = TESTER_CLOSED, .prepare = closed_prepare, .run = closed_run, .connections = 1, .extras = 1,
    .next_send = closed_next,
};

/* The plain row when every user has a connection of its own (L->n_conns
 * = 0), the common case: the loop then tests no connection per request. */
static const tester_strategy closed_own_conns = {
    .kind = TESTER_CLOSED, .prepare = closed_prepare, .run = closed_run, .on_time = 1, .next_send = closed_next,
};

/* The same with one user and no think time (the default): no heap, the
 * user and the sent count in locals of the loop (tester_loop_run). */
static const tester_strategy closed_one = {
    .kind = TESTER_CLOSED, .prepare = closed_prepare, .run = closed_run, .on_time = 1, .one_user = 1,
    .next_send = closed_next_now,
};

TESTER_LOOP_FN int closed_run(tester_loop *L)
{
    if (L->spec->quota)
        return tester_quota_run(L);
    if (L->ext)
        return tester_loop_run(L, &closed_ext);
    if (L->n_conns)
        return tester_loop_run(L, &tester_closed_strategy);
    return L->n_users == 1 && !L->think ? tester_loop_run(L, &closed_one) : tester_loop_run(L, &closed_own_conns);
}
