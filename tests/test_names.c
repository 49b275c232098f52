/* Tests of names: lookups in the enums' name tables, and the tables of the
 * modules (each word once, every value named). */
#include "dist.h"
#include "scn_expect.h"
#include "hist.h"
#include "names.h"
#include "stall.h"
#include "tester.h"

#include <check.h>
#include <string.h>

Suite *test_suite(void);

static const char *const abc[] = {"alpha", "beta", "gamma"};
static const names_table t = {abc, ARRAY_SIZE(abc)};

/* The stall kinds' table (stall_kinds.def): each kind either stops the
 * world or adds work to requests, and a kind that stops has its windows
 * come one way: periodic on a grid, windows listed, random drawn;
 * requests adds work (MODEL.md, "Stalls"). */
START_TEST(stall_kind_table)
{
    ck_assert_int_eq(STALL_N_KINDS, 4);
    ck_assert(stall_kind_has(STALL_PERIODIC, STALL_KIND_STOPS | STALL_KIND_GRID));
    ck_assert(stall_kind_has(STALL_WINDOWS, STALL_KIND_STOPS | STALL_KIND_LISTED));
    ck_assert(stall_kind_has(STALL_RANDOM, STALL_KIND_STOPS | STALL_KIND_DRAWN));
    ck_assert(stall_kind_has(STALL_REQUESTS, STALL_KIND_WORK));
    for (int k = 0; k < STALL_N_KINDS; k++) {
        stall_kind x = (stall_kind)k;
        ck_assert_int_eq(stall_kind_has(x, STALL_KIND_STOPS) + stall_kind_has(x, STALL_KIND_WORK), 1);
        int ways = stall_kind_has(x, STALL_KIND_GRID) + stall_kind_has(x, STALL_KIND_LISTED) +
                   stall_kind_has(x, STALL_KIND_DRAWN);
        ck_assert_int_eq(ways, stall_kind_has(x, STALL_KIND_STOPS));
        stall_kind parsed;
        ck_assert_int_eq(stall_kind_parse(stall_kind_name(x), &parsed), 0);
        ck_assert_int_eq(parsed, x);
    }
    ck_assert(!stall_kind_has((stall_kind)STALL_N_KINDS, 0));
}
END_TEST

START_TEST(find_get_join)
{
    ck_assert_int_eq(names_find(t, "beta"), 1);
    ck_assert_int_eq(names_find(t, "Beta"), -1);
    ck_assert_int_eq(names_find(t, ""), -1);
    ck_assert_str_eq(names_get(t, 2), "gamma");
    ck_assert_str_eq(names_get(t, 3), "?");
    ck_assert_str_eq(names_get(t, -1), "?");
    char buf[32];
    ck_assert_str_eq(names_join(t, ", ", buf, sizeof buf), "alpha, beta, gamma");
    ck_assert_str_eq(names_join(t, "|", buf, sizeof buf), "alpha|beta|gamma");
    char small[12]; /* "alpha, beta" is 11: ", gamma" does not fit */
    ck_assert_str_eq(names_join(t, ", ", small, sizeof small), "alpha, b...");
}
END_TEST

/* Every value of a module's table has a distinct word. */
static void distinct(names_table m, size_t n)
{
    ck_assert_uint_eq(m.n, n);
    for (size_t i = 0; i < m.n; i++) {
        ck_assert_ptr_nonnull(m.names[i]);
        ck_assert_int_eq(names_find(m, m.names[i]), (int)i);
    }
}

START_TEST(module_tables)
{
    distinct(tester_kind_names, 5);
    distinct(tester_late_names, 4);
    distinct(tester_arrivals_names, 2);
    distinct(tester_latency_from_names, 2);
    distinct(tester_in_flight_names, 2);
    distinct(dist_kind_names, 9);
    distinct(hist_rank_rule_names, 3);
    distinct(hist_correction_names, 2);
    distinct(stall_kind_names, 4);
    distinct(scn_expect_metric_names, 12);
    ck_assert_str_eq(tester_kind_name(TESTER_PARTLY_OPEN), "partly_open");
    ck_assert_str_eq(tester_late_name(TESTER_LATE_CATCH_UP), "catch_up");
    ck_assert_str_eq(hist_rank_rule_name(HIST_SORTED_INDEX), "sorted_index");
    ck_assert_str_eq(hist_correction_name(HIST_CORRECT_BOOK), "book");
    ck_assert_str_eq(stall_kind_name(STALL_RANDOM), "random");
    ck_assert_str_eq(tester_in_flight_names.names[TESTER_IN_FLIGHT_DROP], "drop");
    stall_kind sk;
    ck_assert_int_eq(stall_kind_parse("requests", &sk), 0);
    ck_assert_int_eq(sk, STALL_REQUESTS);
    ck_assert_int_eq(stall_kind_parse("file", &sk), -22); /* a scenario's form, not a kind */
    hist_correction hc;
    ck_assert_int_eq(hist_correction_parse("hdrhistogram", &hc), 0);
    ck_assert_int_eq(hc, HIST_CORRECT_HDR);
}
END_TEST

