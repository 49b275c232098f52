/* Tests of server and stall: FIFO order and stop-the-world arithmetic. */
#include "server.h"
#include "stall.h"

#include <check.h>
#include <errno.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rng.h"
#include "units.h"


Suite *test_suite(void);

#define MS 1000000LL

static server *make_pool(stall_spec *st, size_t n, int64_t service_ns, uint64_t workers)
{
    server_config c = {.service = {.kind = DIST_CONSTANT, .a_ns = service_ns},
                       .stalls = st, .n_stalls = n, .generator = "mt19937", .seed = 1,
                       .workers = workers};
    server *s;
    ck_assert_int_eq(server_new(&s, &c), 0);
    return s;
}

static server *make(stall_spec *st, size_t n, int64_t service_ns)
{
    return make_pool(st, n, service_ns, 1);
}

/* A request in service across a window's start pauses: window [10, 20) ms,
 * 7 ms of work from 5 ms does 5 ms before 10, waits, and the last 2 ms end
 * at 22 ms. */
START_TEST(request_in_service_across_window_start)
{
    stall_window w = {10 * MS, 20 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server *s = make(&st, 1, 7 * MS);
    ck_assert_int_eq(server_submit(s, 5 * MS), 22 * MS);
    server_free(s);
}
END_TEST

/* server_submit_spans gives each request's start and extra work with its
 * reply: window [10, 20) ms, 5 ms of work. Arrival 5: starts at 5, ends
 * 10 (the fast path); arrival 12: waits for the window, starts at 20,
 * ends 25 (the walk); arrival 13: behind it, starts at 25, ends 30. No
 * request stall: extra 0 each time; the same as server_last_start_ns.
 * Then with request stalls, the extra work each request reports. */
START_TEST(submit_spans_gives_start_and_extra)
{
    stall_window w = {10 * MS, 20 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server *s = make(&st, 1, 5 * MS);
    static const int64_t arrive[] = {5 * MS, 12 * MS, 13 * MS}, start[] = {5 * MS, 20 * MS, 25 * MS},
                         reply[] = {10 * MS, 25 * MS, 30 * MS};
    for (size_t i = 0; i < 3; i++) {
        int64_t st_ns = -1, extra_ns = -1;
        ck_assert_int_eq(server_submit_spans(s, arrive[i], &st_ns, &extra_ns), reply[i]);
        ck_assert_int_eq(st_ns, start[i]);
        ck_assert_int_eq(st_ns, server_last_start_ns(s));
        ck_assert_int_eq(extra_ns, 0);
    }
    server_free(s);
    /* request stalls (request_stalls below: requests 2, 3 and 5 get 10 ms
     * more, 1 ms of work, all sent at 0): starts 0, 1, 2, 13, 24, 25 ms,
     * extra 0, 0, 10, 10, 0, 10 ms */
    stall_range r[2] = {{2, 3}, {5, 5}};
    stall_spec rs = {.kind = STALL_REQUESTS, .ranges = r, .n_ranges = 2, .extra_ns = 10 * MS};
    s = make(&rs, 1, 1 * MS);
    static const int64_t want[] = {1, 2, 13, 24, 25, 36}, from[] = {0, 1, 2, 13, 24, 25},
                         extra[] = {0, 0, 10, 10, 0, 10};
    for (size_t k = 0; k < 6; k++) {
        int64_t st_ns = -1, extra_ns = -1;
        ck_assert_int_eq(server_submit_spans(s, 0, &st_ns, &extra_ns), want[k] * MS);
        ck_assert_int_eq(st_ns, from[k] * MS);
        ck_assert_int_eq(extra_ns, extra[k] * MS);
    }
    server_free(s);
}
END_TEST

/* Arrivals inside a window queue until its end; a request whose work ends
 * exactly at a window's start is done at that instant. */
START_TEST(arrival_in_window_waits_for_its_end)
{
    stall_window w = {10 * MS, 20 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server *s = make(&st, 1, 5 * MS);
    ck_assert_int_eq(server_submit(s, 5 * MS), 10 * MS);   /* ends at the start */
    ck_assert_int_eq(server_submit(s, 12 * MS), 25 * MS);  /* waits until 20 */
    ck_assert_int_eq(server_submit(s, 13 * MS), 30 * MS);  /* FIFO behind it */
    ck_assert_int_eq(server_submit(s, 40 * MS), 45 * MS);  /* idle server */
    ck_assert_uint_eq(server_requests(s), 4);
    server_free(s);
}
END_TEST

/* Periodic windows [O + jP, O + jP + L): 500 ms every 5 s from 2.5 s. */
START_TEST(periodic_windows)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 500 * MS, .period_ns = 5000 * MS,
                     .first_ns = 2500 * MS};
    stall_window w = stall_periodic_next(&st, 0);
    ck_assert_int_eq(w.start_ns, 2500 * MS);
    ck_assert_int_eq(w.end_ns, 3000 * MS);
    w = stall_periodic_next(&st, 2999 * MS);
    ck_assert_int_eq(w.start_ns, 2500 * MS);
    w = stall_periodic_next(&st, 3000 * MS); /* the end is not in the window */
    ck_assert_int_eq(w.start_ns, 7500 * MS);
    w = stall_periodic_next(&st, 17600 * MS);
    ck_assert_int_eq(w.start_ns, 17500 * MS);
    server *s = make(&st, 1, 1000);
    /* work of 1 us starting at 2.5 s ends at 3.000001 s */
    ck_assert_int_eq(server_submit(s, 2500 * MS), 3000 * MS + 1000);
    /* 2 s of work from 7 s crosses the window at 7.5 s: done at 9.5 s */
    ck_assert_int_eq(server_work_until(s, 7000 * MS, 2000 * MS), 9500 * MS);
    /* 5 s of work from 10 s: 2.5 s before 12.5, 2.5 s after 13: done at 15.5 s */
    ck_assert_int_eq(server_work_until(s, 10000 * MS, 5000 * MS), 15500 * MS);
    /* 9 s of work from 16 s crosses 17.5 and 22.5: 1.5 + 4.5 + 3 s, done at 26 s */
    ck_assert_int_eq(server_work_until(s, 16000 * MS, 9000 * MS), 26000 * MS);
    server_free(s);
}
END_TEST

/* A lone periodic stall with preemption resume lays work over its gaps in
 * one step (server.c periodic_resume); the same windows given as a list
 * are walked one by one (and under preemption none the stop's length is
 * L without a walk). Both must give every reply, start and busy time
 * alike: 2000 random patterns (L, P, first), each with requests of random
 * work at random arrivals, on one and on two workers, resume and none. By hand for one: L
 * 1, P 2, 7 ns of work from 0 (a window [0, 1)): gaps [1, 2), [3, 4), ...
 * hold 1 ns each: done at 14. */
START_TEST(periodic_resume_in_one_step_agrees_with_the_walk)
{
    stall_spec one = {.kind = STALL_PERIODIC, .length_ns = 1, .period_ns = 2};
    server *a = make(&one, 1, 7);
    ck_assert_int_eq(server_submit(a, 0), 14);
    server_free(a);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 30);
    enum { N = 400 };
    static stall_window w[N];
    for (int round = 0; round < 2000; round++) {
        int64_t len = 1 + (int64_t)gsl_rng_uniform_int(r, 20), period = len + 1 + (int64_t)gsl_rng_uniform_int(r, 20);
        int64_t first = (int64_t)gsl_rng_uniform_int(r, 30);
        for (size_t j = 0; j < N; j++)
            w[j] = (stall_window){first + (int64_t)j * period, first + (int64_t)j * period + len};
        stall_spec per = {.kind = STALL_PERIODIC, .length_ns = len, .period_ns = period, .first_ns = first};
        stall_spec lst = {.kind = STALL_WINDOWS, .windows = w, .n_windows = N};
        /* every other pair of rounds preemption none, whose stop is L after
         * the request in service (its length found without a walk) */
        per.preemption = lst.preemption = (round / 2) % 2 ? STALL_PREEMPT_NONE : STALL_PREEMPT_RESUME;
        uint64_t workers = 1 + (uint64_t)(round % 2);
        int64_t service = 1 + (int64_t)gsl_rng_uniform_int(r, 60);
        server *p = make_pool(&per, 1, service, workers), *q = make_pool(&lst, 1, service, workers);
        server_set_run_end(p, 500);
        server_set_run_end(q, 500);
        int64_t t = 0;
        for (int k = 0; k < 12; k++) {
            t += (int64_t)gsl_rng_uniform_int(r, 40);
            int64_t sp, sq, ep, eq;
            int64_t rp = server_submit_spans(p, t, &sp, &ep), rq = server_submit_spans(q, t, &sq, &eq);
            if (rp > first + (int64_t)(N - 1) * period)
                break; /* past the listed windows: the list's walk ends there */
            ck_assert_int_eq(rp, rq);
            ck_assert_int_eq(sp, sq);
        }
        ck_assert_int_eq(server_busy_ns(p), server_busy_ns(q));
        ck_assert_int_eq(server_busy_in_run_ns(p), server_busy_in_run_ns(q));
        ck_assert_int_eq(server_failed(p), 0);
        server_free(p);
        server_free(q);
    }
    gsl_rng_free(r);
}
END_TEST

