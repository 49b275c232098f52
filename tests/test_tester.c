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

/* The per-kind table (tester_kinds.def) says what each kind is, as
 * MODEL.md defines the kinds: only closed sends without a rate; open and
 * partly-open send whatever the replies (users do not apply); paced and
 * corrected deal one grid and have a late policy; only corrected corrects;
 * only partly-open has sessions; only open is made of arrivals (the
 * truth's default load); only paced takes the tools' schedule keys. Each
 * kind's first tester has a chart style of its own (1 to 5), and the
 * table's names are those `kind = NAME` parses. */
START_TEST(kind_table_flags)
{
    ck_assert_int_eq(TESTER_N_KINDS, 5);
    ck_assert(!tester_kind_has(TESTER_CLOSED, TESTER_KIND_RATED));
    ck_assert(tester_kind_has(TESTER_PARTLY_OPEN, TESTER_KIND_RATED | TESTER_KIND_OPEN_LIKE | TESTER_KIND_SESSIONS));
    ck_assert(tester_kind_has(TESTER_OPEN, TESTER_KIND_RATED | TESTER_KIND_OPEN_LIKE | TESTER_KIND_ARRIVALS));
    ck_assert(tester_kind_has(TESTER_PACED, TESTER_KIND_ON_GRID | TESTER_KIND_LATE_POLICY | TESTER_KIND_SCHEDULE_KEYS));
    ck_assert(tester_kind_has(TESTER_CORRECTED, TESTER_KIND_ON_GRID | TESTER_KIND_LATE_POLICY | TESTER_KIND_CORRECTS));
    const unsigned once[] = {TESTER_KIND_CORRECTS, TESTER_KIND_SESSIONS, TESTER_KIND_ARRIVALS,
                             TESTER_KIND_SCHEDULE_KEYS};
    const tester_kind owner[] = {TESTER_CORRECTED, TESTER_PARTLY_OPEN, TESTER_OPEN, TESTER_PACED};
    int styles = 0;
    for (int k = 0; k < TESTER_N_KINDS; k++) {
        for (size_t f = 0; f < sizeof once / sizeof *once; f++)
            ck_assert_int_eq(tester_kind_has((tester_kind)k, once[f]), k == (int)owner[f]);
        ck_assert_int_eq(tester_kind_has((tester_kind)k, TESTER_KIND_OPEN_LIKE),
                         k == TESTER_OPEN || k == TESTER_PARTLY_OPEN);
        ck_assert_int_eq(tester_kind_has((tester_kind)k, TESTER_KIND_ON_GRID),
                         k == TESTER_PACED || k == TESTER_CORRECTED);
        ck_assert_str_eq(tester_kinds[k].name, tester_kind_name((tester_kind)k));
        tester_kind parsed;
        ck_assert_int_eq(tester_kind_parse(tester_kinds[k].name, &parsed), 0);
        ck_assert_int_eq(parsed, k);
        int st = tester_kinds[k].chart_style;
        ck_assert(st >= 1 && st <= 5 && !(styles & (1 << st)));
        styles |= 1 << st;
    }
    ck_assert(!tester_kind_has((tester_kind)TESTER_N_KINDS, 0));
}
END_TEST

/* The grid a chart marks, asked of the model (tester_grid_of): 4 users
 * of a corrected tester at 10 ms share the grid floor(i x 10 ms); each
 * user's own interval is 4 x 10 ms = 40 ms, the correction's expected
 * interval unless expected_interval says 5 ms; late = ticker plans from
 * slot U = 4 (Go's first tick one period late). A paced tester has the
 * grid without a correction; an open tester, a shared schedule and
 * staggered users have none. */
START_TEST(grid_asked_of_the_model)
{
    tester_grid g;
    tester_spec t = spec(TESTER_CORRECTED, 10 * MS, TESTER_LATE_NEXT_SLOT);
    t.users = 4;
    ck_assert_int_eq(tester_grid_of(&t, &g), 1);
    ck_assert_uint_eq(g.interval.num_ns, 10 * MS);
    ck_assert_uint_eq(g.first_slot, 0);
    ck_assert_int_eq(g.corrects, 1);
    ck_assert_int_eq(g.expected_ns, 40 * MS);
    t.expected_interval_ns = 5 * MS;
    t.late = TESTER_LATE_TICKER;
    ck_assert_int_eq(tester_grid_of(&t, &g), 1);
    ck_assert_int_eq(g.expected_ns, 5 * MS);
    ck_assert_uint_eq(g.first_slot, 4);
    t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_FROM_NOW);
    ck_assert_int_eq(tester_grid_of(&t, &g), 1);
    ck_assert_int_eq(g.corrects, 0);
    ck_assert_int_eq(g.expected_ns, 0);
    t.schedule = TESTER_SCHEDULE_SHARED;
    ck_assert_int_eq(tester_grid_of(&t, &g), 0);
    t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_FROM_NOW);
    t.has_stagger = 1;
    ck_assert_int_eq(tester_grid_of(&t, &g), 0);
    t = spec(TESTER_OPEN, 10 * MS, TESTER_LATE_FROM_NOW);
    ck_assert_int_eq(tester_grid_of(&t, &g), 0);
}
END_TEST

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

/* Every request a tester sends, for tests that check instants one by one. */
typedef struct log_obs {
    size_t n;
    tester_request rq[64];
} log_obs;

static void log_request(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate; /* sees every request */
    log_obs *l = ctx;
    ck_assert_uint_lt(l->n, 64);
    l->rq[l->n++] = *rq;
}

static tester_result run_logged(const tester_spec *t, const server_config *srv, int64_t duration_ns,
                                log_obs *log)
{
    tester_run_config c = {.duration_ns = duration_ns, .threshold_ns = 100 * MS, .sub_bits = 14,
                           .server = srv};
    tester_result r;
    memset(log, 0, sizeof *log);
    ck_assert_int_eq(tester_run(t, &c, log_request, log, &r), 0);
    return r;
}

/* Issue 11's example: duration 1 ms, a constant 1 ns service, paced at 3/ms
 * with 2 users. The tester's grid is t_i = floor(i 10^6 / 3) ns: 0, 333333,
 * 666666 (t_3 = 10^6 is the end): planned 3. Dealt round-robin, user 0
 * owns t_0 and t_2, user 1 owns t_1 (and t_3, past the end), so the sends
 * are exactly 0 (user 0), 333333 (user 1), 666666 (user 0): sent 3. The
 * old per-user offset sent user 1 again at 333333 + floor(2 x 10^6 / 3) =
 * 999999: 4 sends for 3 planned. The same under every lateness policy (no
 * reply is late). */
START_TEST(users_share_the_tester_grid_exactly)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1}, .generator = "mt19937",
                         .seed = 1};
    for (int l = 0; l < 3; l++) {
        tester_spec t = spec(TESTER_PACED, 0, (tester_late)l);
        t.interval.num_ns = 1000000;
        t.interval.den = 3;
        t.users = 2;
        log_obs log;
        tester_result r = run_logged(&t, &srv, MS, &log);
        ck_assert_uint_eq(r.planned, 3);
        ck_assert_uint_eq(r.sent, 3);
        const int64_t at[3] = {0, 333333, 666666};
        const uint64_t who[3] = {0, 1, 0};
        for (size_t k = 0; k < 3; k++) {
            ck_assert_int_eq(log.rq[k].sent_ns, at[k]);
            ck_assert_int_eq(log.rq[k].intended_ns, at[k]);
            ck_assert_uint_eq(log.rq[k].user, who[k]);
        }
        tester_result_free(&r);
    }
}
END_TEST

/* The kind: for any interval num/den, any number of users and any
 * duration, a paced tester whose replies are never late sends on exactly the
 * instants floor(i num / den), i = 0 .. planned - 1, each once, user
 * i mod U sending t_i. Intervals of 2 ns and up with a 1 ns service keep
 * every reply on time. */
START_TEST(users_share_the_tester_grid_for_any_interval)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1}, .generator = "mt19937",
                         .seed = 1};
    const uint64_t nums[] = {1000000, 1000000000, 7, 1000, 10, 999999999};
    const uint64_t dens[] = {3, 7, 3, 999, 3, 4};
    const uint64_t users[] = {1, 2, 3, 5, 7};
    for (size_t a = 0; a < 6; a++)
        for (size_t b = 0; b < 5; b++) {
            tester_spec t = spec(TESTER_PACED, 0, TESTER_LATE_NEXT_SLOT);
            t.interval.num_ns = nums[a];
            t.interval.den = dens[a];
            t.users = users[b];
            /* 40 grid instants and a part of the next interval */
            int64_t end = (int64_t)(40 * nums[a] / dens[a]) + 1;
            log_obs log;
            tester_result r = run_logged(&t, &srv, end, &log);
            ck_assert_uint_eq(r.planned, 41);
            ck_assert_uint_eq(r.sent, 41);
            for (size_t k = 0; k < log.n; k++) {
                int64_t want = (int64_t)((unsigned __int128)k * nums[a] / dens[a]);
                ck_assert_msg(log.rq[k].sent_ns == want && log.rq[k].user == k % users[b],
                              "D %llu/%llu, %llu users: send %zu at %lld by user %llu, want %lld by %llu",
                              (unsigned long long)nums[a], (unsigned long long)dens[a],
                              (unsigned long long)users[b], k, (long long)log.rq[k].sent_ns,
                              (unsigned long long)log.rq[k].user, (long long)want,
                              (unsigned long long)(k % users[b]));
            }
            tester_result_free(&r);
        }
}
END_TEST

