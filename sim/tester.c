/* tester.c - closed, paced, open and corrected testers on a virtual clock. */
#include "tester.h"
#include "rng.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One user's position in its schedule. Intended send times of a paced user
 * are anchor + floor(j * D_u) (units_interval_at), D_u = U D. */
typedef struct user {
    int64_t next_ns;     /* when it sends next */
    int64_t intended_ns; /* when it meant to send that request */
    int64_t anchor_ns;
    uint64_t j;
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

static const char *const kind_names[] = {"closed", "paced", "open", "corrected", "partly_open"};
#define N_KINDS 5
static const char *const late_names[] = {"from_now", "next_slot", "catch_up"};

const char *tester_kind_name(tester_kind k)
{
    return (unsigned)k < N_KINDS ? kind_names[k] : "?";
}

int tester_kind_parse(const char *name, tester_kind *out)
{
    for (unsigned i = 0; i < N_KINDS; i++)
        if (strcmp(name, kind_names[i]) == 0) {
            *out = (tester_kind)i;
            return 0;
        }
    return -EINVAL;
}

const char *tester_late_name(tester_late l)
{
    return (unsigned)l < 3 ? late_names[l] : "?";
}

int tester_late_parse(const char *name, tester_late *out)
{
    for (unsigned i = 0; i < 3; i++)
        if (strcmp(name, late_names[i]) == 0) {
            *out = (tester_late)i;
            return 0;
        }
    return -EINVAL;
}

void tester_result_free(tester_result *r)
{
    if (!r)
        return;
    hist_free(r->hist);
    r->hist = NULL;
}

/* The next send of a paced user whose request intended at u->intended_ns
 * got its reply at reply_ns. */
static void paced_next(user *u, units_interval du, tester_late late, int64_t reply_ns)
{
    uint64_t j1 = u->j + 1;
    int64_t t1 = units_interval_at(du, u->anchor_ns, j1);
    if (reply_ns <= t1) { /* on time: the next slot */
        u->j = j1;
        u->next_ns = u->intended_ns = t1;
        return;
    }
    switch (late) {
    case TESTER_LATE_FROM_NOW:
        /* send now; the grid restarts at this instant */
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        u->anchor_ns = reply_ns;
        u->j = 0;
        break;
    case TESTER_LATE_NEXT_SLOT:
        /* the first slot at or after the reply: j = #slots before it */
        u->j = units_interval_count_before(du, u->anchor_ns, reply_ns);
        u->next_ns = u->intended_ns = units_interval_at(du, u->anchor_ns, u->j);
        break;
    case TESTER_LATE_CATCH_UP:
        /* send now for the slot missed; the grid is kept */
        u->j = j1;
        u->intended_ns = t1;
        u->next_ns = reply_ns;
        break;
    }
}

/* Probes of the ground truth due before `until`: each asks the server what a
 * user arriving then would wait, without joining the queue. */
static void take_probes(tester_truth *truth, server *srv, gsl_rng *rng, const dist_spec *service,
                        int64_t until, int64_t end)
{
    if (!truth)
        return;
    for (;;) {
        int64_t t = (int64_t)truth->probes * truth->interval_ns;
        if (t >= until || t >= end)
            return;
        int64_t work = dist_draw_ns(service, rng);
        hist_record(truth->hist, server_probe(srv, t, work) - t);
        truth->probes++;
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
    if (!rc)
        rc = server_new(&srv, cfg->server);
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
        rc = rng_new(&probe_rng, gen, seed, RNG_TRUTH);
    }
    if (rc)
        goto done;

    /* Each user of a paced tester sends every D_u = U D, user u offset by
     * floor(u D), so together they keep the tester's grid floor(i D). */
    units_interval du = {1, 1};
    int64_t expected_ns = 0;
    const int timed = paced || spec->kind == TESTER_OPEN || partly_open;
    if (timed) {
        if (spec->interval.num_ns == 0 || spec->interval.den == 0) {
            rc = -EINVAL;
            goto done;
        }
        du = units_interval_scale(spec->interval, n_users);
        expected_ns = spec->expected_interval_ns > 0 ? spec->expected_interval_ns
                                                     : units_interval_floor_ns(du);
    }
    for (size_t i = 0; i < n_users; i++) {
        users[i].id = i;
        if (paced)
            users[i].anchor_ns = units_interval_at(spec->interval, 0, i);
        users[i].next_ns = users[i].intended_ns = users[i].anchor_ns;
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
        rq.reply_ns = server_submit(srv, rq.sent_ns);
        if (rq.reply_ns > end && (rc = server_failed(srv))) /* e.g. a backlog past the clock's limit */
            goto done;
        if (n_conns) {
            conns[0] = rq.reply_ns;
            times_sift_down(conns, n_conns, 0);
        }
        out->sent++;
        out->last_reply_ns = rq.reply_ns;
        rq.latency_ns = rq.reply_ns - (from_intended ? rq.intended_ns : rq.sent_ns);
        int late = rq.reply_ns > end;
        out->in_flight_at_end += late;
        rq.recorded = !(late && cfg->drop_in_flight);
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
            paced_next(u, du, spec->late, rq.reply_ns);
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
    if (rc)
        tester_result_free(out);
    return rc;
}
