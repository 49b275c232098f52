/* sweep.h - run a scenario over a grid of values and seeds (cosim sweep).
 *
 * A sweep varies scenario keys over ranges (--vary KEY=FROM..TO:STEPS for
 * linear steps, KEY=FROM..TO*FACTOR for geometric ones, KEY=V1,V2,... for
 * a list); several --vary make a grid, and a --zip key moves together with
 * the --vary before it (its i-th value with the i-th value). It runs each point
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

/** One --vary or --zip: the key and its values as scenario text. */
typedef struct sweep_axis {
    char key[128];       /**< SECTION.KEY, as for --set */
    char **values;       /**< the values, each with its unit */
    size_t n_values;
    int zipped;          /**< 1: a --zip, moving with the axis before it
                              (value i at that axis's value i) */
} sweep_axis;

/**
 * Parse "KEY=FROM..TO:STEPS" (STEPS >= 2 values, evenly spaced),
 * "KEY=FROM..TO*FACTOR" (FROM, FROM x FACTOR, ... up to TO) or
 * "KEY=V1,V2,..." (2 or more values, in the order given). The values
 * carry the same unit ("100/s..900/s:5", "1ms..64ms*2", "50/s,80/s,200/s").
 *
 * @param err  on error, a message naming what to fix
 * @return 0 or -EINVAL.
 */
int sweep_axis_parse(const char *text, sweep_axis *out, char *err, size_t errlen);

/** sweep_axis_parse for a --zip (messages name --zip; out->zipped = 1). */
int sweep_axis_parse_zip(const char *text, sweep_axis *out, char *err, size_t errlen);

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

/** The x axis of the chart. */
typedef enum sweep_x {
    SWEEP_X_KEY = 0,   /**< the first --vary key's values */
    SWEEP_X_UTILISATION, /**< each tester's offered utilisation at the point
                              (sweep_utilisation) */
} sweep_x;

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
    unsigned char *affected; /**< [tester]: 1 if a varied key can change its
                                  runs (sweep_affects), set by the caller */
    sweep_x x;        /**< the chart's x axis */
    double *rho;      /**< with SWEEP_X_UTILISATION: [point][tester], each
                           tester's offered utilisation (-1: it has no rate),
                           filled by sweep_estimate when not NULL */
} sweep;

/**
 * Add one --vary (zipped 0: a new dimension of the grid) or --zip (zipped
 * 1: moves with the last axis, value i with its value i) from its text
 * (sweep_axis_parse). Refused: more than SWEEP_MAX_AXES keys, a key given
 * twice, a --zip with no axis before it, or a --zip whose number of values
 * is not that of the axis it moves with.
 *
 * @param err  on error, the message (without "cosim: sweep: ")
 * @return 0, -EINVAL or -ENOMEM.
 */
int sweep_add_axis(sweep *w, const char *text, int zipped, char *err, size_t errlen);

/**
 * The number of points (the product of the --vary axes' lengths; a --zip
 * adds none) into w->n_points, and w->n_tasks = n_points x reps; w->jobs
 * is lowered to the tasks.
 *
 * @param err  when the grid passes SWEEP_MAX_POINTS, the message naming its size
 * @return 0 or -E2BIG.
 */
int sweep_size(sweep *w, char *err, size_t errlen);

/**
 * Refuse two identical points: within one --vary and the --zip keys that
 * move with it, values i and j equal (as numbers: 10/s and 10.0/s) in every
 * key. "--vary a=1,1 --zip b=5,6" is two points, so it passes.
 *
 * @param err  the message naming the key, the value that repeats and the
 *             value it repeats, e.g. "--vary tester.open.rate: value 2 of
 *             2, 10/s, repeats value 1 (10/s); ..."
 * @return 0 or -EINVAL.
 */
int sweep_check_repeats(const sweep *w, char *err, size_t errlen);

/**
 * Whether the varied keys can change tester `name`'s runs: each tester runs
 * on its own server (run.h), so a key of section [tester NAME'] changes only
 * NAME'; [truth] and [expect NAME'] keys change no tester (the truth has
 * its own run; expectations are read after); a key of any other section
 * ([scenario], [service], [stall ...]) changes every tester.
 * @return 1 if some varied key can change it, 0 if none can.
 */
int sweep_affects(const sweep *w, const char *name);

/**
 * The offered utilisation of tester i of s, rho = lambda E[S] / c
 * (MODEL.md; tester_offered_utilisation over [service] workers).
 * @return rho, or -1 when the tester has no request rate (closed).
 */
double sweep_utilisation(const scenario *s, size_t i);

/**
 * The lower end of a confidence bar, mean - ci, never below zero (a
 * latency is not negative). Units as given.
 */
double sweep_bar_low(double mean, double ci);


/** The value index of each axis at point p (idx: n_axes entries): the
 *  --vary axes as the digits of p, the last fastest; a --zip axis takes the
 *  index of the axis it moves with. */
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
 * Why task t's scenario did not load (scenario_load gave se and err), as an
 * exit code, found by loading again, never from the message's text: if the
 * scenario with the user's --set alone does not load, its error is the
 * scenario's or the --set's (cosim_exit_of_scenario); else a --vary value
 * made it (COSIM_EXIT_USAGE): the first key whose value alone fails is
 * named. No memory is COSIM_EXIT_SIM.
 *
 * @param msg        the message to print (without "cosim: ")
 * @param from_vary  set to 1 when a --vary or --zip value made the error
 * @return the exit code (exitcode.h)
 */
