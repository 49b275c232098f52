/* combo.c - the combination test's reference, engine runner, generator and
 * shrinker (combo.h says what each is and what the reference covers). */
#define _POSIX_C_SOURCE 200809L
#include "combo.h"

#include "hist.h"
#include "run.h"
#include "scenario.h"
#include "tester.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

void combo_out_free(combo_out *o)
{
    free(o->rq);
    memset(o, 0, sizeof *o);
}

static int out_push(combo_out *o, combo_req r)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        combo_req *p = realloc(o->rq, cap * sizeof *p);
        if (!p)
            return -1;
        o->rq = p;
        o->cap = cap;
    }
    o->rq[o->n++] = r;
    return 0;
}

static const char *const late_word[] = {"next_slot", "from_now", "catch_up", "ticker"};
static const char *const preempt_word[] = {"", "resume", "restart", "resample", "none", "overtime"};

/* ------------------------------------------------------------------ */
/* The INI text                                                         */

static void put(char **p, size_t *left, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*p, *left, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < *left) {
        *p += n;
        *left -= (size_t)n;
    }
}

void combo_ini(const combo *c, char *buf, size_t len)
{
    char *p = buf;
    size_t left = len;
    buf[0] = '\0';
    put(&p, &left, "[scenario]\nduration = %dns\n", c->duration);
    if (c->drop)
        put(&p, &left, "in_flight_at_end = drop\n");
    put(&p, &left, "[service]\ndistribution = constant\ntime = %dns\n", c->service);
    if (c->workers > 1)
        put(&p, &left, "workers = %d\n", c->workers);
    if (c->preempt != COMBO_NO_STALL) {
        put(&p, &left, "[stall s]\n");
        if (c->periodic)
            put(&p, &left, "kind = periodic\nlength = %dns\nperiod = %dns\nfirst = %dns\n", c->plen, c->pper,
                c->pfirst);
        else if (c->w[2] > 0)
            put(&p, &left, "kind = windows\nwindows = %dns..%dns, %dns..%dns\n", c->w[0], c->w[1], c->w[2], c->w[3]);
        else
            put(&p, &left, "kind = windows\nwindows = %dns..%dns\n", c->w[0], c->w[1]);
        put(&p, &left, "preemption = %s\n", preempt_word[c->preempt]);
    }
    static const char *const kinds[] = {"closed", "paced", "open"};
    put(&p, &left, "[tester t]\nkind = %s\n", kinds[c->kind]);
    if (c->kind != COMBO_OPEN && c->users > 1)
        put(&p, &left, "users = %d\n", c->users);
    if (c->kind == COMBO_OPEN && c->users > 1)
        put(&p, &left, "users = %d\n", c->users); /* refused: open has no users */
    if (c->kind != COMBO_CLOSED) {
        if (c->rate_per_us > 0)
            put(&p, &left, "rate = %d/us\n", c->rate_per_us);
        else
            put(&p, &left, "interval = %dns\n", c->interval_ns);
    }
    if (c->kind == COMBO_PACED)
        put(&p, &left, "late = %s\n", late_word[c->late]);
    if (c->shared)
        put(&p, &left, "schedule = shared\n");
    if (c->latency_from)
        put(&p, &left, "latency_from = %s\n", c->latency_from == 2 ? "intended" : "actual");
    if (c->stagger >= 0)
        put(&p, &left, "stagger = %dns\n", c->stagger);
    if (c->threads)
        put(&p, &left, "threads = %d\n", c->threads);
    if (c->connections)
        put(&p, &left, "connections = %d\n", c->connections);
    if (c->quota)
        put(&p, &left, "quota = %d\nquota_interval = %dns\n", c->quota, c->quota_interval);
    if (c->pipeline)
        put(&p, &left, "pipeline = %d\n", c->pipeline);
    if (c->batch)
        put(&p, &left, "batch = %d\n", c->batch);
    if (c->factor)
        put(&p, &left, "catch_up_factor = %d\n", c->factor);
    if (c->grain)
        put(&p, &left, "sleep_granularity = %dns\n", c->grain);
    if (c->think)
        put(&p, &left, "think_distribution = constant\nthink_time = %dns\n", c->think);
    if (c->ramp)
        put(&p, &left, "ramp_up = %dns\n", c->ramp);
    if (c->warmup >= 0)
        put(&p, &left, "warmup = %dns\n", c->warmup);
    if (c->timeout)
        put(&p, &left, "timeout = %dns\n", c->timeout);
    if (c->client)
        put(&p, &left, "client_time = %dns\n", c->client);
    if (c->requests)
        put(&p, &left, "requests = %d\n", c->requests);
    if (c->first)
        put(&p, &left, "first_send = interval\n");
}

/* ------------------------------------------------------------------ */
/* The reference                                                        */

/* D = num / den ns, exactly. */
typedef struct frac {
    uint64_t num, den;
} frac;

/* anchor + floor(i num / den) */
static int64_t at(frac d, int64_t anchor, uint64_t i)
{
    return anchor + (int64_t)((u128)i * d.num / d.den);
}

/* The server as docs/model.md states it: c workers behind one FIFO queue;
 * a request starts at max(arrival, the earliest free worker), past any
 * window (or the stop a `none` window holds), and its work is laid over
 * the gaps between windows as the stall's preemption says. */
