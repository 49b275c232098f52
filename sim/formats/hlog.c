/* hlog.c - HdrHistogram interval logs: the writer and the reader of the
 * log's text (part of the hlog module, API in hlog.h; one histogram's
 * encoding is hlog_codec.c). */
#include "hlog.h"
#include "textin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- writer ---- */

/* ns as "S.mmm" seconds (or any unit `per` ns) with 3 decimals, half up. */
static void fmt3(char *buf, size_t len, int64_t ns, int64_t per)
{
    int64_t milli = per / 1000;
    int64_t q = ns / milli, r = ns % milli;
    if (2 * r >= milli)
        q++;
    snprintf(buf, len, "%lld.%03lld", (long long)(q / 1000), (long long)(q % 1000));
}

int hlog_write_header(FILE *f, int64_t start_epoch_ms, const char *logged_with)
{
    char when[64], secs[32];
    time_t t = (time_t)(start_epoch_ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(when, sizeof when, "%a %b %d %H:%M:%S UTC %Y", &tm))
        return -EINVAL;
    fmt3(secs, sizeof secs, start_epoch_ms * 1000000, 1000000000);
    fprintf(f, "#[Logged with %s]\n", logged_with);
    fprintf(f, "#[Histogram log format version %s]\n", HLOG_FORMAT_VERSION);
    fprintf(f, "#[StartTime: %s (seconds since epoch), %s]\n", secs, when);
    fprintf(f, "#[BaseTime: %s (seconds since epoch)]\n", secs);
    fputs("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n", f);
    return ferror(f) ? -EIO : 0;
}

int hlog_write_interval(FILE *f, const char *tag, int64_t start_ns, int64_t length_ns, const hist *h)
{
    if (start_ns < 0 || length_ns < 0)
        return -EINVAL;
    if (tag && (!*tag || strpbrk(tag, ", \r\n")))
        return -EINVAL;
    uint8_t *enc;
    size_t n;
    int rc = hlog_encode(h, HLOG_DEFAULT_HIGHEST_NS, &enc, &n);
    if (rc)
        return rc;
    char *text = malloc(hlog_base64_len(n) + 1);
    if (!text) {
        free(enc);
        return -ENOMEM;
    }
    hlog_base64_encode(enc, n, text);
    /* the max as HdrHistogram reports it: the upper edge of its bucket */
    hlog_histogram back;
    const char *why;
    int64_t max = 0;
    if (hlog_decode(enc, n, &back, &why) == 0) {
        max = hlog_histogram_max(&back);
        hlog_histogram_clear(&back);
    }
    free(enc);
    char s1[32], s2[32], s3[32];
    fmt3(s1, sizeof s1, start_ns, 1000000000);
    fmt3(s2, sizeof s2, length_ns, 1000000000);
    fmt3(s3, sizeof s3, max, 1000000);
    if (tag)
        fprintf(f, "Tag=%s,", tag);
    fprintf(f, "%s,%s,%s,%s\n", s1, s2, s3, text);
    free(text);
    return ferror(f) ? -EIO : 0;
}

/* ---- reader ----
 *
 * Grammar of a log (HistogramLogWriter, HistogramLogReader):
 *   comment:  "#" ... ; "#[StartTime: S ...", "#[BaseTime: S ...", "#[Histogram
 *             log format version X.Y]" are read, others known and passed over
 *   legend:   a line starting with '"' ("StartTimestamp", ...)
 *   blank:    known
 *   interval: ["Tag=" NAME ","] START "," LENGTH "," MAX "," BASE64, START and
 *             LENGTH plain decimal seconds, MAX a plain decimal (no sign, no
 *             exponent: textin_number), BASE64 a compressed histogram.
 * Every other line is an interval line that cannot be read: an error at its
 * line (strict), or skipped with a warning. */

void hlog_log_free(hlog_log *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->n; i++) {
        free(log->iv[i].tag);
        hlog_histogram_clear(&log->iv[i].hist);
    }
    free(log->iv);
    for (size_t i = 0; i < log->n_warnings; i++)
        free(log->warnings[i]);
    free(log->warnings);
    free(log);
}

