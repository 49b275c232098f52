/* scn_keys.c - the key table (scn_keys.def), its getters, its messages and
 * the --list-keys listing. */
#include "scn_keys.h"
#include "dist.h"
#include "scn_expect.h"
#include "hist.h"
#include "rng.h"
#include "scn_real.h"
#include "scn_profile.h"
#include "scn_sections.h"
#include "scn_stall.h"
#include "scn_tester.h"
#include "stall.h"
#include "tester.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the table ----------------------------------------------------------- */

#define ANY 0u
#define TK(k) (1u << TESTER_##k)
#define SK(k) (1u << STALL_##k)
#define SK_FILE (1u << SCN_KIND_FILE)
#define SK_GC_LOG (1u << SCN_KIND_GC_LOG)
#define DK(k) (1u << DIST_##k)
#define NO_LIMITS .lo_u = 0
#define DUR(lo) .lo_u = (lo)
#define COUNT(lo, hi) .lo_u = (lo), .hi_u = (hi)
#define NUMBER(lo, hi) .lo_d = (lo), .hi_d = (hi)
#define CHOICES(names, more_names) .choices = (names), .more = (more_names)
/* the structs a DEST names */
#define SCN_STRUCT_SCENARIO scenario
#define SCN_STRUCT_DIST dist_spec
#define SCN_STRUCT_STALL stall_spec
#define SCN_STRUCT_TESTER tester_spec
#define NOWHERE .in = SCN_IN_NONE
#define AT(S, F, T) .in = SCN_IN_##S, .off = offsetof(SCN_STRUCT_##S, F), .ftype = SCN_F_##T, \
                    .fsize = sizeof(((SCN_STRUCT_##S *)0)->F)
#define AT_CODE(S, F, T) AT(S, F, T), .by_code = 1
#define HOOK(S, fn) .in = SCN_IN_##S, .hook = (fn), .hook_name = #fn
#define AT_HOOK(S, F, T, fn) AT(S, F, T), .hook = (fn), .hook_name = #fn
#define REQUIRED .required = 1
#define V(x) .has_value = 1, .def_i = (int64_t)(x), .def_d = (double)(x)
#define VSAYS(x, phrase) V(x), .def_text = (phrase)
#define TEXTV(text) .has_value = 1, .def_text = (text)
#define SAYS(phrase) .def_text = (phrase)
#define SAME NULL
#define HIDDEN ""
#define SCN_KEY(SEC, KINDS, KEY, TYPE, LIMITS, DEST, DEF, EXAMPLE, TAKES, DOC)                                 \
    {.section = SCN_SEC_##SEC, .kinds = (KINDS), .name = (KEY), .type = SCN_T_##TYPE, LIMITS, DEST, DEF, \
     .example = (EXAMPLE), .takes = (TAKES), .doc = (DOC)},

const scn_key scn_keys[] = {
#include "scn_keys.def"
};
const size_t scn_keys_n = ARRAY_SIZE(scn_keys);

#undef SCN_KEY
#undef AT
#undef AT_CODE
#undef HOOK
#undef AT_HOOK

/* Each field a row names is of the C type its FTYPE says, or the build
 * fails here: a value is never stored into a field of another size. An
 * enum is compatible with int or unsigned, as the compiler picks. */
#define SCN_FIELD_OF(S, F) (((SCN_STRUCT_##S *)0)->F)
#define SCN_IS_I64(x) _Generic((x), int64_t: 1, default: 0)
#define SCN_IS_U64(x) _Generic((x), uint64_t: 1, default: 0)
#define SCN_IS_UNSIGNED(x) _Generic((x), unsigned: 1, default: 0)
#define SCN_IS_INT(x) _Generic((x), int: 1, unsigned: 1, default: 0)
#define SCN_IS_DOUBLE(x) _Generic((x), double: 1, default: 0)
#define SCN_IS_CHARS(x) _Generic((x), char *: sizeof(x) > 1, default: 0)
#define AT(S, F, T) _Static_assert(SCN_IS_##T(SCN_FIELD_OF(S, F)), #S "." #F " is not of the type " #T);
#define AT_HOOK(S, F, T, fn) AT(S, F, T)
#define AT_CODE(S, F, T) AT(S, F, T)
#define HOOK(S, fn)
#undef NOWHERE
#define NOWHERE
#define SCN_KEY(SEC, KINDS, KEY, TYPE, LIMITS, DEST, DEF, EXAMPLE, TAKES, DOC) DEST
#include "scn_keys.def"
#undef SCN_KEY
#undef HOOK
#undef AT_CODE
#undef AT_HOOK
#undef AT
#undef SCN_IS_CHARS
#undef SCN_IS_DOUBLE
#undef SCN_IS_INT
#undef SCN_IS_UNSIGNED
#undef SCN_IS_U64
#undef SCN_IS_I64
#undef SCN_FIELD_OF
#undef SAYS
#undef TEXTV
#undef VSAYS
#undef V
#undef REQUIRED
#undef NOWHERE
#undef HIDDEN
#undef SAME
#undef CHOICES
#undef NUMBER
#undef COUNT
#undef DUR
#undef NO_LIMITS
#undef DK
#undef SK_FILE
#undef SK_GC_LOG
#undef SK
#undef TK
#undef ANY

static int row_has_kind(const scn_key *k, int kind)
{
    return k->kinds == 0 || kind < 0 || (kind < 32 && (k->kinds >> kind & 1u));
}

const scn_key *scn_keys_find(int section, int kind, const char *key)
{
    for (size_t i = 0; i < scn_keys_n; i++)
        if (scn_keys[i].section == section && strcmp(scn_keys[i].name, key) == 0 &&
            row_has_kind(&scn_keys[i], kind))
            return &scn_keys[i];
    return NULL;
}

/* The row a getter reads key by: a [service] row inside a distribution;
 * the section's row of another kind when the kind's own has none. A key
 * that no row of its section names is a defect of the table
 * (tests/key_rows.py finds the literal ones before a build ships): the
 * scenario is refused with a message saying so, never read without
 * limits. */
static const scn_key *row_of(scn_ctx *c, const char *key)
{
    static const scn_key none = {.hi_u = UINT64_MAX, .lo_d = -1e300, .hi_d = 1e300, .example = "..."};
    int section = c->prefix ? SCN_SEC_SERVICE : c->sec->type;
    const scn_key *k = scn_keys_find(section, c->prefix ? c->dist_kind : c->kind, key);
    if (!k)
        k = scn_keys_find(section, -1, key);
    if (!k)
        scn_keys_section_fail(c, "key '%s' has no row in scn_keys.def (a defect of cosim: please report it)", key);
    return k ? k : &none;
}

/* The entry's key: prefixed inside a distribution ("think_" "mean"). */
static const char *full_key(const scn_ctx *c, const char *key, char *buf, size_t len)
{
    if (!c->prefix)
        return key;
    snprintf(buf, len, "%s%s", c->prefix, key);
    return buf;
}

/* ---- messages ------------------------------------------------------------ */

const char *scn_keys_where(const scn_ctx *c, const scn_ini_entry *e, char *buf, size_t len)
{
    return scn_ini_origin(c->p, e->line, e->set, buf, len);
}

void scn_keys_bad_value(scn_ctx *c, const scn_ini_entry *e, const char *why)
{
    char w[SCENARIO_PATH_MAX + 64], v[80];
    if (strlen(e->value) > 60)
        snprintf(v, sizeof v, "%.57s...", e->value);
    else
        snprintf(v, sizeof v, "%s", e->value);
    const char *hint = "";
    if (strstr(e->value, " #"))
        hint = " (comments after a value start with ';', not '#')";
    scn_ini_fail(c->p, "%s: [%s] %s = %s: %s%s", scn_keys_where(c, e, w, sizeof w), c->p->sec[e->sec].name, e->key,
                 v, why, hint);
}

int scn_keys_check_list(scn_ctx *c, const scn_ini_entry *e)
{
    size_t item = 1;
    int blank = 1;
    if (!e->value[strspn(e->value, " \t")])
        return 0; /* no list at all: the reader says what it expects */
    for (const char *q = e->value;; q++) {
        if (*q == ',' || *q == '\0') {
            if (blank) {
                char why[120];
                snprintf(why, sizeof why, "item %zu of the list is empty (%s?)", item,
                         item == 1 && *q ? "a comma at the start" : !*q && item > 1 ? "a comma at the end"
                                                                     : "two commas");
                scn_keys_bad_value(c, e, why);
                return -1;
            }
            if (!*q)
                return 0;
            item++;
            blank = 1;
        } else if (*q != ' ' && *q != '\t') {
            blank = 0;
        }
    }
}

/* Where a judgement on the whole of section c->sec comes from: the --set
 * options that changed its keys ("--set A, --set B"; a value the user gave
 * on the command line is named as typed, not as the file line it
 * replaced), else the section's own origin (FILE:LINE, or the --set that
 * made it). */
static const char *section_origin(const scn_ctx *c, char *buf, size_t len)
{
    const scn_ini *p = c->p;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = c->sec->first; i != SCN_NONE && used + 1 < len; i = p->e[i].next) {
        const char *set = p->e[i].set;
        int seen = 0; /* a profile's keys share their --set: named once */
        for (size_t j = c->sec->first; j != i && !seen; j = p->e[j].next)
            seen = p->e[j].set == set;
        if (!set || seen)
            continue;
        char one[SCENARIO_PATH_MAX + 64];
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", scn_ini_origin(p, 0, set, one, sizeof one));
        used += n > 0 ? (size_t)n : 0;
    }
    if (used >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
    if (!used)
        scn_ini_origin(p, c->sec->line, c->sec->set, buf, len);
    return buf;
}

void scn_keys_section_fail(scn_ctx *c, const char *fmt, ...)
{
    char msg[512], w[SCENARIO_PATH_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    scn_ini_fail(c->p, "%s: [%s] %s", section_origin(c, w, sizeof w), c->sec->name, msg);
}

/* ---- getters ------------------------------------------------------------- */

scn_ini_entry *scn_keys_get(scn_ctx *c, const char *key)
{
    char k[SCENARIO_KEY_MAX + 32];
    scn_ini_entry *e = scn_ini_find_entry(c->p, c->sec, full_key(c, key, k, sizeof k));
    if (e)
        e->used = 1;
    return e;
}

int scn_keys_has(scn_ctx *c, const char *key)
{
    char k[SCENARIO_KEY_MAX + 32];
    return scn_ini_find_entry(c->p, c->sec, full_key(c, key, k, sizeof k)) != NULL;
}

size_t scn_keys_edit_distance(const char *a, const char *b)
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

int scn_keys_report_typo(scn_ctx *c, const char *key)
{
    char k[SCENARIO_KEY_MAX + 32];
    key = full_key(c, key, k, sizeof k);
    for (size_t i = c->sec->first; i != SCN_NONE; i = c->p->e[i].next) {
        scn_ini_entry *e = &c->p->e[i];
        if (e->used || e->removed || scn_keys_edit_distance(e->key, key) > 2)
            continue;
        char w[SCENARIO_PATH_MAX + 64];
        scn_ini_fail(c->p, "%s: [%s] unknown key '%s'; did you mean '%s'?", scn_keys_where(c, e, w, sizeof w),
                     c->p->sec[e->sec].name, e->key, key);
        return 1;
    }
    return 0;
}

int scn_keys_need(scn_ctx *c, const char *key)
{
    if (scn_keys_has(c, key))
        return 1;
    if (!scn_keys_report_typo(c, key)) {
        char k[SCENARIO_KEY_MAX + 32];
        const char *fk = full_key(c, key, k, sizeof k);
        scn_keys_section_fail(c, "needs key '%s' (e.g. %s = %s)", fk, fk, row_of(c, key)->example);
    }
    return 0;
}

int scn_keys_duration(scn_ctx *c, const char *key, int64_t *out)
{
    scn_ini_entry *e = scn_keys_get(c, key);
    if (!e)
        return 0;
    const char *why;
    if (units_parse_duration(e->value, out, &why)) {
        scn_keys_bad_value(c, e, why);
        return -1;
    }
    if ((uint64_t)*out < row_of(c, key)->lo_u) {
        scn_keys_bad_value(c, e, "must be above zero");
        return -1;
    }
    return 1;
}

int scn_keys_number(scn_ctx *c, const char *key, double *out)
{
    scn_ini_entry *e = scn_keys_get(c, key);
    if (!e)
        return 0;
    const char *why;
    if (units_parse_number(e->value, out, &why)) {
        scn_keys_bad_value(c, e, why);
        return -1;
    }
    const scn_key *k = row_of(c, key);
    if (*out < k->lo_d || *out > k->hi_d) {
        char msg[160], lo[48], hi[48];
        snprintf(msg, sizeof msg, "must be between %s and %s", units_format_number(k->lo_d, lo, sizeof lo),
                 units_format_number(k->hi_d, hi, sizeof hi));
        scn_keys_bad_value(c, e, msg);
        return -1;
    }
    return 1;
}

int scn_keys_count(scn_ctx *c, const char *key, uint64_t *out)
{
    scn_ini_entry *e = scn_keys_get(c, key);
    if (!e)
        return 0;
    const char *why;
    if (units_parse_count(e->value, UINT64_MAX, out, &why)) {
        scn_keys_bad_value(c, e, why);
        return -1;
    }
    const scn_key *k = row_of(c, key);
    if (*out < k->lo_u || *out > k->hi_u) {
        char msg[128];
        snprintf(msg, sizeof msg, "must be between %llu and %llu", (unsigned long long)k->lo_u,
                 (unsigned long long)k->hi_u);
        scn_keys_bad_value(c, e, msg);
        return -1;
    }
    return 1;
}

/* "a, b, c" of a row's choices (and more). */
static char *choices_text(const scn_key *k, const char *sep, char *buf, size_t len)
{
    buf[0] = '\0';
    if (k->choices)
        names_join(*k->choices, sep, buf, len);
    if (k->more && k->more->n) {
        size_t used = strlen(buf);
        if (used + strlen(sep) < len) {
            snprintf(buf + used, len - used, "%s", sep);
            used += strlen(sep);
            names_join(*k->more, sep, buf + used, len - used);
        }
    }
    return buf;
}

int scn_keys_choice(scn_ctx *c, const char *key, int *out, int *more)
{
    scn_ini_entry *e = scn_keys_get(c, key);
    if (!e)
        return 0;
    const scn_key *k = row_of(c, key);
    int i = k->choices ? names_find(*k->choices, e->value) : -1;
    if (more)
        *more = 0;
    if (i < 0 && more && k->more && (i = names_find(*k->more, e->value)) >= 0)
        *more = 1;
    if (i >= 0) {
        *out = i;
        return 1;
    }
    /* a near miss of one choice ("pased") is named: did you mean paced? */
    const char *near = NULL;
    size_t best = 3;
    const names_table *tables[2] = {k->choices, k->more};
    for (size_t t = 0; t < 2; t++)
        for (size_t j = 0; tables[t] && j < tables[t]->n; j++) {
            size_t d = tables[t]->names[j] ? scn_keys_edit_distance(e->value, tables[t]->names[j]) : best;
            if (d < best && d <= strlen(e->value) / 2) {
                best = d;
                near = tables[t]->names[j];
            }
        }
    char msg[512];
    int n = near ? snprintf(msg, sizeof msg, "did you mean %s? expected one of: ", near)
                 : snprintf(msg, sizeof msg, "expected one of: ");
    size_t used = n > 0 ? (size_t)n : 0;
    choices_text(k, ", ", msg + used, sizeof msg - used);
    scn_keys_bad_value(c, e, msg);
    return -1;
}

/* ---- fields: the rows' defaults and reading -------------------------------- */

int scn_keys_read_field(scn_ctx *c, const scn_key *k, void *base)
{
    if (k->required && !scn_keys_need(c, k->name))
        return -1;
    char *field = (char *)base + k->off;
    int got = 0;
    switch (k->ftype) {
    case SCN_F_I64:
        got = scn_keys_duration(c, k->name, (int64_t *)(void *)field);
        break;
    case SCN_F_U64:
        got = scn_keys_count(c, k->name, (uint64_t *)(void *)field);
        break;
    case SCN_F_UNSIGNED: { /* a row's limits keep it within unsigned (test_scn_keys) */
        uint64_t v = 0;
        if ((got = scn_keys_count(c, k->name, &v)) > 0)
            *(unsigned *)(void *)field = (unsigned)v;
        break;
    }
    case SCN_F_INT: {
        int v = 0;
        if ((got = scn_keys_choice(c, k->name, &v, NULL)) > 0)
            *(int *)(void *)field = v;
        break;
    }
    case SCN_F_DOUBLE:
        got = scn_keys_number(c, k->name, (double *)(void *)field);
        break;
    case SCN_F_CHARS: {
        scn_ini_entry *e = scn_keys_get(c, k->name);
        if (e && strlen(e->value) >= k->fsize) {
            scn_keys_bad_value(c, e, "too long");
            return -1;
        }
        if (e)
            memcpy(field, e->value, strlen(e->value) + 1);
        got = e != NULL;
        break;
    }
    case SCN_F_NONE:
        scn_keys_section_fail(c, "key '%s' has no field in scn_keys.def (a defect of cosim: please report it)",
                              k->name);
        return -1;
    }
    return got;
}

int scn_keys_read_rows(scn_ctx *c, scn_key_in in, void *base)
{
    int section = c->prefix ? SCN_SEC_SERVICE : c->sec->type;
    int kind = c->prefix ? c->dist_kind : c->kind;
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        if (k->section != section || k->in != in || k->by_code || !row_has_kind(k, kind))
            continue;
        if ((k->hook ? k->hook(c, k, base) : scn_keys_read_field(c, k, base)) < 0)
            return -1;
    }
    return 0;
}

void scn_keys_set_defaults(int section, int kind, scn_key_in in, void *base)
{
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        if ((section >= 0 && k->section != section) || k->in != in || !k->has_value || !row_has_kind(k, kind))
            continue;
        char *field = (char *)base + k->off;
        switch (k->ftype) {
        case SCN_F_I64:
            *(int64_t *)(void *)field = k->def_i;
            break;
        case SCN_F_U64:
            *(uint64_t *)(void *)field = (uint64_t)k->def_i;
            break;
        case SCN_F_UNSIGNED:
            *(unsigned *)(void *)field = (unsigned)k->def_i;
            break;
        case SCN_F_INT:
            *(int *)(void *)field = (int)k->def_i;
            break;
        case SCN_F_DOUBLE:
            *(double *)(void *)field = k->def_d;
            break;
        case SCN_F_CHARS:
            snprintf(field, k->fsize, "%s", k->def_text);
            break;
        case SCN_F_NONE:
            break;
        }
    }
}

const char *scn_keys_default_text(const scn_key *k, char *buf, size_t len)
{
    if (k->required)
        snprintf(buf, len, "required");
    else if (k->def_text || !k->has_value)
        snprintf(buf, len, "%s", k->def_text ? k->def_text : "?");
    else if (k->type == SCN_T_DURATION)
        units_format_duration_exact(k->def_i, buf, len);
    else if (k->type == SCN_T_COUNT)
        snprintf(buf, len, "%llu", (unsigned long long)k->def_i);
    else if (k->type == SCN_T_NUMBER)
        units_format_number(k->def_d, buf, len);
    else if (k->type == SCN_T_CHOICE && k->choices)
        snprintf(buf, len, "%s", names_get(*k->choices, (int)k->def_i));
    else
        snprintf(buf, len, "%lld", (long long)k->def_i);
    return buf;
}

/* ---- "takes" messages ---------------------------------------------------- */

/* Append the takes phrases of the rows of section with kind; only_kinds
 * 1: only rows of particular kinds, 0: only rows of every kind, -1: all. */
static void append_keys(int section, int kind, int only_kinds, char *buf, size_t len)
{
    size_t used = strlen(buf);
    int first = 1;
    for (size_t i = 0; i < scn_keys_n && used < len; i++) {
        const scn_key *k = &scn_keys[i];
        if (k->section != section || !row_has_kind(k, kind) || (k->takes && !*k->takes))
            continue;
        if (only_kinds >= 0 && (k->kinds != 0) != only_kinds) /* [service]: a kind's rows, or the section's */
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", first ? "" : ", ", k->takes ? k->takes : k->name);
        used += n > 0 ? (size_t)n : 0;
        first = 0;
    }
}

char *scn_keys_takes(const scn_ctx *c, char *buf, size_t len)
{
    const char *what = c->kind_name ? c->kind_name : "?";
    switch (c->sec->type) {
    case SCN_SEC_SERVICE: {
        /* the distribution's own keys, then the section's (workers) */
        snprintf(buf, len, "distribution %s takes ", what);
        append_keys(c->sec->type, c->kind, 1, buf, len);
        size_t used = strlen(buf);
        if (used < len)
            snprintf(buf + used, len - used, "; [service] also takes ");
        append_keys(c->sec->type, c->kind, 0, buf, len);
        return buf;
    }
    case SCN_SEC_STALL:
        snprintf(buf, len, "a %s stall takes ", what);
        break;
    case SCN_SEC_TESTER:
        snprintf(buf, len, "%s %s tester takes ", strchr("aeiou", what[0]) ? "an" : "a", what);
        break;
    case SCN_SEC_EXPECT: {
        char names[256];
        snprintf(buf, len, "[expect NAME] takes %s and percentiles such as p99.9",
                 names_join(scn_expect_metric_names, ", ", names, sizeof names));
        return buf;
    }
    default:
        snprintf(buf, len, "[%s] takes ", names_get(scn_ini_section_names, c->sec->type));
    }
    append_keys(c->sec->type, c->kind, -1, buf, len);
    return buf;
}

int scn_keys_check_unused(scn_ctx *c)
{
    for (size_t i = c->sec->first; i != SCN_NONE; i = c->p->e[i].next) {
        scn_ini_entry *e = &c->p->e[i];
        if (e->used || e->removed)
            continue;
        char w[SCENARIO_PATH_MAX + 64], takes[512];
        /* a near miss of any key of this kind, those the takes list leaves
         * out included ('pipelin', 'stager'), is named; not a key of
         * another kind ('late' in a closed tester is no typo of 'label') */
        int other_kind = 0;
        for (size_t r = 0; r < scn_keys_n; r++)
            other_kind |= scn_keys[r].section == c->sec->type && strcmp(scn_keys[r].name, e->key) == 0;
        for (size_t r = 0; r < scn_keys_n && !other_kind; r++) {
            const scn_key *k = &scn_keys[r];
            if (k->section != c->sec->type || !row_has_kind(k, c->kind) || scn_keys_edit_distance(e->key, k->name) > 2)
                continue;
            scn_ini_fail(c->p, "%s: [%s] unknown key '%s'; did you mean '%s'?", scn_keys_where(c, e, w, sizeof w),
                         c->p->sec[e->sec].name, e->key, k->name);
            return -1;
        }
        scn_ini_fail(c->p, "%s: [%s] unknown key '%s'; %s", scn_keys_where(c, e, w, sizeof w),
                     c->p->sec[e->sec].name, e->key, scn_keys_takes(c, takes, sizeof takes));
        return -1;
    }
    return 0;
}

/* ---- the listing --------------------------------------------------------- */

/* The kinds of a row: "paced,corrected" (empty: every kind). */
static char *kinds_text(const scn_key *k, char *buf, size_t len)
{
    const names_table *t = k->section == SCN_SEC_TESTER  ? &tester_kind_names
                         : k->section == SCN_SEC_STALL   ? &stall_kind_names
                         : k->section == SCN_SEC_SERVICE ? &dist_kind_names
                                                         : NULL;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; t && k->kinds && i < 32 && used < len; i++) {
        if (!(k->kinds >> i & 1u))
            continue;
        const char *name = k->section == SCN_SEC_STALL && i >= SCN_KIND_FILE ? names_get(scn_stall_forms, i - SCN_KIND_FILE)
                                                                              : names_get(*t, i);
        int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", name);
        used += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

/* The type of a row with its limits: "duration > 0", "count 1..1000000",
 * "from_now|next_slot|catch_up". */
static char *type_text(const scn_key *k, char *buf, size_t len)
{
    static const char *const words[] = {
        [SCN_T_DURATION] = "duration", [SCN_T_RATE] = "rate",         [SCN_T_COUNT] = "count",
        [SCN_T_NUMBER] = "number",     [SCN_T_CHOICE] = "choice",     [SCN_T_TEXT] = "text",
        [SCN_T_NAME] = "name",         [SCN_T_FILE] = "file",         [SCN_T_WINDOW] = "window",
        [SCN_T_WINDOWS] = "windows",   [SCN_T_REQUESTS] = "requests", [SCN_T_DISTRIBUTION] = "distribution",
        [SCN_T_TESTER] = "tester",     [SCN_T_GENERATOR] = "generator", [SCN_T_FIGURE] = "figure",
    };
    if (k->type == SCN_T_CHOICE)
        return choices_text(k, "|", buf, len);
    if (k->type == SCN_T_DURATION)
        snprintf(buf, len, "duration%s", k->lo_u ? " > 0" : "");
    else if (k->type == SCN_T_COUNT)
        snprintf(buf, len, "count %llu..%llu", (unsigned long long)k->lo_u, (unsigned long long)k->hi_u);
    else if (k->type == SCN_T_NUMBER) {
        char lo[48], hi[48];
        snprintf(buf, len, "number %s..%s", units_format_number(k->lo_d, lo, sizeof lo),
                 units_format_number(k->hi_d, hi, sizeof hi));
    } else {
        snprintf(buf, len, "%s", words[k->type]);
    }
    return buf;
}

/* [expect NAME]'s rows: one per figure of expect.c's table, and pN. */
static int list_figures(FILE *f, const scn_key *k)
{
    int rc = 0;
    for (size_t m = 0; m < scn_expect_metric_names.n; m++)
        if (fprintf(f, "expect\t\t%s\t%s\t%s\t%s\t%s\n", scn_expect_metric_names.names[m],
                    scn_expect_metric_is_duration((expect_metric)m) ? "duration" : "count", k->def_text,
                    scn_expect_metric_is_duration((expect_metric)m) ? "1.87ms +- 3%" : "18000 +- 1%", k->doc) < 0)
            rc = -EIO;
    if (fprintf(f, "expect\t\tpN\tduration\t%s\t1.87ms +- 3%%\t%s (the percentile N: p50, p99.9)\n", k->def_text,
                k->doc) < 0)
        rc = -EIO;
    return rc;
}

int scn_keys_list(FILE *f)
{
    int rc = 0;
    if (fprintf(f, "# section\tkinds\tkey\ttype\tdefault\texample\tmeaning\n") < 0)
        rc = -EIO;
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        char kinds[256], type[256], def[128];
        if (k->type == SCN_T_FIGURE) {
            if (list_figures(f, k))
                rc = -EIO;
            continue;
        }
        if (fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", names_get(scn_ini_section_names, k->section),
                    kinds_text(k, kinds, sizeof kinds), k->name, type_text(k, type, sizeof type),
                    scn_keys_default_text(k, def, sizeof def), k->example, k->doc) < 0)
            rc = -EIO;
    }
    if (fflush(f) != 0)
        rc = -EIO;
    return rc;
}
