/* Tests of sweep (sim/run/sweep.c, sweep_axis.c, sweep_workers.c): the values
 * of an axis, the points of a grid and of a zip, the chart's blocks and
 * x values, the offered utilisation, the confidence bar's lower end, and
 * the exit code of a point that does not load, on the worker's line too.
 * Every expected value is worked out by hand in the comment beside it. */
#define _POSIX_C_SOURCE 200809L
#include "exitcode.h"
#include "scenario.h"
#include "sweep.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Suite *test_suite(void);

static char path_buf[4096];

/* scenarios/NAME under the source root (meson sets COSIM_SOURCE_ROOT). */
static const char *scenario_path(const char *name)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    snprintf(path_buf, sizeof path_buf, "%s/scenarios/%s", root ? root : ".", name);
    return path_buf;
}

static void sweep_init(sweep *w)
{
    memset(w, 0, sizeof *w);
    w->reps = 1;
    w->jobs = 1;
    w->n_shards = 1;
}

/* Add --vary (zipped 0) or --zip (1) text; it must be accepted. */
static void add(sweep *w, const char *text, int zipped)
{
    char err[1200] = "";
    ck_assert_msg(sweep_add_axis(w, text, zipped, err, sizeof err) == 0, "%s: %s", text, err);
}

/* The message of an axis that must be refused. */
static const char *refused(sweep *w, const char *text, int zipped)
{
    static char err[1200];
    ck_assert_int_eq(sweep_add_axis(w, text, zipped, err, sizeof err), -EINVAL);
    return err;
}

