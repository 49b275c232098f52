/* server.c - FIFO worker with stop-the-world windows and request stalls. */
#include "server.h"
#include "rng.h"
#include "units.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Walking state of one stall. Committed submissions move forward in time,
 * so they use cursors; probes (server_probe) must not disturb them and
 * search instead. */
typedef struct stall_state {
    size_t cursor;          /* windows: next window; requests: next range;
                               random: next generated window */
    stall_window cached;    /* periodic: the window found last (end 0: none) */
    stall_window *gen;      /* random: the windows generated so far */
    size_t n_gen, cap_gen;  /* gen[0..n_gen) are kept */
    int64_t next_start;     /* random: start of the next window to generate */
    gsl_rng *rng;           /* random: RNG_STALLS stream */
} stall_state;

struct server {
    dist_spec service;
    const stall_spec *stalls;
    size_t n_stalls;
    stall_state *st;
    gsl_rng *rng;
    uint64_t k;       /* index of the next request */
    int64_t free_at;  /* reply time of the last request submitted */
    int64_t busy_ns;  /* work done (service and request stalls), ns */
    int64_t run_end;  /* the run's end, for busy_in_run (INT64_MAX: none) */
    int past_end;     /* a reply came after run_end: busy_in_run is set */
    int64_t busy_in_run; /* time the worker worked within [0, run_end), ns */
    /* No window meets [quiet_from, quiet_until): work laid there needs no
     * walk over the stalls (the common case, and the fast path). */
    int64_t quiet_from, quiet_until;
    int has_request_stalls;
    int oom;
    int endless;      /* the stall windows ran past SERVER_HORIZON_NS */
    int backlog;      /* queued work alone ran past SERVER_HORIZON_NS */
    uint64_t windows; /* stall windows walked so far (work_until) */
    uint64_t max_windows; /* 0: no limit; past it, too_many_windows */
    int too_many_windows;
    int64_t stalled_ns; /* time the stall windows held submitted work back */
};

/* Past the horizon: blame the stalls if they held work back longer than
 * the work itself took (they leave no gap), else the backlog of work. */
static void past_horizon(server *s, int64_t stalled_ns)
{
    if (stalled_ns > s->busy_ns)
        s->endless = 1;
    else
        s->backlog = 1;
}

