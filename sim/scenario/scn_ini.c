/* scn_ini.c - a scenario's raw INI entries, each with its line, and the
 * --set overrides (phases 1 and 2 of reading a scenario; scenario.c). */
#include "scn_ini.h"
#include "grow.h"
#include "names.h"
#include "textin.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How inih will read a line. */
enum { LINE_OTHER = 0, LINE_SECTION, LINE_KEY, LINE_CONTINUATION };

/* The section types' words, indexed by scn_ini_section_type. */
static const char *const sec_types[] = {
    [SCN_SEC_SCENARIO] = "scenario", [SCN_SEC_SERVICE] = "service", [SCN_SEC_STALL] = "stall",
    [SCN_SEC_TESTER] = "tester",     [SCN_SEC_EXPECT] = "expect",   [SCN_SEC_TRUTH] = "truth",
};
const names_table scn_ini_section_names = {sec_types, ARRAY_SIZE(sec_types)};

void scn_ini_fail(scn_ini *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
    p->failed = 1;
    /* every message starts with its origin (scn_ini_origin): "--set ..."
     * names a value of the command line, which exits 2, not 3 */
    p->failed_set = strncmp(p->err, "--set ", 6) == 0 || strncmp(p->err, "--set:", 6) == 0;
}

static char *xstrdup(scn_ini *p, const char *s)
{
    char *d = strdup(s);
    if (!d)
        p->oom = 1;
    return d;
}

char *scn_ini_trim(char *s)
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
    s = scn_ini_trim(s);
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
static int table_insert(scn_ini *p, scn_ini_index *t, size_t i, uint64_t h, uint64_t (*hash_of)(scn_ini *, size_t))
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

static uint64_t sec_hash_of(scn_ini *p, size_t i) { return p->sec[i].hash; }
static uint64_t entry_hash_of(scn_ini *p, size_t i) { return p->e[i].hash; }

scn_ini_section *scn_ini_find_section(scn_ini *p, const char *name)
{
    scn_ini_index *t = &p->sec_index;
    if (!t->cap)
        return NULL;
    uint64_t h = fnv1a(name, FNV_OFFSET);
    for (size_t j = (size_t)h & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
        scn_ini_section *r = &p->sec[t->slot[j] - 1];
        if (r->hash == h && strcmp(r->name, name) == 0)
            return r;
    }
    return NULL;
}

