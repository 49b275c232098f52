/* textin.h - reading the text files of other tools: GC logs, HdrHistogram
 * interval logs (.hlog) and percentile spectra (.hgrm).
 *
 * A whole file is read into memory (refusing binary files and files larger
 * than TEXTIN_MAX_BYTES), then walked line by line with 1-based line
 * numbers, so every message can name FILE:LINE. Numbers written by other
 * tools are parsed exactly as decimals, never through a double.
 */
#ifndef COSIM_TEXTIN_H
#define COSIM_TEXTIN_H

#include <stddef.h>
#include <stdint.h>

/** Largest file read: 1 GiB (a long GC log is a few hundred MB). */
#define TEXTIN_MAX_BYTES ((size_t)1 << 30)

/**
 * Read the file at path into a NUL-terminated buffer.
 *
 * @param path    the file
 * @param out     receives the buffer (free() it); NULL on error
 * @param out_len receives the length without the terminating NUL
 * @param err     on error, receives "PATH: reason"
 * @return 0; -errno when the file cannot be opened or read; -EISDIR for a
 *         folder; -EFBIG past TEXTIN_MAX_BYTES; -EINVAL for a file holding
 *         a NUL byte (binary; UTF-16 text with a byte order mark is named
 *         as such) or a carriage return not followed
 *         by '\n' ("PATH:LINE: ..."). A leading UTF-8 byte order mark is
 *         dropped from *out.
 */
int textin_read_file(const char *path, char **out, size_t *out_len, char *err, size_t errlen);

/** A cursor over the lines of a buffer. */
typedef struct textin_lines {
    const char *p, *end;
    size_t line; /**< 1-based number of the line last returned */
} textin_lines;

/** Start walking text[0..len). */
void textin_lines_init(textin_lines *it, const char *text, size_t len);

/**
 * The next line, without its "\n" or "\r\n".
 *
 * @param s    receives the line's first character
 * @param n    receives its length
 * @return 1 with a line, 0 at the end of the text.
 */
int textin_next_line(textin_lines *it, const char **s, size_t *n);

/**
 * Parse the decimal s[0..n) ("12", "12.345", and when comma_ok also the
 * decimal comma of some locales, "12,345") and multiply it by scale,
 * rounding half up to an integer: textin_decimal("0.0123456", 9, 10^9)
 * gives 12345600; textin_decimal("1.5", 3, 1000) gives 1500.
 *
 * @param s         the text: digits, at most one separator, digits (no
 *                  sign, no exponent, at most 18 digits after it)
 * @param scale     what one unit of the decimal is worth (> 0)
 * @param comma_ok  accept ',' as the separator too
 * @param out       receives round(value * scale)
 * @return 0, -EINVAL when s is not such a decimal, -ERANGE when the result
 *         exceeds INT64_MAX.
 */
int textin_decimal(const char *s, size_t n, int64_t scale, int comma_ok, int64_t *out);

/**
 * Length of the decimal number (digits, optionally one '.' or, when
 * comma_ok, ',' followed by a digit) at the start of s[0..n); 0 when s does
 * not start with a digit.
 */
size_t textin_decimal_span(const char *s, size_t n, int comma_ok);

/** A unit a number may carry: its name as written and its worth in ns. */
typedef struct textin_unit {
    const char *name; /**< "ms", "secs", ... */
    int64_t ns;       /**< what one of it is worth (> 0) */
} textin_unit;

/** How textin_number reads a token. */
typedef struct textin_number_form {
    const char *what;         /**< what the number is, for messages: "the pause length" */
    int comma_ok;             /**< the locale's decimal comma ("0,845") is a separator too */
    const textin_unit *units; /**< the units it may carry, NULL-named row last; NULL: none */
    int unit_required;        /**< 1: a bare number is an error (GC log lengths) */
    int64_t scale;            /**< worth of one bare unit-less number (> 0) */
} textin_number_form;

/** The units of durations GC logs write: "s", "ms", "us", "ns". */
extern const textin_unit textin_duration_units[];

