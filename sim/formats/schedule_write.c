/* schedule_write.c: a Schedule as schedule language text (schedule_write.h). */
#include "schedule_write.h"
#include "output_file.h"
#include "units.h"

#include <string.h>

static void
append_size (GString *s, guint64 bytes)
{
  g_autofree char *text = units_format_exact_size (bytes);
  g_string_append (s, text);
}

static void
append_time (GString *s, SimTime ns)
{
  g_autofree char *text = units_format_exact_time (ns);
  g_string_append (s, text);
}

static const char *
stream_name (const Schedule *sched, guint stream)
{
  return schedule_stream (sched, stream)->name;
}

/* What follows a copy's size: its host memory and its rows. */
static void
append_copy_tail (GString *s, const SchedCopy *copy)
{
  if (copy->pageable)
    {
      g_string_append (s, " pageable");
      if (copy->cached)
        g_string_append (s, " cached");
      if (copy->untouched == copy->bytes && copy->bytes > 0)
        g_string_append (s, " untouched");
      else if (copy->untouched > 0)
        {
          g_string_append (s, " untouched=");
          append_size (s, copy->untouched);
        }
      if (copy->huge == copy->untouched && copy->huge > 0)
        g_string_append (s, " huge");
      else if (copy->huge > 0)
        {
          g_string_append (s, " huge=");
          append_size (s, copy->huge);
        }
    }
  if (copy->rows > 0)
    g_string_append_printf (s, " rows=%u", copy->rows);
}

static void
append_kernel (GString *s, const Schedule *sched, const SchedOp *op)
{
  const SchedKernel *k = &op->u.kernel;
  g_string_append_printf (s, "kernel %s grid=%u block=%u", stream_name (sched, op->stream),
                          k->grid, k->block);
  if (k->block_time >= 0)
    {
      g_string_append (s, " block_time=");
      append_time (s, k->block_time);
    }
  else
    {
      guint n = 0;
      const SchedDeviceTime *entries = schedule_time_list (sched, k->times, &n);
      g_string_append (s, " time=");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (s, ',');
          if (entries[i].device != NULL)
            g_string_append_printf (s, "%s:", entries[i].device);
          append_time (s, entries[i].time);
        }
    }
  if (k->smem != 0)
    {
      g_string_append (s, " smem=");
      append_size (s, k->smem);
    }
  if (k->regs != 0)
    g_string_append_printf (s, " regs=%u", k->regs);
  if (k->loads)
    g_string_append (s, " loads");
}

static void
append_op (GString *s, const Schedule *sched, const SchedOp *op)
{
  /* only some kinds have a stream (schedule.h) */
  gboolean has_stream = op->kind != SCHED_OP_MEMCPY && op->kind != SCHED_OP_SYNC_EVENT
                        && op->kind != SCHED_OP_SYNC_DEVICE && op->kind != SCHED_OP_HOST
                        && op->kind != SCHED_OP_SPAWN && op->kind != SCHED_OP_JOIN;
  const char *stream = has_stream ? stream_name (sched, op->stream) : NULL;
  switch (op->kind)
    {
    case SCHED_OP_COPY:
      g_string_append_printf (s, "%s %s ", schedule_copy_dir_name (op->u.copy.dir), stream);
      append_size (s, op->u.copy.bytes);
      append_copy_tail (s, &op->u.copy);
      break;
    case SCHED_OP_MEMCPY:
      g_string_append_printf (s, "memcpy %s ", schedule_copy_dir_name (op->u.copy.dir));
      append_size (s, op->u.copy.bytes);
      append_copy_tail (s, &op->u.copy);
      break;
    case SCHED_OP_KERNEL:
      append_kernel (s, sched, op);
      break;
    case SCHED_OP_RECORD:
      g_string_append_printf (s, "record %s %s", schedule_event_name (sched, op->event), stream);
      break;
    case SCHED_OP_WAIT:
      g_string_append_printf (s, "wait %s %s", stream, schedule_event_name (sched, op->event));
      break;
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
      /* the parser keeps stream and event names apart, so either is the one */
      g_string_append_printf (s, "%s %s", op->poll ? "poll" : "sync",
                              op->kind == SCHED_OP_SYNC_STREAM
                                ? stream : schedule_event_name (sched, op->event));
      if (op->poll && op->u.duration > 0)
        {
          g_string_append (s, " every=");
          append_time (s, op->u.duration);
        }
      break;
    case SCHED_OP_SYNC_DEVICE:
      g_string_append (s, "sync device");
      break;
    case SCHED_OP_HOST:
      g_string_append (s, "host ");
      append_time (s, op->u.duration);
      break;
    case SCHED_OP_MEMSET:
      g_string_append_printf (s, "memset %s ", stream);
      append_size (s, op->u.bytes);
      if (op->host_memory)
        g_string_append (s, " pinned");
      break;
    case SCHED_OP_HOSTFN:
      g_string_append_printf (s, "hostfn %s ", stream);
      append_time (s, op->u.duration);
      break;
    case SCHED_OP_MALLOC:
    case SCHED_OP_FREE:
      g_string_append_printf (s, "%s %s ", op->kind == SCHED_OP_MALLOC ? "malloc" : "free", stream);
      append_size (s, op->u.bytes);
      break;
    case SCHED_OP_SPAWN:
      g_string_append_printf (s, "thread %s", schedule_thread_name (sched, op->u.thread));
      break;
    case SCHED_OP_JOIN:
      g_string_append_printf (s, "join %s", schedule_thread_name (sched, op->u.thread));
      break;
    }
  /* A label with a blank is written quoted, as the parser reads it back. */
  if (op->label != NULL)
    g_string_append_printf (s, op->label[strcspn (op->label, " \t\r\v\f")] != '\0'
                               ? " label=\"%s\"" : " label=%s", op->label);
  g_string_append_c (s, '\n');
}

