/* test_tester_ramp.c - the rate ramp (tester_ramp.c): open arrivals whose
 * rate changes linearly over stages, placed as k6's ramping-arrival-rate
 * (area) and Gatling's rampUsersPerSec (per_second) place them. Every send
 * time below is worked by hand in its comment. */
#include "tester.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#define MS INT64_C(1000000)
#define S INT64_C(1000000000)

typedef struct log_obs {
    size_t n;
    int64_t sent_ns[256];
} log_obs;

static void log_request(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate;
    log_obs *l = ctx;
    ck_assert_uint_lt(l->n, 256);
    l->sent_ns[l->n++] = rq->sent_ns;
}

/* A rate of r per second as an interval (den = 0: zero). */
static units_interval per_s(uint64_t r)
{
    units_interval iv = {r ? 1000000000u : 0, r};
    return iv;
}

static tester_spec ramp(tester_spread spread, uint64_t start, size_t n, const int64_t *dur_ns,
                        const uint64_t *target)
{
    tester_spec t;
    memset(&t, 0, sizeof t);
    t.kind = TESTER_OPEN;
    t.users = 1;
    t.spread = spread;
    t.start_rate = per_s(start);
    t.n_stages = n;
    t.interval = per_s(1); /* the peak's, for the estimates only */
    for (size_t k = 0; k < n; k++) {
        t.stages[k].duration_ns = dur_ns[k];
        t.stages[k].target = per_s(target[k]);
    }
    return t;
}

static tester_result run_logged(const tester_spec *t, int64_t duration_ns, log_obs *log)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    tester_run_config c = {.duration_ns = duration_ns, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_result r;
    memset(log, 0, sizeof *log);
    ck_assert_int_eq(tester_run(t, &c, log_request, log, &r), 0);
    return r;
}

/* k6 (ramping_arrival_rate.go, cal): startRate 0, 1 s to 10/s, then 1 s
 * staying at 10/s. The rate is 10 t per s in the first stage, so its
 * integral 5 t^2 reaches i at t = sqrt(i / 5) s: 0.4472135955, 0.632455532,
 * 0.7745966692, 0.894427191 (= 0.8944271909999 s: truncated to ...190 ns),
 * 1 s; then 10 a second, the i-th at (i - 5) / 10 s after 1 s: 1.1, ...,
 * 2.0 s. 15 arrivals, all before the 3 s end. */
START_TEST(k6_area_ramp_up_then_steady)
{
    const int64_t d[2] = {S, S};
    const uint64_t to[2] = {10, 10};
    tester_spec t = ramp(TESTER_SPREAD_AREA, 0, 2, d, to);
    log_obs log;
    tester_result r = run_logged(&t, 3 * S, &log);
    const int64_t first[5] = {447213595, 632455532, 774596669, 894427190, 1000000000};
    ck_assert_uint_eq(r.planned, 15);
    ck_assert_uint_eq(r.sent, 15);
    for (size_t k = 0; k < 5; k++)
        ck_assert_int_eq(log.sent_ns[k], first[k]);
    for (size_t k = 5; k < 15; k++)
        ck_assert_int_eq(log.sent_ns[k], S + (int64_t)(k - 4) * 100 * MS);
    tester_result_free(&r);
    /* a 2 s run ends before the 15th (at 2 s exactly): 14 planned */
    r = run_logged(&t, 2 * S, &log);
    ck_assert_uint_eq(r.planned, 14);
    ck_assert_uint_eq(r.sent, 14);
    tester_result_free(&r);
}
END_TEST

/* k6, startRate 10/s, 1 s down to 0/s: the integral 10 t - 5 t^2 reaches
 * i at t = 1 - sqrt(1 - i / 5) s: 0.105572809, 0.2254033308, 0.3675444680,
 * 0.5527864045 s, and 1 s for i = 5; k6's double arithmetic puts the last
 * at 999,999,988 ns (from d - sqrt(d (a^2 d + 2 i (b - a))) over a - b with
 * a = 10^-8 per ns, b = 0: the sqrt of a near-zero difference loses the
 * last digits), which cosim reproduces by computing as k6 does. */
START_TEST(k6_area_ramp_down_as_k6_rounds)
{
    const int64_t d[1] = {S};
    const uint64_t to[1] = {0};
    tester_spec t = ramp(TESTER_SPREAD_AREA, 10, 1, d, to);
    log_obs log;
    tester_result r = run_logged(&t, 2 * S, &log);
    const int64_t sends[5] = {105572809, 225403330, 367544467, 552786404, 999999988};
    ck_assert_uint_eq(r.sent, 5);
    for (size_t k = 0; k < 5; k++)
        ck_assert_int_eq(log.sent_ns[k], sends[k]);
    tester_result_free(&r);
}
END_TEST