int sweep_load_failure(const sweep *w, size_t t, scenario_error se, const char *err, char *msg, size_t msglen,
                       int *from_vary);

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
 * @return 0, or the exit code of the first failure with err (naming the
 *         points left without a result): a task's own code, carried on
 *         its result line ("T ECODE message"; COSIM_EXIT_USAGE,
 *         COSIM_EXIT_SCENARIO or COSIM_EXIT_SIM), or COSIM_EXIT_SIM for a
 *         worker that failed.
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

/**
 * sweep.dat: one block per tester and value of the other --vary axes
 * (sweep_chart_blocks), rows along the first axis: "x p99_ms ci p50_ms ci
 * p99.9_ms ci p99_low p99_high" (the bar's ends, sweep_bar_low); x is the
 * first key's value, or with SWEEP_X_UTILISATION the tester's offered
 * utilisation (a tester with no rate takes that of the first tester with
 * one). A tester no varied key affects has one block.
 * @return 0 or -EIO.
 */
int sweep_write_chart_data(FILE *f, const sweep *w);

/** The chart's blocks in sweep.dat's order: for block b, tester[b] and
 *  combo[b] (the index of the other axes' values, 0 .. stride-1). */
typedef struct sweep_blocks {
    size_t n;
    size_t *tester, *combo;
    size_t stride; /**< the number of combinations of the other axes */
} sweep_blocks;

/** Fill bl (free it with sweep_blocks_free). @return 0 or -ENOMEM. */
int sweep_chart_blocks(const sweep *w, sweep_blocks *bl);
void sweep_blocks_free(sweep_blocks *bl);

/** "key=value, key=value" of the other --vary axes (and their --zip) at
 *  combination c (sweep_blocks), or "" with one dimension. @return buf */
char *sweep_combo_text(const sweep *w, size_t c, char *buf, size_t len);

/**
 * The number of an axis value ("250us" -> 250, "0.5" -> 0.5), by the one
 * number grammar (units.h).
 * @return 0, or -1 when value is not a number with a unit
 */
int sweep_value_number(const char *value, long double *x);

/** The unit of axis a's values ("" for plain numbers) into unit. */
void sweep_axis_unit(const sweep_axis *a, char *unit, size_t len);

/** The first point whose first-dimension index is v and whose other
 *  axes are at combination c: v x stride + c. */
size_t sweep_point_at(const sweep *w, size_t v, size_t c);

/** Free what w owns (axes, results); the caller's strings stay. */
void sweep_free(sweep *w);

/* ---- shards: sweep.shard (sweep_shard.c) --------------------------------- */

/** The format version of sweep.shard this cosim writes and reads. */
#define SWEEP_SHARD_FORMAT 1

/**
 * What a shard of a sweep ran (`cosim sweep --shard K/N` writes it as
 * DIR/sweep.shard; `cosim sweep --merge` reads it; docs/sweeps.md): which
 * sweep (the scenario as typed, its size and FNV-1a digest, the sweep's
 * arguments), which shard, and the raw figures of each of its tasks, as
 * exact doubles, so the merge computes what one machine would have.
 */
typedef struct sweep_shard {
    char version[32];        /**< the cosim that wrote it ("0.1.0") */
    unsigned shard, n_shards;
    uint64_t scenario_bytes; /**< the scenario file's size */
    uint64_t scenario_hash;  /**< its FNV-1a 64 digest (sweep_shard_digest) */
    char *scenario;          /**< the scenario argument as typed */
    char **args;             /**< the sweep's options (--vary, --set ...), in order */
    size_t n_args;
    size_t n_points, reps;   /**< the whole sweep's points and replications */
    size_t n_tasks;          /**< n_points x reps */
    size_t n_testers;
    size_t n_res;            /**< tasks this shard ran */
    size_t *task;            /**< [n_res]: their numbers, ascending */
    double *res;             /**< [n_res][n_testers][SWEEP_N_METRICS] */
} sweep_shard;

/**
 * The size and FNV-1a 64-bit digest of a file's bytes (Fowler, Noll, Vo:
 * offset basis 14695981039346656037, prime 1099511628211; the IETF draft
 * draft-eastlake-fnv, section 2): two shards ran the same scenario text
 * when both agree. Not a defence against a forger, a check against a
 * scenario edited between the shards.
 *
 * @return 0, or a negative errno when the file cannot be read.
 */
int sweep_shard_digest(const char *path, uint64_t *bytes, uint64_t *hash);

/**
 * Write sweep.shard for the tasks of w's shard (w->shard of w->n_shards,
 * every replication of each of its points) from w->res.
 *
 * @param scenario_arg  the scenario argument as typed
 * @param args      the sweep's options as they will be given back to the
 *                  parser by the merge (n_args strings)
 * @param bytes, hash  sweep_shard_digest of the scenario file
 * @return 0 or -EIO.
 */
int sweep_shard_write(FILE *f, const sweep *w, const char *scenario_arg, const char *const *args, size_t n_args,
                      uint64_t bytes, uint64_t hash);

/**
 * Read a sweep.shard written by sweep_shard_write.
 *
 * @param out   filled on success (sweep_shard_free it, also on failure)
 * @param path  the file
 * @param err   on failure "PATH:LINE: what" or "PATH: what"
 * @return 0; -ENOENT when there is no such file; -EPROTONOSUPPORT for
 *         another format version (err says which); -EINVAL for a damaged
 *         or truncated file (no "end" line, a count that does not match,
 *         a figure that is no number); -ENOMEM.
 */
int sweep_shard_read(sweep_shard *out, const char *path, char *err, size_t errlen);

/** Free what a shard owns; NULL does nothing. */
void sweep_shard_free(sweep_shard *sh);

#endif
