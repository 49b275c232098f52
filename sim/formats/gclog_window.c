/* gclog_window.c - the pauses read, onto the run's clock (part of the
 * gclog module, API in gclog.h): rebased, windowed, offset, scaled,
 * sorted and merged where they overlap. */
#include "gclog_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* qsort order of pauses: by start, then line, then end. */
static int cmp_pause(const void *a, const void *b)
{
    const raw_pause *x = a, *y = b;
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    if (x->line != y->line)
        return (x->line > y->line) - (x->line < y->line);
    return (x->end > y->end) - (x->end < y->end);
}

/* ns as seconds with 9 decimals and a sign: "-1.500000000s". */
static void fmt_s(char *buf, size_t len, int64_t ns)
{
    const char *sign = ns < 0 ? "-" : "";
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(buf, len, "%s%llu.%09llus", sign, (unsigned long long)(a / NS_PER_S),
             (unsigned long long)(a % NS_PER_S));
}

/* Append a copy of text to r's notes. */
static int add_note(gclog_result *r, const char *text)
{
    char **nn = realloc(r->notes, (r->n_notes + 1) * sizeof *nn);
    if (!nn)
        return -ENOMEM;
    r->notes = nn;
    r->notes[r->n_notes] = strdup(text);
    if (!r->notes[r->n_notes])
        return -ENOMEM;
    r->n_notes++;
    return 0;
}

/* One pause p onto the run's clock: rebased on base (the wall clock's
 * first stamp, or 0), dropped below o's minimum, cut to o's window, moved
 * by its start and offset, its length scaled. Returns 1 with *out, 0 when
 * nothing of it is left, or -ERANGE with the message. */
static int map_pause(gcl_ctx *c, const raw_pause *p, int64_t base, const gclog_options *o, raw_pause *out,
                     gclog_result *r)
{
    int64_t s, e;
    if (__builtin_sub_overflow(p->start, base, &s) || __builtin_sub_overflow(p->end, base, &e))
        return gcl_fail(c, -ERANGE, p->line, "the pause lies beyond 2^63 ns from the log's first stamp");
    if (e - s <= 0 || e - s < o->min_pause_ns)
        return 0;
    if (s < 0) {
        /* an uptime log's pause that would begin before the JVM started
         * (a wall-clock log's base is its earliest instant, so never
         * there): garbled or cut from a longer log; cut at 0, said */
        char a[40], b[40], note[256];
        fmt_s(a, sizeof a, s);
        fmt_s(b, sizeof b, e);
        if (e > 0)
            snprintf(note, sizeof note, "%s:%zu: the pause [%s, %s) begins before the log's start (uptime 0); cut "
                     "there", c->name, p->line, a, b);
        else
            snprintf(note, sizeof note, "%s:%zu: the pause [%s, %s) ends before the log's start (uptime 0); "
                     "dropped", c->name, p->line, a, b);
        if (add_note(r, note))
            return gcl_fail(c, -ENOMEM, 0, "out of memory");
    }
    if (s < o->from_ns)
        s = o->from_ns;
    if (e > o->to_ns)
        e = o->to_ns;
    if (s >= e)
        return 0;
    /* onto the run's clock; the length scaled, the start kept */
    int64_t ns, len = e - s;
    if (__builtin_sub_overflow(s, o->from_ns, &ns) || __builtin_add_overflow(ns, o->offset_ns, &ns))
        return gcl_fail(c, -ERANGE, p->line, "the pause's time on the run's clock is beyond 2^63 ns");
    double scaled = (double)len * o->scale;
    if (!(scaled < 9.2e18))
        return gcl_fail(c, -ERANGE, p->line, "the scaled pause is beyond 2^63 ns");
    int64_t slen = (int64_t)llround(scaled), ne;
    if (__builtin_add_overflow(ns, slen, &ne))
        return gcl_fail(c, -ERANGE, p->line, "the pause's end on the run's clock is beyond 2^63 ns");
    if (ne <= 0 || slen <= 0)
        return 0;
    if (ns < 0)
        ns = 0;
    *out = (raw_pause){ns, ne, p->line};
    return 1;
}

/* The sorted pauses w[0..k) into r's windows, an overlap merged into the
 * window before (with a note naming both lines). */
static int merge_windows(gcl_ctx *c, const raw_pause *w, size_t k, gclog_result *r)
{
    r->windows = malloc((k ? k : 1) * sizeof *r->windows);
    if (!r->windows)
        return gcl_fail(c, -ENOMEM, 0, "out of memory");
    size_t m = 0;
    size_t last_line = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && w[i].start < r->windows[m - 1].end_ns) {
            char a[40], b[40], e[40], note[256];
            fmt_s(a, sizeof a, w[i].start);
            fmt_s(b, sizeof b, w[i].end);
            fmt_s(e, sizeof e, r->windows[m - 1].end_ns);
            snprintf(note, sizeof note, "%s:%zu: the pause [%s, %s) overlaps the one of line %zu, which ends at %s; "
                     "merged", c->name, w[i].line, a, b, last_line, e);
            if (add_note(r, note))
                return gcl_fail(c, -ENOMEM, 0, "out of memory");
            if (w[i].end > r->windows[m - 1].end_ns)
                r->windows[m - 1].end_ns = w[i].end;
            r->n_merged++;
        } else {
            r->windows[m].start_ns = w[i].start;
            r->windows[m].end_ns = w[i].end;
            m++;
        }
        last_line = w[i].line;
    }
    r->n_windows = m;
    return 0;
}

int gcl_finish(gcl_ctx *c, const plist *use, const gclog_options *o, gclog_result *r)
{
    raw_pause *w = malloc((use->n ? use->n : 1) * sizeof *w);
    if (!w)
        return gcl_fail(c, -ENOMEM, 0, "out of memory");
    /* the run's 0: an uptime log's own 0 (the JVM's start); a wall-clock
     * log's earliest instant, its first stamp or, when a pause is logged
     * at its end (unified logging), that pause's start: the first line's
     * pause is the log's first event, not one to cut */
    int64_t base = 0;
    if (c->clock == CLOCK_WALL && c->have_origin) {
        base = c->origin;
        for (size_t i = 0; i < use->n; i++)
            if (use->p[i].start < base)
                base = use->p[i].start;
    }
    size_t k = 0;
    int rc = 0;
    for (size_t i = 0; i < use->n && rc >= 0; i++) {
        rc = map_pause(c, &use->p[i], base, o, &w[k], r);
        if (rc > 0)
            k++;
    }
    if (rc >= 0) {
        r->n_kept = k;
        qsort(w, k, sizeof *w, cmp_pause);
        rc = merge_windows(c, w, k, r);
    }
    free(w);
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < r->n_windows; i++) {
        int64_t len = r->windows[i].end_ns - r->windows[i].start_ns;
        if (__builtin_add_overflow(r->total_ns, len, &r->total_ns))
            return gcl_fail(c, -ERANGE, 0, "the total paused time is beyond 2^63 ns");
        if (len > r->longest_ns)
            r->longest_ns = len;
    }
    return 0;
}
