/* timeline.h - single requests, kept within bounds, for the charts that
 * show requests over time (latency against intended send time, and the
 * book's Figure 5.2 bars from intended send to reply).
 *
 * Memory is fixed by max_points, whatever the number of requests: a tester
 * keeps each request in the window [from, to) until it has max_points of
 * them; from then on it keeps, for each of max_points equal time bins, the
 * largest latency (so no stall's spike is lost), deterministically.
 */
#ifndef COSIM_TIMELINE_H
#define COSIM_TIMELINE_H

#include "tester.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct timeline timeline;

/**
 * @param n_testers   testers observed (indices 0..n_testers-1)
 * @param from_ns     window start (intended send times before it are ignored)
 * @param to_ns       window end (exclusive), > from_ns
 * @param max_points  points kept per tester (>= 1)
 * @return 0, -EINVAL or -ENOMEM.
 */
int timeline_new(timeline **out, size_t n_testers, int64_t from_ns, int64_t to_ns, size_t max_points);

/** Free; timeline_free(NULL) does nothing. */
void timeline_free(timeline *t);

/**
 * Observe one request of tester i (a tester_observer's body), and narrow
 * gate (tester_gate_narrow) to what this timeline no longer needs: the
 * time before or after its window; within a binned window, the latencies
 * up to the current bin's largest over that bin's instants. Kept to the
 * gate, a binned timeline is called about once per bin and per new
 * largest latency of a bin; the bins are found without a division per
 * request. Testers i >= n_testers are ignored (the gate is left alone).
 */
void timeline_observe(timeline *t, size_t i, const tester_request *rq, tester_gate *gate);

/** Rows tester i has in timeline_write_points. */
size_t timeline_points(const timeline *t, size_t i);

/** Rows tester i has in timeline_write_bars (0 when binned). */
size_t timeline_bars(const timeline *t, size_t i);

/** Whether tester i kept every request of the window (not binned). */
int timeline_exact(const timeline *t, size_t i);

/**
 * The latency chart's data: one block per tester, rows
 * "intended_s latency_ms" (every request) or "bin_centre_s max_latency_ms"
 * (binned), separated by two blank lines. @return 0 or -EIO.
 */
int timeline_write_points(const timeline *t, FILE *f, const char *const *names);

/**
 * The request bars' data: one block per tester kept exactly, rows
 * "intended_s sent_s reply_s row" with row counting requests from the top.
 * Testers that were binned get an empty block. @return 0 or -EIO.
 */
int timeline_write_bars(const timeline *t, FILE *f, const char *const *names);

#endif