/* Overlapping windows of two stalls stop the worker over their union. */
START_TEST(overlapping_stalls_union)
{
    stall_window a = {10 * MS, 20 * MS}, b = {15 * MS, 30 * MS};
    stall_spec st[2] = {{.kind = STALL_WINDOWS, .windows = &a, .n_windows = 1},
                        {.kind = STALL_WINDOWS, .windows = &b, .n_windows = 1}};
    server *s = make(st, 2, 4 * MS);
    /* 4 ms from 8 ms: 2 ms before 10, the other 2 after 30 */
    ck_assert_int_eq(server_submit(s, 8 * MS), 32 * MS);
    server_free(s);
}
END_TEST

/* Request stalls add work to the requests named, by send index. */
START_TEST(request_stalls)
{
    stall_range r[2] = {{2, 3}, {5, 5}};
    stall_spec st = {.kind = STALL_REQUESTS, .ranges = r, .n_ranges = 2, .extra_ns = 10 * MS};
    server *s = make(&st, 1, 1 * MS);
    int64_t want[] = {1, 2, 13, 24, 25, 36, 37};
    /* the stalled requests' spans as the charts shade them: request 2
     * works from 2 ms (after 0 and 1) to 13 ms, 3 from 13 to 24, 5 from 25
     * to 36; each reports its 10 ms extra, the others none */
    int64_t start[] = {0, 1, 2, 13, 24, 25, 36}, extra[] = {0, 0, 10, 10, 0, 10, 0};
    for (int k = 0; k < 7; k++) {
        ck_assert_int_eq(server_submit(s, 0), want[k] * MS);
        ck_assert_int_eq(server_last_start_ns(s), start[k] * MS);
        ck_assert_int_eq(server_last_extra_ns(s), extra[k] * MS);
    }
    server_free(s);
}
END_TEST

/* Seed 002: the 500 ms stall as a request stall on request 90 or as the
 * window [0.9 s, 1.4 s) gives request 90 (sent at 0.9 s) the same reply. */
START_TEST(request_stall_and_window_agree)
{
    stall_range r = {90, 90};
    stall_spec rs = {.kind = STALL_REQUESTS, .ranges = &r, .n_ranges = 1, .extra_ns = 500 * MS};
    stall_window w = {900 * MS, 1400 * MS};
    stall_spec ws = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server *a = make(&rs, 1, 7 * MS), *b = make(&ws, 1, 7 * MS);
    for (int i = 0; i < 200; i++) {
        int64_t t = i * 10 * MS;
        ck_assert_int_eq(server_submit(a, t), server_submit(b, t));
    }
    server_free(a);
    server_free(b);
}
END_TEST

START_TEST(normalise_rejects_overlaps)
{
    stall_window w[3] = {{30, 40}, {0, 10}, {5, 20}};
    size_t bad;
    ck_assert_int_eq(stall_windows_normalise(w, 3, &bad), -EINVAL);
    ck_assert_uint_eq(bad, 1); /* after sorting: {0,10}, {5,20} overlap */
    stall_window ok[2] = {{10, 20}, {0, 10}};
    ck_assert_int_eq(stall_windows_normalise(ok, 2, &bad), 0);
    ck_assert_int_eq(ok[0].start_ns, 0);
    stall_range r[2] = {{5, 9}, {9, 12}};
    ck_assert_int_eq(stall_ranges_normalise(r, 2, &bad), -EINVAL);
    server_free(NULL);
}
END_TEST

/* The clock's limit, SERVER_HORIZON_NS = 2 x 10^6 s, under a backlog: 10^6 s
 * of work per request, all arriving at 0. The first two end at 10^6 s and
 * exactly 2 x 10^6 s (allowed); the third would end at 3 x 10^6 s: refused
 * as a backlog (-ETIME), not an overflow and not the stalls' fault, and the
 * clock stops at the limit. With 1 ms stalls every second the same queue is
 * still a backlog; stalls of 999 ms a second, that leave 1 ms of work per
 * second, are the stalls' fault (-ERANGE). */
START_TEST(backlog_past_the_time_limit)
{
    const int64_t work = UNITS_MAX_DURATION_NS;
    server *s = make(NULL, 0, work);
    ck_assert_int_eq(server_submit(s, 0), work);
    ck_assert_int_eq(server_submit(s, 0), 2 * work);
    ck_assert_int_eq(server_failed(s), 0);
    ck_assert_int_eq(server_submit(s, 0), SERVER_HORIZON_NS);
    ck_assert_int_eq(server_failed(s), -ETIME);
    ck_assert_int_eq(server_busy_ns(s), 2 * work);
    for (int i = 0; i < 1000; i++) /* and it stays there, however many follow */
        ck_assert_int_eq(server_submit(s, 0), SERVER_HORIZON_NS);
    ck_assert_int_eq(server_busy_ns(s), 2 * work);
    server_free(s);

    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = MS, .period_ns = 1000 * MS, .first_ns = 0};
    s = make(&st, 1, work);
    ck_assert_int_gt(server_submit(s, 0), work); /* 10^6 s of work and 10^6 windows */
    ck_assert_int_eq(server_failed(s), 0);
    ck_assert_int_eq(server_submit(s, 0), SERVER_HORIZON_NS);
    ck_assert_int_eq(server_failed(s), -ETIME);
    server_free(s);

    stall_spec heavy = {.kind = STALL_PERIODIC, .length_ns = 999 * MS, .period_ns = 1000 * MS, .first_ns = 0};
    s = make(&heavy, 1, work / 1000);
    ck_assert_int_eq(server_submit(s, 0), work); /* 10^3 s of work at 1 ms a second: 10^6 s */
    server_free(s);
    s = make(&heavy, 1, 3 * (work / 1000));      /* 3 x 10^3 s: would end at 3 x 10^6 s */
    server_submit(s, 0);
    ck_assert_int_eq(server_failed(s), -ERANGE);
    server_free(s);
}
END_TEST

/* Common random numbers: two servers of one seed draw the same s_k. */
START_TEST(same_seed_same_service_times)
{
    server_config c = {.service = {.kind = DIST_LOGNORMAL, .a_ns = 100000, .shape = 0.2},
                       .generator = "mt19937", .seed = 7};
    server *a, *b;
    ck_assert_int_eq(server_new(&a, &c), 0);
    ck_assert_int_eq(server_new(&b, &c), 0);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(server_submit(a, i * MS), server_submit(b, i * MS));
    /* the draws come in blocks of SERVER_DRAW_BATCH (128): across three
     * blocks each request's work is still the stream's next draw, in
     * order, as one dist_draw_ns a request gives it (1 ms apart, a 100 us
     * median: no request waits, so the work is the reply less the start) */
    server *d;
    gsl_rng *ref;
    ck_assert_int_eq(server_new(&d, &c), 0);
    ck_assert_int_eq(rng_new(&ref, "mt19937", 7, RNG_SERVICE), 0);
    for (int i = 0; i < 3 * 128 + 5; i++)
        ck_assert_int_eq(server_submit(d, i * MS) - i * MS, dist_draw_ns(&c.service, ref));
    rng_free(ref);
    server_free(d);
    c.generator = "no-such-generator";
    server *x;
    ck_assert_int_eq(server_new(&x, &c), -EINVAL);
    ck_assert_ptr_null(x);
    server_free(a);
    server_free(b);
}
END_TEST

/* The next request's service time on server x, submitted at *clock_ns,
 * which moves on by 1 s: requests 1 s apart never wait (service times
 * near 100 us), so the work is the reply less the arrival. */
static int64_t next_work(server *x, int64_t *clock_ns)
{
    int64_t at = *clock_ns;
    *clock_ns += 1000 * MS;
    return server_submit(x, at) - at;
}

/* The tape (server_tape): servers reading and extending one tape get the
 * very draws they would make alone, the stream's k-th value for request k
 * (checked against dist_draw_ns on a stream of their own, as above):
 *  - a first server fills it in whole batches of 128 (300 requests: 3
 *    batches, 384 draws kept), a second one, alive at the same time and
 *    interleaved with a third, reads them and continues the stream past
 *    the tape's end (1000 requests: the tape grows to 1024);
 *  - a tape of at most 300 draws keeps 256 (whole batches), and a server
 *    past them continues from the state after the 256th;
 *  - another generator (taus2) and another seed restart an unused tape for
 *    their own stream; a tape in use is left to its stream;
 *  - a lognormal of another sigma, and exponential, uniform and gamma
 *    service: the same values as drawn alone;
 *  - constant and empirical service leave the tape alone (histogram
 *    service, drawn from an array too, takes empirical's branch). */
