/* printable.c: control bytes written as escapes (see printable.h). */
#include <string.h>
#include "printable.h"

char *
printable_text (const char *text, gboolean keep_line_breaks)
{
  g_return_val_if_fail (text != NULL, NULL);
  GString *out = g_string_sized_new (strlen (text));
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      if ((*p >= 0x20 && *p != 0x7f) || (*p == '\n' && keep_line_breaks))
        g_string_append_c (out, (char) *p);
      else if (*p == '\t')
        g_string_append (out, "\\t");
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '\r')
        g_string_append (out, "\\r");
      else
        g_string_append_printf (out, "\\x%02x", *p);
    }
  return g_string_free (out, FALSE);
}
