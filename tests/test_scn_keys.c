/* Tests of the key table (scn_keys.def): its getters' limits, its "takes"
 * messages, and the --list-keys listing held against
 * docs/scenario-format.md, so that the docs cannot drift from the code. */
#include "dist.h"
#include "scn_expect.h"
#include "hist.h"
#include "scenario.h"
#include "scn_keys.h"
#include "scn_stall.h"
#include "stall.h"
#include "tester.h"
#include "units.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

/* ---- the docs, cut into sections and table rows ---------------------------- */

static char *docs;

static void load_docs(void)
{
    const char *root = getenv("COSIM_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/scenario-format.md", root ? root : ".");
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    docs = calloc(1, 1 << 20);
    size_t n = fread(docs, 1, (1 << 20) - 1, f);
    docs[n] = '\0';
    fclose(f);
}

/* The text of "## [WORD..." up to the next "## " (a copy). */
static char *docs_section(const char *word)
{
    char head[64];
    snprintf(head, sizeof head, "\n## [%s", word);
    const char *a = strstr(docs, head);
    ck_assert_msg(a != NULL, "docs/scenario-format.md has no section ## [%s", word);
    a += 1;
    const char *b = strstr(a, "\n## ");
    size_t n = b ? (size_t)(b - a) : strlen(a);
    char *s = malloc(n + 1);
    memcpy(s, a, n);
    s[n] = '\0';
    return s;
}

/* The table row of section text whose first cell is `first` (a copy
 * without backticks), or NULL. */
static char *docs_row(const char *text, const char *first)
{
    char head[128];
    snprintf(head, sizeof head, "\n| `%s` |", first);
    const char *a = strstr(text, head);
    if (!a)
        return NULL;
    a += 1;
    const char *b = strchr(a, '\n');
    size_t n = b ? (size_t)(b - a) : strlen(a);
    char *s = malloc(n + 1), *o = s;
    for (size_t i = 0; i < n; i++)
        if (a[i] != '`')
            *o++ = a[i];
    *o = '\0';
    return s;
}

/* The last cell of a row ("| a | b | c |" gives "c"), trimmed, in place. */
static char *last_cell(char *row)
{
    char *end = row + strlen(row);
    while (end > row && (end[-1] == '|' || end[-1] == ' '))
        *--end = '\0';
    char *bar = strrchr(row, '|');
    char *s = bar ? bar + 1 : row;
    while (*s == ' ')
        s++;
    return s;
}

static const names_table *kinds_of(int section)
{
    return section == SCN_SEC_TESTER ? &tester_kind_names : section == SCN_SEC_STALL ? &stall_kind_names
                                                                                     : &dist_kind_names;
}

static int row_has_kind(const scn_key *k, int kind)
{
    return k->kinds == 0 || kind < 0 || (k->kinds >> kind & 1u);
}

/* ---- the listing ---------------------------------------------------------- */

START_TEST(listing_has_every_row)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(scenario_list_keys(f), 0);
    fclose(f);
    ck_assert(strncmp(buf, "# section\tkinds\tkey\ttype\tdefault\texample\tmeaning\n", 49) == 0);
    ck_assert_ptr_nonnull(strstr(buf, "\nscenario\t\tduration\tduration > 0\trequired\t100s\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\nscenario\t\tsub_bucket_bits\tcount 1..20\t8\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\ntester\tpaced,corrected\tlate\tfrom_now|next_slot|catch_up|ticker\tnext_slot\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\nstall\t\tkind\tperiodic|windows|requests|random|file|gc_log\trequired\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\nservice\tlognormal\tsigma\tnumber 0..10\trequired\t0.2\t"));
    /* limits in the grammar the reader takes (no exponent: not 1e-06..1e+06) */
    ck_assert_ptr_nonnull(strstr(buf, "\tgamma\tshape\tnumber 0.000001..1000000\trequired\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\nexpect\t\tover_threshold\tcount\tnot checked\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\nexpect\t\tpN\tduration\t"));
    /* one line per row, the figure row as 8 figures and pN, and the header */
    size_t lines = 0;
    for (const char *q = buf; *q; q++)
        lines += *q == '\n';
    ck_assert_uint_eq(lines, 1 + (scn_keys_n - 1) + 13);
    free(buf);
}
END_TEST

