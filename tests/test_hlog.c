/* Tests of hlog (HdrHistogram's encoding and interval logs), hgrm (.hgrm
 * spectra and draws from them) and textin (exact decimals). Byte layouts
 * are built by hand from HdrHistogram's source (hlog.h); the figures of
 * logs written by HdrHistogram Java itself are checked in
 * tests/interop/interop.sh. */
#include "hgrm.h"
#include "hist.h"
#include "hlog.h"
#include "report.h"
#include "textin.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- textin ---- */

START_TEST(exact_decimals)
{
    int64_t v;
    ck_assert_int_eq(textin_decimal("0.0123456", 9, 1000000000, 0, &v), 0);
    ck_assert_int_eq(v, 12345600);
    ck_assert_int_eq(textin_decimal("1,5", 3, 1000, 1, &v), 0);
    ck_assert_int_eq(v, 1500);
    ck_assert_int_eq(textin_decimal("1,5", 3, 1000, 0, &v), -EINVAL);
    ck_assert_int_eq(textin_decimal("9223372036.854775807", 20, 1000000000, 0, &v), 0);
    ck_assert_int_eq(v, INT64_MAX);
    ck_assert_int_eq(textin_decimal("9223372036.854775808", 20, 1000000000, 0, &v), -ERANGE);
    /* half a nanosecond rounds up, less rounds down */
    ck_assert_int_eq(textin_decimal("0.0000000005", 12, 1000000000, 0, &v), 0);
    ck_assert_int_eq(v, 1);
    ck_assert_int_eq(textin_decimal("0.00000000049", 13, 1000000000, 0, &v), 0);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(textin_decimal("-1", 2, 1, 0, &v), -EINVAL);
    ck_assert_int_eq(textin_decimal("1e3", 3, 1, 0, &v), -EINVAL);
}
END_TEST

/* ---- base64: RFC 4648 section 10's test vectors ---- */

START_TEST(base64_rfc4648_vectors)
{
    static const char *plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char out[16];
        uint8_t back[16];
        size_t n;
        ck_assert_uint_eq(hlog_base64_len(strlen(plain[i])), strlen(coded[i]));
        hlog_base64_encode((const uint8_t *)plain[i], strlen(plain[i]), out);
        ck_assert_str_eq(out, coded[i]);
        ck_assert_int_eq(hlog_base64_decode(coded[i], strlen(coded[i]), back, &n), 0);
        ck_assert_uint_eq(n, strlen(plain[i]));
        ck_assert(memcmp(back, plain[i], n) == 0);
    }
    uint8_t b[16];
    size_t n;
    ck_assert_int_eq(hlog_base64_decode("Zm9", 3, b, &n), -EINVAL);      /* length */
    ck_assert_int_eq(hlog_base64_decode("Zm=v", 4, b, &n), -EINVAL);     /* '=' inside */
    ck_assert_int_eq(hlog_base64_decode("Zg==Zm8=", 8, b, &n), -EINVAL); /* padding before the end */
    ck_assert_int_eq(hlog_base64_decode("Zm9v\nZg=", 8, b, &n), -EINVAL);
    ck_assert_int_eq(hlog_base64_decode("Zh==", 4, b, &n), -EINVAL);     /* non-zero unused bits */
}
END_TEST

/* ---- layout ---- */

