/* run.c - every tester of a scenario against its own fresh server. */
#include "run.h"
#include "run_hlog.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

server_config run_server_config(const scenario *s)
{
    return (server_config){.service = s->service, .stalls = s->stalls, .n_stalls = s->n_stalls,
                           .generator = s->generator, .seed = s->seed, .workers = s->workers,
                           .max_windows = run_window_limit(s)};
}

int run_stop_windows(const scenario *s, int64_t from_ns, int64_t to_ns, stall_window *out, size_t max,
                      size_t *n)
{
    *n = 0;
    server_config c = run_server_config(s);
    server *srv;
    int rc = server_new(&srv, &c);
    if (rc)
        return rc;
    stall_window w;
    int64_t t = from_ns;
    while (*n < max && server_next_window(srv, t, &w) && w.start_ns < to_ns) {
        out[(*n)++] = w;
        t = w.end_ns;
    }
    server_free(srv);
    return 0;
}

tester_run_config run_tester_config(const scenario *s, const server_config *srv)
{
    return (tester_run_config){.duration_ns = s->duration_ns, .threshold_ns = s->threshold_ns,
                               .drop_in_flight = s->drop_in_flight, .record_wait = s->record_wait,
                               .sub_bits = s->sub_bits, .max_requests = s->max_requests, .server = srv};
}

typedef struct observe_ctx {
    run_observer fn;
    void *ctx;
    size_t tester;
    run_hlog *hlog; /* NULL: no interval log */
} observe_ctx;

static void forward(void *ctx, const tester_request *rq, tester_gate *gate)
{
    observe_ctx *o = ctx;
    if (o->fn)
        o->fn(o->ctx, o->tester, rq, gate);
    if (o->hlog) { /* the interval log records every request */
        run_hlog_observe(o->hlog, o->tester, rq);
        tester_gate_narrow(gate, 0, 0, 0);
    }
}

/* A corrected tester whose added values would pass max_requests. */
static void correction_message(const scenario *s, const tester_spec *t, const tester_result *r, char *err,
                               size_t errlen)
{
    int64_t d = t->expected_interval_ns > 0 ? t->expected_interval_ns
                                            : units_interval_floor_ns(units_interval_scale(t->interval, t->users));
    char v[32], dd[32];
    snprintf(err, errlen,
             "%s: tester %s: its correction would record more than max_requests = %llu values: a reply of "
             "%s at the expected interval %s adds %llu, after %llu sent and %llu added; raise [scenario] "
             "max_requests or lengthen expected_interval",
             s->path, t->name, (unsigned long long)s->max_requests,
             units_format_duration_exact(r->refused_latency_ns, v, sizeof v),
             units_format_duration_exact(d, dd, sizeof dd), (unsigned long long)r->refused_added,
             (unsigned long long)r->sent, (unsigned long long)r->added);
}

/* A backlog past the server's clock limit. */
static void backlog_message(const char *at, char *err, size_t errlen)
{
    char lim[32];
    snprintf(err, errlen,
             "%s the server's backlog passes the time limit: a reply would come after %s (twice the "
             "longest duration), because requests arrive faster than the server serves them; lower the "
             "load (rate, users) or the service time, or shorten the run",
             at, units_format_duration_exact(SERVER_HORIZON_NS, lim, sizeof lim));
}

/* The server walked more stall windows than run_window_limit allows. */
static void window_message(const scenario *s, const char *at, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "%s the stall windows hold the work back far longer than estimated: the server walked "
             "more than %.3g windows (ten times the estimate, plus %.3g), so the stalls leave it "
             "almost no gap to work in; shorten or space them",
             at, (double)run_window_limit(s), RUN_WINDOW_SLACK);
}

static int run_all(const scenario *s, run_observer observer, void *octx, int want_hlog, run_result *out, char *err,
                   size_t errlen);

/* A streamed stall file changed since the scenario read it (-ESTALE), or
 * could not be read again (-EIO): which one, and that the run stopped. */
