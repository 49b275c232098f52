/* lecture.c - `cosim lecture SCENARIO... -o DIR`: every scenario run with
 * its charts as SVG and its [expect] checked, then one folder with
 * index.html (the interactive page, explore.h, when the browser engine
 * was built, else the static lesson), lesson.html (the static lesson:
 * every scenario), STEM.html (one each), the charts
 * STEM.CHART.svg and the tables STEM.summary.md and STEM.summary.csv. The
 * pages are libcosim's (sim/outputs/html.c); this file runs and collects. */
#define _POSIX_C_SOURCE 200809L
#include "datadir.h"
#include "exitcode.h"
#include "expect.h"
#include "explore.h"
#include "html.h"
#include "options.h"
#include "job.h"
#include "lecture.h"
#include "outdir.h"
#include "report.h"
#include "runfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The longest --title: the page's heading, one line. */
#define LECTURE_TITLE_MAX 200

/* Most files of the run beside a scenario's page (rows of runfiles[] with
 * RUNFILE_LECTURE: its summary.md and summary.csv). */
#define LECTURE_TABLES 8

/* What one scenario gives the pages. */
typedef struct lesson_run {
    const char *path;
    scenario *s;
    run_result r;
    int ran;
    char *report, *check, *lesson; /* malloc'd texts */
    size_t misses;
    char *svg[N_CHARTS];           /* the charts drawn (NULL: none) */
    size_t svg_len[N_CHARTS];
    char chart_name[N_CHARTS][SCENARIO_STEM_MAX + 72]; /* STEM.CHART.svg */
    const char *charts[N_CHARTS];
    size_t n_charts;
    char table[LECTURE_TABLES][SCENARIO_STEM_MAX + 32]; /* STEM.summary.md: runfiles, RUNFILE_LECTURE */
    const char *tables[LECTURE_TABLES];
    size_t n_tables;
    char page[SCENARIO_STEM_MAX + 16];
} lesson_run;

static void usage(FILE *f)
{
    fputs("usage: cosim lecture SCENARIO... -o DIR [--force] [--plots-dir DIR] [--title TEXT] [--style STYLE]\n"
          "       [--plot-timeout S] [--quiet] [--help] [--version]\n"
          "Run each scenario and write DIR/index.html: the interactive page (the engine of cosim in the\n"
          "page: move a stall, a rate, the users and watch the charts redraw; a picker when several\n"
          "scenarios are given), or the static lesson when the browser engine was not built (meson\n"
          "-Dweb=enabled); DIR/lesson.html: the static lesson, readable offline, with each scenario's\n"
          "description, lesson (its leading comments), table, charts (SVG) and [expect] verdicts; and\n"
          "DIR/STEM.html, one page per scenario, with STEM.summary.md and STEM.summary.csv beside it.\n"
          "--style slides draws the charts as cosim --style slides does (16:9, slide-sized text).\n"
          "--plot-timeout S stops gnuplot when one scenario's charts together take more than S seconds\n"
          "(default 60), as cosim --plot-timeout does for a run's.\n"
          "A SCENARIO is a file or a shipped scenario's NAME (as for cosim; see cosim --help).\n"
          "Exit codes as cosim's (man cosim); 1 when an expectation was missed.\n", f);
}

/* A whole staged file (the chart gnuplot drew) into memory. */
static char *read_staged(outdir *d, const char *name, size_t *len)
{
    int fd = openat(outdir_staging_fd(d), name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    char *buf = NULL;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && st.st_size >= 0 && (buf = malloc((size_t)st.st_size + 1))) {
        size_t got = 0;
        ssize_t n;
        while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
            got += (size_t)n;
        *len = got;
    }
    close(fd);
    return buf;
}

/* Text written by fn(f, ...) through a memory stream. */
#define CAPTURE(out, call)                                                                         \
    do {                                                                                           \
        size_t n_;                                                                                 \
        FILE *f_ = open_memstream(&(out), &n_);                                                    \
        if (f_) {                                                                                  \
            FILE *f = f_;                                                                          \
            call;                                                                                  \
            fclose(f_);                                                                            \
        }                                                                                          \
    } while (0)