int server_new(server **out, const server_config *cfg)
{
    *out = NULL;
    server *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->service = cfg->service;
    s->stalls = cfg->stalls;
    s->n_stalls = cfg->n_stalls;
    s->max_windows = cfg->max_windows;
    s->st = calloc(cfg->n_stalls ? cfg->n_stalls : 1, sizeof *s->st);
    if (!s->st) {
        free(s);
        return -ENOMEM;
    }
    for (size_t i = 0; i < s->n_stalls; i++)
        s->has_request_stalls |= s->stalls[i].kind == STALL_REQUESTS;
    s->quiet_from = s->quiet_until = 0; /* nothing known yet */
    s->run_end = INT64_MAX;
    int rc = rng_new(&s->rng, cfg->generator, cfg->seed, RNG_SERVICE);
    for (size_t i = 0; !rc && i < s->n_stalls; i++) {
        if (s->stalls[i].kind != STALL_RANDOM)
            continue;
        /* every random stall has its own stream: RNG_STALLS + its index */
        rc = rng_new(&s->st[i].rng, cfg->generator, cfg->seed + i * 0x100000001ull, RNG_STALLS);
        if (!rc)
            s->st[i].next_start = (int64_t)llround(gsl_ran_exponential(s->st[i].rng,
                                                                       (double)s->stalls[i].mean_gap_ns));
    }
    if (rc) {
        server_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void server_free(server *s)
{
    if (!s)
        return;
    rng_free(s->rng);
    for (size_t i = 0; i < s->n_stalls; i++) {
        rng_free(s->st[i].rng);
        free(s->st[i].gen);
    }
    free(s->st);
    free(s);
}

/* Generate the next window of a random stall. 0, or -ENOMEM. */
static int random_generate(server *s, size_t i)
{
    stall_state *x = &s->st[i];
    const stall_spec *sp = &s->stalls[i];
    if (x->n_gen == x->cap_gen) {
        size_t cap = x->cap_gen ? 2 * x->cap_gen : 16;
        stall_window *g = realloc(x->gen, cap * sizeof *g);
        if (!g)
            return -ENOMEM;
        x->gen = g;
        x->cap_gen = cap;
    }
    stall_window w;
    w.start_ns = x->next_start;
    w.end_ns = w.start_ns + dist_draw_ns(&sp->length_dist, x->rng);
    x->gen[x->n_gen++] = w;
    x->next_start += (int64_t)llround(gsl_ran_exponential(x->rng, (double)sp->mean_gap_ns));
    return 0;
}

/* Random windows are generated in order of start; several may overlap. The
 * first generated window (from index *c) that ends after t; the server's
 * union semantics come from the caller's loop. 0 if out of memory. */
static int random_next(server *s, size_t i, size_t *c, int64_t t, stall_window *out)
{
    stall_state *x = &s->st[i];
    for (;;) {
        while (*c < x->n_gen && x->gen[*c].end_ns <= t)
            (*c)++;
        if (*c < x->n_gen) {
            *out = x->gen[*c];
            /* a later window may start before this one ends and end earlier:
             * the earliest start among those ending after t is this one,
             * since starts are generated in order */
            return 1;
        }
        if (random_generate(s, i)) {
            s->oom = 1;
            return 0;
        }
    }
}

/* First window of a sorted disjoint list ending after t (binary search). */
static const stall_window *search_windows(const stall_spec *st, int64_t t)
{
    size_t lo = 0, hi = st->n_windows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->windows[mid].end_ns <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < st->n_windows ? &st->windows[lo] : NULL;
}

/* The earliest-starting window, over all stop-the-world stalls, among those
 * that end after t; 0 if there is none. commit: t never decreases between
 * committed calls, so cursors advance; a probe searches without moving them. */
static int next_window(server *s, int64_t t, stall_window *out, int commit)
{
    int found = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        stall_state *x = &s->st[i];
        stall_window w = {0, 0};
        if (st->kind == STALL_PERIODIC) {
            if (!commit) {
                w = stall_periodic_next(st, t);
            } else {
                /* the window found last still ends after t most of the time */
                if (x->cached.end_ns <= t)
                    x->cached = stall_periodic_next(st, t);
                w = x->cached;
            }
        } else if (st->kind == STALL_WINDOWS) {
            if (commit) {
                while (x->cursor < st->n_windows && st->windows[x->cursor].end_ns <= t)
                    x->cursor++;
                if (x->cursor == st->n_windows)
                    continue;
                w = st->windows[x->cursor];
            } else {
                const stall_window *f = search_windows(st, t);
                if (!f)
                    continue;
                w = *f;
            }
        } else if (st->kind == STALL_RANDOM) {
            size_t c = x->cursor;
            if (!random_next(s, i, &c, t, &w))
                continue;
            if (commit) {
                x->cursor = c;
                /* forget the windows every later request is past, so memory
                 * stays flat however long the run */
                if (x->cursor >= 64 && x->cursor * 2 >= x->n_gen) {
                    memmove(x->gen, x->gen + x->cursor, (x->n_gen - x->cursor) * sizeof *x->gen);
                    x->n_gen -= x->cursor;
                    x->cursor = 0;
                }
            }
        } else {
            continue;
        }
        if (!found || w.start_ns < out->start_ns) {
            *out = w;
            found = 1;
        }
    }
    return found;
}

static int64_t work_until(server *s, int64_t t, int64_t work, int commit)
{
    stall_window w = {0, 0};
    const int64_t t0 = t, work0 = work;
    if (t > SERVER_HORIZON_NS - work) { /* the work alone ends past the horizon */
        past_horizon(s, s->stalled_ns);
        return SERVER_HORIZON_NS;
    }
    /* Walk the windows ahead of t: inside one, jump to its end; before one,
     * do the work that fits before it starts. Overlapping windows are
     * handled by the loop (their union stops work). */
    while (next_window(s, t, &w, commit)) {
        if (s->max_windows && ++s->windows > s->max_windows) { /* bounded: never a hang */
            s->too_many_windows = 1;
            return SERVER_HORIZON_NS;
        }
        if (t > SERVER_HORIZON_NS) { /* past the horizon: give up, loudly, with the cause */
            past_horizon(s, s->stalled_ns + (t - t0) - (work0 - work));
            return t;
        }
        if (w.start_ns <= t) {
            t = w.end_ns;
            continue;
        }
        if (work <= w.start_ns - t)
            break;
        work -= w.start_ns - t;
        t = w.end_ns;
    }
    if (commit) /* the time the windows took from this work */
        s->stalled_ns += t + work - t0 - work0;
    return t + work;
}

int64_t server_work_until(server *s, int64_t t, int64_t work)
{
    return work_until(s, t, work, 1);
}

/* Extra work of request k from the request stalls; k increases by one per
 * call, so each list is walked with a cursor. */
static int64_t request_extra(server *s, uint64_t k)
{
    int64_t extra = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (st->kind != STALL_REQUESTS)
            continue;
        size_t *c = &s->st[i].cursor;
        while (*c < st->n_ranges && st->ranges[*c].last < k)
            (*c)++;
        if (*c < st->n_ranges && st->ranges[*c].first <= k)
            extra += st->extra_ns;
    }
    return extra;
}

