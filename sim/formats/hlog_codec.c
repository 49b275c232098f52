/* hlog_codec.c - HdrHistogram's encoding of one histogram (part of the hlog
 * module, API in hlog.h): base64, the bucket layout, decoding V0/V1/V2
 * (fixed-width counts or ZigZag LEB128 varints, zlib-compressed or not) and
 * encoding compressed V2. The interval log's text is hlog.c. */
#include "hlog.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- base64 ---- */

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t hlog_base64_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void hlog_base64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t i = 0, o = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64_alphabet[v >> 18];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
        out[o++] = b64_alphabet[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = b64_alphabet[v >> 18];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = b64_alphabet[v >> 18];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
        out[o++] = '=';
    }
    out[o] = '\0';
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

int hlog_base64_decode(const char *in, size_t n, uint8_t *out, size_t *out_len)
{
    *out_len = 0;
    if (n % 4)
        return -EINVAL;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int last = i + 4 == n;
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            char c = in[i + j];
            if (c == '=' && last && j >= 2) {
                v[j] = 0;
                pad++;
            } else {
                if (pad) /* "=x": padding only at the very end */
                    return -EINVAL;
                v[j] = b64_value(c);
                if (v[j] < 0)
                    return -EINVAL;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        /* the bits a padded group does not use must be zero (RFC 4648 3.5
         * allows rejecting them; a canonical encoder writes zeros) */
        if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))
            return -EINVAL;
        out[o++] = (uint8_t)(w >> 16);
        if (pad < 2)
            out[o++] = (uint8_t)(w >> 8);
        if (pad < 1)
            out[o++] = (uint8_t)w;
    }
    *out_len = o;
    return 0;
}

/* ---- layout ---- */

void hlog_histogram_clear(hlog_histogram *h)
{
    free(h->counts);
    h->counts = NULL;
    h->n = 0;
    h->total = 0;
}

int hlog_layout(int32_t digits, int64_t lowest, unsigned *unit_magnitude, unsigned *sub_bucket_bits)
{
    if (digits < 0 || digits > 5 || lowest < 1)
        return -EINVAL;
    /* AbstractHistogram.init: largestValueWithSingleUnitResolution = 2 10^d,
     * subBucketCountMagnitude = ceil(log(that) / log 2), unitMagnitude =
     * (int)(log(lowest) / log 2); the same double arithmetic here. */
    int64_t largest = 2;
    for (int32_t i = 0; i < digits; i++)
        largest *= 10;
    double m = ceil(log((double)largest) / log(2.0));
    double u = floor(log((double)lowest) / log(2.0));
    if (m + u > 62)
        return -EINVAL;
    *sub_bucket_bits = (unsigned)m;
    *unit_magnitude = (unsigned)u;
    return 0;
}

int hlog_index_range(const hlog_histogram *h, int64_t index, int64_t *lo, int64_t *hi)
{
    unsigned m = h->sub_bucket_bits, u = h->unit_magnitude;
    int64_t half = (int64_t)1 << (m - 1);
    if (index < 0)
        return -ERANGE;
    /* valueFromIndex: bucket = (index >> (M-1)) - 1, sub = (index & (half-1)) + half,
     * bucket 0 takes the lower half too */
    int64_t bucket = (index >> (m - 1)) - 1;
    int64_t sub = (index & (half - 1)) + half;
    if (bucket < 0) {
        sub -= half;
        bucket = 0;
    }
    /* sub < 2^M, so the top value is below 2^(M + bucket + u) */
    if ((int64_t)m + bucket + (int64_t)u > 63)
        return -ERANGE;
    unsigned shift = (unsigned)(bucket + (int64_t)u);
    uint64_t low = (uint64_t)sub << shift;
    uint64_t high = low + (((uint64_t)1 << shift) - 1);
    if (high > (uint64_t)INT64_MAX)
        return -ERANGE;
    *lo = (int64_t)low;
    *hi = (int64_t)high;
    return 0;
}

int64_t hlog_histogram_max(const hlog_histogram *h)
{
    int64_t lo, hi;
    if (h->n == 0 || hlog_index_range(h, h->counts[h->n - 1].index, &lo, &hi))
        return 0;
    return hi;
}

