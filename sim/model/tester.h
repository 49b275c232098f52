/* tester.h - the load testers (MODEL.md, "The testers").
 *
 * A tester decides when to send; the server decides when each reply comes.
 * Each tester runs against its own fresh server, so all testers see the
 * same service times s_k and differ only in how they send:
 *  - closed: U users, each sends the instant its previous reply arrives
 *    (plus a think time); latency = reply - actual send time.
 *  - paced: intends one request every interval D but waits for each reply;
 *    with U users the grid t_i = floor(i D) is dealt round-robin (user u owns
 *    t_u, t_{u+U}, ...), so every on-time send is a grid instant and
 *    sent <= planned; a late reply is handled by a named policy (from_now,
 *    next_slot, catch_up) applied to the user's own slots; latency = reply -
 *    actual send time, or (latency_from = intended) reply - the intended
 *    time: the slot for catch_up, the instant it was due for from_now.
 *  - open: sends request i at its intended time t_i whatever the replies
 *    (fixed grid, or Poisson arrivals); latency = reply - t_i.
 *  - corrected: paced, every sample recorded with the expected interval
 *    (HdrHistogram's recordValueWithExpectedInterval, or the book's
 *    Listing 5.2).
 * End of run: sends happen only at instants before the duration. A reply
 * after the duration is "in flight at the end": recorded by default (the
 * book counts all 100,000), or dropped as wrk2 does.
 * Memory is O(users): nothing is stored per request.
 */
#ifndef COSIM_TESTER_H
#define COSIM_TESTER_H

#include "dist.h"
#include "hist.h"
#include "names.h"
#include "server.h"
#include "units.h"

#include <stdint.h>

/** The tester kinds, one per row of tester_kinds.def. */
typedef enum tester_kind {
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) TESTER_##ENUM,
#include "tester_kinds.def"
#undef TESTER_KIND
} tester_kind;

/** How many tester kinds there are (rows of tester_kinds.def). */
enum { TESTER_N_KINDS = 0
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) +1
#include "tester_kinds.def"
#undef TESTER_KIND
};

/** A tester kind's properties, the FLAGS of its row in tester_kinds.def:
 *  what code asks of a kind instead of naming it. */
enum tester_kind_flag {
    /** sends at a rate (rate or interval): an interval D between arrivals
     *  (every kind but closed, whose users send when replies come) */
    TESTER_KIND_RATED = 1u << 0,
    /** an arrival takes no free user: `users` does not apply and requests
     *  in flight are unbounded (open, partly_open) */
    TESTER_KIND_OPEN_LIKE = 1u << 1,
    /** users are dealt the slots floor(i D) of one grid (paced, corrected;
     *  tester_grid_of gives the grid) */
    TESTER_KIND_ON_GRID = 1u << 2,
    /** a reply after the user's next slot is handled by `late` */
    TESTER_KIND_LATE_POLICY = 1u << 3,
    /** records each latency with the expected interval, adding the values
     *  coordinated omission hid (corrected) */
    TESTER_KIND_CORRECTS = 1u << 4,
    /** an arrival is a session of 1 / (1 - p_continue) requests on average
     *  (partly_open) */
    TESTER_KIND_SESSIONS = 1u << 5,
    /** each request is an arrival of its own: fixed, poisson or a ramp of
     *  stages (open); the ground truth's default load */
    TESTER_KIND_ARRIVALS = 1u << 6,
    /** its users' schedule may be shared (JMeter), staggered (wrk2),
     *  rounded, caught up at a factor, and its latency taken from the
     *  intended time (paced: the tools' own keys) */
    TESTER_KIND_SCHEDULE_KEYS = 1u << 7,
};

/** A tester kind's row (tester_kinds.def). */
typedef struct tester_kind_info {
    const char *name;   /**< kind = NAME; the report's and summary's kind */
    unsigned flags;     /**< enum tester_kind_flag bits */
    int chart_style;    /**< the chart style of the kind's first tester (1..5) */
} tester_kind_info;

/** Every tester kind, indexed by tester_kind. */
extern const tester_kind_info tester_kinds[TESTER_N_KINDS];

/** Whether kind k has every flag of mask (0 for a value out of range). */
static inline int tester_kind_has(tester_kind k, unsigned mask)
{
    return (unsigned)k < TESTER_N_KINDS && (tester_kinds[k].flags & mask) == mask;
}

/** What a paced (or corrected) tester does when a reply comes after its next
 *  intended send time. */
