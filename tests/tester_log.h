/* tester_log.h - a tester observer for tests: it keeps the first
 * TESTER_LOG_MAX requests a tester reports, in order, so a test can assert
 * their send times and latencies. Header-only, for tests/test_tester_*.c. */
#ifndef COSIM_TESTS_TESTER_LOG_H
#define COSIM_TESTS_TESTER_LOG_H

#include "tester.h"

#include <check.h>

#define MS INT64_C(1000000)
#define TESTER_LOG_MAX 64

/* The requests seen, in the order the tester reported them. */
typedef struct log_obs {
    size_t n;
    tester_request rq[TESTER_LOG_MAX];
} log_obs;

/* The observer: ctx is a log_obs; more than TESTER_LOG_MAX requests fail
 * the test (a schedule that sends more than the test worked out). */
static inline void log_request(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate;
    log_obs *l = ctx;
    ck_assert_uint_lt(l->n, TESTER_LOG_MAX);
    l->rq[l->n++] = *rq;
}

#endif
