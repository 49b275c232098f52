/* test_target_plan.c - what `cosim target` plays (cli/target_plan.c): the
 * windows on its clock, merged and cut at the run's end, the work of each
 * request, the resume rule; the values worked by hand in the comments. */
#define _POSIX_C_SOURCE 200809L
#include "scenario_text.h"
#include "target_plan.h"

#include <check.h>
#include <errno.h>

Suite *test_suite(void);

#define MS 1000000LL
#define S 1000000000LL

static target_plan *plan_of(const char *text, int64_t run_ns, scenario **s)
{
    *s = load(text);
    target_plan *p = NULL;
    char why[512] = "";
    ck_assert_msg(target_plan_new(&p, *s, run_ns, why, sizeof why) == 0, "%s", why);
    return p;
}

static const char head[] = "[scenario]\nduration = 12s\n[service]\ndistribution = constant\ntime = 100us\n"
                           "[tester t]\nkind = closed\n";

START_TEST(article_stall_in_a_12s_run)
{
    /* 500 ms every 5 s from 5 s: starts 5 s and 10 s before 12 s; 15 s is
     * past the run */
    char text[1024];
    snprintf(text, sizeof text, "%s[stall gc]\nkind = periodic\nlength = 500ms\nperiod = 5s\nfirst = 5s\n", head);
    scenario *s;
    target_plan *p = plan_of(text, 12 * S, &s);
    ck_assert_uint_eq(p->n, 2);
    ck_assert_int_eq(p->w[0].start_ns, 5 * S);
    ck_assert_int_eq(p->w[0].end_ns, 5 * S + 500 * MS);
    ck_assert_int_eq(p->w[1].start_ns, 10 * S);
    ck_assert_int_eq(p->w[1].end_ns, 10 * S + 500 * MS);
    target_plan_free(p);
    scenario_free(s);
    /* a 10.2 s run cuts the second window at 10.2 s */
    p = plan_of(text, 10 * S + 200 * MS, &s);
    ck_assert_uint_eq(p->n, 2);
    ck_assert_int_eq(p->w[1].end_ns, 10 * S + 200 * MS);
    target_plan_free(p);
    scenario_free(s);
}
END_TEST

START_TEST(stalls_merge_into_one_stop)
{
    /* the book's 10 ms every 1 s from 0 and a window 0.995s..1.005s: the
     * second overlaps [1 s, 1.01 s), so one stop [0.995 s, 1.01 s); in a
     * 2.5 s run: [0, 10 ms), [995 ms, 1010 ms), [2 s, 2.01 s) */
    char text[1024];
    snprintf(text, sizeof text,
             "%s[stall book]\nkind = periodic\nlength = 10ms\nperiod = 1s\n"
             "[stall w]\nkind = windows\nwindows = 0.995s..1.005s\n", head);
    scenario *s;
    target_plan *p = plan_of(text, 2500 * MS, &s);
    ck_assert_uint_eq(p->n, 3);
    ck_assert_int_eq(p->w[0].start_ns, 0);
    ck_assert_int_eq(p->w[0].end_ns, 10 * MS);
    ck_assert_int_eq(p->w[1].start_ns, 995 * MS);
    ck_assert_int_eq(p->w[1].end_ns, 1010 * MS);
    ck_assert_int_eq(p->w[2].start_ns, 2 * S);
    ck_assert_int_eq(p->w[2].end_ns, 2010 * MS);
    target_plan_free(p);
    scenario_free(s);
}
END_TEST

START_TEST(work_is_service_plus_request_stall)
{
    /* constant 100 us; requests 1..2 need 500 ms more: 100 us, 500.1 ms,
     * 500.1 ms, 100 us */
    char text[1024];
    snprintf(text, sizeof text, "%s[stall r]\nkind = requests\nrequests = 1..2\nextra = 500ms\n", head);
    scenario *s;
    target_plan *p = plan_of(text, 12 * S, &s);
    ck_assert_uint_eq(p->n, 0);
    ck_assert_int_eq(target_plan_next_work(p), 100000);
    ck_assert_int_eq(target_plan_next_work(p), 500 * MS + 100000);
    ck_assert_int_eq(target_plan_next_work(p), 500 * MS + 100000);
    ck_assert_int_eq(target_plan_next_work(p), 100000);
    target_plan_free(p);
    scenario_free(s);
}
END_TEST

START_TEST(refuses_what_it_cannot_play)
{
    char text[1024], why[512];
    target_plan *p = (target_plan *)1;
    snprintf(text, sizeof text, "%s[stall r]\nkind = random\nevery = 1s\nlength_distribution = constant\n"
             "length_time = 10ms\n", head);
    scenario *s = load(text);
    ck_assert_int_eq(target_plan_new(&p, s, 12 * S, why, sizeof why), -EINVAL);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(why, "[stall r]: a random stall") != NULL, "%s", why);
    scenario_free(s);
    snprintf(text, sizeof text, "%s[stall g]\nkind = periodic\nlength = 10ms\nperiod = 1s\npreemption = restart\n",
             head);
    s = load(text);
    ck_assert_int_eq(target_plan_new(&p, s, 12 * S, why, sizeof why), -EINVAL);
    ck_assert_msg(strstr(why, "preemption = restart: the target plays resume only") != NULL, "%s", why);
    ck_assert_int_eq(target_plan_new(&p, s, 0, why, sizeof why), -EINVAL);
    scenario_free(s);
}
END_TEST

START_TEST(resume_moves_what_was_in_service)
{
    /* due at 5.0001 s, a stop held 5.00002 s .. 5.50003 s (500.01 ms):
     * due 5.50011 s; one due at the stop's start was done before it */
    ck_assert_int_eq(target_plan_resume(5 * S + 100000, 5 * S + 20000, 5 * S + 500 * MS + 30000),
                     5 * S + 500 * MS + 110000);
    ck_assert_int_eq(target_plan_resume(5 * S, 5 * S, 6 * S), 5 * S);
    ck_assert_int_eq(target_plan_resume(INT64_MAX - 5, 0, 10), INT64_MAX);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("target_plan");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, article_stall_in_a_12s_run);
    tcase_add_test(tc, stalls_merge_into_one_stop);
    tcase_add_test(tc, work_is_service_plus_request_stall);
    tcase_add_test(tc, refuses_what_it_cannot_play);
    tcase_add_test(tc, resume_moves_what_was_in_service);
    suite_add_tcase(s, tc);
    return s;
}
