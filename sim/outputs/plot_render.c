/* plot_render.c - running gnuplot: one chart (plot_render), or several in a
 * few gnuplot processes at once (plot_render_batch). */
#define _GNU_SOURCE
#include "plot.h"
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* gnuplot's stderr, copied to ours a line at a time, each line marked
 * "cosim: gnuplot: ". Blank lines are dropped, and so is the gif
 * terminal's "N frames in animation sequence", which it prints on every
 * --animate run and which reads like a problem. A line longer than the
 * buffer is copied in pieces. */
typedef struct relay {
    char line[256];
    size_t len;
    int continued; /* the line's start was copied already */
} relay;

static void relay_emit(relay *r, int whole)
{
    int frames, end = -1;
    r->line[r->len] = '\0';
    if (whole && !r->continued && r->len > 0)
        sscanf(r->line, "%d frames in animation sequence%n", &frames, &end);
    int noise = whole && !r->continued && (r->len == 0 || end == (int)r->len);
    if (!noise) {
        fprintf(stderr, "%s%s%s", r->continued ? "" : "cosim: gnuplot: ", r->line, whole ? "\n" : "");
    }
    r->continued = !whole;
    r->len = 0;
}

static void relay_stderr(const char *buf, size_t n, relay *r)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            relay_emit(r, 1);
            continue;
        }
        if (r->len == sizeof r->line - 1)
            relay_emit(r, 0);
        r->line[r->len++] = buf[i];
    }
}

/* The last line, if gnuplot's stderr did not end with a newline. */
static void relay_end(relay *r)
{
    if (r->len || r->continued)
        relay_emit(r, 1);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Where one pipe from gnuplot goes: a chart's bytes (buf, at most
 * PLOT_MAX_CHART_BYTES), or its stderr, relayed at once (relay) or kept in
 * buf to relay later. fd -1: closed. */
typedef struct sink {
    int fd;
    int is_err, relay;
    char *buf;
    size_t n, cap;
} sink;

/* Append got bytes to s->buf; a chart's buffer grows by doubling from
 * 64 KiB. 0, or -1 past PLOT_MAX_CHART_BYTES (a chart) or out of memory. */
static int sink_room(sink *s, size_t want)
{
    if (s->cap - s->n >= want)
        return 0;
    size_t ncap = s->cap ? 2 * s->cap : 65536;
    while (ncap - s->n < want)
        ncap *= 2;
    char *m = (!s->is_err && ncap > PLOT_MAX_CHART_BYTES) ? NULL : realloc(s->buf, ncap);
    if (!m)
        return -1;
    s->buf = m;
    s->cap = ncap;
    return 0;
}

/* Read every open sink until all are closed (0), the deadline passes (1),
 * or a chart passes PLOT_MAX_CHART_BYTES (2). */
static int pump(sink *sk, size_t ns, double deadline, relay *rl)
{
    struct pollfd pf[PLOT_BATCH_MAX + 2];
    size_t open_fds = 0;
    for (size_t i = 0; i < ns; i++)
        open_fds += sk[i].fd >= 0;
    while (open_fds > 0) {
        double left = deadline - mono_s();
        if (left <= 0)
            return 1;
        for (size_t i = 0; i < ns; i++)
            pf[i] = (struct pollfd){sk[i].fd, POLLIN, 0}; /* fd -1: skipped by poll */
        int r = poll(pf, (nfds_t)ns, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR)
            return 0;
        for (size_t i = 0; r > 0 && i < ns; i++) {
            if (!pf[i].revents || sk[i].fd < 0)
                continue;
            char e[1024];
            ssize_t got;
            if (sk[i].relay)
                got = read(sk[i].fd, e, sizeof e);
            else if (sink_room(&sk[i], sk[i].is_err ? 1024 : 1) != 0)
                return 2;
            else
                got = read(sk[i].fd, sk[i].buf + sk[i].n, sk[i].cap - sk[i].n);
            if (got > 0 && sk[i].relay)
                relay_stderr(e, (size_t)got, rl);
            else if (got > 0)
                sk[i].n += (size_t)got;
            else if (got == 0 || errno != EINTR) {
                close(sk[i].fd);
                sk[i].fd = -1;
                open_fds--;
            }
        }
    }
    return 0;
}

