/* near_name.c: edit distance between names and the nearest known name. */
#include "near_name.h"

#include <string.h>

guint
near_name_distance (const char *a, const char *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, G_MAXUINT);
  gsize n = strlen (b);
  /* Three rows of the dynamic programme: row[j] is the distance between the
   * prefix of `a` read so far and b's first j bytes, prev the row before,
   * prev2 the one before that (for a swap of the last two bytes). */
  guint *rows = g_new (guint, 3 * (n + 1));
  guint *prev2 = rows, *prev = rows + n + 1, *row = rows + 2 * (n + 1);
  for (gsize j = 0; j <= n; j++)
    row[j] = (guint) j;
  for (gsize i = 0; a[i] != '\0'; i++)
    {
      guint *t = prev2;
      prev2 = prev;
      prev = row;
      row = t;
      row[0] = (guint) i + 1;
      for (gsize j = 1; j <= n; j++)
        {
          guint cost = g_ascii_tolower (a[i]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;
          row[j] = MIN (MIN (prev[j] + 1, row[j - 1] + 1), prev[j - 1] + cost);
          if (i > 0 && j > 1 && g_ascii_tolower (a[i]) == g_ascii_tolower (b[j - 2])
              && g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]))
            row[j] = MIN (row[j], prev2[j - 2] + 1);
        }
    }
  guint d = row[n];
  g_free (rows);
  return d;
}

const char *
near_name (const char *typed, const char *const *known)
{
  g_return_val_if_fail (typed != NULL, NULL);
  const char *best = NULL;
  guint best_distance = G_MAXUINT;
  for (const char *const *k = known; k != NULL && *k != NULL; k++)
    {
      if (strcmp (typed, *k) == 0)
        return NULL;
      guint d = near_name_distance (typed, *k);
      gsize longer = MAX (strlen (typed), strlen (*k));
      guint allowed = longer <= 4 ? 1 : (guint) (longer / 3);
      if (d <= allowed && d < best_distance)
        {
          best = *k;
          best_distance = d;
        }
    }
  return best;
}