static void values_are(const sweep_axis *a, const char *const *want, size_t n)
{
    ck_assert_uint_eq(a->n_values, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(a->values[i], want[i]);
}

START_TEST(axis_values)
{
    sweep w;
    sweep_init(&w);
    /* 100 + (900 - 100) i / 4: 100, 300, 500, 700, 900 */
    add(&w, "tester.open.rate=100/s..900/s:5", 0);
    static const char *const lin[] = {"100/s", "300/s", "500/s", "700/s", "900/s"};
    values_are(&w.axes[0], lin, 5);
    /* 1 x 2^i up to 64: seven values */
    add(&w, "stall.request90.extra=1ms..64ms*2", 0);
    static const char *const geo[] = {"1ms", "2ms", "4ms", "8ms", "16ms", "32ms", "64ms"};
    values_are(&w.axes[1], geo, 7);
    /* a list: as written, in its order, blanks around a value dropped */
    add(&w, "tester.closed.users=4, 1 ,2", 0);
    static const char *const list[] = {"4", "1", "2"};
    values_are(&w.axes[2], list, 3);
    /* 0.1 + 0.2 i / 2 with 6 more decimals: 0.1, 0.2, 0.3 */
    add(&w, "service.sigma=0.1..0.3:3", 0);
    static const char *const dec[] = {"0.1", "0.2", "0.3"};
    values_are(&w.axes[3], dec, 3);
    sweep_free(&w);
}
END_TEST

START_TEST(axis_errors)
{
    sweep w;
    sweep_init(&w);
    ck_assert_str_eq(refused(&w, "tester.open.rate=50/s,80ms", 0),
                     "--vary tester.open.rate=50/s,80ms: value 2 of 2: every value takes the unit of the first");
    ck_assert_str_eq(refused(&w, "tester.open.rate=50/s,,80/s", 0),
                     "--vary tester.open.rate=50/s,,80/s: value 2 of 3: an empty value");
    ck_assert_str_eq(refused(&w, "tester.open.rate=50/s,0.5ns/s", 0),
                     "--vary tester.open.rate=50/s,0.5ns/s: value 2 of 2: every value takes the unit of the first");
    ck_assert_str_eq(refused(&w, "rate", 0),
                     "--vary rate: expected KEY=FROM..TO:STEPS, KEY=FROM..TO*FACTOR or KEY=V1,V2,..., "
                     "e.g. --vary tester.open.rate=100/s..900/s:5");
    /* a --zip needs a --vary before it, with as many values */
    ck_assert_str_eq(refused(&w, "tester.closed.users=1,2", 1),
                     "--zip tester.closed.users=1,2: no --vary before it to move with; give the --vary first");
    add(&w, "tester.open.rate=100/s..300/s:3", 0);
    ck_assert_str_eq(refused(&w, "tester.closed.users=1,2", 1),
                     "--zip tester.closed.users=1,2: 2 values, but --vary tester.open.rate has 3; a --zip key takes "
                     "one value for each value of the --vary it moves with");
    ck_assert_str_eq(refused(&w, "tester.closed.users=1..4:4", 1),
                     "--zip tester.closed.users=1..4:4: 4 values, but --vary tester.open.rate has 3; a --zip key "
                     "takes one value for each value of the --vary it moves with");
    ck_assert_str_eq(refused(&w, "tester.open.rate=1/s,2/s,3/s", 1),
                     "--zip tester.open.rate given twice; vary a key once");
    ck_assert_str_eq(refused(&w, "tester.closed.users=1..2:x", 1),
                     "--zip tester.closed.users=1..2:x: STEPS is a whole number from 2 to 10000");
    ck_assert_uint_eq(w.n_axes, 1);
    sweep_free(&w);
}
END_TEST

START_TEST(grid_points)
{
    sweep w;
    sweep_init(&w);
    w.reps = 2;
    add(&w, "tester.open.rate=100/s..300/s:3", 0);
    add(&w, "stall.request90.extra=10ms,20ms", 0);
    char err[400];
    ck_assert_int_eq(sweep_size(&w, err, sizeof err), 0);
    /* 3 x 2 points, 2 replications each */
    ck_assert_uint_eq(w.n_points, 6);
    ck_assert_uint_eq(w.n_tasks, 12);
    ck_assert_uint_eq(w.jobs, 1);
    /* the last axis fastest: p = 3 is (rate 1, extra 1) = 200/s, 20ms */
    static const size_t want[6][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}};
    for (size_t p = 0; p < 6; p++) {
        size_t idx[SWEEP_MAX_AXES];
        sweep_point_values(&w, p, idx);
        ck_assert_uint_eq(idx[0], want[p][0]);
        ck_assert_uint_eq(idx[1], want[p][1]);
    }
    /* the chart: x along the rate, one combination per extra value; point
     * (v = 2, c = 1) = 2 x 2 + 1 = 5 */
    ck_assert_uint_eq(sweep_point_at(&w, 2, 1), 5);
    char text[200];
    ck_assert_str_eq(sweep_combo_text(&w, 1, text, sizeof text), "stall.request90.extra=20ms");
    sweep_free(&w);
}
END_TEST

START_TEST(zip_points)
{
    sweep w;
    sweep_init(&w);
    /* every tester's rate at once, and a grid with the stall's length */
    add(&w, "tester.open.rate=100/s..300/s:3", 0);
    add(&w, "tester.paced.rate=50/s,150/s,250/s", 1);
    add(&w, "stall.freeze.length=10ms,50ms", 0);
    add(&w, "stall.freeze.period=1s,2s", 1);
    char err[400];
    ck_assert_int_eq(sweep_size(&w, err, sizeof err), 0);
    /* a --zip adds no points: 3 x 2 */
    ck_assert_uint_eq(w.n_points, 6);
    /* point 3 = rate index 1, length index 1: 200/s with 150/s, 50ms with 2s */
    size_t idx[SWEEP_MAX_AXES];
    sweep_point_values(&w, 3, idx);
    ck_assert_str_eq(w.axes[0].values[idx[0]], "200/s");
    ck_assert_str_eq(w.axes[1].values[idx[1]], "150/s");
    ck_assert_str_eq(w.axes[2].values[idx[2]], "50ms");
    ck_assert_str_eq(w.axes[3].values[idx[3]], "2s");
    /* point 4 = rate index 2, length index 0: 300/s with 250/s, 10ms with 1s */
    sweep_point_values(&w, 4, idx);
    ck_assert_str_eq(w.axes[1].values[idx[1]], "250/s");
    ck_assert_str_eq(w.axes[3].values[idx[3]], "1s");
    /* the chart's combinations name the other dimension with its zip, not
     * the keys that move along x */
    char text[200];
    ck_assert_str_eq(sweep_combo_text(&w, 1, text, sizeof text), "stall.freeze.length=50ms, stall.freeze.period=2s");
    sweep_free(&w);
}
END_TEST

