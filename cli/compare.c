/* compare.c - `cosim compare` and `cosim baseline` (compare.h): a real
 * tool's figures beside cosim's prediction, and a tool's no-stall run
 * turned into service times. */
#define _GNU_SOURCE
#include "compare.h"

#include "exitcode.h"
#include "hist.h"
#include "realout.h"
#include "run.h"
#include "scenario.h"
#include "textin.h"
#include "units.h"
#include "wrkhist.h"
#include "datadir.h"

#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Most TESTER=FILE pairs one comparison takes. */
#define COMPARE_MAX_FILES 64

static const char *const figure_names[RO_N_FIGURES] = {"count", "mean", "p50", "p90", "p99", "p99.9", "max", "over"};

static void compare_usage(FILE *f)
{
    fputs("usage: cosim compare SCENARIO.ini TESTER=FILE... [--hgrm-unit ns|us|ms] [--raw] [--chart PNG]\n"
          "       [--allow-long]\n"
          "Run the scenario and print, for each TESTER=FILE, what the real tool wrote in FILE beside cosim's\n"
          "prediction for [tester TESTER]: count, mean, p50, p90, p99, p99.9, max and the count over the\n"
          "scenario's threshold, with the difference (real - predicted). FILE is hey -o csv, ab -g or -e,\n"
          "wrk --latency's output, httperf's summary (-v -v adds its histogram), k6 --summary-export JSON,\n"
          "an .hgrm spectrum or an .hlog (their values in --hgrm-unit, default ms as wrk2 prints). A\n"
          "figure the file does not give is '-'.\n"
          "The last column says whether the scenario's stalls decide a figure (its range reaches above the\n"
          "same run without stalls) or the service times do, with a percentile's predicted range over\n"
          "ceil(sqrt(m)) ranks either side, m the values at or above it (docs/real-tools.md).\n"
          "--raw: one line a figure for scripts, 'TESTER FIGURE REAL PREDICTED LOW HIGH BY' in ns or counts\n"
          "(BY stalls, service or -; '-' where the file gives no figure or no range is defined).\n"
          "--chart PNG (one TESTER=FILE): the real spectrum drawn on the predicted one (a new file).\n"
          "--allow-long: run the two runs even past cosim's work budget.\n"
          "Exit codes as cosim's (man -l docs/cosim.1): 3 for a file that cannot be read (FILE:LINE).\n", f);
}

/* The predicted figures of tester i: its recorded values (the values a
 * correction or backfill added included, as the tool prints them), at the
 * scenario's rank rule; the count is the requests recorded. */
static void predicted(const scenario *s, const tester_result *r, realout *p)
{
    memset(p, 0, sizeof *p);
    const hist *h = r->hist;
    uint64_t all = hist_count(h);
    p->count = all >= r->added ? all - r->added : 0;
    p->over = r->over_threshold;
    p->fig_ns[RO_MEAN] = (int64_t)(hist_mean(h) + 0.5);
    for (int f = RO_P50; f <= RO_P999; f++)
        p->fig_ns[f] = hist_value_at_percentile(h, s->rank_rule, realout_level_num[f], 100000);
    p->fig_ns[RO_MAX] = hist_max(h);
    p->have = (1u << RO_N_FIGURES) - 1;
}

/*
 * Which figures the stalls decide, and how far a percentile may move with
 * the count of values above it.
 *
 * A percentile of rank r among the prediction's n values has m = n - r + 1
 * values at or above it. A real run's count of such values differs from
 * the prediction's by chance (a hiccup of the machine, a victim more or
 * less at a window's edge): about sqrt(m) for a count of rare events
 * (Poisson's standard deviation). So the figure's range is the predicted
 * values at ranks r - d and r + d, d = ceil(sqrt(m)) (at least 1, within
 * 1..n): narrow on a ramp of victims, wide on a cliff (hey -c2 -q100 on a
 * 10 ms stall every second: 22 victims of 2,200 values put p99, rank
 * 2,178, on the victims' edge, d = 5; from 0.35 ms to 8 ms).
 *
 * The stalls decide a percentile or the max when that range reaches above
 * the histogram bucket of the largest value of the same scenario run
 * without its stalls (the service times and the tool's own rules alone);
 * below it the figure is
 * the service's, on a real machine its noise's. They decide a count (the
 * requests recorded, or the values over the threshold, added ones
 * included) when the two runs' differ by more than the square root of the
 * no-stall run's (any difference from 0). The mean is not classed ('-').
 */
typedef struct stall_share {
    int by[RO_N_FIGURES];          /* 1 the stalls, 0 the service, -1 not classed */
    int has_range[RO_N_FIGURES];
    int64_t low_ns[RO_N_FIGURES], high_ns[RO_N_FIGURES];
} stall_share;

