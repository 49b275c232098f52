/* sweep.c - a scenario over a grid of values and seeds, on worker processes. */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"
#include "stats.h"
#include "exitcode.h"
#include "hist.h"
#include "outdir.h"
#include "plot.h"
#include "report.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"
#include "units.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The figures kept per tester and run; durations in ns. */
static const char *const metric_names[SWEEP_N_METRICS] = {"sent", "recorded", "mean_ms", "p50_ms",
                                                    "p90_ms", "p99_ms", "p99.9_ms", "max_ms"};

/* ---- axes ---------------------------------------------------------------- */

/* Most values of one --vary, and the longest unit. */
#define AXIS_MAX_VALUES 10000

/* Split "12.5ms" into 12.5 (the one number grammar, units.h), its decimals
 * and "ms". 0, or -1 with *why. */
static int split_number(const char *s, long double *v, unsigned *decimals, char *unit, size_t len, const char **why)
{
    const char *rest;
    if (units_parse_decimal_prefix(s, v, decimals, &rest, why))
        return -1;
    while (*rest == ' ')
        rest++;
    size_t n = strlen(rest);
    while (n > 0 && rest[n - 1] == ' ')
        n--;
    if (n > SWEEP_UNIT_MAX || n >= len) {
        *why = "the unit is longer than 31 characters";
        return -1;
    }
    memcpy(unit, rest, n);
    unit[n] = '\0';
    return 0;
}

/* v with `decimals` decimals, trailing zeros (and a bare point) dropped:
 * 0.1, 250, 1000000. At most 18 significant digits and 18 decimals, as the
 * grammar wants: decimals beyond them are rounded away. */
