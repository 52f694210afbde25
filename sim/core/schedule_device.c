/* schedule_device.c: a schedule's per-device kernel shapes (grid=, block=, smem=, regs= lists) chosen for the device predicted. */
#include <string.h>
#include "schedule_device.h"
#include "schedule_private.h"
#include "located_error.h"

const char *const sched_shape_keys[4] = { "grid=", "block=", "smem=", "regs=" };

/* How early `device` comes in `names`: 0 for the device itself; G_MAXUINT
 * when absent. */
static guint
name_rank (const char *const *names, const char *device)
{
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (strcmp (names[i], device) == 0)
      return i;
  return G_MAXUINT;
}

/* The entries [from, to) of one op: each key they hold set from its best
 * entry. */
static gboolean
select_op (Schedule *sched, const SchedDeviceShape *entries, guint from, guint to,
           const char *const *names, GError **error)
{
  SchedOp *op = &sched->ops[entries[from].op];
  SchedKernel *k = &op->u.kernel;

  for (guint key = SCHED_SHAPE_GRID; key <= SCHED_SHAPE_REGS; key++)
    {
      const SchedDeviceShape *best = NULL, *bare = NULL;
      guint best_rank = G_MAXUINT;
      gboolean listed = FALSE;

      for (guint i = from; i < to; i++)
        {
          const SchedDeviceShape *e = &entries[i];
          if (e->key != key)
            continue;
          listed = TRUE;
          if (e->device == NULL)
            bare = e;
          else if (name_rank (names, e->device) < best_rank)
            {
              best = e;
              best_rank = name_rank (names, e->device);
            }
        }
      if (!listed)
        continue;
      if (best == NULL)
        best = bare;
      if (best == NULL)
        {
          const char *device = names != NULL && names[0] != NULL ? names[0] : "(unnamed)";
          GString *have = g_string_new (NULL);
          for (guint i = from; i < to; i++)
            if (entries[i].key == key)
              g_string_append_printf (have, "%s%s", have->len > 0 ? ", " : "", entries[i].device);
          located_error_set (error, SCHEDULE_ERROR, SCHEDULE_ERROR_UNDEFINED, sched->path,
                             op->line, op->column,
                             "kernel has no %s for device '%s' (the list has: %s); add an "
                             "entry %s:VALUE or a bare VALUE to the list",
                             sched_shape_keys[key], device, have->str, device);
          g_string_free (have, TRUE);
          return FALSE;
        }
      sched_kernel_set_shape (k, (SchedShapeKey) key, best->value);
    }
  return TRUE;
}

gboolean
schedule_select_device (Schedule *sched, const char *const *names, GError **error)
{
  g_return_val_if_fail (sched != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const SchedDeviceShape *entries = (const SchedDeviceShape *) sched->shapes->data;
  guint n = sched->shapes->len;
  for (guint from = 0; from < n;)
    {
      guint to = from + 1;
      while (to < n && entries[to].op == entries[from].op)
        to++;
      g_return_val_if_fail (entries[from].op < sched->n_ops, FALSE);
      if (!select_op (sched, entries, from, to, names, error))
        return FALSE;
      from = to;
    }
  return TRUE;
}
