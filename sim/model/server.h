/* server.h - the system under test: c workers behind one FIFO queue, with
 * stalls.
 *
 * Requests start in arrival order, each on the first worker free (c = 1 by
 * default: the book's single server; c > 1: thread, connection and
 * database pools, M/M/c). Request k (k = 0, 1, ... in the order submitted)
 * needs s_k of work, drawn from the service distribution on the scenario's
 * RNG_SERVICE stream, plus the extra work of any request stall naming k.
 * Stop-the-world windows stop every worker; what a window does to a request
 * in service is its stall's preemption (MODEL.md, "The server"). Because
 * the queue is FIFO and the windows do not depend on the requests, a
 * request's start and reply are fixed the moment it arrives, so
 * server_submit returns the reply at once: the engine needs no event for a
 * reply.
 */
#ifndef COSIM_SERVER_H
#define COSIM_SERVER_H

#include "dist.h"
#include "stall.h"
#include "units.h"

#include <stddef.h>
#include <stdint.h>

typedef struct server_tape server_tape;

/** What a server is made of; the arrays stay owned by the caller. */
typedef struct server_config {
    dist_spec service;        /**< service time distribution */
    const stall_spec *stalls; /**< n_stalls stall descriptions */
    size_t n_stalls;
    const char *generator;    /**< GSL generator name */
    uint64_t seed;            /**< scenario seed */
    uint64_t workers;         /**< c, the workers sharing the queue, in
                                   [1, SERVER_MAX_WORKERS]; 0 counts as 1 */
    uint64_t max_windows;     /**< most stall windows one server may walk
                                   (0: no limit); past it the server fails
                                   with -ECANCELED (run_window_limit) */
    server_tape *tape;        /**< NULL, or where servers of one service
                                   stream keep its draws for each other
                                   (server_tape_new); changes no figure */
} server_config;

/** Most workers a server may have (a pool's free times are kept in one
 *  array of c int64_t: 8 MB at the limit). */
#define SERVER_MAX_WORKERS 1000000

typedef struct server server;

/**
 * A fresh server (empty queue, every worker free at 0, request index 0,
 * service stream at its start). Every tester gets its own, so testers see
 * the same s_k.
 *
 * @return 0, -EINVAL (unknown generator, workers past SERVER_MAX_WORKERS),
 *         -ENOMEM, -ESTALE (a streamed stall file changed since the
 *         scenario read it: stall_file_changed).
 */
int server_new(server **out, const server_config *cfg);

/** Free; server_free(NULL) does nothing. */
void server_free(server *s);

/*
 * The service stream's draws, kept for the next server.
 *
 * Every tester's server draws the same s_0, s_1, ... (common random
 * numbers, rng.h), and a run's other keys (its stalls, rates, users)
 * change which requests meet them but never a draw. A tape keeps the
 * first draws a server made, with the stream's state after them, so that
 * the next server of the same stream (generator, seed, distribution)
 * reads them instead of drawing them again, and, past the tape's end,
 * continues the stream from that state: its values are the very ones it
 * would have drawn. A lognormal draw costs more than the rest of a closed
 * tester's request (under node, a closed part of scenarios/stall_per_second
 * took 43 ms with lognormal service and 17 ms with a constant one): the
 * tape spares every tester after the first its draws, and the browser's
 * lecture page, whose workers keep their tape from one run to the next,
 * the draws of a run whose change left the service alone.
 *
 * Servers sharing a tape run in one thread (each takes its turn; several
 * may be alive at once). A server of another stream than the tape's, or a
 * distribution whose draws are not a function of its parameters alone
 * (empirical, histogram: their values live in arrays), or constant (no
 * draws), leaves the tape alone; when no server uses the tape, a server
 * of another stream restarts it for its own.
 */

/** Most draws a tape keeps by default: 32 MiB of them. */
#define SERVER_TAPE_MAX_DRAWS ((size_t)1 << 22)

/**
 * An empty tape keeping at most max_draws draws (8 bytes each, grown as
 * servers draw; 0: SERVER_TAPE_MAX_DRAWS).
 *
 * @return 0 or -ENOMEM.
 */
int server_tape_new(server_tape **out, size_t max_draws);

/** Free; server_tape_free(NULL) does nothing. Every server using the tape
 *  must be freed first. */
void server_tape_free(server_tape *t);

