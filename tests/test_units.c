/* Tests of units: exact parsing of durations, rates and percentiles. */
#include "units.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

Suite *test_suite(void);

static int64_t dur(const char *s)
{
    int64_t ns = -1;
    const char *why;
    ck_assert_msg(units_parse_duration(s, &ns, &why) == 0, "%s rejected", s);
    return ns;
}

static int dur_err(const char *s)
{
    int64_t ns;
    const char *why = NULL;
    int rc = units_parse_duration(s, &ns, &why);
    ck_assert_ptr_nonnull(why);
    return rc;
}

START_TEST(durations_are_exact)
{
    ck_assert_int_eq(dur("2.5s"), 2500000000);
    ck_assert_int_eq(dur("500ms"), 500000000);
    ck_assert_int_eq(dur("100us"), 100000);
    ck_assert_int_eq(dur("100\xc2\xb5s"), 100000); /* U+00B5 micro sign */
    ck_assert_int_eq(dur("100\xce\xbcs"), 100000); /* U+03BC Greek mu */
    ck_assert_int_eq(dur("7ns"), 7);
    ck_assert_int_eq(dur("0s"), 0);
    ck_assert_int_eq(dur(" 0.9s "), 900000000); /* not 899999999 */
    ck_assert_int_eq(dur("0.000000001s"), 1);
    ck_assert_int_eq(dur("1min"), 60000000000);
    ck_assert_int_eq(dur("1000000s"), UNITS_MAX_DURATION_NS);
}
END_TEST

START_TEST(bad_durations_say_why)
{
    ck_assert_int_eq(dur_err("100"), -EINVAL);      /* bare number */
    ck_assert_int_eq(dur_err("-1s"), -EINVAL);      /* negative */
    ck_assert_int_eq(dur_err("1.5ns"), -EINVAL);    /* fraction of a ns */
    ck_assert_int_eq(dur_err("10 parsecs"), -EINVAL);
    ck_assert_int_eq(dur_err("s"), -EINVAL);
    ck_assert_int_eq(dur_err(""), -EINVAL);
    ck_assert_int_eq(dur_err("1000001s"), -ERANGE);
    ck_assert_int_eq(dur_err("99999999999999999999s"), -EINVAL);
}
END_TEST

START_TEST(rates_are_exact_fractions)
{
    units_interval iv;
    const char *why;
    ck_assert_int_eq(units_parse_rate("1000/s", &iv, &why), 0);
    ck_assert_uint_eq(iv.num_ns, 1000000);
    ck_assert_uint_eq(iv.den, 1);
    ck_assert_int_eq(units_parse_rate("3/s", &iv, &why), 0);
    ck_assert_uint_eq(iv.num_ns, 1000000000);
    ck_assert_uint_eq(iv.den, 3);
    /* 3/s for 20 s plans exactly 60 requests (a rounded 333333333 ns
     * interval would plan 61) */
    ck_assert_uint_eq(units_interval_count_before(iv, 0, 20000000000), 60);
    ck_assert_int_eq(units_interval_at(iv, 0, 1), 333333333);
    ck_assert_int_eq(units_interval_at(iv, 0, 3), 1000000000);
    ck_assert_int_eq(units_parse_rate("2.5/ms", &iv, &why), 0);
    ck_assert_uint_eq(iv.num_ns, 400000);
    ck_assert_uint_eq(iv.den, 1);
    ck_assert_int_ne(units_parse_rate("1000", &iv, &why), 0);
    ck_assert_int_ne(units_parse_rate("0/s", &iv, &why), 0);
    ck_assert_int_ne(units_parse_rate("1000/fortnight", &iv, &why), 0);
    ck_assert_int_ne(units_parse_rate("-5/s", &iv, &why), 0);
}
END_TEST

/* count_before counts grid instants strictly before the end: a 1 ms grid
 * in 100 s plans 100,000 (the book's open loop); 100/s in 2 s plans 200. */
