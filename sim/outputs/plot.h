/* plot.h - gnuplot charts: data files, scripts, rendering.
 *
 * cosim writes the chart's data (.dat) and a script (.gp) into the output
 * folder, then runs gnuplot on them. The script is a short generated
 * preamble (file names, titles, tester names) followed by the style script
 * from plots/ (e.g. plots/spectrum.gp), so a lecturer restyles every chart by
 * editing the scripts in plots/, without recompiling, and can re-render one by running
 * gnuplot on the .gp in the output folder.
 */
#ifndef COSIM_PLOT_H
#define COSIM_PLOT_H

#include "run.h"
#include "scenario.h"

#include <stdio.h>

/** Output formats: the gnuplot terminal and the file extension. */
typedef enum plot_format {
    PLOT_PNG = 0, /**< pngcairo, .png */
    PLOT_SVG,     /**< svg, .svg */
    PLOT_PDF,     /**< pdfcairo, .pdf */
    PLOT_GIF,     /**< gif animate, .gif (--animate only: never parsed) */
} plot_format;

/** "png", "svg", "pdf", "gif". */
const char *plot_format_ext(plot_format f);
/** "pngcairo", "svg", "pdfcairo", "gif". */
const char *plot_format_term(plot_format f);
/** @return 0 or -EINVAL. */
int plot_format_parse(const char *name, plot_format *out);

/**
 * Find the style script `name` (e.g. "spectrum.gp"): in plots_dir if not
 * NULL (and there only), else in the data folders of datadir_folders
 * ("plots"): beside the running program's installed tree first, the
 * source tree's plots/ only when run from the build folder, then the
 * configured prefix (docs/install.md).
 *
 * @param path  receives the script's path
 * @return 0 or -ENOENT.
 */
int plot_find_style(const char *plots_dir, const char *name, char *path, size_t len);

/** How many testers have samples, hence a curve (0: no chart to draw). */
size_t plot_spectrum_testers(const run_result *r);

/**
 * The spectrum data: one block per tester with samples, then the truth if
 * there is one (gnuplot "index i"),
 * rows "percentile 1/(1-percentile) latency_ms total_count" from the same
 * iteration as the .hgrm files; the final 100% row, whose x is infinite, is
 * drawn at x = n (the rank of the last of n samples), so every curve ends at
 * its max. Blocks are separated by two blank lines.
 *
 * @return 0 or -EIO.
 */
int plot_write_spectrum_data(FILE *f, const scenario *s, const run_result *r);

/**
 * Parse a --style name: "default" (0) or "slides" (1: 16:9, slide-sized
 * fonts, multi-panel charts in a grid; plot_script.slides).
 * @return 0 or -EINVAL.
 */
int plot_style_parse(const char *name, int *slides);

/** What a generated chart script needs besides the scenario. */
typedef struct plot_script {
    const char *chart;    /**< "spectrum", "timeline", "requests", "summary" */
    const char *datafile; /**< its data file, relative to the output folder */
    const char *testers;  /**< the names of the data's blocks, space separated */
    const char *outfile;  /**< default chart file name, e.g. "spectrum.png" */
    plot_format format;
    int ylog;             /**< default latency axis: 1 log, 0 linear */
    int64_t from_ns, to_ns; /**< time charts: the window shown */
    const char *counts;   /**< time charts: rows per block, space separated
                               (a style skips empty blocks); NULL: none */
    const char *xlabel;   /**< sweep: the varied key; NULL: none */
    const char *bandfile; /**< spectrum: the band over seeds; NULL: none */
    const char *slots;    /**< spectrum: each block's tester position in the
                               scenario (1-based; 0 for the truth), so a
                               tester keeps its colour in every chart */
    const char *extra;    /**< more preamble lines, gnuplot assignments the
                               caller generated (no scenario text); NULL: none */
} plot_script;

/**
 * A chart script: a preamble defining datafile, stallsfile, chart_title,
 * chart_subtitle (service, stalls, rate, duration, seed, rank rule),
 * testers, xfrom and xto (seconds), ylog, outfile, term and style (the last
 * four unless already defined with gnuplot -e or in extra: a caller sets
 * style = 'slides' there, --style slides), then the style script's text.
 * Scenario text is written as single-quoted gnuplot strings, where nothing
 * is substituted.
 *
 * @return 0, -EIO, or -errno if the style cannot be read.
 */
int plot_write_script(FILE *f, const scenario *s, const char *style_path, const plot_script *ps);

/** Write text as a gnuplot string expression (single-quoted pieces joined
 * to sprintf('%c',39) for each quote; control characters dropped), safe
 * for any text: nothing in it is substituted or expanded. */
void plot_write_gp_string(FILE *f, const char *text);

