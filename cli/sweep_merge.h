/* sweep_merge.h - cosim sweep --merge DIR...: the shard folders of one
 * sweep read, checked to be one whole sweep, and their results put back
 * in the sweep's place, so the merge writes what one machine would have
 * (docs/sweeps.md, "Splitting a big sweep across machines"). */
#ifndef COSIM_SWEEP_MERGE_H
#define COSIM_SWEEP_MERGE_H

#include "sweep.h"

#include <stddef.h>

/** The shards of one sweep, read and checked against each other. */
typedef struct sweep_merge {
    sweep_shard *shards; /**< [n], in shard order 0 .. N-1 once checked */
    const char **dirs;   /**< [n], each shard's folder, in the same order */
    size_t n;
} sweep_merge;

/**
 * Read DIR/sweep.shard of every folder and check that they are the N
 * shards of one sweep: the same cosim version (this one's), the same
 * scenario argument and text (size and digest), the same options, points,
 * replications and testers, and every shard 0 .. N-1 exactly once, each
 * holding every task of its points. Each refusal is one message on stderr
 * naming the folder(s) and what differs.
 *
 * @param dirs  the shard folders as given
 * @param n     how many (at least 1)
 * @param m     filled on success (sweep_merge_free it, also on failure)
 * @return 0, or the exit code after a message: COSIM_EXIT_SCENARIO for
 *         shards that are missing, damaged, truncated, of another cosim or
 *         another sweep; COSIM_EXIT_SIM for no memory.
 */
int sweep_merge_read(const char *const *dirs, size_t n, sweep_merge *m);

/**
 * Check that the scenario the merge found (path, after the shards'
 * argument was looked up as a run would: options_scenario_path) holds the
 * text the shards ran, then put every shard's figures into w->res (w
 * parsed from the shards' options, its results allocated: n_tasks x
 * n_testers x SWEEP_N_METRICS).
 *
 * @return 0, or COSIM_EXIT_SCENARIO after a message.
 */
int sweep_merge_fill(const sweep_merge *m, sweep *w);

/** Free what m owns; NULL does nothing. */
void sweep_merge_free(sweep_merge *m);

#endif
