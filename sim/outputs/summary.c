/* summary.c - a run's tables as Markdown, CSV and HTML (summary.h). */
#include "summary.h"
#include "levels.h"
#include "report.h"
#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* The columns, in order; the latencies from COL_MEAN on. In the Markdown
 * and HTML tables COL_LABEL only when a tester has a label of its own
 * (has_labels) and no COL_THRESHOLD (the over column's header says it);
 * CSV has every column always, so every scenario's summary.csv has the
 * same header (docs/outputs.md). */
enum { COL_TESTER, COL_LABEL, COL_KIND, COL_PLANNED, COL_SENT, COL_IN_FLIGHT, COL_RECORDED, COL_THRESHOLD,
       COL_OVER, COL_MEAN, COL_P50, COL_P90, COL_P99, COL_P999, COL_P9999, COL_MAX, N_COLS };

/* The latency columns from COL_P50 on are the LEVELS_TABLE levels. */
_Static_assert(COL_MAX - COL_P50 == LEVELS_N_TABLE, "a column per LEVELS_TABLE level");

/* How a cell is written: as the text summary (md, html) or raw for CSV. */
typedef enum cell_style { CELL_TEXT, CELL_RAW } cell_style;

/* A column's header; over gets the threshold in the text ("> 50ms"), and
 * is "over_threshold" raw (the threshold is its own column there). */
static const char *header(const scenario *s, int col, cell_style st, char *buf, size_t len)
{
    static const char *const text[] = {"tester", "label", "kind", "planned", "sent", "in flight", "recorded",
                                       "threshold", NULL, "mean", [COL_MAX] = "max"};
    static const char *const raw[] = {"tester", "label", "kind", "planned", "sent", "in_flight", "recorded",
                                      "threshold_ms", "over_threshold", "mean_ms", [COL_MAX] = "max_ms"};
    if (col >= COL_P50 && col < COL_MAX) { /* "p99.9", raw "p99.9_ms" */
        const char *label = levels_nth(LEVELS_TABLE, (size_t)(col - COL_P50))->label;
        if (st == CELL_TEXT)
            return label;
        snprintf(buf, len, "%s_ms", label);
        return buf;
    }
    if (col != COL_OVER || st == CELL_RAW)
        return st == CELL_TEXT ? text[col] : raw[col];
    char t[48];
    snprintf(buf, len, "> %s", units_format_duration(s->threshold_ns, t, sizeof t));
    return buf;
}

/* ns as milliseconds with every digit kept: 504000131 -> "504.000131",
 * 7000000 -> "7" (trailing zeros dropped). */
static char *exact_ms(int64_t ns, char *buf, size_t len)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    int n = snprintf(buf, len, "%s%" PRIu64 ".%06" PRIu64, ns < 0 ? "-" : "", a / 1000000, a % 1000000);
    if (n > 0 && (size_t)n < len) {
        char *e = buf + n - 1;
        while (*e == '0')
            *e-- = '\0';
        if (*e == '.')
            *e = '\0';
    }
    return buf;
}

/* Cell (row, col): row < r->n a tester, row == r->n the truth. "" for none. */
static const char *cell(const scenario *s, const run_result *r, size_t row, int col, cell_style st, char *buf,
                        size_t len)
{
    int truth = row == r->n;
    const tester_result *t = truth ? NULL : &r->testers[row];
    const hist *h = truth ? r->truth : t->hist;
    buf[0] = '\0';
    if (col == COL_TESTER)
        return truth ? "truth" : s->testers[row].name;
    if (col == COL_LABEL)
        return truth ? "truth" : tester_label(&s->testers[row]);
    if (col == COL_KIND)
        return truth ? "random probes" : report_kind_label(&s->testers[row], buf, len);
    if (col == COL_THRESHOLD)
        return st == CELL_RAW ? exact_ms(s->threshold_ns, buf, len)
                              : units_format_duration(s->threshold_ns, buf, len);
    if (col < COL_MEAN) {
        uint64_t v = 0;
        if (truth && col != COL_RECORDED)
            return "";
        switch (col) {
        case COL_PLANNED: v = t->planned; break;
        case COL_SENT: v = t->sent; break;
        case COL_IN_FLIGHT: v = t->in_flight_at_end; break;
        case COL_RECORDED: v = hist_count(h); break;
        default: v = t->over_threshold; break;
        }
        if (st == CELL_RAW)
            snprintf(buf, len, "%" PRIu64, v);
        else
            units_format_count(v, buf, len);
        return buf;
    }
    if (hist_count(h) == 0)
        return st == CELL_RAW ? "" : "-";
    int64_t ns;
    if (col == COL_MEAN)
        ns = (int64_t)(hist_mean(h) + 0.5);
    else if (col == COL_MAX)
        ns = hist_max(h);
    else
        ns = levels_value(h, s->rank_rule, levels_nth(LEVELS_TABLE, (size_t)(col - COL_P50)));
    return st == CELL_RAW ? exact_ms(ns, buf, len) : units_format_duration(ns, buf, len);
}