START_TEST(grid_counts)
{
    units_interval ms = {1000000, 1}, cs = {10000000, 1};
    ck_assert_uint_eq(units_interval_count_before(ms, 0, 100000000000), 100000);
    ck_assert_uint_eq(units_interval_count_before(cs, 0, 2000000000), 200);
    ck_assert_uint_eq(units_interval_count_before(ms, 0, 1), 1);
    ck_assert_uint_eq(units_interval_count_before(ms, 5, 5), 0);
    /* the first slot at or after 10.1 ms on a 1 ms grid is slot 11 */
    ck_assert_uint_eq(units_interval_count_before(ms, 0, 10100000), 11);
    ck_assert_uint_eq(units_interval_count_before(ms, 0, 11000000), 11);
    units_interval two = units_interval_scale(ms, 2);
    ck_assert_uint_eq(two.num_ns, 2000000);
    units_interval third = {1000000000, 3};
    units_interval t3 = units_interval_scale(third, 3);
    ck_assert_uint_eq(t3.num_ns, 1000000000);
    ck_assert_uint_eq(t3.den, 1);
}
END_TEST

START_TEST(percentiles_parse_exactly)
{
    uint64_t num, den;
    const char *why;
    ck_assert_int_eq(units_parse_percentile("99.9", &num, &den, &why), 0);
    ck_assert_uint_eq(num, 999);
    ck_assert_uint_eq(den, 1000);
    ck_assert_int_eq(units_parse_percentile("50", &num, &den, &why), 0);
    ck_assert_uint_eq(num, 1);
    ck_assert_uint_eq(den, 2);
    ck_assert_int_eq(units_parse_percentile("0", &num, &den, &why), 0);
    ck_assert_uint_eq(num, 0);
    ck_assert_int_ne(units_parse_percentile("100.1", &num, &den, &why), 0);
    ck_assert_int_ne(units_parse_percentile("p99", &num, &den, &why), 0);
}
END_TEST

START_TEST(formatting)
{
    char b[32];
    ck_assert_str_eq(units_format_duration(950, b, sizeof b), "950 ns");
    ck_assert_str_eq(units_format_duration(100351, b, sizeof b), "100.4 us");
    ck_assert_str_eq(units_format_duration(1892351, b, sizeof b), "1.892 ms");
    ck_assert_str_eq(units_format_duration(10092543, b, sizeof b), "10.09 ms");
    ck_assert_str_eq(units_format_duration(2500000000, b, sizeof b), "2.500 s");
    ck_assert_str_eq(units_format_duration_exact(500000000, b, sizeof b), "500ms");
    ck_assert_str_eq(units_format_duration_exact(2500000000, b, sizeof b), "2.5s");
    ck_assert_str_eq(units_format_duration_exact(900000000, b, sizeof b), "900ms");
    ck_assert_str_eq(units_format_duration_exact(1000001, b, sizeof b), "1.000001ms");
    ck_assert_str_eq(units_format_duration_exact(0, b, sizeof b), "0s");
    ck_assert_str_eq(units_format_count(99900, b, sizeof b), "99,900");
    ck_assert_str_eq(units_format_count(100, b, sizeof b), "100");
    ck_assert_str_eq(units_format_count(1000000, b, sizeof b), "1,000,000");
}
END_TEST

START_TEST(counts_and_numbers)
{
    uint64_t v;
    double d;
    const char *why;
    ck_assert_int_eq(units_parse_count("42", 100, &v, &why), 0);
    ck_assert_uint_eq(v, 42);
    ck_assert_int_eq(units_parse_count("101", 100, &v, &why), -ERANGE);
    ck_assert_int_eq(units_parse_count("4x", 100, &v, &why), -EINVAL);
    ck_assert_int_eq(units_parse_count("99999999999999999999999", UINT64_MAX, &v, &why), -ERANGE);
    ck_assert_int_eq(units_parse_number("0.2", &d, &why), 0);
    ck_assert_double_eq(d, 0.2);
    ck_assert_int_ne(units_parse_number("0.2ms", &d, &why), 0);
    ck_assert_int_ne(units_parse_number("nan", &d, &why), 0);
}
END_TEST