static void stale_message(const scenario *s, const char *at, int rc, char *err, size_t errlen)
{
    const stall_spec *st = NULL;
    for (size_t i = 0; i < s->n_stalls; i++) { /* the first that changed, else the first */
        if (!s->stalls[i].file)
            continue;
        if (!st)
            st = &s->stalls[i];
        if (stall_file_changed(s->stalls[i].file)) {
            st = &s->stalls[i];
            break;
        }
    }
    if (!st) {
        snprintf(err, errlen, "%s %s", at, strerror(-rc));
        return;
    }
    if (rc == -ESTALE)
        snprintf(err, errlen, "%s [stall %s]: %s changed after the scenario was read (its size, time of "
                              "change or windows differ): the run would not simulate the windows that were "
                              "checked; run again once the file is written",
                 at, st->name, st->file->path);
    else
        snprintf(err, errlen, "%s [stall %s]: cannot read %s again: %s", at, st->name, st->file->path,
                 strerror(-rc));
}

int run_scenario(const scenario *s, run_result *out, char *err, size_t errlen)
{
    return run_all(s, NULL, NULL, 0, out, err, errlen);
}

int run_scenario_observed(const scenario *s, run_observer observer, void *octx, run_result *out,
                          char *err, size_t errlen)
{
    return run_all(s, observer, octx, 1, out, err, errlen);
}

/* Tester i's interval log, now its run is over. 0 or a negative errno
 * (err set, out freed). */
static int hlog_done(const scenario *s, size_t i, run_result *out, char *err, size_t errlen)
{
    int rc = run_hlog_tester_done(out->hlog, i, &out->testers[i]);
    if (rc) {
        snprintf(err, errlen, "%s: [tester %s] its interval log (hlog_interval): %s", s->path, s->testers[i].name,
                 rc == -EPROTO ? "the intervals' counts differ from its histogram's (a defect of cosim)"
                               : strerror(-rc));
        run_result_free(out);
    }
    return rc;
}

/* The message of tester i's failed run (rc a negative errno; x its
 * partial result, for a correction's figures). */
static void tester_error(const scenario *s, size_t i, int rc, const tester_result *x, char *err, size_t errlen)
{
    /* "FILE:LINE: [tester NAME]": the tester's header, or the file alone
     * for a tester made by --set */
    char at[SCENARIO_PATH_MAX + 80];
    if (s->tester_line[i] > 0)
        snprintf(at, sizeof at, "%s:%d: [tester %s]", s->path, s->tester_line[i], s->testers[i].name);
    else
        snprintf(at, sizeof at, "%s: [tester %s]", s->path, s->testers[i].name);
    if (rc == -E2BIG)
        snprintf(err, errlen,
                 "%s would send more than %llu requests; shorten [scenario] "
                 "duration or raise [scenario] max_requests",
                 at, (unsigned long long)s->max_requests);
    else if (rc == -EOVERFLOW)
        correction_message(s, &s->testers[i], x, err, errlen);
    else if (rc == -ERANGE)
        snprintf(err, errlen, "%s the stalls never leave the server a gap to "
                              "work in; shorten or space them",
                 at);
    else if (rc == -ETIME)
        backlog_message(at, err, errlen);
    else if (rc == -ELOOP)
        snprintf(err, errlen, "%s a request was restarted 1,000,000 times: the stall windows "
                              "never leave a gap its work fits in (preemption = restart or "
                              "resample throws the work done away); space the stalls, or use "
                              "preemption = resume",
                 at);
    else if (rc == -ECANCELED)
        window_message(s, at, err, errlen);
    else if (rc == -ESTALE || rc == -EIO)
        stale_message(s, at, rc, err, errlen);
    else
        snprintf(err, errlen, "%s %s", at, strerror(-rc));
}

/* The ground truth: probes on a server carrying the load tester's
 * requests (or none), run again with the same seed; into out. 0 or a
 * negative errno (err set; out left to the caller to free). */
static int run_truth(const scenario *s, const tester_run_config *cfg, run_observer observer, void *octx,
                     run_result *out, char *err, size_t errlen)
{
    tester_truth truth = {.interval_ns = s->truth_interval_ns};
    tester_result load;
    int rc = hist_new(&truth.hist, s->sub_bits);
    observe_ctx o = {observer, octx, s->n_testers, NULL};
    if (!rc)
        rc = tester_run_with_truth(s->truth_load >= 0 ? &s->testers[s->truth_load] : NULL, cfg,
                                   observer ? forward : NULL, &o, &truth, &load);
    if (rc) {
        hist_free(truth.hist);
        if (rc == -ETIME || rc == -ECANCELED || rc == -ESTALE || rc == -EIO) {
            char at[SCENARIO_PATH_MAX + 32];
            snprintf(at, sizeof at, "%s: ground truth:", s->path);
            if (rc == -ETIME)
                backlog_message(at, err, errlen);
            else if (rc == -ECANCELED)
                window_message(s, at, err, errlen);
            else
                stale_message(s, at, rc, err, errlen);
        } else {
            snprintf(err, errlen, "%s: ground truth: %s", s->path, strerror(-rc));
        }
        return rc;
    }
    tester_result_free(&load);
    out->has_truth = 1;
    out->truth = truth.hist;
    out->truth_probes = truth.probes;
    return 0;
}

