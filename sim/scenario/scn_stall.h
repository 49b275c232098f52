/* scn_stall.h - the [stall NAME] sections of a scenario. Internal to the
 * scenario reader.
 */
#ifndef COSIM_SCN_STALL_H
#define COSIM_SCN_STALL_H

#include "names.h"
#include "scn_keys.h"

/** The forms of [stall] kind that are not a stall_kind of their own. */
typedef enum scn_stall_form {
    SCN_STALL_FORM_FILE = 0, /**< "file": windows from a CSV (STALL_WINDOWS) */
    SCN_STALL_FORM_GC_LOG,   /**< "gc_log": pauses from a runtime's log (STALL_WINDOWS) */
} scn_stall_form;

/** Their words, indexed by scn_stall_form: the key table lists them after
 *  stall_kind_names. */
extern const names_table scn_stall_forms;

/* The hooks of [stall]'s rows (scn_keys.def, DEST): windows and requests
 * (lists), length_distribution (a distribution, checked against every and
 * max_requests); base is the stall_spec. @return 0, or -1 with the message
 * given */
int scn_stall_windows(scn_ctx *c, const scn_key *k, void *base);
int scn_stall_requests(scn_ctx *c, const scn_key *k, void *base);
int scn_stall_length_dist(scn_ctx *c, const scn_key *k, void *base);

/**
 * Read the current section into the scenario's next stall (c->s->stalls
 * has room: scenario.c counts the sections first).
 * @param name  the stall's NAME
 * @return 0 or -1 (message set).
 */
int scn_stall_read(scn_ctx *c, const char *name);

#endif
