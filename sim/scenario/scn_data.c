/* scn_data.c - reading a scenario's data files. */
#include "scn_data.h"
#include "grow.h"
#include "textin.h"
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The path of a file a scenario names, relative to the scenario's folder.
 * -1 if it would be longer than SCENARIO_PATH_MAX (never cut). */
int scn_data_relative(const scn_ctx *c, const char *name, char *out, size_t len)
{
    const char *slash = strrchr(c->p->path, '/');
    int n;
    if (name[0] == '/' || !slash)
        n = snprintf(out, len, "%s", name);
    else
        n = snprintf(out, len, "%.*s/%s", (int)(slash - c->p->path), c->p->path, name);
    return n < 0 || (size_t)n >= len || (size_t)n > SCENARIO_PATH_MAX ? -1 : 0;
}

/* Read a data file line by line: blank lines and lines starting with '#'
 * are skipped; each other line (blanks trimmed) goes to fn, which returns 0
 * or sets the message (with path:line) and returns -1. keep: on success the
 * file is left open in *keep (else closed). */
static int read_data_file(scn_ctx *c, scn_ini_entry *e, const char *path, scn_data_line_fn fn, void *arg,
                          FILE **keep)
{
    if (!*e->value) {
        scn_keys_bad_value(c, e, "give the name of a file");
        return -1;
    }
    const char *what;
    int errnum;
    FILE *f = scenario_open_regular(path, &what, &errnum);
    if (!f) {
        char msg[SCENARIO_PATH_MAX + 128];
        if (what)
            snprintf(msg, sizeof msg, "%s %s%s", path, what,
                     strcmp(what, "is a directory") == 0 ? ", not a file" : "");
        else
            snprintf(msg, sizeof msg, "cannot read %s: %s", path, strerror(errnum));
        scn_keys_bad_value(c, e, msg);
        return -1;
    }
    char buf[SCENARIO_DATA_LINE_MAX + 1];
    int line = 0, rc = 0, ch = 0;
    int64_t off = 0; /* bytes before the line */
    while (!rc && ch != EOF) {
        size_t n = 0;
        int64_t line_off = off;
        while ((ch = getc(f)) != EOF && ch != '\n') {
            if (n == 0 && line == SCENARIO_DATA_LINES_MAX) {
                scn_ini_fail(c->p, "%s:%d: more than %d lines; a data file has at most %d", path, line + 1,
                     SCENARIO_DATA_LINES_MAX, SCENARIO_DATA_LINES_MAX);
                rc = -1;
                break;
            }
            if (ch == '\0' || (ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f) {
                scn_ini_fail(c->p, "%s:%d: not a text file (byte 0x%02x)", path, line + 1, ch);
                rc = -1;
                break;
            }
            if (n == SCENARIO_DATA_LINE_MAX) {
                scn_ini_fail(c->p, "%s:%d: line longer than %d characters (data files hold one short value per "
                           "line)", path, line + 1, SCENARIO_DATA_LINE_MAX);
                rc = -1;
                break;
            }
            buf[n++] = (char)ch;
        }
        if (rc || (n == 0 && ch == EOF))
            break;
        off += (int64_t)n + (ch != EOF);
        line++;
        buf[n] = '\0';
        char *t = buf + (line == 1 ? textin_bom_len(buf, n) : 0); /* a byte order mark skipped */
        size_t bad_at;
        if (!textin_utf8_valid(t, &bad_at)) {
            scn_ini_fail(c->p, "%s:%d: not valid UTF-8 (byte 0x%02x at column %zu); save the file as UTF-8", path,
                         line, (unsigned char)t[bad_at], (size_t)(t - buf) + bad_at + 1);
            rc = -1;
            break;
        }
        if (strstr(t, "\xEF\xBB\xBF")) {
            scn_ini_fail(c->p, "%s:%d: a byte order mark (U+FEFF) inside the file (two files joined?); remove it",
                         path, line);
            rc = -1;
            break;
        }
        t = scn_ini_trim(t);
        if (strchr(t, '\r')) { /* the trim took a CRLF's; one left is inside the line */
            scn_ini_fail(c->p, "%s:%d: " TEXTIN_CR_INSIDE_LINE, path, line);
            rc = -1;
            break;
        }
        if (!*t || *t == '#')
            continue;
        c->data_off = line_off;
        rc = fn(c, path, line, t, arg);
    }
    if (!rc && ferror(f)) {
        scn_ini_fail(c->p, "%s: read error", path);
        rc = -1;
    }
    if (!rc && keep)
        *keep = f;
    else
        fclose(f);
    return rc;
}

static int vec_push(scn_ctx *c, scn_data_vec *x, int64_t a)
{
    if (x->n == x->cap) {
        int64_t *nv = grow_array(x->v, &x->cap, sizeof *nv, 64);
        if (!nv) {
            c->p->oom = 1;
            return -1;
        }
        x->v = nv;
    }
    x->v[x->n++] = a;
    return 0;
}

/* One observed service time per line, with its unit: "105us". */
int scn_data_empirical_line(scn_ctx *c, const char *path, int line, char *text, void *arg)
{
    int64_t ns;
    const char *why;
    if (strpbrk(text, ",; \t")) {
        scn_ini_fail(c->p, "%s:%d: '%s': one duration per line, e.g. 105us", path, line, text);
        return -1;
    }
    if (units_parse_duration(text, &ns, &why)) {
        scn_ini_fail(c->p, "%s:%d: '%s': %s (one duration per line, e.g. 105us)", path, line, text, why);
        return -1;
    }
    return vec_push(c, arg, ns);
}

/* "start,length" with units, "2.5s,500ms", into [*start, *end) (a header
 * "start,length" is allowed when first: 1, nothing read). 0, 1 or -1. */
static int window_of(scn_ctx *c, const char *path, int line, char *text, int first, int64_t *start,
                     int64_t *end)
{
    if (first && strcmp(text, "start,length") == 0)
        return 1;
    char *comma = strchr(text, ',');
    if (comma && strchr(comma + 1, ',')) {
        scn_ini_fail(c->p, "%s:%d: '%s': expected two fields, start,length", path, line, text);
        return -1;
    }
    int64_t a, b;
    const char *why = "expected start,length such as 2.5s,500ms";
    if (!comma || (*comma = '\0', units_parse_duration(text, &a, &why)) ||
        units_parse_duration(comma + 1, &b, &why)) {
        if (comma)
            *comma = ',';
        scn_ini_fail(c->p, "%s:%d: '%s': %s", path, line, text, why);
        return -1;
    }
    if (b == 0) {
        scn_ini_fail(c->p, "%s:%d: a stall of length 0", path, line);
        return -1;
    }
    *start = a;
    *end = a + b;
    return 0;
}

int scn_data_window_line(scn_ctx *c, const char *path, int line, char *text, void *arg)
{
    scn_window_vec *x = arg;
    int64_t a, b;
    int rc = window_of(c, path, line, text, x->n == 0, &a, &b);
    if (rc)
        return rc < 0 ? -1 : 0;
    if (x->n == x->cap) {
        stall_window *nw = grow_array(x->w, &x->cap, sizeof *nw, 64);
        if (!nw) {
            c->p->oom = 1;
            return -1;
        }
        x->w = nw;
    }
    x->w[x->n++] = (stall_window){a, b};
    return 0;
}

int scn_data_window_at(scn_ctx *c, const char *path, int line, char *text, void *arg)
{
    scn_window_vec *x = arg;
    int64_t a, b;
    int rc = window_of(c, path, line, text, x->found_line == 0 && x->n == 0, &a, &b);
    x->n++; /* lines seen, for the header */
    if (rc == 0 && a == x->find_start_ns)
        x->found_line = line;
    return rc < 0 ? -1 : 0;
}

int scn_data_window_check(scn_ctx *c, const char *path, int line, char *text, void *arg)
{
    scn_window_check *x = arg;
    int64_t a, b;
    int rc = window_of(c, path, line, text, x->n == 0, &a, &b);
    if (rc)
        return rc < 0 ? -1 : 0;
    if (x->n == 0)
        x->first = (stall_window){a, b};
    else if (a < x->last.start_ns)
        x->unsorted = 1;
    else if (!x->bad_line && a < x->last.end_ns)
        x->bad_line = line, x->bad = (stall_window){a, b};
    else if (x->bad_line && a == x->bad.start_ns)
        x->bad_line = line; /* the last line of that start (scn_data_window_at) */
    if (x->n > 0 && !x->unsorted && !x->bad_line) /* where a cursor may start reading */
        stall_file_marks_add(&x->marks, x->n, (uint64_t)line - 1, c->data_off, x->last);
    x->last = (stall_window){a, b};
    x->n++;
    return 0;
}

/* The data file named by the section's `file` key, read line by line with
 * fn into *x (freed on error); *e receives the key's entry. */
int scn_data_read(scn_ctx *c, scn_data_line_fn fn, scn_data_vec *x, scn_ini_entry **e)
{
    if (scn_data_read_with(c, fn, x, e) < 0) {
        free(x->v);
        x->v = NULL;
        return -1;
    }
    return 0;
}

int scn_data_read_with(scn_ctx *c, scn_data_line_fn fn, void *arg, scn_ini_entry **e)
{
    return scn_data_read_keep(c, fn, arg, e, NULL);
}

int scn_data_read_keep(scn_ctx *c, scn_data_line_fn fn, void *arg, scn_ini_entry **e, FILE **keep)
{
    if (!scn_keys_need(c, "file"))
        return -1;
    *e = scn_keys_get(c, "file");
    char path[SCENARIO_PATH_MAX + 2];
    if (scn_data_relative(c, (*e)->value, path, sizeof path)) {
        scn_keys_bad_value(c, *e, "the file's path, joined to the scenario's folder, is longer than 4095 bytes");
        return -1;
    }
    return read_data_file(c, *e, path, fn, arg, keep);
}

int scn_data_file(scn_ctx *c, scn_ini_entry *e, char *out, size_t len)
{
    char msg[SCENARIO_PATH_MAX + 128];
    if (!*e->value) {
        scn_keys_bad_value(c, e, "give the name of a file");
        return -1;
    }
    if (scn_data_relative(c, e->value, out, len)) {
        scn_keys_bad_value(c, e, "the file's path, joined to the scenario's folder, is longer than 4095 bytes");
        return -1;
    }
    const char *what;
    int errnum;
    FILE *f = scenario_open_regular(out, &what, &errnum); /* no FIFO nor folder reaches the reader */
    if (!f) {
        if (what)
            snprintf(msg, sizeof msg, "%s %s", out, what);
        else
            snprintf(msg, sizeof msg, "cannot read %s: %s", out, strerror(errnum));
        scn_keys_bad_value(c, e, msg);
        return -1;
    }
    fclose(f);
    return 0;
}