START_TEST(tape_gives_the_draws_of_the_stream)
{
    const dist_spec kinds[] = {
        {.kind = DIST_LOGNORMAL, .a_ns = 100000, .shape = 0.2},
        {.kind = DIST_LOGNORMAL, .a_ns = 100000, .shape = 0.5},
        {.kind = DIST_EXPONENTIAL, .a_ns = 100000},
        {.kind = DIST_UNIFORM, .a_ns = 50000, .b_ns = 150000},
        {.kind = DIST_GAMMA, .a_ns = 100000, .shape = 2.5},
    };
    const char *gens[] = {"mt19937", "taus2"};
    for (size_t g = 0; g < 2; g++) {
        server_tape *t;
        ck_assert_int_eq(server_tape_new(&t, 0), 0);
        ck_assert_uint_eq(server_tape_draws(t), 0);
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            for (uint64_t seed = 7; seed <= 8; seed++) {
                server_config c = {.service = kinds[k], .generator = gens[g], .seed = seed, .tape = t};
                gsl_rng *ref;
                ck_assert_int_eq(rng_new(&ref, gens[g], seed, RNG_SERVICE), 0);
                int64_t want[1000];
                for (int i = 0; i < 1000; i++)
                    want[i] = dist_draw_ns(&c.service, ref);
                rng_free(ref);
                server *a, *b, *d;
                int64_t ca = 0, cb = 0, cd = 0;
                ck_assert_int_eq(server_new(&a, &c), 0);
                for (int i = 0; i < 300; i++)
                    ck_assert_int_eq(next_work(a, &ca), want[i]);
                ck_assert_uint_eq(server_tape_draws(t), 384);
                ck_assert_int_eq(server_new(&b, &c), 0);
                ck_assert_int_eq(server_new(&d, &c), 0);
                for (int i = 0; i < 1000; i++) {
                    ck_assert_int_eq(next_work(b, &cb), want[i]);
                    if (i % 2 == 0) /* d a step behind b, half as often */
                        ck_assert_int_eq(next_work(d, &cd), want[i / 2]);
                }
                for (int i = 500; i < 1000; i++)
                    ck_assert_int_eq(next_work(d, &cd), want[i]);
                ck_assert_uint_eq(server_tape_draws(t), 1024);
                /* another stream while the tape is in use: left alone */
                server_config other = c;
                other.seed = seed + 100;
                server *x;
                ck_assert_int_eq(server_new(&x, &other), 0);
                int64_t cx = 0;
                next_work(x, &cx);
                server_free(x);
                server_free(a);
                server_free(b);
                server_free(d);
                ck_assert_uint_eq(server_tape_draws(t), 1024);
            }
        }
        /* a short tape: 256 kept, the rest continued from the 256th */
        server_tape *shortt;
        ck_assert_int_eq(server_tape_new(&shortt, 300), 0);
        server_config c = {.service = kinds[0], .generator = gens[g], .seed = 3, .tape = shortt};
        gsl_rng *ref;
        ck_assert_int_eq(rng_new(&ref, gens[g], 3, RNG_SERVICE), 0);
        int64_t want[700];
        for (int i = 0; i < 700; i++)
            want[i] = dist_draw_ns(&c.service, ref);
        rng_free(ref);
        for (int pass = 0; pass < 2; pass++) {
            server *a;
            int64_t ca = 0;
            ck_assert_int_eq(server_new(&a, &c), 0);
            for (int i = 0; i < 700; i++)
                ck_assert_int_eq(next_work(a, &ca), want[i]);
            server_free(a);
            ck_assert_uint_eq(server_tape_draws(shortt), 256);
        }
        server_tape_free(shortt);
        /* kinds with no draws or with arrays leave the tape alone */
        int64_t values[] = {100000, 200000};
        const dist_spec alone[] = {
            {.kind = DIST_CONSTANT, .a_ns = 100000},
            {.kind = DIST_EMPIRICAL, .values = values, .n_values = 2},
        };
        server_tape *u;
        ck_assert_int_eq(server_tape_new(&u, 0), 0);
        for (size_t k = 0; k < 2; k++) {
            server_config e = {.service = alone[k], .generator = gens[g], .seed = 3, .tape = u};
            server *a;
            int64_t ca = 0;
            ck_assert_int_eq(server_new(&a, &e), 0);
            for (int i = 0; i < 300; i++)
                next_work(a, &ca);
            server_free(a);
            ck_assert_uint_eq(server_tape_draws(u), 0);
        }
        server_tape_free(u);
        server_tape_free(t);
    }
    server_tape_free(NULL);
}
END_TEST

static stall_spec periodic(int64_t length, int64_t period, int64_t first)
{
    stall_spec st = {.kind = STALL_PERIODIC, .length_ns = length, .period_ns = period, .first_ns = first};
    return st;
}

/* Periodic stalls that together leave no gap, found before the run (issue
 * 11, item 10). Worked by hand:
 *  - 600 ms every 1 s from 0 and from 500 ms: [0, 0.6) u [0.5, 1.1) u
 *    [1, 1.6) ...: no gap from 500 ms (the later start) on. With a 1 ms
 *    period (0.6 ms from 0 and from 0.5 ms) the same: the server used to
 *    step through every window up to 2e15 ns (2e12 of them) to find out.
 *  - 500 ms from 0 and from 500 ms: touching windows, no gap of any length.
 *  - 499 ms from 500 ms instead: a 1 ms gap [999, 1000) ms every second.
 *  - the same 600 ms stall twice: fill 1.2 but the union is one stall's.
 *  - 1 ms every 2 ms from 0 and 2 ms every 3 ms from 1 ms: [0,1), [1,3),
 *    [2,3), [4,5), [4,6): the gap [3, 4) ms.
 *  - 1 ms every 3 ms from 0, 1 and 2 ms: the third closes the gaps; from
 *    2 ms on none is left (reported: stall 2).
 *  - a windows stall and a random stall never make it endless (finite
 *    windows; Poisson gaps). */
START_TEST(periodic_stalls_that_close_each_others_gaps)
{
    uint64_t last = 99;
    int64_t from = -1;
    stall_spec a[2] = {periodic(600 * MS, 1000 * MS, 0), periodic(600 * MS, 1000 * MS, 500 * MS)};
    ck_assert_int_eq(stall_periodic_union_endless(a, 2, &last, &from), 1);
    ck_assert_uint_eq(last, 3); /* stalls 0 and 1 */
    ck_assert_int_eq(from, 500 * MS);
    stall_spec fast[2] = {periodic(600000, 1000000, 0), periodic(600000, 1000000, 500000)};
    ck_assert_int_eq(stall_periodic_union_endless(fast, 2, &last, &from), 1);
    ck_assert_int_eq(from, 500000);
    stall_spec touching[2] = {periodic(500 * MS, 1000 * MS, 0), periodic(500 * MS, 1000 * MS, 500 * MS)};
    ck_assert_int_eq(stall_periodic_union_endless(touching, 2, &last, &from), 1);
    stall_spec gap[2] = {periodic(500 * MS, 1000 * MS, 0), periodic(499 * MS, 1000 * MS, 500 * MS)};
    ck_assert_int_eq(stall_periodic_union_endless(gap, 2, &last, &from), 0);
    stall_spec same[2] = {periodic(600 * MS, 1000 * MS, 0), periodic(600 * MS, 1000 * MS, 0)};
    ck_assert_int_eq(stall_periodic_union_endless(same, 2, &last, &from), 0);
    stall_spec mixed[2] = {periodic(1 * MS, 2 * MS, 0), periodic(2 * MS, 3 * MS, 1 * MS)};
    ck_assert_int_eq(stall_periodic_union_endless(mixed, 2, &last, &from), 0);
    stall_spec thirds[3] = {periodic(1 * MS, 3 * MS, 0), periodic(1 * MS, 3 * MS, 1 * MS),
                            periodic(1 * MS, 3 * MS, 2 * MS)};
    ck_assert_int_eq(stall_periodic_union_endless(thirds, 2, &last, &from), 0);
    ck_assert_int_eq(stall_periodic_union_endless(thirds, 3, &last, &from), 1);
    ck_assert_uint_eq(last, 7);
    ck_assert_int_eq(from, 2 * MS);
    /* the server agrees, at the scale of seconds (its run-time guard steps
     * through every window up to 2e15 ns: 2e6 of them here): work after 2 s
     * never ends */
    const int64_t SEC = 1000 * MS;
    stall_spec slow[3] = {periodic(SEC, 3 * SEC, 0), periodic(SEC, 3 * SEC, SEC),
                          periodic(SEC, 3 * SEC, 2 * SEC)};
    ck_assert_int_eq(stall_periodic_union_endless(slow, 3, &last, &from), 1);
    server *sv = make(slow, 3, 1);
    server_submit(sv, 5 * SEC);
    ck_assert_int_eq(server_failed(sv), -ERANGE);
    server_free(sv);
    sv = make(slow, 2, 1); /* the first two leave [2, 3) s free */
    ck_assert_int_eq(server_submit(sv, 5 * SEC), 5 * SEC + 1);
    ck_assert_int_eq(server_failed(sv), 0);
    server_free(sv);
    stall_window w = {0, 5 * MS};
    stall_spec others[3] = {periodic(1 * MS, 3 * MS, 0),
                            {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1},
                            {.kind = STALL_RANDOM, .mean_gap_ns = 10 * MS,
                             .length_dist = {.kind = DIST_CONSTANT, .a_ns = 5 * MS}}};
    ck_assert_int_eq(stall_periodic_union_endless(others, 3, &last, &from), 0);
}
END_TEST