static int run_all(const scenario *s, run_observer observer, void *octx, int want_hlog, run_result *out, char *err,
                   size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->testers = calloc(s->n_testers, sizeof *out->testers);
    if (!out->testers || (want_hlog && s->hlog_interval_ns > 0 && run_hlog_new(&out->hlog, s))) {
        free(out->testers);
        out->testers = NULL;
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    server_config srv = run_server_config(s);
    /* one tape for the run's servers when there are two or more: the
     * testers after the first (and the truth's load) read the service
     * times the first drew (a lone server would only fill it). Without
     * memory for it, every server draws its own: the same values. */
    size_t servers = s->n_testers + (s->truth_interval_ns > 0 && s->truth_load >= 0);
    if (servers < 2 || server_tape_new(&srv.tape, 0))
        srv.tape = NULL;
    tester_run_config cfg = run_tester_config(s, &srv);
    int rc = 0;
    for (size_t i = 0; i < s->n_testers; i++) {
        observe_ctx o = {observer, octx, i, out->hlog};
        rc = tester_run(&s->testers[i], &cfg, observer || out->hlog ? forward : NULL, &o, &out->testers[i]);
        if (rc) {
            tester_error(s, i, rc, &out->testers[i], err, errlen);
            run_result_free(out);
            break;
        }
        out->n = i + 1;
        if (out->hlog && (rc = hlog_done(s, i, out, err, errlen)) != 0)
            break;
    }
    if (!rc && s->truth_interval_ns > 0 && (rc = run_truth(s, &cfg, observer, octx, out, err, errlen)) != 0)
        run_result_free(out);
    server_tape_free(srv.tape);
    return rc;
}

int run_scenario_part(const scenario *s, size_t part, server_tape *tape, run_observer observer, void *octx,
                      run_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (part > s->n_testers || (part == s->n_testers && !(s->truth_interval_ns > 0))) {
        snprintf(err, errlen, "%s: no part %zu (%zu testers%s)", s->path, part, s->n_testers,
                 s->truth_interval_ns > 0 ? " and the truth" : "");
        return -EINVAL;
    }
    out->testers = calloc(s->n_testers ? s->n_testers : 1, sizeof *out->testers);
    if (!out->testers) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    out->n = s->n_testers;
    server_config srv = run_server_config(s);
    srv.tape = tape;
    tester_run_config cfg = run_tester_config(s, &srv);
    int rc;
    if (part < s->n_testers) {
        observe_ctx o = {observer, octx, part, NULL};
        rc = tester_run(&s->testers[part], &cfg, observer ? forward : NULL, &o, &out->testers[part]);
        if (rc)
            tester_error(s, part, rc, &out->testers[part], err, errlen);
    } else {
        rc = run_truth(s, &cfg, observer, octx, out, err, errlen);
    }
    if (rc)
        run_result_free(out);
    return rc;
}

/* What opens a part's bytes: the format's name and the build's sizes. */
typedef struct part_head {
    char magic[8];
    uint64_t part, n_testers, result_size;
} part_head;

static part_head part_head_of(const scenario *s, size_t part)
{
    part_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "cosimpt", 8);
    h.part = part;
    h.n_testers = s->n_testers;
    h.result_size = sizeof(tester_result);
    return h;
}

int run_part_save(const scenario *s, const run_result *r, size_t part, FILE *f)
{
    if (part > s->n_testers || r->n != s->n_testers || (part == s->n_testers && !r->has_truth))
        return -EINVAL;
    part_head h = part_head_of(s, part);
    fwrite(&h, sizeof h, 1, f);
    if (part < s->n_testers)
        return tester_result_save(&r->testers[part], f);
    fwrite(&r->truth_probes, sizeof r->truth_probes, 1, f);
    hist_save(r->truth, f);
    return ferror(f) ? -EIO : 0;
}

