/* sweep_shard.c - sweep.shard: what one shard of a sweep ran, written by
 * `cosim sweep --shard K/N` and read by `cosim sweep --merge` (sweep.h).
 *
 * The file is text, one record a line:
 *   cosim-sweep-shard FORMAT
 *   cosim VERSION
 *   shard K N
 *   scenario TEXT                  the scenario argument as typed
 *   scenario-bytes B
 *   scenario-fnv1a64 HEX           16 hex digits
 *   arg TEXT                       one per option word, in order
 *   sweep POINTS REPLICATIONS TESTERS METRICS
 *   r TASK V...                    one per task: TESTERS x METRICS figures
 *   end COUNT                      the number of r lines: a cut file has none
 * TEXT is percent-encoded (every byte up to ' ', '%' and DEL as %XX), so a
 * line holds no space inside a field; figures are C99 hexadecimal floats
 * (%a), read back bit for bit. */
#define _POSIX_C_SOURCE 200809L
#include "textin.h"
#include "sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef COSIM_VERSION
#define COSIM_VERSION "0.1.0"
#endif

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

int sweep_shard_digest(const char *path, uint64_t *bytes, uint64_t *hash)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    uint64_t h = FNV_OFFSET, n = 0;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < got; i++) {
            h ^= buf[i];
            h *= FNV_PRIME;
        }
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -EIO;
    *bytes = n;
    *hash = h;
    return 0;
}

/* TEXT percent-encoded: bytes up to ' ', '%' and DEL as %XX. */
static void put_text(FILE *f, const char *t)
{
    for (const unsigned char *q = (const unsigned char *)t; *q; q++) {
        if (*q <= ' ' || *q == '%' || *q == 0x7f)
            fprintf(f, "%%%02X", *q);
        else
            fputc(*q, f);
    }
}

int sweep_shard_write(FILE *f, const sweep *w, const char *scenario_arg, const char *const *args, size_t n_args,
                      uint64_t bytes, uint64_t hash)
{
    fprintf(f, "cosim-sweep-shard %d\ncosim %s\nshard %u %u\nscenario ", SWEEP_SHARD_FORMAT, COSIM_VERSION, w->shard,
            w->n_shards);
    put_text(f, scenario_arg);
    fprintf(f, "\nscenario-bytes %" PRIu64 "\nscenario-fnv1a64 %016" PRIx64 "\n", bytes, hash);
    for (size_t i = 0; i < n_args; i++) {
        fputs("arg ", f);
        put_text(f, args[i]);
        fputc('\n', f);
    }
    fprintf(f, "sweep %zu %zu %zu %d\n", w->n_points, w->reps, w->n_testers, SWEEP_N_METRICS);
    size_t count = 0, per = w->n_testers * SWEEP_N_METRICS;
    for (size_t t = 0; t < w->n_tasks; t++) {
        if ((t / w->reps) % w->n_shards != w->shard)
            continue;
        fprintf(f, "r %zu", t);
        for (size_t k = 0; k < per; k++)
            fprintf(f, " %a", w->res[t * per + k]);
        fputc('\n', f);
        count++;
    }
    fprintf(f, "end %zu\n", count);
    fflush(f);
    return ferror(f) ? -EIO : 0;
}

void sweep_shard_free(sweep_shard *sh)
{
    if (!sh)
        return;
    free(sh->scenario);
    for (size_t i = 0; i < sh->n_args; i++)
        free(sh->args[i]);
    free(sh->args);
    free(sh->task);
    free(sh->res);
    memset(sh, 0, sizeof *sh);
}

/* Decode TEXT (percent-encoded) into a new string; NULL when malformed
 * (a bad %XX, an encoded NUL) or out of memory (*nomem set). */
static char *get_text(const char *t, int *nomem)
{
    size_t n = strlen(t);
    char *out = malloc(n + 1), *o = out;
    if (!out) {
        *nomem = 1;
        return NULL;
    }
    for (const char *q = t; *q; q++) {
        unsigned v;
        if (*q != '%') {
            *o++ = *q;
            continue;
        }
        if (sscanf(q + 1, "%2X", &v) != 1 || !q[1] || !q[2] || v == 0) {
            free(out);
            return NULL;
        }
        *o++ = (char)v;
        q += 2;
    }
    *o = '\0';
    return out;
}


/* A whole unsigned number of at most 15 digits from *q (advanced past it
 * and one space or the end); -1 when none. */
