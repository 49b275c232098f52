/* Tests of timeline: the points kept, the bins, and the gate that lets the
 * run skip the requests a timeline no longer needs (issue 16). Figures
 * derived by hand in comments. */
#include "timeline.h"

#include <check.h>
#include <stdint.h>

Suite *test_suite(void);

static tester_request req(int64_t intended_ns, int64_t latency_ns)
{
    tester_request r = {.intended_ns = intended_ns, .sent_ns = intended_ns,
                        .reply_ns = intended_ns + latency_ns, .latency_ns = latency_ns, .recorded = 1};
    return r;
}

static void observe(timeline *t, int64_t intended_ns, int64_t latency_ns, tester_gate *g)
{
    tester_request r = req(intended_ns, latency_ns);
    tester_gate_skip_all(g);
    timeline_observe(t, 0, &r, g);
}

/* Window [100, 1100) ns, 4 points: bins of 250 ns, [100, 350), [350, 600),
 * [600, 850), [850, 1100). Before the window the gate skips everything up
 * to 100 ns; the first 4 requests in it are kept one by one (nothing
 * skipped); the 5th makes it binned: 150 (5), 200 (6), 300 (7) fall in bin
 * 0, 400 (8) and 500 (3) in bin 1 [350, 600), whose largest is 8, so the
 * gate skips [350, 600) up to 8 ns of latency. 9 ns there is shown and
 * raises the bin to 9; 700 ns (bin 2) is shown. Past the window the gate
 * skips [1100, INT64_MAX). Points: 3 bins hold values (7, 9, 4). */
START_TEST(gate_skips_what_the_bins_do_not_need)
{
    timeline *t;
    ck_assert_int_eq(timeline_new(&t, 1, 100, 1100, 4), 0);
    tester_gate g;
    observe(t, 50, 1, &g);
    ck_assert_int_eq(g.skip_from_ns, INT64_MIN);
    ck_assert_int_eq(g.skip_to_ns, 100);
    ck_assert_int_eq(g.skip_latency_max_ns, INT64_MAX);
    ck_assert(!tester_gate_shows(&g, 99, 1000000));
    ck_assert(tester_gate_shows(&g, 100, 0));
    const int64_t at[] = {150, 200, 300, 400}, lat[] = {5, 6, 7, 8};
    for (int i = 0; i < 4; i++) {
        observe(t, at[i], lat[i], &g);
        ck_assert_int_eq(g.skip_from_ns, g.skip_to_ns); /* exact: every request shown */
        ck_assert(tester_gate_shows(&g, at[i] + 1, 0));
    }
    ck_assert(timeline_exact(t, 0));
    observe(t, 500, 3, &g);
    ck_assert(!timeline_exact(t, 0));
    ck_assert_int_eq(g.skip_from_ns, 350);
    ck_assert_int_eq(g.skip_to_ns, 600);
    ck_assert_int_eq(g.skip_latency_max_ns, 8);
    ck_assert(!tester_gate_shows(&g, 599, 8));
    ck_assert(tester_gate_shows(&g, 599, 9));
    ck_assert(tester_gate_shows(&g, 600, 1));
    ck_assert(tester_gate_shows(&g, 349, 1));
    observe(t, 550, 9, &g);
    ck_assert_int_eq(g.skip_latency_max_ns, 9);
    observe(t, 700, 4, &g);
    ck_assert_int_eq(g.skip_from_ns, 600);
    ck_assert_int_eq(g.skip_to_ns, 850);
    ck_assert_int_eq(g.skip_latency_max_ns, 4);
    observe(t, 1100, 1, &g);
    ck_assert_int_eq(g.skip_from_ns, 1100);
    ck_assert_int_eq(g.skip_to_ns, INT64_MAX);
    ck_assert_uint_eq(timeline_points(t, 0), 3);
    timeline_free(t);
}
END_TEST

/* Two parts of an observer skip only what both skip: [0, 100) up to 5 ns
 * and [50, 200) up to 3 ns give [50, 100) up to 3 ns; with a disjoint
 * [300, 400) nothing is skipped. */
START_TEST(gate_narrowing_is_an_intersection)
{
    tester_gate g;
    tester_gate_skip_all(&g);
    tester_gate_narrow(&g, 0, 100, 5);
    tester_gate_narrow(&g, 50, 200, 3);
    ck_assert_int_eq(g.skip_from_ns, 50);
    ck_assert_int_eq(g.skip_to_ns, 100);
    ck_assert_int_eq(g.skip_latency_max_ns, 3);
    ck_assert(!tester_gate_shows(&g, 50, 3));
    ck_assert(tester_gate_shows(&g, 49, 0));
    ck_assert(tester_gate_shows(&g, 60, 4));
    tester_gate_narrow(&g, 300, 400, 10);
    ck_assert(tester_gate_shows(&g, 60, 0));
    ck_assert(tester_gate_shows(&g, 350, 0));
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, gate_skips_what_the_bins_do_not_need);
    tcase_add_test(tc, gate_narrowing_is_an_intersection);
    suite_add_tcase(s, tc);
    return s;
}
