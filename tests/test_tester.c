/* Tests of the testers against deterministic servers, with the figures
 * derived by hand in the comments. */
#include "tester.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

Suite *test_suite(void);

#define US 1000LL
#define MS 1000000LL
#define S 1000000000LL

static tester_result run(const tester_spec *t, const server_config *srv, int64_t duration_ns,
                         int drop, unsigned sub_bits)
{
    tester_run_config c = {.duration_ns = duration_ns, .threshold_ns = 100 * MS,
                           .drop_in_flight = drop, .sub_bits = sub_bits, .server = srv};
    tester_result r;
    ck_assert_int_eq(tester_run(t, &c, NULL, NULL, &r), 0);
    return r;
}

static tester_spec spec(tester_kind kind, int64_t interval_ns, tester_late late)
{
    tester_spec t;
    memset(&t, 0, sizeof t);
    strcpy(t.name, "t");
    t.kind = kind;
    t.users = 1;
    t.interval.num_ns = (uint64_t)interval_ns;
    t.interval.den = 1;
    t.late = late;
    return t;
}

/* The value at a percentile lies in the bucket of `exact` (S = 14 here, so a
 * bucket near 500 ms is 2^15 ns = 0.033 ms wide). */
static void assert_pct(const hist *h, uint64_t num, uint64_t den, int64_t exact)
{
    int64_t v = hist_value_at_percentile(h, HIST_SORTED_INDEX, num, den);
    uint64_t lo, hi;
    hist_bucket_range(hist_index_of((uint64_t)exact, hist_sub_bits(h)), hist_sub_bits(h), &lo, &hi);
    ck_assert_msg(v >= (int64_t)lo && v <= (int64_t)hi, "got %lld, want the bucket of %lld",
                  (long long)v, (long long)exact);
}

/* Seed 002: 100/s for 2 s, 7 ms service, 500 ms on request 90.
 * Open: request 90 + j waits 507 - 3j ms (j = 0..109), the first 90 wait
 * 7 ms: 200 requests; sorted, x[100] = 210, x[190] = 480, x[198] = 504 ms;
 * all 110 stalled ones exceed 100 ms. Closed: 214 requests of 7 ms and one
 * of 507 ms in 2 s. */
START_TEST(seed002_open_and_closed)
{
    stall_range r = {90, 90};
    stall_spec st = {.kind = STALL_REQUESTS, .ranges = &r, .n_ranges = 1, .extra_ns = 500 * MS};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 7 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec open = spec(TESTER_OPEN, 10 * MS, 0);
    tester_result o = run(&open, &srv, 2 * S, 0, 14);
    ck_assert_uint_eq(o.planned, 200);
    ck_assert_uint_eq(o.sent, 200);
    ck_assert_uint_eq(hist_count(o.hist), 200);
    ck_assert_uint_eq(o.over_threshold, 110);
    assert_pct(o.hist, 1, 2, 210 * MS);
    assert_pct(o.hist, 95, 100, 480 * MS);
    assert_pct(o.hist, 99, 100, 504 * MS);
    ck_assert_int_eq(hist_max(o.hist), 507 * MS);
    /* replies after 2 s: request 90 + j ends at 1.407 s + 7j ms > 2 s for
     * j >= 85, so j = 85..109: 25 in flight at the end */
    ck_assert_uint_eq(o.in_flight_at_end, 25);

    tester_spec closed = spec(TESTER_CLOSED, 0, 0);
    tester_result c = run(&closed, &srv, 2 * S, 0, 14);
    ck_assert_uint_eq(c.sent, 215);
    ck_assert_uint_eq(c.planned, 215);
    ck_assert_uint_eq(c.over_threshold, 1);
    assert_pct(c.hist, 99, 100, 7 * MS);
    ck_assert_int_eq(hist_max(c.hist), 507 * MS);
    tester_result_free(&o);
    tester_result_free(&c);

    /* the wrk2 rule drops the 25 in flight: 175 recorded, 85 over 100 ms */
    o = run(&open, &srv, 2 * S, 1, 14);
    ck_assert_uint_eq(o.sent, 200);
    ck_assert_uint_eq(o.in_flight_at_end, 25);
    ck_assert_uint_eq(hist_count(o.hist), 175);
    ck_assert_uint_eq(o.over_threshold, 85);
    tester_result_free(&o);
}
END_TEST