/* ---- decoding ---- */

#define COOKIE_V0 0x1c849308u
#define COOKIE_V0_COMPRESSED 0x1c849309u
#define COOKIE_V1 0x1c849301u
#define COOKIE_V1_COMPRESSED 0x1c849302u
#define COOKIE_V2 0x1c849303u
#define COOKIE_V2_COMPRESSED 0x1c849304u
#define COOKIE_BASE(c) ((c) & ~0xf0u)
/* DoubleHistogram's cookies (DoubleHistogram.java, DHIST_encodingCookie
 * and DHIST_compressedEncodingCookie) */
#define IS_DOUBLE_HISTOGRAM(c) ((c) == 0x0c72124eu || (c) == 0x0c72124fu)

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

/* The length of the counts array HdrHistogram allocates for the highest
 * trackable value (AbstractHistogram.establishSize and
 * getBucketsNeededToCoverValue): buckets until sub_bucket_count << (u +
 * buckets - 1) passes highest, plus one; (buckets + 1) 2^(M-1) counts. */
static uint64_t counts_length(unsigned m, unsigned u, int64_t highest)
{
    uint64_t smallest_untrackable = (uint64_t)1 << (m + u);
    uint64_t buckets = 1;
    while (smallest_untrackable <= (uint64_t)(highest < 2 ? 2 : highest)) {
        if (smallest_untrackable > (uint64_t)INT64_MAX / 2) {
            buckets++;
            break;
        }
        smallest_untrackable <<= 1;
        buckets++;
    }
    return (buckets + 1) << (m - 1);
}

/* Inflate the zlib stream in[0..n) without ever producing more than the
 * header of the encoding inside lets: first its header (40 bytes, 32 for
 * V0), then at most its payload length, itself at most 9 bytes for each
 * count of the layout its highest trackable value needs (what
 * HdrHistogram Java allocates, AbstractHistogram.decodeFromByteBuffer's
 * expectedCapacity), and at most *budget bytes in all (the reader's
 * allowance for the whole file). So a zlib bomb costs time in proportion
 * to what it is allowed, not to what it would inflate to. */
static int inflate_bounded(const uint8_t *in, size_t n, size_t *budget, uint8_t **out, size_t *out_len,
                           const char **why)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK)
        return -ENOMEM;
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)n;
    uint8_t head[40];
    zs.next_out = head;
    zs.avail_out = sizeof head;
    int zr = inflate(&zs, Z_NO_FLUSH);
    size_t got = sizeof head - zs.avail_out;
    if ((zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) || got < 32) {
        inflateEnd(&zs);
        *why = got < 32 && (zr == Z_OK || zr == Z_STREAM_END || zr == Z_BUF_ERROR)
                   ? "the compressed histogram is too short for a histogram's header"
                   : "the compressed histogram is not a valid zlib stream";
        return zr == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
    }
    uint32_t base = COOKIE_BASE(be32(head));
    size_t header = base == COOKIE_V0 ? 32 : 40;
    int32_t digits = (int32_t)be32(head + (header == 32 ? 4 : 12));
    int64_t lowest = (int64_t)be64(head + (header == 32 ? 8 : 16));
    int64_t highest = (int64_t)be64(head + (header == 32 ? 16 : 24));
    unsigned u, m;
    if ((base != COOKIE_V0 && base != COOKIE_V1 && base != COOKIE_V2) || got < header ||
        hlog_layout(digits, lowest, &u, &m)) {
        inflateEnd(&zs);
        *why = got < header ? "the compressed histogram is too short for a histogram's header"
               : (base != COOKIE_V0 && base != COOKIE_V1 && base != COOKIE_V2)
                   ? "the compressed histogram holds no HdrHistogram encoding (unknown cookie)"
                   : "the histogram's settings are invalid (significant digits outside 0..5 or lowest value < 1)";
        return -EINVAL;
    }
    uint64_t most = counts_length(m, u, highest) * 9;
    if (header == 40) {
        int32_t plen = (int32_t)be32(head + 4);
        if (plen < 0 || (uint64_t)plen > most) {
            inflateEnd(&zs);
            *why = "the histogram's payload length is more than its layout can hold (9 bytes a count)";
            return -EINVAL;
        }
        most = (uint64_t)plen;
    }
    if (header + most > *budget) {
        inflateEnd(&zs);
        *why = "the compressed histograms inflate past the file's allowance (1 MiB and 128 bytes for each "
               "compressed byte read): a limit against zlib bombs";
        return -EFBIG;
    }
    size_t cap = header + (size_t)most + 1; /* one more: a stream that goes on is refused */
    uint8_t *buf = malloc(cap);
    if (!buf) {
        inflateEnd(&zs);
        return -ENOMEM;
    }
    memcpy(buf, head, got);
    size_t len = got;
    while (zr != Z_STREAM_END && len < cap) {
        zs.next_out = buf + len;
        zs.avail_out = (uInt)(cap - len);
        zr = inflate(&zs, Z_NO_FLUSH);
        len = cap - zs.avail_out;
        if (zr != Z_OK && zr != Z_STREAM_END) {
            free(buf);
            inflateEnd(&zs);
            *why = zr == Z_BUF_ERROR ? "the compressed histogram is cut (its zlib stream does not end)"
                                     : "the compressed histogram is not a valid zlib stream";
            return zr == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
        }
    }
    inflateEnd(&zs);
    if (len == cap) {
        free(buf);
        *why = "the compressed histogram inflates past the payload length its header gives: a limit against "
               "zlib bombs";
        return -EFBIG;
    }
    *budget -= len;
    *out = buf;
    *out_len = len;
    return 0;
}

