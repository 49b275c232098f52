/* hist.h - log-linear latency histogram of int64_t nanoseconds.
 *
 * Layout (the book, chapter 5, Listing 5.1 and Proposition 5.5; the same
 * bucketing as HdrHistogram): with S sub-bucket bits, values below 2^S have
 * a counter each; above, every power of two [2^b, 2^(b+1)) is cut into
 * 2^(S-1) buckets of width 2^(b+1-S), so a bucket is at most 2^-(S-1) of
 * its values wide. Covering the whole 64-bit range takes
 * 2^S + (64 - S) * 2^(S-1) counters: 7,424 for S = 8, 28,672 for S = 10.
 *
 * Besides the counters the histogram keeps the exact count, min, max, sum and
 * sum of squares, in integer types that cannot overflow. Recording never
 * allocates.
 */
#ifndef COSIM_HIST_H
#define COSIM_HIST_H

#include "names.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Smallest and largest sub-bucket bits accepted by hist_new. */
#define HIST_MIN_SUB_BITS 1
#define HIST_MAX_SUB_BITS 20

typedef struct hist hist;

/**
 * How a percentile p picks a rank r among n samples (MODEL.md, "Histogram
 * and percentiles"). p is the exact fraction num/den.
 */
typedef enum hist_rank_rule {
    /** r = ceil(p n), at least 1: the book's Method 5.9 and HdrHistogram
     *  Java's getValueAtPercentile. The default. */
    HIST_NEAREST_RANK = 0,
    /** r = round(p n) half up, at least 1: HdrHistogram_c's
     *  hdr_value_at_percentile. */
    HIST_ROUNDED_RANK,
    /** r = floor(p n) + 1, at most n: x[floor(p n)] of the sorted samples
     *  (seed 002's script; the rule that reproduces the book's Example 5.7). */
    HIST_SORTED_INDEX,
} hist_rank_rule;

/**
 * Create an empty histogram.
 *
 * @param out       receives the histogram
 * @param sub_bits  S, in [HIST_MIN_SUB_BITS, HIST_MAX_SUB_BITS]
 * @return 0, -EINVAL for S out of range, -ENOMEM.
 */
int hist_new(hist **out, unsigned sub_bits);

/** Free a histogram; hist_free(NULL) does nothing. */
void hist_free(hist *h);

/** Empty the histogram, keeping S. */
void hist_reset(hist *h);

/** Counters needed to cover [0, 2^64) with S sub-bucket bits. */
size_t hist_counter_count(unsigned sub_bits);

/**
 * Index of the bucket of value_ns (the book's Listing 5.1): v itself below
 * 2^S; otherwise 2^S + (shift - 1) 2^(S-1) + (m - 2^(S-1)) where
 * shift = bitlength(v) - S and m = v >> shift.
 */
size_t hist_index_of(uint64_t value_ns, unsigned sub_bits);

/**
 * The values [*low_ns, *high_ns] (inclusive) held by bucket index.
 * Example: S = 8, index 506 holds 1000..1003.
 */
void hist_bucket_range(size_t index, unsigned sub_bits, uint64_t *low_ns, uint64_t *high_ns);

/** Record one value (negative values are recorded as 0). Never allocates. */
void hist_record(hist *h, int64_t value_ns);

/** Record one value known to be in [0, INT64_MAX] (hist_record without
 *  its clamp of negative values to 0: the testers' plain loops, whose
 *  latencies are a reply minus an earlier send). Never allocates. */
void hist_record_nonneg(hist *h, int64_t value_ns);

/** Record count copies of value_ns. */
void hist_record_n(hist *h, int64_t value_ns, uint64_t count);

/** The two rules for the samples a coordinated-omission correction adds. */
typedef enum hist_correction {
    /** add v-D, v-2D, ... while the value is >= D: HdrHistogram's
     *  recordValueWithExpectedInterval. The default. */
    HIST_CORRECT_HDR = 0,
    /** add v-D, v-2D, ... while the value is > D: the book's Listing 5.2. */
    HIST_CORRECT_BOOK,
} hist_correction;

/**
 * Record the arithmetic series first_ns, first_ns + step_ns, ...,
 * first_ns + (n - 1) step_ns in O(buckets), not O(n): the terms that fall
 * in each bucket are counted with one division, and the exact count, min,
 * max, sum and sum of squares are updated by closed forms (sum of an
 * arithmetic series, and of its squares: n a^2 + a d n(n-1) +
 * d^2 (n-1) n (2n-1) / 6) in 128- and 192-bit integers. The result is
 * exactly that of recording the n values one by one with hist_record.
 *
 * @param first_ns  the smallest term, >= 0
 * @param step_ns   the common difference d, > 0 (ignored when n <= 1)
 * @param n         the number of terms (0 records nothing)
 * @return 0; -EINVAL for first_ns < 0 or step_ns <= 0 with n > 1;
 *         -EOVERFLOW when the last term passes INT64_MAX or the count
 *         would pass UINT64_MAX (nothing is recorded then).
 */