/**
 * The spectrum's blocks: names (testers with samples, then "truth" if any)
 * and slots (each one's position in the scenario, 1-based, 0 for the
 * truth, so a tester keeps its colour), both space separated.
 */
void plot_spectrum_blocks(const scenario *s, const run_result *r, char *names, size_t names_len,
                          char *slots, size_t slots_len);

/** Every tester's name, space separated. @return buf */
char *plot_all_names(const scenario *s, char *buf, size_t len);

/**
 * The stalls between from_ns and to_ns, "start_s end_s" a row, for shading
 * time charts: one block per tester (gnuplot index i, scenario order) with
 * the stop-the-world windows (at most 5000; random stalls as the testers met
 * them, same seed) and the request stalls its requests met, each the
 * stalled request's service span as the engine ran it (from its work's
 * start to its reply: tester_result.stall_spans); then one block of the
 * windows alone (index n_testers), for a panel of every tester. An empty
 * block is one "nan nan" row. @return 0, -EIO or -ENOMEM.
 */
int plot_write_stalls(FILE *f, const scenario *s, const run_result *r, int64_t from_ns, int64_t to_ns);

/**
 * How many rows of plot_write_stalls' block i meet [from_ns, to_ns): what a
 * chart's panel for tester i (i = n_testers: the windows alone) shades, so
 * a chart names a shading only when it is drawn. @return rows, or -1 with
 * no memory.
 */
long plot_stalls_shaded(const scenario *s, const run_result *r, size_t i, int64_t from_ns, int64_t to_ns);

/**
 * A window around the first stop-the-world stall, for the request bars: from
 * one stall length before it to two after (within the run).
 * @return 1 with *from_ns, *to_ns set; 0 if the scenario has no window.
 */
int plot_first_stall(const scenario *s, int64_t *from_ns, int64_t *to_ns);

/** The summary bars' data: "tester p50_ms p99_ms p99.9_ms mean_ms" per tester with
 *  samples (and the truth); mean_ms the histogram's mean (hist_mean) in ms,
 *  last so the percentiles keep their columns. @return 0 or -EIO. */
int plot_write_summary_data(FILE *f, const scenario *s, const run_result *r);

/** Outcome of plot_render. */
typedef enum plot_render_status {
    PLOT_RENDERED = 0,
    PLOT_NO_GNUPLOT,  /**< gnuplot is not installed */
    PLOT_FAILED,      /**< gnuplot ran and failed (status: its exit status,
                           or 128 + the signal that ended it) */
    PLOT_TIMEOUT,     /**< gnuplot was still running after the timeout: killed */
    PLOT_INCOMPLETE,  /**< gnuplot exited 0 but the chart does not end as its
                           format must (see plot_chart_complete) */
    PLOT_TOO_BIG,     /**< the chart passed PLOT_MAX_CHART_BYTES: killed */
    PLOT_NOT_RUN,     /**< plot_render_batch: not rendered, because a chart
                           before it failed */
} plot_render_status;

/** Seconds gnuplot may take for one chart before it is killed
 *  (--plot-timeout changes it). */
#define PLOT_DEFAULT_TIMEOUT_S 60u
/** Most seconds --plot-timeout takes (a day). */
#define PLOT_MAX_TIMEOUT_S 86400u
/** Largest chart read from gnuplot: 256 MiB. */
#define PLOT_MAX_CHART_BYTES ((size_t)256 << 20)

/**
 * Parse a --plot-timeout value: a whole number of seconds, 1 to
 * PLOT_MAX_TIMEOUT_S, digits only. @return 0 or -EINVAL.
 */
int plot_parse_timeout(const char *text, unsigned *seconds);

/**
 * Run "gnuplot -d -e outfile='/dev/stdout' SCRIPT" in the folder dirfd
 * (gnuplot's own init files are skipped, so the chart depends only on the
 * script), with standard input from /dev/null, and collect the chart it
 * writes to its standard output. gnuplot's messages are copied to stderr,
 * each line marked "cosim: gnuplot: ". gnuplot is killed after timeout_s
 * seconds, and when cosim dies (PR_SET_PDEATHSIG). A complete chart (see
 * plot_chart_complete) is returned; a PDF's creation date is cleared (see
 * plot_pdf_clear_date).
 *
 * @param dirfd      the staging folder: the script and its data are there
 * @param script     the script's name in dirfd
 * @param timeout_s  seconds allowed, 1 to PLOT_MAX_TIMEOUT_S
 * @param chart      on PLOT_RENDERED, the chart (malloc'd, the caller frees)
 * @param len        its length in bytes (also set on PLOT_INCOMPLETE)
 * @param status     on PLOT_FAILED, the exit status (128 + signal if killed),
 *                   or an errno if gnuplot could not be started
 */