/* 1 when a tester has a label other than its name: the tables then show
 * a label column (the legends' text) after the name. */
static int has_labels(const scenario *s)
{
    for (size_t i = 0; i < s->n_testers; i++)
        if (strcmp(tester_label(&s->testers[i]), s->testers[i].name) != 0)
            return 1;
    return 0;
}

/* Column c is written: in CSV every column; in the text tables every
 * column but the threshold (in the over column's header) and the label
 * one without labels. */
static int shown(const scenario *s, int c, cell_style st)
{
    if (st == CELL_RAW)
        return 1;
    return c != COL_THRESHOLD && (c != COL_LABEL || has_labels(s));
}

/* The rows: the testers, and the truth when there is one. */
static size_t n_rows(const run_result *r)
{
    return r->n + (r->has_truth ? 1 : 0);
}

/* Markdown text: '|' and '\' escaped, so a title cannot break the table. */
static void md_text(FILE *f, const char *t)
{
    for (; *t; t++) {
        if (*t == '|' || *t == '\\' || *t == '*' || *t == '_' || *t == '`')
            fputc('\\', f);
        fputc(*t, f);
    }
}

int summary_markdown(FILE *f, const scenario *s, const run_result *r)
{
    char buf[512], d[96];
    fputs("## ", f);
    md_text(f, s->title);
    fprintf(f, "\n\n%s, seed %" PRIu64 ", %s rank; service: ", units_format_duration_exact(s->duration_ns, d, sizeof d),
            (uint64_t)s->seed, hist_rank_rule_name(s->rank_rule));
    md_text(f, dist_describe(&s->service, buf, sizeof buf));
    fputs("; stalls: ", f);
    md_text(f, scenario_describe_stalls(s, buf, sizeof buf));
    fputs("\n\n|", f);
    for (int c = 0; c < N_COLS; c++) {
        if (!shown(s, c, CELL_TEXT))
            continue;
        fputc(' ', f);
        md_text(f, header(s, c, CELL_TEXT, buf, sizeof buf));
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (int c = 0; c < N_COLS; c++)
        if (shown(s, c, CELL_TEXT))
            fputs(c <= COL_KIND ? " --- |" : " ---: |", f);
    fputc('\n', f);
    for (size_t i = 0; i < n_rows(r); i++) {
        fputc('|', f);
        for (int c = 0; c < N_COLS; c++) {
            if (!shown(s, c, CELL_TEXT))
                continue;
            fputc(' ', f);
            md_text(f, cell(s, r, i, c, CELL_TEXT, buf, sizeof buf));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
 * break, quotes doubled. */
static void csv_field(FILE *f, const char *t)
{
    if (!strpbrk(t, ",\"\r\n")) {
        fputs(t, f);
        return;
    }
    fputc('"', f);
    for (; *t; t++) {
        if (*t == '"')
            fputc('"', f);
        fputc(*t, f);
    }
    fputc('"', f);
}

int summary_csv(FILE *f, const scenario *s, const run_result *r)
{
    char buf[512];
    for (int c = 0; c < N_COLS; c++) {
        if (!shown(s, c, CELL_RAW))
            continue;
        if (c)
            fputc(',', f);
        csv_field(f, header(s, c, CELL_RAW, buf, sizeof buf));
    }
    fputs("\r\n", f);
    for (size_t i = 0; i < n_rows(r); i++) {
        for (int c = 0; c < N_COLS; c++) {
            if (!shown(s, c, CELL_RAW))
                continue;
            if (c)
                fputc(',', f);
            csv_field(f, cell(s, r, i, c, CELL_RAW, buf, sizeof buf));
        }
        fputs("\r\n", f);
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int summary_html(FILE *f, const scenario *s, const run_result *r)
{
    char buf[512];
    fputs("<table class=\"summary\">\n<thead><tr>", f);
    for (int c = 0; c < N_COLS; c++) {
        if (!shown(s, c, CELL_TEXT))
            continue;
        fputs(c <= COL_KIND ? "<th>" : "<th class=\"n\">", f);
        report_html_escape(f, header(s, c, CELL_TEXT, buf, sizeof buf));
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < n_rows(r); i++) {
        fputs("<tr>", f);
        for (int c = 0; c < N_COLS; c++) {
            if (!shown(s, c, CELL_TEXT))
                continue;
            fputs(c <= COL_KIND ? "<td>" : "<td class=\"n\">", f);
            report_html_escape(f, cell(s, r, i, c, CELL_TEXT, buf, sizeof buf));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}
