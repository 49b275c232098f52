/* Tests of report: the text summary and summary.json of a tiny scenario
 * whose results are made by hand, so every figure is worked out in the
 * comments. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "runfiles.h"
#include "scenario_text.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

/* S = 17 keeps every value below 2^17 ns = 131 us exact, so the
 * percentiles are the recorded values. Tester "a" (closed, one user): 100
 * replies, 98 of 10 us, one of 50 us, one of 100 us; two above the 40 us
 * threshold. Nearest rank over 100: p50 the 50th = 10 us, p90 the 90th =
 * 10 us, p99 the 99th = 50 us, p99.9 and p99.99 the 100th = 100 us; mean
 * (98 x 10 + 50 + 100) / 100 = 11.3 us. The truth: 98 of 10 us and two of
 * 100 us: p50 10 us, p99 the 99th = 100 us, p99.9 100 us; so a's error is
 * 0 at p50, 50 / 100 - 1 = -50% at p99, 0 at p99.9. */
static const char scenario_text[] = "[scenario]\nname = tiny\nduration = 1s\nseed = 3\nthreshold = 40us\n"
                                    "sub_bucket_bits = 17\n[service]\ndistribution = constant\ntime = 10us\n"
                                    "[tester a]\nkind = closed\n[truth]\ninterval = 10ms\nload = a\n";

typedef struct hand_run {
    scenario *s;
    tester_result t;
    run_result r;
} hand_run;

static void make_run(hand_run *x)
{
    memset(x, 0, sizeof *x);
    x->s = load(scenario_text);
    ck_assert_int_eq(hist_new(&x->t.hist, 17), 0);
    hist_record_n(x->t.hist, 10000, 98);
    hist_record(x->t.hist, 50000);
    hist_record(x->t.hist, 100000);
    x->t.planned = x->t.sent = 100;
    x->t.over_threshold = 2;
    x->t.busy_in_run_ns = 1130000; /* 100 x 11.3 us: 0.00113 of the 1 s run */
    x->r.n = 1;
    x->r.testers = &x->t;
    x->r.has_truth = 1;
    ck_assert_int_eq(hist_new(&x->r.truth, 17), 0);
    hist_record_n(x->r.truth, 10000, 98);
    hist_record_n(x->r.truth, 100000, 2);
}

static void free_run(hand_run *x)
{
    hist_free(x->t.hist);
    hist_free(x->r.truth);
    scenario_free(x->s);
}

/* Write with fn into a string (the caller frees it). */
static char *capture(int (*fn)(FILE *, const scenario *, const run_result *), const hand_run *x)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fn(f, x->s, &x->r), 0);
    fclose(f);
    return text;
}

START_TEST(the_text_summary_of_a_tiny_run)
{
    hand_run x;
    make_run(&x);
    char *text = capture(report_text, &x);
    /* the truth's mean: (98 x 10 + 2 x 100) / 100 = 11.8 us */
    ck_assert_str_eq(text, "tiny: 1s, seed 3\n"
                         "  service: constant 10.00 us\n"
                         "  stalls:  no stalls\n"
                         "  percentiles by nearest_rank rank; replies after the end recorded\n"
                         "\n"
                         "tester  kind       planned        sent in flight    recorded > 40.00 us\n"
                         "a       closed         100         100         0         100          2\n"
                         "\n"
                         "tester       mean       p50       p90       p99     p99.9    p99.99       max\n"
                         "a        11.30 us  10.00 us  10.00 us  50.00 us  100.0 us  100.0 us  100.0 us\n"
                         "truth    11.80 us  10.00 us  10.00 us  100.0 us  100.0 us  100.0 us  100.0 us  (users arriving at random, every 10ms on average; load: a)\n"
                         "\n"
                         "vs truth        p50       p99     p99.9   (reported / true - 1)\n"
                         "a           +0.0%    -50.0%     +0.0%\n");
    free(text);
    free_run(&x);
}
END_TEST