static int push_count(hlog_histogram *h, size_t *cap, int64_t index, uint64_t count)
{
    if (h->n == HLOG_MAX_COUNTS)
        return -EFBIG;
    if (h->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        hlog_count *nb = realloc(h->counts, nc * sizeof *nb);
        if (!nb)
            return -ENOMEM;
        h->counts = nb;
        *cap = nc;
    }
    h->counts[h->n++] = (hlog_count){index, count};
    return 0;
}

/* Read one ZigZag LEB128-64b9B varint (ZigZagEncoding.getLong). */
static int get_varint(const uint8_t **p, const uint8_t *end, int64_t *out)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 9; i++) {
        if (*p >= end)
            return -EINVAL;
        uint8_t b = *(*p)++;
        if (i == 8) {
            v |= (uint64_t)b << 56; /* the ninth byte carries all 8 bits */
            break;
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            break;
    }
    *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1)); /* zigzag: (v >>> 1) ^ -(v & 1) */
    return 0;
}

/* The header of an uncompressed encoding: where the counts are and how
 * they are written. */
typedef struct plain_header {
    size_t header;  /* bytes before the payload: 40 (V1, V2) or 32 (V0) */
    size_t payload; /* bytes of counts after it */
    unsigned word;  /* bytes a count: 2, 4 or 8, or 9 for V2's varints */
    int32_t digits, norm;
    int64_t lowest, highest;
    double ratio;
} plain_header;

/* Read the cookie and header fields of an uncompressed V0, V1 or V2
 * encoding into ph (and h->encoding); the payload length is checked
 * against len, the settings are not. */
static int read_plain_header(const uint8_t *buf, size_t len, hlog_histogram *h, plain_header *ph, const char **why)
{
    if (len < 4) {
        *why = "truncated histogram header";
        return -EINVAL;
    }
    uint32_t cookie = be32(buf);
    uint32_t base = COOKIE_BASE(cookie);
    ph->norm = 0;
    ph->ratio = 1.0;
    if (base == COOKIE_V2 || base == COOKIE_V1) {
        ph->header = 40;
        if (len < ph->header) {
            *why = "truncated histogram header";
            return -EINVAL;
        }
        int32_t plen = (int32_t)be32(buf + 4);
        ph->norm = (int32_t)be32(buf + 8);
        ph->digits = (int32_t)be32(buf + 12);
        ph->lowest = (int64_t)be64(buf + 16);
        ph->highest = (int64_t)be64(buf + 24);
        uint64_t rb = be64(buf + 32);
        memcpy(&ph->ratio, &rb, sizeof ph->ratio);
        if (plen < 0 || (size_t)plen > len - ph->header) {
            *why = "the histogram's payload is shorter than its header says";
            return -EINVAL;
        }
        ph->payload = (size_t)plen;
        ph->word = base == COOKIE_V2 ? 9 : ((cookie & 0xf0u) >> 4) & 0xeu;
        h->encoding = base == COOKIE_V2 ? 2 : 1;
    } else if (base == COOKIE_V0) {
        ph->header = 32;
        if (len < ph->header) {
            *why = "truncated histogram header";
            return -EINVAL;
        }
        ph->digits = (int32_t)be32(buf + 4);
        ph->lowest = (int64_t)be64(buf + 8);
        ph->highest = (int64_t)be64(buf + 16);
        ph->payload = len - ph->header;
        ph->word = ((cookie & 0xf0u) >> 4) & 0xeu;
        h->encoding = 0;
    } else {
        *why = IS_DOUBLE_HISTOGRAM(cookie) ? "a DoubleHistogram, which cosim does not read"
                                           : "not an HdrHistogram encoding (unknown cookie)";
        return -EINVAL;
    }
    return 0;
}

