/* outdir.c - temporary names, checked writes, renames into place. */
#define _POSIX_C_SOURCE 200809L
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 64

struct outdir {
    char dir[4096];
    char *names[MAX_FILES]; /* files started */
    FILE *open[MAX_FILES];  /* their streams while open */
    int finished[MAX_FILES];
    int committed[MAX_FILES];
    size_t n;
    char *kept[MAX_FILES]; /* files put in place by outdir_rename_into_place */
    size_t n_kept;
    int created;           /* outdir_open made the folder */
};

/* mkdir -p; *created tells whether the last component was made here. */
static int make_dirs(const char *path, int *created)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf)
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
    if (rc) {
        snprintf(err, errlen, "%s: cannot write the output folder: %s", dir, strerror(-rc));
        return rc;
    }
    outdir *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    snprintf(d->dir, sizeof d->dir, "%s", dir);
    d->created = created;
    *out = d;
    return 0;
}

char *outdir_file(const outdir *d, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", d->dir, name);
    return buf;
}

char *outdir_tmp_file(const outdir *d, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/.%s.tmp", d->dir, name);
    return buf;
}

FILE *outdir_create(outdir *d, const char *name)
{
    if (d->n == MAX_FILES || strchr(name, '/')) {
        errno = EINVAL;
        return NULL;
    }
    char path[4200];
    FILE *f = fopen(outdir_tmp_file(d, name, path, sizeof path), "w");
    if (!f)
        return NULL;
    d->names[d->n] = strdup(name);
    if (!d->names[d->n]) {
        fclose(f);
        unlink(path);
        errno = ENOMEM;
        return NULL;
    }
    d->open[d->n] = f;
    d->n++;
    return f;
}

int outdir_finish(outdir *d, FILE *f)
{
    for (size_t i = 0; i < d->n; i++) {
        if (d->open[i] != f)
            continue;
        d->open[i] = NULL;
        int rc = 0;
        if (fflush(f) != 0 || ferror(f))
            rc = -(errno ? errno : EIO);
        if (fclose(f) != 0 && !rc)
            rc = -(errno ? errno : EIO);
        d->finished[i] = !rc;
        return rc;
    }
    return -EINVAL;
}

int outdir_commit(outdir *d, char *err, size_t errlen)
{
    for (size_t i = 0; i < d->n; i++)
        if (!d->finished[i]) {
            snprintf(err, errlen, "%s/%s: not completely written", d->dir, d->names[i]);
            return -EIO;
        }
    for (size_t i = 0; i < d->n; i++) {
        int rc = outdir_rename_into_place(d, d->names[i]);
        if (rc) {
            snprintf(err, errlen, "%s/%s: %s", d->dir, d->names[i], strerror(-rc));
            return rc;
        }
        d->committed[i] = 1;
    }
    return 0;
}

int outdir_rename_into_place(outdir *d, const char *name)
{
    char from[4200], to[4200];
    if (rename(outdir_tmp_file(d, name, from, sizeof from), outdir_file(d, name, to, sizeof to)) != 0)
        return -errno;
    if (d->n_kept < MAX_FILES)
        d->kept[d->n_kept++] = strdup(name);
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
        for (size_t i = 0; i < d->n_kept && !current; i++)
            current = d->kept[i] && strcmp(d->kept[i], e->d_name) == 0;
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
        if (!d->committed[i]) {
            char path[4200];
            unlink(outdir_tmp_file(d, d->names[i], path, sizeof path));
        }
        free(d->names[i]);
    }
    for (size_t i = 0; i < d->n_kept; i++)
        free(d->kept[i]);
    if (failed && d->created)
        rmdir(d->dir); /* only if still empty */
    free(d);
}

const char *outdir_path(const outdir *d)
{
    return d->dir;
}
