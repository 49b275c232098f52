/* textin.c - whole-file reading, line walking and exact decimals. */
#include "textin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

__extension__ typedef unsigned __int128 u128;

int textin_read_file(const char *path, char **out, size_t *out_len, char *err, size_t errlen)
{
    *out = NULL;
    *out_len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        snprintf(err, errlen, "%s: is a directory", path);
        return -EISDIR;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return -ENOMEM;
    }
    for (;;) {
        if (len == cap) {
            if (cap >= TEXTIN_MAX_BYTES) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: larger than %zu MiB", path, TEXTIN_MAX_BYTES >> 20);
                return -EFBIG;
            }
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", path);
                return -ENOMEM;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int rd_err = ferror(f);
    fclose(f);
    if (rd_err) {
        free(buf);
        snprintf(err, errlen, "%s: read error", path);
        return -EIO;
    }
    if (memchr(buf, '\0', len)) {
        free(buf);
        snprintf(err, errlen, "%s: not a text file (it holds a NUL byte)", path);
        return -EINVAL;
    }
    size_t bom = textin_bom_len(buf, len); /* a UTF-8 byte order mark: skipped */
    if (bom) {
        len -= bom;
        memmove(buf, buf + bom, len);
    }
    /* a carriage return ends a line only before a '\n' (CRLF); alone it
     * would glue two lines into one, and a line's record would be lost */
    for (const char *cr = memchr(buf, '\r', len); cr; cr = memchr(cr + 1, '\r', len - (size_t)(cr + 1 - buf))) {
        if (cr + 1 < buf + len && cr[1] != '\n') {
            size_t line = 1;
            for (const char *q = buf; q < cr; q++)
                line += *q == '\n';
            free(buf);
            snprintf(err, errlen, "%s:%zu: " TEXTIN_CR_INSIDE_LINE, path, line);
            return -EINVAL;
        }
        if (cr + 1 >= buf + len)
            break;
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return 0;
}

void textin_lines_init(textin_lines *it, const char *text, size_t len)
{
    it->p = text;
    it->end = text + len;
    it->line = 0;
}

int textin_next_line(textin_lines *it, const char **s, size_t *n)
{
    if (it->p >= it->end)
        return 0;
    const char *nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
    const char *stop = nl ? nl : it->end;
    *s = it->p;
    *n = (size_t)(stop - it->p);
    if (*n && (*s)[*n - 1] == '\r')
        (*n)--;
    it->p = nl ? nl + 1 : it->end;
    it->line++;
    return 1;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

size_t textin_decimal_span(const char *s, size_t n, int comma_ok)
{
    size_t i = 0;
    while (i < n && is_digit(s[i]))
        i++;
    if (i == 0)
        return 0;
    if (i + 1 < n && (s[i] == '.' || (comma_ok && s[i] == ',')) && is_digit(s[i + 1])) {
        i++;
        while (i < n && is_digit(s[i]))
            i++;
    }
    return i;
}

/* value = I + F / 10^k exactly (k <= 18 fraction digits); value * scale
 * rounded half up is I * scale + floor((F * scale) / 10^k + 1/2), computed
 * in 128 bits: F * scale < 10^18 * 2^63 < 2^123. */
int textin_decimal(const char *s, size_t n, int64_t scale, int comma_ok, int64_t *out)
{
    if (scale <= 0 || n == 0 || textin_decimal_span(s, n, comma_ok) != n)
        return -EINVAL;
    size_t i = 0;
    u128 ip = 0;
    for (; i < n && is_digit(s[i]); i++) {
        ip = ip * 10 + (unsigned)(s[i] - '0');
        if (ip > (u128)INT64_MAX)
            return -ERANGE;
    }
    u128 total = ip * (u128)(uint64_t)scale;
    if (total > (u128)INT64_MAX)
        return -ERANGE;
    if (i < n) {
        i++; /* the separator */
        size_t k = n - i;
        if (k > 18)
            return -EINVAL;
        u128 frac = 0, p10 = 1;
        for (size_t j = 0; j < k; j++) {
            frac = frac * 10 + (unsigned)(s[i + j] - '0');
            p10 *= 10;
        }
        u128 num = frac * (u128)(uint64_t)scale;
        u128 q = num / p10, r = num % p10;
        if (2 * r >= p10)
            q++;
        total += q;
        if (total > (u128)INT64_MAX)
            return -ERANGE;
    }
    *out = (int64_t)total;
    return 0;
}

int textin_starts(const char *s, size_t n, const char *prefix)
{
    size_t m = strlen(prefix);
    return n >= m && memcmp(s, prefix, m) == 0;
}

const char *textin_find(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    if (m == 0)
        return s;
    for (size_t i = 0; i + m <= n; i++)
        if (s[i] == needle[0] && memcmp(s + i, needle, m) == 0)
            return s + i;
    return NULL;
}

int textin_utf8_valid(const char *str, size_t *bad)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (s[i]) {
        unsigned c = s[i];
        size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
        if (n == 9 || (n == 1 && c < 0xC2) || (n == 3 && c > 0xF4)) {
            *bad = i;
            return 0;
        }
        for (size_t k = 1; k <= n; k++)
            if ((s[i + k] & 0xC0) != 0x80) {
                *bad = i;
                return 0;
            }
        if ((n == 2 && c == 0xE0 && s[i + 1] < 0xA0) || (n == 2 && c == 0xED && s[i + 1] >= 0xA0) ||
            (n == 3 && c == 0xF0 && s[i + 1] < 0x90) || (n == 3 && c == 0xF4 && s[i + 1] >= 0x90)) {
            *bad = i;
            return 0;
        }
        i += n + 1;
    }
    return 1;
}

size_t textin_bom_len(const char *s, size_t n)
{
    return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}