/* A scenario read from text (which must load). */
static scenario *load_text(const char *text)
{
    char err[1024];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    scenario *s = NULL;
    scenario_error rc = scenario_load_stream(&s, f, "t.ini", NULL, 0, err, sizeof err);
    fclose(f);
    ck_assert_msg(rc == SCENARIO_OK, "%s", err);
    return s;
}

/* Whether row k's field in base holds the row's default value. */
static int field_is_default(const scn_key *k, const void *base)
{
    const char *field = (const char *)base + k->off;
    switch (k->ftype) {
    case SCN_F_I64:
        return *(const int64_t *)(const void *)field == k->def_i;
    case SCN_F_U64:
        return *(const uint64_t *)(const void *)field == (uint64_t)k->def_i;
    case SCN_F_UNSIGNED:
        return *(const unsigned *)(const void *)field == (unsigned)k->def_i;
    case SCN_F_INT:
        return *(const int *)(const void *)field == (int)k->def_i;
    case SCN_F_DOUBLE:
        return *(const double *)(const void *)field == k->def_d;
    case SCN_F_CHARS:
        return strcmp(field, k->def_text) == 0;
    case SCN_F_NONE:
        break;
    }
    return 0;
}

/* Every row of struct in with a default value: the field of base, read
 * from a scenario that does not give the key, holds it. @return rows checked */
static size_t check_defaults_in(scn_key_in in, int section, int kind, const void *base)
{
    size_t n = 0;
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        if (k->in != in || !k->has_value || (section >= 0 && k->section != section) || !row_has_kind(k, kind))
            continue;
        char text[128];
        ck_assert_msg(field_is_default(k, base), "[%s] %s: the reader's default is not the row's (%s)",
                      names_get(scn_ini_section_names, k->section), k->name,
                      scn_keys_default_text(k, text, sizeof text));
        n++;
    }
    return n;
}

