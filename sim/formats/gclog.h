/* gclog.h - stop-the-world pauses read from the logs of real runtimes.
 *
 * The format of a file is detected from its lines; each format says when
 * its time stamp is taken, read from the runtime's own source:
 *
 * JDK 9+ unified logging (-Xlog:gc, gc*, safepoint). A line is
 * "[DECORATORS...] MESSAGE". Decorators (logDecorators.hpp, in this order):
 * time and utctime ("2024-01-15T10:30:45.123+0100", wall clock, ms),
 * uptime ("12.345s"), timemillis ("1705314645123ms"), uptimemillis
 * ("12345ms"), timenanos, uptimenanos ("12345678901ns"), hostname, pid, tid,
 * level, tags. The uptime decorators are preferred (the JVM's monotonic
 * clock); a file with only wall-clock decorators is timed from its first
 * stamp. A "...ms" or "...ns" decorator of 10^12 ms (10^18 ns, the year
 * 2001) or more is the wall clock, below that the uptime. Numbers may
 * carry a decimal comma ("[1,259s]", "7,105ms"), as JDK 8's do.
 *  - GC pause lines ("GC(3) Pause Young (Normal) (G1 Evacuation Pause)
 *    512M->256M(1024M) 12.345ms"; Parallel and Serial alike; Shenandoah
 *    "Pause Init Mark 0.201ms"; ZGC "Pause Mark Start 0.007ms", generational
 *    ZGC "y: Pause Mark Start 0.011ms") are written when the pause ends:
 *    GCTraceTimeImpl::log_stop runs from ~GCTraceTimeImpl
 *    (src/hotspot/share/gc/shared/gcTraceTime.inline.hpp), ZGC's from
 *    ZStatPhasePause::register_end (gc/z/zStat.cpp). The pause is
 *    [stamp - length, stamp). A message is a pause when it starts with
 *    "Pause " (after "GC(N) " and a generation prefix such as "y: ") and ends
 *    with a length; "Concurrent ..." phases and the whole-cycle lines
 *    ("Garbage Collection (...)", "Major Collection ... 0.142s") are not
 *    pauses, nor the "gc,start" line that opens a pause without a length,
 *    nor debug/trace level lines (ZGC's sub-phases of a pause).
 *  - Safepoint lines, also end-stamped: "Total time for which application
 *    threads were stopped: 0.0001234 seconds, Stopping threads took: ..."
 *    (JDK 9 to 12, RuntimeService::record_safepoint_end in
 *    services/runtimeService.cpp) and "Safepoint \"G1CollectForAllocation\",
 *    Time since last: ..., Reaching safepoint: ..., At safepoint: ...,
 *    Total: 929521 ns" (JDK 13+, SafepointTracing::end in
 *    runtime/safepoint.cpp). Their length includes the time to reach the
 *    safepoint, which GC lines miss, and every stop, GC or not. A file with
 *    both takes its pauses from the safepoint lines (GCLOG_SOURCE_AUTO) and
 *    says how many GC pause lines it set aside.
 * JDK 8 -XX:+PrintGCDetails (-Xloggc): a record "[GC (Allocation Failure)
 *    ... , 0.0123456 secs]" or "[Full GC ...]" (G1: "[GC pause (G1
 *    Evacuation Pause) (young), 0.0051234 secs]", "[GC remark ...]", "[GC
 *    cleanup ...]") is stamped when it opens, at the START of the pause:
 *    GCTraceTime::GCTraceTime prints the date and time stamps and "[title"
 *    before the work and ~GCTraceTime the ", N secs]"
 *    (gc_implementation/shared/gcTraceTime.cpp); the pause is
 *    [stamp, stamp + length), length the record's outermost "N secs]"; a
 *    record may span lines (-XX:+PrintTenuringDistribution). "[GC
 *    concurrent-..." and "[CMS-concurrent-..." are not pauses.
 *    -XX:+PrintGCApplicationStoppedTime lines ("12.345: Total time for
 *    which application threads were stopped: 0.0123456 seconds") are
 *    stamped at the end (RuntimeService::record_safepoint_end). Stamps are
 *    "12.345: " (uptime) and "2024-01-15T10:30:45.123+0100: " (date), and
 *    numbers may carry the locale's decimal comma ("12,345: ", "0,0123
 *    secs").
 * Go GODEBUG=gctrace=1: "gc 7 @2.018s 1%: 0.021+1.5+0.030 ms clock, ...":
 *    @ is the cycle's start (work.tSweepTerm, taken before the world stops,
 *    in gcStart, src/runtime/mgc.go) since the program started, printed in
 *    ms; of the three clock phases (gcMarkTermination) the first (sweep
 *    termination) and the third (mark termination) stop the world, the
 *    second (concurrent mark) does not: the pauses are [@, @ + a) and
 *    [@ + a + b, @ + a + b + c). fmtNSAsMS prints a phase with two
 *    significant digits (whole ms from 10 ms), truncated: the windows are
 *    that precise.
 * jHiccup / HdrHistogram interval logs (.hlog): jHiccup records each
 *    hiccup with recordValueWithExpectedInterval(hiccup, resolution)
 *    (HiccupMeter.java, HiccupRecorder.run), so one 45 ms pause is the ladder
 *    45, 44, ..., 1 ms of values: recorded values are not pauses. The
 *    interval's max (HdrHistogram's getMaxValue: the upper edge of its
 *    bucket) is taken as one pause, ending at the interval's end: the
 *    latest it can have ended. This hides any shorter pause of the same
 *    interval and places a pause up to one interval late.
 *
 * Options: the window [from_ns, to_ns) of the log's clock to use (pauses
 * are clipped to it), where its start lands on the run's clock
 * (offset_ns), a minimum length (pauses shorter as read are dropped), and
 * a scale factor applied to each length, the start kept. Windows that
 * overlap after all that (millisecond stamps do) are merged into one, and
 * a note "FILE:LINE: ..." says so. A stamp more than 1 s before the latest
 * one (a clock step, or two runs in one file) is an error at its line;
 * smaller steps back are lines of concurrent threads and are sorted.
 */
