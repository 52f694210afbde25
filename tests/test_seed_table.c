/* test_seed_table.c: the seed experiment's measured table (MODEL.md section 2, issue: the measured table).
 *
 * For the 9 (device, variant) pairs of shared/seeds/001, the prediction with
 * the real profiles (engines/profiles) must land within 5% of the time
 * measured on the card, as listed in traces/seed/measured.csv. The kernel
 * times in the traces were derived from the sequential runs alone
 * (traces/seed/derive-kernel-times.py); the async variants follow from the
 * model. */
#include <math.h>
#include <stdlib.h>
#include <glib.h>
#include "sim/front/prediction.h"

static void
test_measured_table (void)
{
  g_autofree char *path = g_build_filename (SRCDIR, "traces", "seed", "measured.csv", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint checked = 0;
  double worst = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "device,"))
        continue;
      g_auto (GStrv) f = g_strsplit (lines[i], ",", 3);
      g_assert_cmpuint (g_strv_length (f), ==, 3);
      g_autofree char *sched = g_strdup_printf ("%s/traces/seed/%s.sched", SRCDIR, f[1]);
      double measured_ms = g_ascii_strtod (f[2], NULL);
      g_autoptr (GError) error = NULL;
      PredictionOptions options = { f[0], 0, NULL, 0, PREDICTION_HOST_OWN };
      g_autoptr (Prediction) p = prediction_run (sched, &options, &error);
      g_assert_no_error (error);
      double predicted_ms = prediction_makespan (p) / 1e6;
      double err = 100.0 * (predicted_ms - measured_ms) / measured_ms;
      g_test_message ("%-6s %-11s predicted %8.3f ms measured %8.3f ms error %+5.1f%%", f[0], f[1],
                      predicted_ms, measured_ms, err);
      worst = MAX (worst, fabs (err));
      g_assert_cmpfloat (fabs (err), <=, 5.0);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 9);
  g_test_message ("worst error %.1f%%", worst);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/seed/measured-table", test_measured_table);
  return g_test_run ();
}
