/* outdir_commit.c - putting a staged run in place at once: by exchanging
 * the whole folder or file by file, the previous files kept until done. */
#define _GNU_SOURCE
#include "outdir_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>


/* The message of a DIR that is no longer the folder outdir_open took. */
static int say_replaced(const outdir *d, char *err, size_t errlen)
{
    od_say(err, errlen, "%s: the folder was moved, removed or replaced while cosim ran", d->dir);
    return -ESTALE;
}

/* Swap DIR's name and the staging name back after an exchange (the staging
 * name then holds the staged folder again). @return 0 or -errno. */
static int swap_back(outdir *d)
{
    return renameat2(d->pfd, d->sname, d->pfd, d->base, RENAME_EXCHANGE) != 0 ? -errno : 0;
}

/* After the swap, the previous folder (the one outdir_open took, checked to
 * be the one now at the staging name) is held by prev, the new DIR by
 * next: remove its
 * manifest-listed files, cosim's manifest and this run's lock there, and
 * move anything else (a file that appeared during the run) back into DIR.
 * Only that folder is touched, through its descriptor.
 * The listed files are first moved into prev/BACKUP, which can be undone:
 * if one cannot be moved (an immutable file, a folder without write
 * permission), the moved ones are put back and -errno is returned (err
 * names the file) so that the caller swaps the folders back.
 * @return 0 or -errno. */