#ifndef COSIM_GCLOG_H
#define COSIM_GCLOG_H

#include "textin.h"
#include "window.h"

#include <stddef.h>
#include <stdint.h>

/** The formats gclog reads. */
typedef enum gclog_format {
    GCLOG_UNKNOWN = 0,
    GCLOG_JDK_UNIFIED, /**< JDK 9+ -Xlog */
    GCLOG_JDK8,        /**< JDK 8 -XX:+PrintGCDetails */
    GCLOG_GO,          /**< Go GODEBUG=gctrace=1 */
    GCLOG_HLOG,        /**< jHiccup / HdrHistogram interval log */
} gclog_format;

/** Which lines of a JVM log give the pauses. */
typedef enum gclog_source {
    GCLOG_SOURCE_AUTO = 0,  /**< safepoint (stopped-time) lines when the file has any, else GC lines */
    GCLOG_SOURCE_GC,        /**< GC pause lines only */
    GCLOG_SOURCE_SAFEPOINT, /**< safepoint lines only */
} gclog_source;

/** How to read a log. */
typedef struct gclog_options {
    int64_t from_ns;      /**< start of the window of the log's clock to use */
    int64_t to_ns;        /**< its end (exclusive); INT64_MAX for the whole log */
    int64_t offset_ns;    /**< the run time at which from_ns lands (>= 0 keeps all) */
    int64_t min_pause_ns; /**< pauses shorter than this as read are dropped */
    double scale;         /**< each pause's length is multiplied by this (> 0) */
    gclog_source source;  /**< JVM logs: which lines */
    int64_t hlog_unit_ns; /**< .hlog: ns per histogram unit (1: jHiccup's ns) */
    int strict;           /**< 1 (default): a record-like line that cannot be read is an error; 0: it is
                               skipped with a warning naming it */
    const char *tag;      /**< .hlog: the series (Tag=NAME) to read; NULL: the log's only one */
} gclog_options;

