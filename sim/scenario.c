/* scenario.c - INI scenario files (libinih) to a checked scenario. */
#include "scenario.h"
#include "rng.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- phase 1: the raw entries, each with its line ---------------------- */

typedef struct entry {
    char *section, *key, *value;
    int line;         /* 0 when it came from --set */
    const char *set;  /* the --set argument, or NULL */
    int used;
} entry;

typedef struct section_rec {
    char *name;
    int line;         /* 0 when created by --set */
    const char *set;
} section_rec;

typedef struct parser {
    const char *path;
    FILE *f;
    int line;            /* line the reader last returned */
    int line_indented;   /* it started with a blank (a continuation) */
    entry *e;
    size_t n_e, cap_e;
    section_rec *sec;
    size_t n_sec, cap_sec;
    char *err;
    size_t errlen;
    int failed;          /* an error message is set */
    int oom;
} parser;

static void fail(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
    p->failed = 1;
}

static char *xstrdup(parser *p, const char *s)
{
    char *d = strdup(s);
    if (!d)
        p->oom = 1;
    return d;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = '\0';
    return s;
}

static section_rec *find_section(parser *p, const char *name)
{
    for (size_t i = 0; i < p->n_sec; i++)
        if (strcmp(p->sec[i].name, name) == 0)
            return &p->sec[i];
    return NULL;
}

static section_rec *add_section(parser *p, const char *name, int line, const char *set)
{
    if (p->n_sec == p->cap_sec) {
        size_t cap = p->cap_sec ? 2 * p->cap_sec : 8;
        section_rec *n = realloc(p->sec, cap * sizeof *n);
        if (!n) {
            p->oom = 1;
            return NULL;
        }
        p->sec = n;
        p->cap_sec = cap;
    }
    section_rec *r = &p->sec[p->n_sec];
    r->name = xstrdup(p, name);
    if (!r->name)
        return NULL;
    r->line = line;
    r->set = set;
    p->n_sec++;
    return r;
}

static entry *find_entry(parser *p, const char *section, const char *key)
{
    for (size_t i = 0; i < p->n_e; i++)
        if (strcmp(p->e[i].section, section) == 0 && strcmp(p->e[i].key, key) == 0)
            return &p->e[i];
    return NULL;
}

static entry *add_entry(parser *p, const char *section, const char *key, const char *value,
                        int line, const char *set)
{
    if (p->n_e == p->cap_e) {
        size_t cap = p->cap_e ? 2 * p->cap_e : 32;
        entry *n = realloc(p->e, cap * sizeof *n);
        if (!n) {
            p->oom = 1;
            return NULL;
        }
        p->e = n;
        p->cap_e = cap;
    }
    entry *e = &p->e[p->n_e];
    memset(e, 0, sizeof *e);
    e->section = xstrdup(p, section);
    e->key = xstrdup(p, key);
    e->value = xstrdup(p, value);
    e->line = line;
    e->set = set;
    if (!e->section || !e->key || !e->value) {
        free(e->section);
        free(e->key);
        free(e->value);
        return NULL;
    }
    p->n_e++;
    return e;
}

/* Whether s is valid UTF-8 (RFC 3629: no overlongs, no surrogates, at most
 * U+10FFFF); *bad receives the offset of the first bad byte. */
static int utf8_valid(const char *str, size_t *bad)
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

/* inih reader: one line per call, so p->line is the line of every handler
 * call (inih's own count agrees). Refuses binary input and overlong lines
 * rather than letting inih split them. */
static char *reader(char *str, int num, void *stream)
{
    parser *p = stream;
    int n = 0, c = EOF;
    if (p->failed)
        return NULL;
    while (n < num - 1 && (c = getc(p->f)) != EOF) {
        if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
            fail(p, "%s:%d: not a text file (byte 0x%02x); a scenario is an INI text file",
                 p->path, p->line + 1, c);
            return NULL;
        }
        str[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return NULL; /* end of file */
    str[n] = '\0';
    p->line++;
    if (str[n - 1] != '\n' && n == num - 1 && (c = getc(p->f)) != EOF && c != '\n') {
        fail(p, "%s:%d: line longer than %d characters", p->path, p->line, num - 2);
        return NULL;
    }
    if (p->line == 1 && (unsigned char)str[0] == 0xEF && (unsigned char)str[1] == 0xBB &&
        (unsigned char)str[2] == 0xBF)
        memmove(str, str + 3, (size_t)n - 2); /* a UTF-8 byte order mark: skip it */
    size_t bad_at;
    if (!utf8_valid(str, &bad_at)) {
        fail(p, "%s:%d: not valid UTF-8 (byte 0x%02x at column %zu); save the file as UTF-8",
             p->path, p->line, (unsigned char)str[bad_at], bad_at + 1);
        return NULL;
    }
    p->line_indented = (str[0] == ' ' || str[0] == '\t');
    /* section headers: recorded here to catch duplicates and empty sections */
    char *s = str;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '[' && !strchr(s, ']')) {
        fail(p, "%s:%d: a section header needs its closing ']', e.g. [tester open]", p->path, p->line);
        return NULL;
    }
    if (*s == '[') {
        char name[256];
        char *close = strchr(s, ']');
        size_t len = close ? (size_t)(close - s - 1) : 0;
        if (close && len < sizeof name) {
            memcpy(name, s + 1, len);
            name[len] = '\0';
            char *t = trim(name);
            section_rec *r = find_section(p, t);
            if (r) {
                fail(p, "%s:%d: section [%s] appears twice (first on line %d); merge them",
                     p->path, p->line, t, r->line);
                return NULL;
            }
            add_section(p, t, p->line, NULL);
        }
    }
    return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    parser *p = user;
    if (p->failed || p->oom)
        return 0;
    char secbuf[256];
    snprintf(secbuf, sizeof secbuf, "%s", section);
    section = trim(secbuf); /* "[tester a ]" is [tester a], as the reader saw it */
    if (!*section) {
        fail(p, "%s:%d: key '%s' outside any section; put it under [scenario], [service], "
                "[stall NAME] or [tester NAME]",
             p->path, p->line, name);
        return 0;
    }
    entry *e = find_entry(p, section, name);
    if (e && p->line_indented && e->line > 0) {
        /* an indented continuation line of a multi-line value */
        if (strchr(value, '=')) {
            fail(p, "%s:%d: this indented line continues the value of '%s' above; if it is a key "
                    "of its own, remove the indentation",
                 p->path, p->line, name);
            return 0;
        }
        size_t len = strlen(e->value) + strlen(value) + 2;
        char *v = malloc(len);
        if (!v) {
            p->oom = 1;
            return 0;
        }
        snprintf(v, len, "%s %s", e->value, value);
        free(e->value);
        e->value = v;
        return 1;
    }
    if (e) {
        fail(p, "%s:%d: [%s] %s: key given twice (first on line %d)", p->path, p->line, section,
             name, e->line);
        return 0;
    }
    return add_entry(p, section, name, value, p->line, NULL) ? 1 : 0;
}

/* ---- phase 2: --set overrides ------------------------------------------ */

