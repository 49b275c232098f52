/* outdir.h - an output folder written all-or-nothing.
 *
 * Every file of a run is first written into a staging folder inside the
 * output folder (".cosim-staging-PID"), under its final name, and checked
 * for write errors (a full disk shows at fflush or fclose); charts are
 * rendered there too, from the staged data. Only when everything succeeded
 * are the files renamed into the output folder, one rename each. An earlier
 * good output is therefore never half-overwritten: on failure the staging
 * folder is removed and the old files stay as they were.
 */
#ifndef COSIM_OUTDIR_H
#define COSIM_OUTDIR_H

#include <stdio.h>

typedef struct outdir outdir;

/**
 * Open (creating it and its parents if need be) the output folder dir and
 * its staging folder.
 *
 * @param err  on error, "DIR: reason" (no "cosim: " prefix)
 * @return 0, or a negative errno (-EACCES, -ENOTDIR, -EROFS, ...).
 */
int outdir_open(outdir **out, const char *dir, char *err, size_t errlen);

/**
 * Start file name (a plain file name, no '/') in the staging folder.
 *
 * @return the stream, or NULL with errno set.
 */
FILE *outdir_create(outdir *d, const char *name);

/**
 * Finish a stream from outdir_create: flush and close it, checking every
 * write. @return 0 or a negative errno (-ENOSPC, -EIO, ...).
 */
int outdir_finish(outdir *d, FILE *f);

/**
 * Add a file that another program wrote into the staging folder (a chart
 * from gnuplot) to what outdir_commit moves. @return 0 or -errno.
 */
int outdir_adopt(outdir *d, const char *name);

/**
 * Rename every finished file into the output folder.
 * @return 0 or a negative errno (the first failure; err says which file).
 */
int outdir_commit(outdir *d, char *err, size_t errlen);

/**
 * Remove the staging folder and what it still holds, and free d; if failed
 * and outdir_open created the output folder, remove it too when empty.
 * NULL is a no-op.
 */
void outdir_close(outdir *d, int failed);

/**
 * Delete the files of an earlier run that this run did not write: every
 * file in the output folder for which ours(name) is true and that this run
 * did not commit (a re-run leaves no stale chart or .hgrm of a tester since
 * removed). Other files are never touched. Call after outdir_commit.
 *
 * @return the number of files removed, or a negative errno.
 */
int outdir_remove_stale(outdir *d, int (*ours)(const char *name));

/** The output folder's path. */
const char *outdir_path(const outdir *d);

/** The staging folder's path (where charts are rendered). */
const char *outdir_staging(const outdir *d);

/** Full path of name in the staging folder. @return buf */
char *outdir_staged_file(const outdir *d, const char *name, char *buf, size_t len);

#endif
