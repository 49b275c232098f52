/* tester.c - what a tester spec means apart from its run: names, the
 * request rate, what its latencies include. The run is tester_loop.c and
 * one file per kind (tester_closed.c, tester_paced.c, tester_open.c,
 * tester_partly_open.c). */
#include "tester.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name tables of the tester's enums, indexed by value. */
static const char *const kind_names[] = {
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) [TESTER_##ENUM] = #NAME,
#include "tester_kinds.def"
#undef TESTER_KIND
};
static const char *const late_names[] = {
    [TESTER_LATE_FROM_NOW] = "from_now", [TESTER_LATE_NEXT_SLOT] = "next_slot",
    [TESTER_LATE_CATCH_UP] = "catch_up", [TESTER_LATE_TICKER] = "ticker",
};
static const char *const arrivals_names[] = {
    [TESTER_ARRIVALS_FIXED] = "fixed", [TESTER_ARRIVALS_POISSON] = "poisson",
};
static const char *const first_send_names[] = {
    [TESTER_FIRST_SEND_START] = "start", [TESTER_FIRST_SEND_INTERVAL] = "interval",
};
static const char *const stop_test_names[] = {
    [TESTER_STOP_AT_SEND] = "at_send", [TESTER_STOP_WHEN_READY] = "when_ready",
};
static const char *const latency_from_names[] = {
    [TESTER_FROM_ACTUAL] = "actual", [TESTER_FROM_INTENDED] = "intended",
};
static const char *const in_flight_names[] = {
    [TESTER_IN_FLIGHT_RECORD] = "record", [TESTER_IN_FLIGHT_DROP] = "drop",
};
const names_table tester_kind_names = {kind_names, ARRAY_SIZE(kind_names)};

const tester_kind_info tester_kinds[TESTER_N_KINDS] = {
#define TESTER_KIND(ENUM, NAME, FLAGS, STYLE) [TESTER_##ENUM] = {#NAME, (FLAGS), (STYLE)},
#include "tester_kinds.def"
#undef TESTER_KIND
};
const names_table tester_late_names = {late_names, ARRAY_SIZE(late_names)};
const names_table tester_arrivals_names = {arrivals_names, ARRAY_SIZE(arrivals_names)};
const names_table tester_first_send_names = {first_send_names, ARRAY_SIZE(first_send_names)};
const names_table tester_stop_test_names = {stop_test_names, ARRAY_SIZE(stop_test_names)};
const names_table tester_latency_from_names = {latency_from_names, ARRAY_SIZE(latency_from_names)};
const names_table tester_in_flight_names = {in_flight_names, ARRAY_SIZE(in_flight_names)};
static const char *const backfill_names[] = {"none", "average_interval"};
const names_table tester_backfill_names = {backfill_names, ARRAY_SIZE(backfill_names)};
static const char *const schedule_names[] = {"per_user", "shared"};
const names_table tester_schedule_names = {schedule_names, ARRAY_SIZE(schedule_names)};
static const char *const vus_full_names[] = {"drop", "queue"};
const names_table tester_vus_full_names = {vus_full_names, ARRAY_SIZE(vus_full_names)};
static const char *const step_users_names[] = {"all", "started"};
const names_table tester_step_users_names = {step_users_names, ARRAY_SIZE(step_users_names)};
static const char *const think_first_names[] = {"no", "yes"};
const names_table tester_think_first_names = {think_first_names, ARRAY_SIZE(think_first_names)};
static const char *const ramp_round_names[] = {"exact", "step_ms", "start_ms"};
const names_table tester_ramp_round_names = {ramp_round_names, ARRAY_SIZE(ramp_round_names)};

int64_t tester_ramp_up_start(const tester_spec *spec, uint64_t i)
{
    const unsigned __int128 r = (unsigned __int128)(spec->ramp_up_ns > 0 ? spec->ramp_up_ns : 0);
    const uint64_t n = spec->users ? spec->users : 1;
    const uint64_t ms = 1000000;
    unsigned __int128 t;
    switch (spec->ramp_up_round) {
    case TESTER_RAMP_STEP_MS: /* i x floor(R / U / ms + 1/2) ms */
        t = (unsigned __int128)i * ((2 * r + (unsigned __int128)n * ms) / (2 * (unsigned __int128)n * ms)) * ms;
        break;
    case TESTER_RAMP_START_MS: /* floor(i R / U / ms) ms */
        t = i * r / ((unsigned __int128)n * ms) * ms;
        break;
    default:
        t = i * r / n;
        break;
    }
    return t > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)t;
}
static const char *const spread_names[] = {"area", "per_second"};
const names_table tester_spread_names = {spread_names, ARRAY_SIZE(spread_names)};
static const char *const queue_wait_names[] = {"off", "record"};
const names_table tester_queue_wait_names = {queue_wait_names, ARRAY_SIZE(queue_wait_names)};
static const char *const chart_names[] = {"yes", "no"};
const names_table tester_chart_names = {chart_names, ARRAY_SIZE(chart_names)};

