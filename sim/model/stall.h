/* stall.h - the stalls of the system under test (MODEL.md, "The server").
 *
 * Two kinds of stall, combinable:
 *  - stop-the-world windows [start, end): no worker does work; a request
 *    in service is paused and resumes at the window's end (or restarts, is
 *    resampled or finishes first: stall_preemption), queued requests wait,
 *    arrivals queue. Windows are periodic (length L every period P from
 *    a first start O: [O + jP, O + jP + L), j = 0, 1, ...) or an explicit
 *    sorted list.
 *  - request stalls: request k (by index in send order) needs extra work.
 *
 * A stall_spec is a plain description (owned by the scenario); the cursor
 * state for walking it lives in the server.
 */
#ifndef COSIM_STALL_H
#define COSIM_STALL_H

#include "dist.h"
#include "names.h"
#include "window.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The stall kinds, one per row of stall_kinds.def. */
typedef enum stall_kind {
#define STALL_KIND(ENUM, NAME, FLAGS) STALL_##ENUM,
#include "stall_kinds.def"
#undef STALL_KIND
} stall_kind;

/** How many stall kinds there are (rows of stall_kinds.def). */
enum { STALL_N_KINDS = 0
#define STALL_KIND(ENUM, NAME, FLAGS) +1
#include "stall_kinds.def"
#undef STALL_KIND
};

/** A stall kind's properties, the FLAGS of its row in stall_kinds.def. */
enum stall_kind_flag {
    /** stop-the-world windows: no worker works inside one, and its
     *  preemption says what a request in service does */
    STALL_KIND_STOPS = 1u << 0,
    /** extra work on chosen requests, no window (requests) */
    STALL_KIND_WORK = 1u << 1,
    /** windows on a closed-form grid: length every period from first */
    STALL_KIND_GRID = 1u << 2,
    /** windows listed, sorted and disjoint (in memory or a file's) */
    STALL_KIND_LISTED = 1u << 3,
    /** windows drawn at random, each stall on a stream of its own */
    STALL_KIND_DRAWN = 1u << 4,
};

/**
 * Whether kind k has every flag of mask (0 for a value out of range). A
 * switch over the rows, so that with a constant mask the compiler reduces
 * it to the comparisons it stands for (the server asks it per window).
 */
static inline int stall_kind_has(stall_kind k, unsigned mask)
{
    switch (k) {
#define STALL_KIND(ENUM, NAME, FLAGS) \
    case STALL_##ENUM:                \
        return ((FLAGS) & mask) == mask;
#include "stall_kinds.def"
#undef STALL_KIND
    }
    return 0;
}

/** The names of the kinds, indexed by stall_kind ("periodic", ...). */
extern const names_table stall_kind_names;
/** Name of a kind, "?" if not a kind. */
const char *stall_kind_name(stall_kind k);
/** Parse a kind's name. @return 0 or -EINVAL. */
int stall_kind_parse(const char *name, stall_kind *out);

/** A stop-the-world window [start_ns, end_ns) (base/window.h). */
typedef time_window stall_window;

/** Request indices first..last (inclusive). */
typedef struct stall_range {
    uint64_t first, last;
} stall_range;

/** What a stop-the-world window does to a request in service when it
 *  starts (the queueing terms: preemptive-resume, preemptive-repeat-
 *  identical, preemptive-repeat-different, non-preemptive: Gaver, "A
 *  waiting line with interrupted service, including priorities", JRSS B
 *  24, 1962). Request stalls are work, not windows: the
 *  setting does not apply to them. */
typedef enum stall_preemption {
    /** the request pauses; its remaining work continues at the window's
     *  end (the default, and the only behaviour before issue 14) */
    STALL_PREEMPT_RESUME = 0,
    /** the work done is lost: all of its work (service time and request
     *  stall) starts again at the window's end */
    STALL_PREEMPT_RESTART,
    /** the work done is lost, and a new service time is drawn (on the
     *  server's RNG_RESAMPLE stream) for the restart at the window's end;
     *  its request stall's extra work is kept */
    STALL_PREEMPT_RESAMPLE,
    /** the request runs to its end undisturbed; the stop waits for it: no
     *  request starts from the window's start s on, and when the requests
     *  in service at s have all finished (at F) the server stops for the
     *  window's length L, so later requests see the stop [s, F + L). A
     *  window of any stall that starts before F waits likewise, the stop
     *  then lasting the longest of their lengths. */
    STALL_PREEMPT_NONE,
    /** non-preemptive with the window's end fixed (Ciw's schedule with
     *  preemption=False: ciw/node.py take_servers_off_duty lets a busy
     *  server finish its customer, its overtime, and the next shift still
     *  starts at its own date): the request in service runs to its end
     *  undisturbed (through any window it meets), no request starts in
     *  [s, e), and the stop ends at e as configured. A request in service
     *  past e simply ends later; nothing is shifted. */
    STALL_PREEMPT_OVERTIME,
} stall_preemption;

