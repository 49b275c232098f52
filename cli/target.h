/* target.h - `cosim target SCENARIO.ini`: a real HTTP/1.1 keep-alive
 * server on the loopback interface that plays the scenario's server in
 * real time (its service times, its workers, its stop-the-world windows),
 * so that a real load tool can be held against cosim's prediction
 * (docs/real-tools.md). It is outside the engine: the simulation never
 * runs it, and what it measures is the real machine's, not deterministic.
 */
#ifndef COSIM_TARGET_H
#define COSIM_TARGET_H

/**
 * Run the target (argv[0] is "target").
 *
 * @return an exit code of exitcode.h: 0 after a run that ended at its
 *         duration (or on SIGINT/SIGTERM), its stall log written;
 *         COSIM_EXIT_USAGE for a bad option (a non-loopback --bind among
 *         them); COSIM_EXIT_SCENARIO for a scenario it cannot play (a
 *         random stall, a preemption other than resume);
 *         COSIM_EXIT_OUTPUT when the port or the stall log cannot be had;
 *         COSIM_EXIT_SIM when memory runs out.
 */
int target_main(int argc, char **argv);

#endif