/* The book's Example 5.7 with a constant 100 us service: a 10 ms freeze at
 * the start of each second, one request a millisecond, 100 s.
 * Paced next_slot: the request sent at n s (in the freeze) returns at
 * n s + 10.1 ms; the next slot is n s + 11 ms, so 10 slots a second are
 * lost: 99,000 sent of 100,000 planned, 100 over 1 ms (0.10%).
 * Corrected: 10.1 ms at 1 ms adds 9.1, 8.1, ..., 1.1 ms: 9 per freeze, 900
 * in all, 99,900 samples. Open: 100,000. */
START_TEST(book_example_5_7_counts)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 10 * MS, .period_ns = S};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 100 * US}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_run_config cfg = {.duration_ns = 100 * S, .threshold_ns = 1 * MS, .sub_bits = 8,
                             .server = &srv};
    tester_result r;
    tester_spec paced = spec(TESTER_PACED, MS, TESTER_LATE_NEXT_SLOT);
    ck_assert_int_eq(tester_run(&paced, &cfg, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.planned, 100000);
    ck_assert_uint_eq(r.sent, 99000);
    ck_assert_uint_eq(hist_count(r.hist), 99000);
    ck_assert_uint_eq(r.over_threshold, 100);
    ck_assert_int_eq(hist_max(r.hist), 10100 * US);
    tester_result_free(&r);

    tester_spec corrected = spec(TESTER_CORRECTED, MS, TESTER_LATE_NEXT_SLOT);
    ck_assert_int_eq(tester_run(&corrected, &cfg, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.sent, 99000);
    ck_assert_uint_eq(hist_count(r.hist), 99900);
    ck_assert_uint_eq(r.over_threshold, 1000); /* 10.1 and 9.1 .. 1.1 ms: 10 per freeze */
    ck_assert_int_eq(hist_min(r.hist), 100 * US);
    tester_result_free(&r);

    tester_spec open = spec(TESTER_OPEN, MS, 0);
    ck_assert_int_eq(tester_run(&open, &cfg, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.sent, 100000);
    ck_assert_uint_eq(hist_count(r.hist), 100000);
    /* In each freeze the requests at 0..9 ms queue; from 10 ms they are
     * served 100 us apart, request j ending at 10 + 0.1 (j + 1) ms and
     * waiting 10.1 - 0.9 j ms: over 1 ms for j = 0..10 (the request at 10 ms
     * still finds the queue and ends at 11.1 ms); the one at 11 ms waits
     * 0.2 ms. 11 per freeze: 1,100 over 1 ms. */
    ck_assert_uint_eq(r.over_threshold, 1100);
    tester_result_free(&r);
}
END_TEST

/* Seed 000's model: 1 us service, 500 ms stalls at 2.5, 7.5, 12.5, 17.5 s,
 * one request a millisecond, 20 s.
 * Paced from_now: sends at 0..2500 ms (2,501; the last lands in the stall
 * and returns at 3000.001 ms); then from 3000.001 ms every ms up to
 * 7500.001 (4,501; the last returns at 8000.001), twice more (4,501 each),
 * and from 18000.001 up to 19999.001 (2,000): 18,004 sent of 20,000.
 * Open: the request at 2500 + j ms is served at 3000 ms + (j + 1) us, so
 * it waits 500 - j + 0.001 (j + 1) ms: over 100 ms for j = 0..400, 401 per
 * stall, 1,604 in all. Closed: one 500 ms sample per stall. */
START_TEST(seed000_paced_from_now_and_open)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 500 * MS, .period_ns = 5 * S,
                     .first_ns = 2500 * MS};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * US}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec paced = spec(TESTER_PACED, MS, TESTER_LATE_FROM_NOW);
    tester_result p = run(&paced, &srv, 20 * S, 0, 8);
    ck_assert_uint_eq(p.planned, 20000);
    ck_assert_uint_eq(p.sent, 18004);
    ck_assert_uint_eq(p.over_threshold, 4);
    tester_result_free(&p);

    tester_spec open = spec(TESTER_OPEN, MS, 0);
    tester_result o = run(&open, &srv, 20 * S, 0, 8);
    ck_assert_uint_eq(o.sent, 20000);
    ck_assert_uint_eq(o.over_threshold, 1604);
    tester_result_free(&o);

    tester_spec closed = spec(TESTER_CLOSED, 0, 0);
    tester_result c = run(&closed, &srv, 20 * S, 0, 8);
    ck_assert_uint_eq(c.over_threshold, 4);
    /* back to back, the worker does 18 s of 1 us requests before 20 s (the
     * one caught in each stall is among them), the last ending at 20 s */
    ck_assert_uint_eq(c.sent, 18000000);
    tester_result_free(&c);
}
END_TEST