/* "#[StartTime: 1403476110.183 (seconds...": the number after the prefix. */
static int comment_seconds(const char *s, size_t n, const char *prefix, int64_t *out_ns)
{
    size_t m = strlen(prefix);
    const char *p = s + m, *end = s + n;
    while (p < end && *p == ' ')
        p++;
    size_t k = textin_decimal_span(p, (size_t)(end - p), 0);
    if (!k)
        return -EINVAL;
    return textin_decimal(p, k, 1000000000, 0, out_ns);
}

/* At most this many series are named in a message. */
#define MAX_SERIES_NAMED 8

/* What the reader keeps between the lines of a log. */
typedef struct reader {
    hlog_log *log;
    const char *name;
    char *err;
    size_t errlen;
    const hlog_read_options *o;
    int64_t *second;    /* the raw second column of each interval, ns */
    size_t cap;         /* of log->iv and second */
    int has_base, end_legend;
    int64_t base_ns, start_ns_c;
    uint8_t *bin;       /* the decoded base64 of the current line */
    size_t bin_cap;
    size_t compressed;  /* bytes of histograms read so far */
    size_t inflated;    /* bytes they inflated to */
} reader;

/* A "#" line: the start time, base time and format version comments
 * (others, and these when malformed, are passed over). */
static void read_comment(reader *r, const char *s, size_t n)
{
    int64_t v;
    if (textin_starts(s, n, "#[StartTime:")) {
        if (comment_seconds(s, n, "#[StartTime:", &v) == 0) {
            r->log->has_start_time = 1;
            r->start_ns_c = v;
        }
    } else if (textin_starts(s, n, "#[BaseTime:")) {
        if (comment_seconds(s, n, "#[BaseTime:", &v) == 0) {
            r->has_base = 1;
            r->base_ns = v;
        }
    } else if (textin_starts(s, n, "#[Histogram log format version ")) {
        int ma = 0, mi = 0;
        if (sscanf(s + strlen("#[Histogram log format version "), "%d.%d", &ma, &mi) == 2) {
            r->log->version_major = ma;
            r->log->version_minor = mi;
        }
    }
}

/* Split s[0..n) at commas and blanks into at most 5 fields f[k], fl[k].
 * Returns their number; *rest is 0 when the fields took the whole line. */
static size_t split_fields(const char *s, size_t n, const char **f, size_t *fl, size_t *rest)
{
    size_t k = 0, i = 0;
    while (i < n && k < 5) {
        while (i < n && (s[i] == ',' || s[i] == ' '))
            i++;
        if (i >= n)
            break;
        size_t j = i;
        while (j < n && s[j] != ',' && s[j] != ' ')
            j++;
        f[k] = s + i;
        fl[k] = j - i;
        k++;
        i = j;
    }
    while (i < n && (s[i] == ',' || s[i] == ' '))
        i++;
    *rest = n - i;
    return k;
}

/* Room for one more interval (and its second column). */
static int grow_intervals(reader *r)
{
    if (r->log->n < r->cap)
        return 0;
    size_t nc = r->cap ? r->cap * 2 : 16;
    hlog_interval *ni = realloc(r->log->iv, nc * sizeof *ni);
    int64_t *ns = ni ? realloc(r->second, nc * sizeof *ns) : NULL;
    if (ni)
        r->log->iv = ni;
    if (!ni || !ns)
        return -ENOMEM;
    r->second = ns;
    r->cap = nc;
    return 0;
}

/* Room for the bytes of need base64 characters' worth in r->bin. */
static int grow_bin(reader *r, size_t need)
{
    if (need <= r->bin_cap)
        return 0;
    uint8_t *nb = realloc(r->bin, need);
    if (!nb)
        return -ENOMEM;
    r->bin = nb;
    r->bin_cap = need;
    return 0;
}

