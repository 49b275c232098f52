/* main.c - the cosim command line: a thin layer over libcosim (options,
 * the output folder, progress, printing); exit codes from exitcode.h. */
#define _POSIX_C_SOURCE 200809L
#include "band.h"
#include "exitcode.h"
#include "expect.h"
#include "outdir.h"
#include "plot.h"
#include "report.h"
#include "rng.h"
#include "run.h"
#include "run_hlog.h"
#include "scenario.h"
#include "sweep_cli.h"
#include "timeline.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef COSIM_VERSION
#define COSIM_VERSION "0.1.0"
#endif


static void usage(FILE *f)
{
    fprintf(f,
            "Usage: cosim [OPTIONS] SCENARIO.ini\n"
            "       cosim sweep [OPTIONS] SCENARIO.ini --vary KEY=FROM..TO:STEPS (see cosim sweep --help)\n"
            "\n"
            "Simulate load testers (closed, paced, open, corrected) against a FIFO server\n"
            "with stalls, on a virtual clock, and show what each tester reports: the\n"
            "coordinated omission of the closed and paced loops next to the open loop.\n"
            "\n"
            "Options:\n"
            "  -o, --output DIR       write the outputs into DIR (default: out/NAME, NAME\n"
            "                         being the scenario file's name without .ini, or its\n"
            "                         [scenario] name); see \"Output folder\" below\n"
            "      --force            also take a folder that holds files cosim did not\n"
            "                         write (they are kept, never replaced), or a default\n"
            "                         folder holding another scenario's outputs\n"
            "      --set SEC.KEY=VAL  override a scenario key, e.g. --set scenario.rank_rule=\n"
            "                         nearest_rank or --set tester.open.rate=2000/s\n"
            "                         (repeatable; a '.' in SEC stands for its space)\n"
            "      --seed N           the GSL seed (same as --set scenario.seed=N)\n"
            "      --rank-rule RULE   nearest_rank, rounded_rank or sorted_index\n"
            "                         (same as --set scenario.rank_rule=RULE)\n"
            "      --format FMT       chart format: png (default), svg or pdf\n"
            "      --no-plot          write the charts' .gp and .dat but do not run gnuplot\n"
            "      --plot-timeout S   stop gnuplot after S seconds on one chart (default 60)\n"
            "      --charts LIST      which charts: spectrum,timeline,requests,summary\n"
            "                         (default all; none for none)\n"
            "      --window A..B      the time window of the timeline and request-bar\n"
            "                         charts, e.g. 0.9s..1.6s (default: the scenario's\n"
            "                         chart_window, else the whole run and the first stall)\n"
            "      --latency-axis AX  log (default) or linear latency axis\n"
            "      --replications N   also run seeds SEED+1 .. SEED+N-1: print each tester's\n"
            "                         p50/p99/p99.9 mean and 95%% confidence interval and\n"
            "                         draw the spectrum with that band (outputs other than\n"
            "                         the band are the base seed's)\n"
            "      --plots-dir DIR    take the chart styles (spectrum.gp) from DIR\n"
            "      --allow-long       run a job over the work budget (10^10 units: simulated\n"
            "                         requests, truth probes, correction buckets; all\n"
            "                         testers and replications together)\n"
            "      --check            compare the run with the scenario's [expect NAME]\n"
            "                         sections, print expected / got / verdict, exit 1 on\n"
            "                         any miss; writes no output folder unless -o is given\n"
            "  -q, --quiet            do not print the summary\n"
            "  -h, --help             show this help and exit\n"
            "  -V, --version          show the version and exit\n"
            "      --list-keys        list every scenario key (section, kinds, key, type,\n"
            "                         default, example, meaning) and exit\n"
            "\n"
            "Outputs in DIR: summary.json, one TESTER.hgrm percentile spectrum per tester\n"
            "(HdrHistogram's layout, values in microseconds), and for each chart its .dat,\n"
            ".gp and picture: spectrum (latency by percentile), timeline (latency of each\n"
            "request against its intended send time), requests (bars from intended send\n"
            "to reply around a stall) and summary (p50/p99/p99.9 bars).\n"
            "\n"
            "Output folder: a run writes all its files (charts checked complete) in a\n"
            "staging folder, then puts them in place at once; a failure or an interrupt\n"
            "leaves DIR as it was. DIR/.cosim-manifest lists the files cosim wrote: only\n"
            "those are ever replaced or removed. A non-empty DIR without one is refused\n"
            "(unless --force); / and the home folder always are; a second run into a DIR\n"
            "being written is refused with the first one's pid.\n"
            "\n"
            "Exit status:\n"
            "  0  success\n"
            "  1  an expectation was not met, or there was none to check (--check)\n"
            "  2  bad command line (also: --seed plus --replications past 2^64 - 1)\n"
            "  3  the scenario cannot be read or is wrong (the message names FILE:LINE),\n"
            "     or cannot run within its own limits, known before the run: a tester\n"
            "     expected to send more than max_requests, stalls that leave no gap\n"
            "  4  an output could not be written or the folder was refused (folder, disk,\n"
            "     gnuplot failure or timeout, incomplete chart)\n"
            "  5  the simulation could not run (max_requests passed during the run, the\n"
            "     work budget without --allow-long, a backlog past the time limit, stalls\n"
            "     holding the work back past the limits, memory)\n"
            "  130, 143, 129  interrupted by SIGINT, SIGTERM, SIGHUP (killed by the signal,\n"
            "     after removing the staging folder; DIR is left as it was)\n"
            "\n"
            "Each option is given once (--set once per key). Numbers are digits with at\n"
            "most one '.' (no sign, exponent, hex, inf, nan); limits: docs/scenario-format.md.\n"
            "\n"
            "Example: cosim scenarios/stall_per_second.ini\n"
            "Scenario format: docs/scenario-format.md; manual: man cosim\n");
}

