/* tester_open.c - the open loop: request i is sent at its intended time t_i
 * whatever the replies, on a fixed grid t_i = floor(i D) or as Poisson
 * arrivals of mean gap D (MODEL.md, "open"); latency = reply - t_i. */
#include "tester_loop.h"
#include "rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>

static int open_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    int poisson = spec->arrivals == TESTER_ARRIVALS_POISSON;
    int rc = tester_loop_alloc_users(L, 1); /* one schedule */
    if (!rc && poisson)
        rc = rng_new(&L->arrivals, L->cfg->server->generator, L->cfg->server->seed, RNG_ARRIVALS);
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    tester_loop_init_users(L, 0); /* t_0 = 0 */
    L->plans = !poisson;
    if (L->plans)
        L->out->planned = units_interval_count_before(spec->interval, 0, L->end_ns);
    return 0;
}

/* The grid: i D, added up for a whole-ns D, else exact (units_interval_at). */
TESTER_INLINE int open_next_grid(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)rq;
    if (h->spec->interval.den == 1)
        u->next_ns += (int64_t)h->spec->interval.num_ns;
    else
        u->next_ns = units_interval_at(h->spec->interval, 0, ++L->open_i);
    u->intended_ns = u->next_ns;
    return 0;
}

/* Poisson arrivals: exponential gaps of mean D after the last send. */
TESTER_INLINE int open_next_poisson(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)h;
    u->next_ns = rq->sent_ns + (int64_t)llround(gsl_ran_exponential(L->arrivals, L->mean_gap_ns));
    u->intended_ns = u->next_ns;
    return 0;
}

static int open_run(tester_loop *L);

const tester_strategy tester_open_strategy = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .from_intended = 1,
    .next_send = open_next_grid,
};

/* The Poisson variant: the same loop with the other next_send. */
static const tester_strategy open_poisson = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .from_intended = 1,
    .next_send = open_next_poisson,
};

TESTER_LOOP_FN int open_run(tester_loop *L)
{
    return L->arrivals ? tester_loop_run(L, &open_poisson) : tester_loop_run(L, &tester_open_strategy);
}