/* The three lateness policies on one window [5, 35) ms, 10 ms grid, 1 ms
 * service, 50 ms: the request at 10 ms returns at 36 ms.
 *   catch_up:  sends 0, 10, 36 (for 20), 37 (for 30), 40: 5 = planned
 *   from_now:  sends 0, 10, 36, 46: 4
 *   next_slot: sends 0, 10, 40: 3 */
START_TEST(late_policies)
{
    stall_window w = {5 * MS, 35 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    const uint64_t want[3] = {4, 3, 5}; /* from_now, next_slot, catch_up */
    for (int l = 0; l < 3; l++) {
        tester_spec t = spec(TESTER_PACED, 10 * MS, (tester_late)l);
        tester_result r = run(&t, &srv, 50 * MS, 0, 8);
        ck_assert_uint_eq(r.planned, 5);
        ck_assert_msg(r.sent == want[l], "%s: sent %llu", tester_late_name((tester_late)l),
                      (unsigned long long)r.sent);
        ck_assert_int_eq(hist_max(r.hist), 26 * MS);
        tester_result_free(&r);
    }
}
END_TEST

/* Two closed users on a 1 ms constant server for 10 ms: the server is never
 * idle, so replies come every 1 ms; after the first, each user waits behind
 * the other: latency 2 ms = N / X - Z = 2 / (1/ms) - 0 (the response time
 * law). Sends at 0, 0, 1, 2, ..., 9: 11. */
START_TEST(closed_users_response_time_law)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS},
                         .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.users = 2;
    tester_result r = run(&t, &srv, 10 * MS, 0, 8);
    ck_assert_uint_eq(r.sent, 11);
    ck_assert_int_eq(hist_min(r.hist), 1 * MS);
    ck_assert_int_eq(hist_max(r.hist), 2 * MS);
    ck_assert_double_eq(hist_mean(r.hist), (1.0 + 10 * 2.0) / 11 * MS);
    tester_result_free(&r);
}
END_TEST

/* Corrected with U users: each user's expected interval is U D. 2 users at
 * 1/ms (each every 2 ms) against one 9 ms stall of request 0 adds 7, 5, 3 ms
 * (the book's Exercise 5.4 at 2 ms), not 8, 7, ..., 1. */
START_TEST(corrected_users_use_their_own_interval)
{
    stall_range r0 = {0, 0};
    stall_spec st = {.kind = STALL_REQUESTS, .ranges = &r0, .n_ranges = 1, .extra_ns = 9 * MS - 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1},
                         .stalls = &st, .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CORRECTED, MS, TESTER_LATE_NEXT_SLOT);
    t.users = 2;
    tester_result r = run(&t, &srv, 1 * MS, 0, 8); /* only the sends at 0 */
    ck_assert_uint_eq(r.sent, 1);
    ck_assert_uint_eq(hist_count(r.hist), 4); /* 9 + 7, 5, 3 */
    ck_assert_int_eq(hist_min(r.hist), 3 * MS);
    tester_result_free(&r);
}
END_TEST

static void count_obs(void *ctx, const tester_request *rq)
{
    uint64_t *n = ctx;
    ck_assert_uint_eq(rq->index, *n);
    ck_assert(rq->reply_ns >= rq->sent_ns);
    (*n)++;
}

START_TEST(limits_and_observer)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * US},
                         .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    tester_run_config c = {.duration_ns = S, .threshold_ns = MS, .sub_bits = 8,
                           .max_requests = 1000, .server = &srv};
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), -E2BIG);
    ck_assert_ptr_null(r.hist);
    c.max_requests = 0;
    c.duration_ns = 10 * MS;
    uint64_t n = 0;
    ck_assert_int_eq(tester_run(&t, &c, count_obs, &n, &r), 0);
    ck_assert_uint_eq(n, 10000);
    ck_assert_uint_eq(r.sent, 10000);
    tester_result_free(&r);
    tester_result_free(&r); /* idempotent */
}
END_TEST