typedef struct rsrv {
    int64_t free_at[3];
    int c;
    int64_t s;
    int preempt;
    int64_t (*win)[2]; /* sorted, disjoint */
    size_t n_win;
    /* preemption none: the stops that wait for the requests in service at
     * a window's start w: no request starts in [w, the last of their ends
     * + the longest window starting before that end) */
    struct {
        int64_t from, last_end, until;
    } hold[64];
    int n_hold;
    int64_t list_end; /* the list holds every window starting before this */
    int off_list;     /* a reply past list_end: outside the reference */
} rsrv;

static int64_t rsrv_submit(rsrv *v, int64_t arrival)
{
    int k = 0;
    for (int i = 1; i < v->c; i++)
        if (v->free_at[i] < v->free_at[k])
            k = i;
    int64_t t = arrival > v->free_at[k] ? arrival : v->free_at[k];
    int64_t work = v->s;
    int started = 0, restarts = 0;
    size_t j = 0;
    for (;;) {
        for (int moved = !started; moved;) {
            moved = 0;
            for (int h = 0; h < v->n_hold; h++)
                if (t >= v->hold[h].from && t < v->hold[h].until) {
                    t = v->hold[h].until;
                    moved = 1;
                }
        }
        while (j < v->n_win && v->win[j][1] <= t)
            j++;
        if (j == v->n_win)
            break;
        int64_t ws = v->win[j][0], we = v->win[j][1];
        if (ws <= t) { /* inside a window: wait for its end */
            t = we;
            continue;
        }
        started = 1;
        if (work <= ws - t)
            break;
        if (v->preempt == COMBO_NONE) { /* runs to its end; the stop waits for it and every other in service */
            int64_t f = t + work;
            int h = 0;
            while (h < v->n_hold && v->hold[h].from != ws)
                h++;
            if (h == v->n_hold) {
                if (v->n_hold == 64) {
                    v->off_list = 1;
                    return f;
                }
                v->n_hold++;
                v->hold[h].from = ws;
                v->hold[h].last_end = f;
            }
            if (f > v->hold[h].last_end)
                v->hold[h].last_end = f;
            int64_t len = 0;
            for (size_t i = j; i < v->n_win && v->win[i][0] < v->hold[h].last_end; i++)
                if (v->win[i][1] - v->win[i][0] > len)
                    len = v->win[i][1] - v->win[i][0];
            v->hold[h].until = v->hold[h].last_end + len;
            if (v->hold[h].until > v->list_end)
                v->off_list = 1;
            v->free_at[k] = f;
            return f;
        }
        if (v->preempt == COMBO_OVERTIME) { /* runs to its end; the window keeps its own */
            if (t + work > v->list_end)
                v->off_list = 1;
            v->free_at[k] = t + work;
            return t + work;
        }
        if (v->preempt == COMBO_RESUME) {
            work -= ws - t;
        } else { /* restart, resample (a constant draws s again) */
            work = v->s;
            if (++restarts > 10000) {
                v->off_list = 1;
                return INT64_MAX / 4;
            }
        }
        t = we;
    }
    if (t + work > v->list_end)
        v->off_list = 1;
    v->free_at[k] = t + work;
    return t + work;
}

/* One user of the reference's testers. */
typedef struct ruser {
    int64_t due;      /* its next event: a send, or (shared) its booking */
    int64_t intended; /* the send's intended time */
    int book;         /* shared: the event at due is its booking */
    /* paced: its slots are anchor + floor((b + m U) D); m is the slot of
     * its last send (the one due next, before it is sent) */
    int64_t anchor;
    uint64_t b, m;
    int64_t cu_anchor; /* catch_up_factor: the last send made on schedule */
    uint64_t cu_j;     /* requests since it, its own included */
    int64_t p;         /* shared: its own previous send (the delay's end) */
} ruser;

/* A paced user's slot m. */
static int64_t slot(const ruser *u, frac d, uint64_t users, uint64_t m)
{
    return at(d, u->anchor, u->b + m * users);
}

/* wrk2's clock and sleep (docs/scenario-format.md, sleep_granularity):
 * times read on a clock of G / 1000 (at least 1 ns), truncated; a wait w =
 * due - now on that clock wakes at now + (floor(w / G) + 1) G. */
static int64_t tick_of(int64_t g)
{
    return g >= 1000 ? g / 1000 : 1;
}
static int64_t on_clock(int64_t t, int64_t g)
{
    return t / tick_of(g) * tick_of(g);
}
static int64_t sleep_to(int64_t now, int64_t due, int64_t g)
{
    return now + ((on_clock(due, g) - on_clock(now, g)) / g + 1) * g;
}

/* The first interval k' >= floor(t / I) with room on a quota's counts:
 * the send at t or at k' I; counted. */
static int64_t quota_book(uint32_t *count, size_t n_count, int64_t t, int64_t every, int quota)
{
    size_t k = (size_t)(t / every), k1 = k;
    while (k1 < n_count && count[k1] >= (uint32_t)quota)
        k1++;
    if (k1 >= n_count)
        return INT64_MAX / 4; /* past the end: never sent */
    count[k1]++;
    return k1 == k ? t : (int64_t)k1 * every;
}

