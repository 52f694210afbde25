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

/* A row with a label (for the elapsed regions) and no stream for syncs and
 * host work; `engine` NULL for the kind's usual one. */
static void
add_labelled (Timeline *t, guint32 op, const char *kind, const char *engine, SimTime start,
              SimTime end, const char *label)
{
  gboolean streamless = strcmp (kind, "sync") == 0 || strcmp (kind, "host") == 0;
  TimelineRow row = {
    .op = op,
    .line = op + 10,
    .stream = streamless ? "" : "s1",
    .kind = kind,
    .engine = engine != NULL ? engine : strcmp (kind, "kernel") == 0 ? "compute" : kind,
    .conn = -1,
    .issue = start,
    .start = start,
    .end = end,
    .label = label,
  };
  timeline_append (t, &row);
}

/* Ten ops; the ends (ns) that decide the regions, predicted / measured:
 *   op 1 sync 110 / 115, op 2 record 120 / 130, op 4 record (elapsed from
 *   op 2) 320 / 380, op 5 sync 330 / 400, op 6 memcpy d2h 980 / 900, op 8
 *   sync 1080 / 960; op 9, a memcpy d2d (1100 / 1000), is no
 *   synchronization, so no region ends there.
 * The regions, by hand, in the order of their closing op:
 *   0 elapsed op 2 to 4: pred 320-120 = 200, meas 380-130 = 250: -20%
 *   1 sync op 1 to 5:    pred 330-110 = 220, meas 400-115 = 285: -22.807%
 *   2 sync op 5 to 6:    pred 980-330 = 650, meas 900-400 = 500: +30%
 *   3 sync op 6 to 8:    pred 1080-980 = 100, meas 960-900 = 60: +66.667%
 * |errors| sorted 20, 22.807, 30, 66.667: median (the 2nd of 4) 22.807%,
 * worst region 3. Measured 300 ns or more: region 2 alone (30%).
 * Each op is issued where it starts, at the end of the op before it, so
 * the host's part of a region runs from its opening op's end to the end of
 * the op before its closing one, of the measured length:
 *   0: pred 320-120 = 200, meas 380-130 = 250: -50/250 = -20%, wait 0
 *   1: pred 320-110 = 210, meas 380-115 = 265: -55/285 = -19.298%, wait -3.509%
 *   2: pred 330-330 = 0, meas 400-400 = 0: host 0, wait +30%
 *   3: pred 1030-980 = 50, meas 950-900 = 50: host 0, wait +66.667% */
static Timeline *
regions_timeline (const char *path, gboolean predicted, const char *label)
{
  const SimTime p[] = { 100, 110, 120, 320, 320, 330, 980, 1030, 1080, 1100 };
  const SimTime m[] = { 120, 115, 130, 380, 380, 400, 900, 950, 960, 1000 };
  const char *kinds[] = { "h2d", "sync", "record", "kernel", "record", "sync", "memcpy", "host",
                          "sync", "memcpy" };
  const SimTime *end = predicted ? p : m;
  Timeline *t = timeline_new (path);
  for (guint32 i = 0; i < 10; i++)
    {
      SimTime start = i == 0 ? 0 : end[i - 1];
      add_labelled (t, i, kinds[i], i == 6 ? "d2h" : i == 9 ? "d2d" : NULL, MIN (start, end[i]),
                    end[i], i == 4 ? label : NULL);
    }
  return t;
}

static void
assert_near (double got, double want)
{
  if (fabs (got - want) > 1e-3)
    g_error ("expected %.6f, got %.6f", want, got);
}

