/* hgrm.c - HdrHistogram percentile spectra read back; draws from them. */
#include "hgrm.h"
#include "grow.h"
#include "textin.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hgrm_free(hgrm_dist *d)
{
    if (!d)
        return;
    free(d->b);
    free(d);
}

int hgrm_from_buckets(hgrm_dist **out, const hgrm_bucket *b, size_t n)
{
    *out = NULL;
    hgrm_dist *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->b = calloc(n ? n : 1, sizeof *d->b);
    if (!d->b) {
        free(d);
        return -ENOMEM;
    }
    uint64_t cum = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i].count == 0)
            continue;
        if (b[i].low_ns < 0 || b[i].high_ns < b[i].low_ns ||
            (d->n && b[i].low_ns <= d->b[d->n - 1].high_ns) ||
            __builtin_add_overflow(cum, b[i].count, &cum)) {
            hgrm_free(d);
            return -EINVAL;
        }
        d->b[d->n] = b[i];
        d->b[d->n].cum = cum;
        d->n++;
    }
    if (d->n == 0) {
        hgrm_free(d);
        return -EINVAL;
    }
    d->total = cum;
    d->min_ns = d->b[0].low_ns;
    d->max_ns = d->b[d->n - 1].high_ns;
    *out = d;
    return 0;
}

/* ---- parsing ---- */

int hgrm_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

#define MAX_TOKENS 8

typedef struct tok {
    const char *s;
    size_t n;
} tok;

/* Split on blanks and commas, dropping double quotes around a token. */
static size_t tokenize(const char *s, size_t n, tok *t, size_t max)
{
    size_t k = 0, i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ','))
            i++;
        if (i >= n)
            break;
        size_t j = i;
        while (j < n && s[j] != ' ' && s[j] != '\t' && s[j] != ',')
            j++;
        if (k < max) {
            const char *a = s + i;
            size_t len = j - i;
            if (len >= 2 && a[0] == '"' && a[len - 1] == '"') {
                a++;
                len -= 2;
            }
            t[k].s = a;
            t[k].n = len;
        }
        k++;
        i = j;
    }
    return k;
}

static int tok_is(const tok *t, const char *word)
{
    return t->n == strlen(word) && memcmp(t->s, word, t->n) == 0;
}

static int is_header(const tok *t, size_t k)
{
    return k == 4 && tok_is(&t[0], "Value") && tok_is(&t[1], "Percentile") &&
           tok_is(&t[2], "TotalCount") && tok_is(&t[3], "1/(1-Percentile)");
}

static int parse_u64(const tok *t, uint64_t *out)
{
    if (t->n == 0 || t->n > 20)
        return -EINVAL;
    uint64_t v = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->s[i] < '0' || t->s[i] > '9')
            return -EINVAL;
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(t->s[i] - '0'), &v))
            return -ERANGE;
    }
    *out = v;
    return 0;
}

/* A percentile level: a plain decimal in [0, 1]. */
static int parse_level(const tok *t, double *out)
{
    char buf[64];
    if (t->n == 0 || t->n >= sizeof buf || textin_decimal_span(t->s, t->n, 0) != t->n)
        return -EINVAL;
    memcpy(buf, t->s, t->n);
    buf[t->n] = '\0';
    double v = strtod(buf, NULL);
    if (!(v >= 0.0 && v <= 1.0))
        return -EINVAL;
    *out = v;
    return 0;
}

static int is_inverse_column(const tok *t)
{
    return tok_is(t, "inf") || tok_is(t, "Infinity") || tok_is(t, "INF") ||
           (t->n && textin_decimal_span(t->s, t->n, 0) == t->n);
}

typedef struct spectrum_state {
    hgrm_bucket *b;
    size_t n, cap;
    size_t rows;
    int64_t prev_value;
    uint64_t prev_total;
    double prev_level;
    size_t header_line;
} spectrum_state;