/* Time within [a, b) that the stop-the-world windows cover (their union),
 * found without moving the cursors. */
static int64_t stopped_between(server *s, int64_t a, int64_t b)
{
    int64_t stopped = 0, t = a;
    stall_window w;
    while (t < b && next_window(s, t, &w, 0) && w.start_ns < b) {
        int64_t from = w.start_ns > t ? w.start_ns : t;
        int64_t to = w.end_ns < b ? w.end_ns : b;
        stopped += to - from;
        t = w.end_ns;
    }
    return stopped;
}

/* The first request to end after the run's end (FIFO: every later one does
 * too) is the one in service at the end, or one that starts after it: the
 * time worked within the run is the work of the requests before it, plus
 * its work before the end (the time from its start to the end, less the
 * windows). Called for every reply after the end; only the first counts. */
static void note_past_end(server *s, int64_t start, int64_t work)
{
    if (s->past_end)
        return;
    s->past_end = 1;
    s->busy_in_run = s->busy_ns - work;
    if (start < s->run_end)
        s->busy_in_run += (s->run_end - start) - stopped_between(s, start, s->run_end);
}

int64_t server_submit(server *s, int64_t arrival_ns)
{
    int64_t work = dist_draw_ns(&s->service, s->rng);
    if (s->has_request_stalls)
        work += request_extra(s, s->k);
    s->k++;
    int64_t start = arrival_ns > s->free_at ? arrival_ns : s->free_at;
    if (start > SERVER_HORIZON_NS - work) { /* checked, never wrapped: the clock stays bounded */
        past_horizon(s, s->stalled_ns);
        s->free_at = SERVER_HORIZON_NS;
        return s->free_at;
    }
    s->busy_ns += work; /* work the server takes on */
    if (start >= s->quiet_from && work <= s->quiet_until - start) {
        s->free_at = start + work; /* no stall in the way */
        if (s->free_at > s->run_end)
            note_past_end(s, start, work);
        return s->free_at;
    }
    s->free_at = server_work_until(s, start, work);
    if (s->free_at > s->run_end)
        note_past_end(s, start, work);
    /* learn the quiet stretch after this reply: up to the next window */
    stall_window w;
    s->quiet_from = s->free_at;
    if (!next_window(s, s->free_at, &w, 1))
        s->quiet_until = s->oom ? s->free_at : INT64_MAX;
    else
        s->quiet_until = w.start_ns > s->free_at ? w.start_ns : s->free_at;
    return s->free_at;
}

int64_t server_probe(server *s, int64_t t_ns, int64_t work_ns)
{
    int64_t start = t_ns > s->free_at ? t_ns : s->free_at;
    return work_until(s, start, work_ns, 0);
}

int server_next_window(server *s, int64_t t_ns, stall_window *out)
{
    return next_window(s, t_ns, out, 0);
}

uint64_t server_requests(const server *s)
{
    return s->k;
}

int64_t server_free_at(const server *s)
{
    return s->free_at;
}

int64_t server_busy_ns(const server *s)
{
    return s->busy_ns;
}

void server_set_run_end(server *s, int64_t end_ns)
{
    s->run_end = end_ns;
}

int64_t server_busy_in_run_ns(const server *s)
{
    return s->past_end ? s->busy_in_run : s->busy_ns;
}

int server_failed(const server *s)
{
    return s->oom ? -ENOMEM : s->endless ? -ERANGE : s->too_many_windows ? -ELOOP : s->backlog ? -ETIME : 0;
}
