/* sweep_cli.h - the cosim sweep command (cli/sweep_cli.c), over the
 * library's sweep.h. Not part of libcosim. */
#ifndef COSIM_SWEEP_CLI_H
#define COSIM_SWEEP_CLI_H

/**
 * What cosim sweep does with its command line before it runs anything:
 * parse every option (--vary values generated and checked) and read the
 * scenario at the first and the last point. Runs nothing, writes nothing
 * (for the fuzz target, which feeds it any command line).
 *
 * @param argc,argv  as for sweep_main (argv[0] is "sweep")
 * @return 0 when the sweep would start, else the exit code sweep_main
 *         would give (exitcode.h), after the message.
 */
int sweep_check_args(int argc, char **argv);

/**
 * The cosim sweep command: argv[0] is "sweep". Prints usage on --help.
 * @return the process exit code (exitcode.h).
 */
int sweep_main(int argc, char **argv);

#endif