/* ceil(sqrt(m)), in integers (exact for every m). */
static uint64_t ceil_sqrt(uint64_t m)
{
    uint64_t r = (uint64_t)sqrtl((long double)m); /* a start within one of floor(sqrt(m)) */
    while (r && r > m / r)
        r--;
    while (r + 1 <= m / (r + 1))
        r++;
    return r * r == m ? r : r + 1; /* r = floor(sqrt(m)) */
}

static void share_of_stalls(const scenario *s, const tester_result *r, const tester_result *r0, stall_share *x)
{
    memset(x, 0, sizeof *x);
    const hist *h = r->hist;
    uint64_t n = hist_count(h);
    int64_t max0 = hist_max(r0->hist);
    for (int f = RO_P50; f <= RO_MAX; f++) {
        uint64_t rank = f == RO_MAX ? n : hist_rank(s->rank_rule, realout_level_num[f], 100000, n);
        if (!rank) { /* no value recorded: no percentile to class */
            x->by[f] = -1;
            continue;
        }
        uint64_t d = ceil_sqrt(n - rank + 1);
        x->low_ns[f] = hist_value_at_rank(h, rank > d ? rank - d : 1, NULL);
        x->high_ns[f] = hist_value_at_rank(h, n - rank > d ? rank + d : n, NULL);
        x->has_range[f] = 1;
        /* bucket against bucket: a value at a rank is its bucket's upper
         * edge, the max exact */
        unsigned sb = hist_sub_bits(h);
        x->by[f] = hist_index_of((uint64_t)x->high_ns[f], sb) > hist_index_of((uint64_t)max0, sb);
    }
    uint64_t a = hist_count(h), a0 = hist_count(r0->hist);
    uint64_t c = a >= r->added ? a - r->added : 0, c0 = a0 >= r0->added ? a0 - r0->added : 0;
    x->by[RO_COUNT] = (c > c0 ? c - c0 : c0 - c) > ceil_sqrt(c0);
    x->by[RO_MEAN] = -1;
    uint64_t o = r->over_threshold, o0 = r0->over_threshold;
    x->by[RO_OVER] = (o > o0 ? o - o0 : o0 - o) > ceil_sqrt(o0);
}

static void print_pair(const char *what, const realout *real, const realout *pred, const stall_share *sh, int f)
{
    char a[48], b[48], d[64];
    int has = (real->have >> f) & 1;
    if (f == RO_COUNT || f == RO_OVER) {
        uint64_t rv = f == RO_COUNT ? real->count : real->over, pv = f == RO_COUNT ? pred->count : pred->over;
        units_format_count(pv, b, sizeof b);
        if (has) {
            units_format_count(rv, a, sizeof a);
            double rel = pv ? 100.0 * ((double)rv - (double)pv) / (double)pv : 0;
            char x[40]; /* the difference with separators, as the counts beside it */
            units_format_count(rv >= pv ? rv - pv : pv - rv, x, sizeof x);
            if (pv) /* a share of nothing says nothing: no percentage against 0 */
                snprintf(d, sizeof d, "%s%s (%+.1f%%)", rv >= pv ? "+" : "-", x, rel);
            else
                snprintf(d, sizeof d, "%s%s", rv ? "+" : "", x);
        } else {
            snprintf(a, sizeof a, "-");
            d[0] = '\0';
        }
    } else {
        int64_t rv = real->fig_ns[f], pv = pred->fig_ns[f];
        units_format_duration(pv, b, sizeof b);
        if (has) {
            char x[40];
            units_format_duration(rv, a, sizeof a);
            int64_t diff = rv - pv;
            units_format_duration(diff < 0 ? -diff : diff, x, sizeof x);
            double rel = pv ? 100.0 * (double)diff / (double)pv : 0;
            if (pv)
                snprintf(d, sizeof d, "%s%s (%+.1f%%)", diff < 0 ? "-" : "+", x, rel);
            else
                snprintf(d, sizeof d, "%s%s", diff < 0 ? "-" : diff ? "+" : "", x);
        } else {
            snprintf(a, sizeof a, "-");
            d[0] = '\0';
        }
    }
    char by[96], lo[32], hi[32];
    if (sh->by[f] < 0)
        by[0] = '\0';
    else if (sh->has_range[f])
        snprintf(by, sizeof by, "%s (%s..%s)", sh->by[f] ? "stalls" : "service",
                 units_format_duration(sh->low_ns[f], lo, sizeof lo), units_format_duration(sh->high_ns[f], hi, sizeof hi));
    else
        snprintf(by, sizeof by, "%s", sh->by[f] ? "stalls" : "service");
    printf("  %-14s %14s %14s  %-26s %s\n", what, a, b, d, by);
}

/* The spectrum's levels: p = 1 - 10^(-k/10), k = 0..SPECTRUM_STEPS (up to
 * 99.999%), drawn at x = 1 / (1 - p) on a log axis (the book's Figure 5.3;
 * plots/spectrum.gp). */
