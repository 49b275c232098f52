/* scenario.c - INI scenario files (libinih) to a checked scenario: the
 * top level of the reader and the checks across sections.
 *
 * Reading goes in three phases: the raw entries with their lines
 * (scn_ini.c), the --set overrides (scn_ini.c), and interpretation: one
 * interpreter per section (scn_sections.c, scn_dist.c, scn_stall.c,
 * scn_tester.c), each reading its keys with the getters of the key table
 * (scn_keys.c, scn_keys.def); then the checks that need several sections
 * (here).
 */
#include "scenario.h"
#include "names.h"
#include "rng.h"
#include "gclog.h"
#include "hgrm.h"
#include "scn_dist.h"
#include "scn_ini.h"
#include "scn_keys.h"
#include "scn_profile.h"
#include "scn_sections.h"
#include "scn_stall.h"
#include "scn_tester.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Stalls that together leave the server no gap, found before the run
 * (issue 11): periodic stalls whose windows close each other's gaps for
 * good (stall_periodic_union_endless), and random stalls whose merged
 * Poisson stream of windows breaks the rule each one keeps alone (mean
 * length at most half the mean gap; merged, the sum of mean length / every
 * at most 1/2). Reported at the section of the stall that closes the gap,
 * naming the others. */
static int check_stalls_leave_gaps(scn_ctx *c)
{
    scenario *s = c->s;
    char others[256], sec[64], a[32];
    uint64_t used;
    int64_t from;
    if (stall_periodic_union_endless(s->stalls, s->n_stalls, &used, &from)) {
        size_t n = 0, last = 0;
        for (size_t i = 0; i < s->n_stalls && i < 64; i++)
            if (used >> i & 1)
                last = i;
        others[0] = '\0';
        for (size_t i = 0; i < last; i++)
            if ((used >> i & 1) && n < sizeof others)
                n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]", n ? ", " : "",
                                      s->stalls[i].name);
        snprintf(sec, sizeof sec, "stall %s", s->stalls[last].name);
        c->sec = scn_ini_find_section(c->p, sec);
        scn_keys_section_fail(c, "together with %s this stall stops the server for good: from %s on their "
                        "windows leave no gap, so no request would ever finish; shorten or space them",
                     others, units_format_duration_exact(from, a, sizeof a));
        return -1;
    }
    if (stall_windows_cover(s->stalls, s->n_stalls, 0, s->duration_ns, &used)) {
        size_t n = 0, first = 64;
        others[0] = '\0';
        for (size_t i = 0; i < s->n_stalls && i < 64; i++) {
            if (!(used >> i & 1))
                continue;
            if (first == 64)
                first = i;
            else if (n < sizeof others)
                n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]",
                                      n ? ", " : " (with ", s->stalls[i].name);
        }
        if (n && n < sizeof others - 1)
            strcat(others, ")");
        snprintf(sec, sizeof sec, "stall %s", s->stalls[first].name);
        c->sec = scn_ini_find_section(c->p, sec);
        scn_keys_section_fail(c, "this stall%s stops the server for the whole run: %s windows cover 0 to the "
                        "duration %s with no gap, so no request could be served before the end; "
                        "shorten %s or lengthen the run",
                     others, n ? "their" : "its", units_format_duration_exact(s->duration_ns, a, sizeof a),
                     n ? "them" : "it");
        return -1;
    }
    double load = 0;
    size_t n = 0;
    others[0] = '\0';
    for (size_t i = 0; i < s->n_stalls; i++) {
        const stall_spec *st = &s->stalls[i];
        if (!stall_kind_has(st->kind, STALL_KIND_DRAWN))
            continue;
        load += dist_mean_ns(&st->length_dist) / (double)st->mean_gap_ns;
        if (load > 0.5 && n > 0) { /* alone, each was checked by do_stall */
            snprintf(sec, sizeof sec, "stall %s", st->name);
            c->sec = scn_ini_find_section(c->p, sec);
            scn_keys_section_fail(c, "together with %s these random stalls would overlap into one endless "
                            "stall: merged, their windows last %.2f of the mean gap between starts (the "
                            "sum of mean length / every); keep that sum at most 1/2",
                         others, load);
            return -1;
        }
        if (n < sizeof others)
            n += (size_t)snprintf(others + n, sizeof others - n, "%s[stall %s]", n ? ", " : "", st->name);
    }
    return 0;
}

/* The testers' section records, kept for messages from the checks. */
typedef struct sections {
    const scn_ini_section *scenario, *service;
    const scn_ini_section *tester[SCENARIO_MAX_TESTERS];
} sections;

