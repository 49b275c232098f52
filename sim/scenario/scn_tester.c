/* scn_tester.c - [tester NAME]: closed, paced, open, corrected and
 * partly_open testers (docs/scenario-format.md). */
#include "scn_tester.h"
#include "scn_dist.h"
#include "scn_profile.h"
#include "tester.h"
#include "units.h"

#include <stdio.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* rate = R/s or interval = D: the tester's intended interval. */
static int get_interval(scn_ctx *c, tester_spec *t)
{
    scn_ini_entry *r = scn_keys_get(c, "rate"), *iv = scn_keys_get(c, "interval");
    const char *why;
    if (r && iv) {
        scn_keys_section_fail(c, "give either rate or interval, not both");
        return -1;
    }
    if (!r && !iv) {
        if (scn_keys_report_typo(c, "rate") || scn_keys_report_typo(c, "interval"))
            return -1;
        scn_keys_section_fail(c, "%s %s tester needs 'rate' (e.g. rate = %s) or 'interval' (e.g. interval = %s)",
                              strchr("aeiou", tester_kind_name(t->kind)[0]) ? "an" : "a", tester_kind_name(t->kind),
                              scn_keys_find(SCN_SEC_TESTER, c->kind, "rate")->example,
                              scn_keys_find(SCN_SEC_TESTER, c->kind, "interval")->example);
        return -1;
    }
    if (r) {
        if (units_parse_rate(r->value, &t->interval, &why)) {
            scn_keys_bad_value(c, r, why);
            return -1;
        }
        return 0;
    }
    int64_t ns;
    if (scn_keys_duration(c, "interval", &ns) < 0)
        return -1;
    t->interval.num_ns = (uint64_t)ns;
    t->interval.den = 1;
    return 0;
}

/* think_distribution and its think_ parameters, if given. */
static int get_think(scn_ctx *c, tester_spec *t)
{
    if (!scn_keys_has(c, "think_distribution"))
        return 0;
    if (scn_dist_read(c, &t->think, "think_") < 0)
        return -1;
    t->has_think = 1;
    return 0;
}

static int needs(scn_ctx *c, int got, int ok, const char *key, const char *why);

/* think_first of a closed tester: a think before the first request too;
 * it needs a think time, and a quota (memtier) places its own sends. */
static int get_think_first(scn_ctx *c, tester_spec *t)
{
    int v = 0, got = scn_keys_choice(c, "think_first", &v, NULL);
    if (needs(c, got, t->has_think, "think_first", "thinks before the first request: give think_distribution") < 0)
        return -1;
    t->think_first = v == 1;
    return 0;
}

/* connections = C: at most C requests in flight (C < users to matter). */
static int get_connections(scn_ctx *c, tester_spec *t)
{
    int got = scn_keys_count(c, "connections", &t->connections);
    if (got < 0)
        return -1;
    if (got > 0 && t->connections > t->users) {
        scn_keys_bad_value(c, scn_keys_get(c, "connections"), "more connections than users changes nothing; "
                                                              "give at most users");
        return -1;
    }
    return 0;
}

/* Whether users x interval, the interval of each user of a paced tester,
 * fits the clock: the product of two user-given figures is checked, never
 * wrapped (a wrap gave a zero interval, and a division by zero). */
static int check_user_interval(scn_ctx *c, tester_spec *t)
{
    units_interval du;
    if (units_interval_mul(t->interval, t->users, &du) == 0 && du.num_ns / du.den <= (uint64_t)INT64_MAX)
        return 0;
    scn_ini_entry *e = scn_keys_get(c, "users");
    char msg[256];
    scn_ini_entry *re = scn_keys_get(c, "rate"), *ie = scn_keys_get(c, "interval");
    if (re) /* a rate is no interval: 'every 1000000 x 0.000001/s' read as a tiny step */
        snprintf(msg, sizeof msg, "each user would send at %s / %llu, less than once in 2^63 ns (the clock's "
                                  "range, about 292 years); give fewer users or a higher rate",
                 re->value, (unsigned long long)t->users);
    else
        snprintf(msg, sizeof msg, "each user would send every %llu x %s, past the clock's range (2^63 ns, "
                                  "about 292 years); give fewer users or a shorter interval",
                 (unsigned long long)t->users, ie ? ie->value : "?");
    if (e)
        scn_keys_bad_value(c, e, msg);
    else
        scn_keys_section_fail(c, "%s", msg);
    return -1;
}

