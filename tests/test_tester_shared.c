/* test_tester_shared.c - a paced tester whose users share one schedule
 * (tester_shared.c: JMeter's Constant Throughput Timer in its shared
 * modes). Send times worked by hand in each comment. */
#include "tester.h"
#include "tester_log.h"

#include <check.h>
#include <string.h>

static tester_spec shared(uint64_t users, int64_t interval_ns)
{
    tester_spec t;
    memset(&t, 0, sizeof t);
    t.kind = TESTER_PACED;
    t.users = users;
    t.late = TESTER_LATE_FROM_NOW;
    t.schedule = TESTER_SCHEDULE_SHARED;
    t.interval.num_ns = (uint64_t)interval_ns;
    t.interval.den = 1;
    return t;
}

/* 2 threads, one shared slot every 100 ms, 10 ms service, a window
 * [595, 900) ms (resume), 2 s (scenarios/tools/jmeter_ctt_all_threads_shared.ini
 * works it through): starts 0 (thread 0), 0 (thread 1), 190, 280, 390,
 * 490, 590, 690, 905, 915, 1085, 1185, then 1295 + 100 k to 1995; latencies
 * 10, 20, 10 x 4, 315, 225, 20, 20, then 10. */
START_TEST(threads_share_one_schedule)
{
    stall_window w = {595 * MS, 900 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}, .stalls = &st, .n_stalls = 1,
                         .generator = "mt19937", .seed = 1, .workers = 1};
    tester_run_config c = {.duration_ns = 2000 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_spec t = shared(2, 100 * MS);
    log_obs log;
    memset(&log, 0, sizeof log);
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    const int64_t sends[12] = {0, 0, 190, 280, 390, 490, 590, 690, 905, 915, 1085, 1185};
    const int64_t lat[12] = {10, 20, 10, 10, 10, 10, 315, 225, 20, 20, 10, 10};
    const uint64_t user[12] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    ck_assert_uint_eq(r.sent, 20);
    ck_assert_uint_eq(r.planned, 20);
    for (size_t k = 0; k < 12; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
        ck_assert_int_eq(log.rq[k].latency_ns, lat[k] * MS);
        ck_assert_uint_eq(log.rq[k].user, user[k]);
    }
    for (size_t k = 12; k < 20; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, (1295 + 100 * (int64_t)(k - 12)) * MS);
    tester_result_free(&r);
}
END_TEST

/* No stall, 1 thread, 100 ms slots, 30 ms service: the thread starts at 0
 * (slot 0), is ready at 30, takes slot 100 and starts at 0 + 70 = 70, not
 * at 100 (JMeter adds the shared delay to its previous start); ready at
 * 100: slot 200, start 70 + 100 = 170; then every 100 ms: 270, 370, ...
 * 970 (the last before 1 s): 11 sends. */
START_TEST(delay_added_to_the_previous_start)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 30 * MS}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    tester_run_config c = {.duration_ns = 1000 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_spec t = shared(1, 100 * MS);
    log_obs log;
    memset(&log, 0, sizeof log);
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    ck_assert_uint_eq(r.sent, 11);
    ck_assert_int_eq(log.rq[0].sent_ns, 0);
    for (size_t k = 1; k < 11; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, (70 + 100 * (int64_t)(k - 1)) * MS);
    tester_result_free(&r);
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("tester_shared");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, threads_share_one_schedule);
    tcase_add_test(tc, delay_added_to_the_previous_start);
    suite_add_tcase(s, tc);
    return s;
}
