/* expect.h - compare a run with the scenario's [expect] sections (--check):
 * the verdict; the [expect] grammar is the scenario layer's (scn_expect.h).
 *
 * Each expectation gives a line "tester, key, expected, got, verdict"; a miss
 * is also reported on stderr as "cosim: FILE:LINE: [expect T] KEY: ...".
 */
#ifndef COSIM_EXPECT_H
#define COSIM_EXPECT_H

#include "run.h"
#include "scenario.h"
#include "scn_expect.h"

#include <stdio.h>

/**
 * The value an expectation is about, from tester result t: a count, or a
 * duration in ns (mean rounded to the nearest ns).
 */
int64_t expect_got(const scenario *s, const expect_item *x, const tester_result *t);

/**
 * Whether got meets x (expect_tolerance explains "exact" per metric).
 *
 * @param h  the tester's histogram (for the exact percentile rule)
 */
int expect_meets(const expect_item *x, int64_t got, const hist *h);

/**
 * Check every expectation of s against r; print the table to out and each
 * miss to err. A latency (min, mean, max, a percentile) expected of a
 * tester that recorded no sample is a miss, its "got" printed as "no
 * samples", never as 0 ns.
 *
 * @return the number of misses (0: all met).
 */
size_t expect_check(FILE *out, FILE *err, const scenario *s, const run_result *r);

#endif
