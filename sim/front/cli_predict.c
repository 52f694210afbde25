/* cli_predict.c: `streamsim predict`: the timeline a schedule will run on a device, and why each op waited. */
#include <stdio.h>
#include <string.h>
#include "chrome_trace.h"
#include "cli.h"
#include "cli_predict.h"
#include "device_name.h"
#include "output_kind.h"
#include "sim/formats/output_file.h"
#include "plot.h"
#include "host_spread.h"
#include "prediction.h"
#include "prediction_json.h"
#include "sim/formats/units.h"

static const char predict_description[] =
  "Simulates SCHEDULE (the order in which a program issues copies, kernels,\n"
  "events and synchronizations) on a device profile and prints the makespan,\n"
  "how busy each engine was, how much copying overlapped computing, and what\n"
  "the ops waited for (added up by cause; --explain lists each op,\n"
  "--critical-path the chain of waits that set the makespan). With a profile\n"
  "that gives its host's spread (h100, h200), also the makespan on the fast and\n"
  "on the slow host that machines of that GPU ran (`host spread`).\n"
  "\n"
  "Examples:\n"
  "  streamsim predict traces/seed/async-v2.sched --device c2050 --explain\n"
  "  streamsim predict traces/seed/async-v1.sched --device k20 --csv t.csv\n"
  "  streamsim predict traces/seed/sequential.sched --device c2050 --critical-path\n"
  "  streamsim predict traces/examples/false-dependency.sched --connections 1 --explain\n"
  "  streamsim predict my.sched --device ./my-gpu.ini -D chunk=8MiB -o t.png\n"
  "  streamsim predict traces/seed/async-v2.sched -d c1060,c2050,k20,h100\n"
  "  python3 gen.py | streamsim predict - --device k20 -o t.csv\n"
  "\n"
  "A SCHEDULE of - is read from standard input (messages name it <stdin>);\n"
  "a gzipped file is read as the text it holds (x.sched.gz).\n"
  "Devices: a profile name in any case (see `streamsim devices`) or a path to a\n"
  ".ini file; with several (-d a,b or -d a -d b) one summary row per device.\n"
  "Ops are named by number and label: \"op 7 h2d-3\".\n"
  "Exit status: 0 success, 1 --check found a violation, 2 bad input (with\n"
  "file:line:column), 3 I/O failure.";

/* What each cause of --explain means, in a few words for the summary. */
static const char *const cause_glosses[ENG_N_CAUSES] = {
  [ENG_CAUSE_NONE] = "",
  [ENG_CAUSE_STREAM] = "the op before it in its stream",
  [ENG_CAUSE_EVENT] = "the record of an event it waits for",
  [ENG_CAUSE_LEGACY] = "the legacy default stream",
  [ENG_CAUSE_QUEUE] = "false dependency: another stream's op in its hardware queue",
  [ENG_CAUSE_ENGINE] = "its copy engine was busy",
  [ENG_CAUSE_SLOTS] = "SM slots or the concurrent-kernel limit",
  [ENG_CAUSE_DEFERRED] = "Fermi held a completion until its launch run ended",
  [ENG_CAUSE_SYNC] = "a synchronize call waiting for the device",
  [ENG_CAUSE_LOAD] = "loading its kernel's code: the GPU had to go idle",
};

/* The causes of --explain added up, the longest total first, so that what
 * holds a schedule back shows without reading every op. */
static void
print_waits (const PredictionSummary *s, FILE *out)
{
  EngCause order[ENG_N_CAUSES];
  guint n = prediction_summary_wait_order (s, order);
  if (n == 0)
    return;
  fprintf (out, "\n%-10s %8s %12s %12s  (the last thing each op waited for)\n", "waited for",
           "ops", "total", "longest");
  for (guint i = 0; i < n; i++)
    {
      EngCause c = order[i];
      g_autofree char *total = units_format_time (s->waited[c]);
      g_autofree char *longest = units_format_time (s->longest_wait[c]);
      fprintf (out, "%-10s %8u %12s %12s  %s\n", eng_cause_name (c), s->waits[c], total, longest,
               cause_glosses[c]);
    }
}

