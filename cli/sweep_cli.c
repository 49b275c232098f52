/* sweep_cli.c - the cosim sweep command: its options, the output folder,
 * the table; the sweep itself (points, workers, statistics, files) is
 * libcosim's sweep.h. */
#define _POSIX_C_SOURCE 200809L
#include "sweep_cli.h"
#include "exitcode.h"
#include "options.h"
#include "outdir.h"
#include "plot.h"
#include "run.h"
#include "scenario.h"
#include "sweep.h"
#include "sweep_merge.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Finish a staged stream: the stream's own errno first (e.g. ENOSPC),
 * else the writer's result. */
static int finish(outdir *d, FILE *f, int write_rc)
{
    int c = outdir_finish(d, f);
    return c ? c : write_rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: cosim sweep [OPTIONS] SCENARIO.ini --vary KEY=FROM..TO:STEPS ...\n"
            "       cosim sweep --merge [-o DIR] [-q] [--force] [--no-plot] SHARD_DIR...\n"
            "\n"
            "Run SCENARIO at every point of a grid of key values, each with N seeds,\n"
            "and report each tester's percentiles per point (mean and 95%% confidence\n"
            "interval over the seeds): the hockey stick of the open loop against the\n"
            "flat closed loop.\n"
            "\n"
            "Options:\n"
            "      --vary KEY=FROM..TO:STEPS   STEPS evenly spaced values (repeatable: a grid)\n"
            "      --vary KEY=FROM..TO*FACTOR  FROM, FROM x FACTOR, ... up to TO\n"
            "      --vary KEY=V1,V2,...        the values listed, in that order\n"
            "                         KEY as for --set, e.g. tester.open.rate=100/s..900/s:9\n"
            "      --zip KEY=VALUES   KEY moves with the --vary before it: its i-th value\n"
            "                         at that key's i-th value (as many values; VALUES\n"
            "                         as for --vary), e.g. every tester's rate at once\n"
            "      --x-axis WHAT      the chart's x: key (the first --vary, default) or\n"
            "                         utilisation (each tester's offered utilisation,\n"
            "                         rate x mean service time / workers)\n"
            "      --format FMT       chart format: png (default), svg or pdf\n"
            "      --style STYLE      default, or slides: a 16:9 chart (1920x1080 px, a\n"
            "                         13.33x7.5 in PDF) with text for the back of a hall\n"
            "      --title TEXT       the chart's title (default: Sweep of NAME, the\n"
            "                         scenario's name; its title describes one point)\n"
            "      --replications N   N seeds per point: the scenario's seed + 0, 1, ... N-1\n"
            "      --jobs J           processes running the points (default: the number of\n"
            "                         cores); the outputs do not depend on J\n"
            "      --shard K/N        run only the points p with p mod N = K (0 <= K < N), to\n"
            "                         split a sweep across machines (docs/sweeps.md); the\n"
            "                         folder also holds sweep.shard, what --merge reads\n"
            "      --estimate         print the work of the sweep (of the shard with --shard)\n"
            "                         in the work budget's units, run nothing, write nothing\n"
            "      --merge DIR...     put the N shard folders of one sweep together: the\n"
            "                         folder one machine would have written, byte for\n"
            "                         byte; the sweep's options and scenario come from the\n"
            "                         shards (run it where their scenario path leads)\n"
            "  -o, --output DIR       outputs (default: out/NAME-sweep, with --shard K/N\n"
            "                         out/NAME-sweep-shard-K-of-N); the folder is\n"
            "                         written as by cosim (see cosim --help): all or nothing\n"
            "      --force            also take a folder holding files cosim did not write\n"
            "                         (kept, never replaced)\n"
            "      --plot-timeout S   stop gnuplot after S seconds (default 60)\n"
            "      --set SEC.KEY=VAL  override a key at every point (repeatable)\n"
            "      --seed N           the base seed\n"
            "      --no-plot          write sweep.gp and sweep.dat but do not run gnuplot\n"
            "      --allow-long       run a sweep over the work budget (10^10 units: simulated\n"
            "                         requests, truth probes, correction buckets, over every\n"
            "                         point and replication; estimated before any run)\n"
            "  -q, --quiet            print no table\n"
            "  -h, --help             show this help\n"
            "  -V, --version          show the version and exit\n"
            "\n"
            "Writes sweep.csv (one row per point and tester), sweep.dat, sweep.gp and\n"
            "sweep.png (p99 against the first varied key, one curve per tester and\n"
            "value of the other --vary keys; a tester no varied key affects is drawn\n"
            "once and marked); if the chart fails, nothing in the folder changes.\n"
            "Limits: 8 --vary and --zip keys, 10000 values each, 100000 points,\n"
            "10000 replications, 256 jobs. Jobs die with cosim; the first failed run\n"
            "or job stops the others and the message names the points left without\n"
            "a result.\n"
            "Exit status: 0 success, 2 bad command line (a --vary value that is not\n"
            "valid for its key at some point, such as users = 1.5, is the command\n"
            "line's; so are seeds past 2^64 - 1, and a --set value refused), 3 a\n"
            "scenario error at some point that no --vary value made (with --merge: a\n"
            "shard folder missing, damaged or truncated, of another cosim or another\n"
            "sweep, a shard missing or given twice, the scenario changed), 4 an output\n"
            "could not be written (or the folder was refused, or the chart failed),\n"
            "5 a run or job failed, or the work budget was passed without\n"
            "--allow-long; 130/143 interrupted by SIGINT/SIGTERM.\n");
}

