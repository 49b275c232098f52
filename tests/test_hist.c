/* Tests of hist: the book's histogram exercises, rank rules, correction,
 * exact statistics and the .hgrm layout. */
#include "hist.h"
#include "report.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Book, Exercise 5.2: 1000 has bit length 10, shift 2, top bits 250:
 * index 256 + 128 + (250 - 128) = 506, covering 1000..1003. */
START_TEST(index_of_1000_is_506)
{
    uint64_t lo, hi;
    ck_assert_uint_eq(hist_index_of(1000, 8), 506);
    hist_bucket_range(506, 8, &lo, &hi);
    ck_assert_uint_eq(lo, 1000);
    ck_assert_uint_eq(hi, 1003);
    ck_assert_uint_eq(hist_index_of(1003, 8), 506);
    ck_assert_uint_eq(hist_index_of(1004, 8), 507);
    ck_assert_uint_eq(hist_index_of(999, 8), 505);
}
END_TEST

/* hist_record_nonneg records exactly what hist_record does for values >= 0:
 * 0, 1000 and INT64_MAX give the same histogram either way, whose mean is
 * (0 + 1000 + 2^63 - 1) / 3 = (2^63 + 999) / 3, 3074457345618259135.33...
 * (printed as a double: 2^63 / 3 rounded, 0x1p63 / 3). */
START_TEST(record_nonneg_is_record)
{
    hist *a, *b;
    ck_assert_int_eq(hist_new(&a, 8), 0);
    ck_assert_int_eq(hist_new(&b, 8), 0);
    const int64_t v[] = {0, 1000, INT64_MAX};
    for (size_t i = 0; i < 3; i++) {
        hist_record(a, v[i]);
        hist_record_nonneg(b, v[i]);
    }
    ck_assert(hist_equal(a, b));
    ck_assert_uint_eq(hist_count(b), 3);
    ck_assert_double_eq_tol(hist_mean(b), 0x1p63 / 3, 1e3);
    hist_free(a);
    hist_free(b);
}
END_TEST

/* Book, section 5.3 and Exercise 5.3: 256 + 56*128 = 7,424 counters for
 * S = 8; 1024 + 53*512 + 512 = 28,672 for S = 10. */
START_TEST(counter_counts)
{
    ck_assert_uint_eq(hist_counter_count(8), 7424);
    ck_assert_uint_eq(hist_counter_count(10), 28672);
    /* the largest value lands in the last counter */
    ck_assert_uint_eq(hist_index_of(UINT64_MAX, 8), 7423);
    ck_assert_uint_eq(hist_index_of(UINT64_MAX, 10), 28671);
}
END_TEST

/* Proposition 5.5: buckets tile the line and are at most 2^-(S-1) of their
 * values wide: S = 8 gives at most 2^-7 < 0.8%, S = 10 at most 2^-9. */
START_TEST(buckets_tile_and_bound_width)
{
    for (unsigned s = 8; s <= 10; s += 2) {
        uint64_t next = 0;
        for (size_t i = 0; i < hist_counter_count(s); i++) {
            uint64_t lo, hi;
            hist_bucket_range(i, s, &lo, &hi);
            ck_assert_uint_eq(lo, next);
            ck_assert_uint_eq(hist_index_of(lo, s), i);
            ck_assert_uint_eq(hist_index_of(hi, s), i);
            if (lo >= (1u << s))
                ck_assert((hi - lo + 1) <= (lo >> (s - 1)));
            next = hi + 1;
        }
        ck_assert_uint_eq(next, 0); /* wrapped: the last bucket ends at 2^64 - 1 */
    }
}
END_TEST

/* Book, Exercise 5.4: a 9 ms reply at an intended 2 ms adds 7, 5 and 3 ms
 * (9 - 2k while above 2 ms), under both rules. */
START_TEST(correction_9ms_at_2ms_adds_7_5_3)
{
    for (int rule = 0; rule < 2; rule++) {
        hist *h;
        ck_assert_int_eq(hist_new(&h, 8), 0);
        uint64_t over = 0;
        uint64_t n = hist_record_corrected(h, 9000000, 2000000, (hist_correction)rule, 4000000, &over);
        ck_assert_uint_eq(n, 4);
        ck_assert_uint_eq(hist_count(h), 4);
        ck_assert_uint_eq(over, 3); /* 9, 7, 5 ms are over 4 ms */
        ck_assert_int_eq(hist_min(h), 3000000);
        ck_assert_int_eq(hist_max(h), 9000000);
        /* mean of 9, 7, 5, 3 ms is exactly 6 ms */
        ck_assert_double_eq(hist_mean(h), 6000000.0);
        /* the added values, each in its own bucket */
        ck_assert_uint_eq(hist_count_at_index(h, hist_index_of(7000000, 8)), 1);
        ck_assert_uint_eq(hist_count_at_index(h, hist_index_of(5000000, 8)), 1);
        ck_assert_uint_eq(hist_count_at_index(h, hist_index_of(3000000, 8)), 1);
        hist_free(h);
    }
}
END_TEST

