/* job.c - the steps of one scenario's job that a plain run (main.c) and
 * `cosim lecture` (lecture.c) share: check the job's size, choose the
 * charts and their windows, simulate with the charts' observers and the
 * progress line on a terminal. */
#define _POSIX_C_SOURCE 200809L
#include "job.h"
#include "band.h"
#include "exitcode.h"
#include "plot.h"
#include "run.h"
#include "run_reps.h"
#include "timeline.h"

#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Progress on a terminal, for jobs over a second: the share of the whole
 * job done (every tester, the truth and every replication, weighted by the
 * estimate run_estimate made before the start) and the time left at the
 * pace so far. A new tester run is seen at its request 0 (every run's gate
 * starts empty): the runs come in order (testers, then the truth's load,
 * then the next replication), so a tester index that does not grow starts
 * the next replication. The clock is read once every 1/4096 of the run's
 * simulated time (the gate skips the requests between), so it costs
 * nothing noticeable; without a terminal it is not called at all. */
static void progress(chart_data *c, size_t tester, const tester_request *rq, tester_gate *gate)
{
    const scenario *s = c->s;
    if (rq->index == 0) {
        if (c->any && tester <= c->cur && c->rep + 1 < c->reps)
            c->rep++;
        c->cur = tester;
        c->any = 1;
        c->next_check_ns = 0;
    }
    if (rq->intended_ns < c->next_check_ns) {
        tester_gate_narrow(gate, INT64_MIN, c->next_check_ns, INT64_MAX);
        return;
    }
    int64_t step = s->duration_ns / 4096 > 0 ? s->duration_ns / 4096 : 1;
    c->next_check_ns = rq->intended_ns > INT64_MAX - step ? INT64_MAX : rq->intended_ns + step;
    tester_gate_narrow(gate, INT64_MIN, c->next_check_ns, INT64_MAX);
    double t = now_s();
    if (t - c->started < 1 || t - c->last_print < 0.5)
        return;
    double share = run_job_share(&c->work, s->n_testers, c->reps, c->rep, tester,
                                 (double)rq->sent_ns / (double)s->duration_ns);
    if (!(share > 0))
        return;
    char rep[48] = "", left[32];
    if (c->reps > 1)
        snprintf(rep, sizeof rep, "replication %u/%u, ", c->rep + 1, c->reps);
    char who[64]; /* "tester " and two 20-digit counts */
    if (tester < s->n_testers)
        snprintf(who, sizeof who, "tester %zu/%zu", tester + 1, s->n_testers);
    else
        snprintf(who, sizeof who, "ground truth");
    int n = fprintf(stderr, "\rcosim: %3.0f%% of the job (%s%s), about %s left   ", share * 100, rep, who,
                    run_format_time_left(t - c->started, share, left, sizeof left));
    c->last_print = t;
    if (n > c->printed)
        c->printed = n;
}

/* The run's observer: each chart's data and the progress line, each
 * narrowing the gate to what it no longer needs (tester_gate), so the run
 * calls here O(points drawn) times, not once per request. */
static void observe(void *ctx, size_t tester, const tester_request *rq, tester_gate *gate)
{
    chart_data *c = ctx;
    tester_gate_skip_all(gate);
    if (c->timeline)
        timeline_observe(c->timeline, tester, rq, gate);
    if (c->bars)
        timeline_observe(c->bars, tester, rq, gate);
    if (c->tty)
        progress(c, tester, rq, gate);
}

/* The seeds and the whole job's work, before anything starts: every
 * tester, the truth, every replication. The exit code. */
int job_check(const options *o, const scenario *s, chart_data *cd)
{
    char err[1024];
    if (run_check_seeds(s->seed, o->replications, err, sizeof err)) {
        fprintf(stderr, "cosim: %s\n", err);
        return COSIM_EXIT_USAGE;
    }
    run_estimate(s, &cd->work);
    cd->reps = o->replications > 1 ? o->replications : 1;
    char what[96];
    if (s->truth_interval_ns > 0)
        snprintf(what, sizeof what, "%zu tester%s and the truth x %u replication%s", s->n_testers,
                 s->n_testers == 1 ? "" : "s", cd->reps, cd->reps == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%zu tester%s x %u replication%s", s->n_testers, s->n_testers == 1 ? "" : "s",
                 cd->reps, cd->reps == 1 ? "" : "s");
    if (run_check_budget(cd->work.total * cd->reps, what, o->allow_long, err, sizeof err)) {
        fprintf(stderr, "cosim: %s: %s\n", s->path, err);
        return COSIM_EXIT_SIM;
    }
    return COSIM_EXIT_OK;
}

/* The charts asked for and their style scripts, and the time charts'
 * windows: --window, else the scenario's chart_window, else around one
 * stall (timeline_default_windows). */
