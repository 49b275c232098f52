/* bench_backfill - what a coordinated-omission backfill costs now that it
 * is recorded as an arithmetic series per bucket (hist_record_corrected),
 * against the one-by-one loop it replaced (one hist_record per added value).
 *
 * Usage: bench_backfill [LOOP_VALUES]   (default 100000000)
 * Prints, for the examples (a 1000 s reply at an expected interval
 * of 1 ns: 10^12 added values; 1 h at 1 us: 3.6e9) and a reply of
 * INT64_MAX ns at 1 ns (2^63 - 2 values), the wall-clock time of the series
 * (best of 5), and the loop's time per value over LOOP_VALUES values with
 * what it would take for each example. Timing is here, in a benchmark,
 * never in a test.
 */
#define _POSIX_C_SOURCE 200809L
#include "hist.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    uint64_t loop_values = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000ull;
    static const struct {
        const char *what;
        int64_t value_ns, interval_ns;
    } ex[] = {
        {"1000 s at 1 ns", 1000000000000, 1},
        {"1 h at 1 us", 3600000000000, 1000},
        {"INT64_MAX ns at 1 ns", INT64_MAX, 1},
    };
    hist *h;
    if (hist_new(&h, 8))
        return 1;
    /* the loop it replaced, per value */
    double t0 = now();
    for (uint64_t i = 1; i <= loop_values; i++)
        hist_record(h, (int64_t)i);
    double per_value = (now() - t0) / (double)loop_values;
    printf("one-by-one loop: %.2f ns per added value (%llu values)\n", per_value * 1e9,
           (unsigned long long)loop_values);
    printf("%-22s %16s %14s %16s\n", "reply", "added values", "series (us)", "loop would take");
    for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++) {
        double best = 1e300;
        uint64_t n = 0;
        for (int rep = 0; rep < 5; rep++) {
            hist_reset(h);
            double a = now();
            n = hist_record_corrected(h, ex[k].value_ns, ex[k].interval_ns, HIST_CORRECT_HDR, 100000000, NULL);
            double d = now() - a;
            if (d < best)
                best = d;
        }
        double loop_s = per_value * (double)(n - 1);
        printf("%-22s %16llu %14.1f %13.3g s\n", ex[k].what, (unsigned long long)(n - 1), best * 1e6, loop_s);
    }
    hist_free(h);
    return 0;
}