/* Several users, late replies: each policy applies to the user's own part
 * of the grid. D = 10 ms, 2 users (user 0 owns 0, 20, 40; user 1 owns 10,
 * 30, 50), one window [5, 35) ms, 1 ms service, 60 ms: planned 6.
 * User 0 sends at 0 (reply 1). User 1 sends at 10, in the window: reply 36.
 * User 0 sends at 20, queued behind it: reply 37; its next slot 40 is on
 * time: reply 41; 60 is the end. User 1's reply at 36 missed its slot 30:
 *   from_now:  sends at once (36, due 30), reply 38; its schedule restarts:
 *              36 + 20 = 56, reply 57. Sends 0, 10, 20, 36, 40, 56: 6.
 *   next_slot: its first slot at or after 36 is 50: sends 0, 10, 20, 40, 50: 5.
 *   catch_up:  sends at once for slot 30 (36), reply 38; its next slot 50
 *              is on time. Sends 0, 10, 20, 36, 40, 50: 6.
 * Every count stays at or below planned; next_slot and catch_up send for
 * the user's own grid slots only. */
START_TEST(late_policies_with_users)
{
    stall_window w = {5 * MS, 35 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    const int64_t sends[3][6] = {{0, 10, 20, 36, 40, 56}, /* from_now */
                                 {0, 10, 20, 40, 50, -1}, /* next_slot */
                                 {0, 10, 20, 36, 40, 50}}; /* catch_up */
    const int64_t intended[3][6] = {{0, 10, 20, 30, 40, 56},
                                    {0, 10, 20, 40, 50, -1},
                                    {0, 10, 20, 30, 40, 50}};
    const int64_t latency[3][6] = {{1, 26, 17, 2, 1, 1}, {1, 26, 17, 1, 1, -1}, {1, 26, 17, 2, 1, 1}};
    const uint64_t want[3] = {6, 5, 6};
    for (int l = 0; l < 3; l++) {
        tester_spec t = spec(TESTER_PACED, 10 * MS, (tester_late)l);
        t.users = 2;
        log_obs log;
        tester_result r = run_logged(&t, &srv, 60 * MS, &log);
        ck_assert_uint_eq(r.planned, 6);
        ck_assert_uint_eq(r.sent, want[l]);
        for (size_t k = 0; k < log.n; k++) {
            ck_assert_int_eq(log.rq[k].sent_ns, sends[l][k] * MS);
            ck_assert_int_eq(log.rq[k].intended_ns, intended[l][k] * MS);
            ck_assert_int_eq(log.rq[k].latency_ns, latency[l][k] * MS);
        }
        tester_result_free(&r);
    }
}
END_TEST

/* latency_from = intended, per policy (docs/scenario-format.md), on the
 * window [5, 35) ms, 10 ms grid, 1 ms service, 50 ms of late_policies:
 *   catch_up:  sends 0, 10, 36 (slot 20), 37 (slot 30), 40; replies 1, 36,
 *              37, 38, 41: from the slots 1, 26, 17, 8, 1 ms (from the
 *              actual sends 1, 26, 1, 1, 1);
 *   from_now:  sends 0, 10, 36 (due at 20), 46 (the restarted schedule);
 *              replies 1, 36, 37, 47: from the due instants 1, 26, 17, 1
 *              (actual 1, 26, 1, 1);
 *   next_slot: sends 0, 10, 40, each at its slot: 1, 26, 1 either way (the
 *              scenario refuses the setting there).
 * A corrected tester over catch_up would count the gap twice: refused. */
START_TEST(latency_from_intended_per_policy)
{
    stall_window w = {5 * MS, 35 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    const int64_t want[3][5] = {{1, 26, 17, 1, -1}, {1, 26, 1, -1, -1}, {1, 26, 17, 8, 1}};
    const int64_t actual[3][5] = {{1, 26, 1, 1, -1}, {1, 26, 1, -1, -1}, {1, 26, 1, 1, 1}};
    const size_t n[3] = {4, 3, 5};
    for (int l = 0; l < 3; l++)
        for (int from = 0; from < 2; from++) {
            tester_spec t = spec(TESTER_PACED, 10 * MS, (tester_late)l);
            t.latency_from_intended = from;
            log_obs log;
            tester_result r = run_logged(&t, &srv, 50 * MS, &log);
            ck_assert_uint_eq(log.n, n[l]);
            for (size_t k = 0; k < log.n; k++)
                ck_assert_msg(log.rq[k].latency_ns == (from ? want : actual)[l][k] * MS,
                              "%s from %s: request %zu took %lld ns", tester_late_name((tester_late)l),
                              from ? "intended" : "actual", k, (long long)log.rq[k].latency_ns);
            tester_result_free(&r);
        }
    tester_spec c = spec(TESTER_CORRECTED, 10 * MS, TESTER_LATE_CATCH_UP);
    tester_run_config cfg = {.duration_ns = 50 * MS, .sub_bits = 8, .server = &srv};
    tester_result r;
    ck_assert_int_eq(tester_run(&c, &cfg, NULL, NULL, &r), -EINVAL);
}
END_TEST

/* Paced next_slot with a connection per user runs the on-time rows (the
 * next slot the current one plus U D) only while U D + the end fits in
 * int64; beyond, the rows with the exact rule.
 * (a) D = 2^62 - 1 ns, 2 users staggered 1 ms apart, 1 s, a 1 ns service:
 * U D = 2^63 - 2 passes INT64_MAX - 1 s, so the exact rule. User 0 sends
 * at 0 (its next slot 2^63 - 2 lies past the end); user 1 at 1 ms (1 ms +
 * 2^63 - 2 saturates at INT64_MAX, past the end). Both on time, latency
 * 1 ns: planned 2 (one slot before the end each), sent 2.
 * (b) D = (INT64_MAX - 1 s) / 2, 2 users, 1 s: U D <= INT64_MAX - 1 s, the
 * on-time rows. User 0 sends at 0 (next 2D, past the end), user 1's slot D
 * lies past the end: planned 1, sent 1.
 * The same for the corrected tester (its interval U D: nothing added). */
START_TEST(paced_slots_near_the_clock_limit)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1}, .generator = "mt19937", .seed = 1};
    const tester_kind kinds[2] = {TESTER_PACED, TESTER_CORRECTED};
    for (int k = 0; k < 2; k++) {
        tester_spec t = spec(kinds[k], INT64_MAX / 2, TESTER_LATE_NEXT_SLOT); /* 2^62 - 1 */
        t.users = 2;
        t.has_stagger = 1;
        t.stagger_ns = MS;
        log_obs log;
        tester_result r = run_logged(&t, &srv, S, &log);
        ck_assert_uint_eq(r.planned, 2);
        ck_assert_uint_eq(r.sent, 2);
        ck_assert_uint_eq(log.n, 2);
        for (size_t i = 0; i < 2; i++) {
            ck_assert_int_eq(log.rq[i].sent_ns, (int64_t)i * MS);
            ck_assert_int_eq(log.rq[i].intended_ns, (int64_t)i * MS);
            ck_assert_int_eq(log.rq[i].latency_ns, 1);
            ck_assert_uint_eq(log.rq[i].user, i);
        }
        ck_assert_uint_eq(hist_count(r.hist), 2);
        tester_result_free(&r);

        t = spec(kinds[k], (INT64_MAX - S) / 2, TESTER_LATE_NEXT_SLOT);
        t.users = 2;
        r = run_logged(&t, &srv, S, &log);
        ck_assert_uint_eq(r.planned, 1);
        ck_assert_uint_eq(r.sent, 1);
        ck_assert_uint_eq(log.n, 1);
        ck_assert_int_eq(log.rq[0].sent_ns, 0);
        ck_assert_int_eq(log.rq[0].latency_ns, 1);
        ck_assert_uint_eq(hist_count(r.hist), 1);
        tester_result_free(&r);
    }
}
END_TEST

/* The kind of issue 11's item 2 under late replies: whatever the service
 * times and stalls, a paced tester never sends more than it planned, and
 * under next_slot and catch_up every request is intended for one of its
 * user's own grid slots t_i, i = u mod U (each slot once). Lognormal
 * service around the interval (so replies are often late), a periodic
 * freeze, 1 to 5 users, three intervals, the three policies. */
typedef struct grid_obs {
    units_interval d;
    uint64_t users;
    tester_late late;
    uint64_t seen; /* requests checked */
    int64_t last_intended[8];
} grid_obs;