/* NAMEs become file names: a leading '-' would read as an option to the
 * shell tools run on out/ ("rm *" beside a folder named -rf). */
START_TEST(user_names)
{
    ck_assert_int_eq(names_valid("one_stall", 40), 1);
    ck_assert_int_eq(names_valid("_x", 40), 1);
    ck_assert_int_eq(names_valid("a-b", 40), 1);
    ck_assert_int_eq(names_valid("-rf", 40), 0);
    ck_assert_int_eq(names_valid("", 40), 0);
    ck_assert_int_eq(names_valid("a b", 40), 0);
    ck_assert_int_eq(names_valid("abcde", 4), 0); /* 5 bytes > 4 */
    ck_assert_int_eq(names_valid("abcd", 4), 1);
    char a[64] = "-rf.ini";
    names_from_file(a);
    ck_assert_str_eq(a, "_rf");
    char b[64] = "my scenario (v2).ini";
    names_from_file(b);
    ck_assert_str_eq(b, "my_scenario__v2_");
    char c[64] = ".ini"; /* the dot is the first byte: no extension cut */
    names_from_file(c);
    ck_assert_str_eq(c, "_ini");
    char d[64] = "";
    names_from_file(d);
    ck_assert_str_eq(d, "scenario");
    char e[64] = "caf\xc3\xa9.ini"; /* a UTF-8 letter is kept */
    names_from_file(e);
    ck_assert_str_eq(e, "caf\xc3\xa9");
    char f[64] = "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80.ini"; /* CJK and an emoji kept, the space made '_' */
    names_from_file(f);
    ck_assert_str_eq(f, "\xe6\x97\xa5\xe6\x9c\xac_\xf0\x9f\x98\x80");
    char g[64] = "caf\xe9\xc3.ini"; /* Latin-1 e-acute and a cut sequence: one '_' each */
    names_from_file(g);
    ck_assert_str_eq(g, "caf__");
    char h[64] = "\xc0\xaf\xed\xa0\x80\xc2\x85x"; /* overlong '/', a surrogate, C1 NEL: bytes made '_' */
    names_from_file(h);
    ck_assert_str_eq(h, "_______x");
}
END_TEST

START_TEST(paths_with_control_bytes)
{
    char shown[32] = "untouched";
    ck_assert_int_eq(names_path_control("scenarios/one stall (v2).ini", shown, sizeof shown), -1);
    ck_assert_str_eq(shown, "untouched"); /* a printable path leaves shown alone */
    ck_assert_int_eq(names_path_control("caf\xc3\xa9.ini", shown, sizeof shown), -1); /* UTF-8 is text */
    /* "a\nb.ini": the newline is byte 1 (0-based), written as \n */
    ck_assert_int_eq(names_path_control("a\nb.ini", shown, sizeof shown), 1);
    ck_assert_str_eq(shown, "a\\nb.ini");
    ck_assert_int_eq(names_path_control("\t\r", shown, sizeof shown), 0);
    ck_assert_str_eq(shown, "\\t\\r");
    /* ESC (0x1b) and DEL (0x7f) as \xNN; the first control byte is at 2 */
    ck_assert_int_eq(names_path_control("o/\x1b[31m\x7f", shown, sizeof shown), 2);
    ck_assert_str_eq(shown, "o/\\x1b[31m\\x7f");
    /* cut to fit: 8 bytes hold 4 of text, "..." and the NUL */
    char small[8];
    ck_assert_int_eq(names_path_control("abcdefgh\n", small, sizeof small), 8);
    ck_assert_str_eq(small, "abcd...");
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("names");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, find_get_join);
    tcase_add_test(tc, stall_kind_table);
    tcase_add_test(tc, module_tables);
    tcase_add_test(tc, user_names);
    tcase_add_test(tc, paths_with_control_bytes);
    suite_add_tcase(s, tc);
    return s;
}
