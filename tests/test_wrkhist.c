/* test_wrkhist.c - wrk's exit-time correction undone (cli/wrkhist.c).
 *
 * The hand-worked histogram used throughout: interval e = 10 us; wrk
 * recorded 7 values: 5 us three times, 12 us once, 35 us twice, 47 us once.
 * stats_correct (wrk 4.1.0 src/stats.c) walks n = 2e = 20 .. max = 47 and
 * adds, for each value n, n - e, n - 2e, ... while still > e:
 *   35 (x2): adds 25 (x2) and 15 (x2); 5 is not > 10, stop
 *   47 (x1): adds 37, 27, 17; 7 is not > 10, stop
 *   5 and 12: below 2e, nothing
 * so wrk prints 5:3 12:1 15:2 17:1 25:2 27:1 35:2 37:1 47:1 (14 values).
 * Undone with O(v) = D(v) - D(v + e) for v > e (wrkhist.h):
 *   5 <= e: 3;  12: 1 - D(22) = 1 - 0 = 1;  15: 2 - D(25) = 0;
 *   17: 1 - D(27) = 0;  25: 2 - D(35) = 0;  27: 1 - D(37) = 0;
 *   35: 2 - D(45) = 2;  37: 1 - D(47) = 0;  47: 1 - D(57) = 1
 * which is the 7 recorded values back.
 * The interval as wrk's main computes it: 7 requests on 2 connections in
 * 31 us: 31 / (7 / 2) = 31 / 3 = 10 (both divisions integer). */
#define _POSIX_C_SOURCE 200809L
#include "wrkhist.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

Suite *test_suite(void);

static const uint64_t V[] = {5, 12, 15, 17, 25, 27, 35, 37, 47};
static const uint64_t D[] = {3, 1, 2, 1, 2, 1, 2, 1, 1};
static const uint64_t O[] = {3, 1, 0, 0, 0, 0, 2, 0, 1};
#define NB (sizeof V / sizeof V[0])

static char err[1024];

START_TEST(interval_as_wrk_main)
{
    ck_assert_uint_eq(wrkhist_interval_us(31, 7, 2), 10);
    ck_assert_uint_eq(wrkhist_interval_us(70, 7, 1), 10);
    /* fewer requests than connections: wrk corrects nothing */
    ck_assert_uint_eq(wrkhist_interval_us(1000, 3, 10), 0);
    ck_assert_uint_eq(wrkhist_interval_us(1000, 3, 0), 0);
}
END_TEST

START_TEST(undo_hand_worked)
{
    uint64_t got[NB];
    ck_assert_int_eq(wrkhist_undo(V, D, NB, 10, got), 0);
    for (size_t i = 0; i < NB; i++)
        ck_assert_msg(got[i] == O[i], "bin %zu (%llu us): %llu, expected %llu", i, (unsigned long long)V[i],
                      (unsigned long long)got[i], (unsigned long long)O[i]);
    /* e = 0: nothing to undo */
    ck_assert_int_eq(wrkhist_undo(V, D, NB, 0, got), 0);
    for (size_t i = 0; i < NB; i++)
        ck_assert_uint_eq(got[i], D[i]);
}
END_TEST

START_TEST(undo_refuses_what_wrk_cannot_print)
{
    /* 15 holds 1 where 25 above it holds 2: a correction with e = 10
     * cannot give that (D(15) >= D(25) always) */
    const uint64_t v[] = {15, 25};
    const uint64_t d[] = {1, 2};
    uint64_t got[2];
    ck_assert_int_eq(wrkhist_undo(v, d, 2, 10, got), -EINVAL);
    const uint64_t bad[] = {25, 15};
    ck_assert_int_eq(wrkhist_undo(bad, d, 2, 10, got), -EINVAL);
}
END_TEST

/* The block as wrk prints it: its own lines first, then the script's. */
static const char FILE_TEXT[] = "Running 1s test @ http://127.0.0.1:8080/\n"
                                "  1 threads and 2 connections\n"
                                "  7 requests in 31.00us, 1.00KB read\n"
                                "cosim-wrk-histogram 1\n"
                                "duration_us 31\n"
                                "requests 7\n"
                                "timeouts 0\n"
                                "bins 9\n"
                                "5 3\n12 1\n15 2\n17 1\n25 2\n27 1\n35 2\n37 1\n47 1\n"
                                "end\n";

