/* schedule.c: a parsed schedule: its accessors, per-device kernel times and op names. */
#include "located_error.h"
#include "schedule.h"
#include "schedule_private.h"

#include <string.h>

G_DEFINE_QUARK (schedule-error-quark, schedule_error)

Schedule *
schedule_new (const char *path)
{
  Schedule *sched = g_new0 (Schedule, 1);
  SchedStream legacy = { 0 };

  sched->path = g_strdup (path);
  sched->strings = g_string_chunk_new (4096);
  sched->streams = g_array_new (FALSE, FALSE, sizeof (SchedStream));
  sched->stream_index = g_hash_table_new (g_str_hash, g_str_equal);
  sched->events = g_ptr_array_new ();
  sched->event_lines = g_array_new (FALSE, FALSE, sizeof (guint32));
  sched->event_blocking = g_array_new (FALSE, TRUE, sizeof (gboolean));
  sched->event_index = g_hash_table_new (g_str_hash, g_str_equal);
  sched->times = g_array_new (FALSE, FALSE, sizeof (SchedDeviceTime));
  sched->time_lists = g_array_new (FALSE, FALSE, sizeof (ScheduleTimeList));
  sched->shapes = g_array_new (FALSE, FALSE, sizeof (SchedDeviceShape));
  sched->elapsed = g_array_new (FALSE, FALSE, sizeof (SchedElapsed));
  sched->threads = g_ptr_array_new ();
  g_ptr_array_add (sched->threads, g_string_chunk_insert_const (sched->strings, "main"));

  legacy.name = g_string_chunk_insert_const (sched->strings, "default");
  g_array_append_val (sched->streams, legacy);
  g_hash_table_insert (sched->stream_index, (gpointer) legacy.name,
                       GUINT_TO_POINTER (SCHED_STREAM_DEFAULT + 1));
  return sched;
}

void
schedule_free (Schedule *sched)
{
  if (sched == NULL)
    return;
  g_free (sched->path);
  g_string_chunk_free (sched->strings);
  g_array_unref (sched->streams);
  g_hash_table_unref (sched->stream_index);
  g_ptr_array_unref (sched->events);
  g_array_unref (sched->event_lines);
  g_array_unref (sched->event_blocking);
  g_hash_table_unref (sched->event_index);
  g_free (sched->ops);
  g_free (sched->copied_ops);
  g_array_unref (sched->times);
  g_array_unref (sched->time_lists);
  g_array_unref (sched->shapes);
  g_array_unref (sched->elapsed);
  g_ptr_array_unref (sched->threads);
  g_free (sched->op_thread);
  g_free (sched);
}

const char *
schedule_path (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, NULL);
  return sched->path;
}

const char *
schedule_device (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, NULL);
  return sched->device;
}

gboolean
schedule_device_position (const Schedule *sched, guint *line, guint *column)
{
  g_return_val_if_fail (sched != NULL && line != NULL && column != NULL, FALSE);
  *line = sched->device_line;
  *column = sched->device_column;
  return sched->device != NULL;
}

guint
schedule_connections (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->connections;
}

guint64
schedule_pool_threshold (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->pool_threshold;
}

const char *const sched_device_schedule_names[] = { "auto", "spin", "yield", "blocking_sync" };

SchedDeviceSchedule
schedule_device_schedule (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, SCHED_SCHEDULE_AUTO);
  return sched->device_schedule;
}

guint
schedule_n_streams (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->streams->len;
}

const SchedStream *
schedule_stream (const Schedule *sched, guint index)
{
  g_return_val_if_fail (sched != NULL, NULL);
  g_return_val_if_fail (index < sched->streams->len, NULL);
  return &g_array_index (sched->streams, SchedStream, index);
}

guint
schedule_find_stream (const Schedule *sched, const char *name)
{
  gpointer found;

  g_return_val_if_fail (sched != NULL, SCHED_NONE);
  g_return_val_if_fail (name != NULL, SCHED_NONE);
  found = g_hash_table_lookup (sched->stream_index, name);
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : SCHED_NONE;
}

