/* Tests of outdir: the output-folder contract (docs/decisions.md). Each
 * test works in a fresh temporary folder; messages are asserted exactly. */
#define _GNU_SOURCE
#include "outdir.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

Suite *test_suite(void);

/* Stand-ins for the C library's renameat and renameat2 (this program's
 * definitions win over libc's), so the tests can make a filesystem without
 * RENAME_EXCHANGE, or a rename that fails half way through a commit. */
static int no_exchange;              /* RENAME_EXCHANGE fails with EINVAL */
static const char *fail_rename_into; /* a rename to this name fails with fail_errno */
static int fail_errno = EIO;
static void (*before_exchange)(void); /* runs once just before a RENAME_EXCHANGE */

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags)
{
    if ((no_exchange && (flags & RENAME_EXCHANGE)) ||
        (fail_rename_into && strcmp(newpath, fail_rename_into) == 0)) {
        errno = no_exchange && (flags & RENAME_EXCHANGE) ? EINVAL : fail_errno;
        return -1;
    }
    if ((flags & RENAME_EXCHANGE) && before_exchange) {
        void (*f)(void) = before_exchange;
        before_exchange = NULL;
        f();
    }
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
    return renameat2(olddirfd, oldpath, newdirfd, newpath, 0);
}

static char base[PATH_MAX];  /* the test's temporary folder */
static char err[8192];