static void
test_regions (void)
{
  g_autoptr (Timeline) p = regions_timeline ("pred.csv", TRUE, "elapsed_from_op2");
  g_autoptr (Timeline) m = regions_timeline ("meas.csv", FALSE, "elapsed_from_op2");
  g_autoptr (Compare) cmp = compare_timelines (p, m, NULL);
  g_assert_nonnull (cmp);
  GError *error = NULL;
  g_assert_true (compare_find_regions (cmp, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (COMPARE_ELAPSED_LABEL, ==, "elapsed_from_op");

  g_assert_cmpuint (compare_n_regions (cmp), ==, 4);
  const guint32 from[] = { 2, 1, 5, 6 }, to[] = { 4, 5, 6, 8 };
  const SimTime pred[] = { 200, 220, 650, 100 }, meas[] = { 250, 285, 500, 60 };
  const double err[] = { -20.0, -22.807018, 30.0, 66.666667 };
  const SimTime pred_host[] = { 200, 210, 0, 50 }, meas_host[] = { 250, 265, 0, 50 };
  const double host_err[] = { -20.0, -19.298246, 0.0, 0.0 };
  for (guint i = 0; i < 4; i++)
    {
      const CompareRegion *r = compare_region (cmp, i);
      g_assert_cmpint (r->kind, ==, i == 0 ? COMPARE_REGION_ELAPSED : COMPARE_REGION_SYNC);
      g_assert_cmpuint (r->from_op, ==, from[i]);
      g_assert_cmpuint (r->to_op, ==, to[i]);
      g_assert_cmpint (r->pred, ==, pred[i]);
      g_assert_cmpint (r->meas, ==, meas[i]);
      assert_near (r->error, err[i]);
      g_assert_cmpint (r->pred_host, ==, pred_host[i]);
      g_assert_cmpint (r->meas_host, ==, meas_host[i]);
      assert_near (r->host_error, host_err[i]);
    }
  assert_near (compare_region_error (cmp, 0.5, 0), 22.807018);
  assert_near (compare_region_error (cmp, 1.0, 0), 66.666667);
  g_assert_cmpuint (compare_worst_region (cmp, 0), ==, 3);
  g_assert_cmpuint (compare_n_regions_over (cmp, 300), ==, 1);
  assert_near (compare_region_error (cmp, 0.5, 300), 30.0);
  g_assert_cmpuint (compare_worst_region (cmp, 300), ==, 2);
  g_assert_cmpuint (compare_n_regions_over (cmp, 1000), ==, 0);
  g_assert_cmpfloat (compare_region_error (cmp, 0.5, 1000), ==, 0.0);
  g_assert_cmpuint (compare_worst_region (cmp, 1000), ==, G_MAXSIZE);

  /* Without the label, the elapsed region is gone and the syncs stay. */
  g_autoptr (Timeline) p2 = regions_timeline ("pred.csv", TRUE, NULL);
  g_autoptr (Timeline) m2 = regions_timeline ("meas.csv", FALSE, NULL);
  g_autoptr (Compare) plain = compare_timelines (p2, m2, NULL);
  g_assert_true (compare_find_regions (plain, NULL));
  g_assert_cmpuint (compare_n_regions (plain), ==, 3);
  g_assert_cmpuint (compare_region (plain, 0)->from_op, ==, 1);
}

/* An elapsed label that names no earlier record is refused, naming the op. */
static void
assert_region_error (const char *label, const char *phrase)
{
  g_autoptr (Timeline) p = regions_timeline ("pred.csv", TRUE, label);
  g_autoptr (Timeline) m = regions_timeline ("meas.csv", FALSE, label);
  g_autoptr (Compare) cmp = compare_timelines (p, m, NULL);
  GError *error = NULL;
  g_assert_false (compare_find_regions (cmp, &error));
  g_assert_error (error, COMPARE_ERROR, COMPARE_ERROR_REGION);
  if (strstr (error->message, phrase) == NULL)
    g_error ("expected \"%s\" in \"%s\"", phrase, error->message);
  g_error_free (error);
  g_assert_cmpuint (compare_n_regions (cmp), ==, 0);
}

/* Synchronizations of two host threads, interleaved in op order as a schedule
 * of `thread` blocks numbers them (each block's ops together), with the
 * thread column set: ops 0 sync (main) ends 100 / 100, 1 host (t1) 150 /
 * 160, 2 sync (t1) 400 / 500, 3 sync (t1) 700 / 900, 4 sync (main) 300 /
 * 300, 5 sync (main) 1000 / 1200. By hand, each thread's from one of its
 * syncs to its next:
 *   t1 op 2 to 3: pred 700-400 = 300, meas 900-500 = 400: -25%
 *   main op 0 to 4: pred 300-100 = 200, meas 300-100 = 200: 0%
 *   main op 4 to 5: pred 1000-300 = 700, meas 1200-300 = 900: -22.222%
 * Without the thread column, op order alone paired 0-2, 2-3, 3-4 (measured
 * 300 - 900: a negative length) and 4-5. */
static Timeline *
threads_timeline (const char *path, gboolean predicted, gboolean with_threads)
{
  const SimTime p[] = { 100, 150, 400, 700, 300, 1000 };
  const SimTime m[] = { 100, 160, 500, 900, 300, 1200 };
  const char *kinds[] = { "sync", "host", "sync", "sync", "sync", "sync" };
  const char *threads[] = { "main", "t1", "t1", "t1", "main", "main" };
  const SimTime *end = predicted ? p : m;
  Timeline *t = timeline_new (path);
  for (guint32 i = 0; i < 6; i++)
    {
      TimelineRow row = { .op = i, .line = i + 1, .stream = "", .kind = kinds[i], .engine = "host",
                          .conn = -1, .issue = end[i] - 10, .start = end[i] - 10, .end = end[i],
                          .issuer = with_threads ? threads[i] : NULL };
      timeline_append (t, &row);
    }
  return t;
}

static void
test_thread_regions (void)
{
  g_autoptr (Timeline) p = threads_timeline ("pred.csv", TRUE, TRUE);
  g_autoptr (Timeline) m = threads_timeline ("meas.csv", FALSE, TRUE);
  g_autoptr (Compare) cmp = compare_timelines (p, m, NULL);
  g_assert_true (compare_find_regions (cmp, NULL));
  g_assert_cmpuint (compare_n_regions (cmp), ==, 3);
  const guint32 from[] = { 2, 0, 4 }, to[] = { 3, 4, 5 };
  const double err[] = { -25.0, 0.0, -22.222222 };
  for (guint i = 0; i < 3; i++)
    {
      const CompareRegion *r = compare_region (cmp, i);
      g_assert_cmpuint (r->from_op, ==, from[i]);
      g_assert_cmpuint (r->to_op, ==, to[i]);
      g_assert_cmpint (r->meas, >, 0);
      assert_near (r->error, err[i]);
    }
  /* the measured thread column alone is enough */
  g_autoptr (Timeline) bare = threads_timeline ("pred.csv", TRUE, FALSE);
  g_autoptr (Compare) one = compare_timelines (bare, m, NULL);
  g_assert_true (compare_find_regions (one, NULL));
  g_assert_cmpuint (compare_n_regions (one), ==, 3);
  /* with neither, op order pairs them, a negative length among them */
  g_autoptr (Timeline) bare_m = threads_timeline ("meas.csv", FALSE, FALSE);
  g_autoptr (Compare) none = compare_timelines (bare, bare_m, NULL);
  g_assert_true (compare_find_regions (none, NULL));
  g_assert_cmpuint (compare_n_regions (none), ==, 4);
  g_assert_cmpint (compare_region (none, 2)->meas, <, 0);
}

static void
test_region_errors (void)
{
  assert_region_error ("elapsed_from_opx", "op 4 (line 14) has label=elapsed_from_opx, which "
                                           "needs an op number");
  assert_region_error ("elapsed_from_op", "needs an op number");
  assert_region_error ("elapsed_from_op3", "op 3 is kernel");
  assert_region_error ("elapsed_from_op4", "op 4 is record) to a later one");
  assert_region_error ("elapsed_from_op99", "op 99 is not in the timelines");
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

/* The CLI's --regions on the timelines of test_regions: the table and the
 * summary lines carry the numbers worked out there; a bad --region-min and
 * a bad label are bad input (2). */
static void
test_cli_regions (void)
{
  char *dir = temp_dir_new ("streamsim-regions");
  char *pred = g_build_filename (dir, "pred.csv", NULL);
  char *meas = g_build_filename (dir, "meas.csv", NULL);
  char *bad = g_build_filename (dir, "bad.csv", NULL);
  g_autoptr (Timeline) p = regions_timeline ("pred.csv", TRUE, "elapsed_from_op2");
  g_autoptr (Timeline) m = regions_timeline ("meas.csv", FALSE, "elapsed_from_op2");
  g_autoptr (Timeline) b = regions_timeline ("bad.csv", FALSE, "elapsed_from_op3");
  g_assert_true (timeline_write (p, pred, NULL));
  g_assert_true (timeline_write (m, meas, NULL));
  g_assert_true (timeline_write (b, bad, NULL));

  /* 300 ns = 0.0003 ms; the makespan error is (1100 - 1000) / 1000 = 10% */
  const char *const args[] = { "compare", pred, meas, "--regions", "--region-min", "0.0003",
                               "--max-error", "11", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (NULL, args, NULL, &out, NULL), ==, 0);
  /* op 4, the end of the elapsed region, is labelled: the table names the
   * labels of both ends of every region ("-" for none) */
  g_assert_nonnull (strstr (out, "     1 sync           1       5          0.2          0.3   -22.81%  "
                                 "-19.30%   -3.51%  - -\n"));
  g_assert_nonnull (strstr (out, "     0 elapsed        2       4          0.2          0.2   -20.00%  "
                                 "-20.00%   +0.00%  - elapsed_from_op2\n"));
  g_assert_nonnull (strstr (out, "regions     4 (1 of 0.00 ms or more)\n"));
  g_assert_nonnull (strstr (out, "median      |error| 22.81% over all regions, 30.00% over those of "));
  g_assert_nonnull (strstr (out, "worst       +66.67% (region 3: ops 6 to 8, sync, "));
  g_assert_nonnull (strstr (out, "worst long  +30.00% (region 2: ops 5 to 6, sync, "));

  const char *const negative[] = { "compare", pred, meas, "--regions", "--region-min", "-1", NULL };
  g_assert_cmpint (cli_run (NULL, negative, NULL, NULL, NULL), ==, 2);
  const char *const labelled[] = { "compare", pred, bad, "--regions", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (NULL, labelled, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "op 3 is kernel"));
  /* without --regions the labels are not looked at */
  const char *const plain[] = { "compare", pred, bad, "--max-error", "11", NULL };
  g_assert_cmpint (cli_run (NULL, plain, NULL, NULL, NULL), ==, 0);

  temp_dir_remove (dir);
  g_free (pred);
  g_free (meas);
  g_free (bad);
  g_free (dir);
}

/* Two schedules of one program (another machine's recording): ops differ,
 * synchronizations and the timed interval do not. Ends (ns) that decide the
 * regions, worked out by hand:
 *   predicted: op 2 sync 150, op 4 sync 320, op 5 record 330, op 7 record
 *     (elapsed from op 5) 500, op 8 sync 520;
 *   measured:  op 1 sync 160, op 5 sync 380, op 6 record 390, op 9 record
 *     (elapsed from op 6) 600, op 10 sync 650.
 * Paired by order, in the measured timeline's order of closing op:
 *   sync 1 to 5 (predicted 2 to 4): 170 against 220, -22.727%;
 *   elapsed 6 to 9 (predicted 5 to 7): 170 against 210, -19.048%;
 *   sync 5 to 10 (predicted 4 to 8): 200 against 270, -25.926%.
 * Without the predicted op 8 it has one synchronization region to the
 * measured two: refused. */
static Timeline *
by_order_timeline (const char *path, gboolean predicted, gboolean last_sync)
{
  static const char *const pk[] = { "h2d", "host", "sync", "kernel", "sync", "record", "kernel",
                                     "record", "sync" };
  static const SimTime pe[] = { 100, 140, 150, 300, 320, 330, 480, 500, 520 };
  static const char *const mk[] = { "h2d", "sync", "host", "host", "kernel", "sync", "record",
                                     "kernel", "host", "record", "sync" };
  static const SimTime me[] = { 120, 160, 170, 200, 350, 380, 390, 580, 590, 600, 650 };
  const char *const *kinds = predicted ? pk : mk;
  const SimTime *end = predicted ? pe : me;
  guint n = predicted ? G_N_ELEMENTS (pk) - !last_sync : G_N_ELEMENTS (mk);
  guint32 timed = predicted ? 7 : 9;
  Timeline *t = timeline_new (path);
  for (guint32 i = 0; i < n; i++)
    add_labelled (t, i, kinds[i], NULL, i == 0 ? 0 : end[i - 1], end[i],
                  i == timed ? (predicted ? "elapsed_from_op5" : "elapsed_from_op6") : NULL);
  return t;
}

static void
test_by_order (void)
{
  g_autoptr (Timeline) p = by_order_timeline ("pred.csv", TRUE, TRUE);
  g_autoptr (Timeline) m = by_order_timeline ("meas.csv", FALSE, TRUE);
  g_autoptr (GError) error = NULL;
  g_assert_null (compare_timelines (p, m, &error));
  g_clear_error (&error);
  g_autoptr (Compare) cmp = compare_by_order (p, m, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (compare_n_ops (cmp), ==, 0);
  g_assert_cmpuint (compare_n_regions (cmp), ==, 3);
  const CompareRegionKind kind[] = { COMPARE_REGION_SYNC, COMPARE_REGION_ELAPSED,
                                     COMPARE_REGION_SYNC };
  const guint32 from[] = { 1, 6, 5 }, to[] = { 5, 9, 10 }, pfrom[] = { 2, 5, 4 }, pto[] = { 4, 7, 8 };
  const SimTime pred[] = { 170, 170, 200 }, meas[] = { 220, 210, 270 };
  const double err[] = { -22.727273, -19.047619, -25.925926 };
  for (guint i = 0; i < 3; i++)
    {
      const CompareRegion *r = compare_region (cmp, i);
      g_assert_cmpint (r->kind, ==, kind[i]);
      g_assert_cmpuint (r->from_op, ==, from[i]);
      g_assert_cmpuint (r->to_op, ==, to[i]);
      g_assert_cmpuint (r->pred_from_op, ==, pfrom[i]);
      g_assert_cmpuint (r->pred_to_op, ==, pto[i]);
      g_assert_cmpint (r->pred, ==, pred[i]);
      g_assert_cmpint (r->meas, ==, meas[i]);
      assert_near (r->error, err[i]);
    }
  assert_near (compare_region_error (cmp, 0.5, 0), 22.727273);
  g_assert_cmpuint (compare_worst_region (cmp, 0), ==, 2);
  g_assert_cmpint (compare_predicted_makespan (cmp), ==, 520);
  g_assert_cmpint (compare_measured_makespan (cmp), ==, 650);

  g_autoptr (Timeline) short_p = by_order_timeline ("short.csv", TRUE, FALSE);
  g_assert_null (compare_by_order (short_p, m, &error));
  g_assert_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH);
  g_assert_nonnull (strstr (error->message, "short.csv has 1 synchronization regions but "
                                            "meas.csv has 2"));
}

/* The CLI's --by-order on test_by_order's timelines: the table names both
 * timelines' ops; --ops with it, and two schedules without it, are bad input,
 * the latter pointing to --by-order. */
/* Other runs of the program, worked out by hand from by_order_timeline:
 * the measured timeline's regions are sync 1 to 5 (220), elapsed 6 to 9
 * (210) and sync 5 to 10 (270), predicted 170, 170 and 200. A run with one
 * synchronization region, the short predicted timeline, says nothing of
 * the two sync regions; its elapsed one, 330 to 500 = 170, makes that
 * region's lengths 170 to 210, which hold its prediction, 170: one region
 * of three inside, and the median |error| with it as 0 is that of 0,
 * 22.727 and 25.926, 22.727%. The predicted timeline as a run (its sync
 * regions 170 and 200, its elapsed 170) puts every region inside: 0%. */
static void
test_runs (void)
{
  g_autoptr (Timeline) p = by_order_timeline ("pred.csv", TRUE, TRUE);
  g_autoptr (Timeline) m = by_order_timeline ("meas.csv", FALSE, TRUE);
  g_autoptr (Timeline) short_p = by_order_timeline ("short.csv", TRUE, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (Compare) cmp = compare_by_order (p, m, &error);
  g_assert_no_error (error);
  g_assert_null (compare_region_runs (cmp, 0));
  g_assert_false (compare_region_inside_runs (cmp, 1));
  g_assert_true (compare_add_run (cmp, short_p, &error));
  g_assert_no_error (error);
  const CompareRunSpread *sync = compare_region_runs (cmp, 0);
  g_assert_cmpuint (sync->runs, ==, 0);
  g_assert_cmpint (sync->shortest, ==, 220);
  g_assert_cmpint (sync->longest, ==, 220);
  const CompareRunSpread *elapsed = compare_region_runs (cmp, 1);
  g_assert_cmpuint (elapsed->runs, ==, 1);
  g_assert_cmpint (elapsed->shortest, ==, 170);
  g_assert_cmpint (elapsed->longest, ==, 210);
  g_assert_false (compare_region_inside_runs (cmp, 0));
  g_assert_true (compare_region_inside_runs (cmp, 1));
  g_assert_false (compare_region_inside_runs (cmp, 2));
  g_assert_cmpuint (compare_n_regions_inside_runs (cmp, 0), ==, 1);
  assert_near (compare_region_error_over_runs (cmp, 0.5, 0), 22.727273);
  assert_near (compare_region_error (cmp, 0.5, 0), 22.727273);
  g_assert_true (compare_add_run (cmp, p, &error));
  g_assert_cmpuint (compare_n_regions_inside_runs (cmp, 0), ==, 3);
  assert_near (compare_region_error_over_runs (cmp, 0.5, 0), 0);
  g_assert_cmpint (compare_region_runs (cmp, 2)->shortest, ==, 200);
  g_assert_cmpint (compare_region_runs (cmp, 2)->longest, ==, 270);
}

/* The same from the command line; --runs needs regions, and an unreadable
 * run is a file that cannot be read. */
static void
test_cli_runs (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-runs");
  g_autofree char *pred = g_build_filename (dir, "pred.csv", NULL);
  g_autofree char *meas = g_build_filename (dir, "meas.csv", NULL);
  g_autofree char *run = g_build_filename (dir, "run.csv", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.csv", NULL);
  g_autoptr (Timeline) p = by_order_timeline ("pred.csv", TRUE, TRUE);
  g_autoptr (Timeline) m = by_order_timeline ("meas.csv", FALSE, TRUE);
  g_autoptr (Timeline) r = by_order_timeline ("run.csv", TRUE, FALSE);
  g_assert_true (timeline_write (p, pred, NULL));
  g_assert_true (timeline_write (m, meas, NULL));
  g_assert_true (timeline_write (r, run, NULL));
  const char *const args[] = { "compare", pred, meas, "--by-order", "--max-error", "21", "--runs",
                               run, NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (NULL, args, NULL, &out, NULL), ==, 0);
  /* the elapsed region's row: 170 to 210 ns over one run, inside; the sync
   * regions' rows: no run */
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint rows = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "     1 elapsed ") || g_str_has_prefix (lines[i], "     0 sync ")
        || g_str_has_prefix (lines[i], "     2 sync "))
      {
        gboolean elapsed = strstr (lines[i], " elapsed ") != NULL;
        g_assert_nonnull (strstr (lines[i], elapsed ? "%          0.2          0.2    1 inside "
                                                    : "%            -            -    0 -      "));
        rows++;
      }
  g_assert_cmpuint (rows, ==, 3);
  g_assert_nonnull (strstr (out, "over runs   1 of 3 regions predicted within the lengths they "
                                 "measured over 1 more run; median |error| 22.73% with those "
                                 "counted as met\n"));
  const char *const no_regions[] = { "compare", pred, meas, "--runs", run, NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (NULL, no_regions, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--runs compares regions over runs: it goes with --regions"));
  const char *const gone[] = { "compare", pred, meas, "--by-order", "--runs", missing, NULL };
  g_assert_cmpint (cli_run (NULL, gone, NULL, NULL, NULL), ==, 3);
  const char *const two_stdin[] = { "compare", pred, meas, "--by-order", "--runs", "-", "--runs", "-",
                                    NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (NULL, two_stdin, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "only one of its timelines from -"));
  temp_dir_remove (dir);
}

static void
test_cli_by_order (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-by-order");
  g_autofree char *pred = g_build_filename (dir, "pred.csv", NULL);
  g_autofree char *meas = g_build_filename (dir, "meas.csv", NULL);
  g_autoptr (Timeline) p = by_order_timeline ("pred.csv", TRUE, TRUE);
  g_autoptr (Timeline) m = by_order_timeline ("meas.csv", FALSE, TRUE);
  g_assert_true (timeline_write (p, pred, NULL));
  g_assert_true (timeline_write (m, meas, NULL));
  /* makespan error (520 - 650) / 650 = -20% */
  const char *const args[] = { "compare", pred, meas, "--by-order", "--max-error", "21", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (NULL, args, NULL, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "ops         9 predicted, 11 measured, not matched (--by-order)\n"));
  g_assert_nonnull (strstr (out, "     1 elapsed        6       9         5         7          0.2"
                                 "          0.2   -19.05%"));
  g_assert_nonnull (strstr (out, "worst       -25.93% (region 2: measured ops 5 to 10, predicted "
                                 "ops 4 to 8, sync, "));
  const char *const with_ops[] = { "compare", pred, meas, "--by-order", "--ops", NULL };
  g_assert_cmpint (cli_run (NULL, with_ops, NULL, NULL, NULL), ==, 2);
  const char *const plain[] = { "compare", pred, meas, NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (NULL, plain, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "(two schedules of one program: --by-order)"));
  temp_dir_remove (dir);
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
  g_test_add_func ("/compare/regions", test_regions);
  g_test_add_func ("/compare/region-errors", test_region_errors);
  g_test_add_func ("/compare/thread-regions", test_thread_regions);
  g_test_add_func ("/compare/cli-regions", test_cli_regions);
  g_test_add_func ("/compare/by-order", test_by_order);
  g_test_add_func ("/compare/cli-by-order", test_cli_by_order);
  g_test_add_func ("/compare/runs", test_runs);
  g_test_add_func ("/compare/cli-runs", test_cli_runs);
  return g_test_run ();
}
