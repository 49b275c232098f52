/* realout.c - a real load tool's output read into figures (realout.h). */
#include "realout.h"

#include "grow.h"
#include "hgrm.h"
#include "hlog.h"
#include "textin.h"
#include "units.h"
#include "wrkhist.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint64_t realout_level_num[RO_N_FIGURES] = {[RO_P50] = 50000, [RO_P90] = 90000, [RO_P99] = 99000,
                                                  [RO_P999] = 99900};

#define MS_NS 1000000LL
/* Most values a histogram's counts may expand to (800 MB of them). */
#define REALOUT_MAX_VALUES 100000000LL


static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int push(realout *o, size_t *cap, int64_t v)
{
    if (o->n == *cap) {
        int64_t *w = grow_array(o->values, cap, sizeof *o->values, 1024);
        if (!w)
            return -ENOMEM;
        o->values = w;
    }
    o->values[o->n++] = v;
    return 0;
}

/* Every figure of a list: sorted, the mean exact (a long double of an
 * integer sum), the percentiles at the rule's rank (hist_rank), the count
 * over the threshold. */
static void figures_of_list(realout *o, int64_t threshold_ns, hist_rank_rule rule)
{
    qsort(o->values, o->n, sizeof *o->values, cmp_i64);
    o->count = o->n;
    o->have = 1u << RO_COUNT;
    if (o->n == 0)
        return;
    long double sum = 0;
    for (size_t i = 0; i < o->n; i++) {
        sum += (long double)o->values[i];
        o->over += o->values[i] > threshold_ns;
    }
    o->fig_ns[RO_MEAN] = (int64_t)(sum / (long double)o->n + 0.5L);
    for (int f = RO_P50; f <= RO_P999; f++)
        o->fig_ns[f] = o->values[hist_rank(rule, realout_level_num[f], 100000, o->n) - 1];
    o->fig_ns[RO_MAX] = o->values[o->n - 1];
    o->have = (1u << RO_N_FIGURES) - 1;
}

/* The n-th comma- (or tab-) separated field of s[0..len) into *f, *fn. */
static int field(const char *s, size_t len, char sep, int n, const char **f, size_t *fn)
{
    const char *p = s, *end = s + len;
    for (int i = 0; i < n; i++) {
        const char *q = memchr(p, sep, (size_t)(end - p));
        if (!q)
            return -1;
        p = q + 1;
    }
    const char *q = memchr(p, sep, (size_t)(end - p));
    *f = p;
    *fn = (size_t)((q ? q : end) - p);
    return 0;
}

/* hey -o csv: response-time (s) first; ab -g: ttime (ms) fifth, by tab. */
static int read_list(realout *o, const char *name, textin_lines *it, char sep, int col, int64_t scale,
                     const char *what, char *err, size_t errlen)
{
    const char *s;
    size_t n, cap = 0;
    while (textin_next_line(it, &s, &n)) {
        if (n == 0)
            continue;
        const char *f;
        size_t fn;
        int64_t v;
        if (field(s, n, sep, col, &f, &fn) != 0 || textin_decimal(f, fn, scale, 0, &v) != 0)
            return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected %s", name, it->line, what);
        if (push(o, &cap, v) != 0)
            return -ENOMEM;
    }
    return 0;
}

/* wrk's durations: "138.00us", "19.46ms", "1.02s", "2.00m", "1.00h"
 * (src/units.c format_time). */
static int wrk_duration(const char *s, size_t n, int64_t *out)
{
    size_t d = textin_decimal_span(s, n, 0);
    static const struct {
        const char *unit;
        int64_t ns;
    } units[] = {{"us", 1000}, {"ms", MS_NS}, {"s", 1000 * MS_NS}, {"m", 60000 * MS_NS}, {"h", 3600000 * MS_NS}};
    if (d == 0)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (n - d == strlen(units[i].unit) && memcmp(s + d, units[i].unit, n - d) == 0)
            return textin_decimal(s, d, units[i].ns, 0, out) == 0 ? 0 : -1;
    return -1;
}

/* The next blank-separated word of s[*at..n). */
static int word(const char *s, size_t n, size_t *at, const char **w, size_t *wn)
{
    size_t i = *at;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return 0;
    size_t j = i;
    while (j < n && s[j] != ' ' && s[j] != '\t')
        j++;
    *w = s + i;
    *wn = j - i;
    *at = j;
    return 1;
}

