/* test_combinations.c - the combination test of issue 30: every request's
 * send, intended time and reply, and the counts, from an independent
 * reference (tests/combo.c, written from the docs' formulas; combo.h
 * states the subset it covers) against the engine, over generated
 * scenarios that cover every pair of values of the start and pacing keys
 * (users, threads, stagger, connections, quota, pipeline, batch,
 * schedule, late, latency_from, catch_up_factor, sleep_granularity,
 * warmup, timeout, requests, workers, preemption, in_flight_at_end, a
 * constant think_time), then
 * random ones, to COMBO_CASES cases read and run on both sides. Seeded:
 * COSIM_COMBO_SEED=N reruns another seed (COSIM_COMBO_CASES=N another
 * count). A failure prints the smallest failing scenario the shrinker
 * found, as an INI file, and its first difference.
 */
#define _POSIX_C_SOURCE 200809L
#include "combo.h"
#include "run.h"
#include "scenario_text.h"
#include "tester_log.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMBO_CASES 12000

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 10) : dflt;
}

START_TEST(reference_and_engine_agree_on_every_pair)
{
    const uint64_t seed = env_u64("COSIM_COMBO_SEED", 30), want = env_u64("COSIM_COMBO_CASES", COMBO_CASES);
    combo_gen *g;
    ck_assert_int_eq(combo_gen_new(&g, seed), 0);
    uint64_t cases = 0, refused = 0;
    char why[1024];
    while (cases < want) {
        combo c;
        combo_gen_next(g, &c);
        int rc = combo_check(&c, why, sizeof why);
        combo_gen_result(g, &c, rc != 2);
        if (rc == 2) {
            refused++;
            ck_assert_msg(refused < 50 * want, "the generator makes too few cases the reader takes");
            continue;
        }
        cases++;
        if (rc == 1) {
            combo_shrink(&c);
            char ini[4096];
            combo_ini(&c, ini, sizeof ini);
            combo_check(&c, why, sizeof why);
            fprintf(stderr, "case %llu (seed %llu) differs; the smallest failing scenario:\n%s\n%s\n",
                    (unsigned long long)cases, (unsigned long long)seed, ini, why);
            ck_abort_msg("the reference and the engine differ: %s", why);
        }
    }
    size_t covered, given_up, total;
    combo_gen_pairs(g, &covered, &given_up, &total);
    fprintf(stderr, "combinations: seed %llu, %llu cases (%llu refused by the reader or outside the reference); "
                    "pairs of values: %zu covered, %zu never read, of %zu\n",
            (unsigned long long)seed, (unsigned long long)cases, (unsigned long long)refused, covered, given_up, total);
    /* every pair was tried: covered by a case, or refused in every fill */
    ck_assert_uint_eq(covered + given_up, total);
    combo_gen_free(g);
}
END_TEST

/* ---- The examples of issue 30, each with its figures worked by hand ---- */

/* Run tester 0 of the scenario text, every request logged. */
static void run_text(const char *text, tester_result *r, log_obs *log)
{
    scenario *s = load(text);
    server_config srv = run_server_config(s);
    tester_run_config cfg = run_tester_config(s, &srv);
    memset(log, 0, sizeof *log);
    ck_assert_int_eq(tester_run(&s->testers[0], &cfg, log_request, log, r), 0);
    scenario_free(s);
}

/* stagger with threads: U users in T threads, stagger 1 ms, each user's
 * step U x 2 ms past the run, 100 us service, a run of U / T ms. User u
 * starts at (u mod (U / T)) ms (docs/scenario-format.md, threads), so the
 * T users of each start send together at 0, 1, ..., U / T - 1 ms; the
 * server, idle between (T x 100 us < 1 ms), answers them 100, 200, ...,
 * T x 100 us after the instant. Each latency is from the actual send:
 * max T x 100 us, mean (T + 1) / 2 x 100 us. The (6, 2): sends
 * at 0, 1 and 2 ms, two each, max 0.2 ms, mean 0.15 ms (cosim gave 1.2 ms
 * and 0.333 ms: the users were not a heap, so a user started at 0 was
 * sent after one started at 1 ms, back in time, and timed from its slot). */