/* A choice key into an enum field (left as is when the key is absent). */
static int get_enum(scn_ctx *c, const char *key, int *field)
{
    int v = 0, got = scn_keys_choice(c, key, &v, NULL);
    if (got > 0)
        *field = v;
    return got < 0 ? -1 : 0;
}

/* latency_from of a paced tester. */
static int get_latency_from(scn_ctx *c, tester_spec *t)
{
    int v = t->latency_from_intended ? TESTER_FROM_INTENDED : TESTER_FROM_ACTUAL;
    if (get_enum(c, "latency_from", &v) < 0)
        return -1;
    t->latency_from_intended = v == TESTER_FROM_INTENDED;
    /* MODEL.md: under next_slot every request goes out at its slot,
     * so "intended" is the actual send and the setting means nothing
     * (unless fewer connections than users hold sends back: then it
     * adds the time blocked, Hyperfoil's compensated figure) */
    int blocks = t->connections && t->connections < t->users;
    if (t->latency_from_intended && t->late == TESTER_LATE_NEXT_SLOT && !blocks) {
        scn_keys_bad_value(c, scn_keys_get(c, "latency_from"),
                           "with late = next_slot every request is sent at its intended slot, so "
                           "intended and actual are the same instant and the setting changes nothing; "
                           "use late = catch_up (wrk2) or from_now, or remove latency_from");
        return -1;
    }
    return 0;
}

/* correction and expected_interval of a corrected tester. */
static int get_correction(scn_ctx *c, tester_spec *t)
{
    /* MODEL.md: corrected over catch_up counts a gap twice */
    if (t->late == TESTER_LATE_CATCH_UP) {
        scn_keys_bad_value(c, scn_keys_get(c, "late"),
                           "a corrected tester that catches up counts each stall twice: it sends the "
                           "overdue requests late and also adds corrected samples for the same slots; use "
                           "late = next_slot or from_now, or a paced tester with latency_from = intended");
        return -1;
    }
    int v = (int)t->correction;
    if (get_enum(c, "correction", &v) < 0)
        return -1;
    t->correction = (hist_correction)v;
    return scn_keys_duration(c, "expected_interval", &t->expected_interval_ns) < 0 ? -1 : 0;
}

/* vus, max_vus, vu_init and batch of an open tester. */
static int needs(scn_ctx *c, int got, int ok, const char *key, const char *why);

static int get_pool(scn_ctx *c, tester_spec *t)
{
    int has_vus = scn_keys_count(c, "vus", &t->vus);
    if (has_vus < 0 || scn_keys_count(c, "max_vus", &t->max_vus) < 0 ||
        scn_keys_duration(c, "vu_init", &t->vu_init_ns) < 0 || scn_keys_count(c, "batch", &t->batch) < 0)
        return -1;
    const char *alone = !has_vus && scn_keys_has(c, "max_vus") ? "max_vus"
                        : !has_vus && scn_keys_has(c, "vu_init") ? "vu_init" : NULL;
    if (alone) {
        scn_keys_bad_value(c, scn_keys_get(c, alone), "sizes a pool of virtual users: give vus too");
        return -1;
    }
    if (has_vus && !t->max_vus)
        t->max_vus = t->vus;
    if (t->max_vus < t->vus) {
        scn_keys_bad_value(c, scn_keys_get(c, "max_vus"), "is below vus: the pool starts with vus");
        return -1;
    }
    int v = 0, got = scn_keys_choice(c, "vus_full", &v, NULL);
    if (needs(c, got, has_vus > 0, "vus_full", "says what an arrival does when every VU is busy: give vus too") < 0)
        return -1;
    t->vus_queue = v == 1;
    const char *clash = !t->vus_queue                                  ? NULL
                        : t->max_vus > t->vus                          ? "max_vus"
                        : scn_keys_has(c, "vu_init")                   ? "vu_init"
                        : t->batch > 1                                 ? "batch"
                        : t->n_stages                                  ? "stages"
                                                                       : NULL;
    if (clash) {
        scn_keys_bad_value(c, scn_keys_get(c, clash), "with vus_full = queue the pool is fixed (Hyperfoil's "
                                                      "maxSessions) and the arrivals come one at a time on a "
                                                      "constant rate: remove it");
        return -1;
    }
    return 0;
}

