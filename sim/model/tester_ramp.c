/* tester_ramp.c - open arrivals whose rate changes linearly over stages
 * (tester_spec stages, start_rate, spread; docs/models.md, "Rate ramp").
 * Each stage takes the rate linearly from the previous target (the start
 * rate first) to its own over its duration; the arrivals are placed as the
 * tool places them:
 *  - area (k6 ramping-arrival-rate, lib/executor/ramping_arrival_rate.go,
 *    cal): arrival i = 1, 2, ... comes at the instant x where the integral
 *    of the rate from the start reaches i. Within a stage of length d from
 *    rate a to rate b (per ns), with n0 the integral at its start, the
 *    integral at x is n0 + a x + (b - a) x^2 / (2 d); solving for
 *    x gives x = (a d - sqrt(d (a^2 d + 2 (i - n0) (b - a)))) / (a - b), and
 *    x = (i - n0) / a for a stage whose rate stays; the instant is
 *    truncated to whole ns, in IEEE double as k6 computes it (the same
 *    operations in the same order, so the same instants);
 *  - per_second (Gatling, gatling-core .../inject/open/OpenInjectionStep.scala:
 *    RampRateOpenInjection, ConstantRateOpenInjection, InjectionIterator;
 *    core/util/Shard.scala): second s of a ramp stage gets the users the
 *    integral gives it, the fraction carried to the next second within the
 *    stage (so the first s + 1 seconds hold floor(C(s + 1)) users, C the
 *    integral in users from the stage's start); a stage whose rate stays
 *    holds round(d r) users, second s getting ceil(u / d (s + 1)) -
 *    ceil(u / d s) (the last second the rest); a second's n users go on
 *    its whole milliseconds, millisecond m getting ceil(n / 1000 (m + 1)) -
 *    ceil(n / 1000 m) (the last one the rest), in double as Gatling
 *    computes them.
 * Arrivals are served as by any open tester (a VU pool, drops, warm-up,
 * requests = N); nothing is stored per arrival. */
#include "tester_loop.h"

#include <math.h>
#include <stdlib.h>

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

struct tester_ramp {
    const tester_spec *spec;
    size_t k;               /* the current stage */
    int64_t stage_start_ns; /* its start */
    int error;              /* -ERANGE: a per_second count past 2^127 */
    /* area */
    double i, done, end, from, to, dur;
    /* per_second: the stage's seconds, the current one, its users and the
     * users of the first sec seconds; the current ms and its users left */
    uint64_t n_secs, sec, sec_users, cum, ms, ms_left, const_users;
    int constant;
};

/* A rate as users per second p / q (q > 0), reduced: interval num_ns per
 * den arrivals is den 10^9 / num_ns per second. */
static void rate_per_s(units_interval iv, i128 *p, i128 *q)
{
    if (iv.den == 0 || iv.num_ns == 0) {
        *p = 0;
        *q = 1;
        return;
    }
    u128 a = (u128)iv.den * 1000000000u, b = iv.num_ns, x = a, y = b;
    while (y) {
        u128 t = x % y;
        x = y;
        y = t;
    }
    *p = (i128)(a / x);
    *q = (i128)(b / x);
}

/* The rate of stage k's start (the start rate, else stage k - 1's target). */
static units_interval stage_from(const tester_spec *s, size_t k)
{
    return k ? s->stages[k - 1].target : s->start_rate;
}

/* A rate per ns in double, as k6 computes it: float64(target) /
 * float64(timeUnit). */
static double rate_per_ns(units_interval iv)
{
    return iv.den == 0 || iv.num_ns == 0 ? 0 : (double)iv.den / (double)iv.num_ns;
}

/* floor(C(t)) for stage k, C(t) = r0 t + (r1 - r0) t^2 / (2 d), t and d
 * in whole seconds, rates per second: numerator 2 d p0 q1 t + (p1 q0 -
 * p0 q1) t^2 over 2 d q0 q1. 0, or -ERANGE past 2^127. */
static int cum_users(const tester_spec *s, size_t k, uint64_t t, uint64_t *out)
{
    i128 p0, q0, p1, q1, a, b, c, num, den, tt = (i128)t, d = (i128)(s->stages[k].duration_ns / 1000000000);
    rate_per_s(stage_from(s, k), &p0, &q0);
    rate_per_s(s->stages[k].target, &p1, &q1);
    if (__builtin_mul_overflow(p0, q1, &a) || __builtin_mul_overflow(p1, q0, &b) ||
        __builtin_mul_overflow(2 * d, a, &c) || __builtin_mul_overflow(c, tt, &c) ||
        __builtin_mul_overflow(b - a, tt, &num) || __builtin_mul_overflow(num, tt, &num) ||
        __builtin_add_overflow(num, c, &num) || __builtin_mul_overflow(q0, q1, &den) ||
        __builtin_mul_overflow(den, 2 * d, &den))
        return -ERANGE;
    i128 v = num / den; /* C(t) >= 0: truncation is the floor */
    if (v > (i128)UINT64_MAX)
        return -ERANGE;
    *out = (uint64_t)v;
    return 0;
}

