/* hlog.c - HdrHistogram's encoding, interval log writer and reader. */
#include "hlog.h"
#include "textin.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* Largest inflated size accepted: HdrHistogram's largest layout (d = 5)
 * covering all of int64 is 46 * 131072 counts of 9 bytes, 54 MB. */
#define MAX_INFLATED ((size_t)64 << 20)

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

static int inflate_all(const uint8_t *in, size_t n, uint8_t **out, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK)
        return -ENOMEM;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        inflateEnd(&zs);
        return -ENOMEM;
    }
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)n;
    int zr;
    do {
        if (len == cap) {
            if (cap >= MAX_INFLATED) {
                free(buf);
                inflateEnd(&zs);
                return -EINVAL;
            }
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                inflateEnd(&zs);
                return -ENOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        zs.next_out = buf + len;
        zs.avail_out = (uInt)(cap - len);
        zr = inflate(&zs, Z_NO_FLUSH);
        len = cap - zs.avail_out;
        if (zr != Z_OK && zr != Z_STREAM_END && !(zr == Z_BUF_ERROR && zs.avail_out == 0)) {
            free(buf);
            inflateEnd(&zs);
            return zr == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
        }
    } while (zr != Z_STREAM_END);
    inflateEnd(&zs);
    *out = buf;
    *out_len = len;
    return 0;
}

static int push_count(hlog_histogram *h, size_t *cap, int64_t index, uint64_t count)
{
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

static int decode_plain(const uint8_t *buf, size_t len, hlog_histogram *h, const char **why)
{
    if (len < 4) {
        *why = "truncated histogram header";
        return -EINVAL;
    }
    uint32_t cookie = be32(buf);
    uint32_t base = COOKIE_BASE(cookie);
    size_t header, payload;
    unsigned word;
    int32_t digits, norm = 0;
    int64_t lowest, highest;
    double ratio = 1.0;
    if (base == COOKIE_V2 || base == COOKIE_V1) {
        header = 40;
        if (len < header) {
            *why = "truncated histogram header";
            return -EINVAL;
        }
        int32_t plen = (int32_t)be32(buf + 4);
        norm = (int32_t)be32(buf + 8);
        digits = (int32_t)be32(buf + 12);
        lowest = (int64_t)be64(buf + 16);
        highest = (int64_t)be64(buf + 24);
        uint64_t rb = be64(buf + 32);
        memcpy(&ratio, &rb, sizeof ratio);
        if (plen < 0 || (size_t)plen > len - header) {
            *why = "the histogram's payload is shorter than its header says";
            return -EINVAL;
        }
        payload = (size_t)plen;
        word = base == COOKIE_V2 ? 9 : ((cookie & 0xf0u) >> 4) & 0xeu;
        h->encoding = base == COOKIE_V2 ? 2 : 1;
    } else if (base == COOKIE_V0) {
        header = 32;
        if (len < header) {
            *why = "truncated histogram header";
            return -EINVAL;
        }
        digits = (int32_t)be32(buf + 4);
        lowest = (int64_t)be64(buf + 8);
        highest = (int64_t)be64(buf + 16);
        payload = len - header;
        word = ((cookie & 0xf0u) >> 4) & 0xeu;
        h->encoding = 0;
    } else {
        *why = IS_DOUBLE_HISTOGRAM(cookie) ? "a DoubleHistogram, which cosim does not read"
                                           : "not an HdrHistogram encoding (unknown cookie)";
        return -EINVAL;
    }
    if (word != 9 && word != 2 && word != 4 && word != 8) {
        *why = "the histogram's word size is not 2, 4 or 8 bytes";
        return -EINVAL;
    }
    if (norm != 0) {
        *why = "a histogram with a normalizing index offset (shifted), which cosim does not read";
        return -EINVAL;
    }
    h->significant_digits = digits;
    h->lowest_discernible = lowest;
    h->highest_trackable = highest;
    h->conversion_ratio = ratio;
    if (hlog_layout(digits, lowest, &h->unit_magnitude, &h->sub_bucket_bits)) {
        *why = "the histogram's settings are invalid (significant digits outside 0..5 or lowest value < 1)";
        return -EINVAL;
    }
    /* the largest index whose bucket lies below 2^63 */
    int64_t half = (int64_t)1 << (h->sub_bucket_bits - 1);
    int64_t max_bucket = 63 - (int64_t)h->sub_bucket_bits - (int64_t)h->unit_magnitude;
    int64_t max_index = (max_bucket + 2) * half - 1;
    const uint8_t *p = buf + header, *end = p + payload;
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
            if (push_count(h, &cap, index, (uint64_t)count))
                return -ENOMEM;
        }
        index++;
    }
    return 0;
}

