/* sweep.c - a scenario over a grid of values and seeds: the points, their
 * scenarios and estimates, the statistics and the files (the axes are
 * sweep_axis.c, the worker processes sweep_workers.c). */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"
#include "exitcode.h"
#include "levels.h"
#include "run.h"
#include "scenario.h"
#include "stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The figures kept per tester and run; durations in ns. The percentiles
 * (SWEEP_M_P50 .. SWEEP_M_P999) are the LEVELS_SWEEP levels, named
 * "LABEL_ms" in sweep.csv. */
static const char *const metric_names[SWEEP_N_METRICS] = {"sent", "recorded", "mean_ms", [SWEEP_M_MAX] = "max_ms"};

/* The values of each axis for point p (the last axis varies fastest). */
void sweep_point_values(const sweep *w, size_t p, size_t *idx)
{
    for (size_t a = w->n_axes; a-- > 0;) {
        idx[a] = p % w->axes[a].n_values;
        p /= w->axes[a].n_values;
    }
}

scenario_error sweep_load_task(const sweep *w, size_t t, scenario **out, char *err, size_t errlen)
{
    size_t p = t / w->reps, r = t % w->reps, idx[8];
    sweep_point_values(w, p, idx);
    const char *sets[SWEEP_MAX_SETS + 9];
    /* key (< 128) = value (< 128): these fit, nothing is cut */
    char bufs[9][sizeof w->axes[0].key + 160];
    size_t n = 0;
    for (size_t i = 0; i < w->n_user_sets; i++)
        sets[n++] = w->user_sets[i];
    for (size_t a = 0; a < w->n_axes; a++) {
        snprintf(bufs[a], sizeof bufs[a], "%s=%s", w->axes[a].key, w->axes[a].values[idx[a]]);
        sets[n++] = bufs[a];
    }
    if (w->seed_set || r > 0) {
        /* replication r runs seed + r: deterministic, and r = 0 is the base
         * (w->seed: --seed, or the scenario's own, read once by sweep_check_points) */
        snprintf(bufs[8], sizeof bufs[8], "scenario.seed=%llu", (unsigned long long)(w->seed + r));
        sets[n++] = bufs[8];
    }
    return scenario_load(out, w->path, sets, n, err, errlen);
}

/* mean and the half-width of its 95% confidence interval over the reps */
void sweep_mean_ci(const sweep *w, size_t p, size_t i, int m, double *mean, double *ci)
{
    /* replication r's value at [p reps + r][i][m]: a stride of testers x metrics */
    stats_mean_t95(&w->res[((p * w->reps) * w->n_testers + i) * SWEEP_N_METRICS + (size_t)m], w->reps,
                   w->n_testers * SWEEP_N_METRICS, mean, ci);
}

/* Whether tester i recorded samples at point p in every replication: its
 * latency figures exist (otherwise they are left empty, never 0). */
int sweep_has_samples(const sweep *w, size_t p, size_t i)
{
    for (size_t r = 0; r < w->reps; r++)
        if (w->res[(((p * w->reps) + r) * w->n_testers + i) * SWEEP_N_METRICS + SWEEP_M_RECORDED] <= 0)
            return 0;
    return 1;
}

/* sweep.csv: one row per point and tester. A field with no value is empty:
 * a _ci95 with one replication, and every latency field (mean_ms .. max_ms
 * and their _ci95) of a point where a replication recorded no sample for
 * the tester (docs/sweeps.md). */