/* The gnuplot runs under way, each the leader of its own process group
 * (0: a free slot), in the process that started them: a signal to cosim
 * kills the groups (outdir's signal hook), so what gnuplot started (a
 * style's system("..."), a pipe) goes with it. */
static volatile pid_t running[PLOT_BATCH_MAX];
static volatile pid_t running_owner;

/* The signal hook: SIGKILL to every group under way. System calls only. */
static void kill_running(void)
{
    if (getpid() != running_owner)
        return; /* a forked child's copy of the table */
    for (size_t i = 0; i < PLOT_BATCH_MAX; i++)
        if (running[i] > 0)
            kill(-running[i], SIGKILL);
}

/* Note (on 1) or forget (on 0) group pid in the table. */
static void note_running(pid_t pid, int on)
{
    if (on && running_owner != getpid()) {
        for (size_t i = 0; i < PLOT_BATCH_MAX; i++)
            running[i] = 0;
        running_owner = getpid();
        outdir_set_signal_hook(kill_running);
    }
    for (size_t i = 0; i < PLOT_BATCH_MAX; i++)
        if (on ? running[i] == 0 : running[i] == pid) {
            running[i] = on ? pid : 0;
            return;
        }
}

/* Start "gnuplot ARGV..." in dirfd: standard input from /dev/null, chart j
 * written to fd first_fd + j (outw[j]; first_fd 1: standard output), stderr
 * to errw; killed when cosim dies (PR_SET_PDEATHSIG). It leads a process
 * group of its own, noted in `running` until reaped (signals held off from
 * the fork to the note). Its pid, or -1 with *err = errno. */
static pid_t spawn(int dirfd, char *const argv[], const int *outw, size_t nout, int first_fd, int errw, int *err)
{
    fflush(NULL);
    pid_t parent = getpid();
    sigset_t old;
    outdir_block_signals(&old);
    pid_t pid = fork();
    if (pid < 0)
        *err = errno;
    if (pid > 0) {
        setpgid(pid, pid); /* as the child does: whichever runs first */
        note_running(pid, 1);
    }
    if (pid != 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        return pid;
    }
    setpgid(0, 0);
    sigprocmask(SIG_SETMASK, &old, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(126);
    int in = open("/dev/null", O_RDWR);
    int keep[PLOT_BATCH_MAX + 1]; /* above every fd taken below, closed on exec */
    for (size_t j = 0; j <= nout; j++)
        if ((keep[j] = fcntl(j < nout ? outw[j] : errw, F_DUPFD_CLOEXEC, 64)) < 0)
            _exit(126);
    if (in < 0 || fchdir(dirfd) != 0 || dup2(in, 0) < 0 || (first_fd != 1 && dup2(in, 1) < 0) ||
        dup2(keep[nout], 2) < 0)
        _exit(126);
    for (size_t j = 0; j < nout; j++)
        if (dup2(keep[j], first_fd + (int)j) < 0)
            _exit(126);
    execvp("gnuplot", argv);
    _exit(errno == ENOENT ? 127 : 126);
}

/* Wait for pid until it ends or the deadline passes (not at all if
 * kill_now), then kill its process group (what gnuplot started and left,
 * or gnuplot and all it started when late: *timed_out set) and reap it. It
 * is waited for without reaping first (WNOWAIT), so the group's id cannot
 * be another process's when it is killed. Its wait status. */
static int reap(pid_t pid, double deadline, int kill_now, int *timed_out)
{
    int ws = 0;
    while (!kill_now) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (si.si_pid == pid)
            break;
        if (mono_s() >= deadline) {
            *timed_out = 1;
            break;
        }
        usleep(10000);
    }
    kill(-pid, SIGKILL);
    note_running(pid, 0);
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    return ws;
}

/* Two O_CLOEXEC pipes' ends per sink (read end into sk[i].fd, write end
 * into w[i]). 0, or errno with every pipe closed. */
static int open_pipes(sink *sk, int *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) {
            int e = errno;
            for (size_t k = 0; k < i; k++) {
                close(sk[k].fd);
                close(w[k]);
                sk[k].fd = -1;
            }
            return e;
        }
        sk[i].fd = p[0];
        w[i] = p[1];
    }
    return 0;
}