START_TEST(stagger_with_threads_sends_each_user_at_its_start)
{
    static const int cases[][2] = {{6, 2}, {6, 3}, {8, 2}, {8, 4}, {9, 3}, {4, 2}, {6, 6}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const int users = cases[k][0], threads = cases[k][1], per = users / threads;
        char text[512];
        snprintf(text, sizeof text,
                 "[scenario]\nduration = %dms\n[service]\ndistribution = constant\ntime = 100us\n"
                 "[tester p]\nkind = paced\nlate = catch_up\nusers = %d\nthreads = %d\nstagger = 1ms\n"
                 "interval = 2ms\n",
                 per, users, threads);
        tester_result r;
        log_obs log;
        run_text(text, &r, &log);
        ck_assert_uint_eq(r.sent, (uint64_t)users);
        ck_assert_uint_eq(r.planned, (uint64_t)users);
        for (size_t i = 0; i < log.n; i++) {
            ck_assert_int_eq(log.rq[i].sent_ns, (int64_t)(i / (size_t)threads) * MS);
            ck_assert_int_eq(log.rq[i].latency_ns, (int64_t)(i % (size_t)threads + 1) * 100000);
            ck_assert_uint_eq(log.rq[i].user % (uint64_t)per, i / (size_t)threads);
        }
        ck_assert_int_eq(hist_max(r.hist), threads * 100000);
        ck_assert_uint_eq(hist_count(r.hist), (uint64_t)users);
        tester_result_free(&r);
    }
}
END_TEST

/* profile = wrk2 at 600/s on 6 connections in 3 threads: each thread's 2
 * connections start 5 ms apart (stagger 5ms), so 3 users at 0 and 3 at
 * 5 ms, each every 6 / 600 s = 10 ms. A 100 us service, 10 ms: the three
 * at 0 answered after 100, 200, 300 us, likewise at 5 ms: max 0.3 ms from
 * the slots (intended = the slot, each sent on it); cosim gave 5.2 ms. */
START_TEST(wrk2_threads_max_is_three_services)
{
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 10ms\n[service]\ndistribution = constant\ntime = 100us\n"
             "[tester w]\nprofile = wrk2\nrate = 600/s\nusers = 6\nthreads = 3\n",
             &r, &log);
    ck_assert_uint_eq(r.sent, 6);
    ck_assert_int_eq(hist_max(r.hist), 300000);
    for (size_t i = 0; i < 6; i++)
        ck_assert_int_eq(log.rq[i].sent_ns, i < 3 ? 0 : 5 * MS);
    tester_result_free(&r);
}
END_TEST

/* quota with a pipeline above it: 3 users (connections), quota 1 per
 * 500 ns, pipeline 2, 100 ns service, 1200 ns. Each user's first place
 * goes at 0, its second waits for the next interval (500), its first
 * again for 1000: 3 sends at each of 0, 500 and 1000 ns, answered 100,
 * 200, 300 ns later each time: mean 200, max 300 ns (cosim gave 266.667
 * and 700: the places were not a heap, a place booked at 0 was sent after
 * those at 500). */