/* Stage the run in a private folder, keep the charts it drew, and leave
 * nothing behind, even on a signal: the temporary folder is the output
 * folder's temp_parent (removed by its signal handler), and signals wait
 * while it exists without that handler (from mkdtemp to the open, from the
 * close to rmdir). The exit code. */
static int draw_charts(options *o, lesson_run *x, chart_data *cd)
{
    char dir[PATH_MAX], err[PATH_MAX + 1024], drawn[512], base[PATH_MAX];
    char charts[N_CHARTS + 1][64];
    int no_gnuplot = 0, rc = COSIM_EXIT_OK;
    const char *tmpdir = getenv("TMPDIR");
    sigset_t old;
    int n = snprintf(base, sizeof base, "%s/cosim-lecture-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    outdir_block_signals(&old);
    if (n < 0 || (size_t)n >= sizeof base - 8 || !mkdtemp(base)) {
        int e = errno;
        sigprocmask(SIG_SETMASK, &old, NULL);
        fprintf(stderr, "cosim: cannot make a temporary folder: %s\n", strerror(e));
        return COSIM_EXIT_OUTPUT;
    }
    if ((size_t)snprintf(dir, sizeof dir, "%s/run", base) >= sizeof dir) {
        rmdir(base);
        sigprocmask(SIG_SETMASK, &old, NULL);
        fprintf(stderr, "cosim: the temporary folder's name is too long: %s\n", base);
        return COSIM_EXIT_OUTPUT;
    }
    o->output = dir;
    o->temp_parent = 1;
    outdir *d = NULL;
    char taken[PATH_MAX];
    if (outputs_open(o, x->s, &d, taken, sizeof taken) != COSIM_EXIT_OK) {
        rmdir(base);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return COSIM_EXIT_OUTPUT;
    }
    sigprocmask(SIG_SETMASK, &old, NULL); /* a signal meanwhile: the handler removes base */
    if (outputs_stage(o, x->s, &x->r, cd, d, charts, &no_gnuplot, drawn, sizeof drawn, err, sizeof err)) {
        fprintf(stderr, "cosim: %s: %s\n", x->path, err);
        rc = COSIM_EXIT_OUTPUT;
    } else if (no_gnuplot) {
        fprintf(stderr, "cosim: gnuplot not found: the pages have no charts\n");
    } else {
        for (size_t k = 0; k < N_CHARTS; k++) {
            if (!charts[k][0] || !(x->svg[k] = read_staged(d, charts[k], &x->svg_len[k])))
                continue;
            int w = snprintf(x->chart_name[k], sizeof x->chart_name[k], "%s.%s", x->s->name, charts[k]);
            if (w < 0 || (size_t)w >= sizeof x->chart_name[k]) { /* cannot happen: sized for both */
                fprintf(stderr, "cosim: %s: chart name too long: %s\n", x->path, charts[k]);
                rc = COSIM_EXIT_OUTPUT;
                break;
            }
            x->charts[x->n_charts++] = x->chart_name[k];
        }
    }
    outdir_block_signals(&old);
    outdir_close(d); /* removes base too (temp_parent) */
    rmdir(base);     /* in case it did not */
    sigprocmask(SIG_SETMASK, &old, NULL);
    o->output = NULL;
    o->temp_parent = 0;
    return rc;
}

/* The options of one scenario's run in a lecture. */
static options lesson_options(const lesson_run *x, const char *plots_dir, int slides, unsigned plot_timeout_s)
{
    options o;
    memset(&o, 0, sizeof o);
    o.scenario = x->path;
    o.format = PLOT_SVG;
    o.slides = slides;
    o.plots_dir = plots_dir;
    o.plot_timeout_s = plot_timeout_s; /* 0: PLOT_DEFAULT_TIMEOUT_S */
    o.quiet = 1;
    return o;
}

/* Do paths a and b name the same file (device and inode)? */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Read every scenario before any runs, so that a bad file or two
 * scenarios whose pages would share a name end the lecture at once, not
 * after minutes of runs. The exit code. */
static int load_all(lesson_run *runs, size_t n, const char *plots_dir, int slides, unsigned plot_timeout_s)
{
    for (size_t i = 0; i < n; i++) {
        lesson_run *x = &runs[i];
        options o = lesson_options(x, plots_dir, slides, plot_timeout_s);
        int exit_code;
        if (!(x->s = options_load_scenario(&o, &exit_code)))
            return exit_code;
        if (strcasecmp(x->s->name, "index") == 0 || strcasecmp(x->s->name, "lesson") == 0) {
            fprintf(stderr, "cosim: lecture: %s is named '%s': its page would be the lecture's %s.html; give it "
                            "another [scenario] name\n", x->path, x->s->name,
                    strcasecmp(x->s->name, "index") == 0 ? "index" : "lesson");
            return COSIM_EXIT_USAGE;
        }
        /* case apart too, as tester names: pages are files */
        for (const lesson_run *y = runs; y < x; y++)
            if (strcasecmp(y->s->name, x->s->name) == 0) {
                if (same_file(y->path, x->path)) {
                    if (strcmp(y->path, x->path) == 0)
                        fprintf(stderr, "cosim: lecture: %s is given twice; give each scenario once\n", x->path);
                    else
                        fprintf(stderr, "cosim: lecture: %s and %s are the same file; give each scenario once\n",
                                y->path, x->path);
                } else if (strcmp(y->s->name, x->s->name) == 0)
                    fprintf(stderr, "cosim: lecture: %s and %s are both named '%s': their pages would share a name; "
                                    "give one a [scenario] name\n", y->path, x->path, x->s->name);
                else
                    fprintf(stderr, "cosim: lecture: %s and %s are named '%s' and '%s', which differ only by case: "
                                    "their pages would share a name on a disk blind to case; give one another "
                                    "[scenario] name\n", y->path, x->path, y->s->name, x->s->name);
                return COSIM_EXIT_USAGE;
            }
    }
    return COSIM_EXIT_OK;
}

/* Run one scenario (read by load_all): simulate, the texts of its report
 * and check, its charts. The exit code. */
static int run_one(lesson_run *x, const char *plots_dir, int slides, unsigned plot_timeout_s)
{
    options o = lesson_options(x, plots_dir, slides, plot_timeout_s);
    chart_data *cd = calloc(1, sizeof *cd);
    if (!cd)
        return COSIM_EXIT_SIM;
    int rc = job_check(&o, x->s, cd);
    if (rc == COSIM_EXIT_OK) {
        job_choose_charts(&o, x->s, cd);
        rc = job_simulate(&o, x->s, cd, &x->r) ? COSIM_EXIT_SIM : COSIM_EXIT_OK;
    }
    if (rc == COSIM_EXIT_OK) {
        x->ran = 1;
        CAPTURE(x->report, report_text(f, x->s, &x->r));
        if (x->s->n_expects > 0) {
            char *misses_text = NULL;
            size_t n;
            FILE *e = open_memstream(&misses_text, &n);
            CAPTURE(x->check, x->misses = expect_check(f, e ? e : stderr, x->s, &x->r));
            if (e)
                fclose(e);
            free(misses_text); /* the table says MISS on the line itself */
        }
        if (html_lesson(x->path, &x->lesson))
            x->lesson = NULL;
        rc = draw_charts(&o, x, cd);
    }
    band_free(cd->band);
    timeline_free(cd->timeline);
    timeline_free(cd->bars);
    free(cd);
    return rc;
}

/* The static lesson (lesson.html, and index.html without the engine);
 * with the interactive page beside it, a line under its heading leads
 * there. 0 or -errno. */
static int index_page(FILE *f, const char *title, const html_section *secs, size_t n, int explore)
{
    if (!explore)
        return html_write_page(f, title, secs, n, NULL);
    char *page = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&page, &len);
    if (!m)
        return -ENOMEM;
    int rc = html_write_page(m, title, secs, n, NULL);
    if (fclose(m) && !rc)
        rc = -ENOMEM;
    const char *h1 = rc ? NULL : strstr(page, "</h1>\n");
    if (!rc) {
        size_t head = h1 ? (size_t)(h1 - page) + 6 : 0;
        fwrite(page, 1, head, f);
        fputs("<p class=\"explore\"><a href=\"index.html\"><b>Explore these scenarios live</b></a>: change a "
              "stall, the service, each tester's rate and users, and watch the charts and the table redraw "
              "(the same engine as cosim, in the page; works offline).</p>\n", f);
        fwrite(page + head, 1, len - head, f);
        rc = ferror(f) ? -EIO : 0;
    }
    free(page);
    return rc;
}

