/* target.c - `cosim target SCENARIO.ini`: a real HTTP/1.1 keep-alive
 * server on 127.0.0.1 playing the scenario's server (target.h,
 * docs/real-tools.md).
 *
 * One thread, one poll loop (ppoll, nanosecond timeouts, the timer slack
 * set to 1 ns on Linux), the model held on the monotonic clock:
 * - a request is read whole (its head, and a body of Content-Length bytes,
 *   at most TARGET_REQUEST_MAX in all); it joins one FIFO queue; c virtual
 *   workers ([service] workers) take it in arrival order; its reply is due
 *   its drawn work after its start (the start is when the loop read it, or
 *   when the worker before it was due);
 * - the loop wakes at the earliest due reply, window start or end of run;
 *   the reply goes out then, and how late (written - due) is measured;
 * - a stop-the-world window: the due replies written first, then the
 *   process sleeps (ppoll with no descriptors, to the instant the loop
 *   saw it due plus the window's length, SIGINT and SIGTERM taken only
 *   there and in the loop's ppoll): it
 *   accepts, reads and writes nothing, as a process stopped for a GC;
 *   requests in service are due the window's real length later (resume).
 *   Its real start and end, as the clock read them, are the stall log.
 * One request at a time per connection (a pipelined one waits in the
 * buffer until the reply before it is out): replies stay in order.
 * Bounded: connections (--max-connections), a request's size, the run's
 * time (--duration from the first accepted connection; --wait for it).
 */
#define _GNU_SOURCE
#include "target.h"

#include "exitcode.h"
#include "scenario.h"
#include "target_plan.h"
#include "units.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/** The largest request (head and body) the target reads, bytes. */
#define TARGET_REQUEST_MAX 8192
/** Most connections at once: the --max-connections limit. */
#define TARGET_MAX_CONNECTIONS 4096
/** Reply lateness is counted in 1 us bins up to this many (10 ms). */
#define LATE_BINS 10000

enum conn_state { C_FREE = 0, C_READ, C_QUEUED, C_SERVICE, C_WRITE };

/* Descriptors the target needs besides its connections: the standard
 * streams, the listening socket, a `file` stall's data file, the stall
 * log, and a margin. */
#define TARGET_OTHER_FDS 16
/* After accept4 failed for want of a descriptor or memory: the listening
 * socket is polled again when a connection closes, or this long after. */
#define ACCEPT_RETRY_NS 10000000

/* --phase-period's bins (a 10 ms period: 50 us bins). */
#define PHASE_BINS 200

typedef struct conn {
    int fd;
    enum conn_state state;
    int keep;       /* keep the connection after this reply */
    int http10_keep; /* HTTP/1.0 with Connection: keep-alive */
    size_t in_len, req_len;
    int64_t due;    /* C_SERVICE: when its reply is due (ns, monotonic) */
    int64_t replied; /* when its last reply was written whole (0: none) */
    const char *out;
    size_t out_len, out_off;
    char in[TARGET_REQUEST_MAX];
} conn;

typedef struct opts {
    const char *scenario, *stall_log, *bind;
    unsigned port;
    int64_t duration_ns, wait_ns;
    int64_t phase_period_ns; /* --phase-period: 0, none */
    size_t max_conns;
    int fifo; /* --sched: 1 fifo (the default), 0 normal */
} opts;

typedef struct held {
    int64_t planned_start, planned_end, real_start, real_end; /* on the target's clock, ns */
} held;

typedef struct target {
    opts o;
    scenario *s;
    target_plan *plan;
    conn *c;
    size_t n_conns;          /* open */
    size_t *queue;           /* FIFO ring of connection indices */
    size_t q_head, q_len;
    uint64_t busy, workers;
    int lfd;
    int started;
    int64_t t0, t_end;
    size_t next_win;
    held *held;
    size_t n_held;
    uint64_t requests, replies, accepted, refused_requests;
    uint64_t late_bins[LATE_BINS + 1];
    long double late_sum;
    int64_t late_max;
    long double gap_sum;     /* reply out -> the next request in, same connection */
    uint64_t gaps;
    /* --phase-period P: the arrivals' phases a mod P in PHASE_BINS bins,
     * each bin's count and the sum of its arrivals' offsets into it */
    uint64_t phase_n[PHASE_BINS];
    int64_t phase_off[PHASE_BINS];
    int fifo; /* ran SCHED_FIFO */
    /* accept4 failed for want of a descriptor or memory (EMFILE, ENFILE,
     * ENOBUFS, ENOMEM): the listening socket, still readable, is not
     * polled until a connection closes or accept_retry_ns passes (polled,
     * it would wake the loop at once, forever: a busy loop, at a real-time
     * priority); how many times, the first error said on stderr */
    int64_t accept_retry_ns;
    uint64_t accept_failed;
} target;

static volatile sig_atomic_t stop_signal;
static sigset_t run_mask; /* the mask SIGINT and SIGTERM wait in: ppoll's, never between */

