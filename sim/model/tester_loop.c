/* tester_loop.c - a tester's run: the kinds' table, the start and end
 * shared by every kind, and the helpers the loop (tester_loop.h) calls off
 * its hot path. */
#include "tester_loop.h"
#include "rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The tester kinds' strategies, indexed by kind: one per row of
 * tester_kinds.def (a new kind is its file and its row, docs/hacking.md). */
static const tester_strategy *const strategies[TESTER_N_KINDS] = {
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) [TESTER_##ENUM] = &tester_##NAME##_strategy,
#include "tester_kinds.def"
#undef TESTER_KIND
};

static const tester_strategy *strategy_of(tester_kind kind)
{
    return (unsigned)kind < TESTER_N_KINDS ? strategies[kind] : NULL;
}

int tester_loop_alloc_users(tester_loop *L, size_t n)
{
    if (n == 0 && !L->idle)
        return -EINVAL;
    L->cap_users = n ? n : 1;
    L->users = calloc(L->cap_users, sizeof *L->users);
    L->n_users = n;
    return L->users ? 0 : -ENOMEM;
}

void tester_loop_init_users(tester_loop *L, int grid)
{
    for (size_t i = 0; i < L->n_users; i++) {
        L->users[i].id = i;
        L->users[i].idx = i;
        if (grid)
            L->users[i].next_ns = units_interval_at(L->spec->interval, 0, i);
        L->users[i].intended_ns = L->users[i].next_ns;
    }
}

int tester_loop_need_interval(tester_loop *L)
{
    units_interval d = L->spec->interval;
    if (d.num_ns == 0 || d.den == 0)
        return -EINVAL;
    L->mean_gap_ns = (double)d.num_ns / (double)d.den;
    return 0;
}

/* vegeta's pacer (lib/attack.go Attack: the loop tests elapsed > du, then
 * lib/pacer.go ConstantPacer.Pace waits until (hits + 1) x interval): hit
 * k is intended at t_{k+1} and sent when the pacer's test, made as the
 * previous hit went out at t_k, finds t_k before the duration. */
int tester_loop_first_send(tester_loop *L)
{
    if (L->spec->first_send != TESTER_FIRST_SEND_INTERVAL)
        return 0;
    units_interval d = L->spec->interval;
    uint64_t m = units_interval_count_before(d, 0, L->end_ns);
    int64_t last = units_interval_at(d, 0, m + 1);
    if (m == UINT64_MAX || last < L->end_ns) /* saturated: past the clock */
        return -ERANGE;
    L->send_end_ns = last;
    for (size_t i = 0; i < L->n_users; i++) {
        tester_user *u = &L->users[i];
        u->idx++;
        u->next_ns = u->intended_ns = units_interval_at(d, u->anchor_ns, u->idx);
    }
    L->open_i = 1; /* open: the grid's index of its one user's slot */
    return 0;
}

/* Probes of the ground truth due before `until` (and before the end): each
 * asks the server what a user arriving then would wait, without joining the
 * queue, and draws the next probe instant an exponential gap later. The
 * probes form a Poisson process of mean gap truth->interval_ns on their own
 * stream (RNG_TRUTH), independent of the server's path: given their number
 * n, they are n independent uniform instants of [0, end) (the order
 * statistics property), so by PASTA each probe's latency is an independent
 * draw from the time average of the virtual latency, and no schedule of the
 * load can alias with them (a grid of probes could: issue 11). */
void tester_loop_probes(tester_loop *L, int64_t until)
{
    tester_truth *truth = L->truth;
    if (!truth)
        return;
    const dist_spec *service = &L->cfg->server->service;
    const double mean_gap = (double)truth->interval_ns;
    while (truth->next_ns < until && truth->next_ns < L->end_ns) {
        int64_t t = truth->next_ns;
        int64_t work = dist_draw_ns(service, L->probe_rng);
        hist_record(truth->hist, server_probe(L->srv, t, work) - t);
        truth->probes++;
        /* gaps are rounded to whole ns; the clock cannot pass the end by
         * more than one gap, far below INT64_MAX */
        truth->next_ns = t + (int64_t)llround(gsl_ran_exponential(L->probe_rng, mean_gap));
    }
}

