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

static const char *const kind_names[] = {"closed", "paced", "open", "corrected"};
static const char *const late_names[] = {"from_now", "next_slot", "catch_up"};

const char *tester_kind_name(tester_kind k)
{
    return (unsigned)k < 4 ? kind_names[k] : "?";
}

int tester_kind_parse(const char *name, tester_kind *out)
{
    for (unsigned i = 0; i < 4; i++)
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

int tester_run(const tester_spec *spec, const tester_run_config *cfg,
               tester_observer observer, void *ctx, tester_result *out)
{
    memset(out, 0, sizeof *out);
    int paced = spec->kind == TESTER_PACED || spec->kind == TESTER_CORRECTED;
    uint64_t n_users = (spec->kind == TESTER_OPEN) ? 1 : spec->users;
    if (n_users == 0)
        return -EINVAL;

    server *srv = NULL;
    gsl_rng *arrivals = NULL, *think = NULL;
    user *users = calloc(n_users, sizeof *users);
    int rc = users ? 0 : -ENOMEM;
    if (!rc)
        rc = hist_new(&out->hist, cfg->sub_bits);
    if (!rc)
        rc = server_new(&srv, cfg->server);
    if (!rc && spec->kind == TESTER_OPEN && spec->arrivals == TESTER_ARRIVALS_POISSON)
        rc = rng_new(&arrivals, cfg->server->generator, cfg->server->seed, RNG_ARRIVALS);
    if (!rc && spec->kind == TESTER_CLOSED && spec->has_think)
        rc = rng_new(&think, cfg->server->generator, cfg->server->seed, RNG_THINK);
    if (rc)
        goto done;

    /* Each user of a paced tester sends every D_u = U D, user u offset by
     * floor(u D), so together they keep the tester's grid floor(i D). */
    units_interval du = {1, 1};
    int64_t expected_ns = 0;
    if (paced || spec->kind == TESTER_OPEN) {
        if (spec->interval.num_ns == 0 || spec->interval.den == 0) {
            rc = -EINVAL;
            goto done;
        }
        du = units_interval_scale(spec->interval, n_users);
        expected_ns = spec->expected_interval_ns > 0 ? spec->expected_interval_ns
                                                     : units_interval_floor_ns(du);
    }
    for (uint64_t i = 0; i < n_users; i++) {
        users[i].id = i;
        if (paced)
            users[i].anchor_ns = units_interval_at(spec->interval, 0, i);
        users[i].next_ns = users[i].intended_ns = users[i].anchor_ns;
    }
    if (spec->kind == TESTER_CLOSED || arrivals)
        out->planned = 0; /* counted as sent below */
    else
        out->planned = units_interval_count_before(spec->interval, 0, cfg->duration_ns);

    const int64_t end = cfg->duration_ns;
    const double mean_gap_ns = (double)spec->interval.num_ns / (double)spec->interval.den;
    uint64_t open_i = 0;
    while (users[0].next_ns < end) {
        user *u = &users[0];
        if (cfg->max_requests && out->sent >= cfg->max_requests) {
            rc = -E2BIG;
            goto done;
        }
        tester_request rq;
        rq.index = out->sent;
        rq.user = u->id;
        rq.intended_ns = u->intended_ns;
        rq.sent_ns = u->next_ns;
        rq.reply_ns = server_submit(srv, rq.sent_ns);
        out->sent++;
        out->last_reply_ns = rq.reply_ns;
        /* open measures from the intended time; closed and paced from the
         * actual send */
        rq.latency_ns = rq.reply_ns - (spec->kind == TESTER_OPEN ? rq.intended_ns : rq.sent_ns);
        int late = rq.reply_ns > end;
        out->in_flight_at_end += late;
        rq.recorded = !(late && cfg->drop_in_flight);
        if (rq.recorded) {
            if (spec->kind == TESTER_CORRECTED) {
                hist_record_corrected(out->hist, rq.latency_ns, expected_ns, spec->correction,
                                      cfg->threshold_ns, &out->over_threshold);
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
            else
                u->next_ns = units_interval_at(spec->interval, 0, ++open_i);
            u->intended_ns = u->next_ns;
            break;
        case TESTER_PACED:
        case TESTER_CORRECTED:
            paced_next(u, du, spec->late, rq.reply_ns);
            break;
        }
        heap_sift_down(users, n_users, 0);
    }
    if (spec->kind == TESTER_CLOSED || arrivals)
        out->planned = out->sent;

done:
    server_free(srv);
    rng_free(arrivals);
    rng_free(think);
    free(users);
    if (rc)
        tester_result_free(out);
    return rc;
}
