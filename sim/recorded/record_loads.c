/* record_loads.c: the launches that loaded their kernel's code (record_loads.h). */
#include "record_loads.h"

gboolean
record_loads_lazy (const RecordLog *log, gboolean *recorded)
{
  const char *value = g_hash_table_lookup (log->env, "CUDA_MODULE_LOADING");
  *recorded = value != NULL;
  return value == NULL || g_ascii_strcasecmp (value, "EAGER") != 0;
}

/* Whether a first launch took long enough to have loaded its code. */
static gboolean
took_a_load (const RecordCall *c, gint64 usual, guint64 kernel_load)
{
  if (usual < 0)
    return TRUE;
  guint64 took = c->exit > c->enter ? c->exit - c->enter : 0;
  return took >= (guint64) usual + kernel_load;
}

gboolean *
record_loads_find (const RecordLog *log, const guint *call_of_work, const guint *position,
                   const gboolean *may_load, const gint64 *usual, guint64 kernel_load)
{
  guint n = log->calls->len;
  gboolean *loads = g_new0 (gboolean, MAX (n, 1));
  gboolean recorded;
  if (!record_loads_lazy (log, &recorded))
    return loads;
  /* kernel name -> the earliest position of a call that ran it, + 1 */
  g_autoptr (GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint j = 0; j < log->works->len; j++)
    {
      const RecordWork *w = &g_array_index (log->works, RecordWork, j);
      if (w->kind != RECORD_WORK_KERNEL || w->name[0] == '\0' || call_of_work[j] == 0)
        continue;
      guint at = position[call_of_work[j] - 1] + 1;
      guint known = GPOINTER_TO_UINT (g_hash_table_lookup (first, w->name));
      if (known == 0 || at < known)
        g_hash_table_insert (first, (gpointer) w->name, GUINT_TO_POINTER (at));
    }
  for (guint j = 0; j < log->works->len; j++)
    {
      const RecordWork *w = &g_array_index (log->works, RecordWork, j);
      if (w->kind != RECORD_WORK_KERNEL || w->name[0] == '\0' || call_of_work[j] == 0)
        continue;
      guint call = call_of_work[j] - 1;
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (first, w->name));
      if (may_load[call] && at == position[call] + 1)
        loads[call] = took_a_load (&g_array_index (log->calls, RecordCall, call), usual[call],
                                   kernel_load);
    }
  return loads;
}
