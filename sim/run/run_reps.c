/* run_reps.c - a scenario's replications (run_reps.h). */
#include "run_reps.h"
#include "levels.h"

#include <errno.h>
#include <stdlib.h>

/* Replication rep's counts and level values from its run. */
static void gather(run_reps *x, unsigned rep, const scenario *s, const run_result *r)
{
    for (size_t i = 0; i < x->n_testers; i++) {
        const hist *h = r->testers[i].hist;
        size_t at = (size_t)rep * x->n_testers + i;
        x->count[at] = hist_count(h);
        for (size_t k = 0; k < x->n_levels; k++)
            x->value_ns[at * x->n_levels + k] = levels_value(h, s->rank_rule, levels_nth(LEVELS_BAND, k));
    }
}

int run_reps_run(run_reps **out, const scenario *s, const run_result *base, unsigned n, run_observer observer,
                 void *ctx, char *err, size_t errlen)
{
    *out = NULL;
    run_reps *x = calloc(1, sizeof *x);
    if (!x)
        goto oom;
    x->n = n ? n : 1;
    x->n_testers = s->n_testers;
    x->n_levels = levels_count(LEVELS_BAND);
    size_t cells = (size_t)x->n * (s->n_testers ? s->n_testers : 1);
    x->count = calloc(cells, sizeof *x->count);
    x->value_ns = calloc(cells * x->n_levels, sizeof *x->value_ns);
    if (!x->count || !x->value_ns)
        goto oom;
    gather(x, 0, s, base);
    scenario copy = *s; /* the arrays stay shared; only the seed changes */
    copy.hlog_interval_ns = 0; /* the interval log is the base seed's only */
    for (unsigned k = 1; k < x->n; k++) {
        copy.seed = s->seed + k;
        run_result rk;
        int rc = run_scenario_observed(&copy, observer, ctx, &rk, err, errlen);
        if (rc) {
            run_reps_free(x);
            return rc;
        }
        gather(x, k, s, &rk);
        run_result_free(&rk);
    }
    *out = x;
    return 0;
oom:
    run_reps_free(x);
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
}

void run_reps_free(run_reps *r)
{
    if (!r)
        return;
    free(r->count);
    free(r->value_ns);
    free(r);
}

uint64_t run_reps_count(const run_reps *r, unsigned rep, size_t i)
{
    return r->count[(size_t)rep * r->n_testers + i];
}

int64_t run_reps_value_ns(const run_reps *r, unsigned rep, size_t i, size_t k)
{
    return r->value_ns[((size_t)rep * r->n_testers + i) * r->n_levels + k];
}
