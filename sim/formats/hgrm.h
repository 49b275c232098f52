/* hgrm.h - a measured distribution read back from HdrHistogram's outputs,
 * and service times drawn from it.
 *
 * The percentile distribution text (.hgrm) is what HdrHistogram Java's
 * AbstractHistogram.outputPercentileDistribution, HdrHistogram_c's
 * hdr_percentiles_print (wrk2 --latency / --u_latency print it under
 * "Detailed Percentile spectrum:") and cosim's own report_hgrm write:
 *
 *        Value     Percentile TotalCount 1/(1-Percentile)
 *
 *        0.921 0.000000000000          1           1.00
 *        ...
 *       10.123 1.000000000000      12345
 *   #[Mean    =        1.234, StdDeviation   =        0.567]
 *   #[Max     =       10.123, Total count    =        12345]
 *   #[Buckets =           27, SubBuckets     =         2048]
 *
 * (or the same four columns comma-separated, Java's CSV form). Row i says
 * that TotalCount_i samples are <= Value_i, so the rebuilt distribution has
 * TotalCount_i - TotalCount_{i-1} samples in (Value_{i-1}, Value_i]; row 0
 * holds TotalCount_0 samples at Value_0 (the smallest bucket). The file
 * carries no unit: the caller says what one unit of Value is worth in ns
 * (wrk2 prints milliseconds, cosim microseconds, Java whatever ratio its
 * caller passed).
 *
 * The same type holds an HdrHistogram's buckets (hlog_to_dist), each with
 * its own [low, high] range.
 *
 * Percentiles of a rebuilt .hgrm are exact at the printed levels; between
 * them the rank's row is the next printed one, so a level that was not
 * printed (p99 with 5 ticks per half distance: rows at 98.75% and 99.0625%)
 * reads the next printed row's value, an upper bound.
 */
#ifndef COSIM_HGRM_H
#define COSIM_HGRM_H

#include "hist.h"
#include "textin.h"

#include <stddef.h>
#include <stdint.h>

/** count samples spread over the values [low_ns, high_ns]. */
typedef struct hgrm_bucket {
    int64_t low_ns, high_ns; /**< inclusive range, low_ns <= high_ns */
    uint64_t count;          /**< samples in the range (> 0) */
    uint64_t cum;            /**< samples up to and including this bucket */
    size_t line;             /**< line of the file it came from (0 if none) */
} hgrm_bucket;

/** A measured distribution: buckets sorted by value, disjoint. */
typedef struct hgrm_dist {
    hgrm_bucket *b;
    size_t n;
    uint64_t total;       /**< samples in all buckets */
    int64_t min_ns;       /**< low_ns of the first bucket */
    int64_t max_ns;       /**< high_ns of the last bucket */
    int has_footer;       /**< a .hgrm footer "#[Max = .., Total count = ..]" was read */
    int64_t footer_max_ns; /**< its Max, in ns (the tool's own max) */
    textin_account lines;  /**< what became of the file's lines (zero when not read from one) */
    char *name;            /**< the file it was read from (set by the scenario reader), or NULL */
    char **warnings;       /**< "FILE:LINE: ..." for each line skipped (an .hlog read with strict = 0) */
    size_t n_warnings;
} hgrm_dist;

/** Free a distribution; hgrm_free(NULL) does nothing. */
void hgrm_free(hgrm_dist *d);

/**
 * Read the percentile spectrum of a .hgrm file, or of any text holding one
 * (wrk2's whole output, say).
 *
 * @param out       receives the distribution
 * @param path      the file
 * @param unit_ns   what one unit of the Value column is worth, in ns
 *                  (1 for ns, 1000 for us, 1000000 for ms), > 0
 * @param spectrum  which spectrum to read when the text holds several
 *                  (0-based, in file order: wrk2 with --latency and
 *                  --u_latency prints the corrected one first); -1 asks
 *                  for the only one, and more than one is an error
 * @param err       on error, receives "FILE:LINE: reason" (or "FILE:
 *                  reason" when no line is at fault)
 * @return 0; -EINVAL for a malformed file (a row that is not four numbers
 *         or whose Value has a sign, an exponent or is not a number; text
 *         between the rows and the footer; a Value, Percentile or
 *         TotalCount that goes down; a Percentile that contradicts its
 *         TotalCount; a footer Total count, Max or Mean that the rows
 *         contradict; no spectrum, a spectrum without samples, a second
 *         spectrum when spectrum is -1; a last line cut without its
 *         newline: "the file ends inside a record at FILE:LINE"); -ERANGE
 *         for a value beyond INT64_MAX ns; -ENOMEM; -errno from reading.
 *         The result's lines count every line of the text.
 */
int hgrm_read(hgrm_dist **out, const char *path, int64_t unit_ns, int spectrum, char *err,
              size_t errlen);


/** hgrm_read on text[0..len), naming it `name` in messages. */
int hgrm_parse(hgrm_dist **out, const char *name, const char *text, size_t len, int64_t unit_ns,
               int spectrum, char *err, size_t errlen);

/**
 * Build a distribution from buckets given in increasing, disjoint order
 * (their cum fields are filled in; zero counts are skipped).
 *
 * @return 0, -EINVAL when the buckets overlap, go down, hold nothing or
 *         their counts overflow, -ENOMEM.
 */
int hgrm_from_buckets(hgrm_dist **out, const hgrm_bucket *b, size_t n);

/**
 * The value at rank r (1..total): the high_ns of the first bucket whose
 * cumulative count reaches r (for a .hgrm, the Value of the first row whose
 * TotalCount >= r). 0 for rank 0; rank > total reads the last bucket.
 */
int64_t hgrm_value_at_rank(const hgrm_dist *d, uint64_t rank);

/** hgrm_value_at_rank at the rank hist_rank(rule, num, den, total) picks. */
int64_t hgrm_value_at_percentile(const hgrm_dist *d, hist_rank_rule rule, uint64_t num, uint64_t den);

/**
 * A service time drawn from the distribution by inversion of one uniform
 * variate u in [0, 1): x = u * total falls in the bucket with
 * cum - count <= x < cum, and the value is spread uniformly over the
 * bucket's integer nanoseconds: low + floor(f * (high - low + 1)) with
 * f = (x - (cum - count)) / count, so a .hgrm row draws uniformly in
 * (Value_{i-1}, Value_i] and row 0 gives Value_0 itself. The map from u is
 * non-decreasing, so common random numbers stay common, and the printed
 * levels keep their values: P(draw <= Value_i) = TotalCount_i / total.
 */
int64_t hgrm_draw(const hgrm_dist *d, double u);

/**
 * The exact mean of hgrm_draw's distribution, in ns: sum over buckets of
 * count * (low + high) / 2, over total (the offered load of a histogram
 * service time is rate * this mean).
 */
double hgrm_draw_mean(const hgrm_dist *d);

/**
 * Record the distribution into a cosim histogram: each bucket's count at
 * its high_ns (so a histogram whose buckets nest in these ranges gives
 * back the same percentiles).
 *
 * @return 0, or -EINVAL when a value is negative.
 */
int hgrm_to_hist(const hgrm_dist *d, hist *dst);

#endif