static void on_signal(int sig)
{
    stop_signal = sig;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void usage(FILE *f)
{
    fputs("usage: cosim target SCENARIO.ini [--port N] [--duration D] [--stall-log FILE]\n"
          "       [--max-connections N] [--wait D] [--bind 127.0.0.1] [--phase-period P]\n"
          "       [--sched fifo|normal]\n"
          "A real HTTP/1.1 keep-alive server on the loopback interface playing the scenario's server:\n"
          "its [service] times and workers (one FIFO queue), its stalls as stop-the-world windows on the\n"
          "clock of the first accepted connection (periodic, windows, file, gc_log; requests stalls as\n"
          "extra work). It stops by itself --duration (default the scenario's) after that connection,\n"
          "or --wait (default 60s) after starting if none comes. --stall-log FILE: the windows as held\n"
          "(start,length lines: a `kind = file` stall). --port 0 picks a free port; the port is printed.\n"
          "--phase-period P: where the densest arrivals fall modulo P (a paced tool's ticks against the\n"
          "windows: arrival_phase_ns in the summary).\n"
          "SIGINT or SIGTERM: the summary and the log of the run until then, then the end by the signal.\n"
          "--sched fifo (the default): the target runs SCHED_FIFO at the lowest real-time priority, so its\n"
          "timers preempt a load tool busy on the same cores (without the permission it says so and runs\n"
          "normal); --sched normal: the default scheduler.\n"
          "Only 127.0.0.0/8 is served. Exit codes as cosim's (man -l docs/cosim.1).\n", f);
}

static int parse_opts(opts *o, int argc, char **argv)
{
    static const struct option lo[] = {
        {"port", required_argument, NULL, 'p'},      {"duration", required_argument, NULL, 'd'},
        {"stall-log", required_argument, NULL, 'l'}, {"max-connections", required_argument, NULL, 'm'},
        {"wait", required_argument, NULL, 'w'},      {"bind", required_argument, NULL, 'b'},
        {"phase-period", required_argument, NULL, 'P'}, {"sched", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
    };
    *o = (opts){.bind = "127.0.0.1", .port = 8080, .wait_ns = 60000000000LL, .max_conns = 256, .fifo = 1};
    optind = 1;
    opterr = 0;
    int ch;
    const char *why;
    uint64_t v;
    while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (ch) {
        case 'p':
            if (units_parse_count(optarg, 65535, &v, &why) != 0) {
                fprintf(stderr, "cosim: --port %s: %s (0 to 65535)\n", optarg, why);
                return -1;
            }
            o->port = (unsigned)v;
            break;
        case 'm':
            if (units_parse_count(optarg, TARGET_MAX_CONNECTIONS, &v, &why) != 0 || v == 0) {
                fprintf(stderr, "cosim: --max-connections %s: 1 to %d\n", optarg, TARGET_MAX_CONNECTIONS);
                return -1;
            }
            o->max_conns = (size_t)v;
            break;
        case 'd':
        case 'w':
        case 'P': {
            int64_t ns = 0;
            const char *name = ch == 'd' ? "duration" : ch == 'w' ? "wait" : "phase-period";
            if (units_parse_duration(optarg, &ns, &why) != 0 || ns <= 0) {
                fprintf(stderr, "cosim: --%s %s: %s\n", name, optarg,
                        ns <= 0 ? "a positive duration with its unit (10s)" : why);
                return -1;
            }
            if (ch == 'P' && (ns > 1000000000 || ns < 1000)) {
                fprintf(stderr, "cosim: --phase-period %s: from 1us (its 200 bins at least 5 ns wide) to 1s (a "
                        "tool's tick)\n", optarg);
                return -1;
            }
            *(ch == 'd' ? &o->duration_ns : ch == 'w' ? &o->wait_ns : &o->phase_period_ns) = ns;
            break;
        }
        case 'l':
            o->stall_log = optarg;
            break;
        case 's':
            if (strcmp(optarg, "fifo") != 0 && strcmp(optarg, "normal") != 0) {
                fprintf(stderr, "cosim: --sched %s: fifo or normal\n", optarg);
                return -1;
            }
            o->fifo = strcmp(optarg, "fifo") == 0;
            break;
        case 'b':
            o->bind = optarg;
            break;
        case 'h':
            usage(stdout);
            return 1;
        default:
            fprintf(stderr, "cosim: unknown option or missing value: %s\n", argv[optind - 1]);
            fputs("cosim: try 'cosim target --help'\n", stderr);
            return -1;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "cosim: give one SCENARIO.ini\n");
        fputs("cosim: try 'cosim target --help'\n", stderr);
        return -1;
    }
    o->scenario = argv[optind];
    return 0;
}

/* The listening socket on o->bind (loopback only). @return fd, or -1 after
 * a message (*code set). */
static int listen_on(const opts *o, unsigned *port, int *code)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)o->port)};
    if (inet_pton(AF_INET, o->bind, &a.sin_addr) != 1 || (ntohl(a.sin_addr.s_addr) >> 24) != 127) {
        fprintf(stderr, "cosim: --bind %s: the target serves the loopback interface only (127.0.0.0/8, "
                "an IPv4 address such as 127.0.0.1)\n", o->bind);
        *code = COSIM_EXIT_USAGE;
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 1024) != 0) {
        fprintf(stderr, "cosim: %s:%u: %s\n", o->bind, o->port, strerror(errno));
        if (fd >= 0)
            close(fd);
        *code = COSIM_EXIT_OUTPUT;
        return -1;
    }
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    *port = ntohs(a.sin_port);
    return fd;
}

