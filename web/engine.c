/* engine.c - libcosim's entry point for the browser (and node): one run
 * of a scenario with --set overrides, the whole answer as one JSON text.
 * Compiled only by web/build-wasm.sh into cosim-engine.js; it is not part
 * of libcosim (tests/nm_cli.sh keeps main and getopt out of the library)
 * and not of the CLI. It takes the same steps as `cosim FILE --set ...`
 * (cli/main.c: load, check the work estimate, simulate with the charts'
 * observers, report) so summary.json is byte for byte the CLI's. */
#include "exitcode.h"
#include "plot.h"
#include "report.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"
#include "summary.h"
#include "timeline.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
/* The page's worker hears the share of the job done (0..1). */
EM_JS(void, web_progress, (double share), {
    if (typeof Module.onProgress === 'function')
        Module.onProgress(share);
});
#define WEB_EXPORT EMSCRIPTEN_KEEPALIVE
#else
static void web_progress(double share) { (void)share; }
#define WEB_EXPORT
#endif

/* As the CLI's (cli/outputs.h): requests kept per tester for the timeline
 * before it bins them, for the request bars, and bars drawn per panel. */
#define WEB_TIMELINE_MAX_POINTS 4000
#define WEB_BARS_MAX_POINTS 20000
#define WEB_BARS_MAX_DRAW 60
/* Progress calls per run: one every 1/WEB_PROGRESS_STEPS of simulated time. */
#define WEB_PROGRESS_STEPS 64

typedef struct web_run {
    const scenario *s;
    timeline *tl, *bars;
    run_work work;
    size_t cur;
    int64_t next_ns;
} web_run;

static char *answer; /* the last answer (malloc'd) */

/* Every request the gate shows: the charts' windows and the progress, each
 * narrowing the gate to what it still needs (as cli/main.c's observe). */
static void observe(void *ctx, size_t tester, const tester_request *rq, tester_gate *gate)
{
    web_run *w = ctx;
    tester_gate_skip_all(gate);
    if (w->tl)
        timeline_observe(w->tl, tester, rq, gate);
    if (w->bars)
        timeline_observe(w->bars, tester, rq, gate);
    if (rq->index == 0) {
        w->cur = tester;
        w->next_ns = 0;
    }
    if (rq->intended_ns >= w->next_ns) {
        int64_t step = w->s->duration_ns / WEB_PROGRESS_STEPS > 0 ? w->s->duration_ns / WEB_PROGRESS_STEPS : 1;
        w->next_ns = rq->intended_ns > INT64_MAX - step ? INT64_MAX : rq->intended_ns + step;
        web_progress(run_job_share(&w->work, w->s->n_testers, 1, 0, tester,
                                   (double)rq->sent_ns / (double)w->s->duration_ns));
    }
    tester_gate_narrow(gate, INT64_MIN, w->next_ns, INT64_MAX);
}

/* A text made by a writer into a memory stream; NULL when out of memory.
 * *rc gets the writer's result. */
#define CAPTURE(text, call)                                                                        \
    do {                                                                                           \
        size_t n_;                                                                                 \
        char *b_ = NULL;                                                                           \
        FILE *f = open_memstream(&b_, &n_);                                                        \
        int r_ = f ? (call) : -ENOMEM;                                                             \
        if (f && fclose(f) && !r_)                                                                 \
            r_ = -EIO;                                                                             \
        if (r_) {                                                                                  \
            free(b_);                                                                              \
            b_ = NULL;                                                                             \
        }                                                                                          \
        (text) = b_;                                                                               \
    } while (0)

/* "key": "text", into the answer (text NULL: null). */
static void field(FILE *f, const char *key, const char *text)
{
    fprintf(f, ",\n\"%s\": ", key);
    if (text)
        report_json_string(f, text);
    else
        fputs("null", f);
}