START_TEST(grid_too_big)
{
    sweep w;
    sweep_init(&w);
    add(&w, "tester.open.rate=1/s..10000/s:10000", 0);
    add(&w, "stall.request90.extra=1ms..1000ms:1000", 0);
    add(&w, "tester.closed.users=1..1000:1000", 1); /* a zip: still 10^7 points */
    char err[400];
    ck_assert_int_eq(sweep_size(&w, err, sizeof err), -E2BIG);
    ck_assert_str_eq(err, "the --vary grid has 10000000 points (10000 x 1000), more than the 100000 a sweep may have; "
                          "split it into several sweeps");
    sweep_free(&w);
}
END_TEST

START_TEST(affected_testers)
{
    sweep w;
    sweep_init(&w);
    add(&w, "tester.open.rate=100/s,200/s", 0);
    /* each tester on its own server: the open rate changes open alone */
    ck_assert_int_eq(sweep_affects(&w, "open"), 1);
    ck_assert_int_eq(sweep_affects(&w, "closed"), 0);
    ck_assert_int_eq(sweep_affects(&w, "ope"), 0); /* a name's prefix is not the name */
    add(&w, "tester.paced.rate=100/s,200/s", 1);
    ck_assert_int_eq(sweep_affects(&w, "paced"), 1);
    ck_assert_int_eq(sweep_affects(&w, "closed"), 0);
    add(&w, "truth.interval=1ms,2ms", 1); /* the truth has its own run */
    ck_assert_int_eq(sweep_affects(&w, "closed"), 0);
    add(&w, "service.time=1ms,2ms", 0); /* the server: every tester */
    ck_assert_int_eq(sweep_affects(&w, "closed"), 1);
    sweep_free(&w);
}
END_TEST

START_TEST(utilisation)
{
    scenario *s;
    char err[1024];
    /* M/M/1: 800/s x 1 ms / 1 worker = 0.8 */
    ck_assert_int_eq(scenario_load(&s, scenario_path("mm1_rho08.ini"), NULL, 0, err, sizeof err), SCENARIO_OK);
    ck_assert_double_eq_tol(sweep_utilisation(s, 0), 0.8, 1e-12);
    scenario_free(s);
    /* M/M/4: 3200/s x 1 ms / 4 workers = 0.8 */
    ck_assert_int_eq(scenario_load(&s, scenario_path("mm4_rho08.ini"), NULL, 0, err, sizeof err), SCENARIO_OK);
    ck_assert_double_eq_tol(sweep_utilisation(s, 0), 0.8, 1e-12);
    scenario_free(s);
    /* one_stall: open 100/s x 7 ms = 0.7; closed has no rate */
    ck_assert_int_eq(scenario_load(&s, scenario_path("one_stall.ini"), NULL, 0, err, sizeof err), SCENARIO_OK);
    ck_assert_double_eq_tol(sweep_utilisation(s, 0), 0.7, 1e-12);
    ck_assert_double_eq(sweep_utilisation(s, 1), -1);
    scenario_free(s);
}
END_TEST

START_TEST(bar_never_below_zero)
{
    ck_assert_double_eq(sweep_bar_low(5, 7), 0);   /* 5 - 7 < 0: 0 */
    ck_assert_double_eq(sweep_bar_low(5, 2), 3);   /* 5 - 2 */
    ck_assert_double_eq(sweep_bar_low(0.5, 0.5), 0);
    ck_assert_double_eq(sweep_bar_low(0, 0), 0);
}
END_TEST

/* A sweep of one axis "1ms,2ms" over testers a and b, two replications,
 * with the results filled by hand: [task][tester][metric]. */
