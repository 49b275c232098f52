/* Tests of band (cosim --replications): the Student-t interval over the
 * replications the run layer gathers (run_reps), the band's chart data and
 * its table. Figures derived by hand in comments. */
#define _POSIX_C_SOURCE 200809L
#include "band.h"
#include "levels.h"
#include "run_reps.h"
#include "scenario_text.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

/* Replications made by hand: n seeds, n_testers testers; tester i in seed
 * r recorded count[r * n_testers + i] samples, each level's value ms[..]
 * milliseconds (the same at every level). */
static run_reps *hand_reps(unsigned n, size_t n_testers, const uint64_t *count, const double *ms)
{
    run_reps *x = calloc(1, sizeof *x);
    ck_assert_ptr_nonnull(x);
    x->n = n;
    x->n_testers = n_testers;
    x->n_levels = levels_count(LEVELS_BAND);
    x->count = calloc(n * n_testers, sizeof *x->count);
    x->value_ns = calloc(n * n_testers * x->n_levels, sizeof *x->value_ns);
    ck_assert(x->count && x->value_ns);
    for (size_t c = 0; c < n * n_testers; c++) {
        x->count[c] = count[c];
        for (size_t k = 0; k < x->n_levels; k++)
            x->value_ns[c * x->n_levels + k] = count[c] ? (int64_t)(ms[c] * 1e6) : 0;
    }
    return x;
}

/* Three seeds with 1, 2 and 3 ms: mean 2 ms, sample standard deviation
 * sqrt(((1-2)^2 + 0 + (3-2)^2) / (3 - 1)) = 1 ms. With 2 degrees of
 * freedom Student's t has the closed form t_p = (2p - 1) / sqrt(2p(1-p)):
 * t_0.975 = 0.95 / sqrt(0.04875) = 4.302653 (the tables' 4.303), so the
 * half-width is 4.302653 x 1 ms / sqrt(3) = 2.484138 ms. */
START_TEST(three_seeds_give_the_student_t_interval)
{
    const uint64_t count[3] = {100, 100, 100};
    const double ms[3] = {1, 2, 3};
    run_reps *x = hand_reps(3, 1, count, ms);
    band *b;
    ck_assert_int_eq(band_new(&b, x), 0);
    ck_assert_uint_eq(band_seeds(b), 3);
    for (size_t k = 0; k < levels_count(LEVELS_BAND); k++) {
        double m, c;
        band_get(b, 0, k, &m, &c);
        ck_assert_double_eq_tol(m, 2e6, 1e-6);
        ck_assert_double_eq_tol(c, 2484137.71175, 1e-3);
    }
    band_free(b);
    run_reps_free(x);
}
END_TEST

/* One seed: no spread to estimate, a half-width of 0. */
START_TEST(one_seed_has_no_interval)
{
    const uint64_t count[1] = {5};
    const double ms[1] = {7};
    run_reps *x = hand_reps(1, 1, count, ms);
    band *b;
    ck_assert_int_eq(band_new(&b, x), 0);
    double m, c;
    band_get(b, 0, 0, &m, &c);
    ck_assert_double_eq(m, 7e6);
    ck_assert_double_eq(c, 0);
    band_free(b);
    run_reps_free(x);
}
END_TEST

/* The table: the LEVELS_HEADLINE levels, "mean +- half-width" with 4
 * significant digits (2.000 ms +- 2.484 ms); a tester empty in one of the
 * three seeds has no mean to show, and says in how many. */
