/* outdir.c - the output folder: opening it (the previous manifest, the
 * staging folder) and the staged files; lock, commit, signals and helpers
 * are outdir_lock.c, outdir_commit.c, outdir_signal.c, outdir_util.c.
 * Every path below DIR's parent is reached through a folder descriptor
 * (openat, unlinkat, renameat2), final components with O_NOFOLLOW, so a
 * symbolic link planted in DIR is never followed. The contract is in
 * outdir.h and docs/decisions.md.
 */
#define _GNU_SOURCE
#include "outdir_internal.h"
#include "grow.h"
#include "names.h"

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

/* The previous manifest's bytes: *out NULL when DIR holds none, else a
 * malloc'd NUL-terminated copy of at most MANIFEST_MAX_BYTES. A link, a
 * non-regular or too large file is -EINVAL with the message. */
static int slurp_manifest(outdir *d, char **out, size_t *out_len, char *err, size_t errlen)
{
    *out = NULL;
    int fd = openat(d->dfd, OUTDIR_MANIFEST, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return 0;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MANIFEST_MAX_BYTES) {
        int e = fd < 0 ? errno : EINVAL;
        if (fd >= 0)
            close(fd);
        if (e == ELOOP || e == EINVAL)
            od_say(err, errlen, "%s/%s: not a cosim manifest (not a regular file of at most 1 MiB); remove it",
                d->dir, OUTDIR_MANIFEST);
        else
            od_say(err, errlen, "%s/%s: cannot read: %s", d->dir, OUTDIR_MANIFEST, strerror(e));
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
        od_say(err, errlen, "%s/%s: cannot read: %s", d->dir, OUTDIR_MANIFEST, strerror(-rc));
        return rc;
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return 0;
}

/* Append a copy of name to the previous run's files (*cap their room). */
static int add_old_name(outdir *d, size_t *cap, const char *name)
{
    if (d->n_old == *cap) {
        char **m = grow_array(d->old, cap, sizeof *m, 32);
        if (!m)
            return -ENOMEM;
        d->old = m;
    }
    if (!(d->old[d->n_old] = strdup(name)))
        return -ENOMEM;
    d->n_old++;
    return 0;
}

/* Parse the manifest's text (modified: lines cut at '\n'): the header
 * line, then "source S" once and "file NAME" lines; comments and blank
 * lines pass. *line is the line read last (for the message). */
static int parse_manifest(outdir *d, char *text, size_t *line)
{
    size_t cap = 0;
    int rc = 0, header = 0;
    *line = 0;
    for (char *l = text, *nl; !rc && l && *l; l = nl) {
        nl = strchr(l, '\n');
        if (nl)
            *nl++ = '\0';
        ++*line;
        if (*line == 1) {
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
        } else if (strncmp(l, "file ", 5) == 0 && od_valid_name(l + 5)) {
            rc = add_old_name(d, &cap, l + 5);
        } else {
            rc = -EINVAL;
        }
    }
    if (!rc && !header)
        rc = -EINVAL;
    return rc;
}

/* Sort the previous run's file names, each name once. */
static void sort_old_names(outdir *d)
{
    if (!d->n_old)
        return;
    qsort(d->old, d->n_old, sizeof *d->old, od_cmp_names);
    size_t k = 1;
    for (size_t i = 1; i < d->n_old; i++) {
        if (strcmp(d->old[i], d->old[k - 1]) == 0)
            free(d->old[i]);
        else
            d->old[k++] = d->old[i];
    }
    d->n_old = k;
}

/* Read DIR's previous manifest, if any, into d (raw bytes, source, the
 * sorted file names). A malformed one is -EINVAL with a message. */
static int read_manifest(outdir *d, char *err, size_t errlen)
{
    char *buf;
    size_t len;
    int rc = slurp_manifest(d, &buf, &len, err, errlen);
    if (rc || !buf)
        return rc;
    d->old_raw = buf;
    d->old_raw_len = len;
    d->had_manifest = 1;
    /* parse a copy, line by line */
    char *text = strdup(buf);
    if (!text)
        return -ENOMEM;
    size_t line;
    rc = parse_manifest(d, text, &line);
    free(text);
    if (!rc)
        sort_old_names(d);
    if (rc == -EINVAL)
        od_say(err, errlen, "%s/%s:%zu: not a cosim manifest; remove it (cosim then takes the folder only "
                         "if it is empty, or with --force)", d->dir, OUTDIR_MANIFEST, line ? line : 1);
    else if (rc)
        od_say(err, errlen, "%s: out of memory", d->dir);
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
        int rc = od_make_parents(d, par);
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

void od_free_outdir(outdir *d)
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
    od_free_names(d->old, d->n_old);
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
        od_empty_folder(d->sfd);
        unlinkat(d->spfd, d->sname, AT_REMOVEDIR);
    }
    if (d->lockfd >= 0 && od_same_entry(d->dfd, OUTDIR_LOCK, &d->lst))
        unlinkat(d->dfd, OUTDIR_LOCK, 0);
    if (d->created && od_same_entry(d->pfd, d->base, &d->dst))
        unlinkat(d->pfd, d->base, AT_REMOVEDIR);
    od_remove_made(d->made_path, d->made_end);
    od_free_outdir(d);
}

