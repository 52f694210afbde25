/* import_idle.h: stretches where the traced GPU sat idle while work already submitted waited, held by something the trace does not show.
 *
 * A trace holds the program's calls and the GPU's work inside a window.
 * Work the window does not show (a peer GPU's pace, another process, work
 * issued before the window began and still running) can hold a stream that
 * the trace's own waits leave free: the GPU then idles, in the trace, with
 * work submitted before the idle stretch began that starts only after it
 * ended. Nothing in the schedule holds that work, so the prediction runs it
 * at once and comes out short by about those stretches. They are counted
 * (stretches of at least the given length) and said in the schedule's
 * header and the command's summary, so that a user reads the prediction's
 * miss against them. */
#ifndef IMPORT_IDLE_H
#define IMPORT_IDLE_H

#include <glib.h>
#include "import_infer.h"

/* The shortest stretch counted: a launch's or a copy's way to the GPU
 * takes microseconds, a held stream milliseconds. */
#define IMPORT_IDLE_MIN_NS G_GUINT64_CONSTANT (1000000)

typedef struct
{
  guint n;              /* idle stretches of at least min_ns */
  guint64 total_ns;     /* ... and their length together */
} ImportIdle;

/* Over the `n` calls (InferCall: each call's return, and its GPU work's
 * span where `timed`), the stretches of at least `min_ns` in which no
 * timed work ran while work whose call had returned before the stretch
 * began started only after it. */
ImportIdle import_idle_find (const InferCall *calls, guint n, guint64 min_ns);

#endif /* IMPORT_IDLE_H */