START_TEST(defaults_are_the_rows)
{
    /* what a scenario giving none of the keys holds is each row's value:
     * the rows set the defaults (scn_keys_set_defaults) and no reader
     * changes a key it was not given */
    scenario *s = load_text("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"
                            "[tester c]\nkind = closed\n");
    ck_assert_uint_ge(check_defaults_in(SCN_IN_SCENARIO, -1, -1, s), 9);
    /* the values as the docs know them (docs/scenario-format.md, [scenario]):
     * the listing prints them from the rows' values */
    ck_assert_int_eq(s->threshold_ns, 100000000);
    ck_assert_uint_eq(s->sub_bits, 8);
    ck_assert_uint_eq(s->max_requests, 1000000000);
    ck_assert_uint_eq(s->seed, 1);
    ck_assert_str_eq(s->generator, "mt19937");
    ck_assert_uint_eq(s->workers, 1);
    ck_assert_int_eq(s->rank_rule, HIST_NEAREST_RANK);
    scenario_free(s);
    /* [stall NAME]: first and preemption */
    s = load_text("[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"
                  "[stall p]\nkind = periodic\nlength = 1ms\nperiod = 10ms\n[tester c]\nkind = closed\n");
    ck_assert_uint_eq(check_defaults_in(SCN_IN_STALL, SCN_SEC_STALL, STALL_PERIODIC, &s->stalls[0]), 2);
    ck_assert_int_eq(s->stalls[0].first_ns, 0);
    ck_assert_int_eq(s->stalls[0].preemption, STALL_PREEMPT_RESUME);
    scenario_free(s);
    /* [tester NAME]: each kind with only its required keys (the rows'
     * examples; rate, not its hidden alternative interval) holds every
     * default of its rows (users 1, late next_slot, batch 1, ...) */
    size_t rows = 0;
    for (int kind = 0; kind < TESTER_N_KINDS; kind++) {
        char text[1024];
        int n = snprintf(text, sizeof text,
                         "[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"
                         "[tester t]\nkind = %s\n", tester_kind_name((tester_kind)kind));
        for (size_t i = 0; i < scn_keys_n; i++) {
            const scn_key *k = &scn_keys[i];
            if (k->section == SCN_SEC_TESTER && k->kinds && row_has_kind(k, kind) && k->required &&
                !(k->takes && !*k->takes))
                n += snprintf(text + n, sizeof text - (size_t)n, "%s = %s\n", k->name, k->example);
        }
        ck_assert_int_lt(n, (int)sizeof text);
        s = load_text(text);
        rows += check_defaults_in(SCN_IN_TESTER, SCN_SEC_TESTER, kind, &s->testers[0]);
        scenario_free(s);
    }
    ck_assert_uint_ge(rows, 40);
    char buf[128];
    ck_assert_str_eq(scn_keys_default_text(scn_keys_find(SCN_SEC_SCENARIO, -1, "threshold"), buf, sizeof buf),
                     "100ms");
    ck_assert_str_eq(scn_keys_default_text(scn_keys_find(SCN_SEC_SCENARIO, -1, "rank_rule"), buf, sizeof buf),
                     "nearest_rank");
    ck_assert_str_eq(scn_keys_default_text(scn_keys_find(SCN_SEC_SCENARIO, -1, "hlog_interval"), buf, sizeof buf),
                     "none");
    ck_assert_str_eq(scn_keys_default_text(scn_keys_find(SCN_SEC_SCENARIO, -1, "duration"), buf, sizeof buf),
                     "required");
    /* where a row's value goes: a field, a hook, or its section's code */
    ck_assert_int_eq(scn_keys_find(SCN_SEC_SCENARIO, -1, "seed")->in, SCN_IN_SCENARIO);
    ck_assert_str_eq(scn_keys_find(SCN_SEC_SCENARIO, -1, "chart_window")->hook_name, "scn_sections_chart_window");
    ck_assert(scn_keys_find(SCN_SEC_TESTER, TESTER_PACED, "late")->by_code);
    ck_assert(!scn_keys_find(SCN_SEC_TESTER, TESTER_PACED, "warmup")->by_code);
    ck_assert_int_eq(scn_keys_find(SCN_SEC_TESTER, TESTER_PACED, "kind")->in, SCN_IN_NONE);
    /* a value printed for the docs reads back as the value */
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        if (!k->has_value || k->def_text)
            continue;
        int64_t ns;
        uint64_t n;
        const char *why;
        scn_keys_default_text(k, buf, sizeof buf);
        if (k->type == SCN_T_DURATION) {
            ck_assert_int_eq(units_parse_duration(buf, &ns, &why), 0);
            ck_assert_int_eq(ns, k->def_i);
        } else if (k->type == SCN_T_COUNT) {
            ck_assert_int_eq(units_parse_count(buf, UINT64_MAX, &n, &why), 0);
            ck_assert_uint_eq(n, (uint64_t)k->def_i);
            ck_assert_uint_ge(n, k->lo_u);
            ck_assert_uint_le(n, k->hi_u);
        } else if (k->type == SCN_T_CHOICE) {
            ck_assert_int_eq(names_find(*k->choices, buf), (int)k->def_i);
        }
    }
    /* rows of one field agree on its default; a narrow field's row cannot
     * pass a value it does not hold; a field's row has a value or is
     * required (or a hook that works the default out) */
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *a = &scn_keys[i];
        if (a->ftype == SCN_F_UNSIGNED)
            ck_assert_uint_le(a->hi_u, UINT32_MAX);
        if (a->ftype != SCN_F_NONE)
            ck_assert_msg(a->has_value || a->required || a->hook, "%s: a field and no default", a->name);
        for (size_t j = i + 1; j < scn_keys_n && a->has_value; j++) {
            const scn_key *b = &scn_keys[j];
            if (b->in == a->in && b->off == a->off && b->ftype != SCN_F_NONE && b->has_value)
                ck_assert_msg(b->def_i == a->def_i && b->def_d == a->def_d, "%s and %s: one field, two defaults",
                              a->name, b->name);
        }
    }
    /* every row has an example and a line of doc */
    for (size_t i = 0; i < scn_keys_n; i++)
        ck_assert(scn_keys[i].example && *scn_keys[i].example && scn_keys[i].doc && *scn_keys[i].doc);
}
END_TEST

START_TEST(choice_defaults_are_the_first_word)
{
    /* a choice's default is the enum's value 0, which a zeroed spec holds;
     * but late, whose default the reader sets (next_slot, the book's) */
    char buf[128];
    const scn_key *k = scn_keys_find(SCN_SEC_TESTER, TESTER_PACED, "late");
    ck_assert_str_eq(scn_keys_default_text(k, buf, sizeof buf), tester_late_name(TESTER_LATE_NEXT_SLOT));
    for (size_t i = 0; i < scn_keys_n; i++)
        if (scn_keys[i].type == SCN_T_CHOICE && !scn_keys[i].required && &scn_keys[i] != k)
            ck_assert_str_eq(scn_keys_default_text(&scn_keys[i], buf, sizeof buf), scn_keys[i].choices->names[0]);
}
END_TEST

