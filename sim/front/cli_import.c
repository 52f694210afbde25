/* cli_import.c: `streamsim import TRACE [-o APP.sched] [-d DEVICE] [--region NAME]`: a profiler's trace as a schedule. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "device_name.h"
#include "output_kind.h"
#include "sim/formats/output_file.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/units.h"
#include "sim/import/import_file.h"
#include "sim/import/import_schedule.h"
#include "sim/recorded/record_timeline.h"

/* The exit status for an error of the import: bad input or a failure of
 * the machine. */
static int
report (const GError *error)
{
  cli_error ("streamsim: %s", error->message);
  if ((error->domain == IMPORT_ERROR && error->code == IMPORT_ERROR_IO)
      || error->domain == G_FILE_ERROR)
    return CLI_EXIT_SYSTEM;
  return CLI_EXIT_INPUT;
}

/* The profile of the GPU the trace was taken on, or none: FALSE, said,
 * where -d names no profile. */
static gboolean
load_profile (const char *device, GpuProfile *profile, gboolean *found, int *status)
{
  *found = FALSE;
  if (device == NULL)
    return TRUE;
  g_autofree char *name = device_name_resolve (device);
  g_autoptr (GError) error = NULL;
  if (!profile_load (name, profile, &error))
    {
      device_name_suggest (device, error);
      *status = report (error);
      gpu_profile_clear (profile);
      return FALSE;
    }
  *found = TRUE;
  return TRUE;
}

/* The trace's timeline (--timeline), its header saying where it came from:
 * the connections where -c gave them (a trace does not hold them), the
 * device where -d named it. */
static gboolean
write_timeline (const char *path, const char *trace, const char *schedule, const char *device,
                RecordSchedule *rec, GError **error)
{
  guint n = schedule_connections (rec->schedule);
  g_autofree char *connections = n > 0 ? g_strdup_printf ("%u", n) : NULL;
  const char *meta[13] = { /* NULL-ended: 6 pairs at most */
    "source", "imported",
    "trace", trace,
    "schedule", schedule,
    "timing", "kernels, copies and memsets: the trace's GPU activity; records and waits: "
              "derived from their stream; host calls: the trace's runtime calls",
  };
  guint k = 8;
  if (connections != NULL)
    {
      meta[k++] = "connections";
      meta[k++] = connections;
    }
  if (device != NULL)
    {
      meta[k++] = "device";
      meta[k++] = device;
    }
  return record_timeline_write (rec, path, meta, error);
}

