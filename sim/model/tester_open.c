/* tester_open.c - the open loop: request i is sent at its intended time t_i
 * whatever the replies, on a fixed grid t_i = floor(i D) or as Poisson
 * arrivals of mean gap D (MODEL.md, "open"); latency = reply - t_i. */
#include "tester_loop.h"
#include "rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>

/* The VU pool: vus VUs free at 0, room for max_vus, the drops' seconds
 * (to the last send's: with first_send = interval it may pass the end). */
int tester_open_make_pool(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    L->cap_conns = spec->max_vus > spec->vus ? spec->max_vus : spec->vus;
    L->n_conns = spec->vus;
    L->out->max_vus_used = spec->vus;
    L->out->n_drop_seconds = (size_t)((L->send_end_ns - 1) / 1000000000 + 1);
    L->conns = calloc(L->cap_conns, sizeof *L->conns);
    L->out->drops_per_s = calloc(L->out->n_drop_seconds, sizeof *L->out->drops_per_s);
    return L->conns && L->out->drops_per_s ? 0 : -ENOMEM;
}

static int open_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    int poisson = spec->arrivals == TESTER_ARRIVALS_POISSON;
    if (spec->n_stages) /* a rate ramp: tester_ramp.c */
        return tester_ramp_prepare(L);
    int rc = tester_loop_alloc_users(L, 1); /* one schedule */
    if (!rc && poisson)
        rc = rng_new(&L->arrivals, L->cfg->server->generator, L->cfg->server->seed, RNG_ARRIVALS);
    if (!rc)
        rc = tester_loop_need_interval(L);
    if (rc)
        return rc;
    tester_loop_init_users(L, 0); /* t_0 = 0 */
    L->open_step_ns = spec->interval.den == 1 ? (int64_t)spec->interval.num_ns : 0;
    if (!poisson && (rc = tester_loop_first_send(L)) != 0) /* vegeta: one interval later */
        return rc;
    L->plans = !poisson;
    if (L->plans)
        L->out->planned = units_interval_count_before(spec->interval, 0, L->end_ns);
    if (L->plans && spec->batch > 1) { /* whole batches: ceil(c / N) N */
        uint64_t c = L->out->planned, n = spec->batch;
        L->out->planned = c / n * n + (c % n ? n : 0);
    }
    return spec->vus ? tester_open_make_pool(L) : 0;
}

/* The grid: i D, added up for a whole-ns D, else exact (units_interval_at). */
TESTER_INLINE int open_next_grid(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)rq;
    (void)h;
    if (L->open_step_ns)
        u->next_ns += L->open_step_ns;
    else
        u->next_ns = units_interval_at(h->spec->interval, 0, ++L->open_i);
    u->intended_ns = u->next_ns;
    return 0;
}

/* The grid of a whole-ns D (L->open_step_ns > 0): i D, added up. */
TESTER_INLINE int open_next_whole(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)rq;
    (void)h;
    u->next_ns += L->open_step_ns; /* on_time: the loop reads no intended_ns */
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

/* With the primitives: batches of N on the grid, the i-th request at
 * floor(floor(i / N) N D) (N requests released together every N D, as
 * memtier's rate limiter releases its requests per interval). */
TESTER_INLINE int open_next_grid_ext(tester_loop *L, const tester_hot *h, tester_user *u,
                                     const tester_request *rq)
{
    (void)rq;
    uint64_t n = h->spec->batch > 1 ? h->spec->batch : 1, i = ++L->open_i;
    u->next_ns = u->intended_ns = units_interval_at(h->spec->interval, 0, i / n * n);
    return 0;
}

/* Poisson batches: N requests at each instant, exponential gaps of mean
 * N D between the instants. */
TESTER_INLINE int open_next_poisson_ext(tester_loop *L, const tester_hot *h, tester_user *u,
                                        const tester_request *rq)
{
    uint64_t n = h->spec->batch > 1 ? h->spec->batch : 1;
    if (++L->open_i % n == 0)
        u->next_ns = rq->intended_ns +
                     (int64_t)llround(gsl_ran_exponential(L->arrivals, L->mean_gap_ns * (double)n));
    else
        u->next_ns = rq->intended_ns;
    u->intended_ns = u->next_ns;
    return 0;
}

static int open_run(tester_loop *L);

const tester_strategy tester_open_strategy = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1,
    .next_send = open_next_grid,
};

/* A whole-ns D: the same loop, its next send one addition. */
static const tester_strategy open_whole = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1,
    .next_send = open_next_whole,
};

/* The same when the grid's requests (out->planned, every one sent) are at
 * most max_requests: the limit cannot be reached. */
static const tester_strategy open_whole_within_max = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1,
    .within_max = 1, .next_send = open_next_whole,
};

/* The Poisson variant: the same loop with the other next_send. */
static const tester_strategy open_poisson = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1,
    .next_send = open_next_poisson,
};

/* The primitives' rows: with and without a VU pool. */
static const tester_strategy open_ext = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1, .extras = 1,
    .next_send = open_next_grid_ext,
};
static const tester_strategy open_poisson_ext = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1, .extras = 1,
    .next_send = open_next_poisson_ext,
};
static const tester_strategy open_grid_pool = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1, .extras = 1, .pool = 1,
    .next_send = open_next_grid_ext,
};
static const tester_strategy open_poisson_pool = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .on_time = 1, .from_intended = 1, .extras = 1, .pool = 1,
    .next_send = open_next_poisson_ext,
};

/* A VU pool that queues (vus_full = queue: Hyperfoil's session pool,
 * core/impl/OpenModelPhase.java: proceed counts a user that finds no
 * session as throttled, notifyFinished starts a throttled user on the
 * session that just finished, with no intended start time): the pool is
 * the loop's connections, so an arrival waits for
 * the first VU to free (FIFO, counted as blocked) and is timed from its
 * send (the request's start: PrepareHttpRequestStep stamps it when the
 * session runs). Poisson gaps run from the arrival, not the late send. */
static const tester_strategy open_grid_queue = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .connections = 1, .extras = 1,
    .next_send = open_next_grid_ext,
};
static const tester_strategy open_poisson_queue = {
    .kind = TESTER_OPEN, .prepare = open_prepare, .run = open_run, .one_user = 1, .connections = 1, .extras = 1,
    .next_send = open_next_poisson_ext,
};

TESTER_LOOP_FN int open_run(tester_loop *L)
{
    if (L->spec->n_stages)
        return tester_ramp_run(L);
    if (!L->ext)
        return L->arrivals       ? tester_loop_run(L, &open_poisson)
               : L->open_step_ns ? (L->out->planned <= L->max_requests ? tester_loop_run(L, &open_whole_within_max)
                                                                       : tester_loop_run(L, &open_whole))
                                 : tester_loop_run(L, &tester_open_strategy);
    if (L->spec->vus && L->spec->vus_queue)
        return L->arrivals ? tester_loop_run(L, &open_poisson_queue) : tester_loop_run(L, &open_grid_queue);
    if (L->spec->vus)
        return L->arrivals ? tester_loop_run(L, &open_poisson_pool) : tester_loop_run(L, &open_grid_pool);
    return L->arrivals ? tester_loop_run(L, &open_poisson_ext) : tester_loop_run(L, &open_ext);
}
