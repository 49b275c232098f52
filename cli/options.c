/* options.c - the cosim command line: the help text, the options of a run
 * and their checks, and the scenario they name read and checked. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"
#include "datadir.h"
#include "names.h"
#include "exitcode.h"
#include "hist.h"
#include "charts.h"
#include "textin.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The --help text (fputs: no format directives). */
static const char usage_text[] =
    "Usage: cosim [OPTIONS] SCENARIO.ini   (or a shipped scenario's NAME, or -)\n"
    "       cosim sweep [OPTIONS] SCENARIO.ini --vary KEY=FROM..TO:STEPS (see cosim sweep --help)\n"
    "       cosim lecture [OPTIONS] SCENARIO.ini... -o DIR (see cosim lecture --help)\n"
    "       cosim target SCENARIO.ini [--port N] [--duration D] [--stall-log FILE] (a real server;\n"
    "         see cosim target --help)\n"
    "       cosim compare SCENARIO.ini TESTER=FILE... (a real tool's output beside the prediction)\n"
    "       cosim baseline TOOL FILE (a tool's no-stall run as service times)\n"
    "\n"
    "Simulate load testers (closed, paced, open, corrected) against a FIFO server\n"
    "with stalls, on a virtual clock, and show what each tester reports: the\n"
    "coordinated omission of the closed and paced loops next to the open loop.\n"
    "cosim sweep runs a scenario over a grid of key values; cosim lecture runs\n"
    "several and writes one HTML page of their lessons, tables, charts and checks.\n"
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
    "      --style STYLE      default, or slides: 16:9 charts (1920x1080 px, a\n"
    "                         13.33x7.5 in PDF) with fonts legible at the back of\n"
    "                         a hall, multi-panel charts in a grid that fits a slide\n"
    "      --no-plot          write the charts' .gp and .dat but do not run gnuplot\n"
    "      --plot-timeout S   stop gnuplot when the run's charts together take\n"
    "                         more than S seconds (default 60): exit 4, nothing\n"
    "                         in DIR replaced\n"
    "      --charts LIST      which charts: spectrum,timeline,requests,summary\n"
    "                         (default all; none for none)\n"
    "      --window A..B      the time window of the timeline and request-bar\n"
    "                         charts, e.g. 0.9s..1.6s (default: the scenario's\n"
    "                         chart_window, else around the longest stall)\n"
    "      --timeline-by BY   the timeline's time axis: intended (default) send\n"
    "                         time, or reply time (a stall shows as a gap)\n"
    "      --animate          also draw requests.gif: the request bars frame by\n"
    "                         frame through the window (gnuplot's gif terminal)\n"
    "      --latency-axis AX  log (default) or linear latency axis\n"
    "      --replications N   also run seeds SEED+1 .. SEED+N-1: print each tester's\n"
    "                         p50/p99/p99.9 mean and 95% confidence interval and\n"
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
    "Outputs in DIR: summary.json; summary.md and summary.csv (the tables); one\n"
    "TESTER.hgrm percentile spectrum per tester (HdrHistogram's layout, values in\n"
    "milliseconds as wrk2 writes them), and TESTER.hlog interval logs with\n"
    "[scenario] hlog_interval; for each chart its .dat, .gp and picture: spectrum\n"
    "(latency by percentile; spectrum_band.dat with --replications), timeline\n"
    "(latency of each request against its intended send time), requests (bars\n"
    "from intended send to reply around a stall) and summary (each tester's p50,\n"
    "p99, p99.9 and mean, values on stems); stalls.dat, the stalls the timeline\n"
    "and requests charts shade; with --animate requests_anim.gp and requests.gif;\n"
    ".cosim-manifest, the files cosim wrote.\n"
    "\n"
    "The report (unless -q): per tester, planned (the requests its schedule\n"
    "called for), sent, in flight (sent, no reply at the end), recorded (the\n"
    "latencies in its histogram, a correction's added samples included) and\n"
    "> T (recorded over [scenario] threshold); then the mean, percentiles (by\n"
    "the rank rule in the header) and max of what each recorded. The truth row\n"
    "([truth]) is what a user arriving at a random instant would wait, on a\n"
    "server loaded by [truth] load (by default the first open tester, else the\n"
    "first tester; none: an idle server, said in a note); 'vs truth' is each\n"
    "tester's reported / true - 1. 'note:' lines say where a figure needs care.\n"
    "A tester's profile = NAME (wrk2, k6_constant_arrival_rate, jmeter_..., see\n"
    "docs/models.md) sets the keys that make it behave as that load tool.\n"
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
    "  2  bad command line, a --set value included (also: --seed plus\n"
    "     --replications past 2^64 - 1)\n"
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
    "SCENARIO: a file; - for standard input (messages name <stdin>:LINE, data\n"
    "files are found in the current folder, the output folder is out/stdin); or,\n"
    "when no such file exists, a shipped scenario by NAME, NAME.ini or\n"
    "scenarios/NAME.ini, looked for beside the program (PREFIX/share/cosim/\n"
    "scenarios), then in the source tree when run from its build folder, then in\n"
    "the configured prefix; chart styles are found the same way (plots/).\n"
    "\n"
    "Example: cosim stall_per_second    (scenarios/stall_per_second.ini)\n"
    "Scenario format: docs/scenario-format.md (installed: PREFIX/share/doc/cosim);\n"
    "manual: man cosim (man -l docs/cosim.1 in a clone)\n";