typedef struct options {
    const char *scenario;
    const char *output;
    const char **sets;
    size_t n_sets;
    plot_format format;
    int no_plot;
    int check;
    const char *plots_dir;
    unsigned charts;       /* bit k: chart_kinds[k] */
    int charts_set;        /* --charts was given */
    int ylinear;           /* --latency-axis linear */
    unsigned replications; /* --replications N (0, 1: one seed) */
    const char *window;    /* --window A..B, checked against the run once loaded */
    int64_t win_from, win_to; /* --window; to 0: none */
    int quiet;
    int force;             /* --force */
    unsigned plot_timeout_s; /* --plot-timeout; 0: the default */
    int allow_long;        /* --allow-long: no work budget */
    int help, version;     /* -h, -V: print and exit 0 */
    int list_keys;         /* --list-keys: print and exit 0 */
    char *owned[2];        /* the --set text of --seed and --rank-rule */
} options;

/* The charts, one row each (docs/hacking.md, "To add a chart"); --charts
 * names them, plots/NAME.gp styles them. */
typedef enum chart_window { CHART_WHOLE_RUN, CHART_TIMELINE_WINDOW, CHART_BARS_WINDOW } chart_window;
struct chart_data;
typedef struct chart_kind {
    const char *name;
    chart_window window;  /* the x range: the run, or one of the time windows */
    int linear;           /* 1: a linear latency axis whatever --latency-axis says */
    int spectrum_blocks;  /* 1: the spectrum's block order and slots, and the band */
    /* the chart's NAME.dat from the run's results; 0 or a negative errno */
    int (*write)(FILE *f, const scenario *s, const run_result *r, const struct chart_data *cd,
                 const char *const *names);
} chart_kind;

static int write_spectrum(FILE *f, const scenario *s, const run_result *r, const struct chart_data *cd,
                          const char *const *names);
static int write_timeline(FILE *f, const scenario *s, const run_result *r, const struct chart_data *cd,
                          const char *const *names);
static int write_requests(FILE *f, const scenario *s, const run_result *r, const struct chart_data *cd,
                          const char *const *names);
static int write_summary(FILE *f, const scenario *s, const run_result *r, const struct chart_data *cd,
                         const char *const *names);

static const chart_kind chart_kinds[] = {
    {"spectrum", CHART_WHOLE_RUN, 0, 1, write_spectrum},
    {"timeline", CHART_TIMELINE_WINDOW, 1, 0, write_timeline}, /* a queue's triangle reads on a linear axis */
    {"requests", CHART_BARS_WINDOW, 0, 0, write_requests},
    {"summary", CHART_WHOLE_RUN, 0, 0, write_summary},
};
#define N_CHARTS (sizeof chart_kinds / sizeof chart_kinds[0])

/* Longest -o or --plots-dir path: the files written there get names of
 * their own, and a path is never cut. */
#define MAX_DIR_PATH 3800

static int add_set(options *o, const char *s)
{
    const char **n = realloc(o->sets, (o->n_sets + 1) * sizeof *n);
    if (!n)
        return -1;
    o->sets = n;
    o->sets[o->n_sets++] = s;
    return 0;
}

static void options_free(options *o)
{
    free(o->sets);
    free(o->owned[0]);
    free(o->owned[1]);
    memset(o, 0, sizeof *o);
}

/* The command line into o (owned strings freed by options_free). Every
 * option may be given once, except --set (each key once, checked by the
 * scenario reader). 0, or -1 after a message on stderr (exit 2). */