/* A stage's rate: RATE as units_parse_rate reads it, or zero (0/s: a
 * stage that ramps down to nothing, k6's startRate default). den = 0 for
 * zero. 0 or -1 with *why set. */
static int parse_stage_rate(const char *text, units_interval *out, const char **why)
{
    const char *slash = strchr(text, '/');
    char num[64], one[80];
    double v;
    if (slash && (size_t)(slash - text) < sizeof num) {
        memcpy(num, text, (size_t)(slash - text));
        num[slash - text] = 0;
        if (units_parse_number(num, &v, why) == 0 && v == 0) { /* zero: its unit checked on 1 */
            snprintf(one, sizeof one, "1%s", slash);
            if (units_parse_rate(one, out, why))
                return -1;
            out->num_ns = out->den = 0;
            return 0;
        }
    }
    return units_parse_rate(text, out, why) ? -1 : 0;
}

/* stages = DURATION to RATE, ...: each stage's length and target. 0 or -1
 * with the message given. */
static int parse_stages(scn_ctx *c, scn_ini_entry *e, tester_spec *t)
{
    char buf[2048], msg[300];
    const char *why = NULL;
    if (snprintf(buf, sizeof buf, "%s", e->value) >= (int)sizeof buf) {
        scn_keys_bad_value(c, e, "too long (at most 2047 bytes)");
        return -1;
    }
    if (scn_keys_check_list(c, e))
        return -1;
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *to = strstr(item, " to ");
        if (t->n_stages == TESTER_MAX_STAGES) {
            snprintf(msg, sizeof msg, "more than %d stages", TESTER_MAX_STAGES);
            scn_keys_bad_value(c, e, msg);
            return -1;
        }
        tester_stage *st = &t->stages[t->n_stages];
        if (!to) {
            snprintf(msg, sizeof msg, "stage %zu: expected DURATION to RATE (e.g. 30s to 100/s)", t->n_stages + 1);
            scn_keys_bad_value(c, e, msg);
            return -1;
        }
        *to = 0;
        if (units_parse_duration(item, &st->duration_ns, &why) || st->duration_ns <= 0 ||
            parse_stage_rate(to + 4, &st->target, &why)) {
            snprintf(msg, sizeof msg, "stage %zu: %s", t->n_stages + 1,
                     why ? why : "a stage must last more than zero");
            scn_keys_bad_value(c, e, msg);
            return -1;
        }
        t->n_stages++;
    }
    if (!t->n_stages) {
        scn_keys_bad_value(c, e, "expected DURATION to RATE, ... (e.g. 30s to 100/s)");
        return -1;
    }
    return 0;
}

/* The peak of the start rate and the targets, as an interval (the offered
 * utilisation's rate); den = 0 when every rate is zero. */
static units_interval peak_rate(const tester_spec *t)
{
    units_interval best = t->start_rate;
    for (size_t k = 0; k < t->n_stages; k++) {
        units_interval r = t->stages[k].target;
        if (r.den && (!best.den || (u128)r.num_ns * best.den < (u128)best.num_ns * r.den))
            best = r;
    }
    return best;
}

/* stages, start_rate, stage_spread of an open tester: a rate ramp in place
 * of rate or interval. 0 (no stages: get_interval's), or -1. */