static const char reply_11[] = "HTTP/1.1 200 OK\r\nServer: cosim-target\r\nContent-Type: text/plain\r\n"
                               "Content-Length: 3\r\n\r\nok\n";
static const char reply_11_close[] = "HTTP/1.1 200 OK\r\nServer: cosim-target\r\nContent-Type: text/plain\r\n"
                                     "Content-Length: 3\r\nConnection: close\r\n\r\nok\n";
static const char reply_10_keep[] = "HTTP/1.1 200 OK\r\nServer: cosim-target\r\nContent-Type: text/plain\r\n"
                                    "Content-Length: 3\r\nConnection: keep-alive\r\n\r\nok\n";
static const char reply_400[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
static const char reply_413[] = "HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
static const char reply_501[] = "HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

/* A header's value when line (up to end) is "name: value", else NULL. */
static const char *header(const char *line, const char *end, const char *name)
{
    size_t n = strlen(name);
    if ((size_t)(end - line) <= n || strncasecmp(line, name, n) != 0 || line[n] != ':')
        return NULL;
    const char *v = line + n + 1;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    return v;
}

static int contains_word(const char *v, const char *end, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = v; p + n <= end; p++)
        if (strncasecmp(p, word, n) == 0)
            return 1;
    return 0;
}

/* Parse the request at the buffer's start. @return 1 whole (c->req_len,
 * c->keep set), 0 more bytes needed, or -1 with c->out set to the error
 * reply. */
static int parse_request(conn *c)
{
    char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) {
        if (c->in_len == sizeof c->in) {
            c->out = reply_413;
            return -1;
        }
        return 0;
    }
    const char *line_end = memchr(c->in, '\r', (size_t)(end - c->in) + 1);
    const char *sp1 = memchr(c->in, ' ', (size_t)(line_end - c->in));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(line_end - sp1 - 1)) : NULL;
    if (!sp1 || sp1 == c->in || !sp2 || line_end - sp2 != 9 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0 ||
        (sp2[8] != '0' && sp2[8] != '1')) {
        c->out = reply_400;
        return -1;
    }
    int http11 = sp2[8] == '1';
    int close_asked = 0, keep_asked = 0;
    uint64_t body = 0;
    for (const char *l = line_end + 2; l < end + 2;) {
        const char *e = memmem(l, (size_t)(end + 2 - l), "\r\n", 2);
        const char *v;
        if ((v = header(l, e, "connection"))) {
            close_asked |= contains_word(v, e, "close");
            keep_asked |= contains_word(v, e, "keep-alive");
        } else if ((v = header(l, e, "content-length"))) {
            body = 0;
            if (v == e) {
                c->out = reply_400;
                return -1;
            }
            for (; v < e; v++) {
                if (*v < '0' || *v > '9' || body > TARGET_REQUEST_MAX) {
                    c->out = *v < '0' || *v > '9' ? reply_400 : reply_413;
                    return -1;
                }
                body = body * 10 + (uint64_t)(*v - '0');
            }
        } else if (header(l, e, "transfer-encoding")) {
            c->out = reply_501;
            return -1;
        }
        l = e + 2;
    }
    size_t head = (size_t)(end + 4 - c->in);
    if (body > sizeof c->in - head) {
        c->out = reply_413;
        return -1;
    }
    if (c->in_len < head + body)
        return 0;
    c->req_len = head + (size_t)body;
    c->keep = http11 ? !close_asked : keep_asked;
    c->http10_keep = !http11 && keep_asked;
    return 1;
}

static void conn_close(target *t, size_t i)
{
    close(t->c[i].fd);
    t->c[i].state = C_FREE;
    t->c[i].fd = -1;
    t->n_conns--;
    t->accept_retry_ns = 0; /* a descriptor freed: accept again */
}

/* Start request of connection i on a worker at start_ns. */
static void start_service(target *t, size_t i, int64_t start_ns)
{
    int64_t work = target_plan_next_work(t->plan);
    t->c[i].state = C_SERVICE;
    t->c[i].due = start_ns > INT64_MAX - work ? INT64_MAX : start_ns + work;
    t->busy++;
}

/* A whole request arrived on connection i at now. */
static void arrive(target *t, size_t i, int64_t now)
{
    t->requests++;
    if (t->o.phase_period_ns) {
        int64_t ph = (now - t->t0) % t->o.phase_period_ns; /* now >= t0: a request comes after the first connection */
        size_t b = (size_t)(ph * PHASE_BINS / t->o.phase_period_ns); /* ph < P <= 10^15: no overflow */
        t->phase_n[b]++;
        t->phase_off[b] += ph - (int64_t)b * t->o.phase_period_ns / PHASE_BINS;
    }
    if (t->c[i].replied) { /* the client's own time, with the kernel's */
        t->gap_sum += (long double)(now - t->c[i].replied);
        t->gaps++;
    }
    if (t->busy < t->workers) {
        start_service(t, i, now);
        return;
    }
    t->c[i].state = C_QUEUED;
    t->queue[(t->q_head + t->q_len) % t->o.max_conns] = i;
    t->q_len++;
}

