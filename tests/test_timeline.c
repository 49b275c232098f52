/* Tests of timeline: the request bars' rows, never-sent slots and the
 * correction's synthetic samples, the backlog, and the default windows,
 * with figures worked by hand below. */
#define _GNU_SOURCE
#include "timeline.h"
#include "scenario.h"
#include "scenario_text.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

#define MS 1000000LL

/* A paced (or corrected) tester, one user, one request every 10 ms
 * (late = next_slot), against a 100 ms stall from 30 ms to 130 ms, with a
 * 1 ms service; the window is [0, 200 ms), whose grid has slots 0..19.
 * By hand: the requests of slots 0, 1, 2 (0, 10, 20 ms) take 1 ms; slot 3
 * (30 ms) meets the stall and is answered at 131 ms (latency 101 ms); the
 * next slot at or after 131 ms is slot 14 (140 ms), then 15 .. 19 follow
 * on time. Sent: slots 0-3 and 14-19, 10 requests; never sent: slots 4-13
 * (40 .. 130 ms), 10 slots. The correction (HdrHistogram's rule, D = 10 ms)
 * adds floor(101 / 10) - 1 = 9 samples to the 101 ms reply: 91, 81, ..,
 * 11 ms, as if sent at 40, 50, .., 120 ms (all in the window). */
static void feed(timeline *t, size_t tester)
{
    static const int64_t slots[] = {0, 1, 2, 3, 14, 15, 16, 17, 18, 19};
    for (uint64_t k = 0; k < 10; k++) {
        int64_t at = slots[k] * 10 * MS;
        int64_t reply = slots[k] == 3 ? 131 * MS : at + MS;
        tester_request rq = {k, 0, at, at, slots[k] == 3 ? 130 * MS : at, reply, reply - at, 1, 0};
        { tester_gate g = {0, 0, 0, 0}; timeline_observe(t, tester, &rq, &g); }
    }
}

static tester_spec spec_of(tester_kind kind)
{
    tester_spec s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.users = 1;
    s.interval = (units_interval){10 * MS, 1};
    s.late = TESTER_LATE_NEXT_SLOT;
    s.correction = HIST_CORRECT_HDR;
    return s;
}

/* Rows of kind `kind` in block `block` of a bars file (blocks start at
 * "# tester"), and the sum of their row column. */
static size_t rows_of_kind(const char *text, int block, int kind, unsigned long long *row_sum)
{
    size_t n = 0;
    int b = -1;
    *row_sum = 0;
    char *copy = strdup(text), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "# tester", 8) == 0)
            b++;
        if (line[0] == '#' || b != block)
            continue;
        double a;
        unsigned long long row;
        int k;
        char sa[32], sr[32];
        if (sscanf(line, "%lf %31s %31s %llu %d", &a, sa, sr, &row, &k) == 5 && k == kind) {
            n++;
            *row_sum += row;
        }
    }
    free(copy);
    return n;
}

START_TEST(paced_never_sent_and_corrected_synthetic_by_hand)
{
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 2, 0, 200 * MS, 300), 0);
    tester_spec paced = spec_of(TESTER_PACED), corrected = spec_of(TESTER_CORRECTED);
    ck_assert_int_eq(timeline_set_tester(t, 0, &paced, 1000 * MS), 0);
    ck_assert_int_eq(timeline_set_tester(t, 1, &corrected, 1000 * MS), 0);
    feed(t, 0);
    feed(t, 1);
    ck_assert_uint_eq(timeline_bars(t, 0), 10);
    ck_assert_uint_eq(timeline_never_sent(t, 0), 10);
    ck_assert_uint_eq(timeline_never_sent(t, 1), 10);
    uint64_t kept;
    ck_assert_uint_eq(timeline_synthetic(t, 0, &kept), 0);
    ck_assert_uint_eq(timeline_synthetic(t, 1, &kept), 9);
    ck_assert_uint_eq(kept, 9);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *names[] = {"paced", "corrected"};
    ck_assert_int_eq(timeline_write_bars(t, f, names, 60), 0);
    fclose(f);
    unsigned long long sum;
    /* rows are slots: 0+1+2+3+14+..+19 = 6 + 99 = 105 */
    ck_assert_uint_eq(rows_of_kind(buf, 0, TIMELINE_SENT, &sum), 10);
    ck_assert_uint_eq(sum, 105);
    /* never sent: slots 4..13, sum 85 */
    ck_assert_uint_eq(rows_of_kind(buf, 0, TIMELINE_NEVER_SENT, &sum), 10);
    ck_assert_uint_eq(sum, 85);
    ck_assert_uint_eq(rows_of_kind(buf, 0, TIMELINE_SYNTHETIC, &sum), 0);
    /* synthetic at 40 .. 120 ms: slots 4..12, sum 72 */
    ck_assert_uint_eq(rows_of_kind(buf, 1, TIMELINE_SYNTHETIC, &sum), 9);
    ck_assert_uint_eq(sum, 72);
    ck_assert_ptr_nonnull(strstr(buf, "0.040000000 nan 0.131000000 4 1 0.040000000 nan\n")); /* 91 ms, from 40 ms */
    free(buf);
    timeline_free(t);
}
END_TEST

