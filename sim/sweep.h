/* sweep.h - run a scenario over a grid of values and seeds (cosim sweep).
 *
 * A sweep varies scenario keys over ranges (--vary KEY=FROM..TO:STEPS for
 * linear steps, KEY=FROM..TO*FACTOR for geometric ones), runs each point
 * with N seeds derived from the base seed (seed + r), and reports per point
 * and tester the mean over the seeds of each percentile with a 95%
 * confidence interval (Student's t: mean +- t(0.975, N-1) sd / sqrt(N)).
 * Points run in worker processes (--jobs); every result is put back in
 * point order, so the files are the same whatever the number of workers.
 */
#ifndef COSIM_SWEEP_H
#define COSIM_SWEEP_H

#include "scenario.h"
#include "tester.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** One --vary: the key and its values as scenario text. */
typedef struct sweep_axis {
    char key[128];       /**< SECTION.KEY, as for --set */
    char **values;       /**< the values, each with its unit */
    size_t n_values;
} sweep_axis;

/**
 * Parse "KEY=FROM..TO:STEPS" (STEPS >= 2 values, evenly spaced) or
 * "KEY=FROM..TO*FACTOR" (FROM, FROM x FACTOR, ... up to TO). FROM and TO
 * carry the same unit ("100/s..900/s:5", "1ms..64ms*2").
 *
 * @param err  on error, a message naming what to fix
 * @return 0 or -EINVAL.
 */
int sweep_axis_parse(const char *text, sweep_axis *out, char *err, size_t errlen);

/** Free an axis's values. */
void sweep_axis_free(sweep_axis *a);

/** Most --set of a sweep. */
#define SWEEP_MAX_SETS 48
/** Most --vary of a sweep. */
#define SWEEP_MAX_AXES 8
/** The longest unit of a --vary value ("ms", "/s"). */
#define SWEEP_UNIT_MAX 31

/** The most points a sweep may have (all --vary together). */
#define SWEEP_MAX_POINTS 100000
/** Work units counted per run for loading the scenario and setting up (a
 *  scenario load costs about as much as a thousand simulated requests). */
#define SWEEP_RUN_SETUP_WORK 1000.0

/** The figures kept per tester and run; durations in ns. */
enum sweep_metric {
    SWEEP_M_SENT, SWEEP_M_RECORDED, SWEEP_M_MEAN, SWEEP_M_P50, SWEEP_M_P90, SWEEP_M_P99, SWEEP_M_P999,
    SWEEP_M_MAX, SWEEP_N_METRICS
};

/** A sweep: what the command line asked (path .. allow_long, filled by the
 *  caller, e.g. cli/sweep_cli.c) and what the runs gave (work .. kinds,
 *  filled here). Points are numbered with the last axis varying fastest;
 *  task t is point t / reps, replication t % reps (seed + replication). */
typedef struct sweep {
    const char *path; /**< the scenario file */
    sweep_axis axes[SWEEP_MAX_AXES];
    size_t n_axes;
    size_t n_points, reps, n_tasks; /**< n_points x reps = n_tasks */
    size_t n_testers;                /**< set by the caller from the scenario */
    const char **user_sets;
    size_t n_user_sets;
    uint64_t seed;
    int seed_set;
    unsigned jobs;
    unsigned shard, n_shards;
    int allow_long;   /* --allow-long: no work budget */
    double *work;     /* [point]: the estimate of one run (run_estimate) */
    double *res;      /* [task][tester][metric] */
    char (*names)[48];  /**< [tester], set by the caller */
    tester_kind *kinds; /**< [tester], set by the caller */
} sweep;


/** The value index of each axis at point p (idx: n_axes entries). */
void sweep_point_values(const sweep *w, size_t p, size_t *idx);

/**
 * Load the scenario of task t (point t / reps, replication t % reps): the
 * user's --set, the point's values as --set KEY=VALUE, and the
 * replication's seed (w->seed + r) when --seed was given or r > 0.
 *
 * @param out  the scenario (scenario_free it) on SCENARIO_OK
 * @param err  the message on failure (errlen bytes)
 * @return scenario_load's result
 */
scenario_error sweep_load_task(const sweep *w, size_t t, scenario **out, char *err, size_t errlen);

/**
 * Read the scenario's base seed (unless w->seed_set), then load the first
 * and the last point, so a bad key fails before any run.
 *
 * @param last  the last point's scenario (free it), NULL on failure
 * @return 0, or a cosim_exit code after a message on stderr
 *         (COSIM_EXIT_USAGE for a bad --vary value or --set).
 */
int sweep_check_points(sweep *w, scenario **last);

/**
 * Load every point of the shard, keep each one's estimated work in
 * w->work, and refuse the sweep over RUN_WORK_BUDGET (unless allow_long).
 * @return 0, or a cosim_exit code after a message on stderr.
 */
int sweep_estimate(sweep *w);

/**
 * Run every task of the shard on w->jobs worker processes (each dies with
 * the parent) and gather the results in w->res (w->n_testers, w->res must
 * be set). The first failure stops the other workers.
 * @return 0, or COSIM_EXIT_SCENARIO / COSIM_EXIT_SIM with err (naming the
 *         points left without a result).
 */
int sweep_run_workers(sweep *w, char *err, size_t errlen);

/**
 * The mean over the replications of metric m (enum sweep_metric) of
 * tester i at point p, and the half-width of its 95% confidence interval
 * (stats_mean_t95; 0 with one replication).
 */
void sweep_mean_ci(const sweep *w, size_t p, size_t i, int m, double *mean, double *ci);

/** 1 if tester i recorded samples at point p in every replication. */
int sweep_has_samples(const sweep *w, size_t p, size_t i);

/** sweep.csv (docs/sweeps.md). @return 0 or -EIO. */
int sweep_write_csv(FILE *f, const sweep *w);

/** sweep.dat: per tester, p99/p50/p99.9 with intervals along the first
 *  axis. @return 0 or -EIO. */
int sweep_write_chart_data(FILE *f, const sweep *w);

/**
 * The number of an axis value ("250us" -> 250, "0.5" -> 0.5), by the one
 * number grammar (units.h).
 * @return 0, or -1 when value is not a number with a unit
 */
int sweep_value_number(const char *value, long double *x);

/** The unit of axis a's values ("" for plain numbers) into unit. */
void sweep_axis_unit(const sweep_axis *a, char *unit, size_t len);

/** Free what w owns (axes, results); the caller's strings stay. */
void sweep_free(sweep *w);

#endif
