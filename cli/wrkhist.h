/* wrkhist.h - wrk's whole latency histogram, as scenarios/tools/wrk-histogram.lua
 * makes wrk print it, and wrk's exit-time correction taken back out of it
 * (`cosim baseline wrk`, `cosim compare`; docs/real-tools.md).
 *
 * wrk 4.1.0 corrects its latency histogram after the run (src/wrk.c main):
 * with the interval e = runtime_us / (complete / connections) (integer
 * division, both), src/stats.c stats_correct adds, for every recorded value
 * v, the values v - e, v - 2e, ... that are still > e (1 us bins). The
 * Lua script prints every bin (src/script.c script_stats_call, src/stats.c
 * stats_value_at), the run time in us and the request count
 * (script_summary); wrk's own "N threads and C connections" line gives C.
 *
 * The undo (worked in tests/test_wrkhist.c): write D for the corrected
 * counts and O for the recorded ones. For v > e, D(v) = O(v) + sum_{k>=1}
 * O(v + k e), and since v + e > e too, D(v + e) = sum_{k>=1} O(v + k e);
 * so O(v) = D(v) - D(v + e) for v > e, and O(v) = D(v) for v <= e. Exact,
 * bin by bin. (A value the correction added below the recorded minimum is
 * not printed, stats_value_at walking from min; the undo does not need it:
 * O is 0 there.)
 */
#ifndef COSIM_WRKHIST_H
#define COSIM_WRKHIST_H

#include <stddef.h>
#include <stdint.h>

/** What scenarios/tools/wrk-histogram.lua and wrk printed, and the undo. */
typedef struct wrkhist {
    uint64_t duration_us;  /**< wrk's run time, us (summary.duration) */
    uint64_t requests;     /**< completed requests (summary.requests) */
    uint64_t timeouts;     /**< summary.errors.timeout: values over wrk's
                                timeout are not recorded (stats_record) */
    uint64_t connections;  /**< from "N threads and C connections" */
    size_t bins;           /**< distinct values printed */
    uint64_t *value_us;    /**< bins values, ascending, us */
    uint64_t *corrected;   /**< each bin's count as wrk printed it */
    uint64_t *recorded;    /**< each bin's count with the correction undone */
    uint64_t interval_us;  /**< wrk's e; 0 when wrk corrected nothing
                                (complete / connections == 0) */
    uint64_t corrected_total, recorded_total;
} wrkhist;

/**
 * wrk's expected interval (src/wrk.c main): runtime_us / (requests /
 * connections), both divisions integer.
 *
 * @return the interval in us, or 0 when requests / connections is 0 (wrk
 *         then does not correct) or connections is 0.
 */
uint64_t wrkhist_interval_us(uint64_t duration_us, uint64_t requests, uint64_t connections);

/**
 * Undo wrk's correction: recorded[i] = corrected[i] - corrected(value_us[i]
 * + e) when value_us[i] > e (the header's formula), else corrected[i].
 *
 * @param value_us   bins values, strictly ascending, us
 * @param corrected  their counts as printed
 * @param bins       how many
 * @param e          the interval, us (0: nothing to undo)
 * @param recorded   receives the counts (bins of them)
 * @return 0, or -EINVAL when a count would go negative (not a histogram
 *         wrk corrected with interval e) or values are not ascending.
 */
int wrkhist_undo(const uint64_t *value_us, const uint64_t *corrected, size_t bins, uint64_t e, uint64_t *recorded);

/**
 * Whether text holds the script's block ("cosim-wrk-histogram 1" on a line
 * of its own).
 */
int wrkhist_present(const char *text, size_t len);

/**
 * Read wrk's output with the script's block (name in messages), and undo
 * the correction.
 *
 * @param out    receives it (free with wrkhist_free)
 * @param err    on error "NAME:LINE: what was expected" or "NAME: ..."
 * @return 0; -EINVAL for a missing, malformed or inconsistent block (the
 *         undone counts summing above the requests, or below requests -
 *         timeouts); -ERANGE for a count or value beyond 2^53 (what a Lua
 *         number holds exactly) or a total beyond UINT64_MAX; -ENOMEM.
 */
int wrkhist_parse(wrkhist *out, const char *name, const char *text, size_t len, char *err, size_t errlen);

/** Free what h holds (not h); NULL is a no-op. */
void wrkhist_free(wrkhist *h);

#endif