int hlog_decode(const uint8_t *buf, size_t len, hlog_histogram *out, const char **why)
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
        rc = inflate_all(buf + 8, (size_t)clen, &plain, &plen);
        if (rc) {
            *why = rc == -ENOMEM ? "out of memory" : "the compressed histogram is not a valid zlib stream";
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

int hlog_encode(const hist *h, int64_t highest_trackable, uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    unsigned s = hist_sub_bits(h);
    int32_t digits = hlog_digits_for_sub_bits(s);
    hlog_histogram lay = {0};
    lay.lowest_discernible = 1;
    hlog_layout(digits, 1, &lay.unit_magnitude, &lay.sub_bucket_bits);
    unsigned m = lay.sub_bucket_bits;

    bytes payload = {0};
    int rc = 0;
    int64_t pos = 0, last_index = -1;
    uint64_t pending = 0;
    int64_t max_hi = 0;
    /* walk cosim's buckets from the smallest to the largest value recorded;
     * a count goes to the HdrHistogram index of its bucket's highest value */
    if (hist_count(h)) {
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
            if (pending && (i > last || (c && idx != last_index))) {
                int64_t gap = last_index - pos;
                if (gap == 1)
                    rc = put_varint(&payload, 0);
                else if (gap > 1)
                    rc = put_varint(&payload, -gap);
                if (!rc)
                    rc = put_varint(&payload, (int64_t)pending);
                if (rc)
                    goto fail;
                pos = last_index + 1;
                pending = 0;
            }
            if (c) {
                pending += c;
                last_index = idx;
            }
        }
        int64_t lo;
        lay.sub_bucket_bits = m;
        hlog_index_range(&lay, last_index, &lo, &max_hi);
    } else {
        /* an empty histogram encodes the one count of index 0 */
        if ((rc = put_varint(&payload, 0)))
            goto fail;
    }
    int64_t highest = highest_trackable;
    if (highest < max_hi)
        highest = max_hi;
    if (highest < 2)
        highest = 2;

    size_t plain_len = 40 + payload.n;
    uint8_t *plain = malloc(plain_len);
    if (!plain) {
        rc = -ENOMEM;
        goto fail;
    }
    put32(plain, COOKIE_V2 | 0x10u);
    put32(plain + 4, (uint32_t)payload.n);
    put32(plain + 8, 0);
    put32(plain + 12, (uint32_t)digits);
    put64(plain + 16, 1);
    put64(plain + 24, (uint64_t)highest);
    double one = 1.0;
    uint64_t one_bits;
    memcpy(&one_bits, &one, sizeof one_bits);
    put64(plain + 32, one_bits);
    memcpy(plain + 40, payload.p, payload.n);

    uLongf zlen = compressBound((uLong)plain_len);
    uint8_t *buf = malloc(8 + zlen);
    if (!buf) {
        free(plain);
        rc = -ENOMEM;
        goto fail;
    }
    int zr = compress2(buf + 8, &zlen, plain, (uLong)plain_len, Z_BEST_COMPRESSION);
    free(plain);
    if (zr != Z_OK) {
        free(buf);
        rc = zr == Z_MEM_ERROR ? -ENOMEM : -EIO;
        goto fail;
    }
    put32(buf, COOKIE_V2_COMPRESSED | 0x10u);
    put32(buf + 4, (uint32_t)zlen);
    *out = buf;
    *out_len = 8 + (size_t)zlen;
fail:
    free(payload.p);
    return rc;
}

/* ---- writer ---- */

/* ns as "S.mmm" seconds (or any unit `per` ns) with 3 decimals, half up. */
static void fmt3(char *buf, size_t len, int64_t ns, int64_t per)
{
    int64_t milli = per / 1000;
    int64_t q = ns / milli, r = ns % milli;
    if (2 * r >= milli)
        q++;
    snprintf(buf, len, "%lld.%03lld", (long long)(q / 1000), (long long)(q % 1000));
}