/* The tag of an interval line s[0..n): 1 with *t, *tn ("Tag=NAME,"), 0 for none. */
static int line_tag(const char *s, size_t n, const char **t, size_t *tn)
{
    if (!textin_starts(s, n, "Tag="))
        return 0;
    size_t j = 4;
    while (j < n && s[j] != ',' && s[j] != ' ')
        j++;
    *t = s + 4;
    *tn = j - 4;
    return 1;
}

/* Whether an interval of tag t[0..tn) (has: tagged) is of the series asked. */
static int in_series(const reader *r, int has, const char *t, size_t tn)
{
    if (!r->o->one_series)
        return 1;
    if (!r->o->tag)
        return !has;
    return has && strlen(r->o->tag) == tn && memcmp(r->o->tag, t, tn) == 0;
}

/* An interval line "[Tag=T,]START,LENGTH,MAX,BASE64" (commas or blanks
 * between): appended to r->log with its raw second column. Returns 1 when
 * the line is of another series (not read), 0, or a negative errno. */
static int read_interval(reader *r, const char *s, size_t n, size_t line)
{
    const char *f[5], *name = r->name;
    size_t fl[5], rest;
    size_t k = split_fields(s, n, f, fl, &rest);
    size_t first = k && textin_starts(f[0], fl[0], "Tag=") ? 1 : 0;
    if (!in_series(r, (int)first, first ? f[0] + 4 : NULL, first ? fl[0] - 4 : 0))
        return 1;
    if (k - first != 4 || rest)
        return textin_fail(r->err, r->errlen, -EINVAL,
                         "%s:%zu: expected an interval line \"[Tag=NAME,]START,LENGTH,MAX,HISTOGRAM\"", name, line);
    int64_t start, second_col, maxv;
    char why[200];
    static const textin_number_form secs = {"the interval's start", 0, NULL, 0, 1000000000};
    static const textin_number_form len_form = {"the interval's length", 0, NULL, 0, 1000000000};
    static const textin_number_form max_form = {"the interval's max", 0, NULL, 0, 1};
    int rc = textin_number(f[first], fl[first], &secs, &start, why, sizeof why);
    if (!rc)
        rc = textin_number(f[first + 1], fl[first + 1], &len_form, &second_col, why, sizeof why);
    if (rc) /* a time past 2^63 ns is a limit (-ERANGE), anything else not a number */
        return textin_fail(r->err, r->errlen, rc, "%s:%zu: %s", name, line, why);
    /* the max is not used (the histogram's is), but it must be a number */
    rc = textin_number(f[first + 2], fl[first + 2], &max_form, &maxv, why, sizeof why);
    if (rc == -EINVAL)
        return textin_fail(r->err, r->errlen, rc, "%s:%zu: %s", name, line, why);
    if (grow_bin(r, fl[first + 3] / 4 * 3 + 3))
        return textin_fail(r->err, r->errlen, -ENOMEM, "%s: out of memory", name);
    size_t blen;
    if (hlog_base64_decode(f[first + 3], fl[first + 3], r->bin, &blen))
        return textin_fail(r->err, r->errlen, -EINVAL, "%s:%zu: the histogram is not valid base64", name, line);
    if (grow_intervals(r))
        return textin_fail(r->err, r->errlen, -ENOMEM, "%s: out of memory", name);
    hlog_log *log = r->log;
    hlog_interval *iv = &log->iv[log->n];
    memset(iv, 0, sizeof *iv);
    const char *dwhy;
    r->compressed += blen;
    size_t allowance = ((size_t)1 << 20) + 128 * r->compressed, budget = allowance - r->inflated;
    int dr = hlog_decode_bounded(r->bin, blen, &budget, &iv->hist, &dwhy);
    r->inflated = allowance - budget;
    if (dr == -EFBIG)
        return textin_fail(r->err, r->errlen, -EFBIG, "%s:%zu: %s", name, line, dwhy);
    if (dr)
        return textin_fail(r->err, r->errlen, dr, "%s:%zu: the histogram does not decode: %s", name, line, dwhy);
    log->n++;
    iv->max_value = hlog_histogram_max(&iv->hist);
    if (first) {
        iv->tag = strndup(f[0] + 4, fl[0] - 4);
        if (!iv->tag)
            return textin_fail(r->err, r->errlen, -ENOMEM, "%s: out of memory", name);
    }
    iv->start_ns = start;
    r->second[log->n - 1] = second_col;
    iv->line = line;
    if (r->o->on_interval) {
        int cr = r->o->on_interval(r->o->ctx, iv, &dwhy);
        hlog_histogram_clear(&iv->hist);
        if (cr)
            return textin_fail(r->err, r->errlen, cr, "%s:%zu: %s", name, line, dwhy);
    }
    return 0;
}