static void check_grid(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate; /* sees every request */
    grid_obs *g = ctx;
    g->seen++;
    ck_assert_int_ge(rq->sent_ns, rq->intended_ns);
    if (g->late == TESTER_LATE_FROM_NOW)
        return;
    uint64_t i = units_interval_count_before(g->d, 0, rq->intended_ns);
    ck_assert_int_eq(units_interval_at(g->d, 0, i), rq->intended_ns);
    ck_assert_uint_eq(i % g->users, rq->user);
    ck_assert_int_gt(rq->intended_ns, g->last_intended[rq->user]); /* each slot once */
    g->last_intended[rq->user] = rq->intended_ns;
}

START_TEST(paced_sends_stay_within_the_plan)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 30 * MS, .period_ns = 700 * MS,
                     .first_ns = 100 * MS};
    const uint64_t nums[] = {1000000, 1000000000, 10000000};
    const uint64_t dens[] = {3, 701, 7};
    for (size_t a = 0; a < 3; a++)
        for (uint64_t users = 1; users <= 5; users++)
            for (int l = 0; l < 3; l++) {
                units_interval d = {nums[a], dens[a]};
                int64_t gap = (int64_t)(nums[a] / dens[a]);
                server_config srv = {.service = {.kind = DIST_LOGNORMAL, .a_ns = gap * (int64_t)users,
                                                 .shape = 0.8},
                                     .stalls = &st, .n_stalls = 1, .generator = "mt19937",
                                     .seed = 10 + users};
                tester_spec t = spec(TESTER_PACED, 0, (tester_late)l);
                t.interval = d;
                t.users = users;
                grid_obs g = {.d = d, .users = users, .late = (tester_late)l};
                for (size_t k = 0; k < 8; k++)
                    g.last_intended[k] = -1;
                tester_run_config c = {.duration_ns = 2 * S, .sub_bits = 8, .server = &srv};
                tester_result r;
                ck_assert_int_eq(tester_run(&t, &c, check_grid, &g, &r), 0);
                ck_assert_msg(r.sent <= r.planned, "D %llu/%llu, %llu users, %s: sent %llu > planned %llu",
                              (unsigned long long)nums[a], (unsigned long long)dens[a],
                              (unsigned long long)users, tester_late_name((tester_late)l),
                              (unsigned long long)r.sent, (unsigned long long)r.planned);
                ck_assert_uint_eq(g.seen, r.sent);
                tester_result_free(&r);
            }
}
END_TEST

/* Overload (issue 11, item 7), wrk2-like: paced at 1000/s, catch_up, timed
 * from the intended slot, a constant 0.9 ms service and a 200 ms freeze at
 * the start of every second. Offered utilisation 1000/s x 0.9 ms = 0.9, but
 * the freezes leave 800 ms of work a second: the backlog grows by 100 ms a
 * second and the latency measures the run's length.
 * By hand: the server is never idle after the first freeze; request n ends
 * when (n + 1) x 0.9 ms of work fits in the 800 ms after each freeze.
 * Request 5000 (slot 5 s, the first at mid-run) needs 4500.9 ms: 5 s of
 * 800 ms + 500.9 ms, ending at 5 s + 200 ms + 500.9 ms: 700.9 ms after its
 * slot. By 10 s the server has done 8 s of work: 8888 requests end by
 * 9.9992 s and request 8888 (slot 8.888 s), sent then, works 0.8 ms, waits
 * out the freeze [10, 10.2) s and ends at 10.2001 s: 1.3121 s. Busy within
 * the run: exactly 8 s (0.8 of it). Over 20 s the server does 16 s of
 * work: 17777 requests (15999.3 ms) end by 19.9993 s, and request 17777
 * (slot 17.777 s) works 0.7 ms, waits out [20, 20.2) s and ends at
 * 20.2002 s: 2.4232 s. The latency doubles with the run.
 * The same sends timed from the actual send are bounded (0.9 ms, or
 * 200.9 ms in a freeze): not flagged. */
START_TEST(overload_when_the_backlog_grows)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 200 * MS, .period_ns = S};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 900 * US}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_PACED, MS, TESTER_LATE_CATCH_UP);
    t.latency_from_intended = 1;
    ck_assert(tester_latency_includes_backlog(&t));
    ck_assert_double_eq_tol(tester_offered_utilisation(&t, &srv.service), 0.9, 1e-12);
    tester_result r = run(&t, &srv, 10 * S, 0, 8);
    ck_assert_uint_eq(r.sent, 8889);
    ck_assert_int_eq(r.latency_mid_ns, 700900 * US);
    ck_assert_int_eq(r.latency_last_ns, 1312100 * US);
    ck_assert_int_eq(r.busy_in_run_ns, 8 * S);
    ck_assert(r.backlog_growing);
    ck_assert(r.overloaded);
    ck_assert_int_eq(hist_max(r.hist), 1312100000);
    tester_result_free(&r);
    r = run(&t, &srv, 20 * S, 0, 8);
    ck_assert_int_eq(r.latency_last_ns, 2423200000);
    ck_assert(r.overloaded);
    tester_result_free(&r);

    t.latency_from_intended = 0; /* from the actual send: bounded */
    ck_assert(!tester_latency_includes_backlog(&t));
    r = run(&t, &srv, 10 * S, 0, 8);
    ck_assert_int_eq(hist_max(r.hist), 200900 * US);
    ck_assert(!r.overloaded && !r.backlog_growing);
    tester_result_free(&r);

    /* the open loop at 1000/s sees the same growing backlog */
    tester_spec o = spec(TESTER_OPEN, MS, 0);
    r = run(&o, &srv, 10 * S, 0, 8);
    ck_assert(r.backlog_growing && r.overloaded);
    tester_result_free(&r);

    /* without the freezes the server keeps up (0.9 ms every 1 ms): every
     * request finds it idle, nothing is flagged */
    srv.n_stalls = 0;
    r = run(&t, &srv, 10 * S, 0, 8);
    ck_assert(!r.overloaded && !r.backlog_growing);
    ck_assert_int_eq(r.last_clear_ns, 9999 * MS);
    tester_result_free(&r);
}
END_TEST

/* Overload by offered utilisation: 1.5 ms of work every 1 ms is 1.5 >= 1.
 * Flagged for the testers whose latency holds the backlog (wrk2-like
 * catch_up from the intended slot, open, partly-open), not for from_now from
 * the due instant (its schedule restarts at each late send: each latency is
 * the previous reply's lateness, 0.5 ms, plus 1.5 ms = 2 ms) nor for a
 * closed loop (no rate: offered -1). Partly-open: 100 sessions/s x
 * 1 / (1 - 0.8) requests x 100 us = 0.05. */
START_TEST(overload_by_offered_utilisation)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1500 * US}, .generator = "mt19937",
                         .seed = 1};
    tester_spec t = spec(TESTER_PACED, MS, TESTER_LATE_CATCH_UP);
    t.latency_from_intended = 1;
    tester_result r = run(&t, &srv, 2 * S, 0, 8);
    ck_assert(r.overloaded);
    /* request n ends at 1.5 (n + 1) ms, slot n ms: the last sent before 2 s
     * is n = 1333 (sent at 1999.5 ms): 2001 - 1333 = 668 ms */
    ck_assert_int_eq(r.latency_last_ns, 668 * MS);
    tester_result_free(&r);
    t.late = TESTER_LATE_FROM_NOW;
    ck_assert(!tester_latency_includes_backlog(&t));
    r = run(&t, &srv, 2 * S, 0, 8);
    ck_assert(!r.overloaded);
    ck_assert_int_eq(hist_max(r.hist), 2 * MS);
    tester_result_free(&r);
    tester_spec o = spec(TESTER_OPEN, MS, 0);
    ck_assert_double_eq_tol(tester_offered_utilisation(&o, &srv.service), 1.5, 1e-12);
    r = run(&o, &srv, 2 * S, 0, 8);
    ck_assert(r.overloaded);
    tester_result_free(&r);
    tester_spec c = spec(TESTER_CLOSED, 0, 0);
    ck_assert_double_eq(tester_offered_utilisation(&c, &srv.service), -1);
    r = run(&c, &srv, 2 * S, 0, 8);
    ck_assert(!r.overloaded);
    tester_result_free(&r);
    tester_spec po = spec(TESTER_PARTLY_OPEN, 10 * MS, 0);
    po.p_continue = 0.8;
    dist_spec svc = {.kind = DIST_CONSTANT, .a_ns = 100 * US};
    ck_assert_double_eq_tol(tester_offered_utilisation(&po, &svc), 0.05, 1e-12);
}
END_TEST

/* The measured busy fraction is time worked within the run (issue 11,
 * item 9: work done / run length read 1,000,000 with one 1000 s request in
 * a 1 ms run). One closed request of 1000 s in a 1 ms run: busy the whole
 * run, 1 ms. With a window [0.5, 2) ms: 0.5 ms. */