int hist_record_series(hist *h, int64_t first_ns, int64_t step_ns, uint64_t n);

/**
 * How many values a coordinated-omission correction adds to a reply of
 * value_ns at expected interval interval_ns: the number of k >= 1 with
 * value_ns - k interval_ns >= interval_ns (HIST_CORRECT_HDR), or
 * > interval_ns (HIST_CORRECT_BOOK). That is floor(v / D) - 1 and
 * floor((v - 1) / D) - 1, and 0 when interval_ns <= 0 or v < 2D (v <= 2D
 * for the book's rule). Example: 9 ms at 2 ms gives 3 under both rules;
 * 6 ms at 2 ms gives 2 and 1.
 */
uint64_t hist_correction_count(int64_t value_ns, int64_t interval_ns, hist_correction rule);

/**
 * Record value_ns and the samples a tester with expected interval
 * interval_ns failed to send while waiting for it (Tene's correction for
 * coordinated omission; HdrHistogram's recordValueWithExpectedInterval and
 * the book's Listing 5.2): value_ns - interval_ns, value_ns - 2 interval_ns,
 * ..., hist_correction_count of them, recorded as one series with
 * hist_record_series, so a reply of 1000 s at 1 ns costs O(buckets), not
 * 10^12 steps. Example: 9 ms at 2 ms adds 7, 5 and 3 ms under both rules;
 * 6 ms at 2 ms adds 4 and 2 ms under HIST_CORRECT_HDR and only 4 ms under
 * HIST_CORRECT_BOOK.
 *
 * @param interval_ns  expected interval D; 0 or less records value_ns only
 * @param over_ns      threshold for *over: values > over_ns are counted
 * @param over         if not NULL, incremented once per recorded value
 *                     (real or added) above over_ns
 * @return the number of values recorded (1 + added), or 0 when the count
 *         would pass UINT64_MAX (then nothing is recorded).
 */
uint64_t hist_record_corrected(hist *h, int64_t value_ns, int64_t interval_ns,
                               hist_correction rule, int64_t over_ns, uint64_t *over);

/**
 * 1 if a and b have the same S and hold exactly the same counters, count,
 * min, max, sum and sum of squares; else 0.
 */
int hist_equal(const hist *a, const hist *b);

/** Add every count of src into dst (same S). @return 0 or -EINVAL. */
int hist_merge(hist *dst, const hist *src);

/**
 * Write h's exact state (S, every counter, count, min, max, sum, sum of
 * squares) as bytes for hist_load in a program of the same build: a run's
 * part handed from one instance of the browser engine to another
 * (run_part_save). Not a file format (HdrHistogram's .hlog is cosim's:
 * hlog.h): the bytes are the struct's own and only the non-zero counters,
 * as (index, count) pairs.
 *
 * @param f  the stream (a memory stream)
 * @return 0, or -EIO when writing f failed.
 */
int hist_save(const hist *h, FILE *f);

/**
 * Read a histogram hist_save wrote, from *at (at most up to end); *at
 * moves past it.
 *
 * @param out  receives the histogram (the caller's, hist_free)
 * @return 0, -EINVAL when the bytes are not hist_save's (cut short, an S
 *         out of range, a counter index past the last, counters that do
 *         not add up to the count), -ENOMEM.
 */
int hist_load(hist **out, const unsigned char **at, const unsigned char *end);

/** Number of values recorded. */
uint64_t hist_count(const hist *h);
/** Smallest value recorded, exact; 0 when empty. */
int64_t hist_min(const hist *h);
/** Largest value recorded, exact; 0 when empty. */
int64_t hist_max(const hist *h);
/** Exact mean of the recorded values in ns (as a double); 0 when empty. */
double hist_mean(const hist *h);
/** Population standard deviation (divided by n, as HdrHistogram's
 *  getStdDeviation) in ns, from the exact integer sums: identical values
 *  give exactly 0; 0 when empty. */
double hist_stddev(const hist *h);
/** S of this histogram. */
unsigned hist_sub_bits(const hist *h);
/** Count in bucket index (0 past the end). */
uint64_t hist_count_at_index(const hist *h, size_t index);