static int drop_previous(outdir *d, int prev, int next, int old_lock, char *err, size_t errlen)
{
    const char *where = d->parent;
    if (mkdirat(prev, BACKUP, 0700) != 0) {
        int e = errno;
        od_say(err, errlen, "%s/%s: cannot remove the previous run's files: %s", d->dir, BACKUP, strerror(e));
        return -e;
    }
    int bfd = openat(prev, BACKUP, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (bfd < 0) {
        int e = errno;
        unlinkat(prev, BACKUP, AT_REMOVEDIR);
        od_say(err, errlen, "%s/%s: cannot remove the previous run's files: %s", d->dir, BACKUP, strerror(e));
        return -e;
    }
    char *moved = calloc(d->n_old + 1, 1);
    int rc = moved ? 0 : -ENOMEM;
    const char *failed = NULL;
    for (size_t i = 0; !rc && i < d->n_old; i++) {
        struct stat st;
        if (fstatat(prev, d->old[i], &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
            continue;
        if (renameat(prev, d->old[i], bfd, d->old[i]) != 0) {
            rc = -errno;
            failed = d->old[i];
        } else {
            moved[i] = 1;
        }
    }
    if (rc) {
        for (size_t i = 0; moved && i < d->n_old; i++)
            if (moved[i])
                renameat(bfd, d->old[i], prev, d->old[i]);
        close(bfd);
        unlinkat(prev, BACKUP, AT_REMOVEDIR);
        free(moved);
        od_say(err, errlen, "%s/%s: cannot remove the previous run's file: %s", d->dir, failed ? failed : "",
            strerror(-rc));
        return rc;
    }
    free(moved);
    /* from here the previous files are out of the way: remove them */
    char **names;
    long n = od_list_folder(bfd, &names);
    for (long i = 0; i < n; i++)
        if (unlinkat(bfd, names[i], 0) != 0)
            od_warn("%s/%s/%s/%s: the previous run's file cannot be removed (%s); it is kept there", where,
                 d->sname, BACKUP, names[i], strerror(errno));
    if (n > 0)
        od_free_names(names, (size_t)n);
    close(bfd);
    unlinkat(prev, BACKUP, AT_REMOVEDIR);
    struct stat lst;
    if (old_lock >= 0 && fstat(old_lock, &lst) == 0 && od_same_entry(prev, OUTDIR_LOCK, &lst))
        unlinkat(prev, OUTDIR_LOCK, 0);
    if (d->had_manifest && unlinkat(prev, OUTDIR_MANIFEST, 0) != 0 && errno != ENOENT)
        od_warn("%s/%s/%s: the previous manifest cannot be removed (%s); it is kept there", where, d->sname,
             OUTDIR_MANIFEST, strerror(errno));
    n = od_list_folder(prev, &names);
    for (long i = 0; i < n; i++)
        if (renameat2(prev, names[i], next, names[i], RENAME_NOREPLACE) != 0)
            od_warn("%s: %s appeared during the run and cannot be moved back (%s); it is kept in %s/%s", d->dir,
                 names[i], strerror(errno), where, d->sname);
    if (n > 0)
        od_free_names(names, (size_t)n);
    struct stat pst;
    if (fstat(prev, &pst) == 0 && od_same_entry(d->pfd, d->sname, &pst))
        unlinkat(d->pfd, d->sname, AT_REMOVEDIR); /* only if empty */
    return 0;
}

/* Before the swap: the staging folder's manifest, and its lock file made
 * and held (*lock, its stat *lst) so a second writer opening the folder
 * after the swap is refused as before; *sst is the staging folder's stat.
 * The folder keeps DIR's mode, and its group as far as we may. */
static int prepare_exchange(outdir *d, int *lock, struct stat *lst, struct stat *sst, char *err, size_t errlen)
{
    int rc = od_write_manifest(d, d->sfd, OUTDIR_MANIFEST, 0);
    if (rc) {
        od_say(err, errlen, "%s/%s: cannot write: %s", d->dir, OUTDIR_MANIFEST, strerror(-rc));
        return rc;
    }
    *lock = openat(d->sfd, OUTDIR_LOCK, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    errno = 0;
    if (*lock < 0 || flock(*lock, LOCK_EX | LOCK_NB) != 0 || (rc = od_write_lock(*lock)) != 0 ||
        fstat(*lock, lst) != 0 || fstat(d->sfd, sst) != 0) {
        rc = rc ? rc : -(errno ? errno : EIO);
        if (*lock >= 0)
            close(*lock);
        od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (fchmod(d->sfd, d->dst.st_mode & 07777) != 0)
        od_warn("%s: cannot keep the folder's mode: %s", d->dir, strerror(errno));
    if (d->dst.st_gid != getegid() && fchown(d->sfd, (uid_t)-1, d->dst.st_gid) != 0)
        od_warn("%s: cannot keep the folder's group: %s", d->dir, strerror(errno));
    return 0;
}

/* The swap itself, checked on both sides: 0 when DIR's name now holds the
 * staging folder (sst) and the staging name the folder outdir_open took;
 * ESTALE when either was not where it should be (swapped back), an errno
 * when renameat2 refuses, -1 when what was swapped out is not DIR and
 * could not be swapped back. */
static int swap_in(outdir *d, const struct stat *sst)
{
    if (!od_same_entry(d->pfd, d->base, &d->dst) || !od_same_entry(d->pfd, d->sname, sst))
        return ESTALE;
    if (renameat2(d->pfd, d->sname, d->pfd, d->base, RENAME_EXCHANGE) != 0)
        return errno;
    if (!od_same_entry(d->pfd, d->sname, &d->dst) || !od_same_entry(d->pfd, d->base, sst))
        return swap_back(d) == 0 ? ESTALE : -1; /* what was swapped out is not DIR */
    return 0;
}

/* A swap that did not happen (e from swap_in, not 0): the message, and 1
 * when the caller should commit file by file instead. */
static int swap_failed(outdir *d, int e, int lock, char *err, size_t errlen)
{
    if (e == -1) {
        /* cannot happen unless the folders keep moving: say where all is */
        od_say(err, errlen, "%s: the folder was replaced while cosim ran and could not be put back: %s; the "
                         "outputs are in %s, the folder that was there is now %s/%s", d->dir, strerror(errno),
            d->dir, d->parent, d->sname);
        close(lock);
        d->committed = 1; /* nothing more is removed */
        return -ESTALE;
    }
    close(lock);
    unlinkat(d->sfd, OUTDIR_LOCK, 0);
    unlinkat(d->sfd, OUTDIR_MANIFEST, 0);
    if (e == ESTALE)
        return say_replaced(d, err, errlen);
    if (e == EINVAL || e == ENOSYS || e == EOPNOTSUPP || e == EXDEV || e == EBUSY || e == EPERM) {
        od_warn("%s: the filesystem cannot swap the folder in one step (%s); replacing the files one by one",
             d->dir, strerror(e));
        return 1;
    }
    od_say(err, errlen, "%s: cannot replace the output folder: %s", d->dir, strerror(e));
    return -e;
}

/* Swap the staging folder with DIR. DIR's name must hold the folder
 * outdir_open took, before the swap and, at the staging name, after it;
 * else the swap is undone (-ESTALE). @return 0, 1 (the filesystem cannot:
 * the caller commits file by file) or -errno. */
static int commit_exchange(outdir *d, char *err, size_t errlen)
{
    int lock;
    struct stat lst, sst;
    int rc = prepare_exchange(d, &lock, &lst, &sst, err, errlen);
    if (rc)
        return rc;
    /* the manifest marks the staging folder from here: the marker goes,
     * so the swapped-in folder holds only the outputs */
    unlinkat(d->sfd, MARKER, 0);
    int e = swap_in(d, &sst);
    if (e)
        return swap_failed(d, e, lock, err, errlen);
    /* DIR is now the staged folder; the previous one, checked to be the
     * folder outdir_open took, is at the staging name */
    rc = drop_previous(d, d->dfd, d->sfd, d->lockfd, err, errlen);
    if (rc) {
        int back = swap_back(d);
        close(lock);
        if (back == 0) {
            unlinkat(d->sfd, OUTDIR_LOCK, 0);
            unlinkat(d->sfd, OUTDIR_MANIFEST, 0);
            return rc;
        }
        d->committed = 1;
        snprintf(err + strlen(err), errlen - strlen(err), "; and the folder could not be put back (%s): the "
                 "new outputs are in %s, the previous folder is %s/%s", strerror(-back), d->dir, d->parent,
                 d->sname);
        return rc;
    }
    int prev = d->dfd;
    d->dfd = d->sfd;
    d->sfd = prev;
    close(d->lockfd);
    d->lockfd = lock;
    d->lst = lst;
    d->dst = sst;
    d->committed = 1;
    return 0;
}

/* A file-by-file commit under way: what has moved, so it can be put back. */
typedef struct file_commit {
    char *moved;        /* [i]: the previous run's file i is in BACKUP */
    char *placed;       /* [i]: staged file i is in DIR */
    const char *failed; /* the name the failing step was about */
    int bfd;            /* the staging folder's BACKUP */
    int union_in;       /* DIR's manifest names both runs' files */
} file_commit;

/* The steps forward: BACKUP made, the manifest of both runs in DIR, the
 * previous files moved aside, the staged ones in, the new manifest. */
static int files_forward(outdir *d, file_commit *fc)
{
    int rc;
    if (mkdirat(d->sfd, BACKUP, 0700) != 0 ||
        (fc->bfd = openat(d->sfd, BACKUP, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
        fc->failed = d->sname;
        return -errno;
    }
    /* a manifest naming both runs' files, so cosim's own files are never
     * taken for foreign ones whatever happens next */
    if ((rc = od_write_manifest(d, d->sfd, ".manifest-both", 1)) != 0 ||
        (renameat(d->sfd, ".manifest-both", d->dfd, OUTDIR_MANIFEST) != 0 && (rc = -errno))) {
        fc->failed = OUTDIR_MANIFEST;
        return rc;
    }
    fc->union_in = 1;
    for (size_t i = 0; i < d->n_old; i++) {
        struct stat st;
        if (fstatat(d->dfd, d->old[i], &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
            continue;
        if (renameat(d->dfd, d->old[i], fc->bfd, d->old[i]) != 0) {
            fc->failed = d->old[i];
            return -errno;
        }
        fc->moved[i] = 1;
    }
    for (size_t i = 0; i < d->n; i++) {
        if (renameat(d->sfd, d->files[i]->name, d->dfd, d->files[i]->name) != 0) {
            fc->failed = d->files[i]->name;
            return -errno;
        }
        fc->placed[i] = 1;
    }
    if ((rc = od_write_manifest(d, d->sfd, ".manifest-new", 0)) != 0 ||
        (renameat(d->sfd, ".manifest-new", d->dfd, OUTDIR_MANIFEST) != 0 && (rc = -errno))) {
        fc->failed = OUTDIR_MANIFEST;
        return rc;
    }
    return 0;
}

/* Undo what files_forward did. Returns 1 when everything is back as it
 * was, 0 when something could not be put back. */
static int files_back(outdir *d, file_commit *fc)
{
    int back = 1;
    for (size_t i = 0; fc->placed && i < d->n; i++)
        if (fc->placed[i] && renameat(d->dfd, d->files[i]->name, d->sfd, d->files[i]->name) != 0)
            back = 0;
    for (size_t i = 0; fc->moved && i < d->n_old; i++)
        if (fc->moved[i] && renameat2(fc->bfd, d->old[i], d->dfd, d->old[i], RENAME_NOREPLACE) != 0)
            back = 0;
    if (fc->union_in) {
        if (d->had_manifest) {
            if (od_write_at(d->sfd, ".manifest-old", d->old_raw, d->old_raw_len) != 0 ||
                renameat(d->sfd, ".manifest-old", d->dfd, OUTDIR_MANIFEST) != 0)
                back = 0; /* the manifest naming both runs stays: still true */
        } else {
            unlinkat(d->dfd, OUTDIR_MANIFEST, 0);
        }
    }
    if (fc->bfd >= 0) {
        close(fc->bfd);
        if (back)
            unlinkat(d->sfd, BACKUP, AT_REMOVEDIR);
    }
    return back;
}

/* Put the staged files into DIR one by one: the previous run's files are
 * moved aside into the staging folder's BACKUP first (the manifest listing
 * both meanwhile), and moved back if anything fails. @return 0 or -errno. */
static int commit_files(outdir *d, char *err, size_t errlen)
{
    file_commit fc = {.moved = calloc(d->n_old + 1, 1), .placed = calloc(d->n + 1, 1), .bfd = -1};
    int rc = fc.moved && fc.placed ? files_forward(d, &fc) : -ENOMEM;
    if (!rc) {
        d->committed = 1;
        od_empty_folder(fc.bfd);
        close(fc.bfd);
        unlinkat(d->sfd, BACKUP, AT_REMOVEDIR);
        free(fc.moved);
        free(fc.placed);
        return 0;
    }
    /* put everything back as it was */
    int back = files_back(d, &fc);
    free(fc.moved);
    free(fc.placed);
    const char *failed = fc.failed;
    if (back)
        od_say(err, errlen, "%s/%s: cannot replace: %s", d->dir, failed ? failed : "", strerror(-rc));
    else
        od_say(err, errlen, "%s/%s: cannot replace: %s; the previous files could not all be put back: "
                         "see %s/%s/%s", d->dir, failed ? failed : "", strerror(-rc),
            d->spfd == d->dfd ? d->dir : d->parent, d->sname, BACKUP);
    return rc;
}

int outdir_commit(outdir *d, char *err, size_t errlen)
{
    for (size_t i = 0; i < d->n; i++)
        if (!d->files[i]->done) {
            od_say(err, errlen, "%s/%s: not completely written", d->dir, d->files[i]->name);
            return -EIO;
        }
    /* a file cosim did not write is never replaced, even with --force */
    for (size_t i = 0; i < d->n; i++) {
        struct stat st;
        const char *nm = d->files[i]->name;
        if (fstatat(d->dfd, nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && (!od_in_old(d, nm) || S_ISDIR(st.st_mode))) {
            od_say(err, errlen, "%s/%s: not written by cosim (not in %s), so not replaced; move it away or "
                             "give another folder", d->dir, nm, OUTDIR_MANIFEST);
            return -EEXIST;
        }
    }
    /* DIR must still be the folder outdir_open took: a folder put in its
     * place meanwhile is never swapped away nor written into */
    if (!od_same_entry(d->pfd, d->base, &d->dst))
        return say_replaced(d, err, errlen);
    sigset_t old;
    outdir_block_signals(&old);
    od_disarm(); /* from here on the commit finishes or undoes itself */
    int rc = 1;
    if (d->exchange)
        rc = commit_exchange(d, err, errlen);
    if (rc == 1) {
        d->exchange = 0;
        rc = commit_files(d, err, errlen);
    }
    if (rc && !d->committed)
        od_arm(d);
    /* an interrupt that came during a commit that completed is dropped:
     * DIR holds the new outputs, so the run ends as one that succeeded
     * (exit 130 says DIR was left as it was) */
    if (d->committed)
        od_discard_pending_signals();
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

void outdir_close(outdir *d)
{
    if (!d)
        return;
    sigset_t old;
    outdir_block_signals(&old);
    od_disarm();
    for (size_t i = 0; i < d->n; i++)
        if (d->files[i]->f) {
            fclose(d->files[i]->f);
            d->files[i]->f = NULL;
        }
    if (d->committed && !d->exchange) {
        unlinkat(d->sfd, MARKER, 0);
        unlinkat(d->spfd, d->sname, AT_REMOVEDIR); /* file by file: it is empty now */
    } else if (!d->committed && d->sfd >= 0) {
        /* everything staged, and the manifest and lock of an exchange
         * that did not happen: all cosim's, in a folder of its own */
        od_empty_folder(d->sfd);
        unlinkat(d->spfd, d->sname, AT_REMOVEDIR);
    }
    /* the lock goes with the writer (a waiting writer re-checks it), if
     * the name still holds the lock this run took */
    if (d->lockfd >= 0 && od_same_entry(d->dfd, OUTDIR_LOCK, &d->lst))
        unlinkat(d->dfd, OUTDIR_LOCK, 0);
    /* a folder the run made, and the parents it made, deepest first, only
     * if still empty (and DIR only if it is still the folder made) */
    if (d->created && !d->committed && od_same_entry(d->pfd, d->base, &d->dst))
        unlinkat(d->pfd, d->base, AT_REMOVEDIR);
    if (!d->committed)
        od_remove_made(d->made_path, d->made_end);
    od_set_current(NULL);
    od_restore_handlers();
    od_free_outdir(d);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

const char *outdir_path(const outdir *d)
{
    return d->dir;
}

int outdir_staging_fd(const outdir *d)
{
    return d->sfd;
}