typedef enum tester_late {
    /** send at once; the schedule continues from now (seed 000's paced) */
    TESTER_LATE_FROM_NOW = 0,
    /** send at the next instant of the original grid at or after the reply
     *  (the book's Example 5.7 tester, Listing 5.3) */
    TESTER_LATE_NEXT_SLOT,
    /** send at once and keep the original grid, firing late requests back to
     *  back until on schedule (cycle-time tools, seed 003) */
    TESTER_LATE_CATCH_UP,
    /** Go's time.Ticker (runtime/time.go): a late user sends at once for the
     *  first slot it missed (the one tick the channel's buffer of 1 kept),
     *  the other missed slots are dropped, and it sends next at its first
     *  slot strictly after the late send; its first slot is one of its own
     *  intervals after the start (a ticker's first tick) */
    TESTER_LATE_TICKER,
} tester_late;

typedef enum tester_arrivals {
    TESTER_ARRIVALS_FIXED = 0, /**< t_i = floor(i D) */
    TESTER_ARRIVALS_POISSON,   /**< exponential gaps of mean D (RNG_ARRIVALS) */
} tester_arrivals;

/** When an open or paced tester's grid sends its first request
 *  (tester_spec's first_send holds it). */
typedef enum tester_first_send {
    TESTER_FIRST_SEND_START = 0, /**< t_0 = 0: the grid 0, D, 2D, ..., each
                                      sent when before the duration */
    /** vegeta's pacer (lib/attack.go Attack, lib/pacer.go
     *  ConstantPacer.Pace, cf58112): request k is intended at t_{k+1}, one
     *  interval after its grid slot t_k, and sent when t_k is before the
     *  duration (the pacer tests the duration before it waits for the
     *  tick): the same count, the whole grid one interval later, the last
     *  send up to one interval past the duration */
    TESTER_FIRST_SEND_INTERVAL,
} tester_first_send;

/** When a paced tester's user tests the duration before a send
 *  (tester_spec's stop_test holds it). */
typedef enum tester_stop_test {
    TESTER_STOP_AT_SEND = 0, /**< a request is sent only at an instant before
                                  the duration */
    /** hey -z with -q (requester/requester.go runWorker, 8985827): the loop
     *  tests its stop channel, then waits on its ticker, then sends; so a
     *  user ready (its previous reply in) before the duration sends at its
     *  next tick even past it, and one ready at or after it stops. With
     *  late = ticker only */
    TESTER_STOP_WHEN_READY,
} tester_stop_test;

/** Where a paced tester measures latency from (tester_spec's
 *  latency_from_intended holds it). */
typedef enum tester_latency_from {
    TESTER_FROM_ACTUAL = 0, /**< the actual send (the default) */
    TESTER_FROM_INTENDED,   /**< the intended send (wrk2; Hyperfoil's "compensated") */
} tester_latency_from;

/** What happens to replies after the duration (tester_run_config's
 *  drop_in_flight holds it). */
typedef enum tester_in_flight {
    TESTER_IN_FLIGHT_RECORD = 0, /**< recorded (the book; the default) */
    TESTER_IN_FLIGHT_DROP,       /**< dropped (wrk2) */
} tester_in_flight;

/** How a staged open tester places the arrivals of each stage. */
typedef enum tester_spread {
    /** k6 ramping-arrival-rate (lib/executor/ramping_arrival_rate.go, cal):
     *  arrival i (from 1) at the instant the integral of the rate reaches i */
    TESTER_SPREAD_AREA = 0,
    /** Gatling rampUsersPerSec / constantUsersPerSec (OpenInjectionStep.scala):
     *  each whole second's users (the integral, carried within a stage) spread
     *  over its 1000 milliseconds by Shard.shards */
    TESTER_SPREAD_PER_SECOND,
} tester_spread;

/** Whose schedule a paced tester's users follow. */
typedef enum tester_schedule {
    /** each user its own slots of the tester's grid (dealt round-robin) */
    TESTER_SCHEDULE_PER_USER = 0,
    /** one schedule shared by the users, as JMeter's Constant Throughput
     *  Timer in its shared modes (ConstantThroughputTimer.java,
     *  calculateSharedDelay and delay): a user ready at r takes the
     *  schedule's next slot n = max(r, last + D) (last = n), and sends at
     *  max(r, p + (n - r)), p its own previous send */
    TESTER_SCHEDULE_SHARED,
} tester_schedule;

