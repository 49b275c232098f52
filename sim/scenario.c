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
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- phase 1: the raw entries, each with its line ---------------------- */

/* The section types, in the order section_type knows them. */
enum { SEC_SCENARIO = 0, SEC_SERVICE, SEC_STALL, SEC_TESTER, SEC_EXPECT, SEC_TRUTH, N_SEC_TYPES };
static const char *const sec_types[N_SEC_TYPES] = {"scenario", "service", "stall", "tester", "expect", "truth"};

#define NONE ((size_t)-1)

typedef struct entry {
    size_t sec;       /* its section (index into parser.sec) */
    char *key, *value;
    int line;         /* 0 when it came from --set */
    const char *set;  /* the --set argument, or NULL */
    int used;
    int removed;      /* "--set KEY=" removed it */
    size_t next;      /* the next entry of its section, or NONE */
    uint64_t hash;
} entry;

typedef struct section_rec {
    char *name;       /* canonical: blanks trimmed, inner runs of blanks one space */
    int line;         /* 0 when created by --set */
    const char *set;
    int type;         /* SEC_* */
    const char *arg;  /* the NAME part of name ("" if none) */
    size_t first, last; /* its entries in order, linked by entry.next */
    uint64_t hash;
} section_rec;

/* An open-addressing hash table of indices (slot: index + 1, 0 empty), so
 * that finding a section or a key costs O(1): reading stays linear in the
 * size of the file however many sections and keys it has. */
typedef struct index_table {
    size_t *slot;
    size_t cap; /* a power of two, or 0 */
    size_t n;
} index_table;

typedef struct parser {
    const char *path;
    FILE *f;
    int line;            /* line the reader last returned */
    int line_kind;       /* LINE_* of that line, as inih will read it */
    int after_key;       /* inih's prev_name is set: an indented line continues it */
    uint64_t bytes;      /* read so far */
    entry *e;
    size_t n_e, cap_e;
    section_rec *sec;
    size_t n_sec, cap_sec;
    size_t n_type[N_SEC_TYPES];
    index_table sec_index, entry_index;
    char *err;
    size_t errlen;
    int failed;          /* an error message is set */
    int oom;
} parser;

enum { LINE_OTHER = 0, LINE_SECTION, LINE_KEY, LINE_CONTINUATION };

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

/* The canonical form of a section name, in place: blanks at either end
 * dropped, every inner run of blanks one space ("tester  c" is "tester c"),
 * so that the header, its keys and --set all name one record. */
static char *canonical_section(char *s)
{
    s = trim(s);
    char *o = s;
    for (const char *q = s; *q; q++) {
        if (*q == ' ' || *q == '\t') {
            if (o > s && o[-1] == ' ')
                continue;
            *o++ = ' ';
        } else {
            *o++ = *q;
        }
    }
    *o = '\0';
    return s;
}

/* FNV-1a, 64 bits (Fowler, Noll, Vo). */
static uint64_t fnv1a(const char *s, uint64_t h)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}
#define FNV_OFFSET 0xcbf29ce484222325ull

static uint64_t entry_hash(size_t sec, const char *key)
{
    return fnv1a(key, FNV_OFFSET ^ ((uint64_t)sec * 0x9e3779b97f4a7c15ull));
}

/* Insert index i (with hash h) into t; hash_of gives the hash of a stored
 * index when the table grows. 0 or -ENOMEM. */
static int table_insert(parser *p, index_table *t, size_t i, uint64_t h, uint64_t (*hash_of)(parser *, size_t))
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        size_t *slot = calloc(cap, sizeof *slot);
        if (!slot) {
            p->oom = 1;
            return -ENOMEM;
        }
        for (size_t k = 0; k < t->cap; k++) {
            if (!t->slot[k])
                continue;
            size_t j = (size_t)hash_of(p, t->slot[k] - 1) & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = t->slot[k];
        }
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    size_t j = (size_t)h & (t->cap - 1);
    while (t->slot[j])
        j = (j + 1) & (t->cap - 1);
    t->slot[j] = i + 1;
    t->n++;
    return 0;
}

static uint64_t sec_hash_of(parser *p, size_t i) { return p->sec[i].hash; }
static uint64_t entry_hash_of(parser *p, size_t i) { return p->e[i].hash; }

static section_rec *find_section(parser *p, const char *name)
{
    index_table *t = &p->sec_index;
    if (!t->cap)
        return NULL;
    uint64_t h = fnv1a(name, FNV_OFFSET);
    for (size_t j = (size_t)h & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
        section_rec *r = &p->sec[t->slot[j] - 1];
        if (r->hash == h && strcmp(r->name, name) == 0)
            return r;
    }
    return NULL;
}