START_TEST(rows_are_found_by_kind)
{
    ck_assert_ptr_null(scn_keys_find(SCN_SEC_TESTER, TESTER_CLOSED, "rate"));
    ck_assert_str_eq(scn_keys_find(SCN_SEC_TESTER, TESTER_OPEN, "rate")->takes, "rate or interval");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_TESTER, TESTER_PARTLY_OPEN, "rate")->takes,
                     "rate or interval (of session arrivals)");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_SERVICE, DIST_GAMMA, "shape")->example, "2");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_SERVICE, DIST_PARETO, "shape")->example, "1.5");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_STALL, SCN_KIND_FILE, "file")->example, "pauses.csv");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_SERVICE, DIST_EMPIRICAL, "file")->example, "service_times.txt");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_STALL, SCN_KIND_GC_LOG, "file")->example, "gc.log");
    ck_assert_str_eq(scn_keys_find(SCN_SEC_SERVICE, DIST_HISTOGRAM, "file")->example, "latency.hgrm");
    ck_assert_ptr_null(scn_keys_find(SCN_SEC_STALL, SCN_KIND_FILE, "min_pause"));
    ck_assert_uint_eq(scn_keys_find(SCN_SEC_TESTER, TESTER_PACED, "users")->hi_u, 1000000);
    ck_assert_uint_eq(scn_keys_find(SCN_SEC_SERVICE, DIST_NORMAL, "mean")->lo_u, 1);
    ck_assert_uint_eq(scn_keys_find(SCN_SEC_SERVICE, DIST_NORMAL, "stddev")->lo_u, 0);
}
END_TEST

/* A scenario's message for text (load fails); the caller frees nothing. */
static const char *message(const char *text)
{
    static char err[1024];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    scenario *s = NULL;
    ck_assert_int_eq(scenario_load_stream(&s, f, "t.ini", NULL, 0, err, sizeof err), SCENARIO_EINVALID);
    fclose(f);
    return err;
}

#define BASE "[scenario]\nduration = 1s\n[service]\ndistribution = constant\ntime = 1ms\n"

START_TEST(takes_messages_come_from_the_table)
{
    ck_assert_str_eq(message(BASE "[tester c]\nkind = closed\nrate = 1/s\n"),
                     "t.ini:8: [tester c] unknown key 'rate'; a closed tester takes kind, profile, users, connections, "
                     "think_distribution (and think_time, think_mean, ... as for [service]), label, chart");
    ck_assert_str_eq(message(BASE "[tester k]\nkind = corrected\nrate = 1/s\nlate = from_now\nx = 1\n"),
                     "t.ini:10: [tester k] unknown key 'x'; a corrected tester takes kind, profile, rate or interval, users, "
                     "connections, late, correction, expected_interval, label, chart");
    ck_assert_str_eq(message("[scenario]\nduration = 1s\nx = 1\n"),
                     "t.ini:3: [scenario] unknown key 'x'; [scenario] takes name, title, duration, seed, rank_rule, "
                     "threshold, in_flight_at_end, sub_bucket_bits, generator, max_requests, chart_window, queue_wait, hlog_interval");
    ck_assert_str_eq(message("[scenario]\nduration = 1s\n[service]\ndistribution = normal\nmean = 1ms\n"
                             "stddev = 1ms\ntime = 1ms\n"),
                     "t.ini:7: [service] unknown key 'time'; distribution normal takes mean, stddev; [service] also takes "
                     "workers");
    ck_assert_str_eq(message(BASE "[stall s]\nkind = random\nevery = 1s\nlength_distribution = constant\n"
                                  "length_time = 1ms\nlength = 1ms\n"),
                     "t.ini:11: [stall s] unknown key 'length'; a random stall takes kind, every, "
                     "length_distribution and its length_ parameters (e.g. length_mean), preemption");
    ck_assert_str_eq(message(BASE "[tester o]\nkind = open\nrate = 1/s\n[expect o]\nx = 1\n"),
                     "t.ini:10: [expect o] unknown key 'x'; [expect NAME] takes planned, sent, recorded, "
                     "in_flight_at_end, over_threshold, dropped_arrivals, timeouts, warmup_skipped, added, min, mean, max and percentiles such as p99.9");
    /* the getters' limits and examples */
    ck_assert_str_eq(message(BASE "[tester c]\nkind = closed\nusers = 1000001\n"),
                     "t.ini:8: [tester c] users = 1000001: must be between 1 and 1000000");
    ck_assert_str_eq(message(BASE "[tester p]\nkind = paced\n"),
                     "t.ini:6: [tester p] a paced tester needs 'rate' (e.g. rate = 1000/s) or 'interval' (e.g. "
                     "interval = 1ms)");
    ck_assert_str_eq(message(BASE "[tester c]\nkind = closed\nthink_distribution = gamma\nthink_mean = 1ms\n"),
                     "t.ini:6: [tester c] needs key 'think_shape' (e.g. think_shape = 2)");
    ck_assert_str_eq(message(BASE "[stall s]\nkind = bursts\n"),
                     "t.ini:7: [stall s] kind = bursts: expected one of: periodic, windows, requests, random, file, gc_log");
}
END_TEST

