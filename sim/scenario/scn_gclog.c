/* scn_gclog.c - [stall NAME] kind = gc_log: stop-the-world pauses read from
 * a runtime's log (gclog.h), and the unit names of files without units. */
#include "gclog.h"
#include "scenario.h"
#include "scn_data.h"
#include "scn_real.h"
#include "units.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_words[] = {
    [GCLOG_UNKNOWN] = "auto", [GCLOG_JDK_UNIFIED] = "jdk", [GCLOG_JDK8] = "jdk8",
    [GCLOG_GO] = "go",        [GCLOG_HLOG] = "hlog",
};
const names_table scn_gclog_format_names = {format_words, ARRAY_SIZE(format_words)};

static const char *const source_words[] = {
    [GCLOG_SOURCE_AUTO] = "auto", [GCLOG_SOURCE_GC] = "gc", [GCLOG_SOURCE_SAFEPOINT] = "safepoint"};
const names_table scn_gclog_source_names = {source_words, ARRAY_SIZE(source_words)};

static const char *const strict_words[] = {"true", "false"};
const names_table scn_strict_names = {strict_words, ARRAY_SIZE(strict_words)};

static const char *const unit_words[] = {"ns", "us", "ms"};
const names_table scn_unit_names = {unit_words, ARRAY_SIZE(unit_words)};

int64_t scn_unit_ns(int unit)
{
    return unit == 2 ? 1000000 : unit == 1 ? 1000 : 1;
}

/* log_window = A..B: the stretch of the log's clock to use. */
static int read_log_window(scn_ctx *c, gclog_options *o)
{
    scn_ini_entry *e = scn_keys_get(c, "log_window");
    if (!e)
        return 0;
    units_window_error we;
    char msg[256];
    int rc = units_parse_window(e->value, &o->from_ns, &o->to_ns, &we);
    if (rc == -ENOMEM) {
        c->p->oom = 1;
        return -1;
    }
    if (rc)
        snprintf(msg, sizeof msg, "%s", we.why);
    else if (o->to_ns == o->from_ns)
        snprintf(msg, sizeof msg, "the window is empty: it ends where it starts; give an END after START");
    else if (o->to_ns < o->from_ns)
        snprintf(msg, sizeof msg, "the window ends before it starts");
    else
        return 0;
    scn_keys_bad_value(c, e, msg);
    return -1;
}

/* tag = NAME (checked: a series name has no commas, blanks or line
 * breaks) into *tag. 0 or -1 (message set). */
int scn_read_tag(scn_ctx *c, const char **tag)
{
    scn_ini_entry *e = scn_keys_get(c, "tag");
    *tag = NULL;
    if (!e)
        return 0;
    if (!*e->value || strpbrk(e->value, ", \t\r\n") || strlen(e->value) > 100) {
        scn_keys_bad_value(c, e, "a tag is the NAME of Tag=NAME: 1 to 100 characters, no commas or blanks");
        return -1;
    }
    *tag = e->value;
    return 0;
}

/* The section's options; *format receives the format asked for (0: any),
 * *unit_e the unit key when given. 0 or -1 (message set). */
static int read_options(scn_ctx *c, gclog_options *o, int *format, scn_ini_entry **unit_e)
{
    int src = 0, unit = 0, strict = 0;
    gclog_options_default(o);
    if (scn_keys_choice(c, "format", format, NULL) < 0 || scn_keys_choice(c, "source", &src, NULL) < 0 ||
        scn_keys_duration(c, "offset", &o->offset_ns) < 0 || read_log_window(c, o) < 0 ||
        scn_keys_duration(c, "min_pause", &o->min_pause_ns) < 0 || scn_keys_number(c, "scale", &o->scale) < 0)
        return -1;
    o->source = (gclog_source)src;
    if (scn_keys_choice(c, "strict", &strict, NULL) < 0 || scn_read_tag(c, &o->tag) < 0)
        return -1;
    o->strict = strict == 0;
    int got = scn_keys_choice(c, "unit", &unit, NULL);
    if (got < 0)
        return -1;
    *unit_e = got ? scn_keys_get(c, "unit") : NULL;
    if (got)
        o->hlog_unit_ns = scn_unit_ns(unit);
    return 0;
}

/* Refuse what the log read does not fit: another format than asked, a
 * unit for a log whose values carry theirs, no pause left. */
static int check_result(scn_ctx *c, const gclog_result *r, const char *path, int format, scn_ini_entry *unit_e)
{
    if (format && (int)r->format != format) {
        scn_ini_fail(c->p, "%s: its format is %s, not format = %s; remove the format key or name the right file", path,
                     gclog_format_name(r->format), names_get(scn_gclog_format_names, format));
        return -1;
    }
    if (unit_e && r->format != GCLOG_HLOG) {
        char msg[PATH_MAX + 160]; /* the whole path: a message is never cut */
        snprintf(msg, sizeof msg, "only an HdrHistogram interval log needs a unit; the format of %s is %s", path,
                 gclog_format_name(r->format));
        scn_keys_bad_value(c, unit_e, msg);
        return -1;
    }
    int jvm = r->format == GCLOG_JDK_UNIFIED || r->format == GCLOG_JDK8;
    scn_ini_entry *src_e = scn_keys_get(c, "source"), *tag_e = scn_keys_get(c, "tag");
    if ((src_e && !jvm) || (tag_e && r->format != GCLOG_HLOG)) {
        char msg[PATH_MAX + 160];
        snprintf(msg, sizeof msg, "%s; the format of %s is %s",
                 src_e && !jvm ? "only a JVM log (JDK unified logging, JDK 8 GC log) has GC and safepoint lines to "
                                 "choose from"
                               : "only an HdrHistogram interval log has tagged series",
                 path, gclog_format_name(r->format));
        scn_keys_bad_value(c, src_e && !jvm ? src_e : tag_e, msg);
        return -1;
    }
    if (r->n_windows == 0) {
        scn_ini_fail(c->p, "%s: no pause left: %zu read from %s, none in the log_window at or above "
                           "min_pause; widen them",
                     path, r->n_read, r->source ? r->source : "its lines");
        return -1;
    }
    return 0;
}

int scn_gclog_read(scn_ctx *c, stall_spec *st)
{
    scenario *s = c->s;
    gclog_options o;
    int format = 0;
    scn_ini_entry *unit_e = NULL;
    st->kind = STALL_WINDOWS;
    if (read_options(c, &o, &format, &unit_e) < 0 || !scn_keys_need(c, "file"))
        return -1;
    scn_ini_entry *e = scn_keys_get(c, "file");
    char path[SCENARIO_PATH_MAX + 2];
    if (scn_data_file(c, e, path, sizeof path) < 0)
        return -1;
    gclog_result *r = NULL;
    char err[SCENARIO_PATH_MAX + 512];
    int rc = gclog_read(&r, path, &o, err, sizeof err);
    if (rc == -ENOMEM) {
        c->p->oom = 1;
        return -1;
    }
    if (rc) { /* the reader's "FILE:LINE: reason" */
        scn_ini_fail(c->p, "%s", err);
        return -1;
    }
    if (check_result(c, r, path, format, unit_e) < 0) {
        gclog_free(r);
        return -1;
    }
    /* the log's own windows, not a copy: the result is kept for the
     * report (freed with the scenario, which does not free them twice) */
    st->windows = r->windows;
    st->n_windows = r->n_windows;
    s->stall_log[st - s->stalls] = r;
    return 0;
}
