/* scn_tester.c - [tester NAME]: closed, paced, open, corrected and
 * partly_open testers (docs/scenario-format.md). */
#include "scn_tester.h"
#include "scn_dist.h"
#include "scn_profile.h"
#include "tester.h"
#include "units.h"

#include <stdio.h>
#include <string.h>

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
                              t->kind == TESTER_OPEN ? "an" : "a", tester_kind_name(t->kind),
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
    char msg[256], iv[48];
    scn_ini_entry *ie = scn_keys_get(c, "rate") ? scn_keys_get(c, "rate") : scn_keys_get(c, "interval");
    snprintf(iv, sizeof iv, "%s", ie ? ie->value : "?");
    snprintf(msg, sizeof msg, "each user would send every %llu x %s, past the clock's range (2^63 ns, "
                              "about 292 years); give fewer users or a shorter interval",
             (unsigned long long)t->users, iv);
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
    int v = TESTER_FROM_ACTUAL;
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
    int v = HIST_CORRECT_HDR;
    if (get_enum(c, "correction", &v) < 0)
        return -1;
    t->correction = (hist_correction)v;
    return scn_keys_duration(c, "expected_interval", &t->expected_interval_ns) < 0 ? -1 : 0;
}

/* vus, max_vus, vu_init and batch of an open tester. */
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
    return 0;
}

/* requests, warmup, timeout and backfill: any kind. */
static int get_primitives(scn_ctx *c, tester_spec *t)
{
    int v = 0;
    if (scn_keys_count(c, "requests", &t->requests) < 0 || scn_keys_duration(c, "warmup", &t->warmup_ns) < 0 ||
        scn_keys_duration(c, "timeout", &t->timeout_ns) < 0 || get_enum(c, "backfill", &v) < 0)
        return -1;
    t->backfill = v;
    return 0;
}

/* The keys of a paced or corrected tester. */
static int read_paced(scn_ctx *c, tester_spec *t)
{
    if (get_interval(c, t) < 0)
        return -1;
    if (scn_keys_count(c, "users", &t->users) < 0 || get_connections(c, t) < 0 || check_user_interval(c, t) < 0)
        return -1;
    /* late defaults to the book's next_slot (docs/decisions.md); a wrong
     * value is told what each of the four does */
    int v = TESTER_LATE_NEXT_SLOT;
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
    if (get_think(c, t) < 0)
        return -1;
    int got = t->kind == TESTER_PACED ? scn_keys_count(c, "catch_up_factor", &t->catch_up_factor) : 0;
    if (got < 0)
        return -1;
    if (got > 0 && t->late != TESTER_LATE_CATCH_UP) {
        scn_keys_bad_value(c, scn_keys_get(c, "catch_up_factor"),
                           "limits how fast a late user catches up, so it needs late = catch_up");
        return -1;
    }
    return t->kind == TESTER_PACED ? get_latency_from(c, t) : get_correction(c, t);
}

/* The keys of a tester of kind t->kind. */
static int read_kind(scn_ctx *c, tester_spec *t)
{
    int v;
    switch (t->kind) {
    case TESTER_CLOSED:
        return scn_keys_count(c, "users", &t->users) < 0 || get_connections(c, t) < 0 || get_think(c, t) < 0 ? -1
                                                                                                              : 0;
    case TESTER_OPEN:
        v = TESTER_ARRIVALS_FIXED;
        if (get_interval(c, t) < 0 || get_enum(c, "arrivals", &v) < 0)
            return -1;
        t->arrivals = (tester_arrivals)v;
        return get_pool(c, t);
    case TESTER_PARTLY_OPEN:
        if (get_interval(c, t) < 0)
            return -1;
        if (!scn_keys_need(c, "p_continue") || scn_keys_number(c, "p_continue", &t->p_continue) < 0)
            return -1;
        if (t->p_continue >= 1) {
            scn_keys_bad_value(c, scn_keys_get(c, "p_continue"), "must be below 1, or sessions never end");
            return -1;
        }
        return get_think(c, t);
    case TESTER_PACED:
    case TESTER_CORRECTED:
        return read_paced(c, t);
    }
    return -1;
}

/* label (free text for the legends) and chart (drawn or not). */
static int read_chart_keys(scn_ctx *c, tester_spec *t)
{
    scn_ini_entry *e = scn_keys_get(c, "label");
    if (e) {
        if (strlen(e->value) > TESTER_LABEL_MAX) {
            scn_keys_bad_value(c, e, "a label is at most 40 bytes, so that it fits the chart's legend");
            return -1;
        }
        snprintf(t->label, sizeof t->label, "%s", e->value);
    }
    int v = 0;
    if (scn_keys_choice(c, "chart", &v, NULL) < 0)
        return -1;
    t->chart_hidden = v == 1;
    return 0;
}

int scn_tester_read(scn_ctx *c, const char *name)
{
    scenario *s = c->s;
    tester_spec *t = &s->testers[s->n_testers++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->users = 1;
    int v = 0;
    if (scn_profile_apply(c) < 0)
        return -1;
    if (!scn_keys_need(c, "kind") || scn_keys_choice(c, "kind", &v, NULL) < 0)
        return -1;
    t->kind = (tester_kind)v;
    c->kind = v;
    c->kind_name = tester_kind_name(t->kind);
    if (read_kind(c, t) < 0 || read_chart_keys(c, t) < 0 || get_primitives(c, t) < 0)
        return -1;
    return scn_keys_check_unused(c);
}
