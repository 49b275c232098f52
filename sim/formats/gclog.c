/* gclog.c - stop-the-world pauses from GC logs (formats and stamp rules in
 * gclog.h). */
#include "gclog_internal.h"
#include "grow.h"
#include "hlog.h"
#include "textin.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gclog_options_default(gclog_options *o)
{
    memset(o, 0, sizeof *o);
    o->from_ns = 0;
    o->to_ns = INT64_MAX;
    o->offset_ns = 0;
    o->min_pause_ns = 0;
    o->scale = 1.0;
    o->source = GCLOG_SOURCE_AUTO;
    o->hlog_unit_ns = 1;
    o->strict = 1;
    o->tag = NULL;
}

const char *gclog_format_name(gclog_format f)
{
    switch (f) {
    case GCLOG_JDK_UNIFIED: return "JDK unified logging";
    case GCLOG_JDK8: return "JDK 8 GC log";
    case GCLOG_GO: return "Go gctrace";
    case GCLOG_HLOG: return "HdrHistogram interval log";
    default: return "unknown";
    }
}

void gclog_free(gclog_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i]);
    free(r->notes);
    for (size_t i = 0; i < r->n_warnings; i++)
        free(r->warnings[i]);
    free(r->warnings);
    free(r->name);
    free(r->windows);
    free(r);
}

/* ---- the reading context ---- */

int gcl_fail(gcl_ctx *c, int rc, size_t line, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        snprintf(c->err, c->errlen, "%s:%zu: %s", c->name, line, msg);
    else
        snprintf(c->err, c->errlen, "%s: %s", c->name, msg);
    return rc;
}

int gcl_bad_record(gcl_ctx *c, size_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    c->bad_record = 1;
    return gcl_fail(c, -EINVAL, line, "%s", c->why);
}