static int get_stages(scn_ctx *c, tester_spec *t)
{
    scn_ini_entry *e = scn_keys_get(c, "stages");
    if (!e) {
        const char *alone = scn_keys_has(c, "start_rate") ? "start_rate" : scn_keys_has(c, "stage_spread") ? "stage_spread" : NULL;
        if (alone) {
            scn_keys_bad_value(c, scn_keys_get(c, alone), "belongs to a rate ramp: give stages too");
            return -1;
        }
        return get_interval(c, t);
    }
    const char *other = scn_keys_has(c, "rate") ? "rate" : scn_keys_has(c, "interval") ? "interval" : NULL;
    if (other) {
        scn_keys_bad_value(c, scn_keys_get(c, other), "the stages give the rate: remove it (start_rate gives "
                                                      "the rate at the start)");
        return -1;
    }
    if (parse_stages(c, e, t) < 0)
        return -1;
    scn_ini_entry *sr = scn_keys_get(c, "start_rate");
    const char *why = NULL;
    if (sr && parse_stage_rate(sr->value, &t->start_rate, &why)) {
        scn_keys_bad_value(c, sr, why);
        return -1;
    }
    int v = (int)t->spread;
    if (get_enum(c, "stage_spread", &v) < 0)
        return -1;
    t->spread = (tester_spread)v;
    t->interval = peak_rate(t);
    if (!t->interval.den) {
        scn_keys_bad_value(c, e, "every rate is zero: the tester would never send");
        return -1;
    }
    if (tester_stages_check(t, &why)) {
        scn_keys_bad_value(c, e, why);
        return -1;
    }
    return 0;
}

/* schedule = per_user or shared (JMeter's shared calculation modes); a
 * shared schedule runs a late sample at once, so late is from_now. */
static int get_schedule(scn_ctx *c, tester_spec *t)
{
    int v = (int)t->schedule;
    if (get_enum(c, "schedule", &v) < 0)
        return -1;
    t->schedule = (tester_schedule)v;
    scn_ini_entry *e = scn_keys_get(c, "late");
    if (t->schedule == TESTER_SCHEDULE_SHARED) {
        if (e && t->late != TESTER_LATE_FROM_NOW) {
            scn_keys_bad_value(c, e, "a shared schedule (JMeter) runs a late sample at once and goes on from "
                                     "then: late = from_now, or remove late");
            return -1;
        }
        t->late = TESTER_LATE_FROM_NOW;
    }
    return 0;
}

/* A key that only works with another setting: got is what reading KEY
 * returned (< 0 failed, 0 absent, > 0 given); refuse a given KEY when ok
 * is false, with why. 0, or -1 (the message is out). */
static int needs(scn_ctx *c, int got, int ok, const char *key, const char *why)
{
    if (got < 0)
        return -1;
    if (got > 0 && !ok) {
        scn_keys_bad_value(c, scn_keys_get(c, key), why);
        return -1;
    }
    return 0;
}

/* stagger and sleep_granularity of a paced tester (wrk2's connects 5 ms
 * apart and its whole-ms sleeps; hey's simultaneous tickers). */
static int get_stagger(scn_ctx *c, tester_spec *t)
{
    int got = scn_keys_duration(c, "stagger", &t->stagger_ns);
    if (got < 0)
        return -1;
    t->has_stagger = got > 0 && t->users > 1; /* one user: its slots are the grid's either way */
    int64_t last;
    if (t->has_stagger && t->schedule == TESTER_SCHEDULE_SHARED) {
        scn_keys_bad_value(c, scn_keys_get(c, "stagger"), "staggers users' own schedules; a shared schedule has "
                                                          "none: remove it or schedule = shared");
        return -1;
    }
    if (t->has_stagger && __builtin_mul_overflow(t->stagger_ns, (int64_t)(t->users - 1), &last)) {
        scn_keys_bad_value(c, scn_keys_get(c, "stagger"), "the last user would start past the clock's range");
        return -1;
    }
    got = scn_keys_count(c, "threads", &t->threads);
    if (needs(c, got, scn_keys_has(c, "stagger"), "threads",
              "splits staggered users over threads (wrk2's -t): it needs stagger") < 0)
        return -1;
    if (got > 0 && t->users % t->threads) {
        char why[256];
        snprintf(why, sizeof why, "users = %llu do not split evenly over %llu threads (wrk2 gives each thread "
                                  "connections / threads and drops the rest): give a multiple of threads",
                 (unsigned long long)t->users, (unsigned long long)t->threads);
        scn_keys_bad_value(c, scn_keys_get(c, "threads"), why);
        return -1;
    }
    got = scn_keys_duration(c, "sleep_granularity", &t->sleep_granularity_ns);
    return needs(c, got, t->catch_up_factor != 0, "sleep_granularity",
                 "models wrk2's sleeps before a send, paced by its catch-up limit: it needs "
                 "catch_up_factor (and late = catch_up)");
}