/* A value of exactly 3 intervals: 6 at 2 adds 4 and 2 under HdrHistogram's
 * rule (>= D) and only 4 under the book's Listing 5.2 (> D). */
START_TEST(correction_exact_multiple_differs_by_rule)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    ck_assert_uint_eq(hist_record_corrected(h, 6, 2, HIST_CORRECT_HDR, 0, NULL), 3);
    ck_assert_uint_eq(hist_count_at_index(h, 6), 1);
    ck_assert_uint_eq(hist_count_at_index(h, 4), 1);
    ck_assert_uint_eq(hist_count_at_index(h, 2), 1);
    hist_reset(h);
    ck_assert_uint_eq(hist_record_corrected(h, 6, 2, HIST_CORRECT_BOOK, 0, NULL), 2);
    ck_assert_uint_eq(hist_count_at_index(h, 6), 1);
    ck_assert_uint_eq(hist_count_at_index(h, 4), 1);
    ck_assert_uint_eq(hist_count_at_index(h, 2), 0);
    /* no correction below the interval, none with interval 0 */
    hist_reset(h);
    ck_assert_uint_eq(hist_record_corrected(h, 1, 2, HIST_CORRECT_HDR, 0, NULL), 1);
    ck_assert_uint_eq(hist_record_corrected(h, 100, 0, HIST_CORRECT_HDR, 0, NULL), 1);
    hist_free(h);
}
END_TEST

/* HdrHistogram's own example: 207 at 100 records 207 and 107. */
START_TEST(correction_hdrhistogram_example)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    ck_assert_uint_eq(hist_record_corrected(h, 207, 100, HIST_CORRECT_HDR, 0, NULL), 2);
    ck_assert_int_eq(hist_min(h), 107);
    ck_assert_int_eq(hist_max(h), 207);
    hist_free(h);
}
END_TEST

/* The correction as it was recorded before it became a series: one
 * hist_record per added value (HdrHistogram's recordValueWithExpectedInterval
 * loop, and the book's Listing 5.2 with > instead of >=). The reference the
 * per-bucket version must match exactly. */
static uint64_t record_one_by_one(hist *h, int64_t v, int64_t d, hist_correction rule, int64_t over_ns,
                                  uint64_t *over)
{
    uint64_t n = 1;
    hist_record(h, v);
    if (v > over_ns)
        (*over)++;
    if (d <= 0 || v < d)
        return n;
    for (int64_t missing = v - d; rule == HIST_CORRECT_HDR ? missing >= d : missing > d; missing -= d) {
        hist_record(h, missing);
        if (missing > over_ns)
            (*over)++;
        n++;
    }
    return n;
}

/* Record (v, D, rule, threshold) both ways into histograms of S bits that
 * already hold the same few values, and require identical results: every
 * counter, the count, min, max, exact sum and sum of squares, the returned
 * count and the over-threshold count. */
static void check_same_as_loop(int64_t v, int64_t d, unsigned s, hist_correction rule, int64_t over_ns)
{
    hist *a, *b;
    ck_assert_int_eq(hist_new(&a, s), 0);
    ck_assert_int_eq(hist_new(&b, s), 0);
    hist_record(a, 12345);
    hist_record(b, 12345);
    uint64_t over_a = 7, over_b = 7;
    uint64_t na = hist_record_corrected(a, v, d, rule, over_ns, &over_a);
    uint64_t nb = record_one_by_one(b, v, d, rule, over_ns, &over_b);
    if (na != nb || over_a != over_b || !hist_equal(a, b))
        ck_abort_msg("v=%lld D=%lld S=%u rule=%d over=%lld: series %llu values (%llu over), loop %llu (%llu over)%s",
                     (long long)v, (long long)d, s, (int)rule, (long long)over_ns, (unsigned long long)na,
                     (unsigned long long)over_a, (unsigned long long)nb, (unsigned long long)over_b,
                     hist_equal(a, b) ? "" : ", histograms differ");
    ck_assert_uint_eq(na - 1, hist_correction_count(v, d, rule));
    hist_free(a);
    hist_free(b);
}

/* The edge cases by hand: exact multiples v = k D (where the rules differ),
 * D = 1 ns, v below, at and just above D and 2D, intervals of 0 and less,
 * negative values, and values near INT64_MAX at an interval that keeps the
 * loop short (2^40: 8,388,607 added values). Thresholds below, on, between
 * and above the terms. */