START_TEST(busy_within_the_run)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1000 * S}, .generator = "mt19937",
                         .seed = 1};
    tester_spec c = spec(TESTER_CLOSED, 0, 0);
    tester_result r = run(&c, &srv, 1 * MS, 0, 8);
    ck_assert_uint_eq(r.sent, 1);
    ck_assert_int_eq(r.busy_ns, 1000 * S);
    ck_assert_int_eq(r.busy_in_run_ns, 1 * MS);
    tester_result_free(&r);
    stall_window w = {500 * US, 2 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    srv.stalls = &st;
    srv.n_stalls = 1;
    r = run(&c, &srv, 1 * MS, 0, 8);
    ck_assert_int_eq(r.busy_in_run_ns, 500 * US);
    tester_result_free(&r);
}
END_TEST

/* in_flight_at_end = drop can hide the whole stall (issue 11, item 8): an
 * open loop at 100/s for 100 ms on a 1 ms service, the server paused over
 * [20, 200) ms. The requests at 0 and 10 ms take 1 ms; those at 20, 30,
 * ..., 90 ms (8) wait for the pause's end and reply at 201, 202, ...,
 * 208 ms, after the end: dropped. Recorded: p50 = max = 1 ms. The dropped
 * latencies are 181, 172, 163, ..., 118 ms (201 + j - (20 + 10 j)), the
 * largest 181 ms: all above every recorded value. */
START_TEST(drop_keeps_what_it_hides)
{
    stall_window w = {20 * MS, 200 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec o = spec(TESTER_OPEN, 10 * MS, 0);
    tester_result r = run(&o, &srv, 100 * MS, 1, 14);
    ck_assert_uint_eq(r.sent, 10);
    ck_assert_uint_eq(r.in_flight_at_end, 8);
    ck_assert_uint_eq(hist_count(r.hist), 2);
    ck_assert_int_eq(hist_value_at_percentile(r.hist, HIST_NEAREST_RANK, 1, 2), 1 * MS);
    ck_assert_int_eq(hist_max(r.hist), 1 * MS);
    ck_assert_ptr_nonnull(r.dropped);
    ck_assert_uint_eq(hist_count(r.dropped), 8);
    ck_assert_int_eq(hist_max(r.dropped), 181 * MS);
    ck_assert_int_eq(hist_min(r.dropped), 118 * MS);
    tester_result_free(&r);
    r = run(&o, &srv, 100 * MS, 0, 14); /* recorded: nothing dropped */
    ck_assert_ptr_null(r.dropped);
    ck_assert_int_eq(hist_max(r.hist), 181 * MS);
    tester_result_free(&r);
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

/* A corrected latency over the threshold but within the expected interval
 * is recorded as measured and counted over the threshold. D = 10 ms, one
 * user, 50 ms, a constant 2 ms service, threshold 1 ms: sends at 0, 10,
 * 20, 30, 40, each 2 ms (no queue: the previous reply came 8 ms before),
 * none over D (nothing added), all 5 over 1 ms. The same with one user
 * and two (the one-user loop and the heap's). */
START_TEST(corrected_over_threshold_within_interval)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 2 * MS}, .generator = "mt19937", .seed = 1};
    for (uint64_t users = 1; users <= 2; users++) {
        tester_spec t = spec(TESTER_CORRECTED, 10 * MS, TESTER_LATE_NEXT_SLOT);
        t.users = users;
        t.expected_interval_ns = 10 * MS;
        tester_run_config c = {.duration_ns = 50 * MS, .threshold_ns = 1 * MS, .sub_bits = 8, .server = &srv};
        tester_result r;
        ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), 0);
        ck_assert_uint_eq(r.sent, 5);
        ck_assert_uint_eq(r.added, 0);
        ck_assert_uint_eq(r.over_threshold, 5);
        ck_assert_uint_eq(hist_count(r.hist), 5);
        ck_assert_int_eq(hist_min(r.hist), 2 * MS);
        ck_assert_int_eq(hist_max(r.hist), 2 * MS);
        tester_result_free(&r);
    }
}
END_TEST

/* An observer that asks to see nothing more after its first request. */
static void first_only(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)rq;
    (*(uint64_t *)ctx)++;
    tester_gate_skip_all(gate);
}

/* Corrected on time (next_slot, one user) starts in the loop that counts
 * nothing against max_requests while out->planned + the added values fit,
 * and goes on counting once they may not. D = 10 ms, 100 ms: planned 10
 * (0 .. 90 ms); a 1 ms service, the window [5, 35) ms: the request at 10 ms
 * returns at 36 (latency 26 ms), at the expected interval 5 ms it adds
 * floor(26 / 5) - 1 = 4 values (HdrHistogram's rule); next slot 40. Sends
 * 0, 10, 40, 50, ..., 90: 8, added 4.
 *   max_requests 12: 10 <= 12 at the start; after the request at 10 ms,
 *   sent 2 + added 4 leaves room for 6 more sends, less than the 8 planned
 *   left: the loop stops and the counting one sends the other 6 (8 + 4 =
 *   12): rc 0.
 *   max_requests 11: room for 7 sends in all: 40 .. 80 ms go out (sent 7),
 *   90 would make 12: -E2BIG with 7 sent.
 * The observer that skips all after its first request is called once (the
 * second loop keeps its gate). */
START_TEST(corrected_stops_counting_nothing_when_the_added_values_grow)
{
    stall_window w = {5 * MS, 35 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CORRECTED, 10 * MS, TESTER_LATE_NEXT_SLOT);
    t.expected_interval_ns = 5 * MS;
    tester_run_config c = {.duration_ns = 100 * MS, .threshold_ns = 100 * MS, .sub_bits = 8,
                           .max_requests = 12, .server = &srv};
    tester_result r;
    uint64_t seen = 0;
    ck_assert_int_eq(tester_run(&t, &c, first_only, &seen, &r), 0);
    ck_assert_uint_eq(seen, 1);
    ck_assert_uint_eq(r.planned, 10);
    ck_assert_uint_eq(r.sent, 8);
    ck_assert_uint_eq(r.added, 4);
    ck_assert_uint_eq(hist_count(r.hist), 12);
    ck_assert_int_eq(hist_max(r.hist), 26 * MS);
    tester_result_free(&r);

    c.max_requests = 11;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), -E2BIG);
    ck_assert_uint_eq(r.sent, 7);
    ck_assert_uint_eq(r.added, 4);
}
END_TEST

static void count_obs(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate; /* left empty: every request shown */
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
    /* open on a whole-ns grid, 1 ms for 10 ms: 10 planned (0..9 ms). At
     * max_requests 10 they are all sent (the loop that counts none against
     * the limit); at 9 the tenth is refused: -E2BIG. Paced the same way
     * (one user, 1 ms slots, 1 us service): the within_max loop, no test
     * per request. */
    static const tester_kind within[] = {TESTER_OPEN, TESTER_PACED};
    c.duration_ns = 10 * MS;
    for (size_t k = 0; k < sizeof within / sizeof within[0]; k++) {
        t = spec(within[k], MS, 0);
        c.max_requests = 10;
        ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), 0);
        ck_assert_uint_eq(r.planned, 10);
        ck_assert_uint_eq(r.sent, 10);
        tester_result_free(&r);
        c.max_requests = 9;
        ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), -E2BIG);
    }
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
 * connections each waits behind the others (4 ms).
 * By hand, one connection: request k goes at k ms (k = 0..99; the reply of
 * request 99 at 100 ms frees the connection at the end, so nobody sends
 * again). All four users are due at 0: request 0 takes the connection,
 * requests 1, 2, 3 wait 1, 2, 3 ms for it; from then on each user is due
 * at its reply, (k - 3) + 1 ms, and sends at k ms: 3 ms blocked. So 99
 * sends blocked, for 1 + 2 + 3 + 96 x 3 = 294 ms. */
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
    ck_assert_uint_eq(r.blocked, 99);
    ck_assert_int_eq(r.blocked_ns, 294 * MS);
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
static void sum_lateness(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate; /* sees every request */
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
 * of the way down the freeze's 10.1..0.1 ms: 10.1 - 4.9 = 5.2 ms.
 * Sampling error (the probes are a Poisson process of mean gap 10 us,
 * independent of the server, so given their number n they are n independent
 * uniform instants, docs/model.md): n is Poisson(10^7), sd 3,162 (5 sd:
 * 15,811). E[x^2] = 0.9899 x 0.01 + 0.01 x (10.1^3 - 0.1^3) / 30 + 0.0001 x
 * 10.1^2 = 0.36353 ms^2, so sd(x) = sqrt(0.36353 - 0.151^2) = 0.5837 ms and
 * the mean's sd is 0.5837 ms / sqrt(10^7) = 0.185 us (5 sd: 0.92 us). The
 * density at p99.5 is 1% per 10 ms = 10^-9 per ns, so p99.5's sd is
 * sqrt(0.005 x 0.995 / 10^7) / 10^-9 = 22.3 us (5 sd: 112 us, plus the
 * 8 us bucket at S = 10). The max is exactly 10.1 ms: about 10^3 probes land
 * in the 0.1 ms before a freeze (none with probability e^-1000). */
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
    ck_assert_msg(llabs((long long)truth.probes - 10000000) <= 15811, "%llu probes",
                  (unsigned long long)truth.probes);
    ck_assert_uint_eq(hist_count(truth.hist), truth.probes);
    ck_assert_msg(fabs(hist_mean(truth.hist) - 151 * US) < 0.92 * US, "mean %g", hist_mean(truth.hist));
    int64_t p995 = hist_value_at_percentile(truth.hist, HIST_NEAREST_RANK, 995, 1000);
    ck_assert_msg(llabs(p995 - 5200 * US) < 120 * US, "p99.5 %lld", (long long)p995);
    ck_assert_int_eq(hist_max(truth.hist), 10100 * US);
    ck_assert_int_eq(hist_min(truth.hist), 100 * US);
    tester_result_free(&r);
    hist_free(truth.hist);
}
END_TEST