/* wrk's output with the block of scenarios/tools/wrk-histogram.lua: every
 * figure from the whole corrected histogram wrk printed (the values its
 * own percentiles come from, 1 us bins), the count wrk's requests. */
static int read_wrk_histogram(realout *o, const char *name, const char *text, size_t len, int64_t threshold_ns,
                              hist_rank_rule rule, char *err, size_t errlen)
{
    wrkhist h;
    int rc = wrkhist_parse(&h, name, text, len, err, errlen);
    if (rc != 0)
        return rc;
    if (h.corrected_total > (uint64_t)REALOUT_MAX_VALUES) {
        wrkhist_free(&h);
        return textin_fail(err, errlen, -EINVAL, "%s: the histogram holds %llu values, more than cosim reads (%lld)",
                           name, (unsigned long long)h.corrected_total, REALOUT_MAX_VALUES);
    }
    free(o->values);
    o->values = malloc((h.corrected_total ? h.corrected_total : 1) * sizeof *o->values);
    o->n = 0;
    if (!o->values) {
        wrkhist_free(&h);
        return -ENOMEM;
    }
    for (size_t i = 0; i < h.bins; i++) /* values <= 2^53 us: x 1000 fits */
        for (uint64_t k = 0; k < h.corrected[i]; k++)
            o->values[o->n++] = (int64_t)h.value_us[i] * 1000;
    uint64_t requests = h.requests;
    wrkhist_free(&h);
    figures_of_list(o, threshold_ns, rule);
    o->count = requests; /* the requests, as wrk's "N requests in" (the added values are in the figures) */
    o->resolution_ns = 1000;
    return 0;
}

static int read_wrk(realout *o, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s, *w;
    size_t n, wn;
    int in_dist = 0;
    while (textin_next_line(&it, &s, &n)) {
        size_t at = 0;
        if (!word(s, n, &at, &w, &wn))
            continue;
        if (textin_find(s, n, "Latency Distribution")) {
            in_dist = 1;
        } else if (wn == 7 && memcmp(w, "Latency", 7) == 0 && !in_dist) {
            /* Latency AVG STDEV MAX +/-STDEV */
            const char *f[3];
            size_t fl[3];
            int ok = 1;
            for (int k = 0; k < 3 && ok; k++)
                ok = word(s, n, &at, &f[k], &fl[k]);
            if (!ok || wrk_duration(f[0], fl[0], &o->fig_ns[RO_MEAN]) != 0 ||
                wrk_duration(f[2], fl[2], &o->fig_ns[RO_MAX]) != 0)
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected wrk's 'Latency AVG STDEV MAX +/-STDEV' line",
                            name, it.line);
            o->have |= 1u << RO_MEAN | 1u << RO_MAX;
        } else if (in_dist && wn >= 2 && w[wn - 1] == '%') {
            const char *v;
            size_t vn;
            int64_t d;
            if (!word(s, n, &at, &v, &vn) || wrk_duration(v, vn, &d) != 0)
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected a 'P%%  DURATION' row of wrk's Latency "
                            "Distribution", name, it.line);
            int f = wn == 3 && memcmp(w, "50%", 3) == 0   ? RO_P50
                    : wn == 3 && memcmp(w, "90%", 3) == 0 ? RO_P90
                    : wn == 3 && memcmp(w, "99%", 3) == 0 ? RO_P99
                                                          : -1;
            if (f >= 0) {
                o->fig_ns[f] = d;
                o->have |= 1u << f;
            }
        } else if (textin_find(s, n, " requests in ")) {
            int64_t c;
            if (textin_decimal(w, wn, 1, 0, &c) != 0)
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected 'N requests in T, B read'", name, it.line);
            o->count = (uint64_t)c;
            o->have |= 1u << RO_COUNT;
            in_dist = 0;
        } else {
            in_dist = in_dist && w[wn - 1] == '%';
        }
    }
    if (!(o->have & 1u << RO_COUNT) || !(o->have & 1u << RO_MAX))
        return textin_fail(err, errlen, -EINVAL, "%s: expected wrk's 'Latency' line and 'N requests in' (wrk --latency's "
                    "output)", name);
    if (!(o->have & 1u << RO_P50))
        return textin_fail(err, errlen, -EINVAL, "%s: expected wrk's Latency Distribution (run wrk with --latency)", name);
    o->resolution_ns = 10000; /* two decimals of us: 10 ns; of ms: 10 us */
    return 0;
}