/* The schedule's `elapsed` statements, one line each. */
static void
print_elapsed (const Prediction *p, FILE *out)
{
  const Schedule *sched = prediction_schedule (p);
  for (guint i = 0; i < schedule_n_elapsed (sched); i++)
    {
      const SchedElapsed *e = schedule_elapsed (sched, i);
      SimTime ns = prediction_elapsed (p, i);
      g_autofree char *text = units_format_time (ns < 0 ? -ns : ns);
      fprintf (out, "elapsed      %s %s%s (%s, line %u, to %s, line %u)\n", e->name,
               ns < 0 ? "-" : "", text,
               schedule_event_name (sched, schedule_op (sched, e->from_op)->event),
               schedule_op (sched, e->from_op)->line,
               schedule_event_name (sched, schedule_op (sched, e->to_op)->event),
               schedule_op (sched, e->to_op)->line);
    }
}

static void
print_summary (const Prediction *p, const PredictionSummary *s, FILE *out)
{
  const EngSim *sim = prediction_sim (p);
  g_autofree char *makespan = units_format_time (s->makespan);
  fprintf (out, "schedule     %s\n", schedule_path (prediction_schedule (p)));
  guint conns = eng_sim_connections (sim), copy_conns = eng_sim_copy_connections (sim);
  if (copy_conns == conns)
    fprintf (out, "device       %s (%u connection%s)\n", gpu_profile_name (prediction_profile (p)),
             conns, conns == 1 ? "" : "s");
  else /* CUDA_DEVICE_MAX_CONNECTIONS left unset on an H100 or H200 (eng_connection.c) */
    fprintf (out, "device       %s (%u connections, copy queues for %u)\n",
             gpu_profile_name (prediction_profile (p)), conns, copy_conns);
  fprintf (out, "ops          %" G_GSIZE_FORMAT "\n", schedule_n_ops (prediction_schedule (p)));
  fprintf (out, "makespan     %s\n", makespan);
  if (s->has_spread)
    {
      g_autofree char *text = host_spread_text (prediction_profile (p), s->spread);
      fprintf (out, "host spread  %s\n", text);
    }
  print_elapsed (p, out);
  fputc ('\n', out);
  /* the waits' table below keeps these columns: name, ops, a time */
  fprintf (out, "%-10s %8s %12s %8s\n", "engine", "ops", "busy", "util");
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      if (s->ops[e] == 0 || e == ENG_ENGINE_STREAM)
        continue;
      g_autofree char *busy = units_format_time (s->busy[e]);
      double util = s->makespan > 0 ? 100.0 * (double) s->busy[e] / (double) s->makespan : 0;
      fprintf (out, "%-10s %8u %12s %7.1f%%\n", eng_engine_name ((EngEngine) e), s->ops[e], busy,
               util);
    }
  g_autofree char *overlap = units_format_time (s->copy_compute_overlap);
  double of_copy = s->copy_busy > 0 ? 100.0 * (double) s->copy_compute_overlap / (double) s->copy_busy : 0;
  fprintf (out, "\ncopy/compute overlap  %s (%.1f%% of copy time)\n", overlap, of_copy);
  if (s->host_blocked > 0)
    {
      g_autofree char *blocked = units_format_time (s->host_blocked);
      fprintf (out, "host blocked in syncs %s\n", blocked);
    }
  if (s->h2d_d2h_overlap > 0)
    {
      g_autofree char *duplex = units_format_time (s->h2d_d2h_overlap);
      fprintf (out, "h2d/d2h overlap       %s\n", duplex);
    }
  print_waits (s, out);
}

/* A whole number given to --NAME; on error one line in the form every
 * option error takes, "streamsim predict: --NAME VALUE: what is allowed". */
static gboolean
parse_count_option (const char *name, const char *text, guint64 min, guint64 max,
                    guint64 *value)
{
  const char *why = NULL;
  if (units_parse_uint (text, max, value, &why) && *value >= min)
    return TRUE;
  cli_error ("streamsim predict: --%s %s: allowed a whole number from %" G_GUINT64_FORMAT
             " to %" G_GUINT64_FORMAT, name, text, min, max);
  return FALSE;
}

/* "host, stream, ...": the causes --explain-only takes, for its help and
 * its error message. */
static char *
cause_names (void)
{
  GString *names = g_string_new (NULL);
  for (guint c = ENG_CAUSE_NONE + 1; c < ENG_N_CAUSES; c++)
    g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "",
                            eng_cause_name ((EngCause) c));
  return g_string_free (names, FALSE);
}

