/* Tests of grow: the doubling rule and its overflow guard. */
#include "grow.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

Suite *test_suite(void);

/* Appending 100 ints from empty with first_cap 16: capacities 16, 32, 64,
 * 128 (three doublings after the first allocation), every value kept. */
START_TEST(doubles_and_keeps_values)
{
    int *a = NULL;
    size_t n = 0, cap = 0, grows = 0;
    for (int i = 0; i < 100; i++) {
        if (n == cap) {
            int *m = grow_array(a, &cap, sizeof *m, 16);
            ck_assert_ptr_nonnull(m);
            a = m;
            grows++;
        }
        a[n++] = i * 7;
    }
    ck_assert_uint_eq(cap, 128);
    ck_assert_uint_eq(grows, 4);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(a[i], (int)i * 7);
    free(a);
}
END_TEST

/* A capacity whose double, or whose size in bytes, does not fit size_t is
 * refused with NULL; the capacity and the array are left as they were. */
START_TEST(overflow_is_refused)
{
    char *a = malloc(4);
    ck_assert_ptr_nonnull(a);
    size_t cap = SIZE_MAX / 2 + 1; /* 2 x cap overflows */
    ck_assert_ptr_null(grow_array(a, &cap, 1, 16));
    ck_assert_uint_eq(cap, SIZE_MAX / 2 + 1);
    cap = SIZE_MAX / 16; /* 2 x cap fits, 2 x cap x 16 bytes does not */
    ck_assert_ptr_null(grow_array(a, &cap, 16, 16));
    ck_assert_uint_eq(cap, SIZE_MAX / 16);
    free(a); /* still the caller's */
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("grow");
    TCase *tc = tcase_create("grow");
    tcase_add_test(tc, doubles_and_keeps_values);
    tcase_add_test(tc, overflow_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
