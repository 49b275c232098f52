/* realout.h - what a real load tool wrote, read into figures cosim can
 * hold its prediction against (`cosim compare`, `cosim baseline`;
 * docs/real-tools.md).
 *
 * Formats, told apart by their text (the first that matches):
 *  - hey `-o csv`: a header starting "response-time," and one line a
 *    request, its response time in seconds (hey prints 4 decimals: 0.1 ms);
 *  - ab `-g FILE`: a header "starttime\tseconds\tctime\tdtime\tttime\twait"
 *    and one line a request, ttime in whole ms;
 *  - ab `-e FILE`: "Percentage served,Time in ms" and the rows 0..100;
 *  - wrk `--latency`: the "Latency" line of "Thread Stats" (mean, max), the
 *    "Latency Distribution" rows (50, 75, 90, 99%), "N requests in"; with
 *    the block of scenarios/tools/wrk-histogram.lua after it (wrkhist.h),
 *    every figure from the whole corrected histogram, the count wrk's
 *    requests;
 *  - httperf's summary: "Total: connections C requests R replies P", the
 *    "Connection time [ms]: min .. avg .. max .. median .." line, and with
 *    `-v -v` its "Connection lifetime histogram" (1 ms bins);
 *  - k6 `--summary-export` JSON: metrics.http_req_duration's avg, med,
 *    p(90), p(99) and p(99.9) when summaryTrendStats asks for them, max (ms);
 *    metrics.http_reqs's count;
 *  - an HdrHistogram percentile spectrum (.hgrm, wrk2's --latency text):
 *    its Value column in `hgrm_unit_ns`;
 *  - an HdrHistogram interval log (.hlog): every interval together, its
 *    values in `hgrm_unit_ns`.
 * A list of latencies (hey, ab -g) gives every figure, at the list's
 * resolution; the others give what they print.
 */
#ifndef COSIM_REALOUT_H
#define COSIM_REALOUT_H

#include "hist.h"

#include <stddef.h>
#include <stdint.h>

/** The figures a comparison holds side by side, in the table's order. */
typedef enum realout_figure {
    RO_COUNT = 0, /**< requests recorded */
    RO_MEAN,
    RO_P50,
    RO_P90,
    RO_P99,
    RO_P999,
    RO_MAX,
    RO_OVER,      /**< values over the threshold */
    RO_N_FIGURES,
} realout_figure;

/** A tool's output, read. */
typedef struct realout {
    const char *format;     /**< "hey -o csv", "ab -g", ... (static) */
    int64_t *values;        /**< every latency, ns, sorted (hey, ab -g), or NULL */
    size_t n;
    int64_t resolution_ns;  /**< the file's smallest step (ab: 1 ms) */
    unsigned have;          /**< bit f set: figure f was read or computed */
    uint64_t count, over;
    int64_t fig_ns[RO_N_FIGURES]; /**< the durations: RO_MEAN .. RO_MAX */
} realout;

/** The percentile of each of RO_P50..RO_P999, as num / 100000. */
extern const uint64_t realout_level_num[RO_N_FIGURES];

/**
 * Read a tool's output file.
 *
 * @param out           receives the figures (free with realout_free)
 * @param path          the file
 * @param threshold_ns  RO_OVER counts values above this (lists only)
 * @param rule          the rank rule of the percentiles of a list
 * @param hgrm_unit_ns  what one Value unit of an .hgrm is worth (ns)
 * @param err           on error, "FILE:LINE: what was expected" (or
 *                      "FILE: ..." when no line is at fault)
 * @return 0, -EINVAL (an unknown or malformed file), -ENOMEM, -errno.
 */
int realout_read(realout *out, const char *path, int64_t threshold_ns, hist_rank_rule rule, int64_t hgrm_unit_ns,
                 char *err, size_t errlen);

/** Read from text (len bytes) named name in messages: as realout_read. */
int realout_parse(realout *out, const char *name, const char *text, size_t len, int64_t threshold_ns,
                  hist_rank_rule rule, int64_t hgrm_unit_ns, char *err, size_t errlen);

/**
 * hey's `-o csv` split into the server's share and hey's own (`cosim
 * baseline hey`): each request's Response-delay (its fifth column: from
 * the request written to the first byte of the reply, hey 0.1.4
 * requester.go makeRequest's WroteRequest and GotFirstResponseByte
 * hooks), and the mean of response-time - Response-delay over the
 * requests (the time hey spends building and writing the request and
 * reading the reply: the client_time key). hey prints both in seconds
 * with 4 decimals, so each value is to 0.1 ms; the mean is exact for what
 * was printed (an integer sum in ns, rounded half up).
 *
 * @param path        the CSV
 * @param delay_ns    receives the Response-delay values (malloc'd, in
 *                    file order; free() it), ns
 * @param n           receives how many
 * @param client_ns   receives the mean client share, ns (0 when a row's
 *                    delay exceeds its response time on average: never
 *                    negative)
 * @param err         on error "FILE:LINE: what was expected"
 * @return 0, -EINVAL (not hey's CSV, a malformed row, no row), -ENOMEM,
 *         -errno.
 */
int realout_hey_split(const char *path, int64_t **delay_ns, size_t *n, int64_t *client_ns, char *err,
                      size_t errlen);

/** Free what out holds (not out). */
void realout_free(realout *out);

#endif
