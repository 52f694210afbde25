/* cause_link.c: the other op a timeline's cause text ties an op to, when the tie crosses streams. */
#include "cause_link.h"

#include <string.h>

static const char *const cause_link_kinds[] = { "event", "queue", "legacy", "deferred" };

const char *
cause_link_parse (const char *cause, guint32 *op)
{
  g_return_val_if_fail (op != NULL, NULL);
  if (cause == NULL)
    return NULL;

  const char *kind = NULL;
  for (gsize k = 0; k < G_N_ELEMENTS (cause_link_kinds); k++)
    {
      gsize len = strlen (cause_link_kinds[k]);
      if (strncmp (cause, cause_link_kinds[k], len) == 0
          && (cause[len] == ' ' || cause[len] == '\0'))
        kind = cause_link_kinds[k];
    }
  if (kind == NULL)
    return NULL;

  /* "op" must be a word of its own ("stop 3" names no op). */
  gboolean found = FALSE;
  for (const char *p = strstr (cause, "op "); p != NULL; p = strstr (p + 1, "op "))
    {
      if ((p != cause && g_ascii_isalnum (p[-1])) || !g_ascii_isdigit (p[3]))
        continue;
      char *end = NULL;
      guint64 value = g_ascii_strtoull (p + 3, &end, 10);
      if (value >= G_MAXUINT32 || g_ascii_isalnum (*end))
        continue;
      *op = (guint32) value;
      found = TRUE;
    }
  return found ? kind : NULL;
}
