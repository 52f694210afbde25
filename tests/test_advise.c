/* test_advise.c: the advisor (advise.h) finds the orders worked out by hand and the seed's lesson, the same for any number of threads, and writes what it predicts. */
#include <glib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sim/front/advise.h"
#include "sim/front/prediction.h"
#include "sim/formats/schedule_parse.h"
#include "sim/formats/schedule_write.h"

#define MS G_GINT64_CONSTANT (1000000)

static Advice *
advise (const char *path, const char *device, guint jobs)
{
  AdviseOptions options = { 0 };
  options.device = device;
  options.jobs = jobs;
  options.seed = 1;
  GError *error = NULL;
  Advice *advice = advise_run (path, &options, &error);
  g_assert_no_error (error);
  return advice;
}

static SimTime
predict (const char *path, const char *device)
{
  PredictionOptions options = { device, 0, NULL, 0 };
  GError *error = NULL;
  g_autoptr (Prediction) p = prediction_run (path, &options, &error);
  g_assert_no_error (error);
  return prediction_makespan (p);
}

/* MODEL.md's schematic table (test_model.c), by hand: every chunk's copy
 * and kernel takes 1 ms. On the C2050-like device the breadth-first order
 * (V2) takes 9 ms; no order can beat 6 ms, as the last of the four D2H
 * copies, which share one engine, cannot start before 2 ms + 3 ms; the
 * depth-first order (V1) takes 6. On the C1060-like device, with one copy
 * engine for eight copies, 8 ms is the floor, and V2 reaches it where V1
 * takes 12. */
static void
test_schematic (void)
{
  g_autoptr (Advice) a = advise (SRCDIR "/tests/schedules/schematic-v2.sched", "schematic-c2050", 1);
  g_assert_cmpint (advice_original (a), ==, 9 * MS);
  g_assert_cmpint (advice_best (a), ==, 6 * MS);
  g_assert_cmpuint (advice_n_changes (a), >=, 1);
  g_assert_cmpint (advice_change (a, 0)->kind, ==, ADVISE_ORDER);
  g_assert_cmpint (advice_change (a, 0)->before, ==, 9 * MS);

  g_autoptr (Advice) b = advise (SRCDIR "/tests/schedules/schematic-v1.sched", "schematic-c1060", 1);
  g_assert_cmpint (advice_original (b), ==, 12 * MS);
  g_assert_cmpint (advice_best (b), ==, 8 * MS);
}

/* The seed's lesson (issue 40): each version wants the other's order on
 * the other Tesla. The bound is the other version's prediction. */
static void
test_seed (void)
{
  SimTime v1_c2050 = predict (SRCDIR "/traces/seed/async-v1.sched", "c2050");
  g_autoptr (Advice) a = advise (SRCDIR "/traces/seed/async-v2.sched", "c2050", 0);
  g_test_message ("async-v2 on c2050: %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT
                  " ns (async-v1: %" G_GINT64_FORMAT ")",
                  advice_original (a), advice_best (a), v1_c2050);
  g_assert_cmpint (advice_best (a), <=, v1_c2050);

  SimTime v2_c1060 = predict (SRCDIR "/traces/seed/async-v2.sched", "c1060");
  g_autoptr (Advice) b = advise (SRCDIR "/traces/seed/async-v1.sched", "c1060", 0);
  g_test_message ("async-v1 on c1060: %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT
                  " ns (async-v2: %" G_GINT64_FORMAT ")",
                  advice_original (b), advice_best (b), v2_c1060);
  g_assert_cmpint (advice_best (b), <=, v2_c1060);
}

/* The advised schedule, written and parsed back, predicts what the advice
 * says; one thread and three give the same advice. */
static void
test_written_and_threads (void)
{
  const char *path = SRCDIR "/traces/examples/false-dependency.sched";
  g_autoptr (Advice) one = advise (path, "k20", 1);
  g_autoptr (Advice) three = advise (path, "k20", 3);
  g_assert_cmpint (advice_best (one), ==, advice_best (three));
  g_autofree char *text1 = schedule_write_text (advice_schedule (one), NULL);
  g_autofree char *text3 = schedule_write_text (advice_schedule (three), NULL);
  g_assert_cmpstr (text1, ==, text3);

  g_autofree char *dir = g_dir_make_tmp ("advise-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "advised.sched", NULL);
  GError *error = NULL;
  g_assert_true (g_file_set_contents (out, text1, -1, &error));
  SimTime back = predict (out, "k20");
  g_assert_cmpint (back, ==, advice_best (one));
  g_assert_cmpint (advice_best (one), <=, advice_original (one));
  g_unlink (out);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/advise/schematic", test_schematic);
  g_test_add_func ("/advise/seed", test_seed);
  g_test_add_func ("/advise/written-and-threads", test_written_and_threads);
  return g_test_run ();
}
