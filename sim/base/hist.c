/* hist.c - log-linear histogram (the book's Listing 5.1; HdrHistogram). */
#include "hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

struct hist {
    unsigned sub_bits;
    unsigned half_bits; /* S - 1 */
    uint64_t low_mask;  /* 2^S - 1 */
    uint64_t half_size; /* 2^(S-1): index_in multiplies by it (a shift by a
                           register count would need the count register,
                           which v >> shift already takes) */
    size_t n_counters;
    uint64_t total;
    int64_t min, max;
    u128 sum;        /* < 2^63 * 2^64: cannot overflow */
    u128 sumsq_lo;   /* sum of squares = sumsq_hi * 2^128 + sumsq_lo */
    uint64_t sumsq_hi;
    uint64_t counts[]; /* n_counters */
};

size_t hist_counter_count(unsigned sub_bits)
{
    /* 2^S exact counters, then 2^(S-1) for each of the 64 - S powers of two
     * from 2^S to 2^63 (the book's Exercise 5.3: 1024 + 53*512 + 512). */
    return ((size_t)1 << sub_bits) + (size_t)(64 - sub_bits) * ((size_t)1 << (sub_bits - 1));
}

int hist_new(hist **out, unsigned sub_bits)
{
    *out = NULL;
    if (sub_bits < HIST_MIN_SUB_BITS || sub_bits > HIST_MAX_SUB_BITS)
        return -EINVAL;
    size_t n = hist_counter_count(sub_bits);
    hist *h = calloc(1, sizeof *h + n * sizeof h->counts[0]);
    if (!h)
        return -ENOMEM;
    h->sub_bits = sub_bits;
    h->half_bits = sub_bits - 1;
    h->low_mask = ((uint64_t)1 << sub_bits) - 1;
    h->half_size = (uint64_t)1 << (sub_bits - 1);
    h->n_counters = n;
    h->min = INT64_MAX;
    *out = h;
    return 0;
}

void hist_free(hist *h)
{
    free(h);
}

void hist_reset(hist *h)
{
    memset(h->counts, 0, h->n_counters * sizeof h->counts[0]);
    h->total = 0;
    h->min = INT64_MAX;
    h->max = 0;
    h->sum = 0;
    h->sumsq_lo = 0;
    h->sumsq_hi = 0;
}

