/* report.c - text summary, summary.json and .hgrm spectra. */
#include "report.h"
#include "units.h"

#include <errno.h>
#include <string.h>

const char *const report_percentiles[] = {"50", "90", "95", "99", "99.9", "99.99"};
const size_t report_n_percentiles = sizeof report_percentiles / sizeof report_percentiles[0];

/* The percentiles in the text table (a subset of report_percentiles). */
static const char *const table_percentiles[] = {"50", "90", "99", "99.9", "99.99"};
#define N_TABLE (sizeof table_percentiles / sizeof table_percentiles[0])

static int64_t percentile_of(const hist *h, hist_rank_rule rule, const char *p)
{
    uint64_t num, den;
    const char *why;
    if (units_parse_percentile(p, &num, &den, &why))
        return 0;
    return hist_value_at_percentile(h, rule, num, den);
}

static const char *late_label(const tester_spec *t, char *buf, size_t len)
{
    switch (t->kind) {
    case TESTER_PACED:
    case TESTER_CORRECTED:
        if (t->users > 1)
            snprintf(buf, len, "%s, %s, %llu users", tester_kind_name(t->kind), tester_late_name(t->late),
                     (unsigned long long)t->users);
        else
            snprintf(buf, len, "%s, %s", tester_kind_name(t->kind), tester_late_name(t->late));
        break;
    case TESTER_OPEN:
        snprintf(buf, len, "open%s", t->arrivals == TESTER_ARRIVALS_POISSON ? ", poisson" : "");
        break;
    case TESTER_CLOSED:
        if (t->users > 1)
            snprintf(buf, len, "closed, %llu users", (unsigned long long)t->users);
        else
            snprintf(buf, len, "closed");
        break;
    }
    return buf;
}

