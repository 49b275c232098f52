/* explore.c - `cosim lecture`'s interactive page (explore.h): the template
 * with its @@SLOT@@s filled. The page carries each scenario's file and the
 * data files it names, so the engine in the page reads what the CLI reads,
 * at the same relative paths (its messages name the same FILE:LINE). */
#define _POSIX_C_SOURCE 200809L
#include "explore.h"
#include "datadir.h"
#include "html.h"
#include "report.h"
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* dir/name is a regular file. */
static int has_file(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    return (size_t)snprintf(p, sizeof p, "%s/%s", dir, name) < sizeof p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder of the file datadir_find finds (len bytes), or -ENOENT. */
static int data_folder(const char *sub, const char *name, char *dir, size_t len)
{
    if (datadir_find(sub, name, dir, len))
        return -ENOENT;
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    return 0;
}

/* "where": the folders datadir_folders(sub) lists, ", "-separated. */
static void folders_text(const char *sub, char *where, size_t len)
{
    char dirs[DATADIR_MAX_FOLDERS][4096];
    size_t n = datadir_folders(sub, dirs, sizeof dirs[0]), used = 0;
    where[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        int w = snprintf(where + used, len - used, "%s%s", i ? ", " : "", dirs[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int explore_find(char *page_dir, char *engine_dir, size_t len, char *why, size_t whylen)
{
    char where[DATADIR_MAX_FOLDERS * 4100];
    if (data_folder("web/page", "explore.html", page_dir, len)) {
        folders_text("web/page", where, sizeof where);
        snprintf(why, whylen, "the interactive page's template (explore.html) is in none of %s", where);
        return -ENOENT;
    }
    if (data_folder("web", "cosim-engine.js", engine_dir, len)) {
        folders_text("web", where, sizeof where);
        snprintf(why, whylen,
                 "the browser engine (cosim-engine.js) was not built: it is in none of %s; build it with "
                 "`meson setup build -Dweb=enabled` (needs emcc, node and npm: scripts/deps.sh)",
                 where);
        return -ENOENT;
    }
    if (!has_file(engine_dir, "uPlot.iife.min.js") || !has_file(engine_dir, "uPlot.min.css")) {
        snprintf(why, whylen, "%s holds cosim-engine.js but not the charting library (uPlot.iife.min.js, "
                              "uPlot.min.css) built beside it", engine_dir);
        return -ENOENT;
    }
    return 0;
}

/* A whole file into memory (NUL-terminated), at most max bytes. 0 or
 * -errno (-EFBIG: longer). */
static int read_whole(const char *path, size_t max, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    int rc = buf ? 0 : -ENOMEM;
    while (!rc) {
        if (n == cap) {
            char *b = cap > max ? NULL : realloc(buf, cap * 2 + 1);
            if (!b) {
                rc = cap > max ? -EFBIG : -ENOMEM;
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!rc && ferror(f))
        rc = -EIO;
    if (!rc && n > max)
        rc = -EFBIG;
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* text as a JSON string, safe inside a <script> element: '<', '>' and '&'
 * escaped too, so no "</script" can close it. */
static void json_text(FILE *f, const char *t, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The files a scenario names (`file = PATH` lines, joined to its folder as
 * scn_data.c joins them), as {"path", "text"} objects after the scenario's
 * own. 0 or -errno (why says which). */
static int write_files(FILE *f, const explore_lesson *l, char *why, size_t whylen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = read_whole(l->path, SCENARIO_FILE_MAX, &text, &len);
    if (rc) {
        snprintf(why, whylen, "%s: %s", l->path, strerror(-rc));
        return rc;
    }
    fputs("[{\"path\": ", f);
    json_text(f, l->path, strlen(l->path));
    fputs(", \"text\": ", f);
    json_text(f, text, len);
    fputc('}', f);
    const char *slash = strrchr(l->path, '/');
    size_t dir_len = slash ? (size_t)(slash - l->path) + 1 : 0;
    for (char *line = text, *next; !rc && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        while (*line == ' ' || *line == '\t')
            line++;
        if (strncmp(line, "file", 4) != 0)
            continue;
        char *v = line + 4;
        while (*v == ' ' || *v == '\t')
            v++;
        if (*v != '=' && *v != ':')
            continue;
        v++;
        char *semi = v;
        while ((semi = strchr(semi, ';')) && semi > v && semi[-1] != ' ' && semi[-1] != '\t')
            semi++;
        if (semi)
            *semi = '\0';
        while (*v == ' ' || *v == '\t')
            v++;
        size_t vn = strlen(v);
        while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t' || v[vn - 1] == '\r'))
            v[--vn] = '\0';
        if (!vn)
            continue;
        char joined[PATH_MAX];
        int w = v[0] == '/' ? snprintf(joined, sizeof joined, "%s", v)
                            : snprintf(joined, sizeof joined, "%.*s%s", (int)dir_len, l->path, v);
        if (w < 0 || (size_t)w >= sizeof joined)
            continue; /* the engine refuses it as the CLI does */
        char *data = NULL;
        size_t dn = 0;
        int e = read_whole(joined, EXPLORE_FILE_MAX, &data, &dn);
        if (e == -ENOENT)
            continue; /* the engine says so, as the CLI would */
        if (e) {
            snprintf(why, whylen, "%s: %s%s", joined, strerror(-e),
                     e == -EFBIG ? " (a page embeds data files up to 16 MiB)" : "");
            rc = e;
            break;
        }
        fputs(", {\"path\": ", f);
        json_text(f, joined, strlen(joined));
        fputs(", \"text\": ", f);
        json_text(f, data, dn);
        fputc('}', f);
        free(data);
    }
    fputc(']', f);
    free(text);
    return rc;
}

/* The page's data: the keys (cosim --list-keys) and the lessons. */
static int write_lessons(FILE *f, const explore_lesson *ls, size_t n, char *why, size_t whylen)
{
    char *keys = NULL;
    size_t kn = 0;
    FILE *k = open_memstream(&keys, &kn);
    if (!k || scenario_list_keys(k) || fclose(k)) {
        free(keys);
        snprintf(why, whylen, "out of memory");
        return -ENOMEM;
    }
    fputs("{\"keys_text\": ", f);
    json_text(f, keys, kn);
    free(keys);
    fputs(",\n\"lessons\": [", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n{\"name\": ", i ? "," : "");
        json_text(f, ls[i].name, strlen(ls[i].name));
        fputs(", \"path\": ", f);
        json_text(f, ls[i].path, strlen(ls[i].path));
        fputs(", \"title\": ", f);
        json_text(f, ls[i].title, strlen(ls[i].title));
        fputs(", \"lesson\": ", f);
        json_text(f, ls[i].lesson, strlen(ls[i].lesson));
        fputs(", \"files\": ", f);
        int rc = write_files(f, &ls[i], why, whylen);
        if (rc)
            return rc;
        fputc('}', f);
    }
    fputs("]}", f);
    return 0;
}

/* A part of the page, inlined as it is: refused if it could end its
 * <script> or <style> element early. */
static int write_part(FILE *f, const char *dir, const char *name, char *why, size_t whylen)
{
    char p[PATH_MAX], *text = NULL;
    size_t n = 0;
    if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p) {
        snprintf(why, whylen, "%s/%s: the path is too long", dir, name);
        return -ENAMETOOLONG;
    }
    int rc = read_whole(p, 64 * 1024 * 1024, &text, &n);
    if (rc) {
        snprintf(why, whylen, "%s: %s", p, strerror(-rc));
        return rc;
    }
    for (size_t i = 0; i + 2 <= n; i++)
        if (text[i] == '<' && text[i + 1] == '/' &&
            (strncasecmp(text + i + 2, "script", 6) == 0 || strncasecmp(text + i + 2, "style", 5) == 0)) {
            snprintf(why, whylen, "%s holds \"</script\" or \"</style\": it cannot be inlined in the page", p);
            free(text);
            return -EFBIG;
        }
    fwrite(text, 1, n, f);
    free(text);
    return 0;
}

int explore_write_page(FILE *f, const char *title, const explore_lesson *ls, size_t n, const char *page_dir,
                       const char *engine_dir, char *why, size_t whylen)
{
    char p[PATH_MAX], *tpl = NULL;
    size_t tn = 0;
    snprintf(p, sizeof p, "%s/explore.html", page_dir);
    int rc = read_whole(p, 1 << 20, &tpl, &tn);
    if (rc) {
        snprintf(why, whylen, "%s: %s", p, strerror(-rc));
        return rc;
    }
    const char *at = tpl;
    while (!rc) {
        const char *slot = strstr(at, "@@");
        const char *end = slot ? strstr(slot + 2, "@@") : NULL;
        if (!slot || !end) {
            fputs(at, f);
            break;
        }
        fwrite(at, 1, (size_t)(slot - at), f);
        size_t sn = (size_t)(end - slot - 2);
        const char *s = slot + 2;
        if (sn == 5 && strncmp(s, "TITLE", 5) == 0)
            report_html_escape(f, title);
        else if (sn == 9 && strncmp(s, "UPLOT_CSS", 9) == 0)
            rc = write_part(f, engine_dir, "uPlot.min.css", why, whylen);
        else if (sn == 8 && strncmp(s, "UPLOT_JS", 8) == 0)
            rc = write_part(f, engine_dir, "uPlot.iife.min.js", why, whylen);
        else if (sn == 9 && strncmp(s, "ENGINE_JS", 9) == 0)
            rc = write_part(f, engine_dir, "cosim-engine.js", why, whylen);
        else if (sn == 12 && strncmp(s, "LESSONS_JSON", 12) == 0)
            rc = write_lessons(f, ls, n, why, whylen);
        else
            fwrite(slot, 1, sn + 4, f); /* not a slot: as written */
        at = end + 2;
    }
    free(tpl);
    if (!rc && ferror(f)) {
        snprintf(why, whylen, "write error");
        rc = -EIO;
    }
    return rc;
}