static unsigned bit_length(uint64_t v)
{
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

/* Without a branch: with shift = bitlength(v) - S for v >= 2^S, the index
 * 2^S + (shift - 1) 2^(S-1) + (v >> shift) - 2^(S-1) simplifies (2^S =
 * 2 2^(S-1)) to shift 2^(S-1) + (v >> shift). Below 2^S the same formula
 * with shift = 0 gives v itself, and shift = bitlength(v | (2^S - 1)) - S
 * is 0 there and bitlength(v) - S above (v | (2^S - 1) is never 0, S >= 1,
 * so the count of leading zeros is defined). Example, S = 8, v = 1000:
 * bitlength 10, shift 2, 2 * 128 + 250 = 506. */
static inline size_t index_of(uint64_t v, unsigned s)
{
    unsigned shift = 64u - (unsigned)__builtin_clzll(v | (((uint64_t)1 << s) - 1)) - s;
    return (size_t)(((uint64_t)shift << (s - 1)) + (v >> shift));
}

/* index_of with S's two constants read from the histogram: shift =
 * bitlength(v | (2^S - 1)) - S = (63 - clz) - (S - 1), the position of the
 * highest bit set less S - 1. */
static inline size_t index_in(const hist *h, uint64_t v)
{
    unsigned shift = ((unsigned)__builtin_clzll(v | h->low_mask) ^ 63u) - h->half_bits; /* 63 - clz */
    return (size_t)((uint64_t)shift * h->half_size + (v >> shift)); /* shift 2^(S-1) + (v >> shift) */
}

size_t hist_index_of(uint64_t v, unsigned s)
{
    return index_of(v, s);
}

void hist_bucket_range(size_t index, unsigned s, uint64_t *low, uint64_t *high)
{
    uint64_t full = (uint64_t)1 << s, half = full >> 1;
    if (index < full) {
        *low = *high = index;
        return;
    }
    uint64_t j = index - full;
    unsigned shift = (unsigned)(j / half) + 1;
    uint64_t mant = half + j % half;
    *low = mant << shift;
    *high = *low + (((uint64_t)1 << shift) - 1);
}

static inline void add_value(hist *h, uint64_t v, uint64_t n)
{
    h->counts[index_in(h, v)] += n;
    h->total += n;
    if ((int64_t)v < h->min)
        h->min = (int64_t)v;
    if ((int64_t)v > h->max)
        h->max = (int64_t)v;
    h->sum += (u128)v * n;
    /* v < 2^63 so v*v < 2^126; times n < 2^64 may pass 2^128, so the sum of
     * squares is kept in 192 bits (sumsq_hi:sumsq_lo). */
    u128 sq = (u128)v * v, lo = sq;
    uint64_t hi = 0;
    if (n != 1) {
        /* sq * n with sq = a 2^64 + b */
        uint64_t a = (uint64_t)(sq >> 64), b = (uint64_t)sq;
        u128 pb = (u128)b * n, pa = (u128)a * n;
        lo = pb + (pa << 64);
        hi = (uint64_t)(pa >> 64) + (lo < pb);
    }
    u128 before = h->sumsq_lo;
    h->sumsq_lo += lo;
    h->sumsq_hi += hi + (h->sumsq_lo < before);
}

void hist_record(hist *h, int64_t value_ns)
{
    hist_record_nonneg(h, value_ns < 0 ? 0 : value_ns);
}

void hist_record_nonneg(hist *h, int64_t value_ns)
{
    /* add_value for n = 1, written out: inlined into the testers' loops,
     * the 128-bit product v * n of add_value went through the stack */
    uint64_t v = (uint64_t)value_ns;
    h->counts[index_in(h, v)]++;
    h->total++;
    if ((int64_t)v < h->min)
        h->min = (int64_t)v;
    if ((int64_t)v > h->max)
        h->max = (int64_t)v;
    /* the sum in its two 64-bit halves: as a 128-bit addition of v, gcc
     * sign-extended v through the stack */
    uint64_t lo = (uint64_t)h->sum, hi = (uint64_t)(h->sum >> 64);
    hi += __builtin_add_overflow(lo, v, &lo);
    h->sum = (u128)hi << 64 | lo;
    u128 sq = (u128)v * v, before = h->sumsq_lo; /* v < 2^63: v^2 < 2^126 */
    h->sumsq_lo += sq;
    h->sumsq_hi += h->sumsq_lo < before;
}

void hist_record_n(hist *h, int64_t value_ns, uint64_t count)
{
    if (count)
        add_value(h, value_ns < 0 ? 0 : (uint64_t)value_ns, count);
}

/* A 192-bit unsigned value hi 2^128 + lo: a sum of squares. */
typedef struct u192 {
    u128 lo;
    uint64_t hi;
} u192;

/* x y exactly, for x < 2^128 and y < 2^64 (x = a 2^64 + b). */
static u192 mul_128_64(u128 x, uint64_t y)
{
    uint64_t a = (uint64_t)(x >> 64), b = (uint64_t)x;
    u128 pb = (u128)b * y, pa = (u128)a * y;
    u192 r;
    r.lo = pb + (pa << 64);
    r.hi = (uint64_t)(pa >> 64) + (r.lo < pb);
    return r;
}

/* The histogram's sum of squares += x (the caller keeps it below 2^192). */
static void add_sumsq(hist *h, u192 x)
{
    u128 before = h->sumsq_lo;
    h->sumsq_lo += x.lo;
    h->sumsq_hi += x.hi + (h->sumsq_lo < before);
}

/* The largest value in v's bucket (the book's Listing 5.1 layout). */
static inline uint64_t bucket_top(uint64_t v, unsigned s)
{
    if (v < ((uint64_t)1 << s))
        return v;
    unsigned shift = bit_length(v) - s;
    return ((v >> shift) << shift) | (((uint64_t)1 << shift) - 1);
}

/* Sum of squares of a, a + d, ..., a + (n-1) d, for n >= 1:
 *   n a^2 + a d n(n-1) + d^2 (n-1) n (2n-1) / 6
 * (the sum of i and of i^2 for i < n). Bounds, with L = a + (n-1) d the last
 * term < 2^63: a^2 < 2^126; a n < 2^127 and (n-1) d <= L; for the last
 * term, (n-1) n (2n-1) is divided by 6 first (one of n-1, n is even; one of
 * n-1, n, 2n-1 is a multiple of 3), then (n-1)' d <= L < 2^63,
 * n' d <= L + d < 2^64, 2n-1 < 2^64. Every product is below 2^190. */
static void add_series_sumsq(hist *h, uint64_t a, uint64_t d, uint64_t n)
{
    add_sumsq(h, mul_128_64((u128)a * a, n));
    if (n < 2)
        return;
    add_sumsq(h, mul_128_64((u128)a * n, (n - 1) * d));
    uint64_t p = n - 1, q = n, r = 2 * n - 1;
    if (p % 2 == 0)
        p /= 2;
    else
        q /= 2;
    if (p % 3 == 0)
        p /= 3;
    else if (q % 3 == 0)
        q /= 3;
    else
        r /= 3;
    add_sumsq(h, mul_128_64((u128)(p * d) * (q * d), r));
}

/* Out of line: inlined into hist_record_corrected it makes every
 * corrected record pay for its registers, also when nothing is added
 * (bench/instructions.sh). */
__attribute__((noinline)) int hist_record_series(hist *h, int64_t first_ns, int64_t step_ns, uint64_t n)
{
    if (n == 0)
        return 0;
    if (first_ns < 0 || (n > 1 && step_ns <= 0))
        return -EINVAL;
    uint64_t a = (uint64_t)first_ns, d = n > 1 ? (uint64_t)step_ns : 0, span, last, total;
    if (__builtin_mul_overflow(n - 1, d, &span) || __builtin_add_overflow(a, span, &last) ||
        last > (uint64_t)INT64_MAX || __builtin_add_overflow(h->total, n, &total))
        return -EOVERFLOW;
    /* Walk the buckets the series crosses, from the smallest term up: the
     * terms x, x + d, ... in x's bucket [.., top] number (top - x) / d + 1.
     * Each step fills one bucket, so there are at most min(n, buckets)
     * steps. */
    uint64_t x = a, left = n;
    for (;;) {
        uint64_t top = bucket_top(x, h->sub_bits);
        uint64_t m = d ? (top - x) / d + 1 : left;
        if (m > left)
            m = left;
        h->counts[index_in(h, x)] += m;
        left -= m;
        if (!left)
            break;
        x += m * d; /* <= last: no overflow */
    }
    h->total = total;
    if ((int64_t)a < h->min)
        h->min = (int64_t)a;
    if ((int64_t)last > h->max)
        h->max = (int64_t)last;
    /* sum = n a + d n (n-1) / 2; n a < 2^127, d (n-1) <= last < 2^63 */
    u128 tri = n % 2 == 0 ? (u128)(n / 2) * (n - 1) : (u128)n * ((n - 1) / 2);
    h->sum += (u128)a * n + tri * d;
    add_series_sumsq(h, a, d, n);
    return 0;
}

uint64_t hist_correction_count(int64_t value_ns, int64_t interval_ns, hist_correction rule)
{
    if (interval_ns <= 0 || value_ns <= interval_ns)
        return 0;
    uint64_t v = (uint64_t)value_ns, d = (uint64_t)interval_ns;
    /* HdrHistogram: v - k d >= d  <=>  k <= v/d - 1;
     * the book:     v - k d >  d  <=>  k d <= v - d - 1  <=>  k <= (v-1)/d - 1 */
    uint64_t q = rule == HIST_CORRECT_BOOK ? (v - 1) / d : v / d;
    return q >= 1 ? q - 1 : 0;
}

/* Tene's correction (HdrHistogram's recordValueWithExpectedInterval; the
 * book's Listing 5.2): a reply that took v at expected interval D stands for
 * the requests that would have been sent at D, 2D, ... into the wait, which
 * would have waited v - D, v - 2D, ... The HdrHistogram rule keeps adding
 * while the value is >= D, the book's while it is > D. The added values are
 * the arithmetic series from v - K D up to v - D (K = hist_correction_count),
 * recorded per bucket by hist_record_series. */
uint64_t hist_record_corrected(hist *h, int64_t value_ns, int64_t interval_ns,
                               hist_correction rule, int64_t over_ns, uint64_t *over)
{
    uint64_t k = hist_correction_count(value_ns, interval_ns, rule), total;
    if (__builtin_add_overflow(k, 1, &total) || __builtin_add_overflow(h->total, total, &total))
        return 0;
    hist_record(h, value_ns);
    if (over && value_ns > over_ns)
        (*over)++;
    if (!k)
        return 1;
    /* k d <= v - d, so the smallest term v - k d >= d > 0 */
    int64_t first = value_ns - (int64_t)(k * (uint64_t)interval_ns);
    hist_record_series(h, first, interval_ns, k); /* cannot fail: checked above */
    if (over) {
        /* terms first + i D > over_ns: all of them when first > over_ns,
         * else those with i > (over_ns - first) / D */
        uint64_t n_over = k;
        if (over_ns >= first) {
            uint64_t at_most = (uint64_t)(over_ns - first) / (uint64_t)interval_ns + 1;
            n_over = at_most >= k ? 0 : k - at_most;
        }
        *over += n_over;
    }
    return k + 1;
}

int hist_equal(const hist *a, const hist *b)
{
    return a->sub_bits == b->sub_bits && a->total == b->total && a->min == b->min && a->max == b->max &&
           a->sum == b->sum && a->sumsq_lo == b->sumsq_lo && a->sumsq_hi == b->sumsq_hi &&
           memcmp(a->counts, b->counts, a->n_counters * sizeof a->counts[0]) == 0;
}

int hist_merge(hist *dst, const hist *src)
{
    if (dst->sub_bits != src->sub_bits)
        return -EINVAL;
    for (size_t i = 0; i < dst->n_counters; i++)
        dst->counts[i] += src->counts[i];
    if (src->total) {
        if (src->min < dst->min)
            dst->min = src->min;
        if (src->max > dst->max)
            dst->max = src->max;
    }
    dst->total += src->total;
    dst->sum += src->sum;
    u128 before = dst->sumsq_lo;
    dst->sumsq_lo += src->sumsq_lo;
    dst->sumsq_hi += src->sumsq_hi + (dst->sumsq_lo < before);
    return 0;
}

int hist_save(const hist *h, FILE *f)
{
    uint64_t nonzero = 0;
    for (size_t i = 0; i < h->n_counters; i++)
        nonzero += h->counts[i] != 0;
    fwrite(h, sizeof *h, 1, f);
    fwrite(&nonzero, sizeof nonzero, 1, f);
    for (size_t i = 0; i < h->n_counters; i++)
        if (h->counts[i]) {
            uint64_t pair[2] = {(uint64_t)i, h->counts[i]};
            fwrite(pair, sizeof pair, 1, f);
        }
    return ferror(f) ? -EIO : 0;
}

/* n bytes from *at into dst; -EINVAL when fewer are left. */
static int take(const unsigned char **at, const unsigned char *end, void *dst, size_t n)
{
    if ((size_t)(end - *at) < n)
        return -EINVAL;
    memcpy(dst, *at, n);
    *at += n;
    return 0;
}

int hist_load(hist **out, const unsigned char **at, const unsigned char *end)
{
    *out = NULL;
    hist head;
    uint64_t nonzero, sum = 0;
    if (take(at, end, &head, sizeof head) || take(at, end, &nonzero, sizeof nonzero))
        return -EINVAL;
    hist *h;
    int rc = hist_new(&h, head.sub_bits);
    if (rc)
        return rc == -ENOMEM ? rc : -EINVAL;
    if (head.n_counters != h->n_counters || nonzero > h->n_counters) {
        hist_free(h);
        return -EINVAL;
    }
    for (uint64_t k = 0; k < nonzero; k++) {
        uint64_t pair[2];
        if (take(at, end, pair, sizeof pair) || pair[0] >= h->n_counters || __builtin_add_overflow(sum, pair[1], &sum)) {
            hist_free(h);
            return -EINVAL;
        }
        h->counts[pair[0]] = pair[1];
    }
    if (sum != head.total) {
        hist_free(h);
        return -EINVAL;
    }
    h->total = head.total;
    h->min = head.min;
    h->max = head.max;
    h->sum = head.sum;
    h->sumsq_lo = head.sumsq_lo;
    h->sumsq_hi = head.sumsq_hi;
    *out = h;
    return 0;
}

uint64_t hist_count(const hist *h) { return h->total; }
int64_t hist_min(const hist *h) { return h->total ? h->min : 0; }
int64_t hist_max(const hist *h) { return h->max; }
unsigned hist_sub_bits(const hist *h) { return h->sub_bits; }

uint64_t hist_count_at_index(const hist *h, size_t index)
{
    return index < h->n_counters ? h->counts[index] : 0;
}

double hist_mean(const hist *h)
{
    if (!h->total)
        return 0.0;
    /* exact quotient and remainder, then one rounding */
    u128 q = h->sum / h->total, r = h->sum % h->total;
    return (double)q + (double)r / (double)h->total;
}

/* 256-bit unsigned integers as four 64-bit limbs, least significant first:
 * just what the exact variance needs. */
typedef struct u256 {
    uint64_t w[4];
} u256;

/* a (a 192-bit value hi:lo) times n */
static u256 mul_192_by_64(u128 lo, uint64_t hi, uint64_t n)
{
    uint64_t in[3] = {(uint64_t)lo, (uint64_t)(lo >> 64), hi};
    u256 out = {{0, 0, 0, 0}};
    uint64_t carry = 0;
    for (int i = 0; i < 3; i++) {
        u128 p = (u128)in[i] * n + carry;
        out.w[i] = (uint64_t)p;
        carry = (uint64_t)(p >> 64);
    }
    out.w[3] = carry;
    return out;
}

/* a * a for a 128-bit a (schoolbook on 64-bit halves) */
static u256 square_128(u128 a)
{
    uint64_t x[2] = {(uint64_t)a, (uint64_t)(a >> 64)};
    u256 out = {{0, 0, 0, 0}};
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 2; j++) {
            u128 p = (u128)x[i] * x[j] + out.w[i + j] + carry;
            out.w[i + j] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
        out.w[i + 2] = carry;
    }
    return out;
}