/* The log's series, for a refusal: "Tag=A, Tag=B, (untagged)". With
 * one_series and no tag a log of several is refused; a tag it lacks too. */
static int check_series(reader *r, const char *text, size_t len)
{
    if (!r->o->one_series)
        return 0;
    char list[400] = "";
    size_t k = 0, nseries = 0;
    int untagged = 0, found = 0;
    const char *seen[MAX_SERIES_NAMED];
    size_t seen_n[MAX_SERIES_NAMED];
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s, *t;
    size_t n, tn;
    while (textin_next_line(&it, &s, &n)) {
        if (n == 0 || s[0] == '#' || s[0] == '"' || s[0] == ' ')
            continue;
        if (!line_tag(s, n, &t, &tn)) {
            if (!untagged)
                nseries++;
            untagged = 1;
            found |= !r->o->tag;
            continue;
        }
        found |= r->o->tag && strlen(r->o->tag) == tn && memcmp(r->o->tag, t, tn) == 0;
        size_t j = 0;
        while (j < nseries - (size_t)untagged && j < MAX_SERIES_NAMED && !(seen_n[j] == tn && !memcmp(seen[j], t, tn)))
            j++;
        if (j == nseries - (size_t)untagged) {
            if (j < MAX_SERIES_NAMED) {
                seen[j] = t;
                seen_n[j] = tn;
            }
            nseries++;
        }
    }
    size_t named = nseries - (size_t)untagged;
    for (size_t j = 0; j < named && j < MAX_SERIES_NAMED && k < sizeof list; j++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%sTag=%.*s", j ? ", " : "", (int)(seen_n[j] > 40 ? 40 : seen_n[j]),
                              seen[j]);
    if (named > MAX_SERIES_NAMED && k < sizeof list)
        k += (size_t)snprintf(list + k, sizeof list - k, ", ...");
    if (untagged && k < sizeof list)
        snprintf(list + k, sizeof list - k, "%suntagged intervals", k ? ", " : "");
    if (!r->o->tag && nseries > 1)
        return textin_fail(r->err, r->errlen, -EINVAL, "%s: the log holds %zu%s series (%s); pick one with tag = NAME",
                         r->name, nseries, named > MAX_SERIES_NAMED ? " or more" : "", list);
    if (r->o->tag && !found)
        return textin_fail(r->err, r->errlen, -EINVAL, "%s: no interval is tagged %s; the log holds %s", r->name,
                         r->o->tag, nseries ? list : "no interval");
    if (!r->o->tag && nseries == 1 && !untagged) /* the one series is tagged: read it */
        return 1;
    return 0;
}

/* After the last line: lengths from the second column, then the times
 * made relative to the log's start. */