/* The entry KEY of section sec, removed ones included (NULL if none). */
static entry *find_entry_any(parser *p, size_t sec, const char *key)
{
    index_table *t = &p->entry_index;
    if (!t->cap)
        return NULL;
    uint64_t h = entry_hash(sec, key);
    for (size_t j = (size_t)h & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
        entry *e = &p->e[t->slot[j] - 1];
        if (e->hash == h && e->sec == sec && strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

/* The entry KEY of section rec, if present (not removed by --set KEY=). */
static entry *find_entry(parser *p, const section_rec *rec, const char *key)
{
    entry *e = find_entry_any(p, (size_t)(rec - p->sec), key);
    return e && !e->removed ? e : NULL;
}

/* "FILE:LINE" or "--set ARG" (a long argument cut, with "...", at 200
 * characters: it is only named). */
static const char *origin(const parser *p, int line, const char *set, char *buf, size_t len)
{
    if (set && strlen(set) > 200)
        snprintf(buf, len, "--set %.197s...", set);
    else if (set)
        snprintf(buf, len, "--set %s", set);
    else
        snprintf(buf, len, "%s:%d", p->path, line);
    return buf;
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

/* The type of a section name (SEC_*) and its NAME part; -1 if unknown. */
static int section_type(const char *name, const char **arg)
{
    for (int i = 0; i < N_SEC_TYPES; i++) {
        size_t n = strlen(sec_types[i]);
        if (strncmp(name, sec_types[i], n) == 0 && (name[n] == '\0' || name[n] == ' ')) {
            const char *a = name + n;
            while (*a == ' ')
                a++;
            *arg = a;
            return i;
        }
    }
    return -1;
}

/* A new section (name canonical), from a header at line or from --set set:
 * checked at once (known type, its NAME, the limits), so that reading stops
 * at the first wrong header. NULL on error (message set). */
static section_rec *add_section(parser *p, const char *name, int line, const char *set)
{
    char w[SCENARIO_PATH_MAX + 64];
    const char *arg;
    int type = section_type(name, &arg);
    origin(p, line, set, w, sizeof w);
    if (strlen(name) > SCENARIO_SECTION_MAX && (type < 0 || type == SEC_SCENARIO || type == SEC_SERVICE ||
                                               type == SEC_TRUTH)) {
        fail(p, "%s: [%.40s...] unknown section; expected [scenario], [service], [stall NAME], "
                "[tester NAME], [expect NAME] or [truth]", w, name);
        return NULL;
    }
    if (type < 0) {
        fail(p, "%s: [%s] unknown section; expected [scenario], [service], [stall NAME], "
                "[tester NAME], [expect NAME] or [truth]", w, name);
        return NULL;
    }
    if ((type == SEC_SCENARIO || type == SEC_SERVICE || type == SEC_TRUTH) && *arg) {
        fail(p, "%s: [%s] takes no name: write [%s]", w, name, sec_types[type]);
        return NULL;
    }
    if ((type == SEC_STALL || type == SEC_TESTER || type == SEC_EXPECT) && !valid_name(arg)) {
        if (strlen(name) > 200)
            fail(p, "%s: [%.60s...] needs a NAME of 1 to %d letters, digits, '_' or '-', e.g. [%s open]", w,
                 name, SCENARIO_NAME_MAX, sec_types[type]);
        else
            fail(p, "%s: [%s] needs a NAME of 1 to %d letters, digits, '_' or '-', e.g. [%s open]", w, name,
                 SCENARIO_NAME_MAX, sec_types[type]);
        return NULL;
    }
    static const size_t most[N_SEC_TYPES] = {1, 1, SCENARIO_MAX_STALLS, SCENARIO_MAX_TESTERS,
                                             SCENARIO_MAX_EXPECTS, 1};
    if (p->n_type[type] >= most[type] && most[type] > 1) {
        fail(p, "%s: [%s] one %s too many: a scenario has at most %zu", w, name,
             type == SEC_EXPECT ? "[expect NAME] section" : sec_types[type], most[type]);
        return NULL;
    }
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
    memset(r, 0, sizeof *r);
    r->name = xstrdup(p, name);
    if (!r->name)
        return NULL;
    r->line = line;
    r->set = set;
    r->type = type;
    section_type(r->name, &r->arg);
    r->first = r->last = NONE;
    r->hash = fnv1a(r->name, FNV_OFFSET);
    if (table_insert(p, &p->sec_index, p->n_sec, r->hash, sec_hash_of)) {
        free(r->name);
        return NULL;
    }
    p->n_type[type]++;
    p->n_sec++;
    return r;
}

static entry *add_entry(parser *p, section_rec *rec, const char *key, const char *value, int line,
                        const char *set)
{
    if (p->n_e >= SCENARIO_MAX_KEYS) {
        char w[SCENARIO_PATH_MAX + 64];
        fail(p, "%s: [%s] %s: one key too many: a scenario has at most %d keys", origin(p, line, set, w, sizeof w),
             rec->name, key, SCENARIO_MAX_KEYS);
        return NULL;
    }
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
    size_t sec = (size_t)(rec - p->sec);
    entry *e = &p->e[p->n_e];
    memset(e, 0, sizeof *e);
    e->sec = sec;
    e->key = xstrdup(p, key);
    e->value = xstrdup(p, value);
    e->line = line;
    e->set = set;
    e->next = NONE;
    e->hash = entry_hash(sec, key);
    if (!e->key || !e->value || table_insert(p, &p->entry_index, p->n_e, e->hash, entry_hash_of)) {
        free(e->key);
        free(e->value);
        return NULL;
    }
    if (rec->last == NONE)
        rec->first = p->n_e;
    else
        p->e[rec->last].next = p->n_e;
    rec->last = p->n_e;
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

/* inih's search for one of chars or an inline comment (a ';' after a
 * blank), as inih does it, so that the reader classifies each line exactly
 * as inih will. */
static const char *ini_find(const char *s, const char *chars)
{
    int was_space = 0;
    while (*s && (!chars || !strchr(chars, *s)) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

/* Classify one line as inih will read it, and check what inih would cut or
 * misread: section headers are recorded here (duplicates, types, names and
 * limits checked at once), over-long keys refused. 0, or -1 (message set). */
static int classify_line(parser *p, const char *line)
{
    const char *s = line;
    while (isspace((unsigned char)*s))
        s++;
    const char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    int indented = s > line;
    p->line_kind = LINE_OTHER;
    if (s == end || *s == ';' || *s == '#')
        return 0; /* blank or comment: inih keeps the key a continuation would extend */
    if (p->after_key && indented) {
        p->line_kind = LINE_CONTINUATION;
        return 0;
    }
    if (*s == '[') {
        const char *close = ini_find(s + 1, "]");
        if (*close != ']') {
            if (*close == ';' && strchr(close, ']'))
                fail(p, "%s:%d: a ';' after a blank starts a comment, so this section header has no closing "
                        "']'; names have no ';'", p->path, p->line);
            else
                fail(p, "%s:%d: a section header needs its closing ']', e.g. [tester open]", p->path, p->line);
            return -1;
        }
        size_t len = (size_t)(close - s - 1);
        char *name = malloc(len + 1);
        if (!name) {
            p->oom = 1;
            return -1;
        }
        memcpy(name, s + 1, len);
        name[len] = '\0';
        char *t = canonical_section(name);
        section_rec *r = find_section(p, t);
        if (r) {
            fail(p, "%s:%d: section [%s] appears twice (first on line %d); merge them", p->path, p->line, t,
                 r->line);
            free(name);
            return -1;
        }
        r = add_section(p, t, p->line, NULL);
        free(name);
        if (!r)
            return -1;
        p->line_kind = LINE_SECTION;
        p->after_key = 0;
        return 0;
    }
    const char *sep = ini_find(s, "=:");
    if (*sep != '=' && *sep != ':') {
        fail(p, "%s:%d: not a 'key = value' line nor a [section] header", p->path, p->line);
        return -1;
    }
    const char *kend = sep;
    while (kend > s && isspace((unsigned char)kend[-1]))
        kend--;
    if ((size_t)(kend - s) > SCENARIO_KEY_MAX) {
        fail(p, "%s:%d: key '%.20s...' is longer than %d characters; no key is", p->path, p->line, s,
             SCENARIO_KEY_MAX);
        return -1;
    }
    p->line_kind = LINE_KEY;
    p->after_key = 1;
    return 0;
}

/* inih reader: one line per call, so p->line is the line of every handler
 * call (inih's own count agrees). Refuses binary input, overlong lines and
 * files rather than letting inih split or cut them. */
static char *reader(char *str, int num, void *stream)
{
    parser *p = stream;
    int n = 0, c = EOF;
    if (p->failed || p->oom)
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
    p->bytes += (uint64_t)n;
    if (p->bytes > SCENARIO_FILE_MAX) {
        fail(p, "%s:%d: the file is longer than %d bytes; a scenario is a short text file", p->path, p->line,
             SCENARIO_FILE_MAX);
        return NULL;
    }
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
    if (classify_line(p, str))
        return NULL;
    return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    parser *p = user;
    if (p->failed || p->oom)
        return 0;
    char *secbuf = xstrdup(p, section);
    if (!secbuf)
        return 0;
    section_rec *rec = find_section(p, canonical_section(secbuf));
    int rc = 0;
    if (!*section || !rec) {
        fail(p, "%s:%d: key '%s' outside any section; put it under [scenario], [service], "
                "[stall NAME] or [tester NAME]",
             p->path, p->line, name);
        goto out;
    }
    entry *e = find_entry(p, rec, name);
    if (p->line_kind == LINE_CONTINUATION && e) {
        /* an indented continuation line of a multi-line value */
        if (strchr(value, '=')) {
            fail(p, "%s:%d: this indented line continues the value of '%s' above; if it is a key "
                    "of its own, remove the indentation",
                 p->path, p->line, name);
            goto out;
        }
        size_t len = strlen(e->value) + strlen(value) + 2;
        if (len - 1 > SCENARIO_VALUE_MAX) {
            fail(p, "%s:%d: [%s] %s: the value is longer than %d bytes", p->path, p->line, rec->name, name,
                 SCENARIO_VALUE_MAX);
            goto out;
        }
        char *v = malloc(len);
        if (!v) {
            p->oom = 1;
            goto out;
        }
        snprintf(v, len, "%s %s", e->value, value);
        free(e->value);
        e->value = v;
        rc = 1;
        goto out;
    }
    if (e) {
        fail(p, "%s:%d: [%s] %s: key given twice (first on line %d)", p->path, p->line, rec->name, name,
             e->line);
        goto out;
    }
    rc = add_entry(p, rec, name, value, p->line, NULL) ? 1 : 0;
out:
    free(secbuf);
    return rc;
}

/* ---- phase 2: --set overrides ------------------------------------------ */

static int apply_set(parser *p, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char w[SCENARIO_PATH_MAX + 64];
    if (!eq) {
        fail(p, "%s: expected SECTION.KEY=VALUE (e.g. --set scenario.rank_rule=nearest_rank)",
             origin(p, 0, arg, w, sizeof w));
        return -1;
    }
    size_t plen = (size_t)(eq - arg);
    if (plen > SCENARIO_SECTION_MAX + 1 + SCENARIO_KEY_MAX) {
        fail(p, "--set %.40s...: SECTION.KEY is longer than %d characters; no section and key are",
             arg, SCENARIO_SECTION_MAX + 1 + SCENARIO_KEY_MAX);
        return -1;
    }
    char path[SCENARIO_SECTION_MAX + SCENARIO_KEY_MAX + 2];
    memcpy(path, arg, plen);
    path[plen] = '\0';
    char *dot = strrchr(path, '.');
    if (!dot || dot == path || !dot[1]) {
        fail(p, "%s: expected SECTION.KEY=VALUE (e.g. --set scenario.rank_rule=nearest_rank)",
             origin(p, 0, arg, w, sizeof w));
        return -1;
    }
    *dot = '\0';
    char *key = trim(dot + 1);
    /* "tester.open" stands for "tester open" */
    char *d = strchr(path, '.');
    if (d)
        *d = ' ';
    char *section = canonical_section(path);
    if (strlen(key) > SCENARIO_KEY_MAX) {
        fail(p, "--set %s: the key is longer than %d characters", section, SCENARIO_KEY_MAX);
        return -1;
    }
    const char *v0 = eq + 1;
    while (*v0 == ' ' || *v0 == '\t')
        v0++;
    if (strlen(v0) > SCENARIO_VALUE_MAX + 64) { /* blanks at the end do not count, a few of them */
        fail(p, "--set %s.%s: the value is longer than %d bytes", section, key, SCENARIO_VALUE_MAX);
        return -1;
    }
    char *valbuf = xstrdup(p, v0);
    if (!valbuf)
        return -1;
    char *value = trim(valbuf);
    int rc = -1;
    size_t bad_at;
    if (strlen(value) > SCENARIO_VALUE_MAX) {
        fail(p, "--set %s.%s: the value is longer than %d bytes", section, key, SCENARIO_VALUE_MAX);
        goto out;
    }
    for (const char *q = value; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f) {
            fail(p, "--set %s.%s: the value holds a control character (a newline?)", section, key);
            goto out;
        }
    if (!utf8_valid(value, &bad_at)) {
        fail(p, "--set %s.%s: the value is not valid UTF-8", section, key);
        goto out;
    }
    section_rec *rec = find_section(p, section);
    entry *e = rec ? find_entry_any(p, (size_t)(rec - p->sec), key) : NULL;
    if (e && e->set) {
        char w2[SCENARIO_PATH_MAX + 64];
        fail(p, "%s: [%s] %s is already set by %s (or --seed, --rank-rule); give it once",
             origin(p, 0, arg, w, sizeof w), section, key, origin(p, 0, e->set, w2, sizeof w2));
        goto out;
    }
    if (e) { /* a key of the file: replaced, or removed by "--set service.time=" */
        if (*value) {
            char *v = xstrdup(p, value);
            if (!v)
                goto out;
            free(e->value);
            e->value = v;
        }
        e->removed = !*value;
        e->line = 0;
        e->set = arg;
        rc = 0;
        goto out;
    }
    if (!*value) {
        fail(p, "%s: there is no [%s] %s to remove", origin(p, 0, arg, w, sizeof w), section, key);
        goto out;
    }
    if (!rec && !(rec = add_section(p, section, 0, arg)))
        goto out;
    rc = add_entry(p, rec, key, value, 0, arg) ? 0 : -1;
out:
    free(valbuf);
    return rc;
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
    return origin(c->p, e->line, e->set, buf, len);
}

/* The section name of an entry. */
static const char *sec_of(const ctx *c, const entry *e)
{
    return c->p->sec[e->sec].name;
}

static void bad_value(ctx *c, const entry *e, const char *why)
{
    char w[SCENARIO_PATH_MAX + 64], v[80];
    if (strlen(e->value) > 60)
        snprintf(v, sizeof v, "%.57s...", e->value);
    else
        snprintf(v, sizeof v, "%s", e->value);
    const char *hint = "";
    if (strstr(e->value, " #"))
        hint = " (comments after a value start with ';', not '#')";
    fail(c->p, "%s: [%s] %s = %s: %s%s", where(c, e, w, sizeof w), sec_of(c, e), e->key, v, why, hint);
}

static void section_fail(ctx *c, const char *fmt, ...)
{
    char msg[512], w[SCENARIO_PATH_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail(c->p, "%s: [%s] %s", origin(c->p, c->sec->line, c->sec->set, w, sizeof w), c->sec->name, msg);
}

static entry *get(ctx *c, const char *key)
{
    entry *e = find_entry(c->p, c->sec, key);
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
    for (size_t i = c->sec->first; i != NONE; i = c->p->e[i].next) {
        entry *e = &c->p->e[i];
        if (e->used || e->removed || edit_distance(e->key, key) > 2)
            continue;
        char w[SCENARIO_PATH_MAX + 64];
        fail(c->p, "%s: [%s] unknown key '%s'; did you mean '%s'?", where(c, e, w, sizeof w), sec_of(c, e),
             e->key, key);
        return 1;
    }
    return 0;
}

static int need(ctx *c, const char *key, const char *example)
{
    if (find_entry(c->p, c->sec, key))
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

/* Report keys of the current section that nothing asked for. */
static int check_unused(ctx *c, const char *allowed)
{
    for (size_t i = c->sec->first; i != NONE; i = c->p->e[i].next) {
        entry *e = &c->p->e[i];
        if (e->used || e->removed)
            continue;
        char w[SCENARIO_PATH_MAX + 64];
        fail(c->p, "%s: [%s] unknown key '%s'; %s", where(c, e, w, sizeof w), sec_of(c, e), e->key,
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
        if (strlen(e->value) > SCENARIO_TITLE_MAX) {
            bad_value(c, e, "a title is at most 100 bytes, so that it fits the chart");
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
        char why[160];
        if (scenario_parse_window(e->value, s->duration_ns, &s->chart_window_from, &s->chart_window_to, why,
                                  sizeof why)) {
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
static int scenario_relative(const ctx *c, const char *name, char *out, size_t len);
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
            char msg[200];
            snprintf(msg, sizeof msg, "expected request indices such as 90 or 90..95, separated by commas "
                                      "(%s%s)", why, strcmp(why, "number too large") ? "" : ": at most 2^63 - 1");
            bad_value(c, e, msg);
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

/* The path of a file a scenario names, relative to the scenario's folder.
 * -1 if it would be longer than SCENARIO_PATH_MAX (never cut). */
static int scenario_relative(const ctx *c, const char *name, char *out, size_t len)
{
    const char *slash = strrchr(c->p->path, '/');
    int n;
    if (name[0] == '/' || !slash)
        n = snprintf(out, len, "%s", name);
    else
        n = snprintf(out, len, "%.*s/%s", (int)(slash - c->p->path), c->p->path, name);
    return n < 0 || (size_t)n >= len || (size_t)n > SCENARIO_PATH_MAX ? -1 : 0;
}

/* Read a data file line by line: blank lines and lines starting with '#'
 * are skipped; each other line (blanks trimmed) goes to fn, which returns 0
 * or sets the message (with path:line) and returns -1. */
static int read_data_file(ctx *c, entry *e, const char *path,
                          int (*fn)(ctx *c, const char *path, int line, char *text, void *arg), void *arg)
{
    if (!*e->value) {
        bad_value(c, e, "give the name of a file");
        return -1;
    }
    const char *what;
    int errnum;
    FILE *f = scenario_open_regular(path, &what, &errnum);
    if (!f) {
        char msg[SCENARIO_PATH_MAX + 128];
        if (what)
            snprintf(msg, sizeof msg, "%s %s%s", path, what,
                     strcmp(what, "is a directory") == 0 ? ", not a file" : "");
        else
            snprintf(msg, sizeof msg, "cannot read %s: %s", path, strerror(errnum));
        bad_value(c, e, msg);
        return -1;
    }
    char buf[SCENARIO_DATA_LINE_MAX + 1];
    int line = 0, rc = 0, ch = 0;
    while (!rc && ch != EOF) {
        size_t n = 0;
        while ((ch = getc(f)) != EOF && ch != '\n') {
            if (n == 0 && line == SCENARIO_DATA_LINES_MAX) {
                fail(c->p, "%s:%d: more than %d lines; a data file has at most %d", path, line + 1,
                     SCENARIO_DATA_LINES_MAX, SCENARIO_DATA_LINES_MAX);
                rc = -1;
                break;
            }
            if (ch == '\0' || (ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f) {
                fail(c->p, "%s:%d: not a text file (byte 0x%02x)", path, line + 1, ch);
                rc = -1;
                break;
            }
            if (n == SCENARIO_DATA_LINE_MAX) {
                fail(c->p, "%s:%d: line longer than %d characters (data files hold one short value per "
                           "line)", path, line + 1, SCENARIO_DATA_LINE_MAX);
                rc = -1;
                break;
            }
            buf[n++] = (char)ch;
        }
        if (rc || (n == 0 && ch == EOF))
            break;
        line++;
        buf[n] = '\0';
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
    char path[SCENARIO_PATH_MAX + 2];
    if (scenario_relative(c, (*e)->value, path, sizeof path)) {
        bad_value(c, *e, "the file's path, joined to the scenario's folder, is longer than 4095 bytes");
        return -1;
    }
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
        char path[SCENARIO_PATH_MAX + 2];
        if (read_file_key(c, "pauses.csv", window_line, &x, &e) < 0)
            return -1;
        scenario_relative(c, e->value, path, sizeof path); /* fits: read_file_key checked */
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
    if (!find_entry(c->p, c->sec, "think_distribution"))
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

static int check_user_interval(ctx *c, tester_spec *t);

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
        if (get_count(c, "users", &t->users, 1, 1000000) < 0 || get_connections(c, t) < 0 ||
            check_user_interval(c, t) < 0)
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
 * duration or a percentage; VALUE a count or a duration. buf: a copy of
 * the value, cut up here. */
static int parse_expect_text(ctx *c, entry *e, expect_item *x, int is_duration, char *buf)
{
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
        if (units_parse_number(tol, &pct, &why) || pct > 1000) {
            char msg[200];
            snprintf(msg, sizeof msg, "a relative tolerance is a percentage from 0 to 1000 such as 3%%%s%s",
                     pct > 1000 ? "" : ": ", pct > 1000 ? "" : why);
            bad_value(c, e, msg);
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

static int parse_expect_value(ctx *c, entry *e, expect_item *x, int is_duration)
{
    char *buf = xstrdup(c->p, e->value);
    if (!buf)
        return -1;
    int rc = parse_expect_text(c, e, x, is_duration, buf);
    free(buf);
    return rc;
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
    for (size_t i = c->sec->first; i != NONE; i = c->p->e[i].next) {
        entry *e = &c->p->e[i];
        if (e->removed)
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
        char w[SCENARIO_PATH_MAX + 64];
        if (!found && e->key[0] == 'p' && e->key[1] && strchr("0123456789.+-", e->key[1])) {
            /* a percentile key: a wrong one says what is wrong with it */
            if (units_parse_percentile(e->key + 1, &x->p_num, &x->p_den, &why) != 0) {
                fail(c->p, "%s: [%s] %s: %s (percentiles such as p50, p99.9)", where(c, e, w, sizeof w),
                     sec_of(c, e), e->key, why);
                return -1;
            }
            x->metric = EXPECT_PERCENTILE;
            found = is_duration = 1;
        }
        if (!found) {
            fail(c->p, "%s: [%s] unknown key '%s'; [expect NAME] takes planned, sent, recorded, "
                       "in_flight_at_end, over_threshold, min, mean, max and percentiles such as p99.9",
                 where(c, e, w, sizeof w), sec_of(c, e), e->key);
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
    uint64_t used;
    int64_t from;
    if (stall_periodic_union_endless(s->stalls, s->n_stalls, &used, &from)) {
        size_t n = 0, last = 0;
        for (size_t i = 0; i < s->n_stalls && i < 64; i++)
            if (used >> i & 1)
                last = i;
        others[0] = '\0';
        for (size_t i = 0; i < last; i++)
            if ((used >> i & 1) && n < sizeof others)
                n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]", n ? ", " : "",
                                      s->stalls[i].name);
        snprintf(sec, sizeof sec, "stall %s", s->stalls[last].name);
        c->sec = find_section(c->p, sec);
        section_fail(c, "together with %s this stall stops the server for good: from %s on their "
                        "windows leave no gap, so no request would ever finish; shorten or space them",
                     others, units_format_duration_exact(from, a, sizeof a));
        return -1;
    }
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

/* Whether users x interval, the interval of each user of a paced tester,
 * fits the clock: the product of two user-given figures is checked, never
 * wrapped (a wrap gave a zero interval, and a division by zero). */
static int check_user_interval(ctx *c, tester_spec *t)
{
    units_interval du;
    if (units_interval_mul(t->interval, t->users, &du) == 0 && du.num_ns / du.den <= (uint64_t)INT64_MAX)
        return 0;
    entry *e = get(c, "users");
    char msg[256], iv[48];
    entry *ie = get(c, "rate") ? get(c, "rate") : get(c, "interval");
    snprintf(iv, sizeof iv, "%s", ie ? ie->value : "?");
    snprintf(msg, sizeof msg, "each user would send every %llu x %s, past the clock's range (2^63 ns, "
                              "about 292 years); give fewer users or a shorter interval",
             (unsigned long long)t->users, iv);
    if (e)
        bad_value(c, e, msg);
    else
        section_fail(c, "%s", msg);
    return -1;
}

static int interpret(parser *p, scenario *s)
{
    ctx c = {p, s, NULL};
    size_t n_stalls = p->n_type[SEC_STALL], n_testers = p->n_type[SEC_TESTER];
    const section_rec *scen = NULL, *serv = NULL;
    const section_rec *tester_sec[SCENARIO_MAX_TESTERS];
    size_t n_expect_lines = 0;
    for (size_t i = 0; i < p->n_sec; i++) {
        if (p->sec[i].type == SEC_SCENARIO)
            scen = &p->sec[i];
        if (p->sec[i].type == SEC_SERVICE)
            serv = &p->sec[i];
        if (p->sec[i].type == SEC_EXPECT)
            for (size_t k = p->sec[i].first; k != NONE; k = p->e[k].next)
                n_expect_lines++;
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
        c.sec = &p->sec[i];
        const char *arg = c.sec->arg;
        int type = c.sec->type;
        if (type == SEC_SCENARIO && do_scenario(&c) < 0)
            return -1;
        if (type == SEC_SERVICE && do_service(&c) < 0)
            return -1;
        if (type == SEC_STALL && do_stall(&c, arg) < 0)
            return -1;
        if (type == SEC_TESTER) {
            for (size_t j = 0; j < s->n_testers; j++)
                if (strcasecmp(s->testers[j].name, arg) == 0) {
                    section_fail(&c, "a tester named '%s' exists already (names differ by more than "
                                     "case: they name files)", s->testers[j].name);
                    return -1;
                }
            /* the record read, kept: every later message about this tester
             * refers to it (its name is never rebuilt) */
            tester_sec[s->n_testers] = c.sec;
            s->tester_line[s->n_testers] = c.sec->line;
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
        c.sec = tester_sec[i];
        double expected;
        if (t->kind == TESTER_CLOSED) {
            double cycle = dist_mean_drawn_ns(&s->service) + (t->has_think ? dist_mean_drawn_ns(&t->think) : 0);
            if (!(cycle > 0)) {
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
            section_fail(&c, "would send about %.3g requests in %.3g s, more than max_requests = %llu; "
                             "shorten [scenario] duration, lower the rate, or raise max_requests",
                         expected, (double)s->duration_ns / 1e9, (unsigned long long)s->max_requests);
            return -1;
        }
    }
    /* truth and expectations last: they name testers */
    for (size_t i = 0; i < p->n_sec; i++) {
        c.sec = &p->sec[i];
        if (c.sec->type == SEC_TRUTH && do_truth(&c) < 0)
            return -1;
        if (c.sec->type == SEC_EXPECT && do_expect(&c, c.sec->arg) < 0)
            return -1;
    }
    /* a key nothing asked for (every section checks its own; a guard) */
    for (size_t i = 0; i < p->n_e; i++)
        if (!p->e[i].used && !p->e[i].removed) {
            char w[SCENARIO_PATH_MAX + 64];
            c.sec = &p->sec[p->e[i].sec];
            fail(p, "%s: [%s] unknown key '%s'", where(&c, &p->e[i], w, sizeof w), c.sec->name, p->e[i].key);
            return -1;
        }
    return 0;
}

static void parser_free(parser *p)
{
    for (size_t i = 0; i < p->n_e; i++) {
        free(p->e[i].key);
        free(p->e[i].value);
    }
    free(p->e);
    for (size_t i = 0; i < p->n_sec; i++)
        free(p->sec[i].name);
    free(p->sec);
    free(p->sec_index.slot);
    free(p->entry_index.slot);
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

FILE *scenario_open_regular(const char *path, const char **what, int *errnum)
{
    *what = NULL;
    *errnum = 0;
    if (strlen(path) > SCENARIO_PATH_MAX) {
        *errnum = ENAMETOOLONG;
        return NULL;
    }
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
     * below, as every file that is not a regular one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *errnum = errno;
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        *errnum = errno;
    else if (S_ISDIR(st.st_mode))
        *what = "is a directory";
    else if (S_ISFIFO(st.st_mode))
        *what = "is a FIFO (named pipe), not a regular file";
    else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        *what = "is a device, not a regular file";
    else if (S_ISSOCK(st.st_mode))
        *what = "is a socket, not a regular file";
    else if (!S_ISREG(st.st_mode))
        *what = "is not a regular file";
    FILE *f = NULL;
    if (!*what && !*errnum) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        if (!(f = fdopen(fd, "r")))
            *errnum = errno;
    }
    if (!f)
        close(fd);
    return f;
}

int scenario_parse_window(const char *text, int64_t duration_ns, int64_t *from_ns, int64_t *to_ns, char *why,
                          size_t whylen)
{
    const char *dots = strstr(text, "..");
    const char *w;
    if (!dots) {
        snprintf(why, whylen, "expected START..END with units, e.g. 0.85s..1.6s");
        return -EINVAL;
    }
    char *start = strndup(text, (size_t)(dots - text));
    if (!start) {
        snprintf(why, whylen, "out of memory");
        return -ENOMEM;
    }
    int rc = units_parse_duration(start, from_ns, &w);
    free(start);
    if (rc) {
        snprintf(why, whylen, "START: %s", w);
        return -EINVAL;
    }
    if (units_parse_duration(dots + 2, to_ns, &w)) {
        snprintf(why, whylen, "END: %s", w);
        return -EINVAL;
    }
    char a[32], b[32], d[32];
    units_format_duration_exact(*from_ns, a, sizeof a);
    units_format_duration_exact(*to_ns, b, sizeof b);
    units_format_duration_exact(duration_ns, d, sizeof d);
    if (*to_ns <= *from_ns) {
        snprintf(why, whylen, "the window %s..%s ends before it starts", a, b);
        return -EINVAL;
    }
    if (*from_ns >= duration_ns) {
        snprintf(why, whylen, "the window starts at %s, at or after the end of the run (duration %s): the "
                              "time charts would be empty; give a window inside 0s..%s",
                 a, d, d);
        return -ERANGE;
    }
    return 0;
}

scenario_error scenario_load(scenario **out, const char *path, const char *const *sets,
                             size_t n_sets, char *err, size_t errlen)
{
    *out = NULL;
    err[0] = '\0';
    const char *what;
    int errnum;
    FILE *f = scenario_open_regular(path, &what, &errnum);
    if (!f) {
        if (what)
            snprintf(err, errlen, "%s: %s; give a scenario file such as scenarios/stall_per_second.ini", path,
                     what);
        else
            snprintf(err, errlen, "%s: cannot read the scenario: %s", path, strerror(errnum));
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
    /* every stall that fits, then "and K more": a long list is said to be
     * cut, never cut silently */
    size_t used = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        char d[160], more[48];
        stall_describe(&s->stalls[i], d, sizeof d);
        size_t left = s->n_stalls - i - 1;
        int n = snprintf(more, sizeof more, "; and %zu more", left);
        size_t need = (i ? 2 : 0) + strlen(d) + (left ? (size_t)n : 0);
        if (used + need >= len) {
            snprintf(more, sizeof more, "%sand %zu more", i ? "; " : "", left + 1);
            if (used + strlen(more) < len)
                snprintf(buf + used, len - used, "%s", more);
            return buf;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "; " : "", d);
    }
    return buf;
}
