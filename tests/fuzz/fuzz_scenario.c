/* fuzz_scenario - a fuzz target for the scenario reader.
 *
 * Built two ways:
 *  - with libFuzzer (tests/fuzz/run.sh): clang -fsanitize=fuzzer,address,
 *    LLVMFuzzerTestOneInput gets mutated inputs;
 *  - as a plain program (the test suite): main() feeds every file named on
 *    the command line, or every file in a folder, through the same function,
 *    so the kept corpus and every crash ever found stay regression tests.
 * Each input is parsed as a scenario file; if it loads, its testers are run
 * if it plans at most 200,000 requests a tester and 10 s (the engine is
 * fuzzed too, cheaply).
 */
#define _POSIX_C_SOURCE 200809L
#include "rng.h"
#include "run.h"
#include "scenario.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rng_init();
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    const char *sets[] = {"scenario.max_requests=200000"};
    char err[1024];
    scenario *s = NULL;
    /* the fuzzed file may set its own max_requests: the --set wins */
    if (scenario_load_stream(&s, f, "fuzz.ini", sets, 1, err, sizeof err) == SCENARIO_OK) {
        if (s->duration_ns <= (int64_t)10 * 1000000000) {
            run_result r;
            if (run_scenario(s, &r, err, sizeof err) == 0)
                run_result_free(&r);
        }
        scenario_free(s);
    }
    fclose(f);
    return 0;
}

#ifndef COSIM_LIBFUZZER
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_scenario: cannot read %s\n", path);
        return 1;
    }
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            while (d && (e = readdir(d)) != NULL) {
                if (e->d_name[0] == '.')
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                bad |= run_file(path);
                count++;
            }
            if (d)
                closedir(d);
        } else {
            bad |= run_file(argv[i]);
            count++;
        }
    }
    printf("fuzz_scenario: %d inputs, no crash\n", count);
    return bad || count == 0;
}
#endif
