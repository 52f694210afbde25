/* record_inside.h: host time inside a recorded call that the model does not put inside that call.
 *
 * The model charges each call the profile's cost (a launch, an async copy, a
 * synchronize's return after the GPU work it waited for) and nothing else;
 * a call that took longer did host work of its own (the first copy's or
 * launch's set-up in the runtime, lazy module loading, unpinning memory),
 * which the schedule has to say as `host` statements around the op. What a
 * call usually costs is read from the same log: the lower median over the
 * calls of its group (the lower one, so that in a group of two the call
 * with the set-up is not its own yardstick). Three shapes of call:
 *
 * - An asynchronous call (a launch, an async copy from pinned memory, a
 *   memset, a host function, an event record or wait) is unusual when it
 *   took at least twice its group's usual time and the difference is at
 *   least the minimum host time; its usual time is the group's plus what
 *   the model charges it more than the others (a launch that loads its
 *   kernel's code, kernel_load). The difference is host time: before the op as far as its GPU
 *   work started only after it (the work cannot have been submitted before
 *   the set-up was done), after the op for the rest. A call whose group has
 *   no other call shows no usual time; of it only what the call still ran
 *   after its own work had started is host time, after the op (the model
 *   returns a call before its work can start).
 * - A blocking call (a synchronize, a blocking copy, an async copy from
 *   pageable memory) returns after the GPU work it waited for; how long
 *   after is compared in the same way with its group's usual return, taken
 *   as 0 when the group usually returns before the work ends (pageable
 *   host-to-device copies return while their last chunk is still in
 *   flight). The difference is host time after the op, and the op ends for
 *   the host where that host time begins. A pageable device-to-host copy
 *   ends with the host copying its last chunk out of the staging buffer,
 *   which the pageable rate accounts for: it is left whole.
 *   A blocking copy whose own work started later after the call (and after
 *   its stream's earlier work) than the copies of its `setup_group` (its
 *   group's of about its size: a large copy stages its first chunk before
 *   its work starts) usually do, by at least twice their usual delay and
 *   the minimum, did that much set-up first:
 *   host time before the op (a DataLoader's first batch, copied while its
 *   workers start). Not where its host buffer was not resident: the
 *   untouched link's rate holds that wait.
 * - cudaFree and cudaFreeHost wait for the device, which the model charges
 *   as a synchronize (`charged` on an idle device, `charged_wait` after
 *   work); what they did after the GPU's last work ended beyond that charge
 *   is host work (freeing, unpinning), after the op, whatever its length:
 *   the GPU is idle all through it, so no later wait absorbs it, as it
 *   absorbs the short gaps between launches.
 *
 * The work a synchronize waited for: cudaDeviceSynchronize and the frees,
 * all work issued before it; a stream's synchronize, that stream's work,
 * and for the legacy default stream the work of every blocking stream
 * too; an event's, what its stream had been given when it was recorded. */
#ifndef RECORD_INSIDE_H
#define RECORD_INSIDE_H

#include <glib.h>
#include "sim/core/gpu_profile.h"

typedef enum
{
  INSIDE_OTHER,     /* no op: its GPU work, if any, only counts as waited for */
  INSIDE_ASYNC,
  INSIDE_BLOCKING,
  INSIDE_FREE,
} InsideKind;

/* What a blocking call waits for. */
typedef enum
{
  INSIDE_WAITS_OWN,    /* its own GPU work: a blocking copy */
  INSIDE_WAITS_STREAM, /* `stream`'s work */
  INSIDE_WAITS_EVENT,  /* `event`'s latest record */
  INSIDE_WAITS_DEVICE, /* all work */
} InsideWaits;

/* The legacy default stream's key in `stream`: its work waits for every
 * blocking stream's, and a synchronize of it waits for them too. */
#define INSIDE_STREAM_LEGACY G_MAXUINT64

typedef struct
{
  InsideKind kind;
  InsideWaits waits;    /* INSIDE_BLOCKING */
  const char *group;    /* calls with the same usual cost (compared by content) */
  guint64 enter, exit;
  guint64 stream;       /* the stream its work or wait is in (INSIDE_STREAM_LEGACY) */
  gboolean nonblocking; /* that stream was created nonblocking */
  guint64 event;        /* an event record's or synchronize's event; 0: none */
  gboolean records;     /* an event record: `event` takes what `stream` had */
  gboolean waits_event; /* a stream's wait for `event`: its later work follows the event's */
  gboolean timed;       /* CUPTI timed its own GPU work, from start to end */
  gboolean untouched;   /* a copy whose host buffer was not all resident */
  const char *setup_group; /* a blocking copy's group by size, for its set-up (above) */
  gboolean untimed_work; /* it gave the GPU work that CUPTI did not time */
  guint64 charged;      /* ASYNC: what the model charges it beyond its group's usual cost
                           (a launch that loads its kernel's code: kernel_load); FREE:
                           what the model charges its `sync device` on an idle device */
  guint64 charged_wait; /* FREE: ... and after the work it waits for */
  /* BLOCKING, FREE: where the thread sleeps in its wait (cudaDeviceScheduleBlockingSync,
   * an event made with cudaEventBlockingSync: record_flags.h), the profile whose
   * sync_blocking_wake the model adds to its return, by how long it waited for the
   * GPU: what it ran on after the work is compared with at least that (with
   * sync, memcpy_sync or charged_wait before it); NULL where it spins. */
  const GpuProfile *sleeps;
  guint64 start, end;
} InsideCall;

typedef struct
{
  InsideKind kind;      /* the call's */
  guint64 before;       /* host time before the op */
  guint64 after;        /* host time after it */
  guint64 usual;        /* what the comparison took as usual */
  guint64 usual_setup;  /* a blocking copy's `before`: its group's usual delay to its work */
  gboolean no_usual;    /* an async call alone in its group */
  gboolean idle;        /* a synchronize, FREE: what it waits for had ended before the call
                           began; any other call: the work its stream had been given
                           before it had (a blocking copy's or a graph's own work could
                           not start before the call) */
  guint64 ready;        /* BLOCKING (but a blocking copy), FREE: when the work it waited
                           for ended; 0: none */
  guint64 traced;       /* host time after the op besides `after`: the call's time up to
                           its usual beyond the model's charge (record_schedule.h,
                           traced_calls); set by the caller, never by record_inside_find */
} InsideHost;

/* The usual time of each of the `n` calls, given in the order they began:
 * the lower median of its group's measures (above), or -1 where the call is
 * neither async nor blocking, or its group has no other call. One entry
 * per call (g_free it). */
gint64 *record_inside_usual (const InsideCall *calls, guint n);

/* The host time inside each of the `n` calls, given in the order they
 * began; calls shorter than `min_host_ns` beyond their usual get none
 * (frees aside, above). The result has one entry per call (g_free it). */
InsideHost *record_inside_find (const InsideCall *calls, guint n, guint64 min_host_ns);

#endif /* RECORD_INSIDE_H */