/* The fraction of a histogram's values at or below the upper edge of the
 * bucket of x_ns, and that edge. */
static double cdf_at(const hist *h, int64_t x_ns, int64_t *edge_ns)
{
    size_t idx = hist_index_of((uint64_t)x_ns, hist_sub_bits(h));
    uint64_t lo, hi, below = 0;
    for (size_t i = 0; i <= idx; i++)
        below += hist_count_at_index(h, i);
    hist_bucket_range(idx, hist_sub_bits(h), &lo, &hi);
    *edge_ns = (int64_t)hi;
    return (double)below / (double)hist_count(h);
}

/* The truth cannot lock to the load's schedule (issue 11). An open tester
 * sends every 1 ms, each request needing a constant 0.5 ms, for 20 s. At
 * phase f in [0, 1) ms after an arrival the server still has 0.5 - f ms of
 * work when f < 0.5 ms, and none after: a user arriving then waits
 * 1 ms - f, or 0.5 ms. So the time average of the virtual latency has
 * F(x) = 0.5 + (x - 0.5 ms) / 1 ms for x in [0.5, 1) ms: p50 0.5 ms, p90
 * 0.9 ms, mean 0.625 ms. A grid of probes every 1 ms saw 1 ms every time
 * (each probe just after an arrival); 0.7 ms and 0.1 ms saw only the
 * phases on their grid. Poisson probes at every mean gap estimate the same
 * F: given n probes, the count at or below x is Binomial(n, F(x)), so each
 * estimate is within 5 sd = 5 sqrt(F (1 - F) / n) of F (n about 20,000 for
 * 1 ms: 5 sd = 0.018 at F = 0.5). The edges of S = 14 buckets are used as
 * the x, where F is exact. */
START_TEST(truth_does_not_lock_to_the_load)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 500 * US}, .generator = "mt19937",
                         .seed = 1};
    tester_run_config c = {.duration_ns = 20 * S, .threshold_ns = MS, .sub_bits = 14, .server = &srv};
    tester_spec open = spec(TESTER_OPEN, MS, 0);
    const int64_t gaps[] = {1 * MS, 999 * US, 700 * US, 100 * US};
    const int64_t xs[] = {500 * US, 600 * US, 750 * US, 900 * US, 990 * US};
    for (size_t g = 0; g < 4; g++) {
        tester_truth truth = {.interval_ns = gaps[g]};
        ck_assert_int_eq(hist_new(&truth.hist, 14), 0);
        tester_result r;
        ck_assert_int_eq(tester_run_with_truth(&open, &c, NULL, NULL, &truth, &r), 0);
        double n = (double)hist_count(truth.hist);
        ck_assert(n > 0.9 * 20 * S / (double)gaps[g]);
        for (size_t k = 0; k < 5; k++) {
            int64_t edge;
            double got = cdf_at(truth.hist, xs[k], &edge);
            double want = 0.5 + (double)(edge - 500 * US) / (double)MS;
            double sd = sqrt(want * (1 - want) / n);
            ck_assert_msg(fabs(got - want) <= 5 * sd, "gap %lld ns: F(%lld) = %.4f, want %.4f (sd %.4f)",
                          (long long)gaps[g], (long long)edge, got, want, sd);
        }
        ck_assert_int_eq(hist_min(truth.hist), 500 * US);
        ck_assert_int_le(hist_max(truth.hist), 1 * MS);
        ck_assert_msg(fabs(hist_mean(truth.hist) - 625 * US) < 5 * 144.3 * US / sqrt(n), "mean %g",
                      hist_mean(truth.hist)); /* sd(x) = sqrt(E[x^2] - 0.625^2) = 0.1443 ms */
        tester_result_free(&r);
        hist_free(truth.hist);
    }
}
END_TEST

/* On an idle server the truth is the service distribution: with no load
 * and no stall a probe waits for nothing, so its latency is its own service
 * draw. Constant 100 us: every probe is exactly 100 us. Lognormal (median
 * 100 us, sigma 0.2): the count at or below x is Binomial(n, F(x)) with
 * F(x) = Phi(ln(x / 100 us) / 0.2), so the estimate is within 5 sd of F at
 * each bucket edge (n about 100,000: 5 sd <= 0.008). */
START_TEST(truth_on_an_idle_server_is_the_service)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 100 * US}, .generator = "mt19937",
                         .seed = 1};
    tester_run_config c = {.duration_ns = 10 * S, .threshold_ns = MS, .sub_bits = 10, .server = &srv};
    tester_truth truth = {.interval_ns = 100 * US};
    ck_assert_int_eq(hist_new(&truth.hist, 10), 0);
    tester_result r;
    ck_assert_int_eq(tester_run_with_truth(NULL, &c, NULL, NULL, &truth, &r), 0);
    ck_assert(hist_count(truth.hist) > 90000);
    ck_assert_int_eq(hist_min(truth.hist), 100 * US);
    ck_assert_int_eq(hist_max(truth.hist), 100 * US);
    tester_result_free(&r);
    hist_reset(truth.hist);

    srv.service = (dist_spec){.kind = DIST_LOGNORMAL, .a_ns = 100 * US, .shape = 0.2};
    ck_assert_int_eq(tester_run_with_truth(NULL, &c, NULL, NULL, &truth, &r), 0);
    double n = (double)hist_count(truth.hist);
    const int64_t xs[] = {70 * US, 90 * US, 100 * US, 120 * US, 150 * US};
    for (size_t k = 0; k < 5; k++) {
        int64_t edge;
        double got = cdf_at(truth.hist, xs[k], &edge);
        /* values are whole ns: at or below the edge means below edge + 0.5 */
        double want = 0.5 * erfc(-log(((double)edge + 0.5) / 100000.0) / 0.2 / sqrt(2.0));
        double sd = sqrt(want * (1 - want) / n);
        ck_assert_msg(fabs(got - want) <= 5 * sd, "F(%lld) = %.4f, want %.4f", (long long)edge, got, want);
    }
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

/* Count of recorded values in the bucket of v. */
static uint64_t count_of(const hist *h, int64_t v)
{
    return hist_count_at_index(h, hist_index_of((uint64_t)v, hist_sub_bits(h)));
}

static tester_result run_wait(const tester_spec *t, const server_config *srv, int64_t duration_ns, int drop)
{
    tester_run_config c = {.duration_ns = duration_ns, .threshold_ns = 100 * MS, .drop_in_flight = drop,
                           .sub_bits = 8, .record_wait = 1, .server = srv};
    tester_result r;
    ck_assert_int_eq(tester_run(t, &c, NULL, NULL, &r), 0);
    return r;
}

/* Issue 14: a pool of 5 connections, 6 closed clients, 1 s transactions,
 * a 10 s run (scenarios/pool5_users6.ini works it by hand): sent 6 + 9 x 5
 * = 51; 41 take 1 s and 10 take 2 s (one a second waits 1 s for the pool,
 * the last replying at 11 s, in flight at the end). Their queue waits: 41
 * of 0 and 10 of 1 s, so P(no wait) = 41/51. Dropping replies after the
 * end (wrk2) records 50: 41 of 1 s, 9 of 2 s. */
START_TEST(pool_of_five_six_clients)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * S}, .generator = "mt19937",
                         .seed = 1, .workers = 5};
    tester_spec c = spec(TESTER_CLOSED, 0, 0);
    c.users = 6;
    tester_result r = run_wait(&c, &srv, 10 * S, 0);
    ck_assert_uint_eq(r.sent, 51);
    ck_assert_uint_eq(r.in_flight_at_end, 1);
    ck_assert_uint_eq(hist_count(r.hist), 51);
    ck_assert_uint_eq(count_of(r.hist, 1 * S), 41);
    ck_assert_uint_eq(count_of(r.hist, 2 * S), 10);
    ck_assert_uint_eq(hist_count(r.wait), 51);
    ck_assert_uint_eq(hist_count_at_index(r.wait, 0), 41);
    ck_assert_uint_eq(count_of(r.wait, 1 * S), 10);
    ck_assert_int_eq(r.last_reply_ns, 11 * S);
    /* the workers worked 5 x 10 s within the run: busy fraction 1 */
    ck_assert_int_eq(r.busy_in_run_ns, 50 * S);
    tester_result_free(&r);
    r = run_wait(&c, &srv, 10 * S, 1);
    ck_assert_uint_eq(hist_count(r.hist), 50);
    ck_assert_uint_eq(count_of(r.hist, 1 * S), 41);
    ck_assert_uint_eq(count_of(r.hist, 2 * S), 9);
    ck_assert_uint_eq(hist_count(r.wait), 50);
    tester_result_free(&r);
}
END_TEST

