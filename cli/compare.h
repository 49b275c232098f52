/* compare.h - `cosim compare SCENARIO.ini TESTER=FILE ...` (what a real
 * tool wrote beside cosim's prediction for that tester, figure by figure)
 * and `cosim baseline TOOL FILE` (a tool's no-stall output turned into
 * service times); docs/real-tools.md. */
#ifndef COSIM_COMPARE_H
#define COSIM_COMPARE_H

/**
 * `cosim compare` (argv[0] is "compare").
 * @return 0; COSIM_EXIT_USAGE (bad options, an unknown tester name);
 *         COSIM_EXIT_SCENARIO (the scenario, or a tool's file that cannot
 *         be read: "FILE:LINE: what was expected"); COSIM_EXIT_SIM (the run
 *         could not be made, the work budget).
 */
int compare_main(int argc, char **argv);

/**
 * `cosim baseline TOOL FILE` (argv[0] is "baseline"): the latencies of a
 * no-stall run as an `empirical` service file on stdout.
 * @return 0; COSIM_EXIT_USAGE; COSIM_EXIT_SCENARIO (a file that cannot
 *         be read, or one that holds no list of latencies).
 */
int baseline_main(int argc, char **argv);

#endif