/* Room for every stall, tester and expectation the sections declare. */
static int allocate(scn_ini *p, scenario *s, sections *found)
{
    size_t n_expect_lines = 0;
    for (size_t i = 0; i < p->n_sec; i++) {
        if (p->sec[i].type == SCN_SEC_SCENARIO)
            found->scenario = &p->sec[i];
        if (p->sec[i].type == SCN_SEC_SERVICE)
            found->service = &p->sec[i];
        if (p->sec[i].type == SCN_SEC_EXPECT)
            for (size_t k = p->sec[i].first; k != SCN_NONE; k = p->e[k].next)
                n_expect_lines++;
    }
    size_t n_stalls = p->n_type[SCN_SEC_STALL], n_testers = p->n_type[SCN_SEC_TESTER];
    s->stalls = calloc(n_stalls ? n_stalls : 1, sizeof *s->stalls);
    s->testers = calloc(n_testers ? n_testers : 1, sizeof *s->testers);
    s->expects = calloc(n_expect_lines ? n_expect_lines : 1, sizeof *s->expects);
    if (!s->stalls || !s->testers || !s->expects) {
        p->oom = 1;
        return -1;
    }
    return 0;
}

/* The section c->sec, ready for its interpreter: its kind not yet known. */
static void enter(scn_ctx *c, const scn_ini_section *sec)
{
    c->sec = sec;
    c->kind = -1;
    c->kind_name = NULL;
    c->prefix = NULL;
    c->dist_kind = -1;
}

/* A [tester NAME] section, its name checked against the testers before it. */
static int read_tester(scn_ctx *c, sections *found)
{
    scenario *s = c->s;
    const char *arg = c->sec->arg;
    for (size_t j = 0; j < s->n_testers; j++)
        if (strcasecmp(s->testers[j].name, arg) == 0) {
            scn_keys_section_fail(c, "a tester named '%s' exists already (names differ by more than "
                                     "case: they name files)", s->testers[j].name);
            return -1;
        }
    /* the record read, kept: every later message about this tester
     * refers to it (its name is never rebuilt) */
    found->tester[s->n_testers] = c->sec;
    s->tester_line[s->n_testers] = c->sec->line;
    return scn_tester_read(c, arg);
}