/* "KEY VALUE" pairs of an httperf line: the value after word key. */
static int after(const char *s, size_t n, const char *key, int64_t scale, int64_t *out)
{
    const char *k = textin_find(s, n, key);
    if (!k)
        return -1;
    k += strlen(key);
    while (k < s + n && *k == ' ')
        k++;
    size_t d = textin_decimal_span(k, (size_t)(s + n - k), 0);
    return d && textin_decimal(k, d, scale, 0, out) == 0 ? 0 : -1;
}

static int read_httperf(realout *o, const char *name, const char *text, size_t len, int64_t threshold_ns,
                        hist_rank_rule rule, char *err, size_t errlen)
{
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n, cap = 0;
    int in_hist = 0;
    uint64_t replies = 0;
    int64_t bins_total = 0;
    /* the replies first (httperf prints its histogram above them): the
     * bins may hold no more connections than that, checked row by row,
     * so a damaged count cannot make a 200-byte file take gigabytes */
    int64_t most = REALOUT_MAX_VALUES;
    {
        textin_lines pre;
        textin_lines_init(&pre, text, len);
        int64_t v;
        while (textin_next_line(&pre, &s, &n))
            if (textin_starts(s, n, "Total: connections ") && after(s, n, "replies", 1, &v) == 0 && v < most)
                most = v;
    }
    while (textin_next_line(&it, &s, &n)) {
        int64_t v;
        if (textin_starts(s, n, "Connection lifetime histogram")) {
            in_hist = 1;
            continue;
        }
        if (in_hist) {
            size_t at = 0;
            const char *w, *c;
            size_t wn, cn;
            if (!word(s, n, &at, &w, &wn)) {
                in_hist = 0;
                continue;
            }
            if (wn == 1 && *w == ':')
                continue;
            int64_t mid, cnt;
            if (!word(s, n, &at, &c, &cn) || textin_decimal(w, wn, 10, 0, &mid) != 0 ||
                textin_decimal(c, cn, 1, 0, &cnt) != 0)
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected a histogram row 'MS COUNT' (1 ms bins)", name,
                            it.line);
            if (cnt > most - bins_total)
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: more than %lld connections in the histogram (the "
                            "replies, or at most %lld): expected httperf's counts", name, it.line, (long long)most,
                            (long long)REALOUT_MAX_VALUES);
            if (mid > UNITS_MAX_DURATION_NS / (MS_NS / 10))
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: a histogram bin past %lld ms: expected httperf's "
                            "1 ms bins", name, it.line, (long long)(UNITS_MAX_DURATION_NS / MS_NS));
            /* the bin's middle, as httperf prints it: (i + 0.5) ms */
            for (int64_t k = 0; k < cnt; k++)
                if (push(o, &cap, mid * (MS_NS / 10)) != 0)
                    return -ENOMEM;
            bins_total += cnt;
            continue;
        }
        if (textin_starts(s, n, "Total: connections ")) {
            if (after(s, n, "replies", 1, &v) != 0)
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected 'Total: connections C requests R replies P'",
                            name, it.line);
            replies = (uint64_t)v;
            o->have |= 1u << RO_COUNT;
        } else if (textin_starts(s, n, "Connection time [ms]: min")) {
            int64_t mn, avg, mx, med;
            if (after(s, n, "min", MS_NS, &mn) || after(s, n, "avg", MS_NS, &avg) || after(s, n, "max", MS_NS, &mx) ||
                after(s, n, "median", MS_NS, &med))
                return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected 'Connection time [ms]: min A avg B max C median "
                            "D stddev E'", name, it.line);
            o->fig_ns[RO_MEAN] = avg;
            o->fig_ns[RO_MAX] = mx;
            o->fig_ns[RO_P50] = med;
            o->have |= 1u << RO_MEAN | 1u << RO_MAX | 1u << RO_P50;
        }
    }
    if (!(o->have & 1u << RO_COUNT) || !(o->have & 1u << RO_MAX))
        return textin_fail(err, errlen, -EINVAL, "%s: expected httperf's 'Total: connections' and 'Connection time [ms]' "
                    "lines", name);
    o->count = replies;
    o->resolution_ns = 100000; /* one decimal of ms */
    if (o->n) { /* -v -v: the percentiles from the bins' middles */
        unsigned keep = o->have;
        int64_t mean = o->fig_ns[RO_MEAN], max = o->fig_ns[RO_MAX];
        figures_of_list(o, threshold_ns, rule);
        o->have |= keep;
        o->fig_ns[RO_MEAN] = mean;
        o->fig_ns[RO_MAX] = max;
        o->count = replies;
        o->resolution_ns = MS_NS;
    }
    return 0;
}