void options_usage(FILE *f)
{
    fputs(usage_text, f);
}

static int add_set(options *o, const char *s)
{
    const char **n = realloc(o->sets, (o->n_sets + 1) * sizeof *n);
    if (!n)
        return -1;
    o->sets = n;
    o->sets[o->n_sets++] = s;
    return 0;
}

void options_free(options *o)
{
    free(o->sets);
    free(o->owned[0]);
    free(o->owned[1]);
    memset(o, 0, sizeof *o);
}

/* The options, their getopt codes past any short option's. */
enum { OPT_SET = 256, OPT_SEED, OPT_RANK, OPT_FORMAT, OPT_NOPLOT, OPT_PLOTS, OPT_CHECK,
       OPT_CHARTS, OPT_WINDOW, OPT_AXIS, OPT_REPS, OPT_FORCE, OPT_PLOT_TIMEOUT, OPT_LONG, OPT_LIST_KEYS,
       OPT_TIMELINE_BY, OPT_ANIMATE, OPT_STYLE, OPT_END };

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
    {"timeline-by", required_argument, NULL, OPT_TIMELINE_BY},
    {"animate", no_argument, NULL, OPT_ANIMATE},
    {"style", required_argument, NULL, OPT_STYLE},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

int options_path_printable(const char *prefix, const char *what, const char *path)
{
    char shown[200];
    long at = names_path_control(path, shown, sizeof shown);
    if (at < 0)
        return 0;
    fprintf(stderr, "cosim: %s%s \"%s\": the path holds a control character (byte %ld); cosim names its files "
                    "in one-line messages, so give a path without one (rename the file, or link to it)\n",
            prefix, what, shown, at + 1);
    return -1;
}

int options_output_stream_refused(const char *prefix, const char *arg)
{
    if (strcmp(arg, "-") != 0)
        return 0;
    fprintf(stderr, "cosim: %s-o -: cosim writes a folder of files (tables, spectra, charts), not one stream; "
                    "give a folder, e.g. -o out/run (the summary goes to standard output anyway)\n", prefix);
    return -1;
}

static int opt_output(options *o, const char *arg)
{
    if (options_path_printable("", "-o", arg) || options_output_stream_refused("", arg))
        return -1;
    if (!*arg || strlen(arg) > MAX_DIR_PATH) {
        fprintf(stderr, "cosim: -o: %s\n", *arg ? "the folder's path is longer than 3800 bytes"
                                                : "an empty folder name");
        return -1;
    }
    o->output = arg;
    return 0;
}