/* Issue 14's preemption example through a closed tester (1 user, 10 ms,
 * window [5, 105) ms, 200 ms; worked by hand in test_server.c):
 * resume 110 ms then 9 x 10 ms; restart and resample (a constant draws
 * 10 ms again) 115 ms then 9 x 10 ms; none 10 ms, 110 ms, then 8 x 10 ms.
 * Queue waits: none's second request waits 100 ms (sent at 10, starts at
 * 110); in the others no request waits (request 0 starts at 0, and each
 * later one when the window is over). */
START_TEST(preemption_through_a_closed_tester)
{
    stall_window w = {5 * MS, 105 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    static const struct {
        stall_preemption p;
        int64_t first, max;
        uint64_t tens, waited;
    } c[] = {
        {STALL_PREEMPT_RESUME, 110, 110, 9, 0},
        {STALL_PREEMPT_RESTART, 115, 115, 9, 0},
        {STALL_PREEMPT_RESAMPLE, 115, 115, 9, 0},
        {STALL_PREEMPT_NONE, 10, 110, 9, 1},
    };
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        st.preemption = c[i].p;
        tester_result r = run_wait(&t, &srv, 200 * MS, 0);
        ck_assert_uint_eq(r.sent, 10);
        ck_assert_int_eq(hist_max(r.hist), c[i].max * MS);
        ck_assert_uint_eq(count_of(r.hist, 10 * MS), c[i].tens);
        ck_assert_uint_eq(count_of(r.hist, c[i].max * MS), 1);
        ck_assert_uint_eq(hist_count(r.wait) - hist_count_at_index(r.wait, 0), c[i].waited);
        if (c[i].waited)
            ck_assert_int_eq(hist_max(r.wait), 100 * MS);
        tester_result_free(&r);
    }
}
END_TEST

/* Issue 32's non-pre-emptive example, the same scenario with preemption =
 * overtime (Ciw's non-preemptive schedule: ciw/node.py
 * take_servers_off_duty lets the busy server finish, and the next shift
 * starts at its own date): request 0 runs 0..10 ms undisturbed (10 ms);
 * request 1, sent at 10, waits for the window's fixed end, 105, replies
 * 115 (105 ms, a queue wait of 95 ms); then sends at 115, 125, ..., 195
 * (9 x 10 ms). 11 requests, sum 10 + 105 + 90 = 205 ms: mean 18.636 ms,
 * max 105 ms; `none` (the stop shifted to [5, 110)) gives 10 requests,
 * mean 20 ms, max 110 ms. */
START_TEST(preemption_overtime_keeps_the_window_end)
{
    stall_window w = {5 * MS, 105 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1, .preemption = STALL_PREEMPT_OVERTIME};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    tester_result r = run_wait(&t, &srv, 200 * MS, 0);
    ck_assert_uint_eq(r.sent, 11);
    ck_assert_uint_eq(hist_count(r.hist), 11);
    ck_assert_int_eq(hist_max(r.hist), 105 * MS);
    ck_assert_uint_eq(count_of(r.hist, 10 * MS), 10);
    ck_assert_uint_eq(count_of(r.hist, 105 * MS), 1);
    ck_assert_uint_eq(hist_count(r.wait) - hist_count_at_index(r.wait, 0), 1);
    ck_assert_int_eq(hist_max(r.wait), 95 * MS);
    tester_result_free(&r);
    st.preemption = STALL_PREEMPT_NONE;
    r = run_wait(&t, &srv, 200 * MS, 0);
    ck_assert_uint_eq(r.sent, 10);
    ck_assert_int_eq(hist_max(r.hist), 110 * MS);
    tester_result_free(&r);
}
END_TEST

/* A ramp-up's starts (tester_ramp_up_start), 7 users over 1 s, user 6:
 * exact floor(6 x 10^9 / 7) = 857142857 ns; step_ms, JMeter's
 * ThreadGroup.start (perThreadDelayInMillis = Math.round(1000 x 1 / 7) =
 * round(142.857) = 143 ms, thread i delayed i x 143): 858 ms; start_ms,
 * Gatling's Shard.shards over the 1 s batch (user k at floor(1000 k / n)
 * ms): floor(857.14) = 857 ms. 2 users: 500 ms by every rule (Gatling's
 * constantConcurrentUsers(2): 0 and 500 ms). A closed tester of 2 users,
 * ramp_up 1 s, 100 ms service on 2 workers, 1 s: user 0 sends at 0, 100,
 * ..., 900 (10), user 1 at 500, ..., 900 (5): 15 sent, each 100 ms. */
START_TEST(ramp_up_starts)
{
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.users = 7;
    t.ramp_up_ns = S;
    ck_assert_int_eq(tester_ramp_up_start(&t, 0), 0);
    ck_assert_int_eq(tester_ramp_up_start(&t, 6), 857142857);
    t.ramp_up_round = TESTER_RAMP_STEP_MS;
    ck_assert_int_eq(tester_ramp_up_start(&t, 1), 143 * MS);
    ck_assert_int_eq(tester_ramp_up_start(&t, 6), 858 * MS);
    t.ramp_up_round = TESTER_RAMP_START_MS;
    ck_assert_int_eq(tester_ramp_up_start(&t, 6), 857 * MS);
    t.users = 2;
    for (int r = TESTER_RAMP_EXACT; r <= TESTER_RAMP_START_MS; r++) {
        t.ramp_up_round = (tester_ramp_round)r;
        ck_assert_int_eq(tester_ramp_up_start(&t, 1), 500 * MS);
    }
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 100 * MS}, .generator = "mt19937", .seed = 1,
                         .workers = 2};
    tester_result r = run_wait(&t, &srv, S, 0);
    ck_assert_uint_eq(r.sent, 15);
    ck_assert_uint_eq(count_of(r.hist, 100 * MS), 15);
    tester_result_free(&r);
}
END_TEST

/* The wait histogram against Erlang C (test_server.c works the figures):
 * M/M/4 at rho = 0.8, an open Poisson tester at 3200/s, 1 ms exponential
 * service, 300 s (about 960,000 requests, seed 1): P(no wait) = 1 - C =
 * 0.40357 within 2%, the mean wait 0.7455 ms within 3% (one seed's mean
 * wait scatters about 1.5%), the mean latency W = 1.7455 ms within 2%. */
START_TEST(wait_histogram_against_erlang_c)
{
    server_config srv = {.service = {.kind = DIST_EXPONENTIAL, .a_ns = 1 * MS}, .generator = "mt19937",
                         .seed = 1, .workers = 4};
    tester_spec t = spec(TESTER_OPEN, 312500, 0); /* 1 / 3200 s */
    t.arrivals = TESTER_ARRIVALS_POISSON;
    tester_result r = run_wait(&t, &srv, 300 * S, 0);
    double n = (double)hist_count(r.wait);
    ck_assert_double_eq_tol((double)hist_count_at_index(r.wait, 0) / n, 0.40357, 0.02 * 0.40357);
    ck_assert_double_eq_tol(hist_mean(r.wait), 745540, 0.03 * 745540);
    ck_assert_double_eq_tol(hist_mean(r.hist), 1745540, 0.02 * 1745540);
    tester_result_free(&r);
}
END_TEST

/* requests, warmup and timeout on one closed user, 10 ms service, a window
 * [205, 405) ms, 1 s, requests = 50, warmup = 100ms, timeout = 200ms:
 * sends at 0, 10, ..., 200 ms (21); the one at 200 works 5 ms, waits for
 * the window's end and returns at 410: 210 ms, above the timeout; then
 * 410, 420, ... until 50 are sent (the last at 690 ms < 1 s). The ten
 * intended before 100 ms are the warm-up. Recorded 50 - 10 - 1 = 39, all
 * 10 ms; planned = sent = 50 (the count bounds the run). */
