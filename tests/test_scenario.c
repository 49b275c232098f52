/* Tests of scenario: the published scenarios load, and bad input is
 * answered with FILE:LINE, the key and what would be accepted. */
#include "scenario.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Suite *test_suite(void);

static char tmpdir[256];

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static char err[1024];

static scenario_error load_text(const char *text, const char *const *sets, size_t n, scenario **out)
{
    const char *p = write_file("t.ini", text);
    return scenario_load(out, p, sets, n, err, sizeof err);
}

/* The error must contain every fragment. */
static void expect_error(const char *text, scenario_error want, const char *frag1, const char *frag2)
{
    scenario *s = NULL;
    scenario_error got = load_text(text, NULL, 0, &s);
    ck_assert_msg(got == want, "got error class %d (%s), want %d", got, err, want);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err, frag1) != NULL, "'%s' not in '%s'", frag1, err);
    if (frag2)
        ck_assert_msg(strstr(err, frag2) != NULL, "'%s' not in '%s'", frag2, err);
}

#define GOOD_HEAD "[scenario]\nduration = 2s\n[service]\ndistribution = constant\ntime = 7ms\n"

START_TEST(published_scenarios_load)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    ck_assert_ptr_nonnull(root);
    char path[1024];
    scenario *s;
    snprintf(path, sizeof path, "%s/scenarios/stall_per_second.ini", root);
    ck_assert_msg(scenario_load(&s, path, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    ck_assert_str_eq(s->name, "stall_per_second");
    ck_assert_int_eq(s->duration_ns, 100000000000LL);
    ck_assert_int_eq(s->rank_rule, HIST_SORTED_INDEX);
    ck_assert_int_eq(s->service.kind, DIST_LOGNORMAL);
    ck_assert_int_eq(s->service.a_ns, 100000);
    ck_assert_double_eq(s->service.shape, 0.2);
    ck_assert_uint_eq(s->n_stalls, 1);
    ck_assert_int_eq(s->stalls[0].length_ns, 10000000);
    ck_assert_int_eq(s->stalls[0].period_ns, 1000000000);
    ck_assert_uint_eq(s->n_testers, 4);
    ck_assert_str_eq(s->testers[1].name, "paced");
    ck_assert_int_eq(s->testers[1].late, TESTER_LATE_NEXT_SLOT);
    ck_assert_int_eq(s->testers[2].kind, TESTER_CORRECTED);
    ck_assert_int_eq(s->testers[2].correction, HIST_CORRECT_HDR);
    ck_assert_uint_eq(s->testers[3].interval.num_ns, 1000000);
    scenario_free(s);
}
END_TEST

START_TEST(defaults_and_overrides)
{
    scenario *s;
    const char *text = GOOD_HEAD "[tester open]\nkind = open\nrate = 100/s\n";
    ck_assert_int_eq(load_text(text, NULL, 0, &s), SCENARIO_OK);
    ck_assert_str_eq(s->name, "t");
    ck_assert_uint_eq(s->seed, 1);
    ck_assert_int_eq(s->rank_rule, HIST_NEAREST_RANK);
    ck_assert_int_eq(s->threshold_ns, 100000000);
    ck_assert_uint_eq(s->sub_bits, 8);
    ck_assert_int_eq(s->drop_in_flight, 0);
    ck_assert_str_eq(s->generator, "mt19937");
    scenario_free(s);
    const char *sets[] = {"scenario.rank_rule=sorted_index", "tester.open.rate=2000/s",
                          "scenario.seed = 42", "tester open.arrivals=poisson"};
    ck_assert_int_eq(load_text(text, sets, 4, &s), SCENARIO_OK);
    ck_assert_int_eq(s->rank_rule, HIST_SORTED_INDEX);
    ck_assert_uint_eq(s->testers[0].interval.num_ns, 500000);
    ck_assert_uint_eq(s->seed, 42);
    ck_assert_int_eq(s->testers[0].arrivals, TESTER_ARRIVALS_POISSON);
    scenario_free(s);
}
END_TEST

START_TEST(multiline_and_lists)
{
    scenario *s;
    const char *text = GOOD_HEAD "[stall gc]\nkind = windows\nwindows = 3s..3.5s,\n"
                                 "    0.9s..1.4s\n[stall r]\nkind = requests\nrequests = 95..99, 90\n"
                                 "extra = 1ms\n[tester c]\nkind = closed\n";
    ck_assert_msg(load_text(text, NULL, 0, &s) == SCENARIO_OK, "%s", err);
    ck_assert_uint_eq(s->stalls[0].n_windows, 2);
    ck_assert_int_eq(s->stalls[0].windows[0].start_ns, 900000000);
    ck_assert_int_eq(s->stalls[0].windows[1].end_ns, 3500000000LL);
    ck_assert_uint_eq(s->stalls[1].n_ranges, 2);
    ck_assert_uint_eq(s->stalls[1].ranges[0].first, 90);
    ck_assert_uint_eq(s->stalls[1].ranges[1].last, 99);
    scenario_free(s);
}
END_TEST

/* Every error names the file and line (or the --set) and the key. */
START_TEST(errors_name_file_line_and_key)
{
    expect_error(GOOD_HEAD "[tester open]\nkind = open\nrate = 1000\n", SCENARIO_EINVALID,
                 "t.ini:8: [tester open] rate = 1000:", "/s");
    expect_error("[scenario]\nduration = 100\n", SCENARIO_EINVALID, "t.ini:2: [scenario] duration = 100",
                 "unit");
    expect_error(GOOD_HEAD "[tester open]\nkind = open\nrate = 1/s\nspeed = 3\n", SCENARIO_EINVALID,
                 "t.ini:9: [tester open] unknown key 'speed'", "rate or interval");
    expect_error(GOOD_HEAD "[tester x]\nkind = open\n", SCENARIO_EINVALID, "t.ini:6: [tester x]",
                 "rate");
    expect_error(GOOD_HEAD "[testers x]\nkind = open\n", SCENARIO_EINVALID, "t.ini:6: [testers x]",
                 "unknown section");
    expect_error(GOOD_HEAD "[tester a]\nkind = closed\nkind = open\n", SCENARIO_EINVALID,
                 "t.ini:8: [tester a] kind: key given twice (first on line 7)", NULL);
    expect_error(GOOD_HEAD "[tester a]\nkind = closed\n[tester a]\nkind = closed\n",
                 SCENARIO_EINVALID, "t.ini:8: section [tester a] appears twice", NULL);
    expect_error(GOOD_HEAD "[stall s]\nkind = periodic\nlength = 2s\nperiod = 1s\n[tester a]\nkind = closed\n",
                 SCENARIO_EINVALID, "t.ini:6: [stall s] length 2s must be shorter than period 1s", NULL);
    expect_error(GOOD_HEAD "[stall s]\nkind = windows\nwindows = 1s..2s, 1.5s..3s\n[tester a]\nkind = closed\n",
                 SCENARIO_EINVALID, "t.ini:8: [stall s] windows", "overlaps");
    expect_error(GOOD_HEAD "[tester p]\nkind = paced\ninterval = 0s\nlate = from_now\n",
                 SCENARIO_EINVALID, "t.ini:8: [tester p] interval = 0s: must be above zero", NULL);
    expect_error(GOOD_HEAD "[tester p]\nkind = paced\nrate = 10/s\nlate = whenever\n",
                 SCENARIO_EINVALID, "late = whenever", "from_now, next_slot, catch_up");
    expect_error(GOOD_HEAD "[tester p]\nkind = paced\nrate = -10/s\nlate = from_now\n",
                 SCENARIO_EINVALID, "t.ini:8: [tester p] rate = -10/s", "sign");
    expect_error("", SCENARIO_EINVALID, "t.ini: empty scenario", NULL);
    expect_error("duration = 1s\n", SCENARIO_EINVALID, "t.ini:1: key 'duration' outside any section",
                 NULL);
    expect_error("[scenario]\nthis is not ini\n", SCENARIO_EINVALID, "t.ini:2: not a 'key = value'",
                 NULL);
    expect_error("[scenario]\nduration = 1s\n\x01\x02\x00", SCENARIO_EINVALID, "t.ini:3: not a text file",
                 NULL);
    expect_error(GOOD_HEAD, SCENARIO_EINVALID, "no [tester NAME] section", NULL);
    expect_error("[service]\ndistribution = constant\ntime = 1ms\n", SCENARIO_EINVALID,
                 "no [scenario] section", NULL);
    expect_error(GOOD_HEAD "[scenario x]\n", SCENARIO_EINVALID, "[scenario x]", NULL);
    expect_error("[scenario]\nduration = 1s\n[service]\ndistribution = lognormal\nmedian = 1ms\n[tester a]\nkind = closed\n",
                 SCENARIO_EINVALID, "t.ini:3: [service] needs key 'sigma'", NULL);
    expect_error("[scenario]\nduration = 1s\nrank_rule = median\n", SCENARIO_EINVALID,
                 "t.ini:3: [scenario] rank_rule = median", "nearest_rank, rounded_rank, sorted_index");
    char longline[400];
    memset(longline, 'x', sizeof longline);
    strcpy(longline + 300, "\n");
    expect_error(longline, SCENARIO_EINVALID, "t.ini:1: line longer than", NULL);
}
END_TEST

START_TEST(file_errors)
{
    scenario *s;
    ck_assert_int_eq(scenario_load(&s, "/nonexistent/x.ini", NULL, 0, err, sizeof err), SCENARIO_EFILE);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.ini: cannot read the scenario"));
    ck_assert_int_eq(scenario_load(&s, tmpdir, NULL, 0, err, sizeof err), SCENARIO_EFILE);
    ck_assert_ptr_nonnull(strstr(err, "is a directory"));
}
END_TEST

START_TEST(set_errors)
{
    scenario *s;
    const char *text = GOOD_HEAD "[tester open]\nkind = open\nrate = 100/s\n";
    const char *bad1[] = {"rank_rule"};
    ck_assert_int_eq(load_text(text, bad1, 1, &s), SCENARIO_EUSAGE);
    ck_assert_ptr_nonnull(strstr(err, "--set rank_rule: expected SECTION.KEY=VALUE"));
    const char *bad2[] = {"tester.open.rate=fast"};
    ck_assert_int_eq(load_text(text, bad2, 1, &s), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "--set tester.open.rate=fast: [tester open] rate = fast") != NULL, "%s", err);
    const char *bad3[] = {"scenario.colour=red"};
    ck_assert_int_eq(load_text(text, bad3, 1, &s), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "--set scenario.colour=red: [scenario] unknown key 'colour'") != NULL, "%s", err);
}
END_TEST