START_TEST(quota_below_pipeline_sends_each_interval)
{
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 1200ns\n[service]\ndistribution = constant\ntime = 100ns\n"
             "[tester q]\nkind = closed\nusers = 3\nquota = 1\nquota_interval = 500ns\npipeline = 2\n",
             &r, &log);
    ck_assert_uint_eq(r.sent, 9);
    for (size_t i = 0; i < 9; i++) {
        ck_assert_int_eq(log.rq[i].sent_ns, (int64_t)(i / 3) * 500);
        ck_assert_int_eq(log.rq[i].latency_ns, (int64_t)(i % 3 + 1) * 100);
    }
    ck_assert_int_eq(hist_max(r.hist), 300);
    ck_assert_int_eq((int64_t)hist_mean(r.hist), 200);
    tester_result_free(&r);
    /* 2 users, quota 2 per 1000 ns, pipeline 4, 1000 ns: each user's first
     * two places go at 0, the other two at 1000 = the end: 4 sends at 0
     * (cosim sent 3), answered after 100, 200, 300, 400 ns */
    run_text("[scenario]\nduration = 1000ns\n[service]\ndistribution = constant\ntime = 100ns\n"
             "[tester q]\nkind = closed\nusers = 2\nquota = 2\nquota_interval = 1000ns\npipeline = 4\n",
             &r, &log);
    ck_assert_uint_eq(r.sent, 4);
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(log.rq[i].sent_ns, 0);
        ck_assert_int_eq(log.rq[i].latency_ns, (int64_t)(i + 1) * 100);
    }
    tester_result_free(&r);
}
END_TEST

/* schedule = shared takes each slot when its user is ready, ties in user
 * order. 2 users, D = 20 ns, 20 ns service, 2 workers; request 0 needs
 * 5 ns more (a request stall), a window [38, 39) ns restarts what is in
 * service, 70 ns. At 0 both send (slots 0 and 20); user 1 is answered at
 * 20, user 0 at 25. User 1, ready first, takes slot 40 and sends at
 * 0 + (40 - 20) = 20; user 0 takes 60 and sends at 0 + (60 - 25) = 35.
 * Both are in service at 38: restarted at 39, both answered at 59, a tie:
 * user 0 first takes 80 and sends at max(59, 35 + 21) = 59; user 1 takes
 * 100 and sends at max(59, 20 + 41) = 61. In send order (the old rule)
 * user 0 took 40 at its reply 25 and user 1 60, and at the tie user 1
 * (sent first) went first. */
START_TEST(shared_slots_taken_when_ready_ties_by_user)
{
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 70ns\n[service]\ndistribution = constant\ntime = 20ns\nworkers = 2\n"
             "[stall r]\nkind = requests\nrequests = 0\nextra = 5ns\n"
             "[stall w]\nkind = windows\nwindows = 38ns..39ns\npreemption = restart\n"
             "[tester s]\nkind = paced\nusers = 2\ninterval = 20ns\nlate = from_now\nschedule = shared\n",
             &r, &log);
    const int64_t sent[6] = {0, 0, 20, 35, 59, 61};
    const uint64_t user[6] = {0, 1, 1, 0, 0, 1};
    ck_assert_uint_eq(r.sent, 6);
    for (size_t i = 0; i < 6; i++) {
        ck_assert_int_eq(log.rq[i].sent_ns, sent[i]);
        ck_assert_uint_eq(log.rq[i].user, user[i]);
    }
    tester_result_free(&r);
}
END_TEST

/* schedule = shared steps by the exact D: 143/us is D = 1000 / 143 =
 * 6.993 ns. One user, 1 ns service, 12 ns: it sends at 0 (slot 0), is
 * ready at 1 and takes slot floor(D) = 6, sending at 0 + (6 - 1) = 5;
 * ready at 6 it takes floor(2 D) = 13 and would send at 5 + 7 = 12, the
 * end: 2 sent. With D truncated to 6 ns the second slot was 12 and a
 * third request went at 11. */
START_TEST(shared_step_is_the_exact_fraction)
{
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 12ns\n[service]\ndistribution = constant\ntime = 1ns\n"
             "[tester s]\nkind = paced\nrate = 143/us\nlate = from_now\nschedule = shared\n",
             &r, &log);
    ck_assert_uint_eq(r.sent, 2);
    ck_assert_int_eq(log.rq[1].sent_ns, 5);
    tester_result_free(&r);
}
END_TEST

