/* server.c - c FIFO workers with stop-the-world windows and request stalls. */
#include "server.h"
#include "grow.h"
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
    stall_cursor *fc;       /* a streamed file: the committed cursor */
    stall_cursor *pc;       /* ... and the probes' (searches') own */
} stall_state;

/* Service times drawn ahead, SERVER_DRAW_BATCH at a time: the
 * RNG_SERVICE stream serves only server_submit's draws, one a request in
 * order, so drawing them in a block of their own gives the same values in
 * the same order; the block's independent draws (calls into GSL and libm)
 * overlap in the processor, where one draw between a request's other steps
 * waited on them (limit.c's own loop: 26.6 ns a request, 17.8 ns with its
 * draws in blocks of 256, AMD EPYC). Draws past the run's last request are
 * never used. */
#define SERVER_DRAW_BATCH 128

/* server.h, "The service stream's draws, kept for the next server". */
struct server_tape {
    /* the stream: every value of dist_draw_ns is a function of these */
    dist_spec service; /* kind, a_ns, b_ns, shape (no arrays: see tape_attach) */
    char *generator;   /* NULL: no stream yet */
    uint64_t seed;
    int64_t *draws;    /* draws[0..n): s_0 .. s_{n-1}, n a multiple of
                          SERVER_DRAW_BATCH (whole batches are kept) */
    size_t n, cap, max;
    gsl_rng *end;      /* the stream's state after draws[0..n) */
    size_t users;      /* servers using the tape now */
};

struct server {
    dist_spec service;
    double median_ns; /* lognormal service: its median as a double */
    uint32_t next_draw, n_draws; /* draws[next_draw..n_draws) are unused */
    int64_t draws[SERVER_DRAW_BATCH];
    server_tape *tape; /* NULL: the server draws all its values itself */
    uint64_t drawn;    /* with a tape: values put in draws so far, the
                          stream's index of the next batch's first */
    uint64_t rng_at;   /* with a tape: the stream's index rng stands at */
    const stall_spec *stalls;
    size_t n_stalls;
    stall_state *st;
    gsl_rng *rng;
    uint64_t k;       /* index of the next request */
    int64_t free_at;  /* the earliest a worker is free: c = 1, the reply
                         time of the last request submitted; c > 1, pool[0]
                         (kept by submit_pool) */
    int64_t last_start; /* the first instant of work of the last request */
    int64_t last_extra; /* its request stall's extra work (0: none) */
    int64_t *pool;    /* c > 1: min-heap of the workers' free times (NULL
                         for c = 1, whose one free time is free_at) */
    int64_t busy_ns;  /* work submitted (service and request stalls), ns */
    int64_t worked_extra; /* time worked beyond the work submitted: work a
                             restart or resample threw away, and a
                             resample's new draw less the old, ns */
    int64_t run_end;  /* the run's end, for busy_in_run (INT64_MAX: none) */
    int past_end;     /* a reply came after run_end: busy_in_run is set */
    int64_t busy_in_run; /* time the worker worked within [0, run_end), ns */
    /* No window meets [quiet_from, quiet_until): work laid there needs no
     * walk over the stalls (the common case, and the fast path). */
    int64_t quiet_from, quiet_until;
    /* The plain fast path's bound: the least of quiet_until, the horizon
     * and run_end (work ending by it needs no walk, no horizon check and
     * no past-the-end count). fast_bound() keeps it. */
    int64_t fast_until;
    /* ... and where it begins: quiet_from for a plain server, INT64_MAX
     * (never) for the others, so the fast path tests no flag */
    int64_t fast_from;
    int has_request_stalls;
    int plain;        /* c = 1 and no request stalls: server_submit's fast
                         path (last_extra stays 0) */
    int oom;
    int endless;      /* the stall windows ran past SERVER_HORIZON_NS */
    int backlog;      /* queued work alone ran past SERVER_HORIZON_NS */
    int restarts_failed; /* a request restarted more than MAX_RESTARTS times */
    int stale;        /* a stall file changed since the scenario read it
                         (-ESTALE) or could not be read (-EIO) */
    uint64_t windows; /* stall windows walked so far (work_until) */
    uint64_t max_windows; /* 0: no limit; past it, too_many_windows */
    int too_many_windows;
    int64_t stalled_ns; /* time the stall windows held submitted work back */
    /* preemption = none: no request starts in a hold [from, until), the
     * stop that waited for the requests in service at a window's start.
     * Several may be pending at once with c > 1 (a request that starts
     * after one hold can meet the next window while a later-starting
     * request, queued behind it, still falls in the first): sorted by
     * from, disjoint; those ending at or before a committed walk's raw
     * start are dropped (raw starts never decrease) */
    stall_window *holds;
    size_t n_holds, cap_holds;
    uint64_t workers;
    gsl_rng *resample;        /* RNG_RESAMPLE: new work of preempted requests */
    gsl_rng *resample_probes; /* RNG_RESAMPLE_PROBES: the same for probes */
};

