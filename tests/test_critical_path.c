/* test_critical_path.c: the critical path through shared hardware queues and Fermi's deferred completion, against paths worked out by hand.
 *
 * traces/examples/false-dependency.sched: 16 streams each launch two
 * dependent kernels (A_i then B_i, 1 ms each), issued depth first (A1 B1 A2
 * B2 ...), then `sync device`. Ops: A_i is op 2(i-1), B_i op 2(i-1)+1, the
 * sync op 32.
 *
 * One connection (c1060, c2050, k20 and h100 with --connections 1): every
 * kernel is in one compute queue. B_i waits at its head for A_i (its
 * stream), and A_{i+1} waits behind B_i (the queue), so the kernels run as
 * one chain A1 B1 A2 ... B16, and the path is every op in order: 0, 1, ...,
 * 31, then the sync, which waited for B16. On the c2050 all 32 kernels are
 * one launch run, whose completions are released together when B16 (op 31)
 * ends: the sync waited for that release, so its link is op 31, not the
 * member signaled last.
 *
 * Eight connections (k20, creation order; h100, taken on submit, which for
 * this order gives the same pairs): streams i and i + 8 share a connection,
 * so each connection runs the chain A_i, B_i, A_{i+8}, B_{i+8} and the path
 * is those four kernels and the sync: 4 ms of kernels, not 32. */
#include <glib.h>
#include "sim/front/prediction.h"

static GArray *
path_of (const char *device, guint connections)
{
  g_autofree char *path = g_build_filename (SRCDIR, "traces", "examples", "false-dependency.sched",
                                            NULL);
  PredictionOptions options = { device, connections, NULL, 0, PREDICTION_HOST_OWN };
  g_autoptr (GError) error = NULL;
  g_autoptr (Prediction) p = prediction_run (path, &options, &error);
  g_assert_no_error (error);
  return prediction_critical_path (p);
}

static void
assert_whole_chain (const char *device, guint connections)
{
  g_autoptr (GArray) path = path_of (device, connections);
  if (path->len != 33)
    g_error ("%s, %u connection(s): a path of %u ops, not 33", device, connections, path->len);
  for (guint i = 0; i < 33; i++)
    g_assert_cmpuint (g_array_index (path, guint32, i), ==, i);
}

static void
test_one_connection (void)
{
  assert_whole_chain ("c1060", 0);
  assert_whole_chain ("c2050", 0);
  assert_whole_chain ("k20", 1);
  assert_whole_chain ("h100", 1);
}

static void
assert_pairs (const char *device)
{
  g_autoptr (GArray) path = path_of (device, 8);
  g_assert_cmpuint (path->len, ==, 5);
  guint32 a = g_array_index (path, guint32, 0);
  g_assert_cmpuint (a % 2, ==, 0); /* an A */
  g_assert_cmpuint (a, <, 16);     /* of streams 1..8 */
  g_assert_cmpuint (g_array_index (path, guint32, 1), ==, a + 1);  /* its B */
  g_assert_cmpuint (g_array_index (path, guint32, 2), ==, a + 16); /* A of stream i + 8 */
  g_assert_cmpuint (g_array_index (path, guint32, 3), ==, a + 17); /* its B */
  g_assert_cmpuint (g_array_index (path, guint32, 4), ==, 32);
}

static void
test_eight_connections (void)
{
  assert_pairs ("k20");
  assert_pairs ("h100");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/critical-path/one-connection", test_one_connection);
  g_test_add_func ("/critical-path/eight-connections", test_eight_connections);
  return g_test_run ();
}
