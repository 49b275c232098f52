/* fuzz_scenario - a fuzz target for everything cosim reads: the command
 * line, --set values, the scenario file and its data files.
 *
 * An input is split at lines "----" into up to four parts:
 *   1. the command line, one word a line ("--seed", "7", "--set",
 *      "tester.open.rate=2/s", ...); the scenario's path is added last. A
 *      first word "sweep" makes it a cosim sweep command line;
 *   2. the scenario file (scenario.ini);
 *   3. service.txt, 4. stalls.csv: data files in the scenario's folder,
 *      for "file = service.txt" and "file = stalls.csv".
 * An input without a "----" line is a scenario file alone (the corpus kept
 * from the first target stays valid).
 * A first word "reader" fuzzes one real-input reader on part 3 (written
 * to service.txt and read from there, as a scenario's file is): the next
 * word names it ("gclog", "hgrm" or "hlog"), then options "strict=0",
 * "tag=NAME", "unit=NS"; the seeds are tests/inputs' damaged files.
 * The command line goes through the CLI's own options_parse and
 * options_load_scenario (cli/options.c), or sweep_check_args; a
 * scenario that loads is run when it is small (at most 200,000 requests a
 * tester, 10 s, no tiny stall periods), so the engine is fuzzed too.
 *
 * Built two ways:
 *  - with libFuzzer (tests/fuzz/run.sh): clang -fsanitize=fuzzer,address,
 *    undefined; LLVMFuzzerTestOneInput gets mutated inputs;
 *  - as a plain program (the test suite): main() feeds every file named on
 *    the command line, or every file in a folder, through the same function,
 *    so the kept corpus and every crash ever found stay regression tests.
 */
#define _POSIX_C_SOURCE 200809L
#include "gclog.h"
#include "hgrm.h"
#include "hlog.h"
#include "options.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"
#include "sweep_cli.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 40
#define FUZZ_MAX_REQUESTS 200000

static char dir[64];

/* Remove the parts' folder at the end. */
static void remove_dir(void)
{
    static const char *const names[] = {"scenario.ini", "service.txt", "stalls.csv"};
    if (!dir[0])
        return;
    for (int k = 0; k < 3; k++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
    rmdir(dir);
}

/* The folder the parts are written to, made once per process (and
 * removed when it exits). */
static const char *fuzz_dir(void)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/cosim-fuzz-XXXXXX");
        if (!mkdtemp(dir))
            dir[0] = '\0';
        else
            atexit(remove_dir);
    }
    return dir[0] ? dir : NULL;
}

static int write_part(const char *name, const char *text, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fwrite(text, 1, len, f);
    return fclose(f);
}

/* Whether the loaded scenario is cheap enough to run here. */
static int small_enough(scenario *s)
{
    const int64_t limit_ns = (int64_t)10 * 1000000000;
    if (s->duration_ns > limit_ns)
        return 0;
    if (s->truth_interval_ns && s->duration_ns / s->truth_interval_ns > FUZZ_MAX_REQUESTS)
        return 0;
    /* the longest work a request can bring (the service's cap is 10^6 s),
     * which the server walks window by window: at most 10^6 windows */
    double work = 1e15;
    if (s->service.kind == DIST_CONSTANT)
        work = (double)s->service.a_ns;
    else if (s->service.kind == DIST_UNIFORM)
        work = (double)s->service.b_ns;
    for (size_t i = 0; i < s->n_stalls; i++)
        if (s->stalls[i].kind == STALL_REQUESTS)
            work += (double)s->stalls[i].extra_ns;
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (st->kind == STALL_PERIODIC &&
            (s->duration_ns / st->period_ns > FUZZ_MAX_REQUESTS || work / (double)st->period_ns > 1e6))
            return 0;
        if (st->kind == STALL_RANDOM &&
            (s->duration_ns / st->mean_gap_ns > FUZZ_MAX_REQUESTS || work / (double)st->mean_gap_ns > 1e6))
            return 0;
    }
    if (s->max_requests > FUZZ_MAX_REQUESTS)
        s->max_requests = FUZZ_MAX_REQUESTS; /* a bigger run stops with E2BIG */
    return 1;
}

static int merge_interval(void *ctx, const hlog_interval *iv, const char **why)
{
    return hlog_merge_add(ctx, &iv->hist, why);
}

/* One real-input reader (argv[2]) on the file at path, with the options
 * argv[3..argc): what it reads is used as a scenario would use it (the
 * summary, draws, the merged distribution). */