/* Write what is left of connection i's reply; close it when done and not
 * kept, or read its next request. */
static void flush_out(target *t, size_t i, int64_t now);

static void try_parse(target *t, size_t i, int64_t now)
{
    conn *c = &t->c[i];
    int r = parse_request(c);
    if (r == 0)
        return;
    if (r < 0) {
        t->refused_requests++;
        c->keep = 0;
        c->state = C_WRITE;
        c->out_len = strlen(c->out);
        c->out_off = 0;
        flush_out(t, i, now);
        return;
    }
    arrive(t, i, now);
}

static void flush_out(target *t, size_t i, int64_t now)
{
    conn *c = &t->c[i];
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return; /* POLLOUT */
        if (w <= 0) {
            conn_close(t, i);
            return;
        }
        c->out_off += (size_t)w;
    }
    if (!c->keep) {
        conn_close(t, i);
        return;
    }
    c->replied = now;
    memmove(c->in, c->in + c->req_len, c->in_len - c->req_len);
    c->in_len -= c->req_len;
    c->req_len = 0;
    c->state = C_READ;
    if (c->in_len)
        try_parse(t, i, now);
}

/* Write every reply due at or before now; the workers freed take the
 * queue's next requests at the instant they were freed. */
static void complete_due(target *t, int64_t now)
{
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < t->o.max_conns; i++) {
            conn *c = &t->c[i];
            if (c->state != C_SERVICE || c->due > now)
                continue;
            int64_t due = c->due, late = now - due;
            t->busy--;
            t->replies++;
            t->late_sum += (long double)late;
            if (late > t->late_max)
                t->late_max = late;
            t->late_bins[late / 1000 < LATE_BINS ? late / 1000 : LATE_BINS]++;
            if (t->q_len) {
                size_t j = t->queue[t->q_head];
                t->q_head = (t->q_head + 1) % t->o.max_conns;
                t->q_len--;
                start_service(t, j, due);
                again = 1; /* it may be due already */
            }
            c->out = c->keep && c->http10_keep ? reply_10_keep : c->keep ? reply_11 : reply_11_close;
            c->out_len = strlen(c->out);
            c->out_off = 0;
            c->state = C_WRITE;
            flush_out(t, i, now);
        }
    }
}

/* Sleep (monotonic) until at_ns; SIGINT or SIGTERM ends it early. The
 * signals are blocked but in ppoll, which takes them atomically: one
 * that came before the sleep ends it at once (with a check, then a sleep,
 * one coming between them would be slept through). */
static void sleep_until(int64_t at_ns)
{
    for (int64_t left; !stop_signal && (left = at_ns - now_ns()) > 0;) {
        struct timespec ts = {.tv_sec = left / 1000000000, .tv_nsec = left % 1000000000};
        ppoll(NULL, 0, &ts, &run_mask);
    }
}

/* The window due now: stop the world until its planned end. */
static int hold_window(target *t, int64_t now)
{
    const stall_window *w = &t->plan->w[t->next_win];
    /* every reply due before the window really starts goes out first:
     * writing them takes time, in which more may come due (a reply due
     * between `now` and the start read after it would be held through
     * the window, late by its whole length, as if the stall had hit it) */
    int64_t real_start = now;
    for (;;) {
        complete_due(t, real_start);
        int64_t then = now_ns(), next = INT64_MAX;
        for (size_t i = 0; i < t->o.max_conns; i++)
            if (t->c[i].state == C_SERVICE && t->c[i].due < next)
                next = t->c[i].due;
        real_start = then;
        if (next > then)
            break;
    }
    /* the window's whole length from when it really started: a stop the
     * loop noticed late is late, not shorter */
    sleep_until(real_start + (w->end_ns - w->start_ns));
    int64_t real_end = now_ns();
    for (size_t i = 0; i < t->o.max_conns; i++)
        if (t->c[i].state == C_SERVICE)
            t->c[i].due = target_plan_resume(t->c[i].due, real_start, real_end);
    held h = {w->start_ns, w->end_ns, real_start - t->t0, real_end - t->t0};
    t->held[t->n_held++] = h;
    t->next_win++;
    /* a window the oversleep swallowed whole is held as part of this one */
    while (t->next_win < t->plan->n && t->t0 + t->plan->w[t->next_win].end_ns <= real_end)
        t->next_win++;
    return 0;
}

static void accept_all(target *t, int64_t now)
{
    while (t->n_conns < t->o.max_conns) {
        int fd = accept4(t->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                if (!t->accept_failed++)
                    fprintf(stderr, "cosim target: accept: %s: new connections wait in the listen backlog until "
                            "one closes (tried again each %d ms)\n", strerror(errno), ACCEPT_RETRY_NS / 1000000);
                t->accept_retry_ns = now + ACCEPT_RETRY_NS;
            }
            return;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        size_t i = 0;
        while (t->c[i].state != C_FREE)
            i++;
        t->c[i] = (conn){.fd = fd, .state = C_READ};
        t->n_conns++;
        t->accepted++;
        if (!t->started) {
            t->started = 1;
            t->t0 = now;
            t->t_end = now + t->o.duration_ns;
        }
    }
}