/* --seed N and --rank-rule RULE: checked here, then given to the scenario
 * reader as the --set they stand for. */
static int opt_seed_or_rank(options *o, int is_seed, const char *arg)
{
    hist_rank_rule rule;
    uint64_t seed;
    const char *why;
    if (is_seed && (strspn(arg, "0123456789") != strlen(arg) || units_parse_count(arg, UINT64_MAX, &seed, &why))) {
        fprintf(stderr, "cosim: --seed %s: expected a whole number such as 42 (at most %llu)\n", arg,
                (unsigned long long)UINT64_MAX);
        return -1;
    }
    if (!is_seed && hist_rank_rule_parse(arg, &rule)) {
        fprintf(stderr, "cosim: --rank-rule %s: expected nearest_rank, rounded_rank or "
                        "sorted_index\n", arg);
        return -1;
    }
    int k = is_seed ? 0 : 1;
    size_t len = strlen(arg) + 32;
    o->owned[k] = malloc(len);
    if (!o->owned[k])
        return -1;
    snprintf(o->owned[k], len, "%s=%s", k ? "scenario.rank_rule" : "scenario.seed", arg);
    return add_set(o, o->owned[k]);
}

static int opt_plots_dir(options *o, const char *arg)
{
    struct stat st;
    if (options_path_printable("", "--plots-dir", arg))
        return -1;
    if (strlen(arg) > MAX_DIR_PATH) {
        fprintf(stderr, "cosim: --plots-dir: the folder's path is longer than 3800 bytes\n");
        return -1;
    }
    if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "cosim: --plots-dir %s: not a folder\n", arg);
        return -1;
    }
    o->plots_dir = arg;
    return 0;
}

/* --charts LIST: names from the chart table, or none. */
static int opt_charts(options *o, const char *arg)
{
    o->charts = 0;
    o->charts_set = 1;
    /* a word at a time, straight from the argument: nothing is cut */
    for (const char *q = arg;;) {
        size_t n = strcspn(q, ",");
        int k = chart_kind_find(q, n);
        if (k < 0 && !(n == 4 && strncmp(q, "none", 4) == 0)) {
            fprintf(stderr, "cosim: --charts %s: expected a list of ", arg);
            for (size_t j = 0; j < N_CHARTS; j++)
                fprintf(stderr, "%s%s", j ? ", " : "", chart_kinds[j].name);
            fprintf(stderr, " (or none)\n");
            return -1;
        }
        if (k < 0 && (q != arg || q[n])) { /* none with charts: which was meant? */
            fprintf(stderr, "cosim: --charts %s: none stands alone (--charts none), not in a list\n", arg);
            return -1;
        }
        if (k >= 0 && (o->charts & (1u << k))) {
            fprintf(stderr, "cosim: --charts %s: %.*s is listed twice; name each chart once\n", arg, (int)n, q);
            return -1;
        }
        if (k >= 0)
            o->charts |= 1u << k;
        if (!q[n])
            return 0;
        q += n + 1;
    }
}

static int opt_window(options *o, const char *arg)
{
    /* the form now; against the run's duration once it is read */
    char why[160];
    if (scenario_parse_window(arg, INT64_MAX, &o->win_from, &o->win_to, why, sizeof why)) {
        fprintf(stderr, "cosim: --window %s: %s\n", arg, why);
        return -1;
    }
    o->window = arg;
    return 0;
}

static int opt_replications(options *o, const char *arg)
{
    uint64_t n;
    const char *why;
    if (units_parse_count(arg, 1000, &n, &why) || n < 1 || strspn(arg, "0123456789") != strlen(arg)) {
        fprintf(stderr, "cosim: --replications %s: a whole number from 1 to 1000\n", arg);
        return -1;
    }
    o->replications = (unsigned)n;
    return 0;
}