guint
schedule_n_events (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->events->len;
}

guint
schedule_n_threads (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 1);
  return sched->threads->len;
}

const char *
schedule_thread_name (const Schedule *sched, guint thread)
{
  g_return_val_if_fail (sched != NULL && thread < sched->threads->len, NULL);
  return g_ptr_array_index (sched->threads, thread);
}

guint
schedule_op_thread (const Schedule *sched, gsize index)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->op_thread != NULL ? sched->op_thread[index] : 0;
}

static gint
by_issue (gconstpointer a, gconstpointer b, gpointer issue_times)
{
  const SimTime *issue = issue_times;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  if (issue[x] != issue[y])
    return issue[x] < issue[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

guint32 *
schedule_issue_order (const Schedule *sched, const SimTime *issue)
{
  g_return_val_if_fail (sched != NULL, NULL);
  if (sched->op_thread == NULL)
    return NULL;
  guint32 *order = g_new (guint32, MAX (sched->n_ops, 1));
  for (gsize i = 0; i < sched->n_ops; i++)
    order[i] = (guint32) i;
  g_qsort_with_data (order, (gint) sched->n_ops, sizeof (guint32), by_issue, (gpointer) issue);
  return order;
}

const char *
schedule_op_thread_name (const Schedule *sched, gsize index)
{
  g_return_val_if_fail (sched != NULL, NULL);
  return sched->op_thread != NULL ? schedule_thread_name (sched, sched->op_thread[index]) : NULL;
}

guint
schedule_n_elapsed (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->elapsed->len;
}

const SchedElapsed *
schedule_elapsed (const Schedule *sched, guint index)
{
  g_return_val_if_fail (sched != NULL, NULL);
  g_return_val_if_fail (index < sched->elapsed->len, NULL);
  return &g_array_index (sched->elapsed, SchedElapsed, index);
}

const char *
schedule_event_name (const Schedule *sched, guint index)
{
  g_return_val_if_fail (sched != NULL, NULL);
  g_return_val_if_fail (index < sched->events->len, NULL);
  return g_ptr_array_index (sched->events, index);
}

gboolean
schedule_event_blocking_sync (const Schedule *sched, guint index)
{
  g_return_val_if_fail (sched != NULL, FALSE);
  /* the array is as long as the last event declared blocking_sync needs */
  return index < sched->event_blocking->len
         && g_array_index (sched->event_blocking, gboolean, index);
}

gboolean
schedule_wait_blocks (const Schedule *sched, const SchedOp *op)
{
  if (op->poll)
    return FALSE; /* a query returns at once, done or not */
  switch (op->kind)
    {
    case SCHED_OP_SYNC_EVENT:
      return op->event != SCHED_NONE && schedule_event_blocking_sync (sched, op->event);
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_DEVICE:
      return sched->device_schedule == SCHED_SCHEDULE_BLOCKING_SYNC;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return sched->device_schedule == SCHED_SCHEDULE_BLOCKING_SYNC
             && schedule_copy_wait_sleeps (op->u.copy.dir, op->u.copy.pageable);
    default:
      return FALSE;
    }
}

gboolean
schedule_copy_wait_sleeps (SchedCopyDir dir, gboolean pageable)
{
  return !(pageable && dir == SCHED_DIR_H2D);
}

gsize
schedule_n_ops (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, 0);
  return sched->n_ops;
}

const SchedOp *
schedule_op (const Schedule *sched, gsize index)
{
  g_return_val_if_fail (sched != NULL, NULL);
  g_return_val_if_fail (index < sched->n_ops, NULL);
  return &sched->ops[index];
}

const SchedOp *
schedule_ops (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, NULL);
  return sched->ops;
}

