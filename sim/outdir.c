/* outdir.c - the output folder: manifest, lock, staging, atomic commit.
 *
 * Every path below DIR's parent is reached through a folder descriptor
 * (openat, unlinkat, renameat2), final components with O_NOFOLLOW, so a
 * symbolic link planted in DIR is never followed. The contract is in
 * outdir.h and docs/decisions.md.
 */
#define _GNU_SOURCE
#include "outdir.h"

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

/* ---- small helpers ------------------------------------------------------ */

static void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("cosim: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A file name cosim may write: 1 to NAME_MAX bytes, no '/', no control
 * character, not beginning with '.' (those are cosim's own: manifest, lock,
 * staging). */
static int valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > NAME_MAX || name[0] == '.')
        return 0;
    for (const char *p = name; *p; p++)
        if (*p == '/' || (unsigned char)*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

/* Is the entry name in folder at (not followed if a link) the file st
 * describes (same device and inode)? System calls only: the signal handler
 * uses it. */
static int same_entry(int at, const char *name, const struct stat *st)
{
    struct stat o;
    return fstatat(at, name, &o, AT_SYMLINK_NOFOLLOW) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* Remove the parent folders made for an output folder (see outdir.made_end),
 * deepest first, each only if empty (rmdir). System calls only. */
static void remove_made(char *path, const unsigned char *ends)
{
    for (size_t i = PATH_MAX - 1; i > 0; i--) {
        if (!ends[i])
            continue;
        char c = path[i];
        path[i] = '\0';
        rmdir(path);
        path[i] = c;
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the previous manifest's names are sorted: a lookup is a binary search */
static int in_old(const outdir *d, const char *name)
{
    return d->n_old && bsearch(&name, d->old, d->n_old, sizeof *d->old, cmp_names) != NULL;
}

static int in_new(const outdir *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->files[i]->name, name) == 0)
            return 1;
    return 0;
}

/* The names in folder fd other than "." and "..", sorted in byte order.
 * @return the count, or a negative errno. */

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static long list_folder(int fd, char ***out)
{
    *out = NULL;
    int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dup_fd < 0)
        return -errno;
    DIR *dp = fdopendir(dup_fd);
    if (!dp) {
        int e = errno;
        close(dup_fd);
        return -e;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    long rc = 0;
    errno = 0;
    while ((e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **m = realloc(names, cap * sizeof *m);
            if (!m) {
                rc = -ENOMEM;
                break;
            }
            names = m;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = -ENOMEM;
            break;
        }
        n++;
    }
    closedir(dp);
    if (rc) {
        free_names(names, n);
        return rc;
    }
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    return (long)n;
}

/* Remove the plain entries (files, links, ...) of folder fd; subfolders are
 * never entered. @return the number of entries that stay. */
static size_t empty_folder(int fd)
{
    char **names;
    long n = list_folder(fd, &names);
    size_t left = 0;
    for (long i = 0; i < n; i++)
        if (unlinkat(fd, names[i], 0) != 0)
            left++;
    if (n > 0)
        free_names(names, (size_t)n);
    return n < 0 ? 1 : left;
}

/* Write a whole file name into folder at (created new; an older one of that
 * name, cosim's own, is replaced). @return 0 or -errno. */
static int write_at(int at, const char *name, const char *data, size_t len)
{
    unlinkat(at, name, 0);
    int fd = openat(at, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return -errno;
    size_t done = 0;
    int rc = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = w < 0 ? -errno : -EIO;
            break;
        }
        done += (size_t)w;
    }
    if (close(fd) != 0 && !rc)
        rc = -errno;
    if (rc)
        unlinkat(at, name, 0);
    return rc;
}

/* The manifest's text for names[0..n). */
static char *manifest_text(const char *source, char *const *names, size_t n, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fprintf(f, MANIFEST_HEADER "\n"
               "# The files the last cosim run wrote in this folder. A later run\n"
               "# replaces or removes only these; every other file here is left alone.\n");
    if (source)
        fprintf(f, "source %s\n", source);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "file %s\n", names[i]);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The manifest of the staged files (new) or of the union of the previous
 * run's and the staged files (for the time of a file-by-file commit),
 * written as name in folder at. @return 0 or -errno. */
static int write_manifest(const outdir *d, int at, const char *name, int with_old)
{
    size_t n = d->n + (with_old ? d->n_old : 0), k = 0;
    char **names = calloc(n ? n : 1, sizeof *names);
    if (!names)
        return -ENOMEM;
    for (size_t i = 0; with_old && i < d->n_old; i++)
        names[k++] = d->old[i];
    for (size_t i = 0; i < d->n; i++)
        if (!with_old || !in_old(d, d->files[i]->name))
            names[k++] = d->files[i]->name;
    size_t len;
    char *text = manifest_text(d->source, names, k, &len);
    free(names);
    if (!text)
        return -ENOMEM;
    int rc = write_at(at, name, text, len);
    free(text);
    return rc;
}

/* "\\" and "\n" escaped, so a path is one manifest line. */
static char *escape_line(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += (*p == '\\' || *p == '\n') ? 2 : 1;
    char *out = malloc(n + 1), *q = out;
    if (!out)
        return NULL;
    for (const char *p = s; *p; p++) {
        if (*p == '\\' || *p == '\n') {
            *q++ = '\\';
            *q++ = *p == '\n' ? 'n' : '\\';
        } else {
            *q++ = *p;
        }
    }
    *q = '\0';
    return out;
}

/* ---- signals ------------------------------------------------------------- */

/* What the handler needs to remove the staging folder: descriptors and
 * names only, so it uses nothing but system calls. */
static struct {
    volatile sig_atomic_t armed;
    pid_t owner;
    int sfd, spfd, dfd, pfd, created, locked;
    struct stat dst, lst; /* DIR and its lock, when opened */
    char sname[NAME_MAX + 1], base[NAME_MAX + 1];
    char made_path[PATH_MAX];
    unsigned char made_end[PATH_MAX];
} sig_state;

static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_HANDLED (sizeof handled_signals / sizeof handled_signals[0])
static struct sigaction saved_actions[N_HANDLED], saved_xfsz;
static int handlers_installed;
static outdir *current; /* the open output folder (one at a time) */

struct raw_dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* empty_folder with system calls only (getdents64, unlinkat). */
static void empty_folder_raw(int fd)
{
    static _Alignas(8) char buf[8192];
    for (int pass = 0; pass < 1000; pass++) {
        int removed = 0;
        if (lseek(fd, 0, SEEK_SET) != 0)
            return;
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                struct raw_dirent *e = (struct raw_dirent *)(void *)(buf + off);
                const char *nm = e->d_name;
                if (!(nm[0] == '.' && (nm[1] == '\0' || (nm[1] == '.' && nm[2] == '\0'))) &&
                    unlinkat(fd, nm, 0) == 0)
                    removed++;
                off += e->d_reclen;
            }
        }
        if (!removed)
            return;
    }
}