/* Stalls from a CSV file and an empirical service distribution, read
 * relative to the scenario's folder (tests/data). */
START_TEST(data_files)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    char path[1024], ini[1024];
    snprintf(path, sizeof path, "%s/tests/data/from_files.ini", root);
    scenario *s;
    ck_assert_msg(scenario_load(&s, path, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    ck_assert_uint_eq(s->service.n_values, 4);
    ck_assert_double_eq(dist_mean_ns(&s->service), 2000000.0);
    ck_assert_uint_eq(s->stalls[0].kind, STALL_WINDOWS);
    ck_assert_uint_eq(s->stalls[0].n_windows, 2);
    ck_assert_int_eq(s->stalls[0].windows[1].start_ns, 1500000000);
    ck_assert_int_eq(s->stalls[0].windows[1].end_ns, 1700000000);
    scenario_free(s);
    /* errors name the data file's line */
    snprintf(ini, sizeof ini, "%s/tests/data/overlapping.ini", root);
    ck_assert_int_eq(scenario_load(&s, ini, NULL, 0, err, sizeof err), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "tests/data/overlapping.csv:2: this stall overlaps another") != NULL, "%s", err);
    const char *sets[] = {"stall.gc.file=missing.csv"};
    ck_assert_int_eq(scenario_load(&s, ini, sets, 1, err, sizeof err), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "[stall gc] file = missing.csv: cannot read") != NULL, "%s", err);
}
END_TEST