/** The whole log, from its clock's 0, as read: scale 1, no minimum,
 *  GCLOG_SOURCE_AUTO, .hlog values in ns, strict, no tag. */
void gclog_options_default(gclog_options *o);

/** What a log gave. */
typedef struct gclog_result {
    gclog_format format;
    const char *source;     /**< the lines the pauses came from, e.g. "safepoint lines" */
    size_t n_read;          /**< pauses read from those lines */
    size_t n_set_aside;     /**< pauses of the other kind of line not used */
    const char *set_aside;  /**< what they were ("GC pause lines"), or NULL */
    size_t n_kept;          /**< pauses left after the window and the minimum */
    size_t n_merged;        /**< overlaps merged */
    time_window *windows;   /**< the pauses on the run's clock: sorted, disjoint */
    size_t n_windows;
    int64_t total_ns;       /**< sum of the windows' lengths */
    int64_t longest_ns;     /**< the longest window */
    char **notes;           /**< "FILE:LINE: ..." for each merge */
    size_t n_notes;
    char **warnings;        /**< "FILE:LINE: ..." for each line skipped (strict = 0) or text spliced in */
    size_t n_warnings;
    textin_account lines;   /**< what became of the file's lines */
    char *name;             /**< the file's name as given */
} gclog_result;

/**
 * Read the pauses of a log.
 *
 * @param out   receives the result (gclog_free it)
 * @param path  the log
 * @param opt   options (NULL for gclog_options_default)
 * @param err   on error, "FILE:LINE: reason" (or "FILE: reason")
 * @return 0; -EINVAL for an unknown format, a record that cannot be read
 *         (a number with a sign, an exponent, no unit or text before its
 *         digits: textin_number; a record after another program's text),
 *         unless opt->strict is 0 (then skipped, with a warning in the
 *         result), a pause line without a time stamp, a clock step, a file
 *         that ends inside a record ("the file ends inside a record at
 *         FILE:LINE: was it copied while being written?"), an .hlog of
 *         several series without opt->tag or without that tag, bad
 *         options; -ERANGE for times beyond int64 ns and the .hlog limits
 *         (hlog_parse_with); -ENOMEM; -errno from reading the file. The
 *         result's lines count every line of the file.
 */
int gclog_read(gclog_result **out, const char *path, const gclog_options *opt, char *err, size_t errlen);

/** gclog_read on text[0..len), naming it `name` in messages. */
int gclog_parse(gclog_result **out, const char *name, const char *text, size_t len, const gclog_options *opt,
                char *err, size_t errlen);

/** Free a result; gclog_free(NULL) does nothing. */
void gclog_free(gclog_result *r);

/** The pauses (windows) that begin at or after run_ns: how many, and
 *  their total length in *ns when ns is not NULL. */
size_t gclog_after_run(const gclog_result *r, int64_t run_ns, int64_t *ns);

/** "JDK unified logging", "JDK 8 GC log", "Go gctrace", "HdrHistogram interval log". */
const char *gclog_format_name(gclog_format f);

/**
 * Time paused within [0, run_ns) of the run's clock, ns (for "share of the
 * run": gclog_paused_within(r, run) / run).
 */
int64_t gclog_paused_within(const gclog_result *r, int64_t run_ns);

/**
 * The one-line summary for a report, e.g. "JDK unified logging: 12 pauses
 * from GC pause lines, 12 kept, paused 123.456 ms in total, longest
 * 45.000 ms, 1.23% of the run". With run_ns > 0 the total, the longest and
 * the share speak of the run [0, run_ns) and the pauses that begin at or
 * after its end are counted apart ("3 pauses after the run, not used");
 * run_ns <= 0 speaks of the whole log and leaves the share out.
 *
 * @return the length snprintf would have written.
 */
int gclog_summary(const gclog_result *r, int64_t run_ns, char *buf, size_t len);

#endif