/* A 1000 s stall at an expected interval of 1 ns, recorded as a series.
 * Corrected, 1/s, from_now, 1 ms service, a window [0.5 s, 1000.5 s):
 * request 0 (t = 0) takes 1 ms and adds 10^6 - 1 values (999,999 .. 1 ns);
 * request 1 (t = 1 s) waits for the window's end: reply at 1000.501 s,
 * latency 999.501 s = 999,501,000,000 ns, adding 999,500,999,999 values;
 * its next send would be after the 2 s duration. Recorded:
 * 2 + 999,999 + 999,500,999,999 = 999,502,000,000. Over 100 ms: the
 * second reply and its terms above 10^8 ns: 1 + 999,500,999,999 - 10^8
 * = 999,401,000,000. The added values count against max_requests: one
 * fewer than that and the second reply is refused (-EOVERFLOW, with its
 * figures); 10^6 allows request 0 and its 999,999 only (-E2BIG at the
 * second send). */
START_TEST(corrected_backfill_counts_against_max_requests)
{
    stall_window w = {500 * MS, 1000 * S + 500 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = MS}, .stalls = &st, .n_stalls = 1,
                         .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CORRECTED, S, TESTER_LATE_FROM_NOW);
    t.expected_interval_ns = 1;
    tester_run_config c = {.duration_ns = 2 * S, .threshold_ns = 100 * MS, .sub_bits = 8,
                           .max_requests = 999502000000ull, .server = &srv};
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.sent, 2);
    ck_assert_uint_eq(r.added, 999502000000ull - 2);
    ck_assert_uint_eq(hist_count(r.hist), 999502000000ull);
    ck_assert_uint_eq(r.over_threshold, 999401000000ull);
    ck_assert_int_eq(hist_min(r.hist), 1);
    ck_assert_int_eq(hist_max(r.hist), 999501000000);
    tester_result_free(&r);

    c.max_requests = 999502000000ull - 1;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), -EOVERFLOW);
    ck_assert_ptr_null(r.hist);
    ck_assert_uint_eq(r.sent, 2);
    ck_assert_uint_eq(r.added, 999999);
    ck_assert_int_eq(r.refused_latency_ns, 999501000000);
    ck_assert_uint_eq(r.refused_added, 999500999999ull);

    c.max_requests = 1000000;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), -E2BIG);
    ck_assert_uint_eq(r.sent, 1);
    ck_assert_uint_eq(r.added, 999999);
}
END_TEST

/* Poisson arrivals: the mean gap is D (within 1% over 10^5 arrivals: the
 * standard error of the mean of exponentials is D / sqrt(n) = 0.3%). */
START_TEST(poisson_arrivals_mean_gap)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1},
                         .generator = "mt19937", .seed = 3};
    tester_spec t = spec(TESTER_OPEN, MS, 0);
    t.arrivals = TESTER_ARRIVALS_POISSON;
    tester_result r = run(&t, &srv, 100 * S, 0, 8);
    ck_assert(r.sent > 99000 && r.sent < 101000);
    ck_assert_uint_eq(r.planned, r.sent);
    tester_result_free(&r);
}
END_TEST


/* The response time law (Little's law for a closed system): R = N / X - Z.
 * 10 users, think exponential with mean 10 ms, service exponential with mean
 * 1 ms, 200 s. X = requests per second sent; R = mean response time. The
 * law holds for any system in steady state; the only error is the think
 * times' sample mean against 10 ms (about 0.2% over 180,000 draws). */
START_TEST(closed_response_time_law_with_think)
{
    server_config srv = {.service = {.kind = DIST_EXPONENTIAL, .a_ns = 1 * MS},
                         .generator = "mt19937", .seed = 4};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.users = 10;
    t.has_think = 1;
    t.think = (dist_spec){.kind = DIST_EXPONENTIAL, .a_ns = 10 * MS};
    tester_result r = run(&t, &srv, 200 * S, 0, 12);
    double x = (double)r.sent / 200.0;          /* per second */
    double law = 10.0 / x - 0.010;             /* seconds */
    double got = hist_mean(r.hist) / 1e9;
    ck_assert_msg(got > law * 0.98 && got < law * 1.02, "R = %g s, N/X - Z = %g s", got, law);
    /* and utilisation = X E[S] (the utilisation law) */
    double u = (double)r.busy_ns / (200.0 * S);
    ck_assert_msg(fabs(u - x * 0.001) < 0.01 * u, "U = %g, X E[S] = %g", u, x * 0.001);
    tester_result_free(&r);
}
END_TEST

/* M/D/1 (Pollaczek-Khinchine): Poisson arrivals at 800/s, a constant 1 ms
 * service: mean wait W = rho S / (2 (1 - rho)) = 0.8 x 1 ms / 0.4 = 2 ms,
 * mean response W + S = 3 ms; utilisation lambda E[S] = 0.8. 2% over 2000 s. */