/* ---- the docs --------------------------------------------------------------- */

/* [scenario] and [truth]: a table "| key | meaning | default |". */
static void check_key_table(int section, const char *word)
{
    char *text = docs_section(word);
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        if (k->section != section)
            continue;
        char *row = docs_row(text, k->name);
        ck_assert_msg(row != NULL, "docs: [%s] has no row for %s", word, k->name);
        char defbuf[128];
        const char *def = scn_keys_default_text(k, defbuf, sizeof defbuf);
        const char *cell = last_cell(row);
        ck_assert_msg(strncmp(cell, def, strlen(def)) == 0, "docs: [%s] %s: default '%s', the table says '%s'",
                      word, k->name, cell, def);
        free(row);
    }
    /* no key of the docs is missing from the table */
    for (const char *q = strstr(text, "\n| `"); q; q = strstr(q + 1, "\n| `")) {
        char key[64];
        ck_assert(sscanf(q, "\n| `%63[a-z_]`", key) == 1);
        ck_assert_msg(scn_keys_find(section, -1, key) != NULL, "docs: [%s] %s is not a key of the table", word, key);
    }
    free(text);
}

/* Whether word is something the kind's row of the docs may name: a key of
 * the kind, a choice of one, a kind, or a distribution's prefixed key. */
static int known_word(int section, int kind, const char *word)
{
    const names_table *kinds = kinds_of(section);
    if (names_find(*kinds, word) >= 0 || (section == SCN_SEC_STALL && names_find(scn_stall_forms, word) >= 0))
        return 1;
    for (size_t i = 0; i < scn_keys_n; i++) {
        const scn_key *k = &scn_keys[i];
        if (k->section != section || !row_has_kind(k, kind))
            continue;
        if (strcmp(k->name, word) == 0 || (k->choices && names_find(*k->choices, word) >= 0))
            return 1;
        if (k->type == SCN_T_DISTRIBUTION) { /* think_ or think_mean */
            size_t n = strlen(k->name) - strlen("distribution");
            if (strncmp(word, k->name, n) == 0 && (!word[n] || scn_keys_find(SCN_SEC_SERVICE, -1, word + n)))
                return 1;
        }
    }
    return 0;
}

/* The section's first table only (a copy): the one of its kinds. */
static char *first_table(const char *word)
{
    char *text = docs_section(word);
    char *t = strstr(text, "\n|");
    ck_assert_ptr_nonnull(t);
    char *end = strstr(t, "\n\n");
    if (end)
        end[1] = '\0';
    return text;
}