int sweep_write_csv(FILE *f, const sweep *w)
{
    fputs("point", f);
    for (size_t a = 0; a < w->n_axes; a++)
        fprintf(f, ",%s", w->axes[a].key);
    fputs(",tester,kind,replications", f);
    for (int m = 0; m < SWEEP_N_METRICS; m++) {
        char name[32];
        if (m >= SWEEP_M_P50 && m <= SWEEP_M_P999)
            snprintf(name, sizeof name, "%s_ms", levels_nth(LEVELS_SWEEP, (size_t)(m - SWEEP_M_P50))->label);
        else
            snprintf(name, sizeof name, "%s", metric_names[m]);
        fprintf(f, ",%s,%s_ci95", name, name);
    }
    fputc('\n', f);
    for (size_t p = 0; p < w->n_points; p++) {
        if (p % w->n_shards != w->shard)
            continue;
        size_t idx[8];
        sweep_point_values(w, p, idx);
        for (size_t i = 0; i < w->n_testers; i++) {
            fprintf(f, "%zu", p);
            for (size_t a = 0; a < w->n_axes; a++)
                fprintf(f, ",%s", w->axes[a].values[idx[a]]);
            fprintf(f, ",%s,%s,%zu", w->names[i], tester_kind_name(w->kinds[i]), w->reps);
            int samples = sweep_has_samples(w, p, i);
            for (int m = 0; m < SWEEP_N_METRICS; m++) {
                double mean, ci;
                if (m >= SWEEP_M_MEAN && !samples) {
                    fputs(",,", f);
                    continue;
                }
                sweep_mean_ci(w, p, i, m, &mean, &ci);
                double scale = m >= SWEEP_M_MEAN ? 1e-6 : 1; /* ns -> ms */
                if (w->reps > 1)
                    fprintf(f, ",%.6f,%.6f", mean * scale, ci * scale);
                else /* one seed: no interval */
                    fprintf(f, ",%.6f,", mean * scale);
            }
            fputc('\n', f);
        }
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* The chart's data: per tester a block "x p99_ms ci p50_ms ci p99.9_ms ci"
 * along the first axis (the other axes at their first value). */
int sweep_write_chart_data(FILE *f, const sweep *w)
{
    fprintf(f, "# cosim sweep: x = %s; columns: x p99_ms p99_ci95 p50_ms p50_ci95 p99.9_ms p99.9_ci95\n",
            w->axes[0].key);
    size_t stride = 1;
    for (size_t a = 1; a < w->n_axes; a++)
        stride *= w->axes[a].n_values;
    for (size_t i = 0; i < w->n_testers; i++) {
        fprintf(f, "%s# tester %s\n", i ? "\n\n" : "", w->names[i]);
        for (size_t v = 0; v < w->axes[0].n_values; v++) {
            size_t p = v * stride;
            if (p % w->n_shards != w->shard)
                continue;
            long double x;
            double m99, c99, m50, c50, m999, c999;
            if (!sweep_has_samples(w, p, i))
                continue; /* no latency at this point: no mark, rather than 0 */
            sweep_value_number(w->axes[0].values[v], &x);
            sweep_mean_ci(w, p, i, SWEEP_M_P99, &m99, &c99);
            sweep_mean_ci(w, p, i, SWEEP_M_P50, &m50, &c50);
            sweep_mean_ci(w, p, i, SWEEP_M_P999, &m999, &c999);
            fprintf(f, "%.17Lg %.6f %.6f %.6f %.6f %.6f %.6f\n", x, m99 / 1e6, c99 / 1e6, m50 / 1e6,
                    c50 / 1e6, m999 / 1e6, c999 / 1e6);
        }
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* What an error in loading a point means: an error in a value we set for
 * --vary is the command line's (2), else the scenario's (3). Prints it. */
static int point_error(const sweep *w, const char *err)
{
    for (size_t a = 0; a < w->n_axes; a++) {
        char prefix[200];
        snprintf(prefix, sizeof prefix, "--set %s=", w->axes[a].key);
        if (strncmp(err, prefix, strlen(prefix)) == 0) {
            const char *why = strstr(err, ": ");
            fprintf(stderr, "cosim: sweep: --vary %s: %s\n", w->axes[a].key, why ? why + 2 : err);
            return COSIM_EXIT_USAGE;
        }
    }
    fprintf(stderr, "cosim: %s\n", err);
    return COSIM_EXIT_SCENARIO;
}

/* Load every point of the shard (its first replication: the seed changes
 * nothing in the estimate), keep its run_estimate in w->work, and refuse
 * the sweep over RUN_WORK_BUDGET. 0, or an exit status with the message
 * printed (2 or 3: a point does not load; 5: the budget, memory). */
int sweep_estimate(sweep *w)
{
    w->work = calloc(w->n_points, sizeof *w->work);
    if (!w->work) {
        fprintf(stderr, "cosim: sweep: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    double total = 0;
    size_t n = 0;
    for (size_t p = w->shard; p < w->n_points; p += w->n_shards) {
        scenario *s;
        char lerr[1024];
        if (sweep_load_task(w, p * w->reps, &s, lerr, sizeof lerr) != SCENARIO_OK)
            return point_error(w, lerr);
        run_work rw;
        run_estimate(s, &rw);
        scenario_free(s);
        /* and the cost of loading and setting up each run */
        w->work[p] = rw.total + SWEEP_RUN_SETUP_WORK;
        total += w->work[p] * (double)w->reps;
        n++;
    }
    char what[96];
    snprintf(what, sizeof what, "%zu point%s x %zu replication%s", n, n == 1 ? "" : "s", w->reps,
             w->reps == 1 ? "" : "s");
    char msg[768];
    if (run_check_budget(total, what, w->allow_long, msg, sizeof msg)) {
        fprintf(stderr, "cosim: sweep: %s\n", msg);
        return COSIM_EXIT_SIM;
    }
    return 0;
}

/* The scenario's base seed, then the first and the last point must load:
 * a bad key fails fast. 0 with *last (the last point's scenario, to
 * free), or the exit code after a message. */
int sweep_check_points(sweep *w, scenario **last)
{
    char err[1200];
    scenario *s;
    *last = NULL;
    if (!w->seed_set) { /* the base seed of the replications: the scenario's */
        scenario_error se = scenario_load(&s, w->path, w->user_sets, w->n_user_sets, err, sizeof err);
        if (se != SCENARIO_OK) {
            fprintf(stderr, "cosim: %s\n", err);
            return (int)cosim_exit_of_scenario(se);
        }
        w->seed = s->seed;
        scenario_free(s);
    }
    if (run_check_seeds(w->seed, w->reps, err, sizeof err)) {
        fprintf(stderr, "cosim: sweep: %s\n", err);
        return 2;
    }
    for (int pass = 0; pass < 2; pass++) {
        scenario_error se = sweep_load_task(w, pass ? 0 : w->n_tasks - 1, &s, err, sizeof err);
        if (se == SCENARIO_OK) {
            if (!pass)
                scenario_free(s);
            else
                *last = s;
            continue;
        }
        /* an error in a value we set for --vary is the command line's */
        int rc = point_error(w, err);
        return rc == COSIM_EXIT_SCENARIO ? (int)cosim_exit_of_scenario(se) : rc;
    }
    return 0;
}


void sweep_free(sweep *w)
{
    for (size_t a = 0; a < w->n_axes; a++)
        sweep_axis_free(&w->axes[a]);
    free(w->res);
    free(w->work);
    free(w->names);
    free(w->kinds);
    w->n_axes = 0;
    w->res = w->work = NULL;
    w->names = NULL;
    w->kinds = NULL;
}
