/* timeline.h - single requests, kept within bounds, for the charts that
 * show requests over time: latency against intended send (or reply) time,
 * the book's Figure 5.2 bars from intended send to reply, and the backlog
 * (requests at the server) over time.
 *
 * Memory is fixed by max_points, whatever the number of requests: a tester
 * keeps each request in the window [from, to) until it has max_points of
 * them; from then on it keeps, for each of max_points equal time bins, the
 * largest latency and the mean (so no stall's spike is lost),
 * deterministically.
 *
 * Besides the requests sent, a tester's window shows what the book's
 * Figure 5.2 is about (timeline_set_tester):
 *  - never sent: the slots of a paced (or corrected) tester's grid
 *    t_i = floor(i D) in the window that no request claimed (a request
 *    claims the slot at or before its intended time);
 *  - synthetic: the samples a corrected tester's correction adds to a late
 *    reply of value v at expected interval D (hist_correction_count of
 *    them): v - kD, drawn as if sent at (reply - v) + kD, k = 1, 2, ...
 */
#ifndef COSIM_TIMELINE_H
#define COSIM_TIMELINE_H

#include "scenario.h"
#include "tester.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct timeline timeline;

/** What a row of the charts' data is (the last column of each row). */
typedef enum timeline_row_kind {
    TIMELINE_SENT = 0,      /**< a request sent */
    TIMELINE_SYNTHETIC = 1, /**< a sample the correction added */
    TIMELINE_NEVER_SENT = 2, /**< a planned slot no request was sent for */
    TIMELINE_BIN_MAX = 3,   /**< binned: the largest latency of a bin */
    TIMELINE_BIN_MEAN = 4,  /**< binned: the mean latency of a bin */
} timeline_row_kind;

/**
 * @param n_testers   testers observed (indices 0..n_testers-1)
 * @param from_ns     window start (intended send times before it are ignored)
 * @param to_ns       window end (exclusive), > from_ns
 * @param max_points  requests kept per tester before binning (>= 1); also
 *                    the most synthetic samples kept per tester
 * @return 0, -EINVAL or -ENOMEM.
 */
int timeline_new(timeline **out, size_t n_testers, int64_t from_ns, int64_t to_ns, size_t max_points);

/**
 * Tell the timeline tester i's schedule, for the never-sent slots and the
 * synthetic samples: paced and corrected testers have a grid (the spec's
 * interval, slots before end_ns planned), corrected ones an expected
 * interval (the spec's, else each user's own interval floor(U D), as the
 * tester uses) and a correction rule. Other kinds: nothing to do.
 * @return 0, or -EINVAL for an index out of range.
 */
int timeline_set_tester(timeline *t, size_t i, const tester_spec *spec, int64_t end_ns);

/**
 * Bin by reply time instead of intended send time (--timeline-by reply);
 * only before the first observation.
 */
void timeline_set_by_reply(timeline *t, int by_reply);

/** Free; timeline_free(NULL) does nothing. */
void timeline_free(timeline *t);

/**
 * Write what tester i's requests left in t (its points, bins, backlog and
 * correction's samples) as bytes for timeline_load_tester in a program of
 * the same build: a tester run by one instance of the browser engine, its
 * charts drawn by another (web/engine.c). Not a file format.
 *
 * @param f  the stream (a memory stream)
 * @return 0, -EINVAL (i not a tester of t), or -EIO when writing f failed.
 */
int timeline_save_tester(const timeline *t, size_t i, FILE *f);

/**
 * Put what timeline_save_tester wrote into tester i of t, which must be
 * made as the saved one's was (timeline_new with the same window and
 * points, timeline_set_tester with the same tester) and have seen no
 * request of tester i; *at moves past the bytes.
 *
 * @return 0, -EINVAL when the bytes are not timeline_save_tester's or
 *         were saved from another window or size, -ENOMEM.
 */
int timeline_load_tester(timeline *t, size_t i, const unsigned char **at, const unsigned char *end);

/**
 * Observe one request of tester i (a tester_observer's body): O(1) per
 * request, plus one store per synthetic sample in the window. Narrows gate
 * (tester_gate_narrow) to what the chart no longer needs: everything after
 * the window; before it, the requests that are answered before the window
 * opens. Testers i >= n_testers are ignored (the gate is left alone).
 */
void timeline_observe(timeline *t, size_t i, const tester_request *rq, tester_gate *gate);

/** Rows tester i has in timeline_write_points' latency block (0: the
 *  panel would be blank). */
size_t timeline_points(const timeline *t, size_t i);

/** Rows tester i has in timeline_write_bars (0 when binned). */
size_t timeline_bars(const timeline *t, size_t i);

/** Whether tester i kept every request of the window (not binned). */
int timeline_exact(const timeline *t, size_t i);

