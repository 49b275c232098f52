/* stall_file.c - a stall file's windows streamed through a fixed buffer
 * (stall.h, stall_cursor). The scenario's reading checked every line; the
 * cursor reads the same lines again with pread on the descriptor it kept
 * open, so its memory is flat in the file's size. */
#include "stall.h"
#include "textin.h"
#include "units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void stall_file_free(stall_file *f)
{
    if (!f)
        return;
    if (f->f)
        fclose(f->f);
    free(f->path);
    free(f);
}

int stall_file_changed(const stall_file *f)
{
    struct stat st;
    if (fstat(fileno(f->f), &st) != 0)
        return 1;
    return (int64_t)st.st_size != f->size || (int64_t)st.st_mtim.tv_sec != f->mtime_s ||
           (int64_t)st.st_mtim.tv_nsec != f->mtime_ns;
}

void stall_file_marks_add(stall_file_marks *mk, uint64_t index, uint64_t line, int64_t off, stall_window before)
{
    if (!mk->every)
        mk->every = 256;
    if (index % mk->every)
        return;
    if (mk->n == STALL_FILE_MARKS) { /* full: keep every other, twice as far apart */
        size_t k = 0;
        for (size_t i = 0; i < mk->n; i++)
            if (mk->m[i].index % (2 * mk->every) == 0)
                mk->m[k++] = mk->m[i];
        mk->n = k;
        mk->every *= 2;
        if (index % mk->every)
            return;
    }
    mk->m[mk->n++] = (stall_file_mark){index, line, off, before};
}

stall_window stall_first_window(const stall_spec *s)
{
    if (s->file)
        return s->file->first;
    if (s->n_windows)
        return s->windows[0];
    return (stall_window){0, 0};
}

/* The next line of the file, '\0'-terminated in buf, into *text: 1, or 0
 * at the end (or on an error, c->err set). */
static int next_line(stall_cursor *c, char **text)
{
    for (;;) {
        char *nl = memchr(c->buf + c->pos, '\n', c->len - c->pos);
        if (nl || (c->eof && c->pos < c->len)) {
            char *t = c->buf + c->pos;
            size_t n = nl ? (size_t)(nl - t) : c->len - c->pos;
            t[n] = '\0'; /* buf has one byte more than it reads */
            c->pos += n + (nl != NULL);
            c->line++;
            *text = t;
            return 1;
        }
        if (c->eof)
            return 0;
        if (c->len - c->pos >= STALL_CURSOR_BUF / 2) { /* longer than any line the reading let through */
            c->err = -ESTALE;
            return 0;
        }
        memmove(c->buf, c->buf + c->pos, c->len - c->pos);
        c->off += (int64_t)c->pos;
        c->len -= c->pos;
        c->pos = 0;
        ssize_t r;
        do
            r = pread(fileno(c->file->f), c->buf + c->len, STALL_CURSOR_BUF - c->len, (off_t)(c->off + (int64_t)c->len));
        while (r < 0 && errno == EINTR);
        if (r < 0) {
            c->err = -EIO;
            return 0;
        }
        if (r == 0)
            c->eof = 1;
        c->len += (size_t)r;
    }
}

/* A field's duration: the common form, digits and one of ns, us, ms, s
 * with nothing around, read here; any other (a decimal point, blanks,
 * min, too many digits or too long) by units_parse_duration. The same
 * value either way: at most 18 digits times the unit, checked against the
 * same limit. 0 or -1. */
static int field_ns(const char *t, int64_t *out)
{
    uint64_t v = 0;
    const char *p = t;
    while (*p >= '0' && *p <= '9' && p - t < 18)
        v = v * 10 + (uint64_t)(*p++ - '0');
    uint64_t unit = 0;
    if (p > t) {
        if (p[0] == 's' && !p[1])
            unit = 1000000000;
        else if (p[0] && p[1] == 's' && !p[2])
            unit = p[0] == 'n' ? 1 : p[0] == 'u' ? 1000 : p[0] == 'm' ? 1000000 : 0;
    }
    if (unit && v <= (uint64_t)UNITS_MAX_DURATION_NS / unit) {
        *out = (int64_t)(v * unit);
        return 0;
    }
    const char *why;
    return units_parse_duration(t, out, &why) ? -1 : 0;
}

/* Read the next window into c->cur (c->have 0 at the end or on an error).
 * The lines the scenario's reading skipped are skipped: blank, '#', a
 * byte order mark on line 1, a "start,length" header before any window. */
