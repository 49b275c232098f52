/* main.c - the cosim command line: a thin layer over libcosim. main picks
 * the command; run does one scenario's job (load, check, simulate, report,
 * write) with the options (options.c), the job's steps (job.c) and the
 * output folder (outputs.c). Exit codes from exitcode.h. */
#define _POSIX_C_SOURCE 200809L
#include "band.h"
#include "exitcode.h"
#include "job.h"
#include "lecture.h"
#include "expect.h"
#include "options.h"
#include "outdir.h"
#include "outputs.h"
#include "report.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"
#include "sweep_cli.h"
#include "target.h"
#include "compare.h"
#include "timeline.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef COSIM_VERSION
#define COSIM_VERSION "0.1.0"
#endif

/* Load, simulate, report, write: the whole job for parsed options. The
 * exit code. */
static int run(const options *o)
{
    int exit_code;
    scenario *s = options_load_scenario(o, &exit_code);
    if (!s)
        return exit_code;
    chart_data cd;
    memset(&cd, 0, sizeof cd);
    if ((exit_code = job_check(o, s, &cd)) != COSIM_EXIT_OK) {
        scenario_free(s);
        return exit_code;
    }
    job_choose_charts(o, s, &cd);
    /* the output folder is taken before the run, so a refusal costs nothing */
    outdir *d = NULL;
    char dir[PATH_MAX];
    int writes = !o->check || o->output; /* --check alone writes no folder */
    if (writes && outputs_open(o, s, &d, dir, sizeof dir) != COSIM_EXIT_OK) {
        scenario_free(s);
        return COSIM_EXIT_OUTPUT;
    }
    run_result r;
    if (job_simulate(o, s, &cd, &r)) {
        outdir_close(d);
        timeline_free(cd.timeline);
        timeline_free(cd.bars);
        scenario_free(s);
        return COSIM_EXIT_SIM;
    }
    if (!o->quiet && (report_text(stdout, s, &r) || (cd.band && band_report(cd.band, stdout, s)))) {
        fprintf(stderr, "cosim: cannot write the summary to standard output\n");
        exit_code = COSIM_EXIT_OUTPUT;
    }
    if (o->check) {
        if (!o->quiet)
            putchar('\n');
        size_t misses = expect_check(stdout, stderr, s, &r);
        fflush(stdout);
        if (misses && exit_code == COSIM_EXIT_OK)
            exit_code = COSIM_EXIT_CHECK;
    }
    if (writes)
        exit_code = outputs_write_run(o, s, &r, &cd, d, dir, exit_code);
    band_free(cd.band);
    timeline_free(cd.timeline);
    timeline_free(cd.bars);
    run_result_free(&r);
    scenario_free(s);
    return exit_code;
}

/* The exit code once standard output is flushed: a table, a help text or
 * a 'wrote' line that could not be written (a full disk, a closed stdout)
 * is a failure (exit 4), never a silent success. */
static int flush_stdout(int exit_code)
{
    errno = 0;
    int bad = fflush(stdout) != 0, e = errno;
    if ((bad || ferror(stdout)) && exit_code == COSIM_EXIT_OK) {
        if (bad && e)
            fprintf(stderr, "cosim: cannot write to standard output: %s\n", strerror(e));
        else
            fprintf(stderr, "cosim: cannot write to standard output\n");
        return COSIM_EXIT_OUTPUT;
    }
    return exit_code;
}

/* The commands, for "did you mean". */
static const char *const commands[] = {"sweep", "lecture"};

/* The Levenshtein distance of a and b (insert, delete, replace a byte),
 * capped at 9: strings longer than 16 bytes count as far. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), row[17];
    if (na > 16 || nb > 16)
        return 9;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb] > 9 ? 9 : row[nb];
}

/* A first word that is no option, no file and no shipped scenario, but
 * one or two edits from a command ("swep"): say which was meant rather
 * than read it as a scenario. COSIM_EXIT_USAGE after the message, or
 * COSIM_EXIT_OK when the word is not such a slip. */
static int misspelt_command(const char *word)
{
    char found[SCENARIO_PATH_MAX + 1];
    if (word[0] == '-' || strchr(word, '/') || strchr(word, '.') ||
        options_scenario_path(word, found, sizeof found) != word || access(word, F_OK) == 0)
        return COSIM_EXIT_OK;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t d = edit_distance(word, commands[i]);
        if (d > 0 && d <= 2) {
            fprintf(stderr, "cosim: %s: no such command, file or shipped scenario; did you mean 'cosim %s'? "
                            "(try 'cosim --help')\n", word, commands[i]);
            return COSIM_EXIT_USAGE;
        }
    }
    return COSIM_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc > 1 && misspelt_command(argv[1]) != COSIM_EXIT_OK)
        return COSIM_EXIT_USAGE;
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return flush_stdout(sweep_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "lecture") == 0)
        return flush_stdout(lecture_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "target") == 0)
        return flush_stdout(target_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "compare") == 0)
        return flush_stdout(compare_main(argc - 1, argv + 1));
    if (argc > 1 && strcmp(argv[1], "baseline") == 0)
        return flush_stdout(baseline_main(argc - 1, argv + 1));
    options o;
    memset(&o, 0, sizeof o);
    rng_init();
    int exit_code = COSIM_EXIT_OK;
    if (options_parse(argc, argv, &o)) {
        fprintf(stderr, "cosim: try 'cosim --help'\n");
        exit_code = COSIM_EXIT_USAGE;
    } else if (o.help) {
        options_usage(stdout);
    } else if (o.version) {
        printf("cosim %s\n", COSIM_VERSION);
    } else if (o.list_keys) {
        exit_code = scenario_list_keys(stdout) ? COSIM_EXIT_OUTPUT : COSIM_EXIT_OK;
    } else {
        exit_code = run(&o);
    }
    options_free(&o);
    return flush_stdout(exit_code);
}
