/* cli_sweep.c: `streamsim sweep SCHEDULE -D name=v1,v2,... [--device a,b] [-o FILE.png|.svg|.csv|.json] [--csv FILE] [--json FILE]`. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "output_kind.h"
#include "sim/formats/output_file.h"
#include "plot.h"
#include "sweep.h"
#include "sweep_json.h"
#include "sim/formats/units.h"

static int
report_sweep_error (const GError *error)
{
  int status = cli_report_error (error);
  if (error->domain == PLOT_ERROR && error->code == PLOT_ERROR_INPUT)
    return CLI_EXIT_INPUT;
  return status;
}

/* The makespans as a table on stdout, a row per value and a column per
 * device, then the fastest value on each device. */
static void
print_table (const Sweep *sweep)
{
  printf ("%-12s", sweep_param (sweep));
  for (guint d = 0; d < sweep_n_devices (sweep); d++)
    printf (" %14s", sweep_device (sweep, d));
  printf ("\n");
  for (guint v = 0; v < sweep_n_values (sweep); v++)
    {
      printf ("%-12s", sweep_value (sweep, v));
      for (guint d = 0; d < sweep_n_devices (sweep); d++)
        {
          g_autofree char *time = units_format_time (sweep_makespan (sweep, v, d));
          printf (" %14s", time);
        }
      printf ("\n");
    }
  /* The question a sweep answers: which value to use on each device. */
  if (sweep_n_values (sweep) < 2)
    return;
  printf ("\n");
  for (guint d = 0; d < sweep_n_devices (sweep); d++)
    {
      guint v = sweep_fastest (sweep, d);
      g_autofree char *time = units_format_time (sweep_makespan (sweep, v, d));
      g_autofree char *on = g_strdup_printf ("fastest on %s:", sweep_device (sweep, d));
      /* What bounds the best value: the next thing to make faster. */
      g_autofree char *path = prediction_path_time_text (sweep_path_time (sweep, v, d));
      printf ("%-20s %s=%s, %s (critical path: %s)\n", on, sweep_param (sweep),
              sweep_value (sweep, v), time, path);
    }
}

/* -o FILE: the plot, the CSV or the JSON, by FILE's extension; a CSV or
 * JSON moves to *csv or *json (each given once) and *output is cleared. */
static gboolean
take_output (char **output, char **csv, char **json)
{
  g_autoptr (GError) error = NULL;
  if (!output_kind_check ("-o", *output,
                          OUTPUT_KIND_PICTURE | OUTPUT_KIND_CSV | OUTPUT_KIND_JSON,
                          "-o takes FILE.png or FILE.svg (the plot), FILE.csv (as --csv) or "
                          "FILE.json (as --json)",
                          &error))
    {
      cli_error ("streamsim sweep: %s", error->message);
      return FALSE;
    }
  OutputKind kind = output_kind_of (*output);
  if (kind & OUTPUT_KIND_PICTURE)
    return TRUE;
  char **slot = kind == OUTPUT_KIND_CSV ? csv : json;
  const char *option = kind == OUTPUT_KIND_CSV ? "--csv" : "--json";
  if (*slot != NULL)
    {
      cli_error ("streamsim sweep: -o %s and %s %s name the same output; give it once", *output,
                 option, *slot);
      return FALSE;
    }
  *slot = g_steal_pointer (output);
  return TRUE;
}

/* --csv and --json refuse a name whose extension says it holds something
 * else; a name without one, or with another extension, is taken as asked. */
static gboolean
check_output_kinds (const char *csv, const char *json)
{
  g_autoptr (GError) error = NULL;
  if ((csv != NULL
       && !output_kind_check ("--csv", csv, OUTPUT_KIND_CSV | OUTPUT_KIND_BARE | OUTPUT_KIND_OTHER,
                              "--csv writes a CSV table: name it .csv (the plot is -o FILE.png)",
                              &error))
      || (json != NULL
          && !output_kind_check ("--json", json,
                                 OUTPUT_KIND_JSON | OUTPUT_KIND_BARE | OUTPUT_KIND_OTHER,
                                 "--json writes JSON: name it .json", &error)))
    {
      cli_error ("streamsim sweep: %s", error->message);
      return FALSE;
    }
  return TRUE;
}