int hlog_write_header(FILE *f, int64_t start_epoch_ms, const char *logged_with)
{
    char when[64], secs[32];
    time_t t = (time_t)(start_epoch_ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(when, sizeof when, "%a %b %d %H:%M:%S UTC %Y", &tm))
        return -EINVAL;
    fmt3(secs, sizeof secs, start_epoch_ms * 1000000, 1000000000);
    fprintf(f, "#[Logged with %s]\n", logged_with);
    fprintf(f, "#[Histogram log format version %s]\n", HLOG_FORMAT_VERSION);
    fprintf(f, "#[StartTime: %s (seconds since epoch), %s]\n", secs, when);
    fprintf(f, "#[BaseTime: %s (seconds since epoch)]\n", secs);
    fputs("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n", f);
    return ferror(f) ? -EIO : 0;
}

int hlog_write_interval(FILE *f, const char *tag, int64_t start_ns, int64_t length_ns, const hist *h)
{
    if (start_ns < 0 || length_ns < 0)
        return -EINVAL;
    if (tag && (!*tag || strpbrk(tag, ", \r\n")))
        return -EINVAL;
    uint8_t *enc;
    size_t n;
    int rc = hlog_encode(h, HLOG_DEFAULT_HIGHEST_NS, &enc, &n);
    if (rc)
        return rc;
    char *text = malloc(hlog_base64_len(n) + 1);
    if (!text) {
        free(enc);
        return -ENOMEM;
    }
    hlog_base64_encode(enc, n, text);
    /* the max as HdrHistogram reports it: the upper edge of its bucket */
    hlog_histogram back;
    const char *why;
    int64_t max = 0;
    if (hlog_decode(enc, n, &back, &why) == 0) {
        max = hlog_histogram_max(&back);
        hlog_histogram_clear(&back);
    }
    free(enc);
    char s1[32], s2[32], s3[32];
    fmt3(s1, sizeof s1, start_ns, 1000000000);
    fmt3(s2, sizeof s2, length_ns, 1000000000);
    fmt3(s3, sizeof s3, max, 1000000);
    if (tag)
        fprintf(f, "Tag=%s,", tag);
    fprintf(f, "%s,%s,%s,%s\n", s1, s2, s3, text);
    free(text);
    return ferror(f) ? -EIO : 0;
}

/* ---- reader ---- */

void hlog_log_free(hlog_log *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->n; i++) {
        free(log->iv[i].tag);
        hlog_histogram_clear(&log->iv[i].hist);
    }
    free(log->iv);
    free(log);
}

/* "#[StartTime: 1403476110.183 (seconds...": the number after the prefix. */
static int comment_seconds(const char *s, size_t n, const char *prefix, int64_t *out_ns)
{
    size_t m = strlen(prefix);
    const char *p = s + m, *end = s + n;
    while (p < end && *p == ' ')
        p++;
    size_t k = textin_decimal_span(p, (size_t)(end - p), 0);
    if (!k)
        return -EINVAL;
    return textin_decimal(p, k, 1000000000, 0, out_ns);
}

#define FAIL(rc_, ...)                                                                             \
    do {                                                                                           \
        snprintf(err, errlen, __VA_ARGS__);                                                        \
        rc = (rc_);                                                                                \
        goto out;                                                                                  \
    } while (0)

