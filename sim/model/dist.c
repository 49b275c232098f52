/* dist.c - service and think time distributions on GSL's samplers. */
#include "dist.h"
#include "hgrm.h"
#include "units.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {
    [DIST_CONSTANT] = "constant", [DIST_UNIFORM] = "uniform", [DIST_EXPONENTIAL] = "exponential",
    [DIST_LOGNORMAL] = "lognormal", [DIST_NORMAL] = "normal", [DIST_GAMMA] = "gamma",
    [DIST_PARETO] = "pareto", [DIST_EMPIRICAL] = "empirical",
    [DIST_HISTOGRAM] = "histogram",
};
const names_table dist_kind_names = {kind_names, ARRAY_SIZE(kind_names)};

const char *dist_kind_name(dist_kind kind)
{
    return names_get(dist_kind_names, (int)kind);
}

int dist_kind_parse(const char *name, dist_kind *out)
{
    int i = names_find(dist_kind_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (dist_kind)i;
    return 0;
}

int dist_check(const dist_spec *s, const char **why)
{
    switch (s->kind) {
    case DIST_CONSTANT:
        return 0;
    case DIST_EMPIRICAL:
        if (!s->values || s->n_values == 0) {
            *why = "empirical: no values";
            return -EINVAL;
        }
        return 0;
    case DIST_HISTOGRAM:
        if (!s->hist || s->hist->total == 0 || s->hist->max_ns > UNITS_MAX_DURATION_NS) {
            *why = "histogram: no samples, or a value above 1000000 s";
            return -EINVAL;
        }
        return 0;
    case DIST_UNIFORM:
        if (s->b_ns < s->a_ns) {
            *why = "uniform: max must be >= min";
            return -EINVAL;
        }
        return 0;
    case DIST_EXPONENTIAL:
    case DIST_LOGNORMAL:
    case DIST_GAMMA:
    case DIST_PARETO:
    case DIST_NORMAL:
        if (s->a_ns <= 0) {
            *why = "the scale (mean, median or minimum) must be above zero";
            return -EINVAL;
        }
        if (s->kind == DIST_LOGNORMAL && !(s->shape >= 0 && s->shape <= 10)) {
            *why = "lognormal: sigma must be between 0 and 10";
            return -EINVAL;
        }
        if ((s->kind == DIST_GAMMA || s->kind == DIST_PARETO) && !(s->shape > 0 && s->shape <= 1e6)) {
            *why = "shape must be above zero";
            return -EINVAL;
        }
        return 0;
    }
    *why = "unknown distribution";
    return -EINVAL;
}

static int64_t to_ns(double v)
{
    if (!(v > 0))
        return 0;
    if (v >= (double)UNITS_MAX_DURATION_NS)
        return UNITS_MAX_DURATION_NS;
    return (int64_t)(v + 0.5); /* v > 0: rounds half up, as llround, faster */
}

int64_t dist_lognormal_ns(double median_ns, double sigma, gsl_rng *r)
{
    /* median exp(sigma Z) = exp(ln median + sigma Z), without a log per draw */
    return to_ns(median_ns * exp(gsl_ran_gaussian_ziggurat(r, sigma)));
}

int64_t dist_lognormal_at_ns(const double *median_ns, double sigma, gsl_rng *r)
{
    double e = exp(gsl_ran_gaussian_ziggurat(r, sigma));
    return to_ns(*median_ns * e); /* the product dist_lognormal_ns forms */
}

int64_t dist_draw_ns(const dist_spec *s, gsl_rng *r)
{
    /* The common service times first, each one compare, before the
     * switch's bounds check and indirect jump (bench/instructions.sh). */
    if (s->kind == DIST_LOGNORMAL)
        return dist_lognormal_ns((double)s->a_ns, s->shape, r);
    if (s->kind == DIST_CONSTANT)
        return s->a_ns;
    switch (s->kind) {
    case DIST_CONSTANT:
        return s->a_ns;
    case DIST_UNIFORM:
        return to_ns((double)s->a_ns + gsl_rng_uniform(r) * (double)(s->b_ns - s->a_ns));
    case DIST_EXPONENTIAL:
        return to_ns(gsl_ran_exponential(r, (double)s->a_ns));
    case DIST_LOGNORMAL:
        return dist_lognormal_ns((double)s->a_ns, s->shape, r);
    case DIST_NORMAL: {
        double v;
        do
            v = (double)s->a_ns + gsl_ran_gaussian_ziggurat(r, (double)s->b_ns);
        while (v < 0);
        return to_ns(v);
    }
    case DIST_GAMMA:
        return to_ns(gsl_ran_gamma(r, s->shape, (double)s->a_ns / s->shape));
    case DIST_PARETO:
        return to_ns(gsl_ran_pareto(r, s->shape, (double)s->a_ns));
    case DIST_EMPIRICAL:
        return s->values[gsl_rng_uniform_int(r, (unsigned long)s->n_values)];
    case DIST_HISTOGRAM:
        return hgrm_draw(s->hist, gsl_rng_uniform(r));
    }
    return 0;
}

double dist_mean_ns(const dist_spec *s)
{
    switch (s->kind) {
    case DIST_CONSTANT:
        return (double)s->a_ns;
    case DIST_UNIFORM:
        return ((double)s->a_ns + (double)s->b_ns) / 2;
    case DIST_EXPONENTIAL:
    case DIST_GAMMA:
        return (double)s->a_ns;
    case DIST_LOGNORMAL:
        return (double)s->a_ns * exp(s->shape * s->shape / 2);
    case DIST_NORMAL: {
        /* mean of a normal truncated at 0: mu + sd phi(a)/(1 - Phi(a)), a = -mu/sd */
        double mu = (double)s->a_ns, sd = (double)s->b_ns;
        if (sd <= 0)
            return mu;
        double a = -mu / sd;
        double phi = exp(-a * a / 2) / sqrt(2 * M_PI);
        double tail = 0.5 * erfc(a / sqrt(2));
        return mu + sd * phi / tail;
    }
    case DIST_PARETO:
        return s->shape > 1 ? (double)s->a_ns * s->shape / (s->shape - 1) : INFINITY;
    case DIST_EMPIRICAL: {
        double sum = 0;
        for (size_t i = 0; i < s->n_values; i++)
            sum += (double)s->values[i];
        return s->n_values ? sum / (double)s->n_values : 0;
    }
    case DIST_HISTOGRAM:
        return hgrm_draw_mean(s->hist);
    }
    return 0;
}

double dist_mean_drawn_ns(const dist_spec *s)
{
    const double c = (double)UNITS_MAX_DURATION_NS;
    double mean = dist_mean_ns(s);
    switch (s->kind) {
    case DIST_PARETO: {
        double m = (double)s->a_ns, a = s->shape;
        if (m >= c)
            return c;
        mean = fabs(a - 1) < 1e-12 ? m + m * log(c / m) : m + m * expm1((1 - a) * log(c / m)) / (1 - a);
        break;
    }
    case DIST_LOGNORMAL: {
        double mu = log((double)s->a_ns), sg = s->shape;
        if (sg <= 0)
            return (double)s->a_ns < c ? (double)s->a_ns : c;
        double lc = log(c);
        mean = exp(mu + sg * sg / 2) * gsl_cdf_ugaussian_P((lc - mu - sg * sg) / sg) +
               c * gsl_cdf_ugaussian_Q((lc - mu) / sg);
        break;
    }
    case DIST_GAMMA: {
        double k = s->shape, t = (double)s->a_ns / k;
        mean = (double)s->a_ns * gsl_cdf_gamma_P(c, k + 1, t) + c * gsl_cdf_gamma_Q(c, k, t);
        break;
    }
    case DIST_EXPONENTIAL:
        mean = -(double)s->a_ns * expm1(-c / (double)s->a_ns);
        break;
    default:
        break;
    }
    if (!(mean >= 0))
        return 0;
    return mean < c ? mean : c;
}

char *dist_describe(const dist_spec *s, char *buf, size_t len)
{
    char a[48], b[48];
    units_format_duration(s->a_ns, a, sizeof a);
    units_format_duration(s->b_ns, b, sizeof b);
    switch (s->kind) {
    case DIST_CONSTANT:
        snprintf(buf, len, "constant %s", a);
        break;
    case DIST_UNIFORM:
        snprintf(buf, len, "uniform %s..%s", a, b);
        break;
    case DIST_EXPONENTIAL:
        snprintf(buf, len, "exponential (mean %s)", a);
        break;
    case DIST_LOGNORMAL:
        snprintf(buf, len, "lognormal (median %s, sigma %s)", a, units_format_number(s->shape, b, sizeof b));
        break;
    case DIST_NORMAL:
        snprintf(buf, len, "normal (mean %s, sd %s, truncated at 0)", a, b);
        break;
    case DIST_GAMMA:
        snprintf(buf, len, "gamma (mean %s, shape %s)", a, units_format_number(s->shape, b, sizeof b));
        break;
    case DIST_PARETO:
        snprintf(buf, len, "pareto (minimum %s, index %s)", a, units_format_number(s->shape, b, sizeof b));
        break;
    case DIST_EMPIRICAL:
        snprintf(buf, len, "empirical (%zu observed values, mean %s)", s->n_values,
                 units_format_duration((int64_t)dist_mean_ns(s), b, sizeof b));
        break;
    case DIST_HISTOGRAM: {
        char c[32];
        snprintf(buf, len, "histogram (%llu samples, %s to %s, mean %s)", (unsigned long long)s->hist->total,
                 units_format_duration(s->hist->min_ns, a, sizeof a),
                 units_format_duration(s->hist->max_ns, b, sizeof b),
                 units_format_duration((int64_t)dist_mean_ns(s), c, sizeof c));
        break;
    }
    }
    return buf;
}
