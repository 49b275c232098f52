/* hlog.h - HdrHistogram interval logs (.hlog): the encoding, a writer and a
 * reader.
 *
 * Layout of a log (HdrHistogram Java's HistogramLogWriter, format "1.3";
 * jHiccup writes the same):
 *
 *   #[Logged with cosim 0.1.0]
 *   #[Histogram log format version 1.3]
 *   #[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 1970]
 *   #[BaseTime: 0.000 (seconds since epoch)]
 *   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
 *   [Tag=NAME,]START_S,LENGTH_S,MAX,BASE64
 *
 * START_S and LENGTH_S are seconds with 3 decimals, MAX the interval's
 * largest value divided by a unit ratio (Java's default 10^6: ns values
 * shown in ms), BASE64 the standard base64 (RFC 4648, with '=' padding) of
 * a compressed histogram. HdrHistogram_c writes a "1.2" variant whose
 * legend names the second column "EndTimestamp" and whose MAX is the raw
 * value ("%d.0"); it writes start and end with hdr_log_write but start and
 * length with hdr_log_write_entry (src/hdr_histogram_log.c), so the reader
 * takes the second column of a 1.2 log as an end time only when it is
 * above the first on every line, and as a length otherwise.
 *
 * Encoding of one histogram (AbstractHistogram.encodeIntoByteBuffer and
 * encodeIntoCompressedByteBuffer, HdrHistogram Java 2.1; all integers big
 * endian):
 *   compressed:   int32 cookie 0x1c849314 (V2 compressed base 0x1c849304
 *                 with the word-size nibble 0x10), int32 length of the
 *                 zlib stream, the zlib stream (RFC 1950) of the encoding:
 *   encoding V2:  int32 cookie 0x1c849313, int32 payload length in bytes,
 *                 int32 normalizing index offset (0), int32 number of
 *                 significant value digits d, int64 lowest discernible
 *                 value, int64 highest trackable value, float64 integer to
 *                 double conversion ratio (1.0), then the payload: the
 *                 counts array from index 0 to the index of the largest
 *                 value, each as a ZigZag LEB128 varint of at most 9 bytes
 *                 (ZigZagEncoding.putLong: the ninth byte carries 8 bits), a
 *                 run of k > 1 zero counts written as the single value -k.
 *   V1 (cookie base 0x1c849301) has the same header and fixed-width counts
 *   of 2, 4 or 8 bytes (the cookie's word-size nibble); V0 (0x1c849308) a
 *   32-byte header (cookie, d, lowest, highest, total count) and fixed-width
 *   counts. The reader decodes all three; the writer writes V2.
 *
 * Bucket layout (AbstractHistogram.init, countsArrayIndex): with
 * M = ceil(log2(2 * 10^d)) sub-bucket bits and unit magnitude
 * u = floor(log2(lowest)), the value v lies in bucket
 * b = max(bitlength(v), M + u) - M - u at sub-bucket s = v >> (b + u),
 * counts index (b + 1) 2^(M-1) + s - 2^(M-1), covering the values
 * [s 2^(b+u), (s + 1) 2^(b+u) - 1]. With u = 0 this is exactly cosim's
 * hist layout with S = M (hist.h), so a cosim histogram with S in
 * {1, 5, 8, 11, 15, 18} (d = 0..5) is written index for index.
 */
#ifndef COSIM_HLOG_H
#define COSIM_HLOG_H

#include "hgrm.h"
#include "hist.h"
#include "textin.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The format version the writer writes (HistogramLogWriter's). */
#define HLOG_FORMAT_VERSION "1.3"

/** Highest trackable value written by default: 3600 s in ns (jHiccup-like;
 *  raised to the histogram's largest value when that is higher). */
#define HLOG_DEFAULT_HIGHEST_NS ((int64_t)3600 * 1000000000)

/* ---- base64 (RFC 4648 section 4, standard alphabet, '=' padding) ---- */

/** Length of the base64 text of n bytes: 4 ceil(n / 3). */
size_t hlog_base64_len(size_t n);

/** Write the base64 text of in[0..n) and a NUL to out (hlog_base64_len(n) + 1 bytes). */
void hlog_base64_encode(const uint8_t *in, size_t n, char *out);

/**
 * Decode base64 text in[0..n) (length a multiple of 4, '=' only as the
 * last one or two characters, no blanks) into out, which holds at least
 * 3 n / 4 bytes.
 *
 * @param out_len  receives the number of bytes decoded
 * @return 0 or -EINVAL for any other text.
 */
