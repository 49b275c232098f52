/* scn_data.h - the data files a scenario names: observed service times
 * ([service] distribution = empirical) and stall windows ([stall] kind =
 * file), found relative to the scenario's folder and read line by line
 * with the limits of scenario.h. Internal to the scenario reader.
 */
#ifndef COSIM_SCN_DATA_H
#define COSIM_SCN_DATA_H

#include "scn_keys.h"
#include "stall.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** A growing array of int64 values read from a data file. */
typedef struct scn_data_vec {
    int64_t *v;
    size_t n, cap;
} scn_data_vec;

/** Reads one line (blanks trimmed, not blank, not a '#' comment) of path:
 *  0, or -1 with the message ("path:line: ...") set. */
typedef int (*scn_data_line_fn)(scn_ctx *c, const char *path, int line, char *text, void *arg);

/**
 * The path of a file the scenario names, relative to the scenario's folder
 * (an absolute name is kept).
 * @return 0, or -1 if it would be longer than SCENARIO_PATH_MAX (never cut).
 */
int scn_data_relative(const scn_ctx *c, const char *name, char *out, size_t len);

/**
 * The path of the data file a `file = NAME` entry e names, joined to the
 * scenario's folder, checked to be a regular file cosim can read (no FIFO
 * nor folder reaches a reader). Refuses, at e's FILE:LINE, an empty name, a
 * path over 4095 bytes and a file that cannot be read.
 *
 * @param out  receives the path; len >= SCENARIO_PATH_MAX + 2
 * @return 0, or -1 (the message is set)
 */
int scn_data_file(scn_ctx *c, scn_ini_entry *e, char *out, size_t len);

/**
 * Read the data file named by the section's `file` key (required: its
 * example is its row's) line by line with fn into *x (freed and zeroed on
 * error); *e receives the key's entry.
 * @return 0 or -1 (message set).
 */
int scn_data_read(scn_ctx *c, scn_data_line_fn fn, scn_data_vec *x, scn_ini_entry **e);

/** fn for service times: one duration with its unit a line ("105us"). */
int scn_data_empirical_line(scn_ctx *c, const char *path, int line, char *text, void *arg);

/** A growing array of stall windows read from a file (16 bytes a window:
 *  the line numbers are not kept, see scn_data_window_at). */
typedef struct scn_window_vec {
    stall_window *w;
    size_t n, cap;
    int64_t find_start_ns; /**< scn_data_window_at: the start looked for */
    int found_line;        /**< scn_data_window_at: its last line, or 0 */
} scn_window_vec;

/**
 * Read the data file named by the section's `file` key, as scn_data_read,
 * with fn and its argument arg (nothing freed on error: the caller owns
 * arg). @return 0 or -1 (message set).
 */
int scn_data_read_with(scn_ctx *c, scn_data_line_fn fn, void *arg, scn_ini_entry **e);

/** fn for stall windows, arg a scn_window_vec: "start,length" with units
 *  ("2.5s,500ms"; a header "start,length" is allowed); appends the window
 *  [start, start + length). */
int scn_data_window_line(scn_ctx *c, const char *path, int line, char *text, void *arg);

/** A stall file's one validating pass (scn_data_window_check): what the
 *  run and the reports need, without the windows. */
typedef struct scn_window_check {
    size_t n;              /**< windows */
    stall_window first, last; /**< the first and the last in the file */
    int unsorted;          /**< a window starts before the one above it */
    int bad_line;          /**< in order: the line of the first window that
                                overlaps the one before it (the last line of
                                its start), or 0 */
    stall_window bad;      /**< that window */
    stall_file_marks marks; /**< in order: where a cursor may start */
} scn_window_check;

/**
 * As scn_data_read_with, the file left open in *keep on success (the
 * caller closes it). @return 0 or -1 (message set).
 */
int scn_data_read_keep(scn_ctx *c, scn_data_line_fn fn, void *arg, scn_ini_entry **e, FILE **keep);

/** fn for stall windows, arg a scn_window_check: checks each line as
 *  scn_data_window_line and keeps the count, the first and last windows,
 *  whether they are in order and the first overlap; stores no window. */
int scn_data_window_check(scn_ctx *c, const char *path, int line, char *text, void *arg);

/** fn for stall windows that appends nothing: sets found_line to the line
 *  (the last one) whose window starts at find_start_ns, for a message
 *  about a window after the windows were sorted. */
int scn_data_window_at(scn_ctx *c, const char *path, int line, char *text, void *arg);

#endif