/** How a ramp-up's start instants are rounded (tester_spec.ramp_up_ns). */
typedef enum tester_ramp_round {
    /** user i of U starts at floor(i R / U) ns */
    TESTER_RAMP_EXACT = 0,
    /** the step R / U rounded half up to whole ms, user i at i steps
     *  (JMeter ThreadGroup.start: perThreadDelayInMillis =
     *  Math.round((float) rampUp * 1000 / numThreads), thread i delayed
     *  by i of them) */
    TESTER_RAMP_STEP_MS,
    /** each start floored to a whole ms: user i at floor(i R / U / 1 ms)
     *  ms (Gatling ClosedWorkload.injectBatch: the missing users spread by
     *  Shard.shards over the batch window's milliseconds, ms j holding
     *  ceil(n (j + 1) / 1000) - ceil(n j / 1000) of them) */
    TESTER_RAMP_START_MS,
} tester_ramp_round;

/** Most stages of a staged open tester. */
#define TESTER_MAX_STAGES 32

/** One stage of a rate ramp: over duration_ns the rate goes linearly from
 *  the previous stage's target (or the start rate) to this target. */
typedef struct tester_stage {
    int64_t duration_ns;
    units_interval target; /**< the target rate as an interval per arrival;
                                den = 0: a rate of zero */
} tester_stage;

/** One tester of a scenario. */
/** Longest tester label (bytes): it must fit a chart's legend. */
#define TESTER_LABEL_MAX 40

/** The longest client_time a tester takes: 1 h (so sent + client_ns
 * stays far below INT64_MAX for any send before a run's end). */
#define TESTER_MAX_CLIENT_NS (3600LL * 1000000000LL)

typedef struct tester_spec {
    char name[48];
    tester_kind kind;
    uint64_t users;             /**< closed and paced: number of users (>= 1) */
    units_interval interval;    /**< paced, open, corrected: intended interval D
                                     of the whole tester (users share it) */
    tester_late late;           /**< paced, corrected */
    hist_correction correction; /**< corrected */
    int64_t expected_interval_ns; /**< corrected: D for the correction; 0 means
                                       each user's own interval floor(U D) */
    tester_arrivals arrivals;   /**< open */
    tester_first_send first_send; /**< open (fixed grid), paced: the grid
                                       from 0 or one interval later */
    tester_stop_test stop_test; /**< paced with late = ticker: the duration
                                     tested at the send or when ready */
    int has_think;              /**< closed, partly_open: think time between
                                     reply and send */
    dist_spec think;
    uint64_t connections;       /**< closed, paced, corrected: 0 for one per
                                     user; else at most this many requests in
                                     flight, a due user waiting for one (time
                                     reported as blocked, as Hyperfoil does) */
    int latency_from_intended;  /**< paced: measure from the intended send
                                     time (wrk2; Hyperfoil's "compensated") */
    double p_continue;          /**< partly_open: probability of another
                                     request after a reply, in [0, 1) */
    char label[TESTER_LABEL_MAX + 1]; /**< the legends' text ("closed-loop
                                           (paced)"); empty: the name */
    int chart_hidden;           /**< chart = no: the charts leave it out */
    const char *profile;        /**< profile = NAME: the profile table's own
                                     string (scn_profile.h); NULL: none */
    /* The primitives any kind may use (docs/models.md); all zero: none, and
     * the run takes the loops that test none of them. */
    uint64_t requests;          /**< stop sending after this many (0: only
                                     the duration bounds the run) */
    int64_t warmup_ns;          /**< requests intended before this are sent
                                     but not recorded (0: none) */
    int64_t timeout_ns;         /**< a latency above this is not recorded but
                                     counted in timeouts (0: none; wrk's
                                     stats_record) */
    int64_t client_ns;          /**< the tool's own time per request, in
                                     its latency but not the server's: a
                                     request sent at t reaches the server
                                     at t + client_ns, its latency counted
                                     from t (hey 0.1.4 requester.go
                                     makeRequest: the time runs from before
                                     the request is built to after the body
                                     is read); at most TESTER_MAX_CLIENT_NS
                                     (0: none) */
    int backfill;               /**< 1: at the end, backfill with the run's
                                     average interval (wrk's stats_correct) */
    uint64_t catch_up_factor;   /**< paced catch_up: a late user sends at
                                     most this many times its rate, anchored
                                     at its last on-time send (wrk2's
                                     usec_to_next_send; 0: no limit) */
    uint64_t vus;               /**< open: arrivals served by a pool of this
                                     many virtual users; an arrival finding
                                     none free is dropped (0: no pool) */
    uint64_t max_vus;           /**< open with vus: the pool may grow to this
                                     (one more VU per drop, k6) */
    int vus_queue;              /**< open with vus: an arrival finding no free
                                     VU waits for the first to free and is
                                     sent then, latency from that send, the
                                     wait counted as blocked (Hyperfoil's
                                     session pool); 0: dropped (k6) */
    int64_t vu_init_ns;         /**< open with vus: time a new VU takes to
                                     start; no other starts meanwhile */
    uint64_t batch;             /**< open: requests released together, every
                                     batch x D (0 or 1: one at a time) */
    /* A rate ramp (open; n_stages = 0: none). interval then holds the
     * peak rate's interval (for the offered utilisation and the charts). */
    size_t n_stages;
    tester_stage stages[TESTER_MAX_STAGES];
    units_interval start_rate;  /**< the rate at 0 (den = 0: zero, k6's
                                     startRate default) */
    tester_spread spread;       /**< how a stage's arrivals are placed */
    tester_schedule schedule;   /**< paced: per user (default) or shared */
    int has_stagger;            /**< paced: user u's own schedule starts at
                                     u x stagger_ns (slots every U D from
                                     there) instead of the dealt grid */
    int64_t stagger_ns;         /**< with has_stagger: 0 = all users' slots
                                     at the same instants (hey's workers),
                                     5 ms = wrk2's connects */
    uint64_t threads;           /**< with has_stagger: the users are split
                                     into this many equal threads (users /
                                     threads each, in user order), user u
                                     starting at (u mod (users / threads))
                                     x stagger_ns (wrk2's -t; 0 or 1: one
                                     thread) */
    uint64_t quota;             /**< closed: at most this many requests a
                                     user per quota interval (0: no quota;
                                     memtier's rate limiter) */
    int64_t quota_interval_ns;  /**< with quota: the intervals [k I, (k+1) I)
                                     from 0; unused quota is lost */
    int64_t interval_round_ns;  /**< paced: the schedule's step (each user's
                                     U D, or D when shared) was rounded half
                                     up to a multiple of this when loaded
                                     (JMeter's Math.round of whole ms; 0:
                                     exact). interval holds the result */
    uint64_t pipeline;          /**< closed with quota: requests a user may
                                     have outstanding, sent as the quota
                                     allows (memtier's --pipeline; 0 or 1:
                                     one); not with connections */
    int64_t ramp_up_ns;         /**< closed and paced: the users start one
                                     after another over this (0: all at 0):
                                     user i at tester_ramp_up_start */
    int think_first;            /**< closed with a think time: each user
                                     also thinks before its first request
                                     (JMeter's timers run before every
                                     sample: timers/ConstantTimer.java) */
    int has_ramp_up;            /**< paced: ramp_up was given, 0 included:
                                     the users start at tester_ramp_up_start
                                     (ramp_up 0: all at 0, as JMeter's
                                     ThreadGroup.start with a 0 s ramp-up),
                                     not one interval apart */
    tester_ramp_round ramp_up_round; /**< how those starts are rounded */
    int step_started;           /**< paced, from_now: a user's step counts
                                     the users started by the instant its
                                     timer runs (A D, A of U: JMeter's
                                     AllActiveThreads), not all U */
    units_interval step_interval; /**< with step_started: D as given (the
                                       interval before interval_round) */
    int64_t sleep_granularity_ns; /**< paced with catch_up_factor: waits are
                                       slept as wrk2's ae timers sleep them
                                       on one connection, floor(w / G) + 1
                                       grains from the instant set, times
                                       read on a clock of G / 1000 (0:
                                       exact) */
} tester_spec;

