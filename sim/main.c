/* main.c - the cosim command line. */
#define _POSIX_C_SOURCE 200809L
#include "expect.h"
#include "outdir.h"
#include "plot.h"
#include "report.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef COSIM_VERSION
#define COSIM_VERSION "0.1.0"
#endif

/* Exit codes (documented in --help and docs/cosim.1). */
enum {
    EXIT_OK = 0,
    EXIT_CHECK = 1,    /* reserved: an expectation was missed (--check) */
    EXIT_USAGE = 2,    /* bad command line */
    EXIT_SCENARIO = 3, /* the scenario cannot be read or is wrong */
    EXIT_OUTPUT = 4,   /* an output could not be written */
    EXIT_SIM = 5,      /* the simulation could not run (limits, memory) */
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: cosim [OPTIONS] SCENARIO.ini\n"
            "\n"
            "Simulate load testers (closed, paced, open, corrected) against a FIFO server\n"
            "with stalls, on a virtual clock, and show what each tester reports: the\n"
            "coordinated omission of the closed and paced loops next to the open loop.\n"
            "\n"
            "Options:\n"
            "  -o, --output DIR       write the outputs into DIR (default: out/NAME, NAME\n"
            "                         being the scenario's name)\n"
            "      --set SEC.KEY=VAL  override a scenario key, e.g. --set scenario.rank_rule=\n"
            "                         nearest_rank or --set tester.open.rate=2000/s\n"
            "                         (repeatable; a '.' in SEC stands for its space)\n"
            "      --seed N           the GSL seed (same as --set scenario.seed=N)\n"
            "      --rank-rule RULE   nearest_rank, rounded_rank or sorted_index\n"
            "                         (same as --set scenario.rank_rule=RULE)\n"
            "      --format FMT       chart format: png (default), svg or pdf\n"
            "      --no-plot          write the chart's .gp and .dat but do not run gnuplot\n"
            "      --plots-dir DIR    take the chart styles (spectrum.gp) from DIR\n"
            "      --check            compare the run with the scenario's [expect NAME]\n"
            "                         sections, print expected / got / verdict, exit 1 on\n"
            "                         any miss; writes no output folder unless -o is given\n"
            "  -q, --quiet            do not print the summary\n"
            "  -h, --help             show this help and exit\n"
            "  -V, --version          show the version and exit\n"
            "\n"
            "Outputs in DIR: summary.json, one TESTER.hgrm percentile spectrum per tester\n"
            "(HdrHistogram's layout, values in microseconds), spectrum.dat, spectrum.gp and\n"
            "the chart spectrum.png (latency by percentile). Files are written under\n"
            "temporary names and renamed into place once all are complete.\n"
            "\n"
            "Exit status:\n"
            "  0  success\n"
            "  1  an expectation was not met (--check)\n"
            "  2  bad command line\n"
            "  3  the scenario cannot be read or is wrong (the message names FILE:LINE)\n"
            "  4  an output could not be written (folder, disk, gnuplot failure)\n"
            "  5  the simulation could not run (request limit, memory)\n"
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
    int quiet;
} options;

static int add_set(options *o, const char *s)
{
    const char **n = realloc(o->sets, (o->n_sets + 1) * sizeof *n);
    if (!n)
        return -1;
    o->sets = n;
    o->sets[o->n_sets++] = s;
    return 0;
}

/* --seed and --rank-rule become --set entries; their strings are kept here. */
static char *owned[2];

