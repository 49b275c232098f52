/* scn_stall.c - [stall NAME]: periodic, windows, requests, random and file
 * stalls (docs/scenario-format.md). */
#include "scn_stall.h"
#include "scn_data.h"
#include "scn_dist.h"
#include "scn_real.h"
#include "stall.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const form_names[] = {[SCN_STALL_FORM_FILE] = "file", [SCN_STALL_FORM_GC_LOG] = "gc_log"};
const names_table scn_stall_forms = {form_names, ARRAY_SIZE(form_names)};

/* How many comma-separated items value has, at most. */
static size_t items_in(const char *value)
{
    size_t n = 1;
    for (const char *q = value; *q; q++)
        n += *q == ',';
    return n;
}

/* Reads one item of a comma-separated list into element i of items. */
typedef int (*item_fn)(scn_ctx *c, scn_ini_entry *e, char *tok, void *items, size_t i);

/* The items of e's value, separated by commas, into *items (allocated
 * here, of size bytes each); *n receives how many. An empty list gets the
 * message empty. 0 or -1 (message set). */
static int parse_list(scn_ctx *c, scn_ini_entry *e, void **items, size_t size, item_fn fn, size_t *n,
                      const char *empty)
{
    if (scn_keys_check_list(c, e))
        return -1;
    *items = calloc(items_in(e->value), size);
    char *copy = strdup(e->value);
    if (!*items || !copy) {
        free(copy);
        c->p->oom = 1;
        return -1;
    }
    int rc = 0;
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
        if (!(rc = fn(c, e, tok, *items, *n)))
            (*n)++;
    free(copy);
    if (rc)
        return rc;
    if (*n == 0) {
        scn_keys_bad_value(c, e, empty);
        return -1;
    }
    return 0;
}

/* One window "a..b" of a windows stall: 0, or -1 (message set). */
static int parse_window_item(scn_ctx *c, scn_ini_entry *e, char *tok, void *items, size_t i)
{
    stall_window *w = (stall_window *)items + i;
    units_window_error we;
    char msg[256];
    int rc = units_parse_window(tok, &w->start_ns, &w->end_ns, &we);
    if (rc == -ENOMEM) {
        c->p->oom = 1;
        return -1;
    }
    if (rc == 0)
        return 0;
    if (we.side == 0) {
        snprintf(msg, sizeof msg, "'%s' is not a window START..END (e.g. 0.9s..1.4s)", scn_ini_trim(tok));
    } else {
        tok[we.dots] = '\0';
        char *end = scn_ini_trim(tok + we.dots + 2);
        snprintf(msg, sizeof msg, "window '%s..%s': %s", scn_ini_trim(tok), end, we.why);
    }
    scn_keys_bad_value(c, e, msg);
    return -1;
}

/* The windows are sorted, disjoint and not empty; else say which is not. */
static int check_windows(scn_ctx *c, scn_ini_entry *e, stall_spec *st)
{
    size_t bad;
    if (!stall_windows_normalise(st->windows, st->n_windows, &bad))
        return 0;
    char msg[256], x[32], y[32];
    units_format_duration_exact(st->windows[bad].start_ns, x, sizeof x);
    units_format_duration_exact(st->windows[bad].end_ns, y, sizeof y);
    if (st->windows[bad].end_ns == st->windows[bad].start_ns)
        snprintf(msg, sizeof msg, "window %s..%s is empty: it ends where it starts; give an END after START", x, y);
    else if (st->windows[bad].end_ns < st->windows[bad].start_ns)
        snprintf(msg, sizeof msg, "window %s..%s ends before it starts", x, y);
    else if (bad > 0 && st->windows[bad].start_ns == st->windows[bad - 1].start_ns &&
             st->windows[bad].end_ns == st->windows[bad - 1].end_ns)
        snprintf(msg, sizeof msg, "window %s..%s is given twice; give it once", x, y);
    else
        snprintf(msg, sizeof msg, "window %s..%s overlaps the one before it; merge them", x, y);
    scn_keys_bad_value(c, e, msg);
    return -1;
}