/* What cosim sweep's command line sets beside the sweep itself. */
typedef struct sweep_cli {
    const char *sets[SWEEP_MAX_SETS]; /* --set, in order */
    const char *output;               /* -o, NULL: the default folder */
    const char *title;                /* --title, NULL: the scenario's */
    plot_format format;               /* --format */
    int slides;                       /* --style slides */
    int no_plot, quiet, force;
    unsigned plot_timeout;            /* --plot-timeout, seconds */
    char scenario_buf[SCENARIO_PATH_MAX + 1]; /* a shipped scenario's path */
    const char *scenario_arg;         /* the scenario as typed */
    /* the sweep's own options, as a shard records them for the merge
     * (sweep.shard): --vary, --zip, --set, --seed, --replications and the
     * chart's --format, --title, --x-axis, --style, each as "--NAME" then
     * its value; not -o, -q, --force, --jobs, --shard, --no-plot,
     * --plot-timeout, --allow-long, which change where and how, not what */
    const char *rec[2 * (SWEEP_MAX_AXES + SWEEP_MAX_SETS + 8)];
    size_t n_rec;
    int merge;                        /* --merge */
    int estimate;                     /* --estimate: print the work, run nothing */
    const char *const *merge_dirs;    /* its shard folders */
    size_t n_merge_dirs;
    uint64_t scenario_bytes, scenario_hash; /* a shard's scenario digest */
} sweep_cli;

enum { O_VARY = 256, O_REPS, O_JOBS, O_SHARD, O_SET, O_SEED, O_NOPLOT, O_FORCE, O_PLOT_TIMEOUT, O_LONG, O_ZIP,
       O_FORMAT, O_TITLE, O_XAXIS, O_STYLE, O_MERGE, O_ESTIMATE, O_END };

static const struct option sweep_longopts[] = {
    {"vary", required_argument, NULL, O_VARY},    {"replications", required_argument, NULL, O_REPS},
    {"jobs", required_argument, NULL, O_JOBS},    {"shard", required_argument, NULL, O_SHARD},
    {"set", required_argument, NULL, O_SET},      {"seed", required_argument, NULL, O_SEED},
    {"no-plot", no_argument, NULL, O_NOPLOT},     {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},            {"help", no_argument, NULL, 'h'},
    {"force", no_argument, NULL, O_FORCE},        {"plot-timeout", required_argument, NULL, O_PLOT_TIMEOUT},
    {"allow-long", no_argument, NULL, O_LONG},    {"zip", required_argument, NULL, O_ZIP},
    {"format", required_argument, NULL, O_FORMAT}, {"title", required_argument, NULL, O_TITLE},
    {"x-axis", required_argument, NULL, O_XAXIS}, {"style", required_argument, NULL, O_STYLE},
    {"version", no_argument, NULL, 'V'},          {"merge", no_argument, NULL, O_MERGE},
    {"estimate", no_argument, NULL, O_ESTIMATE},
    {NULL, 0, NULL, 0},
};

/* --vary KEY=... or --zip KEY=...: one more axis (sweep_add_axis). */
static int opt_vary(sweep *w, const char *arg, int zipped)
{
    char err[1200];
    if (w->n_axes == SWEEP_MAX_AXES && !zipped) {
        fprintf(stderr, "cosim: sweep: at most %d --vary\n", SWEEP_MAX_AXES);
        return -1;
    }
    if (sweep_add_axis(w, arg, zipped, err, sizeof err)) {
        fprintf(stderr, "cosim: sweep: %s\n", err);
        return -1;
    }
    return 0;
}

/* --title TEXT: 1 to 100 bytes (as a scenario's title), one line of
 * UTF-8. 0, or -1 after a message. */
static int opt_title(sweep_cli *cli, const char *arg)
{
    const char *why = options_title_problem(arg, 100);
    if (why) {
        fprintf(stderr, "cosim: sweep: --title: %s; give 1 to 100 bytes of text on one line\n", why);
        return -1;
    }
    cli->title = arg;
    return 0;
}

/* --shard K/N, 0 <= K < N. */
static int opt_shard(sweep *w, const char *arg)
{
    const char *slash = strchr(arg, '/'), *why;
    uint64_t k, n;
    char *ks = slash ? strndup(arg, (size_t)(slash - arg)) : NULL;
    int bad = !ks || units_parse_count(ks, UINT32_MAX, &k, &why) ||
              units_parse_count(slash + 1, UINT32_MAX, &n, &why) || n < 1 || k >= n;
    free(ks);
    if (bad) {
        fprintf(stderr, "cosim: sweep: --shard %s: expected K/N with 0 <= K < N, e.g. 0/4\n", arg);
        return -1;
    }
    w->shard = (unsigned)k;
    w->n_shards = (unsigned)n;
    return 0;
}

/* A whole number from 1 to max for --NAME, or -1 after a message. */
static int opt_count(const char *name, const char *arg, uint64_t max, uint64_t *v)
{
    const char *why;
    if (units_parse_count(arg, max, v, &why) || *v < 1) {
        fprintf(stderr, "cosim: sweep: --%s %s: a whole number from 1 to %llu\n", name, arg,
                (unsigned long long)max);
        return -1;
    }
    return 0;
}

/* --format, --title, --x-axis, --style (option c, its argument arg): 0,
 * or -1 after a message. */
