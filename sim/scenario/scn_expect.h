/* scn_expect.h - the grammar of an [expect NAME] section: its keys (the
 * figures and pN) and its values ("18000 +- 1%", "1.87ms exact").
 *
 * The scenario layer reads [expect] lines with these; the verdict (a run's
 * figures against them, cosim --check) is outputs/expect.h's.
 */
#ifndef COSIM_SCN_EXPECT_H
#define COSIM_SCN_EXPECT_H

#include "names.h"
#include "scenario.h"

#include <stddef.h>

/** The keys of the figures with a fixed name ("planned", ..., "max"),
 *  indexed by expect_metric; a percentile's key is pN (p99.9). */
extern const names_table scn_expect_metric_names;

/** Whether a figure is a duration (min, mean, max, percentiles), else a count. */
int scn_expect_metric_is_duration(expect_metric m);

/**
 * Read the key of an [expect NAME] line into x: a figure of
 * scn_expect_metric_names, or a percentile pN with N from 0 to 100 (p99.9 is
 * the fraction 999/1000 in p_num / p_den).
 *
 * @param why  on -EINVAL, why the percentile is wrong (a static text)
 * @return 0; -ENOENT for a key that is no figure; -EINVAL for a wrong
 *         percentile ("p101", "p9x").
 */
int scn_expect_parse_key(const char *key, expect_item *x, const char **why);

/**
 * Read the value of an [expect NAME] line into x (value, tol, tol_abs,
 * tol_rel): "VALUE" or "VALUE exact" (exact), "VALUE +- TOL" or
 * "VALUE \u00b1 TOL", where VALUE is a count or, for a duration figure, a
 * duration with its unit, and TOL is of VALUE's kind (absolute) or a
 * percentage from 0 to 1000 ("3%": relative, tol_rel 0.03).
 * Examples: "18000 +- 1%", "1.87ms +- 0.1ms", "90 exact".
 *
 * @param is_duration  VALUE is a duration (scn_expect_metric_is_duration)
 * @param why,whylen   on error, the reason ("nothing may follow 'exact'")
 * @return 0, -EINVAL or -ENOMEM.
 */
int scn_expect_parse_value(const char *text, int is_duration, expect_item *x, char *why, size_t whylen);

#endif