/* interval_round of a paced tester (JMeter's Constant Throughput Timer,
 * ConstantThroughputTimer.calculateDelay: Math.round of the delay in ms):
 * the step a schedule uses, each user's U D (per_user: JMeter's "this
 * thread" and "all active threads" modes round the per-thread delay), or D
 * for a shared schedule (its modes round 60000 / throughput), becomes
 * k G with k = floor(step / G + 1/2); t->interval is then k G / U (or k G).
 * 0, or -1 (the message is out). */
static int get_interval_round(scn_ctx *c, tester_spec *t)
{
    t->step_interval = t->interval; /* step_users = started steps from D as given */
    int got = scn_keys_duration(c, "interval_round", &t->interval_round_ns);
    if (got <= 0)
        return got < 0 ? -1 : 0;
    const uint64_t g = (uint64_t)t->interval_round_ns;
    const uint64_t per = t->schedule == TESTER_SCHEDULE_SHARED ? 1 : t->users;
    /* k = floor((2 per num + g den) / (2 g den)), in 128 bits */
    unsigned __int128 num = (unsigned __int128)2 * per * t->interval.num_ns + (unsigned __int128)g * t->interval.den;
    unsigned __int128 k = num / ((unsigned __int128)2 * g * t->interval.den);
    unsigned __int128 step = k * g;
    if (k == 0 || step > (unsigned __int128)INT64_MAX) {
        scn_keys_bad_value(c, scn_keys_get(c, "interval_round"),
                           k == 0 ? "rounds each step of the schedule to 0: give a finer grain or a lower rate"
                                  : "the rounded step is past the clock's range");
        return -1;
    }
    uint64_t d = units_gcd_u64((uint64_t)step, per);
    t->interval.num_ns = (uint64_t)step / d;
    t->interval.den = per / d;
    return 0;
}

/* ramp_up and ramp_up_round of a closed or paced tester (JMeter's thread
 * group ramp-up, Gatling's closed injection): the users' first sends
 * spread over the ramp. Not with a quota (memtier's connections start at
 * the connect), nor on a paced schedule that places the users itself
 * (stagger, shared). 0, or -1 (the message is out). */
static int get_ramp_up(scn_ctx *c, tester_spec *t)
{
    int got = scn_keys_duration(c, "ramp_up", &t->ramp_up_ns);
    if (got < 0)
        return -1;
    int v = (int)t->ramp_up_round;
    int r = scn_keys_choice(c, "ramp_up_round", &v, NULL);
    if (r < 0 || needs(c, r, got > 0, "ramp_up_round", "rounds the starts of a ramp-up: it needs ramp_up") < 0)
        return -1;
    t->ramp_up_round = (tester_ramp_round)v;
    const char *clash = t->quota ? "quota"
                        : t->has_stagger ? "stagger"
                        : t->schedule == TESTER_SCHEDULE_SHARED ? "schedule"
                        : t->late == TESTER_LATE_TICKER && tester_kind_has(t->kind, TESTER_KIND_SCHEDULE_KEYS) ? "late" : NULL;
    if (t->ramp_up_ns == 0) {
        /* all at 0 (a closed tester's users start there anyway; a paced
         * tester's, without the key, one interval apart), unless another
         * key places the starts */
        t->has_ramp_up = got > 0 && !clash;
        return 0;
    }
    t->has_ramp_up = 1;
    if (clash) {
        char why[160];
        snprintf(why, sizeof why, "places the users' starts, and so does %s here: give one of them", clash);
        scn_keys_bad_value(c, scn_keys_get(c, "ramp_up"), why);
        return -1;
    }
    return 0;
}

