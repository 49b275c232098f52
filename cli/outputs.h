/* outputs.h - the output folder of a cosim run (cli/outputs.c): writing,
 * rendering and committing every file (the chart table is charts.h). Not
 * part of libcosim. */
#ifndef COSIM_CLI_OUTPUTS_H
#define COSIM_CLI_OUTPUTS_H

#include "charts.h"
#include "options.h"
#include "outdir.h"
#include "run.h"
#include "scenario.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * Take the output folder before the run: refused folders fail fast, and a
 * second writer learns at once.
 *
 * @param o       the options (-o, --force, the scenario's path)
 * @param s       the scenario (its name for the default folder)
 * @param d       the open folder (outdir_close it), NULL on failure
 * @param dir     gets the folder's name (dirlen bytes)
 * @return the exit code: COSIM_EXIT_OK, or COSIM_EXIT_OUTPUT after a message
 */
int outputs_open(const options *o, const scenario *s, outdir **d, char *dir, size_t dirlen);

/**
 * Stage a run's files in d without committing: summary.json, summary.md,
 * summary.csv, the .hgrm spectra, each drawn chart's .dat and .gp, and the
 * charts gnuplot renders (each checked complete).
 *
 * @param charts      gets each chart's file name (chart_kinds order; "" for
 *                    a chart not drawn)
 * @param no_gnuplot  set when gnuplot is missing (the charts not rendered)
 * @param drawn       gets ", NAME" for each chart rendered (drawnlen bytes)
 * @param err         on failure, "DIR/NAME: reason"
 * @return 0, or -1 (err says why; nothing committed)
 */
int outputs_stage(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                  char charts[N_CHARTS + 1][64], int *no_gnuplot, char *drawn, size_t drawnlen, char *err,
                  size_t errlen);

/**
 * The output folder of a run: files and charts staged (each chart checked
 * complete), then committed all at once, or nothing changes. Closes d.
 *
 * @param exit_code  the exit code so far
 * @return the exit code, given the one so far
 */
int outputs_write_run(const options *o, const scenario *s, const run_result *r, chart_data *cd, outdir *d,
                      const char *dir, int exit_code);

#endif