static void fake_results(sweep *w)
{
    sweep_init(w);
    w->reps = 2;
    add(w, "service.time=1ms,2ms", 0);
    char err[400];
    ck_assert_int_eq(sweep_size(w, err, sizeof err), 0);
    w->n_testers = 2;
    w->names = calloc(2, sizeof *w->names);
    w->affected = calloc(2, 1);
    w->res = calloc(w->n_tasks * 2 * SWEEP_N_METRICS, sizeof *w->res);
    ck_assert(w->names && w->affected && w->res);
    strcpy(w->names[0], "a");
    strcpy(w->names[1], "b");
    w->affected[0] = w->affected[1] = 1;
    for (size_t t = 0; t < w->n_tasks; t++)
        for (size_t i = 0; i < 2; i++) {
            double *m = &w->res[(t * 2 + i) * SWEEP_N_METRICS];
            m[SWEEP_M_SENT] = m[SWEEP_M_RECORDED] = 100;
            /* p99 at point 0: 4 ms and 6 ms; at point 1: 10 ms both */
            m[SWEEP_M_P99] = t < 2 ? (t == 0 ? 4e6 : 6e6) : 10e6;
            m[SWEEP_M_P50] = 1e6;
            m[SWEEP_M_P999] = 20e6;
        }
}

static char *chart_data(const sweep *w)
{
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(sweep_write_chart_data(f, w), 0);
    fclose(f);
    return buf;
}

START_TEST(chart_rows)
{
    sweep w;
    fake_results(&w);
    char *d = chart_data(&w);
    /* point 0: mean (4 + 6) / 2 = 5 ms, sd = sqrt(2) ms, half-width
     * t(0.975, 1) sd / sqrt(2) = 12.706205 ms: the bar runs from 0 (not
     * 5 - 12.706 = -7.706) to 17.706205; point 1: 10 ms, no spread */
    ck_assert_msg(strstr(d, "# tester a\n1 5.000000 12.706205 1.000000 0.000000 20.000000 0.000000 0.000000 17.706205\n"
                            "2 10.000000 0.000000 1.000000 0.000000 20.000000 0.000000 10.000000 10.000000\n"),
                  "%s", d);
    free(d);
    /* x as the offered utilisation: a's own (0.25, 0.5); b has no rate and
     * takes a's at the same point */
    w.x = SWEEP_X_UTILISATION;
    double rho[4] = {0.25, -1, 0.5, -1};
    w.rho = malloc(sizeof rho);
    memcpy(w.rho, rho, sizeof rho);
    d = chart_data(&w);
    ck_assert_msg(strncmp(d, "# cosim sweep: x = offered utilisation;", 39) == 0, "%s", d);
    ck_assert_msg(strstr(d, "# tester b\n0.25 5.000000") && strstr(d, "\n0.5 10.000000"), "%s", d);
    free(d);
    sweep_free(&w);
}
END_TEST

START_TEST(grid_blocks)
{
    sweep w;
    sweep_init(&w);
    add(&w, "tester.a.rate=1/s,2/s", 0);
    add(&w, "tester.a.users=1,2,3", 0);
    w.n_testers = 2;
    w.affected = calloc(2, 1);
    w.affected[0] = 1; /* a varies, b does not */
    sweep_blocks bl;
    ck_assert_int_eq(sweep_chart_blocks(&w, &bl), 0);
    /* a: one block per users value (3), b: one */
    ck_assert_uint_eq(bl.stride, 3);
    ck_assert_uint_eq(bl.n, 4);
    ck_assert_uint_eq(bl.tester[2], 0);
    ck_assert_uint_eq(bl.combo[2], 2);
    ck_assert_uint_eq(bl.tester[3], 1);
    ck_assert_uint_eq(bl.combo[3], 0);
    sweep_blocks_free(&bl);
    sweep_free(&w);
}
END_TEST

/* one_stall with users = 1, 1.5, 2: the middle value is the --vary's fault */
static void users_sweep(sweep *w)
{
    sweep_init(w);
    w->path = scenario_path("one_stall.ini");
    add(w, "tester.closed.users=1..2:3", 0);
    char err[400];
    ck_assert_int_eq(sweep_size(w, err, sizeof err), 0);
}