START_TEST(requests_warmup_timeout)
{
    stall_window w = {205 * MS, 405 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.requests = 50;
    t.warmup_ns = 100 * MS;
    t.timeout_ns = 200 * MS;
    log_obs log;
    tester_result r = run_logged(&t, &srv, S, &log);
    ck_assert_uint_eq(r.sent, 50);
    ck_assert_uint_eq(r.planned, 50);
    ck_assert_uint_eq(r.warmup_skipped, 10);
    ck_assert_uint_eq(r.timeouts, 1);
    ck_assert_uint_eq(hist_count(r.hist), 39);
    ck_assert_int_eq(hist_max(r.hist), 10 * MS);
    ck_assert_int_eq(log.rq[20].latency_ns, 210 * MS);
    ck_assert_int_eq(log.rq[20].recorded, 0);
    ck_assert_int_eq(log.rq[49].sent_ns, 690 * MS);
    tester_result_free(&r);
    /* timeout = 210ms: 210 is not above it, so it is recorded */
    t.timeout_ns = 210 * MS;
    r = run(&t, &srv, S, 0, 14);
    ck_assert_uint_eq(r.timeouts, 0);
    ck_assert_uint_eq(hist_count(r.hist), 40);
    tester_result_free(&r);
}
END_TEST

/* A paced user (100 ms grid, 10 ms service, from_now) thinking 95 ms after
 * each reply: ready at 105 ms, past its slot at 100, so it sends then and
 * restarts there; every send is 105 ms after the last: 0, 105, ..., 945
 * ms in 1.05 s: 10 sent of the 11 planned (0, 100, ..., 1000). */
START_TEST(paced_think_time)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 10 * MS}, .generator = "mt19937",
                         .seed = 1};
    tester_spec t = spec(TESTER_PACED, 100 * MS, TESTER_LATE_FROM_NOW);
    t.has_think = 1;
    t.think = (dist_spec){.kind = DIST_CONSTANT, .a_ns = 95 * MS};
    log_obs log;
    tester_result r = run_logged(&t, &srv, 1050 * MS, &log);
    ck_assert_uint_eq(r.planned, 11);
    ck_assert_uint_eq(r.sent, 10);
    for (size_t k = 0; k < log.n; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, (int64_t)k * 105 * MS);
    ck_assert_int_eq(log.rq[1].intended_ns, 100 * MS); /* due at its slot */
    tester_result_free(&r);
}
END_TEST

/* Go's ticker (late = ticker): 10 ms grid, 1 ms service, a window [15, 45)
 * ms, 100 ms. First tick at 10 (one period in); 20 waits for the window:
 * reply 46, past the tick at 30, which the channel kept: sent at 46 for
 * 30 (latency 1 from the send, 17 from the tick); the tick at 40 was
 * dropped; next tick 50, then 60 ... 90. Sends 10, 20, 46, 50, ..., 90: 8;
 * planned: the 10 grid instants but the first = 9. */
START_TEST(go_ticker_keeps_one_tick)
{
    stall_window w = {15 * MS, 45 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_TICKER);
    log_obs log;
    tester_result r = run_logged(&t, &srv, 100 * MS, &log);
    const int64_t sends[8] = {10, 20, 46, 50, 60, 70, 80, 90}, intended[8] = {10, 20, 30, 50, 60, 70, 80, 90};
    ck_assert_uint_eq(r.planned, 9);
    ck_assert_uint_eq(r.sent, 8);
    for (size_t k = 0; k < 8; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
        ck_assert_int_eq(log.rq[k].intended_ns, intended[k] * MS);
    }
    ck_assert_int_eq(log.rq[1].latency_ns, 26 * MS);
    tester_result_free(&r);
    t.latency_from_intended = 1; /* from the tick: 47 - 30 */
    r = run_logged(&t, &srv, 100 * MS, &log);
    ck_assert_int_eq(log.rq[2].latency_ns, 17 * MS);
    tester_result_free(&r);
}
END_TEST

/* hey -z -q's stop test (stop_test = when_ready; requester/requester.go
 * runWorker: the stop channel, then <-throttle, then makeRequest): one user,
 * a 10 ms ticker (first tick at 10 ms), 1 ms service.
 * - duration 105 ms: at_send sends the ticks 10 ... 100 (10 sends);
 *   when_ready also the tick at 110, past the end: the user was ready at
 *   101 < 105 and waited on the ticker when the stop came (11 sends);
 * - duration 100 ms: at_send 10 ... 90 (9); when_ready the tick at 100 too
 *   (ready at 91; 10 sends), and not the one at 110 (ready at 101 >= 100);
 * - a window [95, 107) ms holds the reply of the send at 100 (duration
 *   105) until 108: ready after the end, the user stops: 10 sends. */
START_TEST(hey_stop_tested_when_ready)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .generator = "mt19937", .seed = 1};
    const struct { int64_t end_ms; tester_stop_test stop; uint64_t sent; int64_t last_ms; } cases[] = {
        {105, TESTER_STOP_AT_SEND, 10, 100}, {105, TESTER_STOP_WHEN_READY, 11, 110},
        {100, TESTER_STOP_AT_SEND, 9, 90},   {100, TESTER_STOP_WHEN_READY, 10, 100},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tester_spec t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_TICKER);
        t.stop_test = cases[i].stop;
        log_obs log;
        tester_result r = run_logged(&t, &srv, cases[i].end_ms * MS, &log);
        ck_assert_uint_eq(r.sent, cases[i].sent);
        ck_assert_int_eq(log.rq[r.sent - 1].sent_ns, cases[i].last_ms * MS);
        ck_assert_int_eq(log.rq[r.sent - 1].latency_ns, 1 * MS); /* the one past the end recorded */
        tester_result_free(&r);
    }
    stall_window w = {95 * MS, 107 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    srv.stalls = &st;
    srv.n_stalls = 1;
    tester_spec t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_TICKER);
    t.stop_test = TESTER_STOP_WHEN_READY;
    log_obs log;
    tester_result r = run_logged(&t, &srv, 105 * MS, &log);
    ck_assert_uint_eq(r.sent, 10);
    ck_assert_int_eq(log.rq[9].sent_ns, 100 * MS);
    ck_assert_int_eq(log.rq[9].latency_ns, 8 * MS); /* 100 -> 108: 107 + 1 ms of service */
    tester_result_free(&r);
}
END_TEST

/* wrk2's catch-up limit (catch_up_factor = 2): 10 ms grid, 1 ms service, a
 * window [5, 105) ms. The send at 10 waited for its slot: the anchor. Its
 * reply at 106; the k-th late send may go at 10 + 5k ms at the earliest,
 * and is ready at 105 + k: ready first while k <= 23, but the user is on
 * schedule again at k = 11 (slot 120 > 116). So the backlog goes out back
 * to back at 106, ..., 115 (slots 20..110), then 120, 130, ...: exactly as
 * catch_up without a limit, 20 sends in 200 ms. */
START_TEST(catch_up_limit_anchored_at_the_send)
{
    stall_window w = {5 * MS, 105 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    for (uint64_t f = 0; f <= 2; f += 2) {
        tester_spec t = spec(TESTER_PACED, 10 * MS, TESTER_LATE_CATCH_UP);
        t.catch_up_factor = f;
        log_obs log;
        tester_result r = run_logged(&t, &srv, 200 * MS, &log);
        ck_assert_uint_eq(r.sent, 20);
        for (size_t k = 1; k <= 10; k++) {
            ck_assert_int_eq(log.rq[k + 1].sent_ns, (int64_t)(105 + k) * MS);
            ck_assert_int_eq(log.rq[k + 1].intended_ns, (int64_t)(10 + 10 * k) * MS);
        }
        ck_assert_int_eq(log.rq[12].sent_ns, 120 * MS);
        tester_result_free(&r);
    }
}
END_TEST

/* Why the limit cannot bind once anchored at a slot: the k-th request
 * after the anchor A = t_i may go no sooner than A + k U D / f <= A + k U D = its own slot, and a late user is ready
 * after its slot. Factor 1, 4 ms grid, 3 ms service, a window [0, 10) ms:
 * the first request returns at 13; the k-th late one goes at its reply,
 * 10 + 3k ms (k = 1 .. 10: slot 4k <= 10 + 3k, allowed 4k as well), and
 * at k = 11 the slot, 44 ms, is ahead of the reply at 43: 12 sends in 48
 * ms, as with no limit. */
START_TEST(catch_up_limit_never_binds_at_its_slot)
{
    stall_window w = {0, 10 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 3 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_PACED, 4 * MS, TESTER_LATE_CATCH_UP);
    t.catch_up_factor = 1;
    log_obs log;
    tester_result r = run_logged(&t, &srv, 48 * MS, &log);
    for (size_t k = 1; k <= 10; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, (int64_t)(10 + 3 * k) * MS);
    ck_assert_int_eq(log.rq[11].sent_ns, 44 * MS);
    ck_assert_uint_eq(r.sent, 12);
    tester_result_free(&r);
}
END_TEST

/* k6's pool: arrivals every 10 ms for 100 ms, 45 ms service on 10 workers
 * (no queue), vus = 1, max_vus = 3, vu_init = 15 ms:
 *   0: A (free 45); 10: none, dropped, B starts (free 25);
 *   20: none (B still starting: no other starts), dropped;
 *   30: B (-> 75); 40: none (A 45, B 75), dropped, C starts (free 55);
 *   50: A (-> 95); 60: C (-> 105); 70: none (75, 95, 105), dropped, pool
 *   full; 80: B (-> 125); 90: none (95, 105, 125), dropped.
 * Sent 5, dropped 5 (all in second 0), pool of 3; latencies all 45 ms. */
START_TEST(vu_pool_drops_arrivals)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 45 * MS}, .generator = "mt19937",
                         .seed = 1, .workers = 10};
    tester_spec t = spec(TESTER_OPEN, 10 * MS, 0);
    t.vus = 1;
    t.max_vus = 3;
    t.vu_init_ns = 15 * MS;
    log_obs log;
    tester_result r = run_logged(&t, &srv, 100 * MS, &log);
    const int64_t sends[5] = {0, 30, 50, 60, 80};
    ck_assert_uint_eq(r.planned, 10);
    ck_assert_uint_eq(r.sent, 5);
    ck_assert_uint_eq(r.dropped_arrivals, 5);
    ck_assert_uint_eq(r.max_vus_used, 3);
    ck_assert_uint_eq(r.n_drop_seconds, 1);
    ck_assert_uint_eq(r.drops_per_s[0], 5);
    for (size_t k = 0; k < 5; k++)
        ck_assert_int_eq(log.rq[k].sent_ns, sends[k] * MS);
    ck_assert_int_eq(hist_max(r.hist), 45 * MS);
    ck_assert_int_eq(hist_min(r.hist), 45 * MS);
    tester_result_free(&r);
    /* vu_init = 0, max_vus = 2: 25 ms service: drops at 20, 50, 80 (the
     * two VUs busy until 25/35, 55/65, 85/95): 7 sent */
    srv.service.a_ns = 25 * MS;
    t.max_vus = 2;
    t.vus = 2;
    t.vu_init_ns = 0;
    r = run(&t, &srv, 100 * MS, 0, 14);
    ck_assert_uint_eq(r.sent, 7);
    ck_assert_uint_eq(r.dropped_arrivals, 3);
    tester_result_free(&r);
}
END_TEST

