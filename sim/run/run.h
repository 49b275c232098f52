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
#include <stdio.h>

/** The results of a scenario's testers, in the scenario's order. */
typedef struct run_result {
    size_t n;
    tester_result *testers;
    int has_truth;          /**< [truth] was asked for */
    hist *truth;            /**< what a user arriving at each probe instant
                                 would wait (owned) */
    uint64_t truth_probes;
    struct run_hlog *hlog;  /**< [scenario] hlog_interval: each tester's
                                 interval log (run_hlog.h; owned), or NULL */
} run_result;

/**
 * Run all testers of s.
 *
 * @param err  on error, a one-line message (no "cosim: " prefix)
 * @return 0, -ENOMEM, -E2BIG (a tester would exceed s->max_requests),
 *         -EOVERFLOW (a correction would), -ERANGE (endless stalls), -ELOOP (a
 *         request restarted by the stalls without end), -ETIME
 *         (a backlog past the server's time limit), -EINVAL (bad generator).
 */
int run_scenario(const scenario *s, run_result *out, char *err, size_t errlen);

/** Called for every request of tester `tester` (its index in the scenario;
 *  s->n_testers for the ground truth's run of its load tester) that the
 *  run's gate shows (tester_gate: every request unless the observer widens
 *  the gate). */
typedef void (*run_observer)(void *ctx, size_t tester, const tester_request *rq, tester_gate *gate);

/** run_scenario with an observer of every request (NULL: none); with
 *  [scenario] hlog_interval it also collects out->hlog (run_scenario does
 *  not: a sweep writes no interval log). */
int run_scenario_observed(const scenario *s, run_observer observer, void *ctx, run_result *out,
                          char *err, size_t errlen);

/**
 * Run one part of s: tester `part` (its index; the others left out), or
 * with part = s->n_testers the ground truth ([truth]; the run of its load
 * tester included). Each tester runs on its own fresh server with the
 * scenario's streams, and the truth on another, so a part gives the very
 * result it has in run_scenario: the browser engine runs the parts in
 * parallel (one worker each) and keeps those a change does not touch
 * (web/engine.c).
 *
 * @param tape  NULL, or a tape (server.h) its servers read and extend: a
 *              caller running many parts in one thread keeps one, so that
 *              the parts after the first spare the service stream's draws
 *              (the browser engine keeps it from one run to the next); it
 *              changes no figure
 * @param observer, ctx  as run_scenario_observed's (no interval log: the
 *                       browser writes none)
 * @param out  receives a result of s->n_testers testers in which only the
 *             part's is filled (out->n = s->n_testers; the others zeroed),
 *             or only the truth
 * @param err  on error, the message run_scenario gives for that part
 * @return as run_scenario; -EINVAL when part is past s->n_testers, or is
 *         s->n_testers without a [truth].
 */
int run_scenario_part(const scenario *s, size_t part, server_tape *tape, run_observer observer, void *ctx,
                      run_result *out, char *err, size_t errlen);

/**
 * Write part `part` of r (run_scenario_part's) as bytes for run_part_load
 * in a program of the same build (tester_result_save, hist_save): not a
 * file format, a hand-over between instances of the browser engine.
 *
 * @return 0, -EINVAL (no such part in r), or -EIO when writing f failed.
 */
int run_part_save(const scenario *s, const run_result *r, size_t part, FILE *f);

/**
 * Put a part run_part_save wrote (for the same scenario s) into r, from
 * *at up to end; *at moves past it. r is zeroed or filled by earlier
 * calls: the first makes its s->n_testers results. Once every part of s is
 * in (each tester, and the truth when s has one), r is what run_scenario
 * gives.
 *
 * @return 0, -EINVAL when the bytes are not run_part_save's for s (another
 *         tester count, a part given twice), -ENOMEM. r is left to
 *         run_result_free.
 */
int run_part_load(const scenario *s, run_result *r, size_t part, const unsigned char **at,
                  const unsigned char *end);

/**
 * The work budget of one job: a single run with its replications
 * (cosim --replications), or a sweep's points and replications (of its
 * shard). A unit of work is one simulated request, one ground-truth probe,
 * one stall window the server walks, or one histogram bucket that a correction's backfill fills. Over it,
 * cosim refuses to start unless given --allow-long (docs/cosim.1).
 */
#define RUN_WORK_BUDGET 1e10

/** The estimated work of one run of a scenario, in units (RUN_WORK_BUDGET). */
typedef struct run_work {
    double tester[SCENARIO_MAX_TESTERS]; /**< per tester, in the scenario's order */
    double truth;                        /**< the ground truth: its probes and the
                                              run of its load tester */
    double total;                        /**< the sum: one run */
} run_work;

/**
 * The requests tester t of s is expected to send:
 *  - paced, corrected and open on a fixed grid: the planned count (sends
 *    never pass it);
 *  - open with Poisson arrivals: duration / mean interval; partly-open:
 *    that times 1 / (1 - p_continue), the requests of a session;
 *  - closed: U duration / (service + think), every user at full rate, but
 *    at most what the server can serve, duration / mean service + U (one
 *    request in flight per user at the end). A Pareto service of infinite
 *    mean counts with its mean below the draws' cap.
 */
