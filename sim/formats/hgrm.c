/* hgrm.c - HdrHistogram percentile spectra read back; draws from them.
 *
 * Grammar of a spectrum (hgrm.h shows one):
 *   header:  "Value Percentile TotalCount 1/(1-Percentile)" (blanks or
 *            commas between, quotes allowed: Java's CSV form)
 *   records: "VALUE PERCENTILE TOTALCOUNT [INVERSE]", VALUE a plain decimal
 *            in the caller's unit (textin_number: no sign, no exponent, no
 *            inf), PERCENTILE a decimal in [0, 1], TOTALCOUNT digits,
 *            INVERSE a decimal or inf/Infinity; every line between the
 *            header and the footer is one (blank lines passed over)
 *   footer:  "#[Mean = M, StdDeviation = S]", "#[Max = V, Total count = N]",
 *            other "#[" lines; Total count, Max and Mean checked against
 *            the rows
 *   other lines (before a header, after a footer: wrk2's whole output)
 *            are counted as not understood. */
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
    for (size_t i = 0; i < d->n_warnings; i++)
        free(d->warnings[i]);
    free(d->warnings);
    free(d->name);
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

/* A percentile level: a plain decimal in [0, 1], kept exact as
 * num / 10^digits (at most 18 decimals). */
typedef struct level_dec {
    uint64_t num;
    unsigned digits;
} level_dec;

static int parse_level(const tok *t, level_dec *out)
{
    if (t->n == 0 || textin_decimal_span(t->s, t->n, 0) != t->n)
        return -EINVAL;
    uint64_t num = 0;
    unsigned digits = 0;
    int frac = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->s[i] == '.') {
            frac = 1;
            continue;
        }
        if (frac && ++digits > 18)
            return -EINVAL;
        if (num > UINT64_MAX / 10 - 1)
            return -EINVAL;
        num = num * 10 + (uint64_t)(t->s[i] - '0');
    }
    uint64_t one = 1;
    for (unsigned i = 0; i < digits; i++)
        one *= 10;
    if (num > one)
        return -EINVAL; /* above 1 */
    out->num = num;
    out->digits = digits;
    return 0;
}

static int is_inverse_column(const tok *t)
{
    return tok_is(t, "inf") || tok_is(t, "Infinity") || tok_is(t, "INF") ||
           (t->n && textin_decimal_span(t->s, t->n, 0) == t->n);
}

/* One row as read, for the checks that need the total (the last row's). */
typedef struct row {
    int64_t value;
    level_dec level;
    uint64_t total;
    size_t line;
} row;

typedef struct spectrum_state {
    hgrm_bucket *b;
    size_t n, cap;
    row *rows;
    size_t rows_n, rows_cap;
    int64_t prev_value;
    uint64_t prev_total;
    level_dec prev_level;
    size_t header_line;
    unsigned value_decimals; /* the most decimals a Value was printed with */
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
    size_t footer_line;
    int has_mean;
    int64_t mean_ns;          /* the footer's Mean, in ns (rounded) */
    unsigned mean_decimals;   /* printed with this many decimals */
    size_t mean_line;
    spectrum_state st;
    textin_account lines;
} parser;

