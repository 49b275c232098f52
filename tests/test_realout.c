/* test_realout.c - the real tools' outputs read into figures
 * (cli/realout.c). The files in tests/data/realtools/ are what the tools
 * wrote against `cosim target` (a 1 ms server stopping 200 ms at 0.2 s,
 * except wrk-c1.txt: 100 us, 500 ms every 5 s); each expected value is
 * worked from the file by hand in the comment. */
#define _POSIX_C_SOURCE 200809L
#include "realout.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

#define MS 1000000LL
#define US 1000LL

static char err[1024];

static realout read_data(const char *name, hist_rank_rule rule)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/realtools/%s", root ? root : ".", name);
    realout o;
    ck_assert_msg(realout_read(&o, path, 100 * MS, rule, MS, err, sizeof err) == 0, "%s", err);
    return o;
}

#define HAS(o, f) (((o).have >> (f)) & 1u)

START_TEST(hey_csv_every_figure)
{
    /* 40 rows; response times (s, 4 decimals): 0.0020 once, 0.0012 and
     * 0.0011 the rest: sum 47.4 ms, mean 1.185 ms; nearest rank p50 =
     * rank 20, p90 = rank 36 (1.2 ms), p99 = rank 40 (2.0 ms) */
    realout o = read_data("hey.csv", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "hey -o csv");
    ck_assert_uint_eq(o.count, 40);
    ck_assert_int_eq(o.fig_ns[RO_MEAN], 1185 * US);
    ck_assert_int_eq(o.fig_ns[RO_P50], 1200 * US);
    ck_assert_int_eq(o.fig_ns[RO_P90], 1200 * US);
    ck_assert_int_eq(o.fig_ns[RO_P99], 2 * MS);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 2 * MS);
    ck_assert_uint_eq(o.over, 0);
    ck_assert_uint_eq(o.have, (1u << RO_N_FIGURES) - 1);
    realout_free(&o);
}
END_TEST

START_TEST(ab_g_ttime_and_rank_rules)
{
    /* 18 ttimes (ms): 1 x 8, 2 x 3, 3, 4, 4, 5, 8, 13, 201: sum 252, mean
     * 14 ms. Nearest rank: p50 rank 9 = 2, p90 rank ceil(16.2) = 17 = 13,
     * p99 rank 18 = 201. ab's own rule (sorted_index, floor(p n) + 1):
     * p50 rank 10 = 2, p90 rank 17 = 13. One over 100 ms. */
    realout o = read_data("ab-g.tsv", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "ab -g");
    ck_assert_uint_eq(o.count, 18);
    ck_assert_int_eq(o.fig_ns[RO_MEAN], 14 * MS);
    ck_assert_int_eq(o.fig_ns[RO_P50], 2 * MS);
    ck_assert_int_eq(o.fig_ns[RO_P90], 13 * MS);
    ck_assert_int_eq(o.fig_ns[RO_P99], 201 * MS);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 201 * MS);
    ck_assert_uint_eq(o.over, 1);
    ck_assert_int_eq(o.resolution_ns, MS);
    realout_free(&o);
    o = read_data("ab-g.tsv", HIST_SORTED_INDEX);
    ck_assert_int_eq(o.fig_ns[RO_P50], 2 * MS);
    ck_assert_int_eq(o.fig_ns[RO_P90], 13 * MS);
    realout_free(&o);
}
END_TEST

START_TEST(ab_e_rows)
{
    /* rows 50,1.075 90,1.110 99,8.286 100,201.162; no count, no mean */
    realout o = read_data("ab-e.csv", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "ab -e");
    ck_assert_int_eq(o.fig_ns[RO_P50], 1075 * US);
    ck_assert_int_eq(o.fig_ns[RO_P90], 1110 * US);
    ck_assert_int_eq(o.fig_ns[RO_P99], 8286 * US);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 201162 * US);
    ck_assert(!HAS(o, RO_COUNT) && !HAS(o, RO_MEAN) && !HAS(o, RO_P999) && !HAS(o, RO_OVER));
    realout_free(&o);
}
END_TEST

START_TEST(wrk_latency_text)
{
    /* "Latency 17.05ms 71.30ms 504.05ms", "50% 144.00us", "90% 5.08ms",
     * "99% 423.36ms", "41499 requests in 11.09s" */
    realout o = read_data("wrk-c1.txt", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "wrk --latency");
    ck_assert_uint_eq(o.count, 41499);
    ck_assert_int_eq(o.fig_ns[RO_MEAN], 17050 * US);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 504050 * US);
    ck_assert_int_eq(o.fig_ns[RO_P50], 144 * US);
    ck_assert_int_eq(o.fig_ns[RO_P90], 5080 * US);
    ck_assert_int_eq(o.fig_ns[RO_P99], 423360 * US);
    ck_assert(!HAS(o, RO_P999) && !HAS(o, RO_OVER));
    realout_free(&o);
}
END_TEST