static int read_ab_e(realout *o, const char *name, textin_lines *it, char *err, size_t errlen)
{
    const char *s;
    size_t n;
    while (textin_next_line(it, &s, &n)) {
        const char *f;
        size_t fn;
        int64_t pct, v;
        if (n == 0)
            continue;
        if (field(s, n, ',', 0, &f, &fn) != 0 || textin_decimal(f, fn, 1, 0, &pct) != 0 || pct > 100 ||
            field(s, n, ',', 1, &f, &fn) != 0 || textin_decimal(f, fn, MS_NS, 0, &v) != 0)
            return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected 'PERCENT,MS' (ab -e: 0..100)", name, it->line);
        int fig = pct == 50 ? RO_P50 : pct == 90 ? RO_P90 : pct == 99 ? RO_P99 : pct == 100 ? RO_MAX : -1;
        if (fig >= 0) {
            o->fig_ns[fig] = v;
            o->have |= 1u << fig;
        }
    }
    if (!(o->have & 1u << RO_MAX))
        return textin_fail(err, errlen, -EINVAL, "%s: expected the rows 0 to 100 of ab -e", name);
    o->resolution_ns = 1000; /* three decimals of ms */
    return 0;
}

/* The line of text + off (1-based). */
static size_t line_at(const char *text, size_t off)
{
    size_t line = 1;
    for (size_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

/* In the JSON object that follows the key "name" (its first '{' to its
 * matching '}'), the number after "field": into *out (scaled, rounded).
 * @return 1 found, 0 absent, -1 not a decimal (*bad: its offset). */
static int json_number(const char *text, size_t len, const char *obj, const char *field, int64_t scale, int64_t *out,
                       size_t *bad)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", obj);
    const char *o = textin_find(text, len, key);
    if (!o)
        return 0;
    const char *b = memchr(o, '{', (size_t)(text + len - o));
    if (!b)
        return 0;
    int depth = 0;
    const char *e = b;
    for (; e < text + len; e++) {
        depth += *e == '{';
        depth -= *e == '}';
        if (depth == 0)
            break;
    }
    snprintf(key, sizeof key, "\"%s\"", field);
    const char *f = textin_find(b, (size_t)(e - b), key);
    if (!f)
        return 0;
    f += strlen(key);
    while (f < e && (*f == ' ' || *f == ':' || *f == '\t' || *f == '\n'))
        f++;
    size_t d = textin_decimal_span(f, (size_t)(e - f), 0);
    if (d == 0 || (f + d < e && (f[d] == 'e' || f[d] == 'E')) || textin_decimal(f, d, scale, 0, out) != 0) {
        *bad = (size_t)(f - text);
        return -1;
    }
    return 1;
}

/* k6 --summary-export: metrics.http_req_duration's avg, med, p(90), p(99)
 * (when summaryTrendStats asks for it), max, in ms; metrics.http_reqs's
 * count. */
static int read_k6(realout *o, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    static const struct {
        const char *field;
        int fig;
    } trend[] = {{"avg", RO_MEAN}, {"med", RO_P50}, {"p(90)", RO_P90}, {"p(99)", RO_P99}, {"p(99.9)", RO_P999},
                 {"max", RO_MAX}};
    size_t bad = 0;
    for (size_t i = 0; i < sizeof trend / sizeof trend[0]; i++) {
        int r = json_number(text, len, "http_req_duration", trend[i].field, MS_NS, &o->fig_ns[trend[i].fig], &bad);
        if (r < 0)
            return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected a decimal number of ms for %s", name,
                        line_at(text, bad), trend[i].field);
        if (r > 0)
            o->have |= 1u << trend[i].fig;
    }
    int64_t count;
    int r = json_number(text, len, "http_reqs", "count", 1, &count, &bad);
    if (r < 0)
        return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected a whole count for http_reqs", name, line_at(text, bad));
    if (r > 0) {
        o->count = (uint64_t)count;
        o->have |= 1u << RO_COUNT;
    }
    if (!((o->have >> RO_MAX) & 1))
        return textin_fail(err, errlen, -EINVAL, "%s: expected metrics.http_req_duration with its max (k6 --summary-export)",
                    name);
    o->resolution_ns = 1; /* k6 writes ms with many decimals */
    return 0;
}