/* A header line. Returns 1 when the chosen spectrum has ended (stop). */
static int on_header(parser *p, size_t line)
{
    if (p->state != OUTSIDE && p->chosen == p->seen - 1 && p->spectrum >= 0)
        return 1; /* the chosen spectrum ended; the next one starts */
    p->seen++;
    if (p->spectrum < 0 && p->seen == 2)
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: a second percentile spectrum; say which one to read",
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

/* The decimals of a plain decimal token s[0..n). */
static unsigned decimals_of(const char *s, size_t n)
{
    const char *d = memchr(s, '.', n);
    return d ? (unsigned)(s + n - d - 1) : 0;
}

/* The plain decimal after the first '=' of s[0..n) from `from`: *v, *vn. */
static int value_after_eq(const char *s, size_t n, const char *from, const char **v, size_t *vn)
{
    const char *eq = from ? memchr(from, '=', (size_t)(s + n - from)) : NULL;
    if (!eq)
        return -EINVAL;
    const char *x = eq + 1;
    while (x < s + n && *x == ' ')
        x++;
    *v = x;
    *vn = textin_decimal_span(x, (size_t)(s + n - x), 0);
    return *vn ? 0 : -EINVAL;
}

/* A "#[" line after the rows: "#[Mean = M, StdDeviation = S]" (the mean
 * kept for the check at the end), "#[Max = VALUE, Total count = N]" (the
 * total checked against the last row's TotalCount, the max against its
 * Value: HdrHistogram prints both as the highest value of the max's
 * bucket, cosim both as the exact max), others passed over. */
static int read_footer(parser *p, const char *s, size_t n, size_t line)
{
    p->state = FOOTER;
    const char *v;
    size_t vn;
    if (textin_starts(s, n, "#[Mean")) {
        if (value_after_eq(s, n, s, &v, &vn) || textin_decimal(v, vn, p->unit_ns, 0, &p->mean_ns))
            return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: expected \"#[Mean = VALUE, StdDeviation = VALUE]\"",
                             p->name, line);
        p->has_mean = 1;
        p->mean_decimals = decimals_of(v, vn);
        p->mean_line = line;
        return 0;
    }
    if (!textin_starts(s, n, "#[Max"))
        return 0;
    /* #[Max     =       10.123, Total count    =        12345] */
    const char *tc = textin_find(s, n, "Total count");
    const char *c;
    size_t cn;
    if (value_after_eq(s, n, s, &v, &vn) || !tc || value_after_eq(s, n, tc, &c, &cn))
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"", p->name,
                         line);
    tok ct = {c, cn};
    uint64_t total;
    int r1 = textin_decimal(v, vn, p->unit_ns, 0, &p->footer_max);
    if (r1 || parse_u64(&ct, &total))
        return textin_fail(p->err, p->errlen, r1 == -ERANGE ? -ERANGE : -EINVAL,
                         "%s:%zu: expected \"#[Max = VALUE, Total count = N]\"", p->name, line);
    if (total != p->st.prev_total)
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Total count %llu, but the last row's TotalCount is %llu",
                         p->name, line, (unsigned long long)total, (unsigned long long)p->st.prev_total);
    if (p->st.rows_n && p->footer_max != p->st.prev_value)
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Max = %.*s, but the last row's Value is %lld ns (in the "
                         "unit given: the same number printed)", p->name, line, (int)vn, v,
                         (long long)p->st.prev_value);
    p->has_footer = 1;
    p->footer_line = line;
    return 0;
}

/* A row "Value Percentile TotalCount [1/(1-Percentile)]" of k tokens:
 * checked against the row before, its new samples made a bucket. */
static int read_row(parser *p, const tok *t, size_t k, size_t line)
{
    const char *name = p->name;
    spectrum_state *st = &p->st;
    if (k < 3 || k > 4 || (k == 4 && !is_inverse_column(&t[3])))
        return textin_fail(p->err, p->errlen, -EINVAL,
                         "%s:%zu: expected a row of 4 numbers \"Value Percentile TotalCount 1/(1-Percentile)\"", name,
                         line);
    int64_t value;
    level_dec level;
    uint64_t total;
    char why[200];
    textin_number_form vf = {"Value", 0, NULL, 0, p->unit_ns};
    int rv = textin_number(t[0].s, t[0].n, &vf, &value, why, sizeof why);
    if (rv)
        return textin_fail(p->err, p->errlen, rv, "%s:%zu: %s", name, line, why);
    if (parse_level(&t[1], &level))
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Percentile '%.*s' is not a number in [0, 1]", name,
                         line, (int)t[1].n, t[1].s);
    if (parse_u64(&t[2], &total))
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: TotalCount '%.*s' is not a whole number", name, line,
                         (int)t[2].n, t[2].s);
    int rc = 0;
    if (st->rows_n) {
        if (value < st->prev_value)
            return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Value %.*s is below the row before's", name, line,
                             (int)t[0].n, t[0].s);
        if (total < st->prev_total)
            return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: TotalCount %llu is below the row before's %llu",
                             name, line, (unsigned long long)total, (unsigned long long)st->prev_total);
        /* a / 10^da < b / 10^db, exactly (at most 18 decimals each) */
        __extension__ unsigned __int128 a = level.num, b = st->prev_level.num;
        for (unsigned i = level.digits; i < st->prev_level.digits; i++)
            a *= 10;
        for (unsigned i = st->prev_level.digits; i < level.digits; i++)
            b *= 10;
        if (a < b)
            return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: Percentile %.*s is below the row before's", name,
                             line, (int)t[1].n, t[1].s);
        if (total > st->prev_total) {
            int64_t lo = value > st->prev_value ? st->prev_value + 1 : value;
            rc = push_bucket(st, lo, value, total - st->prev_total, line);
        }
    } else if (total > 0) {
        rc = push_bucket(st, value, value, total, line);
    }
    if (!rc && st->rows_n == st->rows_cap) {
        row *nr = grow_array(st->rows, &st->rows_cap, sizeof *nr, 64);
        if (!nr)
            rc = -ENOMEM;
        else
            st->rows = nr;
    }
    if (rc)
        return textin_fail(p->err, p->errlen, rc, "%s: out of memory", name);
    st->rows[st->rows_n++] = (row){value, level, total, line};
    unsigned dec = decimals_of(t[0].s, t[0].n);
    if (dec > st->value_decimals)
        st->value_decimals = dec;
    st->prev_value = value;
    st->prev_total = total;
    st->prev_level = level;
    p->state = ROWS;
    return 0;
}

