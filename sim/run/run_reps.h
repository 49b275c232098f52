/* run_reps.h - a scenario's replications (cosim --replications N): the
 * scenario run again with the seeds s->seed + 1 .. s->seed + N - 1, each
 * run reduced to what the outputs draw of it (every tester's sample count
 * and its values at the LEVELS_BAND levels), so no output module re-runs
 * the engine: band.c draws these results.
 */
#ifndef COSIM_RUN_REPS_H
#define COSIM_RUN_REPS_H

#include "run.h"

#include <stdint.h>

/** The replications' results, replication r = 0 the base run. */
typedef struct run_reps {
    unsigned n;          /**< replications, the base run included */
    size_t n_testers;    /**< the scenario's testers */
    size_t n_levels;     /**< levels_count(LEVELS_BAND) */
    uint64_t *count;     /**< [r][tester]: the samples recorded */
    int64_t *value_ns;   /**< [r][tester][k]: the value at the k-th
                              LEVELS_BAND level, in ns (0: no samples) */
} run_reps;

/**
 * Gather base (the run of seed s->seed) as replication 0, then run s with
 * seeds s->seed + 1 .. s->seed + n - 1 (no interval log: that is the base
 * seed's only) and gather each.
 *
 * @param out       the results (run_reps_free them)
 * @param n         the replications, >= 1 (1: the base run alone); the
 *                  seeds must not wrap (run_check_seeds)
 * @param observer  NULL, or called for every request of those runs (as by
 *                  run_scenario_observed), e.g. for progress
 * @param err       on error, a one-line message
 * @return 0, or a negative errno: -ENOMEM, or a run's error (as
 *         run_scenario's); *out is then NULL.
 */
int run_reps_run(run_reps **out, const scenario *s, const run_result *base, unsigned n, run_observer observer,
                 void *ctx, char *err, size_t errlen);

/** Free; run_reps_free(NULL) does nothing. */
void run_reps_free(run_reps *r);

/** The samples tester i recorded in replication rep. */
uint64_t run_reps_count(const run_reps *r, unsigned rep, size_t i);

/** Tester i's value in replication rep at the k-th LEVELS_BAND level, ns. */
int64_t run_reps_value_ns(const run_reps *r, unsigned rep, size_t i, size_t k);

#endif
