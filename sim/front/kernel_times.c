/* kernel_times.c: kernel times carried to the device predicted (kernel_times.h). */
#include "kernel_times.h"

#include <string.h>
#include "sim/core/schedule_edit.h"
#include "sim/formats/profile_file.h"

/* Whether the list holds an entry for the profile's names, or a bare one. */
static gboolean
has_own_time (const SchedDeviceTime *entries, guint n, const GpuProfile *profile)
{
  for (guint i = 0; i < n; i++)
    {
      if (entries[i].device == NULL)
        return TRUE;
      for (const char *const *name = (const char *const *) profile->names; *name != NULL; name++)
        if (strcmp (entries[i].device, *name) == 0)
          return TRUE;
    }
  return FALSE;
}

/* The profile of `device`, loaded once; NULL when it cannot be, or lacks the
 * rates. */
static const GpuProfile *
source_profile (GHashTable *loaded, const char *device)
{
  if (g_hash_table_contains (loaded, device))
    return g_hash_table_lookup (loaded, device);
  GpuProfile *profile = g_new0 (GpuProfile, 1);
  if (!profile_load (device, profile, NULL) || !gpu_profile_has_rates (profile, NULL))
    {
      gpu_profile_clear (profile);
      g_clear_pointer (&profile, g_free);
    }
  g_hash_table_insert (loaded, g_strdup (device), profile);
  return profile;
}

static void
profile_free (gpointer data)
{
  if (data == NULL)
    return;
  gpu_profile_clear (data);
  g_free (data);
}

GArray *
kernel_times_carry (Schedule *sched, const GpuProfile *profile)
{
  GArray *carried = g_array_new (FALSE, FALSE, sizeof (KernelTimeCarried));
  if (!gpu_profile_has_rates (profile, NULL))
    return carried;
  g_autoptr (GHashTable) loaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         profile_free);
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if (op->kind != SCHED_OP_KERNEL || op->u.kernel.times == SCHED_NONE)
        continue;
      guint n = 0;
      const SchedDeviceTime *entries = schedule_time_list (sched, op->u.kernel.times, &n);
      if (has_own_time (entries, n, profile))
        continue;
      for (guint e = 0; e < n; e++)
        {
          const GpuProfile *from = source_profile (loaded, entries[e].device);
          if (from == NULL)
            continue;
          KernelTimeCarried c = { (guint32) i, entries[e].device, entries[e].time, 0,
                                  eng_kernel_bound (op->label), 1.0 };
          c.time = eng_kernel_scale (from, profile, c.cls, c.measured, &c.factor);
          schedule_add_kernel_time (sched, i, gpu_profile_name (profile), c.time);
          g_array_append_val (carried, c);
          break;
        }
    }
  return carried;
}

char *
kernel_times_note (const GArray *carried, const GpuProfile *profile)
{
  if (carried->len == 0)
    return NULL;
  guint count[3] = { 0 };
  double factor[3] = { 0 };
  const char *from = NULL;
  gboolean several = FALSE;
  for (guint i = 0; i < carried->len; i++)
    {
      const KernelTimeCarried *c = &g_array_index (carried, KernelTimeCarried, i);
      count[c->cls]++;
      factor[c->cls] = c->factor;
      several |= from != NULL && strcmp (from, c->from) != 0;
      from = c->from;
    }
  GString *text = g_string_new (NULL);
  g_string_append_printf (text, "note: %u kernel time%s measured on %s carried to %s by what "
                          "bounds each (engines/MODEL.md):",
                          carried->len, carried->len == 1 ? "" : "s",
                          several ? "other devices" : from, gpu_profile_name (profile));
  static const EngKernelClass order[] = { ENG_KERNEL_COMPUTE, ENG_KERNEL_MEMORY,
                                           ENG_KERNEL_UNKNOWN };
  const char *sep = " ";
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    if (count[order[k]] > 0)
      {
        g_string_append_printf (text, "%s%u %s x%.3f", sep, count[order[k]],
                                eng_kernel_bound_name (order[k]), factor[order[k]]);
        sep = ", ";
      }
  g_string_append (text, " beyond their first microsecond; --explain lists them");
  return g_string_free (text, FALSE);
}