/** Settings shared by every tester of a run. */
typedef struct tester_run_config {
    int64_t duration_ns;     /**< sends only at instants before this */
    int64_t threshold_ns;    /**< over_threshold counts latencies above it */
    int drop_in_flight;      /**< 1: drop replies after the duration (wrk2) */
    unsigned sub_bits;       /**< histogram S */
    uint64_t max_requests;   /**< refuse to send more than this (0: no limit) */
    int record_wait;         /**< 1: keep tester_result.wait, the queue waits
                                  (a histogram record per request: off by
                                  default, so the hot path pays nothing) */
    const server_config *server;
} tester_run_config;

/** One request as seen by an observer (for charts that need single
 *  requests; nothing is stored by the tester). */
typedef struct tester_request {
    uint64_t index;      /**< k, in send order */
    uint64_t user;
    int64_t intended_ns; /**< when the tester meant to send it */
    int64_t sent_ns;     /**< when it was sent (its arrival at the server) */
    int64_t start_ns;    /**< when its work began: start - sent is its queue
                              wait (for a worker, or a stall window), reply -
                              start its service span (server_last_start_ns) */
    int64_t reply_ns;    /**< when the reply came */
    int64_t latency_ns;  /**< what the tester measured */
    int recorded;        /**< 0 when dropped at the end of the run */
    int64_t stall_extra_ns; /**< its request stall's extra work, ns (0: none;
                                 server_last_extra_ns) */
} tester_request;

