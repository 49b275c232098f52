/* sweep_merge.c - cosim sweep --merge: the shards read and checked, their
 * figures put back in the whole sweep's place (sweep_merge.h). */
#define _POSIX_C_SOURCE 200809L
#include "sweep_merge.h"
#include "exitcode.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef COSIM_VERSION
#define COSIM_VERSION "0.1.0"
#endif

void sweep_merge_free(sweep_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->shards && i < m->n; i++)
        sweep_shard_free(&m->shards[i]);
    free(m->shards);
    free(m->dirs);
    memset(m, 0, sizeof *m);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Read dir/sweep.shard into sh. 0, or the exit code after a message. */
static int read_one(const char *dir, sweep_shard *sh)
{
    char path[4200], err[4400], csv[4200];
    if (!is_dir(dir)) {
        fprintf(stderr, "cosim: sweep: --merge: %s: no such folder\n", dir);
        return COSIM_EXIT_SCENARIO;
    }
    snprintf(path, sizeof path, "%s/sweep.shard", dir);
    int rc = sweep_shard_read(sh, path, err, sizeof err);
    if (rc == -ENOENT) {
        snprintf(csv, sizeof csv, "%s/sweep.csv", dir);
        struct stat st;
        if (stat(csv, &st) == 0)
            fprintf(stderr, "cosim: sweep: --merge: %s: a sweep folder without sweep.shard: written by a cosim "
                            "older than %s, or by a sweep that was not a shard (--shard K/N); rerun the shard "
                            "with this cosim\n", dir, COSIM_VERSION);
        else
            fprintf(stderr, "cosim: sweep: --merge: %s: not a shard folder (no sweep.shard; cosim sweep "
                            "--shard K/N writes one)\n", dir);
        return COSIM_EXIT_SCENARIO;
    }
    if (rc == -ENOMEM) {
        fprintf(stderr, "cosim: sweep: --merge: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    if (rc) {
        fprintf(stderr, "cosim: sweep: --merge: %s\n", err);
        return COSIM_EXIT_SCENARIO;
    }
    if (strcmp(sh->version, COSIM_VERSION) != 0) {
        fprintf(stderr, "cosim: sweep: --merge: %s: a shard written by cosim %s; this is cosim %s, whose figures "
                        "may differ: rerun the shard with this cosim\n", dir, sh->version, COSIM_VERSION);
        return COSIM_EXIT_SCENARIO;
    }
    return 0;
}

/* The first way shard b differs from shard a as a sweep ("" when they are
 * of one sweep) into why. */
static void differ(const sweep_shard *a, const sweep_shard *b, char *why, size_t len)
{
    why[0] = '\0';
    if (a->n_shards != b->n_shards)
        snprintf(why, len, "split in %u and in %u shards", a->n_shards, b->n_shards);
    else if (strcmp(a->scenario, b->scenario) != 0)
        snprintf(why, len, "their scenarios differ (%s and %s)", a->scenario, b->scenario);
    else if (a->scenario_bytes != b->scenario_bytes || a->scenario_hash != b->scenario_hash)
        snprintf(why, len, "they ran different texts of %s (%" PRIu64 " bytes, FNV-1a %016" PRIx64 "; %" PRIu64
                 " bytes, FNV-1a %016" PRIx64 ")", a->scenario, a->scenario_bytes, a->scenario_hash,
                 b->scenario_bytes, b->scenario_hash);
    else {
        size_t k = 0;
        while (k < a->n_args && k < b->n_args && strcmp(a->args[k], b->args[k]) == 0)
            k++;
        if (k < a->n_args || k < b->n_args)
            snprintf(why, len, "their options differ from word %zu: %s%s and %s%s", k + 1,
                     k < a->n_args ? a->args[k] : "(none)", k + 1 < a->n_args ? " ..." : "",
                     k < b->n_args ? b->args[k] : "(none)", k + 1 < b->n_args ? " ..." : "");
        else if (a->n_points != b->n_points || a->reps != b->reps || a->n_testers != b->n_testers)
            snprintf(why, len, "%zu points x %zu replications x %zu testers and %zu x %zu x %zu", a->n_points,
                     a->reps, a->n_testers, b->n_points, b->reps, b->n_testers);
    }
}

/* The number of tasks of shard k of a sweep: every replication of the
 * points p with p mod N = k. */
static size_t shard_tasks(const sweep_shard *sh)
{
    size_t points = sh->n_points > sh->shard ? (sh->n_points - sh->shard + sh->n_shards - 1) / sh->n_shards : 0;
    return points * sh->reps;
}

int sweep_merge_read(const char *const *dirs, size_t n, sweep_merge *m)
{
    memset(m, 0, sizeof *m);
    sweep_shard *in = calloc(n, sizeof *in);
    m->shards = calloc(n, sizeof *m->shards);
    m->dirs = calloc(n, sizeof *m->dirs);
    if (!in || !m->shards || !m->dirs) {
        free(in);
        fprintf(stderr, "cosim: sweep: --merge: out of memory\n");
        return COSIM_EXIT_SIM;
    }
    int rc = 0;
    size_t got = 0;
    for (; got < n && rc == 0; got++)
        rc = read_one(dirs[got], &in[got]);
    char why[1200];
    for (size_t i = 1; rc == 0 && i < n; i++) {
        differ(&in[0], &in[i], why, sizeof why);
        if (*why) {
            fprintf(stderr, "cosim: sweep: --merge: %s and %s are shards of different sweeps: %s\n", dirs[0],
                    dirs[i], why);
            rc = COSIM_EXIT_SCENARIO;
        }
    }
    /* every shard once, in order; each holding all its tasks */
    unsigned N = rc == 0 ? in[0].n_shards : 0;
    size_t *at = rc == 0 ? malloc(N * sizeof *at) : NULL;
    if (rc == 0 && !at) {
        fprintf(stderr, "cosim: sweep: --merge: out of memory\n");
        rc = COSIM_EXIT_SIM;
    }
    for (unsigned k = 0; at && k < N; k++)
        at[k] = n;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        unsigned k = in[i].shard;
        if (at[k] != n) {
            fprintf(stderr, "cosim: sweep: --merge: %s and %s are both shard %u of %u; give each shard once\n",
                    dirs[at[k]], dirs[i], k, N);
            rc = COSIM_EXIT_SCENARIO;
        }
        at[k] = i;
        if (rc == 0 && in[i].n_res != shard_tasks(&in[i])) {
            fprintf(stderr, "cosim: sweep: --merge: %s/sweep.shard: holds %zu results, shard %u of %u has %zu "
                            "tasks: the shard is incomplete\n", dirs[i], in[i].n_res, k, N, shard_tasks(&in[i]));
            rc = COSIM_EXIT_SCENARIO;
        }
        for (size_t j = 0; rc == 0 && j < in[i].n_res; j++)
            if ((in[i].task[j] / in[i].reps) % N != k) {
                fprintf(stderr, "cosim: sweep: --merge: %s/sweep.shard: task %zu is not of shard %u of %u\n",
                        dirs[i], in[i].task[j], k, N);
                rc = COSIM_EXIT_SCENARIO;
            }
    }
    if (rc == 0) {
        char missing[400] = "";
        size_t used = 0, n_missing = 0;
        for (unsigned k = 0; k < N; k++)
            if (at[k] == n) {
                n_missing++;
                int w = used < sizeof missing ? snprintf(missing + used, sizeof missing - used, "%s%u",
                                                         used ? ", " : "", k) : 0;
                used += w > 0 ? (size_t)w : 0;
            }
        if (n_missing) {
            fprintf(stderr, "cosim: sweep: --merge: shard%s %s%s of %u %s missing; give every shard's folder "
                            "(%zu given)\n", n_missing == 1 ? "" : "s", missing,
                    used >= sizeof missing ? "..." : "", N, n_missing == 1 ? "is" : "are", n);
            rc = COSIM_EXIT_SCENARIO;
        }
    }
    if (rc == 0) { /* in shard order */
        for (unsigned k = 0; k < N; k++) {
            m->shards[k] = in[at[k]];
            m->dirs[k] = dirs[at[k]];
            memset(&in[at[k]], 0, sizeof in[at[k]]);
        }
        m->n = N;
    } else {
        m->n = n;
    }
    for (size_t i = 0; i < got; i++)
        sweep_shard_free(&in[i]);
    free(in);
    free(at);
    return rc;
}