/* Gatling's Shard.sumFromZero: the first j + 1 of `buckets` shares of
 * total (j = buckets - 1: all of it), in double as Shard computes it. */
static uint64_t shard_sum(uint64_t total, uint64_t buckets, uint64_t j)
{
    if (j + 1 >= buckets)
        return total;
    return (uint64_t)ceil((double)total / (double)buckets * (double)(j + 1));
}

/* Stage k's start for the area rule (k6's cal: the integral's end count
 * grows by the stage's area). */
static void area_enter(struct tester_ramp *r)
{
    const tester_stage *st = &r->spec->stages[r->k];
    r->to = rate_per_ns(st->target);
    r->dur = (double)st->duration_ns;
    if (r->from != r->to)
        r->end += r->dur * ((r->to - r->from) / 2 + r->from);
    else
        r->end += r->dur * r->to;
}

/* The next arrival by the area rule, or -1 when the stages are over. */
static int64_t area_next(struct tester_ramp *r)
{
    const tester_spec *s = r->spec;
    while (r->k < s->n_stages) {
        if (r->i <= r->end) {
            double x, from = r->from, to = r->to, dur = r->dur, i = r->i, done = r->done;
            if (from != to) {
                double under = dur * (from * from * dur + 2 * (i - done) * (to - from));
                x = (from * dur - (signbit(under) ? 0 : sqrt(under))) / (from - to);
            } else {
                x = (i - done) / to;
            }
            r->i += 1;
            return (int64_t)x + r->stage_start_ns;
        }
        r->done = r->end;
        r->from = r->to;
        r->stage_start_ns += s->stages[r->k].duration_ns;
        if (++r->k < s->n_stages)
            area_enter(r);
    }
    return -1;
}

/* Stage k's start for the per-second rule. */
static void seconds_enter(struct tester_ramp *r)
{
    const tester_spec *s = r->spec;
    units_interval a = stage_from(s, r->k), b = s->stages[r->k].target;
    r->n_secs = (uint64_t)(s->stages[r->k].duration_ns / 1000000000);
    r->sec = 0;
    r->cum = 0;
    r->sec_users = r->ms_left = 0;
    r->ms = 1000; /* no second open yet */
    int za = a.den == 0 || a.num_ns == 0, zb = b.den == 0 || b.num_ns == 0;
    r->constant = (za && zb) ||
                  (!za && !zb && (u128)a.den * b.num_ns == (u128)b.den * a.num_ns);
    /* ConstantRateOpenInjection: users = (seconds x rate).round, the rate a
     * double of users per second (Math.round: floor(x + 1/2)) */
    i128 p, q;
    rate_per_s(b, &p, &q);
    r->const_users = r->constant ? (uint64_t)floor((double)r->n_secs * ((double)p / (double)q) + 0.5) : 0;
}

/* Open second r->sec of the stage: its users. 0 or -ERANGE. */
static int seconds_open(struct tester_ramp *r)
{
    uint64_t s = r->sec;
    if (r->constant) {
        uint64_t hi = shard_sum(r->const_users, r->n_secs, s);
        uint64_t lo = s ? shard_sum(r->const_users, r->n_secs, s - 1) : 0;
        r->sec_users = hi - lo;
    } else {
        uint64_t c;
        int rc = cum_users(r->spec, r->k, s + 1, &c);
        if (rc)
            return rc;
        r->sec_users = c - r->cum;
        r->cum = c;
    }
    r->ms = 0;
    r->ms_left = r->sec_users ? shard_sum(r->sec_users, 1000, 0) : 0;
    return 0;
}

/* The next arrival by the per-second rule, or -1 (stages over, or
 * r->error set). */
