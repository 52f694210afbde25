/* record_alone.c: recorded kernels' times alone (record_alone.h). */
#include "record_alone.h"

static int
compare_start (gconstpointer a, gconstpointer b, gpointer kernels)
{
  const AloneKernel *x = &((const AloneKernel *) kernels)[*(const guint *) a];
  const AloneKernel *y = &((const AloneKernel *) kernels)[*(const guint *) b];
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

static int
compare_guint64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* The upper median of `times` (sorted in place), at least 1 ns. */
static guint64
median (GArray *times)
{
  g_array_sort (times, compare_guint64);
  return MAX (g_array_index (times, guint64, times->len / 2), 1);
}

/* Appends `value` to the array of `key` in `table` (key -> GArray of guint64). */
static void
add_time (GHashTable *table, const char *key, guint64 value)
{
  GArray *times = g_hash_table_lookup (table, key);
  if (times == NULL)
    {
      times = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_hash_table_insert (table, (gpointer) key, times);
    }
  g_array_append_val (times, value);
}

static GHashTable *
new_table (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
}

/* One busy period, kernels order[first..last): each kernel's period length
 * and sum of occupancy x duration (negative when an occupancy is unknown). */
static void
measure_period (const AloneKernel *kernels, const guint *order, guint first, guint last,
                guint64 *period, double *held)
{
  guint64 from = kernels[order[first]].start, to = from;
  double sum = 0;
  gboolean known = TRUE;
  for (guint k = first; k < last; k++)
    {
      const AloneKernel *kn = &kernels[order[k]];
      to = MAX (to, kn->end);
      known &= kn->occupancy > 0;
      sum += kn->occupancy * (double) (kn->end - kn->start);
    }
  for (guint k = first; k < last; k++)
    {
      period[order[k]] = to - from;
      held[order[k]] = known ? sum : -1;
    }
}

AloneTime *
record_alone_find (const AloneKernel *kernels, guint n)
{
  AloneTime *alone = g_new0 (AloneTime, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autofree gboolean *shared = g_new0 (gboolean, MAX (n, 1));
  g_autofree guint64 *period = g_new0 (guint64, MAX (n, 1));
  g_autofree double *held = g_new0 (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof (guint), compare_start, (gpointer) kernels);
  for (guint first = 0, last; first < n; first = last)
    {
      guint64 end = kernels[order[first]].end;
      for (last = first + 1; last < n && kernels[order[last]].start < end; last++)
        end = MAX (end, kernels[order[last]].end);
      for (guint k = first; k < last; k++)
        shared[order[k]] = last - first > 1;
      measure_period (kernels, order, first, last, period, held);
    }

  /* per key: the lone runs' durations */
  g_autoptr (GHashTable) lone = new_table ();
  for (guint i = 0; i < n; i++)
    if (!shared[i])
      add_time (lone, kernels[i].key, kernels[i].end - kernels[i].start);
  for (guint i = 0; i < n; i++)
    {
      const AloneKernel *k = &kernels[i];
      AloneTime *a = &alone[i];
      GArray *times;
      a->time = k->end - k->start;
      a->period = period[i];
      a->held = held[i];
      if (!shared[i])
        a->how = ALONE_RAN_ALONE;
      else if ((times = g_hash_table_lookup (lone, k->key)) != NULL)
        {
          a->how = ALONE_LONE_RUNS;
          a->runs = times->len;
          a->time = median (times);
        }
      else if (held[i] < 0)
        a->how = ALONE_UNKNOWN;
      else if (held[i] <= (double) period[i])
        a->how = ALONE_ROOM;
      else
        {
          a->how = ALONE_INFERRED;
          a->time = MAX ((guint64) ((double) a->time * (double) period[i] / held[i] + 0.5), 1);
        }
    }
  return alone;
}
