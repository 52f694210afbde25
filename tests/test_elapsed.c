/* test_elapsed.c: `elapsed NAME A B`, the time between two event records as cudaEventElapsedTime gives it, in predict's summary, timeline CSV and JSON. */
#include <string.h>
#include "support/cli_run.h"
#include "support/parse_check.h"
#include "support/temp_dir.h"

/* On the schematic K20 (no latencies, no host costs, one SM holding one
 * block, so a kernel of grid=1 takes its time=), one stream, by hand:
 *
 *   start   recorded at 0
 *   kernel  0 - 1 ms;     mid recorded at 1 ms
 *   kernel  1 - 3 ms;     stop recorded at 3 ms
 *   start again at 3 ms, kernel 3 - 3.5 ms, stop again at 3.5 ms
 *
 * so total = 3 ms, first = 1 ms, back (stop to start) = -3 ms, and last,
 * after the second records, 0.5 ms. */
static const char schedule_text[] =
  "device schematic-k20\n"
  "stream s1\n"
  "record start s1\n"
  "kernel s1 grid=1 block=32 time=1ms\n"
  "record mid s1\n"
  "kernel s1 grid=1 block=32 time=2ms\n"
  "record stop s1\n"
  "elapsed total start stop\n"
  "elapsed first start mid\n"
  "elapsed back stop start\n"
  "record start s1\n"
  "kernel s1 grid=1 block=32 time=500us\n"
  "record stop s1\n"
  "elapsed last start stop\n";

static void
test_predict (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-elapsed");
  temp_dir_write (dir, "e.sched", schedule_text);
  const char *const args[] = { "predict", "e.sched", "--csv", "e.csv", "--json", "e.json", NULL };
  g_autofree char *out = NULL, *csv = NULL, *json = NULL;

  g_assert_cmpint (cli_run (dir, args, NULL, &out, NULL), ==, 0);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "makespan     3.5 ms\n"
                                 "elapsed      total 3 ms (start, line 3, to stop, line 7)\n"
                                 "elapsed      first 1 ms (start, line 3, to mid, line 5)\n"
                                 "elapsed      back -3 ms (stop, line 7, to start, line 3)\n"
                                 "elapsed      last 500 us (start, line 11, to stop, line 13)\n"
                                 "\n"));

  g_autofree char *csv_path = g_build_filename (dir, "e.csv", NULL);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_nonnull (strstr (csv, "# makespan_ns: 3500000\n"
                                 "# elapsed_ns.total: 3000000\n"
                                 "# elapsed_ns.first: 1000000\n"
                                 "# elapsed_ns.back: -3000000\n"
                                 "# elapsed_ns.last: 500000\n"
                                 "op,"));
  g_autofree char *json_path = g_build_filename (dir, "e.json", NULL);
  g_assert_true (g_file_get_contents (json_path, &json, NULL, NULL));
  g_assert_nonnull (strstr (json, "\"elapsed_ns.back\" : -3000000"));
  temp_dir_remove (dir);
}

/* Columns by hand: `elapsed t ` is 10 bytes, so A is at column 11. */
static void
test_errors (void)
{
  parse_check_error ("stream s\nrecord a s\nelapsed t a b\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:3:13: event 'b' has no `record` before this line");
  parse_check_error ("stream s\nwait s a\nrecord b s\nelapsed t a b\n", NULL, 0,
                     SCHEDULE_ERROR_UNDEFINED, "t.sched:4:11: event 'a' has no `record` before");
  parse_check_error ("stream s\nelapsed t a b\nrecord a s\nrecord b s\n", NULL, 0,
                     SCHEDULE_ERROR_UNDEFINED, "t.sched:2:11: event 'a' has no `record` before");
  parse_check_error ("stream s\nrecord a s\nelapsed t a a\nelapsed t a a\n", NULL, 0,
                     SCHEDULE_ERROR_DUPLICATE, "t.sched:4:9: elapsed 't' is given twice; the first "
                     "is at line 3");
  parse_check_error ("stream s\nrecord a s\nelapsed t a\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:1: expected `elapsed NAME EVENT_A EVENT_B`");
  parse_check_error ("stream s\nrecord a s\nelapsed t a a label=x\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:15: expected `elapsed NAME EVENT_A EVENT_B`");
  parse_check_error ("stream s\nrecord a s\nelapsed t/1 a a\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:9: 't/1' is not a name for `elapsed`");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/elapsed/predict", test_predict);
  g_test_add_func ("/elapsed/errors", test_errors);
  return g_test_run ();
}
