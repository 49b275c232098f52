/* exitcode.h - cosim's exit codes, the one list (documented in
 * cosim --help, cosim sweep --help and docs/cosim.1). The command line
 * (cli/), the sweep and anything else that ends the process take them
 * from here; no code writes a bare number for one.
 */
#ifndef COSIM_EXITCODE_H
#define COSIM_EXITCODE_H

#include "scenario.h"

typedef enum cosim_exit {
    COSIM_EXIT_OK = 0,
    COSIM_EXIT_CHECK = 1,    /**< --check: an expectation was missed, or none to check */
    COSIM_EXIT_USAGE = 2,    /**< bad command line */
    COSIM_EXIT_SCENARIO = 3, /**< the scenario cannot be read or is wrong */
    COSIM_EXIT_OUTPUT = 4,   /**< an output could not be written, or the folder was refused */
    COSIM_EXIT_SIM = 5,      /**< the simulation could not run (limits, the work budget
                                  without --allow-long, memory) */
} cosim_exit;

/**
 * The exit code of a scenario that did not load: a bad --set is the
 * command line's (COSIM_EXIT_USAGE), no memory is COSIM_EXIT_SIM, anything
 * else the scenario's (COSIM_EXIT_SCENARIO).
 *
 * @param se  scenario_load's result, not SCENARIO_OK
 */
static inline cosim_exit cosim_exit_of_scenario(scenario_error se)
{
    return se == SCENARIO_EUSAGE ? COSIM_EXIT_USAGE : se == SCENARIO_ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
}

#endif