/** A request stall as it happened: the stalled request's service span
 *  [start_ns, end_ns), from its work's start to its reply. */
typedef struct tester_stall_span {
    int64_t start_ns, end_ns;
    uint64_t index; /**< the request's index in send order */
} tester_stall_span;

/** Most request stall spans a tester keeps (tester_result.stall_spans). */
#define TESTER_MAX_STALL_SPANS 5000

/** Which requests an observer no longer needs to see: those intended in
 *  [skip_from_ns, skip_to_ns) whose latency is at most
 *  skip_latency_max_ns. The loop keeps one gate a run, starting empty
 *  (skip_from_ns = skip_to_ns: every request is shown); an observer may
 *  widen it after each call, so a chart that keeps, say, the largest
 *  latency of a time bin is called once per bin and per new largest value,
 *  not once per request (O(points drawn), not O(requests)). */
typedef struct tester_gate {
    int64_t skip_from_ns, skip_to_ns, skip_latency_max_ns;
    uint64_t skip_span_ns; /**< skip_to_ns - skip_from_ns as unsigned, kept by
                                tester_gate_skip_all and tester_gate_narrow
                                (0 in the empty gate {0, 0, 0, 0}) so
                                tester_gate_shows reads it, not both ends */
} tester_gate;

/** Set g to skip every request (the start of an observer that narrows it
 *  with tester_gate_narrow for each thing it keeps). */
static inline void tester_gate_skip_all(tester_gate *g)
{
    g->skip_from_ns = INT64_MIN;
    g->skip_to_ns = INT64_MAX;
    g->skip_latency_max_ns = INT64_MAX;
    g->skip_span_ns = UINT64_MAX; /* INT64_MAX - INT64_MIN */
}

/** Narrow g to the requests also skipped by [from_ns, to_ns) with latency
 *  at most latency_max_ns (the intersection of the two skip sets: a
 *  request is skipped only when every part of the observer would skip it).
 *  from_ns >= to_ns: skip nothing. */
static inline void tester_gate_narrow(tester_gate *g, int64_t from_ns, int64_t to_ns, int64_t latency_max_ns)
{
    if (from_ns > g->skip_from_ns)
        g->skip_from_ns = from_ns;
    if (to_ns < g->skip_to_ns)
        g->skip_to_ns = to_ns;
    if (latency_max_ns < g->skip_latency_max_ns)
        g->skip_latency_max_ns = latency_max_ns;
    if (g->skip_from_ns >= g->skip_to_ns)
        g->skip_from_ns = g->skip_to_ns = 0; /* nothing skipped */
    g->skip_span_ns = (uint64_t)g->skip_to_ns - (uint64_t)g->skip_from_ns;
}

/** 1 when the observer must see a request intended at intended_ns with
 *  latency latency_ns: outside the skip range (one unsigned comparison),
 *  or above the skipped latencies. */
static inline int tester_gate_shows(const tester_gate *g, int64_t intended_ns, int64_t latency_ns)
{
    return (uint64_t)intended_ns - (uint64_t)g->skip_from_ns >= g->skip_span_ns ||
           latency_ns > g->skip_latency_max_ns;
}

/** Called for each request, in send order, that its gate shows (all of
 *  them while the observer leaves gate as it is). */
typedef void (*tester_observer)(void *ctx, const tester_request *req, tester_gate *gate);