/* a - b, for a >= b */
static u256 sub_256(u256 a, u256 b)
{
    u256 out;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t d = a.w[i] - b.w[i];
        uint64_t b1 = a.w[i] < b.w[i];
        out.w[i] = d - borrow;
        borrow = b1 | (d < borrow);
    }
    return out;
}

/* The population standard deviation (HdrHistogram's getStdDeviation
 * divides by n too): var = sum (x - mean)^2 / n = (n S2 - S1^2) / n^2 with
 * S1 = sum x, S2 = sum x^2. The numerator n S2 - S1^2 is computed exactly in
 * 256-bit integers (n < 2^64, S2 < 2^192, S1 < 2^127), so identical values
 * give exactly 0; only its square root is rounded: sd = sqrt(n S2 - S1^2) / n,
 * with a relative error of about 2^-63 before the final rounding to double. */
double hist_stddev(const hist *h)
{
    if (!h->total)
        return 0.0;
    u256 num = sub_256(mul_192_by_64(h->sumsq_lo, h->sumsq_hi, h->total), square_128(h->sum));
    long double v = 0;
    for (int i = 3; i >= 0; i--)
        v = v * 0x1p64L + (long double)num.w[i];
    return (double)(sqrtl(v) / (long double)h->total);
}

uint64_t hist_rank(hist_rank_rule rule, uint64_t num, uint64_t den, uint64_t n)
{
    if (n == 0 || den == 0)
        return 0;
    u128 pn = (u128)num * n; /* p n = pn / den */
    u128 r;
    switch (rule) {
    case HIST_ROUNDED_RANK:
        r = (2 * pn + den) / (2 * (u128)den); /* floor(pn/den + 1/2) */
        break;
    case HIST_SORTED_INDEX:
        r = pn / den + 1;
        break;
    case HIST_NEAREST_RANK:
    default:
        r = (pn + den - 1) / den;
        break;
    }
    if (r < 1)
        r = 1;
    if (r > n)
        r = n;
    return (uint64_t)r;
}

