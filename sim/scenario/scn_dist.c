/* scn_dist.c - distributions read from a scenario's sections. */
#include "scn_dist.h"
#include "scn_data.h"
#include "scn_real.h"

#include <stdlib.h>

/* A required duration parameter. */
static int need_duration(scn_ctx *c, const char *key, int64_t *out_ns)
{
    return scn_keys_need(c, key) && scn_keys_duration(c, key, out_ns) >= 0 ? 0 : -1;
}

/* A required number parameter. */
static int need_number(scn_ctx *c, const char *key, double *out)
{
    return scn_keys_need(c, key) && scn_keys_number(c, key, out) >= 0 ? 0 : -1;
}

/* The observed service times of an empirical distribution, from its file. */
static int read_empirical(scn_ctx *c, dist_spec *d)
{
    scn_ini_entry *e;
    scn_data_vec x = {0};
    if (scn_data_read(c, scn_data_empirical_line, &x, &e) < 0)
        return -1;
    if (x.n == 0) {
        free(x.v);
        scn_keys_bad_value(c, e, "the file holds no service time");
        return -1;
    }
    free(c->s->service_values);
    c->s->service_values = x.v;
    d->values = x.v;
    d->n_values = x.n;
    return 0;
}

/* The parameters of d's kind, in the order of their rows. */
static int read_parameters(scn_ctx *c, dist_spec *d)
{
    switch (d->kind) {
    case DIST_CONSTANT:
        return need_duration(c, "time", &d->a_ns);
    case DIST_UNIFORM:
        return need_duration(c, "min", &d->a_ns) || need_duration(c, "max", &d->b_ns) ? -1 : 0;
    case DIST_EXPONENTIAL:
        return need_duration(c, "mean", &d->a_ns);
    case DIST_LOGNORMAL:
        return need_duration(c, "median", &d->a_ns) || need_number(c, "sigma", &d->shape) ? -1 : 0;
    case DIST_NORMAL:
        return need_duration(c, "mean", &d->a_ns) || need_duration(c, "stddev", &d->b_ns) ? -1 : 0;
    case DIST_GAMMA:
        return need_duration(c, "mean", &d->a_ns) || need_number(c, "shape", &d->shape) ? -1 : 0;
    case DIST_PARETO:
        return need_duration(c, "minimum", &d->a_ns) || need_number(c, "shape", &d->shape) ? -1 : 0;
    case DIST_EMPIRICAL:
        if (*c->prefix) {
            scn_keys_bad_value(c, scn_keys_get(c, "distribution"),
                               "an empirical distribution is accepted for [service] only");
            return -1;
        }
        return read_empirical(c, d);
    case DIST_HISTOGRAM:
        return scn_hist_read(c, d);
    }
    return -1;
}

int scn_dist_read(scn_ctx *c, dist_spec *d, const char *prefix)
{
    int v = 0;
    c->prefix = prefix;
    c->dist_kind = -1;
    if (!scn_keys_need(c, "distribution") || scn_keys_choice(c, "distribution", &v, NULL) < 0)
        return -1;
    d->kind = (dist_kind)v;
    c->dist_kind = v;
    if (read_parameters(c, d) < 0)
        return -1;
    c->prefix = NULL;
    const char *why;
    if (dist_check(d, &why)) {
        scn_keys_section_fail(c, "%s", why);
        return -1;
    }
    return 0;
}

int scn_dist_service(scn_ctx *c)
{
    if (scn_dist_read(c, &c->s->service, "") < 0)
        return -1;
    if (scn_keys_count(c, "workers", &c->s->workers) < 0)
        return -1;
    c->kind = (int)c->s->service.kind;
    c->kind_name = dist_kind_name(c->s->service.kind);
    return scn_keys_check_unused(c);
}