/* batch = 3 on a 10 ms grid, 1 ms service, 100 ms: the 10 grid instants
 * become 4 whole batches at 0, 30, 60, 90 ms: 12 planned and sent; each
 * batch waits 1, 2, 3 ms: mean 2 ms, max 3 ms. */
START_TEST(batched_arrivals)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .generator = "mt19937",
                         .seed = 1};
    tester_spec t = spec(TESTER_OPEN, 10 * MS, 0);
    t.batch = 3;
    log_obs log;
    tester_result r = run_logged(&t, &srv, 100 * MS, &log);
    ck_assert_uint_eq(r.planned, 12);
    ck_assert_uint_eq(r.sent, 12);
    for (size_t k = 0; k < 12; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, (int64_t)(k / 3 * 30) * MS);
        ck_assert_int_eq(log.rq[k].latency_ns, (int64_t)(k % 3 + 1) * MS);
    }
    ck_assert_int_eq(hist_max(r.hist), 3 * MS);
    ck_assert(hist_mean(r.hist) == 2.0 * MS);
    tester_result_free(&r);
}
END_TEST

/* client_time (the tool's own time, in its latency, outside the server).
 * One closed user, 1 ms service, client_time 0.5 ms, 10 ms: each request
 * reaches the server 0.5 ms after its send and returns 1 ms later, so the
 * cycle is 1.5 ms: sends at 0, 1.5, ..., 9 ms (7 before 10), each latency
 * 1.5 ms, the server busy 7 x 1 ms (not 10.5: the client's share is not
 * its work). Then hey -q's two simultaneous sends (open, 10 ms grid in
 * batches of 2, 1 ms service, client_time 0.5 ms): both reach the server
 * at 0.5 ms; the first returns at 1.5 (latency 1.5), the second waits for
 * it and returns at 2.5 (latency 2.5). The same latencies made service
 * (1.5 ms each, no client_time) would queue the second behind 1.5 ms:
 * 1.5 and 3.0. */
START_TEST(client_time_in_latency_not_server)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .generator = "mt19937",
                         .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.client_ns = 500 * US;
    log_obs log;
    tester_result r = run_logged(&t, &srv, 10 * MS, &log);
    ck_assert_uint_eq(r.sent, 7);
    for (size_t k = 0; k < 7; k++) {
        ck_assert_int_eq(log.rq[k].sent_ns, (int64_t)k * 1500 * US);
        ck_assert_int_eq(log.rq[k].latency_ns, 1500 * US);
    }
    ck_assert_int_eq(r.busy_ns, 7 * MS);
    tester_result_free(&r);
    t = spec(TESTER_OPEN, 5 * MS, 0);
    t.batch = 2;
    t.client_ns = 500 * US;
    r = run_logged(&t, &srv, 20 * MS, &log);
    ck_assert_uint_eq(r.sent, 4);
    ck_assert_int_eq(log.rq[0].latency_ns, 1500 * US);
    ck_assert_int_eq(log.rq[1].latency_ns, 2500 * US);
    ck_assert_int_eq(log.rq[3].sent_ns, 10 * MS);
    ck_assert_int_eq(log.rq[3].latency_ns, 2500 * US);
    tester_result_free(&r);
    srv.service.a_ns = 1500 * US;
    t.client_ns = 0;
    r = run_logged(&t, &srv, 20 * MS, &log);
    ck_assert_int_eq(log.rq[1].latency_ns, 3 * MS);
    tester_result_free(&r);
}
END_TEST

/* wrk's exit-time backfill: one closed user, 1 ms service, a window [10.5,
 * 40.5) ms, 100 ms. Sends at 0..10 ms (11); the one at 10 returns at 41
 * (31 ms); then 41, ..., 99: 59 more, 70 replies by the end. D =
 * 100 ms / (70 / 1) = 1428571 ns (integer division, as wrk's). Only 31
 * ms is above 2D: it adds 31 - k D for k = 1 .. floor((v - 1) / D) - 1 =
 * 21 - 1 = 20 (the last 2428580 ns > D): 90 recorded, 20 added. */
START_TEST(backfill_with_the_average_interval)
{
    stall_window w = {10500 * US, 40500 * US};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = 1 * MS}, .stalls = &st,
                         .n_stalls = 1, .generator = "mt19937", .seed = 1};
    tester_spec t = spec(TESTER_CLOSED, 0, 0);
    t.backfill = 1;
    tester_result r = run(&t, &srv, 100 * MS, 0, 8);
    ck_assert_uint_eq(r.sent, 70);
    ck_assert_int_eq(r.backfill_interval_ns, 1428571);
    ck_assert_uint_eq(r.added, 20);
    ck_assert_uint_eq(hist_count(r.hist), 90);
    ck_assert_int_eq(hist_max(r.hist), 31 * MS);
    ck_assert_int_eq(hist_min(r.hist), 1 * MS);
    tester_result_free(&r);
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
    tcase_add_test(tc, users_share_the_tester_grid_exactly);
    tcase_add_test(tc, users_share_the_tester_grid_for_any_interval);
    tcase_add_test(tc, late_policies_with_users);
    tcase_add_test(tc, latency_from_intended_per_policy);
    tcase_add_test(tc, paced_slots_near_the_clock_limit);
    tcase_add_test(tc, paced_sends_stay_within_the_plan);
    tcase_add_test(tc, overload_when_the_backlog_grows);
    tcase_add_test(tc, overload_by_offered_utilisation);
    tcase_add_test(tc, busy_within_the_run);
    tcase_add_test(tc, drop_keeps_what_it_hides);
    tcase_add_test(tc, closed_users_response_time_law);
    tcase_add_test(tc, corrected_users_use_their_own_interval);
    tcase_add_test(tc, corrected_over_threshold_within_interval);
    tcase_add_test(tc, limits_and_observer);
    tcase_add_test(tc, corrected_backfill_counts_against_max_requests);
    tcase_add_test(tc, corrected_stops_counting_nothing_when_the_added_values_grow);
    tcase_add_test(tc, poisson_arrivals_mean_gap);
    tcase_add_test(tc, closed_response_time_law_with_think);
    tcase_add_test(tc, md1_pollaczek_khinchine);
    tcase_add_test(tc, partly_open_request_rate);
    tcase_add_test(tc, connections_block_and_are_counted);
    tcase_add_test(tc, latency_from_intended_adds_lateness);
    tcase_add_test(tc, truth_without_load);
    tcase_add_test(tc, truth_does_not_lock_to_the_load);
    tcase_add_test(tc, truth_on_an_idle_server_is_the_service);
    tcase_add_test(tc, random_stalls);
    tcase_add_test(tc, pool_of_five_six_clients);
    tcase_add_test(tc, preemption_through_a_closed_tester);
    tcase_add_test(tc, preemption_overtime_keeps_the_window_end);
    tcase_add_test(tc, ramp_up_starts);
    tcase_add_test(tc, wait_histogram_against_erlang_c);
    tcase_add_test(tc, requests_warmup_timeout);
    tcase_add_test(tc, paced_think_time);
    tcase_add_test(tc, go_ticker_keeps_one_tick);
    tcase_add_test(tc, hey_stop_tested_when_ready);
    tcase_add_test(tc, catch_up_limit_anchored_at_the_send);
    tcase_add_test(tc, catch_up_limit_never_binds_at_its_slot);
    tcase_add_test(tc, vu_pool_drops_arrivals);
    tcase_add_test(tc, batched_arrivals);
    tcase_add_test(tc, backfill_with_the_average_interval);
    tcase_add_test(tc, client_time_in_latency_not_server);
    tcase_add_test(tc, grid_asked_of_the_model);
    tcase_add_test(tc, kind_table_flags);
    suite_add_tcase(s, tc);
    return s;
}