static int chart_option(sweep *w, sweep_cli *cli, int c, const char *arg)
{
    if (c == O_TITLE)
        return opt_title(cli, arg);
    if (c == O_STYLE) {
        if (plot_style_parse(arg, &cli->slides)) {
            fprintf(stderr, "cosim: sweep: --style %s: expected default or slides\n", arg);
            return -1;
        }
        return 0;
    }
    if (c == O_FORMAT) {
        if (plot_format_parse(arg, &cli->format) || cli->format == PLOT_GIF) {
            fprintf(stderr, "cosim: sweep: --format %s: expected png, svg or pdf\n", arg);
            return -1;
        }
        return 0;
    }
    if (strcmp(arg, "key") == 0 || strcmp(arg, "utilisation") == 0) {
        w->x = arg[0] == 'k' ? SWEEP_X_KEY : SWEEP_X_UTILISATION;
        return 0;
    }
    fprintf(stderr, "cosim: sweep: --x-axis %s: expected key or utilisation\n", arg);
    return -1;
}

/* One option (getopt's code c, its argument arg; word: as typed) into w
 * and cli: 0 go on, 1 stop (--help, after the usage), -1 after a message. */
static int take_sweep_option(sweep *w, sweep_cli *cli, int c, const char *arg, const char *word)
{
    uint64_t v;
    const char *why;
    switch (c) {
    case O_VARY:
    case O_ZIP:
        return opt_vary(w, arg, c == O_ZIP);
    case O_FORMAT:
    case O_TITLE:
    case O_XAXIS:
    case O_STYLE:
        return chart_option(w, cli, c, arg);
    case O_REPS:
        if (opt_count("replications", arg, 10000, &v))
            return -1;
        w->reps = (size_t)v;
        return 0;
    case O_JOBS:
        if (opt_count("jobs", arg, 256, &v))
            return -1;
        w->jobs = (unsigned)v;
        return 0;
    case O_SHARD:
        return opt_shard(w, arg);
    case O_SET:
        if (w->n_user_sets == SWEEP_MAX_SETS) {
            fprintf(stderr, "cosim: sweep: more than %d --set\n", SWEEP_MAX_SETS);
            return -1;
        }
        cli->sets[w->n_user_sets++] = arg;
        return 0;
    case O_SEED:
        if (units_parse_count(arg, UINT64_MAX, &w->seed, &why) || strspn(arg, "0123456789") != strlen(arg)) {
            fprintf(stderr, "cosim: sweep: --seed %s: expected a whole number\n", arg);
            return -1;
        }
        w->seed_set = 1;
        return 0;
    case O_NOPLOT:
        cli->no_plot = 1;
        return 0;
    case O_FORCE:
        cli->force = 1;
        return 0;
    case O_PLOT_TIMEOUT:
        if (plot_parse_timeout(arg, &cli->plot_timeout)) {
            fprintf(stderr, "cosim: sweep: --plot-timeout %s: a whole number of seconds from 1 to %u\n", arg,
                    PLOT_MAX_TIMEOUT_S);
            return -1;
        }
        return 0;
    case O_LONG:
        w->allow_long = 1;
        return 0;
    case 'o':
        if (options_path_printable("sweep: ", "-o", arg) || options_output_stream_refused("sweep: ", arg))
            return -1;
        if (!*arg || strlen(arg) > 3800) {
            fprintf(stderr, "cosim: sweep: -o: %s\n",
                    *arg ? "the folder's path is longer than 3800 bytes" : "an empty folder name");
            return -1;
        }
        cli->output = arg;
        return 0;
    case 'q':
        cli->quiet = 1;
        return 0;
    case 'h':
        usage(stdout);
        return 1;
    case 'V':
        printf("cosim %s\n", COSIM_VERSION);
        return 1;
    case O_MERGE:
        cli->merge = 1;
        return 0;
    case O_ESTIMATE:
        cli->estimate = 1;
        w->allow_long = 1; /* say the size, whatever it is */
        return 0;
    case ':':
        fprintf(stderr, "cosim: sweep: option %s needs a value\n", word);
        return -1;
    default:
        fprintf(stderr, "cosim: sweep: unknown option %s; try 'cosim sweep --help'\n", word);
        return -1;
    }
}

/* A key both fixed (--set KEY=V, or --seed for scenario.seed) and varied
 * (--vary or --zip KEY=...), or scenario.seed varied with --replications
 * N > 1 (which sets the seed of each run): the scenario reader would refuse
 * every point with a message about --set twice; say which two options clash
 * instead.
 * 0, or -1 after a message (exit 2). */
static int set_and_varied(const sweep *w, const sweep_cli *cli)
{
    for (size_t a = 0; a < w->n_axes; a++) {
        const char *key = w->axes[a].key, *opt = w->axes[a].zipped ? "--zip" : "--vary";
        size_t len = strlen(key);
        if (w->seed_set && strcmp(key, "scenario.seed") == 0) {
            fprintf(stderr, "cosim: sweep: --seed and %s scenario.seed both give the seed; give one of them\n", opt);
            return -1;
        }
        /* replication r runs the point's seed + r: with the seed varied too,
         * points would share seeds (1 + 1 is 2 + 0), neither a grid of seeds
         * nor independent replications */
        if (w->reps > 1 && strcmp(key, "scenario.seed") == 0) {
            fprintf(stderr, "cosim: sweep: --replications %zu and %s scenario.seed both choose the seeds (replication "
                            "r runs the seed + r); give one of them\n", w->reps, opt);
            return -1;
        }
        for (size_t i = 0; i < w->n_user_sets; i++)
            if (strncmp(cli->sets[i], key, len) == 0 && cli->sets[i][len] == '=') {
                fprintf(stderr, "cosim: sweep: --set %s fixes the key that %s %s=... varies; give one of them\n",
                        cli->sets[i], opt, key);
                return -1;
            }
    }
    return 0;
}