static void format_decimal(long double v, unsigned decimals, char *buf, size_t len)
{
    int d = decimals > 18 ? 18 : (int)decimals;
    if (v >= 1) { /* below 1 the zeros after the point are not significant */
        int int_digits = (int)floorl(log10l(v)) + 1;
        if (int_digits + d > 18)
            d = 18 - int_digits > 0 ? 18 - int_digits : 0;
    }
    snprintf(buf, len, "%.*Lf", d, v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *e = buf + strlen(buf) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
}

void sweep_axis_free(sweep_axis *a)
{
    for (size_t i = 0; i < a->n_values; i++)
        free(a->values[i]);
    free(a->values);
    a->values = NULL;
    a->n_values = 0;
}

/* The value text: a duration, a rate or a plain number, as the unit says;
 * each generated value is checked as the key will read it. 0 or -1. */
static int check_value(const char *text, const char *unit, const char **why)
{
    int64_t ns;
    units_interval iv;
    double x;
    if (unit[0] == '/')
        return units_parse_rate(text, &iv, why) ? -1 : 0;
    if (unit[0])
        return units_parse_duration(text, &ns, why) ? -1 : 0;
    return units_parse_number(text, &x, why) ? -1 : 0;
}

int sweep_axis_parse(const char *text, sweep_axis *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *eq = strchr(text, '=');
    if (!eq || !strchr(text, '.') || eq == text) {
        snprintf(err, errlen, "--vary %s: expected KEY=FROM..TO:STEPS or KEY=FROM..TO*FACTOR, "
                              "e.g. --vary tester.open.rate=100/s..900/s:5", text);
        return -EINVAL;
    }
    if ((size_t)(eq - text) >= sizeof out->key) {
        snprintf(err, errlen, "--vary %.40s...: the key is longer than %zu characters", text, sizeof out->key - 1);
        return -EINVAL;
    }
    memcpy(out->key, text, (size_t)(eq - text));
    out->key[eq - text] = '\0';
    char *range = strdup(eq + 1);
    if (!range)
        return -ENOMEM;
    int rc = -EINVAL;
    char *dots = strstr(range, "..");
    char *colon = dots ? strrchr(dots, ':') : NULL, *star = dots ? strrchr(dots, '*') : NULL;
    long double from, to;
    unsigned dfrom, dto;
    char ufrom[SWEEP_UNIT_MAX + 1], uto[SWEEP_UNIT_MAX + 1];
    const char *why;
    size_t n = 0;
    long double factor = 0;
    if (!dots || (!colon == !star)) {
        snprintf(err, errlen, "--vary %s: expected FROM..TO:STEPS or FROM..TO*FACTOR", text);
        goto out;
    }
    *dots = '\0';
    char *mark = colon ? colon : star;
    *mark = '\0';
    if (split_number(range, &from, &dfrom, ufrom, sizeof ufrom, &why) ||
        split_number(dots + 2, &to, &dto, uto, sizeof uto, &why)) {
        snprintf(err, errlen, "--vary %s: FROM and TO must be numbers with the same unit: %s", text, why);
        goto out;
    }
    if (strcmp(ufrom, uto) != 0 || to < from) {
        snprintf(err, errlen, "--vary %s: FROM and TO must be numbers with the same unit, FROM <= TO", text);
        goto out;
    }
    if (colon) {
        uint64_t steps;
        if (units_parse_count(mark + 1, AXIS_MAX_VALUES, &steps, &why) || steps < 2) {
            snprintf(err, errlen, "--vary %s: STEPS is a whole number from 2 to %d", text, AXIS_MAX_VALUES);
            goto out;
        }
        n = (size_t)steps;
    } else {
        double f;
        if (units_parse_number(mark + 1, &f, &why) || !(f > 1 && f < 1e6)) {
            snprintf(err, errlen, "--vary %s: FACTOR is a number above 1 (and below 1000000)", text);
            goto out;
        }
        factor = (long double)f;
        if (from <= 0) {
            snprintf(err, errlen, "--vary %s: a geometric range starts above zero", text);
            goto out;
        }
        /* FROM x FACTOR^i up to TO (a hair over, for the rounding of TO) */
        for (long double v = from; v <= to * (1 + 1e-12L); v *= factor)
            if (++n > AXIS_MAX_VALUES) {
                snprintf(err, errlen, "--vary %s: more than %d values; take a larger FACTOR", text,
                         AXIS_MAX_VALUES);
                goto out;
            }
    }
    out->values = calloc(n, sizeof *out->values);
    if (!out->values) {
        rc = -ENOMEM;
        goto out;
    }
    /* linear steps get 6 decimals more than FROM and TO; the ends are
     * printed with their own, so they are exactly what was given */
    unsigned dec = (dfrom > dto ? dfrom : dto) + 6;
    for (size_t i = 0; i < n; i++) {
        long double v = colon ? from + (to - from) * (long double)i / (long double)(n - 1)
                              : from * powl(factor, (long double)i);
        char num[64], buf[128];
        if (i == 0 || (colon && i == n - 1))
            format_decimal(i == 0 ? from : to, i == 0 ? dfrom : dto, num, sizeof num);
        else
            format_decimal(v, dec, num, sizeof num);
        snprintf(buf, sizeof buf, "%s%s", num, ufrom);
        if (i > 0 && i < n - 1 && check_value(buf, ufrom, &why)) { /* the ends: checked by the scenario */
            snprintf(err, errlen, "--vary %s: the value %s (number %zu of %zu): %s", text, buf, i + 1, n, why);
            sweep_axis_free(out);
            goto out;
        }
        out->values[i] = strdup(buf);
        if (!out->values[i]) {
            sweep_axis_free(out);
            rc = -ENOMEM;
            goto out;
        }
        out->n_values = i + 1;
    }
    rc = 0;
out:
    free(range);
    return rc;
}

/* ---- the sweep ----------------------------------------------------------- */

/* The values of each axis for point p (the last axis varies fastest). */
void sweep_point_values(const sweep *w, size_t p, size_t *idx)
{
    for (size_t a = w->n_axes; a-- > 0;) {
        idx[a] = p % w->axes[a].n_values;
        p /= w->axes[a].n_values;
    }
}

/* Load the scenario for task t: the user's --set, the point's values, the
 * replication's seed. */
static scenario_error load_task(const sweep *w, size_t t, scenario **out, char *err, size_t errlen)
{
    size_t p = t / w->reps, r = t % w->reps, idx[8];
    sweep_point_values(w, p, idx);
    const char *sets[SWEEP_MAX_SETS + 9];
    /* key (< 128) = value (< 128): these fit, nothing is cut */
    char bufs[9][sizeof w->axes[0].key + 160];
    size_t n = 0;
    for (size_t i = 0; i < w->n_user_sets; i++)
        sets[n++] = w->user_sets[i];
    for (size_t a = 0; a < w->n_axes; a++) {
        snprintf(bufs[a], sizeof bufs[a], "%s=%s", w->axes[a].key, w->axes[a].values[idx[a]]);
        sets[n++] = bufs[a];
    }
    if (w->seed_set || r > 0) {
        /* replication r runs seed + r: deterministic, and r = 0 is the base
         * (w->seed: --seed, or the scenario's own, read once by sweep_check_points) */
        snprintf(bufs[8], sizeof bufs[8], "scenario.seed=%llu", (unsigned long long)(w->seed + r));
        sets[n++] = bufs[8];
    }
    return scenario_load(out, w->path, sets, n, err, errlen);
}

/* Run task t and print its result lines: "t i m0 m1 ... m7", or "t E3 msg"
 * (the scenario did not load) or "t E5 msg" (the run failed). */
static void run_task(const sweep *w, size_t t, FILE *f)
{
    char err[1024];
    scenario *s;
    if (load_task(w, t, &s, err, sizeof err) != SCENARIO_OK) {
        fprintf(f, "%zu E%d %.1000s\n", t, COSIM_EXIT_SCENARIO, err);
        return;
    }
    run_result r;
    if (run_scenario(s, &r, err, sizeof err)) {
        fprintf(f, "%zu E%d %.1000s\n", t, COSIM_EXIT_SIM, err);
        scenario_free(s);
        return;
    }
    static const uint64_t pn[4][2] = {{1, 2}, {9, 10}, {99, 100}, {999, 1000}};
    for (size_t i = 0; i < r.n; i++) {
        const hist *h = r.testers[i].hist;
        fprintf(f, "%zu %zu %llu %llu %.3f", t, i, (unsigned long long)r.testers[i].sent,
                (unsigned long long)hist_count(h), hist_mean(h));
        for (int k = 0; k < 4; k++)
            fprintf(f, " %lld", (long long)hist_value_at_percentile(h, s->rank_rule, pn[k][0], pn[k][1]));
        fprintf(f, " %lld\n", (long long)hist_max(h));
    }
    run_result_free(&r);
    scenario_free(s);
}

static int task_in_shard(const sweep *w, size_t t)
{
    return (t / w->reps) % w->n_shards == w->shard;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Append the points from..to to buf, or count them in *more once 24 runs
 * are shown. */
static void add_points(char *buf, size_t len, size_t from, size_t to, size_t *shown, size_t *more)
{
    if ((*shown)++ >= 24) {
        *more += to - from + 1;
        return;
    }
    size_t n = strlen(buf);
    if (to == from)
        snprintf(buf + n, len - n, "%s%zu", n ? ", " : "", from);
    else
        snprintf(buf + n, len - n, "%s%zu..%zu", n ? ", " : "", from, to);
}

/* The points of the shard with a replication not done, as "0, 3..7, 9"
 * (runs of consecutive points; at most 24 runs, then "and N more"). */
static void lost_points(const sweep *w, const unsigned char *done, char *buf, size_t len)
{
    size_t shown = 0, more = 0, from = SIZE_MAX, prev = 0;
    buf[0] = '\0';
    for (size_t p = w->shard;; p += w->n_shards) {
        int lost = 0;
        for (size_t r = 0; p < w->n_points && r < w->reps && !lost; r++)
            lost = !done[p * w->reps + r];
        if (lost && from != SIZE_MAX && p == prev + 1) {
            prev = p;
            continue;
        }
        if (from != SIZE_MAX)
            add_points(buf, len, from, prev, &shown, &more);
        from = SIZE_MAX;
        if (p >= w->n_points)
            break;
        if (lost)
            from = prev = p;
    }
    if (more) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, " and %zu more", more);
    }
}

