/* str_append.h: appending bytes and decimal integers to a GString on hot paths (CSV rows, cause sentences).
 *
 * g_string_append_len goes through GLib's general insertion code, and printf
 * per number was most of the time it took to write a million-row timeline or
 * its cause sentences; these are a copy while the string has room, and
 * decimal formatting two digits at a time. Static inline so that the callers'
 * loops keep them inlined. */
#ifndef STR_APPEND_H
#define STR_APPEND_H

#include <string.h>
#include <glib.h>

static inline void
str_append (GString *s, const char *text, gsize n)
{
  if (s->len + n < s->allocated_len)
    {
      memcpy (s->str + s->len, text, n);
      s->len += n;
      s->str[s->len] = '\0';
    }
  else
    g_string_append_len (s, text, (gssize) n);
}

#define STR_APPEND_LITERAL(s, literal) str_append ((s), (literal), sizeof (literal) - 1)

static inline void
str_append_str (GString *s, const char *text)
{
  str_append (s, text, strlen (text));
}

static inline void
str_append_uint (GString *s, guint64 v)
{
  static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
  char buf[24];
  char *p = buf + sizeof buf;
  while (v >= 100)
    {
      guint d = (guint) (v % 100) * 2;
      v /= 100;
      *--p = pairs[d + 1];
      *--p = pairs[d];
    }
  if (v >= 10)
    {
      *--p = pairs[v * 2 + 1];
      *--p = pairs[v * 2];
    }
  else
    *--p = (char) ('0' + v);
  str_append (s, p, (gsize) (buf + sizeof buf - p));
}

static inline void
str_append_int (GString *s, gint64 v)
{
  if (v < 0)
    {
      str_append (s, "-", 1);
      str_append_uint (s, (guint64) 0 - (guint64) v);
    }
  else
    str_append_uint (s, (guint64) v);
}

#endif /* STR_APPEND_H */
