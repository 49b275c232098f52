/* test_tester_quota.c - a closed loop with a quota of N requests per
 * interval (tester_quota.c: memtier_benchmark's rate limiter). Send times
 * worked by hand. */
#include "tester.h"
#include "tester_log.h"

#include <check.h>
#include <string.h>

/* memtier --rate-limiting=150: N = ceil(150 / 50) = 3, floor(150 / 3) = 50
 * ticks a second, I = 20 ms. One connection, 4 ms service, no stall, 60
 * ms: in [0, 20) sends at 0, 4, 8 (replies 4, 8, 12), then waits for 20;
 * 20, 24, 28; 40, 44, 48: 9 sends, 4 ms each. With 7 ms service: 0, 7, 14
 * (reply 21, in the next interval: the quota was spent in [0, 20) but 21
 * is in [20, 40), a fresh quota): 21, 28, 35 (reply 42: in [40, 60)), 42,
 * 49, 56: 9 sends back to back, the quota never binding. */
START_TEST(quota_per_interval)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 4 * MS}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    tester_run_config c = {.duration_ns = 60 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_spec t;
    memset(&t, 0, sizeof t);
    t.kind = TESTER_CLOSED;
    t.users = 1;
    t.quota = 3;
    t.quota_interval_ns = 20 * MS;
    log_obs log;
    memset(&log, 0, sizeof log);
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    const int64_t sends[9] = {0, 4, 8, 20, 24, 28, 40, 44, 48};
    ck_assert_uint_eq(r.sent, 9);
    for (size_t k = 0; k < 9; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
    tester_result_free(&r);
    srv.service.a_ns = 7 * MS;
    memset(&log, 0, sizeof log);
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    ck_assert_uint_eq(r.sent, 9);
    for (size_t k = 0; k < 9; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, (int64_t)k * 7 * MS);
    tester_result_free(&r);
}
END_TEST

/* memtier -c1 --pipeline=3 under a quota of 2 per 10 ms, 1 ms service, a
 * window [5, 25) ms, 40 ms. Pipeline 3: at 0 the quota lets 2 go (replies
 * 1, 2); the third slot waits for the tick at 10, where 2 go (the quota is
 * 2; both held by the window: replies 26, 27); the slot free since 2 waits
 * for the tick at 20 and goes there (reply 28: behind the two); reply 26
 * finds interval [20, 30) with 1 left: sends 26 (reply 29); replies 27
 * and 28 wait for 30 (2 go: replies 31, 32); reply 29's slot waits for
 * 40, the end. Sent 8: 0, 0, 10, 10, 20, 26, 30, 30; latencies 1, 2, 16,
 * 17, 8, 3, 1, 2 (sum 50 ms). Pipeline 1: 0, 1 (replies 1, 2), 10 (reply
 * 26), 26, 27, 30, 31: 7 sent, latencies 1, 1, 16, 1, 1, 1, 1 (22 ms). */
START_TEST(pipeline_under_the_quota)
{
    stall_window w = {5 * MS, 25 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = MS}, .stalls = &st, .n_stalls = 1,
                         .generator = "mt19937", .seed = 1, .workers = 1};
    tester_run_config c = {.duration_ns = 40 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_spec t;
    memset(&t, 0, sizeof t);
    t.kind = TESTER_CLOSED;
    t.users = 1;
    t.quota = 2;
    t.quota_interval_ns = 10 * MS;
    t.pipeline = 3;
    log_obs log;
    memset(&log, 0, sizeof log);
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    const int64_t sends[8] = {0, 0, 10, 10, 20, 26, 30, 30}, lat[8] = {1, 2, 16, 17, 8, 3, 1, 2};
    ck_assert_uint_eq(r.sent, 8);
    ck_assert_uint_eq(r.planned, 8);
    for (size_t k = 0; k < 8; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
        ck_assert_int_eq(log.rq[k].latency_ns, lat[k] * MS);
    }
    tester_result_free(&r);
    t.pipeline = 1;
    memset(&log, 0, sizeof log);
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    const int64_t sends1[7] = {0, 1, 10, 26, 27, 30, 31}, lat1[7] = {1, 1, 16, 1, 1, 1, 1};
    ck_assert_uint_eq(r.sent, 7);
    for (size_t k = 0; k < 7; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, sends1[k] * MS);
        ck_assert_int_eq(log.rq[k].latency_ns, lat1[k] * MS);
    }
    tester_result_free(&r);
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("tester_quota");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, quota_per_interval);
    tcase_add_test(tc, pipeline_under_the_quota);
    suite_add_tcase(s, tc);
    return s;
}