/* The one number grammar (issue 10): what strtod takes beyond
 * DIGITS[.DIGITS] is refused, with the rule broken, by every parser. */
static void number_refused(const char *text, const char *reason)
{
    double d;
    uint64_t num, den;
    int64_t ns;
    units_interval iv;
    const char *why = NULL;
    char buf[64];
    ck_assert_msg(units_parse_number(text, &d, &why) == -EINVAL, "number %s accepted", text);
    ck_assert_msg(strstr(why, reason), "number %s: '%s' lacks '%s'", text, why, reason);
    why = NULL;
    ck_assert_msg(units_parse_percentile(text, &num, &den, &why) == -EINVAL, "percentile %s accepted", text);
    ck_assert_msg(strstr(why, reason), "percentile %s: '%s' lacks '%s'", text, why, reason);
    snprintf(buf, sizeof buf, "%sms", text);
    why = NULL;
    ck_assert_msg(units_parse_duration(buf, &ns, &why) == -EINVAL, "duration %s accepted", buf);
    ck_assert_msg(strstr(why, reason), "duration %s: '%s' lacks '%s'", buf, why, reason);
    snprintf(buf, sizeof buf, "%s/s", text);
    why = NULL;
    ck_assert_msg(units_parse_rate(buf, &iv, &why) == -EINVAL, "rate %s accepted", buf);
    ck_assert_msg(strstr(why, reason), "rate %s: '%s' lacks '%s'", buf, why, reason);
}

START_TEST(one_number_grammar)
{
    number_refused("1e-1", "exponent");
    number_refused("1e3", "exponent");
    number_refused("2E+2", "exponent");
    number_refused("0x1p-2", "hexadecimal");
    number_refused("0X10", "hexadecimal");
    number_refused("-0", "sign");
    number_refused("+1", "sign");
    number_refused("inf", "inf and nan");
    number_refused("nan", "inf and nan");
    number_refused("INF", "inf and nan");
    number_refused(".5", "digit before it");
    number_refused("5.", "digit after it");
    number_refused("1.2.3", "at most one decimal point");
    number_refused("1234567890123456789", "at most 18 significant");
    /* what it accepts: plain decimals, exactly */
    double d;
    const char *why;
    ck_assert_int_eq(units_parse_number(" 0.25 ", &d, &why), 0);
    ck_assert_double_eq(d, 0.25);
    ck_assert_int_eq(units_parse_number("007", &d, &why), 0);
    ck_assert_double_eq(d, 7);
    ck_assert_int_eq(units_parse_number("0", &d, &why), 0);
    ck_assert_double_eq(d, 0);
    /* "0.1" is the double nearest 1/10, as the C library reads it */
    ck_assert_int_eq(units_parse_number("0.1", &d, &why), 0);
    ck_assert_double_eq(d, 0.1);
    /* a percentile above 100 says so (p101 of an [expect] section) */
    uint64_t num, den;
    ck_assert_int_eq(units_parse_percentile("101", &num, &den, &why), -EINVAL);
    ck_assert_str_eq(why, "a percentile is between 0 and 100");
    /* the prefix parser of cosim sweep: 12.5 ms, 1 decimal, unit "ms" */
    long double v;
    unsigned dec;
    const char *rest;
    ck_assert_int_eq(units_parse_decimal_prefix("12.5ms", &v, &dec, &rest, &why), 0);
    ck_assert(v == 12.5L);
    ck_assert_uint_eq(dec, 1);
    ck_assert_str_eq(rest, "ms");
    ck_assert_int_eq(units_parse_decimal_prefix("1e2/s", &v, &dec, &rest, &why), -EINVAL);
    /* zeros at the end of the fraction are not significant digits: 7
     * and 18 zeros is 1 significant digit, 18 decimals: 7 ms exactly */
    ck_assert_int_eq(dur("7.000000000000000000ms"), 7000000);
    ck_assert_int_eq(units_parse_number("1.500000000000000000", &d, &why), 0);
    ck_assert_double_eq(d, 1.5);
    /* ... but count once a digit follows them: 1, 17 zeros, 1 is 19 digits */
    number_refused("1.000000000000000001", "at most 18 significant");
    /* ... and as decimals: 19 of them are one too many */
    number_refused("7.0000000000000000000", "too many decimals");
    /* the integer part's zeros are the value's: 10^18 has 19 digits */
    number_refused("1000000000000000000", "at most 18 significant");
}
END_TEST