static int64_t seconds_next(struct tester_ramp *r)
{
    const tester_spec *s = r->spec;
    while (r->k < s->n_stages) {
        if (r->ms < 1000 && r->ms_left) {
            r->ms_left--;
            return r->stage_start_ns + (int64_t)(r->sec * 1000 + r->ms) * 1000000;
        }
        if (r->ms < 999 && r->sec_users) { /* the next millisecond of this second */
            r->ms++;
            r->ms_left = shard_sum(r->sec_users, 1000, r->ms) - shard_sum(r->sec_users, 1000, r->ms - 1);
            continue;
        }
        if (r->ms != 1000)
            r->sec++; /* this second is done */
        if (r->sec < r->n_secs) {
            if ((r->error = seconds_open(r)) != 0)
                return -1;
            continue;
        }
        r->stage_start_ns += s->stages[r->k].duration_ns;
        if (++r->k < s->n_stages)
            seconds_enter(r);
    }
    return -1;
}

static int ramp_start(struct tester_ramp **out, const tester_spec *spec)
{
    struct tester_ramp *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->spec = spec;
    if (spec->spread == TESTER_SPREAD_AREA) {
        r->from = rate_per_ns(spec->start_rate);
        r->i = 1; /* k6: the area counts from 1 */
        area_enter(r);
    } else {
        seconds_enter(r);
    }
    *out = r;
    return 0;
}

/* The next arrival instant, or -1 when none is left. */
static int64_t ramp_next(struct tester_ramp *r)
{
    return r->spec->spread == TESTER_SPREAD_AREA ? area_next(r) : seconds_next(r);
}

void tester_ramp_free(struct tester_ramp *r)
{
    free(r);
}

int tester_ramp_prepare(tester_loop *L)
{
    const tester_spec *spec = L->spec;
    struct tester_ramp *count = NULL;
    int rc = tester_loop_alloc_users(L, 1); /* one schedule */
    if (!rc)
        rc = ramp_start(&count, spec);
    if (rc)
        return rc;
    /* planned: the arrivals before the end (one pass; nothing stored) */
    uint64_t n = 0;
    int64_t t;
    while ((t = ramp_next(count)) >= 0 && t < L->end_ns)
        n++;
    rc = count->error;
    tester_ramp_free(count);
    if (!rc)
        rc = ramp_start(&L->ramp, spec);
    if (rc)
        return rc;
    L->plans = 1;
    L->out->planned = n;
    t = ramp_next(L->ramp);
    L->users[0].next_ns = L->users[0].intended_ns = t >= 0 ? t : INT64_MAX;
    return spec->vus ? tester_open_make_pool(L) : 0;
}

/* The next arrival of the ramp (INT64_MAX: none left, so the loop ends). */
TESTER_INLINE int ramp_next_send(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)h;
    (void)rq;
    int64_t t = ramp_next(L->ramp);
    u->next_ns = u->intended_ns = t >= 0 ? t : INT64_MAX;
    return 0;
}

static const tester_strategy ramp_rows = {
    .kind = TESTER_OPEN, .prepare = tester_ramp_prepare, .run = tester_ramp_run, .from_intended = 1,
    .extras = 1, .next_send = ramp_next_send,
};
static const tester_strategy ramp_pool = {
    .kind = TESTER_OPEN, .prepare = tester_ramp_prepare, .run = tester_ramp_run, .from_intended = 1,
    .extras = 1, .pool = 1, .next_send = ramp_next_send,
};

__attribute__((flatten)) int tester_ramp_run(tester_loop *L)
{
    int rc = L->spec->vus ? tester_loop_run(L, &ramp_pool) : tester_loop_run(L, &ramp_rows);
    return rc ? rc : L->ramp->error;
}

double tester_stages_expected(const tester_spec *t, int64_t duration_ns)
{
    double n = 0, start = 0;
    for (size_t k = 0; k < t->n_stages && start < (double)duration_ns; k++) {
        double a = rate_per_ns(stage_from(t, k)), b = rate_per_ns(t->stages[k].target);
        double d = (double)t->stages[k].duration_ns, x = (double)duration_ns - start;
        if (x > d)
            x = d;
        n += a * x + (b - a) * x * x / (2 * d); /* the integral of the rate up to x */
        start += d;
    }
    return n;
}

int tester_stages_check(const tester_spec *t, const char **why)
{
    for (size_t k = 0; k < t->n_stages; k++) {
        if (t->spread != TESTER_SPREAD_PER_SECOND)
            continue;
        uint64_t c;
        if (t->stages[k].duration_ns % 1000000000) {
            *why = "stage_spread = per_second (Gatling) spreads whole seconds: give each stage a whole "
                   "number of seconds";
            return -EINVAL;
        }
        if (cum_users(t, k, (uint64_t)(t->stages[k].duration_ns / 1000000000), &c)) {
            *why = "a stage's rates are too fine to count its users exactly; give rates with fewer decimals";
            return -ERANGE;
        }
    }
    return 0;
}
