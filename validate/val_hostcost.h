/* val_hostcost.h: the host's cost of API calls and the link's speed, measured in the very process that runs a schedule.
 *
 * Why: on the lent GPU machines the host's speed is a property of the
 * process, not of the GPU. The same schedule run in sixteen processes, one
 * after the other on one core, paid either about 3.7 to 4.0 us or about 5.0
 * to 5.7 us per kernel launch (and 1.9 to 2.1 or 3.4 to 3.9 us per 4 KiB
 * cudaMemcpyAsync), and a process kept its mode for all its repeats
 * (validate/FINDINGS.md, "The host's two speeds"). A host-bound schedule is
 * then only predictable with the call costs of its own process, so the
 * harness measures them next to the repeats and writes them into the CSV's
 * metadata (`# host_calls:`), where validate/report.sh picks them up.
 *
 * The link's speed moves too, over tens of seconds rather than per process:
 * ten calibrations in a row on one H100 measured pinned H2D between 52.1
 * and 54.9 GB/s, in a slow and a fast spell, and the 256 MiB copy measured
 * right after each calibration followed it (validate/results/h100/
 * calibration-repeat/). A profile is a snapshot of its minute; a 64 MiB
 * pinned copy each way beside every repeat says how far the run's link was
 * from it. */
#ifndef VAL_HOSTCOST_H
#define VAL_HOSTCOST_H

#include <glib.h>
#include "sim/core/sim_time.h"

typedef struct
{
  SimTime kernel_launch;   /* empty 1-block spin kernel, the streams in turn: the mean
                            * gap between calls */
  SimTime memcpy_async;    /* 4 KiB pinned copies, the streams in turn: the mean of the
                            * H2D and the D2H calls' mean gaps */
  SimTime kernel_launch_median; /* the same as medians, for comparison: the model */
  SimTime memcpy_async_median;  /* used medians until 2026-11-24 */
  SimTime h2d_pageable;    /* one 64 MiB pageable H2D, call to sync return; -1 if not asked */
  SimTime d2h_pageable;    /* the same D2H; -1 if not asked */
  SimTime h2d_pinned;      /* one 64 MiB pinned H2D right behind another in its stream,
                            * event to event: the model's latency + bytes / bandwidth;
                            * -1 if not asked */
  SimTime d2h_pinned;      /* the same D2H; -1 if not asked */
} ValHostCosts;

#define VAL_HOSTCOST_COPY_BYTES ((guint64) 64 << 20)

/* What the probe measures besides the calls, for a schedule that has such copies. */
typedef enum
{
  VAL_PROBE_PAGEABLE = 1 << 0, /* pageable H2D and D2H copies */
  VAL_PROBE_PINNED = 1 << 1,   /* pinned H2D and D2H copies */
} ValProbeCopies;

typedef struct ValHostProbe ValHostProbe;

/* Makes the probe's own streams and buffers (64 MiB of device memory and
 * 64 MiB of each kind of host memory that `copies` asks for), once, so
 * that measuring between a schedule's repeats does not make and free them
 * there. The calls go round `n_streams` streams,
 * as many as the schedule declares: a launch costs more in a program that
 * cycles through many streams (in one process, 4.4 us round 4 streams and
 * 4.8 to 5.2 us round 48; validate/FINDINGS.md). NULL and an error on a
 * failing CUDA call. */
ValHostProbe *val_host_probe_new (guint n_streams, ValProbeCopies copies, GError **error);
void val_host_probe_free (ValHostProbe *probe);

/* Measures the costs now (the device must be idle): 400 launches, 200
 * copies of 4 KiB each way (about 3 ms), one 64 MiB pageable copy each way
 * (about 15 ms) and two 64 MiB pinned copies each way (about 5 ms) when
 * asked. Call it where the schedule's repeats run, with the
 * same tracing active, so that what the calls cost there is counted. */
gboolean val_host_probe_measure (ValHostProbe *probe, ValHostCosts *costs, GError **error);

/* The median of each cost over `n` measurements. */
void val_host_costs_median (const ValHostCosts *costs, int n, ValHostCosts *median);

/* The `# host_calls:` metadata value: "kernel_launch=3952ns memcpy_async=2051ns",
 * when measured "h2d_pageable_64MiB=8391234ns d2h_pageable_64MiB=4312345ns"
 * and "h2d_pinned_64MiB=1221300ns d2h_pinned_64MiB=1224100ns", then
 * "kernel_launch_median=3810ns memcpy_async_median=1987ns".
 * Free with g_free. */
char *val_host_costs_format (const ValHostCosts *costs);

#endif /* VAL_HOSTCOST_H */
