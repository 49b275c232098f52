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

/* ---- user-given NAMEs (scenario, tester, stall, expect) ------------------ */

/** A NAME's bytes: letters, digits, '_' and '-'. */
int names_char_ok(char c);

/**
 * Whether s is a NAME: 1 to max bytes of letters, digits, '_' and '-', not
 * beginning with '-'. NAMEs become file and folder names (out/NAME,
 * NAME.hgrm); one beginning with '-' would be read as an option by the
 * shell tools a user runs on them (`rm *` in a folder holding "-rf").
 * @return 1 if it is, 0 if not.
 */
int names_valid(const char *s, size_t max);

/**
 * Make a file's name a NAME in place: the extension (from the last '.',
 * unless that is the first byte) cut, every well-formed UTF-8 character
 * kept (Linux file systems take any byte but '/' and NUL, so "café.ini"
 * gives the folder out/café; C1 controls, U+2028 and U+2029 excepted),
 * every other byte that names_char_ok refuses made '_' (so a cut or
 * Latin-1 byte becomes one '_'), a leading '-' made '_'; "scenario" if
 * nothing is left. The result is not cut to any length.
 * @param s  a writable string of at least 9 bytes
 */
void names_from_file(char *s);

/* ---- paths given on the command line ------------------------------------ */

/**
 * Whether a path can be named in cosim's one-line messages: it holds no
 * ASCII control character (bytes 0x01..0x1f and 0x7f). A newline would
 * split a message ("cosim: a<newline>b.ini:4: ...") so that its second line
 * reads as a message of its own; an escape byte would reach the terminal.
 * @param path  the path as given (NUL-terminated)
 * @param shown on a refusal, the path with each control byte written as
 *              \n, \r, \t or \xNN, cut to len - 1 bytes with "..." at its
 *              end if longer; untouched when the path is printable
 * @param len   the size of shown in bytes (at least 4)
 * @return the offset (0-based) of the first control byte, or -1 if none.
 */
long names_path_control(const char *path, char *shown, size_t len);

#endif