START_TEST(series_matches_loop_edge_cases)
{
    static const int64_t cases[][2] = {
        {9000000, 2000000}, {6000000, 2000000}, {6, 2}, {7, 2}, {8, 2}, {4, 2}, {5, 2}, {3, 2}, {2, 2},
        {1, 2}, {0, 2}, {-5, 2}, {100, 0}, {100, -3}, {100000, 1}, {2, 1}, {3, 1}, {1, 1}, {0, 1},
        {1000, 1000}, {2000, 1000}, {2001, 1000}, {1999, 1000}, {3000, 1000}, {1000000, 1000},
        {1000001, 999}, {255, 1}, {256, 1}, {257, 1}, {65536, 3}, {65535, 256}, {INT64_MAX, (int64_t)1 << 40},
        {INT64_MAX - 1, (int64_t)1 << 40}, {(INT64_MAX >> 40) << 40, (int64_t)1 << 40},
        {INT64_MAX, INT64_MAX}, {INT64_MAX, INT64_MAX / 2}, {INT64_MAX, INT64_MAX / 3}, {INT64_MAX, INT64_MAX - 1},
        {INT64_MAX, (INT64_MAX / 5) + 7}, {INT64_MAX - 5, 1000000000000007},
    };
    static const unsigned bits[] = {1, 2, 3, 8, 11};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = cases[i][0], d = cases[i][1];
        int64_t overs[] = {-1, 0, d, d < INT64_MAX ? d + 1 : d, v / 2, d > 0 && v >= d ? v - d : v, v - 1, v,
                           INT64_MAX};
        for (int rule = 0; rule < 2; rule++)
            for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++)
                for (size_t o = 0; o < sizeof overs / sizeof overs[0]; o++) {
                    /* long series (up to 8 million values one by one): S = 8
                     * and three thresholds only */
                    int64_t terms = d > 0 ? v / d : 0;
                    if ((terms > 10000 && (k != 3 || (o != 0 && o != 4 && o != 6))) ||
                        (terms > 1000000 && (o != 4)))
                        continue;
                    check_same_as_loop(v, d, bits[k], (hist_correction)rule, overs[o]);
                }
    }
}
END_TEST

/* 4000 random cases (a fixed xorshift stream, so the test is the same every
 * run): v of any bit length, D from 1 ns up to v and beyond, a fifth of
 * them exact multiples k D, S from 1 to 11, both rules, thresholds around
 * the terms. Up to 2^14 added values each, so the loop stays quick. */
static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

START_TEST(series_matches_loop_random)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
#define NEXT() xorshift(&x)
    for (int i = 0; i < 4000; i++) {
        unsigned vbits = (unsigned)(NEXT() % 63);
        int64_t v = (int64_t)(NEXT() & (((uint64_t)1 << vbits) - 1));
        uint64_t kmax = (uint64_t)1 << (NEXT() % 15);
        int64_t d = (int64_t)((uint64_t)v / (NEXT() % kmax + 1));
        d += (int64_t)(NEXT() % 3);
        if (d < 1)
            d = 1;
        if (NEXT() % 5 == 0 && (uint64_t)v / (uint64_t)d < kmax) /* an exact multiple */
            v = (v / d) * d;
        unsigned s = 1 + (unsigned)(NEXT() % 11);
        int64_t over_ns = v ? (int64_t)(NEXT() % ((uint64_t)v + 3)) - 1 : (int64_t)(NEXT() % 3) - 1;
        check_same_as_loop(v, d, s, (hist_correction)(NEXT() % 2), over_ns);
    }
#undef NEXT
}
END_TEST

/* Series too long for the loop: v = INT64_MAX at D = 1 ns adds 2^63 - 2
 * values, 1 .. 2^63 - 2. Checked against sums composed from pieces (the
 * series recorded as several shorter series must give the same exact sums,
 * which the closed forms only do if they are right for every n mod 6), and
 * every bucket's count against an independent count of the integers in its
 * range. */
