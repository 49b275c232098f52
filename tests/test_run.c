/* Tests of run: the work estimate of a job, the budget, and the share of
 * the job a progress line reports. Figures derived by hand in comments. */
#define _POSIX_C_SOURCE 200809L
#include "run.h"
#include "scenario_text.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Suite *test_suite(void);

/* A closed tester is bounded by the server, not by its users at full rate:
 * 1000 users against a 1 ms service for 10 s would be 1000 x 10 s / 1 ms
 * = 10^7 at full rate, but the server completes at most 10 s / 1 ms =
 * 10,000 requests, plus one in flight per user: 11,000. One user with a
 * 9 ms think time is slower than the server: 10 s / 10 ms = 1,000. A zero
 * service leaves only the think time: 5 users x 10 s / 1 ms = 50,000. */
START_TEST(closed_estimate_uses_server_capacity)
{
    scenario *s = load("[scenario]\nduration = 10s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester many]\nkind = closed\nusers = 1000\n"
                       "[tester thinking]\nkind = closed\nthink_distribution = constant\nthink_time = 9ms\n");
    ck_assert_double_eq(run_tester_requests(s, &s->testers[0]), 11000);
    ck_assert_double_eq(run_tester_requests(s, &s->testers[1]), 1000);
    scenario_free(s);
    s = load("[scenario]\nduration = 10s\n[service]\ndistribution = constant\ntime = 0ns\n"
             "[tester c]\nkind = closed\nusers = 5\nthink_distribution = constant\nthink_time = 1ms\n");
    ck_assert_double_eq(run_tester_requests(s, &s->testers[0]), 50000);
    scenario_free(s);
}
END_TEST

/* Issue 16: a closed tester of 101 users against a 1 ms service for
 * 10,000 s was refused up front (101 x 10^4 s / 1 ms = 1.01e9 at full
 * rate, past the default max_requests of 10^9) though it sends about
 * 10^7: the server completes at most 10^4 s / 1 ms = 10^7, plus one in
 * flight per user, 10,000,101. The same bound refuses it when
 * max_requests is below that (10^6). */
START_TEST(closed_many_users_accepted_by_capacity)
{
    scenario *s = load("[scenario]\nduration = 10000s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester many]\nkind = closed\nusers = 101\n");
    ck_assert_double_eq(run_tester_requests(s, &s->testers[0]), 10000101);
    scenario_free(s);
    const char *text = "[scenario]\nduration = 10000s\nmax_requests = 1000000\n[service]\ndistribution = "
                       "constant\ntime = 1ms\n[tester many]\nkind = closed\nusers = 101\n";
    char err[1024];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_int_ne(scenario_load_stream(&s, f, "t.ini", NULL, 0, err, sizeof err), SCENARIO_OK);
    fclose(f);
    ck_assert_str_eq(err, "t.ini:7: [tester many] would send about 1e+07 requests in 1e+04 s, more than "
                          "max_requests = 1000000; shorten [scenario] duration, lower the rate, or raise "
                          "max_requests");
}
END_TEST

/* Testers on a schedule send at most their plan: open 1000/s for 10 s plans
 * 10,000; paced 3/s for 20 s plans 60 (t_i = floor(i 10^9 / 3) < 20 s for
 * i < 60). Poisson 800/s for 8000 s: 6.4 million on average. Partly-open
 * sessions at 10/s for 100 s, each of 1 / (1 - 0.5) = 2 requests on
 * average: 2,000. */
