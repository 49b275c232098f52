/* Tests of the profile table (scn_profile.c): every row's settings are keys
 * of its kind with valid values, the names table follows the rows, the
 * docs name every profile, and a profile loads as its settings written
 * out, with the section's own keys winning or refused as the row says. */
#include "scenario.h"
#include "scn_keys.h"
#include "scn_profile.h"
#include "tester.h"
#include "tester_log.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

static char err[1024];

/* Load text as a scenario (from a memory stream). */
static scenario_error load(const char *text, scenario **out)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(f);
    scenario_error rc = scenario_load_stream(out, f, "t.ini", NULL, 0, err, sizeof err);
    fclose(f);
    return rc;
}

#define HEAD "[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"

START_TEST(names_follow_the_rows)
{
    ck_assert_uint_eq(scn_profile_names.n, scn_profiles_n + 1);
    ck_assert_str_eq(scn_profile_names.names[0], "none");
    for (size_t i = 0; i < scn_profiles_n; i++) {
        ck_assert_str_eq(scn_profile_names.names[i + 1], scn_profiles[i].name);
        ck_assert_ptr_eq(scn_profile_find(scn_profiles[i].name), &scn_profiles[i]);
    }
    ck_assert_ptr_null(scn_profile_find("none"));
    ck_assert_ptr_null(scn_profile_find("wrk3"));
}
END_TEST

/* Each row's kind is a tester kind, and each of its settings is a key of
 * that kind whose value is one of the key's words. */
START_TEST(settings_are_keys_of_the_kind)
{
    for (size_t i = 0; i < scn_profiles_n; i++) {
        const scn_profile *p = &scn_profiles[i];
        ck_assert_str_eq(p->set[0].key, "kind");
        int kind = names_find(tester_kind_names, p->set[0].value);
        ck_assert_msg(kind >= 0, "%s: kind %s", p->name, p->set[0].value);
        for (const scn_profile_setting *s = p->set; s->key; s++) {
            const scn_key *k = scn_keys_find(SCN_SEC_TESTER, kind, s->key);
            ck_assert_msg(k != NULL, "%s: %s is no key of a %s tester", p->name, s->key, p->set[0].value);
            ck_assert_msg(s->fixed == 2 ? s->value == NULL : s->value != NULL, "%s: %s", p->name, s->key);
            if (k->type == SCN_T_CHOICE && s->value)
                ck_assert_msg(names_find(*k->choices, s->value) >= 0, "%s: %s = %s", p->name, s->key, s->value);
        }
    }
}
END_TEST

/* docs/scenario-format.md's profile table and docs/models.md name every
 * profile, and scenarios/tools/ has its scenario. */
START_TEST(docs_name_every_profile)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    const char *files[] = {"docs/scenario-format.md", "docs/models.md"};
    for (size_t f = 0; f < 2; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root ? root : ".", files[f]);
        FILE *in = fopen(path, "r");
        ck_assert_msg(in != NULL, "cannot read %s", path);
        char *text = calloc(1, 1 << 20);
        size_t n = fread(text, 1, (1 << 20) - 1, in);
        text[n] = '\0';
        fclose(in);
        for (size_t i = 0; i < scn_profiles_n; i++) {
            char cell[96];
            snprintf(cell, sizeof cell, "| `%s` |", scn_profiles[i].name);
            ck_assert_msg(strstr(text, cell) != NULL, "%s has no row %s", files[f], cell);
        }
        free(text);
    }
    for (size_t i = 0; i < scn_profiles_n; i++) { /* and its scenario */
        char path[4096];
        snprintf(path, sizeof path, "%s/scenarios/tools/%s.ini", root ? root : ".", scn_profiles[i].name);
        FILE *in = fopen(path, "r");
        ck_assert_msg(in != NULL, "profile %s has no %s", scn_profiles[i].name, path);
        fclose(in);
    }
}
END_TEST

/* profile = wrk2 is kind = paced, late = catch_up, latency_from = intended. */
START_TEST(wrk2_expands)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester w]\nprofile = wrk2\nrate = 100/s\nusers = 4\n", &s) == SCENARIO_OK, "%s", err);
    const tester_spec *t = &s->testers[0];
    ck_assert_int_eq(t->kind, TESTER_PACED);
    ck_assert_int_eq(t->late, TESTER_LATE_CATCH_UP);
    ck_assert_int_eq(t->latency_from_intended, 1);
    ck_assert_uint_eq(t->users, 4);
    ck_assert_uint_eq(t->interval.num_ns / t->interval.den, 10000000);
    ck_assert_uint_eq(t->catch_up_factor, 2); /* wrk2's catch_up_throughput = 2 x throughput */
    scenario_free(s);
}
END_TEST

