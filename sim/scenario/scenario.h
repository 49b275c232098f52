/* scenario.h - a scenario file: what to simulate and how to report it.
 *
 * Scenario files are INI, parsed with libinih. Sections:
 *   [scenario]     the run's settings (duration, seed, rank_rule, ...)
 *   [service]      distribution and its parameters
 *   [stall NAME]   kind (a stall_kind, or file) and its keys
 *   [tester NAME]  kind (a tester_kind) and its keys
 *   [expect NAME]  expected figures of tester NAME, checked by cosim --check
 *   [truth]        interval, load: the ground truth's probes
 * Every key, with its type, limits and default, is one row of
 * scn_keys.def (`cosim --list-keys` prints them); docs/scenario-format.md
 * is the reference, and a test holds the two together. Every duration and
 * rate carries its unit.
 *
 * Errors name the file, the line and the key ("FILE:LINE: [section] key:
 * reason"), or the --set argument that caused them.
 */
#ifndef COSIM_SCENARIO_H
#define COSIM_SCENARIO_H

#include "dist.h"
#include "hist.h"
#include "stall.h"
#include "tester.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The defaults of the keys (threshold 100 ms, sub_bucket_bits 8, ...) are
 * the values of their rows in scn_keys.def, set by scn_keys_set_defaults. */
/* The input limits (docs/scenario-format.md, "Limits"; docs/cosim.1).
 * Reading stops at the first one crossed, with FILE:LINE. */
/** Most testers and stalls a scenario may have (each tester writes files
 *  and draws a curve and a panel). */
#define SCENARIO_MAX_TESTERS 64
#define SCENARIO_MAX_STALLS 64
/** Most [expect NAME] sections (each names a tester). */
#define SCENARIO_MAX_EXPECTS 64
/** Most keys in a scenario, file and --set together. */
#define SCENARIO_MAX_KEYS 4096
/** Longest NAME of [tester NAME], [stall NAME], [expect NAME] and of
 *  [scenario] name. */
#define SCENARIO_NAME_MAX 40
/** Longest section name ("expect " and a NAME of 40 fit) and key. */
#define SCENARIO_SECTION_MAX 48
#define SCENARIO_KEY_MAX 48
/** Longest value, a multi-line one joined, or one given with --set (bytes). */
#define SCENARIO_VALUE_MAX 65536
/** Longest [scenario] title (bytes): it must fit the chart. */
#define SCENARIO_TITLE_MAX 100
/** Largest scenario file (bytes). */
#define SCENARIO_FILE_MAX (16 * 1024 * 1024)
/** Most lines of a data file (service times, stall windows), and the
 *  longest line. */
#define SCENARIO_DATA_LINES_MAX 10000000
#define SCENARIO_DATA_LINE_MAX 510
/** Most intervals [scenario] hlog_interval may cut a run into. */
#define SCENARIO_HLOG_MAX_INTERVALS 100000
/** Longest path of a scenario or data file (bytes; the system's PATH_MAX
 *  less its terminating zero). */
#define SCENARIO_PATH_MAX 4095
/** Longest default name: a file name without its .ini (a file name has at
 *  most 255 bytes). */
#define SCENARIO_STEM_MAX 255

/** What an expectation is about. */
typedef enum expect_metric {
    EXPECT_PLANNED = 0,
    EXPECT_SENT,
    EXPECT_RECORDED,
    EXPECT_IN_FLIGHT,
    EXPECT_OVER,       /**< over_threshold */
    EXPECT_DROPPED_ARRIVALS,
    EXPECT_TIMEOUTS,
    EXPECT_WARMUP_SKIPPED,
    EXPECT_ADDED,      /**< values a correction or backfill added */
    EXPECT_MIN,
    EXPECT_MEAN,
    EXPECT_MAX,
    EXPECT_PERCENTILE, /**< p_num / p_den */
} expect_metric;

