/* schedule_text.c: a schedule's statements (schedule_text.h). */
#include <string.h>
#include "schedule_text.h"

char *
schedule_text_statements (const char *text)
{
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      char *hash = strstr (lines[i], "   #");
      if (hash != NULL)
        *hash = '\0';
      g_string_append_printf (out, "%s\n", lines[i]);
    }
  return g_string_free (out, FALSE);
}
