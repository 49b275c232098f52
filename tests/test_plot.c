/* Tests of plot's renderer: chart completeness, gnuplot's timeout and
 * failures (with stand-in gnuplot scripts on PATH), PDF dates. */
#define _GNU_SOURCE
#include "plot.h"
#include "scenario.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

Suite *test_suite(void);

static const char png_head[8] = {(char)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
static const char png_tail[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (char)0xae, 0x42, 0x60, (char)0x82};

START_TEST(charts_are_complete_only_with_their_ending)
{
    char png[40];
    memcpy(png, png_head, 8);
    memset(png + 8, 'x', 20);
    memcpy(png + 28, png_tail, 12);
    ck_assert_int_eq(plot_chart_complete(png, 40, PLOT_PNG), 0);
    ck_assert_int_eq(plot_chart_complete(png, 39, PLOT_PNG), -EIO);  /* one byte short */
    ck_assert_int_eq(plot_chart_complete(png, 28, PLOT_PNG), -EIO);  /* cut before IEND */
    ck_assert_int_eq(plot_chart_complete(png + 1, 39, PLOT_PNG), -EIO); /* no signature */
    ck_assert_int_eq(plot_chart_complete("", 0, PLOT_PNG), -EIO);
    const char *svg = "<?xml version=\"1.0\"?>\n<svg width=\"10\">\n<g/>\n</svg>\n\n";
    ck_assert_int_eq(plot_chart_complete(svg, strlen(svg), PLOT_SVG), 0);
    ck_assert_int_eq(plot_chart_complete(svg, strlen(svg) - 4, PLOT_SVG), -EIO); /* "</sv" */
    ck_assert_int_eq(plot_chart_complete("</svg>", 6, PLOT_SVG), -EIO);           /* no <svg */
    const char *pdf = "%PDF-1.5\n1 0 obj\nendobj\nstartxref\n9\n%%EOF\n";
    ck_assert_int_eq(plot_chart_complete(pdf, strlen(pdf), PLOT_PDF), 0);
    ck_assert_int_eq(plot_chart_complete(pdf, strlen(pdf) - 3, PLOT_PDF), -EIO); /* "%%E" */
}
END_TEST

START_TEST(the_pdf_date_is_cleared_in_place)
{
    char pdf[] = "%PDF-1.5\n<< /CreationDate (D:20261201123456+01'00) >>\n%%EOF\n";
    size_t n = strlen(pdf);
    plot_pdf_clear_date(pdf, n);
    ck_assert_str_eq(pdf, "%PDF-1.5\n<< /CreationDate (D:19700101000000+01'00) >>\n%%EOF\n");
    ck_assert_uint_eq(strlen(pdf), n);
}
END_TEST

START_TEST(timeouts_are_whole_seconds)
{
    unsigned t = 0;
    ck_assert_int_eq(plot_parse_timeout("1", &t), 0);
    ck_assert_uint_eq(t, 1);
    ck_assert_int_eq(plot_parse_timeout("86400", &t), 0);
    ck_assert_uint_eq(t, 86400);
    const char *bad[] = {"0", "86401", "-1", "1.5", "", "1e3", " 5", "5s", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(plot_parse_timeout(bad[i], &t) == -EINVAL, "%s accepted", bad[i]);
}
END_TEST

/* A folder with a stand-in "gnuplot" running body, first on PATH. */
static char bin[PATH_MAX];
static int work_fd = -1;

static void fake_gnuplot(const char *body)
{
    snprintf(bin, sizeof bin, "/tmp/test_plot.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(bin));
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/gnuplot", bin);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(path, 0755), 0);
    char path_env[PATH_MAX + 32];
    snprintf(path_env, sizeof path_env, "%s:/usr/bin:/bin", bin);
    setenv("PATH", path_env, 1);
    work_fd = open(bin, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(work_fd, 0);
}

static void cleanup(void)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "/bin/rm -rf '%s'", bin);
    ck_assert_int_eq(system(cmd), 0);
    close(work_fd);
}

START_TEST(a_hanging_gnuplot_is_stopped_at_the_timeout)
{
    fake_gnuplot("exec sleep 30");
    char *chart, msg[256];
    size_t len;
    int status;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    plot_render_status st = plot_render(work_fd, "x.gp", PLOT_PNG, 1, &chart, &len, &status);
    clock_gettime(CLOCK_MONOTONIC, &b);
    ck_assert_int_eq(st, PLOT_TIMEOUT);
    ck_assert_ptr_null(chart);
    double took = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    ck_assert_msg(took >= 1.0 && took < 5.0, "took %.2f s", took);
    ck_assert_str_eq(plot_render_message(msg, sizeof msg, st, status, "x.gp", PLOT_PNG, len, 1),
                     "gnuplot did not finish within 1 s and was stopped (--plot-timeout)");
    cleanup();
}
END_TEST

START_TEST(a_short_chart_with_exit_0_is_incomplete)
{
    /* a PNG cut after 100 bytes, as a full disk leaves it, and exit 0 */
    fake_gnuplot("printf '\\211PNG\\r\\n\\032\\n'; head -c 92 /dev/zero; exit 0");
    char *chart, msg[256];
    size_t len;
    int status;
    plot_render_status st = plot_render(work_fd, "x.gp", PLOT_PNG, 10, &chart, &len, &status);
    ck_assert_int_eq(st, PLOT_INCOMPLETE);
    ck_assert_uint_eq(len, 100);
    ck_assert_str_eq(plot_render_message(msg, sizeof msg, st, status, "x.gp", PLOT_PNG, len, 10),
                     "gnuplot wrote an incomplete chart (100 bytes, no IEND chunk at the end)");
    cleanup();
}
END_TEST

START_TEST(a_failing_gnuplot_is_reported_with_its_status)
{
    fake_gnuplot("echo 'line 3: undefined variable: x' >&2; exit 1");
    char *chart, msg[256];
    size_t len;
    int status;
    plot_render_status st = plot_render(work_fd, "spectrum.gp", PLOT_SVG, 10, &chart, &len, &status);
    ck_assert_int_eq(st, PLOT_FAILED);
    ck_assert_int_eq(status, 1);
    ck_assert_str_eq(plot_render_message(msg, sizeof msg, st, status, "spectrum.gp", PLOT_SVG, len, 10),
                     "gnuplot failed (exit status 1) on spectrum.gp");
    cleanup();
}
END_TEST

START_TEST(a_complete_chart_is_returned_whole)
{
    /* the script sees its folder and outfile='/dev/stdout' */
    fake_gnuplot("[ \"$1 $2 $3\" = \"-d -e outfile='/dev/stdout'\" ] || exit 9\n"
                 "[ -f \"$4\" ] || exit 8\n"
                 "printf '<svg>\\n'; cat \"$4\"; printf '</svg>\\n'");
    int fd = openat(work_fd, "x.gp", O_WRONLY | O_CREAT, 0644);
    ck_assert_int_eq(write(fd, "<g/>\n", 5), 5);
    close(fd);
    char *chart;
    size_t len;
    int status;
    ck_assert_int_eq(plot_render(work_fd, "x.gp", PLOT_SVG, 10, &chart, &len, &status), PLOT_RENDERED);
    ck_assert_uint_eq(len, 18);
    ck_assert_int_eq(memcmp(chart, "<svg>\n<g/>\n</svg>\n", 18), 0);
    free(chart);
    setenv("PATH", "/nonexistent", 1);
    ck_assert_int_eq(plot_render(work_fd, "x.gp", PLOT_SVG, 10, &chart, &len, &status), PLOT_NO_GNUPLOT);
    cleanup();
}
END_TEST

/* A stand-in gnuplot that takes both ways of calling it: "-d -e
 * outfile='/dev/stdout' SCRIPT" (plot_render) and "-d" then, per chart,
 * "-e 'reset session' -e outfile='/dev/fd/N' SCRIPT" (a batch); it draws
 * "<svg>", the script's text, "</svg>" into each outfile, logs one line a
 * process in calls, and fails (exit 1) on bad.gp. */
static const char batch_gnuplot[] =
    "echo \"$#\" >>calls\n"
    "[ \"$1\" = -d ] || exit 9; shift\n"
    "while [ $# -gt 0 ]; do\n"
    "  if [ \"$1 $2\" = \"-e reset session\" ]; then shift 2; fi\n"
    "  [ \"$1\" = -e ] || exit 9\n"
    "  out=${2#outfile=\\'}; out=${out%\\'}; s=$3; shift 3\n"
    "  [ \"$s\" = bad.gp ] && { echo 'line 1: no such chart' >&2; exit 1; }\n"
    "  { printf '<svg>\\n'; cat \"$s\"; printf '</svg>\\n'; } >\"$out\"\n"
    "done\n";

static void script_file(const char *name, const char *text)
{
    int fd = openat(work_fd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* Lines in the folder's calls file: the gnuplot processes started. */
static int calls(void)
{
    int fd = openat(work_fd, "calls", O_RDONLY), n = 0;
    char c;
    while (fd >= 0 && read(fd, &c, 1) == 1)
        n += c == '\n';
    if (fd >= 0)
        close(fd);
    return n;
}

START_TEST(a_batch_draws_each_chart_in_few_processes)
{
    fake_gnuplot(batch_gnuplot);
    const char *names[] = {"a.gp", "b.gp", "c.gp", "d.gp", "e.gp"};
    plot_job jobs[5];
    for (size_t k = 0; k < 5; k++) {
        char text[16];
        snprintf(text, sizeof text, "<g%zu/>\n", k);
        script_file(names[k], text);
        jobs[k] = (plot_job){names[k], PLOT_SVG, PLOT_NOT_RUN, NULL, 0, 0};
    }
    /* 5 charts on 2 processes: charts 0-1 and 2-4 */
    plot_render_batch(work_fd, jobs, 5, 2, 10);
    ck_assert_int_eq(calls(), 2);
    for (size_t k = 0; k < 5; k++) {
        char want[32];
        snprintf(want, sizeof want, "<svg>\n<g%zu/>\n</svg>\n", k);
        ck_assert_int_eq(jobs[k].st, PLOT_RENDERED);
        ck_assert_uint_eq(jobs[k].len, 19); /* 6 + 7 + 7 bytes */
        ck_assert_int_eq(memcmp(jobs[k].chart, want, 19), 0);
        free(jobs[k].chart);
    }
    cleanup();
}
END_TEST

START_TEST(a_failed_batch_is_rendered_again_chart_by_chart)
{
    fake_gnuplot(batch_gnuplot);
    script_file("a.gp", "<a/>\n");
    script_file("bad.gp", "<b/>\n");
    script_file("c.gp", "<c/>\n");
    plot_job jobs[3] = {{"a.gp", PLOT_SVG, PLOT_NOT_RUN, NULL, 0, 0}, {"bad.gp", PLOT_SVG, PLOT_NOT_RUN, NULL, 0, 0},
                        {"c.gp", PLOT_SVG, PLOT_NOT_RUN, NULL, 0, 0}};
    plot_render_batch(work_fd, jobs, 3, 1, 10);
    /* one batch process fails on bad.gp; then a.gp alone, bad.gp alone,
     * and c.gp is never run: 3 processes, the statuses of one by one */
    ck_assert_int_eq(calls(), 3);
    ck_assert_int_eq(jobs[0].st, PLOT_RENDERED);
    ck_assert_uint_eq(jobs[0].len, 18);
    ck_assert_int_eq(memcmp(jobs[0].chart, "<svg>\n<a/>\n</svg>\n", 18), 0);
    ck_assert_int_eq(jobs[1].st, PLOT_FAILED);
    ck_assert_int_eq(jobs[1].status, 1);
    ck_assert_ptr_null(jobs[1].chart);
    ck_assert_int_eq(jobs[2].st, PLOT_NOT_RUN);
    ck_assert_ptr_null(jobs[2].chart);
    free(jobs[0].chart);
    /* without gnuplot every chart says so, as one by one */
    setenv("PATH", "/nonexistent", 1);
    plot_render_batch(work_fd, jobs, 3, 2, 10);
    for (size_t k = 0; k < 3; k++)
        ck_assert_int_eq(jobs[k].st, PLOT_NO_GNUPLOT);
    cleanup();
}
END_TEST

/* The chart's subtitle shows the request rate of the first tester that has
 * one, worked out by tester_request_rate_per_ns: for a partly-open tester
 * sessions arrive at 100/s and each sends 1 / (1 - 0.75) = 4 requests on
 * average, so 400/s (the subtitle said 100/s before, forgetting the
 * sessions' requests); an open tester at 250/s shows 250/s. */
static void subtitle_of(const char *tester, char *out, size_t len)
{
    char dir[] = "/tmp/cosim-subtitle-XXXXXX", path[PATH_MAX], style[PATH_MAX], err[1024];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/s.ini", dir);
    snprintf(style, sizeof style, "%s/style.gp", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "[scenario]\nduration = 2s\n[service]\ndistribution = constant\ntime = 1ms\n%s", tester);
    fclose(f);
    f = fopen(style, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# style\n", f);
    fclose(f);
    scenario *s = NULL;
    ck_assert_msg(scenario_load(&s, path, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    plot_script ps = {"summary", "summary.dat", "t", "summary.png", PLOT_PNG, 1, 0, s->duration_ns, NULL,
                      NULL, NULL, NULL, NULL, "Percentiles: "};
    ck_assert_int_eq(plot_write_script(m, s, style, &ps), 0);
    fclose(m);
    /* issues 35 and 36: the chart's own name before the scenario's title;
     * the data read from beside the script (here, from ARG0) and checked
     * before the style sets its output; no path of this machine (the
     * style's folder) in the script */
    ck_assert_ptr_nonnull(strstr(buf, "\nchart_title = 'Percentiles: '.'"));
    ck_assert_ptr_nonnull(strstr(buf, "\ndatafile = here.'summary.dat'\n"));
    ck_assert_ptr_nonnull(strstr(buf, "outfile = here.'summary.png'"));
    ck_assert_ptr_nonnull(strstr(buf, "stats datafile every ::0::0 using (0) nooutput\n"));
    ck_assert_ptr_null(strstr(buf, dir));
    const char *at = strstr(buf, "chart_subtitle = '");
    ck_assert_ptr_nonnull(at);
    at += strlen("chart_subtitle = '");
    size_t k = strcspn(at, "'");
    snprintf(out, len, "%.*s", (int)k, at);
    free(buf);
    scenario_free(s);
    unlink(path);
    unlink(style);
    rmdir(dir);
}

START_TEST(the_subtitle_counts_a_sessions_requests)
{
    char sub[1024];
    subtitle_of("[tester t]\nkind = partly_open\nrate = 100/s\np_continue = 0.75\n", sub, sizeof sub);
    ck_assert_msg(strstr(sub, "; 400/s; 2s,") != NULL, "subtitle: %s", sub);
    subtitle_of("[tester t]\nkind = open\nrate = 250/s\n", sub, sizeof sub);
    ck_assert_msg(strstr(sub, "; 250/s; 2s,") != NULL, "subtitle: %s", sub);
    subtitle_of("[tester t]\nkind = closed\n", sub, sizeof sub); /* no rate */
    ck_assert_msg(strstr(sub, "/s;") == NULL, "subtitle: %s", sub);
}
END_TEST

/* ---- each tester's style ---- */

/* The styles plot_tester_style gives the testers of "[scenario]...TESTERS"
 * (a 2 s run, 1 ms constant service), space separated, into out. */
static void styles_of(const char *testers, char *out, size_t len)
{
    char dir[] = "/tmp/cosim-styles-XXXXXX", path[PATH_MAX], err[1024];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/s.ini", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "[scenario]\nduration = 2s\n[service]\ndistribution = constant\ntime = 1ms\n%s", testers);
    fclose(f);
    scenario *s = NULL;
    ck_assert_msg(scenario_load(&s, path, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    size_t m = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->n_testers; i++)
        m += (size_t)snprintf(out + m, m < len ? len - m : 0, "%s%d", i ? " " : "", plot_tester_style(s, i));
    scenario_free(s);
    unlink(path);
    rmdir(dir);
}

/* The first tester of each kind keeps its kind's style (closed 1, paced
 * 2, corrected 3, open 4, partly_open 5); every other takes, in order, the
 * first style nobody has from 6, 7, 8, then the styles of the kinds the
 * run lacks; past eight, 1, 2, ... again. */
START_TEST(every_tester_of_a_run_gets_its_own_style)
{
    char got[256];
    /* closed1 and open300 first of their kinds (1, 4); closed4 the first
     * other (6), open600 the next (7). Before: "1 6 4 6", closed4 and
     * open600 one look. */
    styles_of("[tester closed1]\nkind = closed\n[tester closed4]\nkind = closed\nusers = 4\n"
              "[tester open300]\nkind = open\nrate = 300/s\n[tester open600]\nkind = open\nrate = 600/s\n",
              got, sizeof got);
    ck_assert_str_eq(got, "1 6 4 7");
    /* six open testers: 4, then 6, 7, 8, then closed's 1 and paced's 2 (no
     * closed or paced tester in the run). Before: "4 6 7 8 6 7". */
    char six[512] = "";
    for (int i = 1; i <= 6; i++)
        snprintf(six + strlen(six), sizeof six - strlen(six), "[tester o%d]\nkind = open\nrate = %d/s\n", i,
                 100 * i);
    styles_of(six, got, sizeof got);
    ck_assert_str_eq(got, "4 6 7 8 1 2");
    /* a kind's first tester keeps its style wherever it stands: open,
     * open, closed gives the closed tester 1 though it comes last */
    styles_of("[tester a]\nkind = open\nrate = 100/s\n[tester b]\nkind = open\nrate = 200/s\n"
              "[tester c]\nkind = closed\n", got, sizeof got);
    ck_assert_str_eq(got, "4 6 1");
    /* one of each kind, in reverse order: each its kind's style */
    styles_of("[tester po]\nkind = partly_open\nrate = 100/s\np_continue = 0.5\n[tester o]\nkind = open\n"
              "rate = 100/s\n[tester c3]\nkind = corrected\nrate = 100/s\n[tester p]\nkind = paced\nrate = 100/s\n"
              "[tester c]\nkind = closed\n", got, sizeof got);
    ck_assert_str_eq(got, "5 4 3 2 1");
    /* ten closed testers: 1; then 6, 7, 8, 2, 3, 4, 5 (eight in all);
     * the ninth and tenth start again at 1 and 2 */
    char ten[512] = "";
    for (int i = 1; i <= 10; i++)
        snprintf(ten + strlen(ten), sizeof ten - strlen(ten), "[tester c%d]\nkind = closed\n", i);
    styles_of(ten, got, sizeof got);
    ck_assert_str_eq(got, "1 6 7 8 2 3 4 5 1 2");
}
END_TEST

/* ---- the palette: legible for colour-blind viewers and in greyscale ---- */

/* sRGB (0..255) to linear light (IEC 61966-2-1). */
static double lin_of(int c)
{
    double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

/* Linear RGB to CIE L*a*b* (D65 white; CIE 15:2004). */
static void lab_of_linear(const double rgb[3], double lab[3])
{
    double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
    double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
    double f[3], in[3] = {x, y, z};
    for (int i = 0; i < 3; i++)
        f[i] = in[i] > 0.008856 ? cbrt(in[i]) : 7.787 * in[i] + 16.0 / 116.0;
    lab[0] = 116 * f[1] - 16;
    lab[1] = 500 * (f[0] - f[1]);
    lab[2] = 200 * (f[1] - f[2]);
}

/* What a viewer with deuteranopia sees of an sRGB colour, in L*a*b*:
 * Machado, Oliveira and Fernandes (2009), "A physiologically-based model
 * for simulation of color vision deficiency", severity 1.0 matrix, applied
 * in linear RGB and clipped to [0, 1]. */
static void deuteranope_lab(const int srgb[3], double lab[3])
{
    static const double m[3][3] = {{0.367322, 0.860646, -0.227968},
                                   {0.280085, 0.672501, 0.047413},
                                   {-0.011820, 0.042940, 0.968881}};
    double l[3], o[3];
    for (int i = 0; i < 3; i++)
        l[i] = lin_of(srgb[i]);
    for (int i = 0; i < 3; i++) {
        o[i] = m[i][0] * l[0] + m[i][1] * l[1] + m[i][2] * l[2];
        o[i] = o[i] < 0 ? 0 : o[i] > 1 ? 1 : o[i];
    }
    lab_of_linear(o, lab);
}

static double delta_e(const double a[3], const double b[3]) /* CIE76 */
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* The n "#RRGGBB" colours of the first "array NAME[" line of a chart
 * script, into rgb; the count. Continuation lines are followed. */
static int read_array(const char *file, const char *name, char out[][16], int most)
{
    char path[PATH_MAX], line[512], want[64];
    snprintf(path, sizeof path, "%s/plots/%s", getenv("COSIM_SOURCE_ROOT"), file);
    snprintf(want, sizeof want, "array %s[", name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    int n = 0, in = 0;
    while (fgets(line, sizeof line, f)) {
        if (!in && strncmp(line, want, strlen(want)) != 0)
            continue;
        char *q = in ? line : strchr(line, '=');
        in = 1;
        for (; q && *q; q++) {
            if (*q == '"' && n < most) {
                char *e = strchr(q + 1, '"');
                ck_assert_ptr_nonnull(e);
                snprintf(out[n++], 16, "%.*s", (int)(e - q - 1), q + 1);
                q = e;
            } else if ((*q >= '0' && *q <= '9') && n < most && strcmp(name, "markers") == 0) {
                snprintf(out[n++], 16, "%ld", strtol(q, &q, 10));
                q--;
            }
        }
        if (!strstr(line, "\\\n"))
            break;
    }
    fclose(f);
    return n;
}

/* Each tester keeps one colour on every chart, and the colours stay apart
 * for a deuteranope (the commonest colour-vision deficiency): every pair
 * of the nine styles differs by at least 12 in CIE76 delta E after
 * Machado's simulation. Worked out beside this test (same formulas, in
 * Python): the closest pair is the first closed tester's vermillion
 * #D55E00 against the eighth style's olive #999933, 13.67; closed against
 * paced (#E69F00), the two warm colours, 18.35. In greyscale closed and
 * open (#009E73) are one grey (L* 54.2 and 57.7), which is why every
 * style has its own marker and dash pattern: checked here too. */
START_TEST(the_palette_reads_for_colour_blind_viewers_and_in_greyscale)
{
    char spec[9][16], other[9][16], mk[9][16];
    int n = read_array("spectrum.gp", "colours", spec, 9);
    ck_assert_int_eq(n, 9);
    static const char *const same[] = {"requests.gp", "timeline.gp", "sweep.gp", "animate.gp"};
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
        int m = read_array(same[k], "colours", other, 9);
        ck_assert_int_eq(m, 8);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(strcmp(spec[i], other[i]) == 0, "%s: colour %d is %s, spectrum.gp's %s", same[k], i + 1,
                          other[i], spec[i]);
    }
    double lab[9][3], grey[9];
    for (int i = 0; i < 9; i++) {
        int rgb[3];
        ck_assert_int_eq(sscanf(spec[i], "#%2x%2x%2x", (unsigned *)&rgb[0], (unsigned *)&rgb[1], (unsigned *)&rgb[2]),
                         3);
        deuteranope_lab(rgb, lab[i]);
        double l[3] = {lin_of(rgb[0]), lin_of(rgb[1]), lin_of(rgb[2])}, full[3];
        lab_of_linear(l, full);
        grey[i] = full[0];
    }
    double least = 1e9;
    int li = -1, lj = -1;
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++) {
            double d = delta_e(lab[i], lab[j]);
            if (d < least) {
                least = d;
                li = i;
                lj = j;
            }
        }
    ck_assert_msg(least >= 12.0, "styles %d and %d are %.2f apart for a deuteranope", li + 1, lj + 1, least);
    ck_assert_int_eq(li, 0);
    ck_assert_int_eq(lj, 7);
    ck_assert_double_eq_tol(least, 13.67, 0.01);
    ck_assert_double_eq_tol(delta_e(lab[0], lab[1]), 18.35, 0.01);
    ck_assert_double_lt(fabs(grey[0] - grey[3]), 5.0); /* closed and open: one grey */
    /* so every style has its own marker (and its own dash pattern, set
     * as dashtype 11..19 in each script) */
    ck_assert_int_eq(read_array("spectrum.gp", "markers", mk, 9), 9);
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++)
            ck_assert_msg(strcmp(mk[i], mk[j]) != 0, "styles %d and %d share marker %s", i + 1, j + 1, mk[i]);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *t = tcase_create("plot");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, charts_are_complete_only_with_their_ending);
    tcase_add_test(t, the_subtitle_counts_a_sessions_requests);
    tcase_add_test(t, the_pdf_date_is_cleared_in_place);
    tcase_add_test(t, timeouts_are_whole_seconds);
    tcase_add_test(t, a_hanging_gnuplot_is_stopped_at_the_timeout);
    tcase_add_test(t, a_short_chart_with_exit_0_is_incomplete);
    tcase_add_test(t, a_failing_gnuplot_is_reported_with_its_status);
    tcase_add_test(t, a_complete_chart_is_returned_whole);
    tcase_add_test(t, a_batch_draws_each_chart_in_few_processes);
    tcase_add_test(t, a_failed_batch_is_rendered_again_chart_by_chart);
    tcase_add_test(t, the_palette_reads_for_colour_blind_viewers_and_in_greyscale);
    tcase_add_test(t, every_tester_of_a_run_gets_its_own_style);
    suite_add_tcase(s, t);
    return s;
}
