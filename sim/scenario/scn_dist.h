/* scn_dist.h - a distribution read from a section: [service], and every
 * NAME_distribution with its NAME_ parameters (a tester's think_, a random
 * stall's length_). Internal to the scenario reader.
 */
#ifndef COSIM_SCN_DIST_H
#define COSIM_SCN_DIST_H

#include "dist.h"
#include "scn_keys.h"

/**
 * Read PREFIXdistribution and its parameters (the rows of [service] in
 * scn_keys.def, each key with the prefix) into d, and check them
 * (dist_check). An empirical distribution is read from its file, for
 * [service] only (prefix ""): the values go to the scenario
 * (service_values).
 *
 * @param prefix  "" for [service], "think_", "length_"
 * @return 0 or -1 (message set).
 */
int scn_dist_read(scn_ctx *c, dist_spec *d, const char *prefix);

/** The [service] section: its distribution, and no other key. @return 0 or -1 */
int scn_dist_service(scn_ctx *c);

#endif