/* AbstractHistogram.init: M = ceil(log2(2 10^d)), u = floor(log2(lowest)). */
START_TEST(layouts)
{
    unsigned u, m;
    ck_assert_int_eq(hlog_layout(2, 20000, &u, &m), 0); /* jHiccup: 2^14 <= 20000 < 2^15, 200 -> 2^8 */
    ck_assert_uint_eq(u, 14);
    ck_assert_uint_eq(m, 8);
    ck_assert_int_eq(hlog_layout(3, 1, &u, &m), 0); /* 2000 -> 2^11 */
    ck_assert_uint_eq(m, 11);
    ck_assert_int_eq(hlog_layout(0, 1, &u, &m), 0); /* 2 -> 2^1 */
    ck_assert_uint_eq(m, 1);
    ck_assert_int_eq(hlog_layout(1, 1000, &u, &m), 0); /* 20 -> 2^5; 2^9 <= 1000 */
    ck_assert_uint_eq(m, 5);
    ck_assert_uint_eq(u, 9);
    ck_assert_int_eq(hlog_layout(5, 1, &u, &m), 0);
    ck_assert_uint_eq(m, 18);
    ck_assert_int_eq(hlog_layout(6, 1, &u, &m), -EINVAL);
    ck_assert_int_eq(hlog_layout(2, 0, &u, &m), -EINVAL);
    /* the writer's digits for cosim's S */
    ck_assert_int_eq(hlog_digits_for_sub_bits(1), 0);
    ck_assert_int_eq(hlog_digits_for_sub_bits(5), 1);
    ck_assert_int_eq(hlog_digits_for_sub_bits(8), 2);
    ck_assert_int_eq(hlog_digits_for_sub_bits(10), 3);
    ck_assert_int_eq(hlog_digits_for_sub_bits(11), 3);
    ck_assert_int_eq(hlog_digits_for_sub_bits(14), 4);
    ck_assert_int_eq(hlog_digits_for_sub_bits(18), 5);
    ck_assert_int_eq(hlog_digits_for_sub_bits(20), 5);
    /* jHiccup's layout: 45 ms is in bucket 4 (bitlength 26 - 8 - 14),
     * sub-bucket 45000000 >> 18 = 171, index 5 * 128 + 171 - 128 = 683,
     * values [171 * 2^18, 172 * 2^18 - 1] */
    hlog_histogram h = {.sub_bucket_bits = 8, .unit_magnitude = 14};
    int64_t lo, hi;
    ck_assert_int_eq(hlog_index_range(&h, 683, &lo, &hi), 0);
    ck_assert_int_eq(lo, 44826624);
    ck_assert_int_eq(hi, 45088767);
    /* index 0..255 of bucket 0 step by 2^14 */
    ck_assert_int_eq(hlog_index_range(&h, 3, &lo, &hi), 0);
    ck_assert_int_eq(lo, 3 * 16384);
    ck_assert_int_eq(hi, 4 * 16384 - 1);
}
END_TEST

/* ---- decoding hand-built encodings ---- */

static size_t header40(uint8_t *b, uint32_t cookie, uint32_t payload, int32_t digits, int64_t lowest,
                       int64_t highest)
{
    uint32_t w[] = {cookie, payload, 0, (uint32_t)digits};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            b[4 * i + k] = (uint8_t)(w[i] >> (24 - 8 * k));
    uint64_t q[] = {(uint64_t)lowest, (uint64_t)highest, 0x3FF0000000000000ull};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 8; k++)
            b[16 + 8 * i + k] = (uint8_t)(q[i] >> (56 - 8 * k));
    return 40;
}

/* V2 payload (d = 2, u = 0): index 0 count 3, then 2 zeros (-2 zigzags to 3),
 * index 3 count 1 (2), one zero (0), index 5 count 2^60 (zigzag 2^61: nine
 * bytes, the ninth carrying bits 56..63 whole). */
START_TEST(decode_v2_by_hand)
{
    uint8_t b[64];
    size_t n = header40(b, 0x1c849313u, 0, 2, 1, 3600);
    uint8_t pay[] = {0x06, 0x03, 0x02, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20};
    memcpy(b + n, pay, sizeof pay);
    b[7] = (uint8_t)sizeof pay; /* payload length */
    hlog_histogram h;
    const char *why = NULL;
    ck_assert_int_eq(hlog_decode(b, n + sizeof pay, &h, &why), 0);
    ck_assert_int_eq(h.encoding, 2);
    ck_assert_uint_eq(h.n, 3);
    ck_assert_int_eq(h.counts[0].index, 0);
    ck_assert_uint_eq(h.counts[0].count, 3);
    ck_assert_int_eq(h.counts[1].index, 3);
    ck_assert_uint_eq(h.counts[1].count, 1);
    ck_assert_int_eq(h.counts[2].index, 5);
    ck_assert_uint_eq(h.counts[2].count, (uint64_t)1 << 60);
    ck_assert_uint_eq(h.total, ((uint64_t)1 << 60) + 4);
    ck_assert_int_eq(hlog_histogram_max(&h), 5);
    hlog_histogram_clear(&h);
    /* truncated varint */
    b[7] = 6;
    ck_assert_int_eq(hlog_decode(b, n + 6, &h, &why), -EINVAL);
    ck_assert_str_eq(why, "truncated count in the histogram's payload");
    /* a DoubleHistogram */
    b[0] = 0x0c, b[1] = 0x72, b[2] = 0x12, b[3] = 0x4e;
    ck_assert_int_eq(hlog_decode(b, n + 6, &h, &why), -EINVAL);
    ck_assert_str_eq(why, "a DoubleHistogram, which cosim does not read");
}
END_TEST