#define SPECTRUM_STEPS 50

/* The level k as a fraction num / 10^6 (rounded) and its x. */
static uint64_t level_num(int k)
{
    return (uint64_t)((1.0 - pow(10.0, -k / 10.0)) * 1e6 + 0.5);
}

/* The chart's data: block 0 the prediction at every level its samples
 * reach, block 1 the real figures (a list: the same levels; else the
 * printed percentiles, and the max at the last level reached). */
static int write_chart_data(FILE *f, const scenario *s, const tester_result *tr, const realout *real)
{
    const hist *h = tr->hist;
    uint64_t n = hist_count(h);
    int last = 0;
    fprintf(f, "# predicted: x = 1 / (1 - p), latency in ms\n");
    for (int k = 0; k <= SPECTRUM_STEPS && n; k++) {
        if (pow(10.0, k / 10.0) > (double)n)
            break;
        fprintf(f, "%.6g %.6f\n", pow(10.0, k / 10.0),
                (double)hist_value_at_percentile(h, s->rank_rule, level_num(k), 1000000) / 1e6);
        last = k;
    }
    fprintf(f, "\n\n# real\n");
    if (real->values) {
        for (int k = 0; k <= SPECTRUM_STEPS; k++) {
            if (pow(10.0, k / 10.0) > (double)real->n)
                break;
            fprintf(f, "%.6g %.6f\n", pow(10.0, k / 10.0),
                    (double)real->values[hist_rank(s->rank_rule, level_num(k), 1000000, real->n) - 1] / 1e6);
        }
    } else {
        static const double x_of[RO_N_FIGURES] = {[RO_P50] = 2, [RO_P90] = 10, [RO_P99] = 100, [RO_P999] = 1000};
        for (int fig = RO_P50; fig <= RO_P999; fig++)
            if ((real->have >> fig) & 1)
                fprintf(f, "%g %.6f\n", x_of[fig], (double)real->fig_ns[fig] / 1e6);
        if ((real->have >> RO_MAX) & 1)
            fprintf(f, "%.6g %.6f\n", pow(10.0, last / 10.0), (double)real->fig_ns[RO_MAX] / 1e6);
    }
    return ferror(f) ? -EIO : 0;
}

/* --chart PNG: the real spectrum and the predicted one on one chart, drawn
 * by gnuplot (plot_render) in a private temporary folder, the PNG written
 * beside PNG and renamed into place (whole or not at all). */
static int draw_chart(const char *png, const scenario *s, const char *tester, const tester_result *tr,
                      const realout *real, const char *file)
{
    char dir[] = "/tmp/cosim-compare.XXXXXX", path[sizeof dir + 32];
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cosim: --chart: cannot make a temporary folder: %s\n", strerror(errno));
        return -1;
    }
    int rc = -1;
    snprintf(path, sizeof path, "%s/c.dat", dir);
    FILE *f = fopen(path, "w");
    if (f && write_chart_data(f, s, tr, real) == 0 && fclose(f) == 0) {
        f = NULL;
        snprintf(path, sizeof path, "%s/c.gp", dir);
        FILE *g = fopen(path, "w");
        if (g) {
            fprintf(g, "set terminal pngcairo size 1600,1000 font 'Sans,18'\nset output outfile\n"
                       "set title \"%s: the real tool (%s) and cosim's prediction\" noenhanced\n"
                       "set logscale x\nset xrange [1:*]\nset xlabel 'percentile'\nset ylabel 'latency'\n"
                       /* the latency ticks in human units ("500 ms", "1.5 s"; gnuplot's own printed
                          "1000" for a second), from 0 in a step of 1, 2 or 5 x 10^k giving about six;
                          the data's values are ms */
                       "hu(v) = v == 0 ? '0' : v < 1 ? sprintf('%%.4g \302\265s', v * 1e3) : v < 1000 ? "
                       "sprintf('%%.4g ms', v) : v < 60000 ? sprintf('%%.4g s', v / 1e3) : v < 3600000 ? "
                       "sprintf('%%.4g min', v / 60000.0) : sprintf('%%.4g h', v / 3600000.0)\n"
                       "stats 'c.dat' using 2 nooutput\n"
                       "top = STATS_max > 0 ? STATS_max * 1.05 : 1\n"
                       "r_ = top / 6.0; m_ = 10 ** floor(log10(r_))\n"
                       "step = (r_ / m_ > 5 ? 10 : r_ / m_ > 2 ? 5 : r_ / m_ > 1 ? 2 : 1) * m_\n"
                       "set yrange [0:top]\nset ytics ()\n"
                       "do for [k=0:int(top / step)] { set ytics add (hu(k * step) k * step) }\n"
                       "set xtics ('0%%%%' 1, '50%%%%' 2, '90%%%%' 10, '99%%%%' 100, '99.9%%%%' 1000, '99.99%%%%' 10000, "
                       "'99.999%%%%' 100000)\nset grid\n"
                       /* the key under the plot (inside it lay across the curve) */
                       "set key outside bottom center horizontal Left reverse\nset rmargin 8\n"
                       "plot 'c.dat' index 0 with lines lw 3 title 'cosim predicted', "
                       "'' index 1 with %s pt 7 ps 2 lw 2 title '%s (real%s)'\n",
                    tester, real->format, real->values ? "linespoints" : "points", real->format,
                    real->values ? "" : ": the figures it prints; its max at the right");
            if (fclose(g) == 0) {
                int dfd = open(dir, O_RDONLY | O_DIRECTORY);
                char *chart = NULL;
                size_t len = 0;
                int status = 0;
                plot_render_status st = dfd >= 0 ? plot_render(dfd, "c.gp", PLOT_PNG, PLOT_DEFAULT_TIMEOUT_S, &chart,
                                                               &len, &status)
                                                 : PLOT_FAILED;
                if (dfd >= 0)
                    close(dfd);
                char tmp[SCENARIO_PATH_MAX + 16];
                snprintf(tmp, sizeof tmp, "%s.part", png);
                FILE *out = st == PLOT_RENDERED ? fopen(tmp, "wb") : NULL;
                if (st != PLOT_RENDERED)
                    fprintf(stderr, "cosim: --chart %s: gnuplot did not draw it (%s)\n", png,
                            st == PLOT_NO_GNUPLOT ? "gnuplot is not installed" : "it failed or timed out");
                else if (!out || fwrite(chart, 1, len, out) != len || fclose(out) != 0 || rename(tmp, png) != 0) {
                    fprintf(stderr, "cosim: --chart %s: cannot write it: %s\n", png, strerror(errno));
                    remove(tmp);
                } else {
                    printf("chart: %s (%s beside the prediction for %s)\n", png, file, tester);
                    rc = 0;
                }
                free(chart);
            }
        }
    }
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/c.dat", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/c.gp", dir);
    remove(path);
    rmdir(dir);
    return rc;
}