static int apply_set(parser *p, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char path[256];
    if (!eq || (size_t)(eq - arg) >= sizeof path) {
        fail(p, "--set %s: expected SECTION.KEY=VALUE (e.g. --set scenario.rank_rule=nearest_rank)",
             arg);
        return -1;
    }
    memcpy(path, arg, (size_t)(eq - arg));
    path[eq - arg] = '\0';
    char *dot = strrchr(path, '.');
    if (!dot || dot == path || !dot[1]) {
        fail(p, "--set %s: expected SECTION.KEY=VALUE (e.g. --set scenario.rank_rule=nearest_rank)",
             arg);
        return -1;
    }
    *dot = '\0';
    char *key = trim(dot + 1);
    /* "tester.open" stands for "tester open" */
    char *d = strchr(path, '.');
    if (d)
        *d = ' ';
    char *section = trim(path);
    char valbuf[1024];
    snprintf(valbuf, sizeof valbuf, "%s", eq + 1);
    char *value = trim(valbuf);
    for (const char *q = value; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f) {
            fail(p, "--set %s.%s: the value holds a control character (a newline?)", section, key);
            return -1;
        }
    size_t bad_at;
    if (!utf8_valid(value, &bad_at)) {
        fail(p, "--set %s.%s: the value is not valid UTF-8", section, key);
        return -1;
    }
    entry *e = find_entry(p, section, key);
    if (e && e->set) {
        fail(p, "--set %s: [%s] %s is already set by --set %s (or --seed, --rank-rule); give it once",
             arg, section, key, e->set);
        return -1;
    }
    if (e && !*value) { /* "--set service.time=" removes the key */
        free(e->section);
        free(e->key);
        free(e->value);
        *e = p->e[--p->n_e];
        return 0;
    }
    if (e) {
        char *v = xstrdup(p, value);
        if (!v)
            return -1;
        free(e->value);
        e->value = v;
        e->line = 0;
        e->set = arg;
        return 0;
    }
    if (!find_section(p, section) && !add_section(p, section, 0, arg))
        return -1;
    return add_entry(p, section, key, value, 0, arg) ? 0 : -1;
}

/* ---- phase 3: interpretation ------------------------------------------- */

typedef struct ctx {
    parser *p;
    scenario *s;
    const section_rec *sec;
} ctx;

/* Where an entry came from: "FILE:LINE" or "--set ARG". */
static const char *where(const ctx *c, const entry *e, char *buf, size_t len)
{
    if (e->set)
        snprintf(buf, len, "--set %s", e->set);
    else
        snprintf(buf, len, "%s:%d", c->p->path, e->line);
    return buf;
}

static void bad_value(ctx *c, const entry *e, const char *why)
{
    char w[512], v[80];
    if (strlen(e->value) > 60)
        snprintf(v, sizeof v, "%.57s...", e->value);
    else
        snprintf(v, sizeof v, "%s", e->value);
    const char *hint = "";
    if (strstr(e->value, " #"))
        hint = " (comments after a value start with ';', not '#')";
    else if (strpbrk(e->value, "eE") && strpbrk(e->value, "0123456789") &&
             (strstr(e->value, "e+") || strstr(e->value, "e-") || strstr(e->value, "e1") ||
              strstr(e->value, "e2") || strstr(e->value, "e3") || strstr(e->value, "e6") ||
              strstr(e->value, "e9")))
        hint = " (write numbers out: 1000 rather than 1e3)";
    fail(c->p, "%s: [%s] %s = %s: %s%s", where(c, e, w, sizeof w), e->section, e->key, v, why, hint);
}

static void section_fail(ctx *c, const char *fmt, ...)
{
    char msg[512], w[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->sec->set)
        snprintf(w, sizeof w, "--set %s", c->sec->set);
    else
        snprintf(w, sizeof w, "%s:%d", c->p->path, c->sec->line);
    fail(c->p, "%s: [%s] %s", w, c->sec->name, msg);
}

static entry *get(ctx *c, const char *key)
{
    entry *e = find_entry(c->p, c->sec->name, key);
    if (e)
        e->used = 1;
    return e;
}

/* Edit distance of two short keys (Levenshtein; longer keys count as far). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la >= 63 || lb >= 63)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* A required key is missing: if the section has an unknown key close to it,
 * that is surely a typo: report it, at its own line. 1 if reported. */
static int report_typo(ctx *c, const char *key)
{
    for (size_t i = 0; i < c->p->n_e; i++) {
        entry *e = &c->p->e[i];
        if (e->used || strcmp(e->section, c->sec->name) != 0 || edit_distance(e->key, key) > 2)
            continue;
        char w[512];
        fail(c->p, "%s: [%s] unknown key '%s'; did you mean '%s'?", where(c, e, w, sizeof w), e->section,
             e->key, key);
        return 1;
    }
    return 0;
}

static int need(ctx *c, const char *key, const char *example)
{
    if (find_entry(c->p, c->sec->name, key))
        return 1;
    if (!report_typo(c, key))
        section_fail(c, "needs key '%s' (e.g. %s = %s)", key, key, example);
    return 0;
}

/* Each getter: 1 if the key was present and good, 0 if absent (value left
 * as is: the documented default), -1 on error (message set). */
static int get_duration(ctx *c, const char *key, int64_t *out, int allow_zero)
{
    entry *e = get(c, key);
    if (!e)
        return 0;
    const char *why;
    if (units_parse_duration(e->value, out, &why)) {
        bad_value(c, e, why);
        return -1;
    }
    if (!allow_zero && *out == 0) {
        bad_value(c, e, "must be above zero");
        return -1;
    }
    return 1;
}

static int get_number(ctx *c, const char *key, double *out, double lo, double hi)
{
    entry *e = get(c, key);
    if (!e)
        return 0;
    const char *why;
    if (units_parse_number(e->value, out, &why)) {
        bad_value(c, e, why);
        return -1;
    }
    if (*out < lo || *out > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "must be between %g and %g", lo, hi);
        bad_value(c, e, msg);
        return -1;
    }
    return 1;
}

static int get_count(ctx *c, const char *key, uint64_t *out, uint64_t lo, uint64_t hi)
{
    entry *e = get(c, key);
    if (!e)
        return 0;
    const char *why;
    if (units_parse_count(e->value, UINT64_MAX, out, &why)) {
        bad_value(c, e, why);
        return -1;
    }
    if (*out < lo || *out > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "must be between %llu and %llu", (unsigned long long)lo,
                 (unsigned long long)hi);
        bad_value(c, e, msg);
        return -1;
    }
    return 1;
}

/* A word from a list of choices; *out gets its index. */
static int get_choice(ctx *c, const char *key, const char *const *choices, int *out)
{
    entry *e = get(c, key);
    if (!e)
        return 0;
    for (int i = 0; choices[i]; i++)
        if (strcmp(e->value, choices[i]) == 0) {
            *out = i;
            return 1;
        }
    char msg[256] = "expected one of:";
    for (int i = 0; choices[i]; i++) {
        strncat(msg, i ? ", " : " ", sizeof msg - strlen(msg) - 1);
        strncat(msg, choices[i], sizeof msg - strlen(msg) - 1);
    }
    bad_value(c, e, msg);
    return -1;
}

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > SCENARIO_NAME_MAX)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return 0;
    return 1;
}

/* Report keys of the current section that nothing asked for. */
static int check_unused(ctx *c, const char *allowed)
{
    for (size_t i = 0; i < c->p->n_e; i++) {
        entry *e = &c->p->e[i];
        if (e->used || strcmp(e->section, c->sec->name) != 0)
            continue;
        char w[512];
        fail(c->p, "%s: [%s] unknown key '%s'; %s", where(c, e, w, sizeof w), e->section, e->key,
             allowed);
        return -1;
    }
    return 0;
}

static const char *const rank_rules[] = {"nearest_rank", "rounded_rank", "sorted_index", NULL};
static const char *const in_flight_choices[] = {"record", "drop", NULL};

