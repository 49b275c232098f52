/* main.c - the cosim command line: a thin layer over libcosim. main picks
 * the command; run does one scenario's job (load, check, simulate, report,
 * write) with the options (options.c) and the output folder (outputs.c);
 * progress on a terminal. Exit codes from exitcode.h. */
#define _POSIX_C_SOURCE 200809L
#include "band.h"
#include "exitcode.h"
#include "job.h"
#include "lecture.h"
#include "expect.h"
#include "options.h"
#include "outdir.h"
#include "outputs.h"
#include "plot.h"
#include "report.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"
#include "sweep_cli.h"
#include "target.h"
#include "compare.h"
#include "timeline.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef COSIM_VERSION
#define COSIM_VERSION "0.1.0"
#endif

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
int check_job(const options *o, const scenario *s, chart_data *cd)
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
void choose_charts(const options *o, const scenario *s, chart_data *cd)
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
int simulate(const options *o, const scenario *s, chart_data *cd, run_result *r)
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

/* Load, simulate, report, write: the whole job for parsed options. The
 * exit code. */
static int run(const options *o)
{
    int exit_code;
    scenario *s = options_load_scenario(o, &exit_code);
    if (!s)
        return exit_code;
    chart_data cd;
    memset(&cd, 0, sizeof cd);
    if ((exit_code = check_job(o, s, &cd)) != COSIM_EXIT_OK) {
        scenario_free(s);
        return exit_code;
    }
    choose_charts(o, s, &cd);
    /* the output folder is taken before the run, so a refusal costs nothing */
    outdir *d = NULL;
    char dir[PATH_MAX];
    int writes = !o->check || o->output; /* --check alone writes no folder */
    if (writes && outputs_open(o, s, &d, dir, sizeof dir) != COSIM_EXIT_OK) {
        scenario_free(s);
        return COSIM_EXIT_OUTPUT;
    }
    run_result r;
    if (simulate(o, s, &cd, &r)) {
        outdir_close(d);
        timeline_free(cd.timeline);
        timeline_free(cd.bars);
        scenario_free(s);
        return COSIM_EXIT_SIM;
    }
    if (!o->quiet && (report_text(stdout, s, &r) || (cd.band && band_report(cd.band, stdout, s)))) {
        fprintf(stderr, "cosim: cannot write the summary to standard output\n");
        exit_code = COSIM_EXIT_OUTPUT;
    }
    if (o->check) {
        if (!o->quiet)
            putchar('\n');
        size_t misses = expect_check(stdout, stderr, s, &r);
        fflush(stdout);
        if (misses && exit_code == COSIM_EXIT_OK)
            exit_code = COSIM_EXIT_CHECK;
    }
    if (writes)
        exit_code = outputs_write_run(o, s, &r, &cd, d, dir, exit_code);
    band_free(cd.band);
    timeline_free(cd.timeline);
    timeline_free(cd.bars);
    run_result_free(&r);
    scenario_free(s);
    return exit_code;
}

/* The exit code once standard output is flushed: a table, a help text or
 * a 'wrote' line that could not be written (a full disk, a closed stdout)
 * is a failure (exit 4), never a silent success. */
static int flush_stdout(int exit_code)
{
    errno = 0;
    int bad = fflush(stdout) != 0, e = errno;
    if ((bad || ferror(stdout)) && exit_code == COSIM_EXIT_OK) {
        if (bad && e)
            fprintf(stderr, "cosim: cannot write to standard output: %s\n", strerror(e));
        else
            fprintf(stderr, "cosim: cannot write to standard output\n");
        return COSIM_EXIT_OUTPUT;
    }
    return exit_code;
}

/* The commands, for "did you mean". */
static const char *const commands[] = {"sweep", "lecture"};

/* The Levenshtein distance of a and b (insert, delete, replace a byte),
 * capped at 9: strings longer than 16 bytes count as far. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), row[17];
    if (na > 16 || nb > 16)
        return 9;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb] > 9 ? 9 : row[nb];
}

/* A first word that is no option, no file and no shipped scenario, but
 * one or two edits from a command ("swep"): say which was meant rather
 * than read it as a scenario. COSIM_EXIT_USAGE after the message, or
 * COSIM_EXIT_OK when the word is not such a slip. */
static int misspelt_command(const char *word)
{
    char found[SCENARIO_PATH_MAX + 1];
    if (word[0] == '-' || strchr(word, '/') || strchr(word, '.') ||
        options_scenario_path(word, found, sizeof found) != word || access(word, F_OK) == 0)
        return COSIM_EXIT_OK;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t d = edit_distance(word, commands[i]);
        if (d > 0 && d <= 2) {
            fprintf(stderr, "cosim: %s: no such command, file or shipped scenario; did you mean 'cosim %s'? "
                            "(try 'cosim --help')\n", word, commands[i]);
            return COSIM_EXIT_USAGE;
        }
    }
    return COSIM_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc > 1 && misspelt_command(argv[1]) != COSIM_EXIT_OK)
        return COSIM_EXIT_USAGE;
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return flush_stdout(sweep_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "lecture") == 0)
        return flush_stdout(lecture_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "target") == 0)
        return flush_stdout(target_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "compare") == 0)
        return flush_stdout(compare_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "baseline") == 0)
        return flush_stdout(baseline_main(argc - 1, argv + 1));
    options o;
    memset(&o, 0, sizeof o);
    rng_init();
    int exit_code = COSIM_EXIT_OK;
    if (options_parse(argc, argv, &o)) {
        fprintf(stderr, "cosim: try 'cosim --help'\n");
        exit_code = COSIM_EXIT_USAGE;
    } else if (o.help) {
        options_usage(stdout);
    } else if (o.version) {
        printf("cosim %s\n", COSIM_VERSION);
    } else if (o.list_keys) {
        exit_code = scenario_list_keys(stdout) ? COSIM_EXIT_OUTPUT : COSIM_EXIT_OK;
    } else {
        exit_code = run(&o);
    }
    options_free(&o);
    return flush_stdout(exit_code);
}
