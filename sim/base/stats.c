/* stats.c - statistics over replications. */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* Student's t interval of a mean (e.g. Montgomery & Runger, Applied
 * Statistics and Probability for Engineers, 8-2): the quantile of the t
 * distribution with n - 1 degrees of freedom from GSL. */
void stats_mean_t95(const double *v, size_t n, size_t stride, double *mean, double *ci)
{
    double sum = 0, sq = 0;
    for (size_t r = 0; r < n; r++)
        sum += v[r * stride];
    *mean = sum / (double)n;
    for (size_t r = 0; r < n; r++) {
        double d = v[r * stride] - *mean;
        sq += d * d;
    }
    *ci = n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sqrt(sq / (double)(n - 1)) / sqrt((double)n) : 0;
}
