/* test_timeline_row.c: the timeline writer's row formatter against its plain reference, on random rows and on edge cases. */
#include <string.h>
#include <glib.h>
#include "sim/formats/timeline_row.h"

/* Formats `row` both ways after the same text, and compares what was
 * appended and the byte after it (the NUL): a wrong length, a byte written
 * past the row or over the text before it shows. */
static void
check_row (GString *fast, GString *ref, const TimelineRow *row, gboolean issuer)
{
  gsize start = fast->len;
  g_assert_cmpuint (ref->len, ==, start);
  char before = start > 0 ? fast->str[start - 1] : '\0';
  timeline_row_append (fast, row, issuer);
  timeline_row_append_reference (ref, row, issuer);
  if (fast->len != ref->len || memcmp (fast->str + start, ref->str + start, ref->len - start + 1) != 0
      || (start > 0 && fast->str[start - 1] != before))
    g_error ("row of op %u: \"%s\", expected \"%s\"", row->op, fast->str + start,
             ref->str + start);
}

/* Text of 0 to max_len bytes: mostly name characters, with now and then
 * each byte that makes a field quoted, a blank, a control character and
 * UTF-8. */
static char *
random_text (GRand *rand, guint max_len)
{
  static const char *const pieces[] = { ",", "\"", "\r", "\n", " ", "\t", "\x01", "\xc3\xa9", "\"\"" };
  GString *s = g_string_new (NULL);
  guint len = g_rand_int_range (rand, 0, (gint32) max_len + 1);
  gboolean special = g_rand_int_range (rand, 0, 4) == 0;
  while (s->len < len)
    {
      if (special && g_rand_int_range (rand, 0, 8) == 0)
        g_string_append (s, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
      else
        g_string_append_c (s, "abcdefghijklmnopqrstuvwxyz0123456789_.-"[g_rand_int_range (rand, 0, 39)]);
    }
  return g_string_free (s, FALSE);
}

/* A number of random bit length, so that short ones are as common as long. */
static guint64
random_bits (GRand *rand)
{
  guint64 v = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
  return v >> g_rand_int_range (rand, 0, 64);
}

/* 100,000 random rows appended to one string each way, which grows from
 * a byte through many reallocations. */
static void
test_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (36);
  g_autoptr (GString) fast = g_string_sized_new (1);
  g_autoptr (GString) ref = g_string_sized_new (1);
  for (guint i = 0; i < 100000; i++)
    {
      g_autofree char *stream = random_text (rand, 20);
      g_autofree char *kind = random_text (rand, 8);
      g_autofree char *engine = random_text (rand, 8);
      g_autofree char *label = g_rand_boolean (rand) ? random_text (rand, 30) : NULL;
      g_autofree char *cause = g_rand_boolean (rand) ? random_text (rand, 80) : NULL;
      g_autofree char *issuer = g_rand_boolean (rand) ? random_text (rand, 12) : NULL;
      TimelineRow row = {
        (guint32) random_bits (rand), (guint32) random_bits (rand), stream, kind, engine,
        g_rand_int_range (rand, 0, 3) == 0 ? -1 : (gint32) (random_bits (rand) >> 33),
        (gint64) random_bits (rand), -(gint64) (random_bits (rand) >> 1), (gint64) random_bits (rand),
        g_rand_boolean (rand) ? 0 : random_bits (rand), g_rand_boolean (rand) ? 0 : (guint32) random_bits (rand),
        g_rand_boolean (rand) ? 0 : (guint32) random_bits (rand), label, cause, NULL, issuer,
      };
      check_row (fast, ref, &row, g_rand_boolean (rand));
    }
}

/* The ends of every numeric column, empty fields, and fields that are all
 * quotes or all line breaks. */
static void
test_edges (void)
{
  g_autoptr (GString) fast = g_string_new ("prefix,");
  g_autoptr (GString) ref = g_string_new ("prefix,");
  const TimelineRow rows[] = {
    { 0, 0, "", "", "", -1, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL },
    { 0, 0, "", "", "", 0, 0, 0, 0, 0, 0, 0, "", "", NULL, "" },
    { G_MAXUINT32, G_MAXUINT32, "s", "k", "e", G_MAXINT32, G_MAXINT64, G_MININT64, G_MININT64 + 1,
      G_MAXUINT64, G_MAXUINT32, G_MAXUINT32, "l", "c", NULL, "main" },
    { 1, 2, "\"", "\"\"", ",", G_MININT32, -1, 1, -9, 9, 10, 99, "\r\n", "\n", NULL, "\"" },
    { 3, 4, "a,b", "x\"y", "e\r", 5, 10, 100, 1000, 1, 1, 1, ",,,", "\"quoted\" and, comma\n", NULL,
      "w,1\n" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      check_row (fast, ref, &rows[i], FALSE);
      check_row (fast, ref, &rows[i], TRUE);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline-row/edges", test_edges);
  g_test_add_func ("/timeline-row/random", test_random);
  return g_test_run ();
}