const SchedDeviceTime *
schedule_time_list (const Schedule *sched, guint32 index, guint *n_entries)
{
  const ScheduleTimeList *list;

  g_return_val_if_fail (sched != NULL, NULL);
  g_return_val_if_fail (index < sched->time_lists->len, NULL);
  list = &g_array_index (sched->time_lists, ScheduleTimeList, index);
  if (n_entries != NULL)
    *n_entries = list->n;
  return &g_array_index (sched->times, SchedDeviceTime, list->first);
}

/* Inheritance is resolved name by name rather than entry by entry: with
 * names {"h200", "h100"} and the list "h100:1ms,h200:2ms", h200's own entry
 * wins although it comes second in the list. */
gboolean
schedule_kernel_time (const Schedule *sched, const SchedOp *op,
                      const char *const *names, SimTime *time, GError **error)
{
  const SchedDeviceTime *entries;
  const SchedDeviceTime *fallback = NULL;
  guint n = 0;
  GString *have;
  const char *wanted;

  g_return_val_if_fail (sched != NULL, FALSE);
  g_return_val_if_fail (op != NULL && op->kind == SCHED_OP_KERNEL, FALSE);
  g_return_val_if_fail (op->u.kernel.times != SCHED_NONE, FALSE);
  g_return_val_if_fail (time != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  entries = schedule_time_list (sched, op->u.kernel.times, &n);
  for (const char *const *name = names; name != NULL && *name != NULL; name++)
    for (guint i = 0; i < n; i++)
      if (entries[i].device != NULL && strcmp (entries[i].device, *name) == 0)
        {
          *time = entries[i].time;
          return TRUE;
        }
  for (guint i = 0; i < n; i++)
    if (entries[i].device == NULL)
      fallback = &entries[i];
  if (fallback != NULL)
    {
      *time = fallback->time;
      return TRUE;
    }

  have = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (have, "%s%s", i > 0 ? ", " : "", entries[i].device);
  wanted = names != NULL && names[0] != NULL ? names[0] : "(unnamed)";
  located_error_set (error, SCHEDULE_ERROR, SCHEDULE_ERROR_UNDEFINED, sched->path, op->line,
                     op->column,
                     "kernel has no time= for device '%s' (the list has: %s); "
                     "add %s:TIME or a bare TIME as a fallback",
                     wanted, have->str, wanted);
  g_string_free (have, TRUE);
  return FALSE;
}

const char *
schedule_copy_dir_name (SchedCopyDir dir)
{
  switch (dir)
    {
    case SCHED_DIR_H2D:
      return "h2d";
    case SCHED_DIR_D2H:
      return "d2h";
    case SCHED_DIR_D2D:
      return "d2d";
    }
  g_return_val_if_reached ("?");
}

/* What the switch below can give; test_schedule checks the two agree. */
static const char *const kind_names[] = { "h2d", "d2h", "d2d", "memcpy", "kernel",
                                          "record", "wait", "sync", "host", "memset",
                                          "hostfn", "thread", "join", "malloc", "free",
                                          NULL };

const char *const *
schedule_kind_names (void)
{
  return kind_names;
}

const char *
schedule_op_kind_name (const SchedOp *op)
{
  g_return_val_if_fail (op != NULL, "?");

  switch (op->kind)
    {
    case SCHED_OP_COPY:
      return schedule_copy_dir_name (op->u.copy.dir);
    case SCHED_OP_MEMCPY:
      return "memcpy";
    case SCHED_OP_KERNEL:
      return "kernel";
    case SCHED_OP_RECORD:
      return "record";
    case SCHED_OP_WAIT:
      return "wait";
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
      return "sync";
    case SCHED_OP_HOST:
      return "host";
    case SCHED_OP_MEMSET:
      return "memset";
    case SCHED_OP_HOSTFN:
      return "hostfn";
    case SCHED_OP_MALLOC:
      return "malloc";
    case SCHED_OP_FREE:
      return "free";
    case SCHED_OP_SPAWN:
      return "thread";
    case SCHED_OP_JOIN:
      return "join";
    }
  g_return_val_if_reached ("?");
}