START_TEST(httperf_summary_and_bins)
{
    /* 60 replies; avg 42.5, max 201.2 ms from the summary line; the -v -v
     * bins (middles, ms) cumulate 5, 8, 9, 12, 14, 19, 20, 29 (8.5), 32
     * (9.5), ... 47 (88.5), 48 (101.5), 49, 51, 52, 53, 54 (127.5), 55, 57,
     * 59, 60 (201.5): nearest rank p50 = rank 30 = 9.5 ms (httperf's own
     * median), p90 = rank 54 = 127.5 ms, p99 = rank 60 = 201.5 ms; 13 bins'
     * values from 101.5 ms on are over 100 ms */
    realout o = read_data("httperf-vv.txt", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "httperf");
    ck_assert_uint_eq(o.count, 60);
    ck_assert_int_eq(o.fig_ns[RO_MEAN], 42500 * US);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 201200 * US);
    ck_assert_int_eq(o.fig_ns[RO_P50], 9500 * US);
    ck_assert_int_eq(o.fig_ns[RO_P90], 127500 * US);
    ck_assert_int_eq(o.fig_ns[RO_P99], 201500 * US);
    ck_assert_uint_eq(o.over, 13);
    realout_free(&o);
}
END_TEST

START_TEST(k6_summary_export)
{
    /* written in k6's --summary-export shape by hand: the plain
     * http_req_duration (not the {expected_response:true} one before it):
     * avg 12.345678 ms, med 1.25, p(90) 3.5, p(99) 480.0005, max 501.75;
     * http_reqs count 1234; no p(99.9), no count over the threshold */
    realout o = read_data("k6-summary.json", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "k6 --summary-export");
    ck_assert_uint_eq(o.count, 1234);
    ck_assert_int_eq(o.fig_ns[RO_MEAN], 12345678);
    ck_assert_int_eq(o.fig_ns[RO_P50], 1250 * US);
    ck_assert_int_eq(o.fig_ns[RO_P90], 3500 * US);
    ck_assert_int_eq(o.fig_ns[RO_P99], 480000500);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 501750 * US);
    ck_assert(!HAS(o, RO_P999) && !HAS(o, RO_OVER));
    realout_free(&o);
}
END_TEST

