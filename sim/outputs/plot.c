/* plot.c - gnuplot data and scripts; the charts' checks (rendering:
 * plot_render.c). */
#define _GNU_SOURCE
#include "plot.h"
#include "datadir.h"
#include "levels.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


static const char *const exts[] = {"png", "svg", "pdf", "gif"};
static const char *const terms[] = {"pngcairo", "svg", "pdfcairo", "gif"};

const char *plot_format_ext(plot_format f) { return exts[f]; }
const char *plot_format_term(plot_format f) { return terms[f]; }

int plot_format_parse(const char *name, plot_format *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, exts[i]) == 0) {
            *out = (plot_format)i;
            return 0;
        }
    return -EINVAL;
}

int plot_style_parse(const char *name, int *slides)
{
    if (strcmp(name, "default") && strcmp(name, "slides"))
        return -EINVAL;
    *slides = strcmp(name, "slides") == 0;
    return 0;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int plot_find_style(const char *plots_dir, const char *name, char *path, size_t len)
{
    if (!plots_dir)
        return datadir_find("plots", name, path, len);
    /* an explicit folder is not second-guessed */
    snprintf(path, len, "%s/%s", plots_dir, name);
    return is_file(path) ? 0 : -ENOENT;
}

size_t plot_spectrum_testers(const run_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += hist_count(r->testers[i].hist) > 0;
    return n + (r->has_truth && hist_count(r->truth) > 0);
}

/* The histogram of spectrum block i (a tester, or the truth at r->n), or
 * NULL when the block is not drawn. */
static const hist *drawn(const scenario *s, const run_result *r, size_t i)
{
    const hist *h = i < r->n ? r->testers[i].hist : r->has_truth ? r->truth : NULL;
    if (!h || hist_count(h) == 0 || (i < r->n && s->testers[i].chart_hidden))
        return NULL;
    return h;
}

/* Two blocks after the testers': each drawn tester's p99 (x = 100, the
 * value hist_value_at_percentile gives the report, and its text), then
 * where each curve's end label goes: at its last point, moved up or down
 * so that labels at least 0.12 decades apart (about a line of text on the
 * chart's log axis) never overlap; curves that end together (every tester
 * reaches the same stall) get a stack of labels. */
static void spectrum_marks(FILE *f, const scenario *s, const run_result *r)
{
    char a[64];
    double ex[SCENARIO_MAX_TESTERS + 1], ey[SCENARIO_MAX_TESTERS + 1];
    size_t idx[SCENARIO_MAX_TESTERS + 1], m = 0;
    fputs("\n\n# p99 of each tester above (block order): x latency_ms text\n", f);
    for (size_t i = 0; i <= r->n; i++) {
        const hist *h = drawn(s, r, i);
        if (!h)
            continue;
        int64_t v = hist_value_at_percentile(h, s->rank_rule, 99, 100);
        fprintf(f, "100 %.6f \"%s\"\n", (double)v / 1e6, units_format_duration(v, a, sizeof a));
        ex[m] = (double)hist_count(h);
        ey[m] = hist_max(h) > 0 ? log10((double)hist_max(h) / 1e6) : -6;
        idx[m] = i;
        m++;
    }
    /* order by end value, then push each label at least gap above the last */
    for (size_t j = 1; j < m; j++)
        for (size_t k = j; k > 0 && ey[k] < ey[k - 1]; k--) {
            double t = ey[k]; ey[k] = ey[k - 1]; ey[k - 1] = t;
            t = ex[k]; ex[k] = ex[k - 1]; ex[k - 1] = t;
            size_t u = idx[k]; idx[k] = idx[k - 1]; idx[k - 1] = u;
        }
    const double gap = 0.12;
    double ly[SCENARIO_MAX_TESTERS + 1];
    for (size_t j = 0; j < m; j++)
        ly[j] = j && ly[j - 1] + gap > ey[j] ? ly[j - 1] + gap : ey[j];
    /* a stack is centred on the values it stands for */
    double shift = 0;
    for (size_t j = 0; j < m; j++)
        shift += (ly[j] - ey[j]) / (double)m;
    fputs("\n\n# end-of-curve labels: x latency_ms_of_label label\n", f);
    for (size_t j = 0; j < m; j++) {
        fprintf(f, "%.2f %.6f \"", ex[j], pow(10, ly[j] - shift));
        const char *t = idx[j] < r->n ? tester_label(&s->testers[idx[j]]) : "truth";
        for (; *t; t++)
            if (*t != '"' && *t != '\\')
                fputc(*t, f);
        fputs("\"\n", f);
    }
}

int plot_write_spectrum_data(FILE *f, const scenario *s, const run_result *r)
{
    fprintf(f, "# cosim spectrum data for scenario %s (seed %llu, %s rank)\n", s->name,
            (unsigned long long)s->seed, hist_rank_rule_name(s->rank_rule));
    fprintf(f, "# one block per tester with samples (gnuplot index 0, 1, ...); columns:\n"
               "# percentile 1/(1-percentile) latency_ms total_count\n"
               "# the last row of a block is the max, placed at 1/(1-p) = n, the rank of\n"
               "# the last of n samples (the .hgrm's 100%% row, whose x is infinite)\n");
    size_t block = 0;
    for (size_t i = 0; i <= r->n; i++) {
        if (i == r->n && !r->has_truth)
            break;
        const hist *h = i < r->n ? r->testers[i].hist : r->truth; /* the truth last */
        uint64_t n = hist_count(h);
        if (n == 0)
            continue; /* nothing to draw */
        if (i < r->n && s->testers[i].chart_hidden)
            continue; /* chart = no */
        fprintf(f, "%s# tester %s\n", block++ ? "\n\n" : "", i < r->n ? s->testers[i].name : "truth");
        hist_iter it;
        hist_iter_init(&it, h, s->rank_rule, 5);
        double last_x = 0, x;
        while (hist_iter_next_spectrum(&it, &last_x, &x)) {
            fprintf(f, "%.12f %.2f %.6f %llu\n", it.is_final ? 1.0 - 1.0 / (double)n : it.percentile,
                    x, (double)it.value_ns / 1e6, (unsigned long long)it.total_count);
        }
    }
    if (block > 0)
        spectrum_marks(f, s, r);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

void plot_spectrum_levels(const scenario *s, const run_result *r, char *buf, size_t len)
{
    double v[PLOT_MAX_LEVELS];
    size_t m = 0, n = 0;
    for (size_t i = 0; i <= r->n; i++) {
        const hist *h = drawn(s, r, i);
        if (!h)
            continue;
        uint64_t total = hist_count(h), cum = 0;
        unsigned bits = hist_sub_bits(h);
        for (size_t k = 0; k < hist_counter_count(bits) && m < PLOT_MAX_LEVELS; k++) {
            uint64_t c = hist_count_at_index(h, k);
            if (c == 0)
                continue;
            /* more than a tenth, exactly: 10 c > total, which for whole
             * numbers is c > floor(total / 10) */
            if (c > total / 10) {
                /* the value the spectrum draws for these ranks (the rank
                 * rule's value of the level's first rank) */
                double ms = (double)hist_value_at_rank(h, cum + 1, NULL) / 1e6;
                int dup = 0;
                for (size_t j = 0; j < m; j++)
                    dup |= v[j] == ms;
                if (!dup)
                    v[m++] = ms;
            }
            cum += c;
        }
    }
    /* ascending, so a chart reads them in order */
    for (size_t j = 1; j < m; j++)
        for (size_t k = j; k > 0 && v[k] < v[k - 1]; k--) {
            double t = v[k]; v[k] = v[k - 1]; v[k - 1] = t;
        }
    n += (size_t)snprintf(buf, len, "levels = '");
    for (size_t j = 0; j < m; j++)
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%.6f", j ? " " : "", v[j]);
    snprintf(buf + n, n < len ? len - n : 0, "'\n");
}

/* A gnuplot string expression for any text: single-quoted pieces, inside
 * which no `command` substitution and no @macro expansion happen, joined
 * with '.' to sprintf('%c',39) for each quote. A quote is never written
 * as '' inside a piece: gnuplot reads a leading '' as an empty string and
 * fails on the rest ("'quoted' title" broke every chart), and its macro
 * scanner loses track of quotes mixed within a line. Control characters
 * (which the scenario reader already refuses) are dropped. */
static void gp_string(FILE *f, const char *s)
{
    int first = 1, open = 0;
    for (; *s; s++) {
        if (*s == '\'') {
            if (open)
                fputc('\'', f);
            fputs(first ? "sprintf('%c',39)" : ".sprintf('%c',39)", f);
            open = first = 0;
            continue;
        }
        if ((unsigned char)*s < 0x20)
            continue;
        if (!open) {
            fputs(first ? "'" : ".'", f);
            open = 1;
            first = 0;
        }
        fputc(*s, f);
    }
    if (open)
        fputc('\'', f);
    if (first)
        fputs("''", f);
}

void plot_write_gp_string(FILE *f, const char *text)
{
    gp_string(f, text);
}

/* "NAME = 'VALUE'" on a line of its own, when there is a value. */
static void gp_var(FILE *f, const char *name, const char *value)
{
    if (!value)
        return;
    fprintf(f, "%s = ", name);
    gp_string(f, value);
    fputc('\n', f);
}

int plot_tester_style(const scenario *s, size_t i)
{
    /* the first tester of each kind keeps its kind's style (its look in
     * every single-kind scenario); those styles are reserved first, so a
     * later kind's first tester never finds its own taken */
    int used[PLOT_TESTER_STYLES + 1] = {0};
    int base[SCENARIO_MAX_TESTERS];
    size_t n = s->n_testers < SCENARIO_MAX_TESTERS ? s->n_testers : SCENARIO_MAX_TESTERS;
    for (size_t j = 0; j < n; j++) {
        int k = s->testers[j].kind;
        int kb = k >= 0 && k < TESTER_N_KINDS ? tester_kinds[k].chart_style : 0; /* tester_kinds.def */
        base[j] = 0;
        if (kb && !used[kb]) {
            used[kb] = 1;
            base[j] = kb;
        }
    }
    /* the others, in order: the styles no kind has (6, 7, 8), then those
     * of the kinds the run lacks, so each tester has a look of its own;
     * past the eight (the ninth, black, is the truth's) they start again
     * at 1 in tester order, a look shared with an earlier tester */
    static const int spare[] = {6, 7, 8, 1, 2, 3, 4, 5};
    size_t overflow = 0;
    for (size_t j = 0; j < n; j++) {
        if (base[j])
            continue;
        int got = 0;
        for (size_t q = 0; q < sizeof spare / sizeof *spare && !got; q++)
            if (!used[spare[q]])
                got = spare[q];
        if (got)
            used[got] = 1;
        else
            got = (int)(overflow++ % PLOT_TESTER_STYLES) + 1;
        base[j] = got;
    }
    return i < n ? base[i] : 1;
}

/* After "testers = '...'": "labels" (a gnuplot array of each word's
 * legend text, the tester's label) and "styles" (each word's style,
 * plot_tester_style, 0 for the truth), in the words' order. */
static void tester_styles(FILE *f, const scenario *s, const char *words)
{
    char w[64];
    size_t n = 0;
    int at[SCENARIO_MAX_TESTERS + 1];
    for (const char *p = words; *p && n <= SCENARIO_MAX_TESTERS;) {
        size_t len = strcspn(p, " ");
        snprintf(w, sizeof w, "%.*s", (int)len, p);
        at[n] = -1;
        for (size_t i = 0; i < s->n_testers; i++)
            if (strcmp(s->testers[i].name, w) == 0)
                at[n] = (int)i;
        n++;
        p += len + (p[len] == ' ');
    }
    if (n == 0)
        return;
    fprintf(f, "\narray labels[%zu]\n", n);
    for (size_t j = 0; j < n; j++) {
        fprintf(f, "labels[%zu] = ", j + 1);
        gp_string(f, at[j] >= 0 ? tester_label(&s->testers[at[j]]) : "truth");
        fputc('\n', f);
    }
    fputs("styles = '", f);
    for (size_t j = 0; j < n; j++)
        fprintf(f, "%s%d", j ? " " : "", at[j] >= 0 ? plot_tester_style(s, (size_t)at[j]) : 0);
    fputc('\'', f);
}

/* "10ms every 1s from 0s; 1000/s; 100s, random seed 1, sorted_index rank":
 * the seed in the subtitle, never the title (a title stays short) */
static void subtitle(const scenario *s, char *buf, size_t len)
{
    char a[64], b[512], d[256], rate[64] = "";
    /* the testers' rates (partly-open's counts its sessions' requests):
     * one when they agree, their range when not (a subtitle reading
     * "100/s" over testers at 100, 200 and 300/s misled) */
    double lo = -1, hi = -1;
    for (size_t i = 0; i < s->n_testers; i++) {
        double per_ns = tester_request_rate_per_ns(&s->testers[i]);
        if (per_ns < 0)
            continue;
        if (lo < 0 || per_ns < lo)
            lo = per_ns;
        if (per_ns > hi)
            hi = per_ns;
    }
    if (lo >= 0 && hi == lo)
        snprintf(rate, sizeof rate, "%g/s; ", 1e9 * lo);
    else if (lo >= 0)
        snprintf(rate, sizeof rate, "%g/s to %g/s; ", 1e9 * lo, 1e9 * hi);
    snprintf(buf, len, "%s; stalls: %s; %s%s, random seed %llu, %s rank", dist_describe(&s->service, b, sizeof b),
             scenario_describe_stalls(s, d, sizeof d), rate,
             units_format_duration_exact(s->duration_ns, a, sizeof a), (unsigned long long)s->seed,
             hist_rank_rule_name(s->rank_rule));
}

int plot_write_script(FILE *f, const scenario *s, const char *style_path, const plot_script *ps)
{
    FILE *style = fopen(style_path, "r");
    if (!style)
        return -errno;
    char sub[1024];
    subtitle(s, sub, sizeof sub);
    const char *style_name = strrchr(style_path, '/') ? strrchr(style_path, '/') + 1 : style_path;
    /* no path of this machine in the script (only the style's own name):
     * an output folder is the same bytes wherever it was written */
    fprintf(f, "# Generated by cosim for scenario %s: the variables below, then the style\n"
               "# script %s (cosim's plots/ folder, or --plots-dir). Re-render with\n"
               "# gnuplot %s.gp, from this folder or any other: the data are read from\n"
               "# beside this script, and the chart is written beside it.\n",
            s->name, style_name, ps->chart);
    /* here: the script's folder as gnuplot was given it (ARG0, its path;
     * "" when run in its folder), the prefix of every file it reads and
     * of the chart it writes */
    fputs("here = ''\n"
          "if (exists(\"ARG0\")) { do for [k=strlen(ARG0):1:-1] { if (here eq '' && ARG0[k:k] eq '/') "
          "{ here = ARG0[1:k] } } }\n", f);
    fputs("datafile = here.", f);
    gp_string(f, ps->datafile);
    /* the data read before the style sets its output: a missing data
     * file stops the script with a message, and no chart file is
     * created or truncated */
    fputs("\nundefine STATS_*\nstats datafile every ::0::0 using (0) nooutput\n"
          "if (!exists(\"STATS_records\")) { exit error sprintf(\"cannot read %s: keep the chart's .gp beside "
          "its data\", datafile) }\n", f);
    fputs("stallsfile = here.", f);
    gp_string(f, "stalls.dat");
    fputs("\nchart_title = ", f);
    if (ps->title_prefix) {
        gp_string(f, ps->title_prefix);
        fputc('.', f);
    }
    gp_string(f, s->title);
    fputs("\nchart_subtitle = ", f);
    gp_string(f, sub);
    fputs("\ntesters = ", f);
    gp_string(f, ps->testers); /* names are [A-Za-z0-9_-], space separated */
    tester_styles(f, s, ps->testers);
    fprintf(f, "\nxfrom = %.9f\nxto = %.9f\n", (double)ps->from_ns / 1e9, (double)ps->to_ns / 1e9);
    gp_var(f, "counts", ps->counts);
    gp_var(f, "slots", ps->slots);
    if (ps->bandfile) {
        fputs("bandfile = here.", f);
        gp_string(f, ps->bandfile);
        fputc('\n', f);
    }
    gp_var(f, "xkey", ps->xlabel);
    if (ps->extra)
        fputs(ps->extra, f);
    fputs("if (!exists(\"ylog\")) ylog = ", f);
    fputs(ps->ylog ? "1" : "0", f);
    fputs("\nif (!exists(\"outfile\")) outfile = here.", f);
    gp_string(f, ps->outfile);
    fputs("\nif (!exists(\"term\")) term = ", f);
    gp_string(f, plot_format_term(ps->format));
    fputs("\nif (!exists(\"style\")) style = ", f);
    gp_string(f, "default");
    fputs("\n\n", f);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, style)) > 0)
        fwrite(buf, 1, n, f);
    int rerr = ferror(style);
    fclose(style);
    if (rerr)
        return -EIO;
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

