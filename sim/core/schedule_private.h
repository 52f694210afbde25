/* schedule_private.h: the Schedule struct, shared by schedule.c (reading) and the parser (schedule_parse.c and the files of schedule_parser.h: building). */
#ifndef SCHEDULE_PRIVATE_H
#define SCHEDULE_PRIVATE_H

#include "schedule.h"

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

  /* Every name (streams, events, labels, devices) is interned here, so an op
   * costs no allocation of its own. */
  GStringChunk *strings;

  GArray *streams;          /* SchedStream; [0] is "default" */
  GHashTable *stream_index; /* interned name -> index + 1 */
  GPtrArray *events;        /* interned names, in order of first use */
  GArray *event_lines;      /* guint32: the line of each event's first use */
  GHashTable *event_index;  /* interned name -> index + 1 */

  SchedOp *ops;             /* in issue order */
  gsize n_ops;

  GArray *times;            /* SchedDeviceTime, the lists back to back */
  GArray *time_lists;       /* ScheduleTimeList */

  /* A copy's ops as copied, which schedule_set_order permutes
   * (schedule_edit.c); NULL for a parsed schedule. */
  SchedOp *copied_ops;
  gsize n_copied_ops;
};

/* An empty schedule holding only the default stream. */
Schedule *schedule_new (const char *path);

#endif /* SCHEDULE_PRIVATE_H */