static int do_scenario(ctx *c)
{
    scenario *s = c->s;
    entry *e;
    if ((e = get(c, "name"))) {
        if (!valid_name(e->value)) {
            bad_value(c, e, "a name is 1 to 40 letters, digits, '_' or '-' (it names the output folder)");
            return -1;
        }
        snprintf(s->name, sizeof s->name, "%s", e->value);
    }
    if ((e = get(c, "title"))) {
        if (strlen(e->value) > 100) {
            bad_value(c, e, "a title is at most 100 characters, so that it fits the chart");
            return -1;
        }
        snprintf(s->title, sizeof s->title, "%s", e->value);
    }
    if (!need(c, "duration", "100s") || get_duration(c, "duration", &s->duration_ns, 0) < 0)
        return -1;
    int v;
    if (get_count(c, "seed", &s->seed, 0, UINT64_MAX) < 0)
        return -1;
    int got = get_choice(c, "rank_rule", rank_rules, &v);
    if (got < 0)
        return -1;
    if (got)
        s->rank_rule = (hist_rank_rule)v;
    if (get_duration(c, "threshold", &s->threshold_ns, 1) < 0)
        return -1;
    got = get_choice(c, "in_flight_at_end", in_flight_choices, &v);
    if (got < 0)
        return -1;
    if (got)
        s->drop_in_flight = v;
    uint64_t bits = s->sub_bits;
    if (get_count(c, "sub_bucket_bits", &bits, HIST_MIN_SUB_BITS, HIST_MAX_SUB_BITS) < 0)
        return -1;
    s->sub_bits = (unsigned)bits;
    if ((e = get(c, "generator"))) {
        if (rng_check_name(e->value) || strlen(e->value) >= sizeof s->generator) {
            bad_value(c, e, "not a GSL generator name (e.g. mt19937, taus2, ranlxd2)");
            return -1;
        }
        snprintf(s->generator, sizeof s->generator, "%s", e->value);
    }
    if (get_count(c, "max_requests", &s->max_requests, 1, UINT64_MAX) < 0)
        return -1;
    if ((e = get(c, "chart_window"))) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", e->value);
        char *dots = strstr(buf, "..");
        const char *why = "expected START..END with units, e.g. 0.85s..1.6s";
        if (!dots || (*dots = '\0', units_parse_duration(buf, &s->chart_window_from, &why)) ||
            units_parse_duration(dots + 2, &s->chart_window_to, &why) ||
            s->chart_window_to <= s->chart_window_from) {
            bad_value(c, e, why);
            return -1;
        }
    }
    return check_unused(c, "[scenario] takes name, title, duration, seed, rank_rule, threshold, "
                           "in_flight_at_end, sub_bucket_bits, generator, max_requests, chart_window");
}

/* A growing array of int64 values read from a data file. */
typedef struct vec64 {
    int64_t *v;
    size_t n, cap;
} vec64;
static void scenario_relative(const ctx *c, const char *name, char *out, size_t len);
static int read_data_file(ctx *c, entry *e, const char *path,
                          int (*fn)(ctx *c, const char *path, int line, char *text, void *arg), void *arg);
static int empirical_line(ctx *c, const char *path, int line, char *text, void *arg);
static int read_file_key(ctx *c, const char *example,
                         int (*fn)(ctx *c, const char *path, int line, char *text, void *arg),
                         vec64 *x, entry **e);

/* The keys of a distribution, by kind: prefix lets [tester] use
 * think_distribution, think_mean, ... */
static int do_distribution(ctx *c, dist_spec *d, const char *prefix, const char **allowed)
{
    static const char *const kinds[] = {"constant", "uniform", "exponential", "lognormal",
                                        "normal", "gamma", "pareto", "empirical", NULL};
    static const char *const keys[] = {
        "time", "min, max", "mean", "median, sigma", "mean, stddev", "mean, shape",
        "minimum, shape", "file"};
    char k[64];
    int v = 0, rc;
    snprintf(k, sizeof k, "%sdistribution", prefix);
    if (!need(c, k, "lognormal") || get_choice(c, k, kinds, &v) < 0)
        return -1;
    d->kind = (dist_kind)v;
    *allowed = keys[v];
#define KEY(name) (snprintf(k, sizeof k, "%s%s", prefix, name), k)
#define REQ_DUR(name, field, zero)                                                                 \
    do {                                                                                           \
        if (!need(c, KEY(name), "100us") || get_duration(c, KEY(name), &d->field, zero) < 0)       \
            return -1;                                                                             \
    } while (0)
    switch (d->kind) {
    case DIST_CONSTANT:
        REQ_DUR("time", a_ns, 1);
        break;
    case DIST_UNIFORM:
        REQ_DUR("min", a_ns, 1);
        REQ_DUR("max", b_ns, 1);
        break;
    case DIST_EXPONENTIAL:
        REQ_DUR("mean", a_ns, 0);
        break;
    case DIST_LOGNORMAL:
        REQ_DUR("median", a_ns, 0);
        if (!need(c, KEY("sigma"), "0.2") || (rc = get_number(c, KEY("sigma"), &d->shape, 0, 10)) < 0)
            return -1;
        break;
    case DIST_NORMAL:
        REQ_DUR("mean", a_ns, 0);
        REQ_DUR("stddev", b_ns, 1);
        break;
    case DIST_GAMMA:
        REQ_DUR("mean", a_ns, 0);
        if (!need(c, KEY("shape"), "2") || get_number(c, KEY("shape"), &d->shape, 1e-6, 1e6) < 0)
            return -1;
        break;
    case DIST_PARETO:
        REQ_DUR("minimum", a_ns, 0);
        if (!need(c, KEY("shape"), "1.5") || get_number(c, KEY("shape"), &d->shape, 1e-6, 1e6) < 0)
            return -1;
        break;
    case DIST_EMPIRICAL: {
        if (*prefix) {
            char dk[64];
            snprintf(dk, sizeof dk, "%sdistribution", prefix);
            bad_value(c, get(c, dk), "an empirical distribution is accepted for [service] only");
            return -1;
        }
        entry *e;
        vec64 x = {0};
        if (read_file_key(c, "service_times.txt", empirical_line, &x, &e) < 0)
            return -1;
        if (x.n == 0) {
            free(x.v);
            bad_value(c, e, "the file holds no service time");
            return -1;
        }
        free(c->s->service_values);
        c->s->service_values = x.v;
        d->values = x.v;
        d->n_values = x.n;
        break;
    }
    }
#undef REQ_DUR
#undef KEY
    const char *why;
    if (dist_check(d, &why)) {
        section_fail(c, "%s", why);
        return -1;
    }
    return 0;
}

static int do_service(ctx *c)
{
    const char *allowed;
    if (do_distribution(c, &c->s->service, "", &allowed) < 0)
        return -1;
    char msg[160];
    snprintf(msg, sizeof msg, "distribution %s takes %s", dist_kind_name(c->s->service.kind),
             allowed);
    return check_unused(c, msg);
}

/* "a..b, c..d" (durations) into windows. */
static int parse_windows(ctx *c, entry *e, stall_spec *st)
{
    size_t cap = 1;
    for (const char *q = e->value; *q; q++)
        cap += *q == ',';
    st->windows = calloc(cap, sizeof *st->windows);
    if (!st->windows) {
        c->p->oom = 1;
        return -1;
    }
    char *copy = strdup(e->value);
    if (!copy) {
        c->p->oom = 1;
        return -1;
    }
    size_t n = 0;
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(tok, "..");
        const char *why = NULL;
        char msg[256];
        if (!dots) {
            snprintf(msg, sizeof msg, "'%s' is not a window START..END (e.g. 0.9s..1.4s)", trim(tok));
            bad_value(c, e, msg);
            rc = -1;
            break;
        }
        *dots = '\0';
        int64_t a, b;
        if (units_parse_duration(tok, &a, &why) || units_parse_duration(dots + 2, &b, &why)) {
            snprintf(msg, sizeof msg, "window '%s..%s': %s", trim(tok), trim(dots + 2), why);
            bad_value(c, e, msg);
            rc = -1;
            break;
        }
        st->windows[n].start_ns = a;
        st->windows[n].end_ns = b;
        n++;
    }
    free(copy);
    if (rc)
        return rc;
    if (n == 0) {
        bad_value(c, e, "expected at least one window START..END (e.g. 0.9s..1.4s)");
        return -1;
    }
    st->n_windows = n;
    size_t bad;
    if (stall_windows_normalise(st->windows, n, &bad)) {
        char msg[256], x[32], y[32];
        units_format_duration_exact(st->windows[bad].start_ns, x, sizeof x);
        units_format_duration_exact(st->windows[bad].end_ns, y, sizeof y);
        if (st->windows[bad].end_ns <= st->windows[bad].start_ns)
            snprintf(msg, sizeof msg, "window %s..%s ends before it starts", x, y);
        else
            snprintf(msg, sizeof msg, "window %s..%s overlaps the one before it; merge them", x, y);
        bad_value(c, e, msg);
        return -1;
    }
    return 0;
}