/** What a tester measured. */
typedef struct tester_result {
    uint64_t planned;          /**< requests its schedule intended before the
                                    end (closed and Poisson: = sent) */
    uint64_t sent;             /**< requests actually sent */
    uint64_t in_flight_at_end; /**< sent, but replied after the duration */
    uint64_t over_threshold;   /**< recorded values > threshold (correction's
                                    added values included) */
    uint64_t added;            /**< corrected: values the correction added;
                                    sent + added never passes max_requests */
    int64_t refused_latency_ns; /**< on -EOVERFLOW: the reply whose correction
                                     would have passed max_requests, ns */
    uint64_t refused_added;    /**< on -EOVERFLOW: the values it would add */
    int64_t last_reply_ns;     /**< the last reply's time */
    uint64_t blocked;          /**< sends that waited for a connection */
    int64_t blocked_ns;        /**< total time sends waited for one, ns */
    int64_t busy_ns;           /**< work this tester's requests needed, ns
                                    (done before or after the end) */
    int64_t busy_in_run_ns;    /**< time the server worked within the run,
                                    ns: / duration = measured busy fraction */
    uint64_t max_sessions;     /**< partly_open: most sessions at once */
    uint64_t timeouts;         /**< latencies above spec->timeout_ns, not
                                    recorded */
    uint64_t warmup_skipped;   /**< requests intended before the warm-up,
                                    not recorded */
    uint64_t dropped_arrivals; /**< open with vus: arrivals that found no
                                    free VU (k6's dropped_iterations) */
    uint64_t max_vus_used;     /**< open with vus: the pool's size at the end */
    int64_t backfill_interval_ns; /**< backfill: the average interval used */
    uint64_t *drops_per_s;     /**< open with vus: dropped arrivals in each
                                    second [s, s+1) of intended time (owned;
                                    n_drop_seconds entries), else NULL */
    size_t n_drop_seconds;
    int backlog_growing;       /**< tester_latency_includes_backlog: no request
                                    from mid-run on found the tester on
                                    schedule and the server idle, and the
                                    last latency exceeds the one at mid-run
                                    (the queue grew over the second half) */
    int overloaded;            /**< its latencies measure the test's length:
                                    tester_latency_includes_backlog and
                                    (offered utilisation >= 1 or
                                    backlog_growing) */
    int offered_full;          /**< tester_latency_includes_backlog and the
                                    offered utilisation is 1 or more, decided
                                    exactly (tester_offered_at_least_one) */
    int64_t latency_mid_ns;    /**< latency of the first request intended at
                                    or after half the duration (-1: none) */
    int64_t latency_last_ns;   /**< latency of the last request sent */
    int64_t last_clear_ns;     /**< intended time of the last request that
                                    found no backlog (-1: none) */
    hist *dropped;             /**< in_flight_at_end = drop: the measured
                                    latencies of the dropped replies (no
                                    correction's backfill; owned; NULL when
                                    none was dropped), so the report can say
                                    what the drop hides */
    tester_stall_span *stall_spans; /**< the request stalls this tester's
                                    requests met, in send order (owned;
                                    the first TESTER_MAX_STALL_SPANS), for
                                    the time charts' shading; else NULL */
    size_t n_stall_spans;
    uint64_t stall_spans_total; /**< request stalls met (kept or not) */
    hist *hist;                /**< every recorded value (owned) */
    hist *wait;                /**< cfg->record_wait: the queue wait (start -
                                    sent) of each request recorded in hist
                                    (not of a correction's added values);
                                    value 0 is exact, so its count over the
                                    total is P(no wait). Owned; else NULL */
} tester_result;

/**
 * Ground truth probes (MODEL.md, "The truth"): at the instants of a Poisson
 * process of mean gap interval_ns before the duration, what a user arriving
 * then would wait: the server's virtual waiting time (the work already in
 * the FIFO queue, stalls included) plus a service time of its own. Gaps and
 * service times are drawn on the RNG_TRUTH stream, so the tester's s_k are
 * untouched. The probes see the load of the tester they run in, and never
 * join the queue. By PASTA, and because the probes are independent of the
 * server's path, each probe is an independent draw from the time-average
 * distribution of the virtual latency: the truth does not depend on the
 * probe interval (only its sampling error does, as 1/sqrt(probes)) and
 * cannot lock to any schedule of the load.
 */
typedef struct tester_truth {
    int64_t interval_ns; /**< mean gap between probes (> 0) */
    hist *hist;          /**< receives one value per probe (caller's) */
    uint64_t probes;     /**< set by tester_run: probes taken */
    int64_t next_ns;     /**< internal: the next probe's instant */
} tester_truth;

/**
 * Run one tester against a fresh server built from cfg->server.
 *
 * @param observer  NULL, or called for each request
 * @param out       filled; out->hist is allocated here, free it with
 *                  tester_result_free
 * @return 0, -ENOMEM, -EINVAL (bad spec or generator; a corrected tester
 *         with late = catch_up, which would count each gap twice), -E2BIG when the
 *         tester would send more than cfg->max_requests (a corrected
 *         tester: requests sent plus values its correction added),
 *         -EOVERFLOW when a corrected tester's correction would take the
 *         requests sent plus the values added past cfg->max_requests (see
 *         out->refused_latency_ns and out->refused_added), or the server's
 *         failure (server_failed: -ERANGE, -ETIME). On an error the counts
 *         in out stay readable; the histogram is freed.
 */
int tester_run(const tester_spec *spec, const tester_run_config *cfg,
               tester_observer observer, void *ctx, tester_result *out);

/**
 * tester_run, with ground-truth probes taken along the way (truth may be
 * NULL). spec may be NULL: then the probes run against the server with no
 * load but its stalls, and out only gets the probes' run.
 */
int tester_run_with_truth(const tester_spec *spec, const tester_run_config *cfg,
                          tester_observer observer, void *ctx, tester_truth *truth,
                          tester_result *out);