/* gnuplot's outcome for a chart of len bytes in buf: the status, buf kept
 * in *chart on PLOT_RENDERED, freed otherwise. */
static plot_render_status outcome(int ws, int timed_out, int too_big, char *buf, size_t n, plot_format format,
                                  char **chart, size_t *len, int *status)
{
    if (timed_out || too_big) {
        free(buf);
        return timed_out ? PLOT_TIMEOUT : PLOT_TOO_BIG;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        free(buf);
        if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
            return PLOT_NO_GNUPLOT;
        *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
        return PLOT_FAILED;
    }
    *len = n;
    if (plot_chart_complete(buf, n, format) != 0) {
        free(buf);
        return PLOT_INCOMPLETE;
    }
    if (format == PLOT_PDF)
        plot_pdf_clear_date(buf, n);
    *chart = buf;
    return PLOT_RENDERED;
}

plot_render_status plot_render(int dirfd, const char *script, plot_format format, unsigned timeout_s,
                               char **chart, size_t *len, int *status)
{
    *chart = NULL;
    *len = 0;
    *status = 0;
    sink sk[2] = {{-1, 0, 0, NULL, 0, 0}, {-1, 1, 1, NULL, 0, 0}};
    int w[2] = {-1, -1};
    if ((*status = open_pipes(sk, w, 2)) != 0)
        return PLOT_FAILED;
    char *argv[] = {"gnuplot", "-d", "-e", "outfile='/dev/stdout'", (char *)script, NULL};
    pid_t pid = spawn(dirfd, argv, &w[0], 1, 1, w[1], status);
    close(w[0]);
    close(w[1]);
    if (pid < 0) {
        close(sk[0].fd);
        close(sk[1].fd);
        return PLOT_FAILED;
    }
    relay rl = {0};
    int timed_out = 0;
    double deadline = mono_s() + timeout_s;
    int pumped = pump(sk, 2, deadline, &rl);
    relay_end(&rl);
    timed_out = pumped == 1;
    /* both pipes closed: gnuplot is ending; give it until the deadline */
    int ws = reap(pid, deadline, pumped != 0, &timed_out);
    for (int i = 0; i < 2; i++)
        if (sk[i].fd >= 0)
            close(sk[i].fd);
    return outcome(ws, timed_out, pumped == 2, sk[0].buf, sk[0].n, format, chart, len, status);
}

/* One gnuplot process of a batch: charts first..first+n-1, each on a pipe
 * sink, and its stderr kept in the last sink. */
typedef struct batch_proc {
    pid_t pid;
    size_t first, n;
} batch_proc;

/* Start process p for jobs[p->first..]: "gnuplot -d", then per chart
 * -e 'reset session' -e "outfile='/dev/fd/N'" SCRIPT, so each script sees
 * only its own settings and writes its chart to its own pipe. 0 or errno. */
static int batch_spawn(int dirfd, plot_job *jobs, batch_proc *p, sink *sk, char outs[][32])
{
    int w[PLOT_BATCH_MAX + 1] = {0};
    int e = open_pipes(sk, w, p->n + 1);
    if (e)
        return e;
    char *argv[3 + 5 * PLOT_BATCH_MAX];
    size_t a = 0;
    argv[a++] = "gnuplot";
    argv[a++] = "-d";
    for (size_t j = 0; j < p->n; j++) {
        snprintf(outs[j], 32, "outfile='/dev/fd/%d'", 3 + (int)j);
        argv[a++] = "-e";
        argv[a++] = "reset session";
        argv[a++] = "-e";
        argv[a++] = outs[j];
        argv[a++] = (char *)jobs[p->first + j].script;
    }
    argv[a] = NULL;
    sk[p->n].is_err = 1;
    p->pid = spawn(dirfd, argv, w, p->n, 3, w[p->n], &e);
    for (size_t j = 0; j <= p->n; j++)
        close(w[j]);
    if (p->pid < 0)
        for (size_t j = 0; j <= p->n; j++) {
            close(sk[j].fd);
            sk[j].fd = -1;
        }
    return p->pid < 0 ? e : 0;
}

/* Whether process p (its sinks from sk) gave every chart complete, given
 * its wait status. */