/* step_users of a paced tester: started (JMeter's AllActiveThreads) with
 * late = from_now on the users' own schedules only (the timer's rule). */
static int get_step_users(scn_ctx *c, tester_spec *t)
{
    int v = 0;
    int got = scn_keys_choice(c, "step_users", &v, NULL);
    if (got < 0)
        return -1;
    t->step_started = v == 1;
    if (t->step_started && (t->late != TESTER_LATE_FROM_NOW || t->schedule == TESTER_SCHEDULE_SHARED ||
                            t->has_stagger || t->has_think)) {
        scn_keys_bad_value(c, scn_keys_get(c, "step_users"),
                           "counts the started users at each user's timer (JMeter's all active threads): it needs "
                           "late = from_now on the users' own schedules, without stagger or a think time");
        return -1;
    }
    return 0;
}

/* quota and quota_interval of a closed tester (memtier's rate limiter):
 * both or neither. */
static int get_quota(scn_ctx *c, tester_spec *t)
{
    int n = scn_keys_count(c, "quota", &t->quota), i = scn_keys_duration(c, "quota_interval", &t->quota_interval_ns);
    if (n < 0 || i < 0)
        return -1;
    if (n != i) {
        const char *given = n ? "quota" : "quota_interval", *other = n ? "quota_interval" : "quota";
        char why[128];
        snprintf(why, sizeof why, "needs %s too (a quota of requests per interval)", other);
        scn_keys_bad_value(c, scn_keys_get(c, given), why);
        return -1;
    }
    /* pipeline (memtier's --pipeline): with the quota only; several
     * requests a user do not fit the shared connections' model */
    int p = scn_keys_count(c, "pipeline", &t->pipeline);
    if (needs(c, p, n > 0, "pipeline", "is modelled under memtier's rate limiter only: give quota and "
                                       "quota_interval too") < 0)
        return -1;
    if (p > 0 && t->pipeline > 1 && t->connections) {
        scn_keys_bad_value(c, scn_keys_get(c, "pipeline"),
                           "a pipeline above 1 with connections is not modelled (memtier: one pipeline per "
                           "connection; give users = connections and no connections key)");
        return -1;
    }
    if (p > 0 && t->users * t->pipeline > 1000000) {
        scn_keys_bad_value(c, scn_keys_get(c, "pipeline"),
                           "users x pipeline is above 1000000 requests in flight; give fewer");
        return -1;
    }
    return 0;
}

static int get_first_send(scn_ctx *c, tester_spec *t);
static int get_stop_test(scn_ctx *c, tester_spec *t);

/* The keys of a paced or corrected tester. */
static int read_paced(scn_ctx *c, tester_spec *t)
{
    if (get_interval(c, t) < 0)
        return -1;
    if (scn_keys_count(c, "users", &t->users) < 0 || get_connections(c, t) < 0 || check_user_interval(c, t) < 0)
        return -1;
    /* late defaults to the book's next_slot (its row; docs/decisions.md);
     * a wrong value is told what each of the four does */
    int v = (int)t->late;
    scn_ini_entry *e = scn_keys_get(c, "late");
    if (e && names_find(tester_late_names, e->value) < 0) {
        scn_keys_bad_value(c, e,
                           "expected next_slot (the default, as the book: a late user sends at the next "
                           "slot of its grid after the reply), catch_up (send at once and fire the missed "
                           "slots back to back until on schedule), from_now (send at once; the grid restarts from "
                           "then) or ticker (Go's time.Ticker: send at once for one missed tick, drop the others)");
        return -1;
    }
    if (get_enum(c, "late", &v) < 0)
        return -1;
    t->late = (tester_late)v;
    int tools = tester_kind_has(t->kind, TESTER_KIND_SCHEDULE_KEYS); /* paced: the tools' schedule keys */
    if (tools && get_schedule(c, t) < 0)
        return -1;
    if (get_think(c, t) < 0)
        return -1;
    int got = tools ? scn_keys_count(c, "catch_up_factor", &t->catch_up_factor) : 0;
    if (needs(c, got, t->late == TESTER_LATE_CATCH_UP, "catch_up_factor",
              "limits how fast a late user catches up, so it needs late = catch_up") < 0)
        return -1;
    if (!tools)
        return get_correction(c, t);
    if (get_stagger(c, t) < 0 || get_interval_round(c, t) < 0 || get_ramp_up(c, t) < 0 || get_step_users(c, t) < 0)
        return -1;
    if (get_latency_from(c, t) < 0 || get_first_send(c, t) < 0 || get_stop_test(c, t) < 0)
        return -1;
    if (t->schedule == TESTER_SCHEDULE_SHARED && t->latency_from_intended) {
        scn_keys_bad_value(c, scn_keys_get(c, "latency_from"),
                           "a shared schedule (JMeter) has no intended time apart from the sample's start; "
                           "remove latency_from");
        return -1;
    }
    return 0;
}