/* profile = wrk backfills with the average interval and records up to
 * wrk's default timeout, 2 s, which the section may change (-T). */
START_TEST(wrk_expands)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester w]\nprofile = wrk\nusers = 2\n", &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->testers[0].kind, TESTER_CLOSED);
    ck_assert_int_eq(s->testers[0].backfill, 1);
    ck_assert_int_eq(s->testers[0].timeout_ns, 2000000000);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester w]\nprofile = wrk\ntimeout = 500ms\n", &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->testers[0].timeout_ns, 500000000);
    scenario_free(s);
    s = NULL;
    ck_assert_int_eq(load(HEAD "[tester w]\nprofile = wrk\nbackfill = none\n", &s), SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:8: [tester w] backfill = none: profile wrk fixes backfill = average_interval "
                          "(the tool's behaviour: docs/models.md); remove this key or the profile");
}
END_TEST

/* k6's constant-arrival-rate needs preAllocatedVUs (vus) and takes maxVUs
 * (max_vus, default vus); hey_q is paced with Go's ticker. */
START_TEST(k6_needs_vus_hey_q_ticks)
{
    scenario *s = NULL;
    ck_assert_int_eq(load(HEAD "[tester k]\nprofile = k6_constant_arrival_rate\nrate = 100/s\n", &s),
                     SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:7: [tester k] profile = k6_constant_arrival_rate: profile k6_constant_arrival_rate "
                          "needs vus (the tool has no default: docs/models.md)");
    ck_assert_msg(load(HEAD "[tester k]\nprofile = k6_constant_arrival_rate\nrate = 100/s\nvus = 3\n", &s) ==
                      SCENARIO_OK,
                  "%s", err);
    ck_assert_uint_eq(s->testers[0].vus, 3);
    ck_assert_uint_eq(s->testers[0].max_vus, 3);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester k]\nprofile = k6_constant_arrival_rate\nrate = 100/s\nvus = 3\nmax_vus = 7\n",
                       &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_uint_eq(s->testers[0].max_vus, 7);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester h]\nprofile = hey_q\nrate = 100/s\nusers = 2\n", &s) == SCENARIO_OK, "%s",
                  err);
    ck_assert_int_eq(s->testers[0].kind, TESTER_PACED);
    ck_assert_int_eq(s->testers[0].late, TESTER_LATE_TICKER);
    ck_assert_int_eq(s->testers[0].latency_from_intended, 0);
    ck_assert_int_eq(s->testers[0].stop_test, TESTER_STOP_WHEN_READY); /* runWorker: stop, then the tick */
    scenario_free(s);
    /* when_ready is a ticker's: refused with another late policy */
    ck_assert_int_eq(load(HEAD "[tester p]\nkind = paced\nrate = 100/s\nstop_test = when_ready\n", &s),
                     SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:9: [tester p] stop_test = when_ready: when_ready is a ticker's stop test (hey -q): "
                          "a paced tester with late = ticker only");
}
END_TEST

/* A default yields to the section's key; a fixed setting refuses another
 * value and accepts its own. */
START_TEST(section_keys_override_or_conflict)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester h]\nprofile = hyperfoil_constant_rate\nrate = 100/s\n", &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_int_eq(s->testers[0].arrivals, TESTER_ARRIVALS_POISSON);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester h]\nprofile = hyperfoil_constant_rate\nrate = 100/s\narrivals = fixed\n", &s) ==
                      SCENARIO_OK,
                  "%s", err);
    ck_assert_int_eq(s->testers[0].arrivals, TESTER_ARRIVALS_FIXED);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester w]\nprofile = wrk2\nkind = paced\nrate = 100/s\n", &s) == SCENARIO_OK, "%s",
                  err);
    scenario_free(s);
    s = NULL;
    ck_assert_int_eq(load(HEAD "[tester w]\nprofile = wrk2\nrate = 100/s\nlatency_from = actual\n", &s),
                     SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:9: [tester w] latency_from = actual: profile wrk2 fixes latency_from = intended "
                          "(the tool's behaviour: docs/models.md); remove this key or the profile");
    ck_assert_int_eq(load(HEAD "[tester w]\nprofile = vegeta_maxworkers\nrate = 100/s\n", &s), SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:7: [tester w] profile = vegeta_maxworkers: unknown profile; did you mean "
                          "'vegeta_max_workers'?");
}
END_TEST