/* Stage every file of the lecture folder. 0, or a negative errno (name:
 * the file). */
static int stage_pages(outdir *d, lesson_run *runs, size_t n, const char *title, char *name, size_t namelen)
{
    html_section *secs = calloc(n, sizeof *secs);
    FILE *f;
    int rc = 0;
    if (!secs)
        return -ENOMEM;
    for (size_t i = 0; i < n && !rc; i++) {
        lesson_run *x = &runs[i];
        char stem[SCENARIO_STEM_MAX + 2];
        snprintf(stem, sizeof stem, "%s.", x->s->name);
        snprintf(x->page, sizeof x->page, "%s.html", x->s->name);
        x->n_tables = 0;
        for (size_t k = 0; k < N_CHARTS && !rc; k++) {
            snprintf(name, namelen, "%s", x->chart_name[k]);
            if (x->svg[k])
                rc = outdir_write(d, name, x->svg[k], x->svg_len[k]);
        }
#define STAGE(file, call)                                                                          \
    if (!rc) {                                                                                     \
        snprintf(name, namelen, "%s", (file));                                                     \
        rc = (f = outdir_create(d, name)) ? 0 : -errno;                                            \
        if (!rc) {                                                                                 \
            int w_ = (call), c_ = outdir_finish(d, f);                                             \
            rc = c_ ? c_ : w_;                                                                     \
        }                                                                                          \
    }
        /* the run's files a page links: STEM.NAME for each RUNFILE_LECTURE row */
        for (size_t k = 0; k < runfiles_n && !rc; k++) {
            if (!(runfiles[k].flags & RUNFILE_LECTURE))
                continue;
            for (size_t j = 0; j < runfiles_count(k, x->s, &x->r) && !rc; j++) {
                char *t = x->table[x->n_tables];
                if (x->n_tables == LECTURE_TABLES) /* cannot happen: sized for the table's rows */
                    rc = -ENOBUFS;
                else if (!(rc = runfiles_name(k, j, x->s, stem, t, sizeof x->table[0]))) {
                    STAGE(t, runfiles[k].write(f, x->s, &x->r, j));
                    x->tables[x->n_tables++] = t;
                }
            }
        }
        secs[i] = (html_section){x->s, &x->r, x->s->name, x->lesson, x->report ? x->report : "", x->check,
                                 x->misses, x->charts, x->n_charts, x->tables, x->n_tables};
        STAGE(x->page, html_write_page(f, x->s->title, &secs[i], 1, "lesson.html"));
    }
    char page_dir[PATH_MAX], engine_dir[PATH_MAX], missing[DATADIR_MAX_FOLDERS * 4200];
    int explore = explore_find(page_dir, engine_dir, sizeof page_dir, missing, sizeof missing) == 0;
    STAGE("lesson.html", index_page(f, title, secs, n, explore));
    if (!explore) {
        fprintf(stderr, "cosim: lecture: note: %s; index.html is the static lesson (as lesson.html)\n", missing);
        STAGE("index.html", index_page(f, title, secs, n, 0));
    } else {
        explore_lesson *ls = calloc(n, sizeof *ls);
        char why[PATH_MAX + 256] = "";
        if (!ls && !rc)
            rc = -ENOMEM;
        for (size_t i = 0; ls && i < n; i++)
            ls[i] = (explore_lesson){runs[i].s->name, runs[i].path, runs[i].s->title,
                                     runs[i].lesson ? runs[i].lesson : ""};
        STAGE("index.html", explore_write_page(f, title, ls, n, page_dir, engine_dir, why, sizeof why));
        if (rc && why[0])
            fprintf(stderr, "cosim: lecture: index.html: %s\n", why);
        free(ls);
    }
#undef STAGE
    free(secs);
    return rc;
}