/* [service], [stall NAME], [tester NAME]: a table "| kind | keys |". */
static void check_kind_table(int section, const char *word)
{
    char *text = first_table(word);
    const names_table *kinds = kinds_of(section);
    int forms = section == SCN_SEC_STALL ? (int)scn_stall_forms.n : 0;
    for (int kind = 0; kind < (int)kinds->n + forms; kind++) {
        const char *name = kind < (int)kinds->n ? kinds->names[kind] : scn_stall_forms.names[kind - (int)kinds->n];
        int rk = kind < (int)kinds->n ? kind : SCN_KIND_FILE + (kind - (int)kinds->n);
        char *row = docs_row(text, name);
        ck_assert_msg(row != NULL, "docs: [%s] has no row for the kind %s", word, name);
        char *as = strstr(row, "| as ");
        char *base = NULL;
        if (as) { /* "as paced": the keys of that row too */
            char other[32];
            ck_assert(sscanf(as, "| as %31[a-z_]", other) == 1);
            base = docs_row(text, other);
        }
        for (size_t i = 0; i < scn_keys_n; i++) {
            const scn_key *k = &scn_keys[i];
            if (k->section != section || !row_has_kind(k, rk) || k->kinds == 0)
                continue;
            char key[80];
            snprintf(key, sizeof key, "%s", k->name);
            int found = strstr(row, key) || (base && strstr(base, key));
            ck_assert_msg(found, "docs: [%s] the row of %s does not name %s", word, name, k->name);
            char def[128];
            scn_keys_default_text(k, def, sizeof def);
            if (!k->required)
                ck_assert_msg(strstr(row, def) || (base && strstr(base, def)),
                              "docs: [%s] the row of %s does not give %s's default '%s'", word, name, k->name,
                              def);
        }
        free(row);
        free(base);
    }
    free(text);
}

/* Every `word` in a kind's row of the docs (before stripping) is known. */
static void check_kind_words(int section, const char *word)
{
    char *text = first_table(word);
    const names_table *kinds = kinds_of(section);
    for (const char *q = strstr(text, "\n| `"); q; q = strstr(q + 1, "\n| `")) {
        char kname[64];
        ck_assert(sscanf(q, "\n| `%63[a-z_]`", kname) == 1);
        int kind = names_find(*kinds, kname);
        if (kind < 0 && section == SCN_SEC_STALL && names_find(scn_stall_forms, kname) >= 0)
            kind = SCN_KIND_FILE + names_find(scn_stall_forms, kname);
        ck_assert_msg(kind >= 0, "docs: [%s] %s is not a kind", word, kname);
        const char *end = strchr(q + 1, '\n');
        const char *cells = strchr(q + 4, '`') + 1; /* after the kind's closing backtick */
        for (const char *b = strchr(cells, '`'); b && b < end; b = strchr(b + 1, '`')) {
            const char *e = strchr(b + 1, '`');
            if (!e || e > end)
                break;
            char tok[128];
            snprintf(tok, sizeof tok, "%.*s", (int)(e - b - 1), b + 1);
            char *eq = strstr(tok, " = ");
            if (eq)
                *eq = '\0';
            int plain = tok[0] && strspn(tok, "abcdefghijklmnopqrstuvwxyz_") == strlen(tok);
            const char *as = strstr(q, "| as ");
            int in_as = as && as < end && b < as + 8; /* the kind named by "as" */
            int other = scn_keys_find(SCN_SEC_SCENARIO, -1, tok) != NULL; /* e.g. max_requests */
            ck_assert_msg(!plain || in_as || other || known_word(section, kind, tok) || known_word(section, -1, tok),
                          "docs: [%s] the row of %s names `%s`, which the key table does not know", word, kname,
                          tok);
            b = e;
        }
    }
    free(text);
}

START_TEST(docs_match_the_key_table)
{
    load_docs();
    check_key_table(SCN_SEC_SCENARIO, "scenario");
    check_key_table(SCN_SEC_TRUTH, "truth");
    check_kind_table(SCN_SEC_SERVICE, "service");
    check_kind_table(SCN_SEC_STALL, "stall");
    check_kind_table(SCN_SEC_TESTER, "tester");
    check_kind_words(SCN_SEC_SERVICE, "service");
    check_kind_words(SCN_SEC_STALL, "stall");
    check_kind_words(SCN_SEC_TESTER, "tester");
    /* [expect NAME] names every figure */
    char *text = docs_section("expect");
    for (size_t m = 0; m < scn_expect_metric_names.n; m++) {
        char tok[64];
        snprintf(tok, sizeof tok, "`%s`", scn_expect_metric_names.names[m]);
        ck_assert_msg(strstr(text, tok) != NULL, "docs: [expect NAME] does not name %s", tok);
    }
    free(text);
    free(docs);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("scn_keys");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, listing_has_every_row);
    tcase_add_test(tc, defaults_are_the_rows);
    tcase_add_test(tc, choice_defaults_are_the_first_word);
    tcase_add_test(tc, rows_are_found_by_kind);
    tcase_add_test(tc, takes_messages_come_from_the_table);
    tcase_add_test(tc, docs_match_the_key_table);
    suite_add_tcase(s, tc);
    return s;
}