/* V1 with 4-byte words (cookie nibble 0x40) and V0 (32-byte header, 8-byte
 * words): counts 0, 7, 0, 9 at d = 2, lowest 1. */
START_TEST(decode_v1_v0_by_hand)
{
    uint8_t b[80];
    size_t n = header40(b, 0x1c849301u | 0x40u, 16, 2, 1, 3600);
    uint32_t c[] = {0, 7, 0, 9};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            b[n + 4 * i + k] = (uint8_t)(c[i] >> (24 - 8 * k));
    hlog_histogram h;
    const char *why;
    ck_assert_int_eq(hlog_decode(b, n + 16, &h, &why), 0);
    ck_assert_int_eq(h.encoding, 1);
    ck_assert_uint_eq(h.n, 2);
    ck_assert_int_eq(h.counts[1].index, 3);
    ck_assert_uint_eq(h.total, 16);
    hlog_histogram_clear(&h);

    memset(b, 0, sizeof b);
    b[0] = 0x1c, b[1] = 0x84, b[2] = 0x93, b[3] = 0x08 | 0x80; /* V0, 8-byte words */
    b[7] = 2;                                                  /* d */
    b[15] = 1;                                                 /* lowest */
    b[22] = 0x0e, b[23] = 0x10;                                /* highest 3600 */
    b[32 + 15] = 7;                                            /* index 1: 7 */
    b[32 + 31] = 9;                                            /* index 3: 9 */
    ck_assert_int_eq(hlog_decode(b, 32 + 32, &h, &why), 0);
    ck_assert_int_eq(h.encoding, 0);
    ck_assert_uint_eq(h.total, 16);
    ck_assert_int_eq(h.counts[0].index, 1);
    hlog_histogram_clear(&h);
}
END_TEST

/* ---- encoding ---- */

static void fill(hist *h)
{
    uint64_t s = 42;
    for (int i = 0; i < 5000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        hist_record(h, (int64_t)((s >> 20) % 300000000));
    }
    hist_record(h, 0);
    hist_record(h, 255);
}

/* Encode, decode, add back: every cosim bucket keeps its count, for S = 8
 * (d = 2, the same layout) and S = 10 and 14 (finer HdrHistogram layouts:
 * each count sits at its bucket's highest value). */
START_TEST(encode_round_trip)
{
    static const unsigned bits[] = {8, 10, 14};
    static const int32_t digits[] = {2, 3, 4};
    for (int k = 0; k < 3; k++) {
        hist *h, *back;
        hist_new(&h, bits[k]);
        hist_new(&back, bits[k]);
        fill(h);
        uint8_t *enc;
        size_t n;
        ck_assert_int_eq(hlog_encode(h, HLOG_DEFAULT_HIGHEST_NS, &enc, &n), 0);
        /* compressed V2 cookie, then a zlib stream (0x78) */
        ck_assert_uint_eq(enc[0], 0x1c);
        ck_assert_uint_eq(enc[3], 0x14);
        ck_assert_uint_eq(enc[8], 0x78);
        hlog_histogram d;
        const char *why;
        ck_assert_int_eq(hlog_decode(enc, n, &d, &why), 0);
        ck_assert_int_eq(d.significant_digits, digits[k]);
        ck_assert_int_eq(d.lowest_discernible, 1);
        ck_assert_int_eq(d.highest_trackable, HLOG_DEFAULT_HIGHEST_NS);
        ck_assert_uint_eq(d.total, hist_count(h));
        ck_assert_int_eq(hlog_to_hist(&d, 1, back), 0);
        size_t differ = 0; /* counted, then asserted once: check's asserts are slow in bulk */
        for (size_t i = 0; i < hist_counter_count(bits[k]); i++)
            differ += hist_count_at_index(back, i) != hist_count_at_index(h, i);
        ck_assert_uint_eq(differ, 0);
        /* the max read back is the upper edge of the max's bucket */
        uint64_t lo, hi;
        hist_bucket_range(hist_index_of((uint64_t)hist_max(h), bits[k]), bits[k], &lo, &hi);
        ck_assert_int_eq(hlog_histogram_max(&d), (int64_t)hi);
        ck_assert_int_eq(hist_max(back), (int64_t)hi);
        hlog_histogram_clear(&d);
        free(enc);
        hist_free(h);
        hist_free(back);
    }
}
END_TEST

