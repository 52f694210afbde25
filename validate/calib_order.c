/* calib_order.c: which repeats of a measured schedule share the most common copy order (see calib_order.h). */
#include <string.h>
#include "calib_order.h"

static gboolean
is_copy_of (const SchedOp *op, int dir)
{
  return (op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY) && (int) op->u.copy.dir == dir;
}

/* The order in which each copy direction finished its copies in one
 * repeat, as text ("h2d 0 3 6 9 | d2h ... | d2d"). */
static char *
copy_order (const Schedule *sched, const SimTime *end)
{
  gsize n = schedule_n_ops (sched);
  GArray *ops = g_array_new (FALSE, FALSE, sizeof (guint32));
  GString *s = g_string_new (NULL);
  for (int dir = SCHED_DIR_H2D; dir <= SCHED_DIR_D2D; dir++)
    {
      g_array_set_size (ops, 0);
      for (gsize i = 0; i < n; i++)
        if (is_copy_of (schedule_op (sched, i), dir))
          {
            guint32 k = (guint32) i;
            g_array_append_val (ops, k);
          }
      /* insertion sort by end time, stable: copies of one direction mostly
       * finish in issue order already */
      guint32 *v = (guint32 *) (void *) ops->data;
      for (guint a = 1; a < ops->len; a++)
        {
          guint32 x = v[a];
          guint b = a;
          while (b > 0 && end[v[b - 1]] > end[x])
            {
              v[b] = v[b - 1];
              b--;
            }
          v[b] = x;
        }
      g_string_append_printf (s, "%s%s", dir == SCHED_DIR_H2D ? "" : " |",
                              schedule_copy_dir_name ((SchedCopyDir) dir));
      for (guint a = 0; a < ops->len; a++)
        g_string_append_printf (s, " %u", v[a]);
    }
  g_array_free (ops, TRUE);
  return g_string_free (s, FALSE);
}

int
calib_order_choose (const Schedule *sched, const SimTime *const *end, int reps, gboolean *keep)
{
  g_return_val_if_fail (sched != NULL && end != NULL && keep != NULL, 0);
  if (reps <= 0)
    return 0;
  char **order = g_new0 (char *, reps);
  for (int r = 0; r < reps; r++)
    order[r] = copy_order (sched, end[r]);
  int best = 0, best_count = 0;
  for (int r = 0; r < reps; r++)
    {
      int count = 0;
      for (int q = 0; q < reps; q++)
        count += strcmp (order[r], order[q]) == 0;
      if (count > best_count)
        {
          best = r;
          best_count = count;
        }
    }
  for (int r = 0; r < reps; r++)
    keep[r] = strcmp (order[r], order[best]) == 0;
  for (int r = 0; r < reps; r++)
    g_free (order[r]);
  g_free (order);
  return best_count;
}
