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

/* The earliest start of the GPU work of the calls from place k on, in the
 * order the calls began, per k (G_MAXUINT64: none); n + 1 entries. */
static guint64 *
earliest_start_from (const RecordLog *log, const guint *call_of_work, const guint *position)
{
  guint n = log->calls->len;
  guint64 *at = g_new (guint64, n + 1);
  for (guint k = 0; k <= n; k++)
    at[k] = G_MAXUINT64;
  for (guint j = 0; j < log->works->len; j++)
    {
      const RecordWork *w = &g_array_index (log->works, RecordWork, j);
      if (call_of_work[j] == 0)
        continue;
      guint k = position[call_of_work[j] - 1];
      at[k] = MIN (at[k], w->start);
    }
  for (guint k = n; k > 0; k--)
    at[k - 1] = MIN (at[k - 1], at[k]);
  return at;
}

/* The first place, in the order the calls began, of a call that began at
 * or after `t` (n where none did); `enter` holds each place's call's. */
static guint
first_from (const guint64 *enter, guint n, guint64 t)
{
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (enter[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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
  g_autofree guint64 *start_from = earliest_start_from (log, call_of_work, position);
  g_autofree guint64 *enter = g_new (guint64, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    enter[position[i]] = g_array_index (log->calls, RecordCall, i).enter;
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
      const RecordCall *c = &g_array_index (log->calls, RecordCall, call);
      if (may_load[call] && at == position[call] + 1)
        loads[call] = took_a_load (c, usual[call], kernel_load)
                      && start_from[first_from (enter, n, c->exit)] >= w->start;
    }
  return loads;
}