static void setup(void)
{
    snprintf(base, sizeof base, "/tmp/test_outdir.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(base));
    ck_assert_int_eq(chdir(base), 0); /* relative names below are in base */
    err[0] = '\0';
}

static void teardown(void)
{
    fail_rename_into = NULL;
    fail_errno = EIO;
    before_exchange = NULL;
    no_exchange = 0;
    char cmd[PATH_MAX + 32];
    ck_assert_int_eq(chdir("/"), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* the text of a file ("" if missing), in a static buffer */
static const char *get(const char *path)
{
    static char buf[8192];
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return "<missing>";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* the names in a folder, sorted, space separated ("." and ".." left out) */
static const char *listing(const char *path)
{
    static char buf[8192];
    struct dirent **list;
    int n = scandir(path, &list, NULL, alphasort);
    buf[0] = '\0';
    if (n < 0)
        return "<missing>";
    for (int i = 0; i < n; i++) {
        if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? " " : "", list[i]->d_name);
        free(list[i]);
    }
    free(list);
    return buf;
}

/* A run writing name=text pairs, committed. */
static int run_files(const char *dir, const outdir_options *opt, const char *const *files)
{
    outdir *d;
    int rc = outdir_open(&d, dir, opt, err, sizeof err);
    if (rc)
        return rc;
    for (size_t i = 0; files[i]; i += 2) {
        FILE *f = outdir_create(d, files[i]);
        ck_assert_ptr_nonnull(f);
        fputs(files[i + 1], f);
        ck_assert_int_eq(outdir_finish(d, f), 0);
    }
    rc = outdir_commit(d, err, sizeof err);
    outdir_close(d);
    return rc;
}

/* a pid that is certainly dead: a child that exited and was reaped */
static pid_t dead_pid(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    ck_assert_int_gt(pid, 0);
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    return pid;
}

START_TEST(a_new_folder_is_written_whole_with_its_manifest)
{
    const char *files[] = {"summary.json", "{}\n", "open.hgrm", "spectrum\n", NULL};
    ck_assert_int_eq(run_files("out/run", NULL, files), 0);
    ck_assert_str_eq(listing("out/run"), ".cosim-manifest open.hgrm summary.json");
    ck_assert_str_eq(get("out/run/open.hgrm"), "spectrum\n");
    ck_assert_str_eq(get("out/run/.cosim-manifest"),
                     "# cosim manifest 1\n"
                     "# The files the last cosim run wrote in this folder. A later run\n"
                     "# replaces or removes only these; every other file here is left alone.\n"
                     "file summary.json\n"
                     "file open.hgrm\n");
    ck_assert_str_eq(listing("out"), "run"); /* no staging folder, no lock left */
}
END_TEST

START_TEST(a_rerun_replaces_and_removes_only_listed_files)
{
    const char *first[] = {"a.hgrm", "1\n", "b.hgrm", "1\n", NULL};
    const char *second[] = {"a.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, first), 0);
    put("o/notes.txt", "mine\n"); /* the user's, added later */
    ck_assert_int_eq(run_files("o", NULL, second), 0);
    ck_assert_str_eq(listing("o"), ".cosim-manifest a.hgrm notes.txt");
    ck_assert_str_eq(get("o/a.hgrm"), "2\n");
    ck_assert_str_eq(get("o/notes.txt"), "mine\n");
    ck_assert_str_eq(listing("."), "o");
}
END_TEST

START_TEST(a_folder_of_cosim_files_only_is_swapped_whole)
{
    const char *first[] = {"a.hgrm", "1\n", NULL};
    const char *second[] = {"c.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, first), 0);
    ck_assert_int_eq(chmod("o", 0750), 0);
    struct stat before, after;
    ck_assert_int_eq(stat("o", &before), 0);
    ck_assert_int_eq(run_files("o", NULL, second), 0);
    ck_assert_int_eq(stat("o", &after), 0);
    ck_assert(before.st_ino != after.st_ino); /* a new folder took its place */
    ck_assert_int_eq(after.st_mode & 07777, 0750); /* with the same mode */
    ck_assert_str_eq(listing("o"), ".cosim-manifest c.hgrm");
    ck_assert_str_eq(listing("."), "o");
}
END_TEST

START_TEST(a_foreign_folder_is_refused_naming_its_first_file)
{
    ck_assert_int_eq(mkdir("o", 0777), 0);
    put("o/wrk2.hgrm", "theirs\n");
    put("o/zz.txt", "theirs\n");
    const char *files[] = {"summary.json", "{}\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, files), -EEXIST);
    ck_assert_str_eq(err, "o: holds wrk2.hgrm, which cosim did not write (the folder has no .cosim-manifest); "
                          "give a new or empty folder, or --force to write beside its files");
    ck_assert_str_eq(listing("o"), "wrk2.hgrm zz.txt");
    ck_assert_str_eq(get("o/wrk2.hgrm"), "theirs\n");
    put("o/.hidden", "theirs\n"); /* byte order: '.' before letters */
    ck_assert_int_eq(run_files("o", NULL, files), -EEXIST);
    ck_assert_str_eq(err, "o: holds .hidden, which cosim did not write (the folder has no .cosim-manifest); "
                          "give a new or empty folder, or --force to write beside its files");
}
END_TEST

START_TEST(force_writes_beside_foreign_files_and_never_over_them)
{
    ck_assert_int_eq(mkdir("o", 0777), 0);
    put("o/wrk2.hgrm", "theirs\n");
    outdir_options force = {1, NULL, 0, 0};
    const char *files[] = {"summary.json", "{}\n", NULL};
    ck_assert_int_eq(run_files("o", &force, files), 0);
    ck_assert_str_eq(listing("o"), ".cosim-manifest summary.json wrk2.hgrm");
    ck_assert_str_eq(get("o/wrk2.hgrm"), "theirs\n");
    /* a run whose file has a foreign file's name replaces nothing */
    put("o/open.hgrm", "theirs too\n");
    const char *clash[] = {"summary.json", "{\"x\": 1}\n", "open.hgrm", "ours\n", NULL};
    ck_assert_int_eq(run_files("o", &force, clash), -EEXIST);
    ck_assert_str_eq(err, "o/open.hgrm: not written by cosim (not in .cosim-manifest), so not replaced; "
                          "move it away or give another folder");
    ck_assert_str_eq(get("o/open.hgrm"), "theirs too\n");
    ck_assert_str_eq(get("o/summary.json"), "{}\n");
    ck_assert_str_eq(listing("o"), ".cosim-manifest open.hgrm summary.json wrk2.hgrm");
}
END_TEST

START_TEST(root_and_home_are_always_refused)
{
    outdir_options force = {1, NULL, 0, 0};
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "/", &force, err, sizeof err), -EPERM);
    ck_assert_str_eq(err, "/: is the root folder; cosim writes only into a folder of its own (e.g. -o out/NAME)");
    ck_assert_int_eq(outdir_open(&d, "/tmp/..//", &force, err, sizeof err), -EPERM);
    ck_assert_str_eq(err, "/tmp/..//: is the root folder; cosim writes only into a folder of its own "
                          "(e.g. -o out/NAME)");
    ck_assert_int_eq(mkdir("home", 0777), 0);
    char home[PATH_MAX + 8];
    snprintf(home, sizeof home, "%s/home", base);
    setenv("HOME", home, 1);
    ck_assert_int_eq(outdir_open(&d, "home/.", &force, err, sizeof err), -EPERM);
    ck_assert_str_eq(err, "home/.: is your home folder; cosim writes only into a folder of its own "
                          "(e.g. -o out/NAME)");
    ck_assert_int_eq(symlink("home", "link-to-home"), 0);
    ck_assert_int_eq(outdir_open(&d, "link-to-home", &force, err, sizeof err), -EPERM);
    ck_assert_str_eq(listing("home"), ""); /* not even a lock was made */
}
END_TEST

START_TEST(a_planted_staging_link_is_never_followed)
{
    ck_assert_int_eq(mkdir("victim", 0777), 0);
    put("victim/data", "precious\n");
    const char *files[] = {"open.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, files), 0);
    char link1[64], link2[64], target[PATH_MAX + 8];
    snprintf(target, sizeof target, "%s/victim", base);
    snprintf(link1, sizeof link1, "out/.cosim-staging-%ld", (long)getpid());
    snprintf(link2, sizeof link2, "out/.cosim-staging-%ld-AAAAAA", (long)getpid());
    ck_assert_int_eq(symlink(target, link1), 0);
    ck_assert_int_eq(symlink(target, link2), 0);
    /* and one named as a dead run's, which stale cleanup must not follow */
    char link3[64];
    snprintf(link3, sizeof link3, "out/.cosim-staging-%ld-BBBBBB", (long)dead_pid());
    ck_assert_int_eq(symlink(target, link3), 0);
    const char *again[] = {"open.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, again), 0);
    ck_assert_str_eq(listing("victim"), "data");
    ck_assert_str_eq(get("victim/data"), "precious\n");
    ck_assert_str_eq(get("out/open.hgrm"), "2\n");
    /* in a folder without a manifest, the link is a foreign file */
    ck_assert_int_eq(mkdir("fresh", 0777), 0);
    char link4[64];
    snprintf(link4, sizeof link4, "fresh/.cosim-staging-%ld", (long)getpid());
    ck_assert_int_eq(symlink(target, link4), 0);
    ck_assert_int_eq(run_files("fresh", NULL, files), -EEXIST);
    ck_assert_str_eq(listing("victim"), "data");
}
END_TEST

/* stderr into a file while f runs; its text back */
static const char *stderr_of(void (*f)(void))
{
    static char buf[4096];
    fflush(stderr);
    int saved = dup(2);
    int fd = open("stderr.txt", O_RDWR | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    f();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink("stderr.txt");
    return buf;
}

static void run_into_out(void)
{
    const char *files[] = {"open.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, files), 0);
}

START_TEST(stale_staging_of_dead_runs_is_removed)
{
    run_into_out();
    long dead = (long)dead_pid();
    char inside[64], sibling[64], swapped[64], live[64], f[128];
    snprintf(inside, sizeof inside, "out/.cosim-staging-%ld-abcdef", dead);
    snprintf(sibling, sizeof sibling, ".out.cosim-staging-%ld-abcdef", dead);
    snprintf(swapped, sizeof swapped, ".out.cosim-staging-%ld-ghijkl", dead);
    snprintf(live, sizeof live, ".out.cosim-staging-%ld-abcdef", (long)getppid()); /* alive */
    const char *dirs[] = {inside, sibling, live};
    for (int i = 0; i < 3; i++) {
        /* as a killed run leaves them: the marker lists what it staged */
        ck_assert_int_eq(mkdir(dirs[i], 0700), 0);
        snprintf(f, sizeof f, "%s/.cosim-staging", dirs[i]);
        put(f, "# cosim staging 1\n# comment\nfile open.hgrm\nfile half.dat\n");
        snprintf(f, sizeof f, "%s/open.hgrm", dirs[i]);
        put(f, "half\n");
        snprintf(f, sizeof f, "%s/half.dat", dirs[i]);
        put(f, "half\n");
    }
    /* a previous folder a run was emptying when killed: its manifest marks it */
    ck_assert_int_eq(mkdir(swapped, 0700), 0);
    snprintf(f, sizeof f, "%s/.cosim-manifest", swapped);
    put(f, "# cosim manifest 1\nfile old.hgrm\n");
    snprintf(f, sizeof f, "%s/old.hgrm", swapped);
    put(f, "old\n");
    snprintf(f, sizeof f, "%s/.cosim-lock", swapped);
    put(f, "cosim lock pid 1\n");
    ck_assert_str_eq(stderr_of(run_into_out), "");
    ck_assert_str_eq(listing("out"), ".cosim-manifest open.hgrm");
    char want[128];
    snprintf(want, sizeof want, "%s out", live + 0);
    ck_assert_str_eq(listing("."), want);
}
END_TEST

/* A folder named like a dead run's staging folder is removed only if cosim
 * marked it, and then only the files its marker lists: a user's folder
 * that took such a name (or a file a user put in one) stays, with a
 * warning. */
START_TEST(stale_staging_without_cosims_marker_is_left_alone)
{
    run_into_out();
    long dead = (long)dead_pid();
    char user[64], mixed[64], legacy[64], f[128];
    snprintf(user, sizeof user, ".out.cosim-staging-%ld-abcdef", dead);
    snprintf(mixed, sizeof mixed, "out/.cosim-staging-%ld-ghijkl", dead);
    snprintf(legacy, sizeof legacy, "out/.cosim-staging-%ld", dead);
    ck_assert_int_eq(mkdir(user, 0700), 0);
    snprintf(f, sizeof f, "%s/important.txt", user);
    put(f, "important\n");
    ck_assert_int_eq(mkdir(legacy, 0700), 0);
    snprintf(f, sizeof f, "%s/open.hgrm", legacy);
    put(f, "half\n");
    ck_assert_int_eq(mkdir(mixed, 0700), 0);
    snprintf(f, sizeof f, "%s/.cosim-staging", mixed);
    put(f, "# cosim staging 1\nfile open.hgrm\n");
    snprintf(f, sizeof f, "%s/open.hgrm", mixed);
    put(f, "half\n");
    snprintf(f, sizeof f, "%s/notes.txt", mixed);
    put(f, "mine\n");
    char want[2048 + PATH_MAX];
    snprintf(want, sizeof want,
             "cosim: warning: out/.cosim-staging-%ld: left alone: it looks like a staging folder of a cosim run "
             "that ended, but holds no .cosim-staging nor .cosim-manifest of cosim's\n"
             "cosim: warning: out/.cosim-staging-%ld-ghijkl: the staging folder of a cosim run that ended is "
             "kept: it holds notes.txt, which cosim did not write there or cannot remove\n"
             "cosim: warning: %s/.out.cosim-staging-%ld-abcdef: left alone: it looks like a staging folder of a "
             "cosim run that ended, but holds no .cosim-staging nor .cosim-manifest of cosim's\n",
             dead, dead, base, dead);
    ck_assert_str_eq(stderr_of(run_into_out), want);
    snprintf(f, sizeof f, "%s/important.txt", user);
    ck_assert_str_eq(get(f), "important\n");
    ck_assert_str_eq(listing(legacy), "open.hgrm");
    ck_assert_str_eq(listing(mixed), "notes.txt"); /* its listed files went */
}
END_TEST

START_TEST(a_second_writer_is_refused_with_the_first_ones_pid)
{
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "out", NULL, err, sizeof err), 0);
    pid_t child = fork();
    if (child == 0) {
        outdir *d2;
        char e[1024];
        int rc = outdir_open(&d2, "out", NULL, e, sizeof e);
        char want[256];
        snprintf(want, sizeof want, "out: another cosim (pid %ld) is writing this folder; try again when it "
                                    "has finished", (long)getppid());
        _exit(rc == -EBUSY && strcmp(e, want) == 0 ? 0 : 1);
    }
    int ws;
    ck_assert_int_eq(waitpid(child, &ws, 0), child);
    ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    FILE *f = outdir_create(d, "open.hgrm");
    fputs("1\n", f);
    ck_assert_int_eq(outdir_finish(d, f), 0);
    ck_assert_int_eq(outdir_commit(d, err, sizeof err), 0);
    outdir_close(d);
    /* the lock went with the writer: the next one is taken */
    const char *files[] = {"open.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, files), 0);
    ck_assert_str_eq(get("out/open.hgrm"), "2\n");
}
END_TEST

START_TEST(a_failed_run_leaves_the_folder_as_it_was)
{
    const char *files[] = {"open.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, files), 0);
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "out", NULL, err, sizeof err), 0);
    FILE *f = outdir_create(d, "open.hgrm");
    fputs("2\n", f);
    ck_assert_int_eq(outdir_finish(d, f), 0);
    outdir_close(d); /* no commit */
    ck_assert_str_eq(get("out/open.hgrm"), "1\n");
    ck_assert_str_eq(listing("out"), ".cosim-manifest open.hgrm");
    ck_assert_str_eq(listing("."), "out");
    /* a folder the failed run made is removed again */
    ck_assert_int_eq(outdir_open(&d, "new/deeper", NULL, err, sizeof err), 0);
    outdir_close(d);
    ck_assert_str_eq(listing("."), "out");
    /* and so are all the parents it made, deepest first, never one it found */
    ck_assert_int_eq(mkdir("keep", 0777), 0);
    ck_assert_int_eq(outdir_open(&d, "keep/np1/np2/np3", NULL, err, sizeof err), 0);
    ck_assert_str_eq(listing("keep"), "np1");
    outdir_close(d);
    ck_assert_str_eq(listing("."), "keep out");
    ck_assert_str_eq(listing("keep"), "");
    /* a made parent that is no longer empty stays */
    ck_assert_int_eq(outdir_open(&d, "np1/np2/np3", NULL, err, sizeof err), 0);
    put("np1/theirs.txt", "mine\n");
    outdir_close(d);
    ck_assert_str_eq(listing("np1"), "theirs.txt");
}
END_TEST

START_TEST(a_write_error_keeps_its_errno)
{
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "out", NULL, err, sizeof err), 0);
    /* past RLIMIT_FSIZE: EFBIG (outdir ignores SIGXFSZ), said as such */
    struct rlimit rl = {4096, 4096};
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
    FILE *f = outdir_create(d, "big.dat");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 1000; i++)
        fputs("0123456789\n", f);
    ck_assert_int_eq(outdir_finish(d, f), -EFBIG);
    ck_assert_int_eq(outdir_commit(d, err, sizeof err), -EIO);
    ck_assert_str_eq(err, "out/big.dat: not completely written");
    outdir_close(d);
    ck_assert_str_eq(listing("."), "");
}
END_TEST

START_TEST(names_are_checked)
{
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "out", NULL, err, sizeof err), 0);
    const char *bad[] = {"", ".cosim-manifest", ".hidden", "a/b", "../x", "tab\there", "line\nbreak"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        errno = 0;
        ck_assert_ptr_null(outdir_create(d, bad[i]));
        ck_assert_int_eq(errno, EINVAL);
    }
    FILE *f = outdir_create(d, "open.hgrm");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_null(outdir_create(d, "open.hgrm")); /* written twice */
    ck_assert_int_eq(errno, EEXIST);
    ck_assert_int_eq(outdir_finish(d, f), 0);
    outdir_close(d);
}
END_TEST

START_TEST(a_bad_manifest_is_refused)
{
    ck_assert_int_eq(mkdir("out", 0777), 0);
    put("out/.cosim-manifest", "# cosim manifest 1\nfile ../../etc/passwd\n");
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "out", NULL, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "out/.cosim-manifest:2: not a cosim manifest; remove it (cosim then takes the folder "
                          "only if it is empty, or with --force)");
    ck_assert_int_eq(unlink("out/.cosim-manifest"), 0);
    ck_assert_int_eq(symlink("/etc/passwd", "out/.cosim-manifest"), 0);
    ck_assert_int_eq(outdir_open(&d, "out", NULL, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "out/.cosim-manifest: not a cosim manifest (not a regular file of at most 1 MiB); "
                          "remove it");
    ck_assert_str_eq(listing("out"), ".cosim-manifest");
}
END_TEST

START_TEST(a_default_folder_of_another_scenario_is_refused)
{
    outdir_options a = {0, "/s/exp1/run.ini", 1, 0}, b = {0, "/s/exp2/run.ini", 1, 0}, bf = {1, "/s/exp2/run.ini", 1, 0};
    const char *files[] = {"open.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("out/run", &a, files), 0);
    ck_assert_int_eq(run_files("out/run", &a, files), 0); /* the same scenario again */
    ck_assert_int_eq(run_files("out/run", &b, files), -EEXIST);
    ck_assert_str_eq(err, "out/run: holds the outputs of /s/exp1/run.ini, not of /s/exp2/run.ini; give -o DIR "
                          "(or --force to replace them)");
    ck_assert_int_eq(run_files("out/run", &bf, files), 0);
    /* recorded as a path from the folder: one ".." for each component of
     * the folder's real path (cwd/out/run), then the source without its
     * leading "/" */
    char cwd[PATH_MAX], want[2 * PATH_MAX] = "\nsource ";
    ck_assert_ptr_nonnull(realpath(".", cwd));
    strcat(cwd, "/out/run");
    for (const char *c = cwd; *c; c++)
        if (*c == '/')
            strcat(want, "../");
    strcat(want, "s/exp2/run.ini\n");
    ck_assert_ptr_nonnull(strstr(get("out/run/.cosim-manifest"), want));
    ck_assert_ptr_null(strstr(get("out/run/.cosim-manifest"), "source /"));
    /* a manifest an older cosim wrote, with the absolute path, still names
     * the same scenario */
    char old[PATH_MAX + 64];
    snprintf(old, sizeof old, "# cosim manifest 1\nsource /s/exp2/run.ini\nfile open.hgrm\n");
    FILE *f = fopen("out/run/.cosim-manifest", "w");
    ck_assert_ptr_nonnull(f);
    fputs(old, f);
    fclose(f);
    ck_assert_int_eq(run_files("out/run", &b, files), 0);
    ck_assert_int_eq(run_files("out/run", &a, files), -EEXIST);
    ck_assert_str_eq(err, "out/run: holds the outputs of /s/exp2/run.ini, not of /s/exp1/run.ini; give -o DIR "
                          "(or --force to replace them)");
}
END_TEST

START_TEST(default_names_are_never_cut)
{
    char buf[PATH_MAX];
    /* two names equal in their first 40 characters */
    ck_assert_int_eq(outdir_default(buf, sizeof buf, "s/a_very_long_scenario_name_for_the_output_variant_A.ini",
                                    "a_very_long_scenario_name_for_the_output", 40, ""), 0);
    ck_assert_str_eq(buf, "out/a_very_long_scenario_name_for_the_output_variant_A");
    ck_assert_int_eq(outdir_default(buf, sizeof buf, "a_very_long_scenario_name_for_the_output_variant_B.ini",
                                    "a_very_long_scenario_name_for_the_output", 40, "-sweep"), 0);
    ck_assert_str_eq(buf, "out/a_very_long_scenario_name_for_the_output_variant_B-sweep");
    /* the reader's own cut keeps 40 bytes, then drops the extension */
    ck_assert_int_eq(outdir_default(buf, sizeof buf, "x/my run.v2.ini", "my_run_v2", 40, ""), 0);
    ck_assert_str_eq(buf, "out/my_run_v2");
    /* a scenario's own [scenario] name wins */
    ck_assert_int_eq(outdir_default(buf, sizeof buf, "x/file.ini", "demo", 40, ""), 0);
    ck_assert_str_eq(buf, "out/demo");
    ck_assert_int_eq(outdir_default(buf, sizeof buf, "..ini", "_", 40, ""), 0);
    ck_assert_str_eq(buf, "out/_");
    ck_assert_int_eq(outdir_default(buf, 8, "x/file.ini", "file", 40, ""), -ENAMETOOLONG);
}
END_TEST

START_TEST(a_signal_removes_the_staging_folder)
{
    const char *files[] = {"open.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, files), 0);
    for (int k = 0; k < 2; k++) {
        const char *dir = k ? "new" : "out";
        pid_t child = fork();
        if (child == 0) {
            outdir *d;
            if (outdir_open(&d, dir, NULL, err, sizeof err))
                _exit(1);
            FILE *f = outdir_create(d, "open.hgrm");
            fputs("2\n", f);
            fflush(f);
            raise(SIGTERM);
            _exit(2);
        }
        int ws;
        ck_assert_int_eq(waitpid(child, &ws, 0), child);
        ck_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM);
    }
    ck_assert_str_eq(get("out/open.hgrm"), "1\n");
    ck_assert_str_eq(listing("out"), ".cosim-manifest open.hgrm");
    ck_assert_str_eq(listing("."), "out"); /* "new" made by the killed run went too */
}
END_TEST

/* temp_parent: the caller's own parent folder goes with a folder the open
 * made, on a signal and on a close without a commit, and only then: a
 * committed run keeps it, and one holding a file of its own is kept. */
START_TEST(a_temporary_parent_goes_with_the_folder)
{
    outdir_options tp = {0, NULL, 0, 1};
    ck_assert_int_eq(mkdir("tmp1", 0700), 0);
    pid_t child = fork();
    if (child == 0) {
        outdir *d;
        if (outdir_open(&d, "tmp1/run", &tp, err, sizeof err))
            _exit(1);
        FILE *f = outdir_create(d, "open.hgrm");
        fputs("2\n", f);
        fflush(f);
        raise(SIGINT);
        _exit(2);
    }
    int ws;
    ck_assert_int_eq(waitpid(child, &ws, 0), child);
    ck_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGINT);
    ck_assert_str_eq(listing("."), ""); /* tmp1 went with tmp1/run */
    /* a close without a commit */
    outdir *d;
    ck_assert_int_eq(mkdir("tmp2", 0700), 0);
    ck_assert_int_eq(outdir_open(&d, "tmp2/run", &tp, err, sizeof err), 0);
    outdir_close(d);
    ck_assert_str_eq(listing("."), "");
    /* a parent holding something else stays */
    ck_assert_int_eq(mkdir("tmp3", 0700), 0);
    put("tmp3/keep", "x\n");
    ck_assert_int_eq(outdir_open(&d, "tmp3/run", &tp, err, sizeof err), 0);
    outdir_close(d);
    ck_assert_str_eq(listing("tmp3"), "keep");
    /* committed: the folder and its parent stay */
    ck_assert_int_eq(mkdir("tmp4", 0700), 0);
    ck_assert_int_eq(outdir_open(&d, "tmp4/run", &tp, err, sizeof err), 0);
    ck_assert_int_eq(outdir_commit(d, err, sizeof err), 0);
    outdir_close(d);
    ck_assert_str_eq(listing("tmp4/run"), ".cosim-manifest");
}
END_TEST

static void interrupt_now(void)
{
    raise(SIGINT);
}

/* A SIGINT that comes during a commit (here: just before the exchange,
 * while the signals are blocked) is dropped once the commit completes: the
 * folder holds the new outputs, so the run ends as a success (it died with
 * SIGINT, exit 130 "DIR left as it was", with the new files in place). */
START_TEST(a_signal_during_a_commit_that_completes_is_dropped)
{
    const char *files[] = {"open.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("out", NULL, files), 0);
    pid_t child = fork();
    if (child == 0) {
        const char *second[] = {"open.hgrm", "2\n", NULL};
        before_exchange = interrupt_now;
        int rc = run_files("out", NULL, second);
        _exit(rc ? 1 : 0);
    }
    int ws;
    ck_assert_int_eq(waitpid(child, &ws, 0), child);
    ck_assert(WIFEXITED(ws));
    ck_assert_int_eq(WEXITSTATUS(ws), 0);
    ck_assert_str_eq(get("out/open.hgrm"), "2\n");
    ck_assert_str_eq(listing("out"), ".cosim-manifest open.hgrm");
    ck_assert_str_eq(listing("."), "out");
}
END_TEST

START_TEST(an_exit_without_close_removes_the_staging_folder)
{
    pid_t child = fork();
    if (child == 0) {
        outdir *d;
        if (outdir_open(&d, "new", NULL, err, sizeof err))
            _exit(1);
        FILE *f = outdir_create(d, "open.hgrm");
        fputs("1\n", f);
        exit(3); /* an early return that forgot outdir_close */
    }
    int ws;
    ck_assert_int_eq(waitpid(child, &ws, 0), child);
    ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 3);
    ck_assert_str_eq(listing("."), "");
}
END_TEST

START_TEST(a_folder_that_is_a_file_or_a_dangling_link_is_refused)
{
    put("file", "x\n");
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "file", NULL, err, sizeof err), -ENOTDIR);
    ck_assert_str_eq(err, "file: cannot write the output folder: Not a directory");
    ck_assert_int_eq(outdir_open(&d, "file/sub", NULL, err, sizeof err), -ENOTDIR);
    ck_assert_str_eq(err, "file/sub: cannot write the output folder: Not a directory");
    ck_assert_int_eq(symlink("nowhere", "dangling"), 0);
    ck_assert_int_eq(outdir_open(&d, "dangling", NULL, err, sizeof err), -ENOTDIR);
    ck_assert_str_eq(err, "dangling: cannot write the output folder: it is a symbolic link to nothing");
    ck_assert_int_eq(outdir_open(&d, "", NULL, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "an empty output folder name");
    ck_assert_str_eq(listing("."), "dangling file");
    /* a lock that is a link (soft or hard) to another file is not written */
    ck_assert_int_eq(mkdir("o", 0777), 0);
    ck_assert_int_eq(link("file", "o/.cosim-lock"), 0);
    ck_assert_int_eq(outdir_open(&d, "o", NULL, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "o: .cosim-lock is not a regular file of its own, not cosim's lock; remove it");
    ck_assert_int_eq(unlink("o/.cosim-lock"), 0);
    ck_assert_int_eq(symlink("../file", "o/.cosim-lock"), 0);
    ck_assert_int_eq(outdir_open(&d, "o", NULL, err, sizeof err), -ELOOP);
    ck_assert_str_eq(err, "o: .cosim-lock is a symbolic link, not cosim's lock; remove it");
    ck_assert_str_eq(get("file"), "x\n");
}
END_TEST

static void second_run(void)
{
    const char *second[] = {"a.hgrm", "2\n", "c.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, second), 0);
}

START_TEST(without_rename_exchange_the_files_are_replaced_one_by_one)
{
    const char *first[] = {"a.hgrm", "1\n", "b.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, first), 0);
    struct stat before, after;
    ck_assert_int_eq(stat("o", &before), 0);
    no_exchange = 1;
    ck_assert_str_eq(stderr_of(second_run), "cosim: warning: o: the filesystem cannot swap the folder in one step "
                                            "(Invalid argument); replacing the files one by one\n");
    ck_assert_int_eq(stat("o", &after), 0);
    ck_assert(before.st_ino == after.st_ino); /* the same folder, its files replaced */
    ck_assert_str_eq(listing("o"), ".cosim-manifest a.hgrm c.hgrm");
    ck_assert_str_eq(get("o/a.hgrm"), "2\n");
    ck_assert_str_eq(listing("."), "o");
}
END_TEST

START_TEST(a_rename_failing_half_way_puts_the_previous_files_back)
{
    const char *first[] = {"a.hgrm", "1\n", "b.hgrm", "1\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, first), 0);
    put("o/notes.txt", "mine\n"); /* a foreign file: the commit goes file by file */
    char manifest[4096];
    snprintf(manifest, sizeof manifest, "%s", get("o/.cosim-manifest"));
    /* a.hgrm and b.hgrm are moved aside and a.hgrm, b.hgrm put in place
     * before c.hgrm fails */
    fail_rename_into = "c.hgrm";
    const char *second[] = {"a.hgrm", "2\n", "b.hgrm", "2\n", "c.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, second), -EIO);
    ck_assert_str_eq(err, "o/c.hgrm: cannot replace: Input/output error");
    ck_assert_str_eq(listing("o"), ".cosim-manifest a.hgrm b.hgrm notes.txt");
    ck_assert_str_eq(get("o/a.hgrm"), "1\n");
    ck_assert_str_eq(get("o/b.hgrm"), "1\n");
    ck_assert_str_eq(get("o/.cosim-manifest"), manifest);
    ck_assert_str_eq(listing("."), "o");
    /* the same failure when swapping the whole folder changes nothing either */
    ck_assert_int_eq(unlink("o/notes.txt"), 0);
    fail_rename_into = "o";
    ck_assert_int_eq(run_files("o", NULL, second), -EIO);
    ck_assert_str_eq(err, "o: cannot replace the output folder: Input/output error");
    ck_assert_str_eq(listing("o"), ".cosim-manifest a.hgrm b.hgrm");
    ck_assert_str_eq(get("o/a.hgrm"), "1\n");
    ck_assert_str_eq(listing("."), "o");
}
END_TEST

/* The user moves DIR away and makes a new DIR (their own files in it)
 * while a run writes: the commit must not swap the user's folder away,
 * write into it, nor let a later run delete its files. */
static void user_replaces_R(void)
{
    ck_assert_int_eq(rename("R", "R.old"), 0);
    ck_assert_int_eq(mkdir("R", 0777), 0);
    put("R/important.txt", "important\n");
}

/* One run into R that stages a.hgrm; hook runs between open and commit
 * (NULL: none) and swap, if set, runs just before the RENAME_EXCHANGE. */
static int run_with_race(void (*hook)(void), void (*swap)(void))
{
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "R", NULL, err, sizeof err), 0);
    FILE *f = outdir_create(d, "a.hgrm");
    fputs("2\n", f);
    ck_assert_int_eq(outdir_finish(d, f), 0);
    if (hook)
        hook();
    before_exchange = swap;
    int rc = outdir_commit(d, err, sizeof err);
    before_exchange = NULL;
    outdir_close(d);
    return rc;
}

START_TEST(a_folder_replaced_during_the_run_is_never_swapped_away)
{
    const char *first[] = {"a.hgrm", "1\n", NULL};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(run_files("R", NULL, first), 0);
        if (k == 2)
            put("R/notes.txt", "mine\n"); /* a foreign file: file by file */
        /* k = 0: replaced during the run; k = 1: in the instant before the swap */
        ck_assert_int_eq(run_with_race(k == 1 ? NULL : user_replaces_R, k == 1 ? user_replaces_R : NULL), -ESTALE);
        ck_assert_str_eq(err, "R: the folder was moved, removed or replaced while cosim ran");
        ck_assert_str_eq(listing("R"), "important.txt");
        ck_assert_str_eq(get("R/important.txt"), "important\n");
        ck_assert_str_eq(listing("R.old"), k == 2 ? ".cosim-manifest a.hgrm notes.txt" : ".cosim-manifest a.hgrm");
        ck_assert_str_eq(get("R.old/a.hgrm"), "1\n");
        ck_assert_str_eq(listing("."), "R R.old"); /* no staging folder left */
        /* the next run into R refuses the user's folder and deletes nothing */
        ck_assert_int_eq(run_files("R", NULL, first), -EEXIST);
        ck_assert_str_eq(err, "R: holds important.txt, which cosim did not write (the folder has no "
                              ".cosim-manifest); give a new or empty folder, or --force to write beside its files");
        ck_assert_str_eq(get("R/important.txt"), "important\n");
        ck_assert_int_eq(system("rm -rf R R.old"), 0);
    }
    /* a folder the run made, then replaced: the user's folder is not removed */
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "R", NULL, err, sizeof err), 0);
    user_replaces_R();
    outdir_close(d);
    ck_assert_str_eq(listing("R"), "important.txt");
}
END_TEST