void hist_cursor_init(const hist *h, hist_cursor *c)
{
    c->index = h->total ? hist_index_of((uint64_t)h->min, h->sub_bits) : 0;
    c->cum = h->total ? h->counts[c->index] : 0;
}

int64_t hist_cursor_value_at_rank(const hist *h, hist_cursor *c, uint64_t rank, uint64_t *cum_out)
{
    if (rank == 0 || h->total == 0) {
        if (cum_out)
            *cum_out = 0;
        return 0;
    }
    if (rank > h->total)
        rank = h->total;
    if (rank == 1) { /* p0: the exact minimum, as the top is capped by the max */
        if (cum_out)
            *cum_out = c->cum;
        return h->min;
    }
    while (c->cum < rank)
        c->cum += h->counts[++c->index];
    if (cum_out)
        *cum_out = c->cum;
    uint64_t lo, hi;
    hist_bucket_range(c->index, h->sub_bits, &lo, &hi);
    return hi > (uint64_t)h->max ? h->max : (int64_t)hi;
}

int64_t hist_value_at_rank(const hist *h, uint64_t rank, uint64_t *cum_out)
{
    hist_cursor c;
    hist_cursor_init(h, &c);
    return hist_cursor_value_at_rank(h, &c, rank, cum_out);
}

void hist_iter_init(hist_iter *it, const hist *h, hist_rank_rule rule, unsigned ticks)
{
    memset(it, 0, sizeof *it);
    it->h = h;
    it->rule = rule;
    it->ticks = ticks ? ticks : 5;
    it->num = 0;
    it->b = 0;
    hist_cursor_init(h, &it->cursor);
    it->done = h->total == 0;
}