/* [scenario], [service], [stall] and [tester] sections, in file order. */
static int read_sections(scn_ctx *c, sections *found)
{
    scn_ini *p = c->p;
    for (size_t i = 0; i < p->n_sec; i++) {
        enter(c, &p->sec[i]);
        int type = c->sec->type, rc = 0;
        if (type == SCN_SEC_SCENARIO)
            rc = scn_sections_scenario(c);
        else if (type == SCN_SEC_SERVICE)
            rc = scn_dist_service(c);
        else if (type == SCN_SEC_STALL)
            rc = scn_stall_read(c, c->sec->arg);
        else if (type == SCN_SEC_TESTER)
            rc = read_tester(c, found);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The sections every scenario needs. */
static int check_required(scn_ini *p, const sections *found)
{
    if (!found->scenario) {
        scn_ini_fail(p, "%s: no [scenario] section; a scenario needs at least [scenario] with duration, "
                        "[service] and one [tester NAME]",
                     p->path);
        return -1;
    }
    if (!found->service) {
        scn_ini_fail(p, "%s: no [service] section (e.g. [service] distribution = constant, time = 7ms)", p->path);
        return -1;
    }
    if (!p->n_type[SCN_SEC_TESTER]) {
        scn_ini_fail(p, "%s: no [tester NAME] section; add one, e.g. [tester open] kind = open, rate = 1000/s",
                     p->path);
        return -1;
    }
    return 0;
}

/* Each tester's profile = NAME (the table's string), for the report's
 * notes: a profile only sets keys, so the tester records it nowhere else. */
static void note_profiles(scn_ctx *c, const sections *found)
{
    scenario *s = c->s;
    for (size_t i = 0; i < s->n_testers; i++) {
        enter(c, found->tester[i]);
        const scn_ini_entry *pe = scn_keys_get(c, "profile");
        const scn_profile *pr = pe ? scn_profile_find(pe->value) : NULL;
        s->testers[i].profile = pr ? pr->name : NULL;
    }
}

/* Refuse, before running, a tester that would exceed max_requests. */
static int check_max_requests(scn_ctx *c, const sections *found)
{
    const scenario *s = c->s;
    for (size_t i = 0; i < s->n_testers; i++) {
        enter(c, found->tester[i]);
        double expected = tester_expected_requests(&s->testers[i], &s->service, s->workers, s->duration_ns);
        if (isinf(expected)) {
            scn_keys_section_fail(c, "a closed tester against a zero service time, with no think time, "
                                     "would send without end; give [service] a time above zero or add "
                                     "think_distribution");
            return -1;
        }
        if (expected > (double)s->max_requests) {
            scn_keys_section_fail(c, "would send about %.3g requests in %.3g s, more than max_requests = %llu; "
                                     "shorten [scenario] duration, lower the rate, or raise max_requests",
                                  expected, (double)s->duration_ns / 1e9, (unsigned long long)s->max_requests);
            return -1;
        }
    }
    return 0;
}

/* Refuse a paced tester's stagger that starts some users at or after the
 * run's end: they would never send, and the tester would offer less than
 * its rate with nothing but `planned` to show it. User u starts at
 * (u mod per) x stagger, per = users / threads, so the users of index
 * k >= ceil(duration / stagger) in each thread never start; the largest
 * stagger that fits is floor((duration - 1 ns) / (per - 1)). */
static int check_stagger_fits(scn_ctx *c, const sections *found)
{
    const scenario *s = c->s;
    for (size_t i = 0; i < s->n_testers; i++) {
        const tester_spec *t = &s->testers[i];
        uint64_t threads = t->threads > 1 ? t->threads : 1, per = t->users / threads;
        if (!t->has_stagger || t->stagger_ns == 0 || per < 2 ||
            (int64_t)(per - 1) * t->stagger_ns < s->duration_ns) /* fits: checked for overflow when read */
            continue;
        uint64_t first = (uint64_t)((s->duration_ns + t->stagger_ns - 1) / t->stagger_ns);
        uint64_t never = (per - first) * threads;
        char st[32], d[32], fit[32], why[400], per_thread[96] = "";
        units_format_duration_exact(t->stagger_ns, st, sizeof st);
        units_format_duration_exact(s->duration_ns, d, sizeof d);
        units_format_duration_exact((s->duration_ns - 1) / (int64_t)(per - 1), fit, sizeof fit);
        if (threads > 1)
            snprintf(per_thread, sizeof per_thread, " (%llu users in each of %llu threads)",
                     (unsigned long long)per, (unsigned long long)threads);
        enter(c, found->tester[i]);
        /* a profile that fixes stagger (wrk2's 5 ms): the users or the duration must give */
        const scn_ini_entry *pe = scn_keys_get(c, "profile");
        const scn_profile *pr = pe ? scn_profile_find(pe->value) : NULL;
        const char *fixed_by = scn_profile_fixes(pr, "stagger") ? pr->name : NULL;
        if (fixed_by)
            snprintf(why, sizeof why,
                     "%llu of the %llu users%s would start at or after the end of the run (duration %s) and never "
                     "send; profile %s fixes stagger, so give at most %llu users%s or a longer duration",
                     (unsigned long long)never, (unsigned long long)t->users, per_thread, d, fixed_by,
                     (unsigned long long)(first * threads), threads > 1 ? " (a multiple of threads)" : "");
        else
            snprintf(why, sizeof why,
                     "%llu of the %llu users%s would start at or after the end of the run (duration %s) and never "
                     "send; give stagger at most %s, fewer users or a longer duration",
                     (unsigned long long)never, (unsigned long long)t->users, per_thread, d, fit);
        scn_keys_bad_value(c, scn_keys_get(c, "stagger"), why);
        return -1;
    }
    return 0;
}

/* Refuse a warm-up that lasts to the run's end or past it, as a stagger
 * past the end is refused: the tester would record nothing (the report
 * would show an empty histogram and only warmup_skipped to say why). */
static int check_warmup_fits(scn_ctx *c, const sections *found)
{
    const scenario *s = c->s;
    for (size_t i = 0; i < s->n_testers; i++) {
        const tester_spec *t = &s->testers[i];
        if (t->warmup_ns < s->duration_ns)
            continue;
        char w[32], d[32], why[256];
        units_format_duration_exact(t->warmup_ns, w, sizeof w);
        units_format_duration_exact(s->duration_ns, d, sizeof d);
        snprintf(why, sizeof why, "the warm-up (%s) lasts to the end of the run (duration %s) or past it: the "
                                  "tester would record nothing; give warmup below the duration", w, d);
        enter(c, found->tester[i]);
        scn_keys_bad_value(c, scn_keys_get(c, "warmup"), why);
        return -1;
    }
    return 0;
}

/* [truth] and [expect NAME], after the testers they name; then a key
 * nothing asked for (every section checks its own; a guard). */
static int read_late_sections(scn_ctx *c)
{
    scn_ini *p = c->p;
    for (size_t i = 0; i < p->n_sec; i++) {
        enter(c, &p->sec[i]);
        if (c->sec->type == SCN_SEC_TRUTH && scn_sections_truth(c) < 0)
            return -1;
        if (c->sec->type == SCN_SEC_EXPECT && scn_sections_expect(c, c->sec->arg) < 0)
            return -1;
    }
    for (size_t i = 0; i < p->n_e; i++)
        if (!p->e[i].used && !p->e[i].removed) {
            char w[SCENARIO_PATH_MAX + 64];
            enter(c, &p->sec[p->e[i].sec]);
            scn_ini_fail(p, "%s: [%s] unknown key '%s'", scn_keys_where(c, &p->e[i], w, sizeof w), c->sec->name,
                         p->e[i].key);
            return -1;
        }
    return 0;
}

static int interpret(scn_ini *p, scenario *s)
{
    scn_ctx c = {p, s, NULL, -1, NULL, NULL, -1, 0};
    sections found = {0};
    if (allocate(p, s, &found) < 0 || read_sections(&c, &found) < 0 || check_required(p, &found) < 0)
        return -1;
    note_profiles(&c, &found);
    if (check_stalls_leave_gaps(&c) < 0 || check_stagger_fits(&c, &found) < 0 || check_warmup_fits(&c, &found) < 0 ||
        check_max_requests(&c, &found) < 0)
        return -1;
    return read_late_sections(&c);
}

void scenario_free(scenario *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_stalls; i++) {
        if (!s->stall_log[i]) /* a gc_log stall's windows are its log's */
            free(s->stalls[i].windows);
        stall_file_free(s->stalls[i].file);
        free(s->stalls[i].ranges);
        gclog_free(s->stall_log[i]);
    }
    hgrm_free(s->service_hist);
    free(s->stalls);
    free(s->testers);
    free(s->expects);
    free(s->service_values);
    free(s);
}

static void default_name(scenario *s, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 2 && base[0] == '<' && base[n - 1] == '>') /* a stream's name, "<stdin>": stdin */
        snprintf(s->name, sizeof s->name, "%.*s", (int)(n - 2), base + 1);
    else
        snprintf(s->name, sizeof s->name, "%s", base);
    names_from_file(s->name);
}

