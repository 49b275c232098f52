/* test_tester_stagger.c - paced users on schedules of their own (stagger:
 * wrk2's connections, hey's workers) and wrk2's whole-ms sleeps
 * (sleep_granularity), in tester_paced.c. Every send time is worked by
 * hand in its comment. */
#include "tester.h"
#include "tester_log.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static tester_spec paced(uint64_t users, uint64_t per_s, tester_late late)
{
    tester_spec t;
    memset(&t, 0, sizeof t);
    t.kind = TESTER_PACED;
    t.users = users;
    t.late = late;
    t.interval.num_ns = 1000000000u;
    t.interval.den = per_s;
    return t;
}

static tester_result run_logged(const tester_spec *t, int64_t service_ns, int64_t duration_ns, log_obs *log)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = service_ns}, .generator = "mt19937",
                         .seed = 1, .workers = 1};
    tester_run_config c = {.duration_ns = duration_ns, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_result r;
    memset(log, 0, sizeof *log);
    ck_assert_int_eq(tester_run(t, &c, log_request, log, &r), 0);
    return r;
}

/* wrk2 -c1 -R300 (catch_up, factor 2, from the slot), 0.5 ms service on
 * an idle server, 20 ms: wrk2's timer on one connection (src/wrk.c
 * socket_writeable: an ae timer of round(w / 1000.0 + 0.5) = floor(w) + 1
 * whole ms for a wait of w us; src/ae.c aeProcessEvents: epoll_wait sleeps
 * that many ms from the real now, so the reply's fraction of a ms carries).
 * Slots floor(i 10^9 / 300) ns: 0, 3333333, 6666666, 10000000, 13333333,
 * 16666666 (3333, 6666, ... us on wrk2's clock). Sent at 0, reply 0.5 ms;
 * the wait to 3.333 is 2833 us: a 3 ms timer from 0.5 fires at 3.5 (the
 * slot is past: sent at once), reply 4.0, 0.666667 ms from the slot; from
 * 4.0 the wait 2666 us: 3 ms, sent 7.0 (0.833334 ms); from 7.5, 2500 us: 3
 * ms, sent 10.5 (1.0 ms); from 11.0, 2333 us: 14.0 (1.166667); from 14.5,
 * 2166 us: 17.5 (1.333334); from 18.0 the slot 20 is the end. Each sleep
 * overshoots its wait by the rest of its last ms (1/6 ms here) and the
 * lag grows. Without the grain every request goes on its slot, 0.5 ms. */
START_TEST(wrk2_sleeps_whole_milliseconds)
{
    tester_spec t = paced(1, 300, TESTER_LATE_CATCH_UP);
    t.catch_up_factor = 2;
    t.latency_from_intended = 1;
    t.sleep_granularity_ns = MS;
    log_obs log;
    tester_result r = run_logged(&t, MS / 2, 20 * MS, &log);
    const int64_t sends_us[6] = {0, 3500, 7000, 10500, 14000, 17500};
    const int64_t lat_ns[6] = {500000, 666667, 833334, 1000000, 1166667, 1333334};
    ck_assert_uint_eq(r.sent, 6);
    for (size_t k = 0; k < 6; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, sends_us[k] * 1000);
        ck_assert_int_eq(log.rq[k].latency_ns, lat_ns[k]);
    }
    tester_result_free(&r);
    t.sleep_granularity_ns = 0;
    r = run_logged(&t, MS / 2, 20 * MS, &log);
    ck_assert_uint_eq(r.sent, 6);
    ck_assert_int_eq(log.rq[1].sent_ns, 3333333);
    ck_assert_int_eq(hist_max(r.hist), hist_min(r.hist));
    tester_result_free(&r);
}
END_TEST

/* 2 users at 100/s in all (each every 20 ms), stagger 5 ms (wrk2's
 * connects): user 0 at 0, 20, 40, user 1 at 5, 25, 45 (50 ms run): 6
 * planned and sent. Dealt round-robin instead (no stagger) the grid is
 * 0, 10, 20, 30, 40: 5. */