static void next_window(stall_cursor *c)
{
    char *t;
    int64_t prev_end = c->index ? c->cur.end_ns : INT64_MIN; /* the window read last */
    c->have = 0;
    while (!c->err && next_line(c, &t)) {
        if (c->line == 1)
            t += textin_bom_len(t, strlen(t));
        while (*t == ' ' || *t == '\t')
            t++;
        char *e = t + strlen(t);
        while (e > t && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = '\0';
        if (!*t || *t == '#' || (c->index == 0 && strcmp(t, "start,length") == 0))
            continue;
        char *comma = strchr(t, ',');
        int64_t a, b, end;
        if (!comma || strchr(comma + 1, ',') || (*comma = '\0', field_ns(t, &a)) || field_ns(comma + 1, &b) ||
            b <= 0 || __builtin_add_overflow(a, b, &end) ||
            (c->index > 0 && a < prev_end)) {
            c->err = -ESTALE; /* the reading accepted it: the file changed */
            return;
        }
        if (c->index == c->file->n_windows) { /* one more than the reading counted */
            c->err = -ESTALE;
            return;
        }
        c->cur = (stall_window){a, end};
        c->index++;
        c->have = 1;
        return;
    }
    if (!c->err && (c->index != c->file->n_windows || c->cur.start_ns != c->file->last.start_ns ||
                    c->cur.end_ns != c->file->last.end_ns))
        c->err = -ESTALE; /* the end came early, or after another window */
}

int stall_cursor_init(stall_cursor *c, const stall_file *f)
{
    c->file = f;
    c->off = 0;
    c->pos = c->len = 0;
    c->eof = c->err = c->have = 0;
    c->line = c->index = 0;
    c->cur = (stall_window){0, 0};
    c->prev_end = INT64_MIN;
    if (stall_file_changed(f))
        return c->err = -ESTALE;
    next_window(c);
    if (!c->err && (!c->have || c->cur.start_ns != f->first.start_ns || c->cur.end_ns != f->first.end_ns))
        c->err = -ESTALE;
    return c->err;
}

/* Jump to the last mark whose windows before it all end by t, when it is
 * ahead of the cursor's window (or behind: back, for stall_cursor_find):
 * the same window is found as by reading on, without reading the lines in
 * between. */
static void jump(stall_cursor *c, int64_t t, int back)
{
    const stall_file_marks *mk = &c->file->marks;
    size_t lo = 0, hi = mk->n; /* the first mark whose window before ends after t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mk->m[mid].before.end_ns <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return;
    const stall_file_mark *m = &mk->m[lo - 1];
    if (m->index <= c->index && !back)
        return;
    c->off = m->off;
    c->pos = c->len = 0;
    c->eof = 0;
    c->line = m->line;
    c->index = m->index; /* read: the windows before the mark's; cur the last of them */
    c->cur = m->before;
    c->have = 1;
    c->prev_end = m->before.start_ns; /* the windows before it end by then */
}

int stall_cursor_seek(stall_cursor *c, int64_t t, stall_window *out)
{
    if (c->err)
        return c->err;
    if (c->have && c->cur.end_ns <= t)
        jump(c, t, 0);
    while (c->have && c->cur.end_ns <= t) {
        c->prev_end = c->cur.end_ns;
        next_window(c);
    }
    if (c->err)
        return c->err;
    if (!c->have)
        return 0;
    *out = c->cur;
    return 1;
}

int stall_cursor_find(stall_cursor *c, int64_t t, stall_window *out)
{
    if (!c->err && t < c->prev_end) {
        if (c->file->marks.n && c->file->marks.m[0].before.end_ns <= t)
            jump(c, t, 1);
        else if (stall_cursor_init(c, c->file)) /* from the start */
            return c->err;
    }
    return stall_cursor_seek(c, t, out);
}

void stall_cursor_copy(stall_cursor *dst, const stall_cursor *src)
{
    size_t live = src->len - src->pos;
    dst->file = src->file;
    dst->off = src->off + (int64_t)src->pos;
    dst->pos = 0;
    dst->len = live;
    dst->eof = src->eof;
    dst->err = src->err;
    dst->have = src->have;
    dst->line = src->line;
    dst->index = src->index;
    dst->cur = src->cur;
    dst->prev_end = src->prev_end;
    memcpy(dst->buf, src->buf + src->pos, live);
}