/* A covering set found whatever stall of huge period comes with it (issue
 * "runs past the work budget", item 2), by hand: a = 2 ns every 3 ns from
 * 0: [0,2) [3,5); b = 1 ns every 6 ns from 2 ns: [2,3); c = 1 ns every
 * 6 ns from 5 ns: [5,6): a, b, c cover every 6 ns from 5 ns (c's first
 * start) on. d = 1 ns every 999999.999999989 s: with a, lcm(3, P_d) =
 * 3 P_d ~ 3e15 ns holds 1e15 windows, too many to sweep. Listed first, d
 * made every prefix too long and the check gave up (the run then walked
 * windows to 2e15 ns); now the sets by period, a, b, c, find the cover
 * (stalls 1, 2, 3 of that order: mask 0xe). Listed second, d is left out
 * of the scenario-order set a, b, c (mask 0xd). */
START_TEST(covering_set_found_past_a_huge_period)
{
    uint64_t used = 0;
    int64_t from = -1;
    stall_spec abcd[4] = {periodic(1, 999999999999989, 0), periodic(2, 3, 0), periodic(1, 6, 2),
                          periodic(1, 6, 5)};
    ck_assert_int_eq(stall_periodic_union_endless(abcd, 4, &used, &from), 1);
    ck_assert_uint_eq(used, 0xe); /* b, c, d of this order: stalls 1, 2, 3 */
    ck_assert_int_eq(from, 5);
    stall_spec dlast[4] = {periodic(2, 3, 0), periodic(1, 999999999999989, 0), periodic(1, 6, 2),
                           periodic(1, 6, 5)};
    ck_assert_int_eq(stall_periodic_union_endless(dlast, 4, &used, &from), 1);
    ck_assert_uint_eq(used, 0xd);
}
END_TEST

/* Item 3: h/period + 1 summed over ten stalls wrapped past 2^64 (h just
 * below 2^62, eight stalls of period 2 ns add 8 x 2^61 = 2^64), passed the
 * 4,000,000-window limit and swept 4.6e18 ns while loading. Now the sums
 * are checked, the too-long set is left out, and c0 (1 ns every 2 ns from
 * 0) with c1 (from 1 ns) covers all time from 1 ns: found at once. */
START_TEST(window_count_overflow_is_too_long_not_a_hang)
{
    stall_spec st[10] = {periodic(1, 999390187111799, 0), periodic(1, 2307, 0)};
    for (int k = 0; k < 8; k++)
        st[2 + k] = periodic(1, 2, k % 2);
    uint64_t used = 0;
    int64_t from = -1;
    ck_assert_int_eq(stall_periodic_union_endless(st, 10, &used, &from), 1);
    ck_assert_uint_eq(used, 0xc); /* c0, c1 */
    ck_assert_int_eq(from, 1);
    /* without the covering pairs: a, b and c0 alone leave gaps, checked
     * quickly (the set a, b, c0 is too long to sweep and left out) */
    ck_assert_int_eq(stall_periodic_union_endless(st, 3, &used, &from), 0);
}
END_TEST

/* The run-time guard is bounded: a server walks at most max_windows stall
 * windows, then fails -ECANCELED. 1 ns every 2 ns from 0 and 1 ns every 2 ns
 * from 1 ns cover all time; with a limit of 1000 windows the first
 * request's walk stops at once (without it: 1e15 windows to 2e15 ns). */
START_TEST(window_walk_is_bounded)
{
    stall_spec st[2] = {periodic(1, 2, 0), periodic(1, 2, 1)};
    server_config c = {.service = {.kind = DIST_CONSTANT, .a_ns = 10}, .stalls = st, .n_stalls = 2,
                       .generator = "mt19937", .seed = 1, .max_windows = 1000};
    server *sv;
    ck_assert_int_eq(server_new(&sv, &c), 0);
    ck_assert_int_eq(server_submit(sv, 0), SERVER_HORIZON_NS);
    ck_assert_int_eq(server_failed(sv), -ECANCELED);
    server_free(sv);
    /* one stall alone: 10 ns of work in the gaps of 1 ns every 2 ns ends
     * at 20 ns after 10 windows, well within the limit */
    ck_assert_int_eq(server_new(&sv, &c), 0);
    c.n_stalls = 1;
    server_free(sv);
    ck_assert_int_eq(server_new(&sv, &c), 0);
    ck_assert_int_eq(server_submit(sv, 0), 20);
    ck_assert_int_eq(server_failed(sv), 0);
    server_free(sv);
}
END_TEST

/* Windows that cover the whole run (issue 11, item 10), by hand:
 *  - one window 0..1,000,000 s over a 1 s run: covered, by stall 0;
 *  - windows [0, 1.005) and [1.008, 3) s with a 10 ms freeze every second
 *    filling the gap [1.005, 1.008): covered to 3.01 s (the freeze at
 *    3 s touches the last window), by both;
 *  - without the freeze: the gap at 1.005 s;
 *  - a window from 1 ms: the gap [0, 1) ms;
 *  - a random stall is not counted (its windows come during the run). */
START_TEST(windows_that_cover_the_run)
{
    const int64_t SEC = 1000 * MS;
    uint64_t used = 0;
    stall_window all = {0, 1000000 * SEC};
    stall_spec one = {.kind = STALL_WINDOWS, .windows = &all, .n_windows = 1};
    ck_assert_int_eq(stall_windows_cover(&one, 1, 0, SEC, &used), 1);
    ck_assert_uint_eq(used, 1);
    stall_window two[2] = {{0, 1005 * MS}, {1008 * MS, 3 * SEC}};
    stall_spec st[2] = {{.kind = STALL_WINDOWS, .windows = two, .n_windows = 2},
                        periodic(10 * MS, SEC, 0)};
    ck_assert_int_eq(stall_windows_cover(st, 2, 0, 2 * SEC, &used), 1);
    ck_assert_uint_eq(used, 3);
    /* the freeze [3, 3.01) s carries the cover on to 3.01 s */
    ck_assert_int_eq(stall_windows_cover(st, 2, 0, 3010 * MS, &used), 1);
    ck_assert_int_eq(stall_windows_cover(st, 2, 0, 3010 * MS + 1, &used), 0);
    ck_assert_int_eq(stall_windows_cover(st, 1, 0, 2 * SEC, &used), 0);
    stall_window late = {1 * MS, 10 * SEC};
    stall_spec l = {.kind = STALL_WINDOWS, .windows = &late, .n_windows = 1};
    ck_assert_int_eq(stall_windows_cover(&l, 1, 0, SEC, &used), 0);
    stall_spec r = {.kind = STALL_RANDOM, .mean_gap_ns = 10 * MS,
                    .length_dist = {.kind = DIST_CONSTANT, .a_ns = 5 * MS}};
    ck_assert_int_eq(stall_windows_cover(&r, 1, 0, SEC, &used), 0);
}
END_TEST


/* One closed user against server s until end_ns: each request is sent the
 * instant the previous reply comes, sends only before end_ns (MODEL.md, "End
 * of run"). The latencies go to lat[0..return). */
static int closed_user(server *s, int64_t end_ns, int64_t *lat, int max)
{
    int n = 0;
    for (int64_t t = 0; t < end_ns && n < max; n++) {
        int64_t reply = server_submit(s, t);
        lat[n] = reply - t;
        t = reply;
    }
    return n;
}

/* Issue 14's example: a closed tester, 1 user, 10 ms constant service, one
 * window [5, 105) ms, a 200 ms run. Worked by hand, per preemption:
 *  - resume: request 0 works 0..5, waits out the window, does its last 5 ms
 *    in 105..110: 110 ms; then requests sent at 110, 120, ..., 190 (9 of
 *    them, all before 200) take 10 ms each.
 *  - restart: its 5 ms are lost; all 10 ms again from 105: 115 ms; then
 *    sends at 115, ..., 195: 9 x 10 ms (the last replies at 205, after the
 *    end, recorded).
 *  - resample: a new service time is drawn at 105; the distribution is a
 *    constant, so it is 10 ms again: as restart, 115 ms then 9 x 10 ms.
 *  - none: request 0 finishes undisturbed at 10 ms; the stop waits for it
 *    and lasts its 100 ms from there: no request starts in [5, 110).
 *    Request 1, sent at 10, starts at 110 and replies at 120: 110 ms;
 *    then sends at 120, ..., 190: 8 x 10 ms (10 requests in all). */