/* Numbers written back in the grammar they are read in (no exponent), with
 * the digits the value needs: the limits of NUMBER keys, distribution
 * parameters in the report's header. */
START_TEST(numbers_formatted_in_the_grammar)
{
    char b[48];
    ck_assert_str_eq(units_format_number(1e-6, b, sizeof b), "0.000001");
    ck_assert_str_eq(units_format_number(1e6, b, sizeof b), "1000000");
    ck_assert_str_eq(units_format_number(1.000001, b, sizeof b), "1.000001");
    ck_assert_str_eq(units_format_number(0.75, b, sizeof b), "0.75");
    ck_assert_str_eq(units_format_number(0.1, b, sizeof b), "0.1");
    ck_assert_str_eq(units_format_number(10, b, sizeof b), "10");
    ck_assert_str_eq(units_format_number(0, b, sizeof b), "0");
    ck_assert_str_eq(units_format_number(0.001, b, sizeof b), "0.001");
    ck_assert_str_eq(units_format_number(123456.789, b, sizeof b), "123456.789");
    /* each reads back as the same double */
    const double xs[] = {1e-6, 1.000001, 0.2, 1.1, 2.5e-7, 999999.999999};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double d;
        const char *why;
        units_format_number(xs[i], b, sizeof b);
        ck_assert_msg(units_parse_number(b, &d, &why) == 0 && d == xs[i], "%s", b);
    }
}
END_TEST

/* Products of user-given figures are checked, never wrapped (issue 10). */
START_TEST(interval_products_are_checked)
{
    units_interval iv = {(uint64_t)1 << 45, 1}, out = {7, 7};
    /* 2^45 ns x 2^19 users = 2^64 ns: wrapped to 0, then divided by */
    ck_assert_int_eq(units_interval_mul(iv, (uint64_t)1 << 19, &out), -ERANGE);
    ck_assert_uint_eq(out.num_ns, 7); /* untouched */
    ck_assert_int_eq(units_interval_mul(iv, 0, &out), -ERANGE);
    /* 2^45 x (2^19 - 1) = 2^64 - 2^45 fits */
    ck_assert_int_eq(units_interval_mul(iv, ((uint64_t)1 << 19) - 1, &out), 0);
    ck_assert_uint_eq(out.num_ns, ((uint64_t)1 << 45) * (((uint64_t)1 << 19) - 1));
    /* 10^9/3 ns x 3 users = 10^9 ns each, reduced */
    units_interval third = {1000000000, 3};
    ck_assert_int_eq(units_interval_mul(third, 3, &out), 0);
    ck_assert_uint_eq(out.num_ns, 1000000000);
    ck_assert_uint_eq(out.den, 1);
    /* the unchecked form saturates rather than wraps */
    units_interval big = units_interval_scale(iv, (uint64_t)1 << 19);
    ck_assert_uint_eq(big.num_ns, UINT64_MAX);
    ck_assert_uint_eq(big.den, 1);
    /* a rate whose interval needs more than a 64-bit fraction is refused,
     * not approximated: 10^26 / 100000000000000001 has no common factor */
    const char *why;
    ck_assert_int_eq(units_parse_rate("1.00000000000000001/s", &iv, &why), -ERANGE);
    ck_assert_ptr_nonnull(strstr(why, "cannot be kept exactly"));
    /* while 1.5/s is 2/3 s exactly */
    ck_assert_int_eq(units_parse_rate("1.5/s", &iv, &why), 0);
    ck_assert_uint_eq(iv.num_ns, 2000000000);
    ck_assert_uint_eq(iv.den, 3);
}
END_TEST