START_TEST(series_too_long_for_a_loop)
{
    const unsigned s = 8;
    hist *whole, *parts;
    ck_assert_int_eq(hist_new(&whole, s), 0);
    ck_assert_int_eq(hist_new(&parts, s), 0);
    uint64_t over = 0;
    ck_assert_uint_eq(hist_record_corrected(whole, INT64_MAX, 1, HIST_CORRECT_HDR, 100000000, &over),
                      (uint64_t)INT64_MAX);
    /* 2^63 - 1 values in all; over 100 ms: all but 1 .. 10^8 */
    ck_assert_uint_eq(hist_count(whole), (uint64_t)INT64_MAX);
    ck_assert_uint_eq(over, (uint64_t)INT64_MAX - 100000000);
    ck_assert_int_eq(hist_min(whole), 1);
    ck_assert_int_eq(hist_max(whole), INT64_MAX);
    for (size_t i = 0; i < hist_counter_count(s); i++) {
        uint64_t lo, hi, want;
        hist_bucket_range(i, s, &lo, &hi);
        /* the integers 1 .. 2^63 - 2 in [lo, hi], plus INT64_MAX itself */
        uint64_t from = lo < 1 ? 1 : lo, to = hi > (uint64_t)INT64_MAX - 1 ? (uint64_t)INT64_MAX - 1 : hi;
        want = from <= to ? to - from + 1 : 0;
        want += lo <= (uint64_t)INT64_MAX && (uint64_t)INT64_MAX <= hi;
        ck_assert_uint_eq(hist_count_at_index(whole, i), want);
    }
    /* the same values as pieces of n = 1, 2, ..., 11 terms and the rest */
    hist_record(parts, INT64_MAX);
    int64_t next = 1;
    for (uint64_t n = 1; n <= 11; n++) {
        ck_assert_int_eq(hist_record_series(parts, next, 1, n), 0);
        next += (int64_t)n;
    }
    ck_assert_int_eq(hist_record_series(parts, next, 1, (uint64_t)(INT64_MAX - 1 - next + 1)), 0);
    ck_assert(hist_equal(whole, parts));
    /* and as odd and even terms: two series of step 2 */
    hist_reset(parts);
    hist_record(parts, INT64_MAX);
    ck_assert_int_eq(hist_record_series(parts, 1, 2, ((uint64_t)1 << 62) - 1), 0); /* 1, 3, .. 2^63 - 3 */
    ck_assert_int_eq(hist_record_series(parts, 2, 2, ((uint64_t)1 << 62) - 1), 0); /* 2, 4, .. 2^63 - 2 */
    ck_assert(hist_equal(whole, parts));
    /* mean of 1 .. 2^63 - 2 and 2^63 - 1 together: exactly 2^62 */
    ck_assert_double_eq(hist_mean(whole), 0x1p62);
    hist_free(whole);
    hist_free(parts);
}
END_TEST

/* The examples: a reply of 1000 s at expected interval 1 ns adds
 * 10^12 - 1 values (999,999,999,999 .. 1), 1 h at 1 us adds 3.6e9 - 1; each
 * recorded in O(buckets). Counts, bounds and the over-threshold count
 * (100 ms: the terms 1 .. 10^8 ns are not over it) by hand. */
START_TEST(correction_of_long_stalls_is_a_series)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    uint64_t over = 0;
    ck_assert_uint_eq(hist_record_corrected(h, 1000000000000, 1, HIST_CORRECT_HDR, 100000000, &over),
                      1000000000000ull);
    ck_assert_uint_eq(hist_count(h), 1000000000000ull);
    ck_assert_uint_eq(over, 1000000000000ull - 100000000);
    ck_assert_int_eq(hist_min(h), 1);
    ck_assert_int_eq(hist_max(h), 1000000000000);
    /* values 1 .. 10^12: mean (10^12 + 1) / 2 */
    ck_assert_double_eq(hist_mean(h), 500000000000.5);
    /* the book's rule: 1000 s - k ns > 1 ns, so one fewer (no 1 ns) */
    hist_reset(h);
    over = 0;
    ck_assert_uint_eq(hist_record_corrected(h, 1000000000000, 1, HIST_CORRECT_BOOK, 100000000, &over),
                      999999999999ull);
    ck_assert_int_eq(hist_min(h), 2);
    /* 1 h at 1 us: 3600 s - k us >= 1 us for k = 1 .. 3.6e9 - 1 */
    hist_reset(h);
    over = 0;
    ck_assert_uint_eq(hist_record_corrected(h, 3600000000000, 1000, HIST_CORRECT_HDR, 100000000, &over),
                      3600000000ull);
    ck_assert_int_eq(hist_min(h), 1000);
    /* over 100 ms: the terms k us with k > 10^5, i.e. 3.6e9 - 1 - 10^5, and
     * the reply itself */
    ck_assert_uint_eq(over, 3600000000ull - 100000);
    hist_free(h);
}
END_TEST

/* Bad series are refused and record nothing; a count that would pass
 * 2^64 - 1 is refused by the correction (returns 0). */