/* Keep option c (its value arg) in cli->rec when it is one of the sweep's
 * own (sweep_cli.rec). */
static void record_option(sweep_cli *cli, int c, const char *arg)
{
    static const int own[] = {O_VARY, O_ZIP, O_SET, O_SEED, O_REPS, O_FORMAT, O_TITLE, O_XAXIS, O_STYLE};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
        if (own[k] != c)
            continue;
        for (const struct option *o = sweep_longopts; o->name; o++)
            if (o->val == c && cli->n_rec + 2 <= sizeof cli->rec / sizeof cli->rec[0]) {
                /* "--vary": the long names are string literals, "--" joined by the merge */
                cli->rec[cli->n_rec++] = o->name;
                cli->rec[cli->n_rec++] = arg;
                return;
            }
    }
}

/* --merge DIR...: the folders; the sweep's own options come from the
 * shards, so none may be given. 0, or -1 after a message. */
static int merge_args(const sweep *w, sweep_cli *cli, int argc, char **argv)
{
    if (cli->n_rec || w->n_shards > 1) {
        fprintf(stderr, "cosim: sweep: --merge takes the sweep's options from the shards (--%s given); give the "
                        "shard folders, and only -o, -q, --force, --no-plot, --plot-timeout\n",
                cli->n_rec ? cli->rec[0] : "shard");
        return -1;
    }
    if (optind == argc) {
        fprintf(stderr, "cosim: sweep: --merge: give the shard folders, e.g. cosim sweep --merge shard-*\n");
        return -1;
    }
    for (int i = optind; i < argc; i++)
        if (options_path_printable("sweep: --merge: ", "the folder", argv[i]))
            return -1;
    cli->merge_dirs = (const char *const *)(argv + optind);
    cli->n_merge_dirs = (size_t)(argc - optind);
    return 0;
}

/* The sweep's command line into w and cli (w->user_sets point into
 * cli->sets). Every option may be given once, except --vary and --set. 0,
 * 1 after --help, or -1 after a message (exit 2). */
static int parse_sweep_args(sweep *w, sweep_cli *cli, int argc, char **argv)
{
    unsigned char seen[O_END] = {0};
    optind = 0; /* a fresh scan (GNU getopt) */
    opterr = 0;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, ":o:qhV", sweep_longopts, &li)) != -1) {
        if (c > 0 && c < O_END && c != O_VARY && c != O_ZIP && c != O_SET && c != ':' && c != '?' && seen[c]++) {
            if (li >= 0)
                fprintf(stderr, "cosim: sweep: --%s given twice; give each option once\n",
                        sweep_longopts[li].name);
            else
                fprintf(stderr, "cosim: sweep: -%c given twice; give each option once\n", c);
            return -1;
        }
        li = -1;
        int rc = take_sweep_option(w, cli, c, optarg, argv[optind - 1]);
        if (rc)
            return rc;
        record_option(cli, c, optarg);
    }
    if (cli->merge)
        return merge_args(w, cli, argc, argv);
    if (optind != argc - 1) {
        fprintf(stderr, "cosim: sweep: give one scenario; try 'cosim sweep --help'\n");
        return -1;
    }
    if (w->n_axes == 0) {
        fprintf(stderr, "cosim: sweep: nothing to vary; add --vary KEY=FROM..TO:STEPS\n");
        return -1;
    }
    if (options_path_printable("sweep: ", "the scenario", argv[optind]))
        return -1;
    if (strcmp(argv[optind], "-") == 0) {
        fprintf(stderr, "cosim: sweep: - (standard input): a sweep reads its scenario once per point and "
                        "replication, so give a file (cosim - reads one run's scenario from standard input)\n");
        return -1;
    }
    cli->scenario_arg = argv[optind];
    w->path = options_scenario_path(argv[optind], cli->scenario_buf, sizeof cli->scenario_buf);
    if (set_and_varied(w, cli))
        return -1;
    w->user_sets = cli->sets;
    char err[400];
    if (sweep_size(w, err, sizeof err) || sweep_check_repeats(w, err, sizeof err)) {
        fprintf(stderr, "cosim: sweep: %s\n", err);
        return -1;
    }
    return 0;
}

int sweep_check_args(int argc, char **argv)
{
    sweep w;
    memset(&w, 0, sizeof w);
    w.reps = 1;
    w.jobs = 1;
    w.n_shards = 1;
    sweep_cli cli = {.plot_timeout = PLOT_DEFAULT_TIMEOUT_S};
    int rc = parse_sweep_args(&w, &cli, argc, argv);
    if (rc == 0) {
        scenario *s;
        rc = sweep_check_points(&w, &s);
        scenario_free(s);
    } else {
        rc = rc < 0 ? COSIM_EXIT_USAGE : COSIM_EXIT_OK;
    }
    sweep_free(&w);
    return rc;
}

