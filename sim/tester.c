/* tester.c - what a tester spec means apart from its run: names, the
 * request rate, what its latencies include. The run is tester_loop.c and
 * one file per kind (tester_closed.c, tester_paced.c, tester_open.c,
 * tester_partly_open.c). */
#include "tester.h"

#include <errno.h>
#include <string.h>

static const char *const kind_names[] = {"closed", "paced", "open", "corrected", "partly_open"};
#define N_KINDS 5
static const char *const late_names[] = {"from_now", "next_slot", "catch_up"};

const char *tester_kind_name(tester_kind k)
{
    return (unsigned)k < N_KINDS ? kind_names[k] : "?";
}

int tester_kind_parse(const char *name, tester_kind *out)
{
    for (unsigned i = 0; i < N_KINDS; i++)
        if (strcmp(name, kind_names[i]) == 0) {
            *out = (tester_kind)i;
            return 0;
        }
    return -EINVAL;
}

const char *tester_late_name(tester_late l)
{
    return (unsigned)l < 3 ? late_names[l] : "?";
}

int tester_late_parse(const char *name, tester_late *out)
{
    for (unsigned i = 0; i < 3; i++)
        if (strcmp(name, late_names[i]) == 0) {
            *out = (tester_late)i;
            return 0;
        }
    return -EINVAL;
}

/* The rate of a tester (MODEL.md, "What a run writes"): its arrivals come
 * at 1 / D; a partly-open session sends a geometric number of requests,
 * 1 + p + p^2 + ... = 1 / (1 - p) on average (Schroeder et al., NSDI
 * 2006), so its requests come at 1 / (D (1 - p)). */
double tester_request_rate_per_ns(const tester_spec *t)
{
    if (t->kind == TESTER_CLOSED || t->interval.num_ns == 0 || t->interval.den == 0)
        return -1;
    double per_arrival = t->kind == TESTER_PARTLY_OPEN ? 1 / (1 - t->p_continue) : 1;
    return per_arrival * (double)t->interval.den / (double)t->interval.num_ns;
}

double tester_offered_utilisation(const tester_spec *t, const dist_spec *service)
{
    double rate = tester_request_rate_per_ns(t);
    return rate < 0 ? -1 : dist_mean_ns(service) * rate;
}

int tester_latency_includes_backlog(const tester_spec *t)
{
    return t->kind == TESTER_OPEN || t->kind == TESTER_PARTLY_OPEN ||
           (t->kind == TESTER_PACED && t->latency_from_intended && t->late == TESTER_LATE_CATCH_UP);
}

void tester_result_free(tester_result *r)
{
    if (!r)
        return;
    hist_free(r->hist);
    r->hist = NULL;
    hist_free(r->dropped);
    r->dropped = NULL;
}