/**
 * A tester's request rate, in requests per ns: 1 / D for open, paced and
 * corrected testers (D = the interval of the whole tester) and
 * 1 / (D (1 - p_continue)) for partly-open ones (a session sends
 * 1 / (1 - p) requests on average). The one place this is worked out: the
 * offered utilisation, the work estimate and the chart's subtitle use it.
 *
 * @return the rate, or -1 for a closed tester (it has no rate) or a zero
 *         interval.
 */
double tester_request_rate_per_ns(const tester_spec *t);

/**
 * About how many requests tester t sends in a run of duration_ns against a
 * server of `workers` workers with service times `service` (the up-front
 * max_requests check and the work estimate both use it):
 *  - closed, U users, cycle C = mean service + mean think + client_time: the smaller of
 *    the users at full rate, U duration / C, and what the server can
 *    complete, c duration / mean service, plus one request in flight per
 *    user (a closed loop sends only as fast as its replies come: 1,000
 *    users against a 1 ms service for 10 s send about 10,000 + 1,000, not
 *    10^7); INFINITY when C is 0 (it would send without end);
 *  - Poisson open and partly-open: duration x the rate
 *    (tester_request_rate_per_ns);
 *  - the grid kinds: the grid's count before duration_ns.
 * Means are those of the draws as capped (dist_mean_drawn_ns).
 */
double tester_expected_requests(const tester_spec *t, const dist_spec *service, uint64_t workers,
                                int64_t duration_ns);

/**
 * The offered utilisation of a tester (MODEL.md, "What a run writes"): its
 * request rate (tester_request_rate_per_ns: a partly-open tester's
 * includes 1 / (1 - p_continue)) x the mean service time of the draws as
 * made (dist_mean_drawn_ns: capped at the longest duration, so a Pareto
 * tail with shape <= 1, or near it, has the finite mean a run can show),
 * for one worker (callers divide by the server's workers, [service]
 * workers). Every offered utilisation cosim shows comes from here
 * (scenario_utilisation).
 *
 * @return the utilisation, or -1 for a closed tester (it has no rate).
 */
double tester_offered_utilisation(const tester_spec *t, const dist_spec *service);

/**
 * Whether the offered utilisation (tester_offered_utilisation over
 * `workers` workers, 0 meaning 1) is 1 or more, decided exactly: the
 * interval's fraction num / den ns, the mean of the draws as made and
 * p_continue each taken as the exact number they hold, so an open tester
 * at 49 ns against a constant 49 ns is at 1 (the doubles' quotient reads
 * 0.99999...). The overload flag's test (MODEL.md, "Overload").
 *
 * @return 1 or 0; 0 for a closed tester (no rate).
 */
int tester_offered_at_least_one(const tester_spec *t, const dist_spec *service, uint64_t workers);

/**
 * 1 if the tester's latencies include its schedule's backlog, so that they
 * grow with the test's length when the server cannot keep up: open and
 * partly-open testers (arrivals do not wait for replies), and paced testers
 * with late = catch_up timed from the intended time (wrk2). Closed testers
 * and the other paced ones wait for each reply, and a from_now schedule
 * restarts at each late send, so their latencies stay bounded.
 */
int tester_latency_includes_backlog(const tester_spec *t);

/**
 * The arrivals a staged open tester (n_stages > 0) plans before
 * duration_ns: the integral of its rate, stage by stage (each linear from
 * the previous target to its own), up to the duration (tool-independent:
 * how the arrivals are placed moves the count by at most one a stage).
 */
double tester_stages_expected(const tester_spec *t, int64_t duration_ns);

/**
 * Whether t's stages can be run as given: -EINVAL (*why says why) when
 * spread = per_second and a stage is not whole seconds (Gatling counts
 * users per whole second), -ERANGE when a per-second stage's user count
 * cannot be worked out exactly in 127 bits; else 0.
 */
int tester_stages_check(const tester_spec *t, const char **why);

/** "per_user", "shared": a paced tester's schedule key. */
extern const names_table tester_schedule_names;
/** "no", "yes": think_first's words (tester_spec.think_first). */
extern const names_table tester_think_first_names;
/** "drop", "queue": vus_full's words (tester_spec.vus_queue). */
extern const names_table tester_vus_full_names;
/** "all", "started": step_users' words (tester_spec.step_started). */
extern const names_table tester_step_users_names;
/** "exact", "step_ms", "start_ms": tester_ramp_round's words. */
extern const names_table tester_ramp_round_names;