/**
 * The one strict number reader every input format uses (GC logs, .hgrm,
 * .hlog). A token is DIGITS [SEP DIGITS] [UNIT] and nothing else: SEP is
 * '.' (or ',' when form->comma_ok), UNIT one of form->units written right
 * after the digits (or after one blank). Whatever a tool never writes is
 * an error naming the token, never a different number: a sign ("-0.5"),
 * an exponent ("1e5"), text before the digits ("abc0.5"), NaN or Inf, a
 * missing unit ("12.345" where a unit is required), an unknown unit, a
 * unit on a number that takes none. The value is exact: textin_decimal of
 * the digits times the unit's worth (or form->scale), rounded half up.
 *
 * @param s, n  the token (no blanks around it)
 * @param form  what the number is and may carry
 * @param out   receives the value in ns (or in form->scale units)
 * @param why   on error, receives "the pause length '-0.5' has a sign: ..."
 *              (what, the token, the reason), for the caller's "FILE:LINE: "
 * @return 0; -EINVAL for a malformed token; -ERANGE when the value passes
 *         INT64_MAX (a limit: the message says which).
 */
int textin_number(const char *s, size_t n, const textin_number_form *form, int64_t *out, char *why, size_t whylen);

/* ---- every line accounted for ---- */

/** How a reader took a line: part of a record (a pause, a row, an
 *  interval), a line it knows and passes over (a comment, a heap printout,
 *  a blank line), one it does not understand (another program's output),
 *  or a record it could not read and skipped (strict = false). */
enum { TEXTIN_LINE_KNOWN = 0, TEXTIN_LINE_RECORD, TEXTIN_LINE_UNKNOWN, TEXTIN_LINE_SKIPPED };

/** How many first not-understood lines an account names. */
#define TEXTIN_FIRST_LINES 5

/** What became of an input file's lines. */
typedef struct textin_account {
    size_t records;                           /**< lines read as (part of) records */
    size_t known;                             /**< known non-records, blank lines included */
    size_t unknown;                           /**< lines not understood */
    size_t skipped;                           /**< records not read (strict = false) */
    size_t first_unknown[TEXTIN_FIRST_LINES]; /**< the first not-understood lines' numbers */
} textin_account;

/** Count line (1-based) as cls (TEXTIN_LINE_*). */
void textin_account_line(textin_account *a, int cls, size_t line);

/**
 * "85 lines read as records, 4 known non-records, 2 not understood
 * (gc.log:3, gc.log:7)": the account for a report, naming the first
 * TEXTIN_FIRST_LINES not-understood lines.
 *
 * @return the length snprintf would have written.
 */
int textin_account_describe(const textin_account *a, const char *name, char *buf, size_t len);

/** 1 when text[0..len) does not end with a newline: its last line may
 *  have been cut while the file was written. */
int textin_ends_cut(const char *text, size_t len);

/** The message for a record-like last line that cannot be read in a file
 *  that does not end with a newline ("FILE:LINE" goes before it). */
#define TEXTIN_CUT_RECORD "was it copied while being written?"

/**
 * Rewrite a reader's error for a line that is the file's last and has no
 * newline as "NAME: the file ends inside a record at NAME:LINE: was it
 * copied while being written? (REASON)", REASON being what err said after
 * its ":LINE: " (or all of it). err holds errlen bytes, in and out.
 */
void textin_say_cut_record(char *err, size_t errlen, const char *name, size_t line);

/** 1 when s[0..n) starts with the NUL-terminated prefix. */
int textin_starts(const char *s, size_t n, const char *prefix);

/** Pointer to the first occurrence of needle in s[0..n), or NULL. */
const char *textin_find(const char *s, size_t n, const char *needle);

/** The message for a lone carriage return (one not before a '\n'): it
 *  would glue two lines into one. Every text reader says the same. */
#define TEXTIN_CR_INSIDE_LINE                                                                                       \
    "a carriage return (\\r) inside a line (line ends of an old Mac file?); save the file with LF or CRLF line " \
    "ends"

/**
 * The length of a UTF-8 byte order mark at the start of s (n bytes): 3,
 * or 0 when there is none. Readers skip one at a file's start (Excel's
 * "CSV UTF-8" and Windows editors write it).
 */
size_t textin_bom_len(const char *s, size_t n);

/**
 * Whether str is valid UTF-8 (RFC 3629: no overlong form, no surrogate,
 * nothing past U+10FFFF).
 * @param bad  receives the offset of the first bad byte when it is not
 * @return 1 if valid, 0 if not.
 */
int textin_utf8_valid(const char *str, size_t *bad);

/**
 * Format a message into err (errlen bytes, cut to fit and always
 * terminated) and return rc: the one line every reader's "FILE:LINE:
 * reason" error path ends with.
 * @param rc   what the caller returns (an exit class or a negative errno)
 * @return rc.
 */
int textin_fail(char *err, size_t errlen, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
