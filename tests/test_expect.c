/* Tests of expect: the [expect NAME] grammar (keys and values) and the
 * verdicts, with the examples of docs/scenario-format.md. */
#include "expect.h"
#include "hist.h"

#include <check.h>
#include <errno.h>
#include <string.h>

Suite *test_suite(void);

static expect_item value_of(const char *text, int is_duration)
{
    expect_item x;
    char why[256] = "";
    memset(&x, 0, sizeof x);
    ck_assert_msg(scn_expect_parse_value(text, is_duration, &x, why, sizeof why) == 0, "%s: %s", text, why);
    return x;
}

static const char *error_of(const char *text, int is_duration)
{
    static char why[256];
    expect_item x;
    memset(&x, 0, sizeof x);
    ck_assert_int_eq(scn_expect_parse_value(text, is_duration, &x, why, sizeof why), -EINVAL);
    return why;
}

START_TEST(values)
{
    expect_item x = value_of("18000 +- 1%", 0);
    ck_assert_int_eq(x.value, 18000);
    ck_assert_int_eq(x.tol, EXPECT_RELATIVE);
    ck_assert_double_eq(x.tol_rel, 0.01);
    x = value_of("1.87ms +- 0.1ms", 1);
    ck_assert_int_eq(x.value, 1870000);
    ck_assert_int_eq(x.tol, EXPECT_ABSOLUTE);
    ck_assert_int_eq(x.tol_abs, 100000);
    x = value_of("18000 +- 50", 0);
    ck_assert_int_eq(x.tol_abs, 50);
    x = value_of("90 exact", 0);
    ck_assert_int_eq(x.value, 90);
    ck_assert_int_eq(x.tol, EXPECT_EXACT);
    x = value_of("  2.5s  ", 1);
    ck_assert_int_eq(x.value, 2500000000);
    ck_assert_int_eq(x.tol, EXPECT_EXACT);
    x = value_of("1ms \xc2\xb1 5%", 1); /* U+00B1 */
    ck_assert_int_eq(x.value, 1000000);
    ck_assert_double_eq(x.tol_rel, 0.05);
    x = value_of("1ms +- 1000%", 1);
    ck_assert_double_eq(x.tol_rel, 10);
}
END_TEST

START_TEST(value_errors)
{
    ck_assert_str_eq(error_of("1ms exact please", 1), "nothing may follow 'exact'");
    ck_assert_str_eq(error_of("abc", 0), "expected a count and a tolerance, e.g. 18000 +- 1%");
    ck_assert_str_eq(error_of("5 +- 1%", 1), "expected a duration and a tolerance, e.g. 1.87ms +- 3%");
    ck_assert_str_eq(error_of("5ms +- 1001%", 1), "a relative tolerance is a percentage from 0 to 1000 such as 3%");
    ck_assert_str_eq(error_of("5ms +- 1e3%", 1),
                     "a relative tolerance is a percentage from 0 to 1000 such as 3%: an exponent is not accepted; "
                     "write the number out (1000, not 1e3)");
    ck_assert_str_eq(error_of("5 +- 1ms", 0), "the tolerance is a count (50) or a percentage (1%)");
    ck_assert_str_eq(error_of("5ms +- 1", 1), "the tolerance is a duration (0.1ms) or a percentage (3%)");
}
END_TEST

START_TEST(keys)
{
    expect_item x;
    const char *why = NULL;
    memset(&x, 0, sizeof x);
    ck_assert_int_eq(scn_expect_parse_key("over_threshold", &x, &why), 0);
    ck_assert_int_eq(x.metric, EXPECT_OVER);
    ck_assert(!scn_expect_metric_is_duration(x.metric));
    ck_assert_int_eq(scn_expect_parse_key("mean", &x, &why), 0);
    ck_assert_int_eq(x.metric, EXPECT_MEAN);
    ck_assert(scn_expect_metric_is_duration(x.metric));
    ck_assert_int_eq(scn_expect_parse_key("p99.9", &x, &why), 0);
    ck_assert_int_eq(x.metric, EXPECT_PERCENTILE);
    ck_assert_uint_eq(x.p_num * 1000, 999 * x.p_den); /* 99.9% = 999/1000 */
    ck_assert(scn_expect_metric_is_duration(x.metric));
    ck_assert_int_eq(scn_expect_parse_key("p101", &x, &why), -EINVAL);
    ck_assert_ptr_nonnull(why);
    ck_assert_int_eq(scn_expect_parse_key("burst", &x, &why), -ENOENT);
    ck_assert_int_eq(scn_expect_parse_key("p", &x, &why), -ENOENT);
    ck_assert_int_eq(scn_expect_parse_key("pause", &x, &why), -ENOENT);
}
END_TEST

START_TEST(verdicts)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    expect_item x = {.metric = EXPECT_SENT, .value = 100, .tol = EXPECT_ABSOLUTE, .tol_abs = 5};
    ck_assert(expect_meets(&x, 105, h));
    ck_assert(expect_meets(&x, 95, h));
    ck_assert(!expect_meets(&x, 106, h));
    x = (expect_item){.metric = EXPECT_SENT, .value = 1000, .tol = EXPECT_RELATIVE, .tol_rel = 0.03};
    ck_assert(expect_meets(&x, 1030, h)); /* 3% of 1000 is 30 */
    ck_assert(!expect_meets(&x, 1031, h));
    x = (expect_item){.metric = EXPECT_MAX, .value = 1000, .tol = EXPECT_EXACT};
    ck_assert(expect_meets(&x, 1000, h));
    ck_assert(!expect_meets(&x, 1003, h));
    /* a percentile is exact when the value lies in the reported value's
     * bucket: with S = 8 the bucket of 1003 holds 1000..1003 (hist.h) */
    x = (expect_item){.metric = EXPECT_PERCENTILE, .value = 1000, .tol = EXPECT_EXACT};
    ck_assert(expect_meets(&x, 1003, h));
    x.value = 999;
    ck_assert(!expect_meets(&x, 1003, h));
    hist_free(h);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("expect");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, values);
    tcase_add_test(tc, value_errors);
    tcase_add_test(tc, keys);
    tcase_add_test(tc, verdicts);
    suite_add_tcase(s, tc);
    return s;
}