/**
 * When user i of a tester with a ramp-up starts (its first send): the
 * spec's ramp_up_ns R over its users U, rounded by ramp_up_round
 * (tester_ramp_round: exact floor(i R / U) ns; JMeter's whole-ms step
 * i x round(R / U); Gatling's whole-ms start floor(i R / U / 1 ms)).
 * Computed in 128 bits: every start lies in [0, R].
 *
 * @param spec  the tester (users >= 1)
 * @param i     the user, 0 .. users - 1
 * @return the start, ns (0 when the spec has no ramp-up); the step_ms
 *         rule may put the last users past R (JMeter's i x step), capped
 *         at INT64_MAX
 */
int64_t tester_ramp_up_start(const tester_spec *spec, uint64_t i);

/** "area", "per_second": a staged tester's stage_spread key. */
extern const names_table tester_spread_names;

/** Free what tester_run allocated; safe on a zeroed or freed result. */
void tester_result_free(tester_result *r);

/**
 * Write result r as bytes for tester_result_load in a program of the same
 * build (a run's part handed between instances of the browser engine:
 * run_part_save): its figures as the struct holds them, then its owned
 * arrays and histograms (hist_save). Not a file format.
 *
 * @param f  the stream (a memory stream)
 * @return 0, or -EIO when writing f failed.
 */
int tester_result_save(const tester_result *r, FILE *f);

/**
 * Read a result tester_result_save wrote, from *at (up to end); *at moves
 * past it.
 *
 * @param r  receives the result (the caller's: tester_result_free, also
 *           after an error)
 * @return 0, -EINVAL when the bytes are not tester_result_save's, -ENOMEM.
 */
int tester_result_load(tester_result *r, const unsigned char **at, const unsigned char *end);

/* The name tables of the tester's enums (names.h), indexed by value: the
 * words of a scenario's kind, late, arrivals, latency_from and
 * in_flight_at_end keys. */
extern const names_table tester_kind_names;
extern const names_table tester_late_names;
extern const names_table tester_arrivals_names;
/** "start", "interval": first_send's words (tester_spec.first_send). */
extern const names_table tester_first_send_names;
/** "at_send", "when_ready": stop_test's words (tester_spec.stop_test). */
extern const names_table tester_stop_test_names;
extern const names_table tester_latency_from_names;
extern const names_table tester_in_flight_names;
/** "none", "average_interval": a tester's backfill key. */
extern const names_table tester_backfill_names;
/** "off", "record": [scenario] queue_wait (a histogram of queue waits). */
extern const names_table tester_queue_wait_names;
/**
 * The text a chart's legend shows for tester t: its label, else its name.
 * @return a string owned by t
 */
const char *tester_label(const tester_spec *t);
/** [tester] chart: yes (drawn, default) or no. */
extern const names_table tester_chart_names;

/** The grid of slots a tester sends on, as its run plans them
 *  (tester_paced.c): what a chart needs to mark each slot, asked of the
 *  model rather than worked out again. */
typedef struct tester_grid {
    units_interval interval; /**< D: slot i is planned at floor(i D), ns */
    uint64_t first_slot;     /**< the first slot planned: U (the users) with
                                  late = ticker (Go's time.Ticker: each
                                  user's first tick one period late), else 0 */
    int corrects;            /**< 1: the tester corrects its samples for
                                  coordinated omission (corrected) */
    int64_t expected_ns;     /**< with corrects, the expected interval
                                  (tester_expected_interval_ns), else 0 */
} tester_grid;

/**
 * The grid tester t sends on, if it has one (tester.c): a paced or corrected tester
 * whose users own their slots (not a shared schedule, no stagger, each of
 * which gives no single grid).
 *
 * @param out  receives the grid when there is one
 * @return 1 with *out set, 0 when t sends on no grid.
 */
int tester_grid_of(const tester_spec *t, tester_grid *out);

/**
 * The interval a corrected tester's correction expects, ns: its
 * expected_interval when given, else each user's own interval U D
 * (floor(U D), units_interval_at); the book's Listing 5.2 and
 * HdrHistogram's recordValueWithExpectedInterval take it as their
 * expectedIntervalBetweenValueSamples.
 */
static inline int64_t tester_expected_interval_ns(const tester_spec *t)
{
    return t->expected_interval_ns > 0 ? t->expected_interval_ns : units_interval_at(t->interval, 0, t->users);
}

/** "closed", "paced", "open", "corrected", "partly_open" ("?" if none). */
const char *tester_kind_name(tester_kind k);
/** @return 0 or -EINVAL. */
int tester_kind_parse(const char *name, tester_kind *out);
/** "from_now", "next_slot", "catch_up". */
const char *tester_late_name(tester_late l);
/** @return 0 or -EINVAL. */
int tester_late_parse(const char *name, tester_late *out);

#endif