int hlog_base64_decode(const char *in, size_t n, uint8_t *out, size_t *out_len);

/* ---- one histogram ---- */

/** A non-zero count at a counts-array index. */
typedef struct hlog_count {
    int64_t index;
    uint64_t count;
} hlog_count;

/** A decoded HdrHistogram: its settings and its non-zero counts. */
typedef struct hlog_histogram {
    int encoding;               /**< 0, 1 or 2 (V0, V1, V2) */
    int32_t significant_digits; /**< d, 0..5 */
    int64_t lowest_discernible; /**< >= 1 */
    int64_t highest_trackable;
    double conversion_ratio;    /**< integer to double ratio (unused) */
    unsigned unit_magnitude;    /**< u = floor(log2(lowest)) */
    unsigned sub_bucket_bits;   /**< M = ceil(log2(2 10^d)) */
    hlog_count *counts;         /**< non-zero counts by increasing index */
    size_t n;
    uint64_t total;             /**< sum of the counts */
    int32_t normalizing_offset; /**< the header's normalizing index offset (read as Java reads it: ignored) */
} hlog_histogram;

/** Most non-zero counts one decoded histogram may hold (16 bytes each):
 *  HdrHistogram's d = 3 layouts hold at most about 90000; more is refused
 *  as a limit, not an out-of-memory. */
#define HLOG_MAX_COUNTS ((size_t)1 << 20)

/** Free the counts of h (not h itself); safe on a zeroed struct. */
void hlog_histogram_clear(hlog_histogram *h);

/**
 * HdrHistogram's layout for d significant digits and a lowest discernible
 * value, as AbstractHistogram.init computes it (in doubles, as Java does):
 * M = ceil(log(2 10^d) / log 2), u = floor(log(lowest) / log 2).
 *
 * @return 0, or -EINVAL when d is outside 0..5, lowest < 1, or M + u > 62.
 */
int hlog_layout(int32_t digits, int64_t lowest, unsigned *unit_magnitude, unsigned *sub_bucket_bits);

/**
 * The values [*lo, *hi] of counts index `index` of h (Java's
 * valueFromIndex and highestEquivalentValue).
 *
 * @return 0, or -ERANGE when the bucket lies beyond 2^63 - 1.
 */
int hlog_index_range(const hlog_histogram *h, int64_t index, int64_t *lo, int64_t *hi);

/** The largest value of h as HdrHistogram reports it (getMaxValue: the
 *  highest value of the bucket of the largest value); 0 when empty. */
int64_t hlog_histogram_max(const hlog_histogram *h);

/**
 * Decode a compressed (or uncompressed) V0, V1 or V2 histogram.
 *
 * @param buf  the bytes (base64-decoded)
 * @param out  receives the histogram (hlog_histogram_clear it)
 * @param why  on error, a static English reason
 * @return 0, -EINVAL (bad cookie, truncated or corrupt data, a
 *         DoubleHistogram, a count beyond 2^63), -EFBIG (a limit: more than
 *         HLOG_MAX_COUNTS non-zero counts, or a compressed histogram that
 *         inflates past the payload length its header gives), -ENOMEM.
 *         The normalizing index offset is read as HdrHistogram Java reads
 *         it: the counts are taken index for index (Java stores and reads
 *         them through the same offset).
 */
int hlog_decode(const uint8_t *buf, size_t len, hlog_histogram *out, const char **why);

/**
 * hlog_decode with an allowance: a compressed histogram may inflate to at
 * most *budget bytes (and never past its header's payload length, itself
 * at most 9 bytes for each count of its layout); *budget is lowered by
 * what it took. More is -EFBIG, refused before inflating it, so a zlib
 * bomb costs time in proportion to the allowance.
 */
int hlog_decode_bounded(const uint8_t *buf, size_t len, size_t *budget, hlog_histogram *out, const char **why);

/**
 * The significant digits the writer uses for a cosim histogram of S
 * sub-bucket bits: the smallest d in 0..5 whose M >= S (exact for S in
 * {1, 5, 8, 11, 15, 18}; a finer layout otherwise), 5 for S > 18.
 */
int32_t hlog_digits_for_sub_bits(unsigned sub_bits);

