/* The recipe "To add a stall kind" (docs/hacking.md), followed once: the
 * model is compiled with one more row of stall_kinds.def
 * (tests/recipe/stall_kinds_extra.def: bursts, listed stop-the-world
 * windows) and nothing else, and the new kind parses, describes itself
 * and stops the server as its flags say. The scenario reader is not
 * compiled here: its read_bursts is the recipe's second step. */
#include "server.h"
#include "stall.h"

#include <check.h>
#include <string.h>

Suite *test_suite(void);

#define MS 1000000LL

/* One row more: five kinds, the new one last, parsed by its name. */
START_TEST(the_row_makes_the_kind)
{
    ck_assert_int_eq(STALL_N_KINDS, 5);
    ck_assert_int_eq(STALL_BURSTS, 4);
    stall_kind k;
    ck_assert_int_eq(stall_kind_parse("bursts", &k), 0);
    ck_assert_int_eq(k, STALL_BURSTS);
    ck_assert_str_eq(stall_kind_name(STALL_BURSTS), "bursts");
    ck_assert(stall_kind_has(STALL_BURSTS, STALL_KIND_STOPS | STALL_KIND_LISTED));
    ck_assert(!stall_kind_has(STALL_BURSTS, STALL_KIND_WORK));
}
END_TEST

/* The server walks its windows as a windows stall's (tests/test_server.c,
 * request_in_service_across_window_start): window [10, 20) ms, 7 ms of
 * work from 5 ms does 5 ms before 10, waits, and ends at 22 ms; the first
 * window ending after 0 is [10, 20) ms, the one after 20 ms is [30, 35);
 * stall_describe says "2 windows", and a preemption that is not the
 * default is said, since the kind stops the world. */
START_TEST(the_server_stops_in_its_windows)
{
    stall_window w[2] = {{10 * MS, 20 * MS}, {30 * MS, 35 * MS}};
    stall_spec st = {.kind = STALL_BURSTS, .windows = w, .n_windows = 2};
    server_config c = {.service = {.kind = DIST_CONSTANT, .a_ns = 7 * MS}, .stalls = &st, .n_stalls = 1,
                       .generator = "mt19937", .seed = 1, .workers = 1};
    server *s;
    ck_assert_int_eq(server_new(&s, &c), 0);
    stall_window got;
    ck_assert_int_eq(server_next_window(s, 0, &got), 1);
    ck_assert_int_eq(got.start_ns, 10 * MS);
    ck_assert_int_eq(got.end_ns, 20 * MS);
    ck_assert_int_eq(server_next_window(s, 20 * MS, &got), 1);
    ck_assert_int_eq(got.start_ns, 30 * MS);
    ck_assert_int_eq(server_submit(s, 5 * MS), 22 * MS);
    server_free(s);
    char buf[128];
    ck_assert_str_eq(stall_describe(&st, buf, sizeof buf), "2 windows");
    st.preemption = STALL_PREEMPT_RESTART;
    ck_assert_str_eq(stall_describe(&st, buf, sizeof buf), "2 windows, preemption restart");
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("recipe_stall_kind");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, the_row_makes_the_kind);
    tcase_add_test(tc, the_server_stops_in_its_windows);
    suite_add_tcase(s, tc);
    return s;
}
