/* lanes.c: first-fit packing of time intervals into lanes where none overlap. */
#include "lanes.h"

typedef struct
{
  const SimTime *start;
} LanesOrder;

static gint
lanes_by_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const LanesOrder *order = data;
  gsize i = *(const gsize *) a;
  gsize j = *(const gsize *) b;
  if (order->start[i] != order->start[j])
    return order->start[i] < order->start[j] ? -1 : 1;
  return i < j ? -1 : (i > j ? 1 : 0);
}

/* Greedy by start time is the classic optimal colouring of an interval graph:
 * when an interval finds every lane busy, all of those lanes hold an interval
 * open at its start, so that many lanes are needed anyway. Taking the lowest
 * free lane (rather than any free one) keeps the picture stable: the first
 * lane holds most of the work and extra lanes appear only where overlap is. */
guint
lanes_assign (const SimTime *start, const SimTime *end, gsize n, guint *lane)
{
  g_return_val_if_fail (n == 0 || (start != NULL && end != NULL && lane != NULL), 0);

  gsize *order = g_new (gsize, n);
  for (gsize i = 0; i < n; i++)
    order[i] = i;
  LanesOrder ctx = { start };
  g_qsort_with_data (order, (gint) n, sizeof *order, lanes_by_start, &ctx);

  GArray *busy_until = g_array_new (FALSE, FALSE, sizeof (SimTime));
  for (gsize k = 0; k < n; k++)
    {
      gsize i = order[k];
      SimTime stop = sim_time_max (start[i], end[i]);
      guint l;
      for (l = 0; l < busy_until->len; l++)
        if (g_array_index (busy_until, SimTime, l) <= start[i])
          break;
      if (l == busy_until->len)
        g_array_append_val (busy_until, stop);
      else
        g_array_index (busy_until, SimTime, l) = stop;
      lane[i] = l;
    }
  guint n_lanes = busy_until->len;
  g_array_free (busy_until, TRUE);
  g_free (order);
  return n_lanes;
}