int compare_main(int argc, char **argv)
{
    static const struct option lo[] = {{"hgrm-unit", required_argument, NULL, 'u'},
                                       {"raw", no_argument, NULL, 'r'},
                                       {"allow-long", no_argument, NULL, 'a'},
                                       {"chart", required_argument, NULL, 'c'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    int64_t unit_ns = 1000000;
    int ch, raw = 0, allow_long = 0;
    const char *chart = NULL;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (ch == 'h') {
            compare_usage(stdout);
            return COSIM_EXIT_OK;
        }
        if (ch == 'r') {
            raw = 1;
            continue;
        }
        if (ch == 'a') {
            allow_long = 1;
            continue;
        }
        if (ch == 'c') {
            chart = optarg;
            continue;
        }
        if (ch == 'u' && (strcmp(optarg, "ns") == 0 || strcmp(optarg, "us") == 0 || strcmp(optarg, "ms") == 0)) {
            unit_ns = optarg[0] == 'n' ? 1 : optarg[0] == 'u' ? 1000 : 1000000;
            continue;
        }
        fprintf(stderr, "cosim: %s: unknown option, or --hgrm-unit not ns, us or ms\n", argv[optind - 1]);
        fputs("cosim: try 'cosim compare --help'\n", stderr);
        return COSIM_EXIT_USAGE;
    }
    int n_files = argc - optind - 1;
    if (chart && access(chart, F_OK) == 0) {
        fprintf(stderr, "cosim: --chart %s: the file exists; cosim does not replace it (remove it, or name "
                "another)\n", chart);
        return COSIM_EXIT_OUTPUT;
    }
    if (chart && n_files != 1) {
        fprintf(stderr, "cosim: --chart draws one TESTER=FILE: give only one\n");
        return COSIM_EXIT_USAGE;
    }
    if (n_files < 1 || n_files > COMPARE_MAX_FILES) {
        fprintf(stderr, "cosim: give SCENARIO.ini and 1 to %d TESTER=FILE\n", COMPARE_MAX_FILES);
        fputs("cosim: try 'cosim compare --help'\n", stderr);
        return COSIM_EXIT_USAGE;
    }
    char err[2048];
    scenario *s = NULL;
    scenario_error se = scenario_load(&s, argv[optind], NULL, 0, err, sizeof err);
    if (se != SCENARIO_OK) {
        fprintf(stderr, "cosim: %s\n", err);
        return cosim_exit_of_scenario(se);
    }
    /* every pair checked, every file read, before the run */
    size_t which[COMPARE_MAX_FILES];
    realout real[COMPARE_MAX_FILES];
    memset(real, 0, sizeof real);
    int code = COSIM_EXIT_OK, n_read = 0;
    for (int k = 0; k < n_files && code == COSIM_EXIT_OK; k++) {
        const char *arg = argv[optind + 1 + k], *eq = strchr(arg, '=');
        size_t i = s->n_testers;
        for (size_t t = 0; eq && t < s->n_testers; t++)
            if (strlen(s->testers[t].name) == (size_t)(eq - arg) && memcmp(s->testers[t].name, arg, (size_t)(eq - arg)) == 0)
                i = t;
        if (!eq || i == s->n_testers || !eq[1]) {
            fprintf(stderr, "cosim: %s: expected TESTER=FILE with TESTER a [tester NAME] of %s and FILE a file\n", arg,
                    argv[optind]);
            code = COSIM_EXIT_USAGE;
            break;
        }
        which[k] = i;
        int rc = realout_read(&real[k], eq + 1, s->threshold_ns, s->rank_rule, unit_ns, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "cosim: %s\n", rc == -ENOMEM ? "out of memory" : err);
            code = rc == -ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
            break;
        }
        n_read++;
    }
    run_result r = {0}, r0 = {0};
    int ran = 0;
    if (code == COSIM_EXIT_OK) {
        run_work w;
        run_estimate(s, &w);
        /* and the run without its stalls (share_of_stalls), which a closed
         * tester's stalls may have kept far smaller */
        run_work w0;
        size_t n_stalls = s->n_stalls;
        s->n_stalls = 0;
        run_estimate(s, &w0);
        s->n_stalls = n_stalls;
        if (run_check_budget(w.total + w0.total, "compare", allow_long, err, sizeof err) != 0 ||
            run_scenario(s, &r, err, sizeof err) != 0) {
            fprintf(stderr, "cosim: %s\n", err);
            code = COSIM_EXIT_SIM;
        } else {
            ran = 1;
        }
    }
    if (ran) { /* the same without its stalls: which figures they decide (share_of_stalls) */
        size_t n_stalls = s->n_stalls;
        s->n_stalls = 0;
        if (run_scenario(s, &r0, err, sizeof err) != 0) {
            fprintf(stderr, "cosim: %s (the run without its stalls)\n", err);
            code = COSIM_EXIT_SIM;
            run_result_free(&r);
            ran = 0;
        }
        s->n_stalls = n_stalls;
    }
    for (int k = 0; ran && k < n_files; k++) {
        const tester_spec *t = &s->testers[which[k]];
        realout pred;
        predicted(s, &r.testers[which[k]], &pred);
        stall_share x;
        share_of_stalls(s, &r.testers[which[k]], &r0.testers[which[k]], &x);
        char th[32], res[32];
        if (raw) { /* for scripts: TESTER FIGURE REAL PREDICTED LOW HIGH BY, ns or counts, '-' when not
                      in the file or not defined */
            for (int f = 0; f < RO_N_FIGURES; f++) {
                int is_count = f == RO_COUNT || f == RO_OVER;
                char rs[32] = "-", ps[32], low[32] = "-", high[32] = "-";
                if (is_count) /* counts unsigned: a file's may pass 2^63 */
                    snprintf(ps, sizeof ps, "%llu", (unsigned long long)(f == RO_COUNT ? pred.count : pred.over));
                else
                    snprintf(ps, sizeof ps, "%lld", (long long)pred.fig_ns[f]);
                if (((real[k].have >> f) & 1) && is_count)
                    snprintf(rs, sizeof rs, "%llu", (unsigned long long)(f == RO_COUNT ? real[k].count : real[k].over));
                else if ((real[k].have >> f) & 1)
                    snprintf(rs, sizeof rs, "%lld", (long long)real[k].fig_ns[f]);
                if (x.has_range[f]) {
                    snprintf(low, sizeof low, "%lld", (long long)x.low_ns[f]);
                    snprintf(high, sizeof high, "%lld", (long long)x.high_ns[f]);
                }
                printf("%s %s %s %s %s %s %s\n", t->name, figure_names[f], rs, ps, low, high,
                       x.by[f] < 0 ? "-" : x.by[f] ? "stalls" : "service");
            }
            continue;
        }
        printf("%s%s: tester %s beside %s (%s; read to %s)\n", k ? "\n" : "", s->path, t->name,
               strchr(argv[optind + 1 + k], '=') + 1, real[k].format, units_format_duration(real[k].resolution_ns, res, sizeof res));
        printf("  %-14s %14s %14s  %-26s %s\n", "figure", "real", "predicted", "real - predicted",
               "decided by (predicted range)");
        for (int f = 0; f < RO_N_FIGURES; f++) {
            char what[48];
            if (f == RO_OVER)
                snprintf(what, sizeof what, "over %s", units_format_duration(s->threshold_ns, th, sizeof th));
            else
                snprintf(what, sizeof what, "%s", figure_names[f]);
            print_pair(what, &real[k], &pred, &x, f);
        }
    }
    if (ran && chart && code == COSIM_EXIT_OK &&
        draw_chart(chart, s, s->testers[which[0]].name, &r.testers[which[0]], &real[0],
                   strchr(argv[optind + 1], '=') + 1) != 0)
        code = COSIM_EXIT_OUTPUT;
    for (int k = 0; k < n_read; k++)
        realout_free(&real[k]);
    if (ran) {
        run_result_free(&r);
        run_result_free(&r0);
    }
    scenario_free(s);
    return code;
}