/* One line of the file. Returns 1 when the chosen spectrum is complete
 * (stop reading), 0 to go on, or a negative errno with the message; the
 * line is counted in p->lines. */
static int read_line(parser *p, const char *s, size_t n, size_t line)
{
    tok t[MAX_TOKENS];
    size_t k = tokenize(s, n, t, MAX_TOKENS);
    int cls = TEXTIN_LINE_KNOWN, rc = 0;
    if (k == 4 && is_header(t, k)) {
        rc = on_header(p, line);
    } else if (p->state == OUTSIDE) {
        cls = k == 0 ? TEXTIN_LINE_KNOWN : TEXTIN_LINE_UNKNOWN; /* other text (wrk2's whole output) */
    } else if (k == 0) {
        /* a blank line: Java's after the header; inside the rows, passed over */
    } else if (n >= 2 && s[0] == '#' && s[1] == '[') {
        if (p->state == BEFORE_ROWS)
            return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: the percentile spectrum has no rows", p->name,
                             p->st.header_line);
        rc = read_footer(p, s, n, line);
    } else if (p->state == FOOTER) {
        /* the spectrum ended with its footer */
        if (p->spectrum >= 0)
            return 1;
        p->state = OUTSIDE;
        cls = TEXTIN_LINE_UNKNOWN;
    } else if (!(t[0].s[0] >= '0' && t[0].s[0] <= '9') &&
               !((k == 3 || k == 4) && textin_decimal_span(t[1].s, t[1].n, 0) == t[1].n &&
                 textin_decimal_span(t[2].s, t[2].n, 0) == t[2].n)) {
        /* text inside the rows, before any footer: the spectrum would be
         * cut here, the rest dropped */
        return textin_fail(p->err, p->errlen, -EINVAL,
                         "%s:%zu: '%.*s' is not a row \"Value Percentile TotalCount 1/(1-Percentile)\" and the "
                         "spectrum has not ended (no \"#[Max = ..., Total count = ...]\" footer yet)",
                         p->name, line, (int)(n > 60 ? 60 : n), s);
    } else {
        rc = read_row(p, t, k, line);
        cls = TEXTIN_LINE_RECORD;
    }
    if (rc >= 0)
        textin_account_line(&p->lines, cls, line);
    return rc;
}

/* A level as printed: "0.690000000000". */
static void fmt_level(const level_dec *l, char *buf, size_t len)
{
    uint64_t one = 1;
    for (unsigned i = 0; i < l->digits; i++)
        one *= 10;
    if (l->digits)
        snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(l->num / one), (int)l->digits,
                 (unsigned long long)(l->num % one));
    else
        snprintf(buf, len, "%llu", (unsigned long long)l->num);
}

/* Every row's Percentile against its TotalCount, with the spectrum's total
 * T: a row is printed at the first value whose count reaches its level
 * (HdrHistogram's PercentileIterator.reachedIterationLevel: the bucket
 * where 100 count / T first reaches the level), so level x T <= TotalCount,
 * and the row before a higher Value counted less than level x T (row 0
 * apart: cosim prints there the exact min). One
 * sample of slack each way for the level's printed rounding. Exact: the
 * level is num / 10^digits. */
