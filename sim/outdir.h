/* outdir.h - an output folder written all-or-nothing.
 *
 * Every file is first written under a temporary name in the folder
 * (".NAME.tmp"), checked for write errors (a full disk shows at fflush or
 * fclose), and only when all are complete renamed into place. An earlier
 * good output is therefore never half-overwritten; on failure the temporary
 * files are removed and the old ones stay.
 */
#ifndef COSIM_OUTDIR_H
#define COSIM_OUTDIR_H

#include <stdio.h>

typedef struct outdir outdir;

/**
 * Open (creating it and its parents if need be) the output folder dir.
 *
 * @param err  on error, "DIR: reason" (no "cosim: " prefix)
 * @return 0, or a negative errno (-EACCES, -ENOTDIR, -EROFS, ...).
 */
int outdir_open(outdir **out, const char *dir, char *err, size_t errlen);

/**
 * Start file name (a plain file name, no '/') under its temporary name.
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
 * Rename every finished file into place.
 * @return 0 or a negative errno (the first failure; err says which file).
 */
int outdir_commit(outdir *d, char *err, size_t errlen);

/**
 * Remove the temporary files not yet committed and free d; if failed and
 * outdir_open created the folder, remove it too when it is empty. NULL is a
 * no-op.
 */
void outdir_close(outdir *d, int failed);

/**
 * Delete the files of an earlier run that this run did not write: every
 * file in the folder for which ours(name) is true and that was not put in
 * place through d (a re-run into the same folder leaves no stale spectrum
 * or .hgrm of a tester since removed). Other files are never touched.
 *
 * @return the number of files removed, or a negative errno.
 */
int outdir_remove_stale(outdir *d, int (*ours)(const char *name));

/** The folder's path. */
const char *outdir_path(const outdir *d);

/**
 * Full path of name in the folder (buf must hold it).
 * @return buf
 */
char *outdir_file(const outdir *d, const char *name, char *buf, size_t len);

/**
 * Full temporary path used for name (for files written by another program,
 * such as gnuplot's chart, then put in place with outdir_rename_into_place).
 */
char *outdir_tmp_file(const outdir *d, const char *name, char *buf, size_t len);

/** Rename the temporary file of name into place. @return 0 or -errno. */
int outdir_rename_into_place(outdir *d, const char *name);

#endif