START_TEST(scheduled_estimates_are_the_plan)
{
    scenario *s = load("[scenario]\nduration = 10s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester open]\nkind = open\nrate = 1000/s\n");
    ck_assert_double_eq(run_tester_requests(s, &s->testers[0]), 10000);
    scenario_free(s);
    s = load("[scenario]\nduration = 20s\n[service]\ndistribution = constant\ntime = 1ms\n"
             "[tester paced]\nkind = paced\nrate = 3/s\nlate = from_now\n");
    ck_assert_double_eq(run_tester_requests(s, &s->testers[0]), 60);
    scenario_free(s);
    s = load("[scenario]\nduration = 8000s\n[service]\ndistribution = constant\ntime = 1ms\n"
             "[tester p]\nkind = open\nrate = 800/s\narrivals = poisson\n");
    ck_assert_double_eq_tol(run_tester_requests(s, &s->testers[0]), 6.4e6, 1e-3);
    scenario_free(s);
    s = load("[scenario]\nduration = 100s\n[service]\ndistribution = constant\ntime = 1ms\n"
             "[tester po]\nkind = partly_open\nrate = 10/s\np_continue = 0.5\n");
    ck_assert_double_eq_tol(run_tester_requests(s, &s->testers[0]), 2000, 1e-6);
    scenario_free(s);
}
END_TEST

/* A corrected tester's backfill counts as the buckets it fills, not as the
 * values it adds. 1000/s for 10 s, D = 1 ms, S = 8: 10,000 requests.
 * 1,000,000 ns has bit length 20, shift 12, top bits 244: bucket
 * 256 + 11 x 128 + 116 = 1780 of 7424, so B = 5644 buckets from D up. Per
 * request at most B: 5.644e7; one user's added values at most
 * 10 s / 1 ms = 10,000, plus B for its last reply: 15,644. Work:
 * 10,000 + 15,644 = 25,644. A 1000 s stall at 1 ns adds 10^12 values but
 * costs at most a few thousand buckets. */
START_TEST(corrected_backfill_counts_buckets)
{
    scenario *s = load("[scenario]\nduration = 10s\n[service]\ndistribution = constant\ntime = 100us\n"
                       "[tester c]\nkind = corrected\nrate = 1000/s\nlate = from_now\n");
    ck_assert_double_eq(run_tester_work(s, &s->testers[0]), 25644);
    scenario_free(s);
    /* expected_interval = 1 ns, one request a second for 2 s: B = 7424 - 1;
     * per request 2 x 7423 = 14,846 is less than 2 s / 1 ns = 2 x 10^9 */
    s = load("[scenario]\nduration = 2s\n[service]\ndistribution = constant\ntime = 1ms\n"
             "[tester c]\nkind = corrected\nrate = 1/s\nlate = from_now\nexpected_interval = 1ns\n");
    ck_assert_double_eq(run_tester_work(s, &s->testers[0]), 2 + 2 * 7423);
    scenario_free(s);
}
END_TEST

/* wrk's exit-time backfill counts too (it did not: a wrk tester was
 * estimated at its requests alone). A closed user, wrk's backfill, 1 ms
 * service for 10 s: 10 s / 1 ms = 10,000 requests; D = 10 s / 10,000 =
 * 1 ms; values above 2D are backfilled: 2,000,000 ns has bit length 21,
 * shift 13, top bits 244: bucket 256 + 12 x 128 + 116 = 1908 of 7424
 * (S = 8), B = 5516. Added work min(10,000 x 5516, 1 x (10,000 + 5516)) =
 * 15,516, plus the scan of B = 5516: 10,000 + 15,516 + 5516 = 31,032; the
 * same tester without the backfill: 10,000. */
START_TEST(backfill_counts_as_work)
{
    scenario *s = load("[scenario]\nduration = 10s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester w]\nprofile = wrk\n[tester c]\nkind = closed\n");
    ck_assert_double_eq(run_tester_work(s, &s->testers[0]), 31032);
    ck_assert_double_eq(run_tester_work(s, &s->testers[1]), 10000);
    scenario_free(s);
}
END_TEST

/* The truth is part of the job: scenarios/mm1_rho08.ini runs its open loop
 * (800/s Poisson for 8000 s: 6.4e6), then the truth's probes every 2 ms
 * (8000 s / 2 ms = 4e6) on a second run of the open loop (6.4e6):
 * 6.4e6 + 4e6 + 6.4e6 = 1.68e7 per run. */