START_TEST(error_codes)
{
    sweep w;
    users_sweep(&w);
    scenario *s;
    char err[1024], msg[1600];
    int from_vary;
    scenario_error se = sweep_load_task(&w, 1, &s, err, sizeof err);
    ck_assert_int_ne(se, SCENARIO_OK);
    ck_assert_int_eq(sweep_load_failure(&w, 1, se, err, msg, sizeof msg, &from_vary), COSIM_EXIT_USAGE);
    ck_assert_int_eq(from_vary, 1);
    ck_assert_str_eq(msg, "--vary tester.closed.users: [tester closed] users = 1.5: expected a whole number (digits "
                          "only)");
    /* the same point with a --set that is itself wrong: that --set's
     * error (exit 2, a value of the command line), whatever the --vary
     * value */
    const char *bad[] = {"tester.closed.think=5"};
    w.user_sets = bad;
    w.n_user_sets = 1;
    se = sweep_load_task(&w, 1, &s, err, sizeof err);
    ck_assert_int_ne(se, SCENARIO_OK);
    ck_assert_int_eq(sweep_load_failure(&w, 1, se, err, msg, sizeof msg, &from_vary), COSIM_EXIT_USAGE);
    ck_assert_int_eq(from_vary, 0);
    /* a missing scenario: exit 3 */
    w.user_sets = NULL;
    w.n_user_sets = 0;
    w.path = "/nonexistent/x.ini";
    se = sweep_load_task(&w, 0, &s, err, sizeof err);
    ck_assert_int_eq(sweep_load_failure(&w, 0, se, err, msg, sizeof msg, &from_vary), COSIM_EXIT_SCENARIO);
    ck_assert_int_eq(from_vary, 0);
    sweep_free(&w);
}
END_TEST

START_TEST(worker_carries_code)
{
    /* the middle point fails in a worker: its line carries exit code 2
     * (a --vary value), and the parent returns it as it is */
    sweep w;
    users_sweep(&w);
    w.n_testers = 2;
    w.work = calloc(w.n_points, sizeof *w.work);
    w.res = calloc(w.n_tasks * 2 * SWEEP_N_METRICS, sizeof *w.res);
    ck_assert(w.work && w.res);
    char err[2048];
    ck_assert_int_eq(sweep_run_workers(&w, err, sizeof err), COSIM_EXIT_USAGE);
    ck_assert_msg(strncmp(err, "point 1 (tester.closed.users=1.5), replication 0: --vary tester.closed.users: "
                               "[tester closed] users = 1.5: expected a whole number (digits only)",
                          strlen("point 1 (tester.closed.users=1.5), replication 0: --vary tester.closed.users: "
                                 "[tester closed] users = 1.5: expected a whole number (digits only)")) == 0,
                  "%s", err);
    sweep_free(&w);
}
END_TEST

/* sweep.shard written then read gives back every field, the percent-encoded
 * texts and every figure bit for bit. Shard 1 of 2 of 5 points x 2
 * replications holds points 1 and 3, so tasks 2, 3, 6 and 7. */
