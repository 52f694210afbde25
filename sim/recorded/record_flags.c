/* record_flags.c: cudaSetDeviceFlags' schedule and cudaEventBlockingSync events in a recorder log (record_flags.h). */
#include <string.h>
#include "record_flags.h"

/* cudaDeviceScheduleMask and its values, cudaEventBlockingSync: the runtime
 * headers' numbers (the driver's CU_CTX_SCHED_* and CU_EVENT_BLOCKING_SYNC
 * are the same), which this file does not include (it is built without
 * CUDA). */
#define SCHEDULE_MASK 0x07u
#define SCHEDULE_SPIN 0x01u
#define SCHEDULE_YIELD 0x02u
#define SCHEDULE_BLOCKING_SYNC 0x04u
#define EVENT_BLOCKING_SYNC 0x01u

/* A call that sets the context's flags: the runtime's, or the driver API's
 * made outside it (whose CU_CTX_SCHED_* are cudaDeviceSchedule*'s values). */
static gboolean
sets_schedule (const char *name)
{
  return strcmp (name, "cudaSetDeviceFlags") == 0 || g_str_has_prefix (name, "cuCtxCreate")
         || g_str_has_prefix (name, "cuDevicePrimaryCtxSetFlags")
         || strcmp (name, "cuCtxSetFlags") == 0;
}

SchedDeviceSchedule
record_device_schedule (const RecordLog *log, const char **set_by)
{
  SchedDeviceSchedule schedule = SCHED_SCHEDULE_AUTO;
  *set_by = NULL;
  for (guint i = 0; i < log->calls->len; i++)
    {
      const RecordCall *c = &g_array_index (log->calls, RecordCall, i);
      if (!sets_schedule (c->name))
        continue;
      *set_by = c->name;
      switch (c->a[0] & SCHEDULE_MASK)
        {
        case SCHEDULE_SPIN:
          schedule = SCHED_SCHEDULE_SPIN;
          break;
        case SCHEDULE_YIELD:
          schedule = SCHED_SCHEDULE_YIELD;
          break;
        case SCHEDULE_BLOCKING_SYNC:
          schedule = SCHED_SCHEDULE_BLOCKING_SYNC;
          break;
        default:
          schedule = SCHED_SCHEDULE_AUTO;
          break;
        }
    }
  return schedule;
}

GHashTable *
record_blocking_events (const RecordLog *log)
{
  GHashTable *blocking = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) plain = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < log->calls->len; i++)
    {
      const RecordCall *c = &g_array_index (log->calls, RecordCall, i);
      if (c->event == 0
          || (strcmp (c->name, "cudaEventCreateWithFlags") != 0
              && strcmp (c->name, "cuEventCreate") != 0))
        continue;
      GHashTable *into = (c->a[0] & EVENT_BLOCKING_SYNC) ? blocking : plain;
      g_hash_table_add (into, g_memdup2 (&c->event, sizeof c->event));
    }
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, plain);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_hash_table_remove (blocking, key);
  return blocking;
}
