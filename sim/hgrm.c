/* hgrm.c - HdrHistogram percentile spectra read back; draws from them. */
#include "hgrm.h"
#include "textin.h"

#include <errno.h>
#include <math.h>
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
        size_t nc = st->cap ? 2 * st->cap : 64;
        hgrm_bucket *nb = realloc(st->b, nc * sizeof *nb);
        if (!nb)
            return -ENOMEM;
        st->b = nb;
        st->cap = nc;
    }
    st->b[st->n++] = (hgrm_bucket){.low_ns = lo, .high_ns = hi, .count = count, .line = line};
    return 0;
}

#define FAIL(rc_, ...)                                                                             \
    do {                                                                                           \
        snprintf(err, errlen, __VA_ARGS__);                                                        \
        rc = (rc_);                                                                                \
        goto out;                                                                                  \
    } while (0)

int hgrm_parse(hgrm_dist **out, const char *name, const char *text, size_t len, int64_t unit_ns,
               int spectrum, char *err, size_t errlen)
{
    *out = NULL;
    if (unit_ns <= 0) {
        snprintf(err, errlen, "%s: the unit must be a positive number of ns", name);
        return -EINVAL;
    }
    textin_lines it;
    textin_lines_init(&it, text, len);
    spectrum_state st = {0};
    enum { OUTSIDE, BEFORE_ROWS, ROWS, FOOTER } state = OUTSIDE;
    int seen = 0, chosen = -1, done = 0, has_footer = 0;
    int64_t footer_max = 0;
    int rc = 0;
    const char *s;
    size_t n;
    while (!done && textin_next_line(&it, &s, &n)) {
        tok t[MAX_TOKENS];
        size_t k = tokenize(s, n, t, MAX_TOKENS);
        if (k == 4 && is_header(t, k)) {
            if (state != OUTSIDE && chosen == seen - 1 && spectrum >= 0)
                break; /* the chosen spectrum ended; the next one starts */
            seen++;
            if (spectrum < 0 && seen == 2)
                FAIL(-EINVAL, "%s:%zu: a second percentile spectrum; say which one to read", name, it.line);
            if (spectrum < 0 || seen - 1 == spectrum) {
                chosen = seen - 1;
                state = BEFORE_ROWS;
                st.header_line = it.line;
            } else {
                state = OUTSIDE;
            }
            continue;
        }
        if (state == OUTSIDE)
            continue;
        if (k == 0) {
            if (state == ROWS)
                state = FOOTER;
            continue;
        }
        if (n >= 2 && s[0] == '#' && s[1] == '[') {
            state = FOOTER;
            const char *m = textin_find(s, n, "#[Max");
            if (m == s) {
                /* #[Max     =       10.123, Total count    =        12345] */
                const char *eq = memchr(s, '=', n);
                const char *tc = textin_find(s, n, "Total count");
                if (!eq || !tc)
                    FAIL(-EINVAL, "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"", name, it.line);
                const char *v = eq + 1;
                while (*v == ' ')
                    v++;
                size_t vn = textin_decimal_span(v, (size_t)(s + n - v), 0);
                const char *eq2 = memchr(tc, '=', (size_t)(s + n - tc));
                if (!vn || !eq2)
                    FAIL(-EINVAL, "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"", name, it.line);
                const char *c = eq2 + 1;
                while (*c == ' ')
                    c++;
                size_t cn = 0;
                while (c + cn < s + n && c[cn] >= '0' && c[cn] <= '9')
                    cn++;
                tok ct = {c, cn};
                uint64_t total;
                int r1 = textin_decimal(v, vn, unit_ns, 0, &footer_max);
                if (r1 || parse_u64(&ct, &total))
                    FAIL(r1 == -ERANGE ? -ERANGE : -EINVAL, "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"",
                         name, it.line);
                if (total != st.prev_total)
                    FAIL(-EINVAL, "%s:%zu: Total count %llu, but the last row's TotalCount is %llu", name,
                         it.line, (unsigned long long)total, (unsigned long long)st.prev_total);
                has_footer = 1;
            }
            continue;
        }
        if (state == FOOTER) {
            if (spectrum >= 0)
                done = 1;
            else
                state = OUTSIDE;
            continue;
        }
        /* a row: Value Percentile TotalCount [1/(1-Percentile)] */
        if (!(t[0].s[0] >= '0' && t[0].s[0] <= '9')) {
            /* text after the rows (wrk2's "-----" line): the end */
            if (state == ROWS) {
                state = OUTSIDE;
                continue;
            }
            FAIL(-EINVAL, "%s:%zu: expected a row \"Value Percentile TotalCount 1/(1-Percentile)\"", name,
                 it.line);
        }
        if (k < 3 || k > 4 || (k == 4 && !is_inverse_column(&t[3])))
            FAIL(-EINVAL, "%s:%zu: expected a row of 4 numbers \"Value Percentile TotalCount 1/(1-Percentile)\"",
                 name, it.line);
        int64_t value;
        double level;
        uint64_t total;
        int rv = textin_decimal(t[0].s, t[0].n, unit_ns, 0, &value);
        if (rv == -ERANGE)
            FAIL(-ERANGE, "%s:%zu: Value %.*s is beyond 2^63 ns", name, it.line, (int)t[0].n, t[0].s);
        if (rv)
            FAIL(-EINVAL, "%s:%zu: Value '%.*s' is not a decimal number", name, it.line, (int)t[0].n, t[0].s);
        if (parse_level(&t[1], &level))
            FAIL(-EINVAL, "%s:%zu: Percentile '%.*s' is not a number in [0, 1]", name, it.line, (int)t[1].n,
                 t[1].s);
        if (parse_u64(&t[2], &total))
            FAIL(-EINVAL, "%s:%zu: TotalCount '%.*s' is not a whole number", name, it.line, (int)t[2].n,
                 t[2].s);
        if (st.rows) {
            if (value < st.prev_value)
                FAIL(-EINVAL, "%s:%zu: Value %.*s is below the row before's", name, it.line, (int)t[0].n, t[0].s);
            if (total < st.prev_total)
                FAIL(-EINVAL, "%s:%zu: TotalCount %llu is below the row before's %llu", name, it.line,
                     (unsigned long long)total, (unsigned long long)st.prev_total);
            if (level < st.prev_level)
                FAIL(-EINVAL, "%s:%zu: Percentile %.*s is below the row before's", name, it.line, (int)t[1].n,
                     t[1].s);
            if (total > st.prev_total) {
                int64_t lo = value > st.prev_value ? st.prev_value + 1 : value;
                if ((rc = push_bucket(&st, lo, value, total - st.prev_total, it.line)))
                    FAIL(rc, "%s: out of memory", name);
            }
        } else if (total > 0) {
            if ((rc = push_bucket(&st, value, value, total, it.line)))
                FAIL(rc, "%s: out of memory", name);
        }
        st.rows++;
        st.prev_value = value;
        st.prev_total = total;
        st.prev_level = level;
        state = ROWS;
    }
    if (chosen < 0) {
        if (seen == 0)
            FAIL(-EINVAL, "%s: no percentile spectrum (a \"Value Percentile TotalCount 1/(1-Percentile)\" header)",
                 name);
        FAIL(-EINVAL, "%s: holds %d percentile spectr%s; spectrum %d asked (counting from 0)", name, seen,
             seen == 1 ? "um" : "a", spectrum);
    }
    if (st.rows == 0)
        FAIL(-EINVAL, "%s:%zu: the percentile spectrum has no rows", name, st.header_line);
    if (st.prev_total == 0)
        FAIL(-EINVAL, "%s:%zu: the percentile spectrum holds no samples (TotalCount 0)", name, st.header_line);
    hgrm_dist *d;
    if ((rc = hgrm_from_buckets(&d, st.b, st.n)))
        FAIL(rc, "%s: %s", name, rc == -ENOMEM ? "out of memory" : "inconsistent rows");
    d->has_footer = has_footer;
    d->footer_max_ns = has_footer ? footer_max : d->max_ns;
    *out = d;
out:
    free(st.b);
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