static int check_levels(parser *p)
{
    const spectrum_state *st = &p->st;
    __extension__ typedef unsigned __int128 u128;
    u128 total = st->prev_total;
    for (size_t i = 0; i < st->rows_n; i++) {
        const row *r = &st->rows[i];
        u128 den = 1;
        for (unsigned j = 0; j < r->level.digits; j++)
            den *= 10;
        u128 want = (u128)r->level.num * total; /* level x T x den */
        char lv[48];
        fmt_level(&r->level, lv, sizeof lv);
        if (want > ((u128)r->total + 1) * den)
            return textin_fail(p->err, p->errlen, -EINVAL,
                             "%s:%zu: Percentile %s contradicts TotalCount %llu: that share of the %llu samples is "
                             "more than the row counts",
                             p->name, r->line, lv, (unsigned long long)r->total, (unsigned long long)st->prev_total);
        /* (not against row 0: cosim prints there the exact min, below
         * the top of the bucket it shares with the next rows) */
        if (i > 1 && st->rows[i - 1].value < r->value && (u128)st->rows[i - 1].total * den > want + den)
            return textin_fail(p->err, p->errlen, -EINVAL,
                             "%s:%zu: Percentile %s contradicts the row before's TotalCount %llu: that many of the "
                             "%llu samples were already below this row's Value",
                             p->name, r->line, lv, (unsigned long long)st->rows[i - 1].total,
                             (unsigned long long)st->prev_total);
    }
    return 0;
}

/* The footer's Mean against the rows: each row's new samples lie in
 * (Value_{i-1}, Value_i] (row 0's at or below Value_0, so above 0), so the
 * mean lies in (sum c_i Value_{i-1} / T, sum c_i Value_i / T]; widened by
 * half a printed digit of the mean and of the Values (each printed
 * rounded). Exact in 128 bits. */
static int check_mean(parser *p)
{
    if (!p->has_mean)
        return 0;
    const spectrum_state *st = &p->st;
    __extension__ typedef __int128 i128;
    i128 lo = 0, hi = 0, total = (i128)st->prev_total;
    for (size_t i = 0; i < st->n; i++) {
        const hgrm_bucket *b = &st->b[i];
        lo += (i128)b->count * (i ? b->low_ns - 1 : 0);
        hi += (i128)b->count * b->high_ns;
    }
    int64_t tol_v = p->unit_ns, tol_m = p->unit_ns;
    for (unsigned i = 0; i < st->value_decimals && tol_v > 1; i++)
        tol_v /= 10;
    for (unsigned i = 0; i < p->mean_decimals && tol_m > 1; i++)
        tol_m /= 10;
    i128 tol = (i128)(tol_v / 2 + tol_m / 2 + 1);
    i128 m = (i128)p->mean_ns * total;
    if (m + tol * total < lo || m - tol * total > hi)
        return textin_fail(p->err, p->errlen, -EINVAL,
                         "%s:%zu: Mean %lld ns lies outside what the rows allow (%lld to %lld ns): the footer does not "
                         "belong to these rows",
                         p->name, p->mean_line, (long long)p->mean_ns, (long long)(lo / total),
                         (long long)(hi / total));
    return 0;
}

/* After the last line read: the chosen spectrum as a distribution. */
static int finish_spectrum(parser *p, hgrm_dist **out)
{
    const char *name = p->name;
    if (p->chosen < 0) {
        if (p->seen == 0)
            return textin_fail(p->err, p->errlen, -EINVAL,
                             "%s: no percentile spectrum (a \"Value Percentile TotalCount 1/(1-Percentile)\" header)",
                             name);
        return textin_fail(p->err, p->errlen, -EINVAL,
                         "%s: holds %d percentile spectr%s; spectrum %d asked (counting from 0)", name, p->seen,
                         p->seen == 1 ? "um" : "a", p->spectrum);
    }
    if (p->st.rows_n == 0)
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: the percentile spectrum has no rows", name,
                         p->st.header_line);
    if (p->st.prev_total == 0)
        return textin_fail(p->err, p->errlen, -EINVAL, "%s:%zu: the percentile spectrum holds no samples (TotalCount 0)",
                         name, p->st.header_line);
    int rc = check_levels(p);
    if (!rc)
        rc = check_mean(p);
    if (rc)
        return rc;
    hgrm_dist *d;
    rc = hgrm_from_buckets(&d, p->st.b, p->st.n);
    if (rc)
        return textin_fail(p->err, p->errlen, rc, "%s: %s", name, rc == -ENOMEM ? "out of memory" : "inconsistent rows");
    d->has_footer = p->has_footer;
    d->footer_max_ns = p->has_footer ? p->footer_max : d->max_ns;
    d->lines = p->lines;
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
    int cut = textin_ends_cut(text, len);
    while (rc == 0 && textin_next_line(&it, &s, &n)) {
        rc = read_line(&p, s, n, it.line);
        if (rc < 0 && rc != -ENOMEM && cut && it.p >= it.end && p.state != OUTSIDE) {
            textin_say_cut_record(err, errlen, name, it.line);
        }
    }
    if (rc >= 0)
        rc = finish_spectrum(&p, out);
    free(p.st.b);
    free(p.st.rows);
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