int run_part_load(const scenario *s, run_result *r, size_t part, const unsigned char **at,
                  const unsigned char *end)
{
    part_head want = part_head_of(s, part), got;
    if (part > s->n_testers || (size_t)(end - *at) < sizeof got)
        return -EINVAL;
    memcpy(&got, *at, sizeof got);
    if (memcmp(&got, &want, sizeof got) != 0)
        return -EINVAL;
    *at += sizeof got;
    if (!r->testers) {
        if (!(r->testers = calloc(s->n_testers ? s->n_testers : 1, sizeof *r->testers)))
            return -ENOMEM;
        r->n = s->n_testers;
    }
    if (r->n != s->n_testers)
        return -EINVAL;
    if (part < s->n_testers) {
        if (r->testers[part].hist)
            return -EINVAL; /* given twice */
        tester_result x;
        int rc = tester_result_load(&x, at, end);
        if (rc || !x.hist) {
            tester_result_free(&x);
            return rc ? rc : -EINVAL;
        }
        r->testers[part] = x;
        return 0;
    }
    if (r->has_truth || (size_t)(end - *at) < sizeof r->truth_probes)
        return -EINVAL;
    memcpy(&r->truth_probes, *at, sizeof r->truth_probes);
    *at += sizeof r->truth_probes;
    int rc = hist_load(&r->truth, at, end);
    if (rc)
        return rc;
    r->has_truth = 1;
    return 0;
}

void run_result_free(run_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        tester_result_free(&r->testers[i]);
    free(r->testers);
    hist_free(r->truth);
    run_hlog_free(r->hlog);
    memset(r, 0, sizeof *r);
}

double run_tester_requests(const scenario *s, const tester_spec *t)
{
    return tester_expected_requests(t, &s->service, s->workers, s->duration_ns);
}

double run_stall_windows(const scenario *s, const tester_spec *t)
{
    double service = dist_mean_drawn_ns(&s->service);
    double users = t && !tester_kind_has(t->kind, TESTER_KIND_OPEN_LIKE) ? (double)t->users : 1;
    /* the drain: the requests in flight at the end, or the work brought
     * beyond the duration (an overloaded open tester's backlog) */
    double drain = users * service;
    if (t) {
        double backlog = run_tester_requests(s, t) * service - (double)s->duration_ns;
        if (backlog > drain)
            drain = backlog;
    }
    double span = (double)s->duration_ns + drain;
    if (span > (double)SERVER_HORIZON_NS)
        span = (double)SERVER_HORIZON_NS;
    double windows = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (stall_kind_has(st->kind, STALL_KIND_GRID) && st->period_ns > 0)
            windows += span > (double)st->first_ns ? ((span - (double)st->first_ns) / (double)st->period_ns + 1) : 0;
        else if (stall_kind_has(st->kind, STALL_KIND_DRAWN) && st->mean_gap_ns > 0)
            windows += span / (double)st->mean_gap_ns;
        else if (stall_kind_has(st->kind, STALL_KIND_LISTED))
            windows += (double)st->n_windows;
    }
    return windows;
}

uint64_t run_window_limit(const scenario *s)
{
    double most = run_stall_windows(s, NULL);
    for (size_t i = 0; i < s->n_testers; i++) {
        double w = run_stall_windows(s, &s->testers[i]);
        if (w > most)
            most = w;
    }
    double limit = 10 * most + RUN_WINDOW_SLACK;
    return limit < 1.8e19 ? (uint64_t)limit : UINT64_MAX;
}

/* wrk's exit-time backfill (backfill = average_interval, tester_loop.c):
 * D = duration / floor(requests / U) as wrk computes it from the run; the
 * histogram's buckets from 2D up are scanned once (B of them), and each
 * value above 2D is backfilled as one series a sample, at most B buckets
 * each; one user's latencies add up to about the duration, so its added
 * values to duration / D: min(requests B, U (duration / D + B)) + B. */