/** 1 if tester i measures its latency from the actual send (latency_from
 *  = sent, a closed loop): one of its requests in the window was sent after
 *  its intended time and its latency is reply - sent; 0 otherwise (from the
 *  intended send, or no late request to tell). */
int timeline_from_sent(const timeline *t, size_t i);

/** Requests of tester i seen in the window (kept or binned). */
uint64_t timeline_seen(const timeline *t, size_t i);

/**
 * How many of tester i's requests in the window it did not record (in
 * its warm-up, timed out, failed, or dropped at the run's end): counted in
 * timeline_seen, not drawn on the timeline (the request bars draw them).
 * @param i  the tester's index (< the testers given to timeline_new)
 */
uint64_t timeline_unrecorded(const timeline *t, size_t i);

/** Synthetic samples of tester i in the window, and how many of them are
 *  kept (at most max_points). */
uint64_t timeline_synthetic(const timeline *t, size_t i, uint64_t *kept);

/** Never-sent slots of tester i in the window (0 when binned or no grid). */
uint64_t timeline_never_sent(const timeline *t, size_t i);

/**
 * The latency chart's data. First one block per tester, rows
 * "time_s latency_ms kind" (kind a timeline_row_kind: requests and
 * synthetic samples, time the intended send or, timeline_set_by_reply, the
 * reply; binned: bin centre, largest and mean latency of each bin). Then
 * one block per tester for the backlog: rows "bin_start_s requests", the
 * most requests sent and not yet answered at any instant of each bin (bins
 * holding two requests of the window's sparsest tester, 20 to max_points
 * of them, widened to a round 1, 2 or 5 x 10^k ns), and a last row at
 * the window's end. Blocks are
 * separated by two blank lines.
 * @return 0, -EIO or -ENOMEM.
 */
int timeline_write_points(const timeline *t, FILE *f, const char *const *names);

/** The width of the backlog's bins in timeline_write_points, ns: 1, 2 or
 *  5 x 10^k (known once every request is observed). */
int64_t timeline_backlog_bin_ns(const timeline *t);

/**
 * The request bars' data: one block per tester kept exactly, rows
 * "intended_s sent_s reply_s row kind start_s service_s": row is the request's index in the
 * run (from 0, in send order), or for a tester with a grid its slot i
 * (intended time floor(i D)), so never-sent slots keep their rows; kind a
 * timeline_row_kind (a never-sent row has sent_s and reply_s nan, a
 * synthetic one sent_s nan); start_s is reply - latency, where the
 * tester's latency starts (its intended or its actual send); service_s
 * when its service began (tester_request.start_ns: from start_s to it the
 * request waited for a worker or a stall window; nan for kinds 1 and 2). A tester with more than max_draw requests is
 * thinned: every k-th request is written, with every request slower than
 * 5 times the fastest (a comment says so). Testers that were binned get an
 * empty block. @return 0, -EIO or -ENOMEM.
 */
int timeline_write_bars(const timeline *t, FILE *f, const char *const *names, size_t max_draw);

/**
 * Tester i's thinning in timeline_write_bars: 1 if every request is drawn,
 * else k (every k-th).
 */
size_t timeline_bars_every(const timeline *t, size_t i, size_t max_draw);

/**
 * The default windows of the time charts when neither --window nor
 * chart_window gives one. D is the smallest interval of the testers with a
 * rate (else of the closed ones: users / (mean service + mean think)). The
 * stall is the longest stop-the-world window starting at least 8 D into
 * the run, the earliest of equally long ones (else the first window; the
 * first 1000 windows are looked at).
 *  - bars: 8 D before the stall to 40 D after the window's start (about 40
 *    requests of the densest tester), or to 8 D after the queue has
 *    drained when that is later (a long stall: its recovery is drawn);
 *  - timeline: from max(L, 50 D) before the stall (L its length) to
 *    max(3 L, 150 D, 1.5 R) after its end, at most 2500 D wide unless that
 *    would end before max(L, 50 D) after the queue has drained.
 * R, the drain, is L rho / (1 - rho): the backlog lambda L the stall built,
 * served at mu - lambda (rho the largest offered utilisation of the testers
 * with a rate; at rho >= 0.95, 20 L; closed loops only: 0).
 * Without a stall both start at the run's middle, rounded down to a
 * multiple of their width, which is 40 D (bars) and 2000 D (timeline)
 * rounded up to 1, 2 or 5 x 10^k ns, so both ends read as round figures
 * (500ms..500.5ms); with closed testers alone D is at least the mean
 * service time over the workers (replies pace their sends). A window past
 * the end is moved back, one wider than the run is the whole run.
 * @return 0, or -EINVAL when the run is empty.
 */
int timeline_default_windows(const scenario *s, int64_t *tl_from, int64_t *tl_to, int64_t *bars_from,
                             int64_t *bars_to);

#endif
