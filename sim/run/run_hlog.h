/* run_hlog.h - each tester's recorded latencies as an HdrHistogram interval
 * log (TESTER.hlog), one interval every [scenario] hlog_interval, so
 * HistogramLogAnalyzer and HistogramLogProcessor open a cosim run like a
 * measured one (hlog.h is the format).
 *
 * A value belongs to the interval holding the instant the tester recorded
 * it: its reply time (a corrected tester's added values with the reply
 * they come from). Intervals are [k I, (k + 1) I) from 0 to the duration,
 * the last one cut at the duration; replies recorded after the duration
 * (in_flight_at_end = record) form one more interval, from the duration to
 * the last of them. Every interval is written, empty or not, as
 * HistogramLogWriter does. The sum of a tester's intervals is its whole
 * histogram: the same count, and under nearest_rank the same percentiles
 * as summary.json and TESTER.hgrm (HdrHistogram reports a bucket's upper
 * edge, cosim the maximum itself when it lies in that bucket).
 *
 * Memory: 8 bytes per recorded request of the tester running (its values
 * are kept until its run ends, then encoded); the log text after that.
 */
#ifndef COSIM_RUN_HLOG_H
#define COSIM_RUN_HLOG_H

#include "run.h"
#include "scenario.h"
#include "tester.h"

#include <stddef.h>

/** Most intervals a run may be cut into (duration / hlog_interval). */
#define RUN_HLOG_MAX_INTERVALS SCENARIO_HLOG_MAX_INTERVALS

typedef struct run_hlog run_hlog;

/**
 * Start collecting the intervals of s's testers (s->hlog_interval_ns > 0).
 * @return 0, -EINVAL (no interval, or more than RUN_HLOG_MAX_INTERVALS),
 *         -ENOMEM.
 */
int run_hlog_new(run_hlog **out, const scenario *s);

/** A request of tester `tester` (run_observer's arguments); requests of
 *  the ground truth's run (tester == s->n_testers) and dropped ones are
 *  not recorded. Running out of memory is kept for run_hlog_tester_done. */
void run_hlog_observe(run_hlog *h, size_t tester, const tester_request *rq);

/**
 * Tester `tester` has finished: encode its intervals (its values as its
 * kind records them, the correction included) and free them.
 *
 * @param res  its result: the intervals' total count must equal its
 *             histogram's
 * @return 0, -ENOMEM, -EPROTO when the counts differ (a defect), -EIO.
 */
int run_hlog_tester_done(run_hlog *h, size_t tester, const tester_result *res);

/** Free h; run_hlog_free(NULL) does nothing. */
void run_hlog_free(run_hlog *h);

/**
 * The encoded interval lines of tester `tester` (run_hlog_tester_done's
 * text, without the log's header), for an outputs writer to put after
 * hlog_write_header (outputs/report.h, report_hlog).
 *
 * @param h    the run's log (run_result.hlog), or NULL
 * @param len  receives the text's length in bytes (0 when there is none)
 * @return the text (owned by h, valid until run_hlog_free), or NULL when h
 *         is NULL or the tester has none.
 */
const char *run_hlog_text(const run_hlog *h, size_t tester, size_t *len);

#endif
