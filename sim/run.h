/* run.h - run every tester of a scenario (the engine's top level).
 *
 * Data flow: scenario -> for each tester, a fresh server and the tester on a
 * virtual clock -> one histogram per tester -> reports and plots.
 */
#ifndef COSIM_RUN_H
#define COSIM_RUN_H

#include "scenario.h"
#include "tester.h"

#include <stddef.h>

/** The results of a scenario's testers, in the scenario's order. */
typedef struct run_result {
    size_t n;
    tester_result *testers;
    int has_truth;          /**< [truth] was asked for */
    hist *truth;            /**< what a user arriving at each probe instant
                                 would wait (owned) */
    uint64_t truth_probes;
} run_result;

/**
 * Run all testers of s.
 *
 * @param err  on error, a one-line message (no "cosim: " prefix)
 * @return 0, -ENOMEM, -E2BIG (a tester would exceed s->max_requests),
 *         -EINVAL (bad generator).
 */
int run_scenario(const scenario *s, run_result *out, char *err, size_t errlen);

/** Called for every request of tester `tester` (its index in the scenario). */
typedef void (*run_observer)(void *ctx, size_t tester, const tester_request *rq);

/** run_scenario with an observer of every request (NULL: none). */
int run_scenario_observed(const scenario *s, run_observer observer, void *ctx, run_result *out,
                          char *err, size_t errlen);

/** Free the results; safe on a zeroed result. */
void run_result_free(run_result *r);

/** The server configuration of scenario s (its arrays stay owned by s). */
server_config run_server_config(const scenario *s);

/** The tester settings of scenario s shared by every tester. */
tester_run_config run_tester_config(const scenario *s, const server_config *srv);

#endif
