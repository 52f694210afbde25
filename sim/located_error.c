/* located_error.c: "FILE:LINE:COLUMN: what" errors with control bytes made visible (see located_error.h). */
#include <string.h>
#include "located_error.h"

char *
located_error_printable (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);
  GString *out = g_string_sized_new (strlen (text));
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      if (*p >= 0x20 && *p != 0x7f)
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

void
located_error_setv (GError **error, GQuark domain, gint code, const char *path, guint line,
                    guint column, const char *format, va_list args)
{
  char *body = g_strdup_vprintf (format, args);
  char *message = g_strdup_printf ("%s:%u:%u: %s", path, line, column, body);
  char *shown = located_error_printable (message);
  g_set_error_literal (error, domain, code, shown);
  g_free (shown);
  g_free (message);
  g_free (body);
}

void
located_error_set (GError **error, GQuark domain, gint code, const char *path, guint line,
                   guint column, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (error, domain, code, path, line, column, format, args);
  va_end (args);
}