/* A .cosim-lock cosim did not write is the user's: never written,
 * truncated nor removed, whether cosim refuses the folder or not. */
START_TEST(a_users_lock_file_is_never_touched)
{
    const char *files[] = {"open.hgrm", "1\n", NULL};
    outdir_options force = {1, NULL, 0, 0};
    ck_assert_int_eq(mkdir("o", 0777), 0);
    put("o/.cosim-lock", "mine\n");
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(run_files("o", k ? &force : NULL, files), -EEXIST);
        ck_assert_str_eq(err, "o: holds .cosim-lock, which cosim did not write (not a cosim lock); cosim never "
                              "writes over it: move it away or give another folder");
        ck_assert_str_eq(listing("o"), ".cosim-lock");
        ck_assert_str_eq(get("o/.cosim-lock"), "mine\n");
    }
    /* in a folder of cosim's too; an empty one is the user's as well */
    ck_assert_int_eq(run_files("c", NULL, files), 0);
    put("c/.cosim-lock", "");
    ck_assert_int_eq(run_files("c", NULL, files), -EEXIST);
    ck_assert_str_eq(listing("c"), ".cosim-lock .cosim-manifest open.hgrm");
    ck_assert_str_eq(get("c/.cosim-lock"), "");
    /* a killed cosim's lock (its text, a dead pid) is taken and removed */
    char text[64];
    snprintf(text, sizeof text, "cosim lock pid %ld\n", (long)dead_pid());
    put("c/.cosim-lock", text);
    const char *again[] = {"open.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("c", NULL, again), 0);
    ck_assert_str_eq(listing("c"), ".cosim-manifest open.hgrm");
    ck_assert_str_eq(get("c/open.hgrm"), "2\n");
    /* the lock of a running cosim says so */
    outdir *d;
    ck_assert_int_eq(outdir_open(&d, "c", NULL, err, sizeof err), 0);
    snprintf(text, sizeof text, "cosim lock pid %ld\n", (long)getpid());
    ck_assert_str_eq(get("c/.cosim-lock"), text);
    outdir_close(d);
}
END_TEST

