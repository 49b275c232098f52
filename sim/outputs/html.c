/* html.c - the pages of `cosim lecture` (html.h). */
#define _POSIX_C_SOURCE 200809L
#include "html.h"
#include "report.h"
#include "summary.h"
#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The page's style: readable projected and printed; no web font, no
 * network. Nothing is wider than the window (a page that scrolls sideways
 * at 1280 px loses the table's last columns off a projector): the body
 * sizes its boxes with their padding, long words and paths break, and the
 * summary table (twelve columns) wraps its headers and, if it still does
 * not fit, scrolls inside its own box. */
static const char style[] =
    "*,*::before,*::after{box-sizing:border-box}"
    "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#111;background:#fff;"
    "overflow-wrap:break-word}"
    "dt{font-weight:bold}dd{margin:0 0 .4em 1.5em}"
    "h1{font-size:1.8em}h2{font-size:1.5em;border-top:2px solid #888;padding-top:.5em}"
    ".run{color:#333}.lesson{white-space:pre-wrap;font-family:serif;font-size:1.05em;background:#f6f6f0;"
    "padding:.6em;border-left:4px solid #b8a04a}"
    "table.summary{border-collapse:collapse;font-size:.9em;display:block;max-width:100%;overflow-x:auto}"
    "table.summary th,table.summary td{border:1px solid #bbb;padding:.2em .35em}"
    "table.summary .n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
    "table.summary th.n{white-space:normal}"
    "figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}"
    "pre{background:#f4f4f4;padding:.5em;overflow-x:auto;max-width:100%}"
    ".ok{color:#176117;font-weight:bold}.miss{color:#a11;font-weight:bold}";

/* One scenario's section. */
static void section(FILE *f, const html_section *x, int several)
{
    const scenario *s = x->s;
    char d[96], buf[512];
    fputs("<section id=\"", f);
    report_html_escape(f, x->stem);
    fputs("\">\n<h2>", f);
    report_html_escape(f, s->title);
    fputs("</h2>\n", f);
    if (several) {
        fputs("<p><a href=\"", f);
        report_html_escape(f, x->stem);
        fputs(".html\">this scenario on its own page</a></p>\n", f);
    }
    fprintf(f, "<p class=\"run\">Scenario <code>");
    report_html_escape(f, s->name);
    fprintf(f, "</code>: %s, seed %" PRIu64 ", percentiles by %s rank. Service: ",
            units_format_duration_exact(s->duration_ns, d, sizeof d), (uint64_t)s->seed,
            hist_rank_rule_name(s->rank_rule));
    report_html_escape(f, dist_describe(&s->service, buf, sizeof buf));
    fputs(". Stalls: ", f);
    report_html_escape(f, scenario_describe_stalls(s, buf, sizeof buf));
    fputs(".</p>\n", f);
    if (x->lesson && *x->lesson) {
        fputs("<div class=\"lesson\">", f);
        report_html_escape(f, x->lesson);
        fputs("</div>\n", f);
    }
    fputs("<h3>Results</h3>\n", f);
    summary_html(f, s, x->r);
    if (x->n_tables) {
        fputs("<p>The table for slides and worksheets:", f);
        for (size_t i = 0; i < x->n_tables; i++) {
            fputs(" <a href=\"", f);
            report_html_escape(f, x->tables[i]);
            fputs("\">", f);
            report_html_escape(f, x->tables[i]);
            fputs("</a>", f);
        }
        fputs("</p>\n", f);
    }
    for (size_t i = 0; i < x->n_charts; i++) {
        fputs("<figure><img src=\"", f);
        report_html_escape(f, x->charts[i]);
        fputs("\" alt=\"chart ", f);
        report_html_escape(f, x->charts[i]);
        fputs("\"><figcaption>", f);
        report_html_escape(f, x->charts[i]);
        fputs("</figcaption></figure>\n", f);
    }
    if (x->check) {
        fprintf(f, "<h3>Check against the expectations: <span class=\"%s\">%s</span></h3>\n<pre>",
                x->misses ? "miss" : "ok", x->misses ? "some missed" : "all met");
        report_html_escape(f, x->check);
        fputs("</pre>\n", f);
    }
    fputs("<details><summary>The console summary</summary>\n<pre>", f);
    report_html_escape(f, x->report);
    fputs("</pre>\n</details>\n</section>\n", f);
}

/* What a student alone needs to read the page: the testers' words and
 * what each chart draws. Shown open on the index, folded on a scenario's
 * own page. */
static const char guide[] =
    "<h2>How to read these pages</h2>\n"
    "<p>Each scenario runs several load testers against the same simulated server, with the same service "
    "times and the same stalls, and shows what each tester would report.</p>\n"
    "<dl>\n"
    "<dt>closed loop</dt><dd>a user sends a request, waits for the reply, then sends the next one. While the "
    "server is stalled it sends nothing, so it measures one slow request where many users would have waited: "
    "<em>coordinated omission</em>.</dd>\n"
    "<dt>paced</dt><dd>a closed loop that keeps a schedule (a request every interval); a request whose "
    "time passed during a stall is never sent.</dd>\n"
    "<dt>corrected</dt><dd>a paced tester whose histogram adds, after a slow reply, the samples the "
    "requests it did not send would have seen (HdrHistogram's correction with the expected interval).</dd>\n"
    "<dt>open loop</dt><dd>requests go out on their own schedule whatever the replies, and latency counts "
    "from when each one should have been sent: what users arriving during a stall experience.</dd>\n"
    "<dt>truth</dt><dd>probes at random instants that never queue: what a user arriving at any moment would "
    "wait on that load.</dd>\n"
    "</dl>\n"
    "<p><strong>Latency by percentile</strong> (spectrum): the x axis adds a nine per step (90%, 99%, 99.9%, "
    "...), so the rare slow requests, where testers disagree, get as much room as the common ones; the dot on "
    "each curve is its p99. <strong>Requests</strong>: one row per request, a bar from where the tester starts "
    "counting its latency to the reply, a dot at the actual send, a hollow circle for a planned request that "
    "was never sent, a hatched bar for a sample the correction added; grey is a stall. "
    "<strong>Timeline</strong>: each dot one request's latency against its intended send time, and below, "
    "how many requests wait at the server. <strong>Summary</strong>: p50, p99 and p99.9 of each tester side "
    "by side.</p>\n";

int html_write_page(FILE *f, const char *title, const html_section *sec, size_t n, const char *up)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    report_html_escape(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    if (up) {
        fputs("<p><a href=\"", f);
        report_html_escape(f, up);
        fputs("\">all scenarios</a></p>\n", f);
    }
    fputs("<h1>", f);
    report_html_escape(f, title);
    fputs("</h1>\n", f);
    if (up)
        fprintf(f, "<details class=\"guide\"><summary>How to read this page</summary>\n%s</details>\n", guide);
    else
        fprintf(f, "<section class=\"guide\">\n%s</section>\n", guide);
    if (n > 1) {
        fputs("<nav><ol>\n", f);
        for (size_t i = 0; i < n; i++) {
            fputs("<li><a href=\"#", f);
            report_html_escape(f, sec[i].stem);
            fputs("\">", f);
            report_html_escape(f, sec[i].s->title);
            fputs("</a></li>\n", f);
        }
        fputs("</ol></nav>\n", f);
    }
    for (size_t i = 0; i < n; i++)
        section(f, &sec[i], n > 1);
    fputs("<footer><p>Written by cosim; every figure is deterministic for the scenario and its "
          "seed.</p></footer>\n</body>\n</html>\n", f);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* Append line (len bytes) and a newline to the growing text *t. */
static int append(char **t, size_t *n, size_t *cap, const char *line, size_t len)
{
    if (*n + len + 2 > *cap) {
        size_t c = (*n + len + 2) * 2;
        char *p = realloc(*t, c);
        if (!p)
            return -ENOMEM;
        *t = p;
        *cap = c;
    }
    memcpy(*t + *n, line, len);
    *n += len;
    (*t)[(*n)++] = '\n';
    (*t)[*n] = '\0';
    return 0;
}

int html_lesson(const char *path, char **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    char *t = calloc(1, 1), *line = NULL;
    size_t n = 0, cap = 1, lcap = 0;
    ssize_t len;
    int rc = t ? 0 : -ENOMEM;
    while (!rc && (len = getline(&line, &lcap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (line[0] == '[')
            break;
        if (line[0] != ';' && line[0] != '#')
            continue; /* a blank line between comments */
        size_t skip = len > 1 && line[1] == ' ' ? 2 : 1;
        rc = append(&t, &n, &cap, line + skip, (size_t)len - skip);
    }
    if (!rc && ferror(f))
        rc = -EIO;
    free(line);
    fclose(f);
    while (!rc && n > 0 && t[n - 1] == '\n')
        t[--n] = '\0';
    if (rc) {
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}
