/* bench_advise.c: `streamsim-bench --advise`: the advisor's candidates a second on generated schedules (bench_advise.h).
 *
 * The time is advise_run's whole: parsing once, every search, the hints;
 * candidates are the predictions the searches made (advice_candidates), so
 * the rate is a floor on the search's own. Issue 40's targets: 5,000
 * candidates a second on a 200-op schedule on one thread, and advice on a
 * 1,000-op program within 10 s on two. */
#include "bench_advise.h"

#include <stdio.h>
#include <glib/gstdio.h>
#include "sim/front/advise.h"
#include "support/temp_dir.h"

int
bench_advise (const ScheduleGenOptions *gen, const GArray *sizes, guint runs, guint jobs)
{
  printf ("# streamsim-bench --advise: device %s, %u streams, %u connections, seed %" G_GUINT64_FORMAT
          ", %u thread%s, fastest of %u run%s\n",
          gen->device, gen->n_streams, gen->connections, gen->seed, jobs, jobs == 1 ? "" : "s",
          runs, runs == 1 ? "" : "s");
  printf ("%8s %11s %9s %13s %13s %13s %10s\n", "ops", "candidates", "seconds", "candidates/s",
          "given_ns", "advised_ns", "exhaustive");
  g_autofree char *dir = temp_dir_new ("bench-advise");
  int status = 0;
  for (guint i = 0; i < sizes->len; i++)
    {
      ScheduleGenOptions options = *gen;
      options.n_ops = g_array_index (sizes, guint64, i);
      gsize length;
      g_autofree char *text = schedule_gen_text (&options, &length);
      g_autofree char *path = g_build_filename (dir, "generated.sched", NULL);
      if (!g_file_set_contents (path, text, (gssize) length, NULL))
        {
          fprintf (stderr, "streamsim-bench: cannot write %s\n", path);
          return 3;
        }
      double fastest = G_MAXDOUBLE;
      guint64 candidates = 0;
      SimTime given = 0, advised = 0;
      gboolean exhaustive = FALSE;
      for (guint r = 0; r < runs; r++)
        {
          AdviseOptions advise = { 0 };
          advise.jobs = jobs;
          advise.seed = 1;
          GError *error = NULL;
          gint64 start = g_get_monotonic_time ();
          Advice *advice = advise_run (path, &advise, &error);
          double seconds = (double) (g_get_monotonic_time () - start) / 1e6;
          if (advice == NULL)
            {
              fprintf (stderr, "streamsim-bench: %s\n", error->message);
              g_error_free (error);
              status = 1;
              break;
            }
          fastest = MIN (fastest, seconds);
          candidates = advice_candidates (advice);
          given = advice_original (advice);
          advised = advice_best (advice);
          exhaustive = advice_exhaustive (advice);
          advice_free (advice);
        }
      if (status != 0)
        break;
      printf ("%8" G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT " %9.3f %13.0f %13" G_GINT64_FORMAT
              " %13" G_GINT64_FORMAT " %10s\n",
              options.n_ops, candidates, fastest, (double) candidates / fastest, given, advised,
              exhaustive ? "yes" : "no");
      g_unlink (path);
    }
  temp_dir_remove (dir);
  return status;
}
