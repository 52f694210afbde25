/* test_op_names.c: listings name ops by number and label ("op 2 k-1"): --explain, --critical-path, compare --ops and --regions, and the causes they quote. */
#include <string.h>
#include <glib.h>
#include "sim/front/op_name.h"
#include "support/cli_run.h"
#include "support/temp_dir.h"

/* Labels of ops 0 to 3 for op_name_in_text: op 2 has none. */
static const char *
labels_of (guint32 op, gconstpointer data)
{
  (void) data;
  static const char *const labels[] = { "up-1", "k 1", NULL, "\x01x" };
  return op < G_N_ELEMENTS (labels) ? labels[op] : NULL;
}

static void
test_op_name (void)
{
  g_autoptr (GString) s = g_string_new (NULL);
  op_name_append (s, 7, NULL);
  g_string_append_c (s, '|');
  op_name_append (s, 7, "");
  g_string_append_c (s, '|');
  op_name_append (s, 7, "h2d-3");
  g_string_append_c (s, '|');
  op_name_append (s, 12, "my gemm");
  g_string_append_c (s, '|');
  op_name_append (s, 1, "a\tb");
  g_assert_cmpstr (s->str, ==, "op 7|op 7|op 7 h2d-3|op 12 \"my gemm\"|op 1 a\\tb");
  g_assert_cmpuint (op_name_width (7, "h2d-3"), ==, strlen ("op 7 h2d-3"));
  g_assert_cmpuint (op_name_width (12, NULL), ==, strlen ("op 12"));
}

/* Every "op N" that starts and ends a word names its op; other digits and
 * words that merely end in "op" are left alone. */
