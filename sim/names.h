/* names.h - name tables of enums: the one place each enum's words live.
 *
 * Every enum a user names in a scenario or on the command line (tester
 * kinds, lateness policies, distributions, rank rules, stall kinds, ...)
 * has one table of names, indexed by the enum's value and owned by the
 * module that defines the enum, with X_name and X_parse functions built on
 * the two helpers here. The scenario reader and the key table list the same
 * tables, so a new kind is one row of its module's table.
 */
#ifndef COSIM_NAMES_H
#define COSIM_NAMES_H

#include <stddef.h>

/** The number of elements of an array (not of a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/** A name table: names[i] names the enum value i, for i < n. */
typedef struct names_table {
    const char *const *names;
    size_t n;
} names_table;

/**
 * The index of name in t (exact, case-sensitive match).
 * @return the index (an enum value), or -1 if name is not in t.
 */
int names_find(names_table t, const char *name);

/**
 * The name of value i, or "?" when i is not in t (never NULL).
 */
const char *names_get(names_table t, int i);

/**
 * Write the names joined by sep ("a, b, c") to buf.
 * @param len  the size of buf; a list that does not fit ends in "..."
 * @return buf
 */
char *names_join(names_table t, const char *sep, char *buf, size_t len);

#endif
