/* report.c - text summary, summary.json and .hgrm spectra. */
#include "report.h"
#include "gclog.h"
#include "hgrm.h"
#include "hlog.h"
#include "levels.h"
#include "run_hlog.h"
#include "units.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* "paced, catch_up, 10 users at 0.4/s each, 2 conn, intended": a user's
 * rate is the tester's over its users (they share the interval). */
const char *report_kind_label(const tester_spec *t, char *buf, size_t len)
{
    size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
    buf[0] = '\0';
    ADD("%s", tester_kind_name(t->kind));
    if (tester_kind_has(t->kind, TESTER_KIND_LATE_POLICY))
        ADD(", %s", tester_late_name(t->late));
    if (tester_kind_has(t->kind, TESTER_KIND_ARRIVALS) && t->arrivals == TESTER_ARRIVALS_POISSON)
        ADD(", poisson");
    if (tester_kind_has(t->kind, TESTER_KIND_SESSIONS)) {
        char p[48];
        ADD(", p %s", units_format_number(t->p_continue, p, sizeof p));
    }
    double rate = tester_request_rate_per_ns(t);
    int users = !tester_kind_has(t->kind, TESTER_KIND_OPEN_LIKE) && t->users > 1;
    if (users && rate > 0)
        ADD(", %llu users at %.3g/s each", (unsigned long long)t->users, rate * 1e9 / (double)t->users);
    else if (users)
        ADD(", %llu users", (unsigned long long)t->users);
    if (t->connections && t->connections < t->users)
        ADD(", %llu conn", (unsigned long long)t->connections);
    if (t->latency_from_intended)
        ADD(", intended");
#undef ADD
    return buf;
}

/* The primitives' figures, only for a tester that uses them (the JSON of
 * the others stays as it was). */
static void write_primitives_json(FILE *f, const tester_spec *t, const tester_result *x)
{
    if (t->vus) {
        fprintf(f, "      \"dropped_arrivals\": %llu,\n      \"max_vus\": %llu,\n"
                   "      \"dropped_arrivals_per_s\": {",
                (unsigned long long)x->dropped_arrivals, (unsigned long long)x->max_vus_used);
        int first = 1;
        for (size_t k = 0; x->drops_per_s && k < x->n_drop_seconds; k++)
            if (x->drops_per_s[k]) {
                fprintf(f, "%s\"%zu\": %llu", first ? "" : ", ", k, (unsigned long long)x->drops_per_s[k]);
                first = 0;
            }
        fputs("},\n", f);
    }
    if (t->timeout_ns)
        fprintf(f, "      \"timeout_ns\": %lld,\n      \"timeouts\": %llu,\n", (long long)t->timeout_ns,
                (unsigned long long)x->timeouts);
    if (t->warmup_ns)
        fprintf(f, "      \"warmup_ns\": %lld,\n      \"warmup_skipped\": %llu,\n", (long long)t->warmup_ns,
                (unsigned long long)x->warmup_skipped);
    if (t->backfill)
        fprintf(f, "      \"backfill_interval_ns\": %lld,\n      \"added\": %llu,\n",
                (long long)x->backfill_interval_ns, (unsigned long long)x->added);
}

/* The recorded latencies with the dropped ones added back (NULL when
 * nothing was dropped or memory ran out): what the drop hides. */
static hist *with_dropped(const tester_result *t)
{
    hist *h;
    if (!t->dropped || hist_new(&h, hist_sub_bits(t->hist)))
        return NULL;
    hist_merge(h, t->hist);
    hist_merge(h, t->dropped);
    return h;
}

/* 1 when in_flight_at_end = drop threw away the largest latency of the run
 * (the dropped replies would have been the largest values). */
static int drop_hides_largest(const tester_result *t)
{
    return t->dropped && hist_count(t->dropped) > 0 &&
           (hist_count(t->hist) == 0 || hist_max(t->dropped) > hist_max(t->hist));
}

/* The measured busy fraction: time the workers worked within the run / its
 * length times the workers, in [0, 1]. */
static double busy_fraction(const scenario *s, const tester_result *t)
{
    return (double)t->busy_in_run_ns / ((double)s->duration_ns * (double)s->workers);
}

/* got / want - 1, or 0 when the histogram cannot tell them apart */
static double relative_error(int64_t got, int64_t want, unsigned sub_bits)
{
    if (hist_index_of((uint64_t)got, sub_bits) == hist_index_of((uint64_t)want, sub_bits))
        return 0;
    return (double)got / (double)want - 1;
}

/* One row of the latency table. */
static void latency_row(FILE *f, const scenario *s, size_t w, const char *name, const hist *h,
                        const char *note)
{
    char a[64];
    if (hist_count(h) == 0) {
        fprintf(f, "%-*s  %9s  (no samples recorded)\n", (int)w, name, "-");
        return;
    }
    fprintf(f, "%-*s  %9s", (int)w, name, units_format_duration((int64_t)(hist_mean(h) + 0.5), a, sizeof a));
    size_t k = 0;
    for (const level *l; (l = levels_nth(LEVELS_TABLE, k)) != NULL; k++)
        fprintf(f, " %9s", units_format_duration(levels_value(h, s->rank_rule, l), a, sizeof a));
    fprintf(f, " %9s%s\n", units_format_duration(hist_max(h), a, sizeof a), note);
}