static int batch_ok(const plot_job *jobs, const batch_proc *p, const sink *sk, int ws)
{
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        return 0;
    for (size_t j = 0; j < p->n; j++)
        if (plot_chart_complete(sk[j].buf, sk[j].n, jobs[p->first + j].format) != 0)
            return 0;
    return 1;
}

/* Hand process p's charts to its jobs (or free them if failed), relay its
 * kept stderr if not failed; close its pipes. */
static void batch_collect(plot_job *jobs, const batch_proc *p, sink *sk, int failed, relay *rl)
{
    for (size_t j = 0; j <= p->n; j++) {
        if (sk[j].fd >= 0)
            close(sk[j].fd);
        if (j == p->n || failed) {
            if (j == p->n && !failed)
                relay_stderr(sk[j].buf, sk[j].n, rl);
            free(sk[j].buf);
            continue;
        }
        plot_job *jb = &jobs[p->first + j];
        if (jb->format == PLOT_PDF)
            plot_pdf_clear_date(sk[j].buf, sk[j].n);
        jb->st = PLOT_RENDERED;
        jb->chart = sk[j].buf;
        jb->len = sk[j].n;
    }
}

/* Render the batch in procs processes at once, process g taking the charts
 * g*n/procs up to (g+1)*n/procs; each process may take its charts' timeouts
 * added up. 0 if every chart was rendered (the stderr relayed process by
 * process, so in chart order), -1 if not (nothing relayed, nothing kept). */
static int batch_try(int dirfd, plot_job *jobs, size_t n, size_t procs, unsigned timeout_s)
{
    batch_proc p[PLOT_BATCH_MAX];
    sink sk[2 * PLOT_BATCH_MAX];
    size_t s0[PLOT_BATCH_MAX];
    char outs[PLOT_BATCH_MAX][32];
    size_t ns = 0, most = 0;
    int failed = 0;
    for (size_t i = 0; i < 2 * PLOT_BATCH_MAX; i++)
        sk[i] = (sink){-1, 0, 0, NULL, 0, 0};
    for (size_t g = 0; g < procs; g++) {
        p[g] = (batch_proc){-1, g * n / procs, (g + 1) * n / procs - g * n / procs};
        most = p[g].n > most ? p[g].n : most;
        s0[g] = ns;
        if (!failed && batch_spawn(dirfd, jobs, &p[g], &sk[ns], outs + p[g].first) != 0)
            failed = 1;
        ns += p[g].n + 1;
    }
    relay rl = {0};
    int timed_out = 0;
    double deadline = mono_s() + (double)timeout_s * (double)most;
    int pumped = failed ? 3 : pump(sk, ns, deadline, &rl);
    for (size_t g = 0; g < procs; g++) {
        if (p[g].pid <= 0)
            continue;
        int ws = reap(p[g].pid, deadline, pumped != 0, &timed_out);
        failed |= timed_out || pumped != 0 || !batch_ok(jobs, &p[g], &sk[s0[g]], ws);
    }
    for (size_t g = 0; g < procs; g++)
        batch_collect(jobs, &p[g], &sk[s0[g]], failed, &rl);
    relay_end(&rl);
    return failed ? -1 : 0;
}

void plot_render_batch(int dirfd, plot_job *jobs, size_t n, size_t procs, unsigned timeout_s)
{
    for (size_t k = 0; k < n; k++) {
        jobs[k].st = PLOT_NOT_RUN;
        jobs[k].chart = NULL;
        jobs[k].len = 0;
        jobs[k].status = 0;
    }
    procs = procs < 1 ? 1 : procs > n ? n : procs;
    if (n >= 2 && n <= PLOT_BATCH_MAX && batch_try(dirfd, jobs, n, procs, timeout_s) == 0)
        return;
    /* one chart, or a batch that failed: chart by chart, as plot_render
     * says, up to the first that fails for another reason than a missing
     * gnuplot (the batch's partial charts and messages are dropped) */
    for (size_t k = 0; k < n; k++) {
        free(jobs[k].chart);
        jobs[k].chart = NULL;
    }
    for (size_t k = 0; k < n; k++) {
        plot_job *j = &jobs[k];
        j->st = plot_render(dirfd, j->script, j->format, timeout_s, &j->chart, &j->len, &j->status);
        if (j->st != PLOT_RENDERED && j->st != PLOT_NO_GNUPLOT)
            break;
    }
}