static int parse_args(int argc, char **argv, options *o)
{
    enum { OPT_SET = 256, OPT_SEED, OPT_RANK, OPT_FORMAT, OPT_NOPLOT, OPT_PLOTS, OPT_CHECK,
           OPT_CHARTS, OPT_WINDOW, OPT_AXIS, OPT_REPS, OPT_FORCE, OPT_PLOT_TIMEOUT, OPT_LONG, OPT_LIST_KEYS, OPT_END };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"set", required_argument, NULL, OPT_SET},
        {"seed", required_argument, NULL, OPT_SEED},
        {"rank-rule", required_argument, NULL, OPT_RANK},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"no-plot", no_argument, NULL, OPT_NOPLOT},
        {"plots-dir", required_argument, NULL, OPT_PLOTS},
        {"check", no_argument, NULL, OPT_CHECK},
        {"charts", required_argument, NULL, OPT_CHARTS},
        {"window", required_argument, NULL, OPT_WINDOW},
        {"latency-axis", required_argument, NULL, OPT_AXIS},
        {"replications", required_argument, NULL, OPT_REPS},
        {"force", no_argument, NULL, OPT_FORCE},
        {"plot-timeout", required_argument, NULL, OPT_PLOT_TIMEOUT},
        {"allow-long", no_argument, NULL, OPT_LONG},
        {"list-keys", no_argument, NULL, OPT_LIST_KEYS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    unsigned char seen[OPT_END] = {0};
    opterr = 0;
    optind = 0; /* a fresh scan (GNU getopt), so parse_args may run again */
    int c, li = -1;
    while ((c = getopt_long(argc, argv, ":o:qhV", longopts, &li)) != -1) {
        if (c > 0 && c < OPT_END && c != OPT_SET && c != ':' && c != '?' && seen[c]++) {
            /* a second value would silently replace the first */
            if (li >= 0)
                fprintf(stderr, "cosim: --%s given twice; give each option once\n", longopts[li].name);
            else
                fprintf(stderr, "cosim: -%c given twice; give each option once\n", c);
            return -1;
        }
        li = -1;
        switch (c) {
        case 'o':
            if (!*optarg || strlen(optarg) > MAX_DIR_PATH) {
                fprintf(stderr, "cosim: -o: %s\n", *optarg ? "the folder's path is longer than 3800 bytes"
                                                           : "an empty folder name");
                return -1;
            }
            o->output = optarg;
            break;
        case OPT_SET:
            if (add_set(o, optarg))
                return -1;
            break;
        case OPT_SEED:
        case OPT_RANK: {
            hist_rank_rule rule;
            uint64_t seed;
            const char *why;
            if (c == OPT_SEED && (strspn(optarg, "0123456789") != strlen(optarg) ||
                                  units_parse_count(optarg, UINT64_MAX, &seed, &why))) {
                fprintf(stderr, "cosim: --seed %s: expected a whole number such as 42 (at most %llu)\n", optarg,
                        (unsigned long long)UINT64_MAX);
                return -1;
            }
            if (c == OPT_RANK && hist_rank_rule_parse(optarg, &rule)) {
                fprintf(stderr, "cosim: --rank-rule %s: expected nearest_rank, rounded_rank or "
                                "sorted_index\n", optarg);
                return -1;
            }
            int k = c == OPT_SEED ? 0 : 1;
            size_t len = strlen(optarg) + 32;
            o->owned[k] = malloc(len);
            if (!o->owned[k])
                return -1;
            snprintf(o->owned[k], len, "%s=%s", k ? "scenario.rank_rule" : "scenario.seed", optarg);
            if (add_set(o, o->owned[k]))
                return -1;
            break;
        }
        case OPT_FORMAT:
            if (plot_format_parse(optarg, &o->format)) {
                fprintf(stderr, "cosim: --format %s: expected png, svg or pdf\n", optarg);
                return -1;
            }
            break;
        case OPT_NOPLOT:
            o->no_plot = 1;
            break;
        case OPT_PLOTS: {
            struct stat st;
            if (strlen(optarg) > MAX_DIR_PATH) {
                fprintf(stderr, "cosim: --plots-dir: the folder's path is longer than 3800 bytes\n");
                return -1;
            }
            if (stat(optarg, &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "cosim: --plots-dir %s: not a folder\n", optarg);
                return -1;
            }
            o->plots_dir = optarg;
            break;
        }
        case OPT_CHECK:
            o->check = 1;
            break;
        case OPT_CHARTS: {
            o->charts = 0;
            o->charts_set = 1;
            /* a word at a time, straight from the argument: nothing is cut */
            for (const char *q = optarg;;) {
                size_t n = strcspn(q, ",");
                int k;
                for (k = 0; k < (int)N_CHARTS &&
                            (strlen(chart_kinds[k].name) != n || strncmp(q, chart_kinds[k].name, n));
                     k++)
                    ;
                if (k == (int)N_CHARTS && !(n == 4 && strncmp(q, "none", 4) == 0)) {
                    fprintf(stderr, "cosim: --charts %s: expected a list of spectrum, timeline, requests, "
                                    "summary (or none)\n", optarg);
                    return -1;
                }
                if (k < (int)N_CHARTS)
                    o->charts |= 1u << k;
                if (!q[n])
                    break;
                q += n + 1;
            }
            break;
        }
        case OPT_WINDOW: {
            /* the form now; against the run's duration once it is read */
            char why[160];
            if (scenario_parse_window(optarg, INT64_MAX, &o->win_from, &o->win_to, why, sizeof why)) {
                fprintf(stderr, "cosim: --window %s: %s\n", optarg, why);
                return -1;
            }
            o->window = optarg;
            break;
        }
        case OPT_REPS: {
            uint64_t n;
            const char *why;
            if (units_parse_count(optarg, 1000, &n, &why) || n < 1 || strspn(optarg, "0123456789") != strlen(optarg)) {
                fprintf(stderr, "cosim: --replications %s: a whole number from 1 to 1000\n", optarg);
                return -1;
            }
            o->replications = (unsigned)n;
            break;
        }
        case OPT_FORCE:
            o->force = 1;
            break;
        case OPT_PLOT_TIMEOUT:
            if (plot_parse_timeout(optarg, &o->plot_timeout_s)) {
                fprintf(stderr, "cosim: --plot-timeout %s: a whole number of seconds from 1 to %u\n", optarg,
                        PLOT_MAX_TIMEOUT_S);
                return -1;
            }
            break;
        case OPT_LONG:
            o->allow_long = 1;
            break;
        case OPT_AXIS:
            if (strcmp(optarg, "log") && strcmp(optarg, "linear")) {
                fprintf(stderr, "cosim: --latency-axis %s: expected log or linear\n", optarg);
                return -1;
            }
            o->ylinear = strcmp(optarg, "linear") == 0;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            o->help = 1;
            return 0;
        case 'V':
            o->version = 1;
            return 0;
        case OPT_LIST_KEYS:
            o->list_keys = 1;
            return 0;
        case ':':
            fprintf(stderr, "cosim: option %s needs a value\n", argv[optind - 1]);
            return -1;
        default:
            fprintf(stderr, "cosim: unknown option %s\n", argv[optind - 1]);
            return -1;
        }
    }
    if (optind == argc) {
        fprintf(stderr, "cosim: no scenario given\n");
        return -1;
    }
    if (argc - optind > 1) {
        fprintf(stderr, "cosim: one scenario at a time (got %d)\n", argc - optind);
        return -1;
    }
    o->scenario = argv[optind];
    return 0;
}