static void baseline_usage(FILE *f)
{
    fputs("usage: cosim baseline TOOL FILE\n"
          "Turn a real tool's no-stall run into service times for a scenario, the way the tool needs:\n"
          "  hey FILE    hey -o csv of a run with -c 1: each Response-delay (the server's share), as an\n"
          "              `empirical` file, and on a comment line client_time = the mean of\n"
          "              response-time - Response-delay (hey's own time, a tester key)\n"
          "  hey FILE --busy B   for hey -c C -q Q: the server's busy time B (a saturation run: cosim\n"
          "              baseline wrk on wrk -c 10) as `distribution = constant`, and client_time =\n"
          "              the mean response time of FILE (hey -c 1) - B on a comment line\n"
          "  ab FILE     ab -g of a run with -c 1 -k: each ttime (whole ms), as an `empirical` file;\n"
          "              or ab's printed summary: Time taken for tests / Complete requests, as below\n"
          "  wrk FILE    wrk's output with the histogram `cosim baseline --wrk-script` makes it print\n"
          "              (wrk -s SCRIPT): with -c 1, every latency with wrk's exit-time correction\n"
          "              undone, as an `empirical` file, and the client's time per request (run\n"
          "              time / requests - mean latency) on stderr; with more connections, or\n"
          "              without the script, a saturation run's busy time per request (run time /\n"
          "              requests) as `distribution = constant` (wrk's printed latencies are\n"
          "              corrected at exit and are never service times)\n"
          "  --wrk-script  print the path of that Lua script (scenarios/tools/wrk-histogram.lua)\n"
          "The result goes to stdout; a summary line to stderr. docs/real-tools.md says which to use.\n", f);
}