static void read_conn(target *t, size_t i, int64_t now)
{
    conn *c = &t->c[i];
    for (;;) {
        ssize_t r = recv(c->fd, c->in + c->in_len, sizeof c->in - c->in_len, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (r <= 0) {
            conn_close(t, i);
            return;
        }
        c->in_len += (size_t)r;
        if (c->in_len == sizeof c->in)
            break;
    }
    try_parse(t, i, now);
}

/* The loop, until the run's end. */
static void serve(target *t, int64_t started_ns)
{
    size_t cap = t->o.max_conns + 1;
    struct pollfd *pf = calloc(cap, sizeof *pf);
    size_t *who = calloc(cap, sizeof *who);
    if (!pf || !who) {
        free(pf);
        free(who);
        return;
    }
    while (!stop_signal) {
        int64_t now = now_ns();
        if (t->started ? now >= t->t_end : now >= started_ns + t->o.wait_ns)
            break;
        if (t->started && t->next_win < t->plan->n && now >= t->t0 + t->plan->w[t->next_win].start_ns) {
            hold_window(t, now);
            continue;
        }
        complete_due(t, now);
        int64_t wake = t->started ? t->t_end : started_ns + t->o.wait_ns;
        if (t->started && t->next_win < t->plan->n && t->t0 + t->plan->w[t->next_win].start_ns < wake)
            wake = t->t0 + t->plan->w[t->next_win].start_ns;
        if (t->accept_retry_ns && now >= t->accept_retry_ns)
            t->accept_retry_ns = 0;
        if (t->accept_retry_ns && t->accept_retry_ns < wake)
            wake = t->accept_retry_ns;
        size_t n = 0;
        if (t->n_conns < t->o.max_conns && !t->accept_retry_ns) {
            pf[n] = (struct pollfd){.fd = t->lfd, .events = POLLIN};
            who[n++] = SIZE_MAX;
        }
        for (size_t i = 0; i < t->o.max_conns; i++) {
            conn *c = &t->c[i];
            if (c->state == C_SERVICE && c->due < wake)
                wake = c->due;
            if (c->state == C_READ || c->state == C_WRITE) {
                pf[n] = (struct pollfd){.fd = c->fd, .events = c->state == C_READ ? POLLIN : POLLOUT};
                who[n++] = i;
            }
        }
        int64_t left = wake - now_ns();
        struct timespec ts = {.tv_sec = left > 0 ? left / 1000000000 : 0, .tv_nsec = left > 0 ? left % 1000000000 : 0};
        int r = ppoll(pf, n, &ts, &run_mask);
        if (r <= 0)
            continue;
        now = now_ns();
        for (size_t k = 0; k < n; k++) {
            if (!pf[k].revents)
                continue;
            if (who[k] == SIZE_MAX)
                accept_all(t, now);
            else if (t->c[who[k]].state == C_READ)
                read_conn(t, who[k], now);
            else if (t->c[who[k]].state == C_WRITE)
                flush_out(t, who[k], now);
        }
    }
    free(pf);
    free(who);
}

static int64_t late_quantile(const target *t, double q)
{
    uint64_t want = (uint64_t)((double)t->replies * q + 0.999999), seen = 0;
    for (size_t b = 0; b <= LATE_BINS; b++)
        if ((seen += t->late_bins[b]) >= want && want > 0)
            return b == LATE_BINS ? t->late_max : (int64_t)(b + 1) * 1000;
    return 0;
}

/* The stall log, whole or not at all: written beside, then renamed. */
static int write_log(const target *t)
{
    char tmp[SCENARIO_PATH_MAX + 16];
    if (snprintf(tmp, sizeof tmp, "%s.part", t->o.stall_log) >= (int)sizeof tmp) {
        fprintf(stderr, "cosim: --stall-log %s: the name is too long\n", t->o.stall_log);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "cosim: %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "# cosim target %s: the stop-the-world windows as held, from the first accepted connection\n"
            "# (start,length; planned start,length in the comment after each)\nstart,length\n", t->s->path);
    for (size_t i = 0; i < t->n_held; i++) {
        const held *h = &t->held[i];
        fprintf(f, "%lldns,%lldns\n# planned %lldns,%lldns\n", (long long)h->real_start,
                (long long)(h->real_end - h->real_start), (long long)h->planned_start,
                (long long)(h->planned_end - h->planned_start));
    }
    if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
        fprintf(stderr, "cosim: %s: cannot write\n", tmp);
        remove(tmp);
        return -1;
    }
    if (rename(tmp, t->o.stall_log) != 0) {
        fprintf(stderr, "cosim: %s: %s\n", t->o.stall_log, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Where a paced tool's requests fall modulo --phase-period P: the three
 * adjacent bins (of PHASE_BINS, circular) holding the most arrivals, and
 * the mean of their arrivals' phases, in [0, P). The densest arrivals, not
 * the mean of all: on a loaded machine sends the tool made late would drag
 * a mean off its ticks. 0 without --phase-period or requests. */
static int64_t arrival_phase(const target *t)
{
    int64_t p = t->o.phase_period_ns;
    if (!p || !t->requests)
        return 0;
    size_t best = 0;
    uint64_t best_n = 0;
    for (size_t b = 0; b < PHASE_BINS; b++) {
        uint64_t n = t->phase_n[(b + PHASE_BINS - 1) % PHASE_BINS] + t->phase_n[b] + t->phase_n[(b + 1) % PHASE_BINS];
        if (n > best_n) {
            best_n = n;
            best = b;
        }
    }
    /* each arrival's phase relative to the start of bin `best`, unwrapped
     * (bin best - 1 lies before it, best + 1 after, across 0 or P too) */
    int64_t start_best = (int64_t)best * p / PHASE_BINS;
    long double sum = 0;
    for (int k = -1; k <= 1; k++) {
        int64_t i = (int64_t)best + k;
        size_t b = (size_t)((i + PHASE_BINS) % PHASE_BINS);
        int64_t base = (int64_t)b * p / PHASE_BINS - start_best + (i < 0 ? -p : i >= PHASE_BINS ? p : 0);
        sum += (long double)t->phase_off[b] + (long double)t->phase_n[b] * (long double)base;
    }
    int64_t rel = (int64_t)llroundl(sum / (long double)best_n);
    return ((start_best + rel) % p + p) % p;
}

/* How far the arrivals spread around arrival_phase's phase: the shortest
 * arc of whole bins grown from the phase's bin (each step taking the
 * fuller neighbour) that holds all arrivals but the 0.1% farthest (the
 * first connection, a send the machine delayed); *early_ns and *late_ns
 * its reach before and after the phase (together a bin's width at the
 * least, P / PHASE_BINS). Both 0 without --phase-period or requests. A
 * tool's sends jitter around its tick (httperf's select loop reaches its
 * timer wheel's tick up to 1 ms late): an arrival at the arc's edge can
 * meet a window that one at the phase misses. */
static void arrival_spread(const target *t, int64_t phase, int64_t *early_ns, int64_t *late_ns)
{
    int64_t p = t->o.phase_period_ns;
    *early_ns = *late_ns = 0;
    if (!p || !t->requests)
        return;
    uint64_t total = 0;
    for (size_t b = 0; b < PHASE_BINS; b++)
        total += t->phase_n[b];
    uint64_t want = total - total / 1000; /* all but the farthest 0.1% */
    size_t c = (size_t)(phase * PHASE_BINS / p) % PHASE_BINS; /* the phase's bin */
    size_t lo = c, hi = c, width = 1;      /* the arc: bins lo .. hi, circular */
    uint64_t in_arc = t->phase_n[c];
    while (in_arc < want && width < PHASE_BINS) {
        size_t before = (lo + PHASE_BINS - 1) % PHASE_BINS, after = (hi + 1) % PHASE_BINS;
        /* the fuller neighbour; between two equal (two empty ones), the
         * side whose nearest arrivals are closer, so that the arc takes
         * the short way to a second cluster, not round the period */
        int back = t->phase_n[before] > t->phase_n[after];
        if (t->phase_n[before] == t->phase_n[after]) {
            size_t gap_back = 0, gap_fwd = 0;
            while (gap_back < PHASE_BINS - width && !t->phase_n[(lo + PHASE_BINS - 1 - gap_back) % PHASE_BINS])
                gap_back++;
            while (gap_fwd < PHASE_BINS - width && !t->phase_n[(hi + 1 + gap_fwd) % PHASE_BINS])
                gap_fwd++;
            back = gap_back < gap_fwd;
        }
        if (back) {
            lo = before;
            in_arc += t->phase_n[before];
        } else {
            hi = after;
            in_arc += t->phase_n[after];
        }
        width++;
    }
    int64_t bin = p / PHASE_BINS;
    int64_t from = (int64_t)((c + PHASE_BINS - lo) % PHASE_BINS); /* bins before c */
    int64_t to = (int64_t)((hi + PHASE_BINS - c) % PHASE_BINS);   /* bins after c */
    int64_t in_bin = phase - (int64_t)c * p / PHASE_BINS;          /* the phase within its bin */
    *early_ns = from * bin + in_bin;
    *late_ns = (to + 1) * bin - in_bin;
}

static void summary(const target *t, int64_t ran_ns)
{
    char a[32], b[32], d[32], e[32];
    printf("cosim target: %llu requests (%llu refused as malformed or too large) on %llu connections in %s\n",
           (unsigned long long)t->requests, (unsigned long long)t->refused_requests,
           (unsigned long long)t->accepted, units_format_duration(ran_ns, a, sizeof a));
    int64_t late_start = 0, len_err = 0;
    for (size_t i = 0; i < t->n_held; i++) {
        const held *h = &t->held[i];
        int64_t ls = h->real_start - h->planned_start;
        int64_t le = (h->real_end - h->real_start) - (h->planned_end - h->planned_start);
        if (ls > late_start)
            late_start = ls;
        if ((le < 0 ? -le : le) > (len_err < 0 ? -len_err : len_err))
            len_err = le;
        printf("  window %zu: planned %.6f s + %.6f s, held %.6f s + %.6f s\n", i + 1, (double)h->planned_start * 1e-9,
               (double)(h->planned_end - h->planned_start) * 1e-9, (double)h->real_start * 1e-9,
               (double)(h->real_end - h->real_start) * 1e-9);
    }
    size_t planned = 0;
    for (size_t i = 0; i < t->plan->n; i++)
        if (t->started && t->plan->w[i].start_ns < ran_ns)
            planned++;
    printf("stalls: %zu planned in the run, %zu held; start late by at most %s, length off by at most %s\n", planned,
           t->n_held, units_format_duration(late_start, a, sizeof a),
           units_format_duration(len_err < 0 ? -len_err : len_err, b, sizeof b));
    printf("replies: late after their due instant by %s on average, p99 %s, max %s (1 us bins)\n",
           units_format_duration(t->replies ? (int64_t)(t->late_sum / t->replies) : 0, d, sizeof d),
           units_format_duration(late_quantile(t, 0.99), e, sizeof e), units_format_duration(t->late_max, a, sizeof a));
    int64_t gap = t->gaps ? (int64_t)(t->gap_sum / (long double)t->gaps + 0.5L) : 0;
    printf("clients: a connection's next request came %s after its reply on average (%llu such; the tool's own "
           "time per request, with the kernel's)\n", units_format_duration(gap, a, sizeof a),
           (unsigned long long)t->gaps);
    int64_t phase = arrival_phase(t), early, late;
    arrival_spread(t, phase, &early, &late);
    if (t->o.phase_period_ns && t->requests)
        printf("arrivals: at phase %s modulo %s (the densest arrivals, from the first connection); all but "
               "0.1%% from %s before it to %s after\n",
               units_format_duration(phase, d, sizeof d), units_format_duration(t->o.phase_period_ns, e, sizeof e),
               units_format_duration(early, a, sizeof a), units_format_duration(late, b, sizeof b));
    printf("summary: requests=%llu replies=%llu windows_planned=%zu windows_held=%zu start_late_max_ns=%lld "
           "length_error_max_ns=%lld reply_late_mean_ns=%lld reply_late_p99_ns=%lld reply_late_max_ns=%lld "
           "client_gap_mean_ns=%lld arrival_phase_ns=%lld arrival_early_ns=%lld arrival_late_ns=%lld sched=%s\n",
           (unsigned long long)t->requests, (unsigned long long)t->replies, planned, t->n_held, (long long)late_start,
           (long long)len_err, (long long)(t->replies ? (int64_t)(t->late_sum / t->replies) : 0),
           (long long)late_quantile(t, 0.99), (long long)t->late_max, (long long)gap, (long long)phase,
           (long long)early, (long long)late, t->fifo ? "fifo" : "normal");
}

/* SCHED_FIFO at the lowest real-time priority for this process (not for
 * children: SCHED_RESET_ON_FORK). On a 2-core machine a load tool keeps
 * the cores busy and the default scheduler wakes the target's timers
 * 2 to 4 ms late, so a 10 ms stall's replies decided less than the
 * machine did (tests/realtools/, docs/real-tools.md); any real-time
 * priority preempts the tool's threads at once. The loop sleeps in
 * ppoll and never spins, and the kernel keeps 5% of each second for
 * other tasks (sched_rt_runtime_us). @return 1 when set, 0 (said on
 * stderr) when refused. */
static int sched_fifo(void)
{
    struct sched_param sp = {.sched_priority = sched_get_priority_min(SCHED_FIFO)};
    int policy = SCHED_FIFO;
#ifdef SCHED_RESET_ON_FORK
    policy |= SCHED_RESET_ON_FORK;
#endif
    if (sp.sched_priority >= 0 && sched_setscheduler(0, policy, &sp) == 0)
        return 1;
    fprintf(stderr, "cosim target: SCHED_FIFO refused (%s): running with the default scheduler, whose timers a "
                    "busy load tool can delay by milliseconds (the summary's reply_late_max_ns says how much); "
                    "run as root or with CAP_SYS_NICE, or give --sched normal\n", strerror(errno));
    return 0;
}

/* Room for max_conns connections under the open-file limit: the soft
 * limit raised toward the hard one when short (a shell's ulimit -n is
 * often 1024, the default hard limit far more). Without it each accept4
 * past the limit fails with EMFILE and the connections wait unserved.
 * @return 0, or -1 after a message when even the hard limit is short. */
static int open_files(size_t max_conns)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)max_conns + TARGET_OTHER_FDS;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
        return 0;
    if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
        rl.rlim_cur = need;
        if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
            return 0;
    }
    rlim_t room = rl.rlim_max == RLIM_INFINITY ? rl.rlim_cur : rl.rlim_max;
    fprintf(stderr, "cosim: --max-connections %zu: the open-file limit (ulimit -Hn) is %llu, room for %llu "
            "connections (%d descriptors kept for the target's own files)\n", max_conns, (unsigned long long)room,
            (unsigned long long)(room > TARGET_OTHER_FDS ? room - TARGET_OTHER_FDS : 0), TARGET_OTHER_FDS);
    return -1;
}