START_TEST(truth_probes_and_load_count)
{
    char path[1024], err[1024];
    const char *root = getenv("COSIM_SOURCE_ROOT");
    snprintf(path, sizeof path, "%s/scenarios/mm1_rho08.ini", root ? root : ".");
    scenario *s;
    ck_assert_msg(scenario_load(&s, path, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    run_work w;
    run_estimate(s, &w);
    ck_assert_double_eq_tol(w.tester[0], 6.4e6, 1e-3);
    ck_assert_double_eq_tol(w.truth, 4e6 + 6.4e6, 1e-3);
    ck_assert_double_eq_tol(w.total, 1.68e7, 1e-3);
    scenario_free(s);
}
END_TEST

/* The budget: 64 testers x 10^9 requests x 1000 replications is 6.4e13
 * units, refused with the figures; 10^10 itself is allowed; --allow-long
 * allows anything. */
/* The stop-the-world windows the charts draw come from the run layer:
 * windows 1s..2s, 3s..4s, 5s..6s. Those ending after 1.5 s and starting
 * before 6 s are all three; after 2.5 s, the last two; before 5 s (a start
 * at 5 s is not before it), 3s..4s alone; and at most max of them. */
START_TEST(stop_windows_for_the_charts)
{
    scenario *s = load("[scenario]\nduration = 10s\n[service]\ndistribution = constant\ntime = 10ms\n"
                       "[stall w]\nkind = windows\nwindows = 1s..2s, 3s..4s, 5s..6s\n"
                       "[tester c]\nkind = closed\n");
    const int64_t S = 1000000000;
    stall_window w[8];
    size_t n = 99;
    ck_assert_int_eq(run_stop_windows(s, S + S / 2, 6 * S, w, 8, &n), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(w[0].start_ns, S);
    ck_assert_int_eq(w[2].end_ns, 6 * S);
    ck_assert_int_eq(run_stop_windows(s, 2 * S + S / 2, 6 * S, w, 8, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(w[0].start_ns, 3 * S);
    ck_assert_int_eq(run_stop_windows(s, 2 * S + S / 2, 5 * S, w, 8, &n), 0);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(w[0].end_ns, 4 * S);
    ck_assert_int_eq(run_stop_windows(s, 0, 10 * S, w, 2, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(w[1].start_ns, 3 * S);
    scenario_free(s);
}
END_TEST

/* Stall windows the server walks are work (issue "runs past the work
 * budget", item 1). 1 ns every 2 ns from 0, a closed user at a constant
 * 10 ms for 1000 s: 1000 s / 10 ms = 1e5 requests; the span is the
 * duration plus one request in flight, 1e12 + 1e7 ns, holding
 * (1e12 + 1e7) / 2 + 1 = 500,005,000,001 windows: 500,005,100,001 units,
 * refused by the budget (it used to be estimated at 1e5 and run for
 * hours). An explicit windows stall counts its windows (3); a random one
 * every 1 s on average 1000.01 s / 1 s = 1000.01. The server's limit is
 * ten times the most windows plus 1e8. */
START_TEST(stall_windows_count_as_work)
{
    scenario *s = load("[scenario]\nduration = 1000s\n[service]\ndistribution = constant\ntime = 10ms\n"
                       "[stall s]\nkind = periodic\nlength = 1ns\nperiod = 2ns\n"
                       "[tester c]\nkind = closed\n");
    ck_assert_double_eq(run_stall_windows(s, &s->testers[0]), 500005000001.0);
    ck_assert_double_eq(run_tester_work(s, &s->testers[0]), 500005100001.0);
    ck_assert_uint_eq(run_window_limit(s), 5000150000010ull); /* 10 x 500,005,000,001 + 1e8 */
    run_work w;
    run_estimate(s, &w);
    char err[1024];
    ck_assert_int_eq(run_check_budget(w.total, "1 tester x 1 replication", 0, err, sizeof err), -EFBIG);
    ck_assert_str_eq(err, "the job would take about 5e+11 units of work (1 tester x 1 replication), more "
                          "than the budget of 1e+10 (a unit is a simulated request, a truth probe, a stall "
                          "window walked or a histogram bucket of a correction); shorten it, or give "
                          "--allow-long to run it anyway");
    scenario_free(s);
    s = load("[scenario]\nduration = 1000s\n[service]\ndistribution = constant\ntime = 10ms\n"
             "[stall w]\nkind = windows\nwindows = 1s..2s, 3s..4s, 5s..6s\n"
             "[stall r]\nkind = random\nevery = 1s\nlength_distribution = constant\nlength_time = 1ms\n"
             "[tester c]\nkind = closed\n");
    ck_assert_double_eq_tol(run_stall_windows(s, &s->testers[0]), 3 + 1000.01, 1e-6);
    scenario_free(s);
}
END_TEST

/* Estimates use the mean of the draws as made, capped at 1,000,000 s
 * (item 4). A Pareto of minimum 1 ns and index 1.0000001: the plain mean
 * m a / (a - 1) is 10 ms, the capped one 1 + (1e15^(-1e-7) - 1) / -1e-7
 * = 35.5387 ns, so a closed user for 1 s sends 1e9 / 35.5387 = 2.8138e7
 * (it used to be estimated at 100). A lognormal of median 1 ms and sigma
 * 10: e^(ln 1e6 + 50) Phi((ln 1e15 - ln 1e6 - 100) / 10) + 1e15 (1 -
 * Phi((ln 1e15 - ln 1e6) / 10)) = 2.4906e13 ns (plain: 5.2e27). A gamma
 * and an exponential of mean 1 s lose nothing to the cap. */
START_TEST(estimates_use_the_capped_mean)
{
    dist_spec p = {.kind = DIST_PARETO, .a_ns = 1, .shape = 1.0000001};
    ck_assert_double_eq_tol(dist_mean_drawn_ns(&p), 35.538716748625575, 1e-6);
    dist_spec ln = {.kind = DIST_LOGNORMAL, .a_ns = 1000000, .shape = 10};
    ck_assert_double_eq_tol(dist_mean_drawn_ns(&ln) / 24905951202992.4, 1, 1e-9);
    dist_spec g = {.kind = DIST_GAMMA, .a_ns = 1000000000, .shape = 0.5};
    ck_assert_double_eq_tol(dist_mean_drawn_ns(&g), 1e9, 1e-3);
    dist_spec e = {.kind = DIST_EXPONENTIAL, .a_ns = 1000000000};
    ck_assert_double_eq_tol(dist_mean_drawn_ns(&e), 1e9, 1e-3);
    dist_spec n = {.kind = DIST_NORMAL, .a_ns = 1000000000000000, .b_ns = 1000000000000000};
    ck_assert_double_eq(dist_mean_drawn_ns(&n), 1e15); /* 1.29e15 truncated at 0, capped */
    scenario *s = load("[scenario]\nduration = 1s\n[service]\ndistribution = pareto\nminimum = 1ns\n"
                       "shape = 1.0000001\n[tester c]\nkind = closed\n");
    ck_assert_double_eq_tol(run_tester_requests(s, &s->testers[0]), 1e9 / 35.538716748625575, 1e-3);
    scenario_free(s);
}
END_TEST

START_TEST(budget_refuses_with_the_estimate)
{
    char err[1024];
    ck_assert_int_eq(run_check_budget(6.4e13, "64 testers x 1000 replications", 0, err, sizeof err), -EFBIG);
    ck_assert_str_eq(err, "the job would take about 6.4e+13 units of work (64 testers x 1000 replications), "
                          "more than the budget of 1e+10 (a unit is a simulated request, a truth probe, a "
                          "stall window walked or a histogram bucket of a correction); shorten it, or give --allow-long to run it "
                          "anyway");
    ck_assert_int_eq(run_check_budget(1e10, "x", 0, err, sizeof err), 0);
    ck_assert_int_eq(run_check_budget(6.4e13, "x", 1, err, sizeof err), 0);
}
END_TEST

/* The progress line's share covers the whole job. 64 testers of 10^9
 * requests each, 1000 replications: when the first tester of the first
 * replication is half done, 0.5 / 64,000 of the job is; after 3 s that
 * leaves 3 (1 - s) / s = 383,997 s, 4.4 days (the per-tester ETA said
 * "3 s left"). Replication 3 of 10 with a truth: the runs before, the
 * testers before, and the part of the one running. */
START_TEST(progress_share_covers_the_job)
{
    run_work w;
    memset(&w, 0, sizeof w);
    for (int i = 0; i < 64; i++)
        w.tester[i] = 1e9;
    w.total = 64e9;
    double share = run_job_share(&w, 64, 1000, 0, 0, 0.5);
    ck_assert_double_eq_tol(share, 0.5 / 64000, 1e-15);
    char buf[32];
    ck_assert_str_eq(run_format_time_left(3, share, buf, sizeof buf), "4.4 days");
    ck_assert_double_eq(run_job_share(&w, 64, 1000, 999, 63, 1), 1);

    /* two testers of 100 and 300 units and a truth of 600: 1000 a run; in
     * replication 3 (rep = 2) of 10, the truth a quarter done:
     * (2 x 1000 + 100 + 300 + 150) / 10000 = 0.255 */
    memset(&w, 0, sizeof w);
    w.tester[0] = 100;
    w.tester[1] = 300;
    w.truth = 600;
    w.total = 1000;
    ck_assert_double_eq_tol(run_job_share(&w, 2, 10, 2, 2, 0.25), 0.255, 1e-12);
    /* tester 2 of 2 half done: (2000 + 100 + 150) / 10000 */
    ck_assert_double_eq_tol(run_job_share(&w, 2, 10, 2, 1, 0.5), 0.225, 1e-12);
    ck_assert_str_eq(run_format_time_left(10, 0.5, buf, sizeof buf), "10 s");
    ck_assert_str_eq(run_format_time_left(600, 0.5, buf, sizeof buf), "10 min");
    ck_assert_str_eq(run_format_time_left(7200, 0.5, buf, sizeof buf), "2.0 h");
    ck_assert_str_eq(run_format_time_left(5, 0, buf, sizeof buf), "unknown");
}
END_TEST

/* A stall file changed between the scenario's reading and the run is
 * refused, naming the stall and the file: the scenario read 1s,100ms and
 * 3s,100ms, a line appended afterwards (the size
 * grows from 18 to 27 bytes) and the run stops with -ESTALE before any
 * request, instead of simulating a window that was never checked; with the
 * file as it was read, the same run succeeds (10/s for 5 s: 50 requests). */
START_TEST(changed_stall_file_refused)
{
    char dir[] = "/tmp/cosim_test_runXXXXXX", ini[128], csv[128], err[1024];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(ini, sizeof ini, "%s/s.ini", dir);
    snprintf(csv, sizeof csv, "%s/w.csv", dir);
    FILE *f = fopen(ini, "w");
    fputs("[scenario]\nduration = 5s\n[service]\ndistribution = constant\ntime = 1ms\n"
          "[stall gc]\nkind = file\nfile = w.csv\n[tester o]\nkind = open\nrate = 10/s\n", f);
    ck_assert_int_eq(fclose(f), 0);
    f = fopen(csv, "w");
    fputs("1s,100ms\n3s,100ms\n", f);
    ck_assert_int_eq(fclose(f), 0);
    scenario *s;
    run_result r;
    ck_assert_msg(scenario_load(&s, ini, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(run_scenario(s, &r, err, sizeof err), 0);
    ck_assert_uint_eq(r.testers[0].sent, 50);
    run_result_free(&r);
    f = fopen(csv, "a");
    fputs("4s,10ms\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(run_scenario(s, &r, err, sizeof err), -ESTALE);
    char want[256];
    snprintf(want, sizeof want, "[tester o] [stall gc]: %s changed after the scenario was read", csv);
    ck_assert_msg(strstr(err, want) != NULL, "%s", err);
    scenario_free(s);
    unlink(csv);
    unlink(ini);
    rmdir(dir);
}
END_TEST

/* A run cut into parts (run_scenario_part: each tester, the truth), each
 * handed over as bytes (run_part_save / run_part_load, as the browser's
 * workers do), is the whole run: every tester's figures and histograms,
 * the truth's probes and histogram, exactly (hist_equal). Testers that use
 * every saved array: a corrected one (added values), a paced one that
 * drops the replies in flight at the end (the dropped histogram), an open
 * one with a VU pool that drops arrivals (drops_per_s), a closed one whose
 * queue wait is recorded. Bytes cut short or given twice are refused. */
START_TEST(parts_merge_into_the_whole_run)
{
    scenario *s = load("[scenario]\nduration = 3s\nseed = 9\nqueue_wait = record\nin_flight_at_end = drop\n"
                       "[service]\ndistribution = lognormal\nmedian = 2ms\nsigma = 0.5\n"
                       "[stall gc]\nkind = periodic\nlength = 50ms\nperiod = 700ms\nfirst = 100ms\n"
                       "[tester closed]\nkind = closed\nusers = 2\n"
                       "[tester corrected]\nkind = corrected\nrate = 200/s\n"
                       "[tester paced]\nkind = paced\nrate = 300/s\n"
                       "[tester vus]\nkind = open\nrate = 400/s\nvus = 2\n"
                       "[truth]\ninterval = 1ms\nload = paced\n");
    char err[512];
    run_result whole, merged;
    ck_assert_int_eq(run_scenario(s, &whole, err, sizeof err), 0);
    /* the parts with no tape; with one tape for all, in reverse order (the
     * truth's load first); with a tape of 256 draws (the closed tester
     * sends more than 1,000 requests); twice on one tape, as the browser's
     * workers run them from one change to the next */
    server_tape *tape = NULL, *small = NULL;
    ck_assert_int_eq(server_tape_new(&tape, 0), 0);
    ck_assert_int_eq(server_tape_new(&small, 256), 0);
    for (int mode = 0; mode < 4; mode++) {
        memset(&merged, 0, sizeof merged);
        for (size_t q = 0; q <= s->n_testers; q++) {
            size_t p = mode == 1 ? s->n_testers - q : q;
            server_tape *t = mode == 0 ? NULL : mode == 2 ? small : tape;
            run_result part;
            ck_assert_int_eq(run_scenario_part(s, p, t, NULL, NULL, &part, err, sizeof err), 0);
            char *bytes = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&bytes, &len);
            ck_assert_int_eq(run_part_save(s, &part, p, f), 0);
            ck_assert_int_eq(fclose(f), 0);
            run_result_free(&part);
            const unsigned char *at = (const unsigned char *)bytes;
            /* cut short: refused, nothing half-taken */
            run_result cut;
            memset(&cut, 0, sizeof cut);
            ck_assert_int_eq(run_part_load(s, &cut, p, &at, at + len - 1), -EINVAL);
            run_result_free(&cut);
            at = (const unsigned char *)bytes;
            ck_assert_int_eq(run_part_load(s, &merged, p, &at, at + len), 0);
            ck_assert_ptr_eq(at, (const unsigned char *)bytes + len);
            at = (const unsigned char *)bytes; /* the same part again */
            ck_assert_int_eq(run_part_load(s, &merged, p, &at, at + len), -EINVAL);
            free(bytes);
        }
        ck_assert_uint_eq(merged.n, whole.n);
        for (size_t i = 0; i < s->n_testers; i++) {
            const tester_result *a = &whole.testers[i], *b = &merged.testers[i];
            ck_assert_uint_eq(a->sent, b->sent);
            ck_assert_uint_eq(a->planned, b->planned);
            ck_assert_uint_eq(a->added, b->added);
            ck_assert_uint_eq(a->dropped_arrivals, b->dropped_arrivals);
            ck_assert_uint_eq(a->n_drop_seconds, b->n_drop_seconds);
            ck_assert_uint_eq(a->n_stall_spans, b->n_stall_spans);
            ck_assert_int_eq(a->busy_ns, b->busy_ns);
            ck_assert(hist_equal(a->hist, b->hist));
            ck_assert((a->wait == NULL) == (b->wait == NULL));
            ck_assert(!a->wait || hist_equal(a->wait, b->wait));
            ck_assert((a->dropped == NULL) == (b->dropped == NULL));
            ck_assert(!a->dropped || hist_equal(a->dropped, b->dropped));
            if (a->n_drop_seconds)
                ck_assert_int_eq(memcmp(a->drops_per_s, b->drops_per_s, a->n_drop_seconds * sizeof *a->drops_per_s), 0);
            if (a->n_stall_spans)
                ck_assert_int_eq(memcmp(a->stall_spans, b->stall_spans, a->n_stall_spans * sizeof *a->stall_spans), 0);
        }
        /* the arrays this test means to carry are there */
        ck_assert_uint_gt(whole.testers[1].added, 0);
        ck_assert_uint_gt(whole.testers[3].dropped_arrivals, 0);
        ck_assert_ptr_nonnull(whole.testers[0].wait);
        ck_assert_int_eq(merged.has_truth, 1);
        ck_assert_uint_eq(merged.truth_probes, whole.truth_probes);
        ck_assert_uint_gt(whole.truth_probes, 2000);
        ck_assert(hist_equal(merged.truth, whole.truth));
        run_result_free(&merged);
    }
    /* the tape holds the most requests a server took, in whole batches of
     * 128: the closed tester's (its two users send the most) */
    uint64_t most = 0;
    for (size_t i = 0; i < s->n_testers; i++)
        most = whole.testers[i].sent > most ? whole.testers[i].sent : most;
    ck_assert_uint_gt(most, 1000);
    ck_assert_uint_eq(server_tape_draws(tape), (most + 127) / 128 * 128);
    ck_assert_uint_eq(server_tape_draws(small), 256);
    server_tape_free(tape);
    server_tape_free(small);
    run_result part;
    ck_assert_int_eq(run_scenario_part(s, s->n_testers + 1, NULL, NULL, NULL, &part, err, sizeof err), -EINVAL);
    run_result_free(&whole);
    scenario_free(s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("run");
    tcase_add_test(tc, closed_estimate_uses_server_capacity);
    tcase_add_test(tc, parts_merge_into_the_whole_run);
    tcase_add_test(tc, changed_stall_file_refused);
    tcase_add_test(tc, closed_many_users_accepted_by_capacity);
    tcase_add_test(tc, scheduled_estimates_are_the_plan);
    tcase_add_test(tc, corrected_backfill_counts_buckets);
    tcase_add_test(tc, backfill_counts_as_work);
    tcase_add_test(tc, truth_probes_and_load_count);
    tcase_add_test(tc, stall_windows_count_as_work);
    tcase_add_test(tc, stop_windows_for_the_charts);
    tcase_add_test(tc, estimates_use_the_capped_mean);
    tcase_add_test(tc, budget_refuses_with_the_estimate);
    tcase_add_test(tc, progress_share_covers_the_job);
    suite_add_tcase(s, tc);
    return s;
}
