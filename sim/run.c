/* run.c - every tester of a scenario against its own fresh server. */
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

server_config run_server_config(const scenario *s)
{
    server_config c;
    c.service = s->service;
    c.stalls = s->stalls;
    c.n_stalls = s->n_stalls;
    c.generator = s->generator;
    c.seed = s->seed;
    return c;
}

tester_run_config run_tester_config(const scenario *s, const server_config *srv)
{
    tester_run_config c;
    c.duration_ns = s->duration_ns;
    c.threshold_ns = s->threshold_ns;
    c.drop_in_flight = s->drop_in_flight;
    c.sub_bits = s->sub_bits;
    c.max_requests = s->max_requests;
    c.server = srv;
    return c;
}

typedef struct observe_ctx {
    run_observer fn;
    void *ctx;
    size_t tester;
} observe_ctx;

static void forward(void *ctx, const tester_request *rq)
{
    observe_ctx *o = ctx;
    o->fn(o->ctx, o->tester, rq);
}

int run_scenario(const scenario *s, run_result *out, char *err, size_t errlen)
{
    return run_scenario_observed(s, NULL, NULL, out, err, errlen);
}

int run_scenario_observed(const scenario *s, run_observer observer, void *octx, run_result *out,
                          char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->testers = calloc(s->n_testers, sizeof *out->testers);
    if (!out->testers) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    server_config srv = run_server_config(s);
    tester_run_config cfg = run_tester_config(s, &srv);
    for (size_t i = 0; i < s->n_testers; i++) {
        observe_ctx o = {observer, octx, i};
        int rc = tester_run(&s->testers[i], &cfg, observer ? forward : NULL, &o, &out->testers[i]);
        if (rc) {
            /* "FILE:LINE: [tester NAME]": the tester's header, or the file
             * alone for a tester made by --set */
            char at[SCENARIO_PATH_MAX + 80];
            if (s->tester_line[i] > 0)
                snprintf(at, sizeof at, "%s:%d: [tester %s]", s->path, s->tester_line[i], s->testers[i].name);
            else
                snprintf(at, sizeof at, "%s: [tester %s]", s->path, s->testers[i].name);
            if (rc == -E2BIG)
                snprintf(err, errlen,
                         "%s would send more than %llu requests; shorten [scenario] "
                         "duration or raise [scenario] max_requests",
                         at, (unsigned long long)s->max_requests);
            else if (rc == -ERANGE)
                snprintf(err, errlen, "%s the stalls never leave the server a gap to "
                                      "work in; shorten or space them",
                         at);
            else if (rc == -EOVERFLOW)
                snprintf(err, errlen, "%s the server's backlog passes the time limit: a reply would "
                                      "come after 2000000s (twice the longest duration), because requests "
                                      "arrive faster than the server serves them; lower the load (rate, "
                                      "users) or the service time, or shorten the run",
                         at);
            else
                snprintf(err, errlen, "%s %s", at, strerror(-rc));
            run_result_free(out);
            return rc;
        }
        out->n = i + 1;
    }
    if (s->truth_interval_ns > 0) {
        /* the ground truth: probes on a server carrying the load tester's
         * requests (or none), run again with the same seed */
        tester_truth truth = {.interval_ns = s->truth_interval_ns};
        tester_result load;
        int rc = hist_new(&truth.hist, s->sub_bits);
        if (!rc)
            rc = tester_run_with_truth(s->truth_load >= 0 ? &s->testers[s->truth_load] : NULL, &cfg,
                                       NULL, NULL, &truth, &load);
        if (rc) {
            hist_free(truth.hist);
            snprintf(err, errlen, "%s: ground truth: %s", s->path, strerror(-rc));
            run_result_free(out);
            return rc;
        }
        tester_result_free(&load);
        out->has_truth = 1;
        out->truth = truth.hist;
        out->truth_probes = truth.probes;
    }
    return 0;
}

void run_result_free(run_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        tester_result_free(&r->testers[i]);
    free(r->testers);
    hist_free(r->truth);
    memset(r, 0, sizeof *r);
}