/** The draws the tape holds (for tests and benchmarks). */
size_t server_tape_draws(const server_tape *t);

/**
 * Submit the next request, arriving at arrival_ns. Arrivals must come in
 * non-decreasing time order (the engine guarantees it).
 *
 * The request is taken by the worker free earliest (FIFO: the queue's head
 * goes to the first worker to free up), at max(arrival, that worker's free
 * time); its work starts at the first instant from then on outside every
 * stop-the-world window (and outside a stop waiting for requests in
 * service, preemption = none): server_last_start_ns. It ends when its work
 * is done, each window met in service acting by its stall's preemption.
 * Which of several free workers takes it changes no time (the workers are
 * identical and every window stops all of them), so the server keeps only
 * their free times; the model's rule, the lowest-numbered, is a label.
 *
 * @return the reply time in ns.
 */
int64_t server_submit(server *s, int64_t arrival_ns);

/**
 * server_submit, with server_last_start_ns and server_last_extra_ns of the
 * request in *start_ns and *extra_ns (the engine's per-request call: on
 * the common path they come from registers, not from the server).
 *
 * @return the reply time in ns.
 */
int64_t server_submit_spans(server *s, int64_t arrival_ns, int64_t *start_ns, int64_t *extra_ns);

/**
 * The instant the work of the request submitted last began, ns: its queue
 * wait is this minus its arrival (the time a worker, or a stall window, held
 * it back), and its service span the reply minus this (its work, and the
 * windows that stopped it in service). Before any submission: 0.
 */
int64_t server_last_start_ns(const server *s);

/**
 * The extra work of the request submitted last from its request stalls
 * (kind = requests), ns: 0 when no request stall names it. Such a request
 * holds its worker from server_last_start_ns to its reply: the engine's
 * record of where the stall happened (the time charts shade it).
 */
int64_t server_last_extra_ns(const server *s);

/** c, the number of workers. */
uint64_t server_workers(const server *s);

/**
 * Work work_ns starting at start_ns under the server's stop-the-world
 * windows (and their preemption: a resampled request draws its new work on
 * the requests' stream): the instant the work is done. Starting inside a
 * window waits for its end. Exposed for tests; the same monotonic-time rule
 * as server_submit applies to start_ns (for c = 1; with c > 1 it may move
 * the server's cursors past what later submissions need: use it alone).
 */
int64_t server_work_until(server *s, int64_t start_ns, int64_t work_ns);

/**
 * What a request arriving at t_ns with work_ns of work would get as its
 * reply, given everything submitted so far, without submitting it: the
 * server's virtual waiting time plus the work, stalls included (with c
 * workers, the wait for the first worker free). A window that resamples
 * the probe's work draws on RNG_RESAMPLE_PROBES, never on the requests'
 * stream; a probe in service at a `none` window's start does not make the
 * stop wait (it never joins the queue). Probes may
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

/** Time the workers work for the requests submitted so far, ns, whenever
 *  it is done (after the run's end too): their service times and request
 *  stalls, plus the work a restart or resample threw away (and, resampled,
 *  the new draw in place of the old). */
int64_t server_busy_ns(const server *s);

/**
 * Set the run's end, end_ns, for server_busy_in_run_ns (default: none, all
 * work counts). Call before the first submission.
 */
void server_set_run_end(server *s, int64_t end_ns);

/**
 * Time the workers spent working within [0, run end), ns, summed over the
 * workers: the measured busy time (stall windows are not work; work a
 * restart throws away is). Divided by the run's length times the workers it
 * is the measured busy fraction, in [0, 1]; a request still in service at
 * the end counts only up to the end.
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
 *  -ELOOP if a request was restarted (preemption restart or resample) more
 *  than 1,000,000 times: the windows leave no gap its work fits in;
 *  -ECANCELED if it walked more than cfg->max_windows stall windows;
 *  -ESTALE if a streamed stall file no longer holds the windows the
 *  scenario read (it changed during the run), -EIO if it could not be read
 *  again (the windows after that point were not seen). */
int server_failed(const server *s);

/** Number of requests submitted so far (the next request's index k). */
uint64_t server_requests(const server *s);

/** The earliest time a worker is free of the work submitted so far, ns: a
 *  request arriving at or after it does not wait for a worker (c = 1: the
 *  time the worker is free of all work). */
int64_t server_free_at(const server *s);

#endif