/* The entry KEY of section sec, removed ones included (NULL if none). */
static scn_ini_entry *find_entry_any(scn_ini *p, size_t sec, const char *key)
{
    scn_ini_index *t = &p->entry_index;
    if (!t->cap)
        return NULL;
    uint64_t h = entry_hash(sec, key);
    for (size_t j = (size_t)h & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
        scn_ini_entry *e = &p->e[t->slot[j] - 1];
        if (e->hash == h && e->sec == sec && strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

/* The entry KEY of section rec, if present (not removed by --set KEY=). */
scn_ini_entry *scn_ini_find_entry(scn_ini *p, const scn_ini_section *rec, const char *key)
{
    scn_ini_entry *e = find_entry_any(p, (size_t)(rec - p->sec), key);
    return e && !e->removed ? e : NULL;
}

/* "FILE:LINE" or "--set ARG" (a long argument cut, with "...", at 200
 * characters: it is only named). */
const char *scn_ini_origin(const scn_ini *p, int line, const char *set, char *buf, size_t len)
{
    if (set && strlen(set) > 200)
        snprintf(buf, len, "--set %.197s...", set);
    else if (set)
        snprintf(buf, len, "--set %s", set);
    else
        snprintf(buf, len, "%s:%d", p->path, line);
    return buf;
}

int scn_ini_valid_name(const char *s)
{
    return names_valid(s, SCENARIO_NAME_MAX);
}

/* The type of a section name (SEC_*) and its NAME part; -1 if unknown. */
static int section_type(const char *name, const char **arg)
{
    for (int i = 0; i < SCN_SEC_COUNT; i++) {
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
static scn_ini_section *add_section(scn_ini *p, const char *name, int line, const char *set)
{
    char w[SCENARIO_PATH_MAX + 64];
    const char *arg;
    int type = section_type(name, &arg);
    scn_ini_origin(p, line, set, w, sizeof w);
    if (strlen(name) > SCENARIO_SECTION_MAX && (type < 0 || type == SCN_SEC_SCENARIO || type == SCN_SEC_SERVICE ||
                                               type == SCN_SEC_TRUTH)) {
        scn_ini_fail(p, "%s: [%.40s...] unknown section; expected [scenario], [service], [stall NAME], "
                "[tester NAME], [expect NAME] or [truth]", w, name);
        return NULL;
    }
    if (type < 0) {
        scn_ini_fail(p, "%s: [%s] unknown section; expected [scenario], [service], [stall NAME], "
                "[tester NAME], [expect NAME] or [truth]", w, name);
        return NULL;
    }
    if ((type == SCN_SEC_SCENARIO || type == SCN_SEC_SERVICE || type == SCN_SEC_TRUTH) && *arg) {
        scn_ini_fail(p, "%s: [%s] takes no name: write [%s]", w, name, sec_types[type]);
        return NULL;
    }
    if ((type == SCN_SEC_STALL || type == SCN_SEC_TESTER || type == SCN_SEC_EXPECT) && !scn_ini_valid_name(arg)) {
        if (strlen(name) > 200)
            scn_ini_fail(p, "%s: [%.60s...] needs a NAME of 1 to %d letters, digits, '_' or '-', not beginning with '-', e.g. [%s open]", w,
                 name, SCENARIO_NAME_MAX, sec_types[type]);
        else
            scn_ini_fail(p, "%s: [%s] needs a NAME of 1 to %d letters, digits, '_' or '-', not beginning with '-', e.g. [%s open]", w, name,
                 SCENARIO_NAME_MAX, sec_types[type]);
        return NULL;
    }
    static const size_t most[SCN_SEC_COUNT] = {1, 1, SCENARIO_MAX_STALLS, SCENARIO_MAX_TESTERS,
                                             SCENARIO_MAX_EXPECTS, 1};
    if (p->n_type[type] >= most[type] && most[type] > 1) {
        scn_ini_fail(p, "%s: [%s] one %s too many: a scenario has at most %zu", w, name,
             type == SCN_SEC_EXPECT ? "[expect NAME] section" : sec_types[type], most[type]);
        return NULL;
    }
    if (p->n_sec == p->cap_sec) {
        scn_ini_section *n = grow_array(p->sec, &p->cap_sec, sizeof *n, 8);
        if (!n) {
            p->oom = 1;
            return NULL;
        }
        p->sec = n;
    }
    scn_ini_section *r = &p->sec[p->n_sec];
    memset(r, 0, sizeof *r);
    r->name = xstrdup(p, name);
    if (!r->name)
        return NULL;
    r->line = line;
    r->set = set;
    r->type = type;
    section_type(r->name, &r->arg);
    r->first = r->last = SCN_NONE;
    r->hash = fnv1a(r->name, FNV_OFFSET);
    if (table_insert(p, &p->sec_index, p->n_sec, r->hash, sec_hash_of)) {
        free(r->name);
        return NULL;
    }
    p->n_type[type]++;
    p->n_sec++;
    return r;
}

static scn_ini_entry *add_entry(scn_ini *p, scn_ini_section *rec, const char *key, const char *value, int line,
                        const char *set)
{
    if (p->n_e >= SCENARIO_MAX_KEYS) {
        char w[SCENARIO_PATH_MAX + 64];
        scn_ini_fail(p, "%s: [%s] %s: one key too many: a scenario has at most %d keys", scn_ini_origin(p, line, set, w, sizeof w),
             rec->name, key, SCENARIO_MAX_KEYS);
        return NULL;
    }
    if (p->n_e == p->cap_e) {
        scn_ini_entry *n = grow_array(p->e, &p->cap_e, sizeof *n, 32);
        if (!n) {
            p->oom = 1;
            return NULL;
        }
        p->e = n;
    }
    size_t sec = (size_t)(rec - p->sec);
    scn_ini_entry *e = &p->e[p->n_e];
    memset(e, 0, sizeof *e);
    e->sec = sec;
    e->key = xstrdup(p, key);
    e->value = xstrdup(p, value);
    e->line = line;
    e->set = set;
    e->next = SCN_NONE;
    e->hash = entry_hash(sec, key);
    if (!e->key || !e->value || table_insert(p, &p->entry_index, p->n_e, e->hash, entry_hash_of)) {
        free(e->key);
        free(e->value);
        return NULL;
    }
    if (rec->last == SCN_NONE)
        rec->first = p->n_e;
    else
        p->e[rec->last].next = p->n_e;
    rec->last = p->n_e;
    p->n_e++;
    return e;
}

scn_ini_entry *scn_ini_add_entry(scn_ini *p, const scn_ini_section *rec, const char *key, const char *value,
                                 int line, const char *set)
{
    return add_entry(p, &p->sec[rec - p->sec], key, value, line, set);
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
static int classify_line(scn_ini *p, const char *line)
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
                scn_ini_fail(p, "%s:%d: a ';' after a blank starts a comment, so this section header has no closing "
                        "']'; names have no ';'", p->path, p->line);
            else
                scn_ini_fail(p, "%s:%d: a section header needs its closing ']', e.g. [tester open]", p->path, p->line);
            return -1;
        }
        /* after the ']': blanks, then nothing or a ';' comment (inih drops
         * the rest, so '[scenario] seed = 5' lost its key silently) */
        const char *after = close + 1;
        while (after < end && (*after == ' ' || *after == '\t'))
            after++;
        if (after < end && *after != ';') {
            scn_ini_fail(p, "%s:%d: text after the section header's ']' ('%.*s'); put each key = value on a line "
                            "of its own", p->path, p->line, (int)(end - after > 40 ? 40 : end - after), after);
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
        scn_ini_section *r = scn_ini_find_section(p, t);
        if (r) {
            scn_ini_fail(p, "%s:%d: section [%s] appears twice (first on line %d); merge them", p->path, p->line, t,
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
        scn_ini_fail(p, "%s:%d: not a 'key = value' line nor a [section] header", p->path, p->line);
        return -1;
    }
    const char *kend = sep;
    while (kend > s && isspace((unsigned char)kend[-1]))
        kend--;
    if ((size_t)(kend - s) > SCENARIO_KEY_MAX) {
        scn_ini_fail(p, "%s:%d: key '%.20s...' is longer than %d characters; no key is", p->path, p->line, s,
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
    scn_ini *p = stream;
    int n = 0, c = EOF;
    if (p->failed || p->oom)
        return NULL;
    while (n < num - 1 && (c = getc(p->f)) != EOF) {
        if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
            scn_ini_fail(p, "%s:%d: not a text file (byte 0x%02x); a scenario is an INI text file",
                 p->path, p->line + 1, c);
            return NULL;
        }
        if (c == '\r') { /* only in a CRLF line end: alone it hides the line break */
            int d = getc(p->f);
            if (d != EOF)
                ungetc(d, p->f);
            if (d != '\n' && d != EOF) {
                scn_ini_fail(p, "%s:%d: " TEXTIN_CR_INSIDE_LINE, p->path, p->line + 1);
                return NULL;
            }
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
        scn_ini_fail(p, "%s:%d: the file is longer than %d bytes; a scenario is a short text file", p->path, p->line,
             SCENARIO_FILE_MAX);
        return NULL;
    }
    if (str[n - 1] != '\n' && n == num - 1 && (c = getc(p->f)) != EOF && c != '\n') {
        scn_ini_fail(p, "%s:%d: line longer than %d characters", p->path, p->line, num - 2);
        return NULL;
    }
    size_t bom = p->line == 1 ? textin_bom_len(str, (size_t)n) : 0; /* a byte order mark: skipped */
    if (bom)
        memmove(str, str + bom, (size_t)n + 1 - bom);
    size_t bad_at;
    if (!textin_utf8_valid(str, &bad_at)) {
        scn_ini_fail(p, "%s:%d: not valid UTF-8 (byte 0x%02x at column %zu); save the file as UTF-8",
             p->path, p->line, (unsigned char)str[bad_at], bad_at + 1);
        return NULL;
    }
    if (classify_line(p, str))
        return NULL;
    return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    scn_ini *p = user;
    if (p->failed || p->oom)
        return 0;
    char *secbuf = xstrdup(p, section);
    if (!secbuf)
        return 0;
    scn_ini_section *rec = scn_ini_find_section(p, canonical_section(secbuf));
    int rc = 0;
    if (!*section || !rec) {
        scn_ini_fail(p, "%s:%d: key '%s' outside any section; put it under [scenario], [service], "
                "[stall NAME] or [tester NAME]",
             p->path, p->line, name);
        goto out;
    }
    scn_ini_entry *e = scn_ini_find_entry(p, rec, name);
    if (p->line_kind == LINE_CONTINUATION && e) {
        /* an indented continuation line of a multi-line value */
        if (strchr(value, '=')) {
            scn_ini_fail(p, "%s:%d: this indented line continues the value of '%s' above; if it is a key "
                    "of its own, remove the indentation",
                 p->path, p->line, name);
            goto out;
        }
        size_t len = strlen(e->value) + strlen(value) + 2;
        if (len - 1 > SCENARIO_VALUE_MAX) {
            scn_ini_fail(p, "%s:%d: [%s] %s: the value is longer than %d bytes", p->path, p->line, rec->name, name,
                 SCENARIO_VALUE_MAX);
            goto out;
        }
        char *v = malloc(len);
        if (!v) {
            p->oom = 1;
            goto out;
        }
        size_t n0 = strlen(e->value);
        memcpy(v, e->value, n0);
        v[n0] = ' ';
        memcpy(v + n0 + 1, value, len - n0 - 1); /* value and its NUL: len counted both */
        free(e->value);
        e->value = v;
        rc = 1;
        goto out;
    }
    if (e) {
        scn_ini_fail(p, "%s:%d: [%s] %s: key given twice (first on line %d)", p->path, p->line, rec->name, name,
             e->line);
        goto out;
    }
    rc = add_entry(p, rec, name, value, p->line, NULL) ? 1 : 0;
out:
    free(secbuf);
    return rc;
}

/* ---- phase 2: --set overrides ------------------------------------------ */

/* A --set value (blanks trimmed): not too long, no control character
 * other than a tab (a blank, as in the file), valid UTF-8. 0 or -1
 * (message set). */
static int check_set_value(scn_ini *p, const char *section, const char *key, const char *value)
{
    size_t bad_at;
    if (strlen(value) > SCENARIO_VALUE_MAX) {
        scn_ini_fail(p, "--set %s.%s: the value is longer than %d bytes", section, key, SCENARIO_VALUE_MAX);
        return -1;
    }
    for (const char *q = value; *q; q++)
        if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) {
            scn_ini_fail(p, "--set %s.%s: the value holds control character 0x%02x (a newline?); a value is one line",
                         section, key, (unsigned)(unsigned char)*q);
            return -1;
        }
    if (!textin_utf8_valid(value, &bad_at)) {
        scn_ini_fail(p, "--set %s.%s: the value is not valid UTF-8", section, key);
        return -1;
    }
    return 0;
}

/* --set's SECTION.KEY (arg up to eq) into path (SCENARIO_SECTION_MAX +
 * SCENARIO_KEY_MAX + 2 bytes): *section canonical, *key trimmed, both in
 * path. @return 0, or -1 with the message. */
static int set_section_key(scn_ini *p, const char *arg, const char *eq, char *path, char **section, char **key)
{
    char w[SCENARIO_PATH_MAX + 64];
    size_t plen = (size_t)(eq - arg);
    if (plen > SCENARIO_SECTION_MAX + 1 + SCENARIO_KEY_MAX) {
        scn_ini_fail(p, "--set %.40s...: SECTION.KEY is longer than %d characters; no section and key are",
             arg, SCENARIO_SECTION_MAX + 1 + SCENARIO_KEY_MAX);
        return -1;
    }
    memcpy(path, arg, plen);
    path[plen] = '\0';
    /* The key follows SECTION. or, for a named section, SECTION.NAME. (or
     * "SECTION NAME."): a NAME holds no '.', a key may ("p99.9"), so the
     * split is after the section, not at the last '.'. */
    char *dot = strchr(path, '.');
    if (!dot || dot == path || !dot[1]) {
        scn_ini_fail(p, "%s: expected SECTION.KEY=VALUE (e.g. --set scenario.rank_rule=nearest_rank)",
             scn_ini_origin(p, 0, arg, w, sizeof w));
        return -1;
    }
    *dot = '\0';
    const char *name_arg;
    int type = section_type(scn_ini_trim(path), &name_arg);
    if ((type == SCN_SEC_STALL || type == SCN_SEC_TESTER || type == SCN_SEC_EXPECT) && !*name_arg) {
        /* "tester.open.rate": the NAME runs to the next '.' */
        char *d2 = strchr(dot + 1, '.');
        if (!d2 || !d2[1]) {
            scn_ini_fail(p, "%s: expected %s.NAME.KEY=VALUE (e.g. --set %s)", scn_ini_origin(p, 0, arg, w, sizeof w),
                         sec_types[type],
                         type == SCN_SEC_TESTER   ? "tester.open.rate=100/s"
                         : type == SCN_SEC_EXPECT ? "expect.open.p99=100ms"
                                                  : "stall.gc.extra=500ms");
            return -1;
        }
        *dot = ' '; /* "tester.open" stands for "tester open" */
        dot = d2;
        *dot = '\0';
    }
    *key = scn_ini_trim(dot + 1);
    *section = canonical_section(path);
    if (strlen(*key) > SCENARIO_KEY_MAX) {
        scn_ini_fail(p, "--set %s: the key is longer than %d characters", *section, SCENARIO_KEY_MAX);
        return -1;
    }
    return 0;
}

/* --set on a key of the file: replaced, or removed by "--set service.time=". */
static int set_existing(scn_ini *p, scn_ini_entry *e, const char *value, const char *arg)
{
    if (*value) {
        char *v = xstrdup(p, value);
        if (!v)
            return -1;
        free(e->value);
        e->value = v;
    }
    e->removed = !*value;
    e->line = 0;
    e->set = arg;
    return 0;
}

/* A misspelt tester would be a new, half-made one: the message names the
 * testers there are (a new tester's kind is set first). */
static void fail_no_tester(scn_ini *p, const char *arg, const char *section)
{
    char w[SCENARIO_PATH_MAX + 64];
    char names[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < p->n_sec && used < sizeof names; i++)
        if (strncmp(p->sec[i].name, "tester ", 7) == 0) {
            int n = snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", p->sec[i].name + 7);
            used += n > 0 ? (size_t)n : 0;
        }
    scn_ini_fail(p, "%s: no [%s] in %s; testers: %s (to add one, set its kind first: --set tester.%s.kind=open)",
                 scn_ini_origin(p, 0, arg, w, sizeof w), section, p->path, used ? names : "none",
                 section + 7);
}

int scn_ini_apply_set(scn_ini *p, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char w[SCENARIO_PATH_MAX + 64];
    if (!eq) {
        scn_ini_fail(p, "%s: expected SECTION.KEY=VALUE (e.g. --set scenario.rank_rule=nearest_rank)",
             scn_ini_origin(p, 0, arg, w, sizeof w));
        return -1;
    }
    char path[SCENARIO_SECTION_MAX + SCENARIO_KEY_MAX + 2];
    char *section, *key;
    if (set_section_key(p, arg, eq, path, &section, &key) < 0)
        return -1;
    const char *v0 = eq + 1;
    while (*v0 == ' ' || *v0 == '\t')
        v0++;
    if (strlen(v0) > SCENARIO_VALUE_MAX + 64) { /* blanks at the end do not count, a few of them */
        scn_ini_fail(p, "--set %s.%s: the value is longer than %d bytes", section, key, SCENARIO_VALUE_MAX);
        return -1;
    }
    char *valbuf = xstrdup(p, v0);
    if (!valbuf)
        return -1;
    char *value = scn_ini_trim(valbuf);
    int rc = -1;
    if (check_set_value(p, section, key, value) < 0)
        goto out;
    scn_ini_section *rec = scn_ini_find_section(p, section);
    scn_ini_entry *e = rec ? find_entry_any(p, (size_t)(rec - p->sec), key) : NULL;
    if (e && e->set) {
        char w2[SCENARIO_PATH_MAX + 64];
        scn_ini_fail(p, "%s: [%s] %s is already set by %s (or --seed, --rank-rule); give it once",
             scn_ini_origin(p, 0, arg, w, sizeof w), section, key, scn_ini_origin(p, 0, e->set, w2, sizeof w2));
    } else if (e) {
        rc = set_existing(p, e, value, arg);
    } else if (!*value) {
        scn_ini_fail(p, "%s: there is no [%s] %s to remove", scn_ini_origin(p, 0, arg, w, sizeof w), section, key);
    } else if (!rec && strncmp(section, "tester ", 7) == 0 && strcmp(key, "kind") != 0) {
        fail_no_tester(p, arg, section);
    } else if (rec || (rec = add_section(p, section, 0, arg))) {
        rc = add_entry(p, rec, key, value, 0, arg) ? 0 : -1;
    }
out:
    free(valbuf);
    return rc;
}

void scn_ini_free(scn_ini *p)
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

int scn_ini_read(scn_ini *p, FILE *f, const char *path, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->err = err;
    p->errlen = errlen;
    p->f = f;
    int line = ini_parse_stream(reader, p, handler, p);
    int read_error = ferror(p->f);
    if (!p->failed && !p->oom && read_error)
        scn_ini_fail(p, "%s: read error", path);
    if (!p->failed && !p->oom && line > 0)
        scn_ini_fail(p, "%s:%d: not a 'key = value' line nor a [section] header", path, line);
    if (!p->failed && !p->oom && p->n_sec == 0 && p->n_e == 0)
        scn_ini_fail(p, "%s: empty scenario; it needs [scenario] with duration, [service] and one [tester NAME] "
                        "(see scenarios/one_stall.ini)", path);
    return p->failed || p->oom ? -1 : 0;
}