int
cli_sweep_main (int argc, char **argv)
{
  g_auto (GStrv) defines = NULL;
  g_auto (GStrv) devices = NULL;
  g_autofree char *output = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *json = NULL;
  g_autofree char *size = NULL;
  g_autofree char *title = NULL;
  gint connections = 0;
  gint jobs = 0;
  gboolean quiet = FALSE;
  GOptionEntry entries[] = {
    { "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &defines,
      "Set a `let` parameter; exactly one lists the values to sweep: V1,V2,..., "
      "FIRST..LAST or FIRST..LAST*FACTOR",
      "NAME=VALUES" },
    { "device", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &devices,
      CLI_DEVICE_HELP " (default: the schedule's `device`)", "A,B,..." },
    { "connections", 'c', 0, G_OPTION_ARG_INT, &connections,
      "CUDA_DEVICE_MAX_CONNECTIONS (default: the schedule's, else the profile's)", "N" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
      "Predict N points at a time, on N threads (default: one per processor; the "
      "results are the same for any N, each thread holds one prediction in memory)", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "The main output, its kind by its extension: FILE.png or FILE.svg the plot, "
      "FILE.csv as --csv, FILE.json as --json", "FILE" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv,
      "Write param,device,makespan_ns rows (\"-\": stdout)", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json,
      "Write the makespans as JSON: the values, and per device one makespan_ns per "
      "value and the fastest value (\"-\": stdout)", "FILE" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Plot size in pixels (default 1600x900)",
      "WxH" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title, "Plot title", "TEXT" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not print the table of makespans",
      NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCHEDULE");
  g_option_context_set_summary (context,
    "Predicts SCHEDULE for every value of one parameter on every device, prints the\n"
    "makespans and the fastest value on each device, and plots makespan against the\n"
    "parameter, one line per device.\n"
    "Exit status: 0 done, 2 bad input, 3 gnuplot or a file failed.");
  g_option_context_set_description (context,
    "Example:\n"
    "  streamsim sweep traces/seed/pipeline.sched -D nchunks=1..64*2 \\\n"
    "      --device c1060,c2050,k20 -o sweep.png --csv sweep.csv\n"
    "  streamsim sweep traces/seed/pipeline.sched -D nchunks=1..64*2 -d k20 -j 2 --json -\n");
  g_auto (GStrv) args = NULL;
  if (!cli_parse_one_input (context, entries, argc, argv, "one schedule", &args))
    return CLI_EXIT_INPUT;
  g_autoptr (GError) error = NULL;
  if (strcmp (args[1], "-") == 0)
    {
      /* Each value and device parses the schedule again (a -D can change
       * what it expands to); standard input can be read only once. */
      cli_error ("streamsim: sweep reads SCHEDULE once per value and device, so it must be a "
                 "file, not - (standard input)");
      return CLI_EXIT_INPUT;
    }
  if (!cli_check_counts (connections, jobs))
    return CLI_EXIT_INPUT;
  if (output != NULL && !take_output (&output, &csv, &json))
    return CLI_EXIT_INPUT;
  PlotOptions options;
  plot_options_init (&options);
  options.title = title;
  if (size != NULL && !plot_parse_size (size, &options.width, &options.height, &error))
    return report_sweep_error (error);

  if (!check_output_kinds (csv, json))
    return CLI_EXIT_INPUT;
  if (output == NULL && csv == NULL && json == NULL && quiet)
    {
      cli_error ("streamsim: sweep with --quiet needs -o FILE.png, --csv FILE or --json FILE");
      return CLI_EXIT_INPUT;
    }
  gboolean csv_stdout = g_strcmp0 (csv, "-") == 0, json_stdout = g_strcmp0 (json, "-") == 0;
  if (csv_stdout && json_stdout)
    {
      cli_error ("streamsim: sweep: only one of --csv and --json can be - (standard output)");
      return CLI_EXIT_INPUT;
    }
  if (output != NULL && !plot_check_output (output, &error))
    return report_sweep_error (error);

  g_autoptr (Sweep) sweep = sweep_new ((const char *const *) defines,
                                       (const char *const *) devices, &error);
  if (sweep == NULL)
    return cli_report_error (error);
  if (!sweep_run (sweep, args[1], (guint) connections, (guint) jobs, &error))
    return cli_report_error (error);
  if (!quiet)
    for (const char *const *note = sweep_notes (sweep); *note != NULL; note++)
      cli_error ("streamsim sweep: %s", *note);

  /* Standard output holds a CSV or JSON alone, so that it can be piped. */
  if (!quiet && !csv_stdout && !json_stdout)
    print_table (sweep);
  if (csv != NULL && !sweep_write_csv (sweep, csv, &error))
    return cli_report_error (error);
  if (json != NULL)
    {
      gsize length = 0;
      g_autofree char *data = sweep_json_to_data (sweep, args[1], &length);
      if (!output_file_set_contents (json, data, length, &error))
        return cli_report_error (error);
    }
  if (output != NULL && !sweep_plot (sweep, args[1], &options, output, &error))
    return report_sweep_error (error);
  return CLI_EXIT_OK;
}