START_TEST(truth_and_new_tester_keys)
{
    scenario *s;
    const char *text = GOOD_HEAD "[tester p]\nkind = paced\nrate = 10/s\nusers = 10\nconnections = 2\n"
                                 "late = catch_up\nlatency_from = intended\n"
                                 "[tester s]\nkind = partly_open\nrate = 5/s\np_continue = 0.5\n"
                                 "think_distribution = exponential\nthink_mean = 1s\n"
                                 "[tester o]\nkind = open\nrate = 1/s\n[truth]\ninterval = 1ms\n";
    ck_assert_msg(load_text(text, NULL, 0, &s) == SCENARIO_OK, "%s", err);
    ck_assert_uint_eq(s->testers[0].connections, 2);
    ck_assert_int_eq(s->testers[0].latency_from_intended, 1);
    ck_assert_int_eq(s->testers[1].kind, TESTER_PARTLY_OPEN);
    ck_assert_double_eq(s->testers[1].p_continue, 0.5);
    ck_assert_int_eq(s->testers[1].has_think, 1);
    ck_assert_int_eq(s->truth_interval_ns, 1000000);
    ck_assert_int_eq(s->truth_load, 2); /* the first open tester */
    scenario_free(s);
    expect_error(GOOD_HEAD "[tester p]\nkind = partly_open\nrate = 1/s\np_continue = 1\n",
                 SCENARIO_EINVALID, "p_continue = 1: must be below 1", NULL);
    expect_error(GOOD_HEAD "[tester c]\nkind = closed\nusers = 2\nconnections = 3\n", SCENARIO_EINVALID,
                 "connections = 3: more connections than users", NULL);
    expect_error(GOOD_HEAD "[tester c]\nkind = closed\n[truth]\ninterval = 1ms\nload = nobody\n",
                 SCENARIO_EINVALID, "[truth] load = nobody: expected the name of a tester", NULL);
}
END_TEST

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cosim-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/t.ini", tmpdir);
    unlink(path);
    rmdir(tmpdir);
}