START_TEST(series_refuses_what_it_cannot_record)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    ck_assert_int_eq(hist_record_series(h, -1, 1, 2), -EINVAL);
    ck_assert_int_eq(hist_record_series(h, 1, 0, 2), -EINVAL);
    ck_assert_int_eq(hist_record_series(h, INT64_MAX - 1, 2, 2), -EOVERFLOW);
    ck_assert_int_eq(hist_record_series(h, 5, 0, 1), 0); /* one term: the step does not matter */
    ck_assert_int_eq(hist_record_series(h, 5, 3, 0), 0);
    ck_assert_uint_eq(hist_count(h), 1);
    /* 2^63 - 1 values, then 2^63 - 1 more: 2^64 - 2 fits; then 2 more do not */
    hist_reset(h);
    ck_assert_uint_eq(hist_record_corrected(h, INT64_MAX, 1, HIST_CORRECT_HDR, 0, NULL), (uint64_t)INT64_MAX);
    ck_assert_uint_eq(hist_record_corrected(h, INT64_MAX, 1, HIST_CORRECT_HDR, 0, NULL), (uint64_t)INT64_MAX);
    ck_assert_uint_eq(hist_count(h), UINT64_MAX - 1);
    ck_assert_uint_eq(hist_record_corrected(h, 2, 1, HIST_CORRECT_HDR, 0, NULL), 0);
    ck_assert_uint_eq(hist_count(h), UINT64_MAX - 1);
    ck_assert_uint_eq(hist_record_corrected(h, 1, 1, HIST_CORRECT_HDR, 0, NULL), 1);
    ck_assert_uint_eq(hist_count(h), UINT64_MAX);
    hist_free(h);
}
END_TEST

/* hist_correction_count in closed form, by hand: 9 at 2 -> 3 (7, 5, 3) both
 * rules; 6 at 2 -> 2 (4, 2) under HdrHistogram's, 1 (4) under the book's. */
START_TEST(correction_count_by_hand)
{
    ck_assert_uint_eq(hist_correction_count(9, 2, HIST_CORRECT_HDR), 3);
    ck_assert_uint_eq(hist_correction_count(9, 2, HIST_CORRECT_BOOK), 3);
    ck_assert_uint_eq(hist_correction_count(6, 2, HIST_CORRECT_HDR), 2);
    ck_assert_uint_eq(hist_correction_count(6, 2, HIST_CORRECT_BOOK), 1);
    ck_assert_uint_eq(hist_correction_count(4, 2, HIST_CORRECT_HDR), 1);  /* 2 */
    ck_assert_uint_eq(hist_correction_count(4, 2, HIST_CORRECT_BOOK), 0);
    ck_assert_uint_eq(hist_correction_count(3, 2, HIST_CORRECT_HDR), 0);
    ck_assert_uint_eq(hist_correction_count(2, 2, HIST_CORRECT_HDR), 0);
    ck_assert_uint_eq(hist_correction_count(-9, 2, HIST_CORRECT_HDR), 0);
    ck_assert_uint_eq(hist_correction_count(9, 0, HIST_CORRECT_HDR), 0);
    ck_assert_uint_eq(hist_correction_count(INT64_MAX, 1, HIST_CORRECT_HDR), (uint64_t)INT64_MAX - 1);
    ck_assert_uint_eq(hist_correction_count(INT64_MAX, 1, HIST_CORRECT_BOOK), (uint64_t)INT64_MAX - 2);
}
END_TEST

/* Ranks are integers: p99.9 of 1000 samples is rank 999 (0.999 * 1000 in
 * doubles is 999.0000000000001, whose ceiling would be 1000). */
START_TEST(rank_rules)
{
    /* p = 999/1000, n = 1000: pn = 999 exactly */
    ck_assert_uint_eq(hist_rank(HIST_NEAREST_RANK, 999, 1000, 1000), 999);
    ck_assert_uint_eq(hist_rank(HIST_ROUNDED_RANK, 999, 1000, 1000), 999);
    ck_assert_uint_eq(hist_rank(HIST_SORTED_INDEX, 999, 1000, 1000), 1000);
    /* p50 of 200: ceil(100) = 100, round(100) = 100, floor(100) + 1 = 101 */
    ck_assert_uint_eq(hist_rank(HIST_NEAREST_RANK, 1, 2, 200), 100);
    ck_assert_uint_eq(hist_rank(HIST_ROUNDED_RANK, 1, 2, 200), 100);
    ck_assert_uint_eq(hist_rank(HIST_SORTED_INDEX, 1, 2, 200), 101);
    /* p99 of 250 (pn = 247.5): ceil 248, round half up 248, floor + 1 = 248 */
    ck_assert_uint_eq(hist_rank(HIST_NEAREST_RANK, 99, 100, 250), 248);
    ck_assert_uint_eq(hist_rank(HIST_ROUNDED_RANK, 99, 100, 250), 248);
    ck_assert_uint_eq(hist_rank(HIST_SORTED_INDEX, 99, 100, 250), 248);
    /* p99 of 201 (pn = 198.99): 199, 199, 199; p95 of 10 (9.5): 10, 10, 10;
     * p94 of 10 (9.4): 10, 9, 10 */
    ck_assert_uint_eq(hist_rank(HIST_ROUNDED_RANK, 94, 100, 10), 9);
    ck_assert_uint_eq(hist_rank(HIST_NEAREST_RANK, 94, 100, 10), 10);
    ck_assert_uint_eq(hist_rank(HIST_SORTED_INDEX, 94, 100, 10), 10);
    /* edges: p0 is rank 1, p100 rank n, under every rule */
    for (int r = 0; r < 3; r++) {
        ck_assert_uint_eq(hist_rank((hist_rank_rule)r, 0, 1, 7), 1);
        ck_assert_uint_eq(hist_rank((hist_rank_rule)r, 1, 1, 7), 7);
        ck_assert_uint_eq(hist_rank((hist_rank_rule)r, 1, 2, 0), 0);
    }
}
END_TEST

