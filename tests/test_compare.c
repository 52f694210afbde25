/* test_compare.c: predicted against measured timelines, op by op, and the exit codes of `streamsim compare`. */
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "sim/front/compare.h"
#include "sim/formats/timeline.h"
#include "support/cli_run.h"
#include "support/temp_dir.h"

static void
add_on (Timeline *t, const char *stream, guint32 op, guint32 line, const char *kind,
        SimTime start, SimTime end)
{
  TimelineRow row = {
    .op = op,
    .line = line,
    .stream = stream,
    .kind = kind,
    .engine = strcmp (kind, "kernel") == 0 ? "compute" : kind,
    .conn = -1,
    .issue = 0,
    .start = start,
    .end = end,
  };
  timeline_append (t, &row);
}

static void
add (Timeline *t, guint32 op, guint32 line, const char *kind, SimTime start, SimTime end)
{
  add_on (t, "s1", op, line, kind, start, end);
}

/* Predicted: h2d [0,100), kernel [100,300), d2h [300,400); makespan 400.
 * Measured:  h2d [0,120), kernel [130,330), d2h [330,500); makespan 500. */
static Timeline *
predicted_3 (void)
{
  Timeline *p = timeline_new ("pred.csv");
  add (p, 0, 5, "h2d", 0, 100);
  add (p, 1, 6, "kernel", 100, 300);
  add (p, 2, 7, "d2h", 300, 400);
  return p;
}

static Timeline *
measured_3 (void)
{
  Timeline *m = timeline_new ("meas.csv");
  add (m, 0, 5, "h2d", 0, 120);
  add (m, 1, 6, "kernel", 130, 330);
  add (m, 2, 7, "d2h", 330, 500);
  return m;
}

/* By hand: makespan error (400 - 500) / 500 = -20%.
 * End errors 100-120 = -20, 300-330 = -30, 400-500 = -100 -> |.| / 500 =
 * 4%, 6%, 20%: median (2nd of 3) 6%, max 20% at op 2.
 * Start errors 0, 100-130 = -30, 300-330 = -30 -> 0%, 6%, 6%: median 6%. */
static void
test_errors (void)
{
  g_autoptr (Timeline) p = predicted_3 ();
  g_autoptr (Timeline) m = measured_3 ();
  GError *error = NULL;
  g_autoptr (Compare) cmp = compare_timelines (p, m, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cmp);

  g_assert_cmpuint (compare_n_ops (cmp), ==, 3);
  g_assert_cmpint (compare_predicted_makespan (cmp), ==, 400);
  g_assert_cmpint (compare_measured_makespan (cmp), ==, 500);
  g_assert_cmpfloat (fabs (compare_makespan_error (cmp) - (-20.0)), <, 1e-9);

  const CompareOp *op1 = compare_op (cmp, 1);
  g_assert_cmpuint (op1->line, ==, 6);
  g_assert_cmpstr (op1->kind, ==, "kernel");
  g_assert_cmpint (op1->start_error, ==, -30);
  g_assert_cmpint (op1->end_error, ==, -30);
  g_assert_cmpint (compare_op (cmp, 2)->end_error, ==, -100);

  g_assert_cmpfloat (fabs (compare_end_error (cmp, 0.5) - 6.0), <, 1e-9);
  g_assert_cmpfloat (fabs (compare_end_error (cmp, 1.0) - 20.0), <, 1e-9);
  g_assert_cmpfloat (fabs (compare_start_error (cmp, 0.5) - 6.0), <, 1e-9);
  g_assert_cmpfloat (fabs (compare_start_error (cmp, 0.0) - 0.0), <, 1e-9);
  g_assert_cmpuint (compare_worst_end (cmp), ==, 2);
}

/* Rows are matched by their op column, not their position: the measured
 * rows in reverse order give the same answer (op 1's end error -30). */
static void
test_match_by_op (void)
{
  g_autoptr (Timeline) p = predicted_3 ();
  g_autoptr (Timeline) m = timeline_new ("meas.csv");
  add (m, 2, 7, "d2h", 330, 500);
  add (m, 1, 6, "kernel", 130, 330);
  add (m, 0, 5, "h2d", 0, 120);
  g_autoptr (Compare) cmp = compare_timelines (p, m, NULL);
  g_assert_nonnull (cmp);
  g_assert_cmpint (compare_op (cmp, 1)->end_error, ==, -30);
  g_assert_cmpfloat (fabs (compare_makespan_error (cmp) - (-20.0)), <, 1e-9);
}

