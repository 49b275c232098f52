/* options.h - the cosim command line (cli/options.c): the options a run
 * takes, their parsing, the help text, and the scenario they name read and
 * checked against them. Not part of libcosim. */
#ifndef COSIM_CLI_OPTIONS_H
#define COSIM_CLI_OPTIONS_H

#include "plot.h"
#include "scenario.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest -o or --plots-dir path: the files written there get names of
 * their own, and a path is never cut. */
#define MAX_DIR_PATH 3800

/** The parsed command line of one cosim run. */
typedef struct options {
    const char *scenario;
    const char *output;
    const char **sets;
    size_t n_sets;
    plot_format format;
    int no_plot;
    int check;
    const char *plots_dir;
    unsigned charts;       /* bit k: chart_kinds[k] (outputs.h) */
    int charts_set;        /* --charts was given */
    int ylinear;           /* --latency-axis linear */
    unsigned replications; /* --replications N (0, 1: one seed) */
    const char *window;    /* --window A..B, checked against the run once loaded */
    int64_t win_from, win_to; /* --window in ns; to 0: none */
    int quiet;
    int force;             /* --force */
    unsigned plot_timeout_s; /* --plot-timeout in seconds; 0: the default */
    int allow_long;        /* --allow-long: no work budget */
    int help, version;     /* -h, -V: print and exit 0 */
    int list_keys;         /* --list-keys: print and exit 0 */
    int timeline_by_reply; /* --timeline-by reply: latency against reply time */
    int animate;           /* --animate: also requests.gif */
    int slides;            /* --style slides: 16:9, slide-sized fonts */
    int temp_parent;       /* the output's parent is a temporary folder made
                              for this run (cosim lecture): removed with it */
    char *owned[2];        /* the --set text of --seed and --rank-rule */
    char scenario_buf[SCENARIO_PATH_MAX + 1]; /* a shipped scenario's path (options_scenario_path) */
} options;

/** The name standard input has in messages ("<stdin>:3: ..."). */
#define OPTIONS_STDIN_NAME "<stdin>"

/**
 * The scenario a command-line argument names: "-" (standard input) and a
 * file that exists are kept as they are; else, for a relative name that
 * does not climb ("..") out of its folder, a shipped scenario: NAME,
 * NAME.ini or scenarios/NAME.ini in datadir_folders("scenarios") (beside
 * the installed program, the source tree when run from its build, the
 * configured prefix; docs/install.md). Else arg, so the reader's "No such
 * file" names what was typed.
 *
 * @param arg  the argument as typed
 * @param buf  receives a shipped scenario's path
 * @param len  buf's size
 * @return arg or buf.
 */
const char *options_scenario_path(const char *arg, char *buf, size_t len);

/**
 * Refuse "-o -" (a folder cannot be a stream): a message on stderr
 * "cosim: PREFIX-o -: ...".
 *
 * @param prefix  "" or the command's "sweep: ", "lecture: "
 * @param arg     -o's value
 * @return 0 when arg is not "-", else -1 after the message.
 */
int options_output_stream_refused(const char *prefix, const char *arg);

/**
 * Print cosim's --help text.
 * @param f  where to (stdout for --help)
 */
void options_usage(FILE *f);

/**
 * The command line into o (owned strings freed by options_free). Every
 * option may be given once, except --set (each key once, checked by the
 * scenario reader). May run again on another command line (a fresh getopt
 * scan).
 *
 * @param argc,argv  main's; argv's strings must outlive o
 * @param o          zeroed by the caller
 * @return 0, or -1 after a message on stderr (exit COSIM_EXIT_USAGE)
 */
int options_parse(int argc, char **argv, options *o);

/**
 * Free what options_parse allocated and zero o. NULL-safe in its parts.
 * @param o  parsed (or zeroed) options
 */
void options_free(options *o);

/**
 * Check --plots-dir (it holds the style of every chart to draw, exit 2),
 * then read the scenario the options name and check the options that
 * depend on it: --window inside the run, --check with something to check.
 *
 * @param o          parsed options
 * @param exit_code  set on failure (exitcode.h: 2, 3, 1 or 5)
 * @return the scenario (scenario_free it), or NULL after a message on stderr
 */
scenario *options_load_scenario(const options *o, int *exit_code);

/**
 * The charts a run draws, a bit per chart_kinds row: --charts, else every
 * chart; none for --check without -o (a check writes no folder).
 */
unsigned options_charts_wanted(const options *o);

/**
 * What is wrong with a --title (sweep, lecture): empty, longer than
 * max_bytes, a control character, not UTF-8 (a title lands in SVG and
 * HTML, where a stray byte breaks the page).
 * @param max_bytes  the longest title the output takes
 * @return NULL if the title is fine, else the reason (a static string)
 */
const char *options_title_problem(const char *title, size_t max_bytes);

/**
 * Refuse a path given on the command line that holds an ASCII control
 * character (names_path_control): cosim names its files in one-line
 * messages, which a newline in a path would split. On a refusal prints
 * "cosim: PREFIXWHAT "PATH": ..." with the control bytes written as \n or
 * \xNN (exit COSIM_EXIT_USAGE is the caller's).
 * @param prefix  "" or the subcommand's "sweep: " / "lecture: "
 * @param what    where the path came from: "-o", "--plots-dir", "the scenario"
 * @param path    the path as given
 * @return 0 if the path holds no control character, -1 after the message.
 */
int options_path_printable(const char *prefix, const char *what, const char *path);

#endif