static int apply_times(reader *r)
{
    hlog_log *log = r->log;
    /* the 1.2 variant: an "EndTimestamp" column holds end times when it is
     * above the start on every line */
    if (r->end_legend && log->n) {
        int ends = 1;
        for (size_t i = 0; i < log->n; i++)
            if (r->second[i] <= log->iv[i].start_ns)
                ends = 0;
        log->end_stamps = ends;
    }
    for (size_t i = 0; i < log->n; i++)
        log->iv[i].length_ns = log->end_stamps ? r->second[i] - log->iv[i].start_ns : r->second[i];
    if (!log->n) {
        log->start_time_ns = r->start_ns_c;
        log->base_time_ns = r->base_ns;
        return 0;
    }
    /* HistogramLogReader's time rule */
    int64_t first_ts = log->iv[0].start_ns;
    int64_t start = log->has_start_time ? r->start_ns_c : first_ts;
    int64_t base_ns = r->base_ns;
    if (!r->has_base) {
        const int64_t year_ns = (int64_t)365 * 24 * 3600 * 1000000000;
        base_ns = first_ts < start - year_ns ? start : 0;
    }
    log->start_time_ns = start;
    log->base_time_ns = base_ns;
    for (size_t i = 0; i < log->n; i++) {
        int64_t abs_ns;
        if (__builtin_add_overflow(log->iv[i].start_ns, base_ns, &abs_ns))
            return textin_fail(r->err, r->errlen, -ERANGE, "%s:%zu: the interval's time is beyond 2^63 ns", r->name,
                             log->iv[i].line);
        log->iv[i].start_ns = abs_ns - start;
    }
    return 0;
}

/* Append "NAME:LINE: skipped (strict = false): REASON" (REASON: err after
 * its "NAME:LINE: ") to log's warnings. */
static int add_warning(hlog_log *log, const char *err)
{
    char **nw = realloc(log->warnings, (log->n_warnings + 1) * sizeof *nw);
    if (!nw)
        return -ENOMEM;
    log->warnings = nw;
    if (!(log->warnings[log->n_warnings] = strdup(err)))
        return -ENOMEM;
    log->n_warnings++;
    return 0;
}

int hlog_parse_with(hlog_log **out, const char *name, const char *text, size_t len, const hlog_read_options *o,
                    char *err, size_t errlen)
{
    *out = NULL;
    static const hlog_read_options every = {0, NULL, 1, NULL, NULL};
    reader r = {.name = name, .err = err, .errlen = errlen, .o = o ? o : &every};
    r.log = calloc(1, sizeof *r.log);
    if (!r.log) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -ENOMEM;
    }
    hlog_read_options tagged; /* a log of one tagged series: that one */
    int rc = check_series(&r, text, len);
    if (rc == 1) {
        tagged = *r.o;
        tagged.one_series = 0;
        r.o = &tagged;
        rc = 0;
    }
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    int cut = textin_ends_cut(text, len);
    while (!rc && textin_next_line(&it, &s, &n)) {
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        int cls = TEXTIN_LINE_KNOWN;
        if (n == 0) {
        } else if (s[0] == '#') {
            read_comment(&r, s, n);
        } else if (s[0] == '"') {
            r.end_legend |= textin_find(s, n, "EndTimestamp") != NULL;
        } else {
            rc = read_interval(&r, s, n, it.line);
            cls = rc == 1 ? TEXTIN_LINE_KNOWN : TEXTIN_LINE_RECORD;
            if (rc == 1)
                rc = 0;
            if (rc == -EINVAL && cut && it.p >= it.end) {
                textin_say_cut_record(err, errlen, name, it.line);
            }
            if (rc == -EINVAL && !r.o->strict) {
                char msg[700];
                snprintf(msg, sizeof msg, "%s (skipped: strict = false)", err);
                rc = add_warning(r.log, msg);
                cls = TEXTIN_LINE_SKIPPED;
                if (rc)
                    snprintf(err, errlen, "%s: out of memory", name);
            }
        }
        if (!rc)
            textin_account_line(&r.log->lines, cls, it.line);
    }
    if (!rc)
        rc = apply_times(&r);
    if (!rc) {
        *out = r.log;
        r.log = NULL;
    }
    free(r.second);
    free(r.bin);
    hlog_log_free(r.log);
    return rc;
}

int hlog_parse(hlog_log **out, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    return hlog_parse_with(out, name, text, len, NULL, err, errlen);
}

int hlog_read(hlog_log **out, const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    *out = NULL;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = hlog_parse(out, path, text, len, err, errlen);
    free(text);
    return rc;
}

unsigned hlog_log_sub_bits(const hlog_log *log)
{
    unsigned s = 1;
    for (size_t i = 0; i < log->n; i++)
        if (log->iv[i].hist.sub_bucket_bits > s)
            s = log->iv[i].hist.sub_bucket_bits;
    return s;
}