double run_tester_requests(const scenario *s, const tester_spec *t);

/**
 * The stall windows the server walks in one run of tester t of s (NULL:
 * the ground truth's run without a load tester), each a unit of work:
 * for every periodic stall (span - first) / period + 1 windows, for a
 * random one span / mean gap, for explicit windows their count; span =
 * duration + drain, the drain the work left at the end: U x mean service
 * (U the users; 1 for open testers), or the work brought beyond the
 * duration (requests x mean service - duration) when more; at most
 * SERVER_HORIZON_NS. Example: 1 ns every 2 ns, a closed user at 10 ms for
 * 1000 s: (1000 s + 10 ms) / 2 ns + 1 = 5.00005e11.
 */
double run_stall_windows(const scenario *s, const tester_spec *t);

/** A server walking more stall windows than this in one run is stopped
 *  (-ELOOP, exit 5) whatever the budget: the windows beyond the estimate. */
#define RUN_WINDOW_SLACK 1e8

/**
 * The most stall windows one server of s may walk: ten times the largest
 * run_stall_windows of its testers and truth, plus RUN_WINDOW_SLACK. The
 * run-time guard against stalls that hold the work back without end (the
 * up-front check, stall_periodic_union_endless, cannot know every case).
 */
uint64_t run_window_limit(const scenario *s);

/**
 * The work of tester t of s: its requests, the stall windows it walks
 * (run_stall_windows), and for a corrected tester the
 * buckets its backfill fills. A backfill of a reply v at expected interval
 * D fills at most min(added values, buckets from D up) buckets; one user's
 * replies but the last come one after another before the duration, so its
 * added values add up to at most duration / D; hence at most
 * min(requests B, U (duration / D + B)) with B the buckets from D's bucket
 * to the histogram's last. A tester with backfill = average_interval (wrk)
 * adds its exit-time backfill the same way, from the bucket of twice the
 * run's average interval D = duration / floor(requests / U), plus one
 * scan of those buckets.
 */
double run_tester_work(const scenario *s, const tester_spec *t);

/** Estimate one run of s (every tester, then the ground truth). */
void run_estimate(const scenario *s, run_work *out);

/**
 * Refuse a job over RUN_WORK_BUDGET.
 *
 * @param work        the job's estimated units
 * @param what        the job's shape for the message ("64 testers x 1000
 *                    replications")
 * @param allow_long  1: never refuse (--allow-long)
 * @param err         on refusal: "the job would take about 6.4e+13 units of
 *                    work (WHAT), more than the budget of 1e+10 ..."
 * @return 0, or -EFBIG when refused.
 */
int run_check_budget(double work, const char *what, int allow_long, char *err, size_t errlen);

/**
 * Refuse replications whose seeds would wrap: replication r runs seed + r
 * (r = 0 .. reps - 1), so seed + reps - 1 must not pass 2^64 - 1.
 *
 * @param seed  the base seed (--seed or the scenario's)
 * @param reps  the replications (0 and 1: one seed)
 * @param err   on refusal: "--replications 3 with the seed
 *              18446744073709551615: the seeds would pass 2^64 - 1 = ...;
 *              lower the seed or the replications"
 * @return 0, or -EOVERFLOW (a usage error, exit 2).
 */
int run_check_seeds(uint64_t seed, uint64_t reps, char *err, size_t errlen);

/**
 * The share of a job done, in [0, 1], for its progress line: reps runs of
 * one scenario (estimate w, n_testers testers), run rep (0-based) going on,
 * in it tester `tester` (n_testers: the ground truth) with the fraction
 * frac of its duration simulated. Every run, tester and the truth weigh
 * their estimated work. Example: 64 testers of equal work, 1000
 * replications, the first tester half done: 0.5 / 64000.
 */
double run_job_share(const run_work *w, size_t n_testers, unsigned reps, unsigned rep, size_t tester,
                     double frac);

/**
 * The time left at the pace so far, for people: elapsed_s (1 - share) /
 * share, as "42 s", "17 min", "3.5 h" or "21.0 days" (a share of 0 gives
 * "unknown").
 *
 * @return buf
 */
char *run_format_time_left(double elapsed_s, double share, char *buf, size_t len);

/** Free the results; safe on a zeroed result. */
void run_result_free(run_result *r);

/** The server configuration of scenario s (its arrays stay owned by s). */
server_config run_server_config(const scenario *s);

/**
 * The stop-the-world windows of scenario s's stalls (every stall together,
 * as the run's server meets them: server_next_window from a fresh server
 * of run_server_config) that end after from_ns and start before to_ns, in
 * time order: the first ending after from_ns, then each next one ending
 * after the last one's end. The charts take them from here (an output
 * module never builds a server); the same seed gives the same windows.
 *
 * @param from_ns,to_ns  the span of the run's clock, ns
 * @param out            receives at most max windows
 * @param n              receives how many
 * @return 0, or a negative errno of server_new (-ENOMEM) with *n 0.
 */
int run_stop_windows(const scenario *s, int64_t from_ns, int64_t to_ns, stall_window *out, size_t max,
                      size_t *n);

/** The tester settings of scenario s shared by every tester. */
tester_run_config run_tester_config(const scenario *s, const server_config *srv);

#endif