static int push_bucket(spectrum_state *st, int64_t lo, int64_t hi, uint64_t count, size_t line)
{
    if (st->n && st->b[st->n - 1].high_ns >= lo) {
        /* the same printed value as the row before (values rounded when
         * printed): one bucket */
        st->b[st->n - 1].count += count;
        return 0;
    }
    if (st->n == st->cap) {
        hgrm_bucket *nb = grow_array(st->b, &st->cap, sizeof *nb, 64);
        if (!nb)
            return -ENOMEM;
        st->b = nb;
    }
    st->b[st->n++] = (hgrm_bucket){.low_ns = lo, .high_ns = hi, .count = count, .line = line};
    return 0;
}

/* The reader of a file's spectra: where it is (outside a spectrum, after
 * the chosen one's header, in its rows, in its footer) and what it found. */
typedef struct parser {
    const char *name;
    char *err;
    size_t errlen;
    int64_t unit_ns;
    int spectrum;     /* the one asked for (from 0), or -1: the only one */
    enum { OUTSIDE, BEFORE_ROWS, ROWS, FOOTER } state;
    int seen, chosen; /* headers seen; the chosen spectrum, -1 until found */
    int has_footer;
    int64_t footer_max;
    spectrum_state st;
} parser;

/* A header line. Returns 1 when the chosen spectrum has ended (stop). */
static int on_header(parser *p, size_t line)
{
    if (p->state != OUTSIDE && p->chosen == p->seen - 1 && p->spectrum >= 0)
        return 1; /* the chosen spectrum ended; the next one starts */
    p->seen++;
    if (p->spectrum < 0 && p->seen == 2)
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: a second percentile spectrum; say which one to read",
                         p->name, line);
    if (p->spectrum < 0 || p->seen - 1 == p->spectrum) {
        p->chosen = p->seen - 1;
        p->state = BEFORE_ROWS;
        p->st.header_line = line;
    } else {
        p->state = OUTSIDE;
    }
    return 0;
}

/* A "#[" line after the rows; "#[Max = VALUE, Total count = N]" is read
 * and its total checked against the last row's. */
static int read_footer(parser *p, const char *s, size_t n, size_t line)
{
    p->state = FOOTER;
    const char *m = textin_find(s, n, "#[Max");
    if (m != s)
        return 0;
    /* #[Max     =       10.123, Total count    =        12345] */
    const char *eq = memchr(s, '=', n);
    const char *tc = textin_find(s, n, "Total count");
    const char *v = eq && tc ? eq + 1 : NULL;
    while (v && *v == ' ')
        v++;
    size_t vn = v ? textin_decimal_span(v, (size_t)(s + n - v), 0) : 0;
    const char *eq2 = vn ? memchr(tc, '=', (size_t)(s + n - tc)) : NULL;
    if (!eq2)
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"", p->name,
                         line);
    const char *c = eq2 + 1;
    while (*c == ' ')
        c++;
    size_t cn = 0;
    while (c + cn < s + n && c[cn] >= '0' && c[cn] <= '9')
        cn++;
    tok ct = {c, cn};
    uint64_t total;
    int r1 = textin_decimal(v, vn, p->unit_ns, 0, &p->footer_max);
    if (r1 || parse_u64(&ct, &total))
        return hgrm_fail(p->err, p->errlen, r1 == -ERANGE ? -ERANGE : -EINVAL,
                         "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"", p->name, line);
    if (total != p->st.prev_total)
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Total count %llu, but the last row's TotalCount is %llu",
                         p->name, line, (unsigned long long)total, (unsigned long long)p->st.prev_total);
    p->has_footer = 1;
    return 0;
}

/* A row "Value Percentile TotalCount [1/(1-Percentile)]" of k tokens:
 * checked against the row before, its new samples made a bucket. */