/* An empty histogram encodes index 0's zero count: payload one byte 0. */
START_TEST(encode_empty)
{
    hist *h;
    hist_new(&h, 8);
    uint8_t *enc;
    size_t n;
    ck_assert_int_eq(hlog_encode(h, 0, &enc, &n), 0);
    hlog_histogram d;
    const char *why;
    ck_assert_int_eq(hlog_decode(enc, n, &d, &why), 0);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_int_eq(d.highest_trackable, 2);
    free(enc);
    hlog_histogram_clear(&d);
    hist_free(h);
}
END_TEST

/* ---- the writer and the reader ---- */

/* The book's 45 ms hiccup at a 1 ms expected interval (45 values, 45..1 ms)
 * written as one 1.3 interval: the header lines, then "1.000,1.000,45.089,"
 * (max 45088767 ns, the upper edge of 45 ms's bucket at S = 8, in ms with 3
 * decimals). */
START_TEST(writer_layout_and_read_back)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hist *h;
    hist_new(&h, 8);
    ck_assert_int_eq(hlog_write_header(f, 0, "cosim 0.1.0"), 0);
    ck_assert_int_eq(hlog_write_interval(f, NULL, 0, 1000000000, h), 0);
    hist_record_corrected(h, 45000000, 1000000, HIST_CORRECT_HDR, 0, NULL);
    ck_assert_int_eq(hlog_write_interval(f, "tester1", 1000000000, 1000000000, h), 0);
    ck_assert_int_eq(hlog_write_interval(f, "bad tag", 0, 0, h), -EINVAL);
    fclose(f);
    const char *head = "#[Logged with cosim 0.1.0]\n"
                       "#[Histogram log format version 1.3]\n"
                       "#[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 1970]\n"
                       "#[BaseTime: 0.000 (seconds since epoch)]\n"
                       "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
                       "0.000,1.000,0.000,HISTFAAAA";
    ck_assert(strncmp(buf, head, strlen(head)) == 0);
    ck_assert_ptr_nonnull(strstr(buf, "\nTag=tester1,1.000,1.000,45.089,HISTFAAAA"));

    hlog_log *log;
    char err[256];
    ck_assert_int_eq(hlog_parse(&log, "mem", buf, len, err, sizeof err), 0);
    ck_assert_int_eq(log->version_major, 1);
    ck_assert_int_eq(log->version_minor, 3);
    ck_assert_uint_eq(log->n, 2);
    ck_assert_ptr_null(log->iv[0].tag);
    ck_assert_str_eq(log->iv[1].tag, "tester1");
    ck_assert_int_eq(log->iv[1].start_ns, 1000000000);
    ck_assert_int_eq(log->iv[1].length_ns, 1000000000);
    ck_assert_uint_eq(log->iv[1].hist.total, 45);
    ck_assert_int_eq(hlog_histogram_max(&log->iv[1].hist), 45088767);
    ck_assert_uint_eq(log->iv[1].line, 7);
    /* the ladder's percentiles through a cosim histogram: p50 is the 23rd of
     * 45 values, 23 ms, in bucket [22937600, 23068671] */
    hist *back;
    hist_new(&back, hlog_log_sub_bits(log));
    ck_assert_int_eq(hlog_to_hist(&log->iv[1].hist, 1, back), 0);
    ck_assert_int_eq(hist_value_at_percentile(back, HIST_NEAREST_RANK, 1, 2), 23068671);
    hist_free(back);
    hlog_log_free(log);
    free(buf);
    hist_free(h);
}
END_TEST

/* HistogramLogReader's time rule on a jHiccup log (no BaseTime line, stamps
 * from 0 against a 2026 StartTime: the base is the start time). */
