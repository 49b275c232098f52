/* sweep.c - a scenario over a grid of values and seeds: the points, their
 * scenarios and estimates, the statistics and the files (the axes are
 * sweep_axis.c, the worker processes sweep_workers.c). */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"
#include "exitcode.h"
#include "levels.h"
#include "run.h"
#include "scenario.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The figures kept per tester and run; durations in ns. The percentiles
 * (SWEEP_M_P50 .. SWEEP_M_P999) are the LEVELS_SWEEP levels, named
 * "LABEL_ms" in sweep.csv. */
static const char *const metric_names[SWEEP_N_METRICS] = {"sent", "recorded", "mean_ms", [SWEEP_M_MAX] = "max_ms"};

/* The values of each axis for point p: the --vary axes are the digits of
 * p (the last varies fastest); a --zip takes its leader's index. */
void sweep_point_values(const sweep *w, size_t p, size_t *idx)
{
    for (size_t a = w->n_axes; a-- > 0;) {
        if (w->axes[a].zipped)
            continue;
        idx[a] = p % w->axes[a].n_values;
        p /= w->axes[a].n_values;
    }
    for (size_t a = 1; a < w->n_axes; a++)
        if (w->axes[a].zipped)
            idx[a] = idx[a - 1];
}

int sweep_add_axis(sweep *w, const char *text, int zipped, char *err, size_t errlen)
{
    if (w->n_axes == SWEEP_MAX_AXES) {
        snprintf(err, errlen, "at most %d --vary and --zip keys in all", SWEEP_MAX_AXES);
        return -EINVAL;
    }
    if (zipped && w->n_axes == 0) {
        snprintf(err, errlen, "--zip %s: no --vary before it to move with; give the --vary first", text);
        return -EINVAL;
    }
    sweep_axis *a = &w->axes[w->n_axes];
    int rc = zipped ? sweep_axis_parse_zip(text, a, err, errlen) : sweep_axis_parse(text, a, err, errlen);
    if (rc)
        return rc;
    for (size_t b = 0; b < w->n_axes; b++)
        if (strcmp(w->axes[b].key, a->key) == 0) {
            snprintf(err, errlen, "%s %s given twice; vary a key once", zipped ? "--zip" : "--vary", a->key);
            sweep_axis_free(a);
            return -EINVAL;
        }
    size_t lead = w->n_axes - (w->n_axes > 0);
    while (zipped && w->axes[lead].zipped)
        lead--;
    if (zipped && a->n_values != w->axes[lead].n_values) {
        snprintf(err, errlen, "--zip %s: %zu values, but --vary %s has %zu; a --zip key takes one value for each "
                              "value of the --vary it moves with", text, a->n_values, w->axes[lead].key,
                 w->axes[lead].n_values);
        sweep_axis_free(a);
        return -EINVAL;
    }
    w->n_axes++;
    return 0;
}

/* value i and value j of axis a are the same number (or, not numbers, the same text) */
static int same_value(const sweep_axis *a, size_t i, size_t j)
{
    long double x, y;
    if (sweep_value_number(a->values[i], &x) || sweep_value_number(a->values[j], &y))
        return strcmp(a->values[i], a->values[j]) == 0;
    return x == y;
}

int sweep_check_repeats(const sweep *w, char *err, size_t errlen)
{
    for (size_t lead = 0; lead < w->n_axes; lead++) {
        if (w->axes[lead].zipped)
            continue;
        size_t end = lead + 1; /* the zips of this --vary: lead + 1 .. end - 1 */
        while (end < w->n_axes && w->axes[end].zipped)
            end++;
        const sweep_axis *l = &w->axes[lead];
        for (size_t j = 1; j < l->n_values; j++)
            for (size_t i = 0; i < j; i++) {
                size_t a = lead;
                while (a < end && same_value(&w->axes[a], i, j))
                    a++;
                if (a < end)
                    continue;
                int n = snprintf(err, errlen, "--vary %s: value %zu of %zu, %s, repeats value %zu (%s)", l->key,
                                 j + 1, l->n_values, l->values[j], i + 1, l->values[i]);
                for (a = lead + 1; a < end && n >= 0 && (size_t)n < errlen; a++)
                    n += snprintf(err + n, errlen - (size_t)n, "%s --zip %s=%s", a == lead + 1 ? ", and so does" : ",",
                                  w->axes[a].key, w->axes[a].values[j]);
                if (n >= 0 && (size_t)n < errlen)
                    snprintf(err + n, errlen - (size_t)n, ": two identical points; give each value once");
                return -EINVAL;
            }
    }
    return 0;
}