/* The value at a rank is the bucket's upper edge capped by the max; rank 1
 * (p0) is the exact min, so both ends are exact (MODEL.md). */
START_TEST(value_is_upper_edge_capped_by_max)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    hist_record(h, 1000); /* bucket 1000..1003 */
    hist_record(h, 1001);
    hist_record(h, 5000);
    /* rank 1: the exact min 1000, not the bucket's upper edge 1003 */
    ck_assert_int_eq(hist_value_at_rank(h, 1, NULL), 1000);
    /* rank 2: in the min's bucket, its upper edge 1003 */
    ck_assert_int_eq(hist_value_at_rank(h, 2, NULL), 1003);
    /* rank 3: bucket of 5000 is 4992..5023, capped at the max 5000 */
    ck_assert_int_eq(hist_value_at_rank(h, 3, NULL), 5000);
    /* p0 under every rule is rank 1; p50 nearest_rank is ceil(1.5) = 2 */
    for (int r = 0; r < 3; r++)
        ck_assert_int_eq(hist_value_at_percentile(h, (hist_rank_rule)r, 0, 1), 1000);
    ck_assert_int_eq(hist_value_at_percentile(h, HIST_NEAREST_RANK, 1, 2), 1003);
    ck_assert_int_eq(hist_value_at_percentile(h, HIST_SORTED_INDEX, 99, 100), 5000);
    hist_free(h);
}
END_TEST

/* Issue 11's example: a minimum of exactly 1000 ms. With S = 8, 10^9 ns has
 * bit length 30, shift 30 - 8 = 22, top bits 10^9 >> 22 = 238: its bucket is
 * 238 x 2^22 = 998,244,352 .. 239 x 2^22 - 1 = 1,002,438,655 ns. The p0 and
 * the .hgrm's 0% row must say 1000 ms, not 1002.438655 ms. */
START_TEST(p0_is_the_exact_minimum)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    uint64_t lo, hi;
    hist_bucket_range(hist_index_of(1000000000, 8), 8, &lo, &hi);
    ck_assert_uint_eq(lo, 998244352);
    ck_assert_uint_eq(hi, 1002438655);
    hist_record(h, 1000000000);
    hist_record(h, 1050000000);
    ck_assert_int_eq(hist_value_at_rank(h, 1, NULL), 1000000000);
    hist_iter it;
    hist_iter_init(&it, h, HIST_NEAREST_RANK, 5);
    ck_assert(hist_iter_next(&it));
    ck_assert_double_eq(it.percentile, 0.0);
    ck_assert_int_eq(it.value_ns, 1000000000);
    ck_assert_uint_eq(it.total_count, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(report_hgrm(f, h, HIST_NEAREST_RANK), 0);
    fclose(f);
    /* 10^9 ns is 1000 ms, written with 6 decimals (report.h) */
    ck_assert_msg(strstr(buf, "\n 1000.000000 0.000000000000          1           1.00\n"), "%s", buf);
    free(buf);
    hist_free(h);
}
END_TEST

/* Seed 002's open loop has a cliff at p50: values 7 ms x 90 then 180..507 ms
 * step 3; nearest_rank gives x[99] = 207 ms, sorted_index x[100] = 210 ms. */
START_TEST(rank_rule_decides_at_a_cliff)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 16), 0);
    for (int i = 0; i < 90; i++)
        hist_record(h, 7000000);
    for (int j = 0; j < 110; j++)
        hist_record(h, (int64_t)(507 - 3 * j) * 1000000);
    int64_t nr = hist_value_at_percentile(h, HIST_NEAREST_RANK, 1, 2);
    int64_t si = hist_value_at_percentile(h, HIST_SORTED_INDEX, 1, 2);
    /* S = 16: buckets at 2^27..2^28 are 2^12 ns wide */
    ck_assert(nr >= 207000000 && nr < 207000000 + 4096);
    ck_assert(si >= 210000000 && si < 210000000 + 4096);
    hist_free(h);
}
END_TEST

