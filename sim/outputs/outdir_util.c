/* outdir_util.c - the output folder's small helpers: messages, names,
 * listings, writing a file and the manifest through a folder descriptor. */
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

void od_say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void od_warn(const char *fmt, ...)
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
int od_valid_name(const char *name)
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
int od_same_entry(int at, const char *name, const struct stat *st)
{
    struct stat o;
    return fstatat(at, name, &o, AT_SYMLINK_NOFOLLOW) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* Remove the parent folders made for an output folder (see outdir.made_end),
 * deepest first, each only if empty (rmdir). System calls only. */
void od_remove_made(char *path, const unsigned char *ends)
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

int od_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the previous manifest's names are sorted: a lookup is a binary search */
int od_in_old(const outdir *d, const char *name)
{
    return d->n_old && bsearch(&name, d->old, d->n_old, sizeof *d->old, od_cmp_names) != NULL;
}

int od_in_new(const outdir *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->files[i]->name, name) == 0)
            return 1;
    return 0;
}

/* The names in folder fd other than "." and "..", sorted in byte order.
 * @return the count, or a negative errno. */

void od_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

long od_list_folder(int fd, char ***out)
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
        od_free_names(names, n);
        return rc;
    }
    if (n)
        qsort(names, n, sizeof *names, od_cmp_names);
    *out = names;
    return (long)n;
}

/* Remove the plain entries (files, links, ...) of folder fd; subfolders are
 * never entered. @return the number of entries that stay. */
size_t od_empty_folder(int fd)
{
    char **names;
    long n = od_list_folder(fd, &names);
    size_t left = 0;
    for (long i = 0; i < n; i++)
        if (unlinkat(fd, names[i], 0) != 0)
            left++;
    if (n > 0)
        od_free_names(names, (size_t)n);
    return n < 0 ? 1 : left;
}

/* Write a whole file name into folder at (created new; an older one of that
 * name, cosim's own, is replaced). @return 0 or -errno. */
int od_write_at(int at, const char *name, const char *data, size_t len)
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
int od_write_manifest(const outdir *d, int at, const char *name, int with_old)
{
    size_t n = d->n + (with_old ? d->n_old : 0), k = 0;
    char **names = calloc(n ? n : 1, sizeof *names);
    if (!names)
        return -ENOMEM;
    for (size_t i = 0; with_old && i < d->n_old; i++)
        names[k++] = d->old[i];
    for (size_t i = 0; i < d->n; i++)
        if (!with_old || !od_in_old(d, d->files[i]->name))
            names[k++] = d->files[i]->name;
    size_t len;
    char *text = manifest_text(d->source, names, k, &len);
    free(names);
    if (!text)
        return -ENOMEM;
    int rc = od_write_at(at, name, text, len);
    free(text);
    return rc;
}

/* "\\" and "\n" escaped, so a path is one manifest line. */
char *od_escape_line(const char *s)
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