START_TEST(preemption_issue_example)
{
    stall_window w = {5 * MS, 105 * MS};
    static const int64_t want[4][11] = {
        {110, 10, 10, 10, 10, 10, 10, 10, 10, 10, -1},
        {115, 10, 10, 10, 10, 10, 10, 10, 10, 10, -1},
        {115, 10, 10, 10, 10, 10, 10, 10, 10, 10, -1},
        {10, 110, 10, 10, 10, 10, 10, 10, 10, 10, -1},
    };
    static const int n_want[4] = {10, 10, 10, 10};
    for (int p = 0; p < 4; p++) {
        stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1,
                         .preemption = (stall_preemption)p};
        server *s = make(&st, 1, 10 * MS);
        int64_t lat[32];
        int n = closed_user(s, 200 * MS, lat, 32);
        ck_assert_msg(n == n_want[p], "%s: %d requests", stall_preemption_name((stall_preemption)p), n);
        for (int i = 0; i < n; i++)
            ck_assert_msg(lat[i] == want[p][i] * MS, "%s: request %d took %lld ns",
                          stall_preemption_name((stall_preemption)p), i, (long long)lat[i]);
        ck_assert_int_eq(server_failed(s), 0);
        server_free(s);
    }
}
END_TEST

/* Where work starts and what the workers did, per preemption, window
 * [5, 105) ms, 10 ms requests at 0 and at 50 ms, run end 110 ms:
 *  - resume: request 0 starts at 0, replies 110; request 1 (arrived in the
 *    window) starts at 110, replies 120. Worked: 20 ms; within the run:
 *    5 + 5 = 10 ms.
 *  - restart: request 0 replies 115 having worked 5 + 10 ms; request 1
 *    starts at 115, replies 125. Worked 25 ms; within the run 5 + 5 ms.
 *  - none: request 0 replies 10 (it ran 5..10 in the window); the stop is
 *    [5, 110); request 1 starts at 110, replies 120. Worked 20 ms; within
 *    the run 10 ms (request 0 whole, request 1 not begun).
 *  - overtime: request 0 replies 10 (its overtime, 5..10); the window keeps
 *    its end: request 1 starts at 105, replies 115. Worked 20 ms; within
 *    the run 10 + 5 ms. */
START_TEST(preemption_start_and_busy)
{
    stall_window w = {5 * MS, 105 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    static const struct {
        stall_preemption p;
        int64_t reply0, start1, reply1, busy, busy_in_run;
    } c[] = {
        {STALL_PREEMPT_RESUME, 110, 110, 120, 20, 10},
        {STALL_PREEMPT_RESTART, 115, 115, 125, 25, 10},
        {STALL_PREEMPT_NONE, 10, 110, 120, 20, 10},
        {STALL_PREEMPT_OVERTIME, 10, 105, 115, 20, 15},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        st.preemption = c[i].p;
        server *s = make(&st, 1, 10 * MS);
        server_set_run_end(s, 110 * MS);
        ck_assert_int_eq(server_last_start_ns(s), 0);
        ck_assert_int_eq(server_submit(s, 0), c[i].reply0 * MS);
        ck_assert_int_eq(server_last_start_ns(s), 0);
        ck_assert_int_eq(server_submit(s, 50 * MS), c[i].reply1 * MS);
        ck_assert_int_eq(server_last_start_ns(s), c[i].start1 * MS);
        ck_assert_int_eq(server_busy_ns(s), c[i].busy * MS);
        ck_assert_int_eq(server_busy_in_run_ns(s), c[i].busy_in_run * MS);
        server_free(s);
    }
}
END_TEST

/* resample draws the new service time on its own stream (RNG_RESAMPLE), so
 * the requests' own s_k (RNG_SERVICE) are the same as without the stall
 * (common random numbers). Service uniform on [6, 14] ms, so request 0 (at
 * 0) is always in service at the window [5, 105) ms: it replies at 105 ms
 * plus the first draw of RNG_RESAMPLE; request 1, sent at 200 ms after the
 * window, replies at 200 ms + s_1, s_1 the second draw of RNG_SERVICE. */
START_TEST(resample_draws_on_its_own_stream)
{
    stall_window w = {5 * MS, 105 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1,
                     .preemption = STALL_PREEMPT_RESAMPLE};
    server_config c = {.service = {.kind = DIST_UNIFORM, .a_ns = 6 * MS, .b_ns = 14 * MS},
                       .stalls = &st, .n_stalls = 1, .generator = "mt19937", .seed = 42};
    gsl_rng *service, *resample;
    ck_assert_int_eq(rng_new(&service, "mt19937", 42, RNG_SERVICE), 0);
    ck_assert_int_eq(rng_new(&resample, "mt19937", 42, RNG_RESAMPLE), 0);
    int64_t s0 = dist_draw_ns(&c.service, service), s1 = dist_draw_ns(&c.service, service);
    int64_t r0 = dist_draw_ns(&c.service, resample);
    ck_assert_int_ne(r0, s0); /* else the test could not tell them apart */
    server *s;
    ck_assert_int_eq(server_new(&s, &c), 0);
    ck_assert_int_eq(server_submit(s, 0), 105 * MS + r0);
    ck_assert_int_eq(server_submit(s, 200 * MS), 200 * MS + s1);
    ck_assert_int_eq(server_busy_ns(s), 5 * MS + r0 + s1); /* 5 ms thrown away */
    /* a probe never draws on the requests' stream: a probe at 300 ms in a
     * window-free stretch is its own work; the next request still gets s_2 */
    int64_t s2 = dist_draw_ns(&c.service, service);
    ck_assert_int_eq(server_probe(s, 300 * MS, 7 * MS), 307 * MS);
    ck_assert_int_eq(server_submit(s, 400 * MS), 400 * MS + s2);
    server_free(s);
    rng_free(service);
    rng_free(resample);
}
END_TEST

/* Restart keeps the request stall's extra work in what starts again: 1 ms
 * service + 10 ms on request 0, window [5, 15) ms restart: 11 ms from 15:
 * 26 ms. Restarts that can never fit (2 s of work, 10 ms every 1 s) fail
 * (-ELOOP) after MAX_RESTARTS, not at the clock's limit. */
START_TEST(restart_whole_work_and_endless)
{
    stall_range r = {0, 0};
    stall_window w = {5 * MS, 15 * MS};
    stall_spec st[2] = {{.kind = STALL_REQUESTS, .ranges = &r, .n_ranges = 1, .extra_ns = 10 * MS},
                        {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1,
                         .preemption = STALL_PREEMPT_RESTART}};
    server *s = make(st, 2, 1 * MS);
    ck_assert_int_eq(server_submit(s, 0), 26 * MS);
    ck_assert_int_eq(server_failed(s), 0);
    server_free(s);
    stall_spec p = {.kind = STALL_PERIODIC, .length_ns = 10 * MS, .period_ns = 1000 * MS,
                    .first_ns = 500 * MS, .preemption = STALL_PREEMPT_RESTART};
    s = make(&p, 1, 2000 * MS);
    server_submit(s, 0);
    ck_assert_int_eq(server_failed(s), -ELOOP);
    server_free(s);
}
END_TEST

/* Two windows met by one request: the one that meets it in service
 * decides. Window A [10, 20) resume and B [15, 30) restart overlap: 8 ms of
 * work from 5 ms does 5 ms, pauses at 10 (A: resume), the union stops work
 * until 30, and B never met it in service: 3 ms more, 33 ms. The same with
 * A restart and B resume: all 8 ms from 30: 38 ms. */
START_TEST(overlapping_windows_first_one_decides)
{
    stall_window a = {10 * MS, 20 * MS}, b = {15 * MS, 30 * MS};
    stall_spec st[2] = {{.kind = STALL_WINDOWS, .windows = &a, .n_windows = 1},
                        {.kind = STALL_WINDOWS, .windows = &b, .n_windows = 1,
                         .preemption = STALL_PREEMPT_RESTART}};
    server *s = make(st, 2, 8 * MS);
    ck_assert_int_eq(server_submit(s, 5 * MS), 33 * MS);
    server_free(s);
    st[0].preemption = STALL_PREEMPT_RESTART;
    st[1].preemption = STALL_PREEMPT_RESUME;
    s = make(st, 2, 8 * MS);
    ck_assert_int_eq(server_submit(s, 5 * MS), 38 * MS);
    server_free(s);
}
END_TEST

/* none, by hand: windows that start while the request finishes wait too,
 * and the stop lasts the longest. 30 ms of work from 0; window A [10, 15)
 * none and B [20, 40) resume: the request runs to 30; A and B both started
 * before 30, so the stop is [10, 30 + 20) = [10, 50): a request arriving at
 * 12 starts at 50. The next window of A's kind, C [100, 101), finds nothing
 * in service: a plain stop (a request at 100 starts at 101). */
START_TEST(none_defers_every_window_it_meets)
{
    stall_window a[2] = {{10 * MS, 15 * MS}, {100 * MS, 101 * MS}}, b = {20 * MS, 40 * MS};
    stall_spec st[2] = {{.kind = STALL_WINDOWS, .windows = a, .n_windows = 2,
                         .preemption = STALL_PREEMPT_NONE},
                        {.kind = STALL_WINDOWS, .windows = &b, .n_windows = 1}};
    server *s = make(st, 2, 30 * MS);
    ck_assert_int_eq(server_submit(s, 0), 30 * MS);
    ck_assert_int_eq(server_probe(s, 31 * MS, 1 * MS), 51 * MS);
    ck_assert_int_eq(server_submit(s, 31 * MS), 80 * MS);
    ck_assert_int_eq(server_last_start_ns(s), 50 * MS);
    ck_assert_int_eq(server_submit(s, 100 * MS), 131 * MS);
    ck_assert_int_eq(server_last_start_ns(s), 101 * MS);
    server_free(s);
}
END_TEST

/* c workers, FIFO, by hand (10 ms requests, 2 workers): arrivals at 0, 0,
 * 0, 5, 25 ms. The first two start at 0 (one per worker), the third waits
 * for the first free worker (10), the fourth for the next (10), the fifth
 * finds one free (both free at 20): replies 10, 10, 20, 20, 35; starts 0, 0,
 * 10, 10, 25. A window [12, 14) resume stops both workers: the third and
 * fourth reply at 22. */
START_TEST(pool_fifo_by_hand)
{
    static const int64_t at[5] = {0, 0, 0, 5, 25}, reply[5] = {10, 10, 20, 20, 35},
                         start[5] = {0, 0, 10, 10, 25}, reply_w[5] = {10, 10, 22, 22, 35};
    stall_window w = {12 * MS, 14 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1};
    server *s = make_pool(NULL, 0, 10 * MS, 2), *sw = make_pool(&st, 1, 10 * MS, 2);
    ck_assert_uint_eq(server_workers(s), 2);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(server_submit(s, at[i] * MS), reply[i] * MS);
        ck_assert_int_eq(server_last_start_ns(s), start[i] * MS);
        ck_assert_int_eq(server_submit(sw, at[i] * MS), reply_w[i] * MS);
        ck_assert_int_eq(server_last_start_ns(sw), start[i] * MS);
    }
    server_free(s);
    server_free(sw);
    server_config bad = {.service = {.kind = DIST_CONSTANT, .a_ns = 1}, .generator = "mt19937",
                         .workers = SERVER_MAX_WORKERS + 1};
    ck_assert_int_eq(server_new(&s, &bad), -EINVAL);
}
END_TEST