int combo_reference(const combo *c, combo_out *o)
{
    memset(o, 0, sizeof *o);
    const int64_t end = c->duration;
    frac d = {0, 1};
    if (c->kind != COMBO_CLOSED) {
        d = c->rate_per_us > 0 ? (frac){1000, (uint64_t)c->rate_per_us} : (frac){(uint64_t)c->interval_ns, 1};
    }
    /* the server and its windows (a periodic stall listed far past the run) */
    rsrv v = {.c = c->workers, .s = c->service, .preempt = c->preempt, .n_hold = 0, .list_end = INT64_MAX};
    int64_t (*win)[2] = NULL;
    if (c->preempt != COMBO_NO_STALL) {
        size_t n = 0;
        if (c->periodic) {
            v.list_end = (int64_t)c->duration * 40 + 4000;
            n = (size_t)((v.list_end - c->pfirst) / c->pper + 1);
        } else {
            n = c->w[2] > 0 ? 2 : 1;
        }
        win = malloc(n * sizeof *win);
        if (!win)
            return -1;
        for (size_t i = 0; i < n; i++) {
            if (c->periodic) {
                win[i][0] = c->pfirst + (int64_t)i * c->pper;
                win[i][1] = win[i][0] + c->plen;
            } else {
                win[i][0] = c->w[2 * i];
                win[i][1] = c->w[2 * i + 1];
            }
        }
        v.win = win;
        v.n_win = n;
    }
    const int quota = c->kind == COMBO_CLOSED && c->quota > 0;
    const uint64_t pipe = quota && c->pipeline > 1 ? (uint64_t)c->pipeline : 1;
    const uint64_t users = c->kind == COMBO_OPEN ? 1 : (uint64_t)c->users;
    const uint64_t n = users * pipe; /* pipelined: each user is P places */
    ruser *u = calloc(n, sizeof *u);
    size_t n_count = quota ? (size_t)(end / c->quota_interval + 2) : 0;
    uint32_t *count = quota ? calloc(users * n_count, sizeof *count) : NULL; /* per user (connection) */
    int64_t *last_ready = calloc(users, sizeof *last_ready);
    int64_t conn[8] = {0};
    const int n_conn = c->connections && (uint64_t)c->connections < users && c->kind != COMBO_OPEN ? c->connections : 0;
    if (!u || (quota && !count) || !last_ready) {
        free(u), free(count), free(last_ready), free(win);
        return -1;
    }
    const int paced = c->kind == COMBO_PACED && !c->shared;
    const int ticker = paced && c->late == COMBO_TICKER;
    const int from_intended = c->kind == COMBO_OPEN || (c->kind == COMBO_PACED && c->latency_from == 2);
    const frac ud = {d.num * users, d.den}; /* each user's step U D */
    const uint64_t batch = c->batch > 1 ? (uint64_t)c->batch : 1;
    /* first_send = interval (docs/scenario-format.md): every slot one grid
     * slot later; sends end at t_{m+1}, m the grid's count before the end */
    int64_t send_end = end;
    if (c->first) {
        uint64_t m = 0;
        while (at(d, 0, m) < end)
            m++;
        send_end = at(d, 0, m + 1);
    }
    /* the start */
    int64_t sh_anchor = 0; /* shared: the schedule's last slot is sh_anchor + floor(sh_j D) */
    uint64_t sh_j = users - 1;
    uint64_t open_i = c->first ? 1 : 0;
    for (uint64_t i = 0; i < n; i++) {
        ruser *x = &u[i];
        /* ramp_up (docs/scenario-format.md): user i of U first sends at
         * floor(i R / U); a paced user's own schedule every U D from there */
        const int64_t ramp_at = c->ramp ? (int64_t)((uint64_t)i * (uint64_t)c->ramp / users) : 0;
        if (c->kind == COMBO_CLOSED) {
            x->due = quota ? quota_book(count + (i / pipe) * n_count, n_count, 0, c->quota_interval, c->quota) : ramp_at;
        } else if (c->kind == COMBO_OPEN || c->shared) {
            /* shared: every user at once, the slots 0, D, ... in user order;
             * open with first_send: its first at t_1 */
            x->due = c->kind == COMBO_OPEN && c->first ? at(d, 0, 1) : 0;
        } else {
            if (c->ramp) {
                x->anchor = ramp_at;
                x->b = 0;
            } else if (c->stagger >= 0 && users > 1) { /* its own schedule from (u mod (U / T)) S */
                uint64_t per = users / (uint64_t)(c->threads > 1 ? c->threads : 1);
                x->anchor = (int64_t)(i % per) * c->stagger;
                x->b = 0;
            } else { /* the grid dealt round-robin (first_send: one slot on) */
                x->anchor = 0;
                x->b = i + (c->first ? 1 : 0);
            }
            x->m = ticker ? 1 : 0; /* Go's ticker: the first tick one interval in */
            x->due = slot(x, d, users, x->m);
            x->cu_anchor = x->due;
            x->cu_j = 1;
        }
        x->intended = x->due;
    }
    /* planned */
    uint64_t planned = 0;
    if (c->kind == COMBO_OPEN) {
        uint64_t grid = 0;
        while (at(d, 0, grid) < end)
            grid++;
        planned = (grid + batch - 1) / batch * batch; /* whole batches */
    } else if (paced) {
        for (uint64_t i = 0; i < n; i++)
            for (uint64_t m = u[i].m; slot(&u[i], d, users, m) < send_end; m++)
                planned++;
    }
    /* the run */
    int rc = 0;
    for (;;) {
        uint64_t w = 0;
        for (uint64_t i = 1; i < n; i++)
            if (u[i].due < u[w].due)
                w = i; /* ties: the lower id */
        ruser *x = &u[w];
        if (x->due >= send_end)
            break;
        if (x->book) { /* shared: the user is ready and takes its slot */
            int64_t r = x->due, nslot = at(d, sh_anchor, sh_j + 1);
            if (nslot < r) {
                sh_anchor = nslot = r;
                sh_j = 0;
            } else {
                sh_j++;
            }
            int64_t target = x->p + (nslot - r);
            x->due = x->intended = x->p = target > r ? target : r;
            x->book = 0;
            continue;
        }
        if (c->requests && o->sent >= (uint64_t)c->requests)
            break;
        combo_req q = {.user = w, .intended = x->intended, .sent = x->due};
        int k = 0;
        if (n_conn) {
            for (int i = 1; i < n_conn; i++)
                if (conn[i] < conn[k])
                    k = i;
            if (conn[k] > q.sent) {
                if (conn[k] >= send_end)
                    break; /* no connection frees before the end */
                o->blocked++;
                o->blocked_ns += conn[k] - q.sent;
                q.sent = conn[k];
            }
        }
        q.reply = rsrv_submit(&v, q.sent + c->client); /* reaches the server client_time after its send */
        if (n_conn)
            conn[k] = q.reply;
        o->sent++;
        q.latency = q.reply - (from_intended ? q.intended : q.sent);
        q.recorded = 1;
        int warm = q.intended < (c->warmup > 0 ? c->warmup : 0);
        if (q.reply > end) {
            o->in_flight++;
            if (c->drop && !warm)
                q.recorded = 0;
        }
        if (q.recorded && warm) {
            o->warmup_skipped++;
            q.recorded = 0;
        } else if (q.recorded && c->timeout && q.latency > c->timeout) {
            o->timeouts++;
            q.recorded = 0;
        }
        o->recorded += (uint64_t)q.recorded;
        if (out_push(o, q)) {
            rc = -1;
            break;
        }
        /* its next: ready at the reply plus the think time */
        const int64_t r = q.reply + (c->kind != COMBO_OPEN ? c->think : 0);
        if (c->kind == COMBO_CLOSED) {
            if (!quota) {
                x->due = r;
            } else {
                uint64_t cn = w / pipe;
                int64_t ready = r > last_ready[cn] ? r : last_ready[cn]; /* replies in send order */
                last_ready[cn] = ready;
                x->due = quota_book(count + cn * n_count, n_count, ready, c->quota_interval, c->quota);
            }
            x->intended = x->due;
        } else if (c->kind == COMBO_OPEN) {
            open_i++;
            x->due = x->intended = at(d, 0, open_i / batch * batch);
        } else if (c->shared) {
            x->due = x->intended = r;
            x->book = 1;
        } else {
            int64_t t1 = slot(x, d, users, x->m + 1);
            if (ticker) {
                x->intended = t1;
                if (r <= t1) {
                    x->due = t1;
                    x->m++;
                } else {
                    x->due = r;
                    uint64_t m1 = x->m + 1;
                    while (slot(x, d, users, m1) <= r)
                        m1++;
                    x->m = m1 - 1; /* the next: its first slot after the send */
                }
            } else if (c->factor) { /* catch_up with wrk2's limit */
                x->intended = t1;
                x->m++;
                const int64_t g = c->grain;
                if (g ? on_clock(t1, g) > on_clock(r, g) : t1 > r) { /* on pace: waits; anchors where it wakes */
                    x->due = g ? sleep_to(r, t1, g) : t1;
                    x->cu_anchor = x->due;
                    x->cu_j = 1;
                } else {
                    const frac gap = {ud.num, ud.den * (uint64_t)c->factor};
                    int64_t allowed = g ? on_clock(x->cu_anchor, g) + on_clock(at(gap, 0, x->cu_j), g)
                                        : at(gap, x->cu_anchor, x->cu_j);
                    x->due = allowed > (g ? on_clock(r, g) : r) ? (g ? sleep_to(r, allowed, g) : allowed) : r;
                    x->cu_j++;
                }
            } else if (r <= t1) {
                x->due = x->intended = t1;
                x->m++;
            } else if (c->late == COMBO_NEXT_SLOT) {
                uint64_t m1 = x->m + 1;
                while (slot(x, d, users, m1) < r)
                    m1++;
                x->m = m1;
                x->due = x->intended = slot(x, d, users, m1);
            } else if (c->late == COMBO_CATCH_UP) {
                x->due = r;
                x->intended = t1;
                x->m++;
            } else { /* from_now: at once, for the slot it was due at; the schedule restarts */
                x->due = r;
                x->intended = t1;
                x->anchor = r;
                x->b = 0;
                x->m = 0;
            }
        }
    }
    if (c->kind == COMBO_CLOSED || c->shared)
        planned = o->sent;
    if (c->requests && planned > (uint64_t)c->requests)
        planned = (uint64_t)c->requests;
    o->planned = planned;
    free(u);
    free(count);
    free(last_ready);
    free(win);
    if (rc || v.off_list) {
        combo_out_free(o);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The engine                                                           */

static void observe(void *ctx, const tester_request *rq, tester_gate *gate)
{
    (void)gate;
    combo_out *o = ctx;
    combo_req q = {rq->user, rq->intended_ns, rq->sent_ns, rq->reply_ns, rq->latency_ns, rq->recorded};
    out_push(o, q);
}

int combo_engine(const combo *c, combo_out *o, char *why, size_t whylen)
{
    memset(o, 0, sizeof *o);
    char text[4096];
    combo_ini(c, text, sizeof text);
    FILE *f = fmemopen(text, strlen(text), "r");
    if (!f) {
        snprintf(why, whylen, "fmemopen failed");
        return -1;
    }
    scenario *s = NULL;
    scenario_error e = scenario_load_stream(&s, f, "combo.ini", NULL, 0, why, whylen);
    fclose(f);
    if (e != SCENARIO_OK)
        return 1;
    server_config srv = run_server_config(s);
    tester_run_config cfg = run_tester_config(s, &srv);
    tester_result r;
    int rc = tester_run(&s->testers[0], &cfg, observe, o, &r);
    if (rc) {
        snprintf(why, whylen, "tester_run failed: %d", rc);
        scenario_free(s);
        return -1;
    }
    o->planned = r.planned;
    o->sent = r.sent;
    o->in_flight = r.in_flight_at_end;
    o->recorded = hist_count(r.hist);
    o->warmup_skipped = r.warmup_skipped;
    o->timeouts = r.timeouts;
    o->blocked = r.blocked;
    o->blocked_ns = r.blocked_ns;
    tester_result_free(&r);
    scenario_free(s);
    return 0;
}

int combo_compare(const combo_out *a, const combo_out *b, char *why, size_t whylen)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++) {
        const combo_req *x = &a->rq[i], *y = &b->rq[i];
        if (x->user != y->user || x->intended != y->intended || x->sent != y->sent || x->reply != y->reply ||
            x->latency != y->latency || x->recorded != y->recorded) {
            snprintf(why, whylen,
                     "request %zu: reference user %llu intended %lld sent %lld reply %lld latency %lld%s; "
                     "engine user %llu intended %lld sent %lld reply %lld latency %lld%s",
                     i, (unsigned long long)x->user, (long long)x->intended, (long long)x->sent,
                     (long long)x->reply, (long long)x->latency, x->recorded ? "" : " (not recorded)",
                     (unsigned long long)y->user, (long long)y->intended, (long long)y->sent, (long long)y->reply,
                     (long long)y->latency, y->recorded ? "" : " (not recorded)");
            return 1;
        }
    }
    if (a->n != b->n) {
        snprintf(why, whylen, "requests: reference %zu, engine %zu", a->n, b->n);
        return 1;
    }
#define SAME(f)                                                                                           \
    if (a->f != b->f) {                                                                                   \
        snprintf(why, whylen, #f ": reference %llu, engine %llu", (unsigned long long)a->f,                \
                 (unsigned long long)b->f);                                                               \
        return 1;                                                                                         \
    }
    SAME(planned)
    SAME(sent)
    SAME(in_flight)
    SAME(recorded)
    SAME(warmup_skipped)
    SAME(timeouts)
    SAME(blocked)
    SAME(blocked_ns)
#undef SAME
    return 0;
}