/* A saturation run's busy time per request, T / N in ns: wrk's "N
 * requests in T.TTs, B read", or ab's "Time taken for tests:   T seconds"
 * and "Complete requests:      N" (support/ab.c output_results). */
static int busy_per_request(const char *path, int64_t *busy_ns, uint64_t *n_out, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc != 0)
        return rc;
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    int64_t count = -1, t_ns = -1;
    rc = 0;
    while (rc == 0 && textin_next_line(&it, &s, &n)) {
        const char *in = textin_find(s, n, " requests in ");
        size_t a = 0;
        while (a < n && s[a] == ' ')
            a++;
        if (in) { /* wrk: the run time in seconds, two decimals ("11.02s") */
            const char *t = in + strlen(" requests in ");
            size_t tn = textin_decimal_span(t, (size_t)(s + n - t), 0);
            if (textin_decimal(s + a, (size_t)(in - s) - a, 1, 0, &count) != 0 || tn == 0 || t[tn] != 's' ||
                textin_decimal(t, tn, 1000000000, 0, &t_ns) != 0)
                rc = -EINVAL;
        } else if (textin_starts(s, n, "Time taken for tests:")) {
            const char *t = s + strlen("Time taken for tests:");
            while (*t == ' ')
                t++;
            size_t tn = textin_decimal_span(t, (size_t)(s + n - t), 0);
            if (tn == 0 || textin_decimal(t, tn, 1000000000, 0, &t_ns) != 0)
                rc = -EINVAL;
        } else if (textin_starts(s, n, "Complete requests:")) {
            const char *t = s + strlen("Complete requests:");
            while (*t == ' ')
                t++;
            if (textin_decimal(t, (size_t)(s + n - t), 1, 0, &count) != 0)
                rc = -EINVAL;
        }
        if (rc != 0)
            snprintf(err, errlen, "%s:%zu: expected 'N requests in T.TTs, B read' (wrk), 'Time taken for tests: "
                     "T seconds' or 'Complete requests: N' (ab)", path, it.line);
    }
    free(text);
    if (rc == 0 && (count <= 0 || t_ns < 0)) {
        snprintf(err, errlen, "%s: expected a run's request count and time (wrk's 'N requests in T', ab's 'Time "
                 "taken for tests' and 'Complete requests')", path);
        rc = -EINVAL;
    }
    if (rc == 0) {
        *busy_ns = (t_ns + count / 2) / count;
        *n_out = (uint64_t)count;
    }
    return rc;
}

/* Whether path starts with ab -g's header. */
static int is_ab_g(const char *path)
{
    static const char head[] = "starttime\tseconds";
    char buf[sizeof head] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof head - 1, f);
    fclose(f);
    return n == sizeof head - 1 && memcmp(buf, head, n) == 0;
}