/* Read the scenario the options name and check the options that depend on
 * it: --window inside the run, --check with something to check. NULL after
 * a message on stderr, *exit_code set (2, 3, 1 or 5). */
static scenario *load_checked(const options *o, int *exit_code)
{
    char err[SCENARIO_PATH_MAX + 4096]; /* a long path is named whole */
    scenario *s = NULL;
    scenario_error se = scenario_load(&s, o->scenario, o->sets, o->n_sets, err, sizeof err);
    if (se != SCENARIO_OK) {
        fprintf(stderr, "cosim: %s\n", err);
        *exit_code = (int)cosim_exit_of_scenario(se);
        return NULL;
    }
    if (o->window) {
        char why[160];
        int64_t from, to;
        if (scenario_parse_window(o->window, s->duration_ns, &from, &to, why, sizeof why)) {
            fprintf(stderr, "cosim: --window %s: %s\n", o->window, why);
            *exit_code = COSIM_EXIT_USAGE;
            scenario_free(s);
            return NULL;
        }
    }
    if (o->check && s->n_expects == 0) {
        /* a CI job whose [expect] sections went missing must not pass */
        fprintf(stderr, "cosim: %s: --check: the scenario has no [expect NAME] section, so nothing would be "
                        "checked; add one (docs/scenario-format.md) or drop --check\n", s->path);
        *exit_code = COSIM_EXIT_CHECK;
        scenario_free(s);
        return NULL;
    }
    return s;
}