START_TEST(reads_java_written_log)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    char p[1024], err[256];
    snprintf(p, sizeof p, "%s/tests/data/gclog/jhiccup.hlog", root ? root : ".");
    hlog_log *log;
    ck_assert_int_eq(hlog_read(&log, p, err, sizeof err), 0);
    ck_assert_int_eq(log->start_time_ns, INT64_C(1772441700) * 1000000000);
    ck_assert_int_eq(log->base_time_ns, log->start_time_ns);
    ck_assert_uint_eq(log->n, 4);
    ck_assert_int_eq(log->iv[2].start_ns, 2000000000);
    ck_assert_int_eq(log->iv[1].hist.significant_digits, 2);
    ck_assert_int_eq(log->iv[1].hist.lowest_discernible, 20000);
    ck_assert_uint_eq(log->iv[1].hist.total, 1055); /* 1000 + 10 noise, 45 of the ladder */
    ck_assert_int_eq(hlog_histogram_max(&log->iv[1].hist), 45088767);
    /* all intervals as one distribution: 4 x 1010 noise + 45 + 20 + 8 */
    hgrm_dist *d;
    ck_assert_int_eq(hlog_to_dist(log, 1, &d), 0);
    ck_assert_uint_eq(d->total, 4 * 1010 + 73);
    ck_assert_int_eq(d->max_ns, 45088767);
    ck_assert_int_eq(d->min_ns, 16384); /* 30 us in [16384, 32767] */
    hgrm_free(d);
    hlog_log_free(log);
}
END_TEST

/* HdrHistogram_c's 1.2 variant: "EndTimestamp" legend; end times when the
 * second column is above the first on every line, lengths otherwise. */
START_TEST(variant_1_2)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hist *h;
    hist_new(&h, 8);
    hist_record(h, 1000);
    uint8_t *enc;
    size_t n;
    hlog_encode(h, 0, &enc, &n);
    char *b64 = malloc(hlog_base64_len(n) + 1);
    hlog_base64_encode(enc, n, b64);
    fprintf(f, "#[Histogram log format version 1.2]\n#[StartTime: 1403476110.183 (seconds since epoch), Mon Jun "
               "23 10:28:30 NZST 2014]\n\"StartTimestamp\",\"EndTimestamp\",\"Interval_Max\","
               "\"Interval_Compressed_Histogram\"\n1403476110.183,1403476111.183,1000.0,%s\n"
               "1403476111.183,1403476112.683,1000.0,%s\n",
            b64, b64);
    fclose(f);
    hlog_log *log;
    char err[256];
    ck_assert_int_eq(hlog_parse(&log, "c.hlog", buf, len, err, sizeof err), 0);
    ck_assert_int_eq(log->end_stamps, 1);
    ck_assert_int_eq(log->iv[0].start_ns, 0);
    ck_assert_int_eq(log->iv[0].length_ns, 1000000000);
    ck_assert_int_eq(log->iv[1].start_ns, 1000000000);
    ck_assert_int_eq(log->iv[1].length_ns, 1500000000);
    hlog_log_free(log);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    fprintf(f, "\"StartTimestamp\",\"EndTimestamp\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
               "1403476110.183,1.000,1000.0,%s\n",
            b64);
    fclose(f);
    ck_assert_int_eq(hlog_parse(&log, "c.hlog", buf, len, err, sizeof err), 0);
    ck_assert_int_eq(log->end_stamps, 0);
    ck_assert_int_eq(log->iv[0].length_ns, 1000000000);
    hlog_log_free(log);
    free(buf);
    free(b64);
    free(enc);
    hist_free(h);
}
END_TEST