/* What became of an input file's lines, and each warning (lines skipped
 * with strict = false, text spliced into a record), indented under the
 * summary it belongs to. */
static void report_input_lines(FILE *f, const char *name, const textin_account *a, char *const *warnings,
                               size_t n_warnings)
{
    char line[1024];
    textin_account_describe(a, name, line, sizeof line);
    fprintf(f, "    lines of %s: %s\n", name, line);
    for (size_t k = 0; k < n_warnings; k++)
        fprintf(f, "    warning: %s\n", warnings[k]);
}

/* Each gc_log stall's pause summary (gclog_summary), its file's lines and
 * warnings, and its log's notes (overlaps merged, at most 5 of them shown). */
static void report_stall_logs(FILE *f, const scenario *s)
{
    for (size_t i = 0; i < s->n_stalls; i++) {
        const gclog_result *g = s->stall_log[i];
        if (!g)
            continue;
        char line[512];
        gclog_summary(g, s->duration_ns, line, sizeof line);
        fprintf(f, "  stall %s: %s\n", s->stalls[i].name, line);
        report_input_lines(f, g->name, &g->lines, g->warnings, g->n_warnings);
        for (size_t k = 0; k < g->n_notes && k < 5; k++)
            fprintf(f, "    note: %s\n", g->notes[k]);
        if (g->n_notes > 5)
            fprintf(f, "    note: and %zu more overlaps merged\n", g->n_notes - 5);
    }
}

/* The header: the scenario, seed, title, service, stalls, rank rule. */
static void text_header(FILE *f, const scenario *s)
{
    char a[96], c[512];
    fprintf(f, "%s: %s, seed %llu\n", s->name, units_format_duration_exact(s->duration_ns, a, sizeof a),
            (unsigned long long)s->seed);
    if (strcmp(s->title, s->name) != 0)
        fprintf(f, "  %s\n", s->title);
    fprintf(f, "  service: %s", dist_describe(&s->service, c, sizeof c));
    if (s->workers > 1) /* one worker goes unsaid, as before workers existed */
        fprintf(f, ", %llu workers", (unsigned long long)s->workers);
    fputc('\n', f);
    const hgrm_dist *sh = s->service_hist;
    if (sh && sh->name)
        report_input_lines(f, sh->name, &sh->lines, sh->warnings, sh->n_warnings);
    fprintf(f, "  stalls:  %s\n", scenario_describe_stalls(s, c, sizeof c));
    report_stall_logs(f, s);
    fprintf(f, "  percentiles by %s rank; replies after the end %s\n\n",
            hist_rank_rule_name(s->rank_rule), s->drop_in_flight ? "dropped (as wrk2)" : "recorded");
}

/* The counts table (planned, sent, in flight, recorded, over the
 * threshold); w and kw the name and kind columns' widths. */
static void text_counts(FILE *f, const scenario *s, const run_result *r, size_t w, size_t kw)
{
    char a[96], b[64], c[80];
    units_format_duration(s->threshold_ns, b, sizeof b);
    snprintf(c, sizeof c, "> %s", b);
    fprintf(f, "%-*s  %-*s %11s %11s %9s %11s %10s\n", (int)w, "tester", (int)kw, "kind", "planned", "sent",
            "in flight", "recorded", c);
    for (size_t i = 0; i < r->n; i++) {
        const tester_result *t = &r->testers[i];
        char p[32], se[32], fl[32], re[32], ov[32];
        fprintf(f, "%-*s  %-*s %11s %11s %9s %11s %10s\n", (int)w, s->testers[i].name, (int)kw,
                report_kind_label(&s->testers[i], a, sizeof a), units_format_count(t->planned, p, sizeof p),
                units_format_count(t->sent, se, sizeof se),
                units_format_count(t->in_flight_at_end, fl, sizeof fl),
                units_format_count(hist_count(t->hist), re, sizeof re),
                units_format_count(t->over_threshold, ov, sizeof ov));
    }
}

/* A latency table's column heads after the name column: "mean p50 ... max". */
static void latency_heads(FILE *f, size_t w)
{
    fprintf(f, "%-*s  %9s", (int)w, "tester", "mean");
    for (size_t k = 0; k < LEVELS_N_TABLE; k++)
        fprintf(f, " %9s", levels_nth(LEVELS_TABLE, k)->label);
}