int hlog_parse(hlog_log **out, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    *out = NULL;
    hlog_log *log = calloc(1, sizeof *log);
    if (!log) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -ENOMEM;
    }
    int64_t *second = NULL; /* the raw second column, ns */
    size_t cap = 0;
    int rc = 0, has_base = 0, end_legend = 0;
    int64_t base_ns = 0, start_ns_c = 0;
    uint8_t *bin = NULL;
    size_t bin_cap = 0;
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    while (textin_next_line(&it, &s, &n)) {
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n == 0)
            continue;
        if (s[0] == '#') {
            int64_t v;
            if (textin_starts(s, n, "#[StartTime:")) {
                if (comment_seconds(s, n, "#[StartTime:", &v) == 0) {
                    log->has_start_time = 1;
                    start_ns_c = v;
                }
            } else if (textin_starts(s, n, "#[BaseTime:")) {
                if (comment_seconds(s, n, "#[BaseTime:", &v) == 0) {
                    has_base = 1;
                    base_ns = v;
                }
            } else if (textin_starts(s, n, "#[Histogram log format version ")) {
                int ma = 0, mi = 0;
                if (sscanf(s + strlen("#[Histogram log format version "), "%d.%d", &ma, &mi) == 2) {
                    log->version_major = ma;
                    log->version_minor = mi;
                }
            }
            continue;
        }
        if (s[0] == '"') {
            if (textin_find(s, n, "EndTimestamp"))
                end_legend = 1;
            continue;
        }
        /* [Tag=T,]START,LENGTH,MAX,BASE64 (commas or blanks between) */
        const char *f[5];
        size_t fl[5], k = 0, i = 0;
        while (i < n && k < 5) {
            while (i < n && (s[i] == ',' || s[i] == ' '))
                i++;
            if (i >= n)
                break;
            size_t j = i;
            while (j < n && s[j] != ',' && s[j] != ' ')
                j++;
            f[k] = s + i;
            fl[k] = j - i;
            k++;
            i = j;
        }
        while (i < n && (s[i] == ',' || s[i] == ' '))
            i++;
        size_t first = k && textin_starts(f[0], fl[0], "Tag=") ? 1 : 0;
        if (k - first != 4 || i < n)
            FAIL(-EINVAL, "%s:%zu: expected an interval line \"[Tag=NAME,]START,LENGTH,MAX,HISTOGRAM\"", name,
                 it.line);
        int64_t start, second_col, maxv;
        int r1 = textin_decimal(f[first], fl[first], 1000000000, 0, &start);
        int r2 = textin_decimal(f[first + 1], fl[first + 1], 1000000000, 0, &second_col);
        if (r1 || r2)
            FAIL((r1 == -ERANGE || r2 == -ERANGE) ? -ERANGE : -EINVAL,
                 "%s:%zu: the interval's start '%.*s' and length '%.*s' must be seconds (such as 12.000)", name,
                 it.line, (int)fl[first], f[first], (int)fl[first + 1], f[first + 1]);
        if (textin_decimal_span(f[first + 2], fl[first + 2], 0) != fl[first + 2] ||
            textin_decimal(f[first + 2], fl[first + 2], 1, 0, &maxv) == -EINVAL)
            FAIL(-EINVAL, "%s:%zu: the interval max '%.*s' is not a number", name, it.line, (int)fl[first + 2],
                 f[first + 2]);
        size_t need = fl[first + 3] / 4 * 3 + 3;
        if (need > bin_cap) {
            uint8_t *nb = realloc(bin, need);
            if (!nb)
                FAIL(-ENOMEM, "%s: out of memory", name);
            bin = nb;
            bin_cap = need;
        }
        size_t blen;
        if (hlog_base64_decode(f[first + 3], fl[first + 3], bin, &blen))
            FAIL(-EINVAL, "%s:%zu: the histogram is not valid base64", name, it.line);
        if (log->n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            hlog_interval *ni = realloc(log->iv, nc * sizeof *ni);
            int64_t *ns = ni ? realloc(second, nc * sizeof *ns) : NULL;
            if (ni)
                log->iv = ni;
            if (!ni || !ns)
                FAIL(-ENOMEM, "%s: out of memory", name);
            second = ns;
            cap = nc;
        }
        hlog_interval *iv = &log->iv[log->n];
        memset(iv, 0, sizeof *iv);
        const char *why;
        int dr = hlog_decode(bin, blen, &iv->hist, &why);
        if (dr)
            FAIL(dr, "%s:%zu: the histogram does not decode: %s", name, it.line, why);
        log->n++;
        if (first) {
            iv->tag = strndup(f[0] + 4, fl[0] - 4);
            if (!iv->tag)
                FAIL(-ENOMEM, "%s: out of memory", name);
        }
        iv->start_ns = start;
        second[log->n - 1] = second_col;
        iv->line = it.line;
    }
    /* the 1.2 variant: an "EndTimestamp" column holds end times when it is
     * above the start on every line */
    if (end_legend && log->n) {
        int ends = 1;
        for (size_t i = 0; i < log->n; i++)
            if (second[i] <= log->iv[i].start_ns)
                ends = 0;
        log->end_stamps = ends;
    }
    for (size_t i = 0; i < log->n; i++)
        log->iv[i].length_ns = log->end_stamps ? second[i] - log->iv[i].start_ns : second[i];
    /* HistogramLogReader's time rule */
    if (log->n) {
        int64_t first_ts = log->iv[0].start_ns;
        int64_t start = log->has_start_time ? start_ns_c : first_ts;
        if (!has_base) {
            const int64_t year_ns = (int64_t)365 * 24 * 3600 * 1000000000;
            base_ns = first_ts < start - year_ns ? start : 0;
        }
        log->start_time_ns = start;
        log->base_time_ns = base_ns;
        for (size_t i = 0; i < log->n; i++) {
            int64_t abs_ns;
            if (__builtin_add_overflow(log->iv[i].start_ns, base_ns, &abs_ns))
                FAIL(-ERANGE, "%s:%zu: the interval's time is beyond 2^63 ns", name, log->iv[i].line);
            log->iv[i].start_ns = abs_ns - start;
        }
    } else {
        log->start_time_ns = start_ns_c;
        log->base_time_ns = base_ns;
    }
    *out = log;
    log = NULL;