/* `cosim baseline wrk FILE` on wrk's output with the histogram of
 * scenarios/tools/wrk-histogram.lua (wrkhist.h): -ENOENT when the file has
 * no such block (the caller then reads run time / requests). With one
 * connection, every recorded latency (the correction undone) as an
 * `empirical` file on stdout; with more, the busy time per request (the
 * latencies hold the queue of the other connections: not service times).
 * On stderr: the undone count against the requests, and wrk's own time
 * between a reply and the next request of a one-connection run (a think
 * time: outside its latency), run time / requests - the recorded
 * latencies' mean (wrk's cycle is latency + its own time:
 * src/wrk.c response_complete records now - c->start, and the next request
 * starts when socket_writeable runs). */
static int wrk_histogram_baseline(const char *path, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc != 0)
        return rc == -ENOENT ? -EINVAL : rc;
    if (!wrkhist_present(text, len)) {
        free(text);
        return -ENOENT;
    }
    wrkhist h;
    rc = wrkhist_parse(&h, path, text, len, err, errlen);
    free(text);
    if (rc != 0)
        return rc;
    if (h.recorded_total == 0) {
        wrkhist_free(&h);
        return textin_fail(err, errlen, -EINVAL, "%s: wrk recorded no latency (0 requests)", path);
    }
    long double sum = 0;
    for (size_t i = 0; i < h.bins; i++)
        sum += (long double)h.value_us[i] * (long double)h.recorded[i];
    int64_t mean_ns = (int64_t)(sum * 1000.0L / (long double)h.recorded_total + 0.5L);
    /* run time / requests in ns, rounded half up: both <= 2^53, the
     * product with 1000 below 2^63 */
    int64_t cycle_ns = (int64_t)((h.duration_us * 1000 + h.requests / 2) / h.requests);
    fprintf(stderr, "cosim: baseline: wrk's correction undone (interval %llu us): %llu values corrected, %llu "
            "recorded, for %llu requests and %llu timeouts\n", (unsigned long long)h.interval_us,
            (unsigned long long)h.corrected_total, (unsigned long long)h.recorded_total,
            (unsigned long long)h.requests, (unsigned long long)h.timeouts);
    if (h.connections > 1) {
        fprintf(stderr, "cosim: baseline: run time / requests %lld ns (the busy time per request of a saturation "
                "run of %llu connections)\n", (long long)cycle_ns, (unsigned long long)h.connections);
        printf("# cosim baseline wrk %s: run time / %llu requests of %llu connections (a saturation run's busy "
               "time per request)\ndistribution = constant\ntime = %lldns\n", path, (unsigned long long)h.requests,
               (unsigned long long)h.connections, (long long)cycle_ns);
        wrkhist_free(&h);
        return 0;
    }
    printf("# cosim baseline wrk %s: %llu latencies of a no-stall run, wrk's exit-time correction undone "
           "(distribution = empirical)\n", path, (unsigned long long)h.recorded_total);
    for (size_t i = 0; i < h.bins; i++)
        for (uint64_t k = 0; k < h.recorded[i]; k++)
            printf("%lluus\n", (unsigned long long)h.value_us[i]);
    fprintf(stderr, "cosim: baseline: mean latency %lld ns, run time / requests %lld ns: wrk's own time between "
            "a reply and the next request %lld ns (outside its latency: think_distribution = constant, think_time "
            "= %lldns)\n", (long long)mean_ns, (long long)cycle_ns, (long long)(cycle_ns - mean_ns),
            (long long)(cycle_ns > mean_ns ? cycle_ns - mean_ns : 0));
    wrkhist_free(&h);
    return 0;
}

/* `cosim baseline hey FILE --busy B`: for a tester that sends several
 * requests at once (hey -c C -q Q), the server's busy time B of a
 * saturation run as the service time, and hey's own time per request as
 * client_time = mean response time of the -c 1 run in FILE - B (a closed
 * one-user cycle of client_time + B then has the run's mean response
 * time). */
static int hey_busy_baseline(const char *path, const char *busy_text)
{
    int64_t busy;
    const char *why;
    if (units_parse_duration(busy_text, &busy, &why) != 0) {
        fprintf(stderr, "cosim: --busy %s: %s\n", busy_text, why);
        return COSIM_EXIT_USAGE;
    }
    char err[2048];
    realout o;
    int rc = realout_read(&o, path, INT64_MAX, HIST_NEAREST_RANK, 1000000, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "cosim: %s\n", err);
        return rc == -ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
    }
    if (strcmp(o.format, "hey -o csv") != 0 || o.n == 0) {
        fprintf(stderr, "cosim: %s: expected hey -o csv's output for a baseline, not %s\n", path, o.format);
        realout_free(&o);
        return COSIM_EXIT_SCENARIO;
    }
    int64_t mean = o.fig_ns[RO_MEAN];
    realout_free(&o);
    if (mean <= busy) {
        fprintf(stderr, "cosim: %s: the mean response time (%lld ns) is not above --busy (%lld ns): no time of "
                "hey's own is left (a busy time from another machine or server?)\n", path, (long long)mean,
                (long long)busy);
        return COSIM_EXIT_SCENARIO;
    }
    printf("# cosim baseline hey %s --busy %s: the server's busy time, and hey's own time per request (mean "
           "response time %lld ns - the busy time) for [tester]:\n# client_time = %lldns\n"
           "distribution = constant\ntime = %lldns\n", path, busy_text, (long long)mean, (long long)(mean - busy),
           (long long)busy);
    return COSIM_EXIT_OK;
}