START_TEST(summary_json_of_a_tiny_run)
{
    hand_run x;
    make_run(&x);
    char *text = capture(report_json, &x);
    /* the population standard deviation: deviations from 11.3 us of -1.3
     * (98 times), 38.7 and 88.7 us: (98 x 1.69 + 1497.69 + 7867.69) / 100
     * = 95.31 us^2, its root 9.762684 us; busy 1.13 ms of 1 s: 0.0011 */
    /* no label: the name stands in for it */
    ck_assert_str_eq(text, "{\n"
                         "  \"scenario\": \"tiny\",\n"
                         "  \"title\": \"tiny\",\n"
                         "  \"seed\": 3,\n"
                         "  \"rank_rule\": \"nearest_rank\",\n"
                         "  \"duration_ns\": 1000000000,\n"
                         "  \"in_flight_at_end\": \"record\",\n"
                         "  \"sub_bucket_bits\": 17,\n"
                         "  \"service\": \"constant 10.00 us\",\n"
                         "  \"stalls\": \"no stalls\",\n"
                         "  \"testers\": [\n"
                         "    {\n"
                         "      \"name\": \"a\",\n"
                         "      \"label\": \"a\",\n"
                         "      \"kind\": \"closed\",\n"
                         "      \"planned\": 100,\n"
                         "      \"sent\": 100,\n"
                         "      \"recorded\": 100,\n"
                         "      \"in_flight_at_end\": 0,\n"
                         "      \"min_ns\": 10000,\n"
                         "      \"max_ns\": 100000,\n"
                         "      \"mean_ns\": 11300.000,\n"
                         "      \"population_stddev_ns\": 9762.684,\n"
                         "      \"threshold_ns\": 40000,\n"
                         "      \"over_threshold\": 2,\n"
                         "      \"blocked\": 0,\n"
                         "      \"blocked_ns\": 0,\n"
                         "      \"offered_utilisation\": null,\n"
                         "      \"busy_fraction\": 0.0011,\n"
                         "      \"overloaded\": false,\n"
                         "      \"backlog_growing_at_end\": false,\n"
                         "      \"dropped\": 0,\n"
                         "      \"drop_hides_largest\": false,\n"
                         "      \"error_vs_truth\": {\"50\": 0.0000, \"99\": -0.5000, \"99.9\": 0.0000},\n"
                         "      \"percentiles_ns\": {\"50\": 10000, \"90\": 10000, \"95\": 10000, \"99\": 50000, \"99.9\": 100000, \"99.99\": 100000}\n"
                         "    }\n"
                         "  ],\n"
                         "  \"truth\": {\n"
                         "    \"probe_instants\": \"poisson\",\n"
                         "    \"mean_interval_ns\": 10000000,\n"
                         "    \"load\": \"a\",\n"
                         "    \"probes\": 100,\n"
                         "    \"min_ns\": 10000,\n"
                         "    \"max_ns\": 100000,\n"
                         "    \"mean_ns\": 11800.000,\n"
                         "    \"percentiles_ns\": {\"50\": 10000, \"90\": 10000, \"95\": 10000, \"99\": 100000, \"99.9\": 100000, \"99.99\": 100000}\n"
                         "  }\n"
                         "}\n");
    free(text);
    free_run(&x);
}
END_TEST

/* Last lines of report_text's output from the line starting with `from`. */
static const char *from_line(const char *text, const char *from)
{
    const char *p = strstr(text, from);
    ck_assert_msg(p != NULL, "no \"%s\" in:\n%s", from, text);
    return p;
}

/* A cliff: of 10,000 replies tester a has 110 of 5 ms and the rest 100 us,
 * the truth 100 of 5 ms. Nearest rank: p99 is the 9,900th value, a's
 * 5 ms (9,890 < 9,900) and the truth's 100 us: +4900%. But p98.9 (the
 * 9,890th) and p99.1 (the 9,910th) read 100 us and 5 ms for both: a
 * factor of 50 for a tenth of the tail either way, so the note says the
 * figure sits on a cliff; p50 and p99.9 read the same on both sides. */
START_TEST(a_percentile_on_a_cliff_is_noted)
{
    hand_run x;
    make_run(&x);
    hist_reset(x.t.hist);
    hist_record_n(x.t.hist, 100000, 9890);
    hist_record_n(x.t.hist, 5000000, 110);
    hist_reset(x.r.truth);
    hist_record_n(x.r.truth, 100000, 9900);
    hist_record_n(x.r.truth, 5000000, 100);
    x.t.planned = x.t.sent = 10000;
    char *text = capture(report_text, &x);
    ck_assert_str_eq(from_line(text, "vs truth"),
                     "vs truth        p50       p99     p99.9   (reported / true - 1)\n"
                     "a           +0.0%  +4900.0%     +0.0%\n"
                     "note: p99 sits on a cliff in a (p98.9 100.0 us, p99.1 5.000 ms) and truth (p98.9 100.0 us, "
                     "p99.1 5.000 ms): a small change of rank moves it a lot, so its error against the truth "
                     "there says little; compare the spectra\n");
    free(text);
    free_run(&x);
}
END_TEST