START_TEST(shard_round_trip)
{
    sweep w;
    sweep_init(&w);
    w.n_points = 5;
    w.reps = 2;
    w.n_tasks = 10;
    w.n_testers = 2;
    w.shard = 1;
    w.n_shards = 2;
    size_t per = w.n_testers * SWEEP_N_METRICS;
    double res[10 * 2 * SWEEP_N_METRICS];
    for (size_t k = 0; k < sizeof res / sizeof res[0]; k++) /* thirds and tiny values: no short decimal */
        res[k] = k % 3 == 0 ? (double)k / 3.0 : k % 3 == 1 ? 1e-300 * (double)k : 123456789.123 + (double)k;
    w.res = res;
    const char *args[] = {"--vary", "tester.open.rate=1/s,2/s", "--title", "50% load\tand a space"};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(sweep_shard_write(f, &w, "my scenario.ini", args, 4, 1873, 0xcf10e60e674f8393ull), 0);
    fclose(f);
    char path[] = "/tmp/cosim_shard_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq((int)write(fd, text, len), (int)len);
    close(fd);
    sweep_shard sh;
    char err[512];
    ck_assert_int_eq(sweep_shard_read(&sh, path, err, sizeof err), 0);
    ck_assert_str_eq(sh.version, COSIM_VERSION);
    ck_assert_uint_eq(sh.shard, 1);
    ck_assert_uint_eq(sh.n_shards, 2);
    ck_assert_str_eq(sh.scenario, "my scenario.ini");
    ck_assert_uint_eq(sh.scenario_bytes, 1873);
    ck_assert_uint_eq(sh.scenario_hash, 0xcf10e60e674f8393ull);
    ck_assert_uint_eq(sh.n_args, 4);
    for (size_t k = 0; k < 4; k++)
        ck_assert_str_eq(sh.args[k], args[k]);
    ck_assert_uint_eq(sh.n_points, 5);
    ck_assert_uint_eq(sh.reps, 2);
    ck_assert_uint_eq(sh.n_testers, 2);
    ck_assert_uint_eq(sh.n_res, 4);
    const size_t want[4] = {2, 3, 6, 7};
    for (size_t j = 0; j < 4; j++) {
        ck_assert_uint_eq(sh.task[j], want[j]);
        ck_assert_int_eq(memcmp(&sh.res[j * per], &res[want[j] * per], per * sizeof res[0]), 0);
    }
    sweep_shard_free(&sh);
    /* the texts are one token each on their lines: "50%25" and "%09" */
    ck_assert_ptr_nonnull(strstr(text, "\nscenario my%20scenario.ini\n"));
    ck_assert_ptr_nonnull(strstr(text, "\narg 50%25%20load%09and%20a%20space\n"));
    /* every cut of the file is refused, none is read as a smaller shard */
    for (size_t cut = 0; cut < len; cut++) {
        FILE *g = fopen(path, "w");
        ck_assert_ptr_nonnull(g);
        fwrite(text, 1, cut, g);
        fclose(g);
        int rc = sweep_shard_read(&sh, path, err, sizeof err);
        sweep_shard_free(&sh);
        ck_assert_msg(rc == -EINVAL, "a file cut at byte %zu of %zu read with %d (%s)", cut, len, rc, err);
    }
    unlink(path);
    ck_assert_int_eq(sweep_shard_read(&sh, path, err, sizeof err), -ENOENT);
    sweep_shard_free(&sh);
    free(text);
}
END_TEST

/* FNV-1a 64 test vectors (draft-eastlake-fnv, appendix C): "" is the
 * offset basis 0xcbf29ce484222325, "a" 0xaf63dc4c8601ec8c, "foobar"
 * 0x85944171f73967e8. */
START_TEST(shard_digest)
{
    const char *in[] = {"", "a", "foobar"};
    const uint64_t want[] = {0xcbf29ce484222325ull, 0xaf63dc4c8601ec8cull, 0x85944171f73967e8ull};
    for (size_t k = 0; k < 3; k++) {
        char path[] = "/tmp/cosim_fnv_XXXXXX";
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq((int)write(fd, in[k], strlen(in[k])), (int)strlen(in[k]));
        close(fd);
        uint64_t bytes = 99, hash = 0;
        ck_assert_int_eq(sweep_shard_digest(path, &bytes, &hash), 0);
        ck_assert_uint_eq(bytes, strlen(in[k]));
        ck_assert_uint_eq(hash, want[k]);
        unlink(path);
    }
    uint64_t b, h;
    ck_assert_int_eq(sweep_shard_digest("/nonexistent/cosim", &b, &h), -ENOENT);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, axis_values);
    tcase_add_test(tc, axis_errors);
    tcase_add_test(tc, grid_points);
    tcase_add_test(tc, zip_points);
    tcase_add_test(tc, grid_too_big);
    tcase_add_test(tc, affected_testers);
    tcase_add_test(tc, utilisation);
    tcase_add_test(tc, bar_never_below_zero);
    tcase_add_test(tc, chart_rows);
    tcase_add_test(tc, grid_blocks);
    tcase_add_test(tc, error_codes);
    tcase_add_test(tc, worker_carries_code);
    tcase_add_test(tc, shard_round_trip);
    tcase_add_test(tc, shard_digest);
    suite_add_tcase(s, tc);
    return s;
}