/* The latency table, and the queue wait's when queue_wait = record. */
static void text_latencies(FILE *f, const scenario *s, const run_result *r, size_t w)
{
    fputc('\n', f);
    latency_heads(f, w);
    fprintf(f, " %9s\n", "max");
    for (size_t i = 0; i < r->n; i++)
        latency_row(f, s, w, s->testers[i].name, r->testers[i].hist, "");
    if (r->n == 0 || !r->testers[0].wait)
        return;
    fputs("\nqueue wait (work start - send: for a worker, or a stall window)\n", f);
    latency_heads(f, w);
    fprintf(f, " %9s  %s\n", "max", "no wait");
    for (size_t i = 0; i < r->n; i++) {
        const hist *h = r->testers[i].wait;
        uint64_t n = hist_count(h);
        char c[32];
        snprintf(c, sizeof c, "  %.2f%%", n ? 100.0 * (double)hist_count_at_index(h, 0) / (double)n : 0.0);
        latency_row(f, s, w, s->testers[i].name, h, n ? c : "");
    }
}

/* A percentile on a cliff: the spectrum's values at the levels whose
 * tails are 11/10 and 9/10 of level l's tail t = 1 - l (p99: p98.9 and
 * p99.1) differ by more than REPORT_CLIFF_FACTOR, so a small change of
 * rank (the rank rule, the sampling error, a send grid in step with the
 * stalls) moves the figure a lot (docs/decisions.md, "A percentile on a cliff"). The
 * levels exactly: 1 - 11t/10 = (10 D - 11 T) / (10 D) and (10 D - 9 T) /
 * (10 D), with T = t D and D = LEVELS_DEN. 1 and the two values (ns)
 * when h sits on a cliff at l, else 0. */
static int on_cliff(const hist *h, hist_rank_rule rule, const level *l, int64_t *below_ns, int64_t *above_ns)
{
    const uint64_t d10 = 10 * (uint64_t)LEVELS_DEN, tail = LEVELS_DEN - l->num;
    if (hist_count(h) == 0 || tail == 0 || 11 * tail > d10)
        return 0;
    *below_ns = hist_value_at_percentile(h, rule, d10 - 11 * tail, d10);
    *above_ns = hist_value_at_percentile(h, rule, d10 - 9 * tail, d10);
    return (double)*above_ns > REPORT_CLIFF_FACTOR * (double)(*below_ns > 0 ? *below_ns : 1);
}

/* One spectrum's part of a cliff note: "open (p98.9 170.2 us, p99.1
 * 3.105 ms)", after a ", " or " and " joining it to the one before. */
static void cliff_part(FILE *f, const char *name, const level *l, int64_t below, int64_t above, const char *join)
{
    uint64_t tail = LEVELS_DEN - l->num;
    char a[32], b[32];
    fprintf(f, "%s%s (p%.10g %s, p%.10g %s)", join, name, 100.0 - 110.0 * (double)tail / LEVELS_DEN,
            units_format_duration(below, a, sizeof a), 100.0 - 90.0 * (double)tail / LEVELS_DEN,
            units_format_duration(above, b, sizeof b));
}

/* Under the vs-truth table, a note for each LEVELS_HEADLINE level at which
 * a compared spectrum (a tester with samples, or the truth) sits on a
 * cliff (on_cliff): its error against the truth there says little. */
static void truth_cliff_notes(FILE *f, const scenario *s, const run_result *r)
{
    for (size_t k = 0; k < levels_count(LEVELS_HEADLINE); k++) {
        const level *l = levels_nth(LEVELS_HEADLINE, k);
        int64_t lo[SCENARIO_MAX_TESTERS + 1], hi[SCENARIO_MAX_TESTERS + 1];
        int cliff[SCENARIO_MAX_TESTERS + 1];
        size_t n = 0, m = r->n < SCENARIO_MAX_TESTERS ? r->n : SCENARIO_MAX_TESTERS;
        for (size_t i = 0; i <= m; i++) {
            const hist *h = i < m ? r->testers[i].hist : r->truth;
            cliff[i] = on_cliff(h, s->rank_rule, l, &lo[i], &hi[i]);
            n += (size_t)cliff[i];
        }
        if (n == 0)
            continue;
        fprintf(f, "note: %s sits on a cliff in ", l->label);
        for (size_t i = 0, done = 0; i <= m; i++)
            if (cliff[i]) {
                cliff_part(f, i < m ? s->testers[i].name : "truth", l, lo[i], hi[i],
                           done == 0 ? "" : done + 1 == n ? " and " : ", ");
                done++;
            }
        fputs(": a small change of rank moves it a lot, so its error against the truth there says "
              "little; compare the spectra\n", f);
    }
}

/* The truth's row and each tester's error against it at the
 * LEVELS_HEADLINE levels, and the levels that sit on a cliff. */
