/* datadir.h - where an installed or built cosim finds its data: the chart
 * styles (plots/), the shipped scenarios (scenarios/) and the lecture's
 * browser engine and page (web/). */
#ifndef COSIM_DATADIR_H
#define COSIM_DATADIR_H

#include <stddef.h>

/** The most folders datadir_folders lists. */
#define DATADIR_MAX_FOLDERS 4

/**
 * The folders cosim looks in for its data folder `sub` ("plots" or
 * "scenarios"), in order (docs/install.md, "Where cosim finds its files"):
 *   1. relative to the running program: PROGRAM_DIR/../share/cosim/SUB
 *      (the program's folder from /proc/self/exe; the relative step is the
 *      build's bindir to datadir, so an installed tree moved or unpacked
 *      elsewhere (meson install --destdir, a tarball) finds its own files);
 *   2. the source tree's SUB, only when the running program sits in the
 *      build folder it was built in, or a folder inside it (a program run
 *      from the build, e.g. build/cosim or build/tests/...);
 *   3. then, under the same condition, the build folder's SUB (what the
 *      build makes rather than the source holds: web/cosim-engine.js);
 *   4. the configured prefix's share/cosim/SUB.
 * A folder that is listed twice is listed once; one that does not exist is
 * still listed (messages say where cosim looked).
 *
 * @param sub      "plots", "scenarios" or "web"
 * @param out      receives up to DATADIR_MAX_FOLDERS paths
 * @param each_len the size of each out[i]
 * @return how many folders were put in out.
 */
size_t datadir_folders(const char *sub, char out[][4096], size_t each_len);

/**
 * Find the regular file `name` in the first of datadir_folders(sub) that
 * holds one.
 *
 * @param sub   "plots", "scenarios", "web" or a folder inside one
 *              ("web/page")
 * @param name  a file name (no '/')
 * @param path  receives the file's path
 * @param len   the size of path
 * @return 0, or -ENOENT when no folder holds it (path then undefined),
 *         -ENAMETOOLONG when a path would not fit.
 */
int datadir_find(const char *sub, const char *name, char *path, size_t len);

#endif
