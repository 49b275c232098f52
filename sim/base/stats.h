/* stats.h - statistics over replications (seeds). */
#ifndef COSIM_STATS_H
#define COSIM_STATS_H

#include <stddef.h>

/**
 * The mean of n values and the half-width of its 95% confidence interval,
 * Student's t: t(0.975, n - 1) s / sqrt(n), s the sample standard
 * deviation (n - 1 in the denominator). Used by cosim --replications
 * (band.c) and cosim sweep (sweep.c).
 *
 * @param v       the values, read as v[0], v[stride], ... v[(n-1) stride]
 * @param n       how many (>= 1); with one the half-width is 0
 * @param stride  the distance between two values, in elements (>= 1)
 * @param mean    the mean
 * @param ci      the half-width, in the values' unit
 */
void stats_mean_t95(const double *v, size_t n, size_t stride, double *mean, double *ci);

#endif
