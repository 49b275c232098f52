/* outputs.c - the output folder of a cosim run: every file staged, the
 * charts rendered and checked, all committed at once. */
#define _POSIX_C_SOURCE 200809L
#include "outputs.h"
#include "hist.h"
#include "exitcode.h"
#include "plot.h"
#include "report.h"
#include "runfiles.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What every staged file of one run shares. */
typedef struct staging {
    outdir *d;
    const scenario *s;
    const run_result *r;
    const options *o;
    const chart_data *cd;
    const char *names[256];  /* the testers' names */
    char all[4096];          /* every tester's name, for the charts' scripts */
    char spec[4096], slots[1024]; /* the spectrum's block order and slots */
    char name[128];          /* the file being written, for the message */
    char anim[64];           /* --animate: "requests_anim.gif" to render, else "" */
} staging;

/* Create st->name (n) in the staging folder, or rc = -errno and fail. */
#define OPEN(n)                                                                                    \
    do {                                                                                           \
        snprintf(st->name, sizeof st->name, "%s", (n));                                            \
        if (!(f = outdir_create(st->d, st->name))) {                                               \
            rc = -errno;                                                                           \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
/* Finish it: the failed write's own errno first (e.g. ENOSPC), else the
 * writer's result; fail on either. */
#define CLOSE(write_rc)                                                                            \
    do {                                                                                           \
        int w_ = (write_rc);                                                                       \
        int c_ = outdir_finish(st->d, f);                                                          \
        if ((rc = c_ ? c_ : w_))                                                                   \
            goto fail;                                                                             \
    } while (0)

/* Append "NAME = 'w1 w2 ...'" to buf, one word per tester from word(i). */
static void gp_words(char *buf, size_t len, const char *name, size_t n, unsigned long long (*word)(const timeline *,
                     size_t), const timeline *t)
{
    size_t m = strlen(buf);
    m += (size_t)snprintf(buf + m, m < len ? len - m : 0, "%s = '", name);
    for (size_t i = 0; i < n; i++)
        m += (size_t)snprintf(buf + m, m < len ? len - m : 0, "%s%llu", i ? " " : "", word(t, i));
    snprintf(buf + m, m < len ? len - m : 0, "'\n");
}

static unsigned long long w_seen(const timeline *t, size_t i) { return timeline_seen(t, i); }
static unsigned long long w_unrecorded(const timeline *t, size_t i) { return timeline_unrecorded(t, i); }
static unsigned long long w_syn(const timeline *t, size_t i) { return timeline_synthetic(t, i, NULL); }
static unsigned long long w_never(const timeline *t, size_t i) { return timeline_never_sent(t, i); }
static unsigned long long w_exact(const timeline *t, size_t i) { return (unsigned long long)timeline_exact(t, i); }
static unsigned long long w_every(const timeline *t, size_t i) { return timeline_bars_every(t, i, BARS_MAX_DRAW); }
static unsigned long long w_from_sent(const timeline *t, size_t i) { return (unsigned long long)timeline_from_sent(t, i); }

/* Append "shaded = 'n1 n2 ...'" (the stalls each tester's panel shades in
 * [from_ns, to_ns)) and "shaded_all = N" (the windows every tester shares,
 * the backlog panel's), so a chart says "grey: stall" only when it draws
 * grey. */
static void gp_shaded(char *buf, size_t len, const scenario *s, const run_result *r, int64_t from_ns,
                      int64_t to_ns)
{
    size_t m = strlen(buf);
    m += (size_t)snprintf(buf + m, m < len ? len - m : 0, "shaded = '");
    for (size_t i = 0; i < s->n_testers; i++) {
        long n = plot_stalls_shaded(s, r, i, from_ns, to_ns);
        m += (size_t)snprintf(buf + m, m < len ? len - m : 0, "%s%ld", i ? " " : "", n > 0 ? n : 0);
    }
    long all = plot_stalls_shaded(s, r, s->n_testers, from_ns, to_ns);
    snprintf(buf + m, m < len ? len - m : 0, "'\nshaded_all = %ld\n", all > 0 ? all : 0);
}

/* Whether a time chart has something to draw: the bars need every tester
 * kept exactly (BARS_MAX_POINTS) and one request in the window, the
 * timeline one point; else a message says why (not with --no-plot: no
 * chart is drawn then) and the chart is not written (a chart with nothing
 * drawn is never written). extra gets the chart's per-tester figures for
 * the style. */
static int time_chart_draws(staging *st, int bars, char *extra, size_t len)
{
    const scenario *s = st->s;
    const timeline *t = bars ? st->cd->bars : st->cd->timeline;
    size_t drawn = 0;
    char a[64], b[64];
    for (size_t i = 0; i < s->n_testers; i++) {
        if (bars && !timeline_exact(t, i)) {
            if (!st->o->no_plot)
                fprintf(stderr, "cosim: no requests chart: tester %s sent more than %d requests in the window "
                            "%s..%s; give a shorter --window\n", s->testers[i].name, BARS_MAX_POINTS,
                    units_format_duration_exact(bars ? st->cd->bars_from : st->cd->tl_from, a, sizeof a),
                    units_format_duration_exact(bars ? st->cd->bars_to : st->cd->tl_to, b, sizeof b));
            return 0;
        }
        drawn += bars ? timeline_bars(t, i) : timeline_points(t, i);
    }
    if (drawn == 0) {
        /* the timeline draws recorded requests only (a warm-up over the
         * window leaves it empty), the bars every request sent */
        if (!st->o->no_plot)
            fprintf(stderr, "cosim: no %s chart: no request %sin the window %s..%s; give another --window\n",
                    bars ? "requests" : "timeline", bars ? "" : "recorded ",
                    units_format_duration_exact(bars ? st->cd->bars_from : st->cd->tl_from, a, sizeof a),
                    units_format_duration_exact(bars ? st->cd->bars_to : st->cd->tl_to, b, sizeof b));
        return 0;
    }
    extra[0] = '\0';
    gp_words(extra, len, "seen", s->n_testers, w_seen, t);
    gp_words(extra, len, "unrecorded", s->n_testers, w_unrecorded, t);
    gp_words(extra, len, "synthetic", s->n_testers, w_syn, t);
    gp_words(extra, len, "exact", s->n_testers, w_exact, t);
    gp_shaded(extra, len, s, st->r, bars ? st->cd->bars_from : st->cd->tl_from,
              bars ? st->cd->bars_to : st->cd->tl_to);
    if (bars) {
        gp_words(extra, len, "never", s->n_testers, w_never, t);
        gp_words(extra, len, "every", s->n_testers, w_every, t);
        gp_words(extra, len, "from_sent", s->n_testers, w_from_sent, t);
    } else {
        size_t m = strlen(extra);
        snprintf(extra + m, len - m, "timeline_by = '%s'\nbacklog_bin_s = %.9f\n",
                 st->o->timeline_by_reply ? "reply" : "intended", (double)timeline_backlog_bin_ns(t) / 1e9);
    }
    return 1;
}

/* Chart k's .dat (and the band's), and its .gp; chart gets the picture's
 * name to render. *need_stalls set for a time window. 0 or a negative
 * errno (st->name: the file). */
static int write_chart(staging *st, size_t k, char chart[64], int *need_stalls)
{
    const chart_kind *ck = &chart_kinds[k];
    const scenario *s = st->s;
    const chart_data *cd = st->cd;
    FILE *f;
    int rc;
    char dat[64], gp[64];
    snprintf(dat, sizeof dat, "%s.dat", ck->name);
    snprintf(gp, sizeof gp, "%s.gp", ck->name);
    snprintf(chart, 64, "%s.%s", ck->name, plot_format_ext(st->o->format));
    plot_script ps = {ck->name, dat, st->all, chart, st->o->format, !st->o->ylinear && !ck->linear, 0,
                      s->duration_ns, NULL, NULL, NULL, NULL, NULL, ck->title_prefix};
    char counts[2048] = "", extra[8192] = "";
    if (ck->window != CHART_WHOLE_RUN) {
        int bars = ck->window == CHART_BARS_WINDOW;
        if (!time_chart_draws(st, bars, extra, sizeof extra)) {
            chart[0] = '\0';
            return 0; /* said why: nothing written, nothing rendered */
        }
        /* the points (or bars) each tester has in the window */
        for (size_t i = 0; i < s->n_testers; i++) {
            size_t c = bars ? timeline_bars(cd->bars, i) : timeline_points(cd->timeline, i);
            snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%zu", i ? " " : "", c);
        }
        ps.counts = counts;
        ps.extra = extra;
        ps.from_ns = bars ? cd->bars_from : cd->tl_from;
        ps.to_ns = bars ? cd->bars_to : cd->tl_to;
        *need_stalls = 1;
    }
    if (ck->spectrum_blocks) {
        ps.testers = st->spec;
        ps.slots = st->slots;
        /* the levels that hold more than a tenth of a curve's samples,
         * each given a labelled tick */
        plot_spectrum_levels(s, st->r, extra, sizeof extra);
        ps.extra = extra;
    }
    if (st->o->slides) { /* --style slides: the styles read it */
        size_t m = strlen(extra);
        snprintf(extra + m, sizeof extra - m, "style = 'slides'\n");
        ps.extra = extra;
    }
    OPEN(dat);
    CLOSE(ck->write(f, s, st->r, cd, st->names));
    if (ck->spectrum_blocks && cd->band) {
        OPEN("spectrum_band.dat");
        CLOSE(band_write(cd->band, f, s, st->r));
        ps.bandfile = "spectrum_band.dat";
    }
    OPEN(gp);
    CLOSE(plot_write_script(f, s, cd->style[k], &ps));
    if (k == CHART_REQUESTS && cd->anim_style) { /* --animate: the same bars, one request at a time */
        ps.chart = "requests_anim";
        ps.outfile = "requests.gif";
        ps.format = PLOT_GIF;
        OPEN("requests_anim.gp");
        CLOSE(plot_write_script(f, s, cd->anim_style, &ps));
        snprintf(st->anim, sizeof st->anim, "requests_anim.gif");
    }
    return 0;
fail:
    return rc;
}

/* Write every output file into d (under temporary names); charts[] gets the
 * chart files to render. 0, or a negative errno with err set. */
static int write_outputs(staging *st, char charts[N_CHARTS + 1][64], char *err, size_t errlen)
{
    const scenario *s = st->s;
    const run_result *r = st->r;
    FILE *f;
    int rc;
    for (size_t k = 0; k < runfiles_n; k++) /* summary.*, TESTER.hgrm, TESTER.hlog: runfiles.h */
        for (size_t i = 0; i < runfiles_count(k, s, r); i++) {
            char n[128];
            if ((rc = runfiles_name(k, i, s, "", n, sizeof n)) != 0) {
                snprintf(st->name, sizeof st->name, "%s", runfiles[k].name);
                goto fail;
            }
            OPEN(n);
            CLOSE(runfiles[k].write(f, s, r, i));
        }
    for (size_t i = 0; i < s->n_testers && i < 256; i++)
        st->names[i] = s->testers[i].name;
    plot_all_names(s, st->all, sizeof st->all);
    plot_spectrum_blocks(s, r, st->spec, sizeof st->spec, st->slots, sizeof st->slots);
    int need_stalls = 0;
    for (size_t k = 0; k < N_CHARTS; k++) {
        charts[k][0] = '\0';
        if (st->cd->style[k] && (rc = write_chart(st, k, charts[k], &need_stalls)))
            goto fail;
    }
    snprintf(charts[N_CHARTS], 64, "%s", st->anim);
    if (need_stalls) {
        OPEN("stalls.dat");
        CLOSE(plot_write_stalls(f, s, r, 0, s->duration_ns));
    }
    return 0;
fail:
    snprintf(err, errlen, "%s/%s: cannot write: %s", outdir_path(st->d), st->name,
             rc == -EINVAL ? "not a file name cosim writes" : rc == -EEXIST ? "written twice" : strerror(-rc));
    return rc;
}
#undef OPEN
#undef CLOSE

/* Stage chart job j (NAME.EXT, its script NAME.gp) as plot_render_batch
 * left it. 1 staged, 0 gnuplot is missing, -1 failed (err says why). */
static int stage_chart(outdir *d, plot_job *j, const char *chart, unsigned timeout, char *err, size_t errlen)
{
    /* the animation's script is requests_anim.gp, its picture requests.gif */
    const char *name = j->format == PLOT_GIF ? "requests.gif" : chart;
    if (j->st == PLOT_NO_GNUPLOT)
        return 0;
    if (j->st != PLOT_RENDERED) {
        char why[256];
        snprintf(err, errlen, "%s/%s: %s%s", outdir_path(d), name,
                 plot_render_message(why, sizeof why, j->st, j->status, j->script, j->format, j->len, timeout),
                 j->format == PLOT_GIF ? " (--animate needs gnuplot's gif terminal: 'gnuplot -e \"set terminal\"' "
                                         "lists it)" : "");
        return -1;
    }
    int rc = outdir_write(d, name, j->chart, j->len);
    if (rc) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", outdir_path(d), name, strerror(-rc));
        return -1;
    }
    return 1;
}

int outputs_open(const options *o, const scenario *s, outdir **d, char *dir, size_t dirlen)
{
    *d = NULL;
    if (o->output)
        snprintf(dir, dirlen, "%s", o->output);
    else if (outdir_default(dir, dirlen, s->path, s->name, SCENARIO_NAME_MAX, "")) {
        fprintf(stderr, "cosim: %s: the default output folder's name is too long; give -o DIR\n", o->scenario);
        return COSIM_EXIT_OUTPUT;
    }
    char source[PATH_MAX], err[PATH_MAX + 1024];
    /* standard input has no path: the manifest names it <stdin> */
    int in = strcmp(o->scenario, "-") == 0;
    outdir_options oo = {o->force, !in && realpath(o->scenario, source) ? source : s->path, !o->output,
                         o->temp_parent};
    if (outdir_open(d, dir, &oo, err, sizeof err)) {
        fprintf(stderr, "cosim: %s\n", err);
        return COSIM_EXIT_OUTPUT;
    }
    return COSIM_EXIT_OK;
}

/* Render every staged chart before anything moves, together on the
 * online cores (plot_render_batch); drawn gets ", NAME" for each. 0 done
 * (no_gnuplot set if gnuplot is missing), -1 failed (err). */
static int render_charts(outdir *d, const options *o, char charts[N_CHARTS + 1][64], int *no_gnuplot, char *drawn,
                         size_t drawnlen, char *err, size_t errlen)
{
    plot_job jobs[N_CHARTS + 1];
    char scripts[N_CHARTS + 1][96];
    size_t at[N_CHARTS + 1], n = 0;
    for (size_t k = 0; k <= N_CHARTS && !o->no_plot; k++) {
        if (!charts[k][0])
            continue;
        snprintf(scripts[n], sizeof scripts[n], "%.*s.gp", (int)(strrchr(charts[k], '.') - charts[k]), charts[k]);
        jobs[n] = (plot_job){scripts[n], k == N_CHARTS ? PLOT_GIF : o->format, PLOT_NOT_RUN, NULL, 0, 0};
        at[n++] = k; /* the last: --animate's GIF */
    }
    unsigned timeout = o->plot_timeout_s ? o->plot_timeout_s : PLOT_DEFAULT_TIMEOUT_S;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    plot_render_batch(outdir_staging_fd(d), jobs, n, cores > 0 ? (size_t)cores : 1, timeout);
    int rc = 0;
    for (size_t j = 0; j < n && rc == 0; j++) {
        int staged = stage_chart(d, &jobs[j], charts[at[j]], timeout, err, errlen);
        if (staged < 0)
            rc = -1;
        else if (staged == 0)
            *no_gnuplot = 1;
        else
            snprintf(drawn + strlen(drawn), drawnlen - strlen(drawn), ", %s",
                     jobs[j].format == PLOT_GIF ? "requests.gif" : charts[at[j]]);
    }
    for (size_t j = 0; j < n; j++)
        free(jobs[j].chart);
    return rc;
}

int outputs_stage(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                  char charts[N_CHARTS + 1][64], int *no_gnuplot, char *drawn, size_t drawnlen, char *err,
                  size_t errlen)
{
    int any_chart = 0;
    for (size_t k = 0; k < N_CHARTS; k++)
        any_chart |= cd->style[k] != NULL;
    if (plot_spectrum_testers(r) == 0 && any_chart) {
        fprintf(stderr, "cosim: no tester recorded a sample: no chart\n");
        memset(cd->style, 0, sizeof cd->style);
    }
    /* the whole-run charts draw only what chart = yes keeps: when every
     * tester with samples is hidden (and no truth is drawn) they have no
     * curve and no bar, and are left out, said once; the time charts draw
     * every tester and are kept */
    char spec_names[16], spec_slots[16]; /* only whether any block is drawn */
    plot_spectrum_blocks(s, r, spec_names, sizeof spec_names, spec_slots, sizeof spec_slots);
    int any_whole = 0;
    for (size_t k = 0; k < N_CHARTS; k++)
        any_whole |= cd->style[k] && chart_kinds[k].window == CHART_WHOLE_RUN;
    if (!spec_names[0] && any_whole) {
        fprintf(stderr, "cosim: every tester with samples has chart = no: no spectrum or summary chart\n");
        for (size_t k = 0; k < N_CHARTS; k++)
            if (chart_kinds[k].window == CHART_WHOLE_RUN)
                cd->style[k] = NULL;
    }
    /* a shown tester that recorded nothing has no curve and no bar: said,
     * not dropped in silence (every request timed out, a warm-up longer
     * than the run) */
    if (spec_names[0] && any_whole)
        for (size_t i = 0; i < s->n_testers; i++)
            if (!s->testers[i].chart_hidden && (!r->testers[i].hist || hist_count(r->testers[i].hist) == 0))
                fprintf(stderr, "cosim: tester %s recorded no sample: it has no curve in the spectrum and no "
                                "bar in the summary chart\n", s->testers[i].name);
    memset(charts, 0, sizeof(char[N_CHARTS + 1][64]));
    *no_gnuplot = 0;
    drawn[0] = '\0';
    staging st = {.d = d, .s = s, .r = r, .o = o, .cd = cd};
    if (write_outputs(&st, charts, err, errlen) != 0)
        return -1;
    return render_charts(d, o, charts, no_gnuplot, drawn, drawnlen, err, errlen) != 0 ? -1 : 0;
}

int outputs_write_run(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                      const char *dir, int exit_code)
{
    char err[PATH_MAX + 1024];
    char charts[N_CHARTS + 1][64];
    int no_gnuplot = 0;
    char drawn[512] = "";
    int failed = outputs_stage(o, s, r, cd, d, charts, &no_gnuplot, drawn, sizeof drawn, err, sizeof err) != 0;
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
    {
        char hlogs[64] = ""; /* TESTER.hlog, one a tester, with hlog_interval */
        if (s->hlog_interval_ns)
            snprintf(hlogs, sizeof hlogs, ", %zu .hlog interval log%s", r->n, r->n == 1 ? "" : "s");
        printf("\nwrote %s/: summary.json, summary.md, summary.csv, %zu .hgrm spectr%s%s%s\n", dir, r->n,
               r->n == 1 ? "um" : "a", hlogs, drawn);
    }
    return exit_code;
}
