/* fuzz_printable.h: asserts that an error message about a place in a file shows no control byte raw (located_error.c escapes them). */
#ifndef FUZZ_PRINTABLE_H
#define FUZZ_PRINTABLE_H

#include <string.h>
#include <glib.h>

/* Whether `message` is about a place in the file at `path` ("PATH:..."). */
static inline gboolean
fuzz_is_about (const char *message, const char *path)
{
  return g_str_has_prefix (message, path) && message[strlen (path)] == ':';
}

static inline void
fuzz_assert_printable (const char *message)
{
  for (const guchar *p = (const guchar *) message; *p != '\0'; p++)
    if (*p < 0x20 || *p == 0x7f)
      g_error ("control byte 0x%02x at offset %td of the message: %s", *p,
               (const char *) p - message, message);
}

#endif /* FUZZ_PRINTABLE_H */