int hist_iter_next(hist_iter *it)
{
    if (it->done)
        return 0;
    const hist *h = it->h;
    if (it->final_emitted) {
        /* the closing row: 100%, the largest value */
        it->done = 1;
        it->p_num = it->p_den = 1;
        it->percentile = 1.0;
        it->value_ns = h->max;
        it->total_count = h->total;
        it->is_final = 1;
        return 1;
    }
    uint64_t den = it->ticks << it->b;
    it->p_num = it->num;
    it->p_den = den;
    it->percentile = (double)it->num / (double)den;
    uint64_t rank = hist_rank(it->rule, it->num, den, h->total);
    it->value_ns = hist_cursor_value_at_rank(h, &it->cursor, rank, &it->total_count);
    it->is_final = 0;
    if (it->total_count >= h->total)
        it->final_emitted = 1; /* this row reached the largest value */

    /* next level: e = floor(log2(1/(1-p))) is the largest e with
     * 2^e (den - num) <= den; the step is 1/(ticks 2^(e+1)). */
    uint64_t rest = den - it->num;
    unsigned e = 0;
    while (e < 62 && ((u128)rest << (e + 1)) <= den)
        e++;
    unsigned nb = e + 1;
    if (nb > it->b) {
        if (nb > 56) { /* finer than any histogram needs: stop here */
            it->final_emitted = 1;
            return 1;
        }
        it->num <<= (nb - it->b);
        it->b = nb;
    }
    it->num += (uint64_t)1 << (it->b - nb);
    while (it->b > 0 && (it->num & 1) == 0) {
        it->num >>= 1;
        it->b--;
    }
    return 1;
}