/** How close "got" must come to the expected value. */
typedef enum expect_tolerance {
    EXPECT_EXACT = 0, /**< counts: equal; min, max: equal; mean: equal to the
                           ns; percentiles: the expected value lies in the
                           bucket the reported value comes from */
    EXPECT_ABSOLUTE,  /**< |got - want| <= tol_abs */
    EXPECT_RELATIVE,  /**< |got - want| <= tol_rel * want */
} expect_tolerance;

/** One line of an [expect TESTER] section, e.g. "p99 = 1.87ms +- 3%". */
typedef struct expect_item {
    size_t tester;          /**< index into testers */
    char key[SCENARIO_KEY_MAX + 1]; /**< the key as written ("p99.9", "sent") */
    int line;               /**< its line in the file (0: from --set) */
    char set[128];          /**< "--set ARG" when line is 0 (a long ARG cut, "...") */
    expect_metric metric;
    uint64_t p_num, p_den;  /**< the percentile as a fraction of 1 */
    int64_t value;          /**< count, or duration in ns */
    expect_tolerance tol;
    int64_t tol_abs;        /**< count or ns */
    double tol_rel;         /**< fraction (3% is 0.03) */
} expect_item;

typedef struct scenario {
    char path[SCENARIO_PATH_MAX + 1]; /**< the file it was read from */
    char name[SCENARIO_STEM_MAX + 1]; /**< [scenario] name (at most
                                           SCENARIO_NAME_MAX), or the file's
                                           whole stem, never cut */
    char title[SCENARIO_STEM_MAX + 1]; /**< [scenario] title (at most
                                            SCENARIO_TITLE_MAX), or the name */
    int64_t duration_ns;      /**< testers send only before this */
    uint64_t seed;            /**< GSL seed (default 1) */
    hist_rank_rule rank_rule; /**< default nearest_rank */
    int64_t threshold_ns;     /**< default 100 ms */
    int drop_in_flight;       /**< in_flight_at_end = drop (wrk2) */
    int record_wait;          /**< queue_wait = record: each tester also keeps
                                   a histogram of its requests' queue waits */
    unsigned sub_bits;        /**< histogram S, default 8 */
    char generator[32];       /**< GSL generator name, default mt19937 */
    uint64_t max_requests;    /**< per tester */
    dist_spec service;
    uint64_t workers;         /**< [service] workers: c, default 1 */
    stall_spec *stalls;
    size_t n_stalls;
    tester_spec *testers;
    size_t n_testers;
    int tester_line[SCENARIO_MAX_TESTERS]; /**< the line of each [tester NAME]
                                               header (0: made by --set), for
                                               messages from the run */
    int64_t hlog_interval_ns; /**< [scenario] hlog_interval: write TESTER.hlog
                                   with intervals this long; 0: none */
    int64_t *service_values;  /**< empirical service times (owned) */
    struct hgrm_dist *service_hist; /**< distribution = histogram: the measured
                                         distribution (owned), or NULL */
    struct gclog_result *stall_log[SCENARIO_MAX_STALLS]; /**< kind = gc_log:
                                         what stall i's log gave (owned), for
                                         the report's pause summary; else NULL */
    int64_t chart_window_from; /**< [scenario] chart_window: the time charts'
                                    window (to 0: none) */
    int64_t chart_window_to;
    int64_t truth_interval_ns; /**< [truth] mean gap of the Poisson probes; 0: no truth */
    int truth_load;           /**< index of the tester loading the truth's
                                   server, or -1 for none */
    expect_item *expects;     /**< [expect TESTER] lines, in file order */
    size_t n_expects;
} scenario;

/** Error classes of scenario_load (the CLI maps them to exit codes). */
typedef enum scenario_error {
    SCENARIO_OK = 0,
    SCENARIO_EUSAGE = 1, /**< a --set argument is malformed, or its value is refused */
    SCENARIO_EFILE = 2,  /**< the file cannot be read (missing, directory) */
    SCENARIO_EINVALID = 3, /**< the contents are wrong */
    SCENARIO_ENOMEM = 4,
} scenario_error;

