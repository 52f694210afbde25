/* val_clock.h: one time origin for the host clock, the GPU's global timer and CUDA events.
 *
 * Three clocks see a run: the host's CLOCK_MONOTONIC (issue times, host
 * work, syncs), the GPU's %globaltimer (kernels time their own blocks) and
 * CUDA events (copies, records, waits). Events only give differences between
 * two events, so one of them, the origin, is tied to the global timer, and
 * the global timer is tied to the host clock. Both ties are measured before
 * every repeat, so drift between the clocks does not accumulate. */
#ifndef VAL_CLOCK_H
#define VAL_CLOCK_H

#include <glib.h>
#include <cuda_runtime_api.h>
#include "sim/core/sim_time.h"

typedef struct ValClock ValClock;

/* Uses `stream` (a non-blocking stream of the harness's own, idle outside
 * val_clock_sync) for its probe kernels and the origin event. */
ValClock *val_clock_new (cudaStream_t stream, GError **error);
void val_clock_free (ValClock *clock);

/* Measures both ties now. The GPU must be otherwise idle. */
gboolean val_clock_sync (ValClock *clock, GError **error);

/* A %globaltimer reading on the host clock. */
SimTime val_clock_from_gpu (const ValClock *clock, guint64 globaltimer);

/* A completed timing event on the host clock. */
gboolean val_clock_from_event (const ValClock *clock, cudaEvent_t event, SimTime *host,
                               GError **error);

/* How well the last sync pinned the ties down: the width of the window the
 * global-timer reading was taken in, and of the window the origin event was
 * bracketed in (ns). */
SimTime val_clock_host_window (const ValClock *clock);
SimTime val_clock_event_window (const ValClock *clock);

#endif /* VAL_CLOCK_H */