char *
schedule_write_text (const Schedule *sched, const char *const *header)
{
  g_return_val_if_fail (sched != NULL, NULL);
  GString *s = g_string_new (NULL);
  for (const char *const *line = header; line != NULL && *line != NULL; line++)
    g_string_append_printf (s, "# %s\n", *line);
  if (schedule_device (sched) != NULL)
    g_string_append_printf (s, "device %s\n", schedule_device (sched));
  if (schedule_connections (sched) != 0)
    g_string_append_printf (s, "connections %u\n", schedule_connections (sched));
  if (schedule_pool_threshold (sched) != 0)
    {
      g_string_append (s, "pool_threshold ");
      append_size (s, schedule_pool_threshold (sched));
      g_string_append_c (s, '\n');
    }
  if (schedule_device_schedule (sched) != SCHED_SCHEDULE_AUTO)
    g_string_append_printf (s, "device_schedule %s\n",
                            sched_device_schedule_names[schedule_device_schedule (sched)]);
  for (guint i = 1; i < schedule_n_streams (sched); i++)
    {
      const SchedStream *stream = schedule_stream (sched, i);
      g_string_append_printf (s, "stream %s", stream->name);
      if (stream->priority != 0)
        g_string_append_printf (s, " priority=%d", stream->priority);
      if (stream->nonblocking)
        g_string_append (s, " nonblocking");
      g_string_append_c (s, '\n');
    }
  /* Events that are waited on but never recorded, declared so that the text
   * parses back (schedule_names.c), and those made blocking_sync. */
  guint n_events = schedule_n_events (sched);
  g_autofree gboolean *recorded = g_new0 (gboolean, MAX (n_events, 1));
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    if (schedule_op (sched, i)->kind == SCHED_OP_RECORD)
      recorded[schedule_op (sched, i)->event] = TRUE;
  for (guint i = 0; i < n_events; i++)
    if (schedule_event_blocking_sync (sched, i))
      g_string_append_printf (s, "event %s blocking_sync\n", schedule_event_name (sched, i));
    else if (!recorded[i])
      g_string_append_printf (s, "event %s\n", schedule_event_name (sched, i));
  /* A thread block's lines are its thread's ops, right after its SPAWN op;
   * the block ends where they do. */
  guint open_thread = 0;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if (open_thread != 0 && schedule_op_thread (sched, i) != open_thread)
        {
          g_string_append (s, "end\n");
          open_thread = 0;
        }
      if (op->graph_launch)
        g_string_append_printf (s, "graph %s\n", stream_name (sched, op->stream));
      append_op (s, sched, op);
      if (op->kind == SCHED_OP_SPAWN)
        open_thread = op->u.thread;
      if (op->graph != 0
          && (i + 1 == schedule_n_ops (sched) || schedule_op (sched, i + 1)->graph != op->graph))
        g_string_append (s, "end\n");
    }
  if (open_thread != 0)
    g_string_append (s, "end\n");
  return g_string_free (s, FALSE);
}

gboolean
schedule_write_file (const Schedule *sched, const char *const *header, const char *path,
                     GError **error)
{
  g_autofree char *text = schedule_write_text (sched, header);
  return output_file_set_contents (path, text, strlen (text), error);
}