START_TEST(windows_parse_once)
{
    int64_t a = -1, b = -1;
    units_window_error we;
    ck_assert_int_eq(units_parse_window("0.85s..1.6s", &a, &b, &we), 0);
    ck_assert_int_eq(a, 850000000);
    ck_assert_int_eq(b, 1600000000);
    ck_assert_int_eq(units_parse_window(" 3s .. 1s ", &a, &b, &we), 0); /* order is the caller's */
    ck_assert_int_eq(a, 3000000000);
    ck_assert_int_eq(b, 1000000000);
    ck_assert_int_eq(units_parse_window("1s-2s", &a, &b, &we), -EINVAL);
    ck_assert_int_eq(we.side, 0);
    ck_assert_str_eq(we.why, "expected START..END with units, e.g. 0.85s..1.6s");
    ck_assert_int_eq(units_parse_window("1..2s", &a, &b, &we), -EINVAL);
    ck_assert_int_eq(we.side, 1);
    ck_assert_uint_eq(we.dots, 1);
    ck_assert_int_eq(units_parse_window("1s...2s", &a, &b, &we), -EINVAL); /* END is ".2s" */
    ck_assert_int_eq(we.side, 2);
    ck_assert_uint_eq(we.dots, 2);
    ck_assert_int_eq(units_parse_window("1s..2000000s", &a, &b, &we), -ERANGE);
    ck_assert_int_eq(we.side, 2);
}
END_TEST

/* units_gcd_u64 (the one gcd the stall checker and the interval fractions
 * share): values worked out by hand. 12 = 2^2 3, 18 = 2 3^2: gcd 6;
 * gcd(a, 0) = a; 2^63 and 3 * 2^61 share 2^61; 10^9 + 7 and 998244353
 * are distinct primes: 1. */
START_TEST(gcd_by_hand)
{
    ck_assert_uint_eq(units_gcd_u64(12, 18), 6);
    ck_assert_uint_eq(units_gcd_u64(18, 12), 6);
    ck_assert_uint_eq(units_gcd_u64(0, 5), 5);
    ck_assert_uint_eq(units_gcd_u64(5, 0), 5);
    ck_assert_uint_eq(units_gcd_u64(0, 0), 0);
    ck_assert_uint_eq(units_gcd_u64(UINT64_C(1) << 63, UINT64_C(3) << 61), UINT64_C(1) << 61);
    ck_assert_uint_eq(units_gcd_u64(1000000007, 998244353), 1);
    ck_assert_uint_eq(units_gcd_u64(UINT64_MAX, UINT64_MAX), UINT64_MAX);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("units");
    TCase *tc = tcase_create("units");
    tcase_add_test(tc, durations_are_exact);
    tcase_add_test(tc, bad_durations_say_why);
    tcase_add_test(tc, rates_are_exact_fractions);
    tcase_add_test(tc, grid_counts);
    tcase_add_test(tc, percentiles_parse_exactly);
    tcase_add_test(tc, formatting);
    tcase_add_test(tc, counts_and_numbers);
    tcase_add_test(tc, one_number_grammar);
    tcase_add_test(tc, numbers_formatted_in_the_grammar);
    tcase_add_test(tc, interval_products_are_checked);
    tcase_add_test(tc, windows_parse_once);
    tcase_add_test(tc, gcd_by_hand);
    suite_add_tcase(s, tc);
    return s;
}
