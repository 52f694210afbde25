/* stream_colours.c: streams in natural order of their names; the place is the colour. */
#include "stream_colours.h"

#include <string.h>

struct StreamColours
{
  GPtrArray *names;   /* natural order; owned by the timelines */
  GHashTable *index;  /* name -> index + 1 */
};

int
stream_name_compare (const char *a, const char *b)
{
  const char *p = a, *q = b;
  while (*p != '\0' && *q != '\0')
    {
      if (g_ascii_isdigit (*p) && g_ascii_isdigit (*q))
        {
          /* Compare the numbers: without their leading zeros, the longer
           * is larger; of equal length, the first differing digit decides. */
          const char *p0 = p, *q0 = q;
          while (*p0 == '0')
            p0++;
          while (*q0 == '0')
            q0++;
          const char *p1 = p0, *q1 = q0;
          while (g_ascii_isdigit (*p1))
            p1++;
          while (g_ascii_isdigit (*q1))
            q1++;
          if (p1 - p0 != q1 - q0)
            return p1 - p0 < q1 - q0 ? -1 : 1;
          int digits = strncmp (p0, q0, (gsize) (p1 - p0));
          if (digits != 0)
            return digits;
          p = p1;
          q = q1;
          continue;
        }
      if (*p != *q)
        return (unsigned char) *p < (unsigned char) *q ? -1 : 1;
      p++;
      q++;
    }
  if (*p != '\0' || *q != '\0')
    return *p == '\0' ? -1 : 1;
  /* equal as numbers ("s2", "s02"): any fixed order will do */
  return strcmp (a, b);
}

/* The legacy default stream's name in the language and the timeline. */
#define STREAM_COLOURS_DEFAULT "default"

/* Natural order, the legacy default stream last: a schedule's own streams
 * take the first colours, whether or not it records or syncs on the
 * default stream. */
static gint
stream_colours_sort (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  gboolean x_default = strcmp (x, STREAM_COLOURS_DEFAULT) == 0;
  gboolean y_default = strcmp (y, STREAM_COLOURS_DEFAULT) == 0;
  if (x_default != y_default)
    return x_default ? 1 : -1;
  return stream_name_compare (x, y);
}

StreamColours *
stream_colours_new (const Timeline *const *sets, guint n_sets)
{
  StreamColours *colours = g_new0 (StreamColours, 1);
  colours->names = g_ptr_array_new ();
  colours->index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint s = 0; s < n_sets; s++)
    for (gsize i = 0; i < timeline_n_rows (sets[s]); i++)
      {
        const char *stream = timeline_row (sets[s], i)->stream;
        if (stream == NULL || *stream == '\0' || g_hash_table_contains (colours->index, stream))
          continue;
        g_hash_table_add (colours->index, (gpointer) stream);
        g_ptr_array_add (colours->names, (gpointer) stream);
      }
  g_ptr_array_sort (colours->names, stream_colours_sort);
  for (guint k = 0; k < colours->names->len; k++)
    g_hash_table_insert (colours->index, g_ptr_array_index (colours->names, k),
                         GUINT_TO_POINTER (k + 1));
  return colours;
}

void
stream_colours_free (StreamColours *colours)
{
  if (colours == NULL)
    return;
  g_ptr_array_unref (colours->names);
  g_hash_table_unref (colours->index);
  g_free (colours);
}

guint
stream_colours_n (const StreamColours *colours)
{
  return colours->names->len;
}

const char *
stream_colours_name (const StreamColours *colours, guint index)
{
  g_return_val_if_fail (index < colours->names->len, NULL);
  return g_ptr_array_index (colours->names, index);
}

gint
stream_colours_index (const StreamColours *colours, const char *stream)
{
  if (stream == NULL || *stream == '\0')
    return -1;
  gpointer found = g_hash_table_lookup (colours->index, stream);
  return found != NULL ? (gint) GPOINTER_TO_UINT (found) - 1 : -1;
}