/* The resolution note: at S = 8 a reply of 2 ms lies in the bucket
 * 1,998,848 .. 2,007,039 ns (width 2^13 from 2^20 up), so p50 of 99 such
 * replies and one of 300 ms reads 2.007 ms (the 1 us digit is finer than
 * the 8.192 us bucket); buckets are at most 2^-7 = 0.781% wide. The max,
 * exact, prints 300.0 ms. */
START_TEST(a_bucket_edge_coarser_than_the_digits_is_noted)
{
    hand_run x;
    make_run(&x);
    x.s->sub_bits = 8;
    hist_free(x.t.hist);
    ck_assert_int_eq(hist_new(&x.t.hist, 8), 0);
    hist_record_n(x.t.hist, 2000000, 99);
    hist_record(x.t.hist, 300000000);
    x.r.has_truth = 0;
    char *text = capture(report_text, &x);
    ck_assert_str_eq(from_line(text, "tester       mean"),
                     "tester       mean       p50       p90       p99     p99.9    p99.99       max\n"
                     "a        4.980 ms  2.007 ms  2.007 ms  2.007 ms  300.0 ms  300.0 ms  300.0 ms\n"
                     "\n"
                     "note: a percentile is its histogram bucket's upper edge (sub_bucket_bits = 8: buckets up "
                     "to 0.781% wide), so it may read up to that much above the recorded values: a's p50 reads "
                     "2.007 ms for a bucket from 1.999 ms; raise sub_bucket_bits for exact digits\n");
    free(text);
    free_run(&x);
}
END_TEST

/* The files a run writes (runfiles[]), walked as cli/outputs.c and the
 * lecture walk them: two testers a and b give summary.json, summary.md,
 * summary.csv, a.hgrm, b.hgrm; with hlog_interval also a.hlog and b.hlog;
 * the lecture's rows are summary.md and summary.csv, named STEM.NAME. */
START_TEST(the_files_of_a_run_are_rows)
{
    const char *text = "[scenario]\nname = two\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester a]\nkind = closed\n[tester b]\nkind = open\nrate = 10/s\n";
    for (int with_hlog = 0; with_hlog < 2; with_hlog++) {
        scenario *s = load(with_hlog ? "[scenario]\nname = two\nduration = 1s\nhlog_interval = 100ms\n"
                                       "[service]\ndistribution = constant\ntime = 1ms\n"
                                       "[tester a]\nkind = closed\n[tester b]\nkind = open\nrate = 10/s\n"
                                     : text);
        run_result r;
        char err[256];
        ck_assert_int_eq(run_scenario_observed(s, NULL, NULL, &r, err, sizeof err), 0); /* as the CLI runs */
        char all[512] = "", lecture[256] = "", name[128];
        for (size_t k = 0; k < runfiles_n; k++)
            for (size_t i = 0; i < runfiles_count(k, s, &r); i++) {
                ck_assert_int_eq(runfiles_name(k, i, s, "", name, sizeof name), 0);
                strcat(all, name);
                strcat(all, " ");
                if (runfiles[k].flags & RUNFILE_LECTURE) {
                    ck_assert_int_eq(runfiles_name(k, i, s, "two.", name, sizeof name), 0);
                    strcat(lecture, name);
                    strcat(lecture, " ");
                }
                char *out = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&out, &len);
                ck_assert_int_eq(runfiles[k].write(f, s, &r, i), 0);
                fclose(f);
                ck_assert_uint_gt(len, 0);
                free(out);
            }
        ck_assert_str_eq(all, with_hlog ? "summary.json summary.md summary.csv a.hgrm b.hgrm a.hlog b.hlog "
                                        : "summary.json summary.md summary.csv a.hgrm b.hgrm ");
        ck_assert_str_eq(lecture, "two.summary.md two.summary.csv ");
        ck_assert_int_eq(runfiles_name(0, 0, s, "a-prefix-too-long-for-the-buffer.", name, 8), -ENAMETOOLONG);
        run_result_free(&r);
        scenario_free(s);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, the_text_summary_of_a_tiny_run);
    tcase_add_test(tc, the_files_of_a_run_are_rows);
    tcase_add_test(tc, summary_json_of_a_tiny_run);
    tcase_add_test(tc, a_percentile_on_a_cliff_is_noted);
    tcase_add_test(tc, a_bucket_edge_coarser_than_the_digits_is_noted);
    suite_add_tcase(s, tc);
    return s;
}
