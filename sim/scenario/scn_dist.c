/* scn_dist.c - distributions read from a scenario's sections. */
#include "scn_dist.h"
#include "scn_data.h"
#include "scn_real.h"

#include <stdlib.h>

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

/* The parameters of d's kind: the rows of its kind whose field is in a
 * dist_spec (a_ns, b_ns, shape), in the order of the rows; an empirical
 * or a measured distribution reads its data file. */
static int read_parameters(scn_ctx *c, dist_spec *d)
{
    if (d->kind == DIST_EMPIRICAL) {
        if (*c->prefix) {
            scn_keys_bad_value(c, scn_keys_get(c, "distribution"),
                               "an empirical distribution is accepted for [service] only");
            return -1;
        }
        return read_empirical(c, d);
    }
    if (d->kind == DIST_HISTOGRAM)
        return scn_hist_read(c, d);
    return scn_keys_read_rows(c, SCN_IN_DIST, d);
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
    if (scn_keys_read_rows(c, SCN_IN_SCENARIO, c->s) < 0) /* workers */
        return -1;
    c->kind = (int)c->s->service.kind;
    c->kind_name = dist_kind_name(c->s->service.kind);
    return scn_keys_check_unused(c);
}