/* "90, 100..105" into request ranges. */
static int parse_ranges(ctx *c, entry *e, stall_spec *st)
{
    size_t cap = 1;
    for (const char *q = e->value; *q; q++)
        cap += *q == ',';
    st->ranges = calloc(cap, sizeof *st->ranges);
    char *copy = strdup(e->value);
    if (!st->ranges || !copy) {
        free(copy);
        c->p->oom = 1;
        return -1;
    }
    size_t n = 0;
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(tok, "..");
        const char *why;
        uint64_t a, b;
        if (dots)
            *dots = '\0';
        if (units_parse_count(tok, UINT64_MAX / 2, &a, &why) ||
            (dots && units_parse_count(dots + 2, UINT64_MAX / 2, &b, &why))) {
            bad_value(c, e, "expected request indices such as 90 or 90..95, separated by commas");
            rc = -1;
            break;
        }
        st->ranges[n].first = a;
        st->ranges[n].last = dots ? b : a;
        n++;
    }
    free(copy);
    if (rc)
        return rc;
    if (n == 0) {
        bad_value(c, e, "expected request indices such as 90 or 90..95");
        return -1;
    }
    st->n_ranges = n;
    size_t bad;
    if (stall_ranges_normalise(st->ranges, n, &bad)) {
        char msg[160];
        snprintf(msg, sizeof msg, "range %llu..%llu is empty or overlaps another",
                 (unsigned long long)st->ranges[bad].first, (unsigned long long)st->ranges[bad].last);
        bad_value(c, e, msg);
        return -1;
    }
    return 0;
}

/* The path of a file a scenario names, relative to the scenario's folder. */
static void scenario_relative(const ctx *c, const char *name, char *out, size_t len)
{
    if (name[0] == '/') {
        snprintf(out, len, "%s", name);
        return;
    }
    const char *slash = strrchr(c->p->path, '/');
    if (!slash)
        snprintf(out, len, "%s", name);
    else
        snprintf(out, len, "%.*s/%s", (int)(slash - c->p->path), c->p->path, name);
}

/* Read a data file line by line: blank lines and lines starting with '#'
 * are skipped; each other line (blanks trimmed) goes to fn, which returns 0
 * or sets the message (with path:line) and returns -1. */
static int read_data_file(ctx *c, entry *e, const char *path,
                          int (*fn)(ctx *c, const char *path, int line, char *text, void *arg), void *arg)
{
    struct stat st;
    if (!*e->value) {
        bad_value(c, e, "give the name of a file");
        return -1;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s is a directory, not a file", path);
        bad_value(c, e, msg);
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        char msg[600];
        snprintf(msg, sizeof msg, "cannot read %s: %s", path, strerror(errno));
        bad_value(c, e, msg);
        return -1;
    }
    char buf[512];
    int line = 0, rc = 0;
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        size_t got = strlen(buf);
        if (got + 1 < sizeof buf && !strchr(buf, '\n') && !feof(f)) {
            fail(c->p, "%s:%d: not a text file (a NUL byte)", path, line);
            rc = -1;
            break;
        }
        for (size_t q = 0; q < got; q++)
            if ((unsigned char)buf[q] < 0x20 && buf[q] != '\t' && buf[q] != '\n' && buf[q] != '\r') {
                fail(c->p, "%s:%d: not a text file (byte 0x%02x)", path, line, (unsigned char)buf[q]);
                rc = -1;
                break;
            }
        if (rc)
            break;
        if (!strchr(buf, '\n') && !feof(f)) {
            fail(c->p, "%s:%d: line too long (data files hold one short value per line)", path, line);
            rc = -1;
            break;
        }
        char *t = trim(buf);
        if (!*t || *t == '#')
            continue;
        rc = fn(c, path, line, t, arg);
    }
    if (!rc && ferror(f)) {
        fail(c->p, "%s: read error", path);
        rc = -1;
    }
    fclose(f);
    return rc;
}

static int vec64_push(ctx *c, vec64 *x, int64_t a)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        int64_t *nv = realloc(x->v, cap * sizeof *nv);
        if (!nv) {
            c->p->oom = 1;
            return -1;
        }
        x->v = nv;
        x->cap = cap;
    }
    x->v[x->n++] = a;
    return 0;
}

/* One observed service time per line, with its unit: "105us". */
static int empirical_line(ctx *c, const char *path, int line, char *text, void *arg)
{
    int64_t ns;
    const char *why;
    if (strpbrk(text, ",; \t")) {
        fail(c->p, "%s:%d: '%s': one duration per line, e.g. 105us", path, line, text);
        return -1;
    }
    if (units_parse_duration(text, &ns, &why)) {
        fail(c->p, "%s:%d: '%s': %s (one duration per line, e.g. 105us)", path, line, text, why);
        return -1;
    }
    return vec64_push(c, arg, ns);
}

/* "start,length" with units: "2.5s,500ms" (a header "start,length" is allowed). */
static int window_line(ctx *c, const char *path, int line, char *text, void *arg)
{
    vec64 *x = arg;
    if (x->n == 0 && strcmp(text, "start,length") == 0)
        return 0;
    char *comma = strchr(text, ',');
    if (comma && strchr(comma + 1, ',')) {
        fail(c->p, "%s:%d: '%s': expected two fields, start,length", path, line, text);
        return -1;
    }
    int64_t a, b;
    const char *why = "expected start,length such as 2.5s,500ms";
    if (!comma || (*comma = '\0', units_parse_duration(text, &a, &why)) ||
        units_parse_duration(comma + 1, &b, &why)) {
        if (comma)
            *comma = ',';
        fail(c->p, "%s:%d: '%s': %s", path, line, text, why);
        return -1;
    }
    if (b == 0) {
        fail(c->p, "%s:%d: a stall of length 0", path, line);
        return -1;
    }
    if (vec64_push(c, x, a) || vec64_push(c, x, a + b) || vec64_push(c, x, line))
        return -1;
    return 0;
}

/* The data file named by the section's `file` key, read line by line with
 * fn into *x (freed on error); *e receives the key's entry. */
static int read_file_key(ctx *c, const char *example,
                         int (*fn)(ctx *c, const char *path, int line, char *text, void *arg),
                         vec64 *x, entry **e)
{
    if (!need(c, "file", example))
        return -1;
    *e = get(c, "file");
    char path[4096];
    scenario_relative(c, (*e)->value, path, sizeof path);
    if (read_data_file(c, *e, path, fn, x) < 0) {
        free(x->v);
        x->v = NULL;
        return -1;
    }
    return 0;
}

