/* located_error.c: "FILE:LINE:COLUMN: what" errors, made printable (see located_error.h). */
#include "located_error.h"
#include "printable.h"

void
located_error_setv (GError **error, GQuark domain, gint code, const char *path, guint line,
                    guint column, const char *format, va_list args)
{
  char *body = g_strdup_vprintf (format, args);
  char *message = g_strdup_printf ("%s:%u:%u: %s", path, line, column, body);
  char *shown = printable_text (message, FALSE);
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

gboolean
located_error_check_utf8 (GError **error, GQuark domain, gint code, const char *path,
                          const char *text, gsize len, const char *what)
{
  const char *bad;
  if (g_utf8_validate_len (text, len, &bad))
    return TRUE;
  guint line = 1;
  const char *line_start = text;
  for (const char *p = text; p < bad; p++)
    if (*p == '\n')
      {
        line++;
        line_start = p + 1;
      }
  located_error_set (error, domain, code, path, line,
                     (guint) g_utf8_strlen (line_start, bad - line_start) + 1,
                     "%s; a %s is UTF-8 text", *bad == '\0' ? "a NUL byte" : "invalid UTF-8",
                     what);
  return FALSE;
}