START_TEST(stagger_gives_each_user_its_own_clock)
{
    tester_spec t = paced(2, 100, TESTER_LATE_CATCH_UP);
    t.has_stagger = 1;
    t.stagger_ns = 5 * MS;
    log_obs log;
    tester_result r = run_logged(&t, MS, 50 * MS, &log);
    const int64_t sends[6] = {0, 5, 20, 25, 40, 45};
    ck_assert_uint_eq(r.planned, 6);
    ck_assert_uint_eq(r.sent, 6);
    for (size_t k = 0; k < 6; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
        ck_assert_uint_eq(log.rq[k].user, k % 2);
    }
    tester_result_free(&r);
    t.has_stagger = 0;
    r = run_logged(&t, MS, 50 * MS, &log);
    ck_assert_uint_eq(r.planned, 5);
    ck_assert_int_eq(log.rq[1].sent_ns, 10 * MS);
    tester_result_free(&r);
}
END_TEST

/* hey -c 2 -q 100 (Go tickers started together: stagger 0), 200/s in
 * all, 1 ms service on one worker, 50 ms: both workers tick at 10, 20, 30,
 * 40 ms (a ticker's first tick one period late; 50 is the end): 8 planned
 * and sent; at each tick worker 0 is served first (1 ms) and worker 1
 * waits for it (2 ms from its send). */
START_TEST(hey_workers_tick_together)
{
    tester_spec t = paced(2, 200, TESTER_LATE_TICKER);
    t.has_stagger = 1;
    t.stagger_ns = 0;
    log_obs log;
    tester_result r = run_logged(&t, MS, 50 * MS, &log);
    ck_assert_uint_eq(r.planned, 8);
    ck_assert_uint_eq(r.sent, 8);
    for (size_t k = 0; k < 8; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, (int64_t)(10 * (k / 2 + 1)) * MS);
        ck_assert_uint_eq(log.rq[k].user, k % 2);
        ck_assert_int_eq(log.rq[k].latency_ns, (k % 2 ? 2 : 1) * MS);
    }
    tester_result_free(&r);
}
END_TEST

/* wrk2 -t2 -c4 -R400 (threads = 2): each thread staggers its own two
 * connections from 0 (wrk.c thread_main), so users 0, 1 (thread A) and
 * 2, 3 (thread B) start at 0, 5, 0, 5 ms, each every 4 / 400 s = 10 ms;
 * catch_up factor 2 from the slot, 1 ms whole-ms sleeps, 1 ms service on
 * one worker, 100 ms. Users 0 and 2 send at 0 (replies 1, 2: 1 and 2 ms);
 * user 0 waits 9 ms for slot 10 (a timer of 9 + 1 ms: wakes 11), user 2
 * 8 ms (8 + 1: 11): both send at 11 (replies 12, 13: 2 and 3 ms from the
 * slot), and again at 21, ..., 91 (12 + 9 = 13 + 8 = 21). Users 1 and 3
 * the same 5 ms later (5, then 16, ..., 96). Sent 40: 1 ms x 2, 2 ms x 20,
 * 3 ms x 18, sum 96 ms. One thread (users at 0, 5, 10, 15): users 2 and 3
 * have 9 slots (10..90, 15..95): 38 planned and sent, 1 ms x 4, 2 ms x 18,
 * 3 ms x 16, sum 88 ms. 5 users over 2 threads: -EINVAL. */