START_TEST(reader_errors)
{
    hlog_log *log;
    char err[256];
    const char *t1 = "#[Histogram log format version 1.3]\n0.000,1.000,HISTFAAAAA==\n";
    ck_assert_int_eq(hlog_parse(&log, "a.hlog", t1, strlen(t1), err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "a.hlog:2: expected an interval line \"[Tag=NAME,]START,LENGTH,MAX,HISTOGRAM\"");
    const char *t2 = "0.000,1.000,0.0,HISTF*AAAA==\n";
    ck_assert_int_eq(hlog_parse(&log, "a.hlog", t2, strlen(t2), err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "a.hlog:1: the histogram is not valid base64");
    const char *t3 = "\n0.000,1.000,0.0,AAAAAAAAAAAA\n";
    ck_assert_int_eq(hlog_parse(&log, "a.hlog", t3, strlen(t3), err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "a.hlog:2: the histogram does not decode: not an HdrHistogram encoding (unknown cookie)");
    const char *t4 = "0.0x0,1.000,0.0,AAAAAAAAAAAA\n";
    ck_assert_int_eq(hlog_parse(&log, "a.hlog", t4, strlen(t4), err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "a.hlog:1: the interval's start '0.0x0' has 'x0' after its digits");
    /* a zlib stream cut short */
    const char *t5 = "0.000,1.000,0.0,HISTFAAAACB4nGNg\n";
    ck_assert_int_eq(hlog_parse(&log, "a.hlog", t5, strlen(t5), err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "a.hlog:1: the histogram does not decode: the compressed histogram is shorter than its "
                          "header says");
}
END_TEST

/* ---- .hgrm ---- */

/* A spectrum in HdrHistogram Java's layout (values in us): rows 1.000 (1
 * sample), 2.000 (3), 4.000 (4). Rebuilt: [1000, 1000] x1, (1000, 2000] x2,
 * (2000, 4000] x1. */
static const char small_hgrm[] =
    "       Value     Percentile TotalCount 1/(1-Percentile)\n"
    "\n"
    "       1.000 0.000000000000          1           1.00\n"
    "       2.000 0.500000000000          3           2.00\n"
    "       4.000 1.000000000000          4\n"
    "#[Mean    =        2.250, StdDeviation   =        1.090]\n"
    "#[Max     =        4.000, Total count    =            4]\n"
    "#[Buckets =           22, SubBuckets     =         2048]\n";

START_TEST(hgrm_rows_to_buckets_and_draws)
{
    hgrm_dist *d;
    char err[256];
    ck_assert_int_eq(hgrm_parse(&d, "s.hgrm", small_hgrm, strlen(small_hgrm), 1000, -1, err, sizeof err), 0);
    ck_assert_uint_eq(d->n, 3);
    ck_assert_uint_eq(d->total, 4);
    ck_assert_int_eq(d->b[1].low_ns, 1001);
    ck_assert_int_eq(d->b[1].high_ns, 2000);
    ck_assert_uint_eq(d->b[1].count, 2);
    ck_assert_int_eq(d->max_ns, 4000);
    ck_assert_int_eq(d->footer_max_ns, 4000);
    ck_assert_uint_eq(d->b[2].line, 5);
    /* percentiles: rank 2 of 4 (p50) is in row 2.000 */
    ck_assert_int_eq(hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 1, 2), 2000);
    ck_assert_int_eq(hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 1, 4), 1000);
    ck_assert_int_eq(hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 1, 1), 4000);
    /* draws by inversion: u in [0, 1/4) -> 1000; [1/4, 3/4) spread over
     * 1001..2000; [3/4, 1) over 2001..4000 */
    ck_assert_int_eq(hgrm_draw(d, 0.0), 1000);
    ck_assert_int_eq(hgrm_draw(d, 0.2499), 1000);
    ck_assert_int_eq(hgrm_draw(d, 0.25), 1001);
    ck_assert_int_eq(hgrm_draw(d, 0.5), 1501);  /* halfway through (1000, 2000] */
    ck_assert_int_eq(hgrm_draw(d, 0.7499999), 2000);
    ck_assert_int_eq(hgrm_draw(d, 0.75), 2001);
    ck_assert_int_eq(hgrm_draw(d, 0.999999999), 4000);
    /* mean of the draws: (1000 + 2 (1001 + 2000) / 2 + (2001 + 4000) / 2) / 4 */
    ck_assert_double_eq_tol(hgrm_draw_mean(d), 1750.375, 1e-9);
    hist *h;
    hist_new(&h, 8);
    ck_assert_int_eq(hgrm_to_hist(d, h), 0);
    ck_assert_uint_eq(hist_count(h), 4);
    ck_assert_int_eq(hist_max(h), 4000);
    hist_free(h);
    hgrm_free(d);
}
END_TEST

/* cosim's own .hgrm (us, 3 decimals: exact ns) read back: the count, the
 * exact max, and the value at every printed level. */
START_TEST(hgrm_reads_cosims_own)
{
    hist *h;
    hist_new(&h, 8);
    fill(h);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(report_hgrm(f, h, HIST_NEAREST_RANK), 0);
    fclose(f);
    hgrm_dist *d;
    char err[256];
    ck_assert_int_eq(hgrm_parse(&d, "own.hgrm", buf, len, 1000000, -1, err, sizeof err), 0);
    ck_assert_uint_eq(d->total, hist_count(h));
    ck_assert_int_eq(d->max_ns, hist_max(h));
    hist_iter it;
    hist_iter_init(&it, h, HIST_NEAREST_RANK, 5);
    int rows = 0;
    while (hist_iter_next(&it)) {
        ck_assert_int_eq(hgrm_value_at_percentile(d, HIST_NEAREST_RANK, it.p_num, it.p_den), it.value_ns);
        rows++;
    }
    ck_assert_int_gt(rows, 40);
    hgrm_free(d);
    free(buf);
    hist_free(h);
}
END_TEST

/* wrk2's output: two spectra (--latency, then --u_latency), in ms, inside
 * other text. */
static const char wrk2_out[] =
    "Running 30s test @ http://127.0.0.1:8080/\n"
    "  Latency Distribution (HdrHistogram - Recorded Latency)\n"
    " 50.000%%    1.20ms\n"
    "\n"
    "  Detailed Percentile spectrum:\n"
    "       Value   Percentile   TotalCount 1/(1-Percentile)\n"
    "\n"
    "       0.800     0.000000            1         1.00\n"
    "       1.200     0.500000           50         2.00\n"
    "      30.000     1.000000          100          inf\n"
    "#[Mean    =        2.000, StdDeviation   =        1.000]\n"
    "#[Max     =       30.000, Total count    =          100]\n"
    "#[Buckets =           27, SubBuckets     =         2048]\n"
    "----------------------------------------------------------\n"
    "\n"
    "  Latency Distribution (HdrHistogram - Uncorrected Latency (measured without taking delayed starts into account))\n"
    "  Detailed Percentile spectrum:\n"
    "       Value   Percentile   TotalCount 1/(1-Percentile)\n"
    "\n"
    "       0.800     0.000000            1         1.00\n"
    "       1.100     0.500000           50         2.00\n"
    "      12.500     1.000000          100          inf\n"
    "#[Mean    =        1.500, StdDeviation   =        0.500]\n"
    "#[Max     =       12.500, Total count    =          100]\n"
    "#[Buckets =           27, SubBuckets     =         2048]\n"
    "----------------------------------------------------------\n"
    "  3000 requests in 30.00s, 1.00MB read\n";

START_TEST(hgrm_wrk2_two_spectra)
{
    hgrm_dist *d;
    char err[256];
    ck_assert_int_eq(hgrm_parse(&d, "wrk2.txt", wrk2_out, strlen(wrk2_out), 1000000, -1, err, sizeof err),
                     -EINVAL);
    ck_assert_str_eq(err, "wrk2.txt:18: a second percentile spectrum; say which one to read");
    ck_assert_int_eq(hgrm_parse(&d, "wrk2.txt", wrk2_out, strlen(wrk2_out), 1000000, 1, err, sizeof err), 0);
    ck_assert_int_eq(d->max_ns, 12500000);
    ck_assert_int_eq(hgrm_value_at_percentile(d, HIST_NEAREST_RANK, 1, 2), 1100000);
    hgrm_free(d);
    ck_assert_int_eq(hgrm_parse(&d, "wrk2.txt", wrk2_out, strlen(wrk2_out), 1000000, 0, err, sizeof err), 0);
    ck_assert_int_eq(d->max_ns, 30000000);
    hgrm_free(d);
    ck_assert_int_eq(hgrm_parse(&d, "wrk2.txt", wrk2_out, strlen(wrk2_out), 1000000, 2, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "wrk2.txt: holds 2 percentile spectra; spectrum 2 asked (counting from 0)");
}
END_TEST

START_TEST(hgrm_errors)
{
    hgrm_dist *d;
    char err[256];
    const char *down = "Value Percentile TotalCount 1/(1-Percentile)\n1.0 0.0 3 1.0\n2.0 0.5 2 2.0\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", down, strlen(down), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:3: TotalCount 2 is below the row before's 3");
    const char *vdown = "Value Percentile TotalCount 1/(1-Percentile)\n2.0 0.0 1 1.0\n1.0 0.5 2 2.0\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", vdown, strlen(vdown), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:3: Value 1.0 is below the row before's");
    const char *foot = "Value Percentile TotalCount 1/(1-Percentile)\n1.0 0.0 1 1.0\n2.0 1.0 2\n"
                       "#[Max     =        2.000, Total count    =            3]\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", foot, strlen(foot), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:4: Total count 3, but the last row's TotalCount is 2");
    /* a footer without its total, or without a value after "=": the one
     * message of the footer's grammar (main's reader gave the same) */
    const char *nototal = "Value Percentile TotalCount 1/(1-Percentile)\n1.0 0.0 1 1.0\n2.0 1.0 2\n"
                          "#[Max     =        2.000]\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", nototal, strlen(nototal), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:4: expected \"#[Max = VALUE, Total count = N]\"");
    const char *novalue = "Value Percentile TotalCount 1/(1-Percentile)\n1.0 0.0 1 1.0\n2.0 1.0 2\n"
                          "#[Max     =  , Total count    =            2]\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", novalue, strlen(novalue), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:4: expected \"#[Max = VALUE, Total count = N]\"");
    const char *bad = "Value Percentile TotalCount 1/(1-Percentile)\n\n1.0 x 1 1.0\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", bad, strlen(bad), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:3: Percentile 'x' is not a number in [0, 1]");
    const char *none = "just text\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", none, strlen(none), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm: no percentile spectrum (a \"Value Percentile TotalCount 1/(1-Percentile)\" header)");
    const char *empty = "Value Percentile TotalCount 1/(1-Percentile)\n\n#[Max = 0.000, Total count = 0]\n";
    ck_assert_int_eq(hgrm_parse(&d, "d.hgrm", empty, strlen(empty), 1000, -1, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "d.hgrm:1: the percentile spectrum has no rows");
    const char *csv = "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n1.000,0.000000000000,1,1.00\n"
                      "3.000,1.000000000000,2,Infinity\n";
    ck_assert_int_eq(hgrm_parse(&d, "c.csv", csv, strlen(csv), 1000, -1, err, sizeof err), 0);
    ck_assert_int_eq(d->max_ns, 3000);
    hgrm_free(d);
}
END_TEST

/* textin_fail, the readers' one message helper: the text formatted into
 * err, cut to errlen bytes (NUL included), and rc handed back. */
START_TEST(textin_fail_formats_and_returns)
{
    char err[16];
    ck_assert_int_eq(textin_fail(err, sizeof err, -ERANGE, "%s:%zu: %s", "f.hgrm", (size_t)7, "x"), -ERANGE);
    ck_assert_str_eq(err, "f.hgrm:7: x");
    ck_assert_int_eq(textin_fail(err, sizeof err, -EINVAL, "%s:%d: beyond", "long-name.hgrm", 12), -EINVAL);
    ck_assert_str_eq(err, "long-name.hgrm:"); /* 15 bytes and the NUL */
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("hlog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, exact_decimals);
    tcase_add_test(tc, base64_rfc4648_vectors);
    tcase_add_test(tc, layouts);
    tcase_add_test(tc, decode_v2_by_hand);
    tcase_add_test(tc, decode_v1_v0_by_hand);
    tcase_add_test(tc, encode_round_trip);
    tcase_add_test(tc, encode_empty);
    tcase_add_test(tc, writer_layout_and_read_back);
    tcase_add_test(tc, reads_java_written_log);
    tcase_add_test(tc, variant_1_2);
    tcase_add_test(tc, reader_errors);
    tcase_add_test(tc, hgrm_rows_to_buckets_and_draws);
    tcase_add_test(tc, hgrm_reads_cosims_own);
    tcase_add_test(tc, hgrm_wrk2_two_spectra);
    tcase_add_test(tc, hgrm_errors);
    tcase_add_test(tc, textin_fail_formats_and_returns);
    suite_add_tcase(s, tc);
    return s;
}
