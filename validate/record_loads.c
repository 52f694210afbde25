/* record_loads.c: the launches that loaded their kernel's code (record_loads.h). */
#include "record_loads.h"

gboolean
record_loads_lazy (const RecordLog *log, gboolean *recorded)
{
  const char *value = g_hash_table_lookup (log->env, "CUDA_MODULE_LOADING");
  *recorded = value != NULL;
  return value == NULL || g_ascii_strcasecmp (value, "EAGER") != 0;
}

static guint64
took (const RecordCall *c)
{
  return c->exit > c->enter ? c->exit - c->enter : 0;
}

static int
compare_guint64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Per function name of the launches that may load: how long its calls
 * took, sorted (name -> GArray of guint64). */
static GHashTable *
launch_times (const RecordLog *log, const gboolean *may_load)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                              (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < log->calls->len; i++)
    {
      const RecordCall *c = &g_array_index (log->calls, RecordCall, i);
      if (!may_load[i])
        continue;
      GArray *times = g_hash_table_lookup (groups, c->name);
      if (times == NULL)
        {
          times = g_array_new (FALSE, FALSE, sizeof (guint64));
          g_hash_table_insert (groups, (gpointer) c->name, times);
        }
      guint64 t = took (c);
      g_array_append_val (times, t);
    }
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, groups);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_array_sort (value, compare_guint64);
  return groups;
}

/* Whether a first launch took long enough to have loaded its code. */
static gboolean
took_a_load (const RecordCall *c, GHashTable *groups, guint64 kernel_load)
{
  const GArray *times = g_hash_table_lookup (groups, c->name);
  if (times == NULL || times->len < 2)
    return TRUE;
  guint64 usual = g_array_index (times, guint64, (times->len - 1) / 2);
  return took (c) >= usual + kernel_load;
}

gboolean *
record_loads_find (const RecordLog *log, const guint *call_of_work, const guint *position,
                   const gboolean *may_load, guint64 kernel_load)
{
  guint n = log->calls->len;
  gboolean *loads = g_new0 (gboolean, MAX (n, 1));
  gboolean recorded;
  if (!record_loads_lazy (log, &recorded))
    return loads;
  g_autoptr (GHashTable) groups = launch_times (log, may_load);
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
        loads[call] = took_a_load (&g_array_index (log->calls, RecordCall, call), groups,
                                   kernel_load);
    }
  return loads;
}