/**
 * The rank r (1..n) the rule picks for percentile num/den of n samples,
 * computed in integers (p99.9 of 1000 samples is rank 999 under
 * HIST_NEAREST_RANK). Returns 0 when n is 0.
 */
uint64_t hist_rank(hist_rank_rule rule, uint64_t num, uint64_t den, uint64_t n);

/**
 * The value at rank r: the upper edge of the bucket in which the cumulative
 * count first reaches r, capped by the largest value recorded (the book's
 * section 5.3); rank 1 (p0) is the exact smallest value recorded, so both
 * ends are exact (MODEL.md). Rank 0 or an empty histogram gives 0.
 *
 * @param cum  if not NULL, receives the cumulative count up to and including
 *             that bucket
 */
int64_t hist_value_at_rank(const hist *h, uint64_t rank, uint64_t *cum);

/** hist_value_at_rank(h, hist_rank(rule, num, den, hist_count(h)), NULL). */
int64_t hist_value_at_percentile(const hist *h, hist_rank_rule rule, uint64_t num, uint64_t den);

/** The names of the rank rules, indexed by hist_rank_rule. */
extern const names_table hist_rank_rule_names;
/** Name of a rule ("nearest_rank", ...), "?" if not a rule. */
const char *hist_rank_rule_name(hist_rank_rule rule);
/** Parse a rule name. @return 0 or -EINVAL. */
int hist_rank_rule_parse(const char *name, hist_rank_rule *out);

/** The names of the correction rules, indexed by hist_correction
 *  ("hdrhistogram", "book"). */
extern const names_table hist_correction_names;
/** Name of a correction rule, "?" if not a rule. */
const char *hist_correction_name(hist_correction c);
/** Parse a correction rule's name. @return 0 or -EINVAL. */
int hist_correction_parse(const char *name, hist_correction *out);

/**
 * A forward cursor for reading values at non-decreasing ranks in one pass
 * over the counters.
 */
typedef struct hist_cursor {
    size_t index;  /**< current bucket */
    uint64_t cum;  /**< count up to and including it */
} hist_cursor;

/** Place the cursor before the first bucket. */
void hist_cursor_init(const hist *h, hist_cursor *c);

/**
 * hist_value_at_rank for ranks given in non-decreasing order, in amortised
 * O(1) per call.
 *
 * @param cum  if not NULL, the cumulative count up to the bucket found
 */
int64_t hist_cursor_value_at_rank(const hist *h, hist_cursor *c, uint64_t rank, uint64_t *cum);

/**
 * Percentile iteration in HdrHistogram's layout (the .hgrm "percentile
 * distribution"): levels 0%, then steps of 100/T % where
 * T = ticks_per_half_distance * 2^(floor(log2(1/(1-p))) + 1), so the steps
 * halve each time the distance to 100% halves; a row per level until the
 * row whose bucket holds the largest value, then a final 100% row. Levels
 * are exact binary fractions, kept as integers (p = num / (5 2^b) for
 * ticks_per_half_distance 5; in general num / (t 2^b)).
 */
typedef struct hist_iter {
    const hist *h;
    hist_rank_rule rule;
    uint64_t ticks;      /* per half distance */
    uint64_t num;        /* level p = num / (ticks << b) */
    unsigned b;
    hist_cursor cursor;
    int done, final_emitted;
    /* the row */
    uint64_t p_num, p_den; /**< the row's percentile level as a fraction of 1 */
    double percentile;     /**< the row's level in [0, 1] */
    int64_t value_ns;      /**< value at that level (upper bucket edge, capped by
                                max; the exact min at rank 1) */
    uint64_t total_count;  /**< cumulative count at the row's bucket */
    int is_final;          /**< the closing 100% row */
} hist_iter;

/** Start iterating h (must not change while iterating). */
void hist_iter_init(hist_iter *it, const hist *h, hist_rank_rule rule, unsigned ticks_per_half_distance);

/** Advance to the next row. @return 1 with a row in *it, 0 at the end. */
int hist_iter_next(hist_iter *it);

/**
 * Advance to the next row of a spectrum chart (the spectrum and its
 * replication band draw the same rows): as hist_iter_next, with *x the
 * row's place on the "one more nine a step" axis, 1 / (1 - p), or the
 * count n for the closing 100% row; a closing row that would not lie
 * right of the row before it (p already reached 1 - 1/n) ends the rows.
 *
 * @param last_x  the previous row's x (0 before the first); updated
 * @return 1 with a row in *it and *x, 0 at the end.
 */
int hist_iter_next_spectrum(hist_iter *it, double *last_x, double *x);

#endif