int hlog_to_hist(const hlog_histogram *h, int64_t unit_ns, hist *dst)
{
    if (unit_ns < 1)
        return -EINVAL;
    for (size_t i = 0; i < h->n; i++) {
        int64_t lo, hi, v;
        if (hlog_index_range(h, h->counts[i].index, &lo, &hi) || __builtin_mul_overflow(hi, unit_ns, &v))
            return -ERANGE;
        hist_record_n(dst, v, h->counts[i].count);
    }
    return 0;
}

void hlog_merge_clear(hlog_merge *m)
{
    free(m->counts);
    memset(m, 0, sizeof *m);
}

int hlog_merge_add(hlog_merge *m, const hlog_histogram *h, const char **why)
{
    if (!h->n)
        return 0;
    if (m->have && (h->significant_digits != m->ref.significant_digits ||
                    h->lowest_discernible != m->ref.lowest_discernible)) {
        *why = "the histogram's settings (significant digits, lowest value) differ from the first interval's";
        return -EINVAL;
    }
    if (!m->have) {
        m->ref = *h;
        m->ref.counts = NULL;
        m->ref.n = 0;
        m->have = 1;
    }
    size_t need = (size_t)h->counts[h->n - 1].index + 1; /* decode keeps indices below 2^63 values' */
    if (need > m->cap) {
        size_t nc = m->cap ? m->cap : 1024;
        while (nc < need)
            nc *= 2;
        uint64_t *nb = realloc(m->counts, nc * sizeof *nb);
        if (!nb) {
            *why = "out of memory";
            return -ENOMEM;
        }
        memset(nb + m->cap, 0, (nc - m->cap) * sizeof *nb);
        m->counts = nb;
        m->cap = nc;
    }
    for (size_t i = 0; i < h->n; i++) {
        uint64_t *c = &m->counts[h->counts[i].index];
        if (*c == 0 && ++m->nonzero > HLOG_MAX_COUNTS) {
            *why = "the intervals together hold more than 1048576 non-zero counts: cosim's limit";
            return -EFBIG;
        }
        if (__builtin_add_overflow(*c, h->counts[i].count, c)) {
            *why = "a count of the intervals together passes 2^64";
            return -ERANGE;
        }
    }
    return 0;
}

int hlog_merge_dist(const hlog_merge *m, int64_t unit_ns, hgrm_dist **out)
{
    *out = NULL;
    if (unit_ns < 1 || !m->have || !m->nonzero)
        return -EINVAL;
    hgrm_bucket *b = malloc(m->nonzero * sizeof *b);
    if (!b)
        return -ENOMEM;
    size_t nb = 0;
    int rc = 0;
    for (size_t i = 0; i < m->cap && !rc; i++) {
        if (!m->counts[i])
            continue;
        int64_t lo, hi;
        if (hlog_index_range(&m->ref, (int64_t)i, &lo, &hi) || __builtin_mul_overflow(lo, unit_ns, &lo) ||
            __builtin_mul_overflow(hi, unit_ns, &hi))
            rc = -ERANGE;
        else
            b[nb++] = (hgrm_bucket){.low_ns = lo, .high_ns = hi, .count = m->counts[i]};
    }
    if (!rc)
        rc = hgrm_from_buckets(out, b, nb);
    free(b);
    return rc;
}

int hlog_to_dist(const hlog_log *log, int64_t unit_ns, hgrm_dist **out)
{
    *out = NULL;
    if (unit_ns < 1)
        return -EINVAL;
    hlog_merge m = {0};
    const char *why;
    int rc = 0;
    for (size_t i = 0; i < log->n && !rc; i++)
        rc = hlog_merge_add(&m, &log->iv[i].hist, &why);
    if (!rc)
        rc = hlog_merge_dist(&m, unit_ns, out);
    hlog_merge_clear(&m);
    return rc == -EFBIG ? -ERANGE : rc;
}