/* What the charts need from the run. */
typedef struct chart_data {
    const char *style[N_CHARTS]; /* style script per chart, NULL: not drawn */
    char style_buf[N_CHARTS][4096];
    timeline *timeline;          /* the whole run (or --window), binned */
    timeline *bars;              /* the request-bar window, exact */
    int64_t tl_from, tl_to, bars_from, bars_to;
    band *band;                  /* --replications: the spread over seeds */
    /* progress on a terminal, over the whole job */
    int tty, printed;            /* printed: the widest progress line, 0: none */
    const scenario *s;
    uint64_t seen;
    run_work work;               /* the estimate of one run */
    unsigned reps, rep;          /* runs in the job; the current one (0-based) */
    size_t cur;                  /* the tester running (n_testers: the truth) */
    int any;                     /* a tester run has been seen */
    double started, last_print;
} chart_data;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Progress on a terminal, for jobs over a second: the share of the whole
 * job done (every tester, the truth and every replication, weighted by the
 * estimate run_estimate made before the start) and the time left at the
 * pace so far. A new tester run is seen at its request 0: the runs come in
 * order (testers, then the truth's load, then the next replication), so a
 * tester index that does not grow starts the next replication. Checked
 * every 2^18 requests, so it costs nothing noticeable. */
static void progress(chart_data *c, size_t tester, const tester_request *rq)
{
    if (rq->index == 0) {
        if (c->any && tester <= c->cur && c->rep + 1 < c->reps)
            c->rep++;
        c->cur = tester;
        c->any = 1;
    }
    if (++c->seen & ((1u << 18) - 1))
        return;
    double t = now_s();
    if (t - c->started < 1 || t - c->last_print < 0.5)
        return;
    const scenario *s = c->s;
    double share = run_job_share(&c->work, s->n_testers, c->reps, c->rep, tester,
                                 (double)rq->sent_ns / (double)s->duration_ns);
    if (!(share > 0))
        return;
    char rep[48] = "", left[32];
    if (c->reps > 1)
        snprintf(rep, sizeof rep, "replication %u/%u, ", c->rep + 1, c->reps);
    char who[48];
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

static void observe(void *ctx, size_t tester, const tester_request *rq)
{
    chart_data *c = ctx;
    if (c->timeline)
        timeline_observe(c->timeline, tester, rq);
    if (c->bars)
        timeline_observe(c->bars, tester, rq);
    if (c->tty)
        progress(c, tester, rq);
}

static int write_spectrum(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                          const char *const *names)
{
    (void)cd;
    (void)names;
    return plot_write_spectrum_data(f, s, r);
}

static int write_timeline(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                          const char *const *names)
{
    (void)s;
    (void)r;
    return timeline_write_points(cd->timeline, f, names);
}

static int write_requests(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                          const char *const *names)
{
    (void)s;
    (void)r;
    return timeline_write_bars(cd->bars, f, names);
}

static int write_summary(FILE *f, const scenario *s, const run_result *r, const chart_data *cd,
                         const char *const *names)
{
    (void)cd;
    (void)names;
    return plot_write_summary_data(f, s, r);
}

/* Write every output file into d (under temporary names); charts[] gets the
 * chart files to render. */
static int write_outputs(outdir *d, const scenario *s, const run_result *r, const options *o,
                         const chart_data *cd, char charts[N_CHARTS][64], char *err, size_t errlen)
{
    char name[128];
    FILE *f;
    int rc;
#define OPEN(n)                                                                                    \
    do {                                                                                           \
        snprintf(name, sizeof name, "%s", (n));                                                    \
        if (!(f = outdir_create(d, name))) {                                                       \
            rc = -errno;                                                                           \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
#define CLOSE(write_rc)                                                                            \
    do {                                                                                           \
        int w_ = (write_rc);                                                                       \
        int c_ = outdir_finish(d, f); /* the failed write's own errno, e.g. ENOSPC */              \
        if ((rc = c_ ? c_ : w_))                                                                   \
            goto fail;                                                                             \
    } while (0)

    OPEN("summary.json");
    CLOSE(report_json(f, s, r));
    for (size_t i = 0; i < r->n; i++) {
        char n[96];
        snprintf(n, sizeof n, "%s.hgrm", s->testers[i].name);
        OPEN(n);
        CLOSE(report_hgrm(f, r->testers[i].hist, s->rank_rule));
    }
    if ((rc = run_hlog_write(d, s, r, name, sizeof name)) != 0) /* TESTER.hlog: [scenario] hlog_interval */
        goto fail;
    const char *names[256];
    for (size_t i = 0; i < s->n_testers && i < 256; i++)
        names[i] = s->testers[i].name;
    char all[4096], spec[4096], slots[1024];
    plot_all_names(s, all, sizeof all);
    plot_spectrum_blocks(s, r, spec, sizeof spec, slots, sizeof slots);
    int need_stalls = 0;
    for (size_t k = 0; k < N_CHARTS; k++) {
        const chart_kind *ck = &chart_kinds[k];
        charts[k][0] = '\0';
        if (!cd->style[k])
            continue;
        char dat[64], gp[64];
        snprintf(dat, sizeof dat, "%s.dat", ck->name);
        snprintf(gp, sizeof gp, "%s.gp", ck->name);
        snprintf(charts[k], 64, "%s.%s", ck->name, plot_format_ext(o->format));
        plot_script ps = {ck->name, dat, all, charts[k], o->format, !o->ylinear && !ck->linear, 0, s->duration_ns,
                          NULL, NULL, NULL, NULL};
        char counts[2048] = "";
        if (ck->window != CHART_WHOLE_RUN) {
            /* the points (or bars) each tester has in the window */
            int bars = ck->window == CHART_BARS_WINDOW;
            for (size_t i = 0; i < s->n_testers; i++) {
                size_t c = bars ? timeline_bars(cd->bars, i) : timeline_points(cd->timeline, i);
                snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%zu", i ? " " : "", c);
            }
            ps.counts = counts;
            ps.from_ns = bars ? cd->bars_from : cd->tl_from;
            ps.to_ns = bars ? cd->bars_to : cd->tl_to;
            need_stalls = 1;
        }
        if (ck->spectrum_blocks) {
            ps.testers = spec;
            ps.slots = slots;
        }
        OPEN(dat);
        CLOSE(ck->write(f, s, r, cd, names));
        if (ck->spectrum_blocks && cd->band) {
            OPEN("spectrum_band.dat");
            CLOSE(band_write(cd->band, f, s, r));
            ps.bandfile = "spectrum_band.dat";
        }
        OPEN(gp);
        CLOSE(plot_write_script(f, s, cd->style[k], &ps));
    }
    if (need_stalls) {
        OPEN("stalls.dat");
        CLOSE(plot_write_stalls(f, s, 0, s->duration_ns));
    }
    return 0;
fail:
    snprintf(err, errlen, "%s/%s: cannot write: %s", outdir_path(d), name,
             rc == -EINVAL ? "not a file name cosim writes" : rc == -EEXIST ? "written twice" : strerror(-rc));
    return rc;
#undef OPEN
#undef CLOSE
}

/* Run gnuplot on the staged NAME.gp and stage the chart (NAME.EXT) it
 * draws, checked complete. 1 rendered, 0 gnuplot is missing, -1 failed
 * (err says why). */
static int render_chart(outdir *d, const char *chart, const options *o, char *err, size_t errlen)
{
    char script[96];
    snprintf(script, sizeof script, "%.*s.gp", (int)(strrchr(chart, '.') - chart), chart);
    unsigned timeout = o->plot_timeout_s ? o->plot_timeout_s : PLOT_DEFAULT_TIMEOUT_S;
    char *data;
    size_t len;
    int status;
    plot_render_status st = plot_render(outdir_staging_fd(d), script, o->format, timeout, &data, &len, &status);
    if (st == PLOT_NO_GNUPLOT)
        return 0;
    if (st != PLOT_RENDERED) {
        char why[256];
        snprintf(err, errlen, "%s/%s: %s", outdir_path(d), chart,
                 plot_render_message(why, sizeof why, st, status, script, o->format, len, timeout));
        return -1;
    }
    int rc = outdir_write(d, chart, data, len);
    free(data);
    if (rc) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", outdir_path(d), chart, strerror(-rc));
        return -1;
    }
    return 1;
}

/* Take the output folder before the run: refused folders fail fast, and a
 * second writer learns at once. dir gets its name. Returns the exit code. */
static int open_output(const options *o, const scenario *s, outdir **d, char *dir, size_t dirlen)
{
    *d = NULL;
    if (o->output)
        snprintf(dir, dirlen, "%s", o->output);
    else if (outdir_default(dir, dirlen, o->scenario, s->name, SCENARIO_NAME_MAX, "")) {
        fprintf(stderr, "cosim: %s: the default output folder's name is too long; give -o DIR\n", o->scenario);
        return COSIM_EXIT_OUTPUT;
    }
    char source[PATH_MAX], err[PATH_MAX + 1024];
    outdir_options oo = {o->force, realpath(o->scenario, source) ? source : o->scenario, !o->output};
    if (outdir_open(d, dir, &oo, err, sizeof err)) {
        fprintf(stderr, "cosim: %s\n", err);
        return COSIM_EXIT_OUTPUT;
    }
    return COSIM_EXIT_OK;
}

static int run(const options *opts);
static int write_run(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                     const char *dir, int exit_code);

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return sweep_main(argc - 1, argv + 1);
    options o;
    memset(&o, 0, sizeof o);
    rng_init();
    int exit_code = COSIM_EXIT_OK;
    if (parse_args(argc, argv, &o)) {
        fprintf(stderr, "cosim: try 'cosim --help'\n");
        exit_code = COSIM_EXIT_USAGE;
    } else if (o.help) {
        usage(stdout);
    } else if (o.version) {
        printf("cosim %s\n", COSIM_VERSION);
    } else if (o.list_keys) {
        exit_code = scenario_list_keys(stdout) ? COSIM_EXIT_OUTPUT : COSIM_EXIT_OK;
    } else {
        exit_code = run(&o);
    }
    options_free(&o);
    return exit_code;
}

/* Load, simulate, report, write: the whole job for parsed options. */
static int run(const options *opts)
{
    const options o = *opts;
    char err[1024];
    int load_rc;
    scenario *s = load_checked(&o, &load_rc);
    if (!s)
        return load_rc;

    if (run_check_seeds(s->seed, o.replications, err, sizeof err)) {
        fprintf(stderr, "cosim: %s\n", err);
        scenario_free(s);
        return COSIM_EXIT_USAGE;
    }
    /* the whole job's work, before anything starts: every tester, the truth,
     * every replication */
    chart_data cd;
    memset(&cd, 0, sizeof cd);
    run_estimate(s, &cd.work);
    cd.reps = o.replications > 1 ? o.replications : 1;
    char what[96];
    if (s->truth_interval_ns > 0)
        snprintf(what, sizeof what, "%zu tester%s and the truth x %u replication%s", s->n_testers,
                 s->n_testers == 1 ? "" : "s", cd.reps, cd.reps == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%zu tester%s x %u replication%s", s->n_testers, s->n_testers == 1 ? "" : "s",
                 cd.reps, cd.reps == 1 ? "" : "s");
    if (run_check_budget(cd.work.total * cd.reps, what, o.allow_long, err, sizeof err)) {
        fprintf(stderr, "cosim: %s: %s\n", s->path, err);
        scenario_free(s);
        return COSIM_EXIT_SIM;
    }

    /* the charts asked for, and their style scripts */
    unsigned want = o.charts_set ? o.charts : (1u << N_CHARTS) - 1; /* default: every chart */
    if (o.check && !o.output)
        want = 0;
    for (size_t k = 0; k < N_CHARTS; k++) {
        if (!(want & (1u << k)))
            continue;
        char file[64];
        snprintf(file, sizeof file, "%s.gp", chart_kinds[k].name);
        if (plot_find_style(o.plots_dir, file, cd.style_buf[k], sizeof cd.style_buf[k]))
            fprintf(stderr, "cosim: warning: no chart style %s in %s; no %s chart (give --plots-dir DIR)\n",
                    file, o.plots_dir ? o.plots_dir : "plots/ or the installed data folder", chart_kinds[k].name);
        else
            cd.style[k] = cd.style_buf[k];
    }
    /* the time charts' windows: --window, else the scenario's chart_window,
     * else the whole run (timeline) and around the first stall (bars) */
    int64_t wf = o.win_to ? o.win_from : s->chart_window_from;
    int64_t wt = o.win_to ? o.win_to : s->chart_window_to;
    if (wt > s->duration_ns)
        wt = s->duration_ns;
    cd.tl_from = wt > wf ? wf : 0;
    cd.tl_to = wt > wf ? wt : s->duration_ns;
    if (wt > wf) {
        cd.bars_from = wf;
        cd.bars_to = wt;
    } else if (!plot_first_stall(s, &cd.bars_from, &cd.bars_to)) {
        for (size_t k = 0; k < N_CHARTS; k++) {
            if (chart_kinds[k].window != CHART_BARS_WINDOW)
                continue;
            if (cd.style[k] && o.charts_set) /* asked for by name: say why it is missing */
                fprintf(stderr, "cosim: no stall window to centre the request bars on; give --window "
                                "(e.g. --window 0.85s..1.6s) or [scenario] chart_window\n");
            cd.style[k] = NULL;
        }
    }
    /* the output folder is taken before the run, so a refusal costs nothing */
    outdir *d = NULL;
    char dir[PATH_MAX];
    int writes = !o.check || o.output; /* --check alone writes no folder */
    if (writes && open_output(&o, s, &d, dir, sizeof dir) != COSIM_EXIT_OK) {
        scenario_free(s);
        return COSIM_EXIT_OUTPUT;
    }
    int rc = 0;
    /* the observers the drawn charts' windows need */
    int want_timeline = 0, want_bars = 0;
    for (size_t k = 0; k < N_CHARTS; k++) {
        want_timeline |= cd.style[k] && chart_kinds[k].window == CHART_TIMELINE_WINDOW;
        want_bars |= cd.style[k] && chart_kinds[k].window == CHART_BARS_WINDOW;
    }
    if (want_timeline)
        rc = timeline_new(&cd.timeline, s->n_testers, cd.tl_from, cd.tl_to, 4000);
    if (!rc && want_bars)
        rc = timeline_new(&cd.bars, s->n_testers, cd.bars_from, cd.bars_to, 300);
    run_result r;
    if (!rc) {
        cd.tty = isatty(2) && !o.quiet;
        cd.s = s;
        cd.started = now_s();
        rc = run_scenario_observed(s, cd.timeline || cd.bars || cd.tty ? observe : NULL, &cd, &r, err,
                                   sizeof err);
        if (cd.printed && (rc || o.replications <= 1))
            fprintf(stderr, "\r%*s\r", cd.printed, "");
    } else {
        snprintf(err, sizeof err, "out of memory");
    }
    if (rc) {
        fprintf(stderr, "cosim: %s\n", err);
        outdir_close(d);
        timeline_free(cd.timeline);
        timeline_free(cd.bars);
        scenario_free(s);
        return COSIM_EXIT_SIM;
    }

    /* the other replications: timelines and charts are the base seed's */
    timeline *tl = cd.timeline, *bars = cd.bars;
    cd.timeline = cd.bars = NULL;
    rc = o.replications > 1 ? band_run(&cd.band, s, &r, o.replications, cd.tty ? observe : NULL, &cd, err,
                                       sizeof err)
                            : 0;
    cd.timeline = tl;
    cd.bars = bars;
    if (cd.printed && o.replications > 1)
        fprintf(stderr, "\r%*s\r", cd.printed, "");
    if (rc) {
        fprintf(stderr, "cosim: %s\n", err);
        outdir_close(d);
        timeline_free(cd.timeline);
        timeline_free(cd.bars);
        run_result_free(&r);
        scenario_free(s);
        return COSIM_EXIT_SIM;
    }
    int exit_code = COSIM_EXIT_OK;
    if (!o.quiet && (report_text(stdout, s, &r) || (cd.band && band_report(cd.band, stdout, s)))) {
        fprintf(stderr, "cosim: cannot write the summary to standard output\n");
        exit_code = COSIM_EXIT_OUTPUT;
    }

    if (o.check) {
        if (!o.quiet)
            putchar('\n');
        size_t misses = expect_check(stdout, stderr, s, &r);
        fflush(stdout);
        if (misses && exit_code == COSIM_EXIT_OK)
            exit_code = COSIM_EXIT_CHECK;
    }
    if (writes)
        exit_code = write_run(&o, s, &r, &cd, d, dir, exit_code);
    band_free(cd.band);
    timeline_free(cd.timeline);
    timeline_free(cd.bars);
    run_result_free(&r);
    scenario_free(s);
    return exit_code;
}

/* The output folder of a run: files and charts staged (each chart checked
 * complete), then committed all at once, or nothing changes. Closes d.
 * Returns the exit code, given the one so far. */
static int write_run(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                     const char *dir, int exit_code)
{
    char err[PATH_MAX + 1024];
    int any_chart = 0;
    for (size_t k = 0; k < N_CHARTS; k++)
        any_chart |= cd->style[k] != NULL;
    if (plot_spectrum_testers(r) == 0 && any_chart) {
        fprintf(stderr, "cosim: no tester recorded a sample: no chart\n");
        memset(cd->style, 0, sizeof cd->style);
    }
    char charts[N_CHARTS][64];
    memset(charts, 0, sizeof charts);
    int failed = write_outputs(d, s, r, o, cd, charts, err, sizeof err) != 0;
    /* render every chart in the staging folder before anything moves */
    int no_gnuplot = 0;
    char drawn[512] = "";
    for (size_t k = 0; k < N_CHARTS && !failed && !o->no_plot; k++) {
        if (!charts[k][0])
            continue;
        int rendered = render_chart(d, charts[k], o, err, sizeof err);
        if (rendered < 0)
            failed = 1;
        else if (rendered == 0)
            no_gnuplot = 1;
        else
            snprintf(drawn + strlen(drawn), sizeof drawn - strlen(drawn), ", %s", charts[k]);
    }
    if (!failed && no_gnuplot)
        fprintf(stderr, "cosim: gnuplot not found: kept the charts' .gp and .dat in %s; install gnuplot "
                        "and run 'gnuplot spectrum.gp' there\n", dir);
    if (failed) {
        fprintf(stderr, "cosim: %s; nothing in %s was replaced\n", err, dir);
        exit_code = COSIM_EXIT_OUTPUT;
    } else if (outdir_commit(d, err, sizeof err)) {
        fprintf(stderr, "cosim: %s; nothing in %s was replaced\n", err, dir);
        exit_code = COSIM_EXIT_OUTPUT;
        failed = 1;
    }
    outdir_close(d);
    if (!failed && (exit_code == COSIM_EXIT_OK || exit_code == COSIM_EXIT_CHECK) && !o->quiet)
        printf("\nwrote %s/: summary.json, %zu .hgrm spectr%s%s\n", dir, r->n, r->n == 1 ? "um" : "a", drawn);
    return exit_code;
}