int sweep_merge_fill(const sweep_merge *m, sweep *w)
{
    const sweep_shard *a = &m->shards[0];
    uint64_t bytes, hash;
    int rc = sweep_shard_digest(w->path, &bytes, &hash);
    if (rc) {
        fprintf(stderr, "cosim: sweep: --merge: %s: cannot read the scenario the shards ran: %s; run the merge "
                        "where %s names it (the folder the shards were started from)\n", w->path, strerror(-rc),
                a->scenario);
        return COSIM_EXIT_SCENARIO;
    }
    if (bytes != a->scenario_bytes || hash != a->scenario_hash) {
        fprintf(stderr, "cosim: sweep: --merge: %s: not the text the shards ran (%" PRIu64 " bytes, FNV-1a %016"
                        PRIx64 "; the shards': %" PRIu64 " bytes, FNV-1a %016" PRIx64 "); merge with the scenario "
                        "as it was\n", w->path, bytes, hash, a->scenario_bytes, a->scenario_hash);
        return COSIM_EXIT_SCENARIO;
    }
    if (w->n_points != a->n_points || w->reps != a->reps || w->n_testers != a->n_testers) {
        fprintf(stderr, "cosim: sweep: --merge: %s: the shards' options give %zu points x %zu replications x %zu "
                        "testers here, the shards ran %zu x %zu x %zu\n", m->dirs[0], w->n_points, w->reps,
                w->n_testers, a->n_points, a->reps, a->n_testers);
        return COSIM_EXIT_SCENARIO;
    }
    size_t per = w->n_testers * SWEEP_N_METRICS;
    for (size_t k = 0; k < m->n; k++)
        for (size_t j = 0; j < m->shards[k].n_res; j++)
            memcpy(&w->res[m->shards[k].task[j] * per], &m->shards[k].res[j * per], per * sizeof *w->res);
    return 0;
}