int gcl_warn(gcl_ctx *c, size_t line, const char *fmt, ...)
{
    char msg[400], full[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        snprintf(full, sizeof full, "%s:%zu: %s", c->name, line, msg);
    else
        snprintf(full, sizeof full, "%s", msg);
    gclog_result *r = c->r;
    char **nw = realloc(r->warnings, (r->n_warnings + 1) * sizeof *nw);
    if (!nw)
        return gcl_fail(c, -ENOMEM, 0, "out of memory");
    r->warnings = nw;
    if (!(r->warnings[r->n_warnings] = strdup(full)))
        return gcl_fail(c, -ENOMEM, 0, "out of memory");
    r->n_warnings++;
    return 0;
}

int gcl_number(gcl_ctx *c, const char *s, size_t n, const char *what, const textin_unit *units, int64_t scale,
               size_t line, int64_t *out)
{
    char why[256];
    textin_number_form f = {.what = what, .comma_ok = 1, .units = units, .unit_required = units != NULL,
                            .scale = scale};
    int rc = textin_number(s, n, &f, out, why, sizeof why);
    if (rc == -ERANGE)
        return gcl_fail(c, -ERANGE, line, "%s", why);
    if (rc)
        return gcl_bad_record(c, line, "%s", why);
    return 0;
}

int gcl_add_pause(gcl_ctx *c, int kind, int64_t start, int64_t end, size_t line)
{
    /* a stall window of a data file is at most 10^6 s (units.h); a longer
     * pause is a garbled line, not a pause to clip to the log's start */
    if (end - start > UNITS_MAX_DURATION_NS) {
        char len[32];
        units_format_duration_exact(end - start, len, sizeof len);
        return gcl_fail(c, -ERANGE, line, "a pause of %s, longer than 1000000s (the longest stall cosim takes)", len);
    }
    plist *l = &c->list[kind];
    if (l->n == l->cap) {
        raw_pause *np = grow_array(l->p, &l->cap, sizeof *np, 64);
        if (!np)
            return gcl_fail(c, -ENOMEM, 0, "out of memory");
        l->p = np;
    }
    l->p[l->n++] = (raw_pause){start, end, line};
    return 0;
}

int gcl_note_stamp(gcl_ctx *c, int clock, int64_t t, size_t line)
{
    if (c->clock == CLOCK_NONE) {
        c->clock = clock;
        c->clock_line = line;
    } else if (c->clock != clock) {
        return gcl_fail(c, -EINVAL, line,
                        "the time stamps change from %s (line %zu) to %s; cosim needs one clock per file",
                        c->clock == CLOCK_UPTIME ? "uptime" : "wall-clock time", c->clock_line,
                        clock == CLOCK_UPTIME ? "uptime" : "wall-clock time");
    }
    if (clock == CLOCK_WALL && !c->have_origin) {
        c->origin = t;
        c->have_origin = 1;
    }
    if (c->have_latest && t < c->latest - CLOCK_STEP_NS) {
        int64_t back = c->latest - t;
        return gcl_fail(c, -EINVAL, line,
                        "the time stamp goes back %lld.%03lld s from line %zu's: a clock step, or two runs in one "
                        "file; cut the file or choose a window of it",
                        (long long)(back / NS_PER_S), (long long)(back % NS_PER_S / NS_PER_MS), c->latest_line);
    }
    if (!c->have_latest || t > c->latest) {
        c->latest = t;
        c->latest_line = line;
        c->have_latest = 1;
    }
    return 0;
}

/* ---- format detection ---- */

/* The format of the first line that tells one (GCLOG_UNKNOWN if none). */
static gclog_format detect(const char *text, size_t len)
{
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    while (textin_next_line(&it, &s, &n)) {
        if (n == 0)
            continue;
        if (textin_starts(s, n, "#[Histogram log format version") || textin_starts(s, n, "#[StartTime:") ||
            textin_starts(s, n, "#[BaseTime:") || textin_starts(s, n, "\"StartTimestamp\"") ||
            textin_starts(s, n, "#[Logged with jHiccup") || textin_starts(s, n, "Tag="))
            return GCLOG_HLOG;
        if (textin_starts(s, n, "gc ") && n > 3 && gcl_is_digit(s[3]) && textin_find(s, n, " @"))
            return GCLOG_GO;
        if (textin_starts(s, n, "[GC") || textin_starts(s, n, "[Full GC") ||
            textin_starts(s, n, "CommandLine flags:") || textin_starts(s, n, GCL_STOPPED))
            return GCLOG_JDK8;
        int hu, hw, bad;
        int64_t up, wall;
        if (gcl_jdk8_stamps(s, n, &hu, &up, &hw, &wall, &bad) > 0)
            return GCLOG_JDK8;
        if (s[0] == '[') {
            const char *close = memchr(s, ']', n);
            if (close) {
                const char *b = s + 1;
                size_t bn = (size_t)(close - b);
                int64_t v;
                if ((bn && gcl_is_digit(b[0]) && (b[bn - 1] == 's' || gcl_parse_iso(b, bn, &v) == bn)) ||
                    (bn == 4 && memcmp(b, "info", 4) == 0) || (bn == 5 && memcmp(b, "debug", 5) == 0) ||
                    (bn == 5 && memcmp(b, "trace", 5) == 0) || (bn == 7 && memcmp(b, "warning", 7) == 0))
                    return GCLOG_JDK_UNIFIED;
            }
        }
        const char *g = textin_find(s, n, "GC(");
        if (g && (size_t)(s + n - g) > 3 && gcl_is_digit(g[3]))
            return GCLOG_JDK_UNIFIED;
        if (textin_starts(s, n, "Using G1") || textin_starts(s, n, "Using Parallel") ||
            textin_starts(s, n, "Using Serial") || textin_starts(s, n, "Using The Z Garbage Collector") ||
            textin_starts(s, n, "Using Shenandoah"))
            return GCLOG_JDK_UNIFIED;
    }
    return GCLOG_UNKNOWN;
}

/* Each interval is read for its max only: its counts need not stay. */
static int keep_max_only(void *ctx, const hlog_interval *iv, const char **why)
{
    (void)ctx, (void)iv, (void)why;
    return 0;
}

/* An interval log's pauses: each interval's max (times the .hlog unit)
 * ending at the interval's end; one series (o->tag's, or the only one). */
static int read_hlog(gcl_ctx *c, const char *text, size_t len, const gclog_options *o)
{
    hlog_log *log;
    hlog_read_options ho = {.one_series = 1, .tag = o->tag, .strict = o->strict, .on_interval = keep_max_only};
    int rc = hlog_parse_with(&log, c->name, text, len, &ho, c->err, c->errlen);
    if (rc)
        return rc == -EFBIG ? -ERANGE : rc;
    c->r->lines = log->lines;
    for (size_t i = 0; i < log->n_warnings && !rc; i++)
        rc = gcl_warn(c, 0, "%s", log->warnings[i]);
    for (size_t i = 0; i < log->n && !rc; i++) {
        const hlog_interval *iv = &log->iv[i];
        int64_t max = iv->max_value, end;
        if (max <= 0)
            continue;
        if (__builtin_mul_overflow(max, o->hlog_unit_ns, &max) ||
            __builtin_add_overflow(iv->start_ns, iv->length_ns, &end)) {
            rc = gcl_fail(c, -ERANGE, iv->line, "the interval's max or end is beyond 2^63 ns");
            break;
        }
        rc = gcl_add_pause(c, KIND_GC, end - max, end, iv->line);
    }
    hlog_log_free(log);
    return rc;
}

/* After a line reader failed on a record-like line (c->bad_record): the
 * last line of a file cut without its newline is said to be cut; with
 * strict = 0 the line is skipped with a warning. Returns 0 (skipped) or
 * the error. */
static int on_bad_record(gcl_ctx *c, const gclog_options *o, size_t line, int rc)
{
    char why[sizeof c->why];
    memcpy(why, c->why, sizeof why);
    if (c->is_last_cut) {
        if (o->strict)
            return gcl_fail(c, rc, 0, "the file ends inside a record at %s:%zu: " TEXTIN_CUT_RECORD " (%s)", c->name,
                            line, why);
        rc = gcl_warn(c, line, "the file ends inside this record (" TEXTIN_CUT_RECORD "); skipped: %s", why);
    } else {
        if (o->strict)
            return rc;
        rc = gcl_warn(c, line, "skipped (strict = false): %s", why);
    }
    c->cls = TEXTIN_LINE_SKIPPED;
    return rc;
}

/* Read every pause of text in format f into c's lists, each line counted
 * in c->r->lines. */
static int read_pauses(gcl_ctx *c, gclog_format f, const char *text, size_t len, const gclog_options *opt)
{
    int rc = 0;
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    jdk8_record rec = {0};
    int cut = textin_ends_cut(text, len);
    if (f == GCLOG_HLOG)
        return read_hlog(c, text, len, opt);
    if (f == GCLOG_UNKNOWN)
        return gcl_fail(c, -EINVAL, 0, "not a log cosim reads pauses from (JDK 9+ unified logging, JDK 8 "
                        "-XX:+PrintGCDetails, Go gctrace, HdrHistogram interval log)");
    while (!rc && textin_next_line(&it, &s, &n)) {
        c->cls = TEXTIN_LINE_KNOWN;
        c->bad_record = 0;
        c->is_last_cut = cut && it.p >= it.end;
        if (f == GCLOG_JDK_UNIFIED)
            rc = gcl_unified_line(c, s, n, it.line);
        else if (f == GCLOG_JDK8)
            rc = gcl_jdk8_line(c, &rec, s, n, it.line);
        else
            rc = gcl_go_line(c, s, n, it.line);
        if (rc == -EINVAL && c->bad_record) {
            rec.open = 0;
            rc = on_bad_record(c, opt, it.line, rc);
        }
        if (!rc)
            textin_account_line(&c->r->lines, c->cls, it.line);
    }
    if (!rc && rec.open) {
        /* the record's lines were counted as records: it is not one */
        if (opt->strict)
            return gcl_fail(c, -EINVAL, 0, "the file ends inside a record at %s:%zu: " TEXTIN_CUT_RECORD
                            " (the GC record does not close)", c->name, rec.line);
        rc = gcl_warn(c, rec.line, "the file ends inside this GC record (" TEXTIN_CUT_RECORD "); skipped");
        c->r->lines.records -= rec.lines;
        c->r->lines.skipped += rec.lines;
    }
    return rc;
}

/* Which list the result is made of (a JVM log's safepoint or stopped-time
 * lines when asked, or by default when it has any; else the GC pauses),
 * named in r with what is set aside. */
static const plist *choose_source(const gcl_ctx *c, const gclog_options *opt, gclog_result *r)
{
    const plist *gc = &c->list[KIND_GC], *sp = &c->list[KIND_SAFEPOINT];
    int jvm = r->format == GCLOG_JDK_UNIFIED || r->format == GCLOG_JDK8;
    const char *gc_name = r->format == GCLOG_GO ? "gctrace stop-the-world phases"
                          : r->format == GCLOG_HLOG ? "interval maxima"
                          : r->format == GCLOG_JDK8 ? "GC records" : "GC pause lines";
    const char *sp_name = r->format == GCLOG_JDK8 ? "stopped-time lines" : "safepoint lines";
    int use_sp = jvm && (opt->source == GCLOG_SOURCE_SAFEPOINT || (opt->source == GCLOG_SOURCE_AUTO && sp->n));
    const plist *use = use_sp ? sp : gc;
    r->source = use_sp ? sp_name : gc_name;
    r->n_read = use->n;
    r->n_set_aside = use_sp ? gc->n : sp->n;
    r->set_aside = r->n_set_aside ? (use_sp ? gc_name : sp_name) : NULL;
    return use;
}

int gclog_parse(gclog_result **out, const char *name, const char *text, size_t len, const gclog_options *opt,
                char *err, size_t errlen)
{
    *out = NULL;
    gclog_options def;
    if (!opt) {
        gclog_options_default(&def);
        opt = &def;
    }
    gcl_ctx c = {.name = name, .err = err, .errlen = errlen};
    if (opt->tag && (!*opt->tag || strpbrk(opt->tag, ", \r\n")))
        return gcl_fail(&c, -EINVAL, 0, "bad options: a tag is a name without commas, blanks or line breaks");
    if (!(opt->scale > 0.0) || !isfinite(opt->scale) || opt->from_ns >= opt->to_ns || opt->min_pause_ns < 0 ||
        opt->hlog_unit_ns < 1)
        return gcl_fail(&c, -EINVAL, 0, "bad options: scale must be > 0, the window's start before its end, the "
                        "minimum pause >= 0, the .hlog unit >= 1 ns");
    gclog_result *r = calloc(1, sizeof *r);
    if (!r)
        return gcl_fail(&c, -ENOMEM, 0, "out of memory");
    c.r = r;
    if (!(r->name = strdup(name))) {
        free(r);
        return gcl_fail(&c, -ENOMEM, 0, "out of memory");
    }
    r->format = detect(text, len);
    int rc = read_pauses(&c, r->format, text, len, opt);
    if (!rc)
        rc = gcl_finish(&c, choose_source(&c, opt, r), opt, r);
    free(c.list[0].p);
    free(c.list[1].p);
    if (rc) {
        gclog_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int gclog_read(gclog_result **out, const char *path, const gclog_options *opt, char *err, size_t errlen)
{
    char *text;
    size_t len;
    *out = NULL;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = gclog_parse(out, path, text, len, opt, err, errlen);
    free(text);
    return rc;
}

int64_t gclog_paused_within(const gclog_result *r, int64_t run_ns)
{
    int64_t t = 0;
    for (size_t i = 0; i < r->n_windows; i++) {
        int64_t s = r->windows[i].start_ns, e = r->windows[i].end_ns;
        if (s >= run_ns)
            break;
        t += (e < run_ns ? e : run_ns) - s;
    }
    return t;
}

/* ns as milliseconds with 6 decimals: "12.345678 ms". */
static void fmt_ms(char *buf, size_t len, int64_t ns)
{
    snprintf(buf, len, "%lld.%06lld ms", (long long)(ns / NS_PER_MS), (long long)(ns % NS_PER_MS));
}

size_t gclog_after_run(const gclog_result *r, int64_t run_ns, int64_t *ns)
{
    size_t k = 0;
    int64_t t = 0;
    for (size_t i = 0; i < r->n_windows; i++)
        if (r->windows[i].start_ns >= run_ns) {
            k++;
            t += r->windows[i].end_ns - r->windows[i].start_ns; /* <= the total, which fits */
        }
    if (ns)
        *ns = t;
    return k;
}

int gclog_summary(const gclog_result *r, int64_t run_ns, char *buf, size_t len)
{
    char total[48], longest[48], aside[96] = "", share[64] = "", merged[48] = "", after[128] = "";
    int64_t in_run = r->total_ns, longest_ns = r->longest_ns;
    if (run_ns > 0) {
        /* the run's pauses: the part of each window before the run's end */
        in_run = gclog_paused_within(r, run_ns);
        longest_ns = 0;
        for (size_t i = 0; i < r->n_windows && r->windows[i].start_ns < run_ns; i++) {
            int64_t e = r->windows[i].end_ns < run_ns ? r->windows[i].end_ns : run_ns;
            if (e - r->windows[i].start_ns > longest_ns)
                longest_ns = e - r->windows[i].start_ns;
        }
        int64_t after_ns;
        size_t k = gclog_after_run(r, run_ns, &after_ns);
        if (k) {
            char a[48];
            fmt_ms(a, sizeof a, after_ns);
            snprintf(after, sizeof after, "; %zu pause%s after the run, not used (%s)", k, k == 1 ? "" : "s", a);
        }
    }
    fmt_ms(total, sizeof total, in_run);
    fmt_ms(longest, sizeof longest, longest_ns);
    if (r->n_set_aside)
        snprintf(aside, sizeof aside, " (%zu %s set aside)", r->n_set_aside, r->set_aside);
    if (r->n_merged)
        snprintf(merged, sizeof merged, ", %zu overlap%s merged", r->n_merged, r->n_merged == 1 ? "" : "s");
    if (run_ns > 0) {
        double pct = 100.0 * (double)in_run / (double)run_ns;
        snprintf(share, sizeof share, ", %.2f%% of the run", pct);
    }
    return snprintf(buf, len, "%s: %zu pause%s from %s%s, %zu kept%s; paused %s in total, longest %s%s%s",
                    gclog_format_name(r->format), r->n_read, r->n_read == 1 ? "" : "s", r->source, aside, r->n_kept,
                    merged, total, longest, share, after);
}