static int read_row(parser *p, const tok *t, size_t k, size_t line)
{
    const char *name = p->name;
    spectrum_state *st = &p->st;
    if (k < 3 || k > 4 || (k == 4 && !is_inverse_column(&t[3])))
        return hgrm_fail(p->err, p->errlen, -EINVAL,
                         "%s:%zu: expected a row of 4 numbers \"Value Percentile TotalCount 1/(1-Percentile)\"", name,
                         line);
    int64_t value;
    double level;
    uint64_t total;
    int rv = textin_decimal(t[0].s, t[0].n, p->unit_ns, 0, &value);
    if (rv == -ERANGE)
        return hgrm_fail(p->err, p->errlen, -ERANGE, "%s:%zu: Value %.*s is beyond 2^63 ns", name, line, (int)t[0].n,
                         t[0].s);
    if (rv)
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Value '%.*s' is not a decimal number", name, line,
                         (int)t[0].n, t[0].s);
    if (parse_level(&t[1], &level))
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Percentile '%.*s' is not a number in [0, 1]", name,
                         line, (int)t[1].n, t[1].s);
    if (parse_u64(&t[2], &total))
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: TotalCount '%.*s' is not a whole number", name, line,
                         (int)t[2].n, t[2].s);
    int rc = 0;
    if (st->rows) {
        if (value < st->prev_value)
            return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Value %.*s is below the row before's", name, line,
                             (int)t[0].n, t[0].s);
        if (total < st->prev_total)
            return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: TotalCount %llu is below the row before's %llu",
                             name, line, (unsigned long long)total, (unsigned long long)st->prev_total);
        if (level < st->prev_level)
            return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Percentile %.*s is below the row before's", name,
                             line, (int)t[1].n, t[1].s);
        if (total > st->prev_total) {
            int64_t lo = value > st->prev_value ? st->prev_value + 1 : value;
            rc = push_bucket(st, lo, value, total - st->prev_total, line);
        }
    } else if (total > 0) {
        rc = push_bucket(st, value, value, total, line);
    }
    if (rc)
        return hgrm_fail(p->err, p->errlen, rc, "%s: out of memory", name);
    st->rows++;
    st->prev_value = value;
    st->prev_total = total;
    st->prev_level = level;
    p->state = ROWS;
    return 0;
}

/* One line of the file. Returns 1 when the chosen spectrum is complete
 * (stop reading), 0 to go on, or a negative errno with the message. */
static int read_line(parser *p, const char *s, size_t n, size_t line)
{
    tok t[MAX_TOKENS];
    size_t k = tokenize(s, n, t, MAX_TOKENS);
    if (k == 4 && is_header(t, k))
        return on_header(p, line);
    if (p->state == OUTSIDE)
        return 0;
    if (k == 0) {
        if (p->state == ROWS)
            p->state = FOOTER;
        return 0;
    }
    if (n >= 2 && s[0] == '#' && s[1] == '[')
        return read_footer(p, s, n, line);
    if (p->state == FOOTER) {
        if (p->spectrum >= 0)
            return 1;
        p->state = OUTSIDE;
        return 0;
    }
    if (!(t[0].s[0] >= '0' && t[0].s[0] <= '9')) {
        /* text after the rows (wrk2's "-----" line): the end */
        if (p->state == ROWS) {
            p->state = OUTSIDE;
            return 0;
        }
        return hgrm_fail(p->err, p->errlen, -EINVAL,
                         "%s:%zu: expected a row \"Value Percentile TotalCount 1/(1-Percentile)\"", p->name, line);
    }
    return read_row(p, t, k, line);
}

/* After the last line read: the chosen spectrum as a distribution. */
static int finish_spectrum(parser *p, hgrm_dist **out)
{
    const char *name = p->name;
    if (p->chosen < 0) {
        if (p->seen == 0)
            return hgrm_fail(p->err, p->errlen, -EINVAL,
                             "%s: no percentile spectrum (a \"Value Percentile TotalCount 1/(1-Percentile)\" header)",
                             name);
        return hgrm_fail(p->err, p->errlen, -EINVAL,
                         "%s: holds %d percentile spectr%s; spectrum %d asked (counting from 0)", name, p->seen,
                         p->seen == 1 ? "um" : "a", p->spectrum);
    }
    if (p->st.rows == 0)
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: the percentile spectrum has no rows", name,
                         p->st.header_line);
    if (p->st.prev_total == 0)
        return hgrm_fail(p->err, p->errlen, -EINVAL, "%s:%zu: the percentile spectrum holds no samples (TotalCount 0)",
                         name, p->st.header_line);
    hgrm_dist *d;
    int rc = hgrm_from_buckets(&d, p->st.b, p->st.n);
    if (rc)
        return hgrm_fail(p->err, p->errlen, rc, "%s: %s", name, rc == -ENOMEM ? "out of memory" : "inconsistent rows");
    d->has_footer = p->has_footer;
    d->footer_max_ns = p->has_footer ? p->footer_max : d->max_ns;
    *out = d;
    return 0;
}