void plot_spectrum_blocks(const scenario *s, const run_result *r, char *names, size_t names_len,
                          char *slots, size_t slots_len)
{
    size_t n = 0, m = 0;
    names[0] = slots[0] = '\0';
    for (size_t i = 0; i <= s->n_testers; i++) {
        const hist *h = i < s->n_testers ? r->testers[i].hist : r->has_truth ? r->truth : NULL;
        if (!h || hist_count(h) == 0 || (i < s->n_testers && s->testers[i].chart_hidden))
            continue;
        n += (size_t)snprintf(names + n, n < names_len ? names_len - n : 0, "%s%s", n ? " " : "",
                              i < s->n_testers ? s->testers[i].name : "truth");
        m += (size_t)snprintf(slots + m, m < slots_len ? slots_len - m : 0, "%s%zu", m ? " " : "",
                              i < s->n_testers ? i + 1 : 0);
    }
}

char *plot_all_names(const scenario *s, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->n_testers; i++)
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " " : "", s->testers[i].name);
    return buf;
}

/* The stalls of a panel that meet [from_ns, to_ns), "start_s end_s" a row
 * to f (NULL: only count): the stop-the-world windows (at most 5000) and,
 * with tr, the request stalls its requests met as the engine ran them
 * (tester_result.stall_spans). @return the rows, or -1 with no memory. */