/* The chart's own preamble lines (plot_script.extra): the blocks of
 * sweep.dat (their tester, 1-based in `testers`, and the other keys'
 * values), which testers a varied key affects, what x is, and the title:
 * --title, else "Sweep of NAME" (the scenario's own title describes one
 * point: "M/M/1 at 80% load" over loads from 10% to 90% contradicts the
 * chart). 0, or -ENOMEM. The caller frees *out. */
static int chart_preamble(const sweep *w, const sweep_cli *cli, const scenario *s, char **out)
{
    sweep_blocks bl;
    size_t size;
    FILE *f = open_memstream(out, &size);
    if (!f)
        return -ENOMEM;
    if (sweep_chart_blocks(w, &bl)) {
        fclose(f);
        free(*out);
        return -ENOMEM;
    }
    fprintf(f, "nblocks = %zu\ncombos = %zu\narray block_tester[%zu]\narray block_combo[%zu]\narray block_text[%zu]\n",
            bl.n, bl.stride, bl.n, bl.n, bl.n);
    for (size_t b = 0; b < bl.n; b++) {
        char combo[1200];
        fprintf(f, "block_tester[%zu] = %zu; block_combo[%zu] = %zu; block_text[%zu] = ", b + 1, bl.tester[b] + 1,
                b + 1, bl.combo[b], b + 1);
        plot_write_gp_string(f, sweep_combo_text(w, bl.combo[b], combo, sizeof combo));
        fputc('\n', f);
    }
    fprintf(f, "array affected[%zu]\n", w->n_testers);
    for (size_t i = 0; i < w->n_testers; i++)
        fprintf(f, "affected[%zu] = %d\n", i + 1, w->affected[i]);
    /* what moves along x: the first key and the keys zipped to it */
    fputs("xmoves = ", f);
    char moves[SWEEP_MAX_AXES * 140] = "";
    size_t used = 0;
    for (size_t a = 0; a < w->n_axes && (a == 0 || w->axes[a].zipped); a++) {
        int last = a + 1 == w->n_axes || !w->axes[a + 1].zipped;
        int n = snprintf(moves + used, sizeof moves - used, "%s%s%s", a == 1 ? " (with " : a ? ", " : "",
                         w->axes[a].key, a && last ? ")" : "");
        used += n > 0 && (size_t)n < sizeof moves - used ? (size_t)n : 0;
    }
    plot_write_gp_string(f, moves);
    fprintf(f, "\nxutil = %d\nreplications = %zu\n", w->x == SWEEP_X_UTILISATION, w->reps);
    /* with x the utilisation: which testers have a rate (the others are
     * drawn at the first rated tester's, sweep_write_chart_data) */
    fprintf(f, "array rated[%zu]\nfirst_rated = 0\n", w->n_testers);
    size_t first = 0;
    for (size_t i = 0; i < w->n_testers; i++) {
        int rated = 0;
        for (size_t p = 0; w->rho && p < w->n_points; p++)
            rated |= w->rho[p * w->n_testers + i] >= 0;
        fprintf(f, "rated[%zu] = %d\n", i + 1, rated);
        if (rated && !first)
            fprintf(f, "first_rated = %zu\n", first = i + 1);
    }
    char title[sizeof s->name + 16];
    snprintf(title, sizeof title, "Sweep of %s", s->name);
    fputs("chart_title = ", f);
    plot_write_gp_string(f, cli->title ? cli->title : title);
    fputc('\n', f);
    if (cli->slides) /* --style slides: the style reads it */
        fputs("style = 'slides'\n", f);
    sweep_blocks_free(&bl);
    return fclose(f) ? -ENOMEM : 0;
}

/* Write sweep.dat and sweep.gp (style: the style script's path) into d.
 * 0, or a negative errno with *what naming the file. */
static int write_chart_files(outdir *d, const sweep *w, const sweep_cli *cli, const scenario *s, const char *style,
                             const char **what)
{
    /* every tester's name and a space: never cut (a cut list loses a curve) */
    char testers[SCENARIO_MAX_TESTERS * (SCENARIO_NAME_MAX + 1) + 1] = "";
    char xlabel[sizeof w->axes[0].key + SWEEP_UNIT_MAX + 8], unit[SWEEP_UNIT_MAX + 1], outfile[32];
    size_t used = 0;
    for (size_t i = 0; i < w->n_testers; i++)
        used += (size_t)snprintf(testers + used, sizeof testers - used, "%s%s", i ? " " : "", w->names[i]);
    /* the x axis: the key and the unit of its values, or the utilisation */
    sweep_axis_unit(&w->axes[0], unit, sizeof unit);
    if (w->x == SWEEP_X_UTILISATION)
        snprintf(xlabel, sizeof xlabel, "offered utilisation (rate \u00d7 mean service time / workers)");
    else
        snprintf(xlabel, sizeof xlabel, "%s%s%s%s", w->axes[0].key, *unit ? " (" : "", unit, *unit ? ")" : "");
    snprintf(outfile, sizeof outfile, "sweep.%s", plot_format_ext(cli->format));
    char *extra = NULL;
    if (chart_preamble(w, cli, s, &extra))
        return *what = "sweep.gp", -ENOMEM;
    plot_script ps = {"sweep", "sweep.dat", testers, outfile, cli->format, 0, 0, 0, NULL, xlabel, NULL, NULL, extra};
    FILE *f = outdir_create(d, *what = "sweep.dat");
    int wrc = f ? finish(d, f, sweep_write_chart_data(f, w)) : -errno;
    if (!wrc) {
        f = outdir_create(d, *what = "sweep.gp");
        wrc = f ? finish(d, f, plot_write_script(f, s, style, &ps)) : -errno;
    }
    free(extra);
    return wrc;
}