START_TEST(md1_pollaczek_khinchine)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS},
                         .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_OPEN, 1250 * US, 0);
    t.arrivals = TESTER_ARRIVALS_POISSON;
    tester_result r = run(&t, &srv, 2000 * S, 0, 12);
    double mean_ms = hist_mean(r.hist) / 1e6;
    ck_assert_msg(mean_ms > 3.0 * 0.98 && mean_ms < 3.0 * 1.02, "mean %g ms, P-K says 3 ms", mean_ms);
    double u = (double)r.busy_ns / (2000.0 * S);
    ck_assert_msg(fabs(u - 0.8) < 0.008, "utilisation %g, lambda E[S] = 0.8", u);
    tester_result_free(&r);
}
END_TEST

/* Partly-open: sessions arrive at 100/s and continue with p = 0.8, so each
 * makes 1 / (1 - p) = 5 requests on average: 500 requests a second, 50,000
 * in 100 s (the number of sessions is Poisson, sd 1%; requests per session
 * geometric: within 3%). Latency is from the actual send. */
START_TEST(partly_open_request_rate)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 100 * US},
                         .generator = "mt19937", .seed = 2};
    tester_spec t = spec(TESTER_PARTLY_OPEN, 10 * MS, 0);
    t.p_continue = 0.8;
    t.has_think = 1;
    t.think = (dist_spec){.kind = DIST_CONSTANT, .a_ns = 10 * MS};
    tester_result r = run(&t, &srv, 100 * S, 0, 8);
    ck_assert_msg(r.sent > 48500 && r.sent < 51500, "sent %llu, want about 50,000",
                  (unsigned long long)r.sent);
    ck_assert_uint_eq(r.planned, r.sent);
    ck_assert(r.max_sessions >= 2);
    /* utilisation 500/s x 0.1 ms = 5%: queueing is rare, p50 is the service
     * (in its histogram bucket) */
    ck_assert_uint_eq(hist_index_of((uint64_t)hist_value_at_percentile(r.hist, HIST_NEAREST_RANK, 1, 2), 8),
                      hist_index_of(100 * US, 8));
    tester_result_free(&r);
}
END_TEST

/* Connections: 4 closed users on 1 connection against a 1 ms server behave
 * as one closed user (latency 1 ms each), the other three blocked; with 4
 * connections each waits behind the others (4 ms). */
START_TEST(connections_block_and_are_counted)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS},
                         .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.users = 4;
    t.connections = 1;
    tester_result r = run(&t, &srv, 100 * MS, 0, 8);
    ck_assert_uint_eq(r.sent, 100);
    ck_assert_int_eq(hist_max(r.hist), 1 * MS);
    ck_assert(r.blocked > 90);
    ck_assert(r.blocked_ns > 0);
    tester_result_free(&r);
    t.connections = 0;
    r = run(&t, &srv, 100 * MS, 0, 8);
    ck_assert_uint_eq(r.sent, 100 + 3); /* the first four go at 0 */
    ck_assert_int_eq(hist_value_at_percentile(r.hist, HIST_NEAREST_RANK, 1, 2), 4 * MS);
    ck_assert_uint_eq(r.blocked, 0);
    tester_result_free(&r);
}
END_TEST

/* Measuring from the intended send time adds exactly the lateness of each
 * send (sent - intended) to what is measured from the actual send. */
static void sum_lateness(void *ctx, const tester_request *rq)
{
    *(int64_t *)ctx += rq->sent_ns - rq->intended_ns;
}

START_TEST(latency_from_intended_adds_lateness)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 50 * MS, .period_ns = S};
    server_config srv = {.service = {.kind = DIST_LOGNORMAL, .a_ns = 2 * MS, .shape = 0.5},
                         .stalls = &st, .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_CATCH_UP);
    t.users = 4;
    t.connections = 2;
    tester_run_config c = {.duration_ns = 20 * S, .threshold_ns = MS, .sub_bits = 8, .server = &srv};
    tester_result a, b;
    int64_t late = 0;
    ck_assert_int_eq(tester_run(&t, &c, sum_lateness, &late, &a), 0);
    t.latency_from_intended = 1;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &b), 0);
    ck_assert_uint_eq(a.sent, b.sent);
    ck_assert(late > 0);
    double diff = (hist_mean(b.hist) - hist_mean(a.hist)) * (double)a.sent;
    ck_assert_msg(fabs(diff - (double)late) < 1e-6 * (double)late + 1, "%g vs %lld", diff,
                  (long long)late);
    tester_result_free(&a);
    tester_result_free(&b);
}
END_TEST

