/* target_plan.c - the windows and the service draws `cosim target` plays
 * (target_plan.h). */
#include "target_plan.h"

#include "dist.h"
#include "grow.h"
#include "rng.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_window(const void *a, const void *b)
{
    const stall_window *x = a, *y = b;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* Append [a, b) cut at the run's end (a window starting at or after it is
 * not played). */
static int add(target_plan *p, size_t *cap, int64_t a, int64_t b, char *why, size_t whylen, const char *name)
{
    if (a >= p->run_ns || b <= a)
        return 0;
    if (b > p->run_ns)
        b = p->run_ns;
    if (p->n == TARGET_PLAN_MAX_WINDOWS) {
        snprintf(why, whylen, "[stall %s]: more than %d windows in the run: too many to play", name,
                 TARGET_PLAN_MAX_WINDOWS);
        return -EINVAL;
    }
    if (p->n == *cap) {
        stall_window *w = grow_array(p->w, cap, sizeof *p->w, 64);
        if (!w)
            return -ENOMEM;
        p->w = w;
    }
    p->w[p->n].start_ns = a < 0 ? 0 : a;
    p->w[p->n].end_ns = b;
    p->n++;
    return 0;
}

static int add_stall(target_plan *p, size_t *cap, const stall_spec *st, char *why, size_t whylen)
{
    int rc = 0;
    if (stall_kind_has(st->kind, STALL_KIND_GRID)) {
        /* windows O + jP while they start before the run's end: O and P are
         * positive and at most the clock's range, so the sum is checked */
        for (int64_t a = st->first_ns; rc == 0 && a < p->run_ns; a += st->period_ns) {
            rc = add(p, cap, a, a > INT64_MAX - st->length_ns ? INT64_MAX : a + st->length_ns, why, whylen,
                     st->name);
            if (a > INT64_MAX - st->period_ns)
                break;
        }
        return rc;
    }
    if (stall_kind_has(st->kind, STALL_KIND_LISTED)) {
        if (!st->file) {
            for (size_t i = 0; rc == 0 && i < st->n_windows; i++)
                rc = add(p, cap, st->windows[i].start_ns, st->windows[i].end_ns, why, whylen, st->name);
            return rc;
        }
        {
            stall_cursor *c = malloc(sizeof *c);
            if (!c)
                return -ENOMEM;
            stall_window w;
            int64_t t = 0;
            int got;
            if (stall_cursor_init(c, st->file) != 0) {
                free(c);
                snprintf(why, whylen, "[stall %s]: %s changed after the scenario was read", st->name, st->file->path);
                return -ESTALE;
            }
            while (rc == 0 && (got = stall_cursor_seek(c, t, &w)) == 1 && w.start_ns < p->run_ns) {
                rc = add(p, cap, w.start_ns, w.end_ns, why, whylen, st->name);
                t = w.end_ns;
            }
            if (rc == 0 && c->err) {
                snprintf(why, whylen, "[stall %s]: %s changed after the scenario was read", st->name, st->file->path);
                rc = -ESTALE;
            }
            free(c);
            return rc;
        }
    }
    if (stall_kind_has(st->kind, STALL_KIND_WORK))
        return 0; /* work, not windows: target_plan_next_work */
    if (stall_kind_has(st->kind, STALL_KIND_DRAWN)) {
        snprintf(why, whylen, "[stall %s]: a random stall's windows are drawn during the engine's run; the target "
                 "plays periodic, windows, file and gc_log stalls", st->name);
        return -EINVAL;
    }
    return 0;
}

int target_plan_new(target_plan **out, const scenario *s, int64_t run_ns, char *why, size_t whylen)
{
    *out = NULL;
    if (run_ns <= 0) {
        snprintf(why, whylen, "the run's length must be positive");
        return -EINVAL;
    }
    target_plan *p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    p->run_ns = run_ns;
    p->s = s;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (stall_kind_has(st->kind, STALL_KIND_STOPS) && st->preemption != STALL_PREEMPT_RESUME) {
            snprintf(why, whylen, "[stall %s]: preemption = %s: the target plays resume only (a request in service "
                     "pauses and continues at the window's end)", st->name, stall_preemption_name(st->preemption));
            rc = -EINVAL;
            break;
        }
        rc = add_stall(p, &cap, st, why, whylen);
    }
    if (rc == 0) {
        /* one stop: sort, then merge windows that overlap or touch */
        if (p->n)
            qsort(p->w, p->n, sizeof *p->w, cmp_window);
        size_t m = 0;
        for (size_t i = 0; i < p->n; i++) {
            if (m > 0 && p->w[i].start_ns <= p->w[m - 1].end_ns) {
                if (p->w[i].end_ns > p->w[m - 1].end_ns)
                    p->w[m - 1].end_ns = p->w[i].end_ns;
            } else {
                p->w[m++] = p->w[i];
            }
        }
        p->n = m;
        rc = rng_new(&p->rng, s->generator, s->seed, RNG_SERVICE);
        if (rc != 0)
            snprintf(why, whylen, "the generator %s cannot be made", s->generator);
    }
    if (rc != 0) {
        target_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

void target_plan_free(target_plan *p)
{
    if (!p)
        return;
    rng_free(p->rng);
    free(p->w);
    free(p);
}

int64_t target_plan_next_work(target_plan *p)
{
    uint64_t k = p->drawn++;
    int64_t work = dist_draw_ns(&p->s->service, p->rng);
    for (size_t i = 0; i < p->s->n_stalls; i++) {
        const stall_spec *st = &p->s->stalls[i];
        if (!stall_kind_has(st->kind, STALL_KIND_WORK))
            continue;
        for (size_t j = 0; j < st->n_ranges; j++)
            if (st->ranges[j].first <= k && k <= st->ranges[j].last && work <= INT64_MAX - st->extra_ns)
                work += st->extra_ns;
    }
    return work;
}

int64_t target_plan_resume(int64_t finish_ns, int64_t real_start_ns, int64_t real_end_ns)
{
    if (finish_ns <= real_start_ns)
        return finish_ns;
    int64_t len = real_end_ns - real_start_ns;
    return finish_ns > INT64_MAX - len ? INT64_MAX : finish_ns + len;
}
