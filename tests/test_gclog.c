/* Tests of gclog: the pause windows of sample logs of every format, worked
 * by hand from each runtime's stamp rule (gclog.h), the options, merges,
 * and the FILE:LINE errors. The logs are in tests/data/gclog. */
#include "gclog.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char path[1024];

static const char *data(const char *name)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    snprintf(path, sizeof path, "%s/tests/data/gclog/%s", root ? root : ".", name);
    return path;
}

static gclog_result *read_ok(const char *name, const gclog_options *o)
{
    gclog_result *r;
    char err[512];
    int rc = gclog_read(&r, data(name), o, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: %s", name, err);
    return r;
}

/* windows[] as pairs start, end */
static void expect_windows(const gclog_result *r, const int64_t *w, size_t n)
{
    ck_assert_uint_eq(r->n_windows, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(r->windows[i].start_ns, w[2 * i]);
        ck_assert_int_eq(r->windows[i].end_ns, w[2 * i + 1]);
    }
}

static void expect_error(const char *name, const gclog_options *o, const char *tail)
{
    gclog_result *r = NULL;
    char err[512], want[1200];
    int rc = gclog_read(&r, data(name), o, err, sizeof err);
    ck_assert_int_eq(rc, -EINVAL);
    ck_assert_ptr_null(r);
    snprintf(want, sizeof want, "%s%s", path, tail);
    ck_assert_str_eq(err, want);
}

/* JDK 17 G1, -Xlog:gc*:file:time,uptime,level,tags. Each "Pause" line is
 * written at the pause's end: [uptime - length, uptime). GC(0) at 1.259 s,
 * 7.105 ms: [1.251895, 1.259); GC(1) [2.514 - 0.004872, 2.514); Remark
 * [2.561 - 0.001234, 2.561); Cleanup [2.573 - 0.000088, 2.573); GC(3)
 * [3.801 - 0.012345, 3.801); GC(4) [4.950 - 0.015007, 4.950); Full
 * [6.200 - 0.123456, 6.200). The gc,start lines, the concurrent mark cycle
 * (59.921 ms) and the full GC's phases are not pauses; the uptime decorator
 * is used, not the wall clock. Total 164.107 ms. */
START_TEST(g1_jdk17_pause_lines_end_stamped)
{
    gclog_result *r = read_ok("g1_jdk17.log", NULL);
    static const int64_t w[] = {1251895000, 1259000000, 2509128000, 2514000000, 2559766000, 2561000000,
                                2572912000, 2573000000, 3788655000, 3801000000, 4934993000, 4950000000,
                                6076544000, 6200000000};
    ck_assert_int_eq(r->format, GCLOG_JDK_UNIFIED);
    expect_windows(r, w, 7);
    ck_assert_uint_eq(r->n_read, 7);
    ck_assert_int_eq(r->total_ns, 164107000);
    ck_assert_int_eq(r->longest_ns, 123456000);
    ck_assert_str_eq(r->source, "GC pause lines");
    char s[300];
    gclog_summary(r, 10 * INT64_C(1000000000), s, sizeof s);
    ck_assert_str_eq(s, "JDK unified logging: 7 pauses from GC pause lines, 7 kept; paused 164.107000 ms in total, "
                        "longest 123.456000 ms, 1.64% of the run");
    /* the share of a 5 s run: the pauses before 5 s, 40.651 ms */
    ck_assert_int_eq(gclog_paused_within(r, 5 * INT64_C(1000000000)), 40651000);
    gclog_free(r);
}
END_TEST

/* JDK 11 Parallel with the uptimemillis decorator ([1259ms]). */
START_TEST(parallel_uptimemillis)
{
    gclog_result *r = read_ok("parallel_jdk11_uptimemillis.log", NULL);
    static const int64_t w[] = {1252211000, 1259000000, 2871750000, 2880000000, 4995433000, 5230000000};
    expect_windows(r, w, 3);
    gclog_free(r);
}
END_TEST

/* Shenandoah with uptimenanos: [1523456789ns] ... 0.201 ms gives
 * [1523255789, 1523456789); concurrent phases are not pauses. */
START_TEST(shenandoah_uptimenanos)
{
    gclog_result *r = read_ok("shenandoah_uptimenanos.log", NULL);
    static const int64_t w[] = {1523255789, 1523456789, 1561664223, 1562011223, 1569899000,
                                1569913000, 1569950000, 1570000000, 2476544000, 2500000000};
    expect_windows(r, w, 5);
    gclog_free(r);
}
END_TEST

/* JDK 11 ZGC with gc*=debug: the debug sub-phases of a pause ("Pause Roots
 * 0.612ms") and "Garbage Collection (Warmup)" are not pauses. */
START_TEST(zgc_skips_debug_subphases)
{
    gclog_result *r = read_ok("zgc_jdk11.log", NULL);
    static const int64_t w[] = {1003266000, 1004000000, 1021588000, 1022000000, 1029440000, 1030000000};
    expect_windows(r, w, 3);
    gclog_free(r);
}
END_TEST

/* Generational ZGC: "y:", "Y:" and "O:" prefixes; GC(2)'s minor pauses come
 * between GC(1)'s major ones; the "Minor/Major Collection ... 0.031s" cycle
 * lines are not pauses. 9 pauses, 0.123 ms. */
START_TEST(zgc_generational_interleaved)
{
    gclog_result *r = read_ok("zgc_generational_jdk21.log", NULL);
    static const int64_t w[] = {211989000,  212000000,  231976000,  232000000,  232992000,  233000000,
                                1104987000, 1105000000, 1119991000, 1120000000, 1130980000, 1131000000,
                                1149983000, 1150000000, 1289985000, 1290000000, 1300994000, 1301000000};
    expect_windows(r, w, 9);
    ck_assert_int_eq(r->total_ns, 123000);
    gclog_free(r);
}
END_TEST

/* JDK 17 gc + safepoint: the safepoint lines win (they include the time to
 * reach the safepoint): G1CollectForAllocation at 1.361 s, Total 24127754 ns:
 * [1336872246, 1361000000), against the GC line's [1336488000, 1360000000).
 * A non-GC safepoint (Deoptimize) is a pause too. */
START_TEST(safepoint_lines_preferred)
{
    gclog_result *r = read_ok("g1_safepoint_jdk17.log", NULL);
    static const int64_t w[] = {1335842777, 1336000000, 1336872246, 1361000000,
                                2986808890, 2998000000, 3499830866, 3500000000};
    expect_windows(r, w, 4);
    ck_assert_str_eq(r->source, "safepoint lines");
    ck_assert_uint_eq(r->n_set_aside, 2);
    ck_assert_str_eq(r->set_aside, "GC pause lines");
    ck_assert_int_eq(r->total_ns, 157223 + 24127754 + 11191110 + 169134);
    gclog_free(r);

    gclog_options o;
    gclog_options_default(&o);
    o.source = GCLOG_SOURCE_GC;
    r = read_ok("g1_safepoint_jdk17.log", &o);
    static const int64_t g[] = {1336488000, 1360000000, 2988124000, 2998000000};
    expect_windows(r, g, 2);
    ck_assert_uint_eq(r->n_set_aside, 4);
    gclog_free(r);
}
END_TEST

/* JDK 11 "Total time for which application threads were stopped: 0.0128457
 * seconds" at 1.025 s: [1012154300, 1025000000). Stamps of 1 ms overlap:
 * [3.398, 3.400) and [3.401 - 0.0015, 3.401) merge into [3.398, 3.401). */
START_TEST(stopped_time_lines_and_merge)
{
    gclog_result *r = read_ok("g1_safepoint_jdk11.log", NULL);
    static const int64_t w[] = {1012154300, 1025000000, 2030648800, 2031000000, 3398000000, 3401000000};
    expect_windows(r, w, 3);
    ck_assert_uint_eq(r->n_read, 4);
    ck_assert_uint_eq(r->n_merged, 1);
    ck_assert_uint_eq(r->n_notes, 1);
    char want[1400];
    snprintf(want, sizeof want,
             "%s:15: the pause [3.399500000s, 3.401000000s) overlaps the one of line 12, which ends at "
             "3.400000000s; merged",
             data("g1_safepoint_jdk11.log"));
    ck_assert_str_eq(r->notes[0], want);
    gclog_free(r);
}
END_TEST

/* Only the time decorator: the log's clock starts at its first stamp,
 * 09:15:00.101; GC(0) ends 1.248 s later. */
START_TEST(wall_clock_only)
{
    gclog_result *r = read_ok("g1_wallclock.log", NULL);
    static const int64_t w[] = {1240895000, 1248000000, 3393750000, 3399000000};
    expect_windows(r, w, 2);
    gclog_free(r);
}
END_TEST

/* JDK 8 Parallel with PrintGCDetails, date and time stamps and
 * PrintGCApplicationStoppedTime. GC records are stamped at their START:
 * 1.402 + 0.0123456 s gives [1402000000, 1414345600). Stopped-time lines at
 * the end: 1.415 - 0.0131021 gives [1401897900, 1415000000); they are
 * preferred. */
START_TEST(jdk8_start_and_end_stamps)
{
    gclog_result *r = read_ok("parallel_jdk8.log", NULL);
    static const int64_t w[] = {1401897900, 1415000000, 2200912700, 2201000000, 2993753200, 3229000000};
    ck_assert_int_eq(r->format, GCLOG_JDK8);
    expect_windows(r, w, 3);
    ck_assert_str_eq(r->source, "stopped-time lines");
    ck_assert_uint_eq(r->n_set_aside, 2);
    gclog_free(r);

    gclog_options o;
    gclog_options_default(&o);
    o.source = GCLOG_SOURCE_GC;
    r = read_ok("parallel_jdk8.log", &o);
    static const int64_t g[] = {1402000000, 1414345600, 2994000000, 3228567800};
    expect_windows(r, g, 2);
    ck_assert_str_eq(r->source, "GC records");
    gclog_free(r);
}
END_TEST

/* CMS: a ParNew record over four lines (PrintTenuringDistribution), the
 * length its outermost "0.0062345 secs]"; the remark's nested phases;
 * concurrent phases are not pauses. */
START_TEST(jdk8_cms_multiline_and_concurrent)
{
    gclog_result *r = read_ok("cms_jdk8.log", NULL);
    static const int64_t w[] = {912000000, 918234500, 3208000000, 3209234500, 3290000000, 3297890100};
    expect_windows(r, w, 3);
    gclog_free(r);
}
END_TEST

/* A German locale: "0,845: [GC ... 0,0087654 secs]". */
START_TEST(jdk8_decimal_comma)
{
    gclog_result *r = read_ok("parallel_jdk8_decimal_comma.log", NULL);
    static const int64_t w[] = {845012400, 854000000, 2100998900, 2225000000};
    expect_windows(r, w, 2);
    gclog_free(r);
    gclog_options o;
    gclog_options_default(&o);
    o.source = GCLOG_SOURCE_GC;
    r = read_ok("parallel_jdk8_decimal_comma.log", &o);
    static const int64_t g[] = {845000000, 853765400, 2101000000, 2224456700};
    expect_windows(r, g, 2);
    gclog_free(r);
}
END_TEST

/* JDK 8 G1: young pauses, remark and cleanup are pauses (uptime stamp
 * preferred over the date), "[GC concurrent-..." are not. */
START_TEST(jdk8_g1)
{
    gclog_result *r = read_ok("g1_jdk8.log", NULL);
    static const int64_t w[] = {734000000,  739123400,  3189000000, 3195789000,
                                3245000000, 3247345600, 3248000000, 3248345600};
    expect_windows(r, w, 4);
    gclog_free(r);
}
END_TEST

/* Go: "gc 3 @1.504s 1%: 0.15+12+0.087 ms clock": sweep termination
 * [1.504, 1.504 + 0.00015), concurrent mark 12 ms, mark termination
 * [1.504 + 0.00015 + 0.012, + 0.000087). 8 windows, 0.382 ms. */
START_TEST(go_gctrace_first_and_third_phases)
{
    gclog_result *r = read_ok("go_gctrace.log", NULL);
    static const int64_t w[] = {12000000,   12011000,   13211000,   13214000,   31000000,   31021000,
                                33521000,   33551000,   1504000000, 1504150000, 1516150000, 1516237000,
                                2250000000, 2250018000, 2253418000, 2253480000};
    ck_assert_int_eq(r->format, GCLOG_GO);
    expect_windows(r, w, 8);
    ck_assert_int_eq(r->total_ns, 382000);
    gclog_free(r);
}
END_TEST

/* jHiccup log (written by HdrHistogram Java, jHiccup's settings): each
 * interval's max is one pause ending at the interval's end. The 45 ms
 * hiccup's bucket (u = 14, M = 8) is [44826624, 45088767]: the pause
 * [2 s - 45088767, 2 s). The third interval's 20 ms and 8 ms hiccups read as
 * one pause of 20054015 ns: the 8 ms one is hidden. The noise (70 us, bucket
 * edge 81919 ns) is dropped by a 1 ms minimum. */
START_TEST(hlog_interval_maxima)
{
    gclog_result *r = read_ok("jhiccup.hlog", NULL);
    static const int64_t w[] = {999918081,  1000000000, 1954911233, 2000000000,
                                2979945985, 3000000000, 3999918081, 4000000000};
    ck_assert_int_eq(r->format, GCLOG_HLOG);
    expect_windows(r, w, 4);
    gclog_free(r);
    gclog_options o;
    gclog_options_default(&o);
    o.min_pause_ns = 1000000;
    r = read_ok("jhiccup.hlog", &o);
    static const int64_t m[] = {1954911233, 2000000000, 2979945985, 3000000000};
    expect_windows(r, m, 2);
    ck_assert_uint_eq(r->n_read, 4);
    ck_assert_uint_eq(r->n_kept, 2);
    ck_assert_int_eq(r->total_ns, 45088767 + 20054015); /* the hiccups were 45 + 20 + 8 ms */
    gclog_free(r);
}
END_TEST

/* Options on g1_jdk17.log: the window [2.5 s, 4 s) of the log, landing at
 * 10 s of the run, pauses of 1 ms or more, twice as long (start kept):
 * GC(1) [2509128000, 2514000000) -> [10009128000, 10009128000 + 9744000);
 * Remark 1.234 ms -> [10059766000, +2468000); Cleanup 0.088 ms dropped;
 * GC(3) 12.345 ms -> [11288655000, +24690000). */
START_TEST(options_window_offset_min_scale)
{
    gclog_options o;
    gclog_options_default(&o);
    o.from_ns = 2500000000;
    o.to_ns = 4000000000;
    o.offset_ns = 10000000000;
    o.min_pause_ns = 1000000;
    o.scale = 2.0;
    gclog_result *r = read_ok("g1_jdk17.log", &o);
    static const int64_t w[] = {10009128000, 10018872000, 10059766000, 10062234000, 11288655000, 11313345000};
    expect_windows(r, w, 3);
    ck_assert_uint_eq(r->n_read, 7);
    ck_assert_uint_eq(r->n_kept, 3);
    gclog_free(r);

    /* a pause cut by the window's start keeps its part inside */
    gclog_options_default(&o);
    o.from_ns = 1255000000;
    o.to_ns = 2000000000;
    r = read_ok("g1_jdk17.log", &o);
    static const int64_t c[] = {0, 4000000};
    expect_windows(r, c, 1);
    gclog_free(r);

    /* scaled pauses that now overlap merge: GC(1) x 20 = 97.44 ms from
     * 2.509128 s covers the remark (2.559766 s) and the cleanup */
    gclog_options_default(&o);
    o.scale = 20.0;
    r = read_ok("g1_jdk17.log", &o);
    ck_assert_uint_eq(r->n_merged, 2);
    ck_assert_int_eq(r->windows[1].start_ns, 2509128000);
    ck_assert_int_eq(r->windows[1].end_ns, 2509128000 + 97440000);
    gclog_free(r);
}
END_TEST

START_TEST(errors_name_file_and_line)
{
    expect_error("no_decorators.log", NULL,
                 ":2: a pause line without a time decorator: log with -Xlog:gc:FILE:uptime (or uptimemillis, "
                 "uptimenanos, time, utctime)");
    expect_error("level_tags_only.log", NULL,
                 ":3: a pause line without a time decorator: log with -Xlog:gc:FILE:uptime (or uptimemillis, "
                 "uptimenanos, time, utctime)");
    expect_error("bad_length.log", NULL, ":3: the pause length '7.1.05ms' has '.05ms' after its digits");
    expect_error("bad_decorator.log", NULL,
                 ":2: [1.2x9s] is not a time decorator (uptime 12.345s, uptimemillis 12345ms, uptimenanos, or "
                 "time 2024-01-15T10:30:45.123+0000)");
    expect_error("bad_safepoint.log", NULL, ":2: the safepoint's total '24.1ms' has the unit 'ms', not ns");
    expect_error("clock_step.log", NULL,
                 ":4: the time stamp goes back 6.992 s from line 3's: a clock step, or two runs in one file; cut "
                 "the file or choose a window of it");
    expect_error("jdk8_no_stamps.log", NULL,
                 ":2: a GC record without a time stamp: log with -XX:+PrintGCTimeStamps or "
                 "-XX:+PrintGCDateStamps");
    char tail[1400];
    snprintf(tail, sizeof tail, ": the file ends inside a record at %s:3: was it copied while being written? (the GC "
             "record does not close)", data("jdk8_unclosed.log"));
    expect_error("jdk8_unclosed.log", NULL, tail);
    expect_error("go_bad.log", NULL, ":2: the concurrent mark 'x' is not a number");
    /* a last word that begins as a number would (a sign) or is NaN, with
     * a unit: a bad length, not a pause line skipped in silence */
    expect_error("bad_length_negative.log", NULL, ":2: the pause length '-5ms' has a sign; it is never signed");
    expect_error("bad_length_nan.log", NULL, ":2: the pause length 'nanms' is not a number");
}
END_TEST

/* An uptime log's pause that would begin before uptime 0: logged at
 * 0.001 s, 5000 ms long, [-4.999 s, 0.001 s): cut to [0, 1 ms) with a note;
 * GC(1) [2.000 - 0.010, 2.000) as is. A wall-clock log whose first line is
 * a pause: the run's 0 is that pause's start (10:30:45.000 - 50 ms), not
 * its end stamp, so it is kept whole, [0, 50 ms), and GC(1), ending
 * 10:30:46.000 = 1.050 s after that 0, is [1.040 s, 1.050 s); no note. */
START_TEST(pauses_at_the_log_start)
{
    gclog_result *r = read_ok("uptime_before_start.log", NULL);
    static const int64_t w[] = {0, 1000000, 1990000000, 2000000000};
    expect_windows(r, w, 2);
    ck_assert_uint_eq(r->n_kept, 2);
    ck_assert_uint_eq(r->n_notes, 1);
    char want[1400];
    snprintf(want, sizeof want,
             "%s:1: the pause [-4.999000000s, 0.001000000s) begins before the log's start (uptime 0); cut there",
             data("uptime_before_start.log"));
    ck_assert_str_eq(r->notes[0], want);
    gclog_free(r);
    r = read_ok("wallclock_first_line_pause.log", NULL);
    static const int64_t v[] = {0, 50000000, 1040000000, 1050000000};
    expect_windows(r, v, 2);
    ck_assert_uint_eq(r->n_notes, 0);
    gclog_free(r);
}
END_TEST

/* scenarios/data/g1_sample.log, the future scenarios/gc_log.ini's pauses
 * (docs/real-inputs.md lists them): 9 end-stamped pause lines, 566.089 ms in
 * all, the longest the 452.667 ms full GC [7.503 s - 0.452667 s, 7.503 s). */
START_TEST(scenario_sample_g1)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    char p[1024], err[256];
    snprintf(p, sizeof p, "%s/scenarios/data/g1_sample.log", root ? root : ".");
    gclog_result *r;
    ck_assert_int_eq(gclog_read(&r, p, NULL, err, sizeof err), 0);
    static const int64_t w[] = {900746000,  912000000,  2020129000, 2035000000, 3099998000, 3118000000,
                                3335590000, 3342000000, 3370488000, 3371000000, 4528670000, 4550000000,
                                5682882000, 5707000000, 7050333000, 7503000000, 8824075000, 8841000000};
    expect_windows(r, w, 9);
    ck_assert_int_eq(r->total_ns, 566089000);
    ck_assert_int_eq(r->longest_ns, 452667000);
    char s[300];
    gclog_summary(r, 10 * INT64_C(1000000000), s, sizeof s);
    ck_assert_str_eq(s, "JDK unified logging: 9 pauses from GC pause lines, 9 kept; paused 566.089000 ms in total, "
                        "longest 452.667000 ms, 5.66% of the run");
    gclog_free(r);
}
END_TEST