static void text_truth(FILE *f, const scenario *s, const run_result *r, size_t w)
{
    char a[96], c[512];
    snprintf(c, sizeof c, "  (users arriving at random, every %s on average; load: %s)",
             units_format_duration_exact(s->truth_interval_ns, a, sizeof a),
             s->truth_load >= 0 ? s->testers[s->truth_load].name : "none");
    latency_row(f, s, w, "truth", r->truth, c);
    if (hist_count(r->truth) == 0)
        return;
    fprintf(f, "\n%-*s ", (int)w, "vs truth");
    for (size_t k = 0; k < levels_count(LEVELS_HEADLINE); k++)
        fprintf(f, " %9s", levels_nth(LEVELS_HEADLINE, k)->label);
    fprintf(f, "   (reported / true - 1)\n");
    for (size_t i = 0; i < r->n; i++) {
        fprintf(f, "%-*s ", (int)w, s->testers[i].name);
        for (size_t k = 0; k < levels_count(LEVELS_HEADLINE); k++) {
            const level *l = levels_nth(LEVELS_HEADLINE, k);
            int64_t got = levels_value(r->testers[i].hist, s->rank_rule, l);
            int64_t want = levels_value(r->truth, s->rank_rule, l);
            if (hist_count(r->testers[i].hist) == 0 || want == 0)
                fprintf(f, " %9s", "-");
            else
                fprintf(f, " %+8.1f%%", relative_error(got, want, s->sub_bits) * 100);
        }
        fputc('\n', f);
    }
    /* an idle server's truth (load = none) beside testers that load their
     * own: the errors above are not what the testers miss alone */
    if (s->truth_load < 0 && r->n > 0)
        fputs("note: the truth's server is idle (load = none) while each tester loads its own: the errors "
              "above include that load, not only what the testers miss; set [truth] load to a tester\n", f);
    truth_cliff_notes(f, s, r);
}

/* The blank line before the first note: "\n" the first time, then "". */
static const char *note_gap(int *first)
{
    const char *gap = *first ? "\n" : "";
    *first = 0;
    return gap;
}

/* Notes on how tester i sent: a rate shared thin by many users, VUs that
 * ran out, timeouts, sends that waited for a connection. */
static void notes_sending(FILE *f, const scenario *s, const run_result *r, size_t i, int *first)
{
    const tester_result *t = &r->testers[i];
    const tester_spec *sp = &s->testers[i];
    char a[64], b[64], c[64];
    double rate = tester_request_rate_per_ns(sp);
    if (sp->users > 1 && rate > 0 && (double)sp->users / rate > (double)s->duration_ns / 10) {
        /* a user's own interval is users / rate: the rate is the tester's */
        double per_user_ns = (double)sp->users / rate;
        fprintf(f, "%swarning: %s's rate is shared by its %llu users: each sends every %s (%.3g/s), "
                   "more than a tenth of the %s run, so a user sends about %.0f requests\n",
                note_gap(first), sp->name, (unsigned long long)sp->users,
                units_format_duration((int64_t)(per_user_ns + 0.5), a, sizeof a), 1e9 / per_user_ns,
                units_format_duration(s->duration_ns, b, sizeof b), (double)s->duration_ns / per_user_ns);
    }
    if (sp->vus)
        fprintf(f, "%s%s: %s of %s planned arrivals found no free VU and were dropped (pool of %llu "
                   "at the end)\n",
                note_gap(first), sp->name, units_format_count(t->dropped_arrivals, a, sizeof a),
                units_format_count(t->planned, b, sizeof b), (unsigned long long)t->max_vus_used);
    if (sp->timeout_ns && t->timeouts)
        fprintf(f, "%s%s: %s latencies above the timeout of %s were not recorded\n", note_gap(first), sp->name,
                units_format_count(t->timeouts, a, sizeof a), units_format_duration(sp->timeout_ns, b, sizeof b));
    if (t->blocked)
        fprintf(f, "%s%s: %s sends waited for a %s, %s in all (%s on average)\n", note_gap(first),
                sp->name, units_format_count(t->blocked, a, sizeof a),
                tester_kind_has(sp->kind, TESTER_KIND_ARRIVALS) ? "free VU (blocked, queued: vus_full = queue)" : "connection",
                units_format_duration(t->blocked_ns, b, sizeof b),
                units_format_duration(t->blocked_ns / (int64_t)t->blocked, c, sizeof c));
}

/* A note when tester i overloaded the server (offered utilisation >= 1, or
 * a backlog still growing at the end). */
