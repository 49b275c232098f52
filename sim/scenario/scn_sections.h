/* scn_sections.h - the interpreters of the sections without kinds:
 * [scenario], [truth] and [expect NAME]. Internal to the scenario reader
 * ([service] is in scn_dist.h, [stall] in scn_stall.h, [tester] in
 * scn_tester.h).
 */
#ifndef COSIM_SCN_SECTIONS_H
#define COSIM_SCN_SECTIONS_H

#include "scn_keys.h"

/* The hooks of [scenario]'s and [truth]'s rows (scn_keys.def, DEST): each
 * reads its key from c's section into base, the scenario, with the checks
 * that tie it to other keys (hlog_interval and chart_window to duration,
 * [truth] interval to max_requests, load to the testers) or a reading of
 * its own (name, title, generator). @return 0, or -1 with the message
 * given */
int scn_sections_name(scn_ctx *c, const scn_key *k, void *base);
int scn_sections_title(scn_ctx *c, const scn_key *k, void *base);
int scn_sections_generator(scn_ctx *c, const scn_key *k, void *base);
int scn_sections_chart_window(scn_ctx *c, const scn_key *k, void *base);
int scn_sections_hlog_interval(scn_ctx *c, const scn_key *k, void *base);
int scn_sections_truth_interval(scn_ctx *c, const scn_key *k, void *base);
int scn_sections_truth_load(scn_ctx *c, const scn_key *k, void *base);

/** [scenario]: name, title, duration, seed, ... (scn_keys.def). @return 0 or -1 */
int scn_sections_scenario(scn_ctx *c);

/** [truth] interval = 100us (the mean gap of Poisson probes), load =
 *  TESTER | none (default: the first open tester, else none). Read after
 *  the testers. @return 0 or -1 */
int scn_sections_truth(scn_ctx *c);

/**
 * [expect NAME]: the figures tester NAME must show (scn_expect_parse_key and
 * scn_expect_parse_value), appended to c->s->expects (which has room for every
 * line). Read after the testers. @return 0 or -1
 */
int scn_sections_expect(scn_ctx *c, const char *name);

#endif
