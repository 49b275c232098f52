/* Tests of scenario: the published scenarios load, and bad input is
 * answered with FILE:LINE, the key and what would be accepted. */
#include "scenario.h"

#include <check.h>
#include <errno.h>
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
                 SCENARIO_EINVALID, "late = whenever", "expected next_slot (the default, as the book");
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
    /* a value the reader refuses is the command line's when --set gave it:
     * SCENARIO_EUSAGE (exit 2), as a malformed --set */
    const char *bad2[] = {"tester.open.rate=fast"};
    ck_assert_int_eq(load_text(text, bad2, 1, &s), SCENARIO_EUSAGE);
    ck_assert_msg(strstr(err, "--set tester.open.rate=fast: [tester open] rate = fast") != NULL, "%s", err);
    const char *bad3[] = {"scenario.colour=red"};
    ck_assert_int_eq(load_text(text, bad3, 1, &s), SCENARIO_EUSAGE);
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
    /* in time order: streamed from the file, kept open (pauses.csv: 0.5s,100ms then 1.5s,200ms) */
    ck_assert_ptr_null(s->stalls[0].windows);
    ck_assert_ptr_nonnull(s->stalls[0].file);
    ck_assert_int_eq(s->stalls[0].file->first.start_ns, 500000000);
    ck_assert_int_eq(s->stalls[0].file->first.end_ns, 600000000);
    ck_assert_int_eq(s->stalls[0].file->last.start_ns, 1500000000);
    ck_assert_int_eq(s->stalls[0].file->last.end_ns, 1700000000);
    ck_assert_int_eq(stall_file_changed(s->stalls[0].file), 0);
    scenario_free(s);
    /* out of time order: read into memory and sorted, 1s,100ms first of 3s, 1s */
    const char *sorted[] = {"stall.gc.file=unsorted.csv"};
    ck_assert_msg(scenario_load(&s, path, sorted, 1, err, sizeof err) == SCENARIO_OK, "%s", err);
    ck_assert_ptr_null(s->stalls[0].file);
    ck_assert_uint_eq(s->stalls[0].n_windows, 2);
    ck_assert_int_eq(s->stalls[0].windows[0].start_ns, 1000000000);
    ck_assert_int_eq(s->stalls[0].windows[1].start_ns, 3000000000);
    scenario_free(s);
    /* errors name the data file's line */
    snprintf(ini, sizeof ini, "%s/tests/data/overlapping.ini", root);
    ck_assert_int_eq(scenario_load(&s, ini, NULL, 0, err, sizeof err), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "tests/data/overlapping.csv:2: this stall overlaps another") != NULL, "%s", err);
    /* out of order: sorted, 2.4s,10ms (line 6) starts inside 2s,500ms (line 5); the line is found by
     * reading the file again, since the windows keep no line numbers */
    const char *unsorted[] = {"stall.gc.file=overlapping_unsorted.csv"};
    ck_assert_int_eq(scenario_load(&s, ini, unsorted, 1, err, sizeof err), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "tests/data/overlapping_unsorted.csv:6: this stall overlaps another; merge them") != NULL,
                  "%s", err);
    /* in order with equal starts (1s,100ms line 3, 1s,200ms line 4, 1s,300ms line 5): streamed, the
     * first overlap is line 4's window, reported as the array's re-reading did, at the last line
     * starting at 1 s: line 5 */
    const char *equal[] = {"stall.gc.file=overlapping_equal_starts.csv"};
    ck_assert_int_eq(scenario_load(&s, ini, equal, 1, err, sizeof err), SCENARIO_EINVALID);
    ck_assert_msg(strstr(err, "tests/data/overlapping_equal_starts.csv:5: this stall overlaps another; merge them") != NULL,
                  "%s", err);
    const char *sets[] = {"stall.gc.file=missing.csv"}; /* named as the --set: exit 2 */
    ck_assert_int_eq(scenario_load(&s, ini, sets, 1, err, sizeof err), SCENARIO_EUSAGE);
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
    /* no open tester: the first tester's load, whatever its kind (an idle
     * server's truth only with load = none) */
    const char *closed_only = GOOD_HEAD "[tester a]\nkind = paced\nrate = 10/s\n[tester c]\nkind = closed\n"
                                        "[truth]\ninterval = 1ms\n";
    ck_assert_msg(load_text(closed_only, NULL, 0, &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->truth_load, 0);
    scenario_free(s);
    const char *set_none[] = {"truth.load=none"};
    ck_assert_msg(load_text(closed_only, set_none, 1, &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->truth_load, -1);
    scenario_free(s);
    const char *set_c[] = {"truth.load=c"};
    ck_assert_msg(load_text(closed_only, set_c, 1, &s) == SCENARIO_OK, "%s", err);
    ck_assert_int_eq(s->truth_load, 1);
    scenario_free(s);
    expect_error(GOOD_HEAD "[tester p]\nkind = partly_open\nrate = 1/s\np_continue = 1\n",
                 SCENARIO_EINVALID, "p_continue = 1: must be below 1", NULL);
    expect_error(GOOD_HEAD "[tester c]\nkind = closed\nusers = 2\nconnections = 3\n", SCENARIO_EINVALID,
                 "connections = 3: more connections than users", NULL);
    expect_error(GOOD_HEAD "[tester c]\nkind = closed\n[truth]\ninterval = 1ms\nload = nobody\n",
                 SCENARIO_EINVALID, "[truth] load = nobody: expected the name of a tester", NULL);
}
END_TEST

/* Issue 10: a header with inner blanks is one record, canonical: --set
 * finds it, every message names it, and the final checks (which once
 * rebuilt "tester c" and found nothing: a crash) refer to it. */
START_TEST(section_names_are_canonical)
{
    scenario *s;
    const char *text = GOOD_HEAD "[tester \t c ]\nkind = closed\n";
    const char *sets[] = {"tester.c.users=3"};
    ck_assert_msg(load_text(text, sets, 1, &s) == SCENARIO_OK, "%s", err);
    ck_assert_str_eq(s->testers[0].name, "c");
    ck_assert_uint_eq(s->testers[0].users, 3);
    ck_assert_int_eq(s->tester_line[0], 6);
    scenario_free(s);
    expect_error("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 0ns\n[tester  c]\n"
                 "kind = closed\n", SCENARIO_EINVALID,
                 "t.ini:6: [tester c] a closed tester against a zero service time", NULL);
    expect_error(GOOD_HEAD "[tester c]\nkind = closed\n[tester  c]\nkind = closed\n", SCENARIO_EINVALID,
                 "t.ini:8: section [tester c] appears twice (first on line 6)", NULL);
}
END_TEST

/* Issue 10: user input is kept whole or refused by name, never cut. */
START_TEST(long_input_is_whole_or_refused)
{
    scenario *s;
    /* a --set value of 1,788 bytes: 120 windows (cut at 1023 bytes, it lost
     * the windows after the 68th) */
    static char set[4096];
    size_t n = (size_t)snprintf(set, sizeof set, "stall.w.windows=");
    for (int k = 1; k <= 120; k++)
        n += (size_t)snprintf(set + n, sizeof set - n, "%s%d0ms..%d1ms", k > 1 ? ", " : "", k, k);
    ck_assert_uint_gt(n, 1023 + 16);
    const char *sets[] = {set};
    const char *text = GOOD_HEAD "[stall w]\nkind = windows\nwindows = 0s..1ms\n[tester c]\nkind = closed\n";
    ck_assert_msg(load_text(text, sets, 1, &s) == SCENARIO_OK, "%s", err);
    ck_assert_uint_eq(s->stalls[0].n_windows, 120);
    ck_assert_int_eq(s->stalls[0].windows[119].start_ns, 1200000000);
    ck_assert_int_eq(s->stalls[0].windows[119].end_ns, 1201000000);
    /* 64 stalls do not fit a 512-byte line: the rest are counted */
    char d[512];
    scenario_describe_stalls(s, d, 60);
    ck_assert_str_eq(d, "120 windows");
    scenario_free(s);
    /* an expect key of 30 characters is kept (key[24] cut it) */
    text = GOOD_HEAD "[tester o]\nkind = open\nrate = 10/s\n[expect o]\np000000000000000000000000099.9 = 7ms\n";
    ck_assert_msg(load_text(text, NULL, 0, &s) == SCENARIO_OK, "%s", err);
    ck_assert_str_eq(s->expects[0].key, "p000000000000000000000000099.9");
    ck_assert_uint_eq(s->expects[0].p_num, 999);
    ck_assert_uint_eq(s->expects[0].p_den, 1000);
    scenario_free(s);
    /* a long file stem names the scenario whole (cut at 40, two names met) */
    const char *p = write_file("a_long_scenario_name_variant_number_A_for_the_test.ini",
                               GOOD_HEAD "[tester c]\nkind = closed\n");
    ck_assert_msg(scenario_load(&s, p, NULL, 0, err, sizeof err) == SCENARIO_OK, "%s", err);
    ck_assert_str_eq(s->name, "a_long_scenario_name_variant_number_A_for_the_test");
    scenario_free(s);
    unlink(p);
    /* over the limits: refused by name */
    static char big[70100];
    memcpy(big, "scenario.title=", 15);
    memset(big + 15, 'x', 70000);
    const char *sets2[] = {big};
    ck_assert_int_eq(load_text(GOOD_HEAD "[tester c]\nkind = closed\n", sets2, 1, &s), SCENARIO_EUSAGE);
    ck_assert_str_eq(err, "--set scenario.title: the value is longer than 65536 bytes");
    expect_error(GOOD_HEAD "[tester c]\nkind = closed\n"
                 "think_distribution_and_a_good_many_more_letters_x = 1\n",
                 SCENARIO_EINVALID, "t.ini:8: key 'think_distribution_a...' is longer than 48 characters", NULL);
}
END_TEST

/* Issue 10: users x interval is checked, at the users key. */
START_TEST(paced_user_interval_overflow)
{
    /* 2^45 ns x 2^19 users = 2^64 ns wrapped to 0: a division by zero */
    expect_error(GOOD_HEAD "[tester p]\nkind = paced\ninterval = 35184.372088832s\nusers = 524288\n"
                 "late = from_now\n", SCENARIO_EINVALID,
                 "t.ini:9: [tester p] users = 524288: each user would send every 524288 x 35184.372088832s, "
                 "past the clock's range", NULL);
    /* 10^13 ns x 10^6 = 10^19 ns: fits 64 bits, not the int64 clock */
    expect_error(GOOD_HEAD "[tester p]\nkind = corrected\nrate = 0.0001/s\nusers = 1000000\nlate = next_slot\n",
                 SCENARIO_EINVALID, "t.ini:9: [tester p] users = 1000000: each user would send at 0.0001/s / "
                 "1000000, less than once in 2^63 ns", NULL);
    /* just inside: 1000000s x 9223 = 9.223e18 ns < 2^63 */
    scenario *s;
    ck_assert_msg(load_text(GOOD_HEAD "[tester p]\nkind = paced\ninterval = 1000000s\nusers = 9223\n"
                            "late = from_now\n", NULL, 0, &s) == SCENARIO_OK, "%s", err);
    scenario_free(s);
}
END_TEST

/* Issue 10: a window must start inside the run. */
START_TEST(windows_inside_the_run)
{
    int64_t a, b;
    char why[160];
    ck_assert_int_eq(scenario_parse_window("0.9s..1.6s", 2000000000, &a, &b, why, sizeof why), 0);
    ck_assert_int_eq(a, 900000000);
    ck_assert_int_eq(b, 1600000000);
    /* an end past the run is kept (the charts stop at the run's end) */
    ck_assert_int_eq(scenario_parse_window("1s..3s", 2000000000, &a, &b, why, sizeof why), 0);
    ck_assert_int_eq(scenario_parse_window("2s..3s", 2000000000, &a, &b, why, sizeof why), -ERANGE);
    ck_assert_str_eq(why, "the window starts at 2s, at or after the end of the run (duration 2s): the time "
                          "charts would be empty; give a window inside 0s..2s");
    ck_assert_int_eq(scenario_parse_window("2s..1s", 3000000000, &a, &b, why, sizeof why), -EINVAL);
    ck_assert_str_eq(why, "the window 2s..1s ends before it starts");
    ck_assert_int_eq(scenario_parse_window("1e3ms..2s", 3000000000, &a, &b, why, sizeof why), -EINVAL);
    ck_assert_str_eq(why, "START: an exponent is not accepted; write the number out (1000, not 1e3)");
    expect_error("[scenario]\nduration = 2s\nchart_window = 5s..6s\n[service]\ndistribution = constant\n"
                 "time = 7ms\n[tester c]\nkind = closed\n", SCENARIO_EINVALID,
                 "t.ini:3: [scenario] chart_window = 5s..6s: the window starts at 5s", NULL);
}
END_TEST

/* Issue 10: limits stop reading at once, at the line that crossed them. */
START_TEST(limits_stop_reading)
{
    static char text[200000];
    size_t n = (size_t)snprintf(text, sizeof text, GOOD_HEAD);
    for (int k = 0; k < 1000; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "[stall s%d]\nkind = periodic\nlength = 1ms\nperiod = 1s\n", k);
    /* the 65th stall's header: line 6 + 4 x 64 */
    expect_error(text, SCENARIO_EINVALID, "t.ini:262: [stall s64] one stall too many: a scenario has at most 64",
                 NULL);
    expect_error(GOOD_HEAD "[expect]\n", SCENARIO_EINVALID, "t.ini:6: [expect] needs a NAME", NULL);
    expect_error(GOOD_HEAD "[truth x]\n", SCENARIO_EINVALID, "t.ini:6: [truth x] takes no name: write [truth]",
                 NULL);
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
                     SCENARIO_EUSAGE);
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
    tcase_add_test(tc, section_names_are_canonical);
    tcase_add_test(tc, long_input_is_whole_or_refused);
    tcase_add_test(tc, paced_user_interval_overflow);
    tcase_add_test(tc, windows_inside_the_run);
    tcase_add_test(tc, limits_stop_reading);
    suite_add_tcase(s, tc);
    return s;
}