START_TEST(the_table_shows_the_headline_levels)
{
    scenario *s = load("[scenario]\nduration = 1s\nseed = 7\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester steady]\nkind = closed\n[tester gaps]\nkind = closed\n");
    const uint64_t count[6] = {100, 100, 100, 0, 100, 100};
    const double ms[6] = {1, 4, 2, 4, 3, 4};
    run_reps *x = hand_reps(3, 2, count, ms);
    band *b;
    ck_assert_int_eq(band_new(&b, x), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(band_report(b, f, s), 0);
    fclose(f);
    ck_assert_str_eq(text, "\nover 3 seeds (7..9): mean +- 95% confidence half-width\n"
                           "tester                          p50                    p99                  p99.9\n"
                           "steady         2.000 ms +- 2.484 ms   2.000 ms +- 2.484 ms   2.000 ms +- 2.484 ms\n"
                           "gaps           no samples in 1 seed   no samples in 1 seed   no samples in 1 seed\n");
    free(text);
    band_free(b);
    run_reps_free(x);
    scenario_free(s);
}
END_TEST

/* The chart data: the spectrum's own rows (this run's histogram, iterated
 * as plot.c does) from p50 (x = 2) to the last level the fewest samples
 * reach (100 samples: 99%, x = 100; not 99.5%, x = 200), each -+ the
 * interval's half-width as a share of the mean. Seeds of 1, 2 and 3 ms:
 * mean 2, half-width 2.484138 (above), a share of 1.242069. This run: 100
 * samples of 1 ms, one bucket, so its rows are x = 1 (p0, before p50: not
 * drawn) and the final row at x = n = 100: 1 ms, 1 - 1.242069 = -0.242069
 * and 1 + 1.242069 = 2.242069. No row for p0: a band from the minimum to
 * p50 drew a wedge across the curve's climb. */
START_TEST(the_chart_data_stops_at_the_fewest_samples)
{
    scenario *s = load("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"
                       "[tester one]\nkind = closed\n");
    const uint64_t count[3] = {100, 100, 100};
    const double ms[3] = {1, 2, 3};
    run_reps *x = hand_reps(3, 1, count, ms);
    band *b;
    ck_assert_int_eq(band_new(&b, x), 0);
    run_result r;
    memset(&r, 0, sizeof r);
    tester_result t;
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(hist_new(&t.hist, 8), 0);
    for (int k = 0; k < 100; k++)
        hist_record(t.hist, 1000000);
    r.n = 1;
    r.testers = &t;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(band_write(b, f, s, &r), 0);
    fclose(f);
    const char *rows = strstr(text, "# tester one\n");
    ck_assert_ptr_nonnull(rows);
    ck_assert_str_eq(rows, "# tester one\n"
                           "100.00 1.000000 -0.242069 2.242069\n");
    free(text);
    hist_free(t.hist);
    band_free(b);
    run_reps_free(x);
    scenario_free(s);
}
END_TEST

/* The run layer runs the seeds: a closed user against a constant 2 ms
 * service for 1 s sends 1 s / 2 ms = 500 requests in every seed, all of
 * latency 2 ms, whose bucket at S = 8 is 1,998,848 .. 2,007,039 ns (width
 * 2^13 from 2^20 up): a level reads the bucket's upper edge capped at the
 * exact max, here the max itself, 2,000,000 ns. Seeds agree: no spread. */
START_TEST(the_run_layer_gathers_every_seed)
{
    scenario *s = load("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 2ms\n"
                       "[tester one]\nkind = closed\n");
    char err[512];
    run_result r;
    ck_assert_int_eq(run_scenario(s, &r, err, sizeof err), 0);
    run_reps *x;
    ck_assert_int_eq(run_reps_run(&x, s, &r, 3, NULL, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(x->n, 3);
    for (unsigned k = 0; k < 3; k++) {
        ck_assert_uint_eq(run_reps_count(x, k, 0), 500);
        ck_assert_int_eq(run_reps_value_ns(x, k, 0, 1), 2000000); /* p50 */
    }
    run_reps_free(x);
    run_result_free(&r);
    scenario_free(s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("band");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, three_seeds_give_the_student_t_interval);
    tcase_add_test(tc, one_seed_has_no_interval);
    tcase_add_test(tc, the_table_shows_the_headline_levels);
    tcase_add_test(tc, the_chart_data_stops_at_the_fewest_samples);
    tcase_add_test(tc, the_run_layer_gathers_every_seed);
    suite_add_tcase(s, tc);
    return s;
}