/* JMeter's Constant Throughput Timer rounds its delay to whole ms
 * (ConstantThroughputTimer.calculateDelay, Math.round = floor(x + 0.5)).
 * 420/min: 60000 / 420 = 142.857 ms, rounded 143 ms; one thread, 1 ms
 * service, 1.3 s: samples at 0, 143, ..., the 10th at 9 x 143 = 1287 ms
 * (exact: 9 x 142.857 = 1285.714 ms); 10 sent (10 x 143 = 1430 > 1300).
 * All active threads, 4 threads at 420/min in all: each thread's delay is
 * round(4 x 142.857) = round(571.43) = 571 ms (not 4 x 143 = 572): the
 * tester's interval 571 / 4 = 142.75 ms. Shared, 4 threads: the schedule's
 * step round(142.857) = 143 ms. A grain past twice the step: refused. */
START_TEST(jmeter_ctt_rounds_to_whole_ms)
{
    scenario *s = NULL;
    ck_assert_msg(load("[scenario]\nduration = 1300ms\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester j]\nprofile = jmeter_ctt_this_thread\nrate = 420/min\n",
                       &s) == SCENARIO_OK,
                  "%s", err);
    const tester_spec *t = &s->testers[0];
    ck_assert_uint_eq(t->interval.num_ns, 143000000u);
    ck_assert_uint_eq(t->interval.den, 1);
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = MS}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    tester_run_config c = {.duration_ns = 1300 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    log_obs log = {0};
    tester_result r;
    ck_assert_int_eq(tester_run(t, &c, log_request, &log, &r), 0);
    ck_assert_uint_eq(r.sent, 10);
    ck_assert_uint_eq(r.planned, 10);
    ck_assert_int_eq(log.rq[1].sent_ns, 143 * MS);
    ck_assert_int_eq(log.rq[9].sent_ns, 1287 * MS);
    tester_result_free(&r);
    scenario_free(s);

    ck_assert_msg(load(HEAD "[tester j]\nprofile = jmeter_ctt_all_threads\nrate = 420/min\nusers = 4\n", &s) ==
                      SCENARIO_OK,
                  "%s", err);
    t = &s->testers[0];
    ck_assert_uint_eq(t->interval.num_ns, 142750000u);
    ck_assert_uint_eq(t->interval.den, 1);
    ck_assert_int_eq(units_interval_at(t->interval, 0, 4), 571 * MS);
    scenario_free(s);

    ck_assert_msg(load(HEAD "[tester j]\nprofile = jmeter_ctt_all_threads_shared\nrate = 420/min\nusers = 4\n",
                       &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_uint_eq(s->testers[0].interval.num_ns, 143000000u);
    ck_assert_uint_eq(s->testers[0].interval.den, 1);
    scenario_free(s);
    s = NULL;

    /* 10/s, each step 100 ms: floor(100 / 1000 + 1/2) = 0 */
    ck_assert_int_eq(load(HEAD "[tester p]\nkind = paced\nrate = 10/s\ninterval_round = 1s\n", &s), SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:9: [tester p] interval_round = 1s: rounds each step of the schedule to 0: give a "
                          "finer grain or a lower rate");
}
END_TEST


/* JMeter starts a thread group's threads together when its ramp-up is 0
 * (ThreadGroup.start: thread i delayed i x Math.round(0 x 1000 / U) = 0
 * ms), and each thread's first sample runs at once
 * (ConstantThroughputTimer.delay: previousTime 0, the target in the past).
 * jmeter_ctt_this_thread at 420/min over 2 threads, 1 ms service on one
 * server thread, 1 s: each thread every round(2 x 142.857) = 286 ms, both
 * from 0: sends at 0, 0, 286, 286, 572, 572, 858, 858 (8; thread 1's
 * first waits 1 ms for thread 0's). A plain paced tester (no ramp_up)
 * deals its users one interval apart: user 1 first at 142.857143 ms;
 * with ramp_up = 0s written, at 0. */
/* Run t for duration_ns on one server thread of constant service_ns,
 * stopped over window w when w is not NULL, logging every request. */
static void run_served(const tester_spec *t, int64_t duration_ns, int64_t service_ns, const stall_window *w,
                       log_obs *log, tester_result *r)
{
    stall_window win = w ? *w : (stall_window){0, 0};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &win, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = service_ns}, .stalls = w ? &st : NULL,
                         .n_stalls = w ? 1 : 0, .generator = "mt19937", .seed = 1, .workers = 1};
    tester_run_config c = {.duration_ns = duration_ns, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    ck_assert_int_eq(tester_run(t, &c, log_request, log, r), 0);
}

START_TEST(jmeter_threads_start_together)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester j]\nprofile = jmeter_ctt_this_thread\nrate = 420/min\nusers = 2\n", &s) ==
                      SCENARIO_OK,
                  "%s", err);
    log_obs log = {0};
    tester_result r;
    run_served(&s->testers[0], 1000 * MS, MS, NULL, &log, &r);
    ck_assert_uint_eq(r.sent, 8);
    ck_assert_uint_eq(r.planned, 8);
    const int64_t want[8] = {0, 0, 286 * MS, 286 * MS, 572 * MS, 572 * MS, 858 * MS, 858 * MS};
    for (size_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(log.rq[i].user, i % 2);
        ck_assert_int_eq(log.rq[i].sent_ns, want[i]);
    }
    ck_assert_int_eq(log.rq[1].latency_ns, 2 * MS);
    tester_result_free(&r);
    scenario_free(s);
    s = NULL;

    ck_assert_msg(load(HEAD "[tester p]\nkind = paced\nlate = from_now\nrate = 420/min\nusers = 2\n", &s) ==
                      SCENARIO_OK,
                  "%s", err);
    log_obs plain = {0};
    run_served(&s->testers[0], 200 * MS, MS, NULL, &plain, &r);
    ck_assert_uint_eq(plain.rq[1].user, 1);
    ck_assert_int_eq(plain.rq[1].sent_ns, 142857142);
    tester_result_free(&r);
    scenario_free(s);
    s = NULL;

    /* the same with ramp_up = 0s written: both users at 0 */
    ck_assert_msg(load(HEAD "[tester p]\nkind = paced\nlate = from_now\nrate = 420/min\nusers = 2\nramp_up = 0s\n",
                       &s) == SCENARIO_OK,
                  "%s", err);
    log_obs zero = {0};
    run_served(&s->testers[0], 200 * MS, MS, NULL, &zero, &r);
    ck_assert_uint_eq(zero.rq[1].user, 1);
    ck_assert_int_eq(zero.rq[1].sent_ns, 0);
    tester_result_free(&r);
    scenario_free(s);
}
END_TEST


