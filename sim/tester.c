/* tester.c - closed, paced, open and corrected testers on a virtual clock. */
#include "tester.h"
#include "rng.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One user's position in its schedule. A paced user's current slot is
 * anchor + floor(idx D), D the tester's interval (slot_at); its next slots
 * are idx + U, idx + 2U, ... (U users). User u starts with anchor 0 and
 * idx u, so it owns exactly the tester's grid instants t_u, t_{u+U}, ...
 * (t_i = floor(i D), dealt round-robin); a from_now restart at r makes the
 * anchor r and idx 0 (r + floor(j U D)). */
typedef struct user {
    int64_t next_ns;     /* when it sends next */
    int64_t intended_ns; /* when it meant to send that request */
    int64_t anchor_ns;
    uint64_t idx;        /* index of its current slot on the anchor's grid */
    uint64_t id;
} user;

/* Min-heap on (next_ns, id): ties go to the lower user id, so a run is the
 * same on every machine. */
static int user_before(const user *a, const user *b)
{
    return a->next_ns < b->next_ns || (a->next_ns == b->next_ns && a->id < b->id);
}

static void heap_sift_down(user *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && user_before(&h[l], &h[m]))
            m = l;
        if (r < n && user_before(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        user t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void heap_sift_up(user *h, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!user_before(&h[i], &h[parent]))
            return;
        user t = h[i];
        h[i] = h[parent];
        h[parent] = t;
        i = parent;
    }
}

/* Remove the root of a heap of *n users. */
static void heap_pop(user *h, size_t *n)
{
    h[0] = h[--*n];
    heap_sift_down(h, *n, 0);
}

/* A min-heap of instants (connection free times). */
static void times_sift_down(int64_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l] < h[m])
            m = l;
        if (r < n && h[r] < h[m])
            m = r;
        if (m == i)
            return;
        int64_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The name tables of the tester's enums, indexed by value. */
static const char *const kind_names[] = {
    [TESTER_CLOSED] = "closed", [TESTER_PACED] = "paced", [TESTER_OPEN] = "open",
    [TESTER_CORRECTED] = "corrected", [TESTER_PARTLY_OPEN] = "partly_open",
};
static const char *const late_names[] = {
    [TESTER_LATE_FROM_NOW] = "from_now", [TESTER_LATE_NEXT_SLOT] = "next_slot",
    [TESTER_LATE_CATCH_UP] = "catch_up",
};
static const char *const arrivals_names[] = {
    [TESTER_ARRIVALS_FIXED] = "fixed", [TESTER_ARRIVALS_POISSON] = "poisson",
};
static const char *const latency_from_names[] = {
    [TESTER_FROM_ACTUAL] = "actual", [TESTER_FROM_INTENDED] = "intended",
};
static const char *const in_flight_names[] = {
    [TESTER_IN_FLIGHT_RECORD] = "record", [TESTER_IN_FLIGHT_DROP] = "drop",
};
const names_table tester_kind_names = {kind_names, ARRAY_SIZE(kind_names)};
const names_table tester_late_names = {late_names, ARRAY_SIZE(late_names)};
const names_table tester_arrivals_names = {arrivals_names, ARRAY_SIZE(arrivals_names)};
const names_table tester_latency_from_names = {latency_from_names, ARRAY_SIZE(latency_from_names)};
const names_table tester_in_flight_names = {in_flight_names, ARRAY_SIZE(in_flight_names)};
static const char *const queue_wait_names[] = {"off", "record"};
const names_table tester_queue_wait_names = {queue_wait_names, ARRAY_SIZE(queue_wait_names)};

const char *tester_kind_name(tester_kind k)
{
    return names_get(tester_kind_names, (int)k);
}

