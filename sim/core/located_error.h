/* located_error.h: errors about a place in an input file, "FILE:LINE:COLUMN: what".
 *
 * The schedule parser, the profile reader and the timeline CSV reader all
 * report bad input this way. The text they quote comes from the file, and a
 * file can hold control characters (a stray ^A in a keyword, a tab inside a
 * quoted CSV field), so the whole message, path included, is made printable
 * here (printable.h), once for all three, and is always one line. */
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

/* TRUE when text[0..len) is UTF-8 without NUL bytes. Otherwise sets a
 * located error at the first bad byte (its column counted in characters):
 * "PATH:LINE:COLUMN: invalid UTF-8; a WHAT is UTF-8 text" (or "a NUL
 * byte; ..."). The timeline, profile and recorder-log readers share it. */
gboolean located_error_check_utf8 (GError **error, GQuark domain, gint code, const char *path,
                                   const char *text, gsize len, const char *what);

#endif /* LOCATED_ERROR_H */
