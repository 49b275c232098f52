/* outdir_lock.c - taking the output folder: its parents, its lock file, and
 * stale staging folders of dead runs. */
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

/* mkdir -p path (0777 less the umask), recording in d which prefixes of
 * path it made (d->made_path, d->made_end). @return 0 or -errno. */
int od_make_parents(outdir *d, const char *path)
{
    char *buf = d->made_path;
    if (snprintf(buf, PATH_MAX, "%s", path) >= PATH_MAX)
        return -ENAMETOOLONG;
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) == 0)
            d->made_end[p - buf] = 1;
        else if (errno != EEXIST)
            return -errno;
        *p = c;
        if (!c)
            return 0;
    }
}

/* Is folder fd the same as the folder at path? */
int od_same_folder(const struct stat *st, const char *path)
{
    struct stat o;
    return path && *path && stat(path, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* The pid in a lock file's text, which is exactly LOCK_PREFIX PID "\n".
 * @return the pid, or 0 if text is not a cosim lock's. */
static long lock_pid(const char *text)
{
    size_t n = strlen(LOCK_PREFIX);
    if (strncmp(text, LOCK_PREFIX, n) != 0)
        return 0;
    const char *p = text + n;
    long pid = 0;
    if (*p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (pid > INT_MAX / 10)
            return 0;
        pid = pid * 10 + (*p - '0');
    }
    return strcmp(p, "\n") == 0 && pid > 0 ? pid : 0;
}

/* Write this process's lock text into the lock file fd, replacing its
 * text. @return 0 or -errno. */
int od_write_lock(int fd)
{
    char text[64];
    int n = snprintf(text, sizeof text, LOCK_PREFIX "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0)
        return -errno;
    ssize_t w = pwrite(fd, text, (size_t)n, 0);
    return w == n ? 0 : w < 0 ? -errno : -EIO;
}

/* Open DIR/.cosim-lock: made here (*made), or else the one there, read
 * only; it must be a regular file with one link (*st). @return the file
 * descriptor, or -errno with the message (-EAGAIN, no message, when it
 * went between the two opens). */
static int open_lock(outdir *d, int *made, struct stat *st, char *err, size_t errlen)
{
    int fd = openat(d->dfd, OUTDIR_LOCK, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    *made = fd >= 0;
    if (!*made && errno == EEXIST)
        fd = openat(d->dfd, OUTDIR_LOCK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT)
            return -EAGAIN; /* removed between the two opens */
        if (e == ELOOP)
            od_say(err, errlen, "%s: %s is a symbolic link, not cosim's lock; remove it", d->dir, OUTDIR_LOCK);
        else
            od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(e));
        return -e;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_nlink != 1) {
        /* a hard link could make the pid overwrite another file */
        close(fd);
        od_say(err, errlen, "%s: %s is not a regular file of its own, not cosim's lock; remove it", d->dir,
            OUTDIR_LOCK);
        return -EINVAL;
    }
    return fd;
}

/* The pid written in a lock file cosim did not make here. A writer that
 * has just made its lock writes its text at once: wait (at most 0.5 s)
 * for a whole line. @return the pid, or 0 when the text is not a cosim
 * lock's. */
static long read_holder(int fd)
{
    char buf[64] = "";
    for (int i = 0; i < 50; i++) {
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        buf[n > 0 ? n : 0] = '\0';
        if (n > 0 && (buf[n - 1] == '\n' || n == (ssize_t)sizeof buf - 1))
            break;
        usleep(10000);
    }
    return lock_pid(buf);
}

/* flock the lock file without waiting; held by another run (holder, when
 * known) is -EBUSY with the message. fd is closed on failure. */
static int flock_lock(const outdir *d, int fd, long holder, char *err, size_t errlen)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    int e = errno;
    close(fd);
    if (e != EWOULDBLOCK) {
        od_say(err, errlen, "%s: cannot lock the output folder: %s", d->dir, strerror(e));
        return -e;
    }
    if (holder > 0)
        od_say(err, errlen, "%s: another cosim (pid %ld) is writing this folder; try again when it has finished",
            d->dir, holder);
    else
        od_say(err, errlen, "%s: another cosim is writing this folder; try again when it has finished", d->dir);
    return -EBUSY;
}

/* Is the lock (st) still DIR's, and DIR still the folder we opened? A
 * writer that finished may have swapped DIR or removed the lock file
 * between our open and flock. */
static int still_ours(const outdir *d, const struct stat *st)
{
    int again = openat(d->pfd, d->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat a, b;
    int same = again >= 0 && fstat(again, &a) == 0 && fstat(d->dfd, &b) == 0 && a.st_dev == b.st_dev &&
               a.st_ino == b.st_ino && od_same_entry(d->dfd, OUTDIR_LOCK, st);
    if (again >= 0)
        close(again);
    return same;
}

/* Our pid into the lock file st (fd when made here; a dead run's lock was
 * opened to read, so it is opened again to write). @return 0, -EAGAIN
 * (another file at the name now) or -errno. */
static int write_our_pid(const outdir *d, int fd, int made, const struct stat *st)
{
    int wfd = made ? fd : openat(d->dfd, OUTDIR_LOCK, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat w;
    int rc = wfd < 0 ? -errno : fstat(wfd, &w) != 0 ? -errno : (w.st_dev != st->st_dev || w.st_ino != st->st_ino)
                                                                     ? -EAGAIN
                                                                     : od_write_lock(wfd);
    if (wfd >= 0 && wfd != fd)
        close(wfd);
    return rc;
}

/* Take DIR/.cosim-lock. The lock file is cosim's when this run makes it
 * (O_CREAT|O_EXCL) or when its whole text is LOCK_PREFIX PID "\n" (a run
 * that holds it, or a killed run's, whose flock is free); any other file
 * of that name is the user's, never written, truncated nor removed, and
 * the folder is refused (-EEXIST).
 * @return 0, -EBUSY (err names the holder's pid), -EEXIST, -EAGAIN (DIR
 * changed under us: open again) or -errno. */
int od_take_lock(outdir *d, char *err, size_t errlen)
{
    int made;
    struct stat st;
    int fd = open_lock(d, &made, &st, err, errlen);
    if (fd < 0)
        return fd;
    long holder = 0;
    if (!made && !(holder = read_holder(fd))) {
        close(fd);
        od_say(err, errlen, "%s: holds %s, which cosim did not write (not a cosim lock); cosim never writes "
                         "over it: move it away or give another folder", d->dir, OUTDIR_LOCK);
        return -EEXIST;
    }
    int rc = flock_lock(d, fd, holder, err, errlen);
    if (rc)
        return rc;
    if (!still_ours(d, &st)) {
        if (made && od_same_entry(d->dfd, OUTDIR_LOCK, &st))
            unlinkat(d->dfd, OUTDIR_LOCK, 0);
        close(fd);
        return -EAGAIN;
    }
    /* ours now: our pid in it */
    rc = write_our_pid(d, fd, made, &st);
    if (rc) {
        if (made && od_same_entry(d->dfd, OUTDIR_LOCK, &st))
            unlinkat(d->dfd, OUTDIR_LOCK, 0);
        close(fd);
        if (rc != -EAGAIN)
            od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    d->lockfd = fd;
    d->lst = st;
    return 0;
}

/* The pid in a staging folder's name after its prefix: "PID-XXXXXX", or
 * "PID" (cosim 0.1). @return the pid, or 0 if the name is not one. */
static long staging_pid(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0)
        return 0;
    const char *p = name + n;
    char *end;
    if (*p < '0' || *p > '9')
        return 0;
    errno = 0;
    long pid = strtol(p, &end, 10);
    if (errno || pid <= 0 || pid > INT_MAX)
        return 0;
    if (*end == '\0')
        return pid;
    if (*end != '-' || strlen(end + 1) != 6)
        return 0;
    return pid;
}

/* The names on the "file NAME" lines of the listing file (a manifest, or a
 * staging folder's MARKER) in folder at, appended to *names (*n of them).
 * @return 0, or -EINVAL if it is not such a listing (no file, a link, not
 * starting with header, an unknown line), or another -errno. */
static int load_listing(int at, const char *file, const char *header, char ***names, size_t *n)
{
    int fd = openat(at, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MANIFEST_MAX_BYTES) {
        if (fd >= 0)
            close(fd);
        return -EINVAL;
    }
    char *text = malloc((size_t)st.st_size + 1);
    ssize_t len = text ? pread(fd, text, (size_t)st.st_size, 0) : -1;
    close(fd);
    if (len < 0) {
        free(text);
        return text ? -EIO : -ENOMEM;
    }
    text[len] = '\0';
    int rc = 0;
    size_t line = 0;
    for (char *l = text, *nl; !rc && l && *l; l = nl) {
        nl = strchr(l, '\n');
        if (nl)
            *nl++ = '\0';
        if (line++ == 0) {
            rc = strcmp(l, header) == 0 ? 0 : -EINVAL;
        } else if (strncmp(l, "file ", 5) == 0 && od_valid_name(l + 5)) {
            char **m = realloc(*names, (*n + 1) * sizeof *m);
            if (!m || !(m[*n] = strdup(l + 5)))
                rc = -ENOMEM;
            if (m)
                *names = m;
            if (!rc)
                (*n)++;
        } else if (!(l[0] == '#' || l[0] == '\0' || strncmp(l, "source ", 7) == 0)) {
            rc = -EINVAL;
        }
    }
    free(text);
    return line ? rc : -EINVAL;
}

/* The names a cosim staging folder holds of its own, whatever the run:
 * the marker, a manifest and lock (an exchange about to happen), the
 * manifests of a file-by-file commit. */
static int own_staging_name(const char *name)
{
    static const char *const own[] = {MARKER, OUTDIR_MANIFEST, OUTDIR_LOCK, ".manifest-both", ".manifest-new",
                                      ".manifest-old"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(name, own[i]) == 0)
            return 1;
    return 0;
}

/* Remove the staging folders under prefix in folder at (shown as atpath in
 * warnings) whose run is dead (left by a SIGKILL or a crash): real folders
 * of ours only, never a link, and only if cosim marked the folder as its
 * own (its MARKER or a manifest, listing the files it staged); then only
 * the files listed there and cosim's own names are removed, never anything
 * deeper. A folder without a marker, or holding anything else, is left
 * alone with a warning. */
void od_remove_stale(int at, const char *atpath, const char *prefix)
{
    char **names;
    long n = od_list_folder(at, &names);
    for (long i = 0; i < n; i++) {
        long pid = staging_pid(names[i], prefix);
        if (pid == 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        int fd = openat(at, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue; /* a link or a file: not a staging folder, not ours */
        char **listed = NULL;
        size_t n_listed = 0;
        int marked = 0;
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid()) {
            marked |= load_listing(fd, MARKER, MARKER_HEADER, &listed, &n_listed) == 0;
            marked |= load_listing(fd, OUTDIR_MANIFEST, MANIFEST_HEADER, &listed, &n_listed) == 0;
            if (!marked)
                od_warn("%s/%s: left alone: it looks like a staging folder of a cosim run that ended, but holds "
                     "no %s nor %s of cosim's", atpath, names[i], MARKER, OUTDIR_MANIFEST);
        }
        if (marked) {
            char **inside;
            long k = od_list_folder(fd, &inside);
            const char *kept = NULL;
            for (long j = 0; j < k; j++) {
                int ours = own_staging_name(inside[j]);
                for (size_t m = 0; !ours && m < n_listed; m++)
                    ours = strcmp(inside[j], listed[m]) == 0;
                /* a backup of a file-by-file commit that could not be
                 * put back is the user's to see: the folder then stays */
                if (!(ours && unlinkat(fd, inside[j], 0) == 0) &&
                    !(strcmp(inside[j], BACKUP) == 0 && unlinkat(fd, BACKUP, AT_REMOVEDIR) == 0) && !kept)
                    kept = inside[j];
            }
            if (kept)
                od_warn("%s/%s: the staging folder of a cosim run that ended is kept: it holds %s, which cosim "
                     "did not write there or cannot remove", atpath, names[i], kept);
            else if (k >= 0)
                unlinkat(at, names[i], AT_REMOVEDIR);
            if (k > 0)
                od_free_names(inside, (size_t)k);
        }
        od_free_names(listed, n_listed);
        close(fd);
    }
    if (n > 0)
        od_free_names(names, (size_t)n);
}

/* Read DIR's manifest, if any. @return 0 or -errno with err. */
