/* Tests of dist: the name table, the checks, the means (by the formulas in
 * dist.c's comments, worked by hand below) and the draws. */
#include "dist.h"
#include "hgrm.h"

#include <check.h>
#include <errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

Suite *test_suite(void);

START_TEST(names_round_trip)
{
    ck_assert_uint_eq(dist_kind_names.n, 9);
    for (size_t i = 0; i < dist_kind_names.n; i++) {
        dist_kind k;
        ck_assert_int_eq(dist_kind_parse(dist_kind_name((dist_kind)i), &k), 0);
        ck_assert_int_eq(k, (int)i);
    }
    dist_kind k = DIST_GAMMA;
    ck_assert_str_eq(dist_kind_name(DIST_LOGNORMAL), "lognormal");
    ck_assert_str_eq(dist_kind_name((dist_kind)99), "?");
    ck_assert_int_eq(dist_kind_parse("Lognormal", &k), -EINVAL);
    ck_assert_int_eq(k, DIST_GAMMA); /* untouched on error */
}
END_TEST

START_TEST(checks)
{
    const char *why = NULL;
    dist_spec d = {.kind = DIST_UNIFORM, .a_ns = 3000, .b_ns = 2000};
    ck_assert_int_eq(dist_check(&d, &why), -EINVAL);
    ck_assert_str_eq(why, "uniform: max must be >= min");
    d = (dist_spec){.kind = DIST_EXPONENTIAL, .a_ns = 0};
    ck_assert_int_eq(dist_check(&d, &why), -EINVAL);
    ck_assert_str_eq(why, "the scale (mean, median or minimum) must be above zero");
    d = (dist_spec){.kind = DIST_LOGNORMAL, .a_ns = 1000, .shape = 10.5};
    ck_assert_int_eq(dist_check(&d, &why), -EINVAL);
    ck_assert_str_eq(why, "lognormal: sigma must be between 0 and 10");
    d = (dist_spec){.kind = DIST_PARETO, .a_ns = 1000, .shape = 0};
    ck_assert_int_eq(dist_check(&d, &why), -EINVAL);
    ck_assert_str_eq(why, "shape must be above zero");
    d = (dist_spec){.kind = DIST_GAMMA, .a_ns = 1000, .shape = 2};
    ck_assert_int_eq(dist_check(&d, &why), 0);
}
END_TEST

START_TEST(means)
{
    dist_spec d = {.kind = DIST_CONSTANT, .a_ns = 5000000};
    ck_assert_double_eq(dist_mean_ns(&d), 5e6);
    d = (dist_spec){.kind = DIST_UNIFORM, .a_ns = 1000000, .b_ns = 3000000}; /* (1 + 3) / 2 ms */
    ck_assert_double_eq(dist_mean_ns(&d), 2e6);
    /* lognormal: median exp(sigma^2 / 2) = 1 ms x exp(0.02) = 1,020,201.34 ns */
    d = (dist_spec){.kind = DIST_LOGNORMAL, .a_ns = 1000000, .shape = 0.2};
    ck_assert_double_eq_tol(dist_mean_ns(&d), 1020201.34, 0.01);
    /* Pareto: index a xm / (a - 1) = 1.5 x 1 ms / 0.5 = 3 ms; a <= 1: no mean */
    d = (dist_spec){.kind = DIST_PARETO, .a_ns = 1000000, .shape = 1.5};
    ck_assert_double_eq_tol(dist_mean_ns(&d), 3e6, 1e-6);
    d.shape = 1;
    ck_assert(isinf(dist_mean_ns(&d)));
    /* normal truncated at 0 with mu = 0: sd phi(0) / (1/2) = sd sqrt(2/pi) = 797,884.56 ns for 1 ms */
    d = (dist_spec){.kind = DIST_NORMAL, .a_ns = 0, .b_ns = 1000000};
    ck_assert_double_eq_tol(dist_mean_ns(&d), 797884.56, 0.01);
    int64_t v[] = {100, 200, 600};
    d = (dist_spec){.kind = DIST_EMPIRICAL, .values = v, .n_values = 3}; /* 900 / 3 */
    ck_assert_double_eq(dist_mean_ns(&d), 300);
}
END_TEST