int tester_loop_drop_arrival(tester_loop *L, int64_t t_ns)
{
    tester_result *out = L->out;
    out->dropped_arrivals++;
    uint64_t sec = (uint64_t)(t_ns / 1000000000);
    if (out->drops_per_s && sec < out->n_drop_seconds)
        out->drops_per_s[sec]++;
    /* k6 (lib/executor/constant_arrival_rate.go, Run): after the drop, one
     * unplanned VU is started in the background if the pool may grow and the
     * one goroutine that starts them is free; it serves later arrivals */
    if (L->n_conns < L->cap_conns && L->vu_ready_ns <= t_ns) {
        L->vu_ready_ns = t_ns + L->spec->vu_init_ns;
        size_t i = L->n_conns++;
        L->conns[i] = L->vu_ready_ns;
        while (i > 0 && L->conns[(i - 1) / 2] > L->conns[i]) { /* sift up */
            int64_t t = L->conns[i];
            L->conns[i] = L->conns[(i - 1) / 2];
            L->conns[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
        if (L->n_conns > out->max_vus_used)
            out->max_vus_used = L->n_conns;
    }
    return 2;
}

int tester_loop_keep_dropped(tester_loop *L, int64_t latency_ns)
{
    int rc;
    if (!L->dropped && (rc = hist_new(&L->dropped, L->cfg->sub_bits)) != 0)
        return rc;
    hist_record(L->dropped, latency_ns);
    return 0;
}

void tester_loop_hist_record(hist *h, int64_t value_ns)
{
    hist_record(h, value_ns);
}

uint64_t tester_loop_hist_corrected(hist *h, int64_t value_ns, int64_t interval_ns, hist_correction rule,
                                    int64_t over_ns, uint64_t *over)
{
    return hist_record_corrected(h, value_ns, interval_ns, rule, over_ns, over);
}

/* What every kind needs before its own start: the histogram, a fresh
 * server, the think stream and the truth's stream and first probe. */
static int open_common(tester_loop *L)
{
    const tester_run_config *cfg = L->cfg;
    int rc = hist_new(&L->out->hist, cfg->sub_bits);
    if (!rc && cfg->record_wait) /* queue waits, only when asked: a record a request */
        rc = hist_new(&L->out->wait, cfg->sub_bits);
    if (!rc)
        rc = server_new(&L->srv, cfg->server);
    if (!rc)
        server_set_run_end(L->srv, cfg->duration_ns);
    const char *gen = cfg->server->generator;
    uint64_t seed = cfg->server->seed;
    if (!rc && L->spec->has_think)
        rc = rng_new(&L->think, gen, seed, RNG_THINK);
    if (!rc && L->truth) {
        L->truth->probes = 0;
        if (L->truth->interval_ns <= 0)
            rc = -EINVAL;
        else
            rc = rng_new(&L->probe_rng, gen, seed, RNG_TRUTH);
        if (!rc) /* the first probe, an exponential gap after 0 */
            L->truth->next_ns =
                (int64_t)llround(gsl_ran_exponential(L->probe_rng, (double)L->truth->interval_ns));
    }
    return rc;
}

/* wrk's exit-time backfill (wrk 4.2.0, src/wrk.c main and src/stats.c
 * stats_correct): with complete the replies of the run and U its users
 * (wrk's connections), D = duration / floor(complete / U), in integers;
 * every recorded value v gets v - D, v - 2D, ... while the value is > D
 * (the book's rule), the added values not corrected again. The histogram
 * keeps buckets, not values: each bucket's count is backfilled from its
 * largest value (capped at the max recorded), as HdrHistogram's iterators
 * report a bucket; values below 2^S are exact. */
/* How many of a, a + d, ..., a + (k - 1) d lie above thr_ns. */
static uint64_t series_over(int64_t a, int64_t d, uint64_t k, int64_t thr_ns)
{
    if (thr_ns < a)
        return k;
    uint64_t at_most = (uint64_t)((thr_ns - a) / d) + 1;
    return at_most >= k ? 0 : k - at_most;
}

static int backfill_average_interval(tester_loop *L)
{
    tester_result *out = L->out;
    hist *h = out->hist;
    uint64_t complete = out->sent - out->in_flight_at_end, per_user = complete / L->n_users;
    if (per_user == 0)
        return 0;
    int64_t d = L->end_ns / (int64_t)per_user;
    out->backfill_interval_ns = d;
    unsigned sb = hist_sub_bits(h);
    size_t n = hist_counter_count(sb);
    int64_t max = hist_max(h);
    /* values above 2D only, from the smallest up: what is added lies below
     * the bucket read, so it is never read again */
    for (size_t i = hist_index_of((uint64_t)(2 * d < d ? INT64_MAX : 2 * d), sb); i < n; i++) {
        uint64_t c = hist_count_at_index(h, i), lo, hi;
        if (!c)
            continue;
        hist_bucket_range(i, sb, &lo, &hi);
        int64_t v = hi > (uint64_t)max ? max : (int64_t)hi;
        uint64_t k = hist_correction_count(v, d, HIST_CORRECT_BOOK);
        if (!k)
            continue;
        if (k > (L->max_requests - out->sent - out->added) / c)
            return -EOVERFLOW;
        for (uint64_t j = 0; j < c; j++) {
            int rc = hist_record_series(h, v - (int64_t)k * d, d, k);
            if (rc)
                return rc;
        }
        out->over_threshold += c * series_over(v - (int64_t)k * d, d, k, L->cfg->threshold_ns);
        out->added += c * k;
    }
    return 0;
}

/* The counts that need the whole run: planned, busy time, the backlog's
 * growth and overload. */
static int close_run(tester_loop *L)
{
    tester_result *out = L->out;
    const tester_spec *spec = L->spec;
    tester_loop_probes(L, L->end_ns);
    if (!L->plans)
        out->planned = out->sent;
    if (spec->requests && out->planned > spec->requests)
        out->planned = spec->requests; /* requests = N bounds the schedule too */
    out->busy_ns = server_busy_ns(L->srv);
    out->busy_in_run_ns = server_busy_in_run_ns(L->srv);
    if (tester_latency_includes_backlog(spec)) {
        /* the queue never drained in the second half, and grew over it */
        out->backlog_growing = out->latency_mid_ns >= 0 && out->last_clear_ns < L->mid_ns &&
                               out->latency_last_ns > out->latency_mid_ns;
        out->offered_full = tester_offered_at_least_one(spec, &L->cfg->server->service, L->cfg->server->workers);
        out->overloaded = out->backlog_growing || out->offered_full;
    }
    out->dropped = L->dropped;
    L->dropped = NULL;
    return spec->backfill ? backfill_average_interval(L) : 0;
}

/* Make L->users a min-heap on (next_ns, id), whatever order prepare left
 * them in (Floyd's build-heap, O(users)). A kind's prepare may start its
 * users at instants that do not grow with their id (stagger with threads:
 * 0, S, 2S, 0, S, 2S; a pipelined quota: 0, I, 0, I): the loop pops the
 * root as the earliest due user, so an unordered array would send a user
 * after a later one, back in time (issue 30). A valid heap is left as it
 * is, so a kind whose users start in order sends exactly as before. */
static void heapify_users(tester_loop *L)
{
    for (size_t i = L->n_users / 2; i-- > 0;)
        tester_heap_sift_down(L->users, L->n_users, i);
}

/* Whether the spec uses a primitive that the plain rows do not test. */
static int uses_primitives(const tester_spec *t)
{
    return t->n_stages || t->has_stagger || t->quota || t->requests || t->warmup_ns || t->timeout_ns || t->client_ns ||
           t->catch_up_factor || t->vus || t->batch > 1 ||
           t->late == TESTER_LATE_TICKER || t->step_started ||
           (tester_kind_has(t->kind, TESTER_KIND_ON_GRID) && t->has_think);
}

int tester_run(const tester_spec *spec, const tester_run_config *cfg,
               tester_observer observer, void *ctx, tester_result *out)
{
    return tester_run_with_truth(spec, cfg, observer, ctx, NULL, out);
}

int tester_run_with_truth(const tester_spec *spec, const tester_run_config *cfg,
                          tester_observer observer, void *ctx, tester_truth *truth,
                          tester_result *out)
{
    memset(out, 0, sizeof *out);
    static const tester_spec idle = {.kind = TESTER_CLOSED, .users = 0};
    if (!spec)
        spec = &idle; /* truth alone: no user ever sends */
    const tester_strategy *k = strategy_of(spec->kind);
    if (!k)
        return -EINVAL;
    tester_loop L = {.spec = spec, .cfg = cfg, .out = out, .observer = observer, .ctx = ctx, .truth = truth,
                     .end_ns = cfg->duration_ns, .send_end_ns = cfg->duration_ns, .mid_ns = cfg->duration_ns / 2,
                     .max_requests = cfg->max_requests ? cfg->max_requests : UINT64_MAX, .next_id = 1,
                     .idle = spec == &idle, .ext = uses_primitives(spec)};
    int rc = open_common(&L);
    /* probes and the queue-wait record are tested only by the ext rows, so
     * the plain rows (a default run) test neither per request */
    L.ext |= truth != NULL || out->wait != NULL;
    if (!rc)
        rc = k->prepare(&L);
    if (!rc)
        heapify_users(&L);
    if (!rc && k->connections && spec->connections && spec->connections < L.n_users) {
        L.n_conns = (size_t)spec->connections;
        if (!(L.conns = calloc(L.n_conns, sizeof *L.conns)))
            rc = -ENOMEM;
    }
    if (!rc) {
        out->latency_mid_ns = -1;
        out->last_clear_ns = -1;
        rc = k->run(&L);
    }
    if (!rc)
        rc = close_run(&L);
    if (!rc)
        rc = server_failed(L.srv);
    server_free(L.srv);
    rng_free(L.arrivals);
    rng_free(L.think);
    rng_free(L.sessions);
    rng_free(L.probe_rng);
    free(L.users);
    free(L.conns);
    free(L.catch_up);
    free(L.pipe);
    tester_ramp_free(L.ramp);
    hist_free(L.dropped);
    if (rc)
        tester_result_free(out);
    return rc;
}

int tester_loop_stall_span(tester_result *out, const tester_request *rq)
{
    out->stall_spans_total++;
    if (out->n_stall_spans >= TESTER_MAX_STALL_SPANS)
        return 0;
    if (!out->stall_spans && !(out->stall_spans = malloc(TESTER_MAX_STALL_SPANS * sizeof *out->stall_spans)))
        return -ENOMEM;
    out->stall_spans[out->n_stall_spans++] = (tester_stall_span){rq->start_ns, rq->reply_ns, rq->index};
    return 0;
}