/* late = ticker with stagger: profile hey_q, 2 workers at 6/s (3/s each,
 * a tick each 10^9 / 3 ns), 1 s. Each worker ticks at floor(k 10^9 / 3):
 * 333,333,333 and 666,666,666 ns; the third tick is at 1 s, the end, not
 * before it: planned 4 (planned was 6: the ticks were counted from the
 * first, 333,333,333 + 666,666,666 = 999,999,999 < 1 s). hey's runWorker
 * tests its stop before it waits on the ticker (stop_test = when_ready):
 * each worker, ready at 666,766,666 ns, still sends the tick at 1 s:
 * sent 6. The hey_q case with 3 workers likewise. */
START_TEST(ticker_with_stagger_plans_no_tick_at_the_end)
{
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 100us\n"
             "[tester h]\nprofile = hey_q\nusers = 2\nrate = 6/s\n",
             &r, &log);
    ck_assert_uint_eq(r.planned, 4);
    ck_assert_uint_eq(r.sent, 6);
    ck_assert_int_eq(log.rq[0].intended_ns, 333333333);
    ck_assert_int_eq(log.rq[3].intended_ns, 666666666);
    ck_assert_int_eq(log.rq[5].intended_ns, 1000000000);
    tester_result_free(&r);
    /* 3 workers at 7/s each (rate 21/s): ticks at floor(k 10^9 / 7), k = 1
     * .. 6 (k = 7 is the end): 18 planned (was 21: 142,857,142 +
     * 857,142,857 = 999,999,999 counted a seventh); the tick at the end
     * sent too: 21 */
    run_text("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 100us\n"
             "[tester h]\nprofile = hey_q\nusers = 3\nrate = 21/s\n",
             &r, &log);
    ck_assert_uint_eq(r.planned, 18);
    ck_assert_uint_eq(r.sent, 21);
    ck_assert_int_eq(log.rq[17].intended_ns, 857142857);
    ck_assert_int_eq(log.rq[20].intended_ns, 1000000000);
    tester_result_free(&r);
}
END_TEST

/* The overload flag at utilisation exactly 1: an open tester every 49 ns
 * against a constant 49 ns is at 49 / 49 = 1 (rate 1/49 per ns x 49 ns),
 * flagged, as 1 ms / 1 ms is; 50 ns is 0.98, not. Partly-open at D =
 * 98 ns with p_continue 0.5 sends 1 / (98 x 0.5) per ns: x 49 ns = 1.
 * Two workers under 98 ns every 49 ns: 98 / 49 / 2 = 1. */
START_TEST(overload_at_utilisation_exactly_one)
{
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 1us\n[service]\ndistribution = constant\ntime = 49ns\n"
             "[tester o]\nkind = open\ninterval = 49ns\n",
             &r, &log);
    ck_assert_int_eq(r.overloaded, 1);
    ck_assert_int_eq(r.offered_full, 1);
    tester_result_free(&r);
    dist_spec svc = {.kind = DIST_CONSTANT, .a_ns = 49};
    tester_spec t = {.kind = TESTER_OPEN, .interval = {49, 1}};
    ck_assert_int_eq(tester_offered_at_least_one(&t, &svc, 1), 1);
    t.interval.num_ns = 50;
    ck_assert_int_eq(tester_offered_at_least_one(&t, &svc, 1), 0);
    tester_spec po = {.kind = TESTER_PARTLY_OPEN, .interval = {98, 1}, .p_continue = 0.5};
    ck_assert_int_eq(tester_offered_at_least_one(&po, &svc, 1), 1);
    po.interval.num_ns = 99;
    ck_assert_int_eq(tester_offered_at_least_one(&po, &svc, 1), 0);
    dist_spec svc98 = {.kind = DIST_CONSTANT, .a_ns = 98};
    t.interval.num_ns = 49;
    ck_assert_int_eq(tester_offered_at_least_one(&t, &svc98, 2), 1);
    ck_assert_int_eq(tester_offered_at_least_one(&t, &svc98, 3), 0);
    /* 3/s (10^9 / 3 ns) against 333,333,333 ns: 0.999999999, not 1 */
    tester_spec third = {.kind = TESTER_OPEN, .interval = {1000000000, 3}};
    dist_spec s3 = {.kind = DIST_CONSTANT, .a_ns = 333333333};
    ck_assert_int_eq(tester_offered_at_least_one(&third, &s3, 1), 0);
    s3.a_ns = 333333334;
    ck_assert_int_eq(tester_offered_at_least_one(&third, &s3, 1), 1);
}
END_TEST

