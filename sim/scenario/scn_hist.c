/* scn_hist.c - [service] distribution = histogram: service times drawn from
 * a measured HdrHistogram, a .hgrm percentile spectrum or a .hlog interval
 * log (docs/real-inputs.md; the unit: docs/decisions.md). */
#include "hgrm.h"
#include "hlog.h"
#include "scenario.h"
#include "scn_data.h"
#include "scn_real.h"
#include "textin.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the text is an interval log: a "#[Histogram log format version"
 * or "#[StartTime:" header, or a legend naming Interval_Compressed_Histogram
 * (a .hgrm has none of these). */
static int is_hlog(const char *text)
{
    return strstr(text, "#[Histogram log format version") || strstr(text, "#[StartTime:") ||
           strstr(text, "Interval_Compressed_Histogram") || strstr(text, "Interval_Max");
}

/* Each interval's counts into the merge, then freed (hlog_parse_with). */
static int merge_interval(void *ctx, const hlog_interval *iv, const char **why)
{
    return hlog_merge_add(ctx, &iv->hist, why);
}

/* The distribution of the .hlog text: one series (tag's, or the only one),
 * its intervals merged as they are read. 0, or a negative errno with err
 * set ("FILE:LINE: reason"). */
static int read_hlog_dist(const char *path, const char *text, size_t len, int64_t unit_ns, const char *tag,
                          int strict, hgrm_dist **out, char *err, size_t errlen)
{
    hlog_merge m = {0};
    hlog_read_options o = {.one_series = 1, .tag = tag, .strict = strict, .on_interval = merge_interval, .ctx = &m};
    hlog_log *log = NULL;
    int rc = hlog_parse_with(&log, path, text, len, &o, err, errlen);
    if (!rc && (rc = hlog_merge_dist(&m, unit_ns, out)) != 0)
        snprintf(err, errlen, "%s: %s", path,
                 rc == -ERANGE ? "a value times the unit passes the clock's range (2^63 ns): check the unit"
                               : rc == -ENOMEM ? "out of memory" : "the log holds no sample");
    if (!rc) {
        (*out)->lines = log->lines;
        (*out)->n_warnings = log->n_warnings;
        (*out)->warnings = log->warnings;
        log->warnings = NULL;
        log->n_warnings = 0;
    }
    hlog_log_free(log);
    hlog_merge_clear(&m);
    return rc;
}

/* The distribution of the file at path, values times unit_ns; tag and
 * strict (given: tag_e, strict_e) apply to an .hlog only and are refused
 * for a .hgrm, naming its format. 0, or a negative errno with err set
 * ("FILE:LINE: reason"), or 1 when a key was refused (message out). */
static int read_dist(scn_ctx *c, const char *path, int64_t unit_ns, hgrm_dist **out, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int strict = 0;
    const char *tag;
    if (scn_keys_choice(c, "strict", &strict, NULL) < 0 || scn_read_tag(c, &tag) < 0)
        return 1;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    if (is_hlog(text)) {
        rc = read_hlog_dist(path, text, len, unit_ns, tag, strict == 0, out, err, errlen);
    } else {
        scn_ini_entry *e = scn_keys_get(c, "tag");
        if (!e)
            e = scn_keys_get(c, "strict");
        if (e) {
            char msg[SCENARIO_PATH_MAX + 200];
            snprintf(msg, sizeof msg, "applies to an HdrHistogram interval log (.hlog) only; %s is a percentile "
                                      "spectrum (.hgrm), read whole, one series", path);
            scn_keys_bad_value(c, e, msg);
            free(text);
            return 1;
        }
        rc = hgrm_parse(out, path, text, len, unit_ns, -1, err, errlen);
    }
    free(text);
    return rc;
}

int scn_hist_read(scn_ctx *c, dist_spec *d)
{
    if (*c->prefix) {
        scn_keys_bad_value(c, scn_keys_get(c, "distribution"), "a histogram distribution is accepted for [service] only");
        return -1;
    }
    int unit = 0;
    if (!scn_keys_need(c, "file"))
        return -1;
    scn_ini_entry *e = scn_keys_get(c, "file");
    /* HdrHistogram files carry no unit: refuse to guess (docs/decisions.md) */
    if (!scn_keys_need(c, "unit") || scn_keys_choice(c, "unit", &unit, NULL) < 0)
        return -1;
    char path[SCENARIO_PATH_MAX + 2], err[SCENARIO_PATH_MAX + 512];
    if (scn_data_file(c, e, path, sizeof path) < 0)
        return -1;
    hgrm_dist *h = NULL;
    int rc = read_dist(c, path, scn_unit_ns(unit), &h, err, sizeof err);
    if (rc == 1)
        return -1;
    if (rc == -ENOMEM) {
        c->p->oom = 1;
        return -1;
    }
    if (rc) {
        scn_ini_fail(c->p, "%s", err);
        return -1;
    }
    if (h->max_ns > UNITS_MAX_DURATION_NS) {
        char a[32];
        char at[32] = "";
        if (h->b[h->n - 1].line)
            snprintf(at, sizeof at, ":%zu", h->b[h->n - 1].line);
        scn_ini_fail(c->p, "%s%s: a service time of %s, above the longest a draw may be (1000000 s); check the unit",
                     path, at, units_format_duration(h->max_ns, a, sizeof a));
        hgrm_free(h);
        return -1;
    }
    if (!(h->name = strdup(path))) {
        hgrm_free(h);
        c->p->oom = 1;
        return -1;
    }
    hgrm_free(c->s->service_hist);
    c->s->service_hist = h;
    d->hist = h;
    return 0;
}