/* Read the counts of payload p[0..n) (word bytes each, or V2's varints
 * where a negative value -k skips k zero counts) into h's non-zero counts
 * and total; h's layout is set. */
static int decode_counts(const uint8_t *p, size_t n, unsigned word, hlog_histogram *h, const char **why)
{
    /* the largest index whose bucket lies below 2^63 */
    int64_t half = (int64_t)1 << (h->sub_bucket_bits - 1);
    int64_t max_bucket = 63 - (int64_t)h->sub_bucket_bits - (int64_t)h->unit_magnitude;
    int64_t max_index = (max_bucket + 2) * half - 1;
    const uint8_t *end = p + n;
    size_t cap = 0;
    int64_t index = 0;
    while (p < end) {
        int64_t count;
        if (word == 9) {
            if (get_varint(&p, end, &count)) {
                *why = "truncated count in the histogram's payload";
                return -EINVAL;
            }
            if (count < 0) {
                if (count < -(int64_t)INT32_MAX) {
                    *why = "a run of zero counts longer than 2^31 - 1";
                    return -EINVAL;
                }
                index += -count;
                continue;
            }
        } else {
            if ((size_t)(end - p) < word) {
                *why = "truncated count in the histogram's payload";
                return -EINVAL;
            }
            count = word == 2 ? (int16_t)(p[0] << 8 | p[1]) : word == 4 ? (int32_t)be32(p) : (int64_t)be64(p);
            p += word;
            if (count < 0) {
                *why = "a negative count";
                return -EINVAL;
            }
        }
        if (count > 0) {
            if (index > max_index) {
                *why = "a count at a value beyond 2^63";
                return -EINVAL;
            }
            if (__builtin_add_overflow(h->total, (uint64_t)count, &h->total)) {
                *why = "the counts add up beyond 2^64";
                return -EINVAL;
            }
            int rc = push_count(h, &cap, index, (uint64_t)count);
            if (rc == -EFBIG)
                *why = "the histogram holds more than 1048576 non-zero counts: cosim's limit";
            if (rc)
                return rc;
        }
        index++;
    }
    return 0;
}

/* Decode an uncompressed encoding: header, settings, counts. */
static int decode_plain(const uint8_t *buf, size_t len, hlog_histogram *h, const char **why)
{
    plain_header ph;
    int rc = read_plain_header(buf, len, h, &ph, why);
    if (rc)
        return rc;
    if (ph.word != 9 && ph.word != 2 && ph.word != 4 && ph.word != 8) {
        *why = "the histogram's word size is not 2, 4 or 8 bytes";
        return -EINVAL;
    }
    /* the normalizing index offset: HdrHistogram Java's decoder stores the
     * counts through it and its getters read them back through it, so the
     * counts are read as written, index for index, whatever it is
     * (hdr-histogram-js writes 1); kept for the record */
    h->normalizing_offset = ph.norm;
    h->significant_digits = ph.digits;
    h->lowest_discernible = ph.lowest;
    h->highest_trackable = ph.highest;
    h->conversion_ratio = ph.ratio;
    if (hlog_layout(ph.digits, ph.lowest, &h->unit_magnitude, &h->sub_bucket_bits)) {
        *why = "the histogram's settings are invalid (significant digits outside 0..5 or lowest value < 1)";
        return -EINVAL;
    }
    return decode_counts(buf + ph.header, ph.payload, ph.word, h, why);
}

