/* report.h - what a run prints and writes: the text summary, summary.json and
 * one .hgrm percentile spectrum per tester.
 */
#ifndef COSIM_REPORT_H
#define COSIM_REPORT_H

#include "hist.h"
#include "run.h"
#include "scenario.h"

#include <stdio.h>

/**
 * The text summary (stdout): a header naming the scenario, seed, service,
 * stalls, rank rule and end-of-run rule; a table of counts per tester
 * (planned, sent, in flight at the end, recorded, over the threshold); a
 * table of latencies (mean, p50, p90, p99, p99.9, p99.99, max) with units;
 * the truth and each tester's error against it, with a note for each
 * compared level that sits on a cliff (REPORT_CLIFF_FACTOR); then notes: a
 * figure that is a histogram bucket's upper edge coarser than its printed
 * digits (once, with the first such figure), blocked sends,
 * overloaded testers (offered utilisation >= 1, or a backlog still growing
 * at the end) and replies dropped at the end that were the largest values.
 *
 * @return 0, or -EIO if writing failed.
 */
int report_text(FILE *f, const scenario *s, const run_result *r);

/** A compared percentile sits on a cliff when the values at the levels
 *  whose tails are 5/4 and 4/5 of its own (p98.75 and p99.2 around p99)
 *  differ by more than this factor (report_text's cliff note). */
#define REPORT_CLIFF_FACTOR 2.0

/**
 * summary.json: scenario, title, seed, rank_rule, duration_ns,
 * in_flight_at_end, sub_bucket_bits, service, stalls, and a testers array
 * (name, label (the legends' text: the tester's label, else its name),
 * kind, planned, sent, recorded, in_flight_at_end, min_ns, max_ns,
 * mean_ns, population_stddev_ns, threshold_ns, over_threshold, blocked,
 * blocked_ns, offered_utilisation (rate x mean service / workers, the
 * rate of a partly-open tester's requests: its session rate / (1 - p); null for
 * closed testers), busy_fraction (time worked within the run / its length),
 * overloaded, backlog_growing_at_end, dropped, drop_hides_largest, and when
 * replies were dropped dropped_max_ns and percentiles_with_dropped_ns;
 * percentiles_ns keyed "50", "90", "95", "99", "99.9", "99.99": the
 * LEVELS_JSON levels of levels.h), and the
 * truth (probe_instants, mean_interval_ns, load, probes, statistics).
 *
 * @return 0, -ENOMEM or -EIO.
 */
int report_json(FILE *f, const scenario *s, const run_result *r);

/**
 * A percentile spectrum in HdrHistogram's classic .hgrm layout (as
 * HdrHistogram_c's hdr_percentiles_print writes it): a header line, a blank
 * line, rows "Value Percentile TotalCount 1/(1-Percentile)" with 5 ticks per
 * half distance, a final 100% row without the last column, and the
 * Mean/StdDeviation, Max/Total count, Buckets/SubBuckets footer, and a line
 * naming the StdDeviation the population one. Values are in milliseconds
 * with 6 decimals (exact nanoseconds), the unit wrk2 and HdrHistogram's
 * HistogramLogProcessor write (outputValueUnitRatio 10^6 over ns), so
 * HdrHistogram's plotter draws cosim's spectra beside theirs on one axis
 * (docs/outputs.md). Row values follow
 * `rule`; under nearest_rank they are HdrHistogram's.
 *
 * @return 0 or -EIO.
 */
int report_hgrm(FILE *f, const hist *h, hist_rank_rule rule);

/**
 * Write tester `tester`'s TESTER.hlog: the interval log's header (format
 * 1.3, start time 0 so a run is reproducible, "cosim VERSION" as its tag)
 * then the intervals the run encoded (run_hlog.h says how they are cut).
 *
 * @param r       a run whose scenario has hlog_interval (r->hlog not NULL)
 * @param tester  the tester's index in r
 * @return 0, -EINVAL when the run kept no interval log, or -EIO.
 */
int report_hlog(FILE *f, const run_result *r, size_t tester);

/**
 * The kind column of the text summary: the kind, then what qualifies it
 * ("paced, next_slot, 50 users at 0.4/s each": a user's rate is the
 * tester's rate over its users, since they share its interval).
 *
 * @param buf,len  where the label goes (cut to fit)
 * @return buf
 */
const char *report_kind_label(const tester_spec *t, char *buf, size_t len);

/**
 * Write t to f with &, <, >, " and ' as character references, so any text
 * of a scenario shows as text and never as markup.
 */
void report_html_escape(FILE *f, const char *t);

/** Write s to f as a JSON string with quotes and escapes. */
void report_json_string(FILE *f, const char *s);

#endif