plot_render_status plot_render(int dirfd, const char *script, plot_format format, unsigned timeout_s,
                               char **chart, size_t *len, int *status);

/** Most charts plot_render_batch renders together. */
#define PLOT_BATCH_MAX 8

/** One chart of plot_render_batch: its script and format (in), and what
 *  plot_render would give for it (out). */
typedef struct plot_job {
    const char *script;     /**< the script's name in the folder */
    plot_format format;
    plot_render_status st;  /**< PLOT_NOT_RUN if never run */
    char *chart;            /**< on PLOT_RENDERED, malloc'd (the caller frees) */
    size_t len;             /**< as plot_render's len */
    int status;             /**< as plot_render's status */
} plot_job;

/**
 * Render n charts, each as plot_render would, but several in one gnuplot
 * and up to procs gnuplots at once: gnuplot's start-up (the dynamic
 * loading of cairo, pango and their fonts: about 0.13 s of CPU each time)
 * is paid once per process, not once per chart, and the processes use the
 * machine's cores. Process g renders charts g*n/procs to (g+1)*n/procs - 1
 * one after the other, each after "reset session" (so a script sees none of
 * the previous one's settings or variables: the chart is byte for byte the
 * one plot_render draws), each into its own pipe (outfile='/dev/fd/N'); a
 * process may take the timeouts of its charts added up. Their gnuplot
 * messages are relayed in chart order once all are done.
 *
 * If anything fails (gnuplot missing, an error, a timeout, an incomplete
 * chart), the batch's charts and messages are dropped and the charts are
 * rendered again one by one with plot_render, in order, up to the first
 * whose status is neither PLOT_RENDERED nor PLOT_NO_GNUPLOT (those after it
 * stay PLOT_NOT_RUN): every message and status is then the one a
 * one-by-one run gives. One chart (n = 1) is rendered by plot_render.
 *
 * @param dirfd      the staging folder: the scripts and their data
 * @param jobs       n charts (n at most PLOT_BATCH_MAX to be batched)
 * @param procs      most gnuplot processes at once (e.g. the online CPUs);
 *                   0 is taken as 1
 * @param timeout_s  seconds allowed per chart, 1 to PLOT_MAX_TIMEOUT_S
 */
void plot_render_batch(int dirfd, plot_job *jobs, size_t n, size_t procs, unsigned timeout_s);

/**
 * Whether a chart is complete: a PNG begins with the PNG signature and ends
 * with the IEND chunk (00 00 00 00 "IEND" AE 42 60 82); an SVG holds "<svg"
 * and ends with "</svg>"; a PDF begins with "%PDF-" and ends with "%%EOF"
 * (trailing white space allowed after the last two); a GIF begins with
 * "GIF89a" and ends with its trailer byte 0x3B.
 *
 * @return 0 if complete, -EIO if not.
 */
int plot_chart_complete(const char *data, size_t len, plot_format format);

/**
 * Why plot_render did not give a chart, in words, e.g. "gnuplot failed
 * (exit status 1) on spectrum.gp", "gnuplot did not finish within 60 s and
 * was stopped", "gnuplot wrote an incomplete chart (1234 bytes, no IEND
 * chunk at the end)". @return buf
 */
char *plot_render_message(char *buf, size_t buflen, plot_render_status st, int status, const char *script,
                          plot_format format, size_t chart_len, unsigned timeout_s);

/**
 * Make a PDF written by cairo reproducible: overwrite its
 * "/CreationDate (D:YYYYMMDDHHMMSS...)" digits in place with
 * D:19700101000000 (same length, so the cross-reference offsets stay right).
 * Debian's cairo 1.16 stamps the wall-clock time and ignores
 * SOURCE_DATE_EPOCH. Nothing changes when there is no date.
 */
void plot_pdf_clear_date(char *data, size_t len);

/** The styles a tester can have (1..8); a ninth, black, is the truth's. */
#define PLOT_TESTER_STYLES 8

/**
 * The style (colour, dash, marker) of tester i in every chart: keyed on
 * the tester, not on its place in a chart, so it keeps its look whatever
 * other testers are drawn. The first closed, paced, corrected, open and
 * partly_open tester are 1 to 5; every other tester, in the scenario's
 * order, takes the first style no tester has yet, from 6, 7, 8 and then
 * the styles of the kinds the run lacks, so up to eight testers all look
 * different. Beyond eight, the ninth and later take 1, 2, ... in turn and
 * share a look with an earlier tester (their labels still tell them
 * apart). The styles' colours, dashes and markers are defined in
 * plots/spectrum.gp and the other chart scripts.
 * @param i a tester index below s->n_testers
 * @return 1..PLOT_TESTER_STYLES
 */
int plot_tester_style(const scenario *s, size_t i);

#endif