/* Take the lecture folder (a refusal, e.g. foreign files, ends it before
 * any run when check_only), or stage and commit every page. The exit code. */
static int write_folder(const char *dir, int force, lesson_run *runs, size_t n, const char *title,
                        int check_only)
{
    char err[PATH_MAX + 1024], name[128] = "";
    outdir_options oo = {force, NULL, 0, 0};
    outdir *d;
    if (outdir_open(&d, dir, &oo, err, sizeof err)) {
        fprintf(stderr, "cosim: %s\n", err);
        return COSIM_EXIT_OUTPUT;
    }
    if (check_only) {
        outdir_close(d);
        return COSIM_EXIT_OK;
    }
    int rc = stage_pages(d, runs, n, title, name, sizeof name);
    if (rc) {
        fprintf(stderr, "cosim: %s/%s: cannot write: %s; nothing in %s was replaced\n", dir, name, strerror(-rc),
                dir);
    } else if (outdir_commit(d, err, sizeof err)) {
        fprintf(stderr, "cosim: %s; nothing in %s was replaced\n", err, dir);
        rc = -1;
    }
    outdir_close(d);
    return rc ? COSIM_EXIT_OUTPUT : COSIM_EXIT_OK;
}

/* lecture's options; -1 after a message. */
static int parse(int argc, char **argv, const char **out, int *force, const char **plots, const char **title,
                 int *quiet, int *help, int *slides, unsigned *plot_timeout_s)
{
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"force", no_argument, NULL, 'f'},
                                          {"plots-dir", required_argument, NULL, 'P'},
                                          {"title", required_argument, NULL, 'T'},
                                          {"quiet", no_argument, NULL, 'q'},
                                          {"style", required_argument, NULL, 'S'},
                                          {"plot-timeout", required_argument, NULL, 't'},
                                          {"help", no_argument, NULL, 'h'},
                                          {"version", no_argument, NULL, 'V'},
                                          {NULL, 0, NULL, 0}};
    int c;
    optind = 0; /* a fresh scan (GNU getopt) */
    while ((c = getopt_long(argc, argv, "o:qhV", longs, NULL)) != -1) {
        switch (c) {
        case 'o': *out = optarg; break;
        case 'f': *force = 1; break;
        case 'P': *plots = optarg; break;
        case 'T': *title = optarg; break;
        case 'q': *quiet = 1; break;
        case 'S':
            if (plot_style_parse(optarg, slides)) {
                fprintf(stderr, "cosim: lecture: --style %s: expected default or slides\n", optarg);
                return -1;
            }
            break;
        case 't':
            if (plot_parse_timeout(optarg, plot_timeout_s)) {
                fprintf(stderr, "cosim: lecture: --plot-timeout %s: a whole number of seconds from 1 to %u\n", optarg,
                        PLOT_MAX_TIMEOUT_S);
                return -1;
            }
            break;
        case 'h': *help = 1; return 0;
        case 'V': *help = 2; return 0; /* --version */
        default: return -1;
        }
    }
    if (optind == argc || !*out) {
        fprintf(stderr, "cosim: lecture: %s\n", optind == argc ? "no scenario given" : "no folder: give -o DIR");
        return -1;
    }
    if (options_path_printable("lecture: ", "-o", *out) || options_output_stream_refused("lecture: ", *out) ||
        (*plots && options_path_printable("lecture: ", "--plots-dir", *plots)))
        return -1;
    for (int i = optind; i < argc; i++) {
        if (options_path_printable("lecture: ", "the scenario", argv[i]))
            return -1;
        if (strcmp(argv[i], "-") == 0) {
            fprintf(stderr, "cosim: lecture: - (standard input): a lecture reads each scenario's text twice (its "
                            "run and its lesson), so give files\n");
            return -1;
        }
    }
    return 0;
}