/* Gatling (OpenInjectionStep.scala, Shard.scala), stages 2 s 0 -> 3/s,
 * 1 s at 3/s, 2 s 3/s -> 0:
 *  - ramp up: C(t) = 3 t^2 / 4 users by second t: C(1) = 0.75, C(2) = 3:
 *    second 0 gets floor(0.75) = 0 users, second 1 gets 3; 3 users on a
 *    second's ms: ms m gets ceil(3 (m + 1) / 1000) - ceil(3 m / 1000):
 *    ms 0, 333 and 666 (3 x 334 / 1000 = 1.002 is the first past 1),
 *    so 1.000, 1.333, 1.666 s;
 *  - steady: round(1 s x 3/s) = 3 users in its one second: 2.000, 2.333,
 *    2.666 s;
 *  - ramp down: C(t) = 3 t - 3 t^2 / 4: C(1) = 2.25 (2 users: ms 0 and
 *    500, 3.000 and 3.500 s), C(2) = 3 (1 more: 4.000 s).
 * 9 arrivals (the integral: 3 + 3 + 3). */
START_TEST(gatling_per_second_ramp)
{
    const int64_t d[3] = {2 * S, S, 2 * S};
    const uint64_t to[3] = {3, 3, 0};
    tester_spec t = ramp(TESTER_SPREAD_PER_SECOND, 0, 3, d, to);
    log_obs log;
    tester_result r = run_logged(&t, 5 * S, &log);
    const int64_t sends[9] = {1000, 1333, 1666, 2000, 2333, 2666, 3000, 3500, 4000};
    ck_assert_uint_eq(r.planned, 9);
    ck_assert_uint_eq(r.sent, 9);
    for (size_t k = 0; k < 9; k++)
        ck_assert_int_eq(log.sent_ns[k], sends[k] * MS);
    tester_result_free(&r);
}
END_TEST

/* Gatling, 1 s from 0 to 2500/s: C(1) = 1250 users in second 0, more than
 * its 1000 ms: the first m + 1 ms hold ceil(1.25 (m + 1)) users: 2, 3, 4,
 * 5, 7, so ms 0 gets 2, ms 1, 2 and 3 one each, ms 4 two: users on one ms
 * arrive together (the first 7: requests = 7). */
START_TEST(gatling_more_users_than_milliseconds)
{
    const int64_t d[1] = {S};
    const uint64_t to[1] = {2500};
    tester_spec t = ramp(TESTER_SPREAD_PER_SECOND, 0, 1, d, to);
    tester_run_config c = {.duration_ns = S, .threshold_ns = 100 * MS, .sub_bits = 14};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    c.server = &srv;
    log_obs log;
    memset(&log, 0, sizeof log);
    tester_result r;
    t.requests = 7;
    ck_assert_int_eq(tester_run(&t, &c, log_request, &log, &r), 0);
    const int64_t sends[7] = {0, 0, 1, 2, 3, 4, 4};
    ck_assert_uint_eq(r.planned, 7); /* requests = 7 bounds the 1250 */
    for (size_t k = 0; k < 7; k++)
        ck_assert_int_eq(log.sent_ns[k], sends[k] * MS);
    tester_result_free(&r);
}
END_TEST

/* The estimate is the integral: 2 s from 0 to 100/s (100 arrivals), 1 s
 * down to 0 (50): 150; up to 1 s only, 100 x 1^2 / (2 x 2) = 25. */
START_TEST(expected_arrivals_are_the_integral)
{
    const int64_t d[2] = {2 * S, S};
    const uint64_t to[2] = {100, 0};
    tester_spec t = ramp(TESTER_SPREAD_AREA, 0, 2, d, to);
    ck_assert_double_eq_tol(tester_stages_expected(&t, 10 * S), 150, 1e-9);
    ck_assert_double_eq_tol(tester_stages_expected(&t, S), 25, 1e-9);
    ck_assert_double_eq_tol(tester_stages_expected(&t, 3 * S), 150, 1e-9);
    const char *why = NULL;
    ck_assert_int_eq(tester_stages_check(&t, &why), 0);
    t.spread = TESTER_SPREAD_PER_SECOND;
    t.stages[1].duration_ns = S + 500 * MS; /* Gatling counts whole seconds */
    ck_assert_int_eq(tester_stages_check(&t, &why), -EINVAL);
    ck_assert_ptr_nonnull(why);
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("tester_ramp");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, k6_area_ramp_up_then_steady);
    tcase_add_test(tc, k6_area_ramp_down_as_k6_rounds);
    tcase_add_test(tc, gatling_per_second_ramp);
    tcase_add_test(tc, gatling_more_users_than_milliseconds);
    tcase_add_test(tc, expected_arrivals_are_the_integral);
    suite_add_tcase(s, tc);
    return s;
}