/* none with 2 workers: the stop waits for every request in service. 15 ms
 * requests, window [10, 20) none: A at 0 runs to 15, B at 8 (the other
 * worker) runs to 23; the stop is [10, 23 + 10) = [10, 33). C at 9 waits
 * for a worker (15), then for the stop: starts 33, replies 48. D at 40
 * finds the worker B left (23): replies 55. Within a run ending at 30:
 * 15 + 15 (B, 8..23) = 30 ms of work. The same with resume: A pauses at
 * 10 and ends 25, B ends 33, C starts at 25 and ends 40, D at 40 ends 55. */
START_TEST(pool_none_and_resume_by_hand)
{
    stall_window w = {10 * MS, 20 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = &w, .n_windows = 1,
                     .preemption = STALL_PREEMPT_NONE};
    static const int64_t at[4] = {0, 8, 9, 40}, reply[2][4] = {{15, 23, 48, 55}, {25, 33, 40, 55}},
                         start[2][4] = {{0, 8, 33, 40}, {0, 8, 25, 40}};
    for (int m = 0; m < 2; m++) {
        st.preemption = m == 0 ? STALL_PREEMPT_NONE : STALL_PREEMPT_RESUME;
        server *s = make_pool(&st, 1, 15 * MS, 2);
        server_set_run_end(s, 30 * MS);
        for (int i = 0; i < 4; i++) {
            ck_assert_int_eq(server_submit(s, at[i] * MS), reply[m][i] * MS);
            ck_assert_int_eq(server_last_start_ns(s), start[m][i] * MS);
        }
        /* resume: A 15 (0..10, 20..25) + B 12 (8..10, 20..30) + C 5
         * (25..30) = 32 ms */
        ck_assert_int_eq(server_busy_in_run_ns(s), (m == 0 ? 30 : 32) * MS);
        ck_assert_int_eq(server_busy_ns(s), 60 * MS);
        server_free(s);
    }
}
END_TEST

/* Two `none` stops pending at once (c = 2): 10 ms of work each, windows
 * [5, 6) and [20, 21) ms, arrivals 0..5 ms. A (0) and B (1) are in service
 * at 5: the stop waits for B's end, 11, and lasts 1 ms: no request starts
 * in [5, 12). C (2) takes A's worker free at 10, waits to 12 and is in
 * service at 20: its stop is [20, 23) (22 + 1). D (3) takes B's worker
 * free at 11: still inside the first stop, so it waits to 12 too (it
 * started at 11 and replied at 21 when the server kept one hold, C's
 * having replaced it), works 12..22 and meets [20, 21): reply 22. E (4)
 * and F (5) take the workers free at 22, wait out [20, 23): 23..33. */
START_TEST(pool_none_two_stops_pending)
{
    stall_window w[2] = {{5 * MS, 6 * MS}, {20 * MS, 21 * MS}};
    stall_spec st = {.kind = STALL_WINDOWS, .windows = w, .n_windows = 2, .preemption = STALL_PREEMPT_NONE};
    static const int64_t reply[6] = {10, 11, 22, 22, 33, 33}, start[6] = {0, 1, 12, 12, 23, 23};
    server *s = make_pool(&st, 1, 10 * MS, 2);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(server_submit(s, i * MS), reply[i] * MS);
        ck_assert_int_eq(server_last_start_ns(s), start[i] * MS);
    }
    server_free(s);
}
END_TEST

/* Erlang C (Erlang 1917; Kleinrock, Queueing Systems vol. 1, eq. 3.40-3.42):
 * M/M/c with offered load a = lambda / mu = c rho. Erlang B by its
 * recursion B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)); then
 *   P(wait) = C(c, a) = B(c, a) / (1 - rho (1 - B(c, a))),
 *   mean wait Wq = C(c, a) / (c mu - lambda),
 *   mean response W = Wq + 1 / mu.
 * c = 4, rho = 0.8, 1/mu = 1 ms: a = 3.2; sum_{k<4} a^k/k! = 14.7813,
 * a^4/4! / (1 - rho) = 21.8453, C = 0.59643, Wq = 0.59643 / (4 - 3.2) ms =
 * 0.74554 ms, W = 1.74554 ms. */
static void erlang_c(unsigned c, double rho, double mean_service, double *p_wait, double *wq)
{
    double a = c * rho, b = 1;
    for (unsigned k = 1; k <= c; k++)
        b = a * b / (k + a * b);
    *p_wait = b / (1 - rho * (1 - b));
    *wq = *p_wait * mean_service / (c * (1 - rho));
}

/* Poisson arrivals (RNG_ARRIVALS of each seed) at rate c rho / (1 ms) into
 * c workers of exponential 1 ms service: per seed, 10^6 requests; the
 * fraction that waited (start > arrival), the mean wait (start - arrival)
 * and the mean response (reply - arrival). Over 5 seeds, each of the three
 * means lies within 2% of Erlang C; P(wait) and W within 2% per seed too
 * (their sampling error is about 0.3%; a seed's mean wait scatters by
 * about 1.5%). */
static void check_mmc(unsigned c, double rho)
{
    const double mean = 1e6; /* ns */
    const long n = 1000000;
    double p_theory, wq_theory;
    erlang_c(c, rho, mean, &p_theory, &wq_theory);
    double w_theory = wq_theory + mean;
    double p_sum = 0, wq_sum = 0, w_sum = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        server_config cfg = {.service = {.kind = DIST_EXPONENTIAL, .a_ns = (int64_t)mean},
                             .generator = "mt19937", .seed = seed, .workers = c};
        server *s;
        gsl_rng *arrivals;
        ck_assert_int_eq(server_new(&s, &cfg), 0);
        ck_assert_int_eq(rng_new(&arrivals, "mt19937", seed, RNG_ARRIVALS), 0);
        const double gap = mean / (c * rho);
        int64_t t = 0;
        long waited = 0;
        double wait = 0, resp = 0;
        for (long i = 0; i < n; i++) {
            t += (int64_t)llround(gsl_ran_exponential(arrivals, gap));
            int64_t reply = server_submit(s, t), start = server_last_start_ns(s);
            waited += start > t;
            wait += (double)(start - t);
            resp += (double)(reply - t);
        }
        double p = (double)waited / n, w = resp / n;
        ck_assert_msg(fabs(p / p_theory - 1) < 0.02, "c %u seed %llu: P(wait) %.4f, Erlang C %.4f", c,
                      (unsigned long long)seed, p, p_theory);
        ck_assert_msg(fabs(w / w_theory - 1) < 0.02, "c %u seed %llu: W %.0f ns, theory %.0f", c,
                      (unsigned long long)seed, w, w_theory);
        p_sum += p;
        wq_sum += wait / n;
        w_sum += w;
        server_free(s);
        rng_free(arrivals);
    }
    ck_assert_msg(fabs(p_sum / 5 / p_theory - 1) < 0.02, "c %u: P(wait) %.4f, Erlang C %.4f", c, p_sum / 5,
                  p_theory);
    ck_assert_msg(fabs(wq_sum / 5 / wq_theory - 1) < 0.02, "c %u: Wq %.0f ns, Erlang C %.0f", c, wq_sum / 5,
                  wq_theory);
    ck_assert_msg(fabs(w_sum / 5 / w_theory - 1) < 0.02, "c %u: W %.0f ns, theory %.0f", c, w_sum / 5,
                  w_theory);
}

