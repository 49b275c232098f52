/* summary.h - a run's tables as Markdown, CSV and HTML, for slides and
 * worksheets: summary.md and summary.csv in every run's folder, and the
 * tables of `cosim lecture`'s pages.
 *
 * One row per tester (and one for the truth when the scenario has one);
 * the columns are those of the text summary: tester, kind, planned, sent,
 * in flight at the end, recorded, over the threshold, then the latencies
 * mean, p50, p90, p99, p99.9, p99.99 and max by the scenario's rank rule.
 */
#ifndef COSIM_SUMMARY_H
#define COSIM_SUMMARY_H

#include "run.h"
#include "scenario.h"

#include <stdio.h>

/**
 * summary.md: a heading with the scenario's title, a line with its seed,
 * service and stalls, and the table as a GitHub-flavoured Markdown table
 * (durations as the text summary prints them, e.g. "504.0ms"; '|' in a
 * title escaped).
 *
 * @return 0, or -EIO if writing failed.
 */
int summary_markdown(FILE *f, const scenario *s, const run_result *r);

/**
 * summary.csv: RFC 4180 CSV, a header row then one row per tester (and the
 * truth). One schema for every scenario (docs/outputs.md, column by
 * column): tester, label (the name when unset), kind, planned, sent,
 * in_flight, recorded, threshold_ms, over_threshold, mean_ms, one
 * pLEVEL_ms per LEVELS_TABLE level, max_ms. Counts are integers; durations are in milliseconds written
 * exactly from the nanoseconds (e.g. 504.000131; the mean rounded to the
 * nanosecond), header "NAME_ms"; a tester without samples has empty
 * latency cells; the truth row has empty count cells but recorded.
 *
 * @return 0, or -EIO if writing failed.
 */
int summary_csv(FILE *f, const scenario *s, const run_result *r);

/**
 * The table as an HTML <table class="summary"> (every text escaped with
 * report_html_escape), for the lecture pages.
 *
 * @return 0, or -EIO if writing failed.
 */
int summary_html(FILE *f, const scenario *s, const run_result *r);

#endif