static void
test_op_name_in_text (void)
{
  const struct
  {
    const char *in, *out;
  } cases[] = {
    { "engine h2d busy with op 0", "engine h2d busy with op 0 up-1" },
    { "deferred completion of op 1 held until op 2 ended",
      "deferred completion of op 1 \"k 1\" held until op 2 ended" },
    { "queue conn0/copy behind op 0 (stream s1): false dependency",
      "queue conn0/copy behind op 0 up-1 (stream s1): false dependency" },
    { "op 3", "op 3 \\x01x" },
    { "stop 0, loop 0, op 0x, op 99, ops 0", "stop 0, loop 0, op 0x, op 99, ops 0" },
    { "", "" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = op_name_in_text (cases[i].in, labels_of, NULL);
      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

/* The ops of a run in another order than the file's (advise's candidates):
 * position 0 holds the file's op 3, 1 op 0, 2 op 1, 3 op 2. */
static guint32
file_number (guint32 op, gconstpointer data)
{
  (void) data;
  static const guint32 numbers[] = { 3, 0, 1, 2 };
  return op < G_N_ELEMENTS (numbers) ? numbers[op] : op;
}

/* "op N" of such a run named by the file's number, its label still the
 * run's op N's. */
static void
test_op_name_in_text_as (void)
{
  g_autofree char *out = op_name_in_text_as ("slots held by op 0, then op 2 and op 7", file_number,
                                             labels_of, NULL);
  g_assert_cmpstr (out, ==, "slots held by op 3 up-1, then op 1 and op 7");
}

/* Two streams on the schematic K20 (1 ms phases, free host calls, one H2D
 * and one D2H engine), three ops labelled. By hand (as waits_text in
 * test_predict_output.c):
 *   op 0 up-1  h2d s1     0-1 ms  waited for nothing
 *   op 1 up-2  h2d s2     1-2 ms  engine: the H2D engine busy with op 0 (1 ms)
 *   op 2 k-1   kernel s1  1-2 ms  stream: after op 0 (1 ms)
 *   op 3       d2h s1     2-3 ms  stream: after op 2 (2 ms)
 *   op 4       sync               sync: until op 3 finished (3 ms)
 * The critical path: ops 0, 2, 3, 4. The names are padded to the widest
 * listed, "op 1 up-2" and "op 0 up-1": nine characters. */
static const char labelled[] =
  "device schematic-k20\n"
  "stream s1\n"
  "stream s2\n"
  "h2d s1 4MiB label=up-1\n"
  "h2d s2 4MiB label=up-2\n"
  "kernel s1 grid=1 block=32 time=1ms label=k-1\n"
  "d2h s1 4MiB\n"
  "sync device\n";

static void
test_predict_listings (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-op-names");
  temp_dir_write (dir, "l.sched", labelled);
  const char *args[] = { "predict", "l.sched", "--explain", "--critical-path", "-q", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, &out, NULL), ==, 0);
  g_assert_cmpstr (
    out, ==,
    "why ops waited (start - issue; the last thing each waited for):\n"
    "  op 1 up-2 line 5    h2d    s2       waited       1 ms: engine h2d busy with op 0 up-1\n"
    "  op 2 k-1  line 6    kernel s1       waited       1 ms: stream s1 after op 0 up-1\n"
    "  op 3      line 7    d2h    s1       waited       2 ms: stream s1 after op 2 k-1\n"
    "  op 4      line 8    sync            waited       3 ms: sync until op 3 finished\n"
    "\n"
    "critical path (each op waited for the one above it; the last ends at the makespan):\n"
    "  op 0 up-1 line 4    h2d    s1             0 ns - 1 ms\n"
    "  op 2 k-1  line 6    kernel s1             1 ms - 2 ms        stream s1 after op 0 up-1\n"
    "  op 3      line 7    d2h    s1             2 ms - 3 ms        stream s1 after op 2 k-1\n"
    "  op 4      line 8    sync                  0 ns - 3 ms        sync until op 3 finished\n"
    "  time on the path: h2d 1 ms, d2h 1 ms, compute 1 ms, calls and latencies 0 ns\n");
  temp_dir_remove (dir);
}

/* compare lists the labels of the predicted timeline: a last column of
 * --ops ("-" for none), the worst op of the summary, and the ends of each
 * region of --regions. The region here, by hand: from the end of the
 * sync (op 1, 1 ms) to the end of the blocking copy back (op 3, labelled
 * "back"): the kernel 1-2 ms and the copy 2-3 ms, 2 ms. */
static void
test_compare_listings (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-op-names");
  temp_dir_write (dir, "l.sched", labelled);
  temp_dir_write (dir, "r.sched",
                  "device schematic-k20\n"
                  "stream s1\n"
                  "h2d s1 4MiB label=up\n"
                  "sync device\n"
                  "kernel s1 grid=1 block=32 time=1ms label=work\n"
                  "memcpy d2h 4MiB label=back\n");
  const char *predict_l[] = { "predict", "l.sched", "-q", "-o", "l.csv", NULL };
  const char *predict_r[] = { "predict", "r.sched", "-q", "-o", "r.csv", NULL };
  g_assert_cmpint (cli_run (dir, predict_l, NULL, NULL, NULL), ==, 0);
  g_assert_cmpint (cli_run (dir, predict_r, NULL, NULL, NULL), ==, 0);

  const char *ops[] = { "compare", "l.csv", "l.csv", "--ops", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, ops, NULL, &out, NULL), ==, 0);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_suffix (lines[0], " d_end label"));
  g_assert_true (g_str_has_suffix (lines[1], " up-1"));
  g_assert_true (g_str_has_suffix (lines[3], " k-1"));
  g_assert_true (g_str_has_suffix (lines[4], " -"));
  /* every error is 0: the worst is the first op */
  g_assert_nonnull (strstr (out, "max 0.00% (op 0 up-1, line 4, h2d)"));

  const char *regions[] = { "compare", "r.csv", "r.csv", "--regions", "-q", NULL };
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (cli_run (dir, regions, NULL, &out, NULL), ==, 0);
  g_auto (GStrv) rlines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_suffix (rlines[0], "wait  from_label to_label"));
  g_auto (GStrv) words = g_strsplit_set (rlines[1], " ", -1);
  GPtrArray *kept = g_ptr_array_new ();
  for (char **w = words; *w != NULL; w++)
    if (**w != '\0')
      g_ptr_array_add (kept, *w);
  /* error, and its host and wait parts: a timeline against itself */
  const char *expected[] = { "0", "sync", "1", "3", "2000.0", "2000.0", "+0.00%", "+0.00%", "+0.00%",
                             "-", "back" };
  g_assert_cmpuint (kept->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < kept->len; i++)
    g_assert_cmpstr (g_ptr_array_index (kept, i), ==, expected[i]);
  g_ptr_array_free (kept, TRUE);
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/op-names/op-name", test_op_name);
  g_test_add_func ("/op-names/in-text", test_op_name_in_text);
  g_test_add_func ("/op-names/in-text-as", test_op_name_in_text_as);
  g_test_add_func ("/op-names/predict-listings", test_predict_listings);
  g_test_add_func ("/op-names/compare-listings", test_compare_listings);
  return g_test_run ();
}