/* The figures of a measured distribution (.hgrm, .hlog): the count, the
 * percentiles at the rule's rank (hgrm_value_at_percentile), the max (the
 * .hgrm footer's when it has one). */
static void figures_of_dist(realout *o, const hgrm_dist *d, hist_rank_rule rule, int64_t unit_ns)
{
    o->count = d->total;
    o->have = 1u << RO_COUNT | 1u << RO_MAX;
    for (int f = RO_P50; f <= RO_P999; f++) {
        o->fig_ns[f] = hgrm_value_at_percentile(d, rule, realout_level_num[f], 100000);
        o->have |= 1u << f;
    }
    o->fig_ns[RO_MAX] = d->has_footer ? d->footer_max_ns : d->max_ns;
    o->resolution_ns = unit_ns;
}

int realout_parse(realout *o, const char *name, const char *text, size_t len, int64_t threshold_ns,
                  hist_rank_rule rule, int64_t hgrm_unit_ns, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s = NULL;
    size_t n = 0;
    while (textin_next_line(&it, &s, &n) && n == 0) {
    }
    int rc;
    if (s && textin_starts(s, n, "response-time,")) {
        o->format = "hey -o csv";
        o->resolution_ns = 100000;
        rc = read_list(o, name, &it, ',', 0, 1000 * MS_NS, "hey's 'response-time,...' row, seconds first", err,
                       errlen);
    } else if (s && textin_starts(s, n, "starttime\tseconds\tctime\tdtime\tttime\twait")) {
        o->format = "ab -g";
        o->resolution_ns = MS_NS;
        rc = read_list(o, name, &it, '\t', 4, MS_NS, "ab -g's 'STARTTIME\\tSECONDS\\tCTIME\\tDTIME\\tTTIME\\tWAIT' row",
                       err, errlen);
    } else if (s && textin_starts(s, n, "Percentage served,Time in ms")) {
        o->format = "ab -e";
        return read_ab_e(o, name, &it, err, errlen);
    } else if (textin_find(text, len, "Latency Distribution") || textin_find(text, len, "Thread Stats")) {
        if (textin_find(text, len, "Value   Percentile") || textin_find(text, len, "Value Percentile")) {
            o->format = "wrk2 / .hgrm spectrum";
            goto hgrm;
        }
        o->format = "wrk --latency";
        rc = read_wrk(o, name, text, len, err, errlen);
        if (rc == 0 && wrkhist_present(text, len)) {
            o->format = "wrk --latency with its histogram";
            rc = read_wrk_histogram(o, name, text, len, threshold_ns, rule, err, errlen);
        }
        return rc;
    } else if (textin_find(text, len, "\"http_req_duration\"")) {
        o->format = "k6 --summary-export";
        return read_k6(o, name, text, len, err, errlen);
    } else if (textin_find(text, len, "Total: connections ")) {
        o->format = "httperf";
        return read_httperf(o, name, text, len, threshold_ns, rule, err, errlen);
    } else if (textin_find(text, len, "Interval_Length") || textin_find(text, len, "#[Histogram log format")) {
        o->format = ".hlog interval log";
        hlog_log *log = NULL;
        hgrm_dist *d = NULL;
        rc = hlog_parse(&log, name, text, len, err, errlen);
        if (rc == 0 && (rc = hlog_to_dist(log, hgrm_unit_ns, &d)) != 0)
            snprintf(err, errlen, "%s: %s", name, rc == -ENOMEM ? "out of memory" : "expected samples in the log's "
                     "intervals, of one setting");
        hlog_log_free(log);
        if (rc != 0)
            return rc;
        figures_of_dist(o, d, rule, hgrm_unit_ns);
        hgrm_free(d);
        return 0;
    } else if (textin_find(text, len, "Percentile") && textin_find(text, len, "TotalCount")) {
        o->format = ".hgrm spectrum";
        goto hgrm;
    } else {
        return textin_fail(err, errlen, -EINVAL, "%s:1: not a tool output cosim reads: expected hey -o csv, ab -g or -e, "
                    "wrk --latency, httperf's summary, k6 --summary-export JSON, an HdrHistogram .hgrm spectrum or .hlog", name);
    }
    if (rc != 0)
        return rc;
    if (o->n == 0)
        return textin_fail(err, errlen, -EINVAL, "%s: expected at least one request's line after the header", name);
    figures_of_list(o, threshold_ns, rule);
    return 0;
hgrm: {
    hgrm_dist *d = NULL;
    rc = hgrm_parse(&d, name, text, len, hgrm_unit_ns, 0, err, errlen);
    if (rc != 0)
        return rc;
    figures_of_dist(o, d, rule, hgrm_unit_ns);
    hgrm_free(d);
    return 0;
}
}