const char *tester_label(const tester_spec *t)
{
    return t->label[0] ? t->label : t->name;
}

const char *tester_kind_name(tester_kind k)
{
    return names_get(tester_kind_names, (int)k);
}

int tester_kind_parse(const char *name, tester_kind *out)
{
    int i = names_find(tester_kind_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (tester_kind)i;
    return 0;
}

const char *tester_late_name(tester_late l)
{
    return names_get(tester_late_names, (int)l);
}

int tester_late_parse(const char *name, tester_late *out)
{
    int i = names_find(tester_late_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (tester_late)i;
    return 0;
}

/* The rate of a tester (MODEL.md, "What a run writes"): its arrivals come
 * at 1 / D; a partly-open session sends a geometric number of requests,
 * 1 + p + p^2 + ... = 1 / (1 - p) on average (Schroeder et al., NSDI
 * 2006), so its requests come at 1 / (D (1 - p)). */
double tester_request_rate_per_ns(const tester_spec *t)
{
    if (!tester_kind_has(t->kind, TESTER_KIND_RATED) || t->interval.num_ns == 0 || t->interval.den == 0)
        return -1;
    double per_arrival = tester_kind_has(t->kind, TESTER_KIND_SESSIONS) ? 1 / (1 - t->p_continue) : 1;
    return per_arrival * (double)t->interval.den / (double)t->interval.num_ns;
}

double tester_expected_requests(const tester_spec *t, const dist_spec *service, uint64_t workers,
                                int64_t duration_ns)
{
    double duration = (double)duration_ns;
    if (!tester_kind_has(t->kind, TESTER_KIND_RATED)) { /* a closed loop: users and the service */
        double mean_service = dist_mean_drawn_ns(service);
        double cycle = mean_service + (t->has_think ? dist_mean_drawn_ns(&t->think) : 0) + (double)t->client_ns;
        double users = (double)t->users * (double)(t->pipeline > 1 ? t->pipeline : 1); /* requests in flight */
        double full_rate = cycle > 0 ? users * duration / cycle : INFINITY;
        double capacity = mean_service > 0 ? (double)(workers ? workers : 1) * duration / mean_service + users
                                           : INFINITY;
        double most = full_rate < capacity ? full_rate : capacity;
        if (t->quota && t->quota_interval_ns > 0) { /* at most N a user an interval */
            double quota = (double)t->users * (double)t->quota * ceil(duration / (double)t->quota_interval_ns);
            most = quota < most ? quota : most;
        }
        return most;
    }
    if (tester_kind_has(t->kind, TESTER_KIND_SESSIONS)) /* no grid: the mean rate */
        return duration * tester_request_rate_per_ns(t);
    int arrivals = tester_kind_has(t->kind, TESTER_KIND_ARRIVALS);
    if (arrivals && t->n_stages) /* a rate ramp: its integral */
        return tester_stages_expected(t, duration_ns);
    if (arrivals && t->arrivals == TESTER_ARRIVALS_POISSON)
        return duration * tester_request_rate_per_ns(t);
    return (double)units_interval_count_before(t->interval, 0, duration_ns); /* the grid */
}

double tester_offered_utilisation(const tester_spec *t, const dist_spec *service)
{
    double rate = tester_request_rate_per_ns(t);
    return rate < 0 ? -1 : dist_mean_drawn_ns(service) * rate;
}

int tester_grid_of(const tester_spec *t, tester_grid *out)
{
    if (!tester_kind_has(t->kind, TESTER_KIND_ON_GRID) || t->schedule == TESTER_SCHEDULE_SHARED || t->has_stagger)
        return 0;
    out->interval = t->interval;
    out->first_slot = t->late == TESTER_LATE_TICKER ? t->users : 0;
    out->corrects = tester_kind_has(t->kind, TESTER_KIND_CORRECTS);
    out->expected_ns = out->corrects ? tester_expected_interval_ns(t) : 0;
    return 1;
}

/* Exact comparison of products of whole numbers and doubles (each double
 * taken as the dyadic rational it holds): a number is a 320-bit whole
 * number times 2^exp. */
typedef struct exact_num {
    uint64_t w[5]; /* little-endian limbs */
    int exp;
} exact_num;

static void exact_mul_u64(exact_num *x, uint64_t m)
{
    unsigned __int128 carry = 0;
    for (int i = 0; i < 5; i++) {
        unsigned __int128 p = (unsigned __int128)x->w[i] * m + carry;
        x->w[i] = (uint64_t)p;
        carry = p >> 64;
    }
}

/* x times d, d finite and >= 0: d = M 2^e with M < 2^53 whole. */
static void exact_mul_double(exact_num *x, double d)
{
    int e;
    double f = frexp(d, &e); /* d = f 2^e, f in [0.5, 1) */
    exact_mul_u64(x, (uint64_t)ldexp(f, 53));
    x->exp += e - 53;
}

static int exact_bits(const exact_num *x)
{
    for (int i = 4; i >= 0; i--)
        if (x->w[i])
            return 64 * i + 64 - __builtin_clzll(x->w[i]);
    return 0;
}

static void exact_shl(exact_num *x, int n)
{
    for (; n >= 64; n -= 64) {
        for (int i = 4; i > 0; i--)
            x->w[i] = x->w[i - 1];
        x->w[0] = 0;
    }
    if (n > 0)
        for (int i = 4; i >= 0; i--)
            x->w[i] = (x->w[i] << n) | (i ? x->w[i - 1] >> (64 - n) : 0);
}

/* -1, 0 or 1 as a < b, a = b, a > b. The products this file forms stay
 * below 2^200 (at most three factors of 64 bits, one of 53), so the shift
 * that lines up two numbers of equal magnitude fits the 320 bits. */
static int exact_cmp(exact_num a, exact_num b)
{
    int la = exact_bits(&a), lb = exact_bits(&b);
    if (!la || !lb)
        return (la > 0) - (lb > 0);
    if (la + a.exp != lb + b.exp)
        return la + a.exp > lb + b.exp ? 1 : -1;
    if (a.exp > b.exp)
        exact_shl(&a, a.exp - b.exp);
    else
        exact_shl(&b, b.exp - a.exp);
    for (int i = 4; i >= 0; i--)
        if (a.w[i] != b.w[i])
            return a.w[i] > b.w[i] ? 1 : -1;
    return 0;
}

int tester_offered_at_least_one(const tester_spec *t, const dist_spec *service, uint64_t workers)
{
    if (!tester_kind_has(t->kind, TESTER_KIND_RATED) || t->interval.num_ns == 0 || t->interval.den == 0)
        return 0;
    /* rate x mean / workers >= 1, rate = den / num (/ (1 - p) for
     * partly-open): mean den >= workers num (1 - p) */
    exact_num lhs = {{1, 0, 0, 0, 0}, 0}, rhs = {{1, 0, 0, 0, 0}, 0};
    exact_mul_double(&lhs, dist_mean_drawn_ns(service));
    exact_mul_u64(&lhs, t->interval.den);
    exact_mul_u64(&rhs, workers ? workers : 1);
    exact_mul_u64(&rhs, t->interval.num_ns);
    if (tester_kind_has(t->kind, TESTER_KIND_SESSIONS) && t->p_continue > 0) {
        /* 1 - p exactly: p = mp 2^-k (mp < 2^53 whole), so rhs (1 - p) =
         * (rhs 2^k - rhs mp) 2^-k. A p read from a decimal (at most 18
         * decimals) is at least 1e-18, so k <= 113 and rhs 2^k < 2^200;
         * a smaller p (only from code) counts as 0 */
        int e;
        double f = frexp(t->p_continue, &e);
        int k = 53 - e;
        if (k <= 120) {
            exact_num part = rhs;
            exact_mul_u64(&part, (uint64_t)ldexp(f, 53));
            exact_shl(&rhs, k);
            unsigned borrow = 0;
            for (int i = 0; i < 5; i++) {
                uint64_t d = rhs.w[i] - part.w[i] - borrow;
                borrow = rhs.w[i] < part.w[i] || (rhs.w[i] == part.w[i] && borrow);
                rhs.w[i] = d;
            }
            rhs.exp -= k;
        }
    }
    return exact_cmp(lhs, rhs) >= 0;
}

int tester_latency_includes_backlog(const tester_spec *t)
{
    /* a grid's catch_up from the intended time carries the backlog (the
     * corrected tester refuses catch_up: it would count each gap twice) */
    return tester_kind_has(t->kind, TESTER_KIND_OPEN_LIKE) ||
           (tester_kind_has(t->kind, TESTER_KIND_ON_GRID) && !tester_kind_has(t->kind, TESTER_KIND_CORRECTS) &&
            t->latency_from_intended && t->late == TESTER_LATE_CATCH_UP);
}

/* Bytes: n bytes from *at into dst; -EINVAL when fewer are left. */
static int take(const unsigned char **at, const unsigned char *end, void *dst, size_t n)
{
    if ((size_t)(end - *at) < n)
        return -EINVAL;
    memcpy(dst, *at, n);
    *at += n;
    return 0;
}

/* A histogram that may be absent: a flag byte, then hist_save's bytes. */
static void save_opt_hist(const hist *h, FILE *f)
{
    fputc(h != NULL, f);
    if (h)
        hist_save(h, f);
}

static int load_opt_hist(hist **h, const unsigned char **at, const unsigned char *end)
{
    unsigned char there;
    *h = NULL;
    if (take(at, end, &there, 1) || there > 1)
        return -EINVAL;
    return there ? hist_load(h, at, end) : 0;
}

int tester_result_save(const tester_result *r, FILE *f)
{
    fwrite(r, sizeof *r, 1, f);
    if (r->drops_per_s)
        fwrite(r->drops_per_s, sizeof r->drops_per_s[0], r->n_drop_seconds, f);
    if (r->stall_spans)
        fwrite(r->stall_spans, sizeof r->stall_spans[0], r->n_stall_spans, f);
    save_opt_hist(r->hist, f);
    save_opt_hist(r->wait, f);
    save_opt_hist(r->dropped, f);
    return ferror(f) ? -EIO : 0;
}

int tester_result_load(tester_result *r, const unsigned char **at, const unsigned char *end)
{
    tester_result head;
    memset(r, 0, sizeof *r);
    if (take(at, end, &head, sizeof head))
        return -EINVAL;
    /* the arrays the saved one owned, by their counts */
    int had_drops = head.drops_per_s != NULL, had_spans = head.stall_spans != NULL;
    *r = head;
    r->drops_per_s = NULL;
    r->stall_spans = NULL;
    r->hist = r->wait = r->dropped = NULL;
    if (!had_drops)
        r->n_drop_seconds = 0;
    if (!had_spans)
        r->n_stall_spans = 0;
    if (had_drops) {
        if (r->n_drop_seconds > (size_t)(end - *at) / sizeof r->drops_per_s[0])
            return -EINVAL;
        if (!(r->drops_per_s = malloc(r->n_drop_seconds * sizeof r->drops_per_s[0] + 1)))
            return -ENOMEM;
        take(at, end, r->drops_per_s, r->n_drop_seconds * sizeof r->drops_per_s[0]);
    }
    if (had_spans) {
        if (r->n_stall_spans > (size_t)(end - *at) / sizeof r->stall_spans[0])
            return -EINVAL;
        if (!(r->stall_spans = malloc(r->n_stall_spans * sizeof r->stall_spans[0] + 1)))
            return -ENOMEM;
        take(at, end, r->stall_spans, r->n_stall_spans * sizeof r->stall_spans[0]);
    }
    int rc = load_opt_hist(&r->hist, at, end);
    if (!rc)
        rc = load_opt_hist(&r->wait, at, end);
    if (!rc)
        rc = load_opt_hist(&r->dropped, at, end);
    return rc;
}

void tester_result_free(tester_result *r)
{
    if (!r)
        return;
    hist_free(r->hist);
    r->hist = NULL;
    hist_free(r->dropped);
    r->dropped = NULL;
    hist_free(r->wait);
    r->wait = NULL;
    free(r->drops_per_s);
    r->drops_per_s = NULL;
    free(r->stall_spans);
    r->stall_spans = NULL;
    r->n_stall_spans = 0;
}