/** Where a cursor may start reading a stall file other than at its top:
 *  before the line of window `index` (0-based), which is line line + 1 at
 *  byte off, the window before it being `before`. */
typedef struct stall_file_mark {
    uint64_t index, line;
    int64_t off;
    stall_window before;
} stall_file_mark;

/** Most marks a stall file keeps (6 KB, whatever its size). */
#define STALL_FILE_MARKS 128

/** The marks of a file, one every `every` windows (every doubles, and
 *  every other mark is dropped, when the table is full): a search jumps
 *  to the last mark before its instant and reads at most `every` windows
 *  from there, not the file from its top. */
typedef struct stall_file_marks {
    size_t n;
    uint64_t every; /**< 0 before the first mark: 256 */
    stall_file_mark m[STALL_FILE_MARKS];
} stall_file_marks;

/** Note the mark for window index (>= 1) if one is due (index a multiple
 *  of every); indices must come in increasing order. */
void stall_file_marks_add(stall_file_marks *mk, uint64_t index, uint64_t line, int64_t off,
                          stall_window before);

/** A stall file (kind = file) whose windows are streamed from the file as
 *  the server walks them (stall_cursor), not held in memory: the file stays
 *  open from the scenario's validating pass to the run, and its size and
 *  modification time are those of that pass. */
typedef struct stall_file {
    FILE *f;              /**< open; read with pread on its descriptor */
    char *path;           /**< as the scenario names it, for messages */
    int64_t size;         /**< bytes, at the validating pass */
    int64_t mtime_s, mtime_ns; /**< modification time, at that pass */
    stall_window first, last; /**< the first and last windows */
    uint64_t n_windows;   /**< how many */
    stall_file_marks marks; /**< where a cursor may start reading */
} stall_file;

typedef struct stall_spec {
    char name[48];        /**< the section's name, for reports */
    stall_kind kind;
    stall_preemption preemption; /**< windows' effect on a request in
                                      service (default resume) */
    int64_t length_ns;    /**< periodic: L */
    int64_t period_ns;    /**< periodic: P > L */
    int64_t first_ns;     /**< periodic: O, the first window's start */
    stall_window *windows; /**< windows: sorted by start, disjoint (NULL
                                for a streamed file: see file) */
    size_t n_windows;     /**< windows: how many (a streamed file's too) */
    stall_file *file;     /**< windows streamed from a file (windows is
                               NULL), or NULL */
    stall_range *ranges;  /**< requests: sorted by first, disjoint */
    size_t n_ranges;
    int64_t extra_ns;     /**< requests: extra work per stalled request */
    int64_t mean_gap_ns;  /**< random: mean time between window starts */
    dist_spec length_dist; /**< random: window lengths */
} stall_spec;

/**
 * The first window of a periodic stall that ends after t_ns: the smallest
 * j >= 0 with O + jP + L > t, as [O + jP, O + jP + L).
 */
stall_window stall_periodic_next(const stall_spec *s, int64_t t_ns);

/**
 * Whether the periodic stalls among st[0..n) together stop the server for
 * good: from some instant on their windows (the union) leave no gap, so no
 * work is ever done again. Each periodic stall alone leaves a gap (L < P);
 * several can close each other's gaps (600 ms every 1 s from 0 and from
 * 500 ms). The pattern of the union repeats every H = lcm(P_i) once every
 * stall has started (from T0 = max O_i), so the union covers [T0, infinity)
 * iff it covers [T0, T0 + H): checked by a sweep over those windows. Stalls
 * whose sum of L/P is below 1 cannot cover (their windows fill less than
 * every long stretch), so the sweep runs only when the sum reaches 1.
 * Sets are grown one stall at a time, first in the scenario's order, then
 * by period (shortest first); a stall whose joint pattern with the set is
 * too long to sweep (H past 2^62 ns, or more than 4,000,000 windows in one
 * H; sums and products checked for overflow) is left out and the others
 * are tried without it, so a covering set is found whatever stall with a
 * huge period comes with it. At most 40,000,000 windows are swept in all.
 *
 * @param used     on 1, bit i set for each stall of the covering set
 *                 (stalls 0..63)
 * @param from_ns  on 1, T0 of that set: from there on there is no gap
 * @return 1 when a set of them leaves no gap; 0 when none found (they leave
 *         a gap, or it cannot be known cheaply: the server's run-time
 *         guards, work past twice the longest scenario or ten times the
 *         estimated windows walked (run_window_limit), remain for those).
 */