static int parse_args(int argc, char **argv, options *o)
{
    enum { OPT_SET = 256, OPT_SEED, OPT_RANK, OPT_FORMAT, OPT_NOPLOT, OPT_PLOTS, OPT_CHECK };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"set", required_argument, NULL, OPT_SET},
        {"seed", required_argument, NULL, OPT_SEED},
        {"rank-rule", required_argument, NULL, OPT_RANK},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"no-plot", no_argument, NULL, OPT_NOPLOT},
        {"plots-dir", required_argument, NULL, OPT_PLOTS},
        {"check", no_argument, NULL, OPT_CHECK},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->output = optarg;
            break;
        case OPT_SET:
            if (add_set(o, optarg))
                return -1;
            break;
        case OPT_SEED:
        case OPT_RANK: {
            hist_rank_rule rule;
            if (c == OPT_SEED && (!*optarg || strspn(optarg, "0123456789") != strlen(optarg) ||
                                  strlen(optarg) > 19)) {
                fprintf(stderr, "cosim: --seed %s: expected a whole number such as 42\n", optarg);
                return -1;
            }
            if (c == OPT_RANK && hist_rank_rule_parse(optarg, &rule)) {
                fprintf(stderr, "cosim: --rank-rule %s: expected nearest_rank, rounded_rank or "
                                "sorted_index\n", optarg);
                return -1;
            }
            int k = c == OPT_SEED ? 0 : 1;
            size_t len = strlen(optarg) + 32;
            free(owned[k]);
            owned[k] = malloc(len);
            if (!owned[k])
                return -1;
            snprintf(owned[k], len, "%s=%s", k ? "scenario.rank_rule" : "scenario.seed", optarg);
            if (add_set(o, owned[k]))
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
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            exit(EXIT_OK);
        case 'V':
            printf("cosim %s\n", COSIM_VERSION);
            exit(EXIT_OK);
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

/* Write every output file into d (under temporary names). */
static int write_outputs(outdir *d, const scenario *s, const run_result *r, const options *o,
                         const char *style, char *chart, size_t chart_len, char *err, size_t errlen)
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
        int c_ = outdir_finish(d, f);                                                              \
        if ((rc = w_ ? w_ : c_))                                                                   \
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
    chart[0] = '\0';
    if (style) {
        OPEN("spectrum.dat");
        CLOSE(plot_write_spectrum_data(f, s, r));
        snprintf(chart, chart_len, "spectrum.%s", plot_format_ext(o->format));
        OPEN("spectrum.gp");
        CLOSE(plot_write_spectrum_script(f, s, r, style, "spectrum.dat", chart, o->format));
    }
    return 0;
fail:
    snprintf(err, errlen, "%s/%s: cannot write: %s", outdir_path(d), name, strerror(-rc));
    return rc;
#undef OPEN
#undef CLOSE
}

static int run(const options *opts);

/* The files cosim writes into an output folder (and may therefore remove
 * when a later run does not write them again). */
static int is_cosim_output(const char *name)
{
    static const char *const fixed[] = {"summary.json", "spectrum.dat", "spectrum.gp",
                                        "spectrum.png", "spectrum.svg", "spectrum.pdf", NULL};
    for (int i = 0; fixed[i]; i++)
        if (strcmp(name, fixed[i]) == 0)
            return 1;
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".hgrm") == 0 && name[0] != '.';
}

/* Run gnuplot on the folder's spectrum.gp, writing chart under its
 * temporary name, then put it in place. 0, or -1 after saying why. */
static int render_chart(outdir *d, const char *dir, char *chart, plot_format format)
{
    char tmp[4200], rel[128];
    outdir_tmp_file(d, chart, tmp, sizeof tmp);
    snprintf(rel, sizeof rel, ".%s.tmp", chart);
    int status = 0;
    struct stat st;
    switch (plot_render(dir, "spectrum.gp", rel, &status)) {
    case PLOT_RENDERED:
        if (stat(tmp, &st) != 0 || st.st_size == 0) {
            remove(tmp);
            fprintf(stderr, "cosim: %s/%s: gnuplot wrote an empty chart (is the disk full?)\n", dir,
                    chart);
            chart[0] = '\0';
            return -1;
        }
        if ((format == PLOT_PDF && plot_pdf_clear_date(tmp)) || outdir_rename_into_place(d, chart)) {
            remove(tmp);
            fprintf(stderr, "cosim: %s/%s: cannot put the chart in place: %s\n", dir, chart,
                    strerror(errno));
            chart[0] = '\0';
            return -1;
        }
        return 0;
    case PLOT_NO_GNUPLOT:
        fprintf(stderr, "cosim: gnuplot not found: kept %s/spectrum.gp and spectrum.dat; "
                        "install gnuplot and run 'gnuplot spectrum.gp' there\n",
                dir);
        chart[0] = '\0';
        return 0;
    case PLOT_FAILED:
        remove(tmp);
        fprintf(stderr, "cosim: gnuplot failed (status %d) on %s/spectrum.gp; no chart written\n",
                status, dir);
        chart[0] = '\0';
        return -1;
    }
    return -1;
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    rng_init();
    int exit_code = EXIT_OK;
    if (parse_args(argc, argv, &o)) {
        fprintf(stderr, "cosim: try 'cosim --help'\n");
        exit_code = EXIT_USAGE;
    } else {
        exit_code = run(&o);
    }
    free(o.sets);
    free(owned[0]);
    free(owned[1]);
    return exit_code;
}

