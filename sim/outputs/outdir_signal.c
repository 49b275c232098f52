/* outdir_signal.c - the output folder on a signal: the handler removes the
 * staging folder with system calls only (outdir.h). */
#define _GNU_SOURCE
#include "outdir_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What the handler needs to remove the staging folder: descriptors and
 * names only, so it uses nothing but system calls. */
static struct {
    volatile sig_atomic_t armed;
    pid_t owner;
    int sfd, spfd, dfd, pfd, created, locked;
    struct stat dst, lst; /* DIR and its lock, when opened */
    char sname[NAME_MAX + 1], base[NAME_MAX + 1];
    char made_path[PATH_MAX];
    unsigned char made_end[PATH_MAX];
} sig_state;

static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_HANDLED (sizeof handled_signals / sizeof handled_signals[0])
static struct sigaction saved_actions[N_HANDLED], saved_xfsz;
static int handlers_installed;
static outdir *current; /* the open output folder (one at a time) */
static void (*volatile signal_hook)(void);
static volatile pid_t hook_owner;

void outdir_set_signal_hook(void (*hook)(void))
{
    hook_owner = getpid();
    signal_hook = hook;
}

struct raw_dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* empty_folder with system calls only (getdents64, unlinkat). */
static void empty_folder_raw(int fd)
{
    static _Alignas(8) char buf[8192];
    for (int pass = 0; pass < 1000; pass++) {
        int removed = 0;
        if (lseek(fd, 0, SEEK_SET) != 0)
            return;
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                struct raw_dirent *e = (struct raw_dirent *)(void *)(buf + off);
                const char *nm = e->d_name;
                if (!(nm[0] == '.' && (nm[1] == '\0' || (nm[1] == '.' && nm[2] == '\0'))) &&
                    unlinkat(fd, nm, 0) == 0)
                    removed++;
                off += e->d_reclen;
            }
        }
        if (!removed)
            return;
    }
}

static void on_signal(int signo)
{
    void (*hook)(void) = signal_hook;
    if (hook && getpid() == hook_owner)
        hook();
    if (sig_state.armed && getpid() == sig_state.owner) {
        sig_state.armed = 0;
        empty_folder_raw(sig_state.sfd);
        unlinkat(sig_state.spfd, sig_state.sname, AT_REMOVEDIR);
        if (sig_state.locked && od_same_entry(sig_state.dfd, OUTDIR_LOCK, &sig_state.lst))
            unlinkat(sig_state.dfd, OUTDIR_LOCK, 0);
        if (sig_state.created && od_same_entry(sig_state.pfd, sig_state.base, &sig_state.dst))
            unlinkat(sig_state.pfd, sig_state.base, AT_REMOVEDIR);
        od_remove_made(sig_state.made_path, sig_state.made_end);
    }
    /* end as the signal would have ended us */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, signo);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(signo);
}

/* A forked child (a sweep worker, gnuplot before exec) does not own the
 * output folder: it drops its copy of the lock and never cleans. */
static void on_fork_child(void)
{
    sig_state.armed = 0;
    if (current && current->lockfd >= 0) {
        close(current->lockfd);
        current->lockfd = -1;
    }
    current = NULL;
}

void outdir_block_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    for (size_t i = 0; i < N_HANDLED; i++)
        sigaddset(&s, handled_signals[i]);
    sigprocmask(SIG_BLOCK, &s, old);
}

void od_discard_pending_signals(void)
{
    sigset_t pending;
    if (sigpending(&pending) != 0)
        return;
    for (size_t i = 0; i < N_HANDLED; i++) {
        if (sigismember(&pending, handled_signals[i]) != 1)
            continue;
        /* setting SIG_IGN discards a pending signal (POSIX); the action
         * in place is put back at once */
        struct sigaction ign, cur;
        memset(&ign, 0, sizeof ign);
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        if (sigaction(handled_signals[i], &ign, &cur) == 0)
            sigaction(handled_signals[i], &cur, NULL);
    }
}

/* A folder still open when the process exits (an early return that missed
 * outdir_close) is closed: its staging folder removed, nothing committed. */
static void close_at_exit(void)
{
    if (current)
        outdir_close(current);
}

void od_install_handlers(void)
{
    static int atfork_done, atexit_done;
    if (!atfork_done && pthread_atfork(NULL, NULL, on_fork_child) == 0)
        atfork_done = 1;
    if (!atexit_done && atexit(close_at_exit) == 0)
        atexit_done = 1;
    for (size_t i = 0; i < N_HANDLED; i++) {
        struct sigaction sa;
        sigaction(handled_signals[i], NULL, &saved_actions[i]);
        if (saved_actions[i].sa_handler == SIG_IGN)
            continue; /* ignored when we started (nohup, a background job): stays so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < N_HANDLED; k++)
            sigaddset(&sa.sa_mask, handled_signals[k]);
        sigaction(handled_signals[i], &sa, NULL);
    }
    /* past RLIMIT_FSIZE a write fails with EFBIG, said, instead of a kill */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGXFSZ, &ign, &saved_xfsz);
    handlers_installed = 1;
}

void od_restore_handlers(void)
{
    if (!handlers_installed)
        return;
    for (size_t i = 0; i < N_HANDLED; i++)
        sigaction(handled_signals[i], &saved_actions[i], NULL);
    sigaction(SIGXFSZ, &saved_xfsz, NULL);
    handlers_installed = 0;
}

/* Point the handler at d's staging folder (signals blocked by the caller). */
void od_arm(const outdir *d)
{
    sig_state.owner = getpid();
    sig_state.sfd = d->sfd;
    sig_state.spfd = d->spfd;
    sig_state.dfd = d->dfd;
    sig_state.pfd = d->pfd;
    sig_state.created = d->created;
    sig_state.locked = d->lockfd >= 0;
    sig_state.dst = d->dst;
    sig_state.lst = d->lst;
    memcpy(sig_state.made_path, d->made_path, sizeof sig_state.made_path);
    memcpy(sig_state.made_end, d->made_end, sizeof sig_state.made_end);
    memcpy(sig_state.sname, d->sname, sizeof sig_state.sname);
    memcpy(sig_state.base, d->base, sizeof sig_state.base);
    sig_state.armed = 1;
}

void od_disarm(void)
{
    sig_state.armed = 0;
}

void od_set_current(outdir *d)
{
    current = d;
}

outdir *od_current(void)
{
    return current;
}