/* A shard's sweep.shard (sweep_shard_write): the options recorded as
 * words, "--NAME" then the value. 0, or a negative errno with *what. */
static int write_shard(outdir *d, const sweep *w, const sweep_cli *cli, const char **what)
{
    char names[sizeof cli->rec / sizeof cli->rec[0] / 2][32];
    const char *words[sizeof cli->rec / sizeof cli->rec[0]];
    for (size_t k = 0; k < cli->n_rec; k++) {
        if (k % 2 == 0) {
            snprintf(names[k / 2], sizeof names[0], "--%s", cli->rec[k]);
            words[k] = names[k / 2];
        } else {
            words[k] = cli->rec[k];
        }
    }
    FILE *f = outdir_create(d, *what = "sweep.shard");
    return f ? finish(d, f, sweep_shard_write(f, w, cli->scenario_arg, words, cli->n_rec, cli->scenario_bytes,
                                              cli->scenario_hash))
             : -errno;
}

/* The sweep's outputs staged in d: sweep.csv (a shard's sweep.shard), and with a chart style
 * sweep.dat, sweep.gp and (unless --no-plot) sweep.FORMAT, checked
 * complete. *drawn is set when the picture was made. 0, or -1 after a
 * message. */
static int write_outputs(outdir *d, const char *dir, const sweep *w, const scenario *s, const sweep_cli *cli,
                         int *drawn)
{
    char style[4096];
    int chart = !plot_find_style(NULL, "sweep.gp", style, sizeof style);
    const char *what = "sweep.csv";
    FILE *f = outdir_create(d, what);
    int wrc = f ? finish(d, f, sweep_write_csv(f, w)) : -errno;
    if (!wrc && w->n_shards > 1)
        wrc = write_shard(d, w, cli, &what);
    if (!wrc && chart)
        wrc = write_chart_files(d, w, cli, s, style, &what);
    if (wrc) {
        fprintf(stderr, "cosim: sweep: %s/%s: cannot write: %s; nothing in %s was replaced\n", dir, what,
                strerror(-wrc), dir);
        return -1;
    }
    if (!chart || cli->no_plot)
        return 0;
    char *img, why[256], name[32];
    size_t len;
    int status;
    snprintf(name, sizeof name, "sweep.%s", plot_format_ext(cli->format));
    plot_render_status st = plot_render(outdir_staging_fd(d), "sweep.gp", cli->format, cli->plot_timeout, &img,
                                        &len, &status);
    if (st == PLOT_RENDERED) {
        wrc = outdir_write(d, name, img, len);
        free(img);
        if (wrc)
            fprintf(stderr, "cosim: sweep: %s/%s: cannot write: %s; nothing in %s was replaced\n", dir, name,
                    strerror(-wrc), dir);
        *drawn = !wrc;
        return wrc ? -1 : 0;
    }
    if (st == PLOT_NO_GNUPLOT) {
        fprintf(stderr, "cosim: sweep: gnuplot not found: kept sweep.gp and sweep.dat in %s; install "
                        "gnuplot and run 'gnuplot sweep.gp' there\n", dir);
        return 0;
    }
    fprintf(stderr, "cosim: sweep: %s/%s: %s; nothing in %s was replaced\n", dir, name,
            plot_render_message(why, sizeof why, st, status, "sweep.gp", cli->format, len, cli->plot_timeout), dir);
    return -1;
}

/* The table on standard output: p50/p99/p99.9 per point and tester, with
 * every varied key's value (and the tester's offered utilisation when it
 * is the x axis); a tester no varied key affects is marked "*". */
static void print_table(const sweep *w, const char *dir, int drawn, plot_format format, size_t merged)
{
    if (merged)
        printf("sweep of %s: %zu point%s x %zu replication%s, merged from %zu shards\n", w->path, w->n_points,
               w->n_points == 1 ? "" : "s", w->reps, w->reps == 1 ? "" : "s", merged);
    else
        printf("sweep of %s: %zu point%s x %zu replication%s, %u job%s%s\n", w->path, w->n_points,
               w->n_points == 1 ? "" : "s", w->reps, w->reps == 1 ? "" : "s", w->jobs, w->jobs == 1 ? "" : "s",
               w->n_shards > 1 ? " (one shard)" : "");
    printf("%-6s", "point");
    for (size_t a = 0; a < w->n_axes; a++)
        printf(" %-24s", w->axes[a].key);
    printf(" %-12s%s %12s %12s %12s\n", "tester", w->rho ? "    rho" : "", "p50", "p99", "p99.9");
    static const int metrics[3] = {SWEEP_M_P50, SWEEP_M_P99, SWEEP_M_P999};
    int marked = 0;
    for (size_t p = 0; p < w->n_points; p++) {
        if (p % w->n_shards != w->shard)
            continue;
        size_t idx[SWEEP_MAX_AXES];
        sweep_point_values(w, p, idx);
        for (size_t i = 0; i < w->n_testers; i++) {
            char b[3][32], name[64], rho[48] = "";
            for (int k = 0; k < 3; k++) {
                double m, ci;
                sweep_mean_ci(w, p, i, metrics[k], &m, &ci);
                if (sweep_has_samples(w, p, i))
                    units_format_duration((int64_t)(m + 0.5), b[k], sizeof b[k]);
                else
                    snprintf(b[k], sizeof b[k], "no samples");
            }
            snprintf(name, sizeof name, "%s%s", w->names[i], w->affected[i] ? "" : "*");
            marked |= !w->affected[i];
            if (w->rho && w->rho[p * w->n_testers + i] >= 0)
                snprintf(rho, sizeof rho, w->rho[p * w->n_testers + i] < 1000 ? " %6.3f" : " %6.3g",
                         w->rho[p * w->n_testers + i]);
            else if (w->rho)
                snprintf(rho, sizeof rho, " %6s", "-");
            printf("%-6zu", p);
            for (size_t a = 0; a < w->n_axes; a++)
                printf(" %-24s", w->axes[a].values[idx[a]]);
            printf(" %-12s%s %12s %12s %12s\n", name, rho, b[0], b[1], b[2]);
        }
    }
    if (marked)
        printf("* no varied key affects this tester (each tester runs on its own server): its figures are the "
               "same at every point\n");
    printf("\nwrote %s/: sweep.csv%s%s\n", dir, drawn ? ", sweep." : "", drawn ? plot_format_ext(format) : "");
}