/* jmeter_constant_timer: JMeter runs a sample's timers before it, the
 * first sample's too (ConstantTimer.delay; think_first = yes), and the
 * thread group's ramp-up delays thread i by i x Math.round(1000 x 1 / 2)
 * = 500 ms (ThreadGroup.start). 2 threads, a 9 ms timer, 1 ms service on
 * one server thread, 520 ms: thread 0 samples at 9, 19, ..., 519 (52);
 * thread 1 starts at 500, pauses 9 ms: 509, with thread 0's 509 served
 * first: 2 ms; its next, 511 + 9 = 520, is at the end: 53 in all. */
START_TEST(jmeter_constant_timer_pauses_first)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester j]\nprofile = jmeter_constant_timer\nthink_time = 9ms\nusers = 2\nramp_up = 1s\n",
                       &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_int_eq(s->testers[0].think_first, 1);
    log_obs log = {0};
    tester_result r;
    run_served(&s->testers[0], 520 * MS, MS, NULL, &log, &r);
    ck_assert_uint_eq(r.sent, 53);
    ck_assert_uint_eq(log.rq[0].user, 0);
    ck_assert_int_eq(log.rq[0].sent_ns, 9 * MS);
    ck_assert_int_eq(log.rq[1].sent_ns, 19 * MS);
    size_t u1 = 0;
    while (u1 < log.n && log.rq[u1].user != 1)
        u1++;
    ck_assert_uint_lt(u1, log.n);
    ck_assert_int_eq(log.rq[u1].sent_ns, 509 * MS);
    ck_assert_int_eq(log.rq[u1].latency_ns, 2 * MS);
    tester_result_free(&r);
    scenario_free(s);
}
END_TEST


