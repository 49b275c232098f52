/* scn_sections.c - [scenario], [truth] and [expect NAME]. */
#include "scn_sections.h"
#include "scn_expect.h"
#include "rng.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- [scenario]: the rows' hooks (scn_keys.def) ---------------------------- */

int scn_sections_name(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    scn_ini_entry *e = scn_keys_get(c, k->name);
    if (!e)
        return 0; /* the default: the file's name (scenario.c) */
    if (!scn_ini_valid_name(e->value)) {
        scn_keys_bad_value(c, e, "a name is 1 to 40 letters, digits, '_' or '-', not beginning with '-' (it names the output folder)");
        return -1;
    }
    snprintf(s->name, sizeof s->name, "%s", e->value);
    return 0;
}

int scn_sections_title(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    scn_ini_entry *e = scn_keys_get(c, k->name);
    if (!e)
        return 0; /* the default: the name (scenario.c, once every section is read) */
    if (strlen(e->value) > SCENARIO_TITLE_MAX) {
        scn_keys_bad_value(c, e, "a title is at most 100 bytes, so that it fits the chart");
        return -1;
    }
    snprintf(s->title, sizeof s->title, "%s", e->value);
    return 0;
}

int scn_sections_generator(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    scn_ini_entry *e = scn_keys_get(c, k->name);
    if (!e)
        return 0;
    int rc = rng_check_name(e->value);
    if (rc == -ENOTSUP) {
        scn_keys_bad_value(c, e, "a GSL generator whose sequence differs between cosim's native and browser "
                                 "builds (it computes in C long); take another (e.g. mt19937, taus2, ranlxd2)");
        return -1;
    }
    if (rc || strlen(e->value) >= sizeof s->generator) {
        scn_keys_bad_value(c, e, "not a GSL generator name (e.g. mt19937, taus2, ranlxd2)");
        return -1;
    }
    snprintf(s->generator, sizeof s->generator, "%s", e->value);
    return 0;
}

int scn_sections_chart_window(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    scn_ini_entry *e = scn_keys_get(c, k->name);
    if (!e)
        return 0; /* the default: the run works it out around the longest stall */
    /* a sweep draws no time charts: the window's form is checked, not
     * its place in the run (a --vary of duration may shorten it) */
    int sweep = (c->p->load_flags & SCENARIO_LOAD_SWEEP) != 0;
    char why[160];
    if (scenario_parse_window(e->value, sweep ? INT64_MAX : s->duration_ns, &s->chart_window_from,
                              &s->chart_window_to, why, sizeof why)) {
        scn_keys_bad_value(c, e, why);
        return -1;
    }
    if (sweep)
        s->chart_window_from = s->chart_window_to = 0;
    return 0;
}

int scn_sections_hlog_interval(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    int got = scn_keys_read_field(c, k, base);
    if (got <= 0)
        return got;
    if (s->duration_ns / s->hlog_interval_ns >= SCENARIO_HLOG_MAX_INTERVALS) {
        char msg[160];
        snprintf(msg, sizeof msg, "cuts the run into more than %d intervals; give a longer interval",
                 SCENARIO_HLOG_MAX_INTERVALS);
        scn_keys_bad_value(c, scn_keys_get(c, k->name), msg);
        return -1;
    }
    return 0;
}

int scn_sections_scenario(scn_ctx *c)
{
    if (scn_keys_read_rows(c, SCN_IN_SCENARIO, c->s) < 0)
        return -1;
    return scn_keys_check_unused(c);
}

/* ---- [truth] ------------------------------------------------------------------ */

int scn_sections_truth_interval(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    if (scn_keys_read_field(c, k, base) < 0)
        return -1;
    if ((double)s->duration_ns / (double)s->truth_interval_ns > (double)s->max_requests) {
        scn_keys_bad_value(c, scn_keys_get(c, k->name), "too many probes for the duration (more than max_requests)");
        return -1;
    }
    return 0;
}

int scn_sections_truth_load(scn_ctx *c, const scn_key *k, void *base)
{
    scenario *s = base;
    /* by default the load the scenario's testers put on the server: the
     * first open tester's (its requests, as a user population's, do not
     * wait for replies), else the first tester's whatever its kind (a
     * closed tester loads the server as its requests do); an idle
     * server's truth only when asked for (load = none). A truth of an
     * idle server beside loaded testers measured their load as error
     * ("wrk2 is +4.3% at p99.9" was 0.0% against its own load). */
    s->truth_load = -1;
    for (size_t i = 0; i < s->n_testers; i++)
        if (tester_kind_has(s->testers[i].kind, TESTER_KIND_ARRIVALS)) {
            s->truth_load = (int)i;
            break;
        }
    if (s->truth_load < 0 && s->n_testers > 0)
        s->truth_load = 0;
    scn_ini_entry *e = scn_keys_get(c, k->name);
    if (e) {
        s->truth_load = -1;
        if (strcmp(e->value, "none") != 0) {
            size_t i;
            for (i = 0; i < s->n_testers; i++)
                if (strcmp(s->testers[i].name, e->value) == 0)
                    break;
            if (i == s->n_testers) {
                scn_keys_bad_value(c, e, "expected the name of a tester, or none");
                return -1;
            }
            s->truth_load = (int)i;
        }
    }
    return 0;
}

