/* datadir.c - the data folders of an installed or built cosim
 * (datadir.h). */
#define _XOPEN_SOURCE 700
#include "datadir.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by meson.build (cosim_config.h); these defaults are for a compiler
 * run by hand. */
#ifndef COSIM_BIN_TO_DATA
#define COSIM_BIN_TO_DATA "../share/cosim"
#endif
#ifndef COSIM_BUILD_ROOT
#define COSIM_BUILD_ROOT ""
#endif
#ifndef COSIM_SOURCE_ROOT
#define COSIM_SOURCE_ROOT ""
#endif
#ifndef COSIM_INSTALLED_DATA_DIR
#define COSIM_INSTALLED_DATA_DIR "/usr/local/share/cosim"
#endif

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The running program's folder (resolved, no trailing '/'), or "" when
 * /proc/self/exe cannot be read. */
static void program_dir(char *dir, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    dir[0] = '\0';
    if (n <= 0 || (size_t)n >= sizeof exe - 1)
        return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0';
    if (strlen(exe) < len)
        memcpy(dir, exe, strlen(exe) + 1);
}

/* 1 when folder dir (resolved) is the build folder or one inside it. */
static int in_build(const char *dir)
{
    char root[PATH_MAX];
    if (!*COSIM_BUILD_ROOT || !realpath(COSIM_BUILD_ROOT, root))
        return 0;
    size_t n = strlen(root);
    return strncmp(dir, root, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
}

static size_t add(char out[][4096], size_t n, size_t each_len, const char *a, const char *b, const char *c)
{
    char p[4096];
    int w = snprintf(p, sizeof p, "%s/%s%s%s", a, b, *c ? "/" : "", c);
    if (w < 0 || (size_t)w >= sizeof p || (size_t)w >= each_len)
        return n;
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i], p) == 0)
            return n;
    memcpy(out[n], p, (size_t)w + 1);
    return n + 1;
}

/* The build's paths as arrays, so a test of their first byte is a test of
 * data, not of a constant (clang's -Wconstant-logical-operand). */
static const char bin_to_data[] = COSIM_BIN_TO_DATA;
static const char source_root[] = COSIM_SOURCE_ROOT;
static const char build_root[] = COSIM_BUILD_ROOT;

size_t datadir_folders(const char *sub, char out[][4096], size_t each_len)
{
    char dir[PATH_MAX];
    size_t n = 0;
    program_dir(dir, sizeof dir);
    if (*dir && bin_to_data[0])
        n = add(out, n, each_len, dir, bin_to_data, sub);
    int built = *dir && in_build(dir);
    if (built && source_root[0])
        n = add(out, n, each_len, source_root, sub, "");
    if (built && build_root[0])
        n = add(out, n, each_len, build_root, sub, "");
    n = add(out, n, each_len, COSIM_INSTALLED_DATA_DIR, sub, "");
    return n;
}

int datadir_find(const char *sub, const char *name, char *path, size_t len)
{
    char dirs[DATADIR_MAX_FOLDERS][4096];
    size_t n = datadir_folders(sub, dirs, sizeof dirs[0]);
    int too_long = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(path, len, "%s/%s", dirs[i], name);
        if (w < 0 || (size_t)w >= len) {
            too_long = 1;
            continue;
        }
        if (is_file(path))
            return 0;
    }
    return too_long ? -ENAMETOOLONG : -ENOENT;
}
