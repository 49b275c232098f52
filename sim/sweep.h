/* sweep.h - run a scenario over a grid of values and seeds (cosim sweep).
 *
 * A sweep varies scenario keys over ranges (--vary KEY=FROM..TO:STEPS for
 * linear steps, KEY=FROM..TO*FACTOR for geometric ones), runs each point
 * with N seeds derived from the base seed (seed + r), and reports per point
 * and tester the mean over the seeds of each percentile with a 95%
 * confidence interval (Student's t: mean +- t(0.975, N-1) sd / sqrt(N)).
 * Points run in worker processes (--jobs); every result is put back in
 * point order, so the files are the same whatever the number of workers.
 */
#ifndef COSIM_SWEEP_H
#define COSIM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

/** One --vary: the key and its values as scenario text. */
typedef struct sweep_axis {
    char key[128];       /**< SECTION.KEY, as for --set */
    char **values;       /**< the values, each with its unit */
    size_t n_values;
} sweep_axis;

/**
 * Parse "KEY=FROM..TO:STEPS" (STEPS >= 2 values, evenly spaced) or
 * "KEY=FROM..TO*FACTOR" (FROM, FROM x FACTOR, ... up to TO). FROM and TO
 * carry the same unit ("100/s..900/s:5", "1ms..64ms*2").
 *
 * @param err  on error, a message naming what to fix
 * @return 0 or -EINVAL.
 */
int sweep_axis_parse(const char *text, sweep_axis *out, char *err, size_t errlen);

/** Free an axis's values. */
void sweep_axis_free(sweep_axis *a);

/** Most --set of a sweep. */
#define SWEEP_MAX_SETS 48

/**
 * What cosim sweep does with its command line before it runs anything:
 * parse every option (--vary values generated and checked) and read the
 * scenario at the first and the last point. Runs nothing, writes nothing
 * (for the fuzz target, which feeds it any command line).
 *
 * @param argc,argv  as for sweep_main (argv[0] is "sweep")
 * @return 0 when the sweep would start, else the exit status sweep_main
 *         would give (2 usage, 3 scenario, 5 memory), after the message.
 */
int sweep_check_args(int argc, char **argv);

/**
 * The cosim sweep command: argv[0] is "sweep". Prints usage on --help.
 * @return the process exit status (0, 2 usage, 3 scenario, 4 output, 5 run).
 */
int sweep_main(int argc, char **argv);

#endif
