/* scn_keys.h - the key table of scenario files (scn_keys.def) and the
 * getters that read a section's keys by it.
 *
 * One row per key: section, kinds, name, type, limits, default, example,
 * takes-phrase and a line of doc. The getters take a key's limits and its
 * example from its row, check_unused builds the "X takes ..." message from
 * the rows of the section's kind, and scn_keys_list prints the listing of
 * `cosim --list-keys`. To add a key: add its row, then read it in its
 * section's interpreter (scn_*.c) with the getter of its type.
 *
 * Getters return 1 if the key was present and good, 0 if absent (the value
 * is left as it is: the documented default), -1 on error (message set:
 * "FILE:LINE: [section] key = value: reason").
 */
#ifndef COSIM_SCN_KEYS_H
#define COSIM_SCN_KEYS_H

#include "names.h"
#include "scenario.h"
#include "scn_ini.h"

#include <stdint.h>
#include <stdio.h>

/** How a key's value is read. */
typedef enum scn_key_type {
    SCN_T_DURATION = 0, /**< a duration with its unit, at least lo_u ns */
    SCN_T_RATE,         /**< a rate with its unit ("1000/s") */
    SCN_T_COUNT,        /**< a whole number in lo_u..hi_u */
    SCN_T_NUMBER,       /**< a number in lo_d..hi_d */
    SCN_T_CHOICE,       /**< a word of choices (or more) */
    SCN_T_TEXT,         /**< free text */
    SCN_T_NAME,         /**< letters, digits, '_', '-' */
    SCN_T_FILE,         /**< a data file, relative to the scenario's folder */
    SCN_T_WINDOW,       /**< START..END, durations */
    SCN_T_WINDOWS,      /**< START..END, ... */
    SCN_T_REQUESTS,     /**< request indices: 90, 95..99 */
    SCN_T_DISTRIBUTION, /**< a distribution with its prefixed parameters */
    SCN_T_TESTER,       /**< a tester's NAME, or none */
    SCN_T_GENERATOR,    /**< a GSL generator name */
    SCN_T_FIGURE,       /**< [expect]: a figure of expect.c's table or pN */
} scn_key_type;

/** The kind of a file stall ([stall] kind = file), after stall_kind's. */
#define SCN_KIND_FILE 16
/** The kind of a gc_log stall ([stall] kind = gc_log): SCN_KIND_FILE +
 *  SCN_STALL_FORM_GC_LOG. */
#define SCN_KIND_GC_LOG 17

/** The struct a row's field is in (DEST's STRUCT). */
typedef enum scn_key_in {
    SCN_IN_NONE = 0,  /**< no field: a hook or the section's code reads it */
    SCN_IN_SCENARIO,  /**< scenario */
    SCN_IN_DIST,      /**< dist_spec (the [service] distribution, or a
                           think_/length_ one) */
    SCN_IN_STALL,     /**< stall_spec */
    SCN_IN_TESTER,    /**< tester_spec */
} scn_key_in;

/** The C type of a row's field (DEST's FTYPE). */
typedef enum scn_key_ftype {
    SCN_F_NONE = 0,
    SCN_F_I64,      /**< int64_t: durations */
    SCN_F_U64,      /**< uint64_t: counts */
    SCN_F_UNSIGNED, /**< unsigned: a count with a narrow range */
    SCN_F_INT,      /**< int or an enum: a choice's index */
    SCN_F_DOUBLE,   /**< double: numbers */
    SCN_F_CHARS,    /**< a char array: text */
} scn_key_ftype;

struct scn_key;
struct scn_ctx;

/** A row's own reader (DEST's HOOK): reads the key from c's section into
 *  base (the row's struct, or the section's when the row has no field).
 *  @return 0, or -1 with the message given */
typedef int (*scn_key_hook)(struct scn_ctx *c, const struct scn_key *k, void *base);

/** One row of scn_keys.def. */
typedef struct scn_key {
    int section;         /**< scn_ini_section_type */
    uint32_t kinds;      /**< bit k: the key belongs to kind k; 0: to every kind */
    const char *name;
    scn_key_type type;
    uint64_t lo_u, hi_u; /**< durations (lo_u: 0 or 1 ns), counts */
    double lo_d, hi_d;   /**< numbers */
    const names_table *choices, *more; /**< choices: the module's name table
                                            (and more words of the scenario's) */
    scn_key_in in;       /**< the struct of its field, or SCN_IN_NONE */
    size_t off;          /**< the field's offset in it (offsetof) */
    scn_key_ftype ftype; /**< the field's C type */
    size_t fsize;        /**< the field's size (a char array's room) */
    int by_code;         /**< AT_CODE: the field is the section's code's to
                              read (in the order its checks need); the walk
                              of the rows skips it */
    scn_key_hook hook;   /**< its own reader, or NULL */
    const char *hook_name; /**< the hook's name, for the docs and tests */
    int required;        /**< no default: the section needs the key */
    int has_value;       /**< a default value (def_i, def_d or def_text) */
    int64_t def_i;       /**< the default of a duration (ns), count or choice (index) */
    double def_d;        /**< the default of a number */
    const char *def_text; /**< the default as the docs say it when it is
                               not printed from the value (a phrase, or a
                               text value); NULL: printed from the value */
    const char *example;
    const char *takes;   /**< NULL: the name; "": not named in "takes" */
    const char *doc;
} scn_key;

/** The table, in scn_keys.def's order, and its length. */
extern const scn_key scn_keys[];
extern const size_t scn_keys_n;