/* Each kind's keys, read_NAME for each row of tester_kinds.def. */
static int read_closed(scn_ctx *c, tester_spec *t)
{
    if (scn_keys_count(c, "users", &t->users) < 0 || get_connections(c, t) < 0 || get_think(c, t) < 0 ||
        get_think_first(c, t) < 0 || get_quota(c, t) < 0 || get_ramp_up(c, t) < 0)
        return -1;
    if (t->think_first && t->quota) {
        scn_keys_bad_value(c, scn_keys_get(c, "think_first"), "a quota places each send itself: remove think_first");
        return -1;
    }
    return 0;
}

/* first_send of an open or paced tester: interval moves a plain grid one
 * interval on (vegeta's pacer); a schedule that places its own first sends
 * (Poisson arrivals, stages, batches; stagger, ramp_up, a shared schedule,
 * a ticker, step_users = started) is refused with it. 0, or -1 (the
 * message is out). */
static int get_first_send(scn_ctx *c, tester_spec *t)
{
    int v = (int)t->first_send;
    if (get_enum(c, "first_send", &v) < 0)
        return -1;
    t->first_send = (tester_first_send)v;
    if (t->first_send != TESTER_FIRST_SEND_INTERVAL)
        return 0;
    const char *clash = t->arrivals != TESTER_ARRIVALS_FIXED                      ? "arrivals"
                        : t->n_stages                                             ? "stages"
                        : t->batch > 1                                            ? "batch"
                        : t->has_stagger                                          ? "stagger"
                        : t->ramp_up_ns || t->has_ramp_up                         ? "ramp_up"
                        : t->schedule == TESTER_SCHEDULE_SHARED                   ? "schedule"
                        : t->late == TESTER_LATE_TICKER                           ? "late"
                        : t->step_started                                         ? "step_users"
                                                                                  : NULL;
    if (clash) {
        char why[200];
        snprintf(why, sizeof why, "places the first sends itself; first_send = interval shifts a plain grid "
                                  "(vegeta's pacer): remove %s or first_send", clash);
        scn_ini_entry *e = scn_keys_get(c, clash);
        scn_keys_bad_value(c, e ? e : scn_keys_get(c, "first_send"), why);
        return -1;
    }
    return 0;
}

/* stop_test of a paced tester: when_ready (hey's loop: the stop tested
 * before the wait on its ticker) with late = ticker only. 0, or -1 (the
 * message is out). */
static int get_stop_test(scn_ctx *c, tester_spec *t)
{
    int v = (int)t->stop_test;
    if (get_enum(c, "stop_test", &v) < 0)
        return -1;
    t->stop_test = (tester_stop_test)v;
    if (t->stop_test == TESTER_STOP_WHEN_READY && t->late != TESTER_LATE_TICKER) {
        scn_keys_bad_value(c, scn_keys_get(c, "stop_test"),
                           "when_ready is a ticker's stop test (hey -q): a paced tester with late = ticker only");
        return -1;
    }
    return 0;
}

