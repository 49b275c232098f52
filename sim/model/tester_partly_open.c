/* tester_partly_open.c - the partly-open loop (Schroeder, Wierman,
 * Harchol-Balter, NSDI 2006): sessions arrive as a Poisson process of mean
 * gap D; each sends a request and, after each reply, with probability
 * p_continue thinks and sends another; latency = reply - actual send time.
 * User 0 of the heap is the session source; sessions are users 1, 2, ... */
#include "tester_loop.h"
#include "rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>

/* Most sessions a partly-open tester may have at once. */
#define MAX_SESSIONS 1000000

static int partly_open_prepare(tester_loop *L)
{
    const char *gen = L->cfg->server->generator;
    uint64_t seed = L->cfg->server->seed;
    int rc = tester_loop_alloc_users(L, 1); /* the session source */
    if (!rc)
        rc = rng_new(&L->arrivals, gen, seed, RNG_ARRIVALS);
    if (!rc)
        rc = rng_new(&L->sessions, gen, seed, RNG_SESSIONS);
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    tester_loop_init_users(L, 0);
    /* the first session arrives after an exponential gap too */
    L->users[0].next_ns = (int64_t)llround(gsl_ran_exponential(L->arrivals, L->mean_gap_ns));
    return 0;
}

/* The session source's event: a new session, which sends at once, and the
 * next arrival an exponential gap later. 1 handled, 0 (users[0] is a
 * session), -E2BIG (more than MAX_SESSIONS at once) or -ENOMEM. */
static int partly_open_source(tester_loop *L)
{
    tester_user *u = &L->users[0];
    if (u->id != 0)
        return 0;
    if (L->n_users - 1 >= MAX_SESSIONS)
        return -E2BIG;
    if (L->n_users == L->cap_users) {
        size_t cap = 2 * L->cap_users;
        tester_user *nu = realloc(L->users, cap * sizeof *nu);
        if (!nu)
            return -ENOMEM;
        L->users = nu;
        u = &L->users[0];
        L->cap_users = cap;
    }
    tester_user s = {.next_ns = u->next_ns, .intended_ns = u->next_ns, .id = L->next_id++};
    u->next_ns += (int64_t)llround(gsl_ran_exponential(L->arrivals, L->mean_gap_ns));
    tester_heap_sift_down(L->users, L->n_users, 0);
    L->users[L->n_users++] = s;
    tester_heap_sift_up(L->users, L->n_users - 1);
    if (L->n_users - 1 > L->out->max_sessions)
        L->out->max_sessions = L->n_users - 1;
    return 1;
}

/* Another request with probability p_continue, after a think time; else
 * the session leaves. */
TESTER_INLINE int partly_open_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    if (gsl_rng_uniform(L->sessions) < h->spec->p_continue) {
        u->next_ns = rq->reply_ns + (h->think ? dist_draw_ns(&h->spec->think, h->think) : 0);
        u->intended_ns = u->next_ns;
        return 0;
    }
    tester_heap_pop(L->users, &L->n_users);
    return 1;
}

static int partly_open_run(tester_loop *L);

const tester_strategy tester_partly_open_strategy = {
    .kind = TESTER_PARTLY_OPEN, .prepare = partly_open_prepare, .run = partly_open_run,
    .source = partly_open_source, .next_send = partly_open_next,
};

/* With the primitives (requests, warmup, timeout). */
static const tester_strategy partly_open_ext = {
    .kind = TESTER_PARTLY_OPEN, .prepare = partly_open_prepare, .run = partly_open_run,
    .source = partly_open_source, .next_send = partly_open_next, .extras = 1,
};

TESTER_LOOP_FN int partly_open_run(tester_loop *L)
{
    return L->ext ? tester_loop_run(L, &partly_open_ext) : tester_loop_run(L, &tester_partly_open_strategy);
}