START_TEST(mmc_erlang_c)
{
    double p, wq;
    erlang_c(4, 0.8, 1e6, &p, &wq); /* the figures worked above */
    ck_assert(fabs(p - 0.59643) < 1e-5);
    ck_assert(fabs(wq - 745540) < 5);
    erlang_c(1, 0.8, 1e6, &p, &wq); /* M/M/1: P(wait) = rho, Wq = rho / (mu - lambda) */
    ck_assert(fabs(p - 0.8) < 1e-12);
    ck_assert(fabs(wq - 4e6) < 1e-3);
    check_mmc(4, 0.8);
}
END_TEST

START_TEST(mmc_erlang_c_more_workers)
{
    check_mmc(2, 0.8);
    check_mmc(16, 0.8);
}
END_TEST

/* A plain model of the pool to check the server's shortcuts (its quiet
 * stretches, its cursors that commit only at the raw start): c free times
 * scanned for the least, windows walked from the first every time. Resume
 * and restart only. */
static int64_t naive_submit(int64_t *free_at, unsigned c, const stall_window *w, size_t nw,
                            stall_preemption p, int64_t arrival, int64_t work, int64_t *start_out)
{
    unsigned best = 0;
    for (unsigned i = 1; i < c; i++)
        if (free_at[i] < free_at[best])
            best = i;
    int64_t t = arrival > free_at[best] ? arrival : free_at[best], left = work;
    int started = 0;
    for (size_t i = 0; i < nw; i++) {
        if (w[i].end_ns <= t)
            continue;
        if (w[i].start_ns <= t) {
            t = w[i].end_ns;
            continue;
        }
        if (!started) {
            started = 1;
            *start_out = t;
        }
        if (left <= w[i].start_ns - t)
            break;
        left = p == STALL_PREEMPT_RESTART ? work : left - (w[i].start_ns - t);
        t = w[i].end_ns;
    }
    if (!started)
        *start_out = t;
    free_at[best] = t + left;
    return t + left;
}

/* The server agrees with the plain model on random loads: 1 to 5 workers,
 * 200 windows of 0.1 to 2 ms every 0 to 80 ms (over about 8 s), uniform 0.5
 * to 5 ms work, arrivals of random gaps at a load of about 0.9 (bursts of
 * equal instants included; 5000 requests span 16/c s), resume and
 * restart. */
START_TEST(pool_agrees_with_a_plain_model)
{
    gsl_rng *r;
    ck_assert_int_eq(rng_new(&r, "mt19937", 3, RNG_ARRIVALS), 0);
    for (int round = 0; round < 20; round++) {
        unsigned c = 1 + round % 5;
        stall_preemption p = round % 2 ? STALL_PREEMPT_RESTART : STALL_PREEMPT_RESUME;
        stall_window w[200];
        int64_t t = 0;
        for (int i = 0; i < 200; i++) {
            t += (int64_t)gsl_rng_uniform_int(r, 80000) * 1000;
            w[i].start_ns = t;
            t += 100000 + (int64_t)gsl_rng_uniform_int(r, 1900) * 1000;
            w[i].end_ns = t;
        }
        stall_spec st = {.kind = STALL_WINDOWS, .windows = w, .n_windows = 200, .preemption = p};
        server_config cfg = {.service = {.kind = DIST_UNIFORM, .a_ns = 500000, .b_ns = 5000000},
                             .stalls = &st, .n_stalls = 1, .generator = "mt19937", .seed = (uint64_t)round,
                             .workers = c};
        server *s;
        gsl_rng *service;
        ck_assert_int_eq(server_new(&s, &cfg), 0);
        ck_assert_int_eq(rng_new(&service, "mt19937", (uint64_t)round, RNG_SERVICE), 0);
        int64_t free_at[5] = {0, 0, 0, 0, 0}, a = 0;
        for (int i = 0; i < 5000; i++) {
            if (gsl_rng_uniform(r) < 0.7)
                a += (int64_t)gsl_rng_uniform_int(r, 9000000 / c); /* load about 0.9 */
            int64_t start, want = naive_submit(free_at, c, w, 200, p, a, dist_draw_ns(&cfg.service, service),
                                               &start);
            ck_assert_int_eq(server_submit(s, a), want);
            ck_assert_int_eq(server_last_start_ns(s), start);
        }
        ck_assert_int_eq(server_failed(s), 0);
        server_free(s);
        rng_free(service);
    }
    rng_free(r);
}
END_TEST


/* A stall_file for path as the scenario's reading leaves it (open, its
 * size and time, its first and last windows given). */
static stall_file *open_stall_file(const char *path, uint64_t n, stall_window first, stall_window last)
{
    stall_file *f = calloc(1, sizeof *f);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(f->f = fopen(path, "r"));
    f->path = strdup(path);
    struct stat sb;
    ck_assert_int_eq(fstat(fileno(f->f), &sb), 0);
    f->size = (int64_t)sb.st_size;
    f->mtime_s = (int64_t)sb.st_mtim.tv_sec;
    f->mtime_ns = (int64_t)sb.st_mtim.tv_nsec;
    f->first = first;
    f->last = last;
    f->n_windows = n;
    return f;
}

/* Two windows [10, 20) and [30, 35) ms in a file with a header, a
 * comment, a blank line and CRLF ends, streamed: 7 ms of work from 5 ms
 * does 5, waits out the first window and ends at 22 ms; from 25 ms it does
 * 5 by 30, waits to 35 and ends at 37 ms; one from 40 ms meets no window
 * (47 ms). A probe at 36 ms after them (work 1 ms, the worker free at 47)
 * replies at 48 ms; the next window after 0 is the first. */
START_TEST(streamed_file_by_hand)
{
    char path[] = "/tmp/cosim_test_stallXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "start,length\r\n# two windows\r\n\r\n10ms,10ms\r\n30ms,5ms";
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    stall_spec st = {.kind = STALL_WINDOWS, .n_windows = 2,
                     .file = open_stall_file(path, 2, (stall_window){10 * MS, 20 * MS}, (stall_window){30 * MS, 35 * MS})};
    server *s = make(&st, 1, 7 * MS);
    ck_assert_int_eq(server_submit(s, 5 * MS), 22 * MS);
    ck_assert_int_eq(server_submit(s, 25 * MS), 37 * MS);
    ck_assert_int_eq(server_submit(s, 40 * MS), 47 * MS);
    ck_assert_int_eq(server_probe(s, 36 * MS, 1 * MS), 48 * MS);
    stall_window w;
    ck_assert_int_eq(server_next_window(s, 0, &w), 1);
    ck_assert_int_eq(w.start_ns, 10 * MS);
    ck_assert_int_eq(server_next_window(s, 35 * MS, &w), 0);
    ck_assert_int_eq(server_failed(s), 0);
    server_free(s);
    stall_file_free(st.file);
    unlink(path);
}
END_TEST

/* A file of 20,000 windows (about 400 KB: a hundred refills of the
 * cursor's 4 KB) streamed gives the same timeline as the same windows held
 * in an array: every reply and start, probes between the submissions (the
 * probe cursor going back to the committed one), the next window after
 * random instants, for 1 and 3 workers and resume, restart and none. */
