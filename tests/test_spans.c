/* test_spans.c: the union of time intervals, its length, and the overlap of two unions. */
#include <glib.h>
#include "sim/front/spans.h"

/* Hand computation. By start: [0,5) [5,8) [10,20) [15,30) [40,50) [45,45).
 * [0,5) and [5,8) touch: [0,8). [10,20) and [15,30) overlap: [10,30).
 * [45,45) lies inside [40,50). So three spans, 8 + 20 + 10 = 38 ns. */
static void
test_union (void)
{
  Span s[] = { { 10, 20 }, { 45, 45 }, { 0, 5 }, { 40, 50 }, { 15, 30 }, { 5, 8 } };
  gsize n = spans_union (s, G_N_ELEMENTS (s));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (s[0].start, ==, 0);
  g_assert_cmpint (s[0].end, ==, 8);
  g_assert_cmpint (s[1].start, ==, 10);
  g_assert_cmpint (s[1].end, ==, 30);
  g_assert_cmpint (s[2].start, ==, 40);
  g_assert_cmpint (s[2].end, ==, 50);
  g_assert_cmpint (spans_length (s, n), ==, 38);
  g_assert_cmpuint (spans_union (s, 0), ==, 0);
}

/* Hand computation: a = [0,8) [10,30) [40,50), b = [5,12) [25,45): both
 * cover [5,8) 3 ns, [10,12) 2, [25,30) 5 and [40,45) 5: 15 ns. */
static void
test_overlap (void)
{
  const Span a[] = { { 0, 8 }, { 10, 30 }, { 40, 50 } };
  const Span b[] = { { 5, 12 }, { 25, 45 } };
  g_assert_cmpint (spans_overlap (a, 3, b, 2), ==, 15);
  g_assert_cmpint (spans_overlap (b, 2, a, 3), ==, 15);
  g_assert_cmpint (spans_overlap (a, 3, b, 0), ==, 0);
}

#define GRID 600

/* Random spans of 1 to 29 steps on a grid of GRID steps, each step worth `scale` ns from
 * `offset`. The expected answers come from marking the steps each span
 * covers, with no sorting at all: the union's length is the marked steps
 * times `scale`, the overlap the steps both sets mark. A scale of 2^33 + 7
 * puts the times 2^42 apart, so the sort needs all its passes, and the 7
 * makes every digit differ; a negative offset checks times below 0. */
static void
check_random (GRand *r, SimTime scale, SimTime offset)
{
  guint n_a = (guint) g_rand_int_range (r, 0, 3000), n_b = (guint) g_rand_int_range (r, 0, 300);
  Span *a = g_new (Span, MAX (n_a, 1)), *b = g_new (Span, MAX (n_b, 1));
  gboolean in_a[GRID] = { FALSE }, in_b[GRID] = { FALSE };
  for (guint k = 0; k < n_a + n_b; k++)
    {
      gint32 from = g_rand_int_range (r, 0, GRID), to = from + g_rand_int_range (r, 1, 30);
      to = MIN (to, GRID);
      gboolean *mark = k < n_a ? in_a : in_b;
      for (gint32 t = from; t < to; t++)
        mark[t] = TRUE;
      Span s = { offset + from * scale, offset + to * scale };
      if (k < n_a)
        a[k] = s;
      else
        b[k - n_a] = s;
    }
  SimTime want_a = 0, want_both = 0;
  for (guint t = 0; t < GRID; t++)
    {
      want_a += in_a[t] ? scale : 0;
      want_both += in_a[t] && in_b[t] ? scale : 0;
    }

  gsize m_a = spans_union (a, n_a), m_b = spans_union (b, n_b);
  /* in order, disjoint and not touching, each of positive length */
  for (gsize i = 0; i < m_a; i++)
    {
      g_assert_cmpint (a[i].end, >, a[i].start);
      if (i > 0)
        g_assert_cmpint (a[i].start, >, a[i - 1].end);
    }
  g_assert_cmpint (spans_length (a, m_a), ==, want_a);
  g_assert_cmpint (spans_overlap (a, m_a, b, m_b), ==, want_both);
  g_free (a);
  g_free (b);
}

static void
test_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (20261125);
  const SimTime scales[] = { 1, 1000, ((SimTime) 1 << 33) + 7 };
  for (guint round = 0; round < 60; round++)
    {
      SimTime scale = scales[round % G_N_ELEMENTS (scales)];
      SimTime offset = round % 2 == 0 ? 0 : -((SimTime) 1 << 40) + round;
      check_random (r, scale, offset);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spans/union", test_union);
  g_test_add_func ("/spans/overlap", test_overlap);
  g_test_add_func ("/spans/random", test_random);
  return g_test_run ();
}
