/* expect.h - compare a run with the scenario's [expect] sections (--check).
 *
 * Each expectation gives a line "tester, key, expected, got, verdict"; a miss
 * is also reported on stderr as "cosim: FILE:LINE: [expect T] KEY: ...".
 */
#ifndef COSIM_EXPECT_H
#define COSIM_EXPECT_H

#include "names.h"
#include "run.h"
#include "scenario.h"

#include <stdio.h>

/** The keys of the figures with a fixed name ("planned", ..., "max"),
 *  indexed by expect_metric; a percentile's key is pN (p99.9). */
extern const names_table expect_metric_names;

/** Whether a figure is a duration (min, mean, max, percentiles), else a count. */
int expect_metric_is_duration(expect_metric m);

/**
 * Read the key of an [expect NAME] line into x: a figure of
 * expect_metric_names, or a percentile pN with N from 0 to 100 (p99.9 is
 * the fraction 999/1000 in p_num / p_den).
 *
 * @param why  on -EINVAL, why the percentile is wrong (a static text)
 * @return 0; -ENOENT for a key that is no figure; -EINVAL for a wrong
 *         percentile ("p101", "p9x").
 */
int expect_parse_key(const char *key, expect_item *x, const char **why);

/**
 * Read the value of an [expect NAME] line into x (value, tol, tol_abs,
 * tol_rel): "VALUE" or "VALUE exact" (exact), "VALUE +- TOL" or
 * "VALUE \u00b1 TOL", where VALUE is a count or, for a duration figure, a
 * duration with its unit, and TOL is of VALUE's kind (absolute) or a
 * percentage from 0 to 1000 ("3%": relative, tol_rel 0.03).
 * Examples: "18000 +- 1%", "1.87ms +- 0.1ms", "90 exact".
 *
 * @param is_duration  VALUE is a duration (expect_metric_is_duration)
 * @param why,whylen   on error, the reason ("nothing may follow 'exact'")
 * @return 0, -EINVAL or -ENOMEM.
 */
int expect_parse_value(const char *text, int is_duration, expect_item *x, char *why, size_t whylen);

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