START_TEST(book_rule_adds_one_fewer_on_a_whole_multiple)
{
    /* a reply of exactly 100 ms at D = 10 ms: HdrHistogram adds
     * floor(100/10) - 1 = 9, the book's rule (value > D) 8 */
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 1, 0, 200 * MS, 300), 0);
    tester_spec c = spec_of(TESTER_CORRECTED);
    c.correction = HIST_CORRECT_BOOK;
    ck_assert_int_eq(timeline_set_tester(t, 0, &c, 1000 * MS), 0);
    tester_request rq = {0, 0, 0, 0, 0, 100 * MS, 100 * MS, 1, 0};
    { tester_gate g = {0, 0, 0, 0}; timeline_observe(t, 0, &rq, &g); }
    ck_assert_uint_eq(timeline_synthetic(t, 0, NULL), 8);
    timeline_free(t);
}
END_TEST

START_TEST(open_rows_are_the_index_and_the_backlog_counts_the_queue)
{
    /* an open tester every 10 ms from 0: requests 0..19 in [0, 200 ms);
     * the stall holds 3..12 (30 .. 120 ms) until 131 ms, answered 1 ms
     * apart from 131 ms: request 3+j at 131 + j ms. Backlog: 10 requests
     * at 120 ms (3..12 sent, none answered), 0 after 140 ms.
     * The backlog's bins: 200 bins of 1 ms, 20 requests seen, so 20 bins
     * (at least 20; two requests a bin would be 10) of 10 ms, each the
     * most requests at the server in it: [120, 130 ms) 10 (after send 12:
     * 3..12); [130, 140) 11 (after send 13; 3 is answered at 131 ms);
     * [140, 150) 2 (12 answered at 140 ms, then 14 sent at 140: 13, 14);
     * [190, 200) 1 (19 alone), and the end row repeats it. Before the
     * stall, [10, 20 ms) holds 1, not 1 then 0 (no comb). */
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 1, 0, 200 * MS, 200), 0);
    for (uint64_t k = 0; k < 20; k++) {
        int64_t at = (int64_t)k * 10 * MS;
        int64_t reply = k >= 3 && k <= 12 ? (131 + (int64_t)k - 3) * MS : at + MS;
        int64_t work = at;
        if (k == 13) {
            reply = 141 * MS; /* queued behind 12, which ends at 140 ms */
            work = 140 * MS;  /* its 1 ms of service starts then */
        }
        tester_request rq = {k, 0, at, at, work, reply, reply - at, 1, 0};
        { tester_gate g = {0, 0, 0, 0}; timeline_observe(t, 0, &rq, &g); }
    }
    ck_assert_uint_eq(timeline_never_sent(t, 0), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *names[] = {"open"};
    ck_assert_int_eq(timeline_write_bars(t, f, names, 60), 0);
    fclose(f);
    /* row 9 = request 9; its latency starts at its intended send (open) */
    ck_assert_ptr_nonnull(strstr(buf, "0.090000000 0.090000000 0.137000000 9 0 0.090000000 0.090000000\n"));
    /* the last column, its service's start: request 13 sent at 130 ms
     * waited 10 ms for 12 to finish, served from 140 ms to 141 ms */
    ck_assert_ptr_nonnull(strstr(buf, "0.130000000 0.130000000 0.141000000 13 0 0.130000000 0.140000000\n"));
    ck_assert_int_eq(timeline_from_sent(t, 0), 0);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(timeline_write_points(t, f, names), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "# backlog open: the most requests at the server in each bin of 0.010000 s\n"));
    ck_assert_ptr_nonnull(strstr(buf, "0.010000000 1\n"));
    ck_assert_ptr_nonnull(strstr(buf, "0.120000000 10\n")); /* 3..12 sent, none answered */
    ck_assert_ptr_nonnull(strstr(buf, "0.130000000 11\n"));
    ck_assert_ptr_nonnull(strstr(buf, "0.140000000 2\n"));
    ck_assert_ptr_nonnull(strstr(buf, "0.190000000 1\n0.200000000 1\n"));
    free(buf);
    timeline_free(t);
}
END_TEST