/**
 * Encode h as a compressed V2 histogram (zlib level 9, as HistogramLogWriter
 * uses Deflater.BEST_COMPRESSION) with lowest discernible value 1 and
 * d = hlog_digits_for_sub_bits(S). Each cosim bucket's count is written at
 * its highest value: with M >= S that value is also the highest of an
 * HdrHistogram bucket, so HdrHistogram reads back the same counts and
 * reports the same percentiles (the upper edge of the bucket, as
 * getValueAtPercentile does) and the same max (getMaxValue: the upper edge
 * of the largest value's bucket). For S > 18 HdrHistogram's buckets are
 * coarser and its figures the edges of those.
 *
 * @param highest_trackable  the header's highest trackable value (raised to
 *                           the largest value's bucket edge and to 2)
 * @param out                receives a malloc'd buffer
 * @param out_len            its length
 * @return 0, -ENOMEM, -EIO when zlib fails.
 */
int hlog_encode(const hist *h, int64_t highest_trackable, uint8_t **out, size_t *out_len);

/* ---- the log writer ---- */

/**
 * Write the header lines of a 1.3 log: a "#[Logged with NAME]" comment,
 * the format version, "#[StartTime: S (seconds since epoch), DATE]" and
 * "#[BaseTime: S (seconds since epoch)]" (both start_epoch_ms, so interval
 * times are relative to it: HistogramLogReader adds the base time back),
 * and the legend. DATE is UTC, in Java's Date.toString layout.
 *
 * @param logged_with  e.g. "cosim 0.1.0"
 * @return 0 or -EIO.
 */
int hlog_write_header(FILE *f, int64_t start_epoch_ms, const char *logged_with);

/**
 * Write one interval line: "[Tag=TAG,]START,LENGTH,MAX,BASE64" with START
 * and LENGTH in seconds and MAX in milliseconds (the ns value over 10^6,
 * HistogramLogWriter's default ratio), each with 3 decimals rounded half
 * up, as Java's Formatter does.
 *
 * @param tag        NULL for none; must not hold ',', ' ' or a line break
 * @param start_ns   the interval's start (>= 0), relative to the base time
 * @param length_ns  its length (>= 0)
 * @return 0, -EINVAL (bad tag or times), -ENOMEM, -EIO.
 */
int hlog_write_interval(FILE *f, const char *tag, int64_t start_ns, int64_t length_ns, const hist *h);

/* ---- the log reader ---- */

/** One interval of a log. */
typedef struct hlog_interval {
    char *tag;            /**< NULL when untagged */
    int64_t start_ns;     /**< start relative to the log's start time (below) */
    int64_t length_ns;    /**< length */
    hlog_histogram hist;  /**< the decoded histogram (its counts freed after on_interval, below) */
    int64_t max_value;    /**< hlog_histogram_max of it, kept when the counts are freed */
    size_t line;          /**< its line in the file */
} hlog_interval;

/** A whole log. */
typedef struct hlog_log {
    int version_major, version_minor; /**< 0.0 when the log says none */
    int has_start_time;               /**< a "#[StartTime:" line was read */
    int64_t start_time_ns;            /**< the start time, ns since the epoch (or the first interval's) */
    int64_t base_time_ns;             /**< the base time added to interval stamps */
    int end_stamps;                   /**< a 1.2 log whose second column was read as end times */
    hlog_interval *iv;
    size_t n;
    textin_account lines;             /**< what became of the file's lines */
    char **warnings;                  /**< "NAME:LINE: ..." for each line skipped (strict = 0) */
    size_t n_warnings;
} hlog_log;

/** How hlog_parse_with reads a log. */
typedef struct hlog_read_options {
    int one_series;  /**< 1: read one series: `tag`'s, or the log's only one (a log of several series and
                          no tag is refused, naming them); 0: every interval, whatever its tag */
    const char *tag; /**< with one_series: the series Tag=NAME (NULL: the untagged or only one) */
    int strict;      /**< 1: an interval line that cannot be read is an error; 0: skipped with a warning */
    /** When set: called with each interval of the series as it is read,
     *  after which its counts are freed (memory flat in the log's length);
     *  returns 0 or a negative errno with *why (a static reason). */
    int (*on_interval)(void *ctx, const hlog_interval *iv, const char **why);
    void *ctx;
} hlog_read_options;