static void note_overload(FILE *f, const scenario *s, const run_result *r, size_t i, int *first)
{
    const tester_result *t = &r->testers[i];
    const tester_spec *sp = &s->testers[i];
    double offered = scenario_utilisation(s, i);
    /* the formula scenario_utilisation applies: a partly-open tester's
     * sessions send 1 / (1 - p) requests each */
    const char *formula = tester_kind_has(sp->kind, TESTER_KIND_SESSIONS) ? "rate / (1 - p_continue) x mean service / workers"
                                                         : "rate x mean service / workers";
    if (t->overloaded && t->offered_full) {
        fprintf(f, "%swarning: %s offers a utilisation of %.2f (%s): the "
                   "server cannot keep up, so its latencies grow with the run's length and measure "
                   "the test, not the server\n",
                note_gap(first), sp->name, offered, formula);
    } else if (t->overloaded) {
        char m[32], e[32], h[32];
        fprintf(f, "%swarning: %s's backlog was still growing at the end: after %s no request found "
                   "the server idle and the tester on schedule, and its latency rose from %s at "
                   "mid-run to %s at the end: the server did less work than it was sent (offered "
                   "utilisation %.2f before stalls), so its latencies grow with the run's length "
                   "and measure the test, not the server\n",
                note_gap(first), sp->name, units_format_duration(s->duration_ns / 2, h, sizeof h),
                units_format_duration(t->latency_mid_ns, m, sizeof m),
                units_format_duration(t->latency_last_ns, e, sizeof e), offered);
    }
}

/* A note when in_flight_at_end = drop threw away tester i's largest
 * latencies. */
static void note_drop(FILE *f, const scenario *s, const run_result *r, size_t i, int *first)
{
    const tester_result *t = &r->testers[i];
    const tester_spec *sp = &s->testers[i];
    if (!drop_hides_largest(t))
        return;
    hist *all = with_dropped(t);
    char x[32], y[32], z[32], n[32];
    fprintf(f, "%swarning: %s dropped %s %s still in flight at the end (in_flight_at_end = "
               "drop), and they were its largest latencies: up to %s, against a recorded max "
               "of %s",
            note_gap(first), sp->name, units_format_count(t->in_flight_at_end, n, sizeof n),
            t->in_flight_at_end == 1 ? "reply" : "replies", units_format_duration(hist_max(t->dropped), x, sizeof x),
            hist_count(t->hist) ? units_format_duration(hist_max(t->hist), y, sizeof y) : "-");
    if (all)
        fprintf(f, "; with them p99 would be %s",
                units_format_duration(levels_value(all, s->rank_rule, levels_find("99")), z, sizeof z));
    fputs(": the recorded percentiles leave out the slowest requests (a stall whose replies "
          "land after the end vanishes)\n", f);
    hist_free(all);
}

/* A note when tester i takes the profile of a tool that stops recording
 * at the end (docs/models.md: wrk2's response_complete, Locust's stopped
 * users) but the run records the replies after it (in_flight_at_end =
 * record): its figures are then not the tool's. */
static void note_profile_end(FILE *f, const scenario *s, size_t i, int *first)
{
    static const char *const dropping[][2] = {{"wrk2", "wrk2"}, {"locust_constant", "Locust"}};
    const tester_spec *sp = &s->testers[i];
    if (!sp->profile || s->drop_in_flight)
        return;
    for (size_t k = 0; k < sizeof dropping / sizeof dropping[0]; k++)
        if (strcmp(sp->profile, dropping[k][0]) == 0)
            fprintf(f, "%snote: %s has profile = %s, but replies after the end are recorded (in_flight_at_end = "
                       "record), which %s does not do; set [scenario] in_flight_at_end = drop for its figures\n",
                    note_gap(first), sp->name, sp->profile, dropping[k][1]);
}

/* 1 when value v (ns), read from h, is the upper edge of a bucket wider
 * than the last of the 4 significant digits units_format_duration prints
 * (2.007 ms: a digit of 1 us, a bucket of 8.192 us at S = 8): the printed
 * figure then shows the histogram's resolution, not the recorded value. Not so for the exact
 * min and max (hist_value_at_rank caps the top bucket by the max). The
 * bucket's lower edge into *low_ns. */
static int printed_edge(const hist *h, int64_t v, unsigned sub_bits, int64_t *low_ns)
{
    if (hist_count(h) == 0 || v == hist_max(h) || v == hist_min(h) || v <= 0)
        return 0;
    uint64_t lo, hi;
    hist_bucket_range(hist_index_of((uint64_t)v, sub_bits), sub_bits, &lo, &hi);
    *low_ns = (int64_t)lo;
    /* the last printed digit of v: 4 significant digits */
    double digit = pow(10, floor(log10((double)v)) - 3);
    return lo < hi && (uint64_t)v == hi && (double)(hi - lo + 1) > digit;
}

/* A note when a figure of the latency table is a bucket's upper edge whose
 * digits differ from the bucket's lower edge (printed_edge): the first
 * such figure as the example, the largest excess 2^-(S-1) of the
 * histogram (hist.h: buckets at most 2^-(S-1) of their values wide). */