static void free_runs(lesson_run *runs, size_t n)
{
    for (size_t i = 0; runs && i < n; i++) {
        for (size_t k = 0; k < N_CHARTS; k++)
            free(runs[i].svg[k]);
        free(runs[i].report);
        free(runs[i].check);
        free(runs[i].lesson);
        if (runs[i].ran)
            run_result_free(&runs[i].r);
        scenario_free(runs[i].s);
    }
    free(runs);
}

int lecture_main(int argc, char **argv)
{
    const char *out = NULL, *plots = NULL, *title = "Coordinated omission: a lecture";
    int force = 0, quiet = 0, help = 0, slides = 0;
    unsigned plot_timeout = 0;
    if (parse(argc, argv, &out, &force, &plots, &title, &quiet, &help, &slides, &plot_timeout)) {
        fprintf(stderr, "cosim: try 'cosim lecture --help'\n");
        return COSIM_EXIT_USAGE;
    }
    if (help == 2) {
        printf("cosim %s\n", COSIM_VERSION);
        return COSIM_EXIT_OK;
    }
    if (help) {
        usage(stdout);
        return COSIM_EXIT_OK;
    }
    const char *why = options_title_problem(title, LECTURE_TITLE_MAX);
    if (why) {
        fprintf(stderr, "cosim: lecture: --title: %s; give 1 to %d bytes of text on one line\n", why,
                LECTURE_TITLE_MAX);
        return COSIM_EXIT_USAGE;
    }
    size_t n = (size_t)(argc - optind);
    lesson_run *runs = calloc(n, sizeof *runs);
    char (*found)[SCENARIO_PATH_MAX + 1] = n ? calloc(n, sizeof *found) : NULL;
    if (!found) {
        free(runs);
        runs = NULL;
    }
    for (size_t i = 0; runs && i < n; i++)
        runs[i].path = options_scenario_path(argv[optind + (int)i], found[i], sizeof found[i]);
    int rc = runs ? load_all(runs, n, plots, slides, plot_timeout) : COSIM_EXIT_SIM;
    if (rc == COSIM_EXIT_OK)
        rc = write_folder(out, force, NULL, 0, NULL, 1);
    size_t misses = 0;
    for (size_t i = 0; i < n && rc == COSIM_EXIT_OK; i++) {
        rc = run_one(&runs[i], plots, slides, plot_timeout);
        misses += runs[i].misses;
        if (rc == COSIM_EXIT_OK && !quiet)
            printf("%s: %zu chart%s%s\n", runs[i].path, runs[i].n_charts, runs[i].n_charts == 1 ? "" : "s",
                   !runs[i].check ? "" : runs[i].misses ? ", some expectations missed" : ", every expectation met");
    }
    if (rc == COSIM_EXIT_OK)
        rc = write_folder(out, force, runs, n, title, 0);
    if (rc == COSIM_EXIT_OK && !quiet)
        printf(n == 1 ? "wrote %s/index.html and a page for the scenario\n"
                      : "wrote %s/index.html and a page for each of the %zu scenarios\n",
               out, n);
    free_runs(runs, n);
    free(found);
    return rc == COSIM_EXIT_OK && misses ? COSIM_EXIT_CHECK : rc;
}