/* One worker as the parent sees it. */
typedef struct worker {
    pid_t pid;       /* 0 once reaped */
    int fd;          /* its pipe, -1 once closed */
    char buf[4096];  /* the start of a line not yet complete */
    size_t len;
} worker;

/* The body of worker j: run its tasks (j, j + jobs, ... in the shard) and
 * write their lines to fd. It dies with the parent (PR_SET_PDEATHSIG), and
 * checks that the parent did not die before that was set. */
static void worker_main(const sweep *w, unsigned j, unsigned jobs, int fd, pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(1);
    FILE *out = fdopen(fd, "w");
    for (size_t t = j; out && t < w->n_tasks; t += jobs)
        if (task_in_shard(w, t)) {
            run_task(w, t, out);
            if (fflush(out) != 0)
                _exit(1);
        }
    _exit(out && fclose(out) == 0 ? 0 : 1);
}

/* Fork the workers; collect their lines into w->res. The first failure (an
 * error line, or a worker that ends before its tasks are done) stops the
 * other workers at once, and the message names the points left without a
 * result. Returns 0, or the exit status (3: a point's scenario, 5: a run or
 * a worker failed) with err. */
int sweep_run_workers(sweep *w, char *err, size_t errlen)
{
    unsigned jobs = w->jobs;
    worker *wk = calloc(jobs, sizeof *wk);
    unsigned char *done = calloc(w->n_tasks, 1);
    struct pollfd *pf = calloc(jobs, sizeof *pf);
    if (!wk || !done || !pf) {
        free(wk);
        free(done);
        free(pf);
        snprintf(err, errlen, "out of memory");
        return COSIM_EXIT_SIM;
    }
    int failed = 0; /* the exit status of the first failure */
    pid_t parent = getpid();
    unsigned started = 0;
    for (unsigned j = 0; j < jobs; j++) {
        int p[2];
        if (pipe(p) != 0) {
            snprintf(err, errlen, "cannot start workers: %s", strerror(errno));
            failed = COSIM_EXIT_SIM;
            break;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, errlen, "cannot start workers: %s", strerror(errno));
            close(p[0]);
            close(p[1]);
            failed = COSIM_EXIT_SIM;
            break;
        }
        if (pid == 0) {
            close(p[0]);
            for (unsigned k = 0; k < j; k++) /* the other workers' pipes */
                close(wk[k].fd);
            worker_main(w, j, jobs, p[1], parent);
        }
        close(p[1]);
        wk[j].pid = pid;
        wk[j].fd = p[0];
        started = j + 1;
    }
    double todo = 0, work_done = 0;
    size_t tasks_done = 0, tasks_todo = 0;
    for (size_t t = 0; t < w->n_tasks; t++)
        if (task_in_shard(w, t)) {
            todo += w->work[t / w->reps];
            tasks_todo++;
        }
    double start = now_s(), last = start;
    int tty = isatty(2), printed = 0;
    unsigned open_fds = started;
    while (open_fds > 0 && !failed) {
        for (unsigned j = 0; j < started; j++) {
            pf[j].fd = wk[j].fd;
            pf[j].events = POLLIN;
            pf[j].revents = 0;
        }
        if (poll(pf, started, 1000) < 0 && errno != EINTR) {
            snprintf(err, errlen, "cannot read the workers: %s", strerror(errno));
            failed = COSIM_EXIT_SIM;
            break;
        }
        for (unsigned j = 0; j < started && !failed; j++) {
            worker *x = &wk[j];
            if (x->fd < 0 || !(pf[j].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(x->fd, x->buf + x->len, sizeof x->buf - 1 - x->len);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                /* the worker closed its pipe: it ended; had it done its tasks? */
                close(x->fd);
                x->fd = -1;
                open_fds--;
                int st = 0;
                pid_t pid = x->pid;
                while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                    ;
                x->pid = 0;
                size_t missing = 0;
                for (size_t t = j; t < w->n_tasks; t += jobs)
                    missing += task_in_shard(w, t) && !done[t];
                if (missing || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
                    if (WIFSIGNALED(st))
                        snprintf(err, errlen, "worker pid %ld was killed by signal %d (%s)", (long)pid,
                                 WTERMSIG(st), strsignal(WTERMSIG(st)));
                    else
                        snprintf(err, errlen, "worker pid %ld ended with status %d before its last %zu "
                                              "run%s", (long)pid, WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                                 missing, missing == 1 ? "" : "s");
                    failed = COSIM_EXIT_SIM;
                }
                continue;
            }
            x->len += (size_t)got;
            x->buf[x->len] = '\0';
            char *line = x->buf, *nl;
            while (!failed && (nl = strchr(line, '\n'))) {
                *nl = '\0';
                size_t t, i;
                int used = 0;
                if (sscanf(line, "%zu %n", &t, &used) == 1 && t < w->n_tasks) {
                    if (line[used] == 'E') {
                        size_t p = t / w->reps, idx[8];
                        sweep_point_values(w, p, idx);
                        char where[600] = "";
                        for (size_t a = 0; a < w->n_axes; a++)
                            snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s=%s",
                                     a ? ", " : "", w->axes[a].key, w->axes[a].values[idx[a]]);
                        snprintf(err, errlen, "point %zu (%s), replication %zu: %s", p, where, t % w->reps,
                                 line + used + 3);
                        failed = line[used + 1] == '0' + COSIM_EXIT_SCENARIO ? COSIM_EXIT_SCENARIO : COSIM_EXIT_SIM;
                    } else {
                        double m[SWEEP_N_METRICS];
                        if (sscanf(line, "%zu %zu %lf %lf %lf %lf %lf %lf %lf %lf", &t, &i, &m[0], &m[1],
                                   &m[2], &m[3], &m[4], &m[5], &m[6], &m[7]) == 10 &&
                            i < w->n_testers) {
                            memcpy(&w->res[(t * w->n_testers + i) * SWEEP_N_METRICS], m, sizeof m);
                            if (i + 1 == w->n_testers && !done[t]) {
                                done[t] = 1;
                                tasks_done++;
                                work_done += w->work[t / w->reps];
                            }
                        }
                    }
                }
                line = nl + 1;
            }
            /* keep the incomplete line; one longer than the buffer is an error */
            x->len = strlen(line);
            memmove(x->buf, line, x->len + 1);
            if (!failed && x->len >= sizeof x->buf - 1) {
                snprintf(err, errlen, "worker pid %ld wrote a line longer than %zu bytes", (long)x->pid,
                         sizeof x->buf);
                failed = COSIM_EXIT_SIM;
            }
        }
        double nw = now_s();
        if (tty && nw - start > 1 && nw - last > 0.5 && work_done > 0 && todo > 0) {
            /* the time left over the whole sweep, from the estimated work */
            double share = work_done < todo ? work_done / todo : 1;
            char left[32];
            int n = fprintf(stderr, "\rcosim: sweep %zu/%zu runs, %3.0f%% of the work, about %s left   ",
                            tasks_done, tasks_todo, share * 100,
                            run_format_time_left(nw - start, share, left, sizeof left));
            if (n > printed)
                printed = n;
            last = nw;
        }
    }
    if (printed)
        fprintf(stderr, "\r%*s\r", printed, "");
    /* stop every worker still running (the first failure stops the rest) */
    for (unsigned j = 0; j < started; j++) {
        if (wk[j].pid > 0) {
            if (failed)
                kill(wk[j].pid, SIGKILL);
            int st;
            while (waitpid(wk[j].pid, &st, 0) < 0 && errno == EINTR)
                ;
            if (!failed && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
                snprintf(err, errlen, "worker pid %ld failed (status %d)", (long)wk[j].pid,
                         WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
                failed = COSIM_EXIT_SIM;
            }
        }
        if (wk[j].fd >= 0)
            close(wk[j].fd);
    }
    if (failed && tasks_done < tasks_todo) {
        char lost[512];
        lost_points(w, done, lost, sizeof lost);
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, "\ncosim: sweep: stopped the other workers; lost points (no result): %s",
                 lost);
    }
    free(pf);
    free(wk);
    free(done);
    return failed;
}