static int opt_axis(options *o, const char *arg)
{
    if (strcmp(arg, "log") && strcmp(arg, "linear")) {
        fprintf(stderr, "cosim: --latency-axis %s: expected log or linear\n", arg);
        return -1;
    }
    o->ylinear = strcmp(arg, "linear") == 0;
    return 0;
}

/* One option (getopt's code c, its argument arg) into o: 0 go on, 1 stop
 * here (--help, --version, --list-keys), -1 after a message. */
static int take_option(options *o, int c, const char *arg, const char *word)
{
    switch (c) {
    case 'o':
        return opt_output(o, arg);
    case OPT_SET:
        return add_set(o, arg);
    case OPT_SEED:
    case OPT_RANK:
        return opt_seed_or_rank(o, c == OPT_SEED, arg);
    case OPT_FORMAT:
        if (plot_format_parse(arg, &o->format)) {
            fprintf(stderr, "cosim: --format %s: expected png, svg or pdf\n", arg);
            return -1;
        }
        return 0;
    case OPT_NOPLOT:
        o->no_plot = 1;
        return 0;
    case OPT_PLOTS:
        return opt_plots_dir(o, arg);
    case OPT_CHECK:
        o->check = 1;
        return 0;
    case OPT_CHARTS:
        return opt_charts(o, arg);
    case OPT_WINDOW:
        return opt_window(o, arg);
    case OPT_REPS:
        return opt_replications(o, arg);
    case OPT_FORCE:
        o->force = 1;
        return 0;
    case OPT_PLOT_TIMEOUT:
        if (plot_parse_timeout(arg, &o->plot_timeout_s)) {
            fprintf(stderr, "cosim: --plot-timeout %s: a whole number of seconds from 1 to %u\n", arg,
                    PLOT_MAX_TIMEOUT_S);
            return -1;
        }
        return 0;
    case OPT_LONG:
        o->allow_long = 1;
        return 0;
    case OPT_AXIS:
        return opt_axis(o, arg);
    case OPT_TIMELINE_BY:
        if (strcmp(arg, "intended") && strcmp(arg, "reply")) {
            fprintf(stderr, "cosim: --timeline-by %s: expected intended or reply\n", arg);
            return -1;
        }
        o->timeline_by_reply = strcmp(arg, "reply") == 0;
        return 0;
    case OPT_ANIMATE:
        o->animate = 1;
        return 0;
    case OPT_STYLE:
        if (plot_style_parse(arg, &o->slides)) {
            fprintf(stderr, "cosim: --style %s: expected default or slides\n", arg);
            return -1;
        }
        return 0;
    case 'q':
        o->quiet = 1;
        return 0;
    case 'h':
        o->help = 1;
        return 1;
    case 'V':
        o->version = 1;
        return 1;
    case OPT_LIST_KEYS:
        o->list_keys = 1;
        return 1;
    case ':':
        fprintf(stderr, "cosim: option %s needs a value\n", word);
        return -1;
    default:
        fprintf(stderr, "cosim: unknown option %s\n", word);
        return -1;
    }
}

int options_parse(int argc, char **argv, options *o)
{
    unsigned char seen[OPT_END] = {0};
    opterr = 0;
    optind = 0; /* a fresh scan (GNU getopt), so options_parse may run again */
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
        int rc = take_option(o, c, optarg, argv[optind - 1]);
        if (rc)
            return rc < 0 ? -1 : 0;
    }
    if (optind == argc) {
        fprintf(stderr, "cosim: no scenario given\n");
        return -1;
    }
    if (argc - optind > 1) {
        fprintf(stderr, "cosim: one scenario at a time (got %d)\n", argc - optind);
        return -1;
    }
    if (options_path_printable("", "the scenario", argv[optind]))
        return -1;
    o->scenario = options_scenario_path(argv[optind], o->scenario_buf, sizeof o->scenario_buf);
    return 0;
}

/* 1 when path names a file or folder that exists. */
static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

