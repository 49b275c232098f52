/* outdir.c - a staging folder, checked writes, renames into place. */
#define _POSIX_C_SOURCE 200809L
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 512

struct outdir {
    char dir[4096];
    char staging[4200];
    char *names[MAX_FILES]; /* files staged */
    FILE *open[MAX_FILES];  /* their streams while open */
    int finished[MAX_FILES];
    int committed[MAX_FILES];
    size_t n;
    int created;            /* outdir_open made the output folder */
};

/* mkdir -p; *created tells whether the last component was made here. */
static int make_dirs(const char *path, int *created)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf || !*path)
        return -ENAMETOOLONG;
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    *created = 0;
    if (mkdir(buf, 0777) == 0)
        *created = 1;
    else if (errno != EEXIST)
        return -errno;
    struct stat st;
    if (stat(buf, &st) != 0)
        return -errno;
    if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    return 0;
}

int outdir_open(outdir **out, const char *dir, char *err, size_t errlen)
{
    *out = NULL;
    int created = 0;
    int rc = make_dirs(dir, &created);
    if (!rc && access(dir, W_OK | X_OK) != 0)
        rc = -errno;
    outdir *d = rc ? NULL : calloc(1, sizeof *d);
    if (!rc && !d)
        rc = -ENOMEM;
    if (!rc) {
        snprintf(d->dir, sizeof d->dir, "%s", dir);
        snprintf(d->staging, sizeof d->staging, "%s/.cosim-staging-%ld", dir, (long)getpid());
        d->created = created;
        if (mkdir(d->staging, 0777) != 0 && errno != EEXIST)
            rc = -errno;
    }
    if (rc) {
        snprintf(err, errlen, "%s: cannot write the output folder: %s", dir, strerror(-rc));
        if (created)
            rmdir(dir);
        free(d);
        return rc;
    }
    *out = d;
    return 0;
}

char *outdir_staged_file(const outdir *d, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", d->staging, name);
    return buf;
}

static int add_name(outdir *d, const char *name, FILE *f)
{
    if (d->n == MAX_FILES || strchr(name, '/'))
        return -EINVAL;
    d->names[d->n] = strdup(name);
    if (!d->names[d->n])
        return -ENOMEM;
    d->open[d->n] = f;
    d->finished[d->n] = f == NULL;
    d->n++;
    return 0;
}

FILE *outdir_create(outdir *d, const char *name)
{
    if (d->n == MAX_FILES || strchr(name, '/')) {
        errno = EINVAL;
        return NULL;
    }
    char path[4400];
    FILE *f = fopen(outdir_staged_file(d, name, path, sizeof path), "w");
    if (!f)
        return NULL;
    int rc = add_name(d, name, f);
    if (rc) {
        fclose(f);
        unlink(path);
        errno = -rc;
        return NULL;
    }
    return f;
}

int outdir_finish(outdir *d, FILE *f)
{
    for (size_t i = 0; i < d->n; i++) {
        if (d->open[i] != f)
            continue;
        d->open[i] = NULL;
        int rc = 0;
        errno = 0;
        if (fflush(f) != 0 || ferror(f))
            rc = -(errno ? errno : EIO);
        if (fclose(f) != 0 && !rc)
            rc = -(errno ? errno : EIO);
        d->finished[i] = !rc;
        return rc;
    }
    return -EINVAL;
}

int outdir_adopt(outdir *d, const char *name)
{
    return add_name(d, name, NULL);
}

int outdir_commit(outdir *d, char *err, size_t errlen)
{
    for (size_t i = 0; i < d->n; i++)
        if (!d->finished[i]) {
            snprintf(err, errlen, "%s/%s: not completely written", d->dir, d->names[i]);
            return -EIO;
        }
    for (size_t i = 0; i < d->n; i++) {
        char from[4400], to[4400];
        snprintf(to, sizeof to, "%s/%s", d->dir, d->names[i]);
        if (rename(outdir_staged_file(d, d->names[i], from, sizeof from), to) != 0) {
            snprintf(err, errlen, "%s: %s", to, strerror(errno));
            return -errno;
        }
        d->committed[i] = 1;
    }
    return 0;
}

int outdir_remove_stale(outdir *d, int (*ours)(const char *name))
{
    DIR *dir = opendir(d->dir);
    if (!dir)
        return -errno;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (!ours(e->d_name))
            continue;
        int current = 0;
        for (size_t i = 0; i < d->n && !current; i++)
            current = d->committed[i] && strcmp(d->names[i], e->d_name) == 0;
        if (current)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", d->dir, e->d_name);
        if (unlink(path) == 0)
            removed++;
    }
    closedir(dir);
    return removed;
}

void outdir_close(outdir *d, int failed)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        if (d->open[i])
            fclose(d->open[i]);
        free(d->names[i]);
    }
    /* whatever is left in staging (uncommitted files, gnuplot leftovers) */
    DIR *dir = opendir(d->staging);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", d->staging, e->d_name);
        unlink(path);
    }
    if (dir)
        closedir(dir);
    rmdir(d->staging);
    if (failed && d->created)
        rmdir(d->dir); /* only if still empty */
    free(d);
}

const char *outdir_path(const outdir *d)
{
    return d->dir;
}

const char *outdir_staging(const outdir *d)
{
    return d->staging;
}
