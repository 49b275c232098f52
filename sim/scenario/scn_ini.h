/* scn_ini.h - the raw entries of a scenario file, each with its line, and
 * the --set overrides (the first two phases of reading a scenario).
 *
 * Phase 1 reads the INI file with libinih, one line per call, and keeps
 * every section and key with the line it came from; it refuses what inih
 * would cut or misread (binary bytes, over-long lines and keys, invalid
 * UTF-8, a header without its ']', a key given twice, a section given
 * twice, unknown section types, bad NAMEs, the limits of scenario.h).
 * Phase 2 applies "--set SECTION.KEY=VALUE": it replaces, adds or (with an
 * empty VALUE) removes a key. Finding a section or a key costs O(1) (hash
 * tables), so reading stays linear in the size of the file.
 *
 * Internal to the scenario reader (scenario.c and the scn_*.c modules).
 * Messages name FILE:LINE or the --set argument; the first one is kept.
 */
#ifndef COSIM_SCN_INI_H
#define COSIM_SCN_INI_H

#include "names.h"
#include "scenario.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The types of section. */
typedef enum scn_ini_section_type {
    SCN_SEC_SCENARIO = 0,
    SCN_SEC_SERVICE,
    SCN_SEC_STALL,
    SCN_SEC_TESTER,
    SCN_SEC_EXPECT,
    SCN_SEC_TRUTH,
} scn_ini_section_type;
/** How many section types there are. */
#define SCN_SEC_COUNT ((int)SCN_SEC_TRUTH + 1)

/** Their words ("scenario", "service", ...), indexed by the type. */
extern const names_table scn_ini_section_names;

/** No entry (the end of a section's list). */
#define SCN_NONE ((size_t)-1)

/** One key = value. */
typedef struct scn_ini_entry {
    size_t sec;       /**< its section (index into scn_ini.sec) */
    char *key, *value;
    int line;         /**< 0 when it came from --set */
    const char *set;  /**< the --set argument, or NULL */
    int used;         /**< an interpreter asked for it */
    int removed;      /**< "--set KEY=" removed it */
    size_t next;      /**< the next entry of its section, or SCN_NONE */
    uint64_t hash;
} scn_ini_entry;

/** One [section]. */
typedef struct scn_ini_section {
    char *name;       /**< canonical: blanks trimmed, inner runs of blanks one space */
    int line;         /**< 0 when created by --set */
    const char *set;
    int type;         /**< scn_ini_section_type */
    const char *arg;  /**< the NAME part of name ("" if none) */
    size_t first, last; /**< its entries in order, linked by entry.next */
    uint64_t hash;
} scn_ini_section;

/** An open-addressing hash table of indices (slot: index + 1, 0 empty). */
typedef struct scn_ini_index {
    size_t *slot;
    size_t cap; /**< a power of two, or 0 */
    size_t n;
} scn_ini_index;

/** The raw scenario: sections and entries in file order. */
typedef struct scn_ini {
    const char *path;
    FILE *f;
    int line;            /**< line the reader last returned */
    int line_kind;       /**< how inih will read that line */
    int after_key;       /**< inih's prev_name is set: an indented line continues it */
    uint64_t bytes;      /**< read so far */
    scn_ini_entry *e;
    size_t n_e, cap_e;
    scn_ini_section *sec;
    size_t n_sec, cap_sec;
    size_t n_type[SCN_SEC_COUNT]; /**< sections of each type */
    scn_ini_index sec_index, entry_index;
    char *err;
    size_t errlen;
    int failed;          /**< an error message is set */
    int failed_set;      /**< ... and it names a --set (SCENARIO_EUSAGE, exit 2) */
    int oom;
    unsigned load_flags; /**< SCENARIO_LOAD_* of the caller (set after scn_ini_read) */
} scn_ini;

/**
 * Phase 1: read the file's sections and entries.
 *
 * @param p       receives the entries (free with scn_ini_free, also on error)
 * @param f       the open file, read to its end
 * @param path    its name, for messages
 * @param err     receives the first message ("FILE:LINE: ..."), errlen bytes
 * @return 0, or -1 with p->failed (message set) or p->oom.
 */
int scn_ini_read(scn_ini *p, FILE *f, const char *path, char *err, size_t errlen);

/**
 * Phase 2: apply one "SECTION.KEY=VALUE" (a '.' in SECTION stands for its
 * space; an empty VALUE removes the file's key).
 * @return 0, or -1 with the message set (or p->oom).
 */
int scn_ini_apply_set(scn_ini *p, const char *arg);

/**
 * Add key = value to section rec as if read at line (or from --set set):
 * a profile's settings (scn_profile.c). The caller checks that the key is
 * absent. @return the entry, or NULL (message set, or p->oom).
 */
scn_ini_entry *scn_ini_add_entry(scn_ini *p, const scn_ini_section *rec, const char *key, const char *value,
                                 int line, const char *set);

/** Free the entries and sections (not p itself). */
void scn_ini_free(scn_ini *p);

/** Set the message (printf format) unless one is set already. */
void scn_ini_fail(scn_ini *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The section named name (canonical), or NULL. */
scn_ini_section *scn_ini_find_section(scn_ini *p, const char *name);

/** The entry key of section rec, if present and not removed, or NULL. */
scn_ini_entry *scn_ini_find_entry(scn_ini *p, const scn_ini_section *rec, const char *key);

/**
 * Where something came from, for a message: "FILE:LINE" or "--set ARG" (a
 * long ARG cut, with "...", at 200 characters: it is only named).
 * @return buf
 */
const char *scn_ini_origin(const scn_ini *p, int line, const char *set, char *buf, size_t len);

/** Blanks and line ends trimmed from both ends of s, in place. @return the start */
char *scn_ini_trim(char *s);

/** Whether s is a NAME: 1 to SCENARIO_NAME_MAX letters, digits, '_', '-', not beginning with '-' (names_valid). */
int scn_ini_valid_name(const char *s);

#endif