START_TEST(hlog_every_interval)
{
    /* tests/data/gclog/jhiccup.hlog (written by HdrHistogram's Java, see
     * test_hlog.c): 4 intervals of 1,010 values (1,000 at 30 us, in the
     * bucket [16384, 32767] ns) and 73 of a ladder up to 45,088,767 ns:
     * 4,113 values, max 45,088,767; p50 and p90 (ranks 2,057 and 3,702 of
     * the 4,000 at 30 us) read the bucket's upper edge, 32,767 ns */
    const char *root = getenv("COSIM_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/gclog/jhiccup.hlog", root ? root : ".");
    realout o;
    ck_assert_msg(realout_read(&o, path, 100 * MS, HIST_NEAREST_RANK, 1, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(o.format, ".hlog interval log");
    ck_assert_uint_eq(o.count, 4113);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 45088767);
    ck_assert_int_eq(o.fig_ns[RO_P50], 32767);
    ck_assert_int_eq(o.fig_ns[RO_P90], 32767);
    realout_free(&o);
}
END_TEST

START_TEST(malformed_names_file_and_line)
{
    realout o;
    const char bad_hey[] = "response-time,DNS+dialup\n0.0010,0.0\nabc,0.0\n";
    ck_assert_int_eq(realout_parse(&o, "h.csv", bad_hey, strlen(bad_hey), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "h.csv:3: expected hey's 'response-time,...' row, seconds first");
    realout_free(&o);
    const char other[] = "hello\n";
    ck_assert_int_eq(realout_parse(&o, "x.txt", other, strlen(other), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "x.txt:1: not a tool output cosim reads: expected hey -o csv, ab -g or -e, wrk --latency, "
                          "httperf's summary, k6 --summary-export JSON, an HdrHistogram .hgrm spectrum or .hlog");
    const char bad_k6[] = "{\n \"metrics\": {\n  \"http_req_duration\": {\n   \"avg\": 1.5e-3,\n   \"max\": 2\n  }\n }\n}\n";
    ck_assert_int_eq(realout_parse(&o, "k.json", bad_k6, strlen(bad_k6), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "k.json:4: expected a decimal number of ms for avg");
    const char no_latency[] = "Running 1s test @ http://x/\n  Thread Stats   Avg  Stdev  Max  +/- Stdev\n"
                              "    Latency   1.00ms  0.10ms  2.00ms  90.00%\n  1000 requests in 1.00s, 1MB read\n";
    ck_assert_int_eq(realout_parse(&o, "w.txt", no_latency, strlen(no_latency), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "w.txt: expected wrk's Latency Distribution (run wrk with --latency)");
    const char bad_wrk[] = "  Thread Stats   Avg  Stdev  Max  +/- Stdev\n    Latency   1.00ms  0.10ms  2.00xs  90.00%\n";
    ck_assert_int_eq(realout_parse(&o, "w.txt", bad_wrk, strlen(bad_wrk), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "w.txt:2: expected wrk's 'Latency AVG STDEV MAX +/-STDEV' line");
    /* httperf's histogram, damaged (an attacker's): a bin's count past the
     * replies was expanded value by value (1.2 GB for a 230-byte file), a
     * bin past the longest duration overflowed to a negative percentile */
    const char hp_count[] = "Connection lifetime histogram (time in ms):\n      1.5 99999999\n\n"
                            "Total: connections 60 requests 60 replies 60 test-duration 0.650 s\n"
                            "Connection time [ms]: min 1.1 avg 42.5 max 201.2 median 9.5 stddev 58.3\n";
    ck_assert_int_eq(realout_parse(&o, "h.txt", hp_count, strlen(hp_count), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "h.txt:2: more than 60 connections in the histogram (the replies, or at most 100000000): "
                          "expected httperf's counts");
    realout_free(&o);
    const char hp_bin[] = "Connection lifetime histogram (time in ms):\n 922337203685477.5 1\n\n"
                          "Total: connections 60 requests 60 replies 60 test-duration 0.650 s\n"
                          "Connection time [ms]: min 1.1 avg 42.5 max 201.2 median 9.5 stddev 58.3\n";
    ck_assert_int_eq(realout_parse(&o, "h.txt", hp_bin, strlen(hp_bin), 100 * MS, HIST_NEAREST_RANK, MS, err,
                                   sizeof err), -EINVAL);
    ck_assert_str_eq(err, "h.txt:2: a histogram bin past 1000000000 ms: expected httperf's 1 ms bins");
    realout_free(&o);
}
END_TEST

/* wrk-c1-histogram.txt: a real wrk -c1 run with
 * scenarios/tools/wrk-histogram.lua (a loaded machine, no stall). Its
 * figures come from the whole corrected histogram: 12,457 values (wrk's
 * correction added 2,065 to the 10,392 requests), the count wrk's
 * requests. wrk's own percentile rank, round(p/100 n + 0.5)
 * (src/stats.c stats_percentile), is the nearest rank ceil(p n) for these
 * n and levels (p50: 6229 both; p90: 11212; p99: 12333), so the figures
 * must be what wrk printed from the same histogram: 151.00us, 2.18ms,
 * 7.96ms (printed to 10 us), and its max 21.99ms. */
START_TEST(wrk_whole_histogram)
{
    realout o = read_data("wrk-c1-histogram.txt", HIST_NEAREST_RANK);
    ck_assert_str_eq(o.format, "wrk --latency with its histogram");
    ck_assert_uint_eq(o.n, 12457);
    ck_assert_uint_eq(o.count, 10392);
    ck_assert_int_eq(o.fig_ns[RO_P50], 151 * US);
    ck_assert_int_ge(o.fig_ns[RO_P90], 2175 * US);
    ck_assert_int_lt(o.fig_ns[RO_P90], 2185 * US);
    ck_assert_int_ge(o.fig_ns[RO_P99], 7955 * US);
    ck_assert_int_lt(o.fig_ns[RO_P99], 7965 * US);
    ck_assert_int_eq(o.fig_ns[RO_MAX], 21990 * US);
    ck_assert_uint_eq(o.over, 0);
    ck_assert_uint_eq(o.have, (1u << RO_N_FIGURES) - 1);
    realout_free(&o);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("realout");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, hey_csv_every_figure);
    tcase_add_test(tc, ab_g_ttime_and_rank_rules);
    tcase_add_test(tc, ab_e_rows);
    tcase_add_test(tc, wrk_latency_text);
    tcase_add_test(tc, httperf_summary_and_bins);
    tcase_add_test(tc, k6_summary_export);
    tcase_add_test(tc, hlog_every_interval);
    tcase_add_test(tc, malformed_names_file_and_line);
    tcase_add_test(tc, wrk_whole_histogram);
    suite_add_tcase(s, tc);
    return s;
}
