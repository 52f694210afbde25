/* import_idle.c: idle stretches of the traced GPU with submitted work waiting (import_idle.h). */
#include "import_idle.h"

static gint
by_start (gconstpointer a, gconstpointer b, gpointer calls)
{
  const InferCall *x = &((const InferCall *) calls)[*(const guint *) a];
  const InferCall *y = &((const InferCall *) calls)[*(const guint *) b];
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

ImportIdle
import_idle_find (const InferCall *calls, guint n, guint64 min_ns)
{
  ImportIdle idle = { 0 };
  g_autoptr (GArray) timed = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < n; k++)
    if (calls[k].timed)
      g_array_append_val (timed, k);
  guint m = timed->len;
  if (m == 0)
    return idle;
  g_array_sort_with_data (timed, by_start, (gpointer) calls);
  const guint *order = (const guint *) timed->data;
  /* the earliest return of the calls whose work starts at or after each */
  g_autofree guint64 *returned = g_new (guint64, m);
  returned[m - 1] = calls[order[m - 1]].exit;
  for (guint i = m - 1; i > 0; i--)
    returned[i - 1] = MIN (returned[i], calls[order[i - 1]].exit);
  guint64 busy_until = calls[order[0]].end;
  for (guint i = 1; i < m; i++)
    {
      const InferCall *c = &calls[order[i]];
      if (c->start > busy_until && c->start - busy_until >= min_ns && returned[i] <= busy_until)
        {
          idle.n++;
          idle.total_ns += c->start - busy_until;
        }
      busy_until = MAX (busy_until, c->end);
    }
  return idle;
}