int baseline_main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        baseline_usage(stdout);
        return COSIM_EXIT_OK;
    }
    if (argc == 2 && strcmp(argv[1], "--wrk-script") == 0) {
        char path[4096];
        if (datadir_find("scenarios", "tools/wrk-histogram.lua", path, sizeof path) != 0) {
            fprintf(stderr, "cosim: wrk-histogram.lua not found in scenarios/tools of cosim's data folders "
                    "(docs/install.md, \"Where cosim finds its files\")\n");
            return COSIM_EXIT_OUTPUT;
        }
        printf("%s\n", path);
        return COSIM_EXIT_OK;
    }
    if (argc == 5 && strcmp(argv[1], "hey") == 0 && strcmp(argv[3], "--busy") == 0)
        return hey_busy_baseline(argv[2], argv[4]);
    if (argc != 3 || (strcmp(argv[1], "hey") != 0 && strcmp(argv[1], "ab") != 0 && strcmp(argv[1], "wrk") != 0)) {
        fprintf(stderr, "cosim: give TOOL (hey, ab or wrk) and FILE\n");
        fputs("cosim: try 'cosim baseline --help'\n", stderr);
        return COSIM_EXIT_USAGE;
    }
    char err[2048];
    if (strcmp(argv[1], "wrk") == 0) {
        int rc = wrk_histogram_baseline(argv[2], err, sizeof err);
        if (rc != -ENOENT) {
            if (rc != 0)
                fprintf(stderr, "cosim: %s\n", err);
            return rc == 0 ? COSIM_EXIT_OK : rc == -ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
        }
    }
    if (strcmp(argv[1], "wrk") == 0 || (strcmp(argv[1], "ab") == 0 && !is_ab_g(argv[2]))) {
        int64_t busy;
        uint64_t n;
        if (busy_per_request(argv[2], &busy, &n, err, sizeof err) != 0) {
            fprintf(stderr, "cosim: %s\n", err);
            return COSIM_EXIT_SCENARIO;
        }
        printf("# cosim baseline %s %s: run time / %llu requests (a saturation run's busy time per request)\n"
               "distribution = constant\ntime = %lldns\n", argv[1], argv[2], (unsigned long long)n, (long long)busy);
        return COSIM_EXIT_OK;
    }
    if (strcmp(argv[1], "hey") == 0) {
        int64_t *delay, client;
        size_t n;
        int rc = realout_hey_split(argv[2], &delay, &n, &client, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "cosim: %s\n", err);
            return rc == -ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
        }
        printf("# cosim baseline hey %s: %zu Response-delay times of a no-stall run (distribution = empirical)\n"
               "# client_time = %lldns (the mean of response-time - Response-delay: hey's own time)\n", argv[2], n,
               (long long)client);
        for (size_t i = 0; i < n; i++)
            printf("%lldns\n", (long long)delay[i]);
        fprintf(stderr, "cosim: baseline: %zu Response-delay values (the server's share, 0.1 ms steps); "
                "client_time = %lldns\n", n, (long long)client);
        free(delay);
        return COSIM_EXIT_OK;
    }
    realout o;
    int rc = realout_read(&o, argv[2], INT64_MAX, HIST_NEAREST_RANK, 1000000, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "cosim: %s\n", err);
        return rc == -ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
    }
    const char *want = strcmp(argv[1], "hey") == 0 ? "hey -o csv" : "ab -g";
    if (strcmp(o.format, want) != 0 || !o.values) {
        fprintf(stderr, "cosim: %s: expected %s's output for a baseline, not %s\n", argv[2], want, o.format);
        realout_free(&o);
        return COSIM_EXIT_SCENARIO;
    }
    printf("# cosim baseline %s %s: %zu response times of a no-stall run (distribution = empirical)\n", argv[1],
           argv[2], o.n);
    for (size_t i = 0; i < o.n; i++)
        printf("%lldns\n", (long long)o.values[i]);
    char a[32], b[32];
    fprintf(stderr, "cosim: baseline: %zu values, mean %s, max %s\n", o.n,
            units_format_duration(o.fig_ns[RO_MEAN], a, sizeof a), units_format_duration(o.fig_ns[RO_MAX], b, sizeof b));
    realout_free(&o);
    return COSIM_EXIT_OK;
}
