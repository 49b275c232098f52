/* The recipe "To add a tester kind" (docs/hacking.md), followed once: the
 * model is compiled with one more row of tester_kinds.def
 * (tests/recipe/tester_kinds_extra.def: steady, a closed loop with a fixed
 * wait of one interval after each reply) and its one file
 * (tests/recipe/tester_steady.c), and nothing else; the new kind parses,
 * answers its flags and runs. The scenario reader is not compiled here:
 * its read_steady is the recipe's third step. */
#include "tester.h"

#include <check.h>
#include <string.h>

Suite *test_suite(void);

#define MS 1000000LL

/* One row more: six kinds, the new one last, named by its row, with the
 * flags of its row (none: no rate, not open-like, no grid). */
START_TEST(the_row_makes_the_kind)
{
    ck_assert_int_eq(TESTER_N_KINDS, 6);
    ck_assert_int_eq(TESTER_STEADY, 5);
    tester_kind k;
    ck_assert_int_eq(tester_kind_parse("steady", &k), 0);
    ck_assert_int_eq(k, TESTER_STEADY);
    ck_assert_str_eq(tester_kinds[TESTER_STEADY].name, "steady");
    ck_assert_int_eq(tester_kinds[TESTER_STEADY].chart_style, 1);
    ck_assert(!tester_kind_has(TESTER_STEADY, TESTER_KIND_RATED));
    ck_assert(!tester_kind_has(TESTER_STEADY, TESTER_KIND_OPEN_LIKE));
    tester_spec t;
    memset(&t, 0, sizeof t);
    t.kind = TESTER_STEADY;
    t.users = 1;
    t.interval = (units_interval){9 * MS, 1};
    tester_grid g;
    ck_assert_int_eq(tester_grid_of(&t, &g), 0);            /* no grid: flags 0 */
    ck_assert(tester_request_rate_per_ns(&t) < 0);          /* no rate: not RATED */
    ck_assert_int_eq(tester_latency_includes_backlog(&t), 0); /* not open-like */
}
END_TEST

/* Its run: a constant 1 ms service and D = 9 ms give a cycle of 10 ms
 * (send, reply 1 ms later, wait 9 ms); sends at 0, 10, ..., 990 ms before
 * the 1 s duration: 100 requests, each measured 1 ms. Two users share the
 * one worker: both send at 0, the second waits 1 ms for the first, so
 * user 0 sends at 0, 10, ..., 990 ms (1 ms each) and user 1 at 0 (2 ms),
 * then at 2 + 9 = 11, 21, ..., 991 ms (1 ms each, the worker free since
 * user 0's reply at 11): 100 + 100 = 200 requests, the maximum 2 ms. */
START_TEST(the_kind_runs_on_the_loop)
{
    server_config srv = {.service = {.kind = DIST_CONSTANT, .a_ns = MS}, .generator = "mt19937", .seed = 1,
                         .workers = 1};
    tester_run_config c = {.duration_ns = 1000 * MS, .threshold_ns = 100 * MS, .sub_bits = 14, .server = &srv};
    tester_spec t;
    memset(&t, 0, sizeof t);
    strcpy(t.name, "s");
    t.kind = TESTER_STEADY;
    t.users = 1;
    t.interval = (units_interval){9 * MS, 1};
    tester_result r;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.sent, 100);
    ck_assert_uint_eq(hist_count(r.hist), 100);
    ck_assert_int_eq(hist_min(r.hist), MS);
    ck_assert_int_eq(hist_max(r.hist), MS);
    tester_result_free(&r);
    t.users = 2;
    ck_assert_int_eq(tester_run(&t, &c, NULL, NULL, &r), 0);
    ck_assert_uint_eq(r.sent, 200);
    ck_assert_int_eq(hist_max(r.hist), 2 * MS);
    tester_result_free(&r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("recipe_tester_kind");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, the_row_makes_the_kind);
    tcase_add_test(tc, the_kind_runs_on_the_loop);
    suite_add_tcase(s, tc);
    return s;
}