static long long number(char **q)
{
    char *e;
    if (**q < '0' || **q > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(*q, &e, 10);
    if (errno || e - *q > 15 || (*e && *e != ' '))
        return -1;
    *q = *e ? e + 1 : e;
    return (long long)v;
}

/* One "r TASK V..." line (after "r ") into row k of sh. 0 or -1. */
static int read_row(sweep_shard *sh, size_t k, char *q)
{
    long long t = number(&q);
    size_t per = sh->n_testers * SWEEP_N_METRICS;
    if (t < 0 || (size_t)t >= sh->n_tasks || (k > 0 && (size_t)t <= sh->task[k - 1]))
        return -1;
    sh->task[k] = (size_t)t;
    for (size_t i = 0; i < per; i++) {
        char *e;
        errno = 0;
        double v = strtod(q, &e);
        if (e == q || errno || (*e && *e != ' ') || (*e == ' ' && i + 1 == per) || v != v)
            return -1;
        sh->res[k * per + i] = v;
        q = *e ? e + 1 : e;
    }
    return *q ? -1 : 0;
}

/* Add an arg to sh. 0 or -ENOMEM. */
static int add_arg(sweep_shard *sh, char *a)
{
    char **n = realloc(sh->args, (sh->n_args + 1) * sizeof *n);
    if (!n) {
        free(a);
        return -ENOMEM;
    }
    sh->args = n;
    sh->args[sh->n_args++] = a;
    return 0;
}

int sweep_shard_read(sweep_shard *out, const char *path, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? textin_fail(err, errlen, -ENOENT, "%s: no such file", path)
                               : textin_fail(err, errlen, -EINVAL, "%s: cannot read: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0, lineno = 0, rows = 0, max_rows = 0;
    int rc = 0, nomem = 0, seen_sweep = 0, ended = 0, have[4] = {0};
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len == 0 || line[len - 1] != '\n') {
            rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: the last line is cut (no line end): the file is truncated",
                      path, lineno);
            break;
        }
        line[len - 1] = '\0';
        if (ended) {
            rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: a line after the end line", path, lineno);
            break;
        }
        char *q;
        if (lineno == 1) {
            int fmt;
            char tail;
            if (sscanf(line, "cosim-sweep-shard %d%c", &fmt, &tail) != 1)
                rc = textin_fail(err, errlen, -EINVAL, "%s:1: not a sweep.shard (it does not begin with cosim-sweep-shard)",
                          path);
            else if (fmt != SWEEP_SHARD_FORMAT)
                rc = textin_fail(err, errlen, -EPROTONOSUPPORT,
                          "%s:1: sweep.shard format %d; this cosim (%s) reads format %d", path, fmt, COSIM_VERSION,
                          SWEEP_SHARD_FORMAT);
        } else if (strncmp(line, "cosim ", 6) == 0 && !have[0] && strlen(line + 6) < sizeof out->version &&
                   line[6]) {
            snprintf(out->version, sizeof out->version, "%s", line + 6);
            have[0] = 1;
        } else if (strncmp(line, "shard ", 6) == 0 && !have[1]) {
            q = line + 6;
            long long k = number(&q), n = number(&q);
            if (k < 0 || n < 2 || k >= n || n > 1000000 || *q)
                rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: a bad shard line", path, lineno);
            out->shard = (unsigned)k;
            out->n_shards = (unsigned)n;
            have[1] = 1;
        } else if (strncmp(line, "scenario ", 9) == 0 && !out->scenario) {
            if (!(out->scenario = get_text(line + 9, &nomem)) && !nomem)
                rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: a bad scenario line", path, lineno);
        } else if (sscanf(line, "scenario-bytes %" SCNu64, &out->scenario_bytes) == 1 && !have[2]) {
            have[2] = 1;
        } else if (strncmp(line, "scenario-fnv1a64 ", 17) == 0 && strlen(line) == 17 + 16 && !have[3] &&
                   strspn(line + 17, "0123456789abcdef") == 16) {
            out->scenario_hash = strtoull(line + 17, NULL, 16);
            have[3] = 1;
        } else if (strncmp(line, "arg ", 4) == 0 && !seen_sweep) {
            char *a = get_text(line + 4, &nomem);
            if (a)
                rc = add_arg(out, a);
            else if (!nomem)
                rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: a bad arg line", path, lineno);
        } else if (strncmp(line, "sweep ", 6) == 0 && !seen_sweep) {
            q = line + 6;
            long long np = number(&q), nr = number(&q), nt = number(&q), nm = number(&q);
            if (np < 1 || nr < 1 || nt < 1 || nm != SWEEP_N_METRICS || *q || np > SWEEP_MAX_POINTS ||
                nr > 10000 || nt > 1000) {
                rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: a bad sweep line", path, lineno);
                break;
            }
            seen_sweep = 1;
            out->n_points = (size_t)np;
            out->reps = (size_t)nr;
            out->n_tasks = out->n_points * out->reps;
            out->n_testers = (size_t)nt;
            /* the shard's tasks: every replication of its points */
            max_rows = out->n_shards ? ((out->n_points + out->n_shards - 1) / out->n_shards) * out->reps : 0;
            out->task = malloc((max_rows ? max_rows : 1) * sizeof *out->task);
            out->res = malloc((max_rows ? max_rows : 1) * out->n_testers * SWEEP_N_METRICS * sizeof *out->res);
            nomem = !out->task || !out->res;
        } else if (strncmp(line, "r ", 2) == 0 && seen_sweep) {
            if (rows == max_rows || read_row(out, rows, line + 2))
                rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: a damaged result line", path, lineno);
            rows++;
        } else if (strncmp(line, "end ", 4) == 0 && seen_sweep) {
            q = line + 4;
            long long n = number(&q);
            if (n < 0 || (size_t)n != rows || *q)
                rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: the end line counts %s results, the file holds %zu", path,
                          lineno, line + 4, rows);
            ended = 1;
        } else {
            rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: an unexpected line", path, lineno);
        }
        if (nomem)
            rc = textin_fail(err, errlen, -ENOMEM, "%s: out of memory", path);
    }
    free(line);
    int bad_read = ferror(f);
    fclose(f);
    if (rc == 0 && bad_read)
        rc = textin_fail(err, errlen, -EINVAL, "%s: cannot read", path);
    if (rc == 0 && lineno == 0)
        rc = textin_fail(err, errlen, -EINVAL, "%s: empty: the file is truncated", path);
    if (rc == 0 && (!ended || !seen_sweep || !have[0] || !have[1] || !have[2] || !have[3] || !out->scenario))
        rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: no end line: the file is truncated (a shard cut short, or a copy "
                  "that did not finish)", path, lineno);
    out->n_res = rows;
    return rc;
}
