/* gclog_internal.h - what the GC log reader's files share (gclog.c: the API,
 * format detection and the reading context; gclog_jdk.c: JDK unified
 * logging and JDK 8 logs; gclog_go.c: Go gctrace; gclog_window.c: the
 * pauses mapped onto the run's clock and merged). Not part of the API (that
 * is gclog.h). */
#ifndef COSIM_GCLOG_INTERNAL_H
#define COSIM_GCLOG_INTERNAL_H

#include "gclog.h"

#include <stddef.h>
#include <stdint.h>

#define NS_PER_S INT64_C(1000000000)
#define NS_PER_MS INT64_C(1000000)
/* A stamp this far before the latest one is a clock step, not reordering. */
#define CLOCK_STEP_NS NS_PER_S

/* The start of the JVM's stopped-time line (JDK 8's
 * -XX:+PrintGCApplicationStoppedTime; unified logs carry it too), up to its
 * number of seconds. */
#define GCL_STOPPED "Total time for which application threads were stopped: "

enum { KIND_GC = 0, KIND_SAFEPOINT = 1 };
enum { CLOCK_NONE = 0, CLOCK_UPTIME, CLOCK_WALL };

/* One pause as read. */
typedef struct raw_pause {
    int64_t start, end; /* on the log's clock (wall: epoch ns until rebased) */
    size_t line;
} raw_pause;

typedef struct plist {
    raw_pause *p;
    size_t n, cap;
} plist;

/* The reading context: the file's name for messages, the pauses read so far
 * by kind, and the clock its stamps follow. */
typedef struct gcl_ctx {
    const char *name;
    char *err;
    size_t errlen;
    plist list[2];        /* KIND_GC, KIND_SAFEPOINT */
    int clock;            /* CLOCK_* of the file's stamps */
    size_t clock_line;
    int64_t latest;       /* the latest stamp so far */
    size_t latest_line;
    int have_latest;
    int64_t origin;       /* wall clock: the first stamp */
    int have_origin;
    int cls;              /* the current line's TEXTIN_LINE_* (set by the line readers) */
    int bad_record;       /* the error at hand is a record-like line that cannot be read */
    int is_last_cut;      /* the current line is the last one and has no newline */
    gclog_result *r;      /* for warnings */
    char why[320];        /* a bad record's reason, without "NAME:LINE: " */
} gcl_ctx;

/* A JDK 8 GC record being read: "[GC ..." up to the "]" that closes it. */
typedef struct jdk8_record {
    int open;
    int depth;
    int64_t start;
    size_t line;
    int64_t length;
    int have_length;
    size_t lines;   /* its lines so far (counted as records until it closes) */
} jdk8_record;

/* Format "NAME:LINE: message" (or "NAME: message" for line 0) into the
 * context's err and return rc. */
int gcl_fail(gcl_ctx *c, int rc, size_t line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A record-like line that cannot be read: the message as gcl_fail, and
 * the context marked so the caller may skip it (strict = 0) or say the
 * file was cut. Returns -EINVAL. */
int gcl_bad_record(gcl_ctx *c, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Append "NAME:LINE: message" to the result's warnings. 0 or -ENOMEM. */
int gcl_warn(gcl_ctx *c, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Read the token s[0..n) with textin_number as what (a duration: units
 * as listed, or bare numbers worth scale ns when units is NULL); on error
 * a bad record (or a limit, -ERANGE) at line. */
int gcl_number(gcl_ctx *c, const char *s, size_t n, const char *what, const textin_unit *units, int64_t scale,
               size_t line, int64_t *out);

/* Append the pause [start, end) of the given KIND_* read at line.
 * Returns 0 or -ENOMEM (with the message). */
int gcl_add_pause(gcl_ctx *c, int kind, int64_t start, int64_t end, size_t line);

/* Record a stamp t (ns) of the given CLOCK_*: the first one fixes the
 * file's clock; another clock, or a step back of more than CLOCK_STEP_NS,
 * is -EINVAL with the message. */
int gcl_note_stamp(gcl_ctx *c, int clock, int64_t t, size_t line);

static inline int gcl_is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* The number of ASCII digits at the start of s[0..n). */
static inline size_t gcl_digits_at(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && gcl_is_digit(s[i]))
        i++;
    return i;
}

/* "YYYY-MM-DDTHH:MM:SS[.fff][+hhmm|-hhmm|Z]" at s: its length (0 if none)
 * and the UTC time in ns since the epoch in *out. */
size_t gcl_parse_iso(const char *s, size_t n, int64_t *out);

/* Stamps at the start of a JDK 8 line: "2024-...+0100: " and/or
 * "12.345: " (decimal comma allowed). Returns the offset after them; *bad
 * is set when an uptime stamp is beyond 2^63 ns. */
size_t gcl_jdk8_stamps(const char *s, size_t n, int *has_up, int64_t *up, int *has_wall, int64_t *wall, int *bad);

/* One line of a JDK 9+ unified log: its decorators' stamp noted, a pause
 * ("Pause ... 12.345ms"), safepoint ("Total: N ns") or stopped-time line
 * added. Returns 0 or a negative errno with the message. */
int gcl_unified_line(gcl_ctx *c, const char *s, size_t n, size_t line);

/* One line of a JDK 8 -XX:+PrintGCDetails log; r carries a GC record over
 * lines until it closes. Returns 0 or a negative errno with the message. */
int gcl_jdk8_line(gcl_ctx *c, jdk8_record *r, const char *s, size_t n, size_t line);

/* One line of Go's gctrace: its two stop-the-world phases added. Returns 0
 * or a negative errno with the message. */
int gcl_go_line(gcl_ctx *c, const char *s, size_t n, size_t line);

/* The pauses of use onto the run's clock (o's window, offset, minimum and
 * scale), sorted, overlaps merged (each with a note), into r's windows,
 * counts, total and longest. Returns 0, -ERANGE or -ENOMEM with the
 * message. */
int gcl_finish(gcl_ctx *c, const plist *use, const gclog_options *o, gclog_result *r);

#endif