static void fuzz_reader(int argc, char **argv, const char *path)
{
    int strict = 1;
    const char *tag = NULL;
    int64_t unit = 1;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "strict=0") == 0)
            strict = 0;
        else if (strncmp(argv[i], "tag=", 4) == 0)
            tag = argv[i] + 4;
        else if (strncmp(argv[i], "unit=", 5) == 0 && strlen(argv[i]) < 13)
            unit = strtoll(argv[i] + 5, NULL, 10);
    }
    char err[1024], buf[1024];
    if (strcmp(argv[2], "gclog") == 0) {
        gclog_options o;
        gclog_options_default(&o);
        o.strict = strict;
        o.tag = tag;
        o.hlog_unit_ns = unit > 0 ? unit : 1;
        gclog_result *r;
        if (gclog_read(&r, path, &o, err, sizeof err) == 0) {
            gclog_summary(r, INT64_C(10000000000), buf, sizeof buf);
            textin_account_describe(&r->lines, path, buf, sizeof buf);
            gclog_free(r);
        }
        return;
    }
    char *text;
    size_t len;
    if (unit < 1 || textin_read_file(path, &text, &len, err, sizeof err))
        return;
    hgrm_dist *d = NULL;
    if (strcmp(argv[2], "hgrm") == 0) {
        hgrm_parse(&d, path, text, len, unit, -1, err, sizeof err);
    } else if (strcmp(argv[2], "hlog") == 0) {
        hlog_merge m = {0};
        hlog_read_options ho = {.one_series = 1, .tag = tag, .strict = strict, .on_interval = merge_interval,
                                .ctx = &m};
        hlog_log *log = NULL;
        if (hlog_parse_with(&log, path, text, len, &ho, err, sizeof err) == 0)
            hlog_merge_dist(&m, unit, &d);
        hlog_log_free(log);
        hlog_merge_clear(&m);
    }
    if (d) {
        for (int i = 0; i < 8; i++)
            hgrm_draw(d, i / 8.0);
        hgrm_draw_mean(d);
        hgrm_free(d);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rng_init();
    if (!fuzz_dir())
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* the parts: the text between lines "----" */
    char *part[4] = {NULL, NULL, NULL, NULL};
    size_t plen[4] = {0, 0, 0, 0};
    size_t start = 0, i = 0;
    int k = 0;
    while (i < size) {
        size_t e = i;
        while (e < size && text[e] != '\n')
            e++;
        if (k < 3 && e - i == 4 && memcmp(text + i, "----", 4) == 0) {
            part[k] = text + start;
            plen[k++] = i - start;
            start = e < size ? e + 1 : size;
        }
        i = e + 1;
    }
    part[k] = text + start;
    plen[k] = size - start;
    if (k == 0) { /* no "----": a scenario file alone */
        part[1] = part[0];
        plen[1] = plen[0];
        part[0] = NULL;
        plen[0] = 0;
    }
    write_part("scenario.ini", part[1] ? part[1] : "", plen[1]);
    write_part("service.txt", part[2] ? part[2] : "", plen[2]);
    write_part("stalls.csv", part[3] ? part[3] : "", plen[3]);

    /* the command line: "cosim" WORDS... SCENARIO */
    char path[128];
    snprintf(path, sizeof path, "%s/scenario.ini", dir);
    char *argv[MAX_WORDS + 3];
    int argc = 0;
    argv[argc++] = "cosim";
    char *words = part[0] ? strndup(part[0], plen[0]) : NULL;
    for (char *save = NULL, *w = words ? strtok_r(words, "\n", &save) : NULL; w && argc < MAX_WORDS + 1;
         w = strtok_r(NULL, "\n", &save))
        argv[argc++] = w;
    argv[argc++] = path;
    argv[argc] = NULL;

    if (argc > 3 && strcmp(argv[1], "reader") == 0) {
        char data_path[128];
        snprintf(data_path, sizeof data_path, "%s/service.txt", dir);
        argv[argc - 1] = NULL; /* the scenario's path: not an option */
        fuzz_reader(argc - 1, argv, data_path);
    } else if (argc > 2 && strcmp(argv[1], "sweep") == 0) {
        sweep_check_args(argc - 1, argv + 1);
    } else {
        options o;
        memset(&o, 0, sizeof o);
        int rc;
        scenario *s;
        if (options_parse(argc, argv, &o) == 0 && !o.help && !o.version && !o.list_keys &&
            (s = options_load_scenario(&o, &rc))) {
            char err[1024];
            run_result r;
            if (small_enough(s) && run_scenario(s, &r, err, sizeof err) == 0)
                run_result_free(&r);
            scenario_free(s);
        }
        options_free(&o);
    }
    free(words);
    free(text);
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