START_TEST(merge_adds_counts)
{
    hist *a, *b, *c;
    ck_assert_int_eq(hist_new(&a, 8), 0);
    ck_assert_int_eq(hist_new(&b, 8), 0);
    ck_assert_int_eq(hist_new(&c, 10), 0);
    hist_record(a, 42);
    hist_record(b, 158);
    ck_assert_int_eq(hist_merge(a, b), 0);
    ck_assert_uint_eq(hist_count(a), 2);
    ck_assert_double_eq(hist_mean(a), 100.0);
    ck_assert_int_eq(hist_min(a), 42);
    ck_assert_int_eq(hist_max(a), 158);
    ck_assert_int_eq(hist_merge(a, c), -EINVAL /* different S */);
    hist_free(a);
    hist_free(b);
    hist_free(c);
    hist_free(NULL);
}
END_TEST

/* Exact statistics where doubles or int64 would fail: a 3.04 s latency
 * squared (9.24e18 ns^2) already exceeds INT64_MAX; 10^6 of them pass 2^64. */
START_TEST(exact_sums_do_not_overflow)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    hist_record_n(h, 3040000000, 1000000);
    ck_assert_double_eq(hist_mean(h), 3040000000.0);
    ck_assert_double_eq(hist_stddev(h), 0.0);
    /* two values 0 and 2^62: mean 2^61, population sd 2^61 */
    hist_reset(h);
    hist_record(h, 0);
    hist_record(h, (int64_t)1 << 62);
    ck_assert_double_eq(hist_mean(h), 2305843009213693952.0);
    ck_assert_double_eq_tol(hist_stddev(h), 2305843009213693952.0, 1e3);
    /* 25, 50, 75: mean 50, sd sqrt(1250/3) = 20.412 */
    hist_reset(h);
    hist_record(h, 25);
    hist_record(h, 50);
    hist_record(h, 75);
    ck_assert_double_eq_tol(hist_stddev(h), 20.41241452, 1e-6);
    hist_free(h);
}
END_TEST

/* Issue 11's example: five identical latencies of 10.275062694 s. The old
 * E[x^2] - E[x]^2 in long double gave 2.828 ns; from the exact sums,
 * n S2 - S1^2 = 5 x 5 x^2 - (5 x)^2 = 0 exactly, so the population sd is 0.
 * The same for one value, for 10^6 copies of 3.04 s, and for the largest
 * values a histogram takes. Two values 1 and 2 (n = 2): var = (2 x 5 - 9) / 4
 * = 1/4, sd 0.5 exactly; the sample sd would be 0.7071. */
START_TEST(stddev_is_exact_and_population)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    for (int i = 0; i < 5; i++)
        hist_record(h, 10275062694);
    ck_assert_double_eq(hist_stddev(h), 0.0);
    hist_reset(h);
    hist_record(h, 10275062694);
    ck_assert_double_eq(hist_stddev(h), 0.0);
    hist_reset(h);
    hist_record_n(h, INT64_MAX, UINT64_MAX / 2);
    hist_record_n(h, INT64_MAX, UINT64_MAX / 2);
    ck_assert_double_eq(hist_stddev(h), 0.0);
    hist_reset(h);
    hist_record(h, 1);
    hist_record(h, 2);
    ck_assert_double_eq(hist_stddev(h), 0.5);
    /* 10^6 copies of 3.04 s and one of 0: n = 10^6 + 1, mean m = 3.04e15 / n;
     * var = (n 10^6 x^2 - 10^12 x^2) / n^2 = 10^6 x^2 / n^2, sd = 10^3 x / n
     * = 3.04e12 / 1000001 = 3039996.960003 ns */
    hist_reset(h);
    hist_record_n(h, 3040000000, 1000000);
    hist_record(h, 0);
    ck_assert_double_eq_tol(hist_stddev(h), 3.04e12 / 1000001.0, 1e-6);
    hist_free(h);
}
END_TEST

/* The .hgrm layout, checked line by line against HdrHistogram's output for
 * the values 25, 50, 75 (in its classic percentile distribution, as the
 * HdrHistogram JS test suite prints it with values in milliseconds: here the
 * values are 25, 50, 75 us, recorded exactly with S = 17). Only the Buckets
 * line differs, as the bucket layout is cosim's, and a last comment line
 * says which standard deviation it is (the population one: sqrt(1250/3)). */
