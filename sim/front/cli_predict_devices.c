/* cli_predict_devices.c: `predict --device a,b,...`: one schedule on several devices, a summary row per device. */
#include "cli.h"
#include "cli_predict.h"
#include "sim/formats/units.h"

/* What a row says of one device's prediction. */
typedef struct
{
  char *device;
  guint connections;
  gsize ops;
  SimTime makespan;
  double compute;  /* % of the makespan the kernel engine was busy */
  double copy;     /* % of the makespan some copy engine was busy */
  double overlap;  /* % of the copy time that overlapped a kernel */
  EngCause most;   /* the cause with the longest total wait; ENG_CAUSE_NONE if none */
  guint most_ops;
  SimTime most_waited;
  gboolean checked; /* --check found every rule held */
} DeviceRow;

static double
percent (SimTime part, SimTime whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0;
}

static void
device_row_fill (DeviceRow *row, const Prediction *p)
{
  PredictionSummary s;
  prediction_summarize (p, &s);
  row->device = g_strdup (gpu_profile_name (prediction_profile (p)));
  row->connections = eng_sim_connections (prediction_sim (p));
  row->ops = schedule_n_ops (prediction_schedule (p));
  row->makespan = s.makespan;
  row->compute = percent (s.busy[ENG_ENGINE_COMPUTE], s.makespan);
  row->copy = percent (s.copy_busy, s.makespan);
  row->overlap = percent (s.copy_compute_overlap, s.copy_busy);
  EngCause order[ENG_N_CAUSES];
  row->most = prediction_summary_wait_order (&s, order) > 0 ? order[0] : ENG_CAUSE_NONE;
  row->most_ops = s.waits[row->most];
  row->most_waited = s.waited[row->most];
}

int
cli_predict_devices (const char *schedule, const char *const *devices,
                     const PredictionOptions *options, gboolean check, gboolean quiet)
{
  guint n = g_strv_length ((char **) devices);
  DeviceRow *rows = g_new0 (DeviceRow, n);
  CliReport report = { stdout, FALSE };
  int status = CLI_EXIT_OK;
  /* Every device first, so that an error (the first, in the order given)
   * leaves no half table. */
  for (guint d = 0; d < n; d++)
    {
      PredictionOptions one = *options;
      one.device = devices[d];
      g_autoptr (GError) error = NULL;
      g_autoptr (Prediction) p = prediction_run (schedule, &one, &error);
      if (p == NULL)
        {
          status = cli_report_error (error);
          break;
        }
      device_row_fill (&rows[d], p);
      if (!quiet)
        {
          g_auto (GStrv) notes = prediction_notes (p);
          for (guint i = 0; notes[i] != NULL; i++)
            cli_error ("streamsim predict: %s", notes[i]);
        }
      rows[d].checked = !check || cli_predict_check (p, &report, TRUE);
      if (!rows[d].checked)
        status = CLI_EXIT_NO;
    }
  if (status != CLI_EXIT_INPUT && status != CLI_EXIT_SYSTEM && !quiet)
    {
      printf ("schedule     %s\n", schedule);
      printf ("ops          %" G_GSIZE_FORMAT "\n\n", rows[0].ops);
      printf ("%-12s %5s %12s %8s %6s %8s  %s\n", "device", "conns", "makespan", "compute",
              "copy", "overlap", "waited longest for");
      for (guint d = 0; d < n; d++)
        {
          const DeviceRow *r = &rows[d];
          g_autofree char *makespan = units_format_time (r->makespan);
          printf ("%-12s %5u %12s %7.1f%% %5.1f%% %7.1f%%  ", r->device, r->connections, makespan,
                  r->compute, r->copy, r->overlap);
          if (r->most == ENG_CAUSE_NONE)
            printf ("nothing\n");
          else
            {
              g_autofree char *waited = units_format_time (r->most_waited);
              printf ("%s (%u op%s, %s)\n", eng_cause_name (r->most), r->most_ops,
                      r->most_ops == 1 ? "" : "s", waited);
            }
        }
      printf ("(compute and copy: %% of the makespan busy; overlap: %% of the copy time "
              "beside a kernel)\n");
      if (check && status == CLI_EXIT_OK)
        printf ("\ncheck        every rule holds on every device (%u devices)\n", n);
    }
  for (guint d = 0; d < n; d++)
    g_free (rows[d].device);
  g_free (rows);
  return status;
}
