/* test_str_append.c: the hand-written decimal formatting of sim/core/str_append.h against its printf reference. */
#include <glib.h>
#include "sim/core/str_append.h"

/* Appends v both ways, as a signed number when `is_signed`, after the same
 * prefix, so that a wrong length or a lost byte before the number shows too,
 * and compares the strings. */
static void
check (guint64 v, gboolean is_signed)
{
  g_autoptr (GString) fast = g_string_new ("x");
  g_autoptr (GString) ref = g_string_new ("x");
  if (is_signed)
    {
      str_append_int (fast, (gint64) v);
      str_append_int_reference (ref, (gint64) v);
    }
  else
    {
      str_append_uint (fast, v);
      str_append_uint_reference (ref, v);
    }
  if (!g_string_equal (fast, ref))
    g_error ("\"%s\", expected \"%s\"", fast->str, ref->str);
}

#define check_uint(v) check ((v), FALSE)
#define check_int(v) check ((guint64) (v), TRUE)

/* Every length of number: both sides of each power of ten and of two, and
 * the ends of both ranges, signed values with both signs. */
static void
test_edges (void)
{
  guint64 power = 1;
  for (guint k = 0; k <= 19; k++, power *= 10)
    for (gint d = -1; d <= 1; d++)
      {
        guint64 v = power + (guint64) d;
        check_uint (v);
        if (v <= G_MAXINT64)
          {
            check_int ((gint64) v);
            check_int (-(gint64) v);
          }
      }
  for (guint bit = 0; bit < 64; bit++)
    for (gint d = -1; d <= 1; d++)
      {
        guint64 v = ((guint64) 1 << bit) + (guint64) d;
        check_uint (v);
        check_int ((gint64) v);
      }
  check_uint (0);
  check_uint (G_MAXUINT64);
  check_uint (G_MAXUINT64 - 1);
  check_int (0);
  check_int (G_MAXINT64);
  check_int (G_MININT64);
  check_int (G_MININT64 + 1);
}

/* Random values of every bit length, so that short numbers (op indexes,
 * grid sizes) are as common as long ones (times in ns, byte counts). */
static void
test_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (36);
  for (guint i = 0; i < 200000; i++)
    {
      guint64 v = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      v >>= g_rand_int_range (rand, 0, 64);
      check_uint (v);
      check_int ((gint64) v);
      check_int (-(gint64) (v >> 1));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/str-append/edges", test_edges);
  g_test_add_func ("/str-append/random", test_random);
  return g_test_run ();
}
