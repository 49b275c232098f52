/* bench_engine - cost per simulated request of each tester kind, against a
 * minimal reference loop (one GSL draw, one FIFO step, one histogram record
 * per request), and the process's peak memory.
 *
 * Usage: bench_engine KIND SERVICE N [OPTION]
 *   KIND     closed | paced | open | corrected | reference
 *   SERVICE  lognormal | constant
 *   N        simulated requests (about: closed runs for N mean services)
 *   OPTION   wait: also record the queue waits (queue_wait = record);
 *            pool: 4 workers, each request arriving 4 times as often
 * Prints one line: kind service requests seconds ns_per_request
 * requests_per_second peak_rss_kib. Timing is wall-clock here, in the
 * benchmark, never in a test.
 */
#define _POSIX_C_SOURCE 200809L
#include "hist.h"
#include "rng.h"
#include "server.h"
#include "tester.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* The load: one request every 1 us intended; service median 500 ns
 * (utilisation about 0.5), so open-loop queues stay short. */
#define INTERVAL_NS 1000
#define MEDIAN_NS 500

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The floor cosim is measured against: the three things any simulator of
 * this model must do per request, and nothing else. */
static uint64_t reference(int lognormal, uint64_t n)
{
    gsl_rng *r;
    hist *h;
    if (rng_new(&r, "mt19937", 1, RNG_SERVICE) || hist_new(&h, 8))
        exit(1);
    int64_t free_at = 0;
    double mu = log((double)MEDIAN_NS);
    for (uint64_t i = 0; i < n; i++) {
        int64_t arrival = (int64_t)i * INTERVAL_NS;
        int64_t s = lognormal ? (int64_t)llround(exp(mu + gsl_ran_gaussian_ziggurat(r, 0.2))) : MEDIAN_NS;
        int64_t start = arrival > free_at ? arrival : free_at;
        free_at = start + s;
        hist_record(h, free_at - arrival);
    }
    uint64_t c = hist_count(h);
    hist_free(h);
    rng_free(r);
    return c;
}

int main(int argc, char **argv)
{
    if (argc != 4 && (argc != 5 || (strcmp(argv[4], "wait") != 0 && strcmp(argv[4], "pool") != 0))) {
        fprintf(stderr, "usage: bench_engine closed|paced|open|corrected|reference lognormal|constant N "
                        "[wait|pool]\n");
        return 2;
    }
    const char *kind = argv[1];
    int lognormal = strcmp(argv[2], "lognormal") == 0;
    uint64_t n = strtoull(argv[3], NULL, 10);
    rng_init();
    double t0 = now();
    uint64_t requests;
    if (strcmp(kind, "reference") == 0) {
        requests = reference(lognormal, n);
    } else {
        tester_spec t;
        memset(&t, 0, sizeof t);
        strcpy(t.name, kind);
        if (tester_kind_parse(kind, &t.kind))
            return 2;
        t.users = 1;
        const int pool = argc == 5 && strcmp(argv[4], "pool") == 0;
        t.interval.num_ns = pool ? INTERVAL_NS / 4 : INTERVAL_NS;
        t.interval.den = 1;
        t.late = TESTER_LATE_NEXT_SLOT;
        /* a 1 ms stall every 100 ms, so the correction has work to do */
        stall_spec st = {.kind = STALL_PERIODIC, .length_ns = 1000000, .period_ns = 100000000};
        server_config srv = {.service = {.kind = lognormal ? DIST_LOGNORMAL : DIST_CONSTANT,
                                         .a_ns = MEDIAN_NS, .shape = 0.2},
                             .stalls = &st, .n_stalls = 1, .generator = "mt19937", .seed = 1,
                             .workers = pool ? 4 : 1};
        if (pool)
            t.users = 4; /* closed: four users keep the four workers busy */
        int64_t duration = (int64_t)n * (t.kind == TESTER_CLOSED ? MEDIAN_NS : (int64_t)t.interval.num_ns);
        tester_run_config cfg = {.duration_ns = duration, .threshold_ns = 100000, .sub_bits = 8,
                                 .record_wait = argc == 5 && strcmp(argv[4], "wait") == 0, .server = &srv};
        tester_result res;
        if (tester_run(&t, &cfg, NULL, NULL, &res))
            return 1;
        requests = res.sent;
        tester_result_free(&res);
    }
    double secs = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-9s %-9s %11llu %8.3f %8.2f %12.0f %8ld\n", kind, argv[2], (unsigned long long)requests,
           secs, secs * 1e9 / (double)requests, (double)requests / secs, ru.ru_maxrss);
    return 0;
}
