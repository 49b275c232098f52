/* html.h - the pages of `cosim lecture`: one self-contained HTML page per
 * scenario and an index with every scenario, readable offline (inline CSS,
 * no script, charts as SVG files referenced by relative name from the same
 * folder). Every text taken from a scenario is escaped (report_html_escape).
 */
#ifndef COSIM_HTML_H
#define COSIM_HTML_H

#include "run.h"
#include "scenario.h"

#include <stddef.h>
#include <stdio.h>

/** One scenario's part of a page. */
typedef struct html_section {
    const scenario *s;        /**< the scenario (title, service, stalls) */
    const run_result *r;      /**< its run (the table) */
    const char *stem;         /**< its page STEM.html and files' prefix */
    const char *lesson;       /**< the scenario file's leading comments (html_lesson), or NULL */
    const char *report;       /**< the text summary as the console prints it */
    const char *check;        /**< the --check table, or NULL: no [expect] section */
    size_t misses;            /**< expectations missed */
    const char *const *charts; /**< chart files (SVG) beside the page, in order */
    size_t n_charts;
    const char *const *tables; /**< the tables' files beside the page (runfiles.h,
                                    RUNFILE_LECTURE), in order */
    size_t n_tables;
} html_section;

/**
 * A whole HTML page: a header with title, a table of contents when there
 * are several sections (each linking to its section and to its own page
 * STEM.html), then each section: title, run (length, seed, service,
 * stalls), lesson, table (summary_html), charts, --check verdicts, and
 * the console summary.
 *
 * @param title  the page's title (escaped)
 * @param up     a link back to the index (e.g. "index.html"), or NULL
 * @return 0, or -EIO if writing failed.
 */
int html_write_page(FILE *f, const char *title, const html_section *sec, size_t n, const char *up);

/**
 * The lesson of a scenario: its file's comment lines (';' or '#') before
 * the first section, without the comment mark and one blank after it.
 *
 * @param path  the scenario file
 * @param out   gets the text (free it), "" when there are no such lines
 * @return 0, or a negative errno (the file cannot be read, -ENOMEM).
 */
int html_lesson(const char *path, char **out);

#endif