static int do_stall(ctx *c, const char *name)
{
    static const char *const kinds[] = {"periodic", "windows", "requests", "random", "file", NULL};
    scenario *s = c->s;
    stall_spec *st = &s->stalls[s->n_stalls++];
    snprintf(st->name, sizeof st->name, "%s", name);
    int v = 0;
    if (!need(c, "kind", "periodic") || get_choice(c, "kind", kinds, &v) < 0)
        return -1;
    if (v == 4) { /* windows from a CSV of start,length */
        st->kind = STALL_WINDOWS;
        entry *e;
        vec64 x = {0};
        char path[4096];
        if (read_file_key(c, "pauses.csv", window_line, &x, &e) < 0)
            return -1;
        scenario_relative(c, e->value, path, sizeof path);
        st->n_windows = x.n / 3;
        st->windows = calloc(st->n_windows ? st->n_windows : 1, sizeof *st->windows);
        if (!st->windows) {
            free(x.v);
            c->p->oom = 1;
            return -1;
        }
        for (size_t i = 0; i < st->n_windows; i++) {
            st->windows[i].start_ns = x.v[3 * i];
            st->windows[i].end_ns = x.v[3 * i + 1];
        }
        if (st->n_windows == 0) {
            free(x.v);
            bad_value(c, e, "the file holds no start,length line");
            return -1;
        }
        size_t bad;
        if (stall_windows_normalise(st->windows, st->n_windows, &bad)) {
            /* find the offending line by its start */
            int line = 0;
            for (size_t i = 0; i < st->n_windows; i++)
                if (x.v[3 * i] == st->windows[bad].start_ns)
                    line = (int)x.v[3 * i + 2];
            fail(c->p, "%s:%d: this stall overlaps another; merge them", path, line);
            free(x.v);
            return -1;
        }
        free(x.v);
        return check_unused(c, "a file stall takes kind, file");
    }
    st->kind = (stall_kind)v;
    switch (st->kind) {
    case STALL_RANDOM: {
        if (!need(c, "every", "5s") || get_duration(c, "every", &st->mean_gap_ns, 0) < 0)
            return -1;
        const char *allowed;
        if (do_distribution(c, &st->length_dist, "length_", &allowed) < 0)
            return -1;
        /* Windows arrive every `every` on average; if a window lasts about
         * as long, the next one usually starts before it ends and the
         * server almost never works again. Ask for a mean length of at most
         * half the gap (the server then stops at most 1 - exp(-1/2) = 39%
         * of the time). */
        double mean_len = dist_mean_ns(&st->length_dist);
        if (!(mean_len <= (double)st->mean_gap_ns / 2)) {
            char a[32], b[32];
            section_fail(c, "stalls of mean length %s every %s on average would overlap into one "
                            "endless stall; keep the mean length at most half of every",
                         isfinite(mean_len) ? units_format_duration((int64_t)mean_len, a, sizeof a) : "infinite",
                         units_format_duration_exact(st->mean_gap_ns, b, sizeof b));
            return -1;
        }
        if ((double)s->duration_ns / (double)st->mean_gap_ns > (double)s->max_requests) {
            section_fail(c, "every = %s makes more stall windows than max_requests over the run; "
                            "stall less often", get(c, "every")->value);
            return -1;
        }
        return check_unused(c, "a random stall takes kind, every, length_distribution and its "
                               "length_ parameters (e.g. length_mean)");
    }
    case STALL_PERIODIC:
        if (!need(c, "length", "10ms") || get_duration(c, "length", &st->length_ns, 0) < 0)
            return -1;
        if (!need(c, "period", "1s") || get_duration(c, "period", &st->period_ns, 0) < 0)
            return -1;
        if (get_duration(c, "first", &st->first_ns, 1) < 0)
            return -1;
        if (st->length_ns >= st->period_ns) {
            char a[32], b[32];
            section_fail(c, "length %s must be shorter than period %s (or the server never works)",
                         units_format_duration_exact(st->length_ns, a, sizeof a),
                         units_format_duration_exact(st->period_ns, b, sizeof b));
            return -1;
        }
        return check_unused(c, "a periodic stall takes kind, length, period, first");
    case STALL_WINDOWS: {
        if (!need(c, "windows", "0.9s..1.4s"))
            return -1;
        if (parse_windows(c, get(c, "windows"), st) < 0)
            return -1;
        return check_unused(c, "a windows stall takes kind, windows");
    }
    case STALL_REQUESTS:
        if (!need(c, "requests", "90..95") || parse_ranges(c, get(c, "requests"), st) < 0)
            return -1;
        if (!need(c, "extra", "500ms") || get_duration(c, "extra", &st->extra_ns, 0) < 0)
            return -1;
        return check_unused(c, "a requests stall takes kind, requests, extra");
    }
    return -1;
}

static int get_interval(ctx *c, tester_spec *t)
{
    entry *r = get(c, "rate"), *iv = get(c, "interval");
    const char *why;
    if (r && iv) {
        section_fail(c, "give either rate or interval, not both");
        return -1;
    }
    if (!r && !iv) {
        if (report_typo(c, "rate") || report_typo(c, "interval"))
            return -1;
        section_fail(c, "%s %s tester needs 'rate' (e.g. rate = 1000/s) or 'interval' (e.g. interval = 1ms)",
                     t->kind == TESTER_OPEN ? "an" : "a",
                     tester_kind_name(t->kind));
        return -1;
    }
    if (r) {
        if (units_parse_rate(r->value, &t->interval, &why)) {
            bad_value(c, r, why);
            return -1;
        }
    } else {
        int64_t ns;
        if (units_parse_duration(iv->value, &ns, &why)) {
            bad_value(c, iv, why);
            return -1;
        }
        if (ns == 0) {
            bad_value(c, iv, "must be above zero");
            return -1;
        }
        t->interval.num_ns = (uint64_t)ns;
        t->interval.den = 1;
    }
    return 0;
}

/* think_distribution and its think_ parameters, if given. */
static int get_think(ctx *c, tester_spec *t)
{
    if (!find_entry(c->p, c->sec->name, "think_distribution"))
        return 0;
    const char *allowed;
    if (do_distribution(c, &t->think, "think_", &allowed) < 0)
        return -1;
    t->has_think = 1;
    return 0;
}

/* connections = C: at most C requests in flight (C < users to matter). */
static int get_connections(ctx *c, tester_spec *t)
{
    int got = get_count(c, "connections", &t->connections, 1, 1000000);
    if (got < 0)
        return -1;
    if (got > 0 && t->connections > t->users) {
        bad_value(c, get(c, "connections"), "more connections than users changes nothing; "
                                            "give at most users");
        return -1;
    }
    return 0;
}