static void on_signal(int signo)
{
    if (sig_state.armed && getpid() == sig_state.owner) {
        sig_state.armed = 0;
        empty_folder_raw(sig_state.sfd);
        unlinkat(sig_state.spfd, sig_state.sname, AT_REMOVEDIR);
        if (sig_state.locked && same_entry(sig_state.dfd, OUTDIR_LOCK, &sig_state.lst))
            unlinkat(sig_state.dfd, OUTDIR_LOCK, 0);
        if (sig_state.created && same_entry(sig_state.pfd, sig_state.base, &sig_state.dst))
            unlinkat(sig_state.pfd, sig_state.base, AT_REMOVEDIR);
        remove_made(sig_state.made_path, sig_state.made_end);
    }
    /* end as the signal would have ended us */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, signo);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(signo);
}

/* A forked child (a sweep worker, gnuplot before exec) does not own the
 * output folder: it drops its copy of the lock and never cleans. */
static void on_fork_child(void)
{
    sig_state.armed = 0;
    if (current && current->lockfd >= 0) {
        close(current->lockfd);
        current->lockfd = -1;
    }
    current = NULL;
}

static void block_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    for (size_t i = 0; i < N_HANDLED; i++)
        sigaddset(&s, handled_signals[i]);
    sigprocmask(SIG_BLOCK, &s, old);
}

/* A folder still open when the process exits (an early return that missed
 * outdir_close) is closed: its staging folder removed, nothing committed. */
static void close_at_exit(void)
{
    if (current)
        outdir_close(current);
}

static void install_handlers(void)
{
    static int atfork_done, atexit_done;
    if (!atfork_done && pthread_atfork(NULL, NULL, on_fork_child) == 0)
        atfork_done = 1;
    if (!atexit_done && atexit(close_at_exit) == 0)
        atexit_done = 1;
    for (size_t i = 0; i < N_HANDLED; i++) {
        struct sigaction sa;
        sigaction(handled_signals[i], NULL, &saved_actions[i]);
        if (saved_actions[i].sa_handler == SIG_IGN)
            continue; /* ignored when we started (nohup, a background job): stays so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < N_HANDLED; k++)
            sigaddset(&sa.sa_mask, handled_signals[k]);
        sigaction(handled_signals[i], &sa, NULL);
    }
    /* past RLIMIT_FSIZE a write fails with EFBIG, said, instead of a kill */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGXFSZ, &ign, &saved_xfsz);
    handlers_installed = 1;
}

static void restore_handlers(void)
{
    if (!handlers_installed)
        return;
    for (size_t i = 0; i < N_HANDLED; i++)
        sigaction(handled_signals[i], &saved_actions[i], NULL);
    sigaction(SIGXFSZ, &saved_xfsz, NULL);
    handlers_installed = 0;
}

/* Point the handler at d's staging folder (signals blocked by the caller). */
static void arm(const outdir *d)
{
    sig_state.owner = getpid();
    sig_state.sfd = d->sfd;
    sig_state.spfd = d->spfd;
    sig_state.dfd = d->dfd;
    sig_state.pfd = d->pfd;
    sig_state.created = d->created;
    sig_state.locked = d->lockfd >= 0;
    sig_state.dst = d->dst;
    sig_state.lst = d->lst;
    memcpy(sig_state.made_path, d->made_path, sizeof sig_state.made_path);
    memcpy(sig_state.made_end, d->made_end, sizeof sig_state.made_end);
    memcpy(sig_state.sname, d->sname, sizeof sig_state.sname);
    memcpy(sig_state.base, d->base, sizeof sig_state.base);
    sig_state.armed = 1;
}

/* ---- opening --------------------------------------------------------------- */

/* mkdir -p path (0777 less the umask), recording in d which prefixes of
 * path it made (d->made_path, d->made_end). @return 0 or -errno. */