static long stall_rows(FILE *f, const scenario *s, const tester_result *tr, int64_t from_ns, int64_t to_ns)
{
    /* at most 5000 windows: more would be a grey band anyway */
    enum { MAX_WINDOWS = 5000 };
    stall_window *win = malloc(MAX_WINDOWS * sizeof *win);
    size_t nw = 0;
    if (!win || run_stop_windows(s, from_ns, to_ns, win, MAX_WINDOWS, &nw)) {
        free(win);
        return -1;
    }
    long n = 0;
    for (size_t j = 0; j < nw; j++, n++)
        if (f)
            fprintf(f, "%.9f %.9f\n", (double)win[j].start_ns / 1e9, (double)win[j].end_ns / 1e9);
    free(win);
    for (size_t j = 0; tr && j < tr->n_stall_spans; j++) {
        const tester_stall_span *p = &tr->stall_spans[j];
        if (p->end_ns <= from_ns || p->start_ns >= to_ns)
            continue;
        if (f)
            fprintf(f, "%.9f %.9f\n", (double)p->start_ns / 1e9, (double)p->end_ns / 1e9);
        n++;
    }
    return n;
}

int plot_write_stalls(FILE *f, const scenario *s, const run_result *r, int64_t from_ns, int64_t to_ns)
{
    fprintf(f, "# cosim stalls between %.9f s and %.9f s; columns: start_s end_s\n"
               "# one block per tester (gnuplot index 0, 1, ...): the stop-the-world windows\n"
               "# and the request stalls its requests met (the stalled request's service,\n"
               "# from its work's start to its reply); then one block of the windows alone\n",
            (double)from_ns / 1e9, (double)to_ns / 1e9);
    for (size_t i = 0; i <= s->n_testers; i++) {
        if (i < s->n_testers)
            fprintf(f, "%s# tester %s\n", i ? "\n\n" : "", s->testers[i].name);
        else
            fputs(i ? "\n\n# every tester: the stop-the-world windows\n" : "# the stop-the-world windows\n", f);
        long n = stall_rows(f, s, i < s->n_testers && i < r->n ? &r->testers[i] : NULL, from_ns, to_ns);
        if (n < 0)
            return -ENOMEM;
        if (n == 0)
            fputs("nan nan\n", f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

long plot_stalls_shaded(const scenario *s, const run_result *r, size_t i, int64_t from_ns, int64_t to_ns)
{
    return stall_rows(NULL, s, i < s->n_testers && i < r->n ? &r->testers[i] : NULL, from_ns, to_ns);
}

int plot_first_stall(const scenario *s, int64_t *from_ns, int64_t *to_ns)
{
    stall_window w;
    size_t n = 0;
    if (run_stop_windows(s, 0, s->duration_ns, &w, 1, &n) || n == 0)
        return 0;
    int64_t len = w.end_ns - w.start_ns;
    *from_ns = w.start_ns > len ? w.start_ns - len : 0;
    *to_ns = w.end_ns + 2 * len < s->duration_ns ? w.end_ns + 2 * len : s->duration_ns;
    return *to_ns > *from_ns;
}

int plot_write_summary_data(FILE *f, const scenario *s, const run_result *r)
{
    fputs("# cosim summary: columns: \"tester label\" p50_ms p99_ms p99.9_ms mean_ms\n", f);
    for (size_t i = 0; i <= r->n; i++) {
        const hist *h = i < r->n ? r->testers[i].hist : r->truth;
        if (i == r->n && !r->has_truth)
            break;
        if (hist_count(h) == 0 || (i < r->n && s->testers[i].chart_hidden))
            continue;
        fputc('"', f); /* the legend's label, quoted: it may hold spaces */
        for (const char *t = i < r->n ? tester_label(&s->testers[i]) : "truth"; *t; t++)
            if (*t != '"' && *t != '\\')
                fputc(*t, f);
        fputc('"', f);
        size_t k = 0;
        for (const level *l; (l = levels_nth(LEVELS_HEADLINE, k)) != NULL; k++)
            fprintf(f, " %.6f", (double)levels_value(h, s->rank_rule, l) / 1e6);
        fprintf(f, " %.6f\n", hist_mean(h) / 1e6); /* last: the percentiles keep their columns */
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int plot_parse_timeout(const char *text, unsigned *seconds)
{
    size_t n = strlen(text);
    if (n == 0 || n > 6 || strspn(text, "0123456789") != n)
        return -EINVAL;
    unsigned long v = strtoul(text, NULL, 10);
    if (v < 1 || v > PLOT_MAX_TIMEOUT_S)
        return -EINVAL;
    *seconds = (unsigned)v;
    return 0;
}

/* len without trailing white space */
static size_t trimmed(const char *data, size_t len)
{
    while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r' || data[len - 1] == ' ' ||
                       data[len - 1] == '\t'))
        len--;
    return len;
}

static int ends_with(const char *data, size_t len, const char *tail, size_t tlen)
{
    return len >= tlen && memcmp(data + len - tlen, tail, tlen) == 0;
}

static int contains(const char *data, size_t len, const char *what)
{
    size_t k = strlen(what);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(data + i, what, k) == 0)
            return 1;
    return 0;
}

static const char png_signature[8] = {(char)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
static const char png_iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (char)0xae, 0x42, 0x60, (char)0x82};

int plot_chart_complete(const char *data, size_t len, plot_format format)
{
    switch (format) {
    case PLOT_PNG:
        return len >= 20 && memcmp(data, png_signature, 8) == 0 && ends_with(data, len, png_iend, 12) ? 0 : -EIO;
    case PLOT_SVG:
        return contains(data, len, "<svg") && ends_with(data, trimmed(data, len), "</svg>", 6) ? 0 : -EIO;
    case PLOT_PDF:
        return len >= 5 && memcmp(data, "%PDF-", 5) == 0 && ends_with(data, trimmed(data, len), "%%EOF", 5)
                   ? 0 : -EIO;
    case PLOT_GIF:
        return len >= 14 && memcmp(data, "GIF89a", 6) == 0 && data[len - 1] == 0x3b ? 0 : -EIO;
    }
    return -EIO;
}

char *plot_render_message(char *buf, size_t buflen, plot_render_status st, int status, const char *script,
                          plot_format format, size_t chart_len, unsigned timeout_s)
{
    static const char *const endings[] = {"no IEND chunk at the end", "no closing </svg>",
                                          "no %%EOF at the end", "no GIF trailer at the end"};
    switch (st) {
    case PLOT_RENDERED:
        snprintf(buf, buflen, "rendered");
        break;
    case PLOT_NO_GNUPLOT:
        snprintf(buf, buflen, "gnuplot is not installed");
        break;
    case PLOT_FAILED:
        if (status > 128)
            snprintf(buf, buflen, "gnuplot was killed by signal %d on %s", status - 128, script);
        else
            snprintf(buf, buflen, "gnuplot failed (exit status %d) on %s", status, script);
        break;
    case PLOT_TIMEOUT:
        snprintf(buf, buflen, "gnuplot did not finish within %u s and was stopped (--plot-timeout)", timeout_s);
        break;
    case PLOT_INCOMPLETE:
        snprintf(buf, buflen, "gnuplot wrote an incomplete chart (%zu bytes, %s)", chart_len, endings[format]);
        break;
    case PLOT_TOO_BIG:
        snprintf(buf, buflen, "gnuplot wrote a chart larger than %zu MiB; stopped", PLOT_MAX_CHART_BYTES >> 20);
        break;
    case PLOT_NOT_RUN:
        snprintf(buf, buflen, "not rendered: a chart before it failed");
        break;
    }
    return buf;
}

void plot_pdf_clear_date(char *data, size_t len)
{
    static const char key[] = "/CreationDate (D:";
    const size_t klen = sizeof key - 1;
    for (size_t i = 0; i + klen + 14 <= len; i++) {
        if (memcmp(data + i, key, klen) != 0)
            continue;
        memcpy(data + i + klen, "19700101000000", 14);
        return;
    }
}