START_TEST(a_tester_with_nothing_recorded_keeps_its_block)
{
    /* two open testers, a request every 50 ms from 0 in [0, 200 ms): 0, 50,
     * 100, 150 ms, 1 ms each. The first records none (a warm-up over the
     * window), the second all four. The first's block must hold a row (a
     * block of comments alone is no block to gnuplot: the second's rows
     * were read as the first's), one "nan nan nan"; the second's its four
     * requests at 1 ms. */
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 2, 0, 200 * MS, 100), 0);
    for (size_t i = 0; i < 2; i++)
        for (uint64_t k = 0; k < 4; k++) {
            int64_t at = (int64_t)k * 50 * MS;
            tester_request rq = {k, 0, at, at, at, at + MS, MS, i == 1, 0};
            tester_gate g = {0, 0, 0, 0};
            timeline_observe(t, i, &rq, &g);
        }
    ck_assert_uint_eq(timeline_points(t, 0), 0);
    ck_assert_uint_eq(timeline_points(t, 1), 4);
    ck_assert_uint_eq(timeline_seen(t, 0), 4);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *names[] = {"warm", "kept"};
    ck_assert_int_eq(timeline_write_points(t, f, names), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "# tester warm\nnan nan nan\n\n\n# tester kept\n0.000000000 1.000000 0\n"
                                      "0.050000000 1.000000 0\n0.100000000 1.000000 0\n0.150000000 1.000000 0\n"));
    free(buf);
    timeline_free(t);
}
END_TEST

START_TEST(backlog_bins_are_round)
{
    /* a 1 s window in at most 37 points: the timeline's bins are
     * ceil(10^9 / 37) = 27027028 ns, the backlog's grid the next 1, 2 or
     * 5 x 10^k ns, 50 ms (20 bins). 10 requests seen: 20 bins wanted (at
     * least 20; two a bin would be 5), one grid bin each: 50 ms, where the
     * timeline's own bins, ceil(37 / 20) = 2 of them, gave 54.054056 ms.
     * Open every 100 ms from 0, each 1 ms, but request 5 (at 500 ms)
     * answered at 720 ms: [500, 550) holds 1 and [550, 600) 1 (5 alone),
     * [600, 650) 2 (5, 6 just after 6's send), [650, 700) 1 (6 answered
     * at 601), [700, 750) 2 (7 sent at 700, 5 answered at 720), [750,
     * 800) 0 (7 answered at 701). */
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 1, 0, 1000 * MS, 37), 0);
    for (uint64_t k = 0; k < 10; k++) {
        int64_t at = (int64_t)k * 100 * MS;
        int64_t reply = k == 5 ? 720 * MS : at + MS;
        tester_request rq = {k, 0, at, at, at, reply, reply - at, 1, 0};
        { tester_gate g = {0, 0, 0, 0}; timeline_observe(t, 0, &rq, &g); }
    }
    ck_assert_int_eq(timeline_backlog_bin_ns(t), 50 * MS);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *names[] = {"open"};
    ck_assert_int_eq(timeline_write_points(t, f, names), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "# backlog open: the most requests at the server in each bin of 0.050000 s\n"));
    ck_assert_ptr_nonnull(strstr(buf, "0.500000000 1\n0.550000000 1\n0.600000000 2\n0.650000000 1\n"
                                      "0.700000000 2\n0.750000000 0\n"));
    free(buf);
    timeline_free(t);
}
END_TEST

