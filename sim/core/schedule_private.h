/* schedule_private.h: the Schedule struct, shared by schedule.c (reading) and the parser (schedule_parse.c and the files of schedule_parser.h: building). */
#ifndef SCHEDULE_PRIVATE_H
#define SCHEDULE_PRIVATE_H

#include "schedule.h"

/* What a per-device kernel shape entry sets. */
typedef enum
{
  SCHED_SHAPE_GRID,
  SCHED_SHAPE_BLOCK,
  SCHED_SHAPE_SMEM,
  SCHED_SHAPE_REGS,
} SchedShapeKey;

/* One entry of a kernel's per-device grid=, block=, smem= or regs= list
 * (`grid=k20:26,h100:132,64`); device NULL is the bare entry. */
typedef struct
{
  guint32 op;         /* the kernel op's index */
  guint32 key;        /* SchedShapeKey */
  const char *device; /* interned */
  guint32 value;
} SchedDeviceShape;

/* The attribute each SchedShapeKey stands for, as written: "grid=", ... */
extern const char *const sched_shape_keys[4];

/* Sets the field of `k` that `key` names. */
static inline void
sched_kernel_set_shape (SchedKernel *k, SchedShapeKey key, guint32 value)
{
  switch (key)
    {
    case SCHED_SHAPE_GRID:
      k->grid = value;
      break;
    case SCHED_SHAPE_BLOCK:
      k->block = value;
      break;
    case SCHED_SHAPE_SMEM:
      k->smem = value;
      break;
    case SCHED_SHAPE_REGS:
      k->regs = value;
      break;
    }
}

/* Where one per-device time list lies in Schedule.times. */
typedef struct
{
  gsize first;
  guint32 n;
} ScheduleTimeList;

struct Schedule
{
  char *path;
  const char *device;       /* interned, or NULL */
  guint device_line;
  guint device_column;      /* of the name in the `device` statement */
  guint connections;        /* 0: no `connections` statement */
  guint connections_line;
  guint64 pool_threshold;   /* `pool_threshold`: bytes; 0 when none */
  guint pool_threshold_line; /* 0: no `pool_threshold` statement */
  SchedDeviceSchedule device_schedule; /* `device_schedule`; SCHED_SCHEDULE_AUTO when none */
  guint device_schedule_line; /* 0: no `device_schedule` statement */

  /* Every name (streams, events, labels, devices) is interned here, so an op
   * costs no allocation of its own. */
  GStringChunk *strings;

  GArray *streams;          /* SchedStream; [0] is "default" */
  GHashTable *stream_index; /* interned name -> index + 1 */
  GPtrArray *events;        /* interned names, in order of first use */
  GArray *event_lines;      /* guint32: the line of each event's first use */
  GArray *event_blocking;   /* gboolean: each event declared `blocking_sync` */
  GHashTable *event_index;  /* interned name -> index + 1 */

  SchedOp *ops;             /* in issue order */
  gsize n_ops;

  /* Host threads' names ([0] "main"), and each op's thread: NULL while the
   * schedule has one thread, so that a schedule without `thread` blocks
   * costs nothing for them. */
  GPtrArray *threads;
  guint16 *op_thread;

  GArray *times;            /* SchedDeviceTime, the lists back to back */
  GArray *time_lists;       /* ScheduleTimeList */
  /* SchedDeviceShape, in op order: the kernels whose grid=, block=, smem=
   * or regs= list devices, which schedule_select_device resolves. A copy
   * (schedule_edit.c) has none: it is made after the choice. */
  GArray *shapes;
  GArray *elapsed;          /* SchedElapsed */

  /* A copy's ops as copied, which schedule_set_order permutes
   * (schedule_edit.c); NULL for a parsed schedule. */
  SchedOp *copied_ops;
  gsize n_copied_ops;
};

/* An empty schedule holding only the default stream. */
Schedule *schedule_new (const char *path);

#endif /* SCHEDULE_PRIVATE_H */
