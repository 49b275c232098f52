/* corpus_tool - reads one real input the way a scenario does and prints
 * what it read, for tests/inputs/corpus.sh (the damaged-input corpus):
 *   corpus_tool gclog FILE [strict=0] [tag=NAME] [unit=NS]
 *   corpus_tool hgrm  FILE UNIT_NS
 *   corpus_tool hlog  FILE UNIT_NS [strict=0] [tag=NAME]
 *   corpus_tool bomb  past|within|many OUT.hlog   write a resource bomb
 * Output, on success: a "figures" line (what a run would use), then a
 * "lines" line (records / known / not understood / skipped, the first
 * not-understood FILE:LINEs) and one "warning" line each. On error: "error
 * ERRNO-NAME MESSAGE" and exit 1. All times in ns. */
#include "gclog.h"
#include "hgrm.h"
#include "hlog.h"
#include "textin.h"

#include <errno.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *errno_name(int rc)
{
    switch (-rc) {
    case EINVAL: return "EINVAL";
    case ERANGE: return "ERANGE";
    case EFBIG: return "EFBIG";
    case ENOMEM: return "ENOMEM";
    case ENOENT: return "ENOENT";
    default: return "other";
    }
}

static void print_lines(const char *name, const textin_account *a, char *const *w, size_t nw)
{
    char buf[2048];
    textin_account_describe(a, name, buf, sizeof buf);
    printf("lines %s\n", buf);
    for (size_t i = 0; i < nw; i++)
        printf("warning %s\n", w[i]);
}

/* Options "strict=0", "tag=NAME", "unit=NS" from argv[i..argc). */
static void options(int argc, char **argv, int i, int *strict, const char **tag, int64_t *unit)
{
    for (; i < argc; i++) {
        if (strcmp(argv[i], "strict=0") == 0)
            *strict = 0;
        else if (strncmp(argv[i], "tag=", 4) == 0)
            *tag = argv[i] + 4;
        else if (strncmp(argv[i], "unit=", 5) == 0)
            *unit = strtoll(argv[i] + 5, NULL, 10);
    }
}

static int run_gclog(const char *path, int argc, char **argv)
{
    gclog_options o;
    gclog_options_default(&o);
    options(argc, argv, 3, &o.strict, &o.tag, &o.hlog_unit_ns);
    gclog_result *r;
    char err[4096];
    int rc = gclog_read(&r, path, &o, err, sizeof err);
    if (rc) {
        printf("error %s %s\n", errno_name(rc), err);
        return 1;
    }
    printf("figures %s: %zu read from %s, %zu kept, windows", gclog_format_name(r->format), r->n_read, r->source,
           r->n_kept);
    for (size_t i = 0; i < r->n_windows; i++)
        printf(" [%lld,%lld)", (long long)r->windows[i].start_ns, (long long)r->windows[i].end_ns);
    printf(", total %lld, longest %lld\n", (long long)r->total_ns, (long long)r->longest_ns);
    print_lines(path, &r->lines, r->warnings, r->n_warnings);
    gclog_free(r);
    return 0;
}

static void print_dist(const hgrm_dist *d)
{
    printf("figures count %llu, buckets %zu, min %lld, max %lld, mean %.3f, p50 %lld, p90 %lld, p99 %lld, p99.9 %lld\n",
           (unsigned long long)d->total, d->n, (long long)d->min_ns, (long long)d->max_ns, hgrm_draw_mean(d),
           (long long)hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 1, 2),
           (long long)hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 9, 10),
           (long long)hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 99, 100),
           (long long)hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 999, 1000));
}

static int merge(void *ctx, const hlog_interval *iv, const char **why)
{
    return hlog_merge_add(ctx, &iv->hist, why);
}

static int run_dist(const char *kind, const char *path, int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "corpus_tool %s FILE UNIT_NS\n", kind);
        return 2;
    }
    int64_t unit = strtoll(argv[3], NULL, 10);
    int strict = 1;
    const char *tag = NULL;
    options(argc, argv, 4, &strict, &tag, &unit);
    char *text, err[4096];
    size_t len;
    int rc = textin_read_file(path, &text, &len, err, sizeof err);
    hgrm_dist *d = NULL;
    hlog_log *log = NULL;
    hlog_merge m = {0};
    if (!rc && strcmp(kind, "hgrm") == 0) {
        rc = hgrm_parse(&d, path, text, len, unit, -1, err, sizeof err);
    } else if (!rc) {
        hlog_read_options o = {.one_series = 1, .tag = tag, .strict = strict, .on_interval = merge, .ctx = &m};
        rc = hlog_parse_with(&log, path, text, len, &o, err, sizeof err);
        if (!rc && (rc = hlog_merge_dist(&m, unit, &d)) != 0)
            snprintf(err, sizeof err, "%s: no sample, or past the clock's range", path);
    }
    if (!rc) {
        print_dist(d);
        if (log)
            print_lines(path, &log->lines, log->warnings, log->n_warnings);
        else
            print_lines(path, &d->lines, d->warnings, d->n_warnings);
    } else {
        printf("error %s %s\n", errno_name(rc), err);
    }
    free(text);
    hgrm_free(d);
    hlog_log_free(log);
    hlog_merge_clear(&m);
    return rc ? 1 : 0;
}

