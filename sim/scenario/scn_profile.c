/* scn_profile.c - the profile table (docs/models.md gives each row's source:
 * the tool's file and function, at the version read) and its application
 * to a tester section. */
#include "scn_profile.h"

#include <stdio.h>
#include <string.h>

#define F 1 /* fixed: what the tool does */
#define D 0 /* a default the section may change */
#define R 2 /* required: the section must give the key (the tool has no default) */

/* Each row: the settings the tool's source shows (docs/models.md says what
 * each leaves out). Keep the order of docs/models.md's table. */
const scn_profile scn_profiles[] = {
    /* wrk 4.2.0, src/wrk.c response_complete: a connection sends again when
     * its reply is complete; main: stats_correct with the run's average
     * interval after the run; src/stats.c stats_record: values past the
     * timeout (-T, default 2 s) are not recorded */
    {"wrk", "wrk (closed loop per connection, exit-time backfill)",
     {{"kind", "closed", F}, {"backfill", "average_interval", F}, {"timeout", "2s", D}, {NULL, NULL, 0}}},
    /* wrk2, src/wrk.c usec_to_next_send / response_complete: each
     * connection's own schedule, latency from its slot, late sends go out
     * as soon as the catch-up pace allows (catch_up_throughput = 2 x the
     * connection's throughput, anchored at the last send on schedule) */
    {"wrk2", "wrk2 (constant throughput, corrected latency)",
     {{"kind", "paced", F},
      {"late", "catch_up", F},
      {"latency_from", "intended", F},
      {"catch_up_factor", "2", F},
      {"stagger", "5ms", F},
      {"sleep_granularity", "1ms", F},
      {NULL, NULL, 0}}},
    /* k6 lib/executor/constant_arrival_rate.go Run: arrivals on a fixed
     * grid from the start, served by a pool of preAllocatedVUs (required:
     * Validate refuses a config without it) growing up to maxVUs (default
     * preAllocatedVUs: cosim's max_vus default); no free VU: dropped */
    {"k6_constant_arrival_rate", "k6 constant-arrival-rate executor",
     {{"kind", "open", F}, {"arrivals", "fixed", F}, {"vus", NULL, R}, {NULL, NULL, 0}}},
    /* k6 lib/executor/ramping_arrival_rate.go cal / Run: arrival i where
     * the rate's integral (startRate, then each stage linear to its target)
     * reaches i; the same VU pool and drops as constant-arrival-rate
     * (preAllocatedVUs required by Validate, maxVUs default it) */
    {"k6_ramping_arrival_rate", "k6 ramping-arrival-rate executor",
     {{"kind", "open", F}, {"stage_spread", "area", F}, {"stages", NULL, R}, {"vus", NULL, R}, {NULL, NULL, 0}}},
    /* k6 lib/executor/constant_vus.go: each VU loops its iterations */
    {"k6_constant_vus", "k6 constant-vus executor", {{"kind", "closed", F}, {NULL, NULL, 0}}},
    /* JMeter threads/ThreadGroup.java start: thread i's initial delay i x
     * Math.round(rampUp x 1000 / threads) ms (ramp_up, step_ms; rampUp in
     * whole seconds in JMeter). ConstantThroughputTimer.delay / calculateDelay, mode
     * ThisThreadOnly and AllActiveThreads (the threads running at each
     * call: step_users = started): a thread's own target; late:
     * run now, previousTime = now; the delay Math.round-ed to whole ms
     * (in AllActiveThreads, the threads x ms-per-sample product) */
    {"jmeter_ctt_this_thread", "JMeter Constant Throughput Timer, this thread only",
     {{"kind", "paced", F},
      {"late", "from_now", F},
      {"interval_round", "1ms", F},
      {"ramp_up", "0s", D},
      {"ramp_up_round", "step_ms", F},
      {NULL, NULL, 0}}},
    {"jmeter_ctt_all_threads", "JMeter Constant Throughput Timer, all active threads",
     {{"kind", "paced", F},
      {"late", "from_now", F},
      {"interval_round", "1ms", F},
      {"ramp_up", "0s", D},
      {"ramp_up_round", "step_ms", F},
      {"step_users", "started", F},
      {NULL, NULL, 0}}},
    /* JMeter ConstantThroughputTimer.calculateSharedDelay + delay, modes
     * AllActiveThreads_Shared and AllActiveThreadsInCurrentThreadGroup_Shared:
     * one schedule for the threads (a cosim tester is one thread group, the
     * test's only one, so the two coincide); the step is
     * Math.round(60000 / throughput) whole ms */
    {"jmeter_ctt_all_threads_shared", "JMeter Constant Throughput Timer, all active threads (shared)",
     {{"kind", "paced", F}, {"schedule", "shared", F}, {"late", "from_now", F}, {"interval_round", "1ms", F}, {NULL, NULL, 0}}},
    {"jmeter_ctt_group_shared", "JMeter Constant Throughput Timer, all active threads in current thread group (shared)",
     {{"kind", "paced", F}, {"schedule", "shared", F}, {"late", "from_now", F}, {"interval_round", "1ms", F}, {NULL, NULL, 0}}},
    /* JMeter ConstantTimer.delay: a fixed pause before each sample, the
     * first too (JMeterThread runs a sample's timers before it) */
    {"jmeter_constant_timer", "JMeter Constant Timer (think time)",
     {{"kind", "closed", F},
      {"think_distribution", "constant", F},
      {"think_first", "yes", F},
      {"ramp_up", "0s", D},
      {"ramp_up_round", "step_ms", F},
      {NULL, NULL, 0}}},
    /* Gatling OpenInjectionStep.scala ConstantRateOpenInjection /
     * InjectionIterator with Shard.shards: each second's users on a ms grid */
    {"gatling_open", "Gatling constantUsersPerSec (open injection; .randomized: arrivals = poisson)",
     {{"kind", "open", F}, {"arrivals", "fixed", D}, {NULL, NULL, 0}}},
    /* Gatling OpenInjectionStep.scala RampRateOpenInjection (rampUsersPerSec
     * ... to ... during): each whole second's users, the fraction carried,
     * on its milliseconds (Shard.shards); a stage whose rate stays:
     * ConstantRateOpenInjection */
    {"gatling_ramp", "Gatling rampUsersPerSec (open injection, a rate ramp)",
     {{"kind", "open", F}, {"stage_spread", "per_second", F}, {"stages", NULL, R}, {NULL, NULL, 0}}},
    /* Gatling closed/ClosedInjectionStep.scala constantConcurrentUsers,
     * closed/ClosedWorkload.scala injectBatch (each 1 s batch: the missing
     * users spread by Shard.shards over the window's ms: user k of n at
     * floor(1000 k / n) ms) and endUser (a user that ends is replaced at
     * once: scheduled - stopped below the target) */
    {"gatling_closed", "Gatling constantConcurrentUsers (closed injection)",
     {{"kind", "closed", F}, {"ramp_up", "1s", F}, {"ramp_up_round", "start_ms", F}, {NULL, NULL, 0}}},
    /* Gatling core/action/Pace.scala execute: late -> now + interval */
    {"gatling_pace", "Gatling pace() inside a user's loop",
     {{"kind", "paced", F}, {"late", "from_now", F}, {NULL, NULL, 0}}},
    /* Locust locust/user/wait_time.py */
    {"locust_constant", "Locust wait_time = constant(T)",
     {{"kind", "closed", F}, {"think_distribution", "constant", F}, {NULL, NULL, 0}}},
    {"locust_between", "Locust wait_time = between(A, B)",
     {{"kind", "closed", F}, {"think_distribution", "uniform", F}, {NULL, NULL, 0}}},
    /* locust/dispatch.py UsersDispatcher.new_dispatch: users spawned in
     * batches of max(1, floor(r)) every batch / r s (r the spawn rate):
     * with r at least the users, all at once (ramp_up = 0s, the default);
     * with r <= 1/s, user i at i / r (ramp_up = U / r) */
    {"locust_constant_pacing", "Locust wait_time = constant_pacing(T)",
     {{"kind", "paced", F}, {"late", "from_now", F}, {"ramp_up", "0s", D}, {NULL, NULL, 0}}},
    {"locust_constant_throughput", "Locust wait_time = constant_throughput(R)",
     {{"kind", "paced", F}, {"late", "from_now", F}, {"ramp_up", "0s", D}, {NULL, NULL, 0}}},
    /* hey requester/requester.go runWorkers/runWorker, without -q */
    {"hey", "hey -c C (no -q)", {{"kind", "closed", F}, {NULL, NULL, 0}}},
    /* hey requester/requester.go runWorker with -q: each worker its own
     * time.Tick(1e6 / QPS us), read before each request, after the test of
     * the stop channel (stop_test = when_ready); the latency from the
     * request's own start (makeRequest) */
    {"hey_q", "hey -c C -q Q (a Go ticker per worker)",
     {{"kind", "paced", F}, {"late", "ticker", F}, {"latency_from", "actual", F}, {"stagger", "0s", F},
      {"stop_test", "when_ready", F}, {NULL, NULL, 0}}},
    /* vegeta lib/attack.go Attack (tests elapsed > du before it waits),
     * lib/pacer.go ConstantPacer.Pace (waits until (hits + 1) x interval):
     * the first hit one interval after the start, the last up to one
     * interval past the duration (first_send = interval) */
    {"vegeta", "vegeta attack -rate R (workers unbounded)",
     {{"kind", "open", F}, {"arrivals", "fixed", F}, {"first_send", "interval", F}, {NULL, NULL, 0}}},
    {"vegeta_max_workers", "vegeta attack -rate R -max-workers W",
     {{"kind", "paced", F}, {"late", "catch_up", F}, {"first_send", "interval", F}, {NULL, NULL, 0}}},
    /* memtier_benchmark memtier_benchmark.cpp main (N = ceil(R / 50),
     * I = 10^6 / floor(R / N) us), shard_connection.cpp handle_timer_event
     * and fill_pipeline: N requests a connection per tick of I, the quota
     * reset (not carried) at each tick; --pipeline 1 */
    {"memtier_rate_limiting", "memtier_benchmark --rate-limiting R (pipeline 1)",
     {{"kind", "closed", F}, {"quota", NULL, R}, {"quota_interval", NULL, R}, {NULL, NULL, 0}}},
    /* Hyperfoil api/config/PhaseBuilder.java OpenModel (variance = true) */
    {"hyperfoil_constant_rate", "Hyperfoil constantRate phase",
     {{"kind", "open", F}, {"arrivals", "poisson", D}, {NULL, NULL, 0}}},
    /* ApacheBench 2.4 (apache2-utils), support/ab.c: main (case 't' sets
     * requests = MAX_REQUESTS, 50,000, unless -n comes after it), test
     * (stops at the time limit: the requests in flight are not recorded),
     * write_request (with -k, c->start = now: the latency starts at the
     * send that follows the previous reply), output_results (percentile
     * p: stats[done * p / 100] of the sorted times, rank floor(p n) + 1) */
    {"ab", "ApacheBench ab -c C [-k] (-t T: 50,000 requests at most)",
     {{"kind", "closed", F}, {"requests", "50000", D}, {NULL, NULL, 0}}},
    /* httperf 0.9.0, src/gen/rate.c: rate_generator_start (the first
     * connection at once, then every 1 / rate), tick (while now is past
     * next_time: one more connection, next_time += 1 / rate: the missed
     * arrivals go back to back); src/gen/conn_rate.c: make_conn (stops after
     * --num-conns); src/stat/basic.c: conn_destroyed (connection lifetime,
     * 1 ms bins), dump (median: the first bin reaching half, its middle) */
    {"httperf", "httperf --rate R --num-conns N (one call per connection)",
     {{"kind", "open", F}, {"arrivals", "fixed", F}, {"requests", NULL, R}, {NULL, NULL, 0}}},
    /* siege 4.0.7, src/browser.c: start (after each request, with -d D
     * below 1 s: usleep(U x D) with U uniform on [0, 1): the section gives
     * think_min = 0s, think_max = D), __http (etime from times(): clock
     * ticks, 10 ms on Linux) */
    {"siege", "siege -c C -d D (D below 1 s)",
     {{"kind", "closed", F}, {"think_distribution", "uniform", F}, {NULL, NULL, 0}}},
};
const size_t scn_profiles_n = ARRAY_SIZE(scn_profiles);