/* "a..b, c..d" (durations) into windows. */
static int parse_windows(scn_ctx *c, scn_ini_entry *e, stall_spec *st)
{
    void *items = NULL;
    int rc = parse_list(c, e, &items, sizeof *st->windows, parse_window_item, &st->n_windows,
                        "expected at least one window START..END (e.g. 0.9s..1.4s)");
    st->windows = items;
    return rc ? rc : check_windows(c, e, st);
}

/* One item "90" or "90..95" of a requests stall: 0, or -1 (message set). */
static int parse_range_item(scn_ctx *c, scn_ini_entry *e, char *tok, void *items, size_t i)
{
    stall_range *r = (stall_range *)items + i;
    char *dots = strstr(tok, "..");
    const char *why;
    uint64_t a, b;
    if (dots)
        *dots = '\0';
    if (units_parse_count(tok, UINT64_MAX / 2, &a, &why) ||
        (dots && units_parse_count(dots + 2, UINT64_MAX / 2, &b, &why))) {
        char msg[200];
        snprintf(msg, sizeof msg, "expected request indices such as 90 or 90..95, separated by commas "
                                  "(%s%s)", why, strcmp(why, "number too large") ? "" : ": at most 2^63 - 1");
        scn_keys_bad_value(c, e, msg);
        return -1;
    }
    r->first = a;
    r->last = dots ? b : a;
    return 0;
}

/* "90, 100..105" into request ranges. */
static int parse_ranges(scn_ctx *c, scn_ini_entry *e, stall_spec *st)
{
    void *items = NULL;
    int rc = parse_list(c, e, &items, sizeof *st->ranges, parse_range_item, &st->n_ranges,
                        "expected request indices such as 90 or 90..95");
    st->ranges = items;
    if (rc)
        return rc;
    size_t bad;
    if (stall_ranges_normalise(st->ranges, st->n_ranges, &bad)) {
        char msg[200], item[48];
        const stall_range *r = &st->ranges[bad], *before = bad > 0 ? &st->ranges[bad - 1] : NULL;
        if (r->first == r->last)
            snprintf(item, sizeof item, "request %llu", (unsigned long long)r->first);
        else
            snprintf(item, sizeof item, "range %llu..%llu", (unsigned long long)r->first, (unsigned long long)r->last);
        if (r->last < r->first)
            snprintf(msg, sizeof msg, "%s is empty: it ends before it starts; give FIRST..LAST with LAST >= FIRST",
                     item);
        else if (before && before->first == r->first && before->last == r->last)
            snprintf(msg, sizeof msg, "%s is given twice; give it once", item);
        else
            snprintf(msg, sizeof msg, "%s overlaps %llu..%llu; merge them", item, (unsigned long long)before->first,
                     (unsigned long long)before->last);
        scn_keys_bad_value(c, e, msg);
        return -1;
    }
    return 0;
}

/* kind = file, out of time order: the windows read into memory (16 bytes
 * each; no line numbers kept: the line of an overlap, a rare error, is
 * found by reading the file again) and sorted (docs/decisions.md,
 * "Stall files streamed"). */
static int read_file_sorted(scn_ctx *c, stall_spec *st)
{
    scn_ini_entry *e;
    scn_window_vec x = {0};
    char path[SCENARIO_PATH_MAX + 2];
    if (scn_data_read_with(c, scn_data_window_line, &x, &e) < 0) {
        free(x.w);
        return -1;
    }
    scn_data_relative(c, e->value, path, sizeof path); /* fits: scn_data_read_with checked */
    st->windows = x.w;
    st->n_windows = x.n;
    size_t bad;
    if (stall_windows_normalise(st->windows, st->n_windows, &bad)) {
        scn_window_vec at = {NULL, 0, 0, st->windows[bad].start_ns, 0};
        if (scn_data_read_with(c, scn_data_window_at, &at, &e) < 0)
            return -1; /* the file changed under us: that message */
        scn_ini_fail(c->p, "%s:%d: this stall overlaps another; merge them", path, at.found_line);
        return -1;
    }
    return 0;
}

