/* located_error.h: errors about a place in an input file, "FILE:LINE:COLUMN: what".
 *
 * The schedule parser, the profile reader and the timeline CSV reader all
 * report bad input this way. The text they quote comes from the file, and a
 * file can hold control characters (a stray ^A in a keyword, a tab inside a
 * quoted CSV field) that a terminal shows as nothing or acts on. So the
 * message is made printable here, once for all three: every byte below 0x20,
 * and 0x7f, is written as \t, \n, \r or \xNN. UTF-8 text is left as it is. */
#ifndef LOCATED_ERROR_H
#define LOCATED_ERROR_H

#include <stdarg.h>
#include <glib.h>

void located_error_set (GError **error, GQuark domain, gint code, const char *path,
                        guint line, guint column, const char *format, ...)
  G_GNUC_PRINTF (7, 8);

void located_error_setv (GError **error, GQuark domain, gint code, const char *path,
                         guint line, guint column, const char *format, va_list args)
  G_GNUC_PRINTF (7, 0);

/* A newly allocated copy of `text` with control bytes written as above. */
char *located_error_printable (const char *text);

#endif /* LOCATED_ERROR_H */