/* "none" first: the key's documented default (no profile) */
static const char *const profile_words[] = {
    "none", "wrk", "wrk2", "k6_constant_arrival_rate", "k6_ramping_arrival_rate", "k6_constant_vus", "jmeter_ctt_this_thread",
    "jmeter_ctt_all_threads", "jmeter_ctt_all_threads_shared", "jmeter_ctt_group_shared", "jmeter_constant_timer", "gatling_open", "gatling_ramp", "gatling_closed", "gatling_pace", "locust_constant", "locust_between", "locust_constant_pacing",
    "locust_constant_throughput", "hey", "hey_q", "vegeta", "vegeta_max_workers", "memtier_rate_limiting", "hyperfoil_constant_rate",
    "ab", "httperf", "siege",
};
const names_table scn_profile_names = {profile_words, ARRAY_SIZE(profile_words)};

const scn_profile *scn_profile_find(const char *name)
{
    for (size_t i = 0; i < scn_profiles_n; i++)
        if (strcmp(scn_profiles[i].name, name) == 0)
            return &scn_profiles[i];
    return NULL;
}

int scn_profile_fixes(const scn_profile *p, const char *key)
{
    for (const scn_profile_setting *s = p ? p->set : NULL; s && s->key; s++)
        if (s->fixed == F && strcmp(s->key, key) == 0)
            return 1;
    return 0;
}