/* mean and the half-width of its 95% confidence interval over the reps */
void sweep_mean_ci(const sweep *w, size_t p, size_t i, int m, double *mean, double *ci)
{
    /* replication r's value at [p reps + r][i][m]: a stride of testers x metrics */
    stats_mean_t95(&w->res[((p * w->reps) * w->n_testers + i) * SWEEP_N_METRICS + (size_t)m], w->reps,
                   w->n_testers * SWEEP_N_METRICS, mean, ci);
}

/* Whether tester i recorded samples at point p in every replication: its
 * latency figures exist (otherwise they are left empty, never 0). */
int sweep_has_samples(const sweep *w, size_t p, size_t i)
{
    for (size_t r = 0; r < w->reps; r++)
        if (w->res[(((p * w->reps) + r) * w->n_testers + i) * SWEEP_N_METRICS + SWEEP_M_RECORDED] <= 0)
            return 0;
    return 1;
}

/* sweep.csv: one row per point and tester. A field with no value is empty:
 * a _ci95 with one replication, and every latency field (mean_ms .. max_ms
 * and their _ci95) of a point where a replication recorded no sample for
 * the tester (docs/sweeps.md). */
int sweep_write_csv(FILE *f, const sweep *w)
{
    fputs("point", f);
    for (size_t a = 0; a < w->n_axes; a++)
        fprintf(f, ",%s", w->axes[a].key);
    fputs(",tester,kind,replications", f);
    for (int m = 0; m < SWEEP_N_METRICS; m++)
        fprintf(f, ",%s,%s_ci95", metric_names[m], metric_names[m]);
    fputc('\n', f);
    for (size_t p = 0; p < w->n_points; p++) {
        if (p % w->n_shards != w->shard)
            continue;
        size_t idx[8];
        sweep_point_values(w, p, idx);
        for (size_t i = 0; i < w->n_testers; i++) {
            fprintf(f, "%zu", p);
            for (size_t a = 0; a < w->n_axes; a++)
                fprintf(f, ",%s", w->axes[a].values[idx[a]]);
            fprintf(f, ",%s,%s,%zu", w->names[i], tester_kind_name(w->kinds[i]), w->reps);
            int samples = sweep_has_samples(w, p, i);
            for (int m = 0; m < SWEEP_N_METRICS; m++) {
                double mean, ci;
                if (m >= SWEEP_M_MEAN && !samples) {
                    fputs(",,", f);
                    continue;
                }
                sweep_mean_ci(w, p, i, m, &mean, &ci);
                double scale = m >= SWEEP_M_MEAN ? 1e-6 : 1; /* ns -> ms */
                if (w->reps > 1)
                    fprintf(f, ",%.6f,%.6f", mean * scale, ci * scale);
                else /* one seed: no interval */
                    fprintf(f, ",%.6f,", mean * scale);
            }
            fputc('\n', f);
        }
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* The chart's data: per tester a block "x p99_ms ci p50_ms ci p99.9_ms ci"
 * along the first axis (the other axes at their first value). */
int sweep_write_chart_data(FILE *f, const sweep *w)
{
    fprintf(f, "# cosim sweep: x = %s; columns: x p99_ms p99_ci95 p50_ms p50_ci95 p99.9_ms p99.9_ci95\n",
            w->axes[0].key);
    size_t stride = 1;
    for (size_t a = 1; a < w->n_axes; a++)
        stride *= w->axes[a].n_values;
    for (size_t i = 0; i < w->n_testers; i++) {
        fprintf(f, "%s# tester %s\n", i ? "\n\n" : "", w->names[i]);
        for (size_t v = 0; v < w->axes[0].n_values; v++) {
            size_t p = v * stride;
            if (p % w->n_shards != w->shard)
                continue;
            long double x;
            double m99, c99, m50, c50, m999, c999;
            char unit[SWEEP_UNIT_MAX + 1];
            unsigned dec;
            const char *why;
            if (!sweep_has_samples(w, p, i))
                continue; /* no latency at this point: no mark, rather than 0 */
            split_number(w->axes[0].values[v], &x, &dec, unit, sizeof unit, &why);
            sweep_mean_ci(w, p, i, SWEEP_M_P99, &m99, &c99);
            sweep_mean_ci(w, p, i, SWEEP_M_P50, &m50, &c50);
            sweep_mean_ci(w, p, i, SWEEP_M_P999, &m999, &c999);
            fprintf(f, "%.17Lg %.6f %.6f %.6f %.6f %.6f %.6f\n", x, m99 / 1e6, c99 / 1e6, m50 / 1e6,
                    c50 / 1e6, m999 / 1e6, c999 / 1e6);
        }
    }
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

/* What an error in loading a point means: an error in a value we set for
 * --vary is the command line's (2), else the scenario's (3). Prints it. */
static int point_error(const sweep *w, const char *err)
{
    for (size_t a = 0; a < w->n_axes; a++) {
        char prefix[200];
        snprintf(prefix, sizeof prefix, "--set %s=", w->axes[a].key);
        if (strncmp(err, prefix, strlen(prefix)) == 0) {
            const char *why = strstr(err, ": ");
            fprintf(stderr, "cosim: sweep: --vary %s: %s\n", w->axes[a].key, why ? why + 2 : err);
            return COSIM_EXIT_USAGE;
        }
    }
    fprintf(stderr, "cosim: %s\n", err);
    return COSIM_EXIT_SCENARIO;
}

/* Load every point of the shard (its first replication: the seed changes
 * nothing in the estimate), keep its run_estimate in w->work, and refuse
 * the sweep over RUN_WORK_BUDGET. 0, or an exit status with the message
 * printed (2 or 3: a point does not load; 5: the budget, memory). */
int sweep_estimate(sweep *w)
{
    w->work = calloc(w->n_points, sizeof *w->work);
    if (!w->work) {
        fprintf(stderr, "cosim: sweep: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    double total = 0;
    size_t n = 0;
    for (size_t p = w->shard; p < w->n_points; p += w->n_shards) {
        scenario *s;
        char lerr[1024];
        if (load_task(w, p * w->reps, &s, lerr, sizeof lerr) != SCENARIO_OK)
            return point_error(w, lerr);
        run_work rw;
        run_estimate(s, &rw);
        scenario_free(s);
        /* and the cost of loading and setting up each run */
        w->work[p] = rw.total + SWEEP_RUN_SETUP_WORK;
        total += w->work[p] * (double)w->reps;
        n++;
    }
    char what[96];
    snprintf(what, sizeof what, "%zu point%s x %zu replication%s", n, n == 1 ? "" : "s", w->reps,
             w->reps == 1 ? "" : "s");
    char msg[768];
    if (run_check_budget(total, what, w->allow_long, msg, sizeof msg)) {
        fprintf(stderr, "cosim: sweep: %s\n", msg);
        return COSIM_EXIT_SIM;
    }
    return 0;
}

/* The scenario's base seed, then the first and the last point must load:
 * a bad key fails fast. 0 with *last (the last point's scenario, to
 * free), or the exit code after a message. */
int sweep_check_points(sweep *w, scenario **last)
{
    char err[1200];
    scenario *s;
    *last = NULL;
    if (!w->seed_set) { /* the base seed of the replications: the scenario's */
        scenario_error se = scenario_load(&s, w->path, w->user_sets, w->n_user_sets, err, sizeof err);
        if (se != SCENARIO_OK) {
            fprintf(stderr, "cosim: %s\n", err);
            return (int)cosim_exit_of_scenario(se);
        }
        w->seed = s->seed;
        scenario_free(s);
    }
    if (run_check_seeds(w->seed, w->reps, err, sizeof err)) {
        fprintf(stderr, "cosim: sweep: %s\n", err);
        return 2;
    }
    for (int pass = 0; pass < 2; pass++) {
        scenario_error se = load_task(w, pass ? 0 : w->n_tasks - 1, &s, err, sizeof err);
        if (se == SCENARIO_OK) {
            if (!pass)
                scenario_free(s);
            else
                *last = s;
            continue;
        }
        /* an error in a value we set for --vary is the command line's */
        int rc = point_error(w, err);
        return rc == COSIM_EXIT_SCENARIO ? (int)cosim_exit_of_scenario(se) : rc;
    }
    return 0;
}


void sweep_axis_unit(const sweep_axis *a, char *unit, size_t len)
{
    long double x;
    unsigned dec;
    const char *why;
    if (a->n_values == 0 || split_number(a->values[0], &x, &dec, unit, len, &why))
        unit[0] = '\0';
}

void sweep_free(sweep *w)
{
    for (size_t a = 0; a < w->n_axes; a++)
        sweep_axis_free(&w->axes[a]);
    free(w->res);
    free(w->work);
    free(w->names);
    free(w->kinds);
    w->n_axes = 0;
    w->res = w->work = NULL;
    w->names = NULL;
    w->kinds = NULL;
}