START_TEST(draws)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1);
    dist_spec d = {.kind = DIST_CONSTANT, .a_ns = 7000};
    ck_assert_int_eq(dist_draw_ns(&d, r), 7000);
    int64_t v[] = {100, 200, 600};
    d = (dist_spec){.kind = DIST_EMPIRICAL, .values = v, .n_values = 3};
    int seen[3] = {0};
    for (int i = 0; i < 300; i++) {
        int64_t x = dist_draw_ns(&d, r);
        ck_assert(x == 100 || x == 200 || x == 600);
        seen[x == 100 ? 0 : x == 200 ? 1 : 2]++;
    }
    ck_assert(seen[0] && seen[1] && seen[2]);
    d = (dist_spec){.kind = DIST_UNIFORM, .a_ns = 1000, .b_ns = 2000};
    for (int i = 0; i < 1000; i++) {
        int64_t x = dist_draw_ns(&d, r);
        ck_assert(x >= 1000 && x <= 2000);
    }
    /* a Pareto of a tiny index is capped at 10^6 s, never past the clock */
    d = (dist_spec){.kind = DIST_PARETO, .a_ns = 1000, .shape = 1e-6};
    for (int i = 0; i < 100; i++)
        ck_assert_int_le(dist_draw_ns(&d, r), (int64_t)1000000 * 1000000000);
    gsl_rng_free(r);
}
END_TEST

/* dist_lognormal_ns(median, sigma) is dist_draw_ns of the lognormal spec,
 * and so is dist_lognormal_at_ns (the server's call, the median read after
 * the draw): three generators of seed 1 give the same 1000 draws; sigma 0
 * gives the median itself (e^0 = 1); a median of 0 gives 0. */
START_TEST(lognormal_draw_is_the_spec_draw)
{
    gsl_rng *a = gsl_rng_alloc(gsl_rng_mt19937), *b = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng *c = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(a, 1);
    gsl_rng_set(b, 1);
    gsl_rng_set(c, 1);
    dist_spec d = {.kind = DIST_LOGNORMAL, .a_ns = 100000, .shape = 0.2};
    const double median = 100000.0, zero = 0;
    for (int i = 0; i < 1000; i++) {
        int64_t v = dist_draw_ns(&d, b);
        ck_assert_int_eq(dist_lognormal_ns(100000.0, 0.2, a), v);
        ck_assert_int_eq(dist_lognormal_at_ns(&median, 0.2, c), v);
    }
    ck_assert_int_eq(dist_lognormal_ns(100000.0, 0, a), 100000);
    ck_assert_int_eq(dist_lognormal_ns(0, 0.2, a), 0);
    ck_assert_int_eq(dist_lognormal_at_ns(&median, 0, c), 100000);
    ck_assert_int_eq(dist_lognormal_at_ns(&zero, 0.2, c), 0);
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_rng_free(c);
}
END_TEST

/* distribution = histogram: 1 sample at 1000 ns, 3 in [1001, 2000] ns (a
 * .hgrm's rows 1000 and 2000 with TotalCount 1 and 4). */
START_TEST(histogram)
{
    hgrm_bucket b[] = {{1000, 1000, 1, 0, 0}, {1001, 2000, 3, 0, 0}};
    hgrm_dist *h = NULL;
    ck_assert_int_eq(hgrm_from_buckets(&h, b, 2), 0);
    dist_spec d = {.kind = DIST_HISTOGRAM, .hist = h};
    const char *why;
    ck_assert_int_eq(dist_check(&d, &why), 0);
    /* mean: (1 x 1000 + 3 x (1001 + 2000) / 2) / 4 = (1000 + 4501.5) / 4 */
    ck_assert_double_eq_tol(dist_mean_ns(&d), 1375.375, 1e-9);
    ck_assert_double_eq_tol(dist_mean_drawn_ns(&d), 1375.375, 1e-9);
    char buf[160];
    ck_assert_str_eq(dist_describe(&d, buf, sizeof buf),
                     "histogram (4 samples, 1.000 us to 2.000 us, mean 1.375 us)");
    /* every draw lies in [1000, 2000]; about a quarter at 1000 exactly */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int at_min = 0;
    for (int i = 0; i < 4000; i++) {
        int64_t v = dist_draw_ns(&d, r);
        ck_assert(v >= 1000 && v <= 2000);
        at_min += v == 1000;
    }
    ck_assert(at_min > 850 && at_min < 1150); /* 1000 expected, sd 27 */
    gsl_rng_free(r);
    d.hist = NULL;
    ck_assert_int_eq(dist_check(&d, &why), -EINVAL);
    hgrm_free(h);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("dist");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, names_round_trip);
    tcase_add_test(tc, checks);
    tcase_add_test(tc, lognormal_draw_is_the_spec_draw);
    tcase_add_test(tc, means);
    tcase_add_test(tc, draws);
    tcase_add_test(tc, histogram);
    suite_add_tcase(s, tc);
    return s;
}
