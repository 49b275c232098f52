/* bench_engine - cost per simulated request of each tester kind, run the
 * way `cosim` runs a scenario by default: the scenario read from text, the
 * run through run_scenario_observed, and the chart data on (the timeline
 * and the request bars in the windows cosim draws by default,
 * timeline_default_windows: around one stall; observed as cli/main.c
 * observes them, without a terminal for the progress line).
 *
 * The model is the yardstick's (../shared/bench/limit.c): one request a
 * millisecond intended, service lognormal of median 100 us and sigma 0.2
 * (or constant 100 us), a 10 ms stop-the-world window at the start of every
 * second. bench/run.sh runs both side by side.
 *
 * Usage: bench_engine KIND SERVICE N [OPTION...]
 *   KIND     closed | paced | open | corrected
 *   SERVICE  lognormal | constant
 *   N        simulated requests (about: closed runs for N mean services)
 *   OPTION   nocharts: no observer (the chart data off);
 *            wait: also record the queue waits (queue_wait = record);
 *            pool: 4 workers, each request arriving 4 times as often;
 *            users=U: U users (closed, paced, corrected)
 * Prints one line: kind service requests seconds ns_per_request
 * requests_per_second peak_rss_kib cpu_seconds. Timing is of the run alone
 * (not the start-up), wall-clock and CPU, here in the benchmark, never in a
 * test.
 */
#define _POSIX_C_SOURCE 200809L
#include "run.h"
#include "timeline.h"

/* cli/outputs.h's sizes (the CLI is not part of libcosim) */
enum { TIMELINE_MAX_POINTS = 4000, BARS_MAX_POINTS = 2000 };

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The chart data, as cli/main.c's observe keeps it. */
typedef struct charts {
    timeline *timeline, *bars;
} charts;

static void observe(void *ctx, size_t tester, const tester_request *rq, tester_gate *gate)
{
    charts *c = ctx;
    tester_gate_skip_all(gate);
    if (c->timeline)
        timeline_observe(c->timeline, tester, rq, gate);
    if (c->bars)
        timeline_observe(c->bars, tester, rq, gate);
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_engine closed|paced|open|corrected lognormal|constant N "
                    "[nocharts] [wait] [pool] [users=U]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return usage();
    const char *kind = argv[1];
    int lognormal = strcmp(argv[2], "lognormal") == 0;
    unsigned long long n = strtoull(argv[3], NULL, 10);
    int chart = 1, wait = 0, pool = 0;
    unsigned long users = 1;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "nocharts") == 0)
            chart = 0;
        else if (strcmp(argv[i], "wait") == 0)
            wait = 1;
        else if (strcmp(argv[i], "pool") == 0)
            pool = 1;
        else if (strncmp(argv[i], "users=", 6) == 0)
            users = strtoul(argv[i] + 6, NULL, 10);
        else
            return usage();
    }
    int closed = strcmp(kind, "closed") == 0;
    if (pool && users == 1)
        users = 4; /* closed: four users keep the four workers busy */
    /* closed: one request per mean service (about 102 us) per worker */
    unsigned long long duration_us = closed ? n * 102 / (pool ? 4 : 1) : n * (pool ? 250 : 1000);
    char text[2048];
    snprintf(text, sizeof text,
             "[scenario]\nduration = %lluus\nseed = 1\nmax_requests = 2000000000\nqueue_wait = %s\n"
             "[service]\ndistribution = %s\n%s\nworkers = %d\n"
             "[stall freeze]\nkind = periodic\nlength = 10ms\nperiod = 1s\nfirst = 0s\n"
             "[tester %s]\nkind = %s\n%s%s\n",
             duration_us, wait ? "record" : "off", lognormal ? "lognormal" : "constant",
             lognormal ? "median = 100us\nsigma = 0.2" : "time = 100us", pool ? 4 : 1, kind, kind,
             closed ? "" : pool ? "rate = 4000/s\n" : "rate = 1000/s\n",
             strcmp(kind, "open") == 0 ? "" : strcmp(kind, "closed") == 0 ? "" : "late = next_slot\n");
    if (users > 1 && strcmp(kind, "open") != 0) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, "users = %lu\n", users);
    }
    char err[1024];
    FILE *f = fmemopen(text, strlen(text), "r");
    scenario *s = NULL;
    if (!f || scenario_load_stream(&s, f, "bench.ini", NULL, 0, err, sizeof err) != SCENARIO_OK) {
        fprintf(stderr, "bench_engine: %s\n", f ? err : "fmemopen");
        return 1;
    }
    fclose(f);
    charts c = {0};
    int64_t tl_from = 0, tl_to = s->duration_ns, bars_from = 0, bars_to = s->duration_ns;
    /* the windows cosim draws by default (cli/main.c): around one stall */
    if (chart && timeline_default_windows(s, &tl_from, &tl_to, &bars_from, &bars_to) != 0)
        tl_from = bars_from = 0, tl_to = bars_to = s->duration_ns;
    if (chart && (timeline_new(&c.timeline, s->n_testers, tl_from, tl_to, TIMELINE_MAX_POINTS) ||
                  timeline_new(&c.bars, s->n_testers, bars_from, bars_to, BARS_MAX_POINTS) ||
                  timeline_set_tester(c.timeline, 0, &s->testers[0], s->duration_ns) ||
                  timeline_set_tester(c.bars, 0, &s->testers[0], s->duration_ns)))
        return 1;
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    run_result r;
    if (run_scenario_observed(s, chart ? observe : NULL, &c, &r, err, sizeof err)) {
        fprintf(stderr, "bench_engine: %s\n", err);
        return 1;
    }
    double secs = clock_s(CLOCK_MONOTONIC) - w0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    uint64_t requests = r.testers[0].sent;
    run_result_free(&r);
    timeline_free(c.timeline);
    timeline_free(c.bars);
    scenario_free(s);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-9s %-9s %11llu %8.3f %8.2f %12.0f %8ld %8.3f\n", kind, argv[2], (unsigned long long)requests, secs,
           secs * 1e9 / (double)requests, (double)requests / secs, ru.ru_maxrss, cpu);
    return 0;
}