START_TEST(thinning_keeps_every_kth_and_the_slow_one)
{
    /* 300 closed requests back to back, 1 ms each but request 151's 50 ms:
     * with at most 60 drawn, every 5th (rows 0, 5, .., 295: 60) and the
     * slow one (row 151, over 5 times the fastest): 61 rows. */
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 1, 0, 1000 * MS, 400), 0);
    int64_t at = 0;
    for (uint64_t k = 0; k < 300; k++) {
        int64_t lat = k == 151 ? 50 * MS : MS;
        tester_request rq = {k, 0, at, at, at, at + lat, lat, 1, 0};
        { tester_gate g = {0, 0, 0, 0}; timeline_observe(t, 0, &rq, &g); }
        at += lat;
    }
    ck_assert_uint_eq(timeline_bars_every(t, 0, 60), 5);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *names[] = {"closed"};
    ck_assert_int_eq(timeline_write_bars(t, f, names, 60), 0);
    fclose(f);
    unsigned long long sum;
    ck_assert_uint_eq(rows_of_kind(buf, 0, TIMELINE_SENT, &sum), 61); /* 60 + row 151, the slow one */
    ck_assert_ptr_nonnull(strstr(buf, " 151 0 "));
    free(buf);
    timeline_free(t);
}
END_TEST

/* The default windows draw the longest stall, not the first:
 * scenarios/gc_log.ini's G1 log pauses 11.254 ms from 0.900746 s first,
 * and its Full GC for 452.667 ms ending at 7.503 s, so from
 * 7.503 - 0.452667 = 7.050333 s. D = 10 ms (the open loop's 100/s; the
 * closed loop has no rate), so every pause starts after 8 D = 80 ms; the
 * Full GC is the longest. rho = 1 ms x 100/s = 0.1, the drain
 * R = 452.667 x 0.1 / 0.9 = 50.296333 ms, the queue empty at
 * 7.503 + 0.050296333 = 7.553296333 s.
 *  bars: 7.050333 - 0.080 = 6.970333 s to
 *    max(6.970333 + 40 D = 7.370333, 7.553296333 + 8 D = 7.633296333) s
 *    (the end is a double truncated to ns: +-1 ns);
 *  timeline: 7.050333 - max(L, 50 D = 0.5 s) = 6.550333 s to
 *    7.503 + max(3 L = 1.358001, 150 D = 1.5, 1.5 R) = 9.003 s
 *    (2.452667 s wide, under 2500 D = 25 s). */