out:
    free(second);
    free(bin);
    hlog_log_free(log);
    return rc;
}

int hlog_read(hlog_log **out, const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    *out = NULL;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = hlog_parse(out, path, text, len, err, errlen);
    free(text);
    return rc;
}

unsigned hlog_log_sub_bits(const hlog_log *log)
{
    unsigned s = 1;
    for (size_t i = 0; i < log->n; i++)
        if (log->iv[i].hist.sub_bucket_bits > s)
            s = log->iv[i].hist.sub_bucket_bits;
    return s;
}

int hlog_to_hist(const hlog_histogram *h, int64_t unit_ns, hist *dst)
{
    if (unit_ns < 1)
        return -EINVAL;
    for (size_t i = 0; i < h->n; i++) {
        int64_t lo, hi, v;
        if (hlog_index_range(h, h->counts[i].index, &lo, &hi) || __builtin_mul_overflow(hi, unit_ns, &v))
            return -ERANGE;
        hist_record_n(dst, v, h->counts[i].count);
    }
    return 0;
}

static int cmp_index(const void *a, const void *b)
{
    const hlog_count *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

int hlog_to_dist(const hlog_log *log, int64_t unit_ns, hgrm_dist **out)
{
    *out = NULL;
    if (unit_ns < 1)
        return -EINVAL;
    size_t total = 0;
    const hlog_histogram *ref = NULL;
    for (size_t i = 0; i < log->n; i++) {
        const hlog_histogram *h = &log->iv[i].hist;
        if (!h->n)
            continue;
        if (ref && (h->significant_digits != ref->significant_digits ||
                    h->lowest_discernible != ref->lowest_discernible))
            return -EINVAL;
        ref = h;
        total += h->n;
    }
    if (!ref)
        return -EINVAL;
    hlog_count *all = malloc(total * sizeof *all);
    hgrm_bucket *b = malloc(total * sizeof *b);
    int rc = 0;
    if (!all || !b) {
        rc = -ENOMEM;
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < log->n; i++)
        for (size_t j = 0; j < log->iv[i].hist.n; j++)
            all[k++] = log->iv[i].hist.counts[j];
    qsort(all, k, sizeof *all, cmp_index);
    size_t nb = 0;
    for (size_t i = 0; i < k; i++) {
        if (nb && all[i].index == all[nb - 1].index) {
            if (__builtin_add_overflow(all[nb - 1].count, all[i].count, &all[nb - 1].count)) {
                rc = -ERANGE;
                goto done;
            }
        } else {
            all[nb++] = all[i];
        }
    }
    for (size_t i = 0; i < nb; i++) {
        int64_t lo, hi;
        if (hlog_index_range(ref, all[i].index, &lo, &hi) || __builtin_mul_overflow(lo, unit_ns, &lo) ||
            __builtin_mul_overflow(hi, unit_ns, &hi)) {
            rc = -ERANGE;
            goto done;
        }
        b[i] = (hgrm_bucket){.low_ns = lo, .high_ns = hi, .count = all[i].count};
    }
    rc = hgrm_from_buckets(out, b, nb);
done:
    free(all);
    free(b);
    return rc;
}
