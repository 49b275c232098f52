/* dist.h - distributions of service and think times, drawn with GSL.
 *
 * Every draw is rounded to whole nanoseconds and clamped to
 * [0, UNITS_MAX_DURATION_NS]. The generator is the caller's (one GSL stream
 * per purpose, seeded from the scenario: see rng.h), so the k-th draw is the
 * same for every tester of a scenario (common random numbers).
 */
#ifndef COSIM_DIST_H
#define COSIM_DIST_H

#include "names.h"

#include <gsl/gsl_rng.h>
#include <stdint.h>

typedef enum dist_kind {
    DIST_CONSTANT = 0, /**< always a_ns */
    DIST_UNIFORM,      /**< uniform on [a_ns, b_ns] */
    DIST_EXPONENTIAL,  /**< exponential with mean a_ns */
    DIST_LOGNORMAL,    /**< lognormal with median a_ns and log-sd shape */
    DIST_NORMAL,       /**< normal, mean a_ns, sd b_ns, truncated at zero */
    DIST_GAMMA,        /**< gamma with mean a_ns and shape k = shape */
    DIST_PARETO,       /**< Pareto with minimum a_ns and tail index shape */
    DIST_EMPIRICAL,    /**< one of values[0..n_values) at random, uniformly
                            (observed service times read from a file) */
    DIST_HISTOGRAM,    /**< a measured distribution (hgrm.h): drawn by
                            hgrm_draw, uniformly within the bucket the
                            variate falls in */
} dist_kind;

struct hgrm_dist;

/** A distribution: kind and parameters (meaning per dist_kind). */
typedef struct dist_spec {
    dist_kind kind;
    int64_t a_ns;  /**< value, minimum, mean or median, ns */
    int64_t b_ns;  /**< uniform maximum or normal standard deviation, ns */
    double shape;  /**< lognormal sigma, gamma shape, Pareto index */
    const int64_t *values; /**< empirical: the observed values, ns (not owned) */
    size_t n_values;
    const struct hgrm_dist *hist; /**< histogram: the distribution (not owned;
                                       every value at most UNITS_MAX_DURATION_NS) */
} dist_spec;

/**
 * Check that a spec's parameters are usable (positive scale, shape > 0,
 * uniform max >= min, ...).
 *
 * @param why  on error, a static English reason
 * @return 0 or -EINVAL.
 */
int dist_check(const dist_spec *spec, const char **why);

/**
 * Draw one value in ns.
 *
 * Lognormal: median exp(sigma Z) with Z from GSL's ziggurat Gaussian
 * (gsl_ran_gaussian_ziggurat), the fast equivalent of gsl_ran_lognormal.
 * Normal truncated at zero: redrawn until >= 0 (rejection; exact truncation).
 * Gamma: gsl_ran_gamma(k, mean/k). Pareto: gsl_ran_pareto(index, minimum).
 * Exponential: gsl_ran_exponential(mean). Uniform: gsl_rng_uniform scaled.
 * Histogram: hgrm_draw(hist, gsl_rng_uniform), one variate a draw.
 */
int64_t dist_draw_ns(const dist_spec *spec, gsl_rng *rng);

/**
 * A lognormal draw of median median_ns (ns, as a double) and sigma: what
 * dist_draw_ns draws for a lognormal spec with median_ns = (double)a_ns
 * and sigma = shape (the server keeps the median as a double, converted
 * once). Rounded to whole ns, at most UNITS_MAX_DURATION_NS.
 */
int64_t dist_lognormal_ns(double median_ns, double sigma, gsl_rng *rng);

/**
 * dist_lognormal_ns with the median read from *median_ns after the draw
 * (the same value: exp(sigma Z) times the median): inlined into a loop
 * that calls the generator and exp, the median is then read from its
 * place after the calls instead of being loaded before them and kept
 * aside on the stack across them (bench/instructions.sh).
 */
int64_t dist_lognormal_at_ns(const double *median_ns, double sigma, gsl_rng *rng);

/** The distribution's mean in ns (infinite Pareto means give INFINITY). */
double dist_mean_ns(const dist_spec *spec);

/**
 * The mean in ns of the values dist_draw_ns returns: every draw is capped
 * at C = UNITS_MAX_DURATION_NS, so the mean is E[min(X, C)] =
 * integral from 0 to C of P(X > x) dx, which is finite and can be far
 * below the plain mean (a Pareto of index 1.0000001 and minimum 1 ns: a
 * mean of 10 ms, but 35.5 ns capped; a lognormal of sigma 10: e^50 times
 * its median, but at most C capped). Closed forms:
 *  - Pareto (minimum m, index a): m + m ((C/m)^(1-a) - 1) / (1 - a), or
 *    m + m ln(C/m) for a = 1 (integral of (m/x)^a from m to C);
 *  - lognormal (median M, sigma s): e^(mu + s^2/2) Phi((ln C - mu - s^2)/s)
 *    + C (1 - Phi((ln C - mu)/s)), mu = ln M (the partial expectation);
 *  - gamma (mean u, shape k, scale t = u/k): u P(k + 1, C/t) + C Q(k, C/t)
 *    (P, Q the regularised incomplete gamma functions);
 *  - exponential (mean u): u (1 - e^(-C/u));
 *  - the others (constant, uniform, empirical: values at most C already;
 *    normal truncated at 0): the plain mean, at most C.
 * Rounding to whole ns moves a mean by at most 0.5 ns and is not counted.
 * Returns a finite value in [0, C], 0 when the mean is undefined (never NaN).
 * Used for estimates (the work budget, max_requests checked up front).
 */
double dist_mean_drawn_ns(const dist_spec *spec);

/** The names of the kinds, indexed by dist_kind ("constant", ...). */
extern const names_table dist_kind_names;
/** Name of a kind ("lognormal"), "?" if not a kind. */
const char *dist_kind_name(dist_kind kind);
/** Parse a kind name. @return 0 or -EINVAL. */
int dist_kind_parse(const char *name, dist_kind *out);

/**
 * Describe the distribution for people, e.g. "lognormal (median 100.0 us,
 * sigma 0.2)". @return buf
 */
char *dist_describe(const dist_spec *spec, char *buf, size_t len);

#endif