static void note_resolution(FILE *f, const scenario *s, const run_result *r, int *first)
{
    for (size_t i = 0; i <= r->n; i++) {
        const hist *h = i < r->n ? r->testers[i].hist : r->has_truth ? r->truth : NULL;
        if (!h)
            break;
        for (size_t k = 0; k < LEVELS_N_TABLE; k++) {
            const level *l = levels_nth(LEVELS_TABLE, k);
            int64_t v = levels_value(h, s->rank_rule, l), low;
            if (!printed_edge(h, v, s->sub_bits, &low))
                continue;
            char a[32], b[32];
            fprintf(f, "%snote: a percentile is its histogram bucket's upper edge (sub_bucket_bits = %u: buckets "
                       "up to %.3g%% wide), so it may read up to that much above the recorded values: %s's %s "
                       "reads %s for a bucket from %s; raise sub_bucket_bits for exact digits\n",
                    note_gap(first), s->sub_bits, 100.0 / (double)(1ull << (s->sub_bits - 1)),
                    i < r->n ? s->testers[i].name : "truth", l->label, units_format_duration(v, a, sizeof a),
                    units_format_duration(low, b, sizeof b));
            return;
        }
    }
}

int report_text(FILE *f, const scenario *s, const run_result *r)
{
    char a[96];
    text_header(f, s);
    size_t w = 6, kw = 4; /* the name and kind columns */
    for (size_t i = 0; i < s->n_testers; i++) {
        if (strlen(s->testers[i].name) > w)
            w = strlen(s->testers[i].name);
        if (strlen(report_kind_label(&s->testers[i], a, sizeof a)) > kw)
            kw = strlen(a);
    }
    text_counts(f, s, r, w, kw);
    text_latencies(f, s, r, w);
    if (r->has_truth)
        text_truth(f, s, r, w);
    int first_note = 1;
    note_resolution(f, s, r, &first_note);
    for (size_t i = 0; i < r->n; i++) {
        notes_sending(f, s, r, i, &first_note);
        note_overload(f, s, r, i, &first_note);
        note_drop(f, s, r, i, &first_note);
        note_profile_end(f, s, i, &first_note);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

void report_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        if (*q == '"' || *q == '\\')
            fprintf(f, "\\%c", *q);
        else if (*q == '\n')
            fputs("\\n", f);
        else if (*q == '\t')
            fputs("\\t", f);
        else if (*q < 0x20)
            fprintf(f, "\\u%04x", *q);
        else
            fputc(*q, f);
    }
    fputc('"', f);
}

/* The levels of summary.json as JSON members: "50": 2007040, "90": ... */
static void json_levels(FILE *f, const hist *h, hist_rank_rule rule)
{
    for (size_t k = 0; k < levels_count(LEVELS_JSON); k++) {
        const level *l = levels_nth(LEVELS_JSON, k);
        fprintf(f, "%s\"%s\": %lld", k ? ", " : "", l->key, (long long)levels_value(h, rule, l));
    }
}

/* One input file's member of "inputs": its lines' account. */
static void json_input(FILE *f, int first, const char *used_by, const char *name, const textin_account *a,
                       size_t n_warnings)
{
    fputs(first ? "\n    {\"used_by\": " : ",\n    {\"used_by\": ", f);
    report_json_string(f, used_by);
    fputs(", \"file\": ", f);
    report_json_string(f, name);
    fprintf(f, ", \"records\": %zu, \"known\": %zu, \"not_understood\": %zu, \"skipped\": %zu, \"warnings\": %zu, "
               "\"first_not_understood\": [",
            a->records, a->known, a->unknown, a->skipped, n_warnings);
    for (size_t i = 0; i < a->unknown && i < TEXTIN_FIRST_LINES; i++) {
        char at[PATH_MAX + 32];
        snprintf(at, sizeof at, "%s:%zu", name, a->first_unknown[i]);
        if (i)
            fputs(", ", f);
        report_json_string(f, at);
    }
    fputs("]}", f);
}

/* summary.json's "inputs": what became of the lines of every real input
 * the scenario read (a gc_log stall's log, a histogram service's file);
 * absent when it read none. */
static void json_inputs(FILE *f, const scenario *s)
{
    int first = 1;
    char who[128];
    if (s->service_hist && s->service_hist->name) {
        fputs(",\n  \"inputs\": [", f);
        json_input(f, 1, "service", s->service_hist->name, &s->service_hist->lines, s->service_hist->n_warnings);
        first = 0;
    }
    for (size_t i = 0; i < s->n_stalls; i++) {
        const gclog_result *g = s->stall_log[i];
        if (!g)
            continue;
        if (first)
            fputs(",\n  \"inputs\": [", f);
        snprintf(who, sizeof who, "stall %s", s->stalls[i].name);
        json_input(f, first, who, g->name, &g->lines, g->n_warnings);
        first = 0;
    }
    if (!first)
        fputs("\n  ]", f);
}