/**
 * Parse a log. Interval times follow HistogramLogReader: a stamp is
 * absolute once the base time is added (BaseTime if given; otherwise the
 * start time when the first stamp lies more than a year before it, else 0)
 * and is reported relative to the start time (StartTime if given, else the
 * first interval's absolute start).
 *
 * @param name  the file's name, for messages
 * @param err   on error, "NAME:LINE: reason"
 * @return 0; -EINVAL for a malformed line (not four fields, a field that is
 *         not a number, bad base64, a histogram that does not decode);
 *         -ERANGE for times beyond int64 ns; -ENOMEM.
 */
int hlog_parse(hlog_log **out, const char *name, const char *text, size_t len, char *err, size_t errlen);

/**
 * hlog_parse with options (o NULL: hlog_parse's every interval, strict).
 * Lines: comments, the legend and blank lines are known non-records,
 * interval lines of the series are records, those of another series known
 * non-records. Compressed histograms inflate within an allowance of 1 MiB
 * and 128 bytes for each compressed byte of the file read so far (a zlib
 * bomb is refused in time proportional to its size).
 *
 * @return as hlog_parse; -EFBIG for a limit (HLOG_MAX_COUNTS, the
 *         inflate allowance), "NAME:LINE: ...: a limit ..."; -EINVAL for a
 *         second series without a tag, or a tag the log lacks (naming the
 *         series found).
 */
int hlog_parse_with(hlog_log **out, const char *name, const char *text, size_t len, const hlog_read_options *o,
                    char *err, size_t errlen);

/** hlog_parse on the file at path (errors from reading it as textin_read_file). */
int hlog_read(hlog_log **out, const char *path, char *err, size_t errlen);

/** Free a log; hlog_log_free(NULL) does nothing. */
void hlog_log_free(hlog_log *log);

/**
 * The sub-bucket bits S a cosim histogram needs to hold every interval of
 * the log bucket for bucket: the largest M of its histograms (at least 1).
 * With S at least this and unit_ns 1, hlog_to_hist keeps HdrHistogram's
 * percentiles exactly.
 */
unsigned hlog_log_sub_bits(const hlog_log *log);

/**
 * Add h into a cosim histogram: each non-zero bucket's count recorded at
 * its highest value times unit_ns. cosim's buckets of S >= M nest in
 * HdrHistogram's, so (for unit_ns 1) the percentiles, count and max of dst
 * equal HdrHistogram's getValueAtPercentile, getTotalCount and
 * getMaxValue; the mean is that of the bucket edges. For unit_ns > 1 or
 * S < M a value moves up to the edge of cosim's bucket holding it.
 *
 * @param unit_ns  ns per histogram unit (1 when the log holds ns, as
 *                 jHiccup's do; 1000 for us)
 * @return 0, -EINVAL (unit_ns < 1), -ERANGE (a value times unit_ns beyond
 *         int64).
 */
int hlog_to_hist(const hlog_histogram *h, int64_t unit_ns, hist *dst);

/**
 * The distribution of all intervals of the log together, one hgrm bucket
 * per non-zero HdrHistogram bucket: the values [lo * unit_ns, hi * unit_ns]
 * (draws spread uniformly over them, see hgrm_draw).
 *
 * @return 0; -EINVAL when the log holds no samples or mixes histograms of
 *         different settings (significant digits, lowest value); -ERANGE;
 *         -ENOMEM.
 */
int hlog_to_dist(const hlog_log *log, int64_t unit_ns, hgrm_dist **out);

/** The counts of several histograms of the same settings added up as
 *  they are read: one count per counts-array index (8 bytes each, at most
 *  the layout's length), the intervals themselves not kept. */
typedef struct hlog_merge {
    hlog_histogram ref;  /**< the settings (no counts) */
    int have;            /**< a histogram with counts was added */
    uint64_t *counts;    /**< by index */
    size_t cap;          /**< entries of counts */
    size_t nonzero;      /**< non-zero entries */
} hlog_merge;

/**
 * Add h's counts into m.
 *
 * @param why  on error, a static reason
 * @return 0; -EINVAL when h's settings (significant digits, lowest value)
 *         differ from the first's; -EFBIG past HLOG_MAX_COUNTS non-zero
 *         indices (a limit); -ERANGE when a count passes 2^64; -ENOMEM.
 */
int hlog_merge_add(hlog_merge *m, const hlog_histogram *h, const char **why);

/** The merged counts as a distribution, as hlog_to_dist. */
int hlog_merge_dist(const hlog_merge *m, int64_t unit_ns, hgrm_dist **out);

/** Free m's counts (not m); safe on a zeroed one. */
void hlog_merge_clear(hlog_merge *m);

#endif
