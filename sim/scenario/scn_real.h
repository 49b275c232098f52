/* scn_real.h - the real inputs a scenario names: stop-the-world pauses read
 * from a runtime's log ([stall NAME] kind = gc_log, gclog.h) and service
 * times drawn from a measured HdrHistogram ([service] distribution =
 * histogram, hgrm.h and hlog.h). Internal to the scenario reader;
 * docs/real-inputs.md is the user's guide.
 */
#ifndef COSIM_SCN_REAL_H
#define COSIM_SCN_REAL_H

#include "names.h"
#include "scn_keys.h"
#include "stall.h"

#include <stdint.h>

/** [stall] format: "auto", "jdk", "jdk8", "go", "hlog" (indexed by
 *  gclog_format; "auto" is GCLOG_UNKNOWN: detect it). */
extern const names_table scn_gclog_format_names;
/** [stall] source: "auto", "gc", "safepoint" (indexed by gclog_source). */
extern const names_table scn_gclog_source_names;
/** strict: "true", "false" (index 0 is true). */
extern const names_table scn_strict_names;
/** unit of a file without units (HdrHistogram's): "ns", "us", "ms". */
extern const names_table scn_unit_names;
/** What one unit of scn_unit_names is worth in ns: 1, 1000, 1000000. */
int64_t scn_unit_ns(int unit);

/** tag = NAME of an .hlog's series into *tag (NULL when absent; the
 *  value lives as long as the scenario file's entries). 0 or -1 (message
 *  set: a tag with a comma or blank). */
int scn_read_tag(scn_ctx *c, const char **tag);

/**
 * kind = gc_log: read the log named by `file` with the section's options
 * (format, source, offset, log_window, min_pause, scale, unit) into st as
 * a windows stall; the result (for the report's pause summary) is kept in
 * c->s->stall_log[index of st].
 *
 * @return 0 or -1 (message set: "FILE:LINE: reason" for the log's lines,
 *         "WHERE: [stall NAME] key = value: reason" for the keys).
 */
int scn_gclog_read(scn_ctx *c, stall_spec *st);

/**
 * distribution = histogram in [service]: the .hgrm or .hlog named by
 * `file`, its values in `unit` (required: HdrHistogram files carry none),
 * into d (the distribution is owned by c->s->service_hist).
 *
 * @return 0 or -1 (message set).
 */
int scn_hist_read(scn_ctx *c, dist_spec *d);

#endif
