/* Tests of levels: the one table of percentile levels agrees with itself
 * (fraction, exact fraction, key and label) and holds each output's list. */
#include "levels.h"
#include "units.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

Suite *test_suite(void);

/* Every row: num / 100000 is its fraction and its key parsed back
 * (units_parse_percentile: "99.9" -> 0.999 = 99900/100000), its label
 * is "p" and the key; the rows increase. */
START_TEST(every_row_agrees_with_itself)
{
    for (size_t i = 0; i < levels_n; i++) {
        const level *l = &levels[i];
        uint64_t num, den;
        const char *why;
        ck_assert_int_eq(units_parse_percentile(l->key, &num, &den, &why), 0);
        ck_assert_uint_eq(num * LEVELS_DEN, l->num * den); /* key/100 = num/den = l->num/LEVELS_DEN */
        ck_assert_double_eq_tol(l->fraction, (double)l->num / LEVELS_DEN, 1e-15);
        char label[32];
        snprintf(label, sizeof label, "p%s", l->key);
        ck_assert_str_eq(l->label, label);
        if (i > 0)
            ck_assert_uint_gt(l->num, levels[i - 1].num);
        ck_assert_ptr_eq(levels_find(l->key), l);
    }
    ck_assert_ptr_null(levels_find("99.0"));
}
END_TEST

/* Each output's list, as the outputs have always printed them. */
START_TEST(each_output_has_its_levels)
{
    static const char *const json[] = {"50", "90", "95", "99", "99.9", "99.99"};
    static const char *const table[] = {"50", "90", "99", "99.9", "99.99"};
    static const char *const headline[] = {"50", "99", "99.9"};
    static const char *const sweep[] = {"50", "90", "99", "99.9"};
    ck_assert_uint_eq(levels_count(LEVELS_JSON), 6);
    ck_assert_uint_eq(levels_count(LEVELS_TABLE), LEVELS_N_TABLE);
    ck_assert_uint_eq(levels_count(LEVELS_HEADLINE), 3);
    ck_assert_uint_eq(levels_count(LEVELS_SWEEP), 4);
    ck_assert_uint_eq(levels_count(LEVELS_BAND), 16); /* 0, then x = 1/(1-p) from 2 to 1e5 */
    for (size_t k = 0; k < 6; k++)
        ck_assert_str_eq(levels_nth(LEVELS_JSON, k)->key, json[k]);
    for (size_t k = 0; k < 5; k++)
        ck_assert_str_eq(levels_nth(LEVELS_TABLE, k)->key, table[k]);
    for (size_t k = 0; k < 3; k++)
        ck_assert_str_eq(levels_nth(LEVELS_HEADLINE, k)->key, headline[k]);
    for (size_t k = 0; k < 4; k++)
        ck_assert_str_eq(levels_nth(LEVELS_SWEEP, k)->key, sweep[k]);
    ck_assert_ptr_null(levels_nth(LEVELS_HEADLINE, 3));
    ck_assert_uint_eq(levels_nth(LEVELS_BAND, 15)->num, 99999);
}
END_TEST

/* A level's value is the histogram's at that exact fraction: 1..1000 ns
 * recorded once each, nearest rank: p99.9 is the ceil(0.999 x 1000) = 999th
 * value, 999 ns, which S = 8 holds in the bucket 996..999 (width 4 from
 * 512 up): its upper edge 999. */
START_TEST(a_value_is_the_histograms)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    for (int64_t v = 1; v <= 1000; v++)
        hist_record(h, v);
    ck_assert_int_eq(levels_value(h, HIST_NEAREST_RANK, levels_find("99.9")), 999);
    hist_free(h);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("levels");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_row_agrees_with_itself);
    tcase_add_test(tc, each_output_has_its_levels);
    tcase_add_test(tc, a_value_is_the_histograms);
    suite_add_tcase(s, tc);
    return s;
}
