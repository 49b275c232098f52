/* band.h - the spread of a scenario's percentiles over several seeds
 * (cosim --replications N): for each tester, at fixed percentile levels,
 * the mean over the seeds and the half-width of its 95% confidence interval
 * (Student's t with N-1 degrees of freedom), drawn as a band around the
 * spectrum.
 */
#ifndef COSIM_BAND_H
#define COSIM_BAND_H

#include "run.h"
#include "scenario.h"

#include <stdio.h>

/** The percentile levels of the band, as fractions: 0, 50%, 90%, 99%, ... */
extern const double band_levels[];
extern const size_t band_n_levels;

typedef struct band band;

/**
 * Run scenario s with seeds s->seed + 1 .. s->seed + n - 1 and gather, with
 * the run already made (r, seed s->seed), the values at band_levels.
 *
 * @param observer  NULL, or called for every request of those runs (as by
 *                  run_scenario_observed), e.g. for progress
 * @param err  on error, a message
 * @return 0, or a negative errno (run errors as run_scenario's).
 */
int band_run(band **out, const scenario *s, const run_result *r, unsigned n, run_observer observer, void *ctx,
             char *err, size_t errlen);

/** Free; band_free(NULL) does nothing. */
void band_free(band *b);

/**
 * Mean and 95% confidence half-width, in ns, of tester i at band_levels[k]
 * over the seeds.
 */
void band_get(const band *b, size_t i, size_t k, double *mean_ns, double *ci_ns);

/** Seeds gathered. */
unsigned band_seeds(const band *b);

/**
 * The band's chart data: a block per tester (the spectrum's block order),
 * rows "1/(1-p) mean_ms low_ms high_ms" for the levels every seed's samples
 * reach. @return 0 or -EIO.
 */
int band_write(const band *b, FILE *f, const scenario *s, const run_result *r);

/** A table of p50/p99/p99.9 mean +- interval per tester. @return 0 or -EIO. */
int band_report(const band *b, FILE *f, const scenario *s);

#endif
