/* runfiles.c - the files a run writes, one row each. */
#include "runfiles.h"
#include "report.h"
#include "summary.h"

#include <errno.h>

static int write_json(FILE *f, const scenario *s, const run_result *r, size_t tester)
{
    (void)tester;
    return report_json(f, s, r);
}

static int write_markdown(FILE *f, const scenario *s, const run_result *r, size_t tester)
{
    (void)tester;
    return summary_markdown(f, s, r);
}

static int write_csv(FILE *f, const scenario *s, const run_result *r, size_t tester)
{
    (void)tester;
    return summary_csv(f, s, r);
}

static int write_hgrm(FILE *f, const scenario *s, const run_result *r, size_t tester)
{
    return report_hgrm(f, r->testers[tester].hist, s->rank_rule);
}

static int write_hlog(FILE *f, const scenario *s, const run_result *r, size_t tester)
{
    (void)s;
    return report_hlog(f, r, tester);
}

const runfile runfiles[] = {
    {"summary.json", 0, write_json},
    {"summary.md", RUNFILE_LECTURE, write_markdown},
    {"summary.csv", RUNFILE_LECTURE, write_csv},
    {".hgrm", RUNFILE_PER_TESTER, write_hgrm},                   /* HdrHistogram's percentile output */
    {".hlog", RUNFILE_PER_TESTER | RUNFILE_WITH_HLOG, write_hlog}, /* an interval log, with hlog_interval */
};
const size_t runfiles_n = sizeof runfiles / sizeof *runfiles;

size_t runfiles_count(size_t k, const scenario *s, const run_result *r)
{
    (void)s;
    if ((runfiles[k].flags & RUNFILE_WITH_HLOG) && !r->hlog)
        return 0;
    return runfiles[k].flags & RUNFILE_PER_TESTER ? r->n : 1;
}

int runfiles_name(size_t k, size_t i, const scenario *s, const char *prefix, char *buf, size_t len)
{
    const char *tester = runfiles[k].flags & RUNFILE_PER_TESTER ? s->testers[i].name : "";
    int n = snprintf(buf, len, "%s%s%s", prefix, tester, runfiles[k].name);
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
