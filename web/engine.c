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
    int one_part; /* 1: a part alone runs (cosim_web_part): its own share */
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
        double frac = (double)rq->sent_ns / (double)w->s->duration_ns;
        web_progress(w->one_part ? (frac < 0 ? 0 : frac > 1 ? 1 : frac)
                                 : run_job_share(&w->work, w->s->n_testers, 1, 0, tester, frac));
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

/* The two time charts' windows: [scenario] chart_window, else the CLI's
 * default ones. */
static void chart_windows(const scenario *s, int64_t *tl_from, int64_t *tl_to, int64_t *b_from, int64_t *b_to)
{
    int64_t wt = s->chart_window_to > s->duration_ns ? s->duration_ns : s->chart_window_to;
    if (wt > s->chart_window_from) {
        *tl_from = *b_from = s->chart_window_from;
        *tl_to = *b_to = wt;
    } else if (timeline_default_windows(s, tl_from, tl_to, b_from, b_to)) {
        *tl_from = *b_from = 0;
        *tl_to = *b_to = s->duration_ns;
    }
}

/* The observers of the two time charts, over chart_windows. */
static int make_timelines(web_run *w, const scenario *s, int64_t *tl_from, int64_t *tl_to, int64_t *b_from,
                          int64_t *b_to)
{
    chart_windows(s, tl_from, tl_to, b_from, b_to);
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

/* The answer "{"exit": CODE, "error": MESSAGE}" into `answer`. */
static const char *error_answer(int exit_code, const char *err)
{
    free(answer);
    answer = NULL;
    size_t m;
    FILE *f = open_memstream(&answer, &m);
    if (f) {
        fprintf(f, "{\"exit\": %d, \"error\": ", exit_code);
        report_json_string(f, err);
        fputs("}\n", f);
        if (fclose(f)) {
            free(answer);
            answer = NULL;
        }
    }
    return answer;
}

/* One --set line of cosim_web_run's sets, unescaped in place: "\\n" a
 * newline, "\\r" a carriage return, "\\\\" a backslash (the page escapes
 * them, so a value holding a line break reaches the scenario's check,
 * which refuses it with the CLI's message, instead of splitting into two
 * --set lines); "\\0", a NUL, which no command line can carry (nor a C
 * string), is refused here in the words of that check. Any other
 * backslash is itself. @return 0, or -1 with err set. */
static int unescape_set(char *line, char *err, size_t errlen)
{
    char *w = line;
    for (const char *r = line; *r; r++) {
        if (*r != '\\' || (r[1] != 'n' && r[1] != 'r' && r[1] != '\\' && r[1] != '0')) {
            *w++ = *r;
            continue;
        }
        r++;
        if (*r == '0') {
            const char *eq = strchr(line, '=');
            int key_len = eq && eq < r ? (int)(eq - line) : (int)(r - 1 - line);
            snprintf(err, errlen, "--set %.*s: the value holds control character 0x00 (a newline?); a value is one line",
                     key_len, line);
            return -1;
        }
        *w++ = *r == 'n' ? '\n' : *r == 'r' ? '\r' : '\\';
    }
    *w = '\0';
    return 0;
}

/* Read the scenario at path with the --set lines of sets and check the
 * job's work as cli/job.c's job_check does (its words). The exit code
 * (err set unless COSIM_EXIT_OK); *out the scenario (scenario_free). */
static int web_load(const char *path, const char *sets, int allow_long, scenario **out, run_work *work, char *err,
                    size_t errlen)
{
    static int rng_ready;
    if (!rng_ready) {
        rng_init();
        rng_ready = 1;
    }
    *out = NULL;
    char *setbuf = strdup(sets ? sets : "");
    const char *set_list[256];
    size_t n_sets = 0;
    if (!setbuf) {
        snprintf(err, errlen, "out of memory");
        return COSIM_EXIT_SIM;
    }
    for (char *line = setbuf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (n_sets == sizeof set_list / sizeof set_list[0]) {
            snprintf(err, errlen, "more than %zu --set options", n_sets);
            free(setbuf);
            return COSIM_EXIT_USAGE;
        }
        if (unescape_set(line, err, errlen) != 0) {
            free(setbuf);
            return COSIM_EXIT_USAGE;
        }
        set_list[n_sets++] = line;
    }
    scenario *s = NULL;
    scenario_error se = scenario_load(&s, path, set_list, n_sets, err, errlen);
    free(setbuf);
    if (se != SCENARIO_OK)
        return (int)cosim_exit_of_scenario(se);
    char what[96];
    run_estimate(s, work);
    if (s->truth_interval_ns > 0)
        snprintf(what, sizeof what, "%zu tester%s and the truth x 1 replication", s->n_testers,
                 s->n_testers == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%zu tester%s x 1 replication", s->n_testers, s->n_testers == 1 ? "" : "s");
    char why[1024];
    if (run_check_budget(work->total, what, allow_long, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", s->path, why);
        scenario_free(s);
        return COSIM_EXIT_SIM;
    }
    *out = s;
    return COSIM_EXIT_OK;
}

/* The answer of a finished run r of s (w's timelines) into `answer`:
 * cosim_web_run's fields; truth_pending 1 (the testers' parts merged, the
 * truth's still running): the same, r without the truth, and a field
 * "truth_pending": true after "exit". */
static const char *run_answer(const scenario *s, web_run *w, const run_result *r, const int64_t win[4],
                              int truth_pending)
{
    free(answer);
    answer = NULL;
    char *summary, *text, *table, *spectrum, *points, *bars, *stalls;
    CAPTURE(summary, report_json(f, s, r));
    CAPTURE(text, report_text(f, s, r));
    CAPTURE(table, summary_html(f, s, r));
    CAPTURE(spectrum, plot_write_spectrum_data(f, s, r));
    CAPTURE(points, write_points(f, w->tl, s));
    CAPTURE(bars, write_bars(f, w->bars, s));
    CAPTURE(stalls, plot_write_stalls(f, s, r, 0, s->duration_ns));
    size_t n;
    FILE *f = open_memstream(&answer, &n);
    if (f) {
        fprintf(f, "{\"exit\": 0,%s\n\"work\": %.17g,\n\"duration_ns\": %lld",
                truth_pending ? "\n\"truth_pending\": true," : "", w->work.total,
                (long long)s->duration_ns);
        fprintf(f, ",\n\"timeline_window_ns\": [%lld, %lld],\n\"requests_window_ns\": [%lld, %lld]",
                (long long)win[0], (long long)win[1], (long long)win[2], (long long)win[3]);
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
    return answer;
}

/**
 * Run the scenario at path as `cosim PATH --set S1 --set S2 ...` would.
 *
 * @param path        the scenario file (in the module's file system)
 * @param sets        the --set arguments, one "SECTION.KEY=VALUE" a line,
 *                    a newline, carriage return or backslash in one
 *                    escaped as \\n, \\r, \\\\ (a NUL as \\0, refused)
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
    char err[SCENARIO_PATH_MAX + 4096];
    scenario *s = NULL;
    web_run w;
    memset(&w, 0, sizeof w);
    int exit_code = web_load(path, sets, allow_long, &s, &w.work, err, sizeof err);
    if (exit_code != COSIM_EXIT_OK)
        return error_answer(exit_code, err);
    int64_t win[4];
    run_result r;
    memset(&r, 0, sizeof r);
    const char *out = NULL;
    if (make_timelines(&w, s, &win[0], &win[1], &win[2], &win[3])) {
        out = error_answer(COSIM_EXIT_SIM, "out of memory");
    } else {
        w.s = s;
        if (run_scenario_observed(s, observe, &w, &r, err, sizeof err)) {
            out = error_answer(COSIM_EXIT_SIM, err);
        } else {
            web_progress(1.0);
            out = run_answer(s, &w, &r, win, 0);
            run_result_free(&r);
        }
    }
    timeline_free(w.tl);
    timeline_free(w.bars);
    scenario_free(s);
    return out;
}

/**
 * The parts of a run (run_scenario_part): what the page's pool of workers
 * shares out, and what each depends on.
 *
 * @param path, sets, allow_long  as cosim_web_run's
 * @return a JSON object owned by the engine until the next call: "exit",
 *         and either "error" (as cosim_web_run's: the scenario's or the
 *         work budget's refusal) or "parts": one {"name", "kind", "work"}
 *         per tester in the scenario's order (kind "tester"; work its
 *         estimated units, run_estimate), then {"name": "truth", "kind":
 *         "truth", "load": the load tester's name or null, "work"} when
 *         the scenario has a [truth]; "window_limit" (run_window_limit)
 *         and "windows" (the two time charts' windows, ns: timeline from,
 *         to, requests from, to), the figures of a part that every
 *         tester's settings move; and "work" (the job's).
 */
WEB_EXPORT const char *cosim_web_plan(const char *path, const char *sets, int allow_long);
WEB_EXPORT const char *cosim_web_plan(const char *path, const char *sets, int allow_long)
{
    char err[SCENARIO_PATH_MAX + 4096];
    scenario *s = NULL;
    run_work work;
    int exit_code = web_load(path, sets, allow_long, &s, &work, err, sizeof err);
    if (exit_code != COSIM_EXIT_OK)
        return error_answer(exit_code, err);
    free(answer);
    answer = NULL;
    size_t n;
    FILE *f = open_memstream(&answer, &n);
    if (f) {
        fputs("{\"exit\": 0, \"parts\": [", f);
        for (size_t i = 0; i < s->n_testers; i++) {
            fputs(i ? ", {\"name\": " : "{\"name\": ", f);
            report_json_string(f, s->testers[i].name);
            fprintf(f, ", \"kind\": \"tester\", \"work\": %.17g}", work.tester[i]);
        }
        if (s->truth_interval_ns > 0) {
            fputs(s->n_testers ? ", " : "", f);
            fputs("{\"name\": \"truth\", \"kind\": \"truth\", \"load\": ", f);
            if (s->truth_load >= 0)
                report_json_string(f, s->testers[s->truth_load].name);
            else
                fputs("null", f);
            fprintf(f, ", \"work\": %.17g}", work.truth);
        }
        int64_t win[4] = {0, 0, 0, 0};
        chart_windows(s, &win[0], &win[1], &win[2], &win[3]);
        fprintf(f, "], \"window_limit\": %llu, \"windows\": [%lld, %lld, %lld, %lld], \"work\": %.17g}\n",
                (unsigned long long)run_window_limit(s), (long long)win[0], (long long)win[1], (long long)win[2],
                (long long)win[3], work.total);
        if (fclose(f)) {
            free(answer);
            answer = NULL;
        }
    }
    scenario_free(s);
    return answer;
}

static char *part_bytes; /* the last part's bytes (malloc'd) */

/* The service stream's draws, kept from one part to the next, and from one
 * run to the next (server.h, server_tape): a change that leaves [service]
 * and the seed alone (a stall's length, a rate) runs its parts without
 * drawing a service time again. In the browser, the closed tester's part
 * of scenarios/stall_per_second.ini (1,000,000 requests) took 43 ms
 * drawing its lognormal service times and 17 ms with constant ones under
 * node. Never freed: it lives as long as the engine's instance. NULL when
 * there was no memory for it (every part then draws its own). */
static server_tape *tape;

/**
 * Run one part of the scenario (cosim_web_plan's parts: tester `part`, or
 * the truth after the testers), for cosim_web_merge in this or another
 * instance of the engine.
 *
 * @param path, sets, allow_long  as cosim_web_run's
 * @param part  the part's index in cosim_web_plan's "parts"
 * @return a JSON object owned by the engine until the next call: "exit"
 *         and either "error" (the CLI's message for that part: a tester's
 *         run fails as in `cosim`) or "ptr" and "len": the part's bytes
 *         in the module's memory, valid until the next call of
 *         cosim_web_part (run_part_save, then for a tester its two
 *         charts' records, timeline_save_tester).
 */
WEB_EXPORT const char *cosim_web_part(const char *path, const char *sets, int allow_long, int part);
WEB_EXPORT const char *cosim_web_part(const char *path, const char *sets, int allow_long, int part)
{
    char err[SCENARIO_PATH_MAX + 4096];
    scenario *s = NULL;
    web_run w;
    memset(&w, 0, sizeof w);
    int exit_code = web_load(path, sets, allow_long, &s, &w.work, err, sizeof err);
    if (exit_code != COSIM_EXIT_OK)
        return error_answer(exit_code, err);
    free(part_bytes);
    part_bytes = NULL;
    int64_t win[4];
    run_result r;
    memset(&r, 0, sizeof r);
    const char *out = NULL;
    w.s = s;
    w.one_part = 1;
    if (!tape && server_tape_new(&tape, 0))
        tape = NULL; /* no memory: every part draws its own */
    if (part < 0 || make_timelines(&w, s, &win[0], &win[1], &win[2], &win[3])) {
        out = error_answer(COSIM_EXIT_SIM, part < 0 ? "no such part" : "out of memory");
    } else if (run_scenario_part(s, (size_t)part, tape, observe, &w, &r, err, sizeof err)) {
        out = error_answer(COSIM_EXIT_SIM, err);
    } else {
        size_t len = 0;
        FILE *f = open_memstream(&part_bytes, &len);
        int rc = f ? run_part_save(s, &r, (size_t)part, f) : -ENOMEM;
        if (!rc && (size_t)part < s->n_testers) {
            rc = timeline_save_tester(w.tl, (size_t)part, f);
            if (!rc)
                rc = timeline_save_tester(w.bars, (size_t)part, f);
        }
        if (f && fclose(f) && !rc)
            rc = -ENOMEM;
        if (rc) {
            free(part_bytes);
            part_bytes = NULL;
            out = error_answer(COSIM_EXIT_SIM, "out of memory");
        } else {
            free(answer);
            answer = NULL;
            size_t m;
            FILE *g = open_memstream(&answer, &m);
            if (g) {
                fprintf(g, "{\"exit\": 0, \"ptr\": %lu, \"len\": %zu}\n", (unsigned long)(uintptr_t)part_bytes, len);
                if (fclose(g)) {
                    free(answer);
                    answer = NULL;
                }
            }
            out = answer;
        }
        run_result_free(&r);
    }
    timeline_free(w.tl);
    timeline_free(w.bars);
    scenario_free(s);
    return out;
}

/**
 * The answer of a run from its parts: every part's bytes (cosim_web_part's,
 * for the same path, sets and allow_long), one after another in the
 * order of cosim_web_plan's "parts". The truth's part (the last) may be
 * left out: the page then draws the testers while the truth still runs.
 *
 * @param bytes, len  the parts' bytes (len bytes at bytes, the caller's)
 * @return cosim_web_run's answer for the same arguments, byte for byte,
 *         when every part is there. Without the truth's part: the answer
 *         of the run as if the scenario had no [truth] (every tester's
 *         figures as in the whole answer; no truth row, no truth member
 *         in "summary", no "error_vs_truth", no truth block in the
 *         spectrum or the printed summary) with "truth_pending": true.
 *         {"exit": 5, "error": ...} when the bytes are not the parts of
 *         this scenario. NULL when out of memory.
 */
WEB_EXPORT const char *cosim_web_merge(const char *path, const char *sets, int allow_long, const unsigned char *bytes,
                                       size_t len);
WEB_EXPORT const char *cosim_web_merge(const char *path, const char *sets, int allow_long, const unsigned char *bytes,
                                       size_t len)
{
    char err[SCENARIO_PATH_MAX + 4096];
    scenario *s = NULL;
    web_run w;
    memset(&w, 0, sizeof w);
    int exit_code = web_load(path, sets, allow_long, &s, &w.work, err, sizeof err);
    if (exit_code != COSIM_EXIT_OK)
        return error_answer(exit_code, err);
    int64_t win[4];
    run_result r;
    memset(&r, 0, sizeof r);
    const char *out = NULL;
    int rc = make_timelines(&w, s, &win[0], &win[1], &win[2], &win[3]) ? -ENOMEM : 0;
    const unsigned char *at = bytes, *end = bytes + len;
    size_t parts = s->n_testers + (s->truth_interval_ns > 0);
    int truth_pending = 0;
    for (size_t i = 0; !rc && i < parts; i++) {
        if (i == s->n_testers && at == end) { /* the truth's part left out */
            truth_pending = 1;
            break;
        }
        rc = run_part_load(s, &r, i, &at, end);
        if (!rc && i < s->n_testers) {
            rc = timeline_load_tester(w.tl, i, &at, end);
            if (!rc)
                rc = timeline_load_tester(w.bars, i, &at, end);
        }
    }
    if (!rc && at != end)
        rc = -EINVAL;
    if (!rc && (!r.testers || r.n != s->n_testers))
        rc = -EINVAL;
    if (rc) {
        out = error_answer(COSIM_EXIT_SIM, rc == -ENOMEM ? "out of memory"
                                                         : "the run's parts do not fit the scenario (a defect "
                                                           "of the page)");
    } else {
        w.s = s;
        out = run_answer(s, &w, &r, win, truth_pending);
    }
    run_result_free(&r);
    timeline_free(w.tl);
    timeline_free(w.bars);
    scenario_free(s);
    return out;
}
