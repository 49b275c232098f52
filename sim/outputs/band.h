/* band.h - the spread of a scenario's percentiles over several seeds
 * (cosim --replications N): for each tester, at fixed percentile levels,
 * the mean over the seeds and the half-width of its 95% confidence interval
 * (Student's t with N-1 degrees of freedom), drawn as a band around the
 * spectrum.
 */
#ifndef COSIM_BAND_H
#define COSIM_BAND_H

#include "run.h"
#include "run_reps.h"
#include "scenario.h"

#include <stdio.h>

typedef struct band band;

/**
 * The band of the replications' results (run_reps_run: the run layer
 * runs the seeds, the band only draws them).
 *
 * @param out   the band (band_free it)
 * @param reps  the replications, at the LEVELS_BAND levels (levels.h)
 * @return 0 or -ENOMEM.
 */
int band_new(band **out, const run_reps *reps);

/** Free; band_free(NULL) does nothing. */
void band_free(band *b);

/**
 * Mean and 95% confidence half-width, in ns, of tester i at the k-th
 * LEVELS_BAND level (levels_nth(LEVELS_BAND, k)) over the seeds
 * (stats_mean_t95: Student's t with seeds - 1 degrees of freedom).
 */
void band_get(const band *b, size_t i, size_t k, double *mean_ns, double *ci_ns);

/** Seeds gathered. */
unsigned band_seeds(const band *b);

/**
 * The band's chart data: a block per tester the spectrum draws (its block
 * order, the truth excepted), rows "1/(1-p) latency_ms low_ms high_ms" at
 * the spectrum's own points (r's histogram, iterated as plot.c does) from
 * p50 to the last level every seed's samples reach, low and high the
 * latency -+ the 95% half-width as a share of the mean over the seeds
 * (interpolated in log x between levels), so the band surrounds the curve.
 * @return 0 or -EIO.
 */
int band_write(const band *b, FILE *f, const scenario *s, const run_result *r);

/** A table of mean +- interval per tester at the LEVELS_HEADLINE levels
 *  (p50, p99, p99.9). @return 0 or -EIO. */
int band_report(const band *b, FILE *f, const scenario *s);

#endif