/* Load, simulate, report, write: the whole job for parsed options. */
static int run(const options *opts)
{
    const options o = *opts;
    char err[1024];
    scenario *s = NULL;
    scenario_error se = scenario_load(&s, o.scenario, o.sets, o.n_sets, err, sizeof err);
    if (se != SCENARIO_OK) {
        fprintf(stderr, "cosim: %s\n", err);
        return se == SCENARIO_EUSAGE ? EXIT_USAGE : se == SCENARIO_ENOMEM ? EXIT_SIM : EXIT_SCENARIO;
    }

    char style[4096];
    const char *style_path = style;
    if (plot_find_style(o.plots_dir, "spectrum.gp", style, sizeof style)) {
        fprintf(stderr, "cosim: warning: no chart style spectrum.gp in %s; writing no chart "
                        "(give --plots-dir DIR)\n",
                o.plots_dir ? o.plots_dir : "plots/ or the installed data folder");
        style_path = NULL;
    }

    run_result r;
    int rc = run_scenario(s, &r, err, sizeof err);
    if (rc) {
        fprintf(stderr, "cosim: %s\n", err);
        scenario_free(s);
        return EXIT_SIM;
    }

    int exit_code = EXIT_OK;
    if (!o.quiet && report_text(stdout, s, &r)) {
        fprintf(stderr, "cosim: cannot write the summary to standard output\n");
        exit_code = EXIT_OUTPUT;
    }

    if (o.check) {
        if (!o.quiet)
            putchar('\n');
        size_t misses = expect_check(stdout, stderr, s, &r);
        fflush(stdout);
        if (misses && exit_code == EXIT_OK)
            exit_code = EXIT_CHECK;
        if (!o.output) {
            run_result_free(&r);
            scenario_free(s);
            return exit_code;
        }
    }

    char dir[4096];
    if (o.output)
        snprintf(dir, sizeof dir, "%s", o.output);
    else
        snprintf(dir, sizeof dir, "out/%s", s->name);
    if (style_path && plot_spectrum_testers(&r) == 0) {
        fprintf(stderr, "cosim: no tester recorded a sample: no chart\n");
        style_path = NULL;
    }
    outdir *d = NULL;
    char chart[64];
    int failed = 0;
    if (outdir_open(&d, dir, err, sizeof err) ||
        write_outputs(d, s, &r, &o, style_path, chart, sizeof chart, err, sizeof err) ||
        outdir_commit(d, err, sizeof err)) {
        fprintf(stderr, "cosim: %s; nothing was replaced\n", err);
        exit_code = EXIT_OUTPUT;
        failed = 1;
    } else {
        if (chart[0] && !o.no_plot && render_chart(d, dir, chart, o.format) != 0)
            exit_code = EXIT_OUTPUT;
        /* a re-run into the same folder leaves nothing of the run before */
        outdir_remove_stale(d, is_cosim_output);
    }
    if ((exit_code == EXIT_OK || exit_code == EXIT_CHECK) && !o.quiet)
        printf("\nwrote %s/: summary.json, %zu .hgrm spectr%s%s%s\n", dir, r.n, r.n == 1 ? "um" : "a",
               chart[0] && !o.no_plot ? ", " : "", chart[0] && !o.no_plot ? chart : "");
    outdir_close(d, failed);
    run_result_free(&r);
    scenario_free(s);
    return exit_code;
}