int sweep_size(sweep *w, char *err, size_t errlen)
{
    w->n_points = 1;
    int too_many = 0;
    char shape[200] = "";
    size_t used = 0;
    for (size_t a = 0; a < w->n_axes; a++) {
        if (w->axes[a].zipped)
            continue;
        too_many |= __builtin_mul_overflow(w->n_points, w->axes[a].n_values, &w->n_points);
        int n = snprintf(shape + used, sizeof shape - used, "%s%zu", used ? " x " : "", w->axes[a].n_values);
        if (n > 0 && (size_t)n < sizeof shape - used) /* 8 x 5 digits: always fits */
            used += (size_t)n;
    }
    if (too_many || w->n_points > SWEEP_MAX_POINTS) {
        if (too_many)
            snprintf(err, errlen, "the --vary grid has %s points, more than the %d a sweep may have", shape,
                     SWEEP_MAX_POINTS);
        else
            snprintf(err, errlen, "the --vary grid has %zu points (%s), more than the %d a sweep may have; split "
                                  "it into several sweeps", w->n_points, shape, SWEEP_MAX_POINTS);
        return -E2BIG;
    }
    w->n_tasks = w->n_points * w->reps; /* <= 100000 x 10000 */
    if (w->jobs > w->n_tasks)
        w->jobs = (unsigned)w->n_tasks;
    return 0;
}

/* Whether key (SECTION.KEY as for --set, a '.' or ' ' after "tester")
 * names a key of section [tester NAME]. */
static int key_of_tester(const char *key, const char *name)
{
    size_t n = strlen(name);
    return strncmp(key, "tester", 6) == 0 && (key[6] == '.' || key[6] == ' ') && strncmp(key + 7, name, n) == 0 &&
           key[7 + n] == '.';
}

int sweep_affects(const sweep *w, const char *name)
{
    for (size_t a = 0; a < w->n_axes; a++) {
        const char *k = w->axes[a].key;
        int tester = strncmp(k, "tester", 6) == 0 && (k[6] == '.' || k[6] == ' ');
        /* [truth] and [expect] are read after the runs (the truth probe
         * has its own run): they change no tester's figures */
        int after = strncmp(k, "truth.", 6) == 0 || strncmp(k, "expect.", 7) == 0 || strncmp(k, "expect ", 7) == 0;
        if ((!tester && !after) || key_of_tester(k, name))
            return 1;
    }
    return 0;
}

double sweep_utilisation(const scenario *s, size_t i)
{
    return scenario_utilisation(s, i);
}

double sweep_bar_low(double mean, double ci)
{
    return mean - ci > 0 ? mean - ci : 0;
}

scenario_error sweep_load_task(const sweep *w, size_t t, scenario **out, char *err, size_t errlen)
{
    size_t p = t / w->reps, r = t % w->reps, idx[SWEEP_MAX_AXES];
    sweep_point_values(w, p, idx);
    const char *sets[SWEEP_MAX_SETS + SWEEP_MAX_AXES + 1];
    /* key (< 128) = value (< 128): these fit, nothing is cut */
    char bufs[SWEEP_MAX_AXES + 1][sizeof w->axes[0].key + 160];
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
        snprintf(bufs[SWEEP_MAX_AXES], sizeof bufs[0], "scenario.seed=%llu", (unsigned long long)(w->seed + r));
        sets[n++] = bufs[SWEEP_MAX_AXES];
    }
    return scenario_load_flags(out, w->path, sets, n, SCENARIO_LOAD_SWEEP, err, errlen);
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
 * the tester (docs/sweeps.md). With --x-axis utilisation a column rho
 * after replications: the tester's offered utilisation at the point
 * (sweep_utilisation; empty for a tester with no rate). */