static int make_parents(outdir *d, const char *path)
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
static int same_folder(const struct stat *st, const char *path)
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
static int write_lock(int fd)
{
    char text[64];
    int n = snprintf(text, sizeof text, LOCK_PREFIX "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0)
        return -errno;
    ssize_t w = pwrite(fd, text, (size_t)n, 0);
    return w == n ? 0 : w < 0 ? -errno : -EIO;
}

/* Take DIR/.cosim-lock. The lock file is cosim's when this run makes it
 * (O_CREAT|O_EXCL) or when its whole text is LOCK_PREFIX PID "\n" (a run
 * that holds it, or a killed run's, whose flock is free); any other file
 * of that name is the user's, never written, truncated nor removed, and
 * the folder is refused (-EEXIST).
 * @return 0, -EBUSY (err names the holder's pid), -EEXIST, -EAGAIN (DIR
 * changed under us: open again) or -errno. */
static int take_lock(outdir *d, char *err, size_t errlen)
{
    int fd = openat(d->dfd, OUTDIR_LOCK, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    int made = fd >= 0;
    if (!made && errno == EEXIST)
        fd = openat(d->dfd, OUTDIR_LOCK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT)
            return -EAGAIN; /* removed between the two opens */
        if (e == ELOOP)
            say(err, errlen, "%s: %s is a symbolic link, not cosim's lock; remove it", d->dir, OUTDIR_LOCK);
        else
            say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        /* a hard link could make the pid overwrite another file */
        close(fd);
        say(err, errlen, "%s: %s is not a regular file of its own, not cosim's lock; remove it", d->dir,
            OUTDIR_LOCK);
        return -EINVAL;
    }
    long holder = 0;
    if (!made) {
        /* a writer that has just made its lock writes its text at once:
         * wait (at most 0.5 s) for a whole line */
        char buf[64] = "";
        for (int i = 0; i < 50; i++) {
            ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
            buf[n > 0 ? n : 0] = '\0';
            if (n > 0 && (buf[n - 1] == '\n' || n == (ssize_t)sizeof buf - 1))
                break;
            usleep(10000);
        }
        if (!(holder = lock_pid(buf))) {
            close(fd);
            say(err, errlen, "%s: holds %s, which cosim did not write (not a cosim lock); cosim never writes "
                             "over it: move it away or give another folder", d->dir, OUTDIR_LOCK);
            return -EEXIST;
        }
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e != EWOULDBLOCK) {
            say(err, errlen, "%s: cannot lock the output folder: %s", d->dir, strerror(e));
            return -e;
        }
        if (holder > 0)
            say(err, errlen, "%s: another cosim (pid %ld) is writing this folder; try again when it has finished",
                d->dir, holder);
        else
            say(err, errlen, "%s: another cosim is writing this folder; try again when it has finished", d->dir);
        return -EBUSY;
    }
    /* the lock must still be DIR's: a writer that finished may have
     * swapped DIR or removed the lock file between our open and flock */
    int again = openat(d->pfd, d->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat a, b;
    int same = again >= 0 && fstat(again, &a) == 0 && fstat(d->dfd, &b) == 0 && a.st_dev == b.st_dev &&
               a.st_ino == b.st_ino && same_entry(d->dfd, OUTDIR_LOCK, &st);
    if (again >= 0)
        close(again);
    if (!same) {
        if (made && same_entry(d->dfd, OUTDIR_LOCK, &st))
            unlinkat(d->dfd, OUTDIR_LOCK, 0);
        close(fd);
        return -EAGAIN;
    }
    /* ours now: our pid in it (a dead run's lock was opened to read) */
    int wfd = made ? fd : openat(d->dfd, OUTDIR_LOCK, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat w;
    int rc = wfd < 0 ? -errno : fstat(wfd, &w) != 0 ? -errno : (w.st_dev != st.st_dev || w.st_ino != st.st_ino)
                                                                     ? -EAGAIN
                                                                     : write_lock(wfd);
    if (wfd >= 0 && wfd != fd)
        close(wfd);
    if (rc) {
        if (made && same_entry(d->dfd, OUTDIR_LOCK, &st))
            unlinkat(d->dfd, OUTDIR_LOCK, 0);
        close(fd);
        if (rc != -EAGAIN)
            say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
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
        } else if (strncmp(l, "file ", 5) == 0 && valid_name(l + 5)) {
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
static void remove_stale(int at, const char *atpath, const char *prefix)
{
    char **names;
    long n = list_folder(at, &names);
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
                warn("%s/%s: left alone: it looks like a staging folder of a cosim run that ended, but holds "
                     "no %s nor %s of cosim's", atpath, names[i], MARKER, OUTDIR_MANIFEST);
        }
        if (marked) {
            char **inside;
            long k = list_folder(fd, &inside);
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
                warn("%s/%s: the staging folder of a cosim run that ended is kept: it holds %s, which cosim "
                     "did not write there or cannot remove", atpath, names[i], kept);
            else if (k >= 0)
                unlinkat(at, names[i], AT_REMOVEDIR);
            if (k > 0)
                free_names(inside, (size_t)k);
        }
        free_names(listed, n_listed);
        close(fd);
    }
    if (n > 0)
        free_names(names, (size_t)n);
}

/* Read DIR's manifest, if any. @return 0 or -errno with err. */
static int read_manifest(outdir *d, char *err, size_t errlen)
{
    int fd = openat(d->dfd, OUTDIR_MANIFEST, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return 0;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MANIFEST_MAX_BYTES) {
        int e = fd < 0 ? errno : EINVAL;
        if (fd >= 0)
            close(fd);
        if (e == ELOOP || e == EINVAL)
            say(err, errlen, "%s/%s: not a cosim manifest (not a regular file of at most 1 MiB); remove it",
                d->dir, OUTDIR_MANIFEST);
        else
            say(err, errlen, "%s/%s: cannot read: %s", d->dir, OUTDIR_MANIFEST, strerror(e));
        return -(e == ELOOP ? EINVAL : e);
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t len = 0;
    int rc = buf ? 0 : -ENOMEM;
    while (!rc && len < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = -errno;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (rc) {
        free(buf);
        say(err, errlen, "%s/%s: cannot read: %s", d->dir, OUTDIR_MANIFEST, strerror(-rc));
        return rc;
    }
    buf[len] = '\0';
    d->old_raw = buf;
    d->old_raw_len = len;
    d->had_manifest = 1;
    /* parse a copy, line by line */
    char *text = strdup(buf);
    if (!text)
        return -ENOMEM;
    size_t cap = 0, line = 0;
    rc = 0;
    int header = 0;
    for (char *l = text, *nl; !rc && l && *l; l = nl) {
        nl = strchr(l, '\n');
        if (nl)
            *nl++ = '\0';
        line++;
        if (line == 1) {
            header = strcmp(l, MANIFEST_HEADER) == 0;
            if (!header)
                rc = -EINVAL;
            continue;
        }
        if (l[0] == '#' || l[0] == '\0')
            continue;
        if (strncmp(l, "source ", 7) == 0 && !d->old_source) {
            if (!(d->old_source = strdup(l + 7)))
                rc = -ENOMEM;
        } else if (strncmp(l, "file ", 5) == 0 && valid_name(l + 5)) {
            if (d->n_old == cap) {
                cap = cap ? 2 * cap : 32;
                char **m = realloc(d->old, cap * sizeof *m);
                if (!m) {
                    rc = -ENOMEM;
                    break;
                }
                d->old = m;
            }
            if (!(d->old[d->n_old] = strdup(l + 5)))
                rc = -ENOMEM;
            else
                d->n_old++;
        } else {
            rc = -EINVAL;
        }
    }
    free(text);
    if (!rc && !header)
        rc = -EINVAL;
    if (!rc && d->n_old) { /* sorted, each name once */
        qsort(d->old, d->n_old, sizeof *d->old, cmp_names);
        size_t k = 1;
        for (size_t i = 1; i < d->n_old; i++) {
            if (strcmp(d->old[i], d->old[k - 1]) == 0)
                free(d->old[i]);
            else
                d->old[k++] = d->old[i];
        }
        d->n_old = k;
    }
    if (rc == -EINVAL)
        say(err, errlen, "%s/%s:%zu: not a cosim manifest; remove it (cosim then takes the folder only "
                         "if it is empty, or with --force)", d->dir, OUTDIR_MANIFEST, line ? line : 1);
    else if (rc)
        say(err, errlen, "%s: out of memory", d->dir);
    return rc;
}

/* Make a staging folder with mkdtemp in folder at, named prefix +
 * "PID-XXXXXX". The template goes through /proc/self/fd/AT, which is the
 * open folder itself, so a folder swapped for a link meanwhile cannot send
 * it elsewhere; without /proc, atpath is used. @return 0 or -errno. */
static int make_staging(outdir *d, int at, const char *atpath, const char *prefix)
{
    char tmpl[PATH_MAX];
    int n = snprintf(tmpl, sizeof tmpl, "/proc/self/fd/%d/%s%ld-XXXXXX", at, prefix, (long)getpid());
    if (n < 0 || n >= (int)sizeof tmpl || strlen(strrchr(tmpl, '/') + 1) > NAME_MAX)
        return -ENAMETOOLONG;
    struct stat pst;
    char via_proc[64];
    snprintf(via_proc, sizeof via_proc, "/proc/self/fd/%d", at);
    if (stat(via_proc, &pst) != 0 || !S_ISDIR(pst.st_mode)) {
        n = snprintf(tmpl, sizeof tmpl, "%s%s%s%ld-XXXXXX", atpath, strcmp(atpath, "/") ? "/" : "", prefix,
                     (long)getpid());
        if (n < 0 || n >= (int)sizeof tmpl)
            return -ENAMETOOLONG;
    }
    if (!mkdtemp(tmpl))
        return -errno;
    const char *name = strrchr(tmpl, '/') + 1;
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_uid != geteuid()) {
        int e = fd < 0 ? errno : EPERM;
        if (fd >= 0)
            close(fd);
        unlinkat(at, name, AT_REMOVEDIR);
        return -e;
    }
    /* the marker that says the folder is cosim's, listing each file before
     * it is made, so the next run can clean up after a SIGKILL */
    static const char head[] = MARKER_HEADER "\n"
                               "# A cosim run's staging folder: the files it wrote here. If the run has\n"
                               "# ended, the next run into the same folder removes these (and only these).\n";
    int mfd = openat(fd, MARKER, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    errno = 0;
    if (mfd < 0 || write(mfd, head, sizeof head - 1) != (ssize_t)(sizeof head - 1)) {
        int e = mfd < 0 ? errno : errno ? errno : EIO;
        if (mfd >= 0)
            close(mfd);
        unlinkat(fd, MARKER, 0);
        close(fd);
        unlinkat(at, name, AT_REMOVEDIR);
        return -e;
    }
    d->markfd = mfd;
    d->sfd = fd;
    d->spfd = at;
    snprintf(d->sname, sizeof d->sname, "%s", name);
    return 0;
}

/* Is path the working folder or one of its parents? */
static int holds_cwd(const char *path)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return 1; /* cannot tell: be careful */
    size_t n = strlen(path);
    return strncmp(cwd, path, n) == 0 && (cwd[n] == '\0' || cwd[n] == '/' || n == 1);
}

/* Resolve dir into its real parent (*parent) and name (base), creating the
 * parents if need be. @return 0 or -errno. */
static int resolve(outdir *d, const char *dir, char *parent, char *base)
{
    char given[PATH_MAX], real[PATH_MAX];
    if (snprintf(given, sizeof given, "%s", dir) >= (int)sizeof given)
        return -ENAMETOOLONG;
    size_t n = strlen(given);
    while (n > 1 && given[n - 1] == '/')
        given[--n] = '\0';
    if (!realpath(given, real)) {
        if (errno != ENOENT)
            return -errno;
        /* a new folder: make its parents, then resolve the parent */
        char *slash = strrchr(given, '/');
        const char *name = slash ? slash + 1 : given;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            return -ENOENT;
        char par[PATH_MAX];
        if (!slash)
            snprintf(par, sizeof par, ".");
        else if (slash == given)
            snprintf(par, sizeof par, "/");
        else
            snprintf(par, sizeof par, "%.*s", (int)(slash - given), given);
        int rc = make_parents(d, par);
        if (rc)
            return rc;
        char rp[PATH_MAX];
        if (!realpath(par, rp))
            return -errno;
        if (snprintf(real, sizeof real, "%s%s%s", rp, strcmp(rp, "/") ? "/" : "", name) >= (int)sizeof real)
            return -ENAMETOOLONG;
    }
    if (strcmp(real, "/") == 0) {
        strcpy(parent, "/");
        base[0] = '\0';
        return 0;
    }
    char *slash = strrchr(real, '/');
    if (strlen(slash + 1) > NAME_MAX)
        return -ENAMETOOLONG;
    strcpy(base, slash + 1);
    if (slash == real)
        strcpy(parent, "/");
    else
        snprintf(parent, PATH_MAX, "%.*s", (int)(slash - real), real);
    return 0;
}

static void free_outdir(outdir *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        if (d->files[i]->f)
            fclose(d->files[i]->f);
        free(d->files[i]->name);
        free(d->files[i]);
    }
    free(d->files);
    free_names(d->old, d->n_old);
    free(d->old_source);
    free(d->old_raw);
    free(d->source);
    if (d->sfd >= 0)
        close(d->sfd);
    if (d->lockfd >= 0)
        close(d->lockfd);
    if (d->markfd >= 0)
        close(d->markfd);
    if (d->dfd >= 0)
        close(d->dfd);
    if (d->pfd >= 0)
        close(d->pfd);
    free(d);
}

/* Undo a failed outdir_open after DIR was opened. */
static void abandon(outdir *d)
{
    if (d->sfd >= 0) {
        empty_folder(d->sfd);
        unlinkat(d->spfd, d->sname, AT_REMOVEDIR);
    }
    if (d->lockfd >= 0 && same_entry(d->dfd, OUTDIR_LOCK, &d->lst))
        unlinkat(d->dfd, OUTDIR_LOCK, 0);
    if (d->created && same_entry(d->pfd, d->base, &d->dst))
        unlinkat(d->pfd, d->base, AT_REMOVEDIR);
    remove_made(d->made_path, d->made_end);
    free_outdir(d);
}

static int open_once(outdir *d, const outdir_options *opt, char *err, size_t errlen)
{
    char parent[PATH_MAX];
    int rc = resolve(d, d->dir, parent, d->base);
    snprintf(d->parent, sizeof d->parent, "%s", parent);
    if (rc) {
        say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (!d->base[0]) {
        say(err, errlen, "%s: is the root folder; cosim writes only into a folder of its own "
                         "(e.g. -o out/NAME)", d->dir);
        return -EPERM;
    }
    d->pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->pfd < 0) {
        rc = -errno;
        say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (mkdirat(d->pfd, d->base, 0777) == 0)
        d->created = 1;
    else if (errno != EEXIST) {
        rc = -errno;
        say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    d->dfd = openat(d->pfd, d->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->dfd < 0) {
        rc = -errno;
        struct stat lst;
        if (fstatat(d->pfd, d->base, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode))
            say(err, errlen, "%s: cannot write the output folder: it is a symbolic link to nothing", d->dir);
        else
            say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (fstat(d->dfd, &d->dst) != 0) {
        rc = -errno;
        say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    /* never the root folder nor the home folder, --force or not */
    const struct passwd *pw = getpwuid(getuid());
    if (same_folder(&d->dst, "/")) {
        say(err, errlen, "%s: is the root folder; cosim writes only into a folder of its own "
                         "(e.g. -o out/NAME)", d->dir);
        return -EPERM;
    }
    if (same_folder(&d->dst, getenv("HOME")) || (pw && same_folder(&d->dst, pw->pw_dir))) {
        say(err, errlen, "%s: is your home folder; cosim writes only into a folder of its own "
                         "(e.g. -o out/NAME)", d->dir);
        return -EPERM;
    }
    rc = take_lock(d, err, errlen);
    if (rc)
        return rc;

    /* leftovers of killed runs into this folder */
    char sibling_prefix[NAME_MAX + 1];
    snprintf(sibling_prefix, sizeof sibling_prefix, ".%.*s" STAGING_TAG, SIBLING_BASE_MAX, d->base);
    remove_stale(d->dfd, d->dir, STAGING_TAG);
    remove_stale(d->pfd, d->parent, sibling_prefix);

    rc = read_manifest(d, err, errlen);
    if (rc)
        return rc;

    /* what DIR holds besides cosim's own files */
    char **names;
    long n = list_folder(d->dfd, &names);
    if (n < 0) {
        say(err, errlen, "%s: cannot read the output folder: %s", d->dir, strerror((int)-n));
        return (int)n;
    }
    const char *foreign = NULL;
    for (long i = 0; i < n && !foreign; i++) {
        struct stat st;
        if (strcmp(names[i], OUTDIR_LOCK) == 0 || strcmp(names[i], OUTDIR_MANIFEST) == 0)
            continue;
        if (in_old(d, names[i]) && fstatat(d->dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            !S_ISDIR(st.st_mode))
            continue;
        foreign = names[i];
    }
    int force = opt && opt->force;
    if (foreign && !d->had_manifest && !force) {
        say(err, errlen, "%s: holds %s, which cosim did not write (the folder has no %s); give a new or "
                         "empty folder, or --force to write beside its files", d->dir, foreign, OUTDIR_MANIFEST);
        free_names(names, (size_t)n);
        return -EEXIST;
    }
    int has_foreign = foreign != NULL;
    if (n > 0)
        free_names(names, (size_t)n);

    if (opt && opt->source && !(d->source = escape_line(opt->source)))
        return -ENOMEM;
    if (opt && opt->same_source && !force && d->had_manifest && d->source &&
        (!d->old_source || strcmp(d->old_source, d->source) != 0)) {
        say(err, errlen, "%s: holds the outputs of %s, not of %s; give -o DIR (or --force to replace them)",
            d->dir, d->old_source ? d->old_source : "another scenario", d->source);
        return -EEXIST;
    }

    /* the whole folder is swapped when it is all cosim's and ours, on one
     * filesystem with its parent, not where we (or our shell) stand */
    struct stat pst;
    char real[PATH_MAX];
    snprintf(real, sizeof real, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", d->base);
    d->exchange = !has_foreign && d->dst.st_uid == geteuid() && fstat(d->pfd, &pst) == 0 &&
                  pst.st_dev == d->dst.st_dev && !holds_cwd(real);
    sigset_t old;
    block_signals(&old);
    rc = -1;
    if (d->exchange && (rc = make_staging(d, d->pfd, parent, sibling_prefix)) != 0)
        d->exchange = 0; /* the parent takes no sibling: file by file, inside DIR */
    if (rc)
        rc = make_staging(d, d->dfd, real, STAGING_TAG);
    if (!rc) {
        current = d;
        install_handlers();
        arm(d);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    return 0;
}

static outdir *new_outdir(const char *dir)
{
    outdir *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    snprintf(d->dir, sizeof d->dir, "%s", dir);
    d->pfd = d->dfd = d->sfd = d->lockfd = d->markfd = -1;
    return d;
}

int outdir_open(outdir **out, const char *dir, const outdir_options *opt, char *err, size_t errlen)
{
    *out = NULL;
    if (!dir || !*dir) {
        say(err, errlen, "an empty output folder name");
        return -EINVAL;
    }
    if (strlen(dir) >= PATH_MAX) {
        say(err, errlen, "%.64s...: cannot write the output folder: %s", dir, strerror(ENAMETOOLONG));
        return -ENAMETOOLONG;
    }
    if (current) {
        say(err, errlen, "%s: another output folder is open", dir);
        return -EBUSY;
    }
    for (int attempt = 0; attempt < 20; attempt++) {
        outdir *d = new_outdir(dir);
        if (!d) {
            say(err, errlen, "%s: out of memory", dir);
            return -ENOMEM;
        }
        int rc = open_once(d, opt, err, errlen);
        if (rc == 0) {
            *out = d;
            return 0;
        }
        abandon(d);
        if (rc != -EAGAIN)
            return rc;
    }
    say(err, errlen, "%s: the folder keeps changing under cosim; try again", dir);
    return -EAGAIN;
}

/* ---- staged files -------------------------------------------------------- */

static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
    staged *s = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(s->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!s->err)
                s->err = w < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int cookie_close(void *cookie)
{
    staged *s = cookie;
    int rc = close(s->fd);
    if (rc != 0 && !s->err)
        s->err = errno;
    s->fd = -1;
    return rc;
}

FILE *outdir_create(outdir *d, const char *name)
{
    if (!valid_name(name)) {
        errno = EINVAL;
        return NULL;
    }
    if (in_new(d, name)) {
        errno = EEXIST;
        return NULL;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 32;
        staged **m = realloc(d->files, cap * sizeof *m);
        if (!m) {
            errno = ENOMEM;
            return NULL;
        }
        d->files = m;
        d->cap = cap;
    }
    staged *s = calloc(1, sizeof *s);
    if (!s || !(s->name = strdup(name))) {
        free(s);
        errno = ENOMEM;
        return NULL;
    }
    /* listed in the marker before it exists */
    char line[NAME_MAX + 8];
    int ln = snprintf(line, sizeof line, "file %s\n", name);
    errno = 0;
    if (d->markfd >= 0 && write(d->markfd, line, (size_t)ln) != ln) {
        int e = errno ? errno : EIO;
        free(s->name);
        free(s);
        errno = e;
        return NULL;
    }
    s->fd = openat(d->sfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (s->fd < 0) {
        int e = errno;
        free(s->name);
        free(s);
        errno = e;
        return NULL;
    }
    static const cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    s->f = fopencookie(s, "w", io);
    if (!s->f) {
        int e = errno;
        close(s->fd);
        unlinkat(d->sfd, name, 0);
        free(s->name);
        free(s);
        errno = e;
        return NULL;
    }
    d->files[d->n++] = s;
    return s->f;
}

int outdir_finish(outdir *d, FILE *f)
{
    for (size_t i = 0; i < d->n; i++) {
        staged *s = d->files[i];
        if (s->f != f || !f)
            continue;
        int bad = fflush(f) != 0;
        bad |= fclose(f) != 0;
        s->f = NULL;
        s->done = !bad && !s->err;
        return s->err ? -s->err : bad ? -EIO : 0;
    }
    return -EINVAL;
}

int outdir_write(outdir *d, const char *name, const void *data, size_t len)
{
    FILE *f = outdir_create(d, name);
    if (!f)
        return -errno;
    if (len)
        fwrite(data, 1, len, f);
    return outdir_finish(d, f);
}

/* ---- commit ---------------------------------------------------------------- */


/* The message of a DIR that is no longer the folder outdir_open took. */
static int say_replaced(const outdir *d, char *err, size_t errlen)
{
    say(err, errlen, "%s: the folder was moved, removed or replaced while cosim ran", d->dir);
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
        say(err, errlen, "%s/%s: cannot remove the previous run's files: %s", d->dir, BACKUP, strerror(e));
        return -e;
    }
    int bfd = openat(prev, BACKUP, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (bfd < 0) {
        int e = errno;
        unlinkat(prev, BACKUP, AT_REMOVEDIR);
        say(err, errlen, "%s/%s: cannot remove the previous run's files: %s", d->dir, BACKUP, strerror(e));
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
        say(err, errlen, "%s/%s: cannot remove the previous run's file: %s", d->dir, failed ? failed : "",
            strerror(-rc));
        return rc;
    }
    free(moved);
    /* from here the previous files are out of the way: remove them */
    char **names;
    long n = list_folder(bfd, &names);
    for (long i = 0; i < n; i++)
        if (unlinkat(bfd, names[i], 0) != 0)
            warn("%s/%s/%s/%s: the previous run's file cannot be removed (%s); it is kept there", where,
                 d->sname, BACKUP, names[i], strerror(errno));
    if (n > 0)
        free_names(names, (size_t)n);
    close(bfd);
    unlinkat(prev, BACKUP, AT_REMOVEDIR);
    struct stat lst;
    if (old_lock >= 0 && fstat(old_lock, &lst) == 0 && same_entry(prev, OUTDIR_LOCK, &lst))
        unlinkat(prev, OUTDIR_LOCK, 0);
    if (d->had_manifest && unlinkat(prev, OUTDIR_MANIFEST, 0) != 0 && errno != ENOENT)
        warn("%s/%s/%s: the previous manifest cannot be removed (%s); it is kept there", where, d->sname,
             OUTDIR_MANIFEST, strerror(errno));
    n = list_folder(prev, &names);
    for (long i = 0; i < n; i++)
        if (renameat2(prev, names[i], next, names[i], RENAME_NOREPLACE) != 0)
            warn("%s: %s appeared during the run and cannot be moved back (%s); it is kept in %s/%s", d->dir,
                 names[i], strerror(errno), where, d->sname);
    if (n > 0)
        free_names(names, (size_t)n);
    struct stat pst;
    if (fstat(prev, &pst) == 0 && same_entry(d->pfd, d->sname, &pst))
        unlinkat(d->pfd, d->sname, AT_REMOVEDIR); /* only if empty */
    return 0;
}

/* Swap the staging folder with DIR. DIR's name must hold the folder
 * outdir_open took, before the swap and, at the staging name, after it;
 * else the swap is undone (-ESTALE). @return 0, 1 (the filesystem cannot:
 * the caller commits file by file) or -errno. */
static int commit_exchange(outdir *d, char *err, size_t errlen)
{
    int rc = write_manifest(d, d->sfd, OUTDIR_MANIFEST, 0);
    if (rc) {
        say(err, errlen, "%s/%s: cannot write: %s", d->dir, OUTDIR_MANIFEST, strerror(-rc));
        return rc;
    }
    /* the new folder's lock, held, so a second writer opening it after the
     * swap is refused as before */
    int lock = openat(d->sfd, OUTDIR_LOCK, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    struct stat lst, sst;
    errno = 0;
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0 || (rc = write_lock(lock)) != 0 || fstat(lock, &lst) != 0 ||
        fstat(d->sfd, &sst) != 0) {
        rc = rc ? rc : -(errno ? errno : EIO);
        if (lock >= 0)
            close(lock);
        say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    /* the folder keeps its mode, and its group as far as we may */
    if (fchmod(d->sfd, d->dst.st_mode & 07777) != 0)
        warn("%s: cannot keep the folder's mode: %s", d->dir, strerror(errno));
    if (d->dst.st_gid != getegid() && fchown(d->sfd, (uid_t)-1, d->dst.st_gid) != 0)
        warn("%s: cannot keep the folder's group: %s", d->dir, strerror(errno));
    /* the manifest marks the staging folder from here: the marker goes,
     * so the swapped-in folder holds only the outputs */
    unlinkat(d->sfd, MARKER, 0);
    int e = 0;
    if (!same_entry(d->pfd, d->base, &d->dst) || !same_entry(d->pfd, d->sname, &sst))
        e = ESTALE;
    else if (renameat2(d->pfd, d->sname, d->pfd, d->base, RENAME_EXCHANGE) != 0)
        e = errno;
    else if (!same_entry(d->pfd, d->sname, &d->dst) || !same_entry(d->pfd, d->base, &sst))
        e = swap_back(d) == 0 ? ESTALE : -1; /* what was swapped out is not DIR */
    if (e == -1) {
        /* cannot happen unless the folders keep moving: say where all is */
        say(err, errlen, "%s: the folder was replaced while cosim ran and could not be put back: %s; the "
                         "outputs are in %s, the folder that was there is now %s/%s", d->dir, strerror(errno),
            d->dir, d->parent, d->sname);
        close(lock);
        d->committed = 1; /* nothing more is removed */
        return -ESTALE;
    }
    if (e) {
        close(lock);
        unlinkat(d->sfd, OUTDIR_LOCK, 0);
        unlinkat(d->sfd, OUTDIR_MANIFEST, 0);
        if (e == ESTALE)
            return say_replaced(d, err, errlen);
        if (e == EINVAL || e == ENOSYS || e == EOPNOTSUPP || e == EXDEV || e == EBUSY || e == EPERM) {
            warn("%s: the filesystem cannot swap the folder in one step (%s); replacing the files one by one",
                 d->dir, strerror(e));
            return 1;
        }
        say(err, errlen, "%s: cannot replace the output folder: %s", d->dir, strerror(e));
        return -e;
    }
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

/* Put the staged files into DIR one by one: the previous run's files are
 * moved aside into the staging folder's BACKUP first (the manifest listing
 * both meanwhile), and moved back if anything fails. @return 0 or -errno. */
static int commit_files(outdir *d, char *err, size_t errlen)
{
    int rc = 0;
    char *moved = calloc(d->n_old + 1, 1), *placed = calloc(d->n + 1, 1);
    const char *failed = NULL;
    int bfd = -1, union_in = 0;
    if (!moved || !placed) {
        rc = -ENOMEM;
        goto fail;
    }
    if (mkdirat(d->sfd, BACKUP, 0700) != 0 ||
        (bfd = openat(d->sfd, BACKUP, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
        rc = -errno;
        failed = d->sname;
        goto fail;
    }
    /* a manifest naming both runs' files, so cosim's own files are never
     * taken for foreign ones whatever happens next */
    if ((rc = write_manifest(d, d->sfd, ".manifest-both", 1)) != 0 ||
        (renameat(d->sfd, ".manifest-both", d->dfd, OUTDIR_MANIFEST) != 0 && (rc = -errno))) {
        failed = OUTDIR_MANIFEST;
        goto fail;
    }
    union_in = 1;
    for (size_t i = 0; i < d->n_old; i++) {
        struct stat st;
        if (fstatat(d->dfd, d->old[i], &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
            continue;
        if (renameat(d->dfd, d->old[i], bfd, d->old[i]) != 0) {
            rc = -errno;
            failed = d->old[i];
            goto fail;
        }
        moved[i] = 1;
    }
    for (size_t i = 0; i < d->n; i++) {
        if (renameat(d->sfd, d->files[i]->name, d->dfd, d->files[i]->name) != 0) {
            rc = -errno;
            failed = d->files[i]->name;
            goto fail;
        }
        placed[i] = 1;
    }
    if ((rc = write_manifest(d, d->sfd, ".manifest-new", 0)) != 0 ||
        (renameat(d->sfd, ".manifest-new", d->dfd, OUTDIR_MANIFEST) != 0 && (rc = -errno))) {
        failed = OUTDIR_MANIFEST;
        goto fail;
    }
    d->committed = 1;
    empty_folder(bfd);
    close(bfd);
    unlinkat(d->sfd, BACKUP, AT_REMOVEDIR);
    free(moved);
    free(placed);
    return 0;
fail:;
    /* put everything back as it was */
    int back = 1;
    for (size_t i = 0; placed && i < d->n; i++)
        if (placed[i] && renameat(d->dfd, d->files[i]->name, d->sfd, d->files[i]->name) != 0)
            back = 0;
    for (size_t i = 0; moved && i < d->n_old; i++)
        if (moved[i] && renameat2(bfd, d->old[i], d->dfd, d->old[i], RENAME_NOREPLACE) != 0)
            back = 0;
    if (union_in) {
        if (d->had_manifest) {
            if (write_at(d->sfd, ".manifest-old", d->old_raw, d->old_raw_len) != 0 ||
                renameat(d->sfd, ".manifest-old", d->dfd, OUTDIR_MANIFEST) != 0)
                back = 0; /* the manifest naming both runs stays: still true */
        } else {
            unlinkat(d->dfd, OUTDIR_MANIFEST, 0);
        }
    }
    if (bfd >= 0) {
        close(bfd);
        if (back)
            unlinkat(d->sfd, BACKUP, AT_REMOVEDIR);
    }
    free(moved);
    free(placed);
    if (back)
        say(err, errlen, "%s/%s: cannot replace: %s", d->dir, failed ? failed : "", strerror(-rc));
    else
        say(err, errlen, "%s/%s: cannot replace: %s; the previous files could not all be put back: "
                         "see %s/%s/%s", d->dir, failed ? failed : "", strerror(-rc),
            d->spfd == d->dfd ? d->dir : d->parent, d->sname, BACKUP);
    return rc;
}

int outdir_commit(outdir *d, char *err, size_t errlen)
{
    for (size_t i = 0; i < d->n; i++)
        if (!d->files[i]->done) {
            say(err, errlen, "%s/%s: not completely written", d->dir, d->files[i]->name);
            return -EIO;
        }
    /* a file cosim did not write is never replaced, even with --force */
    for (size_t i = 0; i < d->n; i++) {
        struct stat st;
        const char *nm = d->files[i]->name;
        if (fstatat(d->dfd, nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && (!in_old(d, nm) || S_ISDIR(st.st_mode))) {
            say(err, errlen, "%s/%s: not written by cosim (not in %s), so not replaced; move it away or "
                             "give another folder", d->dir, nm, OUTDIR_MANIFEST);
            return -EEXIST;
        }
    }
    /* DIR must still be the folder outdir_open took: a folder put in its
     * place meanwhile is never swapped away nor written into */
    if (!same_entry(d->pfd, d->base, &d->dst))
        return say_replaced(d, err, errlen);
    sigset_t old;
    block_signals(&old);
    sig_state.armed = 0; /* from here on the commit finishes or undoes itself */
    int rc = 1;
    if (d->exchange)
        rc = commit_exchange(d, err, errlen);
    if (rc == 1) {
        d->exchange = 0;
        rc = commit_files(d, err, errlen);
    }
    if (rc && !d->committed)
        arm(d);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

void outdir_close(outdir *d)
{
    if (!d)
        return;
    sigset_t old;
    block_signals(&old);
    sig_state.armed = 0;
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
        empty_folder(d->sfd);
        unlinkat(d->spfd, d->sname, AT_REMOVEDIR);
    }
    /* the lock goes with the writer (a waiting writer re-checks it), if
     * the name still holds the lock this run took */
    if (d->lockfd >= 0 && same_entry(d->dfd, OUTDIR_LOCK, &d->lst))
        unlinkat(d->dfd, OUTDIR_LOCK, 0);
    /* a folder the run made, and the parents it made, deepest first, only
     * if still empty (and DIR only if it is still the folder made) */
    if (d->created && !d->committed && same_entry(d->pfd, d->base, &d->dst))
        unlinkat(d->pfd, d->base, AT_REMOVEDIR);
    if (!d->committed)
        remove_made(d->made_path, d->made_end);
    current = NULL;
    restore_handlers();
    free_outdir(d);
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

/* ---- default names ------------------------------------------------------- */

/* The scenario reader's naming: cut the extension, letters, digits, '_'
 * and '-' kept, every other byte '_'; "scenario" if nothing is left. */
static void name_from(char *s)
{
    char *dot = strrchr(s, '.');
    if (dot && dot != s)
        *dot = '\0';
    for (char *q = s; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_' ||
              *q == '-'))
            *q = '_';
    if (!*s)
        strcpy(s, "scenario");
}

int outdir_default(char *buf, size_t len, const char *path, const char *name, size_t name_max,
                   const char *suffix)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char cut[PATH_MAX], full[PATH_MAX];
    snprintf(cut, name_max + 1 < sizeof cut ? name_max + 1 : sizeof cut, "%s", base);
    name_from(cut);
    const char *use = name;
    if (strcmp(cut, name) == 0) { /* the scenario did not name itself */
        snprintf(full, sizeof full, "%s", base);
        name_from(full);
        use = full;
    }
    int n = snprintf(buf, len, "out/%s%s", use, suffix);
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
