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

/* The distribution of the file at path, values times unit_ns. 0, or a
 * negative errno with err set ("FILE:LINE: reason"). */
static int read_dist(const char *path, int64_t unit_ns, hgrm_dist **out, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = textin_read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    if (is_hlog(text)) {
        hlog_log *log = NULL;
        rc = hlog_parse(&log, path, text, len, err, errlen);
        if (!rc && (rc = hlog_to_dist(log, unit_ns, out)) != 0)
            snprintf(err, errlen, "%s: %s", path,
                     rc == -ERANGE ? "a value times the unit passes the clock's range"
                                   : "the log holds no sample, or histograms of different settings");
        hlog_log_free(log);
    } else {
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
    int rc = read_dist(path, scn_unit_ns(unit), &h, err, sizeof err);
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
    hgrm_free(c->s->service_hist);
    c->s->service_hist = h;
    d->hist = h;
    return 0;
}