void job_choose_charts(const options *o, const scenario *s, chart_data *cd)
{
    unsigned want = options_charts_wanted(o);
    for (size_t k = 0; k < N_CHARTS; k++) {
        if (!(want & (1u << k)))
            continue;
        char file[64];
        snprintf(file, sizeof file, "%s.gp", chart_kinds[k].name);
        if (plot_find_style(o->plots_dir, file, cd->style_buf[k], sizeof cd->style_buf[k]))
            fprintf(stderr, "cosim: warning: no chart style %s in %s; no %s chart (give --plots-dir DIR)\n",
                    file, o->plots_dir ? o->plots_dir : "plots/ or the installed data folder", chart_kinds[k].name);
        else
            cd->style[k] = cd->style_buf[k];
    }
    int64_t wf = o->win_to ? o->win_from : s->chart_window_from;
    int64_t wt = o->win_to ? o->win_to : s->chart_window_to;
    if (wt > s->duration_ns)
        wt = s->duration_ns;
    if (wt > wf) {
        cd->tl_from = cd->bars_from = wf;
        cd->tl_to = cd->bars_to = wt;
    } else if (timeline_default_windows(s, &cd->tl_from, &cd->tl_to, &cd->bars_from, &cd->bars_to)) {
        cd->tl_from = cd->bars_from = 0;
        cd->tl_to = cd->bars_to = s->duration_ns;
    }
    /* --animate animates the request bars: with them left out it has
     * nothing to draw, which is said, not passed over in silence */
    if (o->animate && !cd->style[CHART_REQUESTS])
        fprintf(stderr, "cosim: warning: --animate draws the request bars, which this run does not draw "
                        "(--charts): no requests.gif; add requests to --charts\n");
    if (o->animate && cd->style[CHART_REQUESTS]) {
        if (plot_find_style(o->plots_dir, "animate.gp", cd->anim_buf, sizeof cd->anim_buf))
            fprintf(stderr, "cosim: warning: no chart style animate.gp in %s; no requests.gif\n",
                    o->plots_dir ? o->plots_dir : "plots/ or the installed data folder");
        else
            cd->anim_style = cd->anim_buf;
    }
}

/* Simulate: the base seed with the observers the drawn charts' windows
 * need, then the other replications (timelines and charts are the base
 * seed's). 0, or -1 after a message (exit COSIM_EXIT_SIM). */
int job_simulate(const options *o, const scenario *s, chart_data *cd, run_result *r)
{
    char err[1024];
    int rc = 0, want_timeline = 0, want_bars = 0;
    for (size_t k = 0; k < N_CHARTS; k++) {
        want_timeline |= cd->style[k] && chart_kinds[k].window == CHART_TIMELINE_WINDOW;
        want_bars |= cd->style[k] && chart_kinds[k].window == CHART_BARS_WINDOW;
    }
    if (want_timeline)
        rc = timeline_new(&cd->timeline, s->n_testers, cd->tl_from, cd->tl_to, TIMELINE_MAX_POINTS);
    if (!rc && want_bars)
        rc = timeline_new(&cd->bars, s->n_testers, cd->bars_from, cd->bars_to, BARS_MAX_POINTS);
    for (size_t i = 0; !rc && i < s->n_testers; i++) {
        if (cd->timeline)
            rc = timeline_set_tester(cd->timeline, i, &s->testers[i], s->duration_ns);
        if (!rc && cd->bars)
            rc = timeline_set_tester(cd->bars, i, &s->testers[i], s->duration_ns);
    }
    if (!rc && cd->timeline)
        timeline_set_by_reply(cd->timeline, o->timeline_by_reply);
    if (rc) {
        fprintf(stderr, "cosim: out of memory\n");
        return -1;
    }
    cd->tty = isatty(2) && !o->quiet;
    cd->s = s;
    cd->started = now_s();
    rc = run_scenario_observed(s, cd->timeline || cd->bars || cd->tty ? observe : NULL, cd, r, err, sizeof err);
    if (cd->printed && (rc || o->replications <= 1))
        fprintf(stderr, "\r%*s\r", cd->printed, "");
    if (rc) {
        fprintf(stderr, "cosim: %s\n", err);
        return -1;
    }
    timeline *tl = cd->timeline, *bars = cd->bars;
    cd->timeline = cd->bars = NULL;
    run_reps *reps = NULL;
    rc = o->replications > 1
             ? run_reps_run(&reps, s, r, o->replications, cd->tty ? observe : NULL, cd, err, sizeof err)
             : 0;
    if (!rc && reps && (rc = band_new(&cd->band, reps)) != 0)
        snprintf(err, sizeof err, "out of memory");
    run_reps_free(reps);
    cd->timeline = tl;
    cd->bars = bars;
    if (cd->printed && o->replications > 1)
        fprintf(stderr, "\r%*s\r", cd->printed, "");
    if (rc) {
        fprintf(stderr, "cosim: %s\n", err);
        run_result_free(r);
        return -1;
    }
    return 0;
}
