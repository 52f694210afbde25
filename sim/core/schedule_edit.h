/* schedule_edit.h: a schedule changed in the ways that keep it a valid schedule: another issue order, stream priorities, the connection count, pinned copies.
 *
 * The parser builds a Schedule and everything else reads it; the advisor
 * (sim/front/advise.h) needs candidates that differ from the program in one
 * of these ways, simulated without parsing again. A copy owns its names,
 * so it outlives the schedule it came from. The edits check only what they
 * take (an order is a permutation, a priority is in range); whether an
 * order keeps the program's meaning is schedule_order.h's question. */
#ifndef SCHEDULE_EDIT_H
#define SCHEDULE_EDIT_H

#include <glib.h>
#include "schedule.h"

/* A copy of `sched` with the same ops, streams, events and time lists. */
Schedule *schedule_copy (const Schedule *sched);

/* Puts a copy's ops in the order `order`, relative to the order they had
 * when copied: op i becomes the copied op order[i]. `order` is a
 * permutation of 0 .. n_ops - 1; the copy keeps its ops as they were
 * copied for this, so candidates cost no allocation. A schedule of several
 * host threads takes its own order only (the identity). */
void schedule_set_order (Schedule *sched, const guint32 *order);

/* CUDA's priority of a stream: SCHED_PRIORITY_MOST_URGENT (-5) to 0. */
#define SCHED_PRIORITY_MOST_URGENT (-5)
void schedule_set_stream_priority (Schedule *sched, guint stream, gint priority);

/* The `connections` statement: 1 to 32, or 0 for none. */
void schedule_set_connections (Schedule *sched, guint connections);
/* The `pool_threshold` setting: bytes; 0, the driver's default. */
void schedule_set_pool_threshold (Schedule *sched, guint64 bytes);

/* Makes op `index`, a copy or memcpy, pinned (neither pageable nor untouched). */
void schedule_set_pinned (Schedule *sched, gsize index);
/* Puts `bytes` of the untouched bytes of op `index`, a copy or memcpy, on huge
 * pages (`huge=SIZE`; at most all of them). */
void schedule_set_huge (Schedule *sched, gsize index, guint64 bytes);
/* The `device_schedule` setting, and whether event `index` is
 * `blocking_sync`. */
void schedule_set_device_schedule (Schedule *sched, SchedDeviceSchedule schedule);
void schedule_set_event_blocking_sync (Schedule *sched, guint index, gboolean blocking);

/* Gives kernel op `index` the time `time` on `device` (interned), in a
 * time list of its own: the entries it had, then this one. */
void schedule_add_kernel_time (Schedule *sched, gsize index, const char *device, SimTime time);

/* Removes op `index` (a sync or host step the program might not need);
 * schedule_set_order may not be used after. */
void schedule_remove_op (Schedule *sched, gsize index);

#endif /* SCHEDULE_EDIT_H */