START_TEST(hgrm_layout_matches_hdrhistogram)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 17), 0);
    hist_record(h, 25000);
    hist_record(h, 50000);
    hist_record(h, 75000);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(report_hgrm(f, h, HIST_NEAREST_RANK), 0);
    fclose(f);
    /* milliseconds, 6 decimals: 25 us is 0.025000; the population
     * deviation of 25, 50, 75 us is sqrt(1250 / 3) = 20.412 us */
    const char *expected =
        "       Value     Percentile TotalCount 1/(1-Percentile)\n"
        "\n"
        "    0.025000 0.000000000000          1           1.00\n"
        "    0.025000 0.100000000000          1           1.11\n"
        "    0.025000 0.200000000000          1           1.25\n"
        "    0.025000 0.300000000000          1           1.43\n"
        "    0.050000 0.400000000000          2           1.67\n"
        "    0.050000 0.500000000000          2           2.00\n"
        "    0.050000 0.550000000000          2           2.22\n"
        "    0.050000 0.600000000000          2           2.50\n"
        "    0.050000 0.650000000000          2           2.86\n"
        "    0.075000 0.700000000000          3           3.33\n"
        "    0.075000 1.000000000000          3\n"
        "#[Mean    =     0.050000, StdDeviation   =     0.020412]\n"
        "#[Max     =     0.075000, Total count    =            3]\n"
        "#[Buckets =           47, SubBuckets     =       131072]\n"
        "#[StdDeviation is the population one (divided by n, as HdrHistogram's); 0% is the exact min]\n";
    ck_assert_str_eq(buf, expected);
    free(buf);
    hist_free(h);
}
END_TEST

/* Iteration levels follow the ticks rule: after 50% steps of 5%, after 75%
 * of 2.5%, after 87.5% of 1.25%: 0, 10, ..., 50, 55, ..., 75, 77.5, ... */
START_TEST(iteration_levels)
{
    hist *h;
    ck_assert_int_eq(hist_new(&h, 8), 0);
    for (int i = 1; i <= 100000; i++)
        hist_record(h, i % 200);
    hist_iter it;
    hist_iter_init(&it, h, HIST_NEAREST_RANK, 5);
    const double want[] = {0, .1, .2, .3, .4, .5, .55, .6, .65, .7, .75, .775, .8, .825, .85,
                           .875, .8875, .9, .9125};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert(hist_iter_next(&it));
        ck_assert_double_eq(it.percentile, want[i]);
    }
    int rows = 0, finals = 0;
    while (hist_iter_next(&it)) {
        rows++;
        finals += it.is_final;
    }
    ck_assert_int_eq(finals, 1);
    ck_assert(it.is_final);
    ck_assert_int_eq(it.value_ns, 199);
    hist_free(h);
}
END_TEST

START_TEST(rule_names_round_trip)
{
    hist_rank_rule r;
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(hist_rank_rule_parse(hist_rank_rule_name((hist_rank_rule)i), &r), 0);
        ck_assert_int_eq((int)r, i);
    }
    ck_assert_int_ne(hist_rank_rule_parse("median", &r), 0);
    hist *h;
    ck_assert_int_ne(hist_new(&h, 0), 0);
    ck_assert_int_ne(hist_new(&h, 21), 0);
}
END_TEST

Suite *test_suite(void);

Suite *test_suite(void)
{
    Suite *s = suite_create("hist");
    TCase *tc = tcase_create("hist");
    tcase_set_timeout(tc, 120); /* the one-by-one references under the sanitizers */
    tcase_add_test(tc, index_of_1000_is_506);
    tcase_add_test(tc, record_nonneg_is_record);
    tcase_add_test(tc, counter_counts);
    tcase_add_test(tc, buckets_tile_and_bound_width);
    tcase_add_test(tc, correction_9ms_at_2ms_adds_7_5_3);
    tcase_add_test(tc, correction_exact_multiple_differs_by_rule);
    tcase_add_test(tc, correction_hdrhistogram_example);
    tcase_add_test(tc, series_matches_loop_edge_cases);
    tcase_add_test(tc, series_matches_loop_random);
    tcase_add_test(tc, series_too_long_for_a_loop);
    tcase_add_test(tc, correction_of_long_stalls_is_a_series);
    tcase_add_test(tc, series_refuses_what_it_cannot_record);
    tcase_add_test(tc, correction_count_by_hand);
    tcase_add_test(tc, rank_rules);
    tcase_add_test(tc, value_is_upper_edge_capped_by_max);
    tcase_add_test(tc, p0_is_the_exact_minimum);
    tcase_add_test(tc, stddev_is_exact_and_population);
    tcase_add_test(tc, rank_rule_decides_at_a_cliff);
    tcase_add_test(tc, merge_adds_counts);
    tcase_add_test(tc, exact_sums_do_not_overflow);
    tcase_add_test(tc, hgrm_layout_matches_hdrhistogram);
    tcase_add_test(tc, iteration_levels);
    tcase_add_test(tc, rule_names_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