START_TEST(parse_and_undo)
{
    wrkhist h;
    ck_assert_int_eq(wrkhist_present(FILE_TEXT, strlen(FILE_TEXT)), 1);
    ck_assert_msg(wrkhist_parse(&h, "w.txt", FILE_TEXT, strlen(FILE_TEXT), err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(h.connections, 2);
    ck_assert_uint_eq(h.interval_us, 10);
    ck_assert_uint_eq(h.bins, NB);
    ck_assert_uint_eq(h.corrected_total, 14);
    ck_assert_uint_eq(h.recorded_total, 7); /* = the requests */
    for (size_t i = 0; i < NB; i++)
        ck_assert_uint_eq(h.recorded[i], O[i]);
    wrkhist_free(&h);
    wrkhist_free(NULL);
}
END_TEST

/* One damaged copy of FILE_TEXT: `from` replaced by `to`. */
static int parse_damaged(const char *from, const char *to)
{
    char text[2048];
    const char *at = strstr(FILE_TEXT, from);
    ck_assert_ptr_nonnull(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - FILE_TEXT), FILE_TEXT, to, at + strlen(from));
    wrkhist h;
    int rc = wrkhist_parse(&h, "w.txt", text, strlen(text), err, sizeof err);
    if (rc == 0)
        wrkhist_free(&h);
    return rc;
}

START_TEST(damaged_files_say_where)
{
    ck_assert_int_eq(parse_damaged("bins 9\n", "bins nine\n"), -EINVAL);
    ck_assert_str_eq(err, "w.txt:8: expected 'bins N' (N a whole number up to 2^53)");
    ck_assert_int_eq(parse_damaged("12 1\n", "12 x\n"), -EINVAL);
    ck_assert_str_eq(err, "w.txt:10: expected 'VALUE_US COUNT' (whole numbers up to 2^53, the values ascending, "
                          "each count > 0)");
    ck_assert_int_eq(parse_damaged("15 2\n", "11 2\n"), -EINVAL); /* not ascending */
    ck_assert_int_eq(parse_damaged("end\n", ""), -EINVAL);
    ck_assert_str_eq(err, "w.txt:17: expected 'end' after 9 bins (as 'bins' said)");
    ck_assert_int_eq(parse_damaged("bins 9\n5 3\n", "bins 9\n5 3\n"), 0);
    ck_assert_int_eq(parse_damaged("47 1\nend\n", "47 1\n"), -EINVAL);
    ck_assert_int_eq(parse_damaged("duration_us 31\n", "duration_us 99999999999999999\n"), -ERANGE);
    /* 8 requests in 40 us (e = 40 / (8 / 2) = 10 still): the undone 7
     * values are one short, with no timeout */
    ck_assert_int_eq(parse_damaged("duration_us 31\nrequests 7\n", "duration_us 40\nrequests 8\n"), -EINVAL);
    ck_assert_str_eq(err, "w.txt: the correction undone leaves 7 values for 8 requests and 0 timeouts (expected one "
                          "value a request, or fewer by at most the timeouts; a script that pipelines requests "
                          "cannot be undone)");
    /* ... allowed when one timed out */
    char text[2048];
    snprintf(text, sizeof text, "%s", FILE_TEXT);
    memcpy(strstr(text, "duration_us 31\nrequests 7\ntimeouts 0"), "duration_us 40\nrequests 8\ntimeouts 1", 36);
    wrkhist h;
    ck_assert_msg(wrkhist_parse(&h, "w.txt", text, strlen(text), err, sizeof err) == 0, "%s", err);
    wrkhist_free(&h);
    /* 8 requests in 31 us: e = 31 / 4 = 7, and undone with 7 the file
     * leaves 14 values (12 - D(19) = 1, 15 - D(22) = 2, ... 47: 1, and 5: 3):
     * the wrong interval is caught by the count */
    ck_assert_int_eq(parse_damaged("requests 7\n", "requests 8\n"), -EINVAL);
    ck_assert_ptr_nonnull(strstr(err, "leaves 14 values for 8 requests"));
    /* wrk's own lines missing */
    ck_assert_int_eq(parse_damaged("  1 threads and 2 connections\n", ""), -EINVAL);
    ck_assert_int_eq(parse_damaged("2 connections", "0 connections"), -EINVAL);
    ck_assert_str_eq(err, "w.txt:2: expected wrk's 'T threads and C connections', C > 0");
    ck_assert_int_eq(wrkhist_present("Running\n", 8), 0);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("wrkhist");
    TCase *t = tcase_create("wrkhist");
    tcase_add_test(t, interval_as_wrk_main);
    tcase_add_test(t, undo_hand_worked);
    tcase_add_test(t, undo_refuses_what_wrk_cannot_print);
    tcase_add_test(t, parse_and_undo);
    tcase_add_test(t, damaged_files_say_where);
    suite_add_tcase(s, t);
    return s;
}
