/* textin.c - whole-file reading, line walking and exact decimals. */
#include "textin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
                snprintf(err, errlen, "%s: larger than %zu MiB, cosim's limit for a file it reads whole", path,
                         TEXTIN_MAX_BYTES >> 20);
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
    if (len >= 2 && (((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE) ||
                     ((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF)) &&
        memchr(buf, '\0', len)) {
        /* a NUL in UTF-16 text is half of every ASCII character: say what
         * the file is, not that it is binary */
        int le = (unsigned char)buf[0] == 0xFF;
        free(buf);
        snprintf(err, errlen, "%s: UTF-16 text (its byte order mark %s), not UTF-8: convert it first (iconv -f "
                 "UTF-16 -t UTF-8)", path, le ? "FF FE" : "FE FF");
        return -EINVAL;
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

/* ---- the strict number reader ---- */

const textin_unit textin_duration_units[] = {
    {"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}, {NULL, 0},
};

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* "s, ms, us or ns": the names of a units table. */
static void unit_list(const textin_unit *u, char *buf, size_t len)
{
    size_t k = 0, n = 0;
    while (u[n].name)
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", u[i].name);
}

int textin_number(const char *s, size_t n, const textin_number_form *f, int64_t *out, char *why, size_t whylen)
{
    char units[96] = "";
    if (f->units)
        unit_list(f->units, units, sizeof units);
    int tn = n > 64 ? 64 : (int)n; /* the token as quoted in a message */
    if (n == 0) {
        snprintf(why, whylen, "%s is missing", f->what);
        return -EINVAL;
    }
    if ((s[0] == '-' || s[0] == '+') && n > 1 && (is_digit(s[1]) || s[1] == '.')) {
        snprintf(why, whylen, "%s '%.*s' has a sign; it is never signed", f->what, tn, s);
        return -EINVAL;
    }
    if (!is_digit(s[0])) {
        size_t k = 0;
        while (k < n && !is_digit(s[k]))
            k++;
        const char *w = s[0] == '-' || s[0] == '+' ? s + 1 : s;
        size_t wn = (size_t)(s + n - w);
        if ((wn >= 3 && (strncasecmp(w, "nan", 3) == 0 || strncasecmp(w, "inf", 3) == 0)) || k == n)
            snprintf(why, whylen, "%s '%.*s' is not a number", f->what, tn, s);
        else
            snprintf(why, whylen, "%s '%.*s' has '%.*s' before its digits", f->what, tn, s, (int)k, s);
        return -EINVAL;
    }
    size_t k = textin_decimal_span(s, n, f->comma_ok);
    const char *r = s + k;
    size_t rn = n - k;
    if (rn && (r[0] == 'e' || r[0] == 'E') && rn > 1 &&
        (is_digit(r[1]) || ((r[1] == '-' || r[1] == '+') && rn > 2 && is_digit(r[2])))) {
        snprintf(why, whylen, "%s '%.*s' has an exponent; write it in plain digits", f->what, tn, s);
        return -EINVAL;
    }
    int64_t per = f->scale;
    if (rn == 0) {
        if (f->units && f->unit_required) {
            snprintf(why, whylen, "%s '%.*s' has no unit (%s)", f->what, tn, s, units);
            return -EINVAL;
        }
    } else {
        const char *u = r;
        size_t un = rn;
        if (f->units && un > 1 && u[0] == ' ') {
            u++;
            un--;
        }
        const textin_unit *hit = NULL;
        for (const textin_unit *x = f->units; x && x->name; x++)
            if (strlen(x->name) == un && memcmp(x->name, u, un) == 0)
                hit = x;
        if (!hit) {
            if (f->units && is_alpha(u[0]))
                snprintf(why, whylen, "%s '%.*s' has the unit '%.*s', not %s", f->what, tn, s, (int)un, u, units);
            else
                snprintf(why, whylen, "%s '%.*s' has '%.*s' after its digits", f->what, tn, s, (int)rn, r);
            return -EINVAL;
        }
        per = hit->ns;
    }
    size_t sep = 0;
    while (sep < k && is_digit(s[sep]))
        sep++;
    if (k - sep > 19) {
        snprintf(why, whylen, "%s '%.*s' has more than 18 decimals", f->what, tn, s);
        return -EINVAL;
    }
    int rc = textin_decimal(s, k, per, f->comma_ok, out);
    if (rc == -ERANGE) {
        snprintf(why, whylen, "%s '%.*s' passes cosim's limit of 2^63 - 1 ns (about 292 years)", f->what, tn, s);
        return -ERANGE;
    }
    if (rc) {
        snprintf(why, whylen, "%s '%.*s' is not a number", f->what, tn, s);
        return -EINVAL;
    }
    return 0;
}

/* ---- every line accounted for ---- */

void textin_account_line(textin_account *a, int cls, size_t line)
{
    switch (cls) {
    case TEXTIN_LINE_RECORD: a->records++; break;
    case TEXTIN_LINE_SKIPPED: a->skipped++; break;
    case TEXTIN_LINE_UNKNOWN:
        if (a->unknown < TEXTIN_FIRST_LINES)
            a->first_unknown[a->unknown] = line;
        a->unknown++;
        break;
    default: a->known++; break;
    }
}

int textin_account_describe(const textin_account *a, const char *name, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%zu line%s read as records, %zu known non-record%s, %zu not understood", a->records,
                     a->records == 1 ? "" : "s", a->known, a->known == 1 ? "" : "s", a->unknown);
    if (a->skipped && k >= 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, ", %zu record%s skipped (strict = false)", a->skipped,
                      a->skipped == 1 ? "" : "s");
    for (size_t i = 0; i < a->unknown && i < TEXTIN_FIRST_LINES && k >= 0 && (size_t)k < len; i++)
        k += snprintf(buf + k, len - (size_t)k, "%s%s:%zu", i ? ", " : " (", name, a->first_unknown[i]);
    if (a->unknown > TEXTIN_FIRST_LINES && k >= 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, ", ...");
    if (a->unknown && k >= 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, ")");
    return k;
}

int textin_ends_cut(const char *text, size_t len)
{
    return len > 0 && text[len - 1] != '\n';
}

int textin_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

void textin_say_cut_record(char *err, size_t errlen, const char *name, size_t line)
{
    char why[512], at[64];
    snprintf(at, sizeof at, ":%zu: ", line);
    const char *r = strstr(err, at);
    snprintf(why, sizeof why, "%s", r ? r + strlen(at) : err);
    snprintf(err, errlen, "%s: the file ends inside a record at %s:%zu: " TEXTIN_CUT_RECORD " (%s)", name, name, line,
             why);
}