static int do_tester(ctx *c, const char *name)
{
    static const char *const kinds[] = {"closed", "paced", "open", "corrected", "partly_open", NULL};
    static const char *const lates[] = {"from_now", "next_slot", "catch_up", NULL};
    static const char *const corrections[] = {"hdrhistogram", "book", NULL};
    static const char *const arrivals[] = {"fixed", "poisson", NULL};
    static const char *const froms[] = {"actual", "intended", NULL};
    scenario *s = c->s;
    tester_spec *t = &s->testers[s->n_testers++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->users = 1;
    int v = 0;
    if (!need(c, "kind", "open") || get_choice(c, "kind", kinds, &v) < 0)
        return -1;
    t->kind = (tester_kind)v;
    switch (t->kind) {
    case TESTER_CLOSED:
        if (get_count(c, "users", &t->users, 1, 1000000) < 0 || get_connections(c, t) < 0 ||
            get_think(c, t) < 0)
            return -1;
        return check_unused(c, "a closed tester takes kind, users, connections, think_distribution "
                               "(and think_time, think_mean, ... as for [service])");
    case TESTER_OPEN:
        if (get_interval(c, t) < 0)
            return -1;
        v = 0;
        if (get_choice(c, "arrivals", arrivals, &v) < 0)
            return -1;
        t->arrivals = (tester_arrivals)v;
        return check_unused(c, "an open tester takes kind, rate or interval, arrivals");
    case TESTER_PARTLY_OPEN:
        if (get_interval(c, t) < 0)
            return -1;
        if (!need(c, "p_continue", "0.8") || get_number(c, "p_continue", &t->p_continue, 0, 1) < 0)
            return -1;
        if (t->p_continue >= 1) {
            bad_value(c, get(c, "p_continue"), "must be below 1, or sessions never end");
            return -1;
        }
        if (get_think(c, t) < 0)
            return -1;
        return check_unused(c, "a partly_open tester takes kind, rate or interval (of session "
                               "arrivals), p_continue, think_distribution and its think_ keys");
    case TESTER_PACED:
    case TESTER_CORRECTED:
        if (get_interval(c, t) < 0)
            return -1;
        if (get_count(c, "users", &t->users, 1, 1000000) < 0 || get_connections(c, t) < 0)
            return -1;
        if (!need(c, "late", "next_slot"))
            return -1;
        v = 0;
        if (get_choice(c, "late", lates, &v) < 0)
            return -1;
        t->late = (tester_late)v;
        if (t->kind == TESTER_PACED) {
            v = 0;
            if (get_choice(c, "latency_from", froms, &v) < 0)
                return -1;
            t->latency_from_intended = v;
            /* MODEL.md: under next_slot every request goes out at its slot,
             * so "intended" is the actual send and the setting means nothing
             * (unless fewer connections than users hold sends back: then it
             * adds the time blocked, Hyperfoil's compensated figure) */
            int blocks = t->connections && t->connections < t->users;
            if (v && t->late == TESTER_LATE_NEXT_SLOT && !blocks) {
                bad_value(c, get(c, "latency_from"),
                          "with late = next_slot every request is sent at its intended slot, so "
                          "intended and actual are the same instant and the setting changes nothing; "
                          "use late = catch_up (wrk2) or from_now, or remove latency_from");
                return -1;
            }
            return check_unused(c, "a paced tester takes kind, rate or interval, users, connections, "
                                   "late, latency_from");
        }
        /* MODEL.md: corrected over catch_up counts a gap twice */
        if (t->late == TESTER_LATE_CATCH_UP) {
            bad_value(c, get(c, "late"),
                      "a corrected tester that catches up counts each stall twice: it sends the "
                      "overdue requests late and also adds corrected samples for the same slots; use "
                      "late = next_slot or from_now, or a paced tester with latency_from = intended");
            return -1;
        }
        v = 0;
        if (get_choice(c, "correction", corrections, &v) < 0)
            return -1;
        t->correction = (hist_correction)v;
        if (get_duration(c, "expected_interval", &t->expected_interval_ns, 0) < 0)
            return -1;
        return check_unused(c, "a corrected tester takes kind, rate or interval, users, connections, "
                               "late, correction, expected_interval");
    }
    return -1;
}

/* "VALUE", "VALUE exact", "VALUE +- TOL" or "VALUE ± TOL", TOL a count, a
 * duration or a percentage; VALUE a count or a duration. */
static int parse_expect_value(ctx *c, entry *e, expect_item *x, int is_duration)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", e->value);
    char *tol = strstr(buf, "+-");
    size_t skip = 2;
    if (!tol && (tol = strstr(buf, "\xc2\xb1")))
        skip = 2;
    char *exact = strstr(buf, "exact");
    if (tol) {
        *tol = '\0';
        tol = trim(tol + skip);
    } else if (exact) {
        if (*trim(exact + 5)) {
            bad_value(c, e, "nothing may follow 'exact'");
            return -1;
        }
        *exact = '\0';
    }
    const char *why;
    char *v = trim(buf);
    const char *example = is_duration ? "expected a duration and a tolerance, e.g. 1.87ms +- 3%"
                                      : "expected a count and a tolerance, e.g. 18000 +- 1%";
    if (is_duration ? units_parse_duration(v, &x->value, &why) != 0
                    : units_parse_count(v, INT64_MAX, (uint64_t *)&x->value, &why) != 0) {
        bad_value(c, e, example);
        return -1;
    }
    x->tol = EXPECT_EXACT;
    if (!tol)
        return 0;
    size_t n = strlen(tol);
    if (n > 1 && tol[n - 1] == '%') {
        tol[n - 1] = '\0';
        double pct;
        if (units_parse_number(tol, &pct, &why) || pct < 0 || pct > 1000) {
            bad_value(c, e, "a relative tolerance is a percentage such as 3%");
            return -1;
        }
        x->tol = EXPECT_RELATIVE;
        x->tol_rel = pct / 100;
        return 0;
    }
    if (is_duration ? units_parse_duration(tol, &x->tol_abs, &why) != 0
                    : units_parse_count(tol, INT64_MAX, (uint64_t *)&x->tol_abs, &why) != 0) {
        bad_value(c, e, is_duration ? "the tolerance is a duration (0.1ms) or a percentage (3%)"
                                    : "the tolerance is a count (50) or a percentage (1%)");
        return -1;
    }
    x->tol = EXPECT_ABSOLUTE;
    return 0;
}

static int do_expect(ctx *c, const char *name)
{
    static const char *const counts[] = {"planned", "sent", "recorded", "in_flight_at_end",
                                         "over_threshold", NULL};
    static const char *const durations[] = {"min", "mean", "max", NULL};
    scenario *s = c->s;
    size_t t;
    for (t = 0; t < s->n_testers; t++)
        if (strcmp(s->testers[t].name, name) == 0)
            break;
    if (t == s->n_testers) {
        section_fail(c, "no [tester %s] to check", name);
        return -1;
    }
    size_t first = s->n_expects;
    for (size_t i = 0; i < c->p->n_e; i++) {
        entry *e = &c->p->e[i];
        if (strcmp(e->section, c->sec->name) != 0)
            continue;
        e->used = 1;
        expect_item *x = &s->expects[s->n_expects];
        memset(x, 0, sizeof *x);
        x->tester = t;
        x->line = e->line;
        snprintf(x->key, sizeof x->key, "%s", e->key);
        int found = 0, is_duration = 0;
        for (int k = 0; counts[k]; k++)
            if (strcmp(e->key, counts[k]) == 0) {
                x->metric = (expect_metric)(EXPECT_PLANNED + k);
                found = 1;
            }
        for (int k = 0; durations[k]; k++)
            if (strcmp(e->key, durations[k]) == 0) {
                x->metric = (expect_metric)(EXPECT_MIN + k);
                found = is_duration = 1;
            }
        const char *why;
        if (!found && e->key[0] == 'p' &&
            units_parse_percentile(e->key + 1, &x->p_num, &x->p_den, &why) == 0) {
            x->metric = EXPECT_PERCENTILE;
            found = is_duration = 1;
        }
        if (!found) {
            char w[512];
            fail(c->p, "%s: [%s] unknown key '%s'; [expect NAME] takes planned, sent, recorded, "
                       "in_flight_at_end, over_threshold, min, mean, max and percentiles such as p99.9",
                 where(c, e, w, sizeof w), e->section, e->key);
            return -1;
        }
        if (parse_expect_value(c, e, x, is_duration) < 0)
            return -1;
        for (size_t k = first; k < s->n_expects; k++) {
            const expect_item *y = &s->expects[k];
            if (y->metric == x->metric &&
                (x->metric != EXPECT_PERCENTILE || (y->p_num == x->p_num && y->p_den == x->p_den))) {
                bad_value(c, e, "the same figure is expected twice in this section");
                return -1;
            }
        }
        s->n_expects++;
    }
    if (s->n_expects == first) {
        section_fail(c, "is empty; give the figures to check, e.g. p99 = 1.87ms +- 3%%");
        return -1;
    }
    return 0;
}