FILE *scenario_open_regular(const char *path, const char **what, int *errnum)
{
    *what = NULL;
    *errnum = 0;
    if (strlen(path) > SCENARIO_PATH_MAX) {
        *errnum = ENAMETOOLONG;
        return NULL;
    }
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
     * below, as every file that is not a regular one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *errnum = errno;
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        *errnum = errno;
    else if (S_ISDIR(st.st_mode))
        *what = "is a directory";
    else if (S_ISFIFO(st.st_mode))
        *what = "is a FIFO (named pipe), not a regular file";
    else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        *what = "is a device, not a regular file";
    else if (S_ISSOCK(st.st_mode))
        *what = "is a socket, not a regular file";
    else if (!S_ISREG(st.st_mode))
        *what = "is not a regular file";
    FILE *f = NULL;
    if (!*what && !*errnum) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        if (!(f = fdopen(fd, "r")))
            *errnum = errno;
    }
    if (!f)
        close(fd);
    return f;
}

int scenario_parse_window(const char *text, int64_t duration_ns, int64_t *from_ns, int64_t *to_ns, char *why,
                          size_t whylen)
{
    units_window_error we;
    int rc = units_parse_window(text, from_ns, to_ns, &we);
    if (rc == -ENOMEM || (rc && we.side == 0)) {
        snprintf(why, whylen, "%s", we.why);
        return rc == -ENOMEM ? -ENOMEM : -EINVAL;
    }
    if (rc) {
        snprintf(why, whylen, "%s: %s", we.side == 1 ? "START" : "END", we.why);
        return -EINVAL;
    }
    char a[32], b[32], d[32];
    units_format_duration_exact(*from_ns, a, sizeof a);
    units_format_duration_exact(*to_ns, b, sizeof b);
    units_format_duration_exact(duration_ns, d, sizeof d);
    if (*to_ns == *from_ns) {
        snprintf(why, whylen, "the window %s..%s is empty: it ends where it starts; give an END after START", a,
                 b);
        return -EINVAL;
    }
    if (*to_ns < *from_ns) {
        snprintf(why, whylen, "the window %s..%s ends before it starts", a, b);
        return -EINVAL;
    }
    if (*from_ns >= duration_ns) {
        snprintf(why, whylen, "the window starts at %s, at or after the end of the run (duration %s): the "
                              "time charts would be empty; give a window inside 0s..%s",
                 a, d, d);
        return -ERANGE;
    }
    return 0;
}

