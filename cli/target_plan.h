/* target_plan.h - what `cosim target` plays, worked out before the first
 * connection: the scenario's stop-the-world windows on the target's clock
 * (from its first accepted connection), merged into one sorted list, and
 * the service times it holds, drawn as the engine draws them (the
 * scenario's [service] distribution on the RNG_SERVICE stream, one draw a
 * request in arrival order, plus a request stall's extra work).
 *
 * Pure arithmetic, no sockets and no clock: the server loop (target.c)
 * asks it, and tests/test_target_plan.c holds it to hand-worked values.
 * It is not part of the engine's deterministic path (the simulation never
 * calls it).
 */
#ifndef COSIM_TARGET_PLAN_H
#define COSIM_TARGET_PLAN_H

#include "scenario.h"
#include "stall.h"

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

/** Most stop-the-world windows a target plays (16 MB of plan). */
#define TARGET_PLAN_MAX_WINDOWS 1000000

/** The windows and the service draws of one target run. */
typedef struct target_plan {
    stall_window *w;      /**< sorted, disjoint, non-empty, each starting
                               before the run's end and cut at it */
    size_t n;
    int64_t run_ns;       /**< the run's length on the target's clock */
    const scenario *s;    /**< not owned */
    gsl_rng *rng;         /**< RNG_SERVICE of the scenario's seed */
    uint64_t drawn;       /**< service times drawn so far (the next index) */
} target_plan;

/**
 * Work out the plan of scenario s for a run of run_ns (ns, > 0).
 *
 * Periodic stalls give [O + jP, O + jP + L) for every j whose window
 * starts before run_ns; windows, gc_log and file stalls their windows
 * (a streamed file is read through a stall_cursor). Overlapping or
 * touching windows of different stalls are merged (a stop is a stop).
 * Only the `resume` preemption is played (a request in service pauses and
 * continues at the window's end), the scenario's default.
 *
 * @param out   receives the plan (free with target_plan_free)
 * @param why   on error, a one-line reason naming the stall
 * @return 0; -EINVAL (a random stall, whose windows the engine draws
 *         during its run; a preemption other than resume; more than
 *         TARGET_PLAN_MAX_WINDOWS windows; run_ns not positive), -ESTALE
 *         (a stall file changed since the scenario was read), -ENOMEM.
 */
int target_plan_new(target_plan **out, const scenario *s, int64_t run_ns, char *why, size_t whylen);

/** Free; target_plan_free(NULL) does nothing. */
void target_plan_free(target_plan *p);

/**
 * The work of the next request (arrival order), ns: its service time
 * (dist_draw_ns of [service] on the RNG_SERVICE stream, the engine's
 * k-th draw) plus the extra work of any `requests` stall naming its index.
 * @return the work in ns (>= 0).
 */
int64_t target_plan_next_work(target_plan *p);

/**
 * A request in service when a stop-the-world window held [real_start_ns,
 * real_end_ns) on the target's clock, due at finish_ns: with `resume` its
 * remaining work continues at the window's end, so it is due the window's
 * length later (MODEL.md, "The server"); one due at or before the start
 * was done before it.
 * @return the new due instant in ns, INT64_MAX on overflow.
 */
int64_t target_plan_resume(int64_t finish_ns, int64_t real_start_ns, int64_t real_end_ns);

#endif
