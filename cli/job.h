/* job.h - the steps of one scenario's run (cli/job.c), shared by a plain
 * run (cli/main.c) and `cosim lecture` (cli/lecture.c). Not part of
 * libcosim. */
#ifndef COSIM_CLI_JOB_H
#define COSIM_CLI_JOB_H

#include "options.h"
#include "outputs.h"

/**
 * Check the seeds and the whole job's work before anything starts.
 * @return the exit code: COSIM_EXIT_OK, or another after a message
 */
int job_check(const options *o, const scenario *s, chart_data *cd);

/** The charts asked for, their style scripts, and the time windows. */
void job_choose_charts(const options *o, const scenario *s, chart_data *cd);

/**
 * Simulate the scenario (and --replications) with the charts' observers.
 * @return 0, or -1 after a message (exit COSIM_EXIT_SIM)
 */
int job_simulate(const options *o, const scenario *s, chart_data *cd, run_result *r);

#endif