/**
 * Read and check a scenario.
 *
 * @param out      receives the scenario (NULL on error)
 * @param path     the .ini file
 * @param sets     n_sets overrides "SECTION.KEY=VALUE" (--set), applied
 *                 after the file; in SECTION a '.' stands for the space of
 *                 "tester open" ("tester.open.rate=2000/s")
 * @param err      receives a one-line message without the "cosim: " prefix
 *                 and without a newline, e.g.
 *                 "s.ini:12: [tester open] rate = 1000: a rate needs a unit ..."
 * @return SCENARIO_OK or the error class.
 */
scenario_error scenario_load(scenario **out, const char *path, const char *const *sets,
                             size_t n_sets, char *err, size_t errlen);

/** Flags of scenario_load_flags. */
enum {
    /** For a sweep, which draws no time charts: [scenario] chart_window is
     * still read (a malformed one is refused) but not held against the
     * run's duration, and dropped (chart_window_from/to stay 0). */
    SCENARIO_LOAD_SWEEP = 1u,
};

/**
 * scenario_load with flags (SCENARIO_LOAD_*; 0 is scenario_load).
 */
scenario_error scenario_load_flags(scenario **out, const char *path, const char *const *sets, size_t n_sets,
                                   unsigned flags, char *err, size_t errlen);

/**
 * scenario_load from an open stream (read to its end, not closed). path is
 * the name used in messages and the folder data files are found in.
 */
scenario_error scenario_load_stream(scenario **out, FILE *f, const char *path,
                                    const char *const *sets, size_t n_sets, char *err,
                                    size_t errlen);

/**
 * Open a file for reading only if it is a regular file: a FIFO, a device, a
 * socket or a directory is refused at once (opened without blocking, so a
 * FIFO with no writer cannot hang the reader). Used for the scenario and
 * its data files.
 *
 * @param path    the file (at most SCENARIO_PATH_MAX bytes)
 * @param what    on refusal, a static phrase such as "is a FIFO (named
 *                pipe), not a regular file" (NULL when *errnum says why)
 * @param errnum  on failure, the errno of open or fstat (0 with *what)
 * @return the open stream, or NULL.
 */
FILE *scenario_open_regular(const char *path, const char **what, int *errnum);

/**
 * Parse a time window "START..END" (durations with units, "0.85s..1.6s",
 * read by units_parse_window) for the time charts, and check it against
 * the run: END after START, and
 * START before the end of the run (a window past the end would draw empty
 * charts). An END past the run is kept: the charts stop at the run's end.
 *
 * @param duration_ns  the run's duration, ns
 * @param from_ns,to_ns  receive START and END, ns
 * @param why,whylen   on error, the reason (without the value)
 * @return 0, -EINVAL (not a window) or -ERANGE (outside the run).
 */
int scenario_parse_window(const char *text, int64_t duration_ns, int64_t *from_ns, int64_t *to_ns, char *why,
                          size_t whylen);

/**
 * The offered utilisation of tester i per worker (MODEL.md, "What a run
 * writes"): rho = lambda E[S] / c, its request rate x the mean service
 * time (tester_offered_utilisation) over [service] workers c. The one
 * place the division by c is made: the report's overload warning and
 * summary.json, the sweep's utilisation axis and the charts' default
 * window all read it.
 *
 * @return rho, or -1 for a tester with no rate (closed).
 */
double scenario_utilisation(const scenario *s, size_t i);

/**
 * Print every key a scenario file takes, one a line, tab-separated:
 * section, kinds (empty: every kind), key, type (with its limits or
 * choices), default ("required" if none), example, meaning; a first line
 * "# section..." names the columns. The rows of scn_keys.def: this is
 * `cosim --list-keys`, and a test holds it against docs/scenario-format.md.
 *
 * @return 0, or -EIO if writing to f failed.
 */
int scenario_list_keys(FILE *f);

/** Free; scenario_free(NULL) does nothing. */
void scenario_free(scenario *s);

/** Describe the stalls in one line ("10ms every 1s from 0s; +500ms on
 *  request 90"); stalls that do not fit len are counted ("; and 3 more"),
 *  never cut silently. @return buf */
char *scenario_describe_stalls(const scenario *s, char *buf, size_t len);

#endif