static int read_open(scn_ctx *c, tester_spec *t)
{
    int v = (int)t->arrivals;
    if (get_stages(c, t) < 0 || get_enum(c, "arrivals", &v) < 0)
        return -1;
    t->arrivals = (tester_arrivals)v;
    if (t->n_stages && (t->arrivals != TESTER_ARRIVALS_FIXED || scn_keys_has(c, "batch"))) {
        scn_keys_bad_value(c, scn_keys_get(c, t->arrivals != TESTER_ARRIVALS_FIXED ? "arrivals" : "batch"),
                           "a rate ramp (stages) places its own arrivals: remove it");
        return -1;
    }
    return get_pool(c, t) < 0 ? -1 : get_first_send(c, t);
}

static int read_partly_open(scn_ctx *c, tester_spec *t)
{
    if (get_interval(c, t) < 0)
        return -1;
    if (!scn_keys_need(c, "p_continue") || scn_keys_number(c, "p_continue", &t->p_continue) < 0)
        return -1;
    if (t->p_continue >= 1) {
        scn_keys_bad_value(c, scn_keys_get(c, "p_continue"), "must be below 1, or sessions never end");
        return -1;
    }
    return get_think(c, t);
}

/* paced and corrected share their keys (read_paced: the corrected one
 * reads its correction where paced reads the tools' schedule keys) */
static int read_corrected(scn_ctx *c, tester_spec *t)
{
    return read_paced(c, t);
}

/* The keys of a tester of kind t->kind: its row's reader. */
static int read_kind(scn_ctx *c, tester_spec *t)
{
    static int (*const readers[TESTER_N_KINDS])(scn_ctx *, tester_spec *) = {
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) [TESTER_##ENUM] = read_##NAME,
#include "tester_kinds.def"
#undef TESTER_KIND
    };
    return (unsigned)t->kind < TESTER_N_KINDS ? readers[t->kind](c, t) : -1;
}

int scn_tester_client_time(scn_ctx *c, const scn_key *k, void *base)
{
    tester_spec *t = base;
    int got = scn_keys_read_field(c, k, base);
    if (got > 0 && t->client_ns > TESTER_MAX_CLIENT_NS) {
        scn_keys_bad_value(c, scn_keys_get(c, k->name), "at most 60min (the tool's own time per request)");
        return -1;
    }
    return got < 0 ? -1 : 0;
}

int scn_tester_label(scn_ctx *c, const scn_key *k, void *base)
{
    tester_spec *t = base;
    scn_ini_entry *e = scn_keys_get(c, k->name);
    if (!e)
        return 0; /* the default: the name (tester_label) */
    if (strlen(e->value) > TESTER_LABEL_MAX) {
        scn_keys_bad_value(c, e, "a label is at most 40 bytes, so that it fits the chart's legend");
        return -1;
    }
    snprintf(t->label, sizeof t->label, "%s", e->value);
    return 0;
}

int scn_tester_read(scn_ctx *c, const char *name)
{
    scenario *s = c->s;
    tester_spec *t = &s->testers[s->n_testers++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    int v = 0;
    if (scn_profile_apply(c) < 0)
        return -1;
    if (!scn_keys_need(c, "kind") || scn_keys_choice(c, "kind", &v, NULL) < 0)
        return -1;
    t->kind = (tester_kind)v;
    c->kind = v;
    /* the defaults of the kind's rows (users 1, late next_slot, ...); the
     * keys are then read in the order their checks need (each by its row's
     * type and limits), not by scn_keys_read_rows: a key's check names the
     * keys it depends on, read before it */
    scn_keys_set_defaults(SCN_SEC_TESTER, v, SCN_IN_TESTER, t);
    c->kind_name = tester_kind_name(t->kind);
    /* the kind's keys (its code), then the rows of every kind (requests,
     * warmup, timeout, backfill, label, chart) */
    if (read_kind(c, t) < 0 || scn_keys_read_rows(c, SCN_IN_TESTER, t) < 0)
        return -1;
    return scn_keys_check_unused(c);
}