/* The output folder, taken before the runs (so a refusal costs nothing):
 * -o, else out/NAME-sweep (a shard its own). 0, or COSIM_EXIT_OUTPUT after
 * a message. */
static int open_output(const sweep *w, const char *output, int force, const char *name, outdir **d, char *dir,
                       size_t dirlen)
{
    char source[PATH_MAX], oerr[PATH_MAX + 1024];
    char suffix[64] = "-sweep"; /* each shard its own default folder */
    if (w->n_shards > 1)
        snprintf(suffix, sizeof suffix, "-sweep-shard-%u-of-%u", w->shard, w->n_shards);
    if (output)
        snprintf(dir, dirlen, "%s", output);
    else if (outdir_default(dir, dirlen, w->path, name, SCENARIO_NAME_MAX, suffix)) {
        fprintf(stderr, "cosim: sweep: %s: the default output folder's name is too long; give -o DIR\n", w->path);
        return COSIM_EXIT_OUTPUT;
    }
    outdir_options oo = {force, realpath(w->path, source) ? source : w->path, !output, 0};
    if (outdir_open(d, dir, &oo, oerr, sizeof oerr)) {
        fprintf(stderr, "cosim: sweep: %s\n", oerr);
        return COSIM_EXIT_OUTPUT;
    }
    return COSIM_EXIT_OK;
}

/* The testers' names and kinds, and which ones a varied key affects. 0
 * or COSIM_EXIT_SIM after a message. */
