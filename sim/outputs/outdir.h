/* outdir.h - an output folder written all-or-nothing, and only where cosim
 * may write.
 *
 * The contract (docs/decisions.md, "The output folder"):
 *  - cosim replaces or removes in DIR only the files named in DIR's
 *    manifest, ".cosim-manifest", which every run writes (the files that
 *    run wrote); its own ".cosim-lock" and staging folders aside, every
 *    other file in DIR is left alone.
 *  - A non-empty DIR without a manifest is refused, naming its first file
 *    (in byte order), unless force is set; then cosim writes beside those
 *    files but still never replaces one (a name clash is refused at commit).
 *  - "/" and the home folder ($HOME, and the uid's home in the password
 *    database) are always refused, force or not.
 *  - One writer at a time: DIR/.cosim-lock is held (flock) from
 *    outdir_open to outdir_close; a second writer is refused with the pid
 *    of the first. The lock file is cosim's only if the run made it or its
 *    text is "cosim lock pid N"; any other .cosim-lock is the user's, never
 *    written nor removed, and the folder is refused.
 *  - Files are written into a staging folder made by mkdtemp (mode 0700);
 *    nothing is followed through a symbolic link, and removal is by
 *    unlinkat on folder descriptors opened O_NOFOLLOW|O_DIRECTORY.
 *  - outdir_commit swaps the whole folder in one renameat2(RENAME_EXCHANGE)
 *    when DIR holds only cosim's files, is owned by the user, is not a
 *    mount point nor the working folder (or one of its parents), and its
 *    parent takes the sibling staging folder ".BASE.cosim-staging-PID-XXXXXX".
 *    Otherwise (foreign files kept beside cosim's, or a filesystem without
 *    RENAME_EXCHANGE, said in a warning) it replaces the files one by one
 *    from a staging folder inside DIR, after moving the previous run's files
 *    aside, and puts them back if any step fails.
 *  - DIR's name must still hold the folder outdir_open took (device and
 *    inode) at the commit, before and after the swap; otherwise nothing is
 *    committed (-ESTALE). A previous file that cannot be removed fails the
 *    commit (its errno) and DIR stays as it was.
 *  - Until the commit, a failure or a SIGINT, SIGTERM, SIGHUP or SIGPIPE
 *    removes the staging folder and leaves DIR as it was (a folder the run
 *    created, and the parents it created, are removed again if empty);
 *    the signal then ends the process as it
 *    would have (a shell shows 128 + the signal number: 130, 143, 129,
 *    141). Staging folders left by a killed run (dead pid) are removed by
 *    the next run into the same DIR if they carry cosim's marker
 *    (".cosim-staging" or a manifest), and only of the files listed there.
 */
#ifndef COSIM_OUTDIR_H
#define COSIM_OUTDIR_H

#include <stddef.h>
#include <signal.h>
#include <stdio.h>

/** The manifest's and the lock's names in an output folder. */
#define OUTDIR_MANIFEST ".cosim-manifest"
#define OUTDIR_LOCK ".cosim-lock"

typedef struct outdir outdir;

/** How outdir_open may take a folder. */
typedef struct outdir_options {
    int force;          /**< write beside files of a folder without a manifest;
                             take a default folder of another scenario */
    const char *source; /**< the scenario file, recorded in the manifest; NULL: none */
    int same_source;    /**< refuse (unless force) a folder whose manifest
                             names another source: for default folders, so
                             two scenarios never share one silently */
    int temp_parent;    /**< DIR's parent is a folder the caller made for
                             this run alone (e.g. by mkdtemp): removed, if
                             empty, whenever a folder outdir_open made is
                             (outdir_close without a commit, a failed open,
                             a signal) */
} outdir_options;