/** Where the interpreters are: the section read, and its kind. */
typedef struct scn_ctx {
    scn_ini *p;
    scenario *s;
    const scn_ini_section *sec;
    int kind;              /**< the section's kind (tester_kind, stall_kind or
                                SCN_KIND_FILE, dist_kind for [service]); -1
                                before it is known */
    const char *kind_name; /**< its word, for messages */
    const char *prefix;    /**< inside NAME_distribution: "think_" or
                                "length_" (the rows of [service] apply); else NULL */
    int dist_kind;         /**< with prefix: the distribution's kind */
    int64_t data_off;      /**< reading a data file: the byte offset of the
                                line given to the line function */
} scn_ctx;

/** The row of key in section with kind (kind < 0: any), or NULL. */
const scn_key *scn_keys_find(int section, int kind, const char *key);

/** "FILE:LINE" or "--set ARG" of an entry. @return buf */
const char *scn_keys_where(const scn_ctx *c, const scn_ini_entry *e, char *buf, size_t len);

/** "WHERE: [section] key = value: why" (a long value cut at 60, with
 *  "..."; a hint when a '#' comment follows the value). */
void scn_keys_bad_value(scn_ctx *c, const scn_ini_entry *e, const char *why);

/**
 * Check that no item of e's comma-separated value is empty or blank
 * ("a,,b", a comma at the start or end): the list readers split with
 * strtok_r, which would skip such an item silently.
 * @return 0, or -1 with "item N of the list is empty" given.
 */
int scn_keys_check_list(scn_ctx *c, const scn_ini_entry *e);

/** "WHERE: [section] MESSAGE" at the section's header. */
void scn_keys_section_fail(scn_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The entry key of the section (prefixed inside a distribution), marked
 *  used; NULL if absent. */
scn_ini_entry *scn_keys_get(scn_ctx *c, const char *key);

/** Whether the section has key (not marking it used). */
int scn_keys_has(scn_ctx *c, const char *key);

/** The edit distance (Levenshtein) of two short words; 99 when either has
 *  63 bytes or more. */
size_t scn_keys_edit_distance(const char *a, const char *b);

/** A required key is missing: if the section has an unknown key within 2
 *  edits of it, report that typo at its own line. @return 1 if reported */
int scn_keys_report_typo(scn_ctx *c, const char *key);

/** 1 if the required key is present; else 0, with the message "needs key
 *  'K' (e.g. K = EXAMPLE)" (or the typo that stands for it). */
int scn_keys_need(scn_ctx *c, const char *key);

/** A duration in ns, at least its row's lo_u ("must be above zero"). */
int scn_keys_duration(scn_ctx *c, const char *key, int64_t *out_ns);

/** A number within its row's lo_d..hi_d. */
int scn_keys_number(scn_ctx *c, const char *key, double *out);

/** A whole number within its row's lo_u..hi_u. */
int scn_keys_count(scn_ctx *c, const char *key, uint64_t *out);

/**
 * A word of the row's choices: *out receives its index in the row's
 * module table (an enum value), or, with *more set to 1, its index in the
 * row's more table. A wrong word: "expected one of: a, b, c".
 * @param more  may be NULL when the row has no more table
 */
int scn_keys_choice(scn_ctx *c, const char *key, int *out, int *more);

/**
 * Read row k's key from c's section into its field of base (k->in's
 * struct) by the row's type and limits: a duration (int64_t ns), a count
 * (uint64_t or unsigned), a number (double), a choice (its index into an
 * int or enum field), a text (copied into a char array that holds it). A
 * required row's key is asked for first ("needs key ...").
 * @param base  the row's struct (a scenario, dist_spec, stall_spec or
 *              tester_spec)
 * @return 1 if the key was present and good, 0 if absent (the field keeps
 *         its default), -1 on error (message set)
 */
int scn_keys_read_field(scn_ctx *c, const scn_key *k, void *base);

/**
 * Read the keys of c's section (of [service] inside a distribution) for
 * its kind whose rows put them in struct in, in table order: each row's
 * hook if it has one, else scn_keys_read_field (an AT_CODE row is left to
 * the section's code).
 * @param base  the struct in: the scenario, or the section's spec
 * @return 0, or -1 with the message given
 */
int scn_keys_read_rows(scn_ctx *c, scn_key_in in, void *base);

/**
 * Set the default of every row of section for kind (-1: any kind) whose field is in
 * struct in and whose default is a value: the one place defaults are
 * written. Rows of one field agree on it (a test holds them). section -1:
 * every section's rows of that struct.
 */
void scn_keys_set_defaults(int section, int kind, scn_key_in in, void *base);

/** A row's default as `cosim --list-keys` and docs/scenario-format.md give
 *  it: "required", its phrase, or its value printed ("100ms", "1",
 *  "nearest_rank"). @return buf */
const char *scn_keys_default_text(const scn_key *k, char *buf, size_t len);

/** Write "... takes K1, K2, ..." for the section's kind (the rows' takes
 *  phrases, in table order) to buf. @return buf */
char *scn_keys_takes(const scn_ctx *c, char *buf, size_t len);

/** Refuse the first key of the section that nothing asked for: "unknown key
 *  'K'; ... takes ...". @return 0 or -1 */
int scn_keys_check_unused(scn_ctx *c);

/**
 * Print every key, one a line, tab-separated: section, kinds (empty: every
 * kind), key, type (with limits or choices), default ("required" if none),
 * example, meaning; a first line names the columns. [expect NAME]'s figures
 * come from expect.c's table. This is `cosim --list-keys`.
 * @return 0, or -EIO if writing failed.
 */
int scn_keys_list(FILE *f);

#endif