int scn_sections_truth(scn_ctx *c)
{
    if (scn_keys_read_rows(c, SCN_IN_SCENARIO, c->s) < 0)
        return -1;
    return scn_keys_check_unused(c);
}

/* One line of an [expect] section into x. 0 or -1 (message set). */
/* The figure an unknown [expect] key most likely meant, or NULL: the
 * nearest metric name within 2 edits and fewer edits than the key's length
 * (scn_keys_edit_distance, as for the other sections' keys: 'recordd',
 * 'p50' aside; a one-letter 'x' suggests nothing), or a percentile written
 * with a capital or without its p ('P99', '99.9'), into buf. */
static const char *expect_near_miss(const char *key, char *buf, size_t len)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < scn_expect_metric_names.n; i++) {
        const char *name = scn_expect_metric_names.names[i];
        size_t d = name ? scn_keys_edit_distance(key, name) : 99;
        if (d < best_d && d < strlen(key)) { /* 'x' is no typo of 'max' */
            best_d = d;
            best = name;
        }
    }
    if (best)
        return best;
    expect_item y;
    const char *why;
    if (key[0] == 'P' || (key[0] >= '0' && key[0] <= '9')) {
        snprintf(buf, len, "p%s", key + (key[0] == 'P'));
        if (scn_expect_parse_key(buf, &y, &why) == 0 && y.metric == EXPECT_PERCENTILE)
            return buf;
    }
    return NULL;
}

static int read_expect_line(scn_ctx *c, scn_ini_entry *e, expect_item *x)
{
    char w[SCENARIO_PATH_MAX + 64], why[256];
    const char *bad;
    int rc = scn_expect_parse_key(e->key, x, &bad);
    if (rc == -EINVAL) {
        scn_ini_fail(c->p, "%s: [%s] %s: %s (percentiles such as p50, p99.9)", scn_keys_where(c, e, w, sizeof w),
                     c->sec->name, e->key, bad);
        return -1;
    }
    if (rc) {
        char takes[512], near[SCENARIO_KEY_MAX + 2];
        const char *guess = expect_near_miss(e->key, near, sizeof near);
        if (guess)
            scn_ini_fail(c->p, "%s: [%s] unknown key '%s'; did you mean '%s'?", scn_keys_where(c, e, w, sizeof w),
                         c->sec->name, e->key, guess);
        else
            scn_ini_fail(c->p, "%s: [%s] unknown key '%s'; %s", scn_keys_where(c, e, w, sizeof w), c->sec->name,
                         e->key, scn_keys_takes(c, takes, sizeof takes));
        return -1;
    }
    rc = scn_expect_parse_value(e->value, scn_expect_metric_is_duration(x->metric), x, why, sizeof why);
    if (rc == -ENOMEM)
        c->p->oom = 1;
    else if (rc)
        scn_keys_bad_value(c, e, why);
    return rc ? -1 : 0;
}

int scn_sections_expect(scn_ctx *c, const char *name)
{
    scenario *s = c->s;
    size_t t;
    for (t = 0; t < s->n_testers; t++)
        if (strcmp(s->testers[t].name, name) == 0)
            break;
    if (t == s->n_testers) {
        scn_keys_section_fail(c, "no [tester %s] to check", name);
        return -1;
    }
    size_t first = s->n_expects;
    for (size_t i = c->sec->first; i != SCN_NONE; i = c->p->e[i].next) {
        scn_ini_entry *e = &c->p->e[i];
        if (e->removed)
            continue;
        e->used = 1;
        expect_item *x = &s->expects[s->n_expects];
        memset(x, 0, sizeof *x);
        x->tester = t;
        x->line = e->line;
        if (!e->line && e->set) /* the --set as typed: cut, it is only named */
            snprintf(x->set, sizeof x->set, "--set %.*s%s", (int)sizeof x->set - 10, e->set,
                     strlen(e->set) > sizeof x->set - 10 ? "..." : "");
        snprintf(x->key, sizeof x->key, "%s", e->key);
        if (read_expect_line(c, e, x) < 0)
            return -1;
        for (size_t k = first; k < s->n_expects; k++) {
            const expect_item *y = &s->expects[k];
            if (y->metric == x->metric &&
                (x->metric != EXPECT_PERCENTILE || (y->p_num == x->p_num && y->p_den == x->p_den))) {
                scn_keys_bad_value(c, e, "the same figure is expected twice in this section");
                return -1;
            }
        }
        s->n_expects++;
    }
    if (s->n_expects == first) {
        scn_keys_section_fail(c, "is empty; give the figures to check, e.g. p99 = 1.87ms +- 3%%");
        return -1;
    }
    return 0;
}