/* kind = file: windows from a CSV of start,length lines. One validating
 * pass keeps the count and the first and last windows; a file in time
 * order stays open and the run streams its windows (stall_cursor: memory
 * flat in the file's size); one out of order is read again into memory
 * and sorted (read_file_sorted). */
static int read_file_stall(scn_ctx *c, stall_spec *st)
{
    st->kind = STALL_WINDOWS;
    scn_ini_entry *e;
    scn_window_check x = {0};
    FILE *f = NULL;
    char path[SCENARIO_PATH_MAX + 2];
    if (scn_data_read_keep(c, scn_data_window_check, &x, &e, &f) < 0)
        return -1;
    scn_data_relative(c, e->value, path, sizeof path); /* fits: scn_data_read_keep checked */
    if (x.n == 0) {
        fclose(f);
        scn_keys_bad_value(c, e, "the file holds no start,length line");
        return -1;
    }
    if (x.unsorted) {
        fclose(f);
        return read_file_sorted(c, st);
    }
    if (x.bad_line) {
        fclose(f);
        scn_ini_fail(c->p, "%s:%d: this stall overlaps another; merge them", path, x.bad_line);
        return -1;
    }
    struct stat sb;
    stall_file *sf = calloc(1, sizeof *sf);
    if (!sf || !(sf->path = strdup(path))) {
        free(sf);
        fclose(f);
        c->p->oom = 1;
        return -1;
    }
    sf->f = f;
    st->file = sf; /* freed with the scenario from here on */
    if (fstat(fileno(f), &sb) != 0) {
        scn_keys_bad_value(c, e, "cannot examine the file after reading it");
        return -1;
    }
    sf->size = (int64_t)sb.st_size;
    sf->mtime_s = (int64_t)sb.st_mtim.tv_sec;
    sf->mtime_ns = (int64_t)sb.st_mtim.tv_nsec;
    sf->first = x.first;
    sf->last = x.last;
    sf->n_windows = x.n;
    sf->marks = x.marks;
    st->n_windows = x.n;
    return 0;
}

/* ---- the rows' hooks (scn_keys.def) ---------------------------------------- */

int scn_stall_length_dist(scn_ctx *c, const scn_key *k, void *base)
{
    (void)k;
    stall_spec *st = base;
    const scenario *s = c->s;
    if (scn_dist_read(c, &st->length_dist, "length_") < 0)
        return -1;
    /* Windows arrive every `every` on average (its row comes first); if a
     * window lasts about as long, the next one usually starts before it
     * ends and the server almost never works again. Ask for a mean length
     * of at most half the gap (the server then stops at most 1 - exp(-1/2)
     * = 39% of the time). */
    double mean_len = dist_mean_ns(&st->length_dist);
    if (!(mean_len <= (double)st->mean_gap_ns / 2)) {
        char a[32], b[32];
        scn_keys_section_fail(c, "stalls of mean length %s every %s on average would overlap into one "
                                 "endless stall; keep the mean length at most half of every",
                              isfinite(mean_len) ? units_format_duration((int64_t)mean_len, a, sizeof a)
                                                 : "infinite",
                              units_format_duration_exact(st->mean_gap_ns, b, sizeof b));
        return -1;
    }
    if ((double)s->duration_ns / (double)st->mean_gap_ns > (double)s->max_requests) {
        scn_keys_section_fail(c, "every = %s makes more stall windows than max_requests over the run; "
                                 "stall less often", scn_keys_get(c, "every")->value);
        return -1;
    }
    return 0;
}

int scn_stall_windows(scn_ctx *c, const scn_key *k, void *base)
{
    return scn_keys_need(c, k->name) ? parse_windows(c, scn_keys_get(c, k->name), base) : -1;
}

int scn_stall_requests(scn_ctx *c, const scn_key *k, void *base)
{
    return scn_keys_need(c, k->name) ? parse_ranges(c, scn_keys_get(c, k->name), base) : -1;
}

/* ---- each kind's reader: its rows, then what ties them together ------------- */

/* kind = random: windows arriving as a Poisson process (every, then the
 * length's distribution, whose hook checks the two together). */