const char *options_scenario_path(const char *arg, char *buf, size_t len)
{
    if (strcmp(arg, "-") == 0 || exists(arg) || arg[0] == '/' || strncmp(arg, "./", 2) == 0 ||
        strncmp(arg, "../", 3) == 0 || strstr(arg, "/../"))
        return arg;
    /* scenarios/NAME.ini as the docs write it, from any folder */
    const char *rel = strncmp(arg, "scenarios/", 10) == 0 ? arg + 10 : arg;
    char with_ini[SCENARIO_PATH_MAX + 8];
    size_t n = strlen(rel);
    int has_ini = n > 4 && strcmp(rel + n - 4, ".ini") == 0;
    if (datadir_find("scenarios", rel, buf, len) == 0)
        return buf;
    if (!has_ini && n + 5 <= sizeof with_ini) {
        snprintf(with_ini, sizeof with_ini, "%s.ini", rel);
        if (datadir_find("scenarios", with_ini, buf, len) == 0)
            return buf;
    }
    return arg;
}

/* --plots-dir DIR holds, as regular files, the style of every chart the
 * run will draw (options_charts_wanted; animate.gp with --animate and the
 * requests chart): the user asked
 * for that folder, so a missing style is an error, not a dropped chart.
 * 0, or -1 after a message. */
static int check_plots_dir(const options *o)
{
    if (!o->plots_dir)
        return 0;
    unsigned want = options_charts_wanted(o);
    for (size_t k = 0; k <= N_CHARTS; k++) {
        if (k < N_CHARTS ? !(want & (1u << k)) : !(o->animate && (want & (1u << CHART_REQUESTS))))
            continue;
        char file[64], path[MAX_DIR_PATH + 80];
        snprintf(file, sizeof file, "%s.gp", k < N_CHARTS ? chart_kinds[k].name : "animate");
        snprintf(path, sizeof path, "%s/%s", o->plots_dir, file);
        const char *what;
        int errnum;
        FILE *f = scenario_open_regular(path, &what, &errnum);
        if (f) {
            fclose(f);
            continue;
        }
        char why[160];
        snprintf(why, sizeof why, "%s", what ? what : errnum == ENOENT ? "is missing" : strerror(errnum));
        fprintf(stderr, "cosim: --plots-dir %s: the chart style %s %s; give a folder that holds %s (a copy of "
                        "plots/)%s\n", o->plots_dir, path, why, file,
                k < N_CHARTS ? ", or leave the chart out with --charts" : "");
        return -1;
    }
    return 0;
}

scenario *options_load_scenario(const options *o, int *exit_code)
{
    char err[SCENARIO_PATH_MAX + 4096]; /* a long path is named whole */
    scenario *s = NULL;
    if (check_plots_dir(o)) {
        *exit_code = COSIM_EXIT_USAGE;
        return NULL;
    }
    if (!o->scenario) { /* main asks for none after --help, --version, --list-keys */
        fputs("cosim: give a SCENARIO.ini (or a shipped scenario's name, or -)\n", stderr);
        *exit_code = COSIM_EXIT_USAGE;
        return NULL;
    }
    scenario_error se;
    if (strcmp(o->scenario, "-") == 0) /* standard input, named <stdin> in messages */
        se = scenario_load_stream(&s, stdin, OPTIONS_STDIN_NAME, o->sets, o->n_sets, err, sizeof err);
    else
        se = scenario_load(&s, o->scenario, o->sets, o->n_sets, err, sizeof err);
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

const char *options_title_problem(const char *title, size_t max_bytes)
{
    size_t n = strlen(title), bad;
    if (n == 0)
        return "an empty title";
    if (n > max_bytes)
        return "too long";
    for (const char *c = title; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return "a control character (a newline?)";
    if (!textin_utf8_valid(title, &bad))
        return "not valid UTF-8";
    return NULL;
}

unsigned options_charts_wanted(const options *o)
{
    if (o->check && !o->output)
        return 0;
    return o->charts_set ? o->charts : (1u << N_CHARTS) - 1; /* default: every chart */
}