/* --explain-only's list of causes into show[]; FALSE (and a message) for a
 * word that names none. */
static gboolean
parse_causes (const char *list, gboolean show[ENG_N_CAUSES])
{
  g_auto (GStrv) words = g_strsplit (list, ",", -1);
  for (char **w = words; *w != NULL; w++)
    {
      guint c = ENG_CAUSE_NONE + 1;
      while (c < ENG_N_CAUSES && strcmp (*w, eng_cause_name ((EngCause) c)) != 0)
        c++;
      if (c == ENG_N_CAUSES)
        {
          g_autofree char *names = cause_names ();
          cli_error ("streamsim predict: --explain-only %s: '%s' is not a cause; the causes: %s",
                     list, *w, names);
          return FALSE;
        }
      show[c] = TRUE;
    }
  return TRUE;
}

/* -o FILE: the timeline CSV or the picture, by FILE's extension, into
 * *csv or *plot, each of which may be given once. */
static gboolean
take_output (const char *output, char **csv, char **plot)
{
  g_autoptr (GError) error = NULL;
  if (!output_kind_check ("-o", output, OUTPUT_KIND_CSV | OUTPUT_KIND_BARE | OUTPUT_KIND_PICTURE,
                          "-o takes FILE.csv (the timeline; - for standard output) or "
                          "FILE.png or FILE.svg (the picture); JSON is --json (the summary) "
                          "or --chrome (a Perfetto trace)",
                          &error))
    {
      cli_error ("streamsim predict: %s", error->message);
      return FALSE;
    }
  gboolean picture = (output_kind_of (output) & OUTPUT_KIND_PICTURE) != 0;
  char **slot = picture ? plot : csv;
  if (*slot != NULL)
    {
      cli_error ("streamsim predict: -o %s and %s %s both name the %s; give it once", output,
                 picture ? "--plot" : "--csv", *slot, picture ? "picture" : "timeline CSV");
      return FALSE;
    }
  *slot = g_strdup (output);
  return TRUE;
}

/* --csv, --json and --chrome refuse a name whose extension says it holds
 * something else (a CSV in t.png); a name without one, or with another
 * extension, is taken as asked. */
