/* server.h - the system under test: one FIFO worker with stalls.
 *
 * Requests are served one at a time in arrival order. Request k (k = 0, 1,
 * ... in the order submitted) needs s_k of work, drawn from the service
 * distribution on the scenario's RNG_SERVICE stream, plus the extra work of
 * any request stall naming k. Stop-the-world windows pause the worker
 * (MODEL.md, "The server"). Because the worker is FIFO, a request's reply
 * time is fixed the moment it arrives, so server_submit returns it at once:
 * the engine needs no event for a reply.
 */
#ifndef COSIM_SERVER_H
#define COSIM_SERVER_H

#include "dist.h"
#include "stall.h"
#include "units.h"

#include <stddef.h>
#include <stdint.h>

/** What a server is made of; the arrays stay owned by the caller. */
typedef struct server_config {
    dist_spec service;        /**< service time distribution */
    const stall_spec *stalls; /**< n_stalls stall descriptions */
    size_t n_stalls;
    const char *generator;    /**< GSL generator name */
    uint64_t seed;            /**< scenario seed */
    uint64_t max_windows;     /**< most stall windows one server may walk
                                   (0: no limit); past it the server fails
                                   with -ELOOP (run_window_limit) */
} server_config;

typedef struct server server;

/**
 * A fresh server (empty queue, request index 0, service stream at its start).
 * Every tester gets its own, so testers see the same s_k.
 *
 * @return 0, -EINVAL (unknown generator), -ENOMEM.
 */
int server_new(server **out, const server_config *cfg);

/** Free; server_free(NULL) does nothing. */
void server_free(server *s);

/**
 * Submit the next request, arriving at arrival_ns. Arrivals must come in
 * non-decreasing time order (the engine guarantees it).
 *
 * @return the reply time in ns: the request starts at
 *         max(arrival, previous reply) and ends when its work is done,
 *         skipping every stop-the-world window on the way.
 */
int64_t server_submit(server *s, int64_t arrival_ns);

/**
 * Work work_ns starting at start_ns under the server's stop-the-world
 * windows: the instant the work is done. Time inside a window does no work;
 * starting inside a window waits for its end. Exposed for tests; the same
 * monotonic-time rule as server_submit applies to start_ns.
 */
int64_t server_work_until(server *s, int64_t start_ns, int64_t work_ns);

/**
 * What a request arriving at t_ns with work_ns of work would get as its
 * reply, given everything submitted so far, without submitting it: the
 * server's virtual waiting time plus the work, stalls included. Probes may
 * come in any time order relative to one another, but t_ns must not be
 * before the last submitted arrival (the engine interleaves them in time).
 */
int64_t server_probe(server *s, int64_t t_ns, int64_t work_ns);

/**
 * The first stop-the-world window (of all stalls together) that ends after
 * t_ns, without moving the server's cursors. @return 1 with *out set, 0 if
 * there is none.
 */
int server_next_window(server *s, int64_t t_ns, stall_window *out);

/** Work submitted so far (service times and request stalls), ns, whenever
 *  it is done (after the run's end too). */
int64_t server_busy_ns(const server *s);

/**
 * Set the run's end, end_ns, for server_busy_in_run_ns (default: none, all
 * work counts). Call before the first submission.
 */
void server_set_run_end(server *s, int64_t end_ns);

/**
 * Time the worker spent working within [0, run end), ns: the measured busy
 * time (stall windows are not work). Divided by the run's length it is the
 * measured busy fraction, in [0, 1]; a request still in service at the end
 * counts only up to the end.
 */
int64_t server_busy_in_run_ns(const server *s);

/** The time limit of the server's clock, ns: twice the longest scenario
 *  (2 x 10^6 s). A reply past it is an error, not an overflow. */
#define SERVER_HORIZON_NS (2 * UNITS_MAX_DURATION_NS)

/** 0; -ENOMEM if generating random stalls ran out of memory; -ERANGE if
 *  the stalls never left the worker a gap (work pushed past twice the
 *  longest scenario, 2,000,000 s, the stall windows having held work back
 *  longer than the work took); -ETIME if it is the queued work that
 *  passes it (a backlog of years: more load than the server can serve);
 *  -ELOOP if it walked more than cfg->max_windows stall windows. */
int server_failed(const server *s);

/** Number of requests submitted so far (the next request's index k). */
uint64_t server_requests(const server *s);

/** The time the worker is free of all work submitted so far, ns. */
int64_t server_free_at(const server *s);

#endif