int hgrm_parse(hgrm_dist **out, const char *name, const char *text, size_t len, int64_t unit_ns,
               int spectrum, char *err, size_t errlen)
{
    *out = NULL;
    if (unit_ns <= 0) {
        snprintf(err, errlen, "%s: the unit must be a positive number of ns", name);
        return -EINVAL;
    }
    parser p = {.name = name, .err = err, .errlen = errlen, .unit_ns = unit_ns, .spectrum = spectrum,
                .state = OUTSIDE, .chosen = -1};
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    int rc = 0;
    while (rc == 0 && textin_next_line(&it, &s, &n))
        rc = read_line(&p, s, n, it.line);
    if (rc >= 0)
        rc = finish_spectrum(&p, out);
    free(p.st.b);
    return rc;
}

int hgrm_read(hgrm_dist **out, const char *path, int64_t unit_ns, int spectrum, char *err, size_t errlen)
{
    char *text;
    size_t len;
    *out = NULL;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = hgrm_parse(out, path, text, len, unit_ns, spectrum, err, errlen);
    free(text);
    return rc;
}

/* ---- queries ---- */

/* First bucket whose cum >= rank (binary search; rank <= total). */
static size_t bucket_at_rank(const hgrm_dist *d, uint64_t rank)
{
    size_t lo = 0, hi = d->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->b[mid].cum >= rank)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int64_t hgrm_value_at_rank(const hgrm_dist *d, uint64_t rank)
{
    if (rank == 0 || d->n == 0)
        return 0;
    if (rank > d->total)
        rank = d->total;
    return d->b[bucket_at_rank(d, rank)].high_ns;
}

int64_t hgrm_value_at_percentile(const hgrm_dist *d, hist_rank_rule rule, uint64_t num, uint64_t den)
{
    return hgrm_value_at_rank(d, hist_rank(rule, num, den, d->total));
}

int64_t hgrm_draw(const hgrm_dist *d, double u)
{
    if (!(u > 0.0))
        u = 0.0;
    if (u >= 1.0)
        u = nextafter(1.0, 0.0);
    double x = u * (double)d->total;
    /* first bucket with cum > x */
    size_t lo = 0, hi = d->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((double)d->b[mid].cum > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    const hgrm_bucket *b = &d->b[lo];
    double f = (x - (double)(b->cum - b->count)) / (double)b->count;
    if (f < 0.0)
        f = 0.0;
    uint64_t width = (uint64_t)(b->high_ns - b->low_ns) + 1;
    double off = floor(f * (double)width);
    int64_t v = b->low_ns + (off >= (double)width ? (int64_t)(width - 1) : (int64_t)off);
    return v > b->high_ns ? b->high_ns : v;
}

double hgrm_draw_mean(const hgrm_dist *d)
{
    long double sum = 0;
    for (size_t i = 0; i < d->n; i++)
        sum += (long double)d->b[i].count * (((long double)d->b[i].low_ns + (long double)d->b[i].high_ns) / 2);
    return d->total ? (double)(sum / (long double)d->total) : 0.0;
}

int hgrm_to_hist(const hgrm_dist *d, hist *dst)
{
    for (size_t i = 0; i < d->n; i++) {
        if (d->b[i].high_ns < 0)
            return -EINVAL;
        hist_record_n(dst, d->b[i].high_ns, d->b[i].count);
    }
    return 0;
}