/* compare_timelines refuses the pair with a mismatch naming `phrase`. */
static void
assert_mismatch (const Timeline *predicted, const Timeline *measured, const char *phrase)
{
  GError *error = NULL;
  g_assert_null (compare_timelines (predicted, measured, &error));
  g_assert_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH);
  if (strstr (error->message, phrase) == NULL)
    g_error ("expected \"%s\" in \"%s\"", phrase, error->message);
  g_error_free (error);
}

/* Different op counts, an op from a different line, or the same op and line
 * holding another kind of op or another stream: refused. */
static void
test_mismatch (void)
{
  g_autoptr (Timeline) p = predicted_3 ();
  g_autoptr (Timeline) shorter = timeline_new ("short.csv");
  add (shorter, 0, 5, "h2d", 0, 120);
  assert_mismatch (p, shorter, "3 ops");

  g_autoptr (Timeline) moved = timeline_new ("moved.csv");
  add (moved, 0, 5, "h2d", 0, 120);
  add (moved, 1, 9, "kernel", 130, 330);
  add (moved, 2, 7, "d2h", 330, 500);
  assert_mismatch (p, moved, "line 6");

  /* op 1 is a kernel in pred.csv */
  g_autoptr (Timeline) other_kind = timeline_new ("kind.csv");
  add (other_kind, 0, 5, "h2d", 0, 120);
  add (other_kind, 1, 6, "d2h", 130, 330);
  add (other_kind, 2, 7, "d2h", 330, 500);
  assert_mismatch (p, other_kind, "op 1 (line 6) is kernel on stream 's1' in pred.csv but d2h");

  g_autoptr (Timeline) other_stream = timeline_new ("stream.csv");
  add (other_stream, 0, 5, "h2d", 0, 120);
  add (other_stream, 1, 6, "kernel", 130, 330);
  add_on (other_stream, "s2", 2, 7, "d2h", 330, 500);
  assert_mismatch (p, other_stream, "but d2h on stream 's2' in stream.csv");
}

/* Equal timelines: every error 0. An empty pair: makespans 0, error 0. */
static void
test_identical_and_empty (void)
{
  g_autoptr (Timeline) p = predicted_3 ();
  g_autoptr (Timeline) q = predicted_3 ();
  g_autoptr (Compare) cmp = compare_timelines (p, q, NULL);
  g_assert_cmpfloat (compare_makespan_error (cmp), ==, 0.0);
  g_assert_cmpfloat (compare_end_error (cmp, 1.0), ==, 0.0);

  g_autoptr (Timeline) e1 = timeline_new ("a.csv");
  g_autoptr (Timeline) e2 = timeline_new ("b.csv");
  g_autoptr (Compare) empty = compare_timelines (e1, e2, NULL);
  g_assert_cmpuint (compare_n_ops (empty), ==, 0);
  g_assert_cmpfloat (compare_makespan_error (empty), ==, 0.0);
  g_assert_cmpfloat (compare_end_error (empty, 0.5), ==, 0.0);
  g_assert_cmpuint (compare_worst_end (empty), ==, G_MAXSIZE);
}

static int
run_compare (const char *a, const char *b, const char *max_error)
{
  const char *const args[] = { "compare", a, b, "--max-error", max_error, NULL };
  return cli_run (NULL, args, NULL, NULL, NULL);
}

/* The CLI on the files of test_errors (makespan error 20%): --max-error 25
 * passes (0), --max-error 10 fails (1); a malformed CSV is bad input (2). */
static void
test_cli_exit_codes (void)
{
  char *dir = temp_dir_new ("streamsim-compare");
  char *pred = g_build_filename (dir, "pred.csv", NULL);
  char *meas = g_build_filename (dir, "meas.csv", NULL);
  char *bad = g_build_filename (dir, "bad.csv", NULL);
  g_autoptr (Timeline) p = predicted_3 ();
  g_autoptr (Timeline) m = measured_3 ();
  g_assert_true (timeline_write (p, pred, NULL));
  g_assert_true (timeline_write (m, meas, NULL));
  g_assert_true (g_file_set_contents (bad, "op,line,stream\n0,5\n", -1, NULL));

  g_assert_cmpint (run_compare (pred, meas, "25"), ==, 0);
  g_assert_cmpint (run_compare (pred, meas, "10"), ==, 1);
  g_assert_cmpint (run_compare (pred, bad, "10"), ==, 2);

  temp_dir_remove (dir);
  g_free (pred);
  g_free (meas);
  g_free (bad);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/errors", test_errors);
  g_test_add_func ("/compare/match-by-op", test_match_by_op);
  g_test_add_func ("/compare/mismatch", test_mismatch);
  g_test_add_func ("/compare/identical-and-empty", test_identical_and_empty);
  g_test_add_func ("/compare/cli-exit-codes", test_cli_exit_codes);
  return g_test_run ();
}
