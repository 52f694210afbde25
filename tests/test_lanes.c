/* test_lanes.c: first-fit packing of intervals into non-overlapping lanes. */
#include <glib.h>
#include "sim/front/lanes.h"

/* Hand computation, taking intervals by start:
 *   A [0,10)  -> lane 0 (lane 0 busy until 10)
 *   B [5,15)  -> lane 0 busy -> lane 1 (busy until 15)
 *   C [10,20) -> lane 0 free at 10 -> lane 0 (busy until 20)
 *   D [12,13) -> lanes 0 and 1 busy -> lane 2
 *   E [20,20) -> lane 0 free at 20 -> lane 0
 * Three intervals (A or C, B, D) are open at 12, so 3 lanes. */
static void
test_first_fit (void)
{
  const SimTime start[] = { 0, 5, 10, 12, 20 };
  const SimTime end[] = { 10, 15, 20, 13, 20 };
  guint lane[5];
  g_assert_cmpuint (lanes_assign (start, end, 5, lane), ==, 3);
  g_assert_cmpuint (lane[0], ==, 0);
  g_assert_cmpuint (lane[1], ==, 1);
  g_assert_cmpuint (lane[2], ==, 0);
  g_assert_cmpuint (lane[3], ==, 2);
  g_assert_cmpuint (lane[4], ==, 0);
}

/* Intervals that only touch share a lane, zero-length ones included. */
static void
test_touching (void)
{
  const SimTime start[] = { 0, 5, 10, 10 };
  const SimTime end[] = { 5, 10, 10, 12 };
  guint lane[4];
  g_assert_cmpuint (lanes_assign (start, end, 4, lane), ==, 1);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpuint (lane[i], ==, 0);
}

/* The input order does not matter, only start times; equal starts go by
 * index: [5,6) given first still goes second, after [0,10) took lane 0; of
 * the two [20,23), index 2 gets lane 0 and index 3 lane 1. */
static void
test_order (void)
{
  const SimTime start[] = { 5, 0, 20, 20 };
  const SimTime end[] = { 6, 10, 23, 23 };
  guint lane[4];
  g_assert_cmpuint (lanes_assign (start, end, 4, lane), ==, 2);
  g_assert_cmpuint (lane[1], ==, 0);
  g_assert_cmpuint (lane[0], ==, 1);
  g_assert_cmpuint (lane[2], ==, 0);
  g_assert_cmpuint (lane[3], ==, 1);
}

/* An end before its start counts as zero length: [8,3) is [8,8), which
 * fits after [0,8) in lane 0. */
static void
test_backwards (void)
{
  const SimTime start[] = { 0, 8 };
  const SimTime end[] = { 8, 3 };
  guint lane[2] = { 9, 9 };
  g_assert_cmpuint (lanes_assign (start, end, 2, lane), ==, 1);
  g_assert_cmpuint (lane[1], ==, 0);
  g_assert_cmpuint (lanes_assign (NULL, NULL, 0, NULL), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lanes/first-fit", test_first_fit);
  g_test_add_func ("/lanes/touching", test_touching);
  g_test_add_func ("/lanes/order", test_order);
  g_test_add_func ("/lanes/backwards", test_backwards);
  return g_test_run ();
}