/* Stalls that together leave the server no gap, found before the run
 * (issue 11): periodic stalls whose windows close each other's gaps for
 * good (stall_periodic_union_endless), and random stalls whose merged
 * Poisson stream of windows breaks the rule each one keeps alone (mean
 * length at most half the mean gap; merged, the sum of mean length / every
 * at most 1/2). Reported at the section of the stall that closes the gap,
 * naming the others. */
static int check_stalls_leave_gaps(ctx *c)
{
    scenario *s = c->s;
    char others[256], sec[64], a[32];
    size_t last;
    int64_t from;
    if (stall_periodic_union_endless(s->stalls, s->n_stalls, &last, &from)) {
        size_t n = 0;
        others[0] = '\0';
        for (size_t i = 0; i < last; i++)
            if (s->stalls[i].kind == STALL_PERIODIC && n < sizeof others)
                n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]", n ? ", " : "",
                                      s->stalls[i].name);
        snprintf(sec, sizeof sec, "stall %s", s->stalls[last].name);
        c->sec = find_section(c->p, sec);
        section_fail(c, "together with %s this stall stops the server for good: from %s on their "
                        "windows leave no gap, so no request would ever finish; shorten or space them",
                     others, units_format_duration_exact(from, a, sizeof a));
        return -1;
    }
    uint64_t used;
    if (stall_windows_cover(s->stalls, s->n_stalls, 0, s->duration_ns, &used)) {
        size_t n = 0, first = 64;
        others[0] = '\0';
        for (size_t i = 0; i < s->n_stalls && i < 64; i++) {
            if (!(used >> i & 1))
                continue;
            if (first == 64)
                first = i;
            else if (n < sizeof others)
                n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]",
                                      n ? ", " : " (with ", s->stalls[i].name);
        }
        if (n && n < sizeof others - 1)
            strcat(others, ")");
        snprintf(sec, sizeof sec, "stall %s", s->stalls[first].name);
        c->sec = find_section(c->p, sec);
        section_fail(c, "this stall%s stops the server for the whole run: %s windows cover 0 to the "
                        "duration %s with no gap, so no request could be served before the end; "
                        "shorten %s or lengthen the run",
                     others, n ? "their" : "its", units_format_duration_exact(s->duration_ns, a, sizeof a),
                     n ? "them" : "it");
        return -1;
    }
    double load = 0;
    size_t n = 0;
    others[0] = '\0';
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (st->kind != STALL_RANDOM)
            continue;
        load += dist_mean_ns(&st->length_dist) / (double)st->mean_gap_ns;
        if (load > 0.5 && n > 0) { /* alone, each was checked by do_stall */
            snprintf(sec, sizeof sec, "stall %s", st->name);
            c->sec = find_section(c->p, sec);
            section_fail(c, "together with %s these random stalls would overlap into one endless "
                            "stall: merged, their windows last %.2f of the mean gap between starts (the "
                            "sum of mean length / every); keep that sum at most 1/2",
                         others, load);
            return -1;
        }
        if (n < sizeof others)
            n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]", n ? ", " : "", st->name);
    }
    return 0;
}

/* [truth] interval = 100us (the mean gap of Poisson probes), load = TESTER
 * | none (default: the first open tester, else none). */
static int do_truth(ctx *c)
{
    scenario *s = c->s;
    if (!need(c, "interval", "100us") || get_duration(c, "interval", &s->truth_interval_ns, 0) < 0)
        return -1;
    if ((double)s->duration_ns / (double)s->truth_interval_ns > (double)s->max_requests) {
        bad_value(c, get(c, "interval"), "too many probes for the duration (more than max_requests)");
        return -1;
    }
    s->truth_load = -1;
    for (size_t i = 0; i < s->n_testers; i++)
        if (s->testers[i].kind == TESTER_OPEN) {
            s->truth_load = (int)i;
            break;
        }
    entry *e = get(c, "load");
    if (e) {
        s->truth_load = -1;
        if (strcmp(e->value, "none") != 0) {
            size_t i;
            for (i = 0; i < s->n_testers; i++)
                if (strcmp(s->testers[i].name, e->value) == 0)
                    break;
            if (i == s->n_testers) {
                bad_value(c, e, "expected the name of a tester, or none");
                return -1;
            }
            s->truth_load = (int)i;
        }
    }
    return check_unused(c, "[truth] takes interval, load");
}

/* The type word of a section name and its NAME part. */
static int section_type(const char *name, const char **arg)
{
    static const char *const types[] = {"scenario", "service", "stall", "tester", "expect", "truth"};
    for (int i = 0; i < 6; i++) {
        size_t n = strlen(types[i]);
        if (strncmp(name, types[i], n) == 0 && (name[n] == '\0' || name[n] == ' ')) {
            const char *a = name + n;
            while (*a == ' ')
                a++;
            *arg = a;
            return i;
        }
    }
    return -1;
}