static gboolean
check_output_kinds (const char *csv, const char *json, const char *chrome)
{
  const struct
  {
    const char *option, *path;
    OutputKind kind;
    const char *expected;
  } outputs[] = {
    { "--csv", csv, OUTPUT_KIND_CSV, "--csv writes the timeline CSV: name it .csv (a picture is "
      "--plot FILE.png)" },
    { "--json", json, OUTPUT_KIND_JSON, "--json writes the summary as JSON: name it .json" },
    { "--chrome", chrome, OUTPUT_KIND_JSON, "--chrome writes a Chrome trace (JSON): name it "
      ".json" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_autoptr (GError) error = NULL;
      if (outputs[i].path != NULL
          && !output_kind_check (outputs[i].option, outputs[i].path,
                                 outputs[i].kind | OUTPUT_KIND_BARE | OUTPUT_KIND_OTHER,
                                 outputs[i].expected, &error))
        {
          cli_error ("streamsim predict: %s", error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/* With several devices predict prints one summary row each; the outputs
 * and listings of one prediction have no place in it. */
static gboolean
check_one_device_options (const char *const *given, const char *devices)
{
  static const char *const names[] = { "-o", "--csv", "--json", "--chrome", "--plot",
                                       "--explain", "--explain-only", "--critical-path" };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (given[i] != NULL)
      {
        cli_error ("streamsim predict: %s describes one prediction, and --device %s names "
                   "several (which get one summary row each); give one device, or use "
                   "`streamsim sweep` for a table of makespans",
                   names[i], devices);
        return FALSE;
      }
  return TRUE;
}

int
cli_predict_main (int argc, char **argv)
{
  g_auto (GStrv) device_args = NULL;
  g_autofree char *output = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *plot = NULL;
  g_autofree char *chrome = NULL;
  g_autofree char *json = NULL;
  g_auto (GStrv) defines = NULL;
  g_autofree char *connections_arg = NULL;
  g_autofree char *max_ops_arg = NULL;
  guint64 connections = 0;
  guint64 max_ops = 0;
  gboolean check = FALSE;
  g_autofree char *host_arg = NULL;
  gboolean explain = FALSE;
  g_autofree char *explain_only = NULL;
  gboolean critical_path = FALSE;
  gboolean quiet = FALSE;
  gboolean streams = FALSE;
  g_autofree char *causes = cause_names ();
  g_autofree char *explain_only_help
    = g_strdup_printf ("--explain for the ops that waited for one of CAUSES, e.g. queue,engine "
                       "(causes: %s)", causes);
  GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &device_args,
      CLI_DEVICE_HELP "; overrides the schedule's `device`; several print one summary row each",
      "D,..." },
    { "connections", 'c', 0, G_OPTION_ARG_STRING, &connections_arg,
      "Hardware queues, as CUDA_DEVICE_MAX_CONNECTIONS (1..32); overrides the schedule's `connections`", "N" },
    { "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &defines,
      "Set a `let` parameter, e.g. -D chunk=8MiB (repeatable)", "NAME=VALUE" },
    { "host", 0, 0, G_OPTION_ARG_STRING, &host_arg,
      "Run with the host costs of the fast or the slow end of the profile's [spread] "
      "(launch, cudaMemcpyAsync, pageable links) in place of its own", "fast|slow" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "The main output, its kind by its extension: FILE.csv the timeline CSV (- for stdout), "
      "FILE.png or FILE.svg the picture (as --plot)", "FILE" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv,
      "Write the timeline CSV (one row per op; - for stdout)", "FILE" },
    { "explain", 'e', 0, G_OPTION_ARG_NONE, &explain,
      "For each op that waited, say what it waited for", NULL },
    { "explain-only", 0, 0, G_OPTION_ARG_STRING, &explain_only, explain_only_help, "CAUSES" },
    { "critical-path", 0, 0, G_OPTION_ARG_NONE, &critical_path,
      "List the chain of waits that ends at the makespan, first op first, through the "
      "device and the host calls that issued its ops late", NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot,
      "Draw the timeline with gnuplot (.png or .svg); the critical path's ops are outlined",
      "FILE" },
    { "streams", 0, 0, G_OPTION_ARG_NONE, &streams, "With --plot, add one row per stream", NULL },
    { "chrome", 0, 0, G_OPTION_ARG_FILENAME, &chrome,
      "Write a Chrome trace-event JSON (open it in ui.perfetto.dev; - for stdout), with "
      "the critical path as a process of its own", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json,
      "Write the summary as JSON: makespan_ns, each engine's ops, busy_ns and "
      "utilization, the overlaps, the waits by cause, the critical path (- for stdout)", "FILE" },
    { "max-ops", 0, 0, G_OPTION_ARG_STRING, &max_ops_arg,
      "Refuse schedules that expand to more ops (default 50000000)", "N" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &check,
      "Check the results against the model's rules (stream order, events, engines, SMs, "
      "queues); exit 1 listing any violation", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      "Print no summary and no notes: only errors and what an option asks for", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCHEDULE - predict a timeline");
  g_option_context_set_summary (context, predict_description);
  g_option_context_add_main_entries (context, entries, NULL);
  g_auto (GStrv) args = NULL;
  if (!cli_parse_options (context, entries, argc, argv, &args))
    return CLI_EXIT_INPUT;
  if (g_strv_length (args) != 2)
    {
      cli_error ("streamsim predict: give exactly one SCHEDULE file (see --help)");
      return CLI_EXIT_INPUT;
    }
  const char *schedule = args[1];
  if (connections_arg != NULL && !parse_count_option ("connections", connections_arg, 1, 32,
                                                        &connections))
    return CLI_EXIT_INPUT;
  /* The model indexes ops with 32 bits (eng_sim_new). */
  if (max_ops_arg != NULL && !parse_count_option ("max-ops", max_ops_arg, 1, G_MAXUINT32 - 1,
                                                  &max_ops))
    return CLI_EXIT_INPUT;
  PredictionHost host = PREDICTION_HOST_OWN;
  if (host_arg != NULL)
    {
      if (strcmp (host_arg, "fast") == 0)
        host = PREDICTION_HOST_FAST;
      else if (strcmp (host_arg, "slow") == 0)
        host = PREDICTION_HOST_SLOW;
      else
        {
          cli_error ("streamsim predict: --host %s: fast or slow", host_arg);
          return CLI_EXIT_INPUT;
        }
    }
  gboolean show[ENG_N_CAUSES] = { FALSE };
  if (explain_only != NULL && !parse_causes (explain_only, show))
    return CLI_EXIT_INPUT;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) devices = device_names_from_args ((const char *const *) device_args, &error);
  if (error != NULL)
    {
      cli_error ("streamsim predict: %s", error->message);
      return CLI_EXIT_INPUT;
    }
  PredictionOptions options = { devices != NULL ? devices[0] : NULL, (guint) connections,
                                (const char *const *) defines, (guint64) max_ops, host };
  if (devices != NULL && devices[1] != NULL)
    {
      const char *given[] = { output, csv, json, chrome, plot, explain ? "" : NULL,
                              explain_only, critical_path ? "" : NULL };
      g_autofree char *list = g_strjoinv (",", device_args);
      if (!check_one_device_options (given, list))
        return CLI_EXIT_INPUT;
      return cli_predict_devices (schedule, (const char *const *) devices, &options, check,
                                  quiet);
    }
  if (output != NULL && !take_output (output, &csv, &plot))
    return CLI_EXIT_INPUT;
  if (!check_output_kinds (csv, json, chrome))
    return CLI_EXIT_INPUT;
  /* Standard output can carry one of them; the text summary then goes to
   * standard error, so that the file piped on stays whole. */
  const char *const to_stdout[] = { csv, json, chrome };
  guint n_stdout = 0;
  for (gsize i = 0; i < G_N_ELEMENTS (to_stdout); i++)
    n_stdout += to_stdout[i] != NULL && strcmp (to_stdout[i], "-") == 0;
  if (n_stdout > 1)
    {
      cli_error ("streamsim predict: only one of --csv, --json and --chrome can be - "
                 "(standard output)");
      return CLI_EXIT_INPUT;
    }
  /* Refuse a picture type gnuplot cannot draw now, before the CSV is written. */
  if (plot != NULL && !plot_check_output (plot, &error))
    {
      cli_error ("streamsim predict: --plot %s", error->message);
      return CLI_EXIT_INPUT;
    }

  g_autoptr (Prediction) p = prediction_run (schedule, &options, &error);
  if (p == NULL)
    return cli_report_error (error);

  /* one scan for the notes of standard error and the JSON */
  g_auto (GStrv) notes = NULL;
  if (!quiet || json != NULL)
    notes = prediction_notes (p);
  for (guint i = 0; !quiet && notes[i] != NULL; i++)
    cli_error ("streamsim predict: %s", notes[i]);
  if (csv != NULL && !prediction_write_csv (p, csv, &error))
    return cli_report_error (error);
  /* one summary for the text and the JSON: it merges every engine's spans */
  PredictionSummary summary;
  if (!quiet || json != NULL)
    {
      prediction_summarize (p, &summary);
      prediction_summarize_spread (p, &summary);
    }
  /* one critical path for the JSON, the pictures and --critical-path */
  g_autoptr (GArray) path = NULL;
  if (json != NULL || plot != NULL || chrome != NULL || critical_path)
    path = prediction_critical_path (p);
  if (json != NULL)
    {
      gsize length = 0;
      g_autofree char *data = prediction_json_to_data (p, &summary, path,
                                                        (const char *const *) notes, &length);
      if (!output_file_set_contents (json, data, length, &error))
        return cli_report_error (error);
    }
  if (plot != NULL || chrome != NULL)
    {
      /* Both pictures mark the critical path: what set the makespan is what
       * a reader of a timeline looks for first. */
      g_autoptr (Timeline) timeline = prediction_timeline (p);
      if (chrome != NULL && !chrome_trace_write (timeline, path, chrome, &error))
        return cli_report_error (error);
      if (plot != NULL)
        {
          PlotOptions popts;
          plot_options_init (&popts);
          popts.show_streams = streams;
          popts.critical_path = path;
          if (!plot_timeline_file (timeline, NULL, &popts, plot, &error))
            return cli_report_error (error);
        }
    }
  CliReport report = { n_stdout > 0 ? stderr : stdout, FALSE };
  if (!quiet)
    {
      cli_report_section (&report);
      print_summary (p, &summary, report.out);
    }
  if (explain || explain_only != NULL)
    cli_predict_explain (p, explain_only != NULL ? show : NULL, &report);
  if (critical_path)
    cli_predict_critical_path (p, path, &report);
  if (check && !cli_predict_check (p, &report, quiet))
    return CLI_EXIT_NO;
  return CLI_EXIT_OK;
}