int realout_read(realout *o, const char *path, int64_t threshold_ns, hist_rank_rule rule, int64_t hgrm_unit_ns,
                 char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    char *text = NULL;
    size_t len = 0;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc != 0)
        return rc;
    rc = realout_parse(o, path, text, len, threshold_ns, rule, hgrm_unit_ns, err, errlen);
    free(text);
    if (rc != 0)
        realout_free(o);
    return rc;
}

void realout_free(realout *o)
{
    free(o->values);
    o->values = NULL;
    o->n = 0;
}

int realout_hey_split(const char *path, int64_t **delay_ns, size_t *n, int64_t *client_ns, char *err,
                      size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc != 0)
        return rc;
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t sn;
    static const char head[] = "response-time,DNS+dialup,DNS,Request-write,Response-delay,";
    *delay_ns = NULL;
    *n = 0;
    if (!textin_next_line(&it, &s, &sn) || !textin_starts(s, sn, head)) {
        free(text);
        return textin_fail(err, errlen, -EINVAL, "%s:1: expected hey -o csv's header '%s...'", path, head);
    }
    realout o; /* a list of values, grown by push */
    memset(&o, 0, sizeof o);
    size_t cap = 0;
    int64_t diff_sum = 0; /* <= 10^6 s a row x rows: checked */
    rc = 0;
    while (rc == 0 && textin_next_line(&it, &s, &sn)) {
        if (sn == 0)
            continue;
        const char *f;
        size_t fn;
        int64_t total, delay;
        if (field(s, sn, ',', 0, &f, &fn) != 0 || textin_decimal(f, fn, 1000 * MS_NS, 0, &total) != 0 ||
            field(s, sn, ',', 4, &f, &fn) != 0 || textin_decimal(f, fn, 1000 * MS_NS, 0, &delay) != 0) {
            rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: expected hey's 'response-time,...,Response-delay,...' "
                             "row, seconds", path, it.line);
            break;
        }
        if (__builtin_add_overflow(diff_sum, total - delay, &diff_sum)) {
            rc = textin_fail(err, errlen, -ERANGE, "%s:%zu: the response times sum beyond 2^63 ns", path, it.line);
            break;
        }
        if (push(&o, &cap, delay) != 0)
            rc = -ENOMEM;
    }
    free(text);
    if (rc == 0 && o.n == 0)
        rc = textin_fail(err, errlen, -EINVAL, "%s: expected at least one request row after hey's header", path);
    if (rc != 0) {
        free(o.values);
        return rc;
    }
    int64_t half = (int64_t)(o.n / 2);
    *client_ns = diff_sum <= 0 ? 0 : (diff_sum + half) / (int64_t)o.n;
    *delay_ns = o.values;
    *n = o.n;
    return 0;
}
