/* window.h - a window of time [start_ns, end_ns) on a run's clock.
 *
 * One plain type shared by the layers that read windows (formats/: a GC
 * log's pauses) and the layers that act on them (model/: a stall's
 * stop-the-world windows, which stall.h names stall_window). It lives in
 * base/ so that a file format need not know the model to hand windows over.
 */
#ifndef COSIM_WINDOW_H
#define COSIM_WINDOW_H

#include <stdint.h>

/** A window of time [start_ns, end_ns), nanoseconds on the run's clock;
 *  start_ns <= end_ns. */
typedef struct time_window {
    int64_t start_ns, end_ns;
} time_window;

#endif