/* Open DIR's parent (resolved: parent) and DIR itself, making DIR when it
 * is missing; d->dst is DIR's stat. */
static int open_dir(outdir *d, const char *parent, char *err, size_t errlen)
{
    int rc;
    d->pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->pfd < 0) {
        rc = -errno;
        od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (mkdirat(d->pfd, d->base, 0777) == 0)
        d->created = 1;
    else if (errno != EEXIST) {
        rc = -errno;
        od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    d->dfd = openat(d->pfd, d->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->dfd < 0) {
        rc = -errno;
        struct stat lst;
        if (fstatat(d->pfd, d->base, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode))
            od_say(err, errlen, "%s: cannot write the output folder: it is a symbolic link to nothing", d->dir);
        else
            od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (fstat(d->dfd, &d->dst) != 0) {
        rc = -errno;
        od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    return 0;
}

/* Never the root folder nor the home folder, --force or not: -EPERM. */
static int refuse_root_or_home(const outdir *d, char *err, size_t errlen)
{
    const struct passwd *pw = getpwuid(getuid());
    if (od_same_folder(&d->dst, "/")) {
        od_say(err, errlen, "%s: is the root folder; cosim writes only into a folder of its own "
                         "(e.g. -o out/NAME)", d->dir);
        return -EPERM;
    }
    if (od_same_folder(&d->dst, getenv("HOME")) || (pw && od_same_folder(&d->dst, pw->pw_dir))) {
        od_say(err, errlen, "%s: is your home folder; cosim writes only into a folder of its own "
                         "(e.g. -o out/NAME)", d->dir);
        return -EPERM;
    }
    return 0;
}

/* What DIR holds besides cosim's own files: *has_foreign, and -EEXIST when
 * such a file stands in a folder without a manifest and no --force. */
static int check_foreign(outdir *d, int force, int *has_foreign, char *err, size_t errlen)
{
    char **names;
    long n = od_list_folder(d->dfd, &names);
    if (n < 0) {
        od_say(err, errlen, "%s: cannot read the output folder: %s", d->dir, strerror((int)-n));
        return (int)n;
    }
    const char *foreign = NULL;
    for (long i = 0; i < n && !foreign; i++) {
        struct stat st;
        if (strcmp(names[i], OUTDIR_LOCK) == 0 || strcmp(names[i], OUTDIR_MANIFEST) == 0)
            continue;
        if (od_in_old(d, names[i]) && fstatat(d->dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            !S_ISDIR(st.st_mode))
            continue;
        foreign = names[i];
    }
    if (foreign && !d->had_manifest && !force) {
        od_say(err, errlen, "%s: holds %s, which cosim did not write (the folder has no %s); give a new or "
                         "empty folder, or --force to write beside its files", d->dir, foreign, OUTDIR_MANIFEST);
        od_free_names(names, (size_t)n);
        return -EEXIST;
    }
    *has_foreign = foreign != NULL;
    if (n > 0)
        od_free_names(names, (size_t)n);
    return 0;
}

/* Make the staging folder: a sibling of DIR (the whole folder swapped at
 * commit) when DIR is all cosim's and ours, on one filesystem with its
 * parent, not where we (or our shell) stand; else inside DIR. Then arm the
 * signal handlers. */
static int start_staging(outdir *d, const char *parent, const char *sibling_prefix, int has_foreign, char *err,
                         size_t errlen)
{
    struct stat pst;
    char real[PATH_MAX];
    snprintf(real, sizeof real, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", d->base);
    d->exchange = !has_foreign && d->dst.st_uid == geteuid() && fstat(d->pfd, &pst) == 0 &&
                  pst.st_dev == d->dst.st_dev && !holds_cwd(real);
    sigset_t old;
    outdir_block_signals(&old);
    int rc = -1;
    if (d->exchange && (rc = make_staging(d, d->pfd, parent, sibling_prefix)) != 0)
        d->exchange = 0; /* the parent takes no sibling: file by file, inside DIR */
    if (rc)
        rc = make_staging(d, d->dfd, real, STAGING_TAG);
    if (!rc) {
        od_set_current(d);
        od_install_handlers();
        od_arm(d);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    return 0;
}

static int open_once(outdir *d, const outdir_options *opt, char *err, size_t errlen)
{
    char parent[PATH_MAX];
    int rc = resolve(d, d->dir, parent, d->base);
    snprintf(d->parent, sizeof d->parent, "%s", parent);
    if (rc) {
        od_say(err, errlen, "%s: cannot write the output folder: %s", d->dir, strerror(-rc));
        return rc;
    }
    if (opt && opt->temp_parent && d->base[0]) {
        /* the caller's folder counts as one made here: the deepest of the
         * made ones (made_path holds the parent as given if the open made
         * any, else nothing yet) */
        if (!d->made_path[0])
            snprintf(d->made_path, sizeof d->made_path, "%s", parent);
        d->made_end[strlen(d->made_path)] = 1;
    }
    if (!d->base[0]) {
        od_say(err, errlen, "%s: is the root folder; cosim writes only into a folder of its own "
                         "(e.g. -o out/NAME)", d->dir);
        return -EPERM;
    }
    if ((rc = open_dir(d, parent, err, errlen)) || (rc = refuse_root_or_home(d, err, errlen)) ||
        (rc = od_take_lock(d, err, errlen)))
        return rc;

    /* leftovers of killed runs into this folder */
    char sibling_prefix[NAME_MAX + 1];
    snprintf(sibling_prefix, sizeof sibling_prefix, ".%.*s" STAGING_TAG, SIBLING_BASE_MAX, d->base);
    od_remove_stale(d->dfd, d->dir, STAGING_TAG);
    od_remove_stale(d->pfd, d->parent, sibling_prefix);

    rc = read_manifest(d, err, errlen);
    if (rc)
        return rc;
    int force = opt && opt->force, has_foreign = 0;
    if ((rc = check_foreign(d, force, &has_foreign, err, errlen)))
        return rc;
    if (opt && opt->source && !(d->source = od_escape_line(opt->source)))
        return -ENOMEM;
    if (opt && opt->same_source && !force && d->had_manifest && d->source &&
        (!d->old_source || strcmp(d->old_source, d->source) != 0)) {
        od_say(err, errlen, "%s: holds the outputs of %s, not of %s; give -o DIR (or --force to replace them)",
            d->dir, d->old_source ? d->old_source : "another scenario", d->source);
        return -EEXIST;
    }
    return start_staging(d, parent, sibling_prefix, has_foreign, err, errlen);
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
        od_say(err, errlen, "an empty output folder name");
        return -EINVAL;
    }
    if (strlen(dir) >= PATH_MAX) {
        od_say(err, errlen, "%.64s...: cannot write the output folder: %s", dir, strerror(ENAMETOOLONG));
        return -ENAMETOOLONG;
    }
    if (od_current()) {
        od_say(err, errlen, "%s: another output folder is open", dir);
        return -EBUSY;
    }
    /* signals wait from the first folder made to the handler armed (or
     * to everything made removed again): one in between left DIR, its
     * parents or its lock behind */
    sigset_t old;
    outdir_block_signals(&old);
    int rc = -EAGAIN;
    for (int attempt = 0; attempt < 20 && rc == -EAGAIN; attempt++) {
        outdir *d = new_outdir(dir);
        if (!d) {
            od_say(err, errlen, "%s: out of memory", dir);
            rc = -ENOMEM;
            break;
        }
        rc = open_once(d, opt, err, errlen);
        if (rc == 0)
            *out = d;
        else
            abandon(d);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (rc == -EAGAIN)
        od_say(err, errlen, "%s: the folder keeps changing under cosim; try again", dir);
    return rc;
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
    if (!od_valid_name(name)) {
        errno = EINVAL;
        return NULL;
    }
    if (od_in_new(d, name)) {
        errno = EEXIST;
        return NULL;
    }
    if (d->n == d->cap) {
        staged **m = grow_array(d->files, &d->cap, sizeof *m, 32);
        if (!m) {
            errno = ENOMEM;
            return NULL;
        }
        d->files = m;
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

/* ---- default names ------------------------------------------------------- */

int outdir_default(char *buf, size_t len, const char *path, const char *name, size_t name_max,
                   const char *suffix)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char cut[PATH_MAX], full[PATH_MAX];
    snprintf(cut, name_max + 1 < sizeof cut ? name_max + 1 : sizeof cut, "%s", base);
    names_from_file(cut);
    const char *use = name;
    if (strcmp(cut, name) == 0) { /* the scenario did not name itself */
        snprintf(full, sizeof full, "%s", base);
        names_from_file(full);
        use = full;
    }
    int n = snprintf(buf, len, "out/%s%s", use, suffix);
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
