/* bench_combinations.c - the combination test (tests/combo.h) over more
 * cases than the suite runs, for a seed: the reference against the engine,
 * the pairs covered, the time taken. Not a test: it reports, and exits 1
 * on the first difference after printing the smallest failing scenario.
 *
 * Usage: bench_combinations [CASES [SEED [SHOW]]]  (default 200000, 30, 0)
 * SHOW > 0 prints the first SHOW cases' scenarios and their counts. */
#define _POSIX_C_SOURCE 200809L
#include "combo.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    uint64_t want = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 30;
    uint64_t show = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
    combo_gen *g;
    if (combo_gen_new(&g, seed))
        return 2;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t cases = 0, refused = 0, requests = 0;
    char why[1024], ini[4096];
    while (cases < want) {
        combo c;
        combo_gen_next(g, &c);
        int rc = combo_check(&c, why, sizeof why);
        combo_gen_result(g, &c, rc != 2);
        if (rc == 2) {
            refused++;
            continue;
        }
        cases++;
        combo_out r;
        if (combo_reference(&c, &r) == 0) {
            requests += r.n;
            if (show && cases <= show) {
                combo_ini(&c, ini, sizeof ini);
                printf("%s; planned %llu sent %llu recorded %llu in flight %llu blocked %llu\n\n", ini,
                       (unsigned long long)r.planned, (unsigned long long)r.sent, (unsigned long long)r.recorded,
                       (unsigned long long)r.in_flight, (unsigned long long)r.blocked);
            }
            combo_out_free(&r);
        }
        if (rc == 1) {
            combo_shrink(&c);
            combo_ini(&c, ini, sizeof ini);
            combo_check(&c, why, sizeof why);
            printf("case %llu differs; the smallest failing scenario:\n%s\n%s\n", (unsigned long long)cases, ini,
                   why);
            combo_gen_free(g);
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    size_t covered, given_up, total;
    combo_gen_pairs(g, &covered, &given_up, &total);
    printf("seed %llu: %llu cases agree (%llu requests; %llu refused by the reader or outside the reference) "
           "in %.2f s; pairs of values: %zu covered, %zu never read, of %zu\n",
           (unsigned long long)seed, (unsigned long long)cases, (unsigned long long)requests,
           (unsigned long long)refused, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           covered, given_up, total);
    if (given_up) {
        printf("pairs never read (the reader refuses them, or the reference leaves them out):\n");
        combo_gen_print_given_up(g, stdout);
    }
    combo_gen_free(g);
    return 0;
}
