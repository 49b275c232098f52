/* sweep_workers.c - a sweep's tasks on worker processes. The tasks are
 * handed out from one queue in shared memory (a counter each worker takes
 * the next task from), so a worker that drew short points takes more of
 * them; every result line names its task, and the parent puts it back in
 * task order, so the results do not depend on the workers or their pace. */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"
#include "exitcode.h"
#include "hist.h"
#include "levels.h"
#include "run.h"
#include "scenario.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Run task t and print its result lines: "t i m0 m1 ... m7", or
 * "t ECODE msg": the task failed with exit code CODE (exitcode.h), worked
 * out here where the failure is known: sweep_load_failure's for a scenario
 * that did not load, COSIM_EXIT_SIM for a run that failed. The parent
 * takes the code from the line as it is, never from the message. */
static void run_task(const sweep *w, size_t t, FILE *f)
{
    char err[1024];
    scenario *s;
    scenario_error se = sweep_load_task(w, t, &s, err, sizeof err);
    if (se != SCENARIO_OK) {
        char msg[1600];
        int from_vary, code = sweep_load_failure(w, t, se, err, msg, sizeof msg, &from_vary);
        fprintf(f, "%zu E%d %.1500s\n", t, code, msg);
        return;
    }
    run_result r;
    if (run_scenario(s, &r, err, sizeof err)) {
        fprintf(f, "%zu E%d %.1000s\n", t, COSIM_EXIT_SIM, err);
        scenario_free(s);
        return;
    }
    for (size_t i = 0; i < r.n; i++) {
        const hist *h = r.testers[i].hist;
        fprintf(f, "%zu %zu %llu %llu %.3f", t, i, (unsigned long long)r.testers[i].sent,
                (unsigned long long)hist_count(h), hist_mean(h));
        for (size_t k = 0; k < levels_count(LEVELS_SWEEP); k++)
            fprintf(f, " %lld", (long long)levels_value(h, s->rank_rule, levels_nth(LEVELS_SWEEP, k)));
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

/* The task queue, shared by the parent and the workers (MAP_SHARED):
 * next is the next task to hand out; held[j] the task worker j has taken
 * and not finished (SIZE_MAX: none). */
typedef struct task_queue {
    atomic_size_t next;
    atomic_size_t held[];
} task_queue;

/* One worker as the parent sees it. */
typedef struct worker {
    pid_t pid;       /* 0 once reaped */
    int fd;          /* its pipe, -1 once closed */
    char buf[4096];  /* the start of a line not yet complete */
    size_t len;
} worker;

/* The parent's view of the workers of one sweep. */
typedef struct pool {
    sweep *w;
    task_queue *q;
    size_t q_bytes;
    worker *wk;
    struct pollfd *pf;
    unsigned jobs, started, open_fds;
    unsigned char *done;          /* [task]: its result is in */
    size_t tasks_done, tasks_todo;
    double work_done, work_todo;  /* the estimated work (w->work) */
    int failed;                   /* the exit status of the first failure, 0: none */
    char *err;
    size_t errlen;
} pool;

/* The body of worker j: take the next task of the shard from the queue,
 * run it and write its lines to fd, until the queue is empty. It dies with
 * the parent (PR_SET_PDEATHSIG), and checks that the parent did not die
 * before that was set. */
static void worker_main(const sweep *w, task_queue *q, unsigned j, int fd, pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(1);
    FILE *out = fdopen(fd, "w");
    for (size_t t; out && (t = atomic_fetch_add(&q->next, 1)) < w->n_tasks;)
        if (task_in_shard(w, t)) {
            atomic_store(&q->held[j], t);
            run_task(w, t, out);
            if (fflush(out) != 0)
                _exit(1);
        }
    _exit(out && fclose(out) == 0 ? 0 : 1);
}

/* Fork the workers, each with its pipe. On a failure the ones started run
 * on (the caller stops them). */
static void start_workers(pool *pl)
{
    pid_t parent = getpid();
    for (unsigned j = 0; j < pl->jobs; j++) {
        int p[2];
        if (pipe(p) != 0) {
            snprintf(pl->err, pl->errlen, "cannot start the jobs: %s", strerror(errno));
            pl->failed = COSIM_EXIT_SIM;
            return;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(pl->err, pl->errlen, "cannot start the jobs: %s", strerror(errno));
            close(p[0]);
            close(p[1]);
            pl->failed = COSIM_EXIT_SIM;
            return;
        }
        if (pid == 0) {
            close(p[0]);
            for (unsigned k = 0; k < j; k++) /* the other workers' pipes */
                close(pl->wk[k].fd);
            worker_main(pl->w, pl->q, j, p[1], parent);
        }
        close(p[1]);
        pl->wk[j].pid = pid;
        pl->wk[j].fd = p[0];
        pl->started = pl->open_fds = j + 1;
    }
}

/* Worker j closed its pipe: it ended. Reap it; a failure if it did not
 * end well or left the task it held without a result. */
static void worker_ended(pool *pl, unsigned j)
{
    worker *x = &pl->wk[j];
    close(x->fd);
    x->fd = -1;
    pl->open_fds--;
    int st = 0;
    pid_t pid = x->pid;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    x->pid = 0;
    size_t held = atomic_load(&pl->q->held[j]);
    size_t missing = held != SIZE_MAX && !pl->done[held];
    if (missing || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (WIFSIGNALED(st))
            snprintf(pl->err, pl->errlen, "job pid %ld was killed by signal %d (%s)", (long)pid, WTERMSIG(st),
                     strsignal(WTERMSIG(st)));
        else
            snprintf(pl->err, pl->errlen, "job pid %ld ended with status %d before its last %zu run%s",
                     (long)pid, WIFEXITED(st) ? WEXITSTATUS(st) : -1, missing, missing == 1 ? "" : "s");
        pl->failed = COSIM_EXIT_SIM;
    }
}

/* One complete result line: a tester's figures into w->res (the task done
 * with its last tester), or a task's error, which fails the sweep. */
static void take_line(pool *pl, const char *line)
{
    sweep *w = pl->w;
    size_t t, i;
    int used = 0;
    if (sscanf(line, "%zu %n", &t, &used) != 1 || t >= w->n_tasks)
        return;
    int code, at = 0;
    if (line[used] == 'E') {
        if (sscanf(line + used, "E%d %n", &code, &at) != 1 || at == 0 || code <= COSIM_EXIT_OK ||
            code > COSIM_EXIT_SIM)
            code = COSIM_EXIT_SIM, at = 0; /* not a line a worker writes: the worker failed */
        size_t p = t / w->reps, idx[SWEEP_MAX_AXES];
        sweep_point_values(w, p, idx);
        char where[600] = "";
        for (size_t a = 0; a < w->n_axes; a++)
            snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s=%s", a ? ", " : "",
                     w->axes[a].key, w->axes[a].values[idx[a]]);
        snprintf(pl->err, pl->errlen, "point %zu (%s), replication %zu: %s", p, where, t % w->reps,
                 at ? line + used + at : "a job wrote a result line cosim cannot read");
        pl->failed = code;
        return;
    }
    double m[SWEEP_N_METRICS];
    if (sscanf(line, "%zu %zu %lf %lf %lf %lf %lf %lf %lf %lf", &t, &i, &m[0], &m[1], &m[2], &m[3], &m[4], &m[5],
               &m[6], &m[7]) != 10 || i >= w->n_testers)
        return;
    memcpy(&w->res[(t * w->n_testers + i) * SWEEP_N_METRICS], m, sizeof m);
    if (i + 1 == w->n_testers && !pl->done[t]) {
        pl->done[t] = 1;
        pl->tasks_done++;
        pl->work_done += w->work[t / w->reps];
    }
}

/* Read what worker j wrote and take its complete lines. */
static void read_worker(pool *pl, unsigned j)
{
    worker *x = &pl->wk[j];
    ssize_t got = read(x->fd, x->buf + x->len, sizeof x->buf - 1 - x->len);
    if (got < 0 && errno == EINTR)
        return;
    if (got <= 0) {
        worker_ended(pl, j);
        return;
    }
    x->len += (size_t)got;
    x->buf[x->len] = '\0';
    char *line = x->buf, *nl;
    while (!pl->failed && (nl = strchr(line, '\n'))) {
        *nl = '\0';
        take_line(pl, line);
        line = nl + 1;
    }
    /* keep the incomplete line; one longer than the buffer is an error */
    x->len = strlen(line);
    memmove(x->buf, line, x->len + 1);
    if (!pl->failed && x->len >= sizeof x->buf - 1) {
        snprintf(pl->err, pl->errlen, "job pid %ld wrote a line longer than %zu bytes", (long)x->pid,
                 sizeof x->buf);
        pl->failed = COSIM_EXIT_SIM;
    }
}

/* Read the workers until every pipe is closed or a failure, with progress
 * on a terminal: the runs done and the time left over the whole sweep,
 * from the estimated work. */
static void gather(pool *pl)
{
    double start = now_s(), last = start;
    int tty = isatty(2), printed = 0;
    while (pl->open_fds > 0 && !pl->failed) {
        for (unsigned j = 0; j < pl->started; j++) {
            pl->pf[j].fd = pl->wk[j].fd;
            pl->pf[j].events = POLLIN;
            pl->pf[j].revents = 0;
        }
        if (poll(pl->pf, pl->started, 1000) < 0 && errno != EINTR) {
            snprintf(pl->err, pl->errlen, "cannot read the jobs: %s", strerror(errno));
            pl->failed = COSIM_EXIT_SIM;
            break;
        }
        for (unsigned j = 0; j < pl->started && !pl->failed; j++)
            if (pl->wk[j].fd >= 0 && (pl->pf[j].revents & (POLLIN | POLLHUP | POLLERR)))
                read_worker(pl, j);
        double nw = now_s();
        if (tty && nw - start > 1 && nw - last > 0.5 && pl->work_done > 0 && pl->work_todo > 0) {
            double share = pl->work_done < pl->work_todo ? pl->work_done / pl->work_todo : 1;
            char left[32];
            int n = fprintf(stderr, "\rcosim: sweep %zu/%zu runs, %3.0f%% of the work, about %s left   ",
                            pl->tasks_done, pl->tasks_todo, share * 100,
                            run_format_time_left(nw - start, share, left, sizeof left));
            if (n > printed)
                printed = n;
            last = nw;
        }
    }
    if (printed)
        fprintf(stderr, "\r%*s\r", printed, "");
}

/* Stop every worker still running (the first failure stops the rest) and
 * reap it; a worker that fails here fails the sweep. */
static void stop_workers(pool *pl)
{
    for (unsigned j = 0; j < pl->started; j++) {
        worker *x = &pl->wk[j];
        if (x->pid > 0) {
            if (pl->failed)
                kill(x->pid, SIGKILL);
            int st;
            while (waitpid(x->pid, &st, 0) < 0 && errno == EINTR)
                ;
            if (!pl->failed && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
                snprintf(pl->err, pl->errlen, "job pid %ld failed (status %d)", (long)x->pid,
                         WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
                pl->failed = COSIM_EXIT_SIM;
            }
        }
        if (x->fd >= 0)
            close(x->fd);
    }
}

/* The pool's memory: the workers, the done flags, the shared queue. 0 or
 * -1 (nothing to free but what pool_free frees). */
static int pool_new(pool *pl, sweep *w, char *err, size_t errlen)
{
    memset(pl, 0, sizeof *pl);
    pl->w = w;
    pl->jobs = w->jobs;
    pl->err = err;
    pl->errlen = errlen;
    pl->wk = calloc(pl->jobs, sizeof *pl->wk);
    pl->done = calloc(w->n_tasks, 1);
    pl->pf = calloc(pl->jobs, sizeof *pl->pf);
    pl->q_bytes = sizeof *pl->q + pl->jobs * sizeof pl->q->held[0];
    void *q = mmap(NULL, pl->q_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pl->q = q == MAP_FAILED ? NULL : q;
    if (!pl->wk || !pl->done || !pl->pf || !pl->q)
        return -1;
    atomic_init(&pl->q->next, 0);
    for (unsigned j = 0; j < pl->jobs; j++)
        atomic_init(&pl->q->held[j], SIZE_MAX);
    for (size_t t = 0; t < w->n_tasks; t++)
        if (task_in_shard(w, t)) {
            pl->work_todo += w->work[t / w->reps];
            pl->tasks_todo++;
        }
    return 0;
}

static void pool_free(pool *pl)
{
    if (pl->q)
        munmap(pl->q, pl->q_bytes);
    free(pl->pf);
    free(pl->wk);
    free(pl->done);
}

/* Fork the workers; collect their lines into w->res. The first failure (an
 * error line, or a worker that ends before its task is done) stops the
 * other workers at once, and the message names the points left without a
 * result. Returns 0, or the exit code with err: the error line's code
 * (COSIM_EXIT_USAGE: a --vary value, COSIM_EXIT_SCENARIO: the scenario,
 * COSIM_EXIT_SIM: a run), COSIM_EXIT_SIM when a worker failed. */
int sweep_run_workers(sweep *w, char *err, size_t errlen)
{
    pool pl;
    if (pool_new(&pl, w, err, errlen)) {
        pool_free(&pl);
        snprintf(err, errlen, "out of memory");
        return COSIM_EXIT_SIM;
    }
    start_workers(&pl);
    gather(&pl);
    stop_workers(&pl);
    if (pl.failed && pl.tasks_done < pl.tasks_todo) {
        char lost[512];
        lost_points(w, pl.done, lost, sizeof lost);
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, "\ncosim: sweep: stopped the other jobs; lost points (no result): %s",
                 lost);
    }
    int failed = pl.failed;
    pool_free(&pl);
    return failed;
}
