/* test_calib_order.c: the harness's choice of repeats for per-op medians, on hand-made end times. */
#include <string.h>
#include <glib.h>
#include "validate/calib_order.h"
#include "sim/formats/schedule_parse.h"

/* Ops 0..5: three H2D copies (0, 1, 2), a kernel (3) and two D2H copies
 * (4, 5), as parsed from this text. */
static const char TEXT[] = "stream s1\n"
                           "stream s2\n"
                           "stream s3\n"
                           "h2d s1 1MiB\n"
                           "h2d s2 1MiB\n"
                           "h2d s3 1MiB\n"
                           "kernel s1 grid=1 block=32 block_time=10us\n"
                           "d2h s1 1MiB\n"
                           "d2h s2 1MiB\n";

static Schedule *
parse (void)
{
  GError *error = NULL;
  ScheduleParseOptions opt = { 0 };
  Schedule *s = schedule_parse_text ("order.sched", TEXT, strlen (TEXT), &opt, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (s), ==, 6);
  return s;
}

/* Five repeats. H2D end orders: r0 0,1,2; r1 0,2,1; r2 0,1,2; r3 0,2,1;
 * r4 0,1,2. D2H 4 before 5 everywhere. The kernel's end (op 3) jumps
 * around and must not matter. So order "0 1 2" has 3 repeats (r0, r2, r4)
 * and wins over "0 2 1" with 2. */
static void
test_majority (void)
{
  Schedule *s = parse ();
  SimTime t[5][6] = {
    { 10, 20, 30, 99, 40, 50 },
    { 10, 30, 20, 1, 40, 50 },
    { 11, 21, 31, 5, 41, 51 },
    { 10, 31, 29, 70, 40, 50 },
    { 12, 22, 32, 0, 42, 52 },
  };
  const SimTime *end[5] = { t[0], t[1], t[2], t[3], t[4] };
  gboolean keep[5];
  g_assert_cmpint (calib_order_choose (s, end, 5, keep), ==, 3);
  g_assert_true (keep[0] && keep[2] && keep[4]);
  g_assert_false (keep[1] || keep[3]);
  schedule_free (s);
}

/* The D2H order counts too: r0 and r1 agree on H2D (0,1,2) but r1 ends
 * op 5 before op 4; r2 agrees with r0 on both. Counts: r0's order 2 (r0,
 * r2), r1's 1, r3's (H2D 1,0,2) 1: r0 and r2 are kept. */
static void
test_every_direction (void)
{
  Schedule *s = parse ();
  SimTime t[4][6] = {
    { 10, 20, 30, 0, 40, 50 },
    { 10, 20, 30, 0, 55, 50 },
    { 10, 20, 30, 0, 40, 50 },
    { 25, 20, 30, 0, 40, 50 },
  };
  const SimTime *end[4] = { t[0], t[1], t[2], t[3] };
  gboolean keep[4];
  g_assert_cmpint (calib_order_choose (s, end, 4, keep), ==, 2);
  g_assert_true (keep[0] && keep[2]);
  g_assert_false (keep[1] || keep[3]);
  schedule_free (s);
}

/* All different (three repeats, three H2D orders): each order has one
 * repeat; the tie goes to the first order seen, so only r0 is kept. */
static void
test_tie_first (void)
{
  Schedule *s = parse ();
  SimTime t[3][6] = {
    { 30, 20, 10, 0, 40, 50 },
    { 10, 20, 30, 0, 40, 50 },
    { 20, 10, 30, 0, 40, 50 },
  };
  const SimTime *end[3] = { t[0], t[1], t[2] };
  gboolean keep[3];
  g_assert_cmpint (calib_order_choose (s, end, 3, keep), ==, 1);
  g_assert_true (keep[0]);
  g_assert_false (keep[1] || keep[2]);
  schedule_free (s);
}

/* Equal end times keep issue order (the sort is stable), so r0 (ends
 * 10, 10, 30) and r1 (10, 20, 30) both read "0 1 2": both kept. */
static void
test_equal_ends_stable (void)
{
  Schedule *s = parse ();
  SimTime t[2][6] = {
    { 10, 10, 30, 0, 40, 50 },
    { 10, 20, 30, 0, 40, 50 },
  };
  const SimTime *end[2] = { t[0], t[1] };
  gboolean keep[2];
  g_assert_cmpint (calib_order_choose (s, end, 2, keep), ==, 2);
  g_assert_true (keep[0] && keep[1]);
  schedule_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calib-order/majority", test_majority);
  g_test_add_func ("/calib-order/every-direction", test_every_direction);
  g_test_add_func ("/calib-order/tie-first", test_tie_first);
  g_test_add_func ("/calib-order/equal-ends-stable", test_equal_ends_stable);
  return g_test_run ();
}