START_TEST(streamed_file_agrees_with_the_array)
{
    enum { N = 20000 };
    stall_window *w = malloc(N * sizeof *w);
    ck_assert_ptr_nonnull(w);
    gsl_rng *r;
    ck_assert_int_eq(rng_new(&r, "mt19937", 5, RNG_ARRIVALS), 0);
    char path[] = "/tmp/cosim_test_stallXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    fputs("# windows in time order\nstart,length\n", out);
    int64_t t = 0;
    uint64_t lines = 2;
    stall_file_marks marks = {0}; /* as the scenario's reading notes them */
    for (int i = 0; i < N; i++) {
        t += (int64_t)gsl_rng_uniform_int(r, 8000) * 1000; /* adjacent windows too (gap 0) */
        w[i].start_ns = t;
        t += 100000 + (int64_t)gsl_rng_uniform_int(r, 1900) * 1000;
        w[i].end_ns = t;
        if (i > 0)
            stall_file_marks_add(&marks, (uint64_t)i, lines, ftell(out), w[i - 1]);
        fprintf(out, i % 1000 == 7 ? "  %lldns , %lldus\t\n# a comment\n\n" : "%lldns,%lldus\n",
                (long long)w[i].start_ns, (long long)(w[i].end_ns - w[i].start_ns) / 1000);
        lines += i % 1000 == 7 ? 3 : 1;
    }
    ck_assert_int_eq(fclose(out), 0);
    /* 20,000 windows: a mark every 256 fills the 128 marks at 32,768, so
     * the table holds 78 marks, every 256 windows */
    ck_assert_uint_eq(marks.n, 78);
    ck_assert_uint_eq(marks.every, 256);
    stall_file *f = open_stall_file(path, N, w[0], w[N - 1]);
    f->marks = marks;
    for (int round = 0; round < 6; round++) {
        unsigned c = round < 3 ? 1 : 3;
        stall_preemption p = round % 3 == 0 ? STALL_PREEMPT_RESUME
                             : round % 3 == 1 ? STALL_PREEMPT_RESTART : STALL_PREEMPT_NONE;
        stall_spec held = {.kind = STALL_WINDOWS, .windows = w, .n_windows = N, .preemption = p};
        stall_spec streamed = {.kind = STALL_WINDOWS, .n_windows = N, .file = f, .preemption = p};
        server *a = make_pool(&held, 1, 1 * MS, c), *b = make_pool(&streamed, 1, 1 * MS, c);
        int64_t at = 0;
        for (int i = 0; i < 40000; i++) {
            at += (int64_t)gsl_rng_uniform_int(r, 1800000 / c);
            int64_t rb = server_submit(b, at), ra = server_submit(a, at);
            ck_assert_msg(rb == ra, "round %d request %d: %lld vs %lld, failed %d", round, i, (long long)rb, (long long)ra, server_failed(b));
            ck_assert_int_eq(server_last_start_ns(b), server_last_start_ns(a));
            if (i % 7 == 0) {
                int64_t q = at + (int64_t)gsl_rng_uniform_int(r, 3000000);
                ck_assert_int_eq(server_probe(b, q, 2 * MS), server_probe(a, q, 2 * MS));
                stall_window x, y;
                int fx = server_next_window(a, q, &x), fy = server_next_window(b, q, &y);
                ck_assert_int_eq(fy, fx);
                ck_assert_int_eq(y.start_ns, x.start_ns);
                ck_assert_int_eq(y.end_ns, x.end_ns);
            }
        }
        ck_assert_int_eq(server_failed(a), 0);
        ck_assert_int_eq(server_failed(b), 0);
        server_free(a);
        server_free(b);
    }
    /* searches in any order (the charts' rows, a probe behind another):
     * the first window ending after q, as the array's binary search */
    stall_spec held = {.kind = STALL_WINDOWS, .windows = w, .n_windows = N};
    stall_spec streamed = {.kind = STALL_WINDOWS, .n_windows = N, .file = f};
    server *a = make(&held, 1, 1 * MS), *b = make(&streamed, 1, 1 * MS);
    for (int i = 0; i < 5000; i++) {
        int64_t q = (int64_t)gsl_rng_uniform_int(r, (unsigned long)(t / 1000 + 1000)) * 1000;
        stall_window x = {0, 0}, y = {0, 0};
        ck_assert_int_eq(server_next_window(b, q, &y), server_next_window(a, q, &x));
        ck_assert_int_eq(y.start_ns, x.start_ns);
        ck_assert_int_eq(y.end_ns, x.end_ns);
    }
    ck_assert_int_eq(server_failed(b), 0);
    server_free(a);
    server_free(b);
    /* a table that overflows: 100,000 windows would be 390 marks every
     * 256; halved twice it keeps every 1024th, 97 marks */
    stall_file_marks big = {0};
    for (uint64_t i = 1; i < 100000; i++)
        stall_file_marks_add(&big, i, i, (int64_t)i, (stall_window){(int64_t)i, (int64_t)i + 1});
    ck_assert_uint_eq(big.every, 1024);
    ck_assert_uint_eq(big.n, 97);
    ck_assert_uint_eq(big.m[0].index, 1024);
    ck_assert_uint_eq(big.m[96].index, 97 * 1024);
    stall_file_free(f);
    unlink(path);
    rng_free(r);
    free(w);
}
END_TEST

/* A stall file changed after it was read is refused: one whose size and
 * time differ when a server starts (-ESTALE from server_new), and one
 * written over in place during a run, a window at 900 s turned into one
 * before the window above it (the server's walk finds it and fails with
 * -ESTALE, not a run on other windows), and one cut short during a run. */
START_TEST(changed_stall_file_is_refused)
{
    char path[] = "/tmp/cosim_test_stallXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    for (int i = 0; i < 1000; i++) /* 10 ms every 1 s: lines of 11 bytes, past the 4 KB buffer */
        fprintf(out, "%04ds,10ms\n", i);
    ck_assert_int_eq(fclose(out), 0);
    stall_window first = {0, 10 * MS}, last = {999000 * MS, 999010 * MS};
    stall_spec st = {.kind = STALL_WINDOWS, .n_windows = 1000, .file = open_stall_file(path, 1000, first, last)};
    server_config c = {.service = {.kind = DIST_CONSTANT, .a_ns = MS}, .stalls = &st, .n_stalls = 1,
                       .generator = "mt19937", .seed = 1};
    server *s;
    ck_assert_int_eq(server_new(&s, &c), 0);
    /* the line of the window at 900 s (offset 9900) now says 0890s: before 899 s */
    fd = open(path, O_WRONLY);
    ck_assert_int_eq(pwrite(fd, "0890", 4, 900 * 11), 4);
    close(fd);
    for (int64_t at = 0; at < 1000000 * MS; at += 100 * MS)
        server_submit(s, at);
    ck_assert_int_eq(server_failed(s), -ESTALE);
    server_free(s);
    /* a server started now sees another time of change (or size): refused at once */
    struct timespec later[2] = {{0, UTIME_OMIT}, {st.file->mtime_s + 5, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, later, 0), 0);
    ck_assert_int_eq(stall_file_changed(st.file), 1);
    ck_assert_int_eq(server_new(&s, &c), -ESTALE);
    stall_file_free(st.file);
    /* cut short during a run: the file ends at 500 s, the walk finds 500
     * windows where the reading counted 1000 (and another last one) */
    st.file = open_stall_file(path, 1000, first, last);
    ck_assert_int_eq(server_new(&s, &c), 0);
    ck_assert_int_eq(truncate(path, 500 * 11), 0);
    for (int64_t at = 0; at < 1000000 * MS; at += 100 * MS)
        server_submit(s, at);
    ck_assert_int_eq(server_failed(s), -ESTALE);
    server_free(s);
    stall_file_free(st.file);
    unlink(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("server");
    TCase *tc = tcase_create("server");
    tcase_set_timeout(tc, 120); /* Erlang C's 10^6 requests per seed under the sanitizers */
    tcase_add_test(tc, request_in_service_across_window_start);
    tcase_add_test(tc, streamed_file_by_hand);
    tcase_add_test(tc, streamed_file_agrees_with_the_array);
    tcase_add_test(tc, changed_stall_file_is_refused);
    tcase_add_test(tc, arrival_in_window_waits_for_its_end);
    tcase_add_test(tc, submit_spans_gives_start_and_extra);
    tcase_add_test(tc, periodic_windows);
    tcase_add_test(tc, overlapping_stalls_union);
    tcase_add_test(tc, request_stalls);
    tcase_add_test(tc, request_stall_and_window_agree);
    tcase_add_test(tc, normalise_rejects_overlaps);
    tcase_add_test(tc, same_seed_same_service_times);
    tcase_add_test(tc, tape_gives_the_draws_of_the_stream);
    tcase_add_test(tc, periodic_stalls_that_close_each_others_gaps);
    tcase_add_test(tc, covering_set_found_past_a_huge_period);
    tcase_add_test(tc, window_count_overflow_is_too_long_not_a_hang);
    tcase_add_test(tc, window_walk_is_bounded);
    tcase_add_test(tc, windows_that_cover_the_run);
    tcase_add_test(tc, backlog_past_the_time_limit);
    tcase_add_test(tc, preemption_issue_example);
    tcase_add_test(tc, preemption_start_and_busy);
    tcase_add_test(tc, resample_draws_on_its_own_stream);
    tcase_add_test(tc, restart_whole_work_and_endless);
    tcase_add_test(tc, overlapping_windows_first_one_decides);
    tcase_add_test(tc, none_defers_every_window_it_meets);
    tcase_add_test(tc, pool_fifo_by_hand);
    tcase_add_test(tc, pool_none_and_resume_by_hand);
    tcase_add_test(tc, pool_none_two_stops_pending);
    tcase_add_test(tc, mmc_erlang_c);
    tcase_add_test(tc, mmc_erlang_c_more_workers);
    tcase_add_test(tc, pool_agrees_with_a_plain_model);
    tcase_add_test(tc, periodic_resume_in_one_step_agrees_with_the_walk);
    suite_add_tcase(s, tc);
    return s;
}