/* Most restarts (restart, resample) of one request: past it the windows
 * leave no gap its work fits in (a 2 s request under 10 ms every 1 s,
 * restarted, would never end), and the run fails (-ELOOP). */
#define MAX_RESTARTS 1000000

/* fast_until after a change of quiet_until or run_end. */
static void fast_bound(server *s)
{
    int64_t b = s->quiet_until < SERVER_HORIZON_NS ? s->quiet_until : SERVER_HORIZON_NS;
    s->fast_until = b < s->run_end ? b : s->run_end;
    s->fast_from = s->plain ? s->quiet_from : INT64_MAX;
}

/* Past the horizon: blame the stalls if they held work back longer than
 * the work itself took (they leave no gap), else the backlog of work. */
static void past_horizon(server *s, int64_t stalled_ns)
{
    if (stalled_ns > s->busy_ns)
        s->endless = 1;
    else
        s->backlog = 1;
}

int server_tape_new(server_tape **out, size_t max_draws)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return -ENOMEM;
    if (!max_draws)
        max_draws = SERVER_TAPE_MAX_DRAWS;
    (*out)->max = max_draws - max_draws % SERVER_DRAW_BATCH; /* whole batches */
    return 0;
}

void server_tape_free(server_tape *t)
{
    if (!t)
        return;
    free(t->generator);
    free(t->draws);
    rng_free(t->end);
    free(t);
}

size_t server_tape_draws(const server_tape *t)
{
    return t->n;
}

/* Whether a server of cfg draws the tape's stream: the same generator,
 * seed and parameters (shape compared bit for bit). */
static int tape_same_stream(const server_tape *t, const server_config *cfg)
{
    const dist_spec *a = &t->service, *b = &cfg->service;
    return t->generator && strcmp(t->generator, cfg->generator) == 0 && t->seed == cfg->seed && a->kind == b->kind &&
           a->a_ns == b->a_ns && a->b_ns == b->b_ns && memcmp(&a->shape, &b->shape, sizeof a->shape) == 0;
}

/* Use cfg->tape if it holds this server's stream, or restart it for this
 * stream when no server uses it. Kinds drawing from arrays (empirical,
 * histogram: the arrays are the caller's, and equal pointers need not mean
 * equal values from one run to the next) and constant (no draws) leave it
 * alone. @return 0 or -ENOMEM (the generator's name not copied). */
static int tape_attach(server *s, const server_config *cfg)
{
    server_tape *t = cfg->tape;
    dist_kind k = cfg->service.kind;
    if (k == DIST_CONSTANT || k == DIST_EMPIRICAL || k == DIST_HISTOGRAM)
        return 0;
    if (!tape_same_stream(t, cfg)) {
        if (t->users)
            return 0;
        char *g = strdup(cfg->generator);
        if (!g)
            return -ENOMEM;
        free(t->generator);
        t->generator = g;
        t->seed = cfg->seed;
        t->service = (dist_spec){.kind = k, .a_ns = cfg->service.a_ns, .b_ns = cfg->service.b_ns,
                                 .shape = cfg->service.shape};
        t->n = 0;
        rng_free(t->end);
        t->end = NULL;
    }
    t->users++;
    s->tape = t;
    return 0;
}