int
cli_import_main (int argc, char **argv)
{
  g_auto (GStrv) devices = NULL;
  g_autofree char *output = NULL;
  g_autofree char *region = NULL;
  g_autofree char *min_host = NULL;
  g_autofree char *timeline = NULL;
  gint connections = 0;
  gboolean quiet = FALSE;
  gboolean untraced = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the schedule to APP.sched (default, or \"-\": standard output)", "APP.sched" },
    { "device", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &devices,
      "The GPU the trace was taken on, a profile name in any case or a .ini path: its SMs "
      "tell how much of the GPU each kernel held, for kernels' times alone, and its "
      "trace_extra how much longer the profiler's kernel records are than the kernels "
      "(default: none; kernels keep the profiler's times, those that shared the GPU the "
      "times they ran)", "NAME" },
    { "timeline", 0, 0, G_OPTION_ARG_FILENAME, &timeline,
      "Also write the trace's own timeline, each op of the schedule at the times the trace "
      "gives it, as the timeline CSV: what `streamsim compare` takes as measured", "FILE.csv" },
    { "region", 0, 0, G_OPTION_ARG_STRING, &region,
      "Import only the calls that began inside the user annotations (record_function) or "
      "NVTX ranges named NAME (default " IMPORT_DEFAULT_REGION ", the whole trace where there is "
      "none)", "NAME" },
    { "min-host", 0, 0, G_OPTION_ARG_STRING, &min_host,
      "Host gaps shorter than TIME are added up until they reach it (default 2us)", "TIME" },
    { "connections", 'c', 0, G_OPTION_ARG_INT, &connections,
      "Write `connections N`: the program's CUDA_DEVICE_MAX_CONNECTIONS, which a trace "
      "does not hold (default: the driver's)", "N" },
    { "untraced-calls", 0, 0, G_OPTION_ARG_NONE, &untraced,
      "Charge each call the -d profile's cost, as the program would run without the "
      "profiler (default: a call costs what it took in the trace, up to the usual time of "
      "its kind, so that the schedule runs as the traced program did)", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      "Print nothing on standard error but errors", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("TRACE");
  g_option_context_set_summary (context,
    "Turns a profiler's trace of a CUDA program into a schedule, as\n"
    "streamsim-validate --record turns its own recording: each CUDA call in the\n"
    "order the calls began, host time between them, kernels with their times\n"
    "alone. TRACE is a PyTorch profiler (Kineto) Chrome JSON trace\n"
    "(export_chrome_trace) or an Nsight Systems SQLite export (nsys export --type\n"
    "sqlite), either of them gzipped or not; the format is read from the content.\n"
    "What a trace does not hold (a record's or a wait's stream and event, where the\n"
    "trace has no synchronization records) is inferred and said in the schedule's\n"
    "header; calls the language cannot express stay `# not modelled` comments,\n"
    "counted on standard error. Exit status: 0 done, 2 a malformed trace or bad\n"
    "option (FILE:LINE:COLUMN, or FILE: table T row N), 3 a file that cannot be\n"
    "read or written.");
  g_option_context_set_description (context,
    "Examples:\n"
    "  # in PyTorch: with torch.profiler.profile(activities=[...CPU, ...CUDA]) as p:\n"
    "  #                 with torch.profiler.record_function(\"streamsim_region\"): ...\n"
    "  #             p.export_chrome_trace(\"train.trace.json\")\n"
    "  streamsim import train.trace.json.gz -d h100 -o train.sched --timeline train.csv\n"
    "  streamsim predict train.sched -d h100 --explain\n"
    "  streamsim predict train.sched -d h200 -o h200.csv\n"
    "  streamsim compare h200.csv train.csv --regions\n"
    "  nsys export --type sqlite -o app.sqlite app.nsys-rep\n"
    "  streamsim import app.sqlite --region step -o app.sched\n"
    "\n"
    "Recording the trace with torch.profiler's experimental_config=\n"
    "torch._C._profiler._ExperimentalConfig(enable_cuda_sync_events=True) gives the\n"
    "records' and waits' streams and events, which are otherwise inferred.\n"
    "sim/front/COMMANDS.md (import) says what is read from each format and how\n"
    "the rest is inferred.\n");
  g_auto (GStrv) args = NULL;
  if (!cli_parse_one_input (context, entries, argc, argv, "one trace", &args))
    return CLI_EXIT_INPUT;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = devices != NULL ? g_strjoinv (",", devices) : NULL;
  if (device != NULL && strchr (device, ',') != NULL)
    {
      cli_error ("streamsim: import takes the one GPU the trace was taken on, not %s", device);
      return CLI_EXIT_INPUT;
    }
  if (!cli_check_counts (connections, 0))
    return CLI_EXIT_INPUT;
  SimTime min_host_ns = 2000;
  const char *why = NULL;
  if (min_host != NULL && !units_parse_time (min_host, &min_host_ns, &why))
    {
      cli_error ("streamsim: --min-host %s: %s", min_host, why);
      return CLI_EXIT_INPUT;
    }
  if (output == NULL)
    output = g_strdup ("-");
  if (!output_kind_check ("-o", output, OUTPUT_KIND_BARE | OUTPUT_KIND_OTHER,
                          "-o writes the schedule: name it .sched", &error))
    return cli_report_error (error);
  if (timeline != NULL
      && !output_kind_check ("--timeline", timeline, OUTPUT_KIND_CSV | OUTPUT_KIND_BARE,
                             "--timeline writes the timeline CSV: name it .csv", &error))
    return cli_report_error (error);
  if (timeline != NULL && strcmp (timeline, "-") == 0 && strcmp (output, "-") == 0)
    {
      cli_error ("streamsim: import: -o and --timeline cannot both write to standard output");
      return CLI_EXIT_INPUT;
    }

  GpuProfile profile = { 0 };
  gboolean have_profile;
  int status = CLI_EXIT_OK;
  if (!load_profile (device, &profile, &have_profile, &status))
    return status;
  g_autoptr (ImportTrace) trace = import_file_read (args[1], &error);
  if (trace == NULL)
    {
      gpu_profile_clear (&profile);
      return report (error);
    }
  ImportScheduleOptions options = {
    .region = region,
    .min_host_ns = (guint64) min_host_ns,
    .connections = (guint) connections,
    .profile = have_profile ? &profile : NULL,
    .untraced_calls = untraced,
  };
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_schedule_build (trace, &options, &counts, &error);
  g_autofree char *profile_name = have_profile ? g_strdup (gpu_profile_name (&profile)) : NULL;
  gpu_profile_clear (&profile);
  if (rec == NULL)
    {
      import_counts_clear (&counts);
      return report (error);
    }
  if (timeline != NULL && !write_timeline (timeline, args[1], output, profile_name, rec, &error))
    {
      import_counts_clear (&counts);
      return report (error);
    }
  if (!output_file_set_contents (output, rec->text, strlen (rec->text), &error))
    {
      import_counts_clear (&counts);
      return report (error);
    }
  if (!quiet)
    {
      if (!have_profile)
        cli_error ("streamsim import: warning: no -d: kernels that shared an oversubscribed GPU "
                   "keep the times they ran, host functions' and loading launches' costs "
                   "are taken as 0, and calls cost what the predicted device charges, not "
                   "what they took in the trace");
      g_autofree char *summary = import_schedule_summary (trace, rec, &counts);
      cli_error ("streamsim import: %s: %s", strcmp (output, "-") == 0 ? "standard output"
                                                                      : output, summary);
    }
  import_counts_clear (&counts);
  return CLI_EXIT_OK;
}
