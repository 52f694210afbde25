/* record_alone.c: recorded kernels' times alone (record_alone.h). */
#include "record_alone.h"
#include "value_groups.h"

static int
compare_start (gconstpointer a, gconstpointer b, gpointer kernels)
{
  const AloneKernel *x = &((const AloneKernel *) kernels)[*(const guint *) a];
  const AloneKernel *y = &((const AloneKernel *) kernels)[*(const guint *) b];
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

/* The upper median of `times` (sorted), at least 1 ns. */
static guint64
median (const GArray *times)
{
  return (guint64) MAX (g_array_index (times, gint64, times->len / 2), 1);
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
  g_autoptr (GHashTable) lone = value_groups_new ();
  for (guint i = 0; i < n; i++)
    if (!shared[i])
      value_groups_add (lone, kernels[i].key, (gint64) (kernels[i].end - kernels[i].start));
  value_groups_sort (lone);
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
      else if (k->peers)
        a->how = ALONE_PEERS;
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

gboolean
record_alone_paced_by_peers (const char *name)
{
  return name != NULL && (strstr (name, "ncclKernel") != NULL || strstr (name, "ncclDevKernel") != NULL);
}