int sweep_write_csv(FILE *f, const sweep *w)
{
    fputs("point", f);
    for (size_t a = 0; a < w->n_axes; a++)
        fprintf(f, ",%s", w->axes[a].key);
    fputs(",tester,kind,replications", f);
    if (w->rho) /* --x-axis utilisation: the x of the chart, per tester */
        fputs(",rho", f);
    for (int m = 0; m < SWEEP_N_METRICS; m++) {
        char name[32];
        if (m >= SWEEP_M_P50 && m <= SWEEP_M_P999)
            snprintf(name, sizeof name, "%s_ms", levels_nth(LEVELS_SWEEP, (size_t)(m - SWEEP_M_P50))->label);
        else
            snprintf(name, sizeof name, "%s", metric_names[m]);
        fprintf(f, ",%s,%s_ci95", name, name);
    }
    fputc('\n', f);
    for (size_t p = 0; p < w->n_points; p++) {
        if (p % w->n_shards != w->shard)
            continue;
        size_t idx[SWEEP_MAX_AXES];
        sweep_point_values(w, p, idx);
        for (size_t i = 0; i < w->n_testers; i++) {
            fprintf(f, "%zu", p);
            for (size_t a = 0; a < w->n_axes; a++)
                fprintf(f, ",%s", w->axes[a].values[idx[a]]);
            fprintf(f, ",%s,%s,%zu", w->names[i], tester_kind_name(w->kinds[i]), w->reps);
            if (w->rho) { /* empty for a tester with no rate; 0.8, not 0.80000000000000004 */
                double rho = w->rho[p * w->n_testers + i];
                if (rho >= 0)
                    fprintf(f, ",%.9g", (double)(roundl((long double)rho * 1e9L) / 1e9L));
                else
                    fputc(',', f);
            }
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

size_t sweep_point_at(const sweep *w, size_t v, size_t c)
{
    size_t stride = 1;
    for (size_t a = 1; a < w->n_axes; a++)
        if (!w->axes[a].zipped)
            stride *= w->axes[a].n_values;
    return v * stride + c;
}

int sweep_chart_blocks(const sweep *w, sweep_blocks *bl)
{
    memset(bl, 0, sizeof *bl);
    bl->stride = sweep_point_at(w, 1, 0);
    size_t most = w->n_testers * bl->stride; /* <= testers x points */
    bl->tester = calloc(most ? most : 1, sizeof *bl->tester);
    bl->combo = calloc(most ? most : 1, sizeof *bl->combo);
    if (!bl->tester || !bl->combo) {
        sweep_blocks_free(bl);
        return -ENOMEM;
    }
    /* tester by tester (its curves side by side in the key); a tester no
     * varied key affects is the same at every combination: one block */
    for (size_t i = 0; i < w->n_testers; i++)
        for (size_t c = 0; c < bl->stride; c++) {
            if (c > 0 && w->affected && !w->affected[i])
                break;
            bl->tester[bl->n] = i;
            bl->combo[bl->n++] = c;
        }
    return 0;
}

void sweep_blocks_free(sweep_blocks *bl)
{
    free(bl->tester);
    free(bl->combo);
    bl->tester = bl->combo = NULL;
    bl->n = 0;
}

char *sweep_combo_text(const sweep *w, size_t c, char *buf, size_t len)
{
    size_t idx[SWEEP_MAX_AXES], used = 0, a = 1;
    buf[0] = '\0';
    sweep_point_values(w, sweep_point_at(w, 0, c), idx);
    while (a < w->n_axes && w->axes[a].zipped) /* those move with the x axis */
        a++;
    for (; a < w->n_axes && used < len; a++) {
        int n = snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "", w->axes[a].key,
                         w->axes[a].values[idx[a]]);
        used = n < 0 ? len : used + (size_t)n;
    }
    return buf;
}

/* The x of tester i at point p: the first key's value (v-th), or the
 * tester's offered utilisation (a tester with no rate: the first tester's
 * that has one). 0, or -1 when there is none. */
static int chart_x(const sweep *w, size_t p, size_t v, size_t i, long double *x)
{
    if (w->x == SWEEP_X_KEY)
        return sweep_value_number(w->axes[0].values[v], x);
    const double *rho = &w->rho[p * w->n_testers];
    for (size_t j = 0; j <= w->n_testers; j++) {
        size_t k = j ? j - 1 : i; /* its own first */
        if (k < w->n_testers && rho[k] >= 0) {
            *x = roundl((long double)rho[k] * 1e9L) / 1e9L; /* 0.8, not 0.80000000000000004 */
            return 0;
        }
    }
    return -1;
}

/* The chart's data: the blocks of sweep_chart_blocks, each "x p99_ms ci
 * p50_ms ci p99.9_ms ci p99_low p99_high" along the first dimension. */
int sweep_write_chart_data(FILE *f, const sweep *w)
{
    sweep_blocks bl;
    if (sweep_chart_blocks(w, &bl))
        return -ENOMEM;
    fprintf(f, "# cosim sweep: x = %s; columns: x p99_ms p99_ci95 p50_ms p50_ci95 p99.9_ms p99.9_ci95 "
               "p99_bar_low p99_bar_high\n",
            w->x == SWEEP_X_KEY ? w->axes[0].key : "offered utilisation");
    for (size_t b = 0; b < bl.n; b++) {
        size_t i = bl.tester[b];
        char combo[1200];
        sweep_combo_text(w, bl.combo[b], combo, sizeof combo);
        fprintf(f, "%s# tester %s%s%s\n", b ? "\n\n" : "", w->names[i], *combo ? ", " : "", combo);
        for (size_t v = 0; v < w->axes[0].n_values; v++) {
            size_t p = sweep_point_at(w, v, bl.combo[b]);
            long double x;
            double m99, c99, m50, c50, m999, c999;
            if (p % w->n_shards != w->shard || !sweep_has_samples(w, p, i) || chart_x(w, p, v, i, &x))
                continue; /* no latency (or no x) at this point: no mark, rather than 0 */
            sweep_mean_ci(w, p, i, SWEEP_M_P99, &m99, &c99);
            sweep_mean_ci(w, p, i, SWEEP_M_P50, &m50, &c50);
            sweep_mean_ci(w, p, i, SWEEP_M_P999, &m999, &c999);
            fprintf(f, "%.17Lg %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f\n", x, m99 / 1e6, c99 / 1e6, m50 / 1e6,
                    c50 / 1e6, m999 / 1e6, c999 / 1e6, sweep_bar_low(m99, c99) / 1e6, (m99 + c99) / 1e6);
        }
    }
    sweep_blocks_free(&bl);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

int sweep_load_failure(const sweep *w, size_t t, scenario_error se, const char *err, char *msg, size_t msglen,
                       int *from_vary)
{
    *from_vary = 0;
    snprintf(msg, msglen, "%s", err);
    if (se == SCENARIO_ENOMEM)
        return COSIM_EXIT_SIM;
    /* the scenario with the user's --set alone: if it fails, the error is
     * not the sweep's values' */
    scenario *s;
    char berr[1024];
    scenario_error bse = scenario_load_flags(&s, w->path, w->user_sets, w->n_user_sets,
                                             SCENARIO_LOAD_SWEEP, berr, sizeof berr);
    if (bse != SCENARIO_OK)
        return (int)cosim_exit_of_scenario(bse);
    scenario_free(s);
    *from_vary = 1;
    size_t idx[SWEEP_MAX_AXES];
    sweep_point_values(w, t / w->reps, idx);
    /* the first key whose value alone fails is named; a mix of values that
     * fails only together names them all */
    for (size_t a = 0; a < w->n_axes; a++) {
        char set[sizeof w->axes[0].key + 160], aerr[1024], origin[sizeof set + 16];
        const char *sets[SWEEP_MAX_SETS + 1];
        for (size_t k = 0; k < w->n_user_sets; k++)
            sets[k] = w->user_sets[k];
        snprintf(set, sizeof set, "%s=%s", w->axes[a].key, w->axes[a].values[idx[a]]);
        sets[w->n_user_sets] = set;
        scenario_error ase = scenario_load_flags(&s, w->path, sets, w->n_user_sets + 1, SCENARIO_LOAD_SWEEP, aerr,
                                                 sizeof aerr);
        if (ase == SCENARIO_OK) {
            scenario_free(s);
            continue;
        }
        if (ase == SCENARIO_ENOMEM)
            return COSIM_EXIT_SIM;
        /* the reader names the --set it was given (scn_ini_origin): it is
         * said once, as the option the user typed */
        snprintf(origin, sizeof origin, "--set %s: ", set);
        const char *why = strncmp(aerr, origin, strlen(origin)) == 0 ? aerr + strlen(origin) : aerr;
        snprintf(msg, msglen, "%s %s: %s", w->axes[a].zipped ? "--zip" : "--vary", w->axes[a].key, why);
        return COSIM_EXIT_USAGE;
    }
    size_t used = (size_t)snprintf(msg, msglen, "the values ");
    for (size_t a = 0; a < w->n_axes && used < msglen; a++)
        used += (size_t)snprintf(msg + used, msglen - used, "%s%s=%s", a ? ", " : "", w->axes[a].key,
                                 w->axes[a].values[idx[a]]);
    if (used < msglen)
        snprintf(msg + used, msglen - used, " together: %s", err);
    return COSIM_EXIT_USAGE;
}

/* Print the message of a point that did not load and return its exit
 * code (sweep_load_failure). */
static int point_error(const sweep *w, size_t t, scenario_error se, const char *err)
{
    char msg[1600];
    int from_vary, rc = sweep_load_failure(w, t, se, err, msg, sizeof msg, &from_vary);
    fprintf(stderr, "cosim: %s%s\n", from_vary ? "sweep: " : "", msg);
    return rc;
}

/* Load every point of the shard (its first replication: the seed changes
 * nothing in the estimate), keep its run_estimate in w->work, and refuse
 * the sweep over RUN_WORK_BUDGET. 0, or an exit status with the message
 * printed (2 or 3: a point does not load; 5: the budget, memory). */
int sweep_estimate(sweep *w)
{
    w->work = calloc(w->n_points, sizeof *w->work);
    if (w->x == SWEEP_X_UTILISATION && w->n_testers) {
        w->rho = malloc(w->n_points * w->n_testers * sizeof *w->rho);
        for (size_t k = 0; w->rho && k < w->n_points * w->n_testers; k++)
            w->rho[k] = -1;
    }
    if (!w->work || (w->x == SWEEP_X_UTILISATION && w->n_testers && !w->rho)) {
        fprintf(stderr, "cosim: sweep: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    double total = 0;
    size_t n = 0;
    for (size_t p = w->shard; p < w->n_points; p += w->n_shards) {
        scenario *s;
        char lerr[1024];
        scenario_error se = sweep_load_task(w, p * w->reps, &s, lerr, sizeof lerr);
        if (se != SCENARIO_OK)
            return point_error(w, p * w->reps, se, lerr);
        for (size_t i = 0; w->rho && i < w->n_testers && i < s->n_testers; i++)
            w->rho[p * w->n_testers + i] = sweep_utilisation(s, i);
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
        scenario_error se = scenario_load_flags(&s, w->path, w->user_sets, w->n_user_sets,
                                                 SCENARIO_LOAD_SWEEP, err, sizeof err);
        if (se != SCENARIO_OK) {
            fprintf(stderr, "cosim: %s\n", err);
            return (int)cosim_exit_of_scenario(se);
        }
        w->seed = s->seed;
        scenario_free(s);
    }
    if (run_check_seeds(w->seed, w->reps, err, sizeof err)) {
        fprintf(stderr, "cosim: sweep: %s\n", err);
        return COSIM_EXIT_USAGE;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t t = pass ? 0 : w->n_tasks - 1;
        scenario_error se = sweep_load_task(w, t, &s, err, sizeof err);
        if (se == SCENARIO_OK) {
            if (!pass)
                scenario_free(s);
            else
                *last = s;
            continue;
        }
        /* an error in a value we set for --vary is the command line's */
        return point_error(w, t, se, err);
    }
    return 0;
}


void sweep_free(sweep *w)
{
    for (size_t a = 0; a < w->n_axes; a++)
        sweep_axis_free(&w->axes[a]);
    free(w->res);
    free(w->work);
    free(w->names);
    free(w->kinds);
    free(w->affected);
    free(w->rho);
    w->n_axes = 0;
    w->res = w->work = w->rho = NULL;
    w->affected = NULL;
    w->names = NULL;
    w->kinds = NULL;
}