/**
 * Take the output folder dir (creating it and its parents if need be):
 * check that cosim may write there, lock it, remove stale staging folders
 * of dead runs, read the previous manifest and make the staging folder.
 * Installs the signal handlers described above until outdir_close; a
 * folder still open at exit() is closed then (nothing committed). The
 * handled signals wait during the open itself (at most the lock's 0.5 s
 * wait), so one that comes while it makes folders leaves none behind.
 *
 * @param opt  may be NULL (no force, no source)
 * @param err  on error, the message without "cosim: ", e.g.
 *             "out: holds wrk2.hgrm, which cosim did not write (...)"
 * @return 0, or a negative errno: -EPERM (/ or the home folder), -EEXIST
 *         (foreign files, a user's .cosim-lock, another scenario's
 *         folder), -EBUSY (another
 *         writer), -EINVAL (a bad manifest), or the system's error
 *         (-EACCES, -ENOTDIR, -EROFS, -ENOSPC, ...).
 */
int outdir_open(outdir **out, const char *dir, const outdir_options *opt, char *err, size_t errlen);

/**
 * Start file name in the staging folder. A name is 1 to 255 bytes, has no
 * '/' nor control character, does not begin with '.', and is written once a
 * run. Write errors are recorded with their errno for outdir_finish.
 *
 * @return the stream, or NULL with errno set (EINVAL bad name, EEXIST
 *         written twice, or the system's error).
 */
FILE *outdir_create(outdir *d, const char *name);

/**
 * Finish a stream from outdir_create: flush and close it.
 * @return 0, or the negative errno of the first failed write (-ENOSPC,
 *         -EDQUOT, -EFBIG, -EIO, ...).
 */
int outdir_finish(outdir *d, FILE *f);

/**
 * Write a whole file (e.g. a chart gnuplot drew) into the staging folder.
 * @return 0 or a negative errno as outdir_finish.
 */
int outdir_write(outdir *d, const char *name, const void *data, size_t len);

/**
 * Put every finished file in place, as described above, with the manifest
 * listing them; the previous run's files that this run did not write are
 * removed. Signals are held off while it runs.
 *
 * @param err  on error, "DIR/NAME: reason" or "DIR: reason"
 * @return 0, or a negative errno (-EEXIST: a file cosim did not write
 *         stands where this run's file would go; -ESTALE: DIR was moved,
 *         removed or replaced since outdir_open; -EPERM and others: a
 *         previous file could not be removed or replaced; in each case
 *         nothing was changed).
 */
int outdir_commit(outdir *d, char *err, size_t errlen);

/**
 * Remove the staging folder (if not committed, with every file staged; a
 * folder outdir_open created is removed too), unlock, restore the signal
 * handlers and free d. NULL is a no-op.
 */
void outdir_close(outdir *d);

/**
 * Run hook (async-signal-safe: system calls only) first in the handler of
 * a SIGINT, SIGTERM, SIGHUP or SIGPIPE while an output folder is open, in
 * the process that set it: e.g. to kill the process groups of the gnuplot
 * runs under way (plot_render.c). One hook; NULL removes it.
 */
void outdir_set_signal_hook(void (*hook)(void));

/**
 * Block the signals the output folder handles (SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE), for a step that must not be cut in two by one (a temporary
 * folder made and handed to outdir_open; a child started and recorded for
 * the signal hook). Unblock with sigprocmask(SIG_SETMASK, old, NULL).
 * @param old  the mask before
 */
void outdir_block_signals(sigset_t *old);

/** The output folder as given to outdir_open (for messages). */
const char *outdir_path(const outdir *d);

/** A descriptor of the staging folder (gnuplot's working folder). */
int outdir_staging_fd(const outdir *d);

/**
 * The default output folder of a scenario: "out/STEM" + suffix, STEM being
 * the scenario file's name without its extension, in full, with every
 * byte other than letters, digits, '_', '-' and whole UTF-8 letters made '_', a leading '-'
 * made '_' (names_from_file, as the
 * scenario reader names a scenario, but never cut to its 40 characters); a
 * scenario with its own [scenario] name keeps that name.
 *
 * @param path         the scenario file as given
 * @param name         the scenario's name (scenario.name)
 * @param name_max     the longest name the scenario reader keeps (40)
 * @param suffix       appended to the name, e.g. "-sweep" ("" for none)
 * @return 0, or -ENAMETOOLONG if buf is too small.
 */
int outdir_default(char *buf, size_t len, const char *path, const char *name, size_t name_max,
                   const char *suffix);

#endif
