/* hlog.c - HdrHistogram interval logs: the writer and the reader of the
 * log's text (part of the hlog module, API in hlog.h; one histogram's
 * encoding is hlog_codec.c). */
#include "hlog.h"
#include "textin.h"

#include <errno.h>
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

/* ---- reader ---- */

void hlog_log_free(hlog_log *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->n; i++) {
        free(log->iv[i].tag);
        hlog_histogram_clear(&log->iv[i].hist);
    }
    free(log->iv);
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

/* What the reader keeps between the lines of a log. */
typedef struct reader {
    hlog_log *log;
    const char *name;
    char *err;
    size_t errlen;
    int64_t *second;    /* the raw second column of each interval, ns */
    size_t cap;         /* of log->iv and second */
    int has_base, end_legend;
    int64_t base_ns, start_ns_c;
    uint8_t *bin;       /* the decoded base64 of the current line */
    size_t bin_cap;
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

/* An interval line "[Tag=T,]START,LENGTH,MAX,BASE64" (commas or blanks
 * between): appended to r->log with its raw second column. */
static int read_interval(reader *r, const char *s, size_t n, size_t line)
{
    const char *f[5], *name = r->name;
    size_t fl[5], rest;
    size_t k = split_fields(s, n, f, fl, &rest);
    size_t first = k && textin_starts(f[0], fl[0], "Tag=") ? 1 : 0;
    if (k - first != 4 || rest)
        return hgrm_fail(r->err, r->errlen, -EINVAL,
                         "%s:%zu: expected an interval line \"[Tag=NAME,]START,LENGTH,MAX,HISTOGRAM\"", name, line);
    int64_t start, second_col, maxv;
    int r1 = textin_decimal(f[first], fl[first], 1000000000, 0, &start);
    int r2 = textin_decimal(f[first + 1], fl[first + 1], 1000000000, 0, &second_col);
    if (r1 || r2)
        return hgrm_fail(r->err, r->errlen, (r1 == -ERANGE || r2 == -ERANGE) ? -ERANGE : -EINVAL,
                         "%s:%zu: the interval's start '%.*s' and length '%.*s' must be seconds (such as 12.000)",
                         name, line, (int)fl[first], f[first], (int)fl[first + 1], f[first + 1]);
    if (textin_decimal_span(f[first + 2], fl[first + 2], 0) != fl[first + 2] ||
        textin_decimal(f[first + 2], fl[first + 2], 1, 0, &maxv) == -EINVAL)
        return hgrm_fail(r->err, r->errlen, -EINVAL, "%s:%zu: the interval max '%.*s' is not a number", name, line,
                         (int)fl[first + 2], f[first + 2]);
    if (grow_bin(r, fl[first + 3] / 4 * 3 + 3))
        return hgrm_fail(r->err, r->errlen, -ENOMEM, "%s: out of memory", name);
    size_t blen;
    if (hlog_base64_decode(f[first + 3], fl[first + 3], r->bin, &blen))
        return hgrm_fail(r->err, r->errlen, -EINVAL, "%s:%zu: the histogram is not valid base64", name, line);
    if (grow_intervals(r))
        return hgrm_fail(r->err, r->errlen, -ENOMEM, "%s: out of memory", name);
    hlog_log *log = r->log;
    hlog_interval *iv = &log->iv[log->n];
    memset(iv, 0, sizeof *iv);
    const char *why;
    int dr = hlog_decode(r->bin, blen, &iv->hist, &why);
    if (dr)
        return hgrm_fail(r->err, r->errlen, dr, "%s:%zu: the histogram does not decode: %s", name, line, why);
    log->n++;
    if (first) {
        iv->tag = strndup(f[0] + 4, fl[0] - 4);
        if (!iv->tag)
            return hgrm_fail(r->err, r->errlen, -ENOMEM, "%s: out of memory", name);
    }
    iv->start_ns = start;
    r->second[log->n - 1] = second_col;
    iv->line = line;
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
            return hgrm_fail(r->err, r->errlen, -ERANGE, "%s:%zu: the interval's time is beyond 2^63 ns", r->name,
                             log->iv[i].line);
        log->iv[i].start_ns = abs_ns - start;
    }
    return 0;
}

int hlog_parse(hlog_log **out, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    *out = NULL;
    reader r = {.name = name, .err = err, .errlen = errlen};
    r.log = calloc(1, sizeof *r.log);
    if (!r.log) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -ENOMEM;
    }
    int rc = 0;
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    while (!rc && textin_next_line(&it, &s, &n)) {
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n == 0)
            continue;
        if (s[0] == '#')
            read_comment(&r, s, n);
        else if (s[0] == '"')
            r.end_legend |= textin_find(s, n, "EndTimestamp") != NULL;
        else
            rc = read_interval(&r, s, n, it.line);
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

static int cmp_index(const void *a, const void *b)
{
    const hlog_count *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

int hlog_to_dist(const hlog_log *log, int64_t unit_ns, hgrm_dist **out)
{
    *out = NULL;
    if (unit_ns < 1)
        return -EINVAL;
    size_t total = 0;
    const hlog_histogram *ref = NULL;
    for (size_t i = 0; i < log->n; i++) {
        const hlog_histogram *h = &log->iv[i].hist;
        if (!h->n)
            continue;
        if (ref && (h->significant_digits != ref->significant_digits ||
                    h->lowest_discernible != ref->lowest_discernible))
            return -EINVAL;
        ref = h;
        total += h->n;
    }
    if (!ref)
        return -EINVAL;
    hlog_count *all = malloc(total * sizeof *all);
    hgrm_bucket *b = malloc(total * sizeof *b);
    int rc = 0;
    if (!all || !b) {
        rc = -ENOMEM;
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < log->n; i++)
        for (size_t j = 0; j < log->iv[i].hist.n; j++)
            all[k++] = log->iv[i].hist.counts[j];
    qsort(all, k, sizeof *all, cmp_index);
    size_t nb = 0;
    for (size_t i = 0; i < k; i++) {
        if (nb && all[i].index == all[nb - 1].index) {
            if (__builtin_add_overflow(all[nb - 1].count, all[i].count, &all[nb - 1].count)) {
                rc = -ERANGE;
                goto done;
            }
        } else {
            all[nb++] = all[i];
        }
    }
    for (size_t i = 0; i < nb; i++) {
        int64_t lo, hi;
        if (hlog_index_range(ref, all[i].index, &lo, &hi) || __builtin_mul_overflow(lo, unit_ns, &lo) ||
            __builtin_mul_overflow(hi, unit_ns, &hi)) {
            rc = -ERANGE;
            goto done;
        }
        b[i] = (hgrm_bucket){.low_ns = lo, .high_ns = hi, .count = all[i].count};
    }
    rc = hgrm_from_buckets(out, b, nb);
done:
    free(all);
    free(b);
    return rc;
}