int scenario_list_keys(FILE *f)
{
    return scn_keys_list(f);
}

static scenario_error load_stream(scenario **out, FILE *f, const char *path, const char *const *sets,
                                  size_t n_sets, unsigned flags, char *err, size_t errlen);

scenario_error scenario_load(scenario **out, const char *path, const char *const *sets,
                             size_t n_sets, char *err, size_t errlen)
{
    return scenario_load_flags(out, path, sets, n_sets, 0, err, errlen);
}

scenario_error scenario_load_flags(scenario **out, const char *path, const char *const *sets, size_t n_sets,
                                   unsigned flags, char *err, size_t errlen)
{
    *out = NULL;
    err[0] = '\0';
    const char *what;
    int errnum;
    FILE *f = scenario_open_regular(path, &what, &errnum);
    if (!f) {
        if (what)
            snprintf(err, errlen, "%s: %s; give a scenario file such as scenarios/stall_per_second.ini", path,
                     what);
        else
            snprintf(err, errlen, "%s: cannot read the scenario: %s", path, strerror(errnum));
        return SCENARIO_EFILE;
    }
    scenario_error rc = load_stream(out, f, path, sets, n_sets, flags, err, errlen);
    fclose(f);
    return rc;
}

/* The defaults: those of the rows of scn_keys.def whose field is in the
 * scenario (what docs/scenario-format.md and --list-keys print), and the
 * name, which is the file's. */
static void set_defaults(scenario *s, const char *path)
{
    snprintf(s->path, sizeof s->path, "%s", path);
    default_name(s, path);
    scn_keys_set_defaults(-1, -1, SCN_IN_SCENARIO, s); /* the rows' values */
}

scenario_error scenario_load_stream(scenario **out, FILE *f, const char *path, const char *const *sets,
                                    size_t n_sets, char *err, size_t errlen)
{
    return load_stream(out, f, path, sets, n_sets, 0, err, errlen);
}

static scenario_error load_stream(scenario **out, FILE *f, const char *path, const char *const *sets,
                                  size_t n_sets, unsigned flags, char *err, size_t errlen)
{
    *out = NULL;
    err[0] = '\0';
    scn_ini p;
    scn_ini_read(&p, f, path, err, errlen);
    p.load_flags = flags;
    scenario *s = calloc(1, sizeof *s);
    scenario_error rc = SCENARIO_OK;
    if (!s)
        p.oom = 1;
    for (size_t i = 0; i < n_sets && !p.failed && !p.oom; i++)
        if (scn_ini_apply_set(&p, sets[i]) < 0 && !p.oom)
            rc = SCENARIO_EUSAGE;
    if (s && !p.failed && !p.oom) {
        set_defaults(s, path);
        interpret(&p, s);
        if (!s->title[0])
            snprintf(s->title, sizeof s->title, "%s", s->name);
    }
    if (p.oom) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = SCENARIO_ENOMEM;
    } else if (p.failed && rc == SCENARIO_OK) {
        /* a value given with --set is the command line's: exit 2 as for
         * the option's other problems (docs/scenario-format.md, "Limits") */
        rc = p.failed_set ? SCENARIO_EUSAGE : SCENARIO_EINVALID;
    }
    scn_ini_free(&p);
    if (rc != SCENARIO_OK) {
        scenario_free(s);
        return rc;
    }
    *out = s;
    return SCENARIO_OK;
}

char *scenario_describe_stalls(const scenario *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (s->n_stalls == 0) {
        snprintf(buf, len, "no stalls");
        return buf;
    }
    /* every stall that fits, then "and K more": a long list is said to be
     * cut, never cut silently */
    size_t used = 0;
    for (size_t i = 0; i < s->n_stalls; i++) {
        char d[160], more[48];
        stall_describe(&s->stalls[i], d, sizeof d);
        size_t left = s->n_stalls - i - 1;
        int n = snprintf(more, sizeof more, "; and %zu more", left);
        size_t need = (i ? 2 : 0) + strlen(d) + (left ? (size_t)n : 0);
        if (used + need >= len) {
            snprintf(more, sizeof more, "%sand %zu more", i ? "; " : "", left + 1);
            if (used + strlen(more) < len)
                snprintf(buf + used, len - used, "%s", more);
            return buf;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "; " : "", d);
    }
    return buf;
}

double scenario_utilisation(const scenario *s, size_t i)
{
    double u = tester_offered_utilisation(&s->testers[i], &s->service);
    return u < 0 ? -1 : u / (double)(s->workers ? s->workers : 1);
}