/* warmup = 0ns is the default written out: read, no warm-up. A warm-up
 * request still in flight at the end under drop: closed, 10 ns service,
 * 15 ns, warm-up 11 ns: sends at 0 (reply 10) and 10 (reply 20, after
 * the end); both are intended before 11 ns, so warm-up: warmup_skipped 2,
 * in flight 1, nothing kept among the dropped latencies (a warm-up request
 * is never measured, so its drop hides nothing). (A warm-up at or past the
 * end, 20 ns here once, is refused since issue 31: it would record
 * nothing.) */
START_TEST(warmup_edges)
{
    scenario *s = load("[scenario]\nduration = 1ms\n[service]\ndistribution = constant\ntime = 10ns\n"
                       "[tester c]\nkind = closed\nwarmup = 0ns\n");
    ck_assert_int_eq(s->testers[0].warmup_ns, 0);
    scenario_free(s);
    tester_result r;
    log_obs log;
    run_text("[scenario]\nduration = 15ns\nin_flight_at_end = drop\n[service]\ndistribution = constant\n"
             "time = 10ns\n[tester c]\nkind = closed\nwarmup = 11ns\n",
             &r, &log);
    ck_assert_uint_eq(r.sent, 2);
    ck_assert_uint_eq(r.warmup_skipped, 2);
    ck_assert_uint_eq(r.in_flight_at_end, 1);
    ck_assert_ptr_null(r.dropped);
    ck_assert_uint_eq(hist_count(r.hist), 0);
    tester_result_free(&r);
}
END_TEST

/* Tiny periodic stalls over a long run: 1 ns every 2 ns, a closed user at
 * a constant 10 ms, 1000 s, through tester_run (the CLI's work estimate
 * would refuse the job, counting 5e11 windows). The first request waits
 * out [0, 1), works 1 ns in each gap [2k + 1, 2k + 2): 10^7 gaps, reply at
 * 2 x 10^7 ns: 20 ms; every later one likewise (sent at an even instant,
 * a window's start): 50,000 requests of 20 ms. Walked window by window
 * that is 5e11 windows (hours); laid in one step a request, it is quick. */
START_TEST(tiny_periodic_stalls_over_a_long_run)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 1, .period_ns = 2};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}, .stalls = &st, .n_stalls = 1,
                         .generator = "mt19937", .seed = 1, .workers = 1};
    tester_run_config cfg = {.duration_ns = 1000000 * MS, .threshold_ns = 100 * MS, .sub_bits = 8, .server = &srv};
    tester_spec t = {.kind = TESTER_CLOSED, .users = 1};
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &cfg, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.sent, 50000);
    ck_assert_int_eq(hist_min(r.hist), 20 * MS);
    ck_assert_int_eq(hist_max(r.hist), 20 * MS);
    tester_result_free(&r);
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("combinations");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, reference_and_engine_agree_on_every_pair);
    tcase_add_test(tc, stagger_with_threads_sends_each_user_at_its_start);
    tcase_add_test(tc, wrk2_threads_max_is_three_services);
    tcase_add_test(tc, quota_below_pipeline_sends_each_interval);
    tcase_add_test(tc, shared_slots_taken_when_ready_ties_by_user);
    tcase_add_test(tc, shared_step_is_the_exact_fraction);
    tcase_add_test(tc, ticker_with_stagger_plans_no_tick_at_the_end);
    tcase_add_test(tc, overload_at_utilisation_exactly_one);
    tcase_add_test(tc, warmup_edges);
    tcase_add_test(tc, tiny_periodic_stalls_over_a_long_run);
    suite_add_tcase(s, tc);
    return s;
}