static gclog_result *parse_ok(const char *text)
{
    gclog_result *r;
    char err[512];
    int rc = gclog_parse(&r, "inline", text, strlen(text), NULL, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    return r;
}

/* JDK 21+ safepoint lines carry Cleanup, Leaving and Threads fields; the
 * Total is still the pause. timemillis (>= 10^12 ms) is the wall clock,
 * timed from the first stamp. */
START_TEST(inline_variants)
{
    gclog_result *r = parse_ok(
        "[1772441700000ms][info][gc] Using G1\n"
        "[1772441702000ms][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 48521900 ns, "
        "Reaching safepoint: 4700 ns, Cleanup: 34865 ns, At safepoint: 496200 ns, Leaving safepoint: 2100 ns, "
        "Total: 503000 ns, Threads: 0 runnable, 11 total\n");
    static const int64_t w[] = {1999497000, 2000000000};
    expect_windows(r, w, 1);
    gclog_free(r);
    /* utctime with a UTC offset, uptime missing */
    r = parse_ok("[2026-03-02T08:15:00.000+0000][info][gc] Using G1\n"
                 "[2026-03-02T09:15:02.000+0100][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) "
                 "24M->3M(256M) 2.000ms\n");
    static const int64_t u[] = {1998000000, 2000000000};
    expect_windows(r, u, 1);
    gclog_free(r);
    /* a decimal-comma locale in unified logging too */
    r = parse_ok("[0,011s][info][gc] Using G1\n"
                 "[1,259s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 7,105ms\n");
    static const int64_t dc[] = {1251895000, 1259000000};
    expect_windows(r, dc, 1);
    gclog_free(r);
    /* unknown text */
    char err[256];
    const char *junk = "hello\nworld\n";
    ck_assert_int_eq(gclog_parse(&r, "junk.txt", junk, strlen(junk), NULL, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "junk.txt: not a log cosim reads pauses from (JDK 9+ unified logging, JDK 8 "
                          "-XX:+PrintGCDetails, Go gctrace, HdrHistogram interval log)");
    gclog_options o;
    gclog_options_default(&o);
    o.scale = 0;
    ck_assert_int_eq(gclog_parse(&r, "x", junk, strlen(junk), &o, err, sizeof err), -EINVAL);
    gclog_free(NULL);
}
END_TEST

/* The summary speaks of the run: a 10 s run, a 100 ms pause [5.0, 5.1) s
 * and a 3 s pause [47, 50) s. The run was paused 100 ms (1.00%), the
 * longest 100 ms; the 3 s pause is after the run, counted apart (main
 * said "paused 3100 ms ... 1.00% of the run"). A pause across the end
 * counts up to the end: [9.9, 10.2) s in the run of 10 s is 100 ms. */
START_TEST(summary_speaks_of_the_run)
{
    gclog_result *r = parse_ok("[0.010s][info][gc] Using G1\n"
                               "[5.100s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) "
                               "100.000ms\n"
                               "[50.000s][info][gc] GC(1) Pause Full (System.gc()) 24M->3M(256M) 3000.000ms\n");
    char buf[512];
    gclog_summary(r, 10 * INT64_C(1000000000), buf, sizeof buf);
    ck_assert_str_eq(buf, "JDK unified logging: 2 pauses from GC pause lines, 2 kept; paused 100.000000 ms in total, "
                          "longest 100.000000 ms, 1.00% of the run; 1 pause after the run, not used "
                          "(3000.000000 ms)");
    ck_assert_uint_eq(gclog_after_run(r, 10 * INT64_C(1000000000), NULL), 1);
    /* without a run: the whole log */
    gclog_summary(r, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "JDK unified logging: 2 pauses from GC pause lines, 2 kept; paused 3100.000000 ms in "
                          "total, longest 3000.000000 ms");
    gclog_free(r);
    r = parse_ok("[0.010s][info][gc] Using G1\n"
                 "[10.200s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 300.000ms\n");
    gclog_summary(r, 10 * INT64_C(1000000000), buf, sizeof buf);
    ck_assert_str_eq(buf, "JDK unified logging: 1 pause from GC pause lines, 1 kept; paused 100.000000 ms in total, "
                          "longest 100.000000 ms, 1.00% of the run");
    gclog_free(r);
}
END_TEST

/* The one number reader: exact values, and each kind of bad token named
 * (never a different number). 0,5 ms (a decimal comma) is 500000 ns;
 * "169134 ns" with its blank is 169134; 0.0000000005 s rounds half up to
 * 1 ns. */
START_TEST(strict_number_reader)
{
    textin_number_form len = {"the pause length", 1, textin_duration_units, 1, 0};
    int64_t v;
    char why[200];
    ck_assert_int_eq(textin_number("12.345ms", 8, &len, &v, why, sizeof why), 0);
    ck_assert_int_eq(v, 12345000);
    ck_assert_int_eq(textin_number("0,5ms", 5, &len, &v, why, sizeof why), 0);
    ck_assert_int_eq(v, 500000);
    ck_assert_int_eq(textin_number("169134 ns", 9, &len, &v, why, sizeof why), 0);
    ck_assert_int_eq(v, 169134);
    ck_assert_int_eq(textin_number("0.0000000005s", 13, &len, &v, why, sizeof why), 0);
    ck_assert_int_eq(v, 1);
    static const struct {
        const char *tok;
        int rc;
        const char *why;
    } bad[] = {
        {"-0.5ms", -EINVAL, "the pause length '-0.5ms' has a sign; it is never signed"},
        {"+5ms", -EINVAL, "the pause length '+5ms' has a sign; it is never signed"},
        {"1e5ms", -EINVAL, "the pause length '1e5ms' has an exponent; write it in plain digits"},
        {"1E-3s", -EINVAL, "the pause length '1E-3s' has an exponent; write it in plain digits"},
        {"abc0.5ms", -EINVAL, "the pause length 'abc0.5ms' has 'abc' before its digits"},
        {"NaNms", -EINVAL, "the pause length 'NaNms' is not a number"},
        {"-inf", -EINVAL, "the pause length '-inf' is not a number"},
        {"12.345", -EINVAL, "the pause length '12.345' has no unit (s, ms, us or ns)"},
        {"12.3xs", -EINVAL, "the pause length '12.3xs' has the unit 'xs', not s, ms, us or ns"},
        {"12.3.4ms", -EINVAL, "the pause length '12.3.4ms' has '.4ms' after its digits"},
        {"", -EINVAL, "the pause length is missing"},
        {"99999999999999.5s", -ERANGE,
         "the pause length '99999999999999.5s' passes cosim's limit of 2^63 - 1 ns (about 292 years)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(textin_number(bad[i].tok, strlen(bad[i].tok), &len, &v, why, sizeof why), bad[i].rc);
        ck_assert_str_eq(why, bad[i].why);
    }
    /* a bare number where none takes a unit: seconds scaled */
    textin_number_form secs = {"the interval's start", 0, NULL, 0, 1000000000};
    ck_assert_int_eq(textin_number("1.5", 3, &secs, &v, why, sizeof why), 0);
    ck_assert_int_eq(v, 1500000000);
    ck_assert_int_eq(textin_number("1.5s", 4, &secs, &v, why, sizeof why), -EINVAL);
    ck_assert_str_eq(why, "the interval's start '1.5s' has 's' after its digits");
}
END_TEST

/* strict = 0 reads on past a record that cannot be read, with a warning
 * naming its line; the line is counted as skipped. */
START_TEST(strict_false_skips_and_names)
{
    const char *text = "[0.010s][info][gc] Using G1\n"
                       "[1.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 5.0\n"
                       "[2.000s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 2.000ms\n"
                       "application says hello\n";
    gclog_options o;
    gclog_options_default(&o);
    gclog_result *r;
    char err[512];
    ck_assert_int_eq(gclog_parse(&r, "s.log", text, strlen(text), &o, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "s.log:2: the pause length '5.0' has no unit (s, ms, us or ns)");
    o.strict = 0;
    ck_assert_int_eq(gclog_parse(&r, "s.log", text, strlen(text), &o, err, sizeof err), 0);
    static const int64_t w[] = {1998000000, 2000000000};
    expect_windows(r, w, 1);
    ck_assert_uint_eq(r->n_warnings, 1);
    ck_assert_str_eq(r->warnings[0], "s.log:2: skipped (strict = false): the pause length '5.0' has no unit (s, ms, "
                                     "us or ns)");
    ck_assert_uint_eq(r->lines.records, 1);
    ck_assert_uint_eq(r->lines.known, 1);
    ck_assert_uint_eq(r->lines.skipped, 1);
    ck_assert_uint_eq(r->lines.unknown, 1);
    ck_assert_uint_eq(r->lines.first_unknown[0], 4);
    gclog_free(r);
}
END_TEST


Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("gclog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, g1_jdk17_pause_lines_end_stamped);
    tcase_add_test(tc, parallel_uptimemillis);
    tcase_add_test(tc, shenandoah_uptimenanos);
    tcase_add_test(tc, zgc_skips_debug_subphases);
    tcase_add_test(tc, zgc_generational_interleaved);
    tcase_add_test(tc, safepoint_lines_preferred);
    tcase_add_test(tc, stopped_time_lines_and_merge);
    tcase_add_test(tc, wall_clock_only);
    tcase_add_test(tc, jdk8_start_and_end_stamps);
    tcase_add_test(tc, jdk8_cms_multiline_and_concurrent);
    tcase_add_test(tc, jdk8_decimal_comma);
    tcase_add_test(tc, jdk8_g1);
    tcase_add_test(tc, go_gctrace_first_and_third_phases);
    tcase_add_test(tc, hlog_interval_maxima);
    tcase_add_test(tc, options_window_offset_min_scale);
    tcase_add_test(tc, errors_name_file_and_line);
    tcase_add_test(tc, inline_variants);
    tcase_add_test(tc, scenario_sample_g1);
    tcase_add_test(tc, pauses_at_the_log_start);
    tcase_add_test(tc, summary_speaks_of_the_run);
    tcase_add_test(tc, strict_number_reader);
    tcase_add_test(tc, strict_false_skips_and_names);
    suite_add_tcase(s, tc);
    return s;
}