int64_t hist_value_at_percentile(const hist *h, hist_rank_rule rule, uint64_t num, uint64_t den)
{
    return hist_value_at_rank(h, hist_rank(rule, num, den, h->total), NULL);
}

static const char *const rule_names[] = {
    [HIST_NEAREST_RANK] = "nearest_rank", [HIST_ROUNDED_RANK] = "rounded_rank",
    [HIST_SORTED_INDEX] = "sorted_index",
};
const names_table hist_rank_rule_names = {rule_names, ARRAY_SIZE(rule_names)};

const char *hist_rank_rule_name(hist_rank_rule rule)
{
    return names_get(hist_rank_rule_names, (int)rule);
}

int hist_rank_rule_parse(const char *name, hist_rank_rule *out)
{
    int i = names_find(hist_rank_rule_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (hist_rank_rule)i;
    return 0;
}

static const char *const correction_names[] = {
    [HIST_CORRECT_HDR] = "hdrhistogram", [HIST_CORRECT_BOOK] = "book",
};
const names_table hist_correction_names = {correction_names, ARRAY_SIZE(correction_names)};

const char *hist_correction_name(hist_correction c)
{
    return names_get(hist_correction_names, (int)c);
}

int hist_correction_parse(const char *name, hist_correction *out)
{
    int i = names_find(hist_correction_names, name);
    if (i < 0)
        return -EINVAL;
    *out = (hist_correction)i;
    return 0;
}

int hist_iter_next_spectrum(hist_iter *it, double *last_x, double *x)
{
    if (!hist_iter_next(it))
        return 0;
    *x = it->is_final ? (double)hist_count(it->h) : 1.0 / (1.0 - it->percentile);
    if (it->is_final && *x <= *last_x)
        return 0;
    *last_x = *x;
    return 1;
}
