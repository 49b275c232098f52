/* server.c - FIFO worker with stop-the-world windows and request stalls. */
#include "server.h"
#include "rng.h"

#include <errno.h>
#include <stdlib.h>

struct server {
    dist_spec service;
    const stall_spec *stalls;
    size_t n_stalls;
    size_t *cursor;  /* per stall: next window (windows) or range (requests) */
    stall_window *cached; /* per periodic stall: the window found last (end 0: none) */
    gsl_rng *rng;
    uint64_t k;      /* index of the next request */
    int64_t free_at; /* reply time of the last request submitted */
};

int server_new(server **out, const server_config *cfg)
{
    *out = NULL;
    server *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->service = cfg->service;
    s->stalls = cfg->stalls;
    s->n_stalls = cfg->n_stalls;
    s->cursor = calloc(cfg->n_stalls ? cfg->n_stalls : 1, sizeof *s->cursor);
    s->cached = calloc(cfg->n_stalls ? cfg->n_stalls : 1, sizeof *s->cached);
    if (!s->cursor || !s->cached) {
        free(s->cursor);
        free(s->cached);
        free(s);
        return -ENOMEM;
    }
    int rc = rng_new(&s->rng, cfg->generator, cfg->seed, RNG_SERVICE);
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
    free(s->cursor);
    free(s->cached);
    free(s);
}

/* The earliest-starting window, over all stop-the-world stalls, among those
 * that end after t. Returns 0 if there is none. t never decreases between
 * calls on one server, so explicit lists are walked with a cursor. */
static int next_window(server *s, int64_t t, stall_window *out)
{
    int found = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        stall_window w = {0, 0};
        if (st->kind == STALL_PERIODIC) {
            /* the window found last still ends after t most of the time */
            if (s->cached[i].end_ns <= t)
                s->cached[i] = stall_periodic_next(st, t);
            w = s->cached[i];
        } else if (st->kind == STALL_WINDOWS) {
            size_t *c = &s->cursor[i];
            while (*c < st->n_windows && st->windows[*c].end_ns <= t)
                (*c)++;
            if (*c == st->n_windows)
                continue;
            w = st->windows[*c];
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

int64_t server_work_until(server *s, int64_t t, int64_t work)
{
    stall_window w = {0, 0};
    /* Walk the windows ahead of t: inside one, jump to its end; before one,
     * do the work that fits before it starts. Overlapping windows of
     * different stalls are handled by the loop (their union stops work). */
    while (next_window(s, t, &w)) {
        if (w.start_ns <= t) {
            t = w.end_ns;
            continue;
        }
        if (work <= w.start_ns - t)
            return t + work;
        work -= w.start_ns - t;
        t = w.end_ns;
    }
    return t + work;
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
        size_t *c = &s->cursor[i];
        while (*c < st->n_ranges && st->ranges[*c].last < k)
            (*c)++;
        if (*c < st->n_ranges && st->ranges[*c].first <= k)
            extra += st->extra_ns;
    }
    return extra;
}

int64_t server_submit(server *s, int64_t arrival_ns)
{
    int64_t work = dist_draw_ns(&s->service, s->rng) + request_extra(s, s->k);
    s->k++;
    int64_t start = arrival_ns > s->free_at ? arrival_ns : s->free_at;
    s->free_at = server_work_until(s, start, work);
    return s->free_at;
}

uint64_t server_requests(const server *s)
{
    return s->k;
}

int64_t server_free_at(const server *s)
{
    return s->free_at;
}