/* Issue 11: combinations that double count or mean nothing are refused at
 * the key's line (or its --set): corrected over catch_up; latency_from =
 * intended under next_slot, unless fewer connections than users make
 * sends wait (then it adds the wait, Hyperfoil's compensated figure). */
START_TEST(combinations_that_mean_nothing)
{
    expect_error(GOOD_HEAD "[tester c]\nkind = corrected\nrate = 10/s\nlate = catch_up\n", SCENARIO_EINVALID,
                 ":9: [tester c] late = catch_up: a corrected tester that catches up counts each stall twice",
                 NULL);
    expect_error(GOOD_HEAD "[tester p]\nkind = paced\nrate = 10/s\nlate = next_slot\nlatency_from = intended\n",
                 SCENARIO_EINVALID, ":10: [tester p] latency_from = intended: with late = next_slot", NULL);
    scenario *s;
    const char *sets[] = {"tester.c.late=catch_up"};
    ck_assert_int_eq(load_text(GOOD_HEAD "[tester c]\nkind = corrected\nrate = 10/s\nlate = next_slot\n", sets, 1,
                               &s),
                     SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "--set tester.c.late=catch_up: [tester c] late = catch_up: a corrected") != NULL,
                  "%s", err);
    const char *ok = GOOD_HEAD "[tester p]\nkind = paced\nrate = 10/s\nusers = 4\nconnections = 2\n"
                               "late = next_slot\nlatency_from = intended\n";
    ck_assert_msg(load_text(ok, NULL, 0, &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->testers[0].latency_from_intended, 1);
    scenario_free(s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("scenario");
    TCase *tc = tcase_create("scenario");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, published_scenarios_load);
    tcase_add_test(tc, defaults_and_overrides);
    tcase_add_test(tc, multiline_and_lists);
    tcase_add_test(tc, errors_name_file_line_and_key);
    tcase_add_test(tc, file_errors);
    tcase_add_test(tc, set_errors);
    tcase_add_test(tc, data_files);
    tcase_add_test(tc, truth_and_new_tester_keys);
    tcase_add_test(tc, combinations_that_mean_nothing);
    suite_add_tcase(s, tc);
    return s;
}