int hlog_decode(const uint8_t *buf, size_t len, hlog_histogram *out, const char **why)
{
    size_t budget = SIZE_MAX;
    return hlog_decode_bounded(buf, len, &budget, out, why);
}

int hlog_decode_bounded(const uint8_t *buf, size_t len, size_t *budget, hlog_histogram *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (len < 8) {
        *why = "too short for a histogram";
        return -EINVAL;
    }
    uint32_t cookie = be32(buf);
    uint32_t base = COOKIE_BASE(cookie);
    int rc;
    if (base == COOKIE_V2_COMPRESSED || base == COOKIE_V1_COMPRESSED || base == COOKIE_V0_COMPRESSED) {
        int32_t clen = (int32_t)be32(buf + 4);
        if (clen < 0 || (size_t)clen > len - 8) {
            *why = "the compressed histogram is shorter than its header says";
            return -EINVAL;
        }
        uint8_t *plain;
        size_t plen;
        rc = inflate_bounded(buf + 8, (size_t)clen, budget, &plain, &plen, why);
        if (rc) {
            if (rc == -ENOMEM)
                *why = "out of memory";
            return rc;
        }
        uint32_t inner = COOKIE_BASE(plen >= 4 ? be32(plain) : 0);
        if ((base == COOKIE_V2_COMPRESSED && inner != COOKIE_V2) ||
            (base == COOKIE_V1_COMPRESSED && inner != COOKIE_V1) ||
            (base == COOKIE_V0_COMPRESSED && inner != COOKIE_V0)) {
            free(plain);
            *why = "the compressed histogram holds an encoding of another version";
            return -EINVAL;
        }
        rc = decode_plain(plain, plen, out, why);
        free(plain);
    } else {
        rc = decode_plain(buf, len, out, why);
    }
    if (rc)
        hlog_histogram_clear(out);
    return rc;
}

/* ---- encoding ---- */

int32_t hlog_digits_for_sub_bits(unsigned sub_bits)
{
    for (int32_t d = 0; d <= 5; d++) {
        unsigned u, m;
        hlog_layout(d, 1, &u, &m);
        if (m >= sub_bits)
            return d;
    }
    return 5;
}

typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
} bytes;

static int bytes_reserve(bytes *b, size_t more)
{
    if (b->n + more <= b->cap)
        return 0;
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->n + more)
        nc *= 2;
    uint8_t *np = realloc(b->p, nc);
    if (!np)
        return -ENOMEM;
    b->p = np;
    b->cap = nc;
    return 0;
}

/* ZigZagEncoding.putLong: zigzag, then 7 bits a byte, low first, at most 9
 * bytes (the ninth holds the top 8 bits). */