/* Refuse an unknown profile: the nearest name within 3 edits, else all. */
static void unknown_profile(scn_ctx *c, scn_ini_entry *e)
{
    size_t best = SIZE_MAX, at = 0;
    for (size_t i = 0; i < scn_profiles_n; i++) {
        size_t d = scn_keys_edit_distance(e->value, scn_profiles[i].name);
        if (d < best) {
            best = d;
            at = i;
        }
    }
    char why[1024];
    if (best <= 3) {
        snprintf(why, sizeof why, "unknown profile; did you mean '%s'?", scn_profiles[at].name);
    } else {
        int n = snprintf(why, sizeof why, "unknown profile; expected one of: ");
        for (size_t i = 0; i < scn_profiles_n && n > 0 && (size_t)n < sizeof why; i++)
            n += snprintf(why + n, sizeof why - (size_t)n, "%s%s", i ? ", " : "", scn_profiles[i].name);
    }
    scn_keys_bad_value(c, e, why);
}

int scn_profile_apply(scn_ctx *c)
{
    scn_ini_entry *pe = scn_keys_get(c, "profile");
    if (!pe || strcmp(pe->value, "none") == 0)
        return 0;
    const scn_profile *pr = scn_profile_find(pe->value);
    if (!pr) {
        unknown_profile(c, pe);
        return -1;
    }
    /* a required key first, while pe is still valid */
    for (const scn_profile_setting *s = pr->set; s->key; s++) {
        if (s->fixed == R && !scn_ini_find_entry(c->p, c->sec, s->key)) {
            char why[256];
            snprintf(why, sizeof why, "profile %s needs %s (the tool has no default: docs/models.md)", pr->name,
                     s->key);
            scn_keys_bad_value(c, pe, why);
            return -1;
        }
    }
    /* copies: adding entries may move the entry array */
    int line = pe->line;
    const char *set = pe->set;
    for (const scn_profile_setting *s = pr->set; s->key; s++) {
        scn_ini_entry *e = scn_ini_find_entry(c->p, c->sec, s->key);
        if (s->fixed == R)
            continue; /* checked above */
        if (e && s->fixed && strcmp(e->value, s->value) != 0) {
            char why[256];
            snprintf(why, sizeof why, "profile %s fixes %s = %s (the tool's behaviour: docs/models.md); remove this key "
                     "or the profile", pr->name, s->key, s->value);
            scn_keys_bad_value(c, e, why);
            return -1;
        }
        if (e)
            continue;
        scn_ini_entry *added = scn_ini_add_entry(c->p, c->sec, s->key, s->value, line, set);
        if (!added)
            return -1;
        added->used = 1; /* not the user's: never offered as a typo */
    }
    return 0;
}