/* The tester names, for the chart writers (block names). */
static int write_points(FILE *f, const timeline *t, const scenario *s)
{
    const char *names[SCENARIO_MAX_TESTERS];
    for (size_t i = 0; i < s->n_testers; i++)
        names[i] = s->testers[i].name;
    return timeline_write_points(t, f, names);
}

static int write_bars(FILE *f, const timeline *t, const scenario *s)
{
    const char *names[SCENARIO_MAX_TESTERS];
    for (size_t i = 0; i < s->n_testers; i++)
        names[i] = s->testers[i].name;
    return timeline_write_bars(t, f, names, WEB_BARS_MAX_DRAW);
}

/* The observers of the two time charts, over the CLI's default windows. */
static int make_timelines(web_run *w, const scenario *s, int64_t *tl_from, int64_t *tl_to, int64_t *b_from,
                          int64_t *b_to)
{
    int64_t wt = s->chart_window_to > s->duration_ns ? s->duration_ns : s->chart_window_to;
    if (wt > s->chart_window_from) {
        *tl_from = *b_from = s->chart_window_from;
        *tl_to = *b_to = wt;
    } else if (timeline_default_windows(s, tl_from, tl_to, b_from, b_to)) {
        *tl_from = *b_from = 0;
        *tl_to = *b_to = s->duration_ns;
    }
    int rc = timeline_new(&w->tl, s->n_testers, *tl_from, *tl_to, WEB_TIMELINE_MAX_POINTS);
    if (!rc)
        rc = timeline_new(&w->bars, s->n_testers, *b_from, *b_to, WEB_BARS_MAX_POINTS);
    for (size_t i = 0; !rc && i < s->n_testers; i++) {
        rc = timeline_set_tester(w->tl, i, &s->testers[i], s->duration_ns);
        if (!rc)
            rc = timeline_set_tester(w->bars, i, &s->testers[i], s->duration_ns);
    }
    return rc;
}

/**
 * Run the scenario at path as `cosim PATH --set S1 --set S2 ...` would.
 *
 * @param path        the scenario file (in the module's file system)
 * @param sets        the --set arguments, one "SECTION.KEY=VALUE" a line
 *                    (NULL or "": none)
 * @param allow_long  1: run a job over the work budget (--allow-long)
 * @return the answer, a JSON object owned by the engine until the next
 *         call: "exit" (the CLI's exit code, sim/exitcode.h), and either
 *         "error" (the CLI's message without "cosim: ") or "summary" (the
 *         text of summary.json), "text" (the CLI's printed summary),
 *         "table" (summary_html), "work" (the job's estimated units),
 *         "spectrum", "timeline", "requests" and "stalls" (the chart data
 *         files the gnuplot charts read: plot_write_spectrum_data,
 *         timeline_write_points, timeline_write_bars, plot_write_stalls),
 *         "styles" (each tester's look: plot_tester_style, the index
 *         into the charts' palette), and the time windows in ns. NULL
 *         when out of memory.
 */