static double backfill_work(const scenario *s, const tester_spec *t, double requests)
{
    double users = tester_kind_has(t->kind, TESTER_KIND_OPEN_LIKE) ? 1 : (double)t->users;
    double per_user = floor(requests / users);
    if (per_user < 1)
        return 0; /* wrk backfills nothing without a reply per connection */
    double d = floor((double)s->duration_ns / per_user);
    if (d < 1)
        d = 1;
    double two_d = 2 * d < (double)INT64_MAX ? 2 * d : (double)INT64_MAX;
    double buckets = (double)(hist_counter_count(s->sub_bits) - hist_index_of((uint64_t)two_d, s->sub_bits));
    double per_request = requests * buckets;
    double added = users * ((double)s->duration_ns / d + buckets);
    return (per_request < added ? per_request : added) + buckets;
}

double run_tester_work(const scenario *s, const tester_spec *t)
{
    double requests = run_tester_requests(s, t) + run_stall_windows(s, t);
    if (t->backfill)
        requests += backfill_work(s, t, run_tester_requests(s, t));
    if (!tester_kind_has(t->kind, TESTER_KIND_CORRECTS))
        return requests;
    int64_t d = t->expected_interval_ns > 0 ? t->expected_interval_ns
                                            : units_interval_floor_ns(units_interval_scale(t->interval, t->users));
    if (d < 1)
        d = 1;
    double buckets = (double)(hist_counter_count(s->sub_bits) - hist_index_of((uint64_t)d, s->sub_bits));
    double per_request = requests * buckets;
    double per_user = (double)t->users * ((double)s->duration_ns / (double)d + buckets);
    return requests + (per_request < per_user ? per_request : per_user);
}

void run_estimate(const scenario *s, run_work *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < s->n_testers && i < SCENARIO_MAX_TESTERS; i++) {
        out->tester[i] = run_tester_work(s, &s->testers[i]);
        out->total += out->tester[i];
    }
    if (s->truth_interval_ns > 0) {
        /* probes at j interval for every j interval < duration */
        out->truth = ceil((double)s->duration_ns / (double)s->truth_interval_ns);
        if (s->truth_load >= 0)
            out->truth += run_tester_work(s, &s->testers[s->truth_load]);
        else
            out->truth += run_stall_windows(s, NULL);
        out->total += out->truth;
    }
}

int run_check_budget(double work, const char *what, int allow_long, char *err, size_t errlen)
{
    if (allow_long || !(work > RUN_WORK_BUDGET))
        return 0;
    snprintf(err, errlen,
             "the job would take about %.3g units of work (%s), more than the budget of %.3g (a unit is "
             "a simulated request, a truth probe, a stall window walked or a histogram bucket of a "
             "correction); shorten it, or "
             "give --allow-long to run it anyway",
             work, what, RUN_WORK_BUDGET);
    return -EFBIG;
}

int run_check_seeds(uint64_t seed, uint64_t reps, char *err, size_t errlen)
{
    uint64_t last;
    if (reps < 2 || !__builtin_add_overflow(seed, reps - 1, &last))
        return 0;
    snprintf(err, errlen,
             "--replications %llu with the seed %llu: the seeds %llu + 0 .. %llu would pass 2^64 - 1 = "
             "%llu; lower the seed or the replications",
             (unsigned long long)reps, (unsigned long long)seed, (unsigned long long)seed,
             (unsigned long long)(reps - 1), (unsigned long long)UINT64_MAX);
    return -EOVERFLOW;
}

double run_job_share(const run_work *w, size_t n_testers, unsigned reps, unsigned rep, size_t tester,
                     double frac)
{
    double total = (double)reps * w->total;
    if (!(total > 0))
        return 0;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    double done = (double)rep * w->total;
    for (size_t i = 0; i < tester && i < n_testers && i < SCENARIO_MAX_TESTERS; i++)
        done += w->tester[i];
    done += frac * (tester < n_testers ? w->tester[tester] : w->truth);
    return done < total ? done / total : 1;
}

char *run_format_time_left(double elapsed_s, double share, char *buf, size_t len)
{
    if (!(share > 0)) {
        snprintf(buf, len, "unknown");
        return buf;
    }
    double sec = elapsed_s * (1 - share) / share;
    if (sec < 100)
        snprintf(buf, len, "%.0f s", sec);
    else if (sec < 6000)
        snprintf(buf, len, "%.0f min", sec / 60);
    else if (sec < 48 * 3600)
        snprintf(buf, len, "%.1f h", sec / 3600);
    else
        snprintf(buf, len, "%.1f days", sec / 86400);
    return buf;
}
