/* hlog_tool - cosim's side of the HdrHistogram interop test
 * (tests/interop/interop.sh runs it against HlogInterop.java):
 *   hlog_tool write OUT.hlog    write a deterministic cosim .hlog and print
 *                               its figures as HdrHistogram reports them
 *   hlog_tool read FILE.hlog    print the figures of each interval read
 *   hlog_tool hgrm FILE UNIT_NS print the figures of a percentile spectrum
 * Every figure is in ns: count, max, then the value at 50, 90, 99, 99.9,
 * 99.99 and 100 percent (nearest rank, HdrHistogram's getValueAtPercentile
 * rule). */
#include "hgrm.h"
#include "hist.h"
#include "hlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t pnum[] = {1, 9, 99, 999, 9999, 1};
static const uint64_t pden[] = {2, 10, 100, 1000, 10000, 1};
static const char *const pname[] = {"p50", "p90", "p99", "p99.9", "p99.99", "p100"};
#define NP 6

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The upper edge of the bucket where the cumulative count reaches rank:
 * what HdrHistogram reports (cosim's hist caps it by the exact max). */
static int64_t edge_at_rank(const hist *h, uint64_t rank)
{
    hist_cursor c;
    hist_cursor_init(h, &c);
    hist_cursor_value_at_rank(h, &c, rank, NULL);
    uint64_t lo, hi;
    hist_bucket_range(c.index, hist_sub_bits(h), &lo, &hi);
    return (int64_t)hi;
}

static void print_hist_edges(const char *tag, int64_t start_ms, int64_t len_ms, const hist *h)
{
    uint64_t n = hist_count(h);
    printf("tag=%s start_ms=%lld length_ms=%lld count=%llu max=%lld", tag, (long long)start_ms,
           (long long)len_ms, (unsigned long long)n, (long long)(n ? edge_at_rank(h, n) : 0));
    for (int i = 0; i < NP; i++)
        printf(" %s=%lld", pname[i],
               (long long)(n ? edge_at_rank(h, hist_rank(HIST_NEAREST_RANK, pnum[i], pden[i], n)) : 0));
    printf("\n");
}

static void fill(hist *h, uint64_t seed, int n)
{
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        uint64_t x = splitmix64(&s);
        if (x % 20 == 0)
            hist_record(h, (int64_t)(x >> 40) % 300); /* small values, exact buckets */
        else
            hist_record(h, 20000 + (int64_t)((x >> 16) % 250000000)); /* 20 us .. 250 ms */
    }
}

static int write_log(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    hlog_write_header(f, 0, "cosim interop test");
    const unsigned bits[] = {8, 8, 8, 10, 14, 8};
    const char *tags[] = {NULL, NULL, NULL, "s10", "s14", NULL};
    for (int i = 0; i < 6; i++) {
        hist *h;
        hist_new(&h, bits[i]);
        if (i == 1) {
            /* a 45 ms hiccup at a 1 ms expected interval: the ladder */
            hist_record_corrected(h, 45000000, 1000000, HIST_CORRECT_HDR, 0, NULL);
        } else if (i != 2) { /* interval 2 is empty */
            fill(h, 1000 + (uint64_t)i, 20000 + 3000 * i);
        }
        int64_t start = (int64_t)i * 1000000000;
        if (hlog_write_interval(f, tags[i], start, 1000000000, h)) {
            fprintf(stderr, "write failed\n");
            return 1;
        }
        print_hist_edges(tags[i] ? tags[i] : "-", start / 1000000, 1000, h);
        hist_free(h);
    }
    return fclose(f) != 0;
}

static int read_log(const char *path)
{
    hlog_log *log;
    char err[512];
    if (hlog_read(&log, path, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    unsigned s = hlog_log_sub_bits(log);
    for (size_t i = 0; i < log->n; i++) {
        hist *h;
        hist_new(&h, s < 8 ? 8 : s);
        hlog_to_hist(&log->iv[i].hist, 1, h);
        uint64_t n = hist_count(h);
        printf("tag=%s start_ms=%lld length_ms=%lld count=%llu max=%lld", log->iv[i].tag ? log->iv[i].tag : "-",
               (long long)(log->iv[i].start_ns / 1000000), (long long)(log->iv[i].length_ns / 1000000),
               (unsigned long long)n, (long long)hist_max(h));
        for (int k = 0; k < NP; k++)
            printf(" %s=%lld", pname[k], (long long)hist_value_at_percentile(h, HIST_NEAREST_RANK, pnum[k], pden[k]));
        printf("\n");
        hist_free(h);
    }
    hlog_log_free(log);
    return 0;
}

static int read_hgrm(const char *path, const char *unit)
{
    hgrm_dist *d;
    char err[512];
    if (hgrm_read(&d, path, atoll(unit), -1, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("count=%llu max=%lld", (unsigned long long)d->total, (long long)d->max_ns);
    for (int k = 0; k < NP; k++)
        printf(" %s=%lld", pname[k], (long long)hgrm_value_at_percentile(d, HIST_NEAREST_RANK, pnum[k], pden[k]));
    printf("\n");
    hgrm_free(d);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "write") == 0)
        return write_log(argv[2]);
    if (argc == 3 && strcmp(argv[1], "read") == 0)
        return read_log(argv[2]);
    if (argc == 4 && strcmp(argv[1], "hgrm") == 0)
        return read_hgrm(argv[2], argv[3]);
    fprintf(stderr, "usage: hlog_tool write OUT | read FILE | hgrm FILE UNIT_NS\n");
    return 2;
}
