/* scn_tester.h - the [tester NAME] sections of a scenario. Internal to the
 * scenario reader.
 */
#ifndef COSIM_SCN_TESTER_H
#define COSIM_SCN_TESTER_H

#include "scn_keys.h"

/** The hook of [tester]'s label row (scn_keys.def): at most
 *  TESTER_LABEL_MAX bytes, into base's label. @return 0, or -1 with the
 *  message given */
int scn_tester_label(scn_ctx *c, const scn_key *k, void *base);

/** The hook of [tester]'s client_time row: a duration of at most
 *  TESTER_MAX_CLIENT_NS into base's client_ns. @return 0, or -1 with the
 *  message given */
int scn_tester_client_time(scn_ctx *c, const scn_key *k, void *base);

/**
 * Read the current section into the scenario's next tester (c->s->testers
 * has room: scenario.c counts the sections first), with the checks that
 * need only the section: users x interval within the clock, connections at
 * most users, latency_from with next_slot, corrected with catch_up
 * (MODEL.md, "The testers").
 * @param name  the tester's NAME
 * @return 0 or -1 (message set).
 */
int scn_tester_read(scn_ctx *c, const char *name);

#endif
