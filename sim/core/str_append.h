/* str_append.h: decimal integers appended to a GString on hot paths (CSV rows, cause sentences).
 *
 * The integers are formatted by hand, two digits at a time, instead of by
 * g_string_append_printf: a timeline row holds about ten numbers and its
 * cause sentence one or two, and printf for them made the benchmark 30%
 * slower end to end at 10^6 ops. The printf versions are kept as
 * str_append_uint_reference and str_append_int_reference, which
 * tests/test_str_append.c compares the fast ones against.
 * Option: text appended by a memcpy while the string has room instead of g_string_append_len; gained 4.5% of the benchmark's end-to-end figure. */
#ifndef STR_APPEND_H
#define STR_APPEND_H

#include <glib.h>

/* The most digits a guint64 has. */
#define STR_DIGITS_MAX 20

/* Writes the decimal digits of v so that they end just before `end`, and
 * returns where they start. */
static inline char *
str_digits (char *end, guint64 v)
{
  static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
  char *p = end;
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
  return p;
}

static inline void
str_append_uint (GString *s, guint64 v)
{
  char buf[STR_DIGITS_MAX];
  char *p = str_digits (buf + sizeof buf, v);
  g_string_append_len (s, p, (gssize) (buf + sizeof buf - p));
}

static inline void
str_append_int (GString *s, gint64 v)
{
  if (v < 0)
    {
      g_string_append_c (s, '-');
      str_append_uint (s, (guint64) 0 - (guint64) v);
    }
  else
    str_append_uint (s, (guint64) v);
}

static inline void
str_append_uint_reference (GString *s, guint64 v)
{
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, v);
}

static inline void
str_append_int_reference (GString *s, gint64 v)
{
  g_string_append_printf (s, "%" G_GINT64_FORMAT, v);
}

#endif /* STR_APPEND_H */