/* summary.json's scenario members, up to "stalls". */
static void json_scenario(FILE *f, const scenario *s)
{
    char c[512];
    fputs("{\n  \"scenario\": ", f);
    report_json_string(f, s->name);
    fputs(",\n  \"title\": ", f);
    report_json_string(f, s->title);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"rank_rule\": \"%s\",\n  \"duration_ns\": %lld,\n",
            (unsigned long long)s->seed, hist_rank_rule_name(s->rank_rule), (long long)s->duration_ns);
    fprintf(f, "  \"in_flight_at_end\": \"%s\",\n  \"sub_bucket_bits\": %u,\n",
            s->drop_in_flight ? "drop" : "record", s->sub_bits);
    fputs("  \"service\": ", f);
    report_json_string(f, dist_describe(&s->service, c, sizeof c));
    if (s->workers > 1) /* absent: one worker */
        fprintf(f, ",\n  \"workers\": %llu", (unsigned long long)s->workers);
    fputs(",\n  \"stalls\": ", f);
    report_json_string(f, scenario_describe_stalls(s, c, sizeof c));
    json_inputs(f, s);
}

/* A tester's counts and statistics, up to "drop_hides_largest". */
static void json_tester_stats(FILE *f, const scenario *s, const tester_spec *t, const tester_result *x)
{
    const hist *h = x->hist;
    fputs("      \"name\": ", f);
    report_json_string(f, t->name);
    fputs(",\n      \"label\": ", f); /* the legends' text: the label, else the name */
    report_json_string(f, tester_label(t));
    fprintf(f, ",\n      \"kind\": \"%s\",\n", tester_kind_name(t->kind));
    if (tester_kind_has(t->kind, TESTER_KIND_LATE_POLICY))
        fprintf(f, "      \"late\": \"%s\",\n", tester_late_name(t->late));
    fprintf(f,
            "      \"planned\": %llu,\n      \"sent\": %llu,\n      \"recorded\": %llu,\n"
            "      \"in_flight_at_end\": %llu,\n",
            (unsigned long long)x->planned, (unsigned long long)x->sent, (unsigned long long)hist_count(h),
            (unsigned long long)x->in_flight_at_end);
    if (hist_count(h) == 0) /* no samples: no statistics, rather than zeros */
        fputs("      \"min_ns\": null,\n      \"max_ns\": null,\n      \"mean_ns\": null,\n"
              "      \"population_stddev_ns\": null,\n", f);
    else
        fprintf(f,
                "      \"min_ns\": %lld,\n      \"max_ns\": %lld,\n      \"mean_ns\": %.3f,\n"
                "      \"population_stddev_ns\": %.3f,\n",
                (long long)hist_min(h), (long long)hist_max(h), hist_mean(h), hist_stddev(h));
    fprintf(f, "      \"threshold_ns\": %lld,\n      \"over_threshold\": %llu,\n", (long long)s->threshold_ns,
            (unsigned long long)x->over_threshold);
    fprintf(f, "      \"blocked\": %llu,\n      \"blocked_ns\": %lld,\n", (unsigned long long)x->blocked,
            (long long)x->blocked_ns);
    write_primitives_json(f, t, x);
    double offered = scenario_utilisation(s, (size_t)(t - s->testers));
    if (offered < 0)
        fputs("      \"offered_utilisation\": null,\n", f);
    else
        fprintf(f, "      \"offered_utilisation\": %.4f,\n", offered);
    fprintf(f, "      \"busy_fraction\": %.4f,\n      \"overloaded\": %s,\n"
               "      \"backlog_growing_at_end\": %s,\n",
            busy_fraction(s, x), x->overloaded ? "true" : "false", x->backlog_growing ? "true" : "false");
    fprintf(f, "      \"dropped\": %llu,\n      \"drop_hides_largest\": %s,\n",
            (unsigned long long)(s->drop_in_flight ? x->in_flight_at_end : 0),
            drop_hides_largest(x) ? "true" : "false");
}

/* A tester's dropped replies and queue wait, when it has them. 0, or
 * -ENOMEM when the percentiles with the dropped ones could not be made. */
static int json_tester_extras(FILE *f, const scenario *s, const tester_result *x)
{
    int rc = 0;
    if (x->dropped && hist_count(x->dropped) > 0) {
        hist *all = with_dropped(x);
        fprintf(f, "      \"dropped_max_ns\": %lld,\n", (long long)hist_max(x->dropped));
        if (!all) {
            rc = -ENOMEM;
        } else {
            fputs("      \"percentiles_with_dropped_ns\": {", f);
            json_levels(f, all, s->rank_rule);
            fputs("},\n", f);
            hist_free(all);
        }
    }
    if (x->wait) { /* queue_wait = record */
        const hist *q = x->wait;
        uint64_t n = hist_count(q);
        fprintf(f, "      \"queue_wait\": {\"count\": %llu, \"no_wait\": %llu", (unsigned long long)n,
                (unsigned long long)hist_count_at_index(q, 0));
        if (n > 0) {
            fprintf(f, ", \"mean_ns\": %.3f, \"max_ns\": %lld, \"percentiles_ns\": {", hist_mean(q),
                    (long long)hist_max(q));
            json_levels(f, q, s->rank_rule);
            fputc('}', f);
        }
        fputs("},\n", f);
    }
    return rc;
}

