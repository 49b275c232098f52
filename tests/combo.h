/* combo.h - the combination test's parts (issue 30), shared by
 * tests/test_combinations.c (the suite's run) and bench/bench_combinations.c
 * (longer runs):
 *  - combo: one small scenario, every key that shapes when a request is
 *    sent, intended and answered, as numbers (combo_ini writes its INI);
 *  - combo_reference: an independent model of what the docs
 *    (docs/model.md, docs/models.md, docs/scenario-format.md) say each
 *    request's send, intended time and reply are, written from their
 *    formulas with none of the engine's code (a linear scan of users, a
 *    FIFO server over an explicit list of windows);
 *  - combo_engine: the same scenario read by the scenario reader and run
 *    by tester_run, every request observed;
 *  - combo_generator: seeded cases that cover every pair of values of the
 *    keys below (greedy pairwise covering), then random ones;
 *  - combo_shrink: a failing case made as small as it still fails.
 *
 * What the reference covers (a well-defined subset; the generator makes
 * nothing else): constant service times, one tester of kind closed
 * (users, connections, quota and quota_interval, pipeline), paced
 * (users, threads, stagger, connections, schedule per_user or shared, late
 * of each kind, latency_from, catch_up_factor, sleep_granularity) or open;
 * ramp_up (exact starts) on closed and paced testers
 * (a fixed grid, batch); a constant think time (closed and paced); the
 * primitives requests, warmup and timeout;
 * in_flight_at_end record or drop; 1 to 3 workers; no stall, or one stall
 * (a windows list or periodic) with preemption resume, restart, resample
 * (a constant service draws the same time again: as restart) or none
 * (the stop waits for every request in service at the window's start)
 * or overtime (the request in service runs to its end, the window keeps
 * its own).
 * Not covered: random think times, random service, Poisson arrivals, rate ramps, VU pools, corrected
 * testers, request stalls, several stalls at once.
 */
#ifndef COSIM_TESTS_COMBO_H
#define COSIM_TESTS_COMBO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { COMBO_CLOSED, COMBO_PACED, COMBO_OPEN };
enum { COMBO_NEXT_SLOT, COMBO_FROM_NOW, COMBO_CATCH_UP, COMBO_TICKER };
enum { COMBO_NO_STALL, COMBO_RESUME, COMBO_RESTART, COMBO_RESAMPLE, COMBO_NONE, COMBO_OVERTIME };

/* One scenario. A key whose field is 0 (or -1 where 0 is a value) is not
 * written. Times in ns. */
typedef struct combo {
    int kind;
    int users;        /* closed, paced (open: 1) */
    int threads;      /* 0: none */
    int stagger;      /* -1: none */
    int connections;  /* 0: none */
    int quota;        /* 0: none */
    int quota_interval;
    int pipeline;     /* 0: none */
    int batch;        /* 0: none */
    int shared;       /* schedule = shared */
    int late;         /* paced: COMBO_NEXT_SLOT ... (always written) */
    int latency_from; /* 0: none, 1 actual, 2 intended */
    int factor;       /* catch_up_factor, 0: none */
    int grain;        /* sleep_granularity, 0: none */
    int warmup;       /* -1: none */
    int timeout;      /* 0: none */
    int requests;     /* 0: none */
    int workers;      /* 1..3 */
    int preempt;      /* COMBO_NO_STALL: no stall */
    int periodic;     /* the stall: 0 a windows list, 1 periodic */
    int w[4];         /* windows: [w0, w1), and [w2, w3) when w2 > 0 */
    int plen, pper, pfirst; /* periodic */
    int duration, service;
    int rate_per_us;  /* > 0: rate = R/us, else interval = interval_ns */
    int interval_ns;
    int drop;         /* in_flight_at_end = drop */
    int think;        /* a constant think time, 0: none (closed, paced) */
    int ramp;         /* ramp_up (ramp_up_round exact), 0: none (closed, paced) */
    int client;       /* client_time, 0: none (any kind) */
    int first;        /* first_send = interval (open, paced), 0: none */
} combo;

/* One request as either side saw it. */
typedef struct combo_req {
    uint64_t user;
    int64_t intended, sent, reply, latency;
    int recorded;
} combo_req;

/* What either side measured. */
typedef struct combo_out {
    combo_req *rq;
    size_t n, cap;
    uint64_t planned, sent, in_flight, recorded, warmup_skipped, timeouts, blocked;
    int64_t blocked_ns;
} combo_out;

void combo_out_free(combo_out *o);

/* The scenario's INI text into buf. */
void combo_ini(const combo *c, char *buf, size_t len);

/* The reference's figures. 0, or -1 when the case lies outside what it
 * covers (then o is empty). */
int combo_reference(const combo *c, combo_out *o);

/* The engine's figures. 0; 1 when the reader refuses the scenario (why
 * gets its message); -1 when the run fails (why says how). */
int combo_engine(const combo *c, combo_out *o, char *why, size_t whylen);

/* Compare the two: 0 when they agree, else 1 with the first difference
 * written to why. */
int combo_compare(const combo_out *ref, const combo_out *eng, char *why, size_t whylen);

/* Run one case on both sides: 0 agree, 1 differ (why), 2 refused by the
 * reader or outside the reference (not a case). */
int combo_check(const combo *c, char *why, size_t whylen);

/* The pairwise generator. */
typedef struct combo_gen combo_gen;
int combo_gen_new(combo_gen **out, uint64_t seed);
void combo_gen_free(combo_gen *g);
/* The next case to try into *c. */
void combo_gen_next(combo_gen *g, combo *c);
/* Tell the generator the case was a case (ran on both sides: its pairs
 * are covered) or was not (refused: the pair it aimed at is tried with
 * other values, and given up after a few tries). */
void combo_gen_result(combo_gen *g, const combo *c, int was_case);
/* Pairs of values covered, given up (every fill tried was refused) and in
 * all. */
void combo_gen_pairs(const combo_gen *g, size_t *covered, size_t *given_up, size_t *total);
/* Print the pairs given up ("late=ticker x shared=1") to f. */
void combo_gen_print_given_up(const combo_gen *g, FILE *f);

/* The smallest case found that still fails as c does (c is changed). */
void combo_shrink(combo *c);

#endif