START_TEST(default_window_is_the_longest_stall)
{
    char path[1024], err[1024];
    const char *root = getenv("COSIM_SOURCE_ROOT");
    snprintf(path, sizeof path, "%s/scenarios/gc_log.ini", root ? root : ".");
    scenario *s;
    ck_assert_msg(scenario_load(&s, path, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    int64_t tl_from, tl_to, bars_from, bars_to;
    ck_assert_int_eq(timeline_default_windows(s, &tl_from, &tl_to, &bars_from, &bars_to), 0);
    ck_assert_int_eq(bars_from, 6970333000LL);
    ck_assert_int_ge(bars_to, 7633296333LL - 1);
    ck_assert_int_le(bars_to, 7633296333LL + 1);
    ck_assert_int_eq(tl_from, 6550333000LL);
    ck_assert_int_eq(tl_to, 9003000000LL);
    scenario_free(s);
}
END_TEST

/* The drain after a stall is worked per worker (M/G/c with a vacation):
 * 1000/s of a constant 2 ms on 8 workers is rho = 1000 x 0.002 / 8 =
 * 0.25, so the 200 ms stall at 5 s leaves a queue that drains in
 * L rho / (1 - rho) = 200 / 3 = 66.666667 ms: stop = 5.266666667 s.
 * d = 1 ms (1 / rate). Bars: from 5 s - 8 d = 4.992 s to
 * max(4.992 s + 40 d, stop + 8 d) = 5.274666666 s (cut to whole ns).
 * Timeline: from 5 s - max(L, 50 d) = 4.8 s to 5.2 s + max(3 L, 150 d,
 * 1.5 drain) = 5.8 s. Before, rho was taken for one worker (2.0, never
 * drains: 20 L) and the window ran 4.8 s .. 9.4 s, the stall a sliver. */
START_TEST(default_window_drains_over_every_worker)
{
    scenario *s = load("[scenario]\nduration = 20s\n[service]\ndistribution = constant\ntime = 2ms\n"
                       "workers = 8\n[stall gc]\nkind = periodic\nperiod = 10s\nlength = 200ms\n"
                       "first = 5s\n[tester t]\nkind = open\nrate = 1000/s\n");
    ck_assert_double_eq_tol(scenario_utilisation(s, 0), 0.25, 1e-12);
    int64_t tl_from, tl_to, bars_from, bars_to;
    ck_assert_int_eq(timeline_default_windows(s, &tl_from, &tl_to, &bars_from, &bars_to), 0);
    ck_assert_int_eq(bars_from, 4992000000LL);
    ck_assert_int_eq(bars_to, 5274666666LL);
    ck_assert_int_eq(tl_from, 4800000000LL);
    ck_assert_int_eq(tl_to, 5800000000LL);
    scenario_free(s);
}
END_TEST

/* Without a stall the windows start at the run's middle, rounded down to
 * a multiple of their round width (1, 2 or 5 x 10^k ns).
 *  - open 800/s for 2 s: D = 1.25 ms; bars 40 D = 50 ms (round already):
 *    1 s .. 1.05 s; timeline 2000 D = 2.5 s, over the run: 0 .. 2 s.
 *  - open 30/s for 100 s: D = 33.333 ms; bars 40 D = 1.333 s -> 2 s,
 *    50 s / 2 s = 25: 50 s .. 52 s; timeline 2000 D = 66.67 s -> 100 s,
 *    the whole run.
 *  - 100000 closed users on one 1 ms worker for 1 s: users alone give
 *    D = 1 ms / 100000 = 10 ns (a 400 ns window: 499.9998ms..500.0002ms,
 *    one request or none); replies pace them, so D = 1 ms: bars 40 ms ->
 *    50 ms: 500 ms .. 550 ms; timeline 2 s: the whole run. */
START_TEST(default_window_without_stalls_is_round)
{
    int64_t tl_from, tl_to, bars_from, bars_to;
    scenario *s = load("[scenario]\nduration = 2s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester t]\nkind = open\nrate = 800/s\n");
    ck_assert_int_eq(timeline_default_windows(s, &tl_from, &tl_to, &bars_from, &bars_to), 0);
    ck_assert_int_eq(bars_from, 1000000000LL);
    ck_assert_int_eq(bars_to, 1050000000LL);
    ck_assert_int_eq(tl_from, 0);
    ck_assert_int_eq(tl_to, 2000000000LL);
    scenario_free(s);
    s = load("[scenario]\nduration = 100s\n[service]\ndistribution = constant\ntime = 1ms\n"
             "[tester t]\nkind = open\nrate = 30/s\n");
    ck_assert_int_eq(timeline_default_windows(s, &tl_from, &tl_to, &bars_from, &bars_to), 0);
    ck_assert_int_eq(bars_from, 50000000000LL);
    ck_assert_int_eq(bars_to, 52000000000LL);
    ck_assert_int_eq(tl_from, 0);
    ck_assert_int_eq(tl_to, 100000000000LL);
    scenario_free(s);
    s = load("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"
             "[tester c]\nkind = closed\nusers = 100000\n");
    ck_assert_int_eq(timeline_default_windows(s, &tl_from, &tl_to, &bars_from, &bars_to), 0);
    ck_assert_int_eq(bars_from, 500000000LL);
    ck_assert_int_eq(bars_to, 550000000LL);
    ck_assert_int_eq(tl_from, 0);
    ck_assert_int_eq(tl_to, 1000000000LL);
    scenario_free(s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, paced_never_sent_and_corrected_synthetic_by_hand);
    tcase_add_test(tc, book_rule_adds_one_fewer_on_a_whole_multiple);
    tcase_add_test(tc, open_rows_are_the_index_and_the_backlog_counts_the_queue);
    tcase_add_test(tc, backlog_bins_are_round);
    tcase_add_test(tc, a_tester_with_nothing_recorded_keeps_its_block);
    tcase_add_test(tc, thinning_keeps_every_kth_and_the_slow_one);
    tcase_add_test(tc, default_window_is_the_longest_stall);
    tcase_add_test(tc, default_window_drains_over_every_worker);
    tcase_add_test(tc, default_window_without_stalls_is_round);
    suite_add_tcase(s, tc);
    return s;
}