/* ---- resource bombs (made at test time: megabytes not worth a commit) ---- */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

/* A compressed V2 histogram: header (payload length plen_field, d digits,
 * lowest 1, highest, ratio 1.0) then `reps` bytes of `byte` (a payload of
 * zero counts, 0x00, or of counts of one, 0x02), deflated as it goes. */
static uint8_t *bomb_histogram(int32_t plen_field, int32_t digits, int64_t highest, uint8_t byte, size_t reps,
                               size_t *out_len)
{
    uint8_t head[40], chunk[1 << 16];
    put32(head, 0x1c849313u);
    put32(head + 4, (uint32_t)plen_field);
    put32(head + 8, 0);
    put32(head + 12, (uint32_t)digits);
    put64(head + 16, 1);
    put64(head + 24, (uint64_t)highest);
    put64(head + 32, 0x3ff0000000000000ull);
    memset(chunk, byte, sizeof chunk);
    size_t cap = 1 << 16, len = 8;
    uint8_t *out = malloc(cap);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    deflateInit(&zs, 9);
    size_t left = reps;
    int first = 1, flush = Z_NO_FLUSH;
    do {
        if (first) {
            zs.next_in = head;
            zs.avail_in = sizeof head;
            first = 0;
        } else {
            size_t k = left < sizeof chunk ? left : sizeof chunk;
            zs.next_in = chunk;
            zs.avail_in = (uInt)k;
            left -= k;
        }
        flush = left == 0 && !first ? Z_FINISH : Z_NO_FLUSH;
        int zr;
        do {
            if (cap - len < 65536) {
                cap *= 2;
                out = realloc(out, cap);
            }
            zs.next_out = out + len;
            zs.avail_out = (uInt)(cap - len);
            zr = deflate(&zs, flush);
            len = cap - zs.avail_out;
        } while (zs.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
    } while (flush != Z_FINISH);
    deflateEnd(&zs);
    put32(out, 0x1c849314u);
    put32(out + 4, (uint32_t)(len - 8));
    *out_len = len;
    return out;
}

/* past: the header says 100 payload bytes, the stream inflates to 160 MB
 * of zero counts (about 160 KB compressed), one interval; within: 30
 * intervals whose headers allow their 50 MB of zero counts (d = 5 up to
 * 2^62: 45 x 2^17 counts of at most 9 bytes), 50 KB compressed each;
 * many: 20 intervals of 1.2 million counts of one (more than
 * HLOG_MAX_COUNTS). */
static int make_bomb(const char *kind, const char *path)
{
    size_t n;
    uint8_t *h;
    int copies;
    if (strcmp(kind, "past") == 0)
        h = bomb_histogram(100, 3, INT64_C(3600000000000), 0, (size_t)160 << 20, &n), copies = 1;
    else if (strcmp(kind, "within") == 0)
        h = bomb_histogram(50000000, 5, INT64_C(1) << 62, 0, 50000000, &n), copies = 30;
    else if (strcmp(kind, "many") == 0)
        h = bomb_histogram(1200000, 5, INT64_C(1) << 62, 2, 1200000, &n), copies = 20;
    else
        return 2;
    char *b64 = malloc(hlog_base64_len(n) + 1);
    hlog_base64_encode(h, n, b64);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fputs("#[Histogram log format version 1.3]\n#[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC "
          "1970]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n", f);
    for (int i = 0; i < copies; i++)
        fprintf(f, "%d.000,1.000,0.000,%s\n", i, b64);
    free(b64);
    free(h);
    return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "bomb") == 0)
        return make_bomb(argv[2], argv[3]);
    if (argc < 3) {
        fprintf(stderr, "usage: corpus_tool gclog|hgrm|hlog FILE [UNIT_NS] [strict=0] [tag=NAME] [unit=NS]\n");
        return 2;
    }
    if (strcmp(argv[1], "gclog") == 0)
        return run_gclog(argv[2], argc, argv);
    if (strcmp(argv[1], "hgrm") == 0 || strcmp(argv[1], "hlog") == 0)
        return run_dist(argv[1], argv[2], argc, argv);
    fprintf(stderr, "corpus_tool: unknown reader %s\n", argv[1]);
    return 2;
}