START_TEST(wrk2_threads_stagger_their_own_connections)
{
    tester_spec t = paced(4, 400, TESTER_LATE_CATCH_UP);
    t.catch_up_factor = 2;
    t.latency_from_intended = 1;
    t.sleep_granularity_ns = MS;
    t.has_stagger = 1;
    t.stagger_ns = 5 * MS;
    t.threads = 2;
    log_obs log;
    tester_result r = run_logged(&t, MS, 100 * MS, &log);
    const int64_t sends[8] = {0, 0, 5, 5, 11, 11, 16, 16};
    ck_assert_uint_eq(r.planned, 40);
    ck_assert_uint_eq(r.sent, 40);
    for (size_t k = 0; k < 8; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
    ck_assert_uint_eq(log.rq[0].user + log.rq[1].user, 0 + 2);
    ck_assert_uint_eq(log.rq[2].user + log.rq[3].user, 1 + 3);
    int64_t n_ms[4] = {0}, sum = 0;
    for (size_t k = 0; k < log.n; k++) {
        ck_assert_int_eq(log.rq[k].latency_ns % MS, 0);
        n_ms[log.rq[k].latency_ns / MS]++;
        sum += log.rq[k].latency_ns;
    }
    ck_assert_int_eq(n_ms[1], 2);
    ck_assert_int_eq(n_ms[2], 20);
    ck_assert_int_eq(n_ms[3], 18);
    ck_assert_int_eq(sum, 96 * MS);
    tester_result_free(&r);

    t.threads = 1;
    r = run_logged(&t, MS, 100 * MS, &log);
    ck_assert_uint_eq(r.planned, 38);
    ck_assert_uint_eq(r.sent, 38);
    memset(n_ms, 0, sizeof n_ms);
    sum = 0;
    for (size_t k = 0; k < log.n; k++) {
        n_ms[log.rq[k].latency_ns / MS]++;
        sum += log.rq[k].latency_ns;
    }
    ck_assert_int_eq(n_ms[1], 4);
    ck_assert_int_eq(n_ms[2], 18);
    ck_assert_int_eq(n_ms[3], 16);
    ck_assert_int_eq(sum, 88 * MS);
    tester_result_free(&r);

    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = MS}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    tester_run_config c = {.duration_ns = 100 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    t.users = 5;
    t.threads = 2;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), -EINVAL);
    tester_result_free(&r);
}
END_TEST

/* The paced next slot near the clock's limit (tester_paced.c: a whole-ns D
 * takes anchor + (idx + U) D while (idx + U) D <= INT64_MAX - end, else
 * units_interval_at, which saturates at INT64_MAX). A 1 s run, 1 ms
 * service, D = 2^62 ns: INT64_MAX - end = 2^63 - 1 - 10^9 holds 1 D, not
 * 2. One user: its next slot 1 D = 2^62 is taken in two steps. Two
 * users: user 0's next is idx 2, 2 D = 2^63, past INT64_MAX (two steps
 * would wrap to INT64_MIN: late, and from_now would send again at
 * 1 ms): INT64_MAX. Either way
 * only user 0's slot 0 lies before the end: planned 1, sent 1, at 0,
 * 1 ms. */
START_TEST(paced_slots_near_the_clock_limit)
{
    for (uint64_t users = 1; users <= 2; users++) {
        tester_spec t = paced(users, 1, TESTER_LATE_FROM_NOW);
        t.interval.num_ns = UINT64_C(1) << 62;
        log_obs log;
        tester_result r = run_logged(&t, MS, 1000 * MS, &log);
        ck_assert_uint_eq(r.planned, 1);
        ck_assert_uint_eq(r.sent, 1);
        ck_assert_uint_eq(log.n, 1);
        ck_assert_int_eq(log.rq[0].sent_ns, 0);
        ck_assert_int_eq(log.rq[0].latency_ns, MS);
        tester_result_free(&r);
    }
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("tester_stagger");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, wrk2_sleeps_whole_milliseconds);
    tcase_add_test(tc, stagger_gives_each_user_its_own_clock);
    tcase_add_test(tc, hey_workers_tick_together);
    tcase_add_test(tc, wrk2_threads_stagger_their_own_connections);
    tcase_add_test(tc, paced_slots_near_the_clock_limit);
    suite_add_tcase(s, tc);
    return s;
}
