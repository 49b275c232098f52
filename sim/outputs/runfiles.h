/* runfiles.h - the files a run writes into its output folder, one row
 * each: the table the command line (cli/outputs.c) and `cosim lecture`
 * (cli/lecture.c) both walk, so a new file is one row here and its writer.
 * The charts' files are the chart table's (cli/charts.h).
 *
 * To add an output file (docs/hacking.md, "To add an output file"): one
 * row in runfiles[] (runfiles.c) with its name, its flags and a writer
 * int (*)(FILE *, const scenario *, const run_result *, size_t tester)
 * that returns 0 or a negative errno; docs/cosim.1's list of files and
 * its golden digest (tests/golden) follow.
 */
#ifndef COSIM_RUNFILES_H
#define COSIM_RUNFILES_H

#include "run.h"
#include "scenario.h"

#include <stddef.h>
#include <stdio.h>

/** A row's flags. */
enum runfile_flag {
    /** one file per tester, named the tester's name then NAME (TESTER.hgrm) */
    RUNFILE_PER_TESTER = 1u << 0,
    /** written only when the scenario has hlog_interval (the run kept its
     *  interval log, run_result.hlog) */
    RUNFILE_WITH_HLOG = 1u << 1,
    /** `cosim lecture` also puts it beside a scenario's page, as
     *  STEM.NAME, and the page links it */
    RUNFILE_LECTURE = 1u << 2,
};

/** One file a run writes. */
typedef struct runfile {
    const char *name; /**< "summary.json", or ".hgrm" after each tester's
                           name with RUNFILE_PER_TESTER */
    unsigned flags;   /**< enum runfile_flag bits */
    /** write the file to f: tester is the tester's index with
     *  RUNFILE_PER_TESTER, else 0. @return 0 or a negative errno. */
    int (*write)(FILE *f, const scenario *s, const run_result *r, size_t tester);
} runfile;

/** The files, in the order they are written. */
extern const runfile runfiles[];
/** How many rows runfiles[] has. */
extern const size_t runfiles_n;

/**
 * How many files row k gives for run r: the testers for a per-tester row,
 * 1 for another, 0 when the row's condition does not hold
 * (RUNFILE_WITH_HLOG without an interval log).
 */
size_t runfiles_count(size_t k, const scenario *s, const run_result *r);

/**
 * The name of file i (0 <= i < runfiles_count) of row k, with prefix
 * before it ("" for none; the lecture's "STEM.").
 *
 * @param buf,len  where the name goes
 * @return 0, or -ENAMETOOLONG when it does not fit in len bytes.
 */
int runfiles_name(size_t k, size_t i, const scenario *s, const char *prefix, char *buf, size_t len);

#endif