int server_new(server **out, const server_config *cfg)
{
    *out = NULL;
    server *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->service = cfg->service;
    s->median_ns = (double)cfg->service.a_ns;
    s->workers = cfg->workers ? cfg->workers : 1;
    if (s->workers > SERVER_MAX_WORKERS) {
        free(s);
        return -EINVAL;
    }
    s->stalls = cfg->stalls;
    s->n_stalls = cfg->n_stalls;
    s->max_windows = cfg->max_windows;
    s->st = calloc(cfg->n_stalls ? cfg->n_stalls : 1, sizeof *s->st);
    if (!s->st) {
        free(s);
        return -ENOMEM;
    }
    for (size_t i = 0; i < s->n_stalls; i++)
        s->has_request_stalls |= stall_kind_has(s->stalls[i].kind, STALL_KIND_WORK);
    s->plain = s->workers == 1 && !s->has_request_stalls;
    s->quiet_from = s->quiet_until = 0; /* nothing known yet */
    s->run_end = INT64_MAX;
    fast_bound(s);
    int rc = rng_new(&s->rng, cfg->generator, cfg->seed, RNG_SERVICE);
    if (!rc && cfg->tape)
        rc = tape_attach(s, cfg);
    if (!rc && s->workers > 1 && !(s->pool = calloc(s->workers, sizeof *s->pool)))
        rc = -ENOMEM; /* every worker free at 0 */
    int resamples = 0;
    for (size_t i = 0; i < s->n_stalls; i++)
        resamples |= s->stalls[i].preemption == STALL_PREEMPT_RESAMPLE;
    if (!rc && resamples)
        rc = rng_new(&s->resample, cfg->generator, cfg->seed, RNG_RESAMPLE);
    if (!rc && resamples)
        rc = rng_new(&s->resample_probes, cfg->generator, cfg->seed, RNG_RESAMPLE_PROBES);
    for (size_t i = 0; !rc && i < s->n_stalls; i++) {
        if (s->stalls[i].file) { /* two cursors: 8 KB however long the file */
            stall_state *x = &s->st[i];
            if (!(x->fc = malloc(sizeof *x->fc)) || !(x->pc = malloc(sizeof *x->pc)))
                rc = -ENOMEM;
            else if (!(rc = stall_cursor_init(x->fc, s->stalls[i].file)))
                stall_cursor_copy(x->pc, x->fc);
        }
        if (!stall_kind_has(s->stalls[i].kind, STALL_KIND_DRAWN))
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
    if (s->tape)
        s->tape->users--;
    rng_free(s->rng);
    rng_free(s->resample);
    rng_free(s->resample_probes);
    free(s->pool);
    free(s->holds);
    for (size_t i = 0; i < s->n_stalls; i++) {
        rng_free(s->st[i].rng);
        free(s->st[i].gen);
        free(s->st[i].fc);
        free(s->st[i].pc);
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
        stall_window *g = grow_array(x->gen, &x->cap_gen, sizeof *g, 16);
        if (!g)
            return -ENOMEM;
        x->gen = g;
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

/* A streamed file's window for t (0: none; an error sets s->stale), as
 * the array's: committed, the file's cursor moves on as the array's index
 * (forward only); a probe finds the first window ending after t with its
 * own cursor, started again from the committed one when that one is ahead
 * of it or t is before the window behind it, and usable (probes start no
 * earlier than the last submission's free time, which the committed walk
 * has not passed), else read from the file's start. */
static int file_next(server *s, stall_state *x, int64_t t, stall_window *out, int commit)
{
    int rc;
    if (commit) {
        rc = stall_cursor_seek(x->fc, t, out);
    } else {
        if ((t < x->pc->prev_end || x->fc->index > x->pc->index) && x->fc->prev_end <= t)
            stall_cursor_copy(x->pc, x->fc);
        rc = stall_cursor_find(x->pc, t, out);
    }
    if (rc < 0) {
        s->stale = rc;
        return 0;
    }
    return rc;
}

/* The earliest-starting window, over all stop-the-world stalls, among those
 * that end after t (ties: the stall listed first), its stall's index in
 * *which; 0 if there is none. commit: t never decreases between committed
 * calls, so cursors advance; a probe searches without moving them. */
static int next_window(server *s, int64_t t, stall_window *out, size_t *which, int commit)
{
    int found = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        stall_state *x = &s->st[i];
        stall_window w = {0, 0};
        if (stall_kind_has(st->kind, STALL_KIND_GRID)) {
            if (!commit) {
                w = stall_periodic_next(st, t);
            } else {
                /* the window found last still ends after t most of the time */
                if (x->cached.end_ns <= t)
                    x->cached = stall_periodic_next(st, t);
                w = x->cached;
            }
        } else if (x->fc) {
            if (!file_next(s, x, t, &w, commit))
                continue;
        } else if (stall_kind_has(st->kind, STALL_KIND_LISTED)) {
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
        } else if (stall_kind_has(st->kind, STALL_KIND_DRAWN)) {
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
            *which = i;
            found = 1;
        }
    }
    return found;
}

/* How a walk over the windows may move the stalls' cursors. */
enum {
    WALK_PROBE = 0,    /* never (a probe, or a search) */
    WALK_COMMIT,       /* all along: c = 1, whose next request starts no
                          earlier than this one's reply */
    WALK_COMMIT_START, /* only at the raw start: c > 1, whose next request
                          may start before this one's reply (but not
                          before its raw start: FIFO starts never decrease) */
};

/* What a walk found. */
typedef struct walk {
    int64_t start;         /* the first instant of work */
    int64_t worked;        /* time worked, thrown-away work included */
    int64_t worked_in_run; /* of it, before s->run_end */
} walk;

/* Time of [a, b) before end. */
static int64_t before_end(int64_t a, int64_t b, int64_t end)
{
    return (b < end ? b : end) - (a < end ? a : end);
}

/* The end of the hold that t falls in, or t: a request that would start
 * inside a stop waiting for the requests in service starts after it. */
static int64_t past_holds(const server *s, int64_t t)
{
    for (size_t i = 0; i < s->n_holds && s->holds[i].start_ns <= t; i++)
        if (t < s->holds[i].end_ns)
            t = s->holds[i].end_ns;
    return t;
}

/* Add the hold [from, until), merged with those it overlaps (their union
 * is one stop); the list stays sorted by from. Out of memory: s->oom. */
static void add_hold(server *s, int64_t from, int64_t until)
{
    size_t i = 0;
    while (i < s->n_holds && s->holds[i].end_ns <= from)
        i++;
    size_t j = i; /* holds[i..j) overlap [from, until) */
    while (j < s->n_holds && s->holds[j].start_ns < until)
        j++;
    if (j > i) {
        if (s->holds[i].start_ns < from)
            from = s->holds[i].start_ns;
        if (s->holds[j - 1].end_ns > until)
            until = s->holds[j - 1].end_ns;
        memmove(s->holds + i + 1, s->holds + j, (s->n_holds - j) * sizeof *s->holds);
        s->n_holds -= j - i - 1;
    } else {
        if (s->n_holds == s->cap_holds) {
            stall_window *nh = grow_array(s->holds, &s->cap_holds, sizeof *nh, 8);
            if (!nh) {
                s->oom = 1;
                return;
            }
            s->holds = nh;
        }
        memmove(s->holds + i + 1, s->holds + i, (s->n_holds - i) * sizeof *s->holds);
        s->n_holds++;
    }
    s->holds[i] = (stall_window){from, until};
}

/* Drop the holds that end at or before a committed walk's raw start t:
 * no later request starts before t. */
static void drop_holds_before(server *s, int64_t t)
{
    size_t k = 0;
    while (k < s->n_holds && s->holds[k].end_ns <= t)
        k++;
    if (k) {
        memmove(s->holds, s->holds + k, (s->n_holds - k) * sizeof *s->holds);
        s->n_holds -= k;
    }
}

/* A `none` window w starts at w.start_ns while a request works from t with
 * work left: the request runs to its end f = t + work undisturbed, every
 * window that starts before f waits for it, and the stop then lasts the
 * longest of their lengths: no request starts in [w.start, f + L). The
 * windows met are enumerated by their ends (one nested in another is
 * shorter and changes nothing). Committed walks record the stop in the
 * server's hold, growing the current one when it still lasts (c > 1: every
 * request in service at w.start makes the stop wait for its end). */
static int64_t finish_before_stop(server *s, stall_window w, int64_t t, int64_t work, int commit)
{
    const int64_t f = t + work;
    int64_t len = 0, x = t;
    stall_window v;
    size_t j;
    if (s->n_stalls == 1 && stall_kind_has(s->stalls[0].kind, STALL_KIND_GRID)) /* every window is L long: no walk */
        len = s->stalls[0].length_ns, x = f;
    while (x < f && next_window(s, x, &v, &j, 0) && v.start_ns < f) {
        if (v.end_ns - v.start_ns > len)
            len = v.end_ns - v.start_ns;
        x = v.end_ns;
    }
    if (commit)
        add_hold(s, w.start_ns, f + len);
    return f;
}

/* A window of stall `which` interrupts work in service after `done` ns of
 * it: the work left after the window by the stall's preemption (resume:
 * the rest; restart: all of it, work0; resample: a new service time plus
 * the request's stalls `extra`), into *work. 0, or -1 past MAX_RESTARTS
 * restarts (s->restarts_failed set): no gap the work fits in. */
static int preempt(server *s, size_t which, int64_t done, int64_t work0, int64_t extra, int how, int64_t *work,
                   unsigned long *restarts)
{
    switch (s->stalls[which].preemption) {
    case STALL_PREEMPT_RESUME:
        *work -= done;
        break;
    case STALL_PREEMPT_RESTART:
    case STALL_PREEMPT_RESAMPLE:
        if (++*restarts > MAX_RESTARTS) {
            s->restarts_failed = 1;
            return -1;
        }
        *work = s->stalls[which].preemption == STALL_PREEMPT_RESTART
                    ? work0
                    : dist_draw_ns(&s->service, how == WALK_PROBE ? s->resample_probes : s->resample) + extra;
        break;
    case STALL_PREEMPT_NONE: /* work_until finishes before the stop */
    case STALL_PREEMPT_OVERTIME: /* work_until finishes through the window */
        break;
    }
    return 0;
}

/* Periodic windows [w.start + j P, w.start + j P + L), j = 0, 1, ...: the
 * time they cover in [w.start, e), e >= w.start. */
static int64_t periodic_covered(const stall_spec *st, int64_t w_start, int64_t e)
{
    int64_t n = (e - w_start) / st->period_ns, part = (e - w_start) - n * st->period_ns;
    return n * st->length_ns + (part < st->length_ns ? part : st->length_ns);
}

/* work_until's end when the one stall is periodic with preemption resume
 * and the work from t (in a gap, t0 its raw start, worked and in_run so
 * far) meets its next window w: the work left after w's start, W, fills
 * whole gaps G = P - L and a last part, W = q G + r with 0 < r <= G, so
 * the reply is w.start + q P + L + r, in one step however many windows
 * it crosses (1 ns every 2 ns under a 10 ms service crosses 5,000,000: the
 * walk took 19 ns each, issue 30). The q + 1 windows crossed count
 * against max_windows as if walked. */
static int64_t periodic_resume(server *s, int64_t t0, int64_t t, stall_window w, int64_t work, int64_t worked,
                               int64_t in_run, int how, walk *o)
{
    const stall_spec *st = &s->stalls[0];
    const int64_t gap = st->period_ns - st->length_ns;
    const int64_t left = work - (w.start_ns - t);
    const int64_t q = (left - 1) / gap, r = left - q * gap;
    int64_t f;
    if (__builtin_mul_overflow(q, st->period_ns, &f) || __builtin_add_overflow(f, w.start_ns, &f) ||
        f > SERVER_HORIZON_NS - st->length_ns - r) {
        past_horizon(s, s->stalled_ns + (SERVER_HORIZON_NS - t0) - worked - work);
        return SERVER_HORIZON_NS;
    }
    f += st->length_ns + r;
    if (s->max_windows && (s->windows += (uint64_t)q + 1) > s->max_windows) {
        s->too_many_windows = 1;
        return SERVER_HORIZON_NS;
    }
    o->worked = worked + work;
    if (f <= s->run_end)
        o->worked_in_run = in_run + work;
    else if (t >= s->run_end)
        o->worked_in_run = in_run;
    else if (w.start_ns >= s->run_end)
        o->worked_in_run = in_run + (s->run_end - t);
    else
        o->worked_in_run = in_run + (s->run_end - t) - periodic_covered(st, w.start_ns, s->run_end);
    if (how != WALK_PROBE)
        s->stalled_ns += f - t0 - o->worked;
    return f;
}

/* Work `work` (of which `extra` is request stalls) from t under the windows
 * and their preemption (stall.h): the reply time. Before its work starts,
 * a request waits out every window and hold it meets; in service, a window
 * acts by its stall's preemption (resume: the rest after the window;
 * restart: all of it after; resample: a new service time and the extra
 * after; none: finish_before_stop; overtime: to its end, the window kept). Overlapping windows are handled by the
 * loop (their union stops work); the one that meets the request in service
 * decides. */
static __attribute__((noinline)) int64_t work_until(server *s, int64_t t, int64_t work, int64_t extra, int how, walk *o)
{
    stall_window w = {0, 0};
    size_t which = 0;
    const int64_t t0 = t, work0 = work;
    int64_t worked = 0, in_run = 0;
    int started = 0, commit = how != WALK_PROBE;
    unsigned long restarts = 0;
    o->start = t;
    o->worked = o->worked_in_run = 0;
    if (commit && s->n_holds)
        drop_holds_before(s, t);
    if (t > SERVER_HORIZON_NS - work) { /* the work alone ends past the horizon */
        past_horizon(s, s->stalled_ns);
        return SERVER_HORIZON_NS;
    }
    /* Walk the windows ahead of t: inside one, jump to its end; before one,
     * do the work that fits before it starts. */
    for (;;) {
        if (!started && s->n_holds)
            t = past_holds(s, t); /* a stop waiting for requests in service */
        int found = next_window(s, t, &w, &which, commit);
        if (how == WALK_COMMIT_START)
            commit = 0; /* later t may pass the next request's raw start */
        if (!found)
            break;
        if (s->max_windows && ++s->windows > s->max_windows) { /* bounded: never a hang */
            s->too_many_windows = 1;
            return SERVER_HORIZON_NS;
        }
        if (t > SERVER_HORIZON_NS) { /* past the horizon: give up, loudly, with the cause */
            past_horizon(s, s->stalled_ns + (t - t0) - worked);
            return t;
        }
        if (w.start_ns <= t) {
            t = w.end_ns;
            continue;
        }
        if (!started) {
            started = 1;
            o->start = t;
        }
        if (work <= w.start_ns - t)
            break;
        /* in service when w starts */
        if (s->stalls[which].preemption == STALL_PREEMPT_OVERTIME) {
            /* its overtime: it ends as if no window were there; the window
             * stays where it is (those after t + work stop later requests) */
            o->worked = worked + work;
            o->worked_in_run = in_run + before_end(t, t + work, s->run_end);
            if (how != WALK_PROBE)
                s->stalled_ns += (t + work - t0) - o->worked;
            return t + work;
        }
        if (s->n_stalls == 1 && stall_kind_has(s->stalls[0].kind, STALL_KIND_GRID) &&
            s->stalls[0].preemption == STALL_PREEMPT_RESUME && !s->n_holds)
            return periodic_resume(s, t0, t, w, work, worked, in_run, how, o);
        if (s->stalls[which].preemption == STALL_PREEMPT_NONE) {
            int64_t f = finish_before_stop(s, w, t, work, how != WALK_PROBE);
            o->worked = worked + work;
            o->worked_in_run = in_run + before_end(t, f, s->run_end);
            if (how != WALK_PROBE)
                s->stalled_ns += (f - t0) - o->worked;
            return f;
        }
        worked += w.start_ns - t;
        in_run += before_end(t, w.start_ns, s->run_end);
        if (preempt(s, which, w.start_ns - t, work0, extra, how, &work, &restarts))
            return SERVER_HORIZON_NS;
        t = w.end_ns;
    }
    if (!started)
        o->start = t;
    if (restarts && t > SERVER_HORIZON_NS - work) { /* restarts pushed it past */
        past_horizon(s, s->stalled_ns + (t - t0) - worked);
        return SERVER_HORIZON_NS;
    }
    o->worked = worked + work;
    o->worked_in_run = in_run + before_end(t, t + work, s->run_end);
    if (how != WALK_PROBE) /* the time the windows took from this work */
        s->stalled_ns += t + work - t0 - o->worked;
    return t + work;
}

int64_t server_work_until(server *s, int64_t t, int64_t work)
{
    walk o;
    return work_until(s, t, work, 0, WALK_COMMIT, &o);
}

/* Extra work of request k from the request stalls; k increases by one per
 * call, so each list is walked with a cursor. */
static int64_t request_extra(server *s, uint64_t k)
{
    int64_t extra = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (!stall_kind_has(st->kind, STALL_KIND_WORK))
            continue;
        size_t *c = &s->st[i].cursor;
        while (*c < st->n_ranges && st->ranges[*c].last < k)
            (*c)++;
        if (*c < st->n_ranges && st->ranges[*c].first <= k)
            extra += st->extra_ns;
    }
    return extra;
}

/* The first request to end after the run's end (c = 1, FIFO: every later
 * one does too) is the one in service at the end, or one that starts after
 * it: the time worked within the run is the work of the requests before it
 * (submitted, and what restarts added), plus its work before the end,
 * in_run. Called for every reply after the end; only the first counts. */
static __attribute__((noinline)) void note_past_end(server *s, int64_t work, int64_t in_run)
{
    if (s->past_end)
        return;
    s->past_end = 1;
    s->busy_in_run = s->busy_ns - work + s->worked_extra + in_run;
}

/* After a walk: no window (nor hold) meets [quiet_from, quiet_until), the
 * stretch from `from` to the next window's start, less any hold. */
static __attribute__((noinline)) void learn_quiet(server *s, int64_t from)
{
    stall_window w;
    size_t which;
    s->quiet_from = from;
    if (!next_window(s, from, &w, &which, s->pool == NULL))
        s->quiet_until = s->oom ? from : INT64_MAX;
    else
        s->quiet_until = w.start_ns > from ? w.start_ns : from;
    for (size_t i = 0; i < s->n_holds && s->quiet_from != INT64_MAX; i++) {
        const stall_window *h = &s->holds[i];
        if (h->end_ns > s->quiet_from && h->start_ns < s->quiet_until) {
            if (h->start_ns <= s->quiet_from)
                s->quiet_from = INT64_MAX; /* inside a hold: no quiet stretch */
            else
                s->quiet_until = h->start_ns;
        }
    }
    fast_bound(s);
}

/* The root of the pool's heap grew: sift it down. */
static void pool_sift_down(int64_t *h, uint64_t n)
{
    uint64_t i = 0;
    const int64_t v = h[0];
    for (;;) {
        uint64_t l = 2 * i + 1, m = l;
        if (l >= n)
            break;
        if (l + 1 < n && h[l + 1] < h[l])
            m = l + 1;
        if (h[m] >= v)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = v;
}

/* server_submit for c > 1: the worker free earliest takes the request. The
 * walk commits the cursors only at the raw start (starts never decrease;
 * replies do), and the busy time within the run is summed per request. */
static int64_t submit_pool(server *s, int64_t arrival_ns, int64_t work, int64_t extra)
{
    int64_t start = arrival_ns > s->pool[0] ? arrival_ns : s->pool[0];
    int64_t reply, in_run;
    if (start > SERVER_HORIZON_NS - work) { /* checked, never wrapped */
        past_horizon(s, s->stalled_ns);
        s->last_start = start;
        reply = SERVER_HORIZON_NS;
        in_run = 0;
    } else {
        s->busy_ns += work;
        if (start >= s->quiet_from && work <= s->quiet_until - start) {
            s->last_start = start;
            reply = start + work; /* no stall in the way */
            in_run = reply <= s->run_end ? work : start < s->run_end ? s->run_end - start : 0;
        } else {
            walk o;
            reply = work_until(s, start, work, extra, WALK_COMMIT_START, &o);
            s->last_start = o.start;
            s->worked_extra += o.worked - work;
            in_run = o.worked_in_run;
            learn_quiet(s, o.start);
        }
    }
    s->busy_in_run += in_run;
    s->pool[0] = reply;
    pool_sift_down(s->pool, s->workers);
    s->free_at = s->pool[0];
    return reply;
}

/* server_submit for c = 1 from its start instant, start_ns (work_ns of
 * which extra_ns is request stalls, already counted in s->k). Out of line:
 * the walk over the windows is rare, and inlined into the testers' loops
 * it costs every request registers (bench/instructions.sh). */
static __attribute__((noinline)) int64_t submit_one(server *s, int64_t start, int64_t work, int64_t extra);

/* The next SERVER_DRAW_BATCH service times (dist_draw_ns's lognormal
 * first, its median converted to a double once in server_new), returned
 * is the first; the rest wait in s->draws. */
static int64_t tape_batch(server *s);

/* The next SERVER_DRAW_BATCH values of the server's own stream into
 * s->draws (the tape's or not). */
static void stream_batch(server *s)
{
    if (s->service.kind == DIST_LOGNORMAL)
        for (uint32_t i = 0; i < SERVER_DRAW_BATCH; i++)
            s->draws[i] = dist_lognormal_at_ns(&s->median_ns, s->service.shape, s->rng);
    else
        for (uint32_t i = 0; i < SERVER_DRAW_BATCH; i++)
            s->draws[i] = dist_draw_ns(&s->service, s->rng);
}

static __attribute__((noinline)) int64_t draw_batch(server *s)
{
    if (s->tape)
        return tape_batch(s);
    stream_batch(s);
    s->n_draws = SERVER_DRAW_BATCH;
    s->next_draw = 1;
    return s->draws[0];
}

/* draw_batch with a tape: the next batch read from it while it holds
 * them; past its end, drawn from the stream (first set to the tape's end
 * state unless it stands there already) and, while the tape has room,
 * kept there with the stream's state after it. A tape that cannot grow
 * (out of memory) stops growing: its values are still right. */
static int64_t tape_batch(server *s)
{
    server_tape *t = s->tape;
    uint64_t p = s->drawn;
    s->next_draw = 1;
    s->n_draws = SERVER_DRAW_BATCH;
    s->drawn += SERVER_DRAW_BATCH;
    if (p < t->n) { /* n and p are whole batches */
        memcpy(s->draws, t->draws + p, sizeof s->draws);
        return s->draws[0];
    }
    /* p >= n: p == n, or the tape stopped short of p and rng stands at p */
    if (s->rng_at != p)
        gsl_rng_memcpy(s->rng, t->end);
    stream_batch(s);
    s->rng_at = p + SERVER_DRAW_BATCH;
    if (p != t->n || t->n + SERVER_DRAW_BATCH > t->max)
        return s->draws[0];
    if (t->n == t->cap) { /* cap: SERVER_DRAW_BATCH times a power of 2 */
        int64_t *d = grow_array(t->draws, &t->cap, sizeof *d, SERVER_DRAW_BATCH * 64);
        if (!d) {
            t->max = t->n; /* no room: the tape stays as it is */
            return s->draws[0];
        }
        t->draws = d;
    }
    if (!t->end && !(t->end = gsl_rng_clone(s->rng))) {
        t->max = t->n;
        return s->draws[0];
    }
    gsl_rng_memcpy(t->end, s->rng);
    memcpy(t->draws + t->n, s->draws, sizeof s->draws);
    t->n += SERVER_DRAW_BATCH;
    return s->draws[0];
}

int64_t server_submit_spans(server *s, int64_t arrival_ns, int64_t *start_ns, int64_t *extra_ns)
{
    int64_t work = s->service.kind == DIST_CONSTANT ? s->service.a_ns
                   : s->next_draw < s->n_draws      ? s->draws[s->next_draw++]
                                                    : draw_batch(s);
    s->k++;
    int64_t start = arrival_ns > s->free_at ? arrival_ns : s->free_at;
    /* c = 1, no request stalls (fast_from is INT64_MAX otherwise), inside
     * the quiet stretch, before the horizon and the run's end: the common
     * case */
    if (start >= s->fast_from && work <= s->fast_until - start) {
        s->last_start = start;
        s->busy_ns += work;
        *start_ns = start; /* known here: the loop reads no field of the server */
        *extra_ns = 0;
        return s->free_at = start + work; /* no stall in the way */
    }
    if (s->plain) {
        int64_t reply = submit_one(s, start, work, 0);
        *start_ns = s->last_start;
        *extra_ns = s->last_extra;
        return reply;
    }
    int64_t extra = 0;
    if (s->has_request_stalls) {
        extra = request_extra(s, s->k - 1);
        work += extra;
    }
    s->last_extra = extra;
    int64_t reply = s->pool ? submit_pool(s, arrival_ns, work, extra)
                            : submit_one(s, arrival_ns > s->free_at ? arrival_ns : s->free_at, work, extra);
    *start_ns = s->last_start;
    *extra_ns = s->last_extra;
    return reply;
}

int64_t server_submit(server *s, int64_t arrival_ns)
{
    int64_t start_ns, extra_ns;
    return server_submit_spans(s, arrival_ns, &start_ns, &extra_ns);
}

static int64_t submit_one(server *s, int64_t start, int64_t work, int64_t extra)
{
    s->last_start = start;
    if (start > SERVER_HORIZON_NS - work) { /* checked, never wrapped: the clock stays bounded */
        past_horizon(s, s->stalled_ns);
        s->free_at = SERVER_HORIZON_NS;
        return s->free_at;
    }
    s->busy_ns += work; /* work the server takes on */
    if (start >= s->quiet_from && work <= s->quiet_until - start) {
        s->free_at = start + work; /* no stall in the way */
        if (s->free_at > s->run_end)
            note_past_end(s, work, s->run_end > start ? s->run_end - start : 0);
        return s->free_at;
    }
    walk o;
    s->free_at = work_until(s, start, work, extra, WALK_COMMIT, &o);
    s->last_start = o.start;
    if (s->free_at > s->run_end)
        note_past_end(s, work, o.worked_in_run);
    s->worked_extra += o.worked - work;
    /* learn the quiet stretch after this reply: up to the next window */
    learn_quiet(s, s->free_at);
    return s->free_at;
}

int64_t server_probe(server *s, int64_t t_ns, int64_t work_ns)
{
    int64_t free_at = server_free_at(s);
    int64_t start = t_ns > free_at ? t_ns : free_at;
    walk o;
    return work_until(s, start, work_ns, 0, WALK_PROBE, &o);
}

int server_next_window(server *s, int64_t t_ns, stall_window *out)
{
    size_t which;
    return next_window(s, t_ns, out, &which, 0);
}

int64_t server_last_start_ns(const server *s)
{
    return s->last_start;
}

int64_t server_last_extra_ns(const server *s)
{
    return s->last_extra;
}

uint64_t server_workers(const server *s)
{
    return s->workers;
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
    return s->busy_ns + s->worked_extra;
}

void server_set_run_end(server *s, int64_t end_ns)
{
    s->run_end = end_ns;
    fast_bound(s);
}

int64_t server_busy_in_run_ns(const server *s)
{
    if (s->pool)
        return s->busy_in_run;
    return s->past_end ? s->busy_in_run : s->busy_ns + s->worked_extra;
}

int server_failed(const server *s)
{
    return s->oom                ? -ENOMEM
           : s->stale            ? s->stale
           : s->restarts_failed  ? -ELOOP
           : s->endless          ? -ERANGE
           : s->too_many_windows ? -ECANCELED
           : s->backlog          ? -ETIME
                                 : 0;
}