/* A tester's error against the truth and its percentiles, to its end. */
static void json_tester_levels(FILE *f, const scenario *s, const run_result *r, const hist *h)
{
    if (r->has_truth && hist_count(h) > 0 && hist_count(r->truth) > 0) {
        fputs("      \"error_vs_truth\": {", f);
        for (size_t k = 0; k < levels_count(LEVELS_HEADLINE); k++) {
            const level *l = levels_nth(LEVELS_HEADLINE, k);
            int64_t got = levels_value(h, s->rank_rule, l);
            int64_t want = levels_value(r->truth, s->rank_rule, l);
            fprintf(f, "%s\"%s\": ", k ? ", " : "", l->key);
            if (want)
                fprintf(f, "%.4f", relative_error(got, want, s->sub_bits));
            else
                fputs("null", f);
        }
        fputs("},\n", f);
    }
    fputs("      \"percentiles_ns\": {", f);
    for (size_t k = 0; k < levels_count(LEVELS_JSON); k++) {
        const level *l = levels_nth(LEVELS_JSON, k);
        fprintf(f, "%s\"%s\": ", k ? ", " : "", l->key);
        if (hist_count(h) == 0)
            fputs("null", f);
        else
            fprintf(f, "%lld", (long long)levels_value(h, s->rank_rule, l));
    }
    fputs("}\n    }", f);
}

/* summary.json's truth member. */
static void json_truth(FILE *f, const scenario *s, const run_result *r)
{
    const hist *h = r->truth;
    fprintf(f, ",\n  \"truth\": {\n    \"probe_instants\": \"poisson\",\n"
               "    \"mean_interval_ns\": %lld,\n    \"load\": ",
            (long long)s->truth_interval_ns);
    report_json_string(f, s->truth_load >= 0 ? s->testers[s->truth_load].name : "none");
    fprintf(f, ",\n    \"probes\": %llu,\n", (unsigned long long)hist_count(h));
    if (hist_count(h) > 0) {
        fprintf(f, "    \"min_ns\": %lld,\n    \"max_ns\": %lld,\n    \"mean_ns\": %.3f,\n",
                (long long)hist_min(h), (long long)hist_max(h), hist_mean(h));
        fputs("    \"percentiles_ns\": {", f);
        json_levels(f, h, s->rank_rule);
        fputs("}\n  }", f);
    } else {
        fputs("    \"percentiles_ns\": null\n  }", f);
    }
}

int report_json(FILE *f, const scenario *s, const run_result *r)
{
    int oom = 0;
    json_scenario(f, s);
    fputs(",\n  \"testers\": [", f);
    for (size_t i = 0; i < r->n; i++) {
        fputs(i ? ",\n    {\n" : "\n    {\n", f);
        json_tester_stats(f, s, &s->testers[i], &r->testers[i]);
        if (json_tester_extras(f, s, &r->testers[i]))
            oom = 1;
        json_tester_levels(f, s, r, r->testers[i].hist);
    }
    fputs("\n  ]", f);
    if (r->has_truth)
        json_truth(f, s, r);
    fputs("\n}\n", f);
    fflush(f);
    return oom ? -ENOMEM : ferror(f) ? -EIO : 0;
}

int report_hgrm(FILE *f, const hist *h, hist_rank_rule rule)
{
    hist_iter it;
    fprintf(f, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)");
    hist_iter_init(&it, h, rule, 5);
    while (hist_iter_next(&it)) {
        double ms = (double)it.value_ns / 1e6;
        if (it.is_final)
            fprintf(f, "%12.6f %1.12f %10llu\n", ms, it.percentile, (unsigned long long)it.total_count);
        else
            fprintf(f, "%12.6f %1.12f %10llu %14.2f\n", ms, it.percentile,
                    (unsigned long long)it.total_count, 1.0 / (1.0 - it.percentile));
    }
    fprintf(f, "#[Mean    = %12.6f, StdDeviation   = %12.6f]\n", hist_mean(h) / 1e6, hist_stddev(h) / 1e6);
    fprintf(f, "#[Max     = %12.6f, Total count    = %12llu]\n", (double)hist_max(h) / 1e6,
            (unsigned long long)hist_count(h));
    fprintf(f, "#[Buckets = %12u, SubBuckets     = %12u]\n", 64 - hist_sub_bits(h),
            1u << hist_sub_bits(h));
    fputs("#[StdDeviation is the population one (divided by n, as HdrHistogram's); 0% is the exact "
          "min]\n", f);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int report_hlog(FILE *f, const run_result *r, size_t tester)
{
    if (!r->hlog)
        return -EINVAL;
    size_t len;
    const char *text = run_hlog_text(r->hlog, tester, &len);
    int rc = hlog_write_header(f, 0, "cosim " COSIM_VERSION);
    if (!rc && len && fwrite(text, 1, len, f) != len)
        rc = -EIO;
    return rc;
}

void report_html_escape(FILE *f, const char *t)
{
    for (; t && *t; t++) {
        switch (*t) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*t, f);
        }
    }
}