int target_main(int argc, char **argv)
{
    target t = {.lfd = -1};
    sigset_t stops;
    sigemptyset(&stops);
    int pr = parse_opts(&t.o, argc, argv);
    if (pr != 0)
        return pr > 0 ? COSIM_EXIT_OK : COSIM_EXIT_USAGE;
    char err[1024];
    scenario_error se = scenario_load(&t.s, t.o.scenario, NULL, 0, err, sizeof err);
    if (se != SCENARIO_OK) {
        fprintf(stderr, "cosim: %s\n", err);
        return cosim_exit_of_scenario(se);
    }
    if (!t.o.duration_ns)
        t.o.duration_ns = t.s->duration_ns;
    int code = COSIM_EXIT_OK;
    int rc = target_plan_new(&t.plan, t.s, t.o.duration_ns, err, sizeof err);
    if (rc != 0) {
        if (rc == -ENOMEM)
            fprintf(stderr, "cosim: out of memory\n");
        else
            fprintf(stderr, "cosim: %s: %s\n", t.o.scenario, err);
        scenario_free(t.s);
        return rc == -ENOMEM ? COSIM_EXIT_SIM : COSIM_EXIT_SCENARIO;
    }
    t.workers = t.s->workers;
    t.c = calloc(t.o.max_conns, sizeof *t.c);
    t.queue = calloc(t.o.max_conns, sizeof *t.queue);
    t.held = calloc(t.plan->n + 1, sizeof *t.held);
    unsigned port = 0;
    if (!t.c || !t.queue || !t.held) {
        fprintf(stderr, "cosim: out of memory\n");
        code = COSIM_EXIT_SIM;
        goto out;
    }
    if (open_files(t.o.max_conns) != 0) {
        code = COSIM_EXIT_USAGE;
        goto out;
    }
    if ((t.lfd = listen_on(&t.o, &port, &code)) < 0)
        goto out;
#ifdef __linux__
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); /* timers to the ns, not the default 50 us */
#endif
    int fifo = t.o.fifo && sched_fifo();
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* SIGINT and SIGTERM blocked but while the loop waits (ppoll's mask):
     * one arriving just before a wait ends it, not the next timeout */
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_BLOCK, &stops, &run_mask);
    sigdelset(&run_mask, SIGINT);
    sigdelset(&run_mask, SIGTERM);
    char a[32];
    printf("cosim target: listening on %s:%u, %llu worker(s), %zu window(s) planned in %s from the first "
           "connection\n", t.o.bind, port, (unsigned long long)t.workers, t.plan->n,
           units_format_duration(t.o.duration_ns, a, sizeof a));
    if (fifo)
        printf("scheduling: SCHED_FIFO priority %d (the lowest real-time one): the target's timers preempt the "
               "load tool's threads\n", sched_get_priority_min(SCHED_FIFO));
    else
        printf("scheduling: normal%s\n", t.o.fifo ? " (SCHED_FIFO refused: the reason is on stderr)" : " (--sched normal)");
    fflush(stdout);
    t.fifo = fifo;
    int64_t started = now_ns();
    serve(&t, started);
    if (!t.started && !stop_signal) /* said, not a silent empty summary: the tool was never run */
        fprintf(stderr, "cosim target: no connection came within --wait %s of the start: nothing was measured "
                        "(run the load tool within --wait, or give a longer --wait)\n",
                units_format_duration(t.o.wait_ns, a, sizeof a));
    int64_t ran = t.started ? now_ns() - t.t0 : 0;
    if (ran > t.o.duration_ns)
        ran = t.o.duration_ns;
    summary(&t, ran);
    if (stop_signal)
        printf("stopped by %s after %s of the run: the figures above and the log are the run until then%s\n",
               stop_signal == SIGINT ? "SIGINT" : "SIGTERM", units_format_duration(ran, a, sizeof a),
               t.n_held && t.held[t.n_held - 1].real_end - t.held[t.n_held - 1].real_start <
                   t.held[t.n_held - 1].planned_end - t.held[t.n_held - 1].planned_start
                   ? " (the last window cut short by it)" : "");
    if (t.o.stall_log && write_log(&t) != 0)
        code = COSIM_EXIT_OUTPUT;
    else if (t.o.stall_log)
        printf("stall log: %s (%zu windows)\n", t.o.stall_log, t.n_held);
out:
    for (size_t i = 0; t.c && i < t.o.max_conns; i++)
        if (t.c[i].state != C_FREE)
            close(t.c[i].fd);
    if (t.lfd >= 0)
        close(t.lfd);
    free(t.c);
    free(t.queue);
    free(t.held);
    target_plan_free(t.plan);
    scenario_free(t.s);
    if (stop_signal && code == COSIM_EXIT_OK) { /* as cosim: ended by the signal (130, 143 in a shell) */
        fflush(NULL);
        signal(stop_signal, SIG_DFL);
        sigprocmask(SIG_UNBLOCK, &stops, NULL);
        raise(stop_signal);
    }
    return code;
}