static int read_random(scn_ctx *c, stall_spec *st)
{
    return scn_keys_read_rows(c, SCN_IN_STALL, st);
}

/* kind = periodic: length every period from first. */
static int read_periodic(scn_ctx *c, stall_spec *st)
{
    if (scn_keys_read_rows(c, SCN_IN_STALL, st) < 0)
        return -1;
    if (st->length_ns >= st->period_ns) {
        char a[32], b[32];
        scn_keys_section_fail(c, "length %s must be shorter than period %s (or the server never works)",
                              units_format_duration_exact(st->length_ns, a, sizeof a),
                              units_format_duration_exact(st->period_ns, b, sizeof b));
        return -1;
    }
    return 0;
}

static int read_windows(scn_ctx *c, stall_spec *st)
{
    return scn_keys_read_rows(c, SCN_IN_STALL, st);
}

static int read_requests(scn_ctx *c, stall_spec *st)
{
    return scn_keys_read_rows(c, SCN_IN_STALL, st);
}

/* The keys of a stall of kind st->kind: its row's reader (read_NAME for
 * each row of stall_kinds.def). */
static int read_kind(scn_ctx *c, stall_spec *st)
{
    static int (*const readers[STALL_N_KINDS])(scn_ctx *, stall_spec *) = {
#define STALL_KIND(ENUM, NAME, FLAGS) [STALL_##ENUM] = read_##NAME,
#include "stall_kinds.def"
#undef STALL_KIND
    };
    return (unsigned)st->kind < STALL_N_KINDS ? readers[st->kind](c, st) : -1;
}

int scn_stall_read(scn_ctx *c, const char *name)
{
    scenario *s = c->s;
    stall_spec *st = &s->stalls[s->n_stalls++];
    scn_keys_set_defaults(SCN_SEC_STALL, -1, SCN_IN_STALL, st);
    snprintf(st->name, sizeof st->name, "%s", name);
    int v = 0, form = 0;
    if (!scn_keys_need(c, "kind") || scn_keys_choice(c, "kind", &v, &form) < 0)
        return -1;
    if (form) {
        c->kind = SCN_KIND_FILE + v;
        c->kind_name = names_get(scn_stall_forms, v);
        if ((v == SCN_STALL_FORM_FILE ? read_file_stall(c, st) : scn_gclog_read(c, st)) < 0)
            return -1;
        if (scn_keys_read_rows(c, SCN_IN_STALL, st) < 0) /* preemption */
            return -1;
    } else {
        st->kind = (stall_kind)v;
        c->kind = v;
        c->kind_name = stall_kind_name(st->kind);
        if (read_kind(c, st) < 0)
            return -1;
    }
    /* a stall that would only start after the run ends never happens: a
     * mistake (a duration cut by --set, a unit slip, a log's offset or
     * pauses past the run), refused */
    const char *key = stall_kind_has(st->kind, STALL_KIND_GRID) ? "first" : "windows";
    if (form)
        key = v != SCN_STALL_FORM_FILE && scn_keys_get(c, "offset") ? "offset" : "file";
    int64_t start = stall_kind_has(st->kind, STALL_KIND_GRID) ? st->first_ns
                    : stall_kind_has(st->kind, STALL_KIND_LISTED) && st->n_windows ? stall_first_window(st).start_ns
                                                                                   : -1;
    if (start >= s->duration_ns && s->duration_ns > 0) {
        char a[64], b[64], m[256];
        snprintf(m, sizeof m, "the stall starts at %s, after the run ends (duration = %s): it would never happen%s",
                 units_format_duration_exact(start, a, sizeof a),
                 units_format_duration_exact(s->duration_ns, b, sizeof b),
                 !form ? ""
                 : v == SCN_STALL_FORM_FILE ? " (its first window)"
                                            : " (the log's first pause kept, moved by offset)");
        scn_ini_entry *e = scn_keys_get(c, key);
        if (e)
            scn_keys_bad_value(c, e, m);
        else
            scn_keys_section_fail(c, "%s", m);
        return -1;
    }
    return scn_keys_check_unused(c);
}