int report_text(FILE *f, const scenario *s, const run_result *r)
{
    char a[64], b[64], c[512];
    fprintf(f, "%s: %s, seed %llu\n", s->name, units_format_duration_exact(s->duration_ns, a, sizeof a),
            (unsigned long long)s->seed);
    if (strcmp(s->title, s->name) != 0)
        fprintf(f, "  %s\n", s->title);
    fprintf(f, "  service: %s\n", dist_describe(&s->service, c, sizeof c));
    fprintf(f, "  stalls:  %s\n", scenario_describe_stalls(s, c, sizeof c));
    fprintf(f, "  percentiles by %s rank; replies after the end %s\n\n",
            hist_rank_rule_name(s->rank_rule), s->drop_in_flight ? "dropped (as wrk2)" : "recorded");

    size_t w = 6, kw = 4;
    for (size_t i = 0; i < s->n_testers; i++) {
        if (strlen(s->testers[i].name) > w)
            w = strlen(s->testers[i].name);
        if (strlen(late_label(&s->testers[i], a, sizeof a)) > kw)
            kw = strlen(a);
    }

    units_format_duration(s->threshold_ns, b, sizeof b);
    snprintf(c, sizeof c, "> %s", b);
    fprintf(f, "%-*s  %-*s %11s %11s %9s %11s %10s\n", (int)w, "tester", (int)kw, "kind", "planned", "sent",
            "in flight", "recorded", c);
    for (size_t i = 0; i < r->n; i++) {
        const tester_result *t = &r->testers[i];
        char p[32], se[32], fl[32], re[32], ov[32];
        fprintf(f, "%-*s  %-*s %11s %11s %9s %11s %10s\n", (int)w, s->testers[i].name, (int)kw,
                late_label(&s->testers[i], a, sizeof a), units_format_count(t->planned, p, sizeof p),
                units_format_count(t->sent, se, sizeof se),
                units_format_count(t->in_flight_at_end, fl, sizeof fl),
                units_format_count(hist_count(t->hist), re, sizeof re),
                units_format_count(t->over_threshold, ov, sizeof ov));
    }
    fprintf(f, "\n%-*s  %9s", (int)w, "tester", "mean");
    for (size_t k = 0; k < N_TABLE; k++) {
        snprintf(c, sizeof c, "p%s", table_percentiles[k]);
        fprintf(f, " %9s", c);
    }
    fprintf(f, " %9s\n", "max");
    for (size_t i = 0; i < r->n; i++) {
        const hist *h = r->testers[i].hist;
        if (hist_count(h) == 0) {
            fprintf(f, "%-*s  %9s  (no samples recorded)\n", (int)w, s->testers[i].name, "-");
            continue;
        }
        fprintf(f, "%-*s  %9s", (int)w, s->testers[i].name,
                units_format_duration((int64_t)(hist_mean(h) + 0.5), a, sizeof a));
        for (size_t k = 0; k < N_TABLE; k++)
            fprintf(f, " %9s",
                    units_format_duration(percentile_of(h, s->rank_rule, table_percentiles[k]), a,
                                          sizeof a));
        fprintf(f, " %9s\n", units_format_duration(hist_max(h), a, sizeof a));
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

int report_json(FILE *f, const scenario *s, const run_result *r)
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
    fputs(",\n  \"stalls\": ", f);
    report_json_string(f, scenario_describe_stalls(s, c, sizeof c));
    fputs(",\n  \"testers\": [", f);
    for (size_t i = 0; i < r->n; i++) {
        const tester_spec *t = &s->testers[i];
        const tester_result *x = &r->testers[i];
        const hist *h = x->hist;
        fputs(i ? ",\n    {\n" : "\n    {\n", f);
        fputs("      \"name\": ", f);
        report_json_string(f, t->name);
        fprintf(f, ",\n      \"kind\": \"%s\",\n", tester_kind_name(t->kind));
        if (t->kind == TESTER_PACED || t->kind == TESTER_CORRECTED)
            fprintf(f, "      \"late\": \"%s\",\n", tester_late_name(t->late));
        fprintf(f,
                "      \"planned\": %llu,\n      \"sent\": %llu,\n      \"recorded\": %llu,\n"
                "      \"in_flight_at_end\": %llu,\n",
                (unsigned long long)x->planned, (unsigned long long)x->sent,
                (unsigned long long)hist_count(h), (unsigned long long)x->in_flight_at_end);
        if (hist_count(h) == 0) /* no samples: no statistics, rather than zeros */
            fputs("      \"min_ns\": null,\n      \"max_ns\": null,\n      \"mean_ns\": null,\n"
                  "      \"stddev_ns\": null,\n", f);
        else
            fprintf(f,
                    "      \"min_ns\": %lld,\n      \"max_ns\": %lld,\n      \"mean_ns\": %.3f,\n"
                    "      \"stddev_ns\": %.3f,\n",
                    (long long)hist_min(h), (long long)hist_max(h), hist_mean(h), hist_stddev(h));
        fprintf(f, "      \"threshold_ns\": %lld,\n      \"over_threshold\": %llu,\n",
                (long long)s->threshold_ns, (unsigned long long)x->over_threshold);
        fputs("      \"percentiles_ns\": {", f);
        for (size_t k = 0; k < report_n_percentiles; k++) {
            fprintf(f, "%s\"%s\": ", k ? ", " : "", report_percentiles[k]);
            if (hist_count(h) == 0)
                fputs("null", f);
            else
                fprintf(f, "%lld", (long long)percentile_of(h, s->rank_rule, report_percentiles[k]));
        }
        fputs("}\n    }", f);
    }
    fputs("\n  ]\n}\n", f);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int report_hgrm(FILE *f, const hist *h, hist_rank_rule rule)
{
    hist_iter it;
    fprintf(f, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)");
    hist_iter_init(&it, h, rule, 5);
    while (hist_iter_next(&it)) {
        double us = (double)it.value_ns / 1000.0;
        if (it.is_final)
            fprintf(f, "%12.3f %1.12f %10llu\n", us, it.percentile, (unsigned long long)it.total_count);
        else
            fprintf(f, "%12.3f %1.12f %10llu %14.2f\n", us, it.percentile,
                    (unsigned long long)it.total_count, 1.0 / (1.0 - it.percentile));
    }
    fprintf(f, "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", hist_mean(h) / 1000.0,
            hist_stddev(h) / 1000.0);
    fprintf(f, "#[Max     = %12.3f, Total count    = %12llu]\n", (double)hist_max(h) / 1000.0,
            (unsigned long long)hist_count(h));
    fprintf(f, "#[Buckets = %12u, SubBuckets     = %12u]\n", 64 - hist_sub_bits(h),
            1u << hist_sub_bits(h));
    fflush(f);
    return ferror(f) ? -EIO : 0;
}