/* A previous file that cannot be removed (chattr +i, EPERM): the commit
 * fails with the errno and DIR stays as it was, whole; no staging left. */
START_TEST(a_previous_file_that_cannot_be_removed_fails_the_commit)
{
    const char *first[] = {"a.hgrm", "1\n", "b.hgrm", "1\n", NULL};
    const char *second[] = {"a.hgrm", "2\n", "c.hgrm", "2\n", NULL};
    ck_assert_int_eq(run_files("o", NULL, first), 0);
    struct stat before, after;
    ck_assert_int_eq(stat("o", &before), 0);
    fail_rename_into = "b.hgrm";
    fail_errno = EPERM;
    ck_assert_int_eq(run_files("o", NULL, second), -EPERM);
    ck_assert_str_eq(err, "o/b.hgrm: cannot remove the previous run's file: Operation not permitted");
    ck_assert_int_eq(stat("o", &after), 0);
    ck_assert(before.st_ino == after.st_ino); /* the folder swapped back */
    ck_assert_str_eq(listing("o"), ".cosim-manifest a.hgrm b.hgrm");
    ck_assert_str_eq(get("o/a.hgrm"), "1\n");
    ck_assert_str_eq(get("o/b.hgrm"), "1\n");
    ck_assert_str_eq(listing("."), "o");
    /* file by file (a foreign file beside): the same */
    put("o/notes.txt", "mine\n");
    ck_assert_int_eq(run_files("o", NULL, second), -EPERM);
    ck_assert_str_eq(err, "o/b.hgrm: cannot replace: Operation not permitted");
    ck_assert_str_eq(listing("o"), ".cosim-manifest a.hgrm b.hgrm notes.txt");
    ck_assert_str_eq(get("o/a.hgrm"), "1\n");
    ck_assert_str_eq(listing("."), "o");
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("outdir");
    TCase *t = tcase_create("outdir");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, a_new_folder_is_written_whole_with_its_manifest);
    tcase_add_test(t, a_rerun_replaces_and_removes_only_listed_files);
    tcase_add_test(t, a_folder_of_cosim_files_only_is_swapped_whole);
    tcase_add_test(t, a_foreign_folder_is_refused_naming_its_first_file);
    tcase_add_test(t, force_writes_beside_foreign_files_and_never_over_them);
    tcase_add_test(t, root_and_home_are_always_refused);
    tcase_add_test(t, a_planted_staging_link_is_never_followed);
    tcase_add_test(t, stale_staging_of_dead_runs_is_removed);
    tcase_add_test(t, stale_staging_without_cosims_marker_is_left_alone);
    tcase_add_test(t, a_second_writer_is_refused_with_the_first_ones_pid);
    tcase_add_test(t, a_failed_run_leaves_the_folder_as_it_was);
    tcase_add_test(t, a_write_error_keeps_its_errno);
    tcase_add_test(t, names_are_checked);
    tcase_add_test(t, a_bad_manifest_is_refused);
    tcase_add_test(t, a_default_folder_of_another_scenario_is_refused);
    tcase_add_test(t, default_names_are_never_cut);
    tcase_add_test(t, a_signal_removes_the_staging_folder);
    tcase_add_test(t, a_temporary_parent_goes_with_the_folder);
    tcase_add_test(t, a_signal_during_a_commit_that_completes_is_dropped);
    tcase_add_test(t, a_folder_that_is_a_file_or_a_dangling_link_is_refused);
    tcase_add_test(t, an_exit_without_close_removes_the_staging_folder);
    tcase_add_test(t, without_rename_exchange_the_files_are_replaced_one_by_one);
    tcase_add_test(t, a_rename_failing_half_way_puts_the_previous_files_back);
    tcase_add_test(t, a_folder_replaced_during_the_run_is_never_swapped_away);
    tcase_add_test(t, a_users_lock_file_is_never_touched);
    tcase_add_test(t, a_previous_file_that_cannot_be_removed_fails_the_commit);
    suite_add_tcase(s, t);
    return s;
}