/* vegeta's pacer, worked from its source (cf58112): lib/attack.go Attack
 * loops { elapsed := time.Since(began); if du > 0 && elapsed > du: stop;
 * wait := Pace(elapsed, count); sleep(wait); hand a tick to a worker;
 * count++ }, and lib/pacer.go ConstantPacer.Pace returns
 * (count + 1) x interval - elapsed when on time, 0 when behind. So hit k
 * is intended at (k + 1) I, and it is sent when the test, made right after
 * hit k - 1 went out at k I (the sleep wakes after its deadline, so
 * elapsed there is past k I), finds k I before the duration. I = 20 ms
 * (50/s), 2 ms service on one server thread, a stall window:
 *  - vegeta, 100 ms, window [0, 30): hits at 20, 40, 60, 80, 100 (the test
 *    at 100 stops: 5, the grid's count); 20 waits for 30: 12 ms, the
 *    others 2 ms; mean 20 / 5 = 4 ms; 100's reply at 102 is after the end.
 *    A plain open tester sends 0 .. 80: 0 waits to 30 (32 ms), 20 behind
 *    it (34: 14 ms), the rest 2 ms: the shift is what vegeta reports.
 *  - vegeta, 90 ms: the test at 80 passes, so the fifth hit goes at 100,
 *    10 ms past the end.
 *  - vegeta_max_workers (one worker), 100 ms, window [30, 75): 20 (2 ms),
 *    40 waits for 75 (77: 37 ms); the tick for 60 waits for the worker
 *    and goes at 77 (Pace: behind, no wait), 2 ms from its dispatch; 80
 *    and 100 on time: 5 hits, mean (2 + 37 + 2 + 2 + 2) / 5 = 9 ms. */

START_TEST(vegeta_first_hit_one_interval_in)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester v]\nprofile = vegeta\nrate = 50/s\n[tester o]\nkind = open\nrate = 50/s\n", &s) ==
                      SCENARIO_OK,
                  "%s", err);
    ck_assert_int_eq(s->testers[0].first_send, TESTER_FIRST_SEND_INTERVAL);
    ck_assert_int_eq(s->testers[1].first_send, TESTER_FIRST_SEND_START);
    log_obs log = {0};
    tester_result r;
    run_served(&s->testers[0], 100 * MS, 2 * MS, &(stall_window){0, 30 * MS}, &log, &r);
    ck_assert_uint_eq(r.planned, 5);
    ck_assert_uint_eq(r.sent, 5);
    ck_assert_uint_eq(r.in_flight_at_end, 1);
    const int64_t lat[5] = {12 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_int_eq(log.rq[i].sent_ns, (int64_t)(i + 1) * 20 * MS);
        ck_assert_int_eq(log.rq[i].intended_ns, (int64_t)(i + 1) * 20 * MS);
        ck_assert_int_eq(log.rq[i].latency_ns, lat[i]);
    }
    ck_assert_int_eq(hist_max(r.hist), 12 * MS);
    tester_result_free(&r);

    log_obs plain = {0};
    run_served(&s->testers[1], 100 * MS, 2 * MS, &(stall_window){0, 30 * MS}, &plain, &r);
    ck_assert_uint_eq(r.sent, 5);
    ck_assert_uint_eq(r.in_flight_at_end, 0);
    ck_assert_int_eq(plain.rq[0].sent_ns, 0);
    ck_assert_int_eq(plain.rq[0].latency_ns, 32 * MS);
    ck_assert_int_eq(plain.rq[1].latency_ns, 14 * MS);
    ck_assert_int_eq(plain.rq[4].sent_ns, 80 * MS);
    tester_result_free(&r);

    log_obs past = {0};
    run_served(&s->testers[0], 90 * MS, 2 * MS, &(stall_window){0, 30 * MS}, &past, &r);
    ck_assert_uint_eq(r.sent, 5);
    ck_assert_int_eq(past.rq[4].sent_ns, 100 * MS);
    tester_result_free(&r);
    scenario_free(s);
    s = NULL;

    ck_assert_msg(load(HEAD "[tester v]\nprofile = vegeta_max_workers\nrate = 50/s\n", &s) == SCENARIO_OK, "%s", err);
    log_obs mw = {0};
    run_served(&s->testers[0], 100 * MS, 2 * MS, &(stall_window){30 * MS, 75 * MS}, &mw, &r);
    ck_assert_uint_eq(r.sent, 5);
    const int64_t sent[5] = {20 * MS, 40 * MS, 77 * MS, 80 * MS, 100 * MS};
    const int64_t intended[5] = {20 * MS, 40 * MS, 60 * MS, 80 * MS, 100 * MS};
    const int64_t mlat[5] = {2 * MS, 37 * MS, 2 * MS, 2 * MS, 2 * MS};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_int_eq(mw.rq[i].sent_ns, sent[i]);
        ck_assert_int_eq(mw.rq[i].intended_ns, intended[i]);
        ck_assert_int_eq(mw.rq[i].latency_ns, mlat[i]);
    }
    tester_result_free(&r);
    scenario_free(s);
}
END_TEST