/* The ground truth on a server with no load: a 10 ms freeze every second and
 * a constant 100 us service. A user arriving at a uniform instant is in a
 * freeze with probability 1% and then waits (end - t) + 0.1 ms, uniform on
 * 0.1..10.1 ms (mean 5.1 ms); one arriving in the 0.1 ms before a freeze is
 * caught by it mid-service and waits 10 + 0.1 ms (probability 0.01%); the
 * other 98.99% wait 0.1 ms. Mean = 0.9899 x 0.1 + 0.01 x 5.1 + 0.0001 x 10.1
 * = 0.151 ms. p99.5 lies 0.5% from the top: past the 0.01% at 10.1 ms, 0.49
 * of the way down the freeze's 10.1..0.1 ms: 10.1 - 4.9 = 5.2 ms. */
START_TEST(truth_without_load)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 10 * MS, .period_ns = S};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 100 * US}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_run_config c = {.duration_ns = 100 * S, .threshold_ns = MS, .sub_bits = 10, .server = &srv};
    tester_truth truth = {.interval_ns = 10 * US};
    ck_assert_int_eq(hist_new(&truth.hist, 10), 0);
    tester_result r;
    ck_assert_int_eq(tester_run_with_truth(NULL, &c, NULL, NULL, &truth, &r), 0);
    ck_assert_uint_eq(truth.probes, 10000000);
    ck_assert_msg(fabs(hist_mean(truth.hist) - 151 * US) < 0.002 * 151 * US, "mean %g",
                  hist_mean(truth.hist));
    int64_t p995 = hist_value_at_percentile(truth.hist, HIST_NEAREST_RANK, 995, 1000);
    ck_assert_msg(llabs(p995 - 5200 * US) < 20 * US, "p99.5 %lld", (long long)p995);
    ck_assert_int_eq(hist_max(truth.hist), 10100 * US);
    ck_assert_int_eq(hist_min(truth.hist), 100 * US);
    tester_result_free(&r);
    hist_free(truth.hist);
}
END_TEST

/* Random stalls: Poisson with a mean gap of 1 s, 10 ms each, over 1000 s:
 * about 1000 windows (sd 32); a closed loop on a 1 ms service is caught by
 * each window once (two windows overlap with probability about 1%), so it
 * counts about 1000 samples over 5 ms: within 10%. Every tester of one seed
 * sees the same windows. */
START_TEST(random_stalls)
{
    stall_spec st = {.kind = STALL_RANDOM, .mean_gap_ns = S,
                     .length_dist = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 9};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    tester_run_config c = {.duration_ns = 1000 * S, .threshold_ns = 5 * MS, .sub_bits = 8, .server = &srv};
    tester_result a, b;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &a), 0);
    ck_assert_msg(a.over_threshold > 900 && a.over_threshold < 1100, "%llu stalls seen",
                  (unsigned long long)a.over_threshold);
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &b), 0);
    ck_assert_uint_eq(a.over_threshold, b.over_threshold);
    ck_assert_uint_eq(a.sent, b.sent);
    tester_result_free(&a);
    tester_result_free(&b);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("tester");
    TCase *tc = tcase_create("tester");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, seed002_open_and_closed);
    tcase_add_test(tc, book_example_5_7_counts);
    tcase_add_test(tc, seed000_paced_from_now_and_open);
    tcase_add_test(tc, late_policies);
    tcase_add_test(tc, closed_users_response_time_law);
    tcase_add_test(tc, corrected_users_use_their_own_interval);
    tcase_add_test(tc, limits_and_observer);
    tcase_add_test(tc, corrected_backfill_counts_against_max_requests);
    tcase_add_test(tc, poisson_arrivals_mean_gap);
    tcase_add_test(tc, closed_response_time_law_with_think);
    tcase_add_test(tc, md1_pollaczek_khinchine);
    tcase_add_test(tc, partly_open_request_rate);
    tcase_add_test(tc, connections_block_and_are_counted);
    tcase_add_test(tc, latency_from_intended_adds_lateness);
    tcase_add_test(tc, truth_without_load);
    tcase_add_test(tc, random_stalls);
    suite_add_tcase(s, tc);
    return s;
}