int stall_periodic_union_endless(const stall_spec *st, size_t n, uint64_t *used, int64_t *from_ns);

/**
 * Whether the stop-the-world windows of the periodic and windows stalls
 * among st[0..n) (their union) cover all of [from_ns, until_ns): the server
 * could do no work in that stretch. Random stalls are not counted (their
 * windows are drawn during the run). The sweep jumps from the covered
 * prefix to the furthest end of a window that contains it.
 *
 * @param used  on 1, bit i set for each stall whose windows the cover uses
 *              (stalls 0..63)
 * @return 1 covered; 0 a gap, or unknown after 4,000,000 steps (or a
 *         streamed file that cannot be read again: the run reports it).
 */
int stall_windows_cover(const stall_spec *st, size_t n, int64_t from_ns, int64_t until_ns,
                        uint64_t *used);

/**
 * Sort windows by start and check they are disjoint and non-empty.
 *
 * @param bad  on error, the index (after sorting) of the offending window
 * @return 0 or -EINVAL.
 */
int stall_windows_normalise(stall_window *w, size_t n, size_t *bad);

/** Same for request ranges (first <= last, disjoint). @return 0 or -EINVAL. */
int stall_ranges_normalise(stall_range *r, size_t n, size_t *bad);

/** The names of stall_preemption values ("resume", ...). */
extern const names_table stall_preemption_names;
const char *stall_preemption_name(stall_preemption p);

/** Parse a preemption name. @return 0 or -EINVAL. */
int stall_preemption_parse(const char *name, stall_preemption *out);

/**
 * Describe a stall for people: "10.00 ms every 1.000 s from 0 s",
 * "2 windows", "requests 90..95: +500.0 ms". @return buf
 */
char *stall_describe(const stall_spec *s, char *buf, size_t len);

/** The first window of a windows stall (held or streamed); {0, 0} for
 *  one with no window. */
stall_window stall_first_window(const stall_spec *s);

/** Bytes a stall_cursor reads from its file at once. */
#define STALL_CURSOR_BUF 4096

/**
 * A forward reader of a stall file's windows (stall_file): a fixed buffer,
 * whatever the file's size. It holds a window (cur) and the end of the
 * window before it (prev_end). The file was checked by the scenario's
 * reading: a line that does not parse, windows out of order, more or fewer
 * windows than it counted or another last one mean it changed since (err =
 * -ESTALE).
 */
typedef struct stall_cursor {
    const stall_file *file;
    int64_t off;        /**< file offset of buf[0] */
    size_t pos, len;    /**< next unread byte of buf; bytes held */
    int eof;            /**< buf holds the file's end */
    int err;            /**< 0, -ESTALE (the file changed), -EIO */
    int have;           /**< cur holds a window (0: past the last) */
    uint64_t line;      /**< lines read */
    uint64_t index;     /**< windows read */
    stall_window cur;   /**< the last window read */
    int64_t prev_end;   /**< end of the window before cur (INT64_MIN: none) */
    char buf[STALL_CURSOR_BUF + 1];
} stall_cursor;

/**
 * Whether the file changed since the scenario read it: its size or
 * modification time differ (or it cannot be examined). @return 1 or 0.
 */
int stall_file_changed(const stall_file *f);

/**
 * Start c at the file's first window.
 * @return 0; -ESTALE if the file changed since it was read
 *         (stall_file_changed, or its first line no longer a window).
 */
int stall_cursor_init(stall_cursor *c, const stall_file *f);

/**
 * Move on to the first window from cur on that ends after t_ns, into *out:
 * forward only, as an index into a sorted array (the server's committed
 * cursor). For t_ns >= prev_end it is the first window of the file that
 * ends after t_ns; for an earlier t_ns, cur itself.
 * @return 1 found, 0 none, or c->err (-ESTALE, -EIO), which stays.
 */
int stall_cursor_seek(stall_cursor *c, int64_t t_ns, stall_window *out);

/**
 * The first window of the file that ends after t_ns, into *out, whatever
 * t_ns: before prev_end the file is read again from its start.
 * @return as stall_cursor_seek.
 */
int stall_cursor_find(stall_cursor *c, int64_t t_ns, stall_window *out);

/** dst as src, copying only the unread part of its buffer. */
void stall_cursor_copy(stall_cursor *dst, const stall_cursor *src);

/** Close and free a stall file (NULL: nothing). */
void stall_file_free(stall_file *f);

#endif