static int put_varint(bytes *b, int64_t value)
{
    if (bytes_reserve(b, 9))
        return -ENOMEM;
    uint64_t v = ((uint64_t)value << 1) ^ (uint64_t)(value >> 63);
    for (unsigned i = 0; i < 8; i++) {
        if ((v >> 7) == 0) {
            b->p[b->n++] = (uint8_t)v;
            return 0;
        }
        b->p[b->n++] = (uint8_t)((v & 0x7f) | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
    return 0;
}

/* HdrHistogram's counts index of v for M sub-bucket bits and u = 0. */
static int64_t java_index(uint64_t v, unsigned m)
{
    unsigned bl = v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
    unsigned bucket = (bl > m ? bl : m) - m;
    int64_t sub = (int64_t)(v >> bucket);
    return (int64_t)bucket * ((int64_t)1 << (m - 1)) + sub;
}

/* Append the varints of one run: the zero counts from *pos up to index
 * (one 0, or -k for a run of k > 1), then the count at index. */
static int put_run(bytes *b, int64_t *pos, int64_t index, uint64_t count)
{
    int rc = 0;
    int64_t gap = index - *pos;
    if (gap == 1)
        rc = put_varint(b, 0);
    else if (gap > 1)
        rc = put_varint(b, -gap);
    if (!rc)
        rc = put_varint(b, (int64_t)count);
    if (rc)
        return rc;
    *pos = index + 1;
    return 0;
}

/* The V2 payload of h (S = s sub-bucket bits) for HdrHistogram's layout of
 * M = m bits and u = 0, and the counts index of its largest value (-1 when
 * h is empty: the payload is then the one count of index 0). */
static int encode_payload(const hist *h, unsigned s, unsigned m, bytes *payload, int64_t *last_index)
{
    int64_t pos = 0;
    uint64_t pending = 0;
    *last_index = -1;
    if (!hist_count(h)) /* an empty histogram encodes the one count of index 0 */
        return put_varint(payload, 0);
    /* walk cosim's buckets from the smallest to the largest value recorded;
     * a count goes to the HdrHistogram index of its bucket's highest value */
    size_t first = hist_index_of((uint64_t)hist_min(h), s);
    size_t last = hist_index_of((uint64_t)hist_max(h), s);
    for (size_t i = first; i <= last + 1; i++) {
        uint64_t c = i <= last ? hist_count_at_index(h, i) : 0;
        int64_t idx = -1;
        if (c) {
            uint64_t lo, hi;
            hist_bucket_range(i, s, &lo, &hi);
            idx = java_index(hi, m);
        }
        /* flush the pending index when a new one starts (or at the end) */
        if (pending && (i > last || (c && idx != *last_index))) {
            int rc = put_run(payload, &pos, *last_index, pending);
            if (rc)
                return rc;
            pending = 0;
        }
        if (c) {
            pending += c;
            *last_index = idx;
        }
    }
    return 0;
}

/* Wrap a V2 payload in its 40-byte header (d digits, lowest 1, the given
 * highest, ratio 1.0) and compress it into the compressed V2 layout. */
static int compress_v2(const bytes *payload, int32_t digits, int64_t highest, uint8_t **out, size_t *out_len)
{
    size_t plain_len = 40 + payload->n;
    uint8_t *plain = malloc(plain_len);
    if (!plain)
        return -ENOMEM;
    put32(plain, COOKIE_V2 | 0x10u);
    put32(plain + 4, (uint32_t)payload->n);
    put32(plain + 8, 0);
    put32(plain + 12, (uint32_t)digits);
    put64(plain + 16, 1);
    put64(plain + 24, (uint64_t)highest);
    double one = 1.0;
    uint64_t one_bits;
    memcpy(&one_bits, &one, sizeof one_bits);
    put64(plain + 32, one_bits);
    memcpy(plain + 40, payload->p, payload->n);

    uLongf zlen = compressBound((uLong)plain_len);
    uint8_t *buf = malloc(8 + zlen);
    if (!buf) {
        free(plain);
        return -ENOMEM;
    }
    int zr = compress2(buf + 8, &zlen, plain, (uLong)plain_len, Z_BEST_COMPRESSION);
    free(plain);
    if (zr != Z_OK) {
        free(buf);
        return zr == Z_MEM_ERROR ? -ENOMEM : -EIO;
    }
    put32(buf, COOKIE_V2_COMPRESSED | 0x10u);
    put32(buf + 4, (uint32_t)zlen);
    *out = buf;
    *out_len = 8 + (size_t)zlen;
    return 0;
}

int hlog_encode(const hist *h, int64_t highest_trackable, uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    unsigned s = hist_sub_bits(h);
    int32_t digits = hlog_digits_for_sub_bits(s);
    hlog_histogram lay = {0};
    lay.lowest_discernible = 1;
    hlog_layout(digits, 1, &lay.unit_magnitude, &lay.sub_bucket_bits);

    bytes payload = {0};
    int64_t last_index, max_hi = 0;
    int rc = encode_payload(h, s, lay.sub_bucket_bits, &payload, &last_index);
    if (!rc) {
        if (last_index >= 0) {
            int64_t lo;
            hlog_index_range(&lay, last_index, &lo, &max_hi);
        }
        int64_t highest = highest_trackable;
        if (highest < max_hi)
            highest = max_hi;
        if (highest < 2)
            highest = 2;
        rc = compress_v2(&payload, digits, highest, out, out_len);
    }
    free(payload.p);
    return rc;
}
