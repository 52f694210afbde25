/* test_measured_row.c: the rows streamsim-validate writes for memsets and host functions, and the record times derived behind them.
 *
 * Expected values are worked out by hand from the schedule below and from
 * what the model predicts for the same ops (`streamsim predict` writes a
 * memset on engine "compute" and a host function on "callback"), so that
 * `streamsim compare` matches measured and predicted rows kind for kind. */
#include <string.h>
#include "sim/recorded/marker_times.h"
#include "sim/recorded/measured_row.h"
#include "sim/formats/schedule_parse.h"

static const char text[] =
  "stream a\n"
  "stream b\n"
  "memset a 64MiB label=zero\n"     /* op 0 */
  "hostfn b 500us label=cb\n"       /* op 1 */
  "record e b\n"                    /* op 2 */
  "wait a e\n"                      /* op 3 */
  "kernel a grid=1 block=32 block_time=10us loads\n"; /* op 4 */

static Schedule *
parse (void)
{
  g_autoptr (GError) error = NULL;
  Schedule *s = schedule_parse_text ("test.sched", text, strlen (text), NULL, &error);
  g_assert_no_error (error);
  return s;
}

static void
test_rows (void)
{
  g_autoptr (Schedule) sched = parse ();
  TimelineRow row;
  measured_row_fill (sched, 0, &row);
  g_assert_cmpstr (row.kind, ==, "memset");
  g_assert_cmpstr (row.engine, ==, "compute");
  g_assert_cmpstr (row.stream, ==, "a");
  g_assert_cmpstr (row.label, ==, "zero");
  /* as predicted: bytes are a copy's column only */
  g_assert_cmpuint (row.bytes, ==, 0);
  g_assert_cmpint (row.start, ==, -1);

  measured_row_fill (sched, 1, &row);
  g_assert_cmpstr (row.kind, ==, "hostfn");
  g_assert_cmpstr (row.engine, ==, "callback");
  g_assert_cmpstr (row.stream, ==, "b");
  g_assert_cmpstr (row.label, ==, "cb");

  measured_row_fill (sched, 4, &row);
  g_assert_cmpstr (row.kind, ==, "kernel");
  g_assert_cmpuint (row.grid, ==, 1);
}

/* Times in ns. The memset ran 10..30 us, the host function 80..580 us
 * (its own clock reads), issued at 0, 5, 6, 7, 8 us. The record in b
 * completes when the host function returned, 580 us; the wait in a when
 * that record has and a's memset has (30 us): 580 us. */
static void
test_markers_behind_hostfn (void)
{
  g_autoptr (Schedule) sched = parse ();
  SimTime issue[] = { 0, 5000, 6000, 7000, 8000 };
  SimTime start[] = { 10000, 80000, -1, -1, 590000 };
  SimTime end[] = { 30000, 580000, -1, -1, 600000 };
  marker_times_derive (sched, issue, start, end);
  g_assert_cmpint (start[2], ==, 580000);
  g_assert_cmpint (end[2], ==, 580000);
  g_assert_cmpint (end[3], ==, 580000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/measured-row/memset-hostfn", test_rows);
  g_test_add_func ("/measured-row/markers-behind-hostfn", test_markers_behind_hostfn);
  return g_test_run ();
}