int combo_check(const combo *c, char *why, size_t whylen)
{
    combo_out e, r;
    int rc = combo_engine(c, &e, why, whylen);
    if (rc == 1) {
        combo_out_free(&e);
        return 2;
    }
    if (rc < 0) {
        combo_out_free(&e);
        return 1;
    }
    if (combo_reference(c, &r) < 0) {
        combo_out_free(&e);
        return 2;
    }
    rc = combo_compare(&r, &e, why, whylen);
    combo_out_free(&e);
    combo_out_free(&r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The generator                                                        */

/* The keys whose values are paired, each with its values (as set into a
 * combo by dim_set). */
enum {
    D_KIND, D_USERS, D_THREADS, D_STAGGER, D_CONNECTIONS, D_QUOTA, D_PIPELINE, D_BATCH, D_SCHEDULE, D_LATE,
    D_LATENCY_FROM, D_FACTOR, D_GRAIN, D_WARMUP, D_TIMEOUT, D_REQUESTS, D_WORKERS, D_PREEMPTION, D_DROP, D_THINK,
    D_RAMP, D_CLIENT, D_FIRST, N_DIMS
};
static const char *const dim_name[N_DIMS] = {
    "kind", "users", "threads", "stagger", "connections", "quota", "pipeline", "batch", "schedule", "late",
    "latency_from", "catch_up_factor", "sleep_granularity", "warmup", "timeout", "requests", "workers",
    "preemption", "in_flight_at_end", "think_time", "ramp_up", "client_time", "first_send"};
static const int dim_n[N_DIMS] = {3, 5, 3, 4, 4, 3, 3, 3, 2, 4, 3, 4, 4, 4, 3, 3, 3, 6, 2, 3, 3, 3, 2};

/* Value v of dimension i into c (0 is the key's absence, where it has one). */
static void dim_set(combo *c, int i, int v)
{
    static const int users[] = {1, 2, 3, 4, 6};
    switch (i) {
    case D_KIND: c->kind = v; break;
    case D_USERS: c->users = users[v]; break;
    case D_THREADS: c->threads = v ? v + 1 : 0; break;
    case D_STAGGER: c->stagger = (int[]){-1, 0, 3, 11}[v]; break;
    case D_CONNECTIONS: c->connections = v; break;
    case D_QUOTA: c->quota = v; break;
    case D_PIPELINE: c->pipeline = v ? v + 1 : 0; break;
    case D_BATCH: c->batch = v ? v + 1 : 0; break;
    case D_SCHEDULE: c->shared = v; break;
    case D_LATE: c->late = v; break;
    case D_LATENCY_FROM: c->latency_from = v; break;
    case D_FACTOR: c->factor = v; break;
    case D_GRAIN: c->grain = (int[]){0, 1, 4, 10}[v]; break;
    case D_WARMUP: c->warmup = (int[]){-1, 0, 15, 60}[v]; break;
    case D_TIMEOUT: c->timeout = (int[]){0, 12, 80}[v]; break;
    case D_REQUESTS: c->requests = (int[]){0, 3, 17}[v]; break;
    case D_WORKERS: c->workers = v + 1; break;
    case D_PREEMPTION: c->preempt = v; break;
    case D_DROP: c->drop = v; break;
    case D_THINK: c->think = (int[]){0, 3, 17}[v]; break;
    case D_RAMP: c->ramp = (int[]){0, 7, 25}[v]; break;
    case D_CLIENT: c->client = (int[]){0, 2, 9}[v]; break;
    case D_FIRST: c->first = v; break;
    }
}

/* The value index of dimension i in c. */
static int dim_get(const combo *c, int i)
{
    switch (i) {
    case D_KIND: return c->kind;
    case D_USERS: return c->users == 6 ? 4 : c->users - 1;
    case D_THREADS: return c->threads ? c->threads - 1 : 0;
    case D_STAGGER: return c->stagger < 0 ? 0 : c->stagger == 0 ? 1 : c->stagger == 3 ? 2 : 3;
    case D_CONNECTIONS: return c->connections;
    case D_QUOTA: return c->quota;
    case D_PIPELINE: return c->pipeline ? c->pipeline - 1 : 0;
    case D_BATCH: return c->batch ? c->batch - 1 : 0;
    case D_SCHEDULE: return c->shared;
    case D_LATE: return c->late;
    case D_LATENCY_FROM: return c->latency_from;
    case D_FACTOR: return c->factor;
    case D_GRAIN: return c->grain == 0 ? 0 : c->grain == 1 ? 1 : c->grain == 4 ? 2 : 3;
    case D_WARMUP: return c->warmup < 0 ? 0 : c->warmup == 0 ? 1 : c->warmup == 15 ? 2 : 3;
    case D_TIMEOUT: return c->timeout == 0 ? 0 : c->timeout == 12 ? 1 : 2;
    case D_REQUESTS: return c->requests == 0 ? 0 : c->requests == 3 ? 1 : 2;
    case D_WORKERS: return c->workers - 1;
    case D_PREEMPTION: return c->preempt;
    case D_DROP: return c->drop;
    case D_THINK: return c->think == 0 ? 0 : c->think == 3 ? 1 : 2;
    case D_RAMP: return c->ramp == 0 ? 0 : c->ramp == 7 ? 1 : 2;
    case D_CLIENT: return c->client == 0 ? 0 : c->client == 2 ? 1 : 2;
    case D_FIRST: return c->first;
    }
    return 0;
}

/* The kinds a dimension's value other than its first (absent) belongs to:
 * bits of 1 << kind. */
static int dim_kinds(int i)
{
    switch (i) {
    case D_USERS: case D_THINK: case D_RAMP: return 1 << COMBO_CLOSED | 1 << COMBO_PACED;
    case D_CONNECTIONS: return 1 << COMBO_CLOSED | 1 << COMBO_PACED;
    case D_QUOTA: case D_PIPELINE: return 1 << COMBO_CLOSED;
    case D_BATCH: return 1 << COMBO_OPEN;
    case D_FIRST: return 1 << COMBO_OPEN | 1 << COMBO_PACED;
    case D_THREADS: case D_STAGGER: case D_SCHEDULE: case D_LATE: case D_LATENCY_FROM: case D_FACTOR: case D_GRAIN:
        return 1 << COMBO_PACED;
    default: return 7;
    }
}

typedef struct pair {
    uint8_t i, a, j, b;
    uint8_t state; /* 0 open, 1 covered, 2 given up */
    uint8_t tries;
} pair;

struct combo_gen {
    uint64_t rng;
    pair *pairs;
    size_t n_pairs, next_pair;
    long aimed; /* the pair the last case aimed at, or -1 */
};

/* splitmix64: the generator's own stream (a seed gives the same cases on
 * every machine). */
static uint64_t rnd(combo_gen *g)
{
    uint64_t z = (g->rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int pick(combo_gen *g, int n)
{
    return (int)(rnd(g) % (uint64_t)n);
}

int combo_gen_new(combo_gen **out, uint64_t seed)
{
    combo_gen *g = calloc(1, sizeof *g);
    if (!g)
        return -1;
    g->rng = seed;
    size_t n = 0;
    for (int i = 0; i < N_DIMS; i++)
        for (int j = i + 1; j < N_DIMS; j++)
            n += (size_t)(dim_n[i] * dim_n[j]);
    g->pairs = calloc(n, sizeof *g->pairs);
    if (!g->pairs) {
        free(g);
        return -1;
    }
    for (int i = 0; i < N_DIMS; i++)
        for (int j = i + 1; j < N_DIMS; j++)
            for (int a = 0; a < dim_n[i]; a++)
                for (int b = 0; b < dim_n[j]; b++)
                    g->pairs[g->n_pairs++] = (pair){(uint8_t)i, (uint8_t)a, (uint8_t)j, (uint8_t)b, 0, 0};
    for (size_t k = g->n_pairs; k > 1; k--) { /* a seeded order */
        size_t r = (size_t)(rnd(g) % k);
        pair t = g->pairs[k - 1];
        g->pairs[k - 1] = g->pairs[r];
        g->pairs[r] = t;
    }
    g->aimed = -1;
    *out = g;
    return 0;
}

void combo_gen_free(combo_gen *g)
{
    if (!g)
        return;
    free(g->pairs);
    free(g);
}

/* The figures that are not paired: drawn. */
static void fill_figures(combo_gen *g, combo *c)
{
    c->duration = 20 + pick(g, 260);
    c->service = 1 + pick(g, 20);
    if (pick(g, 2)) {
        c->rate_per_us = 40 + pick(g, 360); /* D = 1000 / R ns: a fraction (143/us: 6.993 ns) */
        c->interval_ns = 0;
    } else {
        c->rate_per_us = 0;
        c->interval_ns = 2 + pick(g, 30);
    }
    c->quota_interval = 5 + pick(g, 40);
    c->periodic = pick(g, 2);
    c->pper = 4 + pick(g, 40);
    c->plen = 1 + pick(g, c->pper - 1);
    c->pfirst = pick(g, c->duration);
    if (c->preempt == COMBO_RESTART || c->preempt == COMBO_RESAMPLE) { /* a gap the work fits in */
        if (c->pper - c->plen < c->service)
            c->pper = c->plen + c->service + pick(g, 10);
    }
    c->w[0] = pick(g, c->duration);
    c->w[1] = c->w[0] + 1 + pick(g, 60);
    c->w[2] = c->w[3] = 0;
    if (pick(g, 2)) {
        c->w[2] = c->w[1] + 1 + pick(g, 40);
        c->w[3] = c->w[2] + 1 + pick(g, 40);
    }
}

/* Fill every dimension not fixed (fixed: a bit per dimension) with a
 * value that fits the kind and the keys already set, drawn in the order
 * the keys depend on each other (schedule, late, catch_up_factor,
 * sleep_granularity; stagger, threads; quota, pipeline), so that most
 * cases read; the pairs aimed at are kept whatever they make. The
 * primitives that cut a run short (requests) or leave requests out of the
 * record are drawn less often than the others. */
static void fill(combo_gen *g, combo *c, unsigned fixed)
{
#define FREE(d) (!(fixed & 1u << (d)))
    if (FREE(D_KIND)) {
        int k = -1;
        for (int i = 0; i < N_DIMS && k < 0; i++)
            if (!FREE(i) && dim_get(c, i) != 0 && dim_kinds(i) != 7) {
                int m = dim_kinds(i);
                k = m == 1 << COMBO_PACED ? COMBO_PACED : m == 1 << COMBO_OPEN ? COMBO_OPEN
                  : m == 1 << COMBO_CLOSED ? COMBO_CLOSED : pick(g, 2);
            }
        c->kind = k >= 0 ? k : (int[]){COMBO_CLOSED, COMBO_PACED, COMBO_PACED, COMBO_OPEN}[pick(g, 4)];
    }
    /* every free dimension its absence first, or a value for the kind */
    for (int i = 0; i < N_DIMS; i++) {
        if (!FREE(i) || i == D_KIND)
            continue;
        int v = 0;
        if (dim_kinds(i) & 1 << c->kind)
            v = pick(g, dim_n[i]);
        if ((i == D_REQUESTS || i == D_WARMUP || i == D_TIMEOUT || i == D_DROP || i == D_THINK) && pick(g, 3))
            v = 0; /* most runs run whole and record all */
        dim_set(c, i, v);
    }
    if (c->kind == COMBO_PACED) {
        if (FREE(D_SCHEDULE))
            c->shared = pick(g, 3) == 0 && (FREE(D_LATE) || c->late == COMBO_FROM_NOW) &&
                        (FREE(D_STAGGER) || c->stagger < 0) && (FREE(D_LATENCY_FROM) || c->latency_from != 2);
        if (c->shared) {
            if (FREE(D_LATE))
                c->late = COMBO_FROM_NOW;
            if (FREE(D_STAGGER))
                c->stagger = -1;
            if (FREE(D_LATENCY_FROM) && c->latency_from == 2)
                c->latency_from = 1;
        }
        if (FREE(D_LATE) && ((!FREE(D_FACTOR) && c->factor) || (!FREE(D_GRAIN) && c->grain)))
            c->late = COMBO_CATCH_UP;
        if (FREE(D_FACTOR))
            c->factor = c->late == COMBO_CATCH_UP && (pick(g, 2) || (!FREE(D_GRAIN) && c->grain)) ? 1 + pick(g, 3) : 0;
        if (FREE(D_GRAIN) && !c->factor)
            c->grain = 0;
        if (FREE(D_LATENCY_FROM) && c->latency_from == 2 && c->late == COMBO_NEXT_SLOT && !c->connections)
            c->latency_from = 1;
        if (FREE(D_STAGGER) && !FREE(D_THREADS) && c->threads)
            c->stagger = (int[]){0, 3, 11}[pick(g, 3)];
        if (FREE(D_USERS) && (c->stagger >= 0 || c->threads) && c->users == 1)
            c->users = 2 + pick(g, 3);
        if (c->threads && c->users % c->threads && FREE(D_USERS))
            c->users = 6;
        if (FREE(D_THREADS) && c->threads && (c->stagger < 0 || c->users % c->threads))
            c->threads = 0;
    }
    if (c->kind == COMBO_CLOSED) {
        if (FREE(D_QUOTA) && !FREE(D_PIPELINE) && c->pipeline && !c->quota)
            c->quota = 1 + pick(g, 2);
        if (FREE(D_CONNECTIONS) && !FREE(D_PIPELINE) && c->pipeline)
            c->connections = 0;
        if (FREE(D_PIPELINE) && c->pipeline && (!c->quota || c->connections))
            c->pipeline = 0;
    }
    /* ramp_up places the starts: not with quota, stagger, shared, ticker */
    if (c->ramp && (c->quota || c->stagger >= 0 || c->shared || (c->kind == COMBO_PACED && c->late == COMBO_TICKER))) {
        if (FREE(D_RAMP))
            c->ramp = 0;
        else {
            if (FREE(D_QUOTA))
                c->quota = 0, c->pipeline = FREE(D_PIPELINE) ? 0 : c->pipeline;
            if (FREE(D_STAGGER))
                c->stagger = -1;
            if (FREE(D_THREADS) && c->stagger < 0)
                c->threads = 0;
            if (FREE(D_SCHEDULE))
                c->shared = 0;
            if (FREE(D_LATE) && c->late == COMBO_TICKER)
                c->late = COMBO_FROM_NOW;
        }
    }
    /* first_send = interval shifts a plain grid: not with batch, stagger,
     * ramp_up, shared or ticker (each places the first sends itself) */
    if (c->first && (c->batch > 1 || c->stagger >= 0 || c->ramp || c->shared ||
                     (c->kind == COMBO_PACED && c->late == COMBO_TICKER))) {
        if (FREE(D_FIRST))
            c->first = 0;
        else {
            if (FREE(D_BATCH))
                c->batch = 0;
            if (FREE(D_STAGGER))
                c->stagger = -1;
            if (FREE(D_THREADS) && c->stagger < 0)
                c->threads = 0;
            if (FREE(D_RAMP))
                c->ramp = 0;
            if (FREE(D_SCHEDULE))
                c->shared = 0;
            if (FREE(D_LATE) && c->late == COMBO_TICKER)
                c->late = COMBO_FROM_NOW;
        }
    }
    if (FREE(D_USERS) && !FREE(D_CONNECTIONS) && c->connections && c->users <= c->connections)
        c->users = c->connections + 1 + pick(g, 2);
    if (FREE(D_CONNECTIONS) && c->connections >= c->users)
        c->connections = 0;
#undef FREE
    fill_figures(g, c);
}

void combo_gen_next(combo_gen *g, combo *c)
{
    memset(c, 0, sizeof *c);
    c->stagger = c->warmup = -1;
    c->users = c->workers = 1;
    while (g->next_pair < g->n_pairs && g->pairs[g->next_pair].state != 0)
        g->next_pair++;
    if (g->next_pair < g->n_pairs) {
        pair *p = &g->pairs[g->next_pair];
        dim_set(c, p->i, p->a);
        dim_set(c, p->j, p->b);
        g->aimed = (long)g->next_pair;
        fill(g, c, 1u << p->i | 1u << p->j);
    } else {
        g->aimed = -1;
        fill(g, c, 0);
    }
}

void combo_gen_result(combo_gen *g, const combo *c, int was_case)
{
    if (was_case) {
        for (size_t k = g->next_pair; k < g->n_pairs; k++) {
            pair *p = &g->pairs[k];
            if (p->state == 0 && dim_get(c, p->i) == p->a && dim_get(c, p->j) == p->b)
                p->state = 1;
        }
    } else if (g->aimed >= 0) {
        pair *p = &g->pairs[g->aimed];
        if (++p->tries >= 12)
            p->state = 2;
    }
}

void combo_gen_pairs(const combo_gen *g, size_t *covered, size_t *given_up, size_t *total)
{
    *covered = *given_up = 0;
    for (size_t k = 0; k < g->n_pairs; k++) {
        *covered += g->pairs[k].state == 1;
        *given_up += g->pairs[k].state == 2;
    }
    *total = g->n_pairs;
}

void combo_gen_print_given_up(const combo_gen *g, FILE *f)
{
    for (size_t k = 0; k < g->n_pairs; k++)
        if (g->pairs[k].state == 2)
            fprintf(f, "  %s[%d] x %s[%d]\n", dim_name[g->pairs[k].i], g->pairs[k].a, dim_name[g->pairs[k].j],
                    g->pairs[k].b);
}

/* ------------------------------------------------------------------ */
/* The shrinker                                                         */

/* Whether c still fails (differs between the reference and the engine). */
static int fails(const combo *c)
{
    char why[1024];
    return combo_check(c, why, sizeof why) == 1;
}

void combo_shrink(combo *c)
{
    for (int changed = 1; changed;) {
        changed = 0;
        /* each dimension to its absence, or a smaller value */
        for (int i = 0; i < N_DIMS; i++) {
            for (int v = 0; v < dim_get(c, i); v++) {
                combo t = *c;
                dim_set(&t, i, v);
                if (fails(&t)) {
                    *c = t;
                    changed = 1;
                    break;
                }
            }
        }
        /* the figures smaller */
        int *fig[] = {&c->duration, &c->service, &c->interval_ns, &c->rate_per_us, &c->quota_interval};
        for (size_t k = 0; k < sizeof fig / sizeof *fig; k++) {
            int lo = k == 3 ? 40 : k == 2 ? 2 : 1;
            while (*fig[k] > lo) {
                combo t = *c;
                int *f = (int *)((char *)&t + ((char *)fig[k] - (char *)c));
                int step = (*f - lo) / 2 > 0 ? (*f - lo) / 2 : 1;
                *f -= step;
                if (fails(&t)) {
                    *c = t;
                    changed = 1;
                } else if (step > 1) {
                    *f = *fig[k] - 1; /* one less */
                    if (fails(&t)) {
                        *c = t;
                        changed = 1;
                        continue;
                    }
                    break;
                } else {
                    break;
                }
            }
        }
        if (c->preempt != COMBO_NO_STALL && c->w[2] > 0) { /* one window */
            combo t = *c;
            t.w[2] = t.w[3] = 0;
            if (fails(&t)) {
                *c = t;
                changed = 1;
            }
        }
    }
}
