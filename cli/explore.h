/* explore.h - `cosim lecture`'s interactive page: the template
 * web/page/explore.html filled with the lessons' scenario files, libcosim
 * built for the browser (cosim-engine.js) and the charting library, one
 * self-contained HTML file that works offline from file://. Not part of
 * libcosim. */
#ifndef COSIM_CLI_EXPLORE_H
#define COSIM_CLI_EXPLORE_H

#include <stddef.h>
#include <stdio.h>

/** One scenario of the page. */
typedef struct explore_lesson {
    const char *name;   /**< the scenario's name (its page STEM.html) */
    const char *path;   /**< its file, as given on the command line */
    const char *title;  /**< [scenario] title */
    const char *lesson; /**< its leading comments (html_lesson), or "" */
} explore_lesson;

/** The largest data file a page embeds (a scenario's `file = ...`). */
#define EXPLORE_FILE_MAX (16 * 1024 * 1024)

/**
 * Find the page's parts as datadir_find finds data (sim/base/datadir.h):
 * the template web/page/explore.html (installed share/cosim/web/page, or
 * the source tree's web/page for a program run from its build) and the
 * engine, cosim-engine.js with uPlot.iife.min.js and uPlot.min.css beside
 * it (installed share/cosim/web, or the build tree's web/ for a program
 * run from its build).
 *
 * @param page_dir, engine_dir  get the two folders (len bytes each)
 * @param why   on failure, which part is missing and the folders looked
 *              in (whylen bytes, one line)
 * @return 0, or -ENOENT when a part is missing (the engine is built only
 *         with meson's -Dweb=enabled, where emcc is installed:
 *         web/meson.build).
 */
int explore_find(char *page_dir, char *engine_dir, size_t len, char *why, size_t whylen);

/**
 * Write the interactive page.
 *
 * @param f           the page's file
 * @param title       the page's heading
 * @param ls          the scenarios, n of them (the first is shown first)
 * @param page_dir, engine_dir  from explore_find
 * @param why         on failure, what went wrong (whylen bytes, one line)
 * @return 0, -EIO (writing f failed), -ENOMEM, or -errno of a part or a
 *         scenario's data file that cannot be read, or -EFBIG for a data
 *         file over EXPLORE_FILE_MAX or a part that holds "</script".
 */
int explore_write_page(FILE *f, const char *title, const explore_lesson *ls, size_t n, const char *page_dir,
                       const char *engine_dir, char *why, size_t whylen);

#endif