static int interpret(parser *p, scenario *s)
{
    ctx c = {p, s, NULL};
    size_t n_stalls = 0, n_testers = 0;
    const section_rec *scen = NULL, *serv = NULL;
    for (size_t i = 0; i < p->n_sec; i++) {
        const char *arg;
        c.sec = &p->sec[i];
        int type = section_type(p->sec[i].name, &arg);
        if (type < 0) {
            section_fail(&c, "unknown section; expected [scenario], [service], [stall NAME], "
                             "[tester NAME], [expect NAME] or [truth]");
            return -1;
        }
        if ((type == 0 || type == 1 || type == 5) && *arg) {
            section_fail(&c, "takes no name: write [%s]",
                         type == 0 ? "scenario" : type == 1 ? "service" : "truth");
            return -1;
        }
        if (type >= 2 && type <= 4 && !valid_name(arg)) {
            section_fail(&c, "needs a NAME of 1 to 40 letters, digits, '_' or '-', e.g. [%s open]",
                         type == 2 ? "stall" : type == 3 ? "tester" : "expect");
            return -1;
        }
        if (type == 0)
            scen = c.sec;
        if (type == 1)
            serv = c.sec;
        n_stalls += type == 2;
        n_testers += type == 3;
        if (type == 3 && n_testers > SCENARIO_MAX_TESTERS) {
            section_fail(&c, "one tester too many: a scenario has at most %d", SCENARIO_MAX_TESTERS);
            return -1;
        }
        if (type == 2 && n_stalls > SCENARIO_MAX_STALLS) {
            section_fail(&c, "one stall too many: a scenario has at most %d", SCENARIO_MAX_STALLS);
            return -1;
        }
    }
    size_t n_expect_lines = 0;
    for (size_t i = 0; i < p->n_e; i++) {
        const char *arg;
        n_expect_lines += section_type(p->e[i].section, &arg) == 4;
    }
    s->stalls = calloc(n_stalls ? n_stalls : 1, sizeof *s->stalls);
    s->testers = calloc(n_testers ? n_testers : 1, sizeof *s->testers);
    s->expects = calloc(n_expect_lines ? n_expect_lines : 1, sizeof *s->expects);
    if (!s->stalls || !s->testers || !s->expects) {
        p->oom = 1;
        return -1;
    }
    /* sections in file order, then what is missing */
    for (size_t i = 0; i < p->n_sec; i++) {
        const char *arg;
        c.sec = &p->sec[i];
        int type = section_type(p->sec[i].name, &arg);
        if (type == 0 && do_scenario(&c) < 0)
            return -1;
        if (type == 1 && do_service(&c) < 0)
            return -1;
        if (type == 2 && do_stall(&c, arg) < 0)
            return -1;
        if (type == 3) {
            for (size_t j = 0; j < s->n_testers; j++)
                if (strcasecmp(s->testers[j].name, arg) == 0) {
                    section_fail(&c, "a tester named '%s' exists already (names differ by more than "
                                     "case: they name files)", s->testers[j].name);
                    return -1;
                }
            if (do_tester(&c, arg) < 0)
                return -1;
        }
    }
    if (!scen) {
        fail(p, "%s: no [scenario] section; a scenario needs at least [scenario] with duration, "
                "[service] and one [tester NAME]",
             p->path);
        return -1;
    }
    if (!serv) {
        fail(p, "%s: no [service] section (e.g. [service] distribution = constant, time = 7ms)",
             p->path);
        return -1;
    }
    if (!n_testers) {
        fail(p, "%s: no [tester NAME] section; add one, e.g. [tester open] kind = open, rate = 1000/s",
             p->path);
        return -1;
    }
    if (check_stalls_leave_gaps(&c) < 0)
        return -1;
    /* refuse, before running, a tester that would exceed max_requests */
    for (size_t i = 0; i < s->n_testers; i++) {
        const tester_spec *t = &s->testers[i];
        double expected;
        if (t->kind == TESTER_CLOSED) {
            double cycle = dist_mean_ns(&s->service) + (t->has_think ? dist_mean_ns(&t->think) : 0);
            if (!(cycle > 0)) {
                char name[64];
                snprintf(name, sizeof name, "tester %s", t->name);
                c.sec = find_section(p, name);
                section_fail(&c, "a closed tester against a zero service time, with no think time, "
                                 "would send without end; give [service] a time above zero or add "
                                 "think_distribution");
                return -1;
            }
            expected = (double)t->users * (double)s->duration_ns / cycle;
        } else if ((t->kind == TESTER_OPEN && t->arrivals == TESTER_ARRIVALS_POISSON) ||
                   t->kind == TESTER_PARTLY_OPEN) {
            /* Poisson arrivals; a partly-open session makes 1 / (1 - p)
             * requests on average */
            expected = (double)s->duration_ns * (double)t->interval.den / (double)t->interval.num_ns;
            if (t->kind == TESTER_PARTLY_OPEN)
                expected /= 1 - t->p_continue;
        } else {
            expected = (double)units_interval_count_before(t->interval, 0, s->duration_ns);
        }
        if (expected > (double)s->max_requests) {
            char name[64];
            snprintf(name, sizeof name, "tester %s", t->name);
            c.sec = find_section(p, name);
            section_fail(&c, "would send about %.3g requests in %.3g s, more than max_requests = %llu; "
                             "shorten [scenario] duration, lower the rate, or raise max_requests",
                         expected, (double)s->duration_ns / 1e9, (unsigned long long)s->max_requests);
            return -1;
        }
    }
    /* truth and expectations last: they name testers */
    for (size_t i = 0; i < p->n_sec; i++) {
        const char *arg;
        c.sec = &p->sec[i];
        int type = section_type(p->sec[i].name, &arg);
        if (type == 5 && do_truth(&c) < 0)
            return -1;
        if (type == 4 && do_expect(&c, arg) < 0)
            return -1;
    }
    /* a key in a section that has no header (possible only via --set) */
    for (size_t i = 0; i < p->n_e; i++)
        if (!p->e[i].used) {
            char w[512];
            c.sec = find_section(p, p->e[i].section);
            fail(p, "%s: [%s] unknown key '%s'", where(&c, &p->e[i], w, sizeof w), p->e[i].section,
                 p->e[i].key);
            return -1;
        }
    return 0;
}

static void parser_free(parser *p)
{
    for (size_t i = 0; i < p->n_e; i++) {
        free(p->e[i].section);
        free(p->e[i].key);
        free(p->e[i].value);
    }
    free(p->e);
    for (size_t i = 0; i < p->n_sec; i++)
        free(p->sec[i].name);
    free(p->sec);
}

void scenario_free(scenario *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_stalls; i++) {
        free(s->stalls[i].windows);
        free(s->stalls[i].ranges);
    }
    free(s->stalls);
    free(s->testers);
    free(s->expects);
    free(s->service_values);
    free(s);
}

static void default_name(scenario *s, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(s->name, sizeof s->name, "%s", base);
    char *dot = strrchr(s->name, '.');
    if (dot && dot != s->name)
        *dot = '\0';
    for (char *q = s->name; *q; q++)
        if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-')
            *q = '_';
    if (!s->name[0])
        snprintf(s->name, sizeof s->name, "scenario");
}

scenario_error scenario_load(scenario **out, const char *path, const char *const *sets,
                             size_t n_sets, char *err, size_t errlen)
{
    *out = NULL;
    err[0] = '\0';
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read the scenario: %s", path, strerror(errno));
        return SCENARIO_EFILE;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory; give a scenario file such as scenarios/stall_per_second.ini", path);
        return SCENARIO_EFILE;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read the scenario: %s", path, strerror(errno));
        return SCENARIO_EFILE;
    }
    scenario_error rc = scenario_load_stream(out, f, path, sets, n_sets, err, errlen);
    fclose(f);
    return rc;
}

scenario_error scenario_load_stream(scenario **out, FILE *f, const char *path, const char *const *sets,
                                    size_t n_sets, char *err, size_t errlen)
{
    *out = NULL;
    err[0] = '\0';
    parser p;
    memset(&p, 0, sizeof p);
    p.path = path;
    p.err = err;
    p.errlen = errlen;
    p.f = f;
    int line = ini_parse_stream(reader, &p, handler, &p);
    int read_error = ferror(p.f);

    scenario *s = calloc(1, sizeof *s);
    scenario_error rc = SCENARIO_OK;
    if (!s)
        p.oom = 1;
    if (!p.failed && !p.oom && read_error)
        fail(&p, "%s: read error", path);
    if (!p.failed && !p.oom && line > 0)
        fail(&p, "%s:%d: not a 'key = value' line nor a [section] header", path, line);
    if (!p.failed && !p.oom && p.n_sec == 0 && p.n_e == 0)
        fail(&p, "%s: empty scenario; it needs [scenario] with duration, [service] and one [tester NAME] "
                 "(see scenarios/one_stall.ini)", path);
    for (size_t i = 0; i < n_sets && !p.failed && !p.oom; i++)
        if (apply_set(&p, sets[i]) < 0 && !p.oom) {
            rc = SCENARIO_EUSAGE;
        }
    if (s && !p.failed && !p.oom) {
        snprintf(s->path, sizeof s->path, "%s", path);
        default_name(s, path);
        s->seed = 1;
        s->rank_rule = HIST_NEAREST_RANK;
        s->threshold_ns = SCENARIO_DEFAULT_THRESHOLD_NS;
        s->sub_bits = 8;
        snprintf(s->generator, sizeof s->generator, "%s", RNG_DEFAULT_GENERATOR);
        s->max_requests = SCENARIO_DEFAULT_MAX_REQUESTS;
        interpret(&p, s);
        if (!s->title[0])
            snprintf(s->title, sizeof s->title, "%s", s->name);
    }
    if (p.oom) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = SCENARIO_ENOMEM;
    } else if (p.failed && rc == SCENARIO_OK) {
        rc = SCENARIO_EINVALID;
    }
    parser_free(&p);
    if (rc != SCENARIO_OK) {
        scenario_free(s);
        return rc;
    }
    *out = s;
    return SCENARIO_OK;
}

char *scenario_describe_stalls(const scenario *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (s->n_stalls == 0) {
        snprintf(buf, len, "no stalls");
        return buf;
    }
    for (size_t i = 0; i < s->n_stalls; i++) {
        char d[160];
        stall_describe(&s->stalls[i], d, sizeof d);
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? "; " : "", d);
    }
    return buf;
}
