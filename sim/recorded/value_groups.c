/* value_groups.c: 64-bit values kept by the name of their group (value_groups.h). */
#include "value_groups.h"

GHashTable *
value_groups_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
}

void
value_groups_add (GHashTable *groups, const char *name, gint64 value)
{
  GArray *values = g_hash_table_lookup (groups, name);
  if (values == NULL)
    {
      values = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (groups, (gpointer) name, values);
    }
  g_array_append_val (values, value);
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

GHashTable *
value_groups_sort (GHashTable *groups)
{
  GHashTableIter it;
  gpointer name, values;
  g_hash_table_iter_init (&it, groups);
  while (g_hash_table_iter_next (&it, &name, &values))
    g_array_sort (values, compare_gint64);
  return groups;
}
