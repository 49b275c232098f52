/* outdir_internal.h - what the output folder's files share (outdir.c,
 * outdir_util.c, outdir_signal.c, outdir_lock.c, outdir_commit.c): the
 * folder's state and the helpers one file defines and another uses. Not
 * part of the API (that is outdir.h). */
#ifndef COSIM_OUTDIR_INTERNAL_H
#define COSIM_OUTDIR_INTERNAL_H

#include "outdir.h"

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MANIFEST_HEADER "# cosim manifest 1"
#define MANIFEST_MAX_BYTES (1 << 20)
#define STAGING_TAG ".cosim-staging-"
#define BACKUP ".previous" /* inside a staging folder: the previous run's files */
#define MARKER ".cosim-staging" /* in a staging folder: the files it holds */
#define MARKER_HEADER "# cosim staging 1"
#define LOCK_PREFIX "cosim lock pid " /* a lock file's whole text: LOCK_PREFIX PID "\n" */
#define SIBLING_BASE_MAX 200 /* bytes of DIR's name kept in a sibling staging name */

typedef struct staged {
    char *name;
    FILE *f;   /* open stream, or NULL */
    int fd;    /* its descriptor while open */
    int err;   /* errno of the first failed write or close */
    int done;  /* finished without error */
} staged;

struct outdir {
    char dir[PATH_MAX];   /* as given, for messages */
    char parent[PATH_MAX]; /* DIR's parent, resolved */
    int pfd;              /* DIR's parent */
    int dfd;              /* DIR */
    int sfd;              /* the staging folder */
    int spfd;             /* the folder holding the staging folder (pfd or dfd) */
    char base[NAME_MAX + 1];  /* DIR's name in pfd */
    char sname[NAME_MAX + 1]; /* the staging folder's name in spfd */
    int lockfd;
    struct stat lst;      /* the lock file we hold */
    int markfd;           /* the staging folder's MARKER, appended to */
    int created;          /* outdir_open made DIR */
    /* the parent folders outdir_open made: the prefixes of made_path whose
     * length i has made_end[i] set (removed again, deepest first, if the
     * run commits nothing) */
    char made_path[PATH_MAX];
    unsigned char made_end[PATH_MAX];
    int exchange;         /* commit by swapping the whole folder */
    int committed;
    struct stat dst;      /* DIR when opened */
    /* the previous run's manifest */
    int had_manifest;
    char **old;
    size_t n_old;
    char *old_source;
    char *old_raw;
    size_t old_raw_len;
    char *source;         /* this run's source, escaped for the manifest */
    staged **files;
    size_t n, cap;
};

/* Format a message into err (errlen bytes). */
void od_say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A warning on stderr, "cosim: warning: ..." */
void od_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A file name cosim may write: 1 to NAME_MAX bytes, no '/', no control
 * character, not beginning with '.' (those are cosim's own: manifest, lock,
 * staging). */
int od_valid_name(const char *name);

/* Is the entry name in folder at (not followed if a link) the file st
 * describes (same device and inode)? System calls only: the signal handler
 * uses it. */
int od_same_entry(int at, const char *name, const struct stat *st);

/* Remove the parent folders made for an output folder (see outdir.made_end),
 * deepest first, each only if empty (rmdir). System calls only. */
void od_remove_made(char *path, const unsigned char *ends);

/* qsort/bsearch order of names (char *): strcmp. */
int od_cmp_names(const void *a, const void *b);

/* the previous manifest's names are sorted: a lookup is a binary search */
int od_in_old(const outdir *d, const char *name);

/* Is name one of the staged files? */
int od_in_new(const outdir *d, const char *name);

/* Free n names and the array. */
void od_free_names(char **names, size_t n);

/* The names in folder fd, sorted (. and .. left out) into *out (free with
 * od_free_names). @return their number, or -errno. */
long od_list_folder(int fd, char ***out);

/* Remove the plain entries (files, links, ...) of folder fd; subfolders are
 * never entered. @return the number of entries that stay. */
size_t od_empty_folder(int fd);

/* Write a whole file name into folder at (created new; an older one of that
 * name, cosim's own, is replaced). @return 0 or -errno. */
int od_write_at(int at, const char *name, const char *data, size_t len);

/* The manifest of the staged files (new) or of the union of the previous
 * run's and the staged files (for the time of a file-by-file commit),
 * written as name in folder at. @return 0 or -errno. */
int od_write_manifest(const outdir *d, int at, const char *name, int with_old);

/* "\\" and "\n" escaped, so a path is one manifest line. */
char *od_escape_line(const char *s);

/* Drop the handled signals pending while blocked (a signal during a
 * commit that completed: the run is done, so it ends as a success). */
void od_discard_pending_signals(void);

/* Install the handlers that remove the staging folder (once). */
void od_install_handlers(void);

/* Put back the handlers found before od_install_handlers. */
void od_restore_handlers(void);

/* Point the handler at d's staging folder (signals blocked by the caller). */
void od_arm(const outdir *d);

/* mkdir -p path (0777 less the umask), recording in d which prefixes of
 * path it made (d->made_path, d->made_end). @return 0 or -errno. */
int od_make_parents(outdir *d, const char *path);

/* Is folder fd the same as the folder at path? */
int od_same_folder(const struct stat *st, const char *path);

/* Write this process's lock text into the lock file fd, replacing its
 * text. @return 0 or -errno. */
int od_write_lock(int fd);

/* Take DIR/.cosim-lock. The lock file is cosim's when this run makes it
 * (O_CREAT|O_EXCL) or when its whole text is LOCK_PREFIX PID "\n" (a run
 * that holds it, or a killed run's, whose flock is free); any other file
 * of that name is the user's, never written, truncated nor removed, and
 * the folder is refused (-EEXIST).
 * @return 0, -EBUSY (err names the holder's pid), -EEXIST, -EAGAIN (DIR
 * changed under us: open again) or -errno. */
int od_take_lock(outdir *d, char *err, size_t errlen);

/* Remove the staging folders under prefix in folder at (shown as atpath in
 * warnings) whose run is dead (left by a SIGKILL or a crash): real folders
 * of ours only, never a link, and only if cosim marked the folder as its
 * own (its MARKER or a manifest, listing the files it staged); then only
 * the files listed there and cosim's own names are removed, never anything
 * deeper. A folder without a marker, or holding anything else, is left
 * alone with a warning. */
void od_remove_stale(int at, const char *atpath, const char *prefix);

/* Close d's descriptors and free it (no file is touched). */
void od_free_outdir(outdir *d);

/* The signal handler stands down: from here on the caller finishes or
 * undoes the commit itself (signals blocked). */
void od_disarm(void);

/* The open output folder (one at a time), NULL: none. */
void od_set_current(outdir *d);
outdir *od_current(void);

#endif