/* threads (wrk2's -t) needs users that split evenly: 5 connections over 2
 * threads would be 2 each in wrk2 (main: connections / threads), one
 * dropped; refused, naming the line of threads (HEAD is 5 lines: [tester
 * w] 6, profile 7, rate 8, users 9, threads 10). */
START_TEST(wrk2_threads_split_evenly)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester w]\nprofile = wrk2\nrate = 400/s\nusers = 4\nthreads = 2\n", &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_uint_eq(s->testers[0].threads, 2);
    scenario_free(s);
    s = NULL;
    ck_assert_int_eq(load(HEAD "[tester w]\nprofile = wrk2\nrate = 400/s\nusers = 5\nthreads = 2\n", &s),
                     SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:10: [tester w] threads = 2: users = 5 do not split evenly over 2 threads (wrk2 "
                          "gives each thread connections / threads and drops the rest): give a multiple of threads");
    ck_assert_int_eq(load(HEAD "[tester p]\nkind = paced\nrate = 400/s\nusers = 4\nthreads = 2\n", &s),
                     SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:10: [tester p] threads = 2: splits staggered users over threads (wrk2's -t): it "
                          "needs stagger");
}
END_TEST

/* ab: -t alone caps the run at 50,000 requests (support/ab.c main: case
 * 't' sets requests = MAX_REQUESTS), an -n (requests) wins; httperf stops
 * after --num-conns: the section must give requests (HEAD is 5 lines: the
 * profile's line is 7); siege thinks uniformly. */
START_TEST(ab_httperf_siege_expand)
{
    scenario *s = NULL;
    ck_assert_msg(load(HEAD "[tester a]\nprofile = ab\nusers = 3\n", &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->testers[0].kind, TESTER_CLOSED);
    ck_assert_uint_eq(s->testers[0].requests, 50000);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester a]\nprofile = ab\nrequests = 1000\n", &s) == SCENARIO_OK, "%s", err);
    ck_assert_uint_eq(s->testers[0].requests, 1000);
    scenario_free(s);
    s = NULL;
    ck_assert_msg(load(HEAD "[tester h]\nprofile = httperf\nrate = 100/s\nrequests = 300\n", &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_int_eq(s->testers[0].kind, TESTER_OPEN);
    ck_assert_uint_eq(s->testers[0].requests, 300);
    scenario_free(s);
    s = NULL;
    ck_assert_int_eq(load(HEAD "[tester h]\nprofile = httperf\nrate = 100/s\n", &s), SCENARIO_EINVALID);
    ck_assert_str_eq(err, "t.ini:7: [tester h] profile = httperf: profile httperf needs requests (the tool has no "
                          "default: docs/models.md)");
    ck_assert_msg(load(HEAD "[tester g]\nprofile = siege\nthink_min = 0s\nthink_max = 2ms\n", &s) == SCENARIO_OK,
                  "%s", err);
    ck_assert_int_eq(s->testers[0].kind, TESTER_CLOSED);
    ck_assert_int_eq(s->testers[0].think.kind, DIST_UNIFORM);
    ck_assert_int_eq(s->testers[0].think.b_ns, 2000000);
    scenario_free(s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("scn_profile");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, names_follow_the_rows);
    tcase_add_test(tc, settings_are_keys_of_the_kind);
    tcase_add_test(tc, docs_name_every_profile);
    tcase_add_test(tc, wrk2_expands);
    tcase_add_test(tc, wrk_expands);
    tcase_add_test(tc, ab_httperf_siege_expand);
    tcase_add_test(tc, k6_needs_vus_hey_q_ticks);
    tcase_add_test(tc, section_keys_override_or_conflict);
    tcase_add_test(tc, jmeter_ctt_rounds_to_whole_ms);
    tcase_add_test(tc, wrk2_threads_split_evenly);
    tcase_add_test(tc, jmeter_threads_start_together);
    tcase_add_test(tc, jmeter_constant_timer_pauses_first);
    tcase_add_test(tc, vegeta_first_hit_one_interval_in);
    suite_add_tcase(s, tc);
    return s;
}