WEB_EXPORT const char *cosim_web_run(const char *path, const char *sets, int allow_long);
WEB_EXPORT const char *cosim_web_run(const char *path, const char *sets, int allow_long)
{
    static int rng_ready;
    if (!rng_ready) {
        rng_init();
        rng_ready = 1;
    }
    free(answer);
    answer = NULL;
    char err[SCENARIO_PATH_MAX + 4096];
    char *setbuf = strdup(sets ? sets : "");
    const char *set_list[256];
    size_t n_sets = 0;
    int exit_code = COSIM_EXIT_OK;
    scenario *s = NULL;
    web_run w;
    memset(&w, 0, sizeof w);
    run_result r;
    memset(&r, 0, sizeof r);
    int ran = 0;
    if (!setbuf)
        return NULL;
    for (char *line = setbuf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (n_sets == sizeof set_list / sizeof set_list[0]) {
            snprintf(err, sizeof err, "more than %zu --set options", n_sets);
            exit_code = COSIM_EXIT_USAGE;
            goto done;
        }
        set_list[n_sets++] = line;
    }
    scenario_error se = scenario_load(&s, path, set_list, n_sets, err, sizeof err);
    if (se != SCENARIO_OK) {
        exit_code = (int)cosim_exit_of_scenario(se);
        goto done;
    }
    /* the job's work, as cli/job.c's job_check words it */
    char what[96];
    run_estimate(s, &w.work);
    if (s->truth_interval_ns > 0)
        snprintf(what, sizeof what, "%zu tester%s and the truth x 1 replication", s->n_testers,
                 s->n_testers == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%zu tester%s x 1 replication", s->n_testers, s->n_testers == 1 ? "" : "s");
    char why[1024];
    if (run_check_budget(w.work.total, what, allow_long, why, sizeof why)) {
        snprintf(err, sizeof err, "%s: %s", s->path, why);
        exit_code = COSIM_EXIT_SIM;
        goto done;
    }
    int64_t tl_from = 0, tl_to = 0, b_from = 0, b_to = 0;
    if (make_timelines(&w, s, &tl_from, &tl_to, &b_from, &b_to)) {
        snprintf(err, sizeof err, "out of memory");
        exit_code = COSIM_EXIT_SIM;
        goto done;
    }
    w.s = s;
    if (run_scenario_observed(s, observe, &w, &r, err, sizeof err)) {
        exit_code = COSIM_EXIT_SIM;
        goto done;
    }
    ran = 1;
    web_progress(1.0);
    char *summary, *text, *table, *spectrum, *points, *bars, *stalls;
    CAPTURE(summary, report_json(f, s, &r));
    CAPTURE(text, report_text(f, s, &r));
    CAPTURE(table, summary_html(f, s, &r));
    CAPTURE(spectrum, plot_write_spectrum_data(f, s, &r));
    CAPTURE(points, write_points(f, w.tl, s));
    CAPTURE(bars, write_bars(f, w.bars, s));
    CAPTURE(stalls, plot_write_stalls(f, s, &r, 0, s->duration_ns));
    size_t n;
    FILE *f = open_memstream(&answer, &n);
    if (f) {
        fprintf(f, "{\"exit\": 0,\n\"work\": %.17g,\n\"duration_ns\": %lld", w.work.total,
                (long long)s->duration_ns);
        fprintf(f, ",\n\"timeline_window_ns\": [%lld, %lld],\n\"requests_window_ns\": [%lld, %lld]",
                (long long)tl_from, (long long)tl_to, (long long)b_from, (long long)b_to);
        fputs(",\n\"styles\": [", f); /* each tester's look, as the gnuplot charts pick it */
        for (size_t i = 0; i < s->n_testers; i++)
            fprintf(f, "%s%d", i ? ", " : "", plot_tester_style(s, i));
        fputs("]", f);
        field(f, "summary", summary);
        field(f, "text", text);
        field(f, "table", table);
        field(f, "spectrum", spectrum);
        field(f, "timeline", points);
        field(f, "requests", bars);
        field(f, "stalls", stalls);
        fputs("\n}\n", f);
        if (fclose(f) || !summary || !text || !table || !spectrum || !points || !bars || !stalls) {
            free(answer);
            answer = NULL;
        }
    }
    free(summary);
    free(text);
    free(table);
    free(spectrum);
    free(points);
    free(bars);
    free(stalls);
done:
    if (!answer && !ran) {
        size_t m;
        FILE *f2 = open_memstream(&answer, &m);
        if (f2) {
            fprintf(f2, "{\"exit\": %d, \"error\": ", exit_code);
            report_json_string(f2, err);
            fputs("}\n", f2);
            if (fclose(f2)) {
                free(answer);
                answer = NULL;
            }
        }
    }
    if (ran)
        run_result_free(&r);
    timeline_free(w.tl);
    timeline_free(w.bars);
    scenario_free(s);
    free(setbuf);
    return answer;
}
