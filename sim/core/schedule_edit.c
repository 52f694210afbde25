/* schedule_edit.c: copies of a schedule, and the edits the advisor's candidates make to them. */
#include "schedule_edit.h"
#include "schedule_private.h"

#include <string.h>

static const char *
intern (Schedule *sched, const char *s)
{
  return s == NULL ? NULL : g_string_chunk_insert_const (sched->strings, s);
}

Schedule *
schedule_copy (const Schedule *from)
{
  g_return_val_if_fail (from != NULL, NULL);
  Schedule *sched = schedule_new (from->path);

  sched->device = intern (sched, from->device);
  sched->device_line = from->device_line;
  sched->device_column = from->device_column;
  sched->connections = from->connections;
  sched->connections_line = from->connections_line;
  sched->pool_threshold = from->pool_threshold;
  sched->pool_threshold_line = from->pool_threshold_line;
  sched->device_schedule = from->device_schedule;
  sched->device_schedule_line = from->device_schedule_line;

  /* schedule_new made "default"; the rest in creation order */
  g_array_index (sched->streams, SchedStream, 0) = g_array_index (from->streams, SchedStream, 0);
  g_array_index (sched->streams, SchedStream, 0).name =
    intern (sched, g_array_index (from->streams, SchedStream, 0).name);
  for (guint i = 1; i < from->streams->len; i++)
    {
      SchedStream stream = g_array_index (from->streams, SchedStream, i);
      stream.name = intern (sched, stream.name);
      g_array_append_val (sched->streams, stream);
      g_hash_table_insert (sched->stream_index, (gpointer) stream.name, GUINT_TO_POINTER (i + 1));
    }
  for (guint i = 0; i < from->events->len; i++)
    {
      const char *name = intern (sched, g_ptr_array_index (from->events, i));
      g_ptr_array_add (sched->events, (gpointer) name);
      g_hash_table_insert (sched->event_index, (gpointer) name, GUINT_TO_POINTER (i + 1));
    }
  g_array_append_vals (sched->event_lines, from->event_lines->data, from->event_lines->len);
  g_array_append_vals (sched->event_blocking, from->event_blocking->data, from->event_blocking->len);

  sched->n_ops = from->n_ops;
  sched->ops = g_new (SchedOp, MAX (from->n_ops, 1));
  for (gsize i = 0; i < from->n_ops; i++)
    {
      sched->ops[i] = from->ops[i];
      sched->ops[i].label = intern (sched, from->ops[i].label);
    }
  sched->copied_ops = g_memdup2 (sched->ops, MAX (from->n_ops, 1) * sizeof (SchedOp));
  sched->n_copied_ops = from->n_ops;
  for (guint i = 1; i < from->threads->len; i++)
    g_ptr_array_add (sched->threads, (gpointer) intern (sched, g_ptr_array_index (from->threads, i)));
  if (from->op_thread != NULL)
    sched->op_thread = g_memdup2 (from->op_thread, MAX (from->n_ops, 1) * sizeof (guint16));

  for (guint i = 0; i < from->times->len; i++)
    {
      SchedDeviceTime entry = g_array_index (from->times, SchedDeviceTime, i);
      entry.device = intern (sched, entry.device);
      g_array_append_val (sched->times, entry);
    }
  g_array_append_vals (sched->time_lists, from->time_lists->data, from->time_lists->len);
  return sched;
}

void
schedule_set_order (Schedule *sched, const guint32 *order)
{
  g_return_if_fail (sched != NULL && order != NULL);
  g_return_if_fail (sched->copied_ops != NULL && sched->n_copied_ops == sched->n_ops);

  for (gsize i = 0; i < sched->n_ops; i++)
    {
      g_return_if_fail (order[i] < sched->n_ops);
      /* The advisor searches orders of one host thread only: a schedule of
       * several keeps its own, each op where it is. */
      g_return_if_fail (sched->op_thread == NULL || order[i] == i);
      sched->ops[i] = sched->copied_ops[order[i]];
    }
}

void
schedule_set_stream_priority (Schedule *sched, guint stream, gint priority)
{
  g_return_if_fail (sched != NULL && stream < sched->streams->len);
  g_return_if_fail (priority >= SCHED_PRIORITY_MOST_URGENT && priority <= 0);
  g_array_index (sched->streams, SchedStream, stream).priority = priority;
}

void
schedule_set_connections (Schedule *sched, guint connections)
{
  g_return_if_fail (sched != NULL && connections <= 32);
  sched->connections = connections;
}

void
schedule_set_pool_threshold (Schedule *sched, guint64 bytes)
{
  g_return_if_fail (sched != NULL);
  sched->pool_threshold = bytes;
}

void
schedule_set_device_schedule (Schedule *sched, SchedDeviceSchedule schedule)
{
  g_return_if_fail (sched != NULL && schedule <= SCHED_SCHEDULE_BLOCKING_SYNC);
  sched->device_schedule = schedule;
}

void
schedule_set_event_blocking_sync (Schedule *sched, guint index, gboolean blocking)
{
  g_return_if_fail (sched != NULL && index < sched->events->len);
  if (sched->event_blocking->len <= index)
    g_array_set_size (sched->event_blocking, index + 1);
  g_array_index (sched->event_blocking, gboolean, index) = blocking;
}

void
schedule_set_pinned (Schedule *sched, gsize index)
{
  g_return_if_fail (sched != NULL && index < sched->n_ops);
  SchedOp *op = &sched->ops[index];
  g_return_if_fail (op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY);
  op->u.copy.pageable = FALSE;
  op->u.copy.untouched = 0;
  op->u.copy.huge = 0;
  op->u.copy.cached = FALSE;
}

void
schedule_set_huge (Schedule *sched, gsize index, guint64 bytes)
{
  g_return_if_fail (sched != NULL && index < sched->n_ops);
  SchedOp *op = &sched->ops[index];
  g_return_if_fail (op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY);
  op->u.copy.huge = MIN (bytes, op->u.copy.untouched);
}

void
schedule_remove_op (Schedule *sched, gsize index)
{
  g_return_if_fail (sched != NULL && index < sched->n_ops);
  sched->n_copied_ops = 0; /* no longer the same ops */
  memmove (&sched->ops[index], &sched->ops[index + 1],
           (sched->n_ops - index - 1) * sizeof (SchedOp));
  if (sched->op_thread != NULL)
    memmove (&sched->op_thread[index], &sched->op_thread[index + 1],
             (sched->n_ops - index - 1) * sizeof (guint16));
  sched->n_ops--;
}

void
schedule_add_kernel_time (Schedule *sched, gsize index, const char *device, SimTime time)
{
  g_return_if_fail (sched != NULL && index < sched->n_ops && device != NULL);
  SchedOp *op = &sched->ops[index];
  g_return_if_fail (op->kind == SCHED_OP_KERNEL && op->u.kernel.times != SCHED_NONE);
  ScheduleTimeList old = g_array_index (sched->time_lists, ScheduleTimeList, op->u.kernel.times);
  ScheduleTimeList list = { sched->times->len, old.n + 1 };
  for (guint32 i = 0; i < old.n; i++)
    {
      SchedDeviceTime entry = g_array_index (sched->times, SchedDeviceTime, old.first + i);
      g_array_append_val (sched->times, entry);
    }
  SchedDeviceTime added = { g_string_chunk_insert_const (sched->strings, device), time };
  g_array_append_val (sched->times, added);
  g_array_append_val (sched->time_lists, list);
  op->u.kernel.times = sched->time_lists->len - 1;
}