int tester_kind_parse(const char *name, tester_kind *out)
{
    int i = names_find(tester_kind_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (tester_kind)i;
    return 0;
}

const char *tester_late_name(tester_late l)
{
    return names_get(tester_late_names, (int)l);
}

int tester_late_parse(const char *name, tester_late *out)
{
    int i = names_find(tester_late_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (tester_late)i;
    return 0;
}

double tester_offered_utilisation(const tester_spec *t, const dist_spec *service)
{
    if (t->kind == TESTER_CLOSED || t->interval.num_ns == 0 || t->interval.den == 0)
        return -1;
    /* rate = den / num per ns; a partly-open session sends 1 / (1 - p) */
    double per_arrival = t->kind == TESTER_PARTLY_OPEN ? 1 / (1 - t->p_continue) : 1;
    return dist_mean_ns(service) * per_arrival * (double)t->interval.den / (double)t->interval.num_ns;
}

int tester_latency_includes_backlog(const tester_spec *t)
{
    return t->kind == TESTER_OPEN || t->kind == TESTER_PARTLY_OPEN ||
           (t->kind == TESTER_PACED && t->latency_from_intended && t->late == TESTER_LATE_CATCH_UP);
}

void tester_result_free(tester_result *r)
{
    if (!r)
        return;
    hist_free(r->hist);
    r->hist = NULL;
    hist_free(r->dropped);
    r->dropped = NULL;
    hist_free(r->wait);
    r->wait = NULL;
}

/* Slot index i of the grid anchored at anchor: anchor + floor(i D), exact
 * (units_interval_at); INT64_MAX past the clock's range. */
static int64_t slot_at(units_interval d, int64_t anchor_ns, uint64_t i)
{
    return units_interval_at(d, anchor_ns, i);
}

/* i + U, saturated (a saturated index lies past any end). */
static uint64_t next_index(uint64_t i, uint64_t n_users)
{
    return i > UINT64_MAX - n_users ? UINT64_MAX : i + n_users;
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
static void paced_next(user *u, units_interval d, uint64_t n_users, tester_late late, int64_t reply_ns)
{
    uint64_t i1 = next_index(u->idx, n_users);
    int64_t t1 = slot_at(d, u->anchor_ns, i1);
    if (reply_ns <= t1) { /* on time: the next slot */
        u->idx = i1;
        u->next_ns = u->intended_ns = t1;
        return;
    }
    switch (late) {
    case TESTER_LATE_FROM_NOW:
        /* send now, for the slot it was due at; the schedule restarts here */
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        u->anchor_ns = reply_ns;
        u->idx = 0;
        break;
    case TESTER_LATE_NEXT_SLOT: {
        /* the first grid index at or after the reply, rounded up to the
         * user's own indices idx + k U */
        uint64_t i = units_interval_count_before(d, u->anchor_ns, reply_ns);
        if (i > i1) {
            uint64_t k = (i - u->idx - 1) / n_users + 1; /* ceil((i - idx) / U) */
            u->idx = k > (UINT64_MAX - u->idx) / n_users ? UINT64_MAX : u->idx + k * n_users;
        } else {
            u->idx = i1;
        }
        u->next_ns = u->intended_ns = slot_at(d, u->anchor_ns, u->idx);
        break;
    }
    case TESTER_LATE_CATCH_UP:
        /* send now for the slot missed; the grid is kept */
        u->idx = i1;
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        break;
    }
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
static void take_probes(tester_truth *truth, server *srv, gsl_rng *rng, const dist_spec *service,
                        int64_t until, int64_t end)
{
    if (!truth)
        return;
    const double mean_gap = (double)truth->interval_ns;
    while (truth->next_ns < until && truth->next_ns < end) {
        int64_t t = truth->next_ns;
        int64_t work = dist_draw_ns(service, rng);
        hist_record(truth->hist, server_probe(srv, t, work) - t);
        truth->probes++;
        /* gaps are rounded to whole ns; the clock cannot pass the end by
         * more than one gap, far below INT64_MAX */
        truth->next_ns = t + (int64_t)llround(gsl_ran_exponential(rng, mean_gap));
    }
}

/* Most sessions a partly-open tester may have at once. */
#define MAX_SESSIONS 1000000

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
    const int paced = spec->kind == TESTER_PACED || spec->kind == TESTER_CORRECTED;
    const int partly_open = spec->kind == TESTER_PARTLY_OPEN;
    /* users: one schedule for open; a session source (id 0) for partly-open */
    size_t n_users = (spec->kind == TESTER_OPEN || partly_open) ? 1 : (size_t)spec->users;
    if (n_users == 0 && spec != &idle)
        return -EINVAL;
    if (spec->kind == TESTER_CORRECTED && spec->late == TESTER_LATE_CATCH_UP)
        return -EINVAL; /* it would count each gap twice (MODEL.md) */
    size_t cap_users = n_users ? n_users : 1;

    server *srv = NULL;
    gsl_rng *arrivals = NULL, *think = NULL, *sessions = NULL, *probe_rng = NULL;
    user *users = calloc(cap_users, sizeof *users);
    int64_t *conns = NULL;
    size_t n_conns = spec->connections && spec->connections < n_users ? (size_t)spec->connections : 0;
    int rc = users ? 0 : -ENOMEM;
    if (!rc && n_conns && !(conns = calloc(n_conns, sizeof *conns)))
        rc = -ENOMEM;
    if (!rc)
        rc = hist_new(&out->hist, cfg->sub_bits);
    if (!rc && cfg->record_wait)
        rc = hist_new(&out->wait, cfg->sub_bits);
    if (!rc)
        rc = server_new(&srv, cfg->server);
    if (!rc)
        server_set_run_end(srv, cfg->duration_ns);
    const char *gen = cfg->server->generator;
    uint64_t seed = cfg->server->seed;
    if (!rc && ((spec->kind == TESTER_OPEN && spec->arrivals == TESTER_ARRIVALS_POISSON) || partly_open))
        rc = rng_new(&arrivals, gen, seed, RNG_ARRIVALS);
    if (!rc && spec->has_think)
        rc = rng_new(&think, gen, seed, RNG_THINK);
    if (!rc && partly_open)
        rc = rng_new(&sessions, gen, seed, RNG_SESSIONS);
    if (!rc && truth) {
        truth->probes = 0;
        if (truth->interval_ns <= 0)
            rc = -EINVAL;
        else
            rc = rng_new(&probe_rng, gen, seed, RNG_TRUTH);
        if (!rc) /* the first probe, an exponential gap after 0 */
            truth->next_ns = (int64_t)llround(gsl_ran_exponential(probe_rng, (double)truth->interval_ns));
    }
    if (rc)
        goto done;

    /* User u of a paced tester owns the tester's grid instants
     * t_{u + j U} = floor((u + j U) D) (slot_at), so together the users
     * send on exactly the grid that `planned` counts. */
    int64_t expected_ns = 0;
    const int timed = paced || spec->kind == TESTER_OPEN || partly_open;
    if (timed) {
        if (spec->interval.num_ns == 0 || spec->interval.den == 0) {
            rc = -EINVAL;
            goto done;
        }
        /* the correction's D: each user's own interval, floor(U D) */
        expected_ns = spec->expected_interval_ns > 0
                          ? spec->expected_interval_ns
                          : units_interval_at(spec->interval, 0, (uint64_t)n_users);
    }
    for (size_t i = 0; i < n_users; i++) {
        users[i].id = i;
        users[i].idx = i;
        if (paced)
            users[i].next_ns = slot_at(spec->interval, 0, i);
        users[i].intended_ns = users[i].next_ns;
    }
    const double mean_gap_ns = timed ? (double)spec->interval.num_ns / (double)spec->interval.den : 0;
    if (partly_open) /* the first session arrives after an exponential gap too */
        users[0].next_ns = (int64_t)llround(gsl_ran_exponential(arrivals, mean_gap_ns));
    const int plans = paced || (spec->kind == TESTER_OPEN && !arrivals);
    if (plans)
        out->planned = units_interval_count_before(spec->interval, 0, cfg->duration_ns);

    const int64_t end = cfg->duration_ns;
    uint64_t open_i = 0, next_id = 1;
    /* open measures from the intended time, and paced when asked to; the
     * others from the actual send */
    const int from_intended = spec->kind == TESTER_OPEN || (paced && spec->latency_from_intended);
    const uint64_t max_requests = cfg->max_requests ? cfg->max_requests : UINT64_MAX;
    const int64_t mid_ns = end / 2;
    hist *dropped = NULL; /* latencies of the replies dropped at the end */
    out->latency_mid_ns = -1;
    out->last_clear_ns = -1;
    while (n_users > 0 && users[0].next_ns < end) {
        user *u = &users[0];
        if (partly_open && u->id == 0) {
            /* the session source: a new session sends at once */
            if (n_users - 1 >= MAX_SESSIONS) {
                rc = -E2BIG;
                goto done;
            }
            if (n_users == cap_users) {
                size_t cap = 2 * cap_users;
                user *nu = realloc(users, cap * sizeof *nu);
                if (!nu) {
                    rc = -ENOMEM;
                    goto done;
                }
                users = nu;
                u = &users[0];
                cap_users = cap;
            }
            user s = {.next_ns = u->next_ns, .intended_ns = u->next_ns, .id = next_id++};
            u->next_ns += (int64_t)llround(gsl_ran_exponential(arrivals, mean_gap_ns));
            heap_sift_down(users, n_users, 0);
            users[n_users++] = s;
            heap_sift_up(users, n_users - 1);
            if (n_users - 1 > out->max_sessions)
                out->max_sessions = n_users - 1;
            continue;
        }
        if (out->sent + out->added >= max_requests) { /* the correction's values count too */
            rc = -E2BIG;
            goto done;
        }
        tester_request rq;
        rq.index = out->sent;
        rq.user = u->id;
        rq.intended_ns = u->intended_ns;
        rq.sent_ns = u->next_ns;
        if (n_conns && conns[0] > rq.sent_ns) { /* every connection is busy: wait */
            if (conns[0] >= end)
                break; /* none frees before the end: nobody sends again */
            out->blocked++;
            out->blocked_ns += conns[0] - rq.sent_ns;
            rq.sent_ns = conns[0];
        }
        if (truth)
            take_probes(truth, srv, probe_rng, &cfg->server->service, rq.sent_ns, end);
        /* no backlog: sent on schedule to an idle server (or one in a
         * window with nothing queued) */
        if (rq.sent_ns == rq.intended_ns && server_free_at(srv) <= rq.sent_ns)
            out->last_clear_ns = rq.intended_ns;
        rq.reply_ns = server_submit(srv, rq.sent_ns);
        rq.start_ns = server_last_start_ns(srv);
        if (rq.reply_ns > end && (rc = server_failed(srv))) /* e.g. a backlog past the clock's limit */
            goto done;
        if (n_conns) {
            conns[0] = rq.reply_ns;
            times_sift_down(conns, n_conns, 0);
        }
        out->sent++;
        out->last_reply_ns = rq.reply_ns;
        rq.latency_ns = rq.reply_ns - (from_intended ? rq.intended_ns : rq.sent_ns);
        if (out->latency_mid_ns < 0 && rq.intended_ns >= mid_ns)
            out->latency_mid_ns = rq.latency_ns;
        out->latency_last_ns = rq.latency_ns;
        int late = rq.reply_ns > end;
        out->in_flight_at_end += late;
        rq.recorded = !(late && cfg->drop_in_flight);
        if (out->wait && rq.recorded)
            hist_record(out->wait, rq.start_ns - rq.sent_ns);
        if (rq.recorded) {
            if (spec->kind == TESTER_CORRECTED) {
                /* the added values count against max_requests with the
                 * requests sent (sent + added <= max_requests holds here) */
                uint64_t added = hist_correction_count(rq.latency_ns, expected_ns, spec->correction);
                if (added > max_requests - out->sent - out->added ||
                    !hist_record_corrected(out->hist, rq.latency_ns, expected_ns, spec->correction,
                                           cfg->threshold_ns, &out->over_threshold)) {
                    out->refused_latency_ns = rq.latency_ns;
                    out->refused_added = added;
                    rc = -EOVERFLOW;
                    goto done;
                }
                out->added += added;
            } else {
                hist_record(out->hist, rq.latency_ns);
                out->over_threshold += rq.latency_ns > cfg->threshold_ns;
            }
        } else { /* dropped: its latency kept aside, so the report can say
                  * what the drop hides (the measured value; no backfill) */
            if (!dropped && (rc = hist_new(&dropped, cfg->sub_bits)) != 0)
                goto done;
            hist_record(dropped, rq.latency_ns);
        }
        if (observer)
            observer(ctx, &rq);

        switch (spec->kind) {
        case TESTER_CLOSED:
            u->next_ns = rq.reply_ns + (think ? dist_draw_ns(&spec->think, think) : 0);
            u->intended_ns = u->next_ns;
            break;
        case TESTER_OPEN:
            if (arrivals) /* Poisson: exponential gaps of mean D */
                u->next_ns = rq.sent_ns + (int64_t)llround(gsl_ran_exponential(arrivals, mean_gap_ns));
            else if (spec->interval.den == 1) /* whole-ns grid: i D, added up */
                u->next_ns += (int64_t)spec->interval.num_ns;
            else
                u->next_ns = units_interval_at(spec->interval, 0, ++open_i);
            u->intended_ns = u->next_ns;
            break;
        case TESTER_PACED:
        case TESTER_CORRECTED:
            paced_next(u, spec->interval, n_users, spec->late, rq.reply_ns);
            break;
        case TESTER_PARTLY_OPEN:
            if (gsl_rng_uniform(sessions) < spec->p_continue) {
                u->next_ns = rq.reply_ns + (think ? dist_draw_ns(&spec->think, think) : 0);
                u->intended_ns = u->next_ns;
            } else {
                heap_pop(users, &n_users); /* the session leaves */
                continue;
            }
            break;
        }
        if (n_users > 1)
            heap_sift_down(users, n_users, 0);
    }
    take_probes(truth, srv, probe_rng, &cfg->server->service, end, end);
    if (!plans)
        out->planned = out->sent;
    out->busy_ns = server_busy_ns(srv);
    out->busy_in_run_ns = server_busy_in_run_ns(srv);
    if (tester_latency_includes_backlog(spec)) {
        /* the queue never drained in the second half, and grew over it */
        out->backlog_growing = out->latency_mid_ns >= 0 && out->last_clear_ns < mid_ns &&
                               out->latency_last_ns > out->latency_mid_ns;
        out->overloaded = out->backlog_growing ||
                          tester_offered_utilisation(spec, &cfg->server->service) /
                                  (double)(cfg->server->workers ? cfg->server->workers : 1) >=
                              1;
    }
    out->dropped = dropped;
    dropped = NULL;
    if (!rc)
        rc = server_failed(srv);

done:
    server_free(srv);
    rng_free(arrivals);
    rng_free(think);
    rng_free(sessions);
    rng_free(probe_rng);
    free(users);
    free(conns);
    hist_free(dropped);
    if (rc)
        tester_result_free(out);
    return rc;
}