static int take_testers(sweep *w, const scenario *s)
{
    w->n_testers = s->n_testers;
    w->names = calloc(w->n_testers, sizeof *w->names);
    w->kinds = calloc(w->n_testers, sizeof *w->kinds);
    w->affected = calloc(w->n_testers, sizeof *w->affected);
    if (!w->names || !w->kinds || !w->affected) {
        fprintf(stderr, "cosim: sweep: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    for (size_t i = 0; i < w->n_testers; i++) {
        snprintf(w->names[i], sizeof w->names[i], "%s", s->testers[i].name);
        w->kinds[i] = s->testers[i].kind;
        w->affected[i] = (unsigned char)sweep_affects(w, s->testers[i].name);
    }
    return 0;
}

/* Room for the results, once the estimate accepted the sweep (a sweep
 * over the budget is refused as such, not for its memory). 0 or
 * COSIM_EXIT_SIM after a message. */
static int take_results(sweep *w)
{
    w->res = calloc(w->n_tasks * w->n_testers * SWEEP_N_METRICS, sizeof *w->res);
    if (!w->res) {
        fprintf(stderr, "cosim: sweep: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    return 0;
}

/* --x-axis utilisation needs a tester with a request rate at every point.
 * 0, or COSIM_EXIT_USAGE after a message. */
static int check_utilisation(const sweep *w)
{
    for (size_t p = w->shard; w->rho && p < w->n_points; p += w->n_shards) {
        int any = 0;
        for (size_t i = 0; i < w->n_testers; i++)
            any |= w->rho[p * w->n_testers + i] >= 0;
        if (!any) {
            fprintf(stderr, "cosim: sweep: --x-axis utilisation: no tester of %s has a request rate at point %zu "
                            "(a closed tester has none); give --x-axis key\n", w->path, p);
            return COSIM_EXIT_USAGE;
        }
    }
    return 0;
}

/* --estimate: the work of the points sweep_estimate loaded (the shard's),
 * in the work budget's units (run.h: simulated requests, truth probes,
 * correction buckets, and SWEEP_RUN_SETUP_WORK per run), and its share of
 * RUN_WORK_BUDGET, so a user sizes a job array before submitting it. */
static void print_estimate(const sweep *w)
{
    double total = 0;
    size_t points = 0;
    for (size_t p = w->shard; p < w->n_points; p += w->n_shards) {
        total += w->work[p] * (double)w->reps;
        points++;
    }
    char shard[64] = "";
    if (w->n_shards > 1)
        snprintf(shard, sizeof shard, "shard %u of %u: ", w->shard, w->n_shards);
    printf("%s%zu point%s x %zu replication%s = %zu runs, %.3g work units (%.2g%% of the budget of %.0e%s)\n",
           shard, points, points == 1 ? "" : "s", w->reps, w->reps == 1 ? "" : "s", points * w->reps, total,
           100.0 * total / RUN_WORK_BUDGET, RUN_WORK_BUDGET,
           total > RUN_WORK_BUDGET ? ": over it, needs --allow-long" : "");
}

/* --merge: parse the shards' options (m's shard 0) into w and cli, as the
 * one-machine sweep of those options would have, keeping the merge's own
 * -o, -q, --force, --no-plot, --plot-timeout. argv2 receives the words
 * (kept by the caller while w is used). 0, or the exit code. */
static int parse_from_shards(sweep *w, sweep_cli *cli, const sweep_merge *m, char ***argv2)
{
    const sweep_shard *a = &m->shards[0];
    sweep_cli keep = *cli;
    *argv2 = calloc(a->n_args + 3, sizeof **argv2);
    if (!*argv2) {
        fprintf(stderr, "cosim: sweep: --merge: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    size_t n = 0;
    (*argv2)[n++] = "sweep";
    for (size_t k = 0; k < a->n_args; k++)
        (*argv2)[n++] = a->args[k];
    (*argv2)[n++] = a->scenario;
    memset(w, 0, sizeof *w);
    w->reps = 1;
    w->jobs = 1;
    w->n_shards = 1;
    memset(cli, 0, sizeof *cli);
    cli->plot_timeout = PLOT_DEFAULT_TIMEOUT_S;
    if (parse_sweep_args(w, cli, (int)n, *argv2) != 0 || cli->merge) {
        fprintf(stderr, "cosim: sweep: --merge: %s: the shards' options (above) cannot be taken by this cosim\n",
                m->dirs[0]);
        return COSIM_EXIT_SCENARIO;
    }
    cli->output = keep.output;
    cli->quiet = keep.quiet;
    cli->force = keep.force;
    cli->no_plot = keep.no_plot;
    cli->plot_timeout = keep.plot_timeout;
    cli->merge = 1;
    w->allow_long = 1; /* nothing runs: the budget was the shards' */
    return 0;
}

int sweep_main(int argc, char **argv)
{
    sweep w;
    memset(&w, 0, sizeof w);
    w.reps = 1;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    w.jobs = nproc > 0 ? (unsigned)nproc : 1;
    w.n_shards = 1;
    sweep_cli cli = {.plot_timeout = PLOT_DEFAULT_TIMEOUT_S};
    sweep_merge m;
    memset(&m, 0, sizeof m);
    char **argv2 = NULL;
    outdir *d = NULL;
    char err[1200], dir[PATH_MAX];
    scenario *s = NULL;
    int rc = parse_sweep_args(&w, &cli, argc, argv);
    if (rc) {
        rc = rc < 0 ? COSIM_EXIT_USAGE : COSIM_EXIT_OK;
        goto out;
    }
    /* --merge: the shards read and checked, then the sweep they are parts
     * of parsed from their options: nothing is written before all passed */
    if (cli.merge && ((rc = sweep_merge_read(cli.merge_dirs, cli.n_merge_dirs, &m)) != 0 ||
                      (rc = parse_from_shards(&w, &cli, &m, &argv2)) != 0))
        goto out;
    /* the whole job's work, before anything starts: every point of the
     * shard loads (so a bad value anywhere fails now) and is estimated */
    if ((rc = sweep_check_points(&w, &s)) != 0 || (rc = take_testers(&w, s)) != 0 ||
        (rc = sweep_estimate(&w)) != 0 || (rc = check_utilisation(&w)) != 0 || (rc = take_results(&w)) != 0)
        goto out;
    if (cli.estimate) {
        print_estimate(&w);
        goto out;
    }
    if (cli.merge && (rc = sweep_merge_fill(&m, &w)) != 0)
        goto out;
    if (w.n_shards > 1) { /* the text this shard runs, for the merge's check */
        int drc = sweep_shard_digest(w.path, &cli.scenario_bytes, &cli.scenario_hash);
        if (drc) {
            fprintf(stderr, "cosim: sweep: %s: cannot read: %s\n", w.path, strerror(-drc));
            rc = COSIM_EXIT_SCENARIO;
            goto out;
        }
    }
    if ((rc = open_output(&w, cli.output, cli.force, s->name, &d, dir, sizeof dir)) != 0)
        goto out;
    if (!cli.merge && (rc = sweep_run_workers(&w, err, sizeof err)) != 0) {
        fprintf(stderr, "cosim: sweep: %s\n", err);
        goto out;
    }
    /* outputs: all staged, the chart checked complete, then committed */
    int drawn = 0;
    rc = COSIM_EXIT_OUTPUT;
    if (write_outputs(d, dir, &w, s, &cli, &drawn) == 0) {
        if (outdir_commit(d, err, sizeof err))
            fprintf(stderr, "cosim: sweep: %s; nothing in %s was replaced\n", err, dir);
        else
            rc = COSIM_EXIT_OK;
    }
    outdir_close(d);
    d = NULL;
    if (rc == COSIM_EXIT_OK && !cli.quiet)
        print_table(&w, dir, drawn, cli.format, cli.merge ? m.n : 0);
out:
    outdir_close(d);
    scenario_free(s);
    sweep_free(&w);
    sweep_merge_free(&m);
    free(argv2);
    return rc;
}
