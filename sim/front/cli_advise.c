/* cli_advise.c: `streamsim advise SCHEDULE [-d DEVICE] [-o BEST.sched] [--plot BEFORE-AFTER.png] [--vary NAME=VALUES] [--explain]`. */
#include <stdio.h>
#include <string.h>
#include "advise.h"
#include "cli.h"
#include "output_kind.h"
#include "plot.h"
#include "prediction.h"
#include "sim/core/schedule_edit.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/schedule_write.h"
#include "sim/formats/units.h"

static void
print_gain (SimTime before, SimTime after)
{
  g_autofree char *b = units_format_time (before);
  g_autofree char *a = units_format_time (after);
  g_autofree char *gain = units_format_time (before - after);
  printf ("  %s -> %s, %s faster (%.1f%%)\n", b, a, gain,
          before > 0 ? 100.0 * (double) (before - after) / (double) before : 0.0);
}

/* The advice at both ends of the profile's host (host_spread.h), and a
 * warning where it would not gain at one of them. */
static void
print_host_spread (const Advice *advice)
{
  SimTime given[2], best[2];
  if (!advice_host_spread (advice, given, best))
    return;
  static const char *const ends[2] = { "fast", "slow" };
  for (guint e = GPU_HOST_FAST; e <= GPU_HOST_SLOW; e++)
    {
      g_autofree char *g = units_format_time (given[e]);
      g_autofree char *b = units_format_time (best[e]);
      printf ("%s host    %s -> %s (%.1f%% less)\n", ends[e], g, b,
              given[e] > 0 ? 100.0 * (double) (given[e] - best[e]) / (double) given[e] : 0.0);
    }
  for (guint e = GPU_HOST_FAST; e <= GPU_HOST_SLOW; e++)
    if (best[e] >= given[e])
      printf ("warning: on %s's %s host ([spread]) the advised schedule is no faster: its "
              "gain depends on how fast the machine runs the host, and may not show\n",
              advice_device (advice), ends[e]);
}

static void
print_advice (const Advice *advice, const char *path, gboolean explain, double seconds)
{
  g_autofree char *original = units_format_time (advice_original (advice));
  g_autofree char *best = units_format_time (advice_best (advice));
  printf ("schedule     %s\n", path);
  printf ("device       %s\n", advice_device (advice));
  printf ("as given     %s\n", original);
  if (advice_n_changes (advice) == 0)
    {
      printf ("advised      %s: no change the search tried is faster\n", best);
    }
  else
    {
      printf ("advised      %s (%.1f%% less)\n", best,
              100.0 * (double) (advice_original (advice) - advice_best (advice))
                / (double) advice_original (advice));
      print_host_spread (advice);
      printf ("\nchanges, each with those above it:\n");
      for (guint i = 0; i < advice_n_changes (advice); i++)
        {
          const AdviseChange *c = advice_change (advice, i);
          printf ("%u. %s\n", i + 1, c->text);
          print_gain (c->before, c->after);
        }
    }
  if (explain)
    {
      g_autofree char *why = advice_explain (advice);
      if (why != NULL)
        printf ("\nwhy: %s\n", why);
    }
  if (advice_n_hints (advice) > 0)
    {
      printf ("\nchanges of what the program does, yours to decide (with the advice above):\n");
      for (guint i = 0; i < advice_n_hints (advice); i++)
        {
          const AdviseHint *h = advice_hint (advice, i);
          printf ("- %s\n", h->text);
          print_gain (advice_best (advice), h->after);
        }
    }
  if (advice_order_kept (advice) != NULL)
    printf ("\nnote: %s\n", advice_order_kept (advice));
  guint64 n = advice_candidates (advice);
  printf ("\nsearched     %" G_GUINT64_FORMAT " candidates in %.2f s (%.0f a second)%s\n", n,
          seconds, seconds > 0 ? (double) n / seconds : 0.0,
          advice_exhaustive (advice) ? "; every issue order the rules allow was tried" : "");
}

/* The program as given and as advised, advised on top, by plots/gantt.gp. */
static gboolean
plot_before_after (const Advice *advice, const char *device, const char *output, GError **error)
{
  GpuProfile profile = { 0 };
  if (!profile_load (device, &profile, error))
    return FALSE;
  g_autoptr (Prediction) before =
    prediction_run_schedule (schedule_copy (advice_original_schedule (advice)), &profile,
                             advice_original_connections (advice), error);
  g_autoptr (Prediction) after =
    before == NULL ? NULL
                   : prediction_run_schedule (schedule_copy (advice_schedule (advice)), &profile,
                                              advice_connections (advice), error);
  gpu_profile_clear (&profile);
  if (after == NULL)
    return FALSE;
  g_autoptr (Timeline) tb = prediction_timeline (before);
  g_autoptr (Timeline) ta = prediction_timeline (after);
  /* the picture names each timeline by its source's first word */
  timeline_set_meta (ta, "source", "advised");
  timeline_set_meta (tb, "source", "given");
  g_autoptr (GArray) path = prediction_critical_path (after);
  PlotOptions options;
  plot_options_init (&options);
  options.critical_path = path;
  g_autofree char *title = g_strdup_printf ("advised (%s) vs as given", advice_device (advice));
  options.title = title;
  return plot_timeline_file (ta, tb, &options, output, error);
}

int
cli_advise_main (int argc, char **argv)
{
  g_auto (GStrv) defines = NULL;
  g_auto (GStrv) devices = NULL;
  g_autofree char *output = NULL;
  g_autofree char *plot = NULL;
  g_autofree char *vary = NULL;
  g_autofree char *keep = NULL;
  gint connections = 0, jobs = 0;
  gint64 budget = 0, seed = 1;
  gboolean quiet = FALSE, explain = FALSE, pinned = FALSE;
  GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &devices,
      "The device profile, a name in any case (see `streamsim devices`) or a .ini path "
      "(default: the schedule's `device`)", "NAME" },
    { "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &defines, "Set a `let` parameter",
      "NAME=VALUE" },
    { "connections", 'c', 0, G_OPTION_ARG_INT, &connections,
      "The program's CUDA_DEVICE_MAX_CONNECTIONS (default: the schedule's, else the driver's)",
      "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the advised schedule (\"-\": stdout)", "BEST.sched" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot,
      "Draw the advised timeline over the one as given: .png or .svg", "FILE" },
    { "vary", 0, 0, G_OPTION_ARG_STRING, &vary,
      "Also try these values of a `let` parameter: V1,V2,..., FIRST..LAST or "
      "FIRST..LAST*FACTOR",
      "NAME=VALUES" },
    { "keep", 0, 0, G_OPTION_ARG_STRING, &keep,
      "What not to change, comma-separated: order, connections, priorities, pool", "WHAT" },
    { "pinned", 0, 0, G_OPTION_ARG_NONE, &pinned,
      "Take the pinned-memory hint: pin every pageable copy, then search (-o writes them "
      "pinned)", NULL },
    { "explain", 0, 0, G_OPTION_ARG_NONE, &explain,
      "Say which wait the change with the largest gain removed", NULL },
    { "budget", 0, 0, G_OPTION_ARG_INT64, &budget,
      "Candidates each search of the issue order may simulate (default 2000)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed,
      "Seed of the search's random moves (default 1): the same seed, the same advice", "N" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
      "Simulate N candidates at a time, on N threads (default: one per processor; the "
      "advice is the same for any N)", "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but what -o sends to stdout",
      NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCHEDULE");
  g_option_context_set_summary (context,
    "Searches the issue orders that keep what SCHEDULE computes (each stream's own\n"
    "order, every wait after its record, nothing moved before a sync or host work),\n"
    "CUDA_DEVICE_MAX_CONNECTIONS and stream priorities for the one predicted to\n"
    "finish soonest on the device, and prints each change with its gain; then,\n"
    "as hints, changes of what the program does (pinned memory, fewer syncs).\n"
    "With a profile that gives its host's spread (h100, h200), the program as\n"
    "given and as advised on the fast and the slow host too, and a warning where\n"
    "the advice would not gain on one of them.\n"
    "Exit status: 0 done, 2 bad input, 3 gnuplot or a file failed.");
  g_option_context_set_description (context,
    "Examples:\n"
    "  streamsim advise traces/seed/async-v2.sched -d c2050 --explain\n"
    "  streamsim advise traces/seed/pipeline.sched -d k20 --vary nchunks=1..64*2 \\\n"
    "      -o best.sched --plot before-after.png\n"
    "\n"
    "The search: the program's own order, depth-first and breadth-first; every order\n"
    "when there are at most --budget; else ops moved one at a time, first where the\n"
    "longest waits point, then at random from --seed, while the makespan falls.\n"
    "sim/front/COMMANDS.md says more.\n");
  g_auto (GStrv) args = NULL;
  if (!cli_parse_one_input (context, entries, argc, argv, "one schedule", &args))
    return CLI_EXIT_INPUT;
  g_autoptr (GError) error = NULL;
  if (vary != NULL && strcmp (args[1], "-") == 0)
    {
      cli_error ("streamsim: advise --vary reads SCHEDULE once per value, so it must be a file, "
                 "not - (standard input)");
      return CLI_EXIT_INPUT;
    }
  g_autofree char *device = devices != NULL ? g_strjoinv (",", devices) : NULL;
  if (device != NULL && strchr (device, ',') != NULL)
    {
      cli_error ("streamsim: advise takes one device, not %s; advise on each in turn", device);
      return CLI_EXIT_INPUT;
    }
  if (!cli_check_counts (connections, jobs))
    return CLI_EXIT_INPUT;
  if (budget < 0 || budget > G_GINT64_CONSTANT (1000000000))
    {
      cli_error ("streamsim: --budget must be 1 to 1000000000 (0: the default), not %"
                 G_GINT64_FORMAT, budget);
      return CLI_EXIT_INPUT;
    }
  AdviseOptions options = { 0 };
  g_auto (GStrv) kept = keep != NULL ? g_strsplit (keep, ",", -1) : NULL;
  for (guint i = 0; kept != NULL && kept[i] != NULL; i++)
    {
      if (strcmp (kept[i], "order") == 0)
        options.fixed_order = TRUE;
      else if (strcmp (kept[i], "connections") == 0)
        options.fixed_connections = TRUE;
      else if (strcmp (kept[i], "priorities") == 0)
        options.fixed_priorities = TRUE;
      else if (strcmp (kept[i], "pool") == 0)
        options.fixed_pool = TRUE;
      else
        {
          cli_error ("streamsim: --keep %s: '%s' is none of order, connections, priorities, pool",
                     keep, kept[i]);
          return CLI_EXIT_INPUT;
        }
    }
  if (output != NULL
      && !output_kind_check ("-o", output, OUTPUT_KIND_BARE | OUTPUT_KIND_OTHER,
                             "-o writes the advised schedule: name it .sched (the picture is "
                             "--plot FILE.png)",
                             &error))
    return cli_report_error (error);
  if (plot != NULL && !plot_check_output (plot, &error))
    return cli_report_error (error);

  options.device = device;
  options.connections = (guint) connections;
  options.defines = (const char *const *) defines;
  options.vary = vary;
  options.pinned = pinned;
  options.budget = (guint64) budget;
  options.seed = (guint64) seed;
  options.jobs = (guint) jobs;
  gint64 start = g_get_monotonic_time ();
  g_autoptr (Advice) advice = advise_run (args[1], &options, &error);
  if (advice == NULL)
    return cli_report_error (error);
  double seconds = (double) (g_get_monotonic_time () - start) / 1e6;

  if (output != NULL)
    {
      g_autofree char *given = units_format_time (advice_original (advice));
      g_autofree char *best = units_format_time (advice_best (advice));
      g_autofree char *line1 = g_strdup_printf ("advised by streamsim advise from %s for %s",
                                                args[1], advice_device (advice));
      g_autofree char *line2 = g_strdup_printf ("predicted %s; as given, %s%s%s", best, given,
                                                advice_define (advice) != NULL ? "; with -D " : "",
                                                advice_define (advice) != NULL
                                                  ? advice_define (advice) : "");
      const char *header[] = { line1, line2, NULL };
      if (!schedule_write_file (advice_schedule (advice), header, output, &error))
        return cli_report_error (error);
    }
  if (plot != NULL && !plot_before_after (advice, advice_device (advice), plot, &error))
    return cli_report_error (error);
  if (!quiet && g_strcmp0 (output, "-") != 0)
    print_advice (advice, args[1], explain, seconds);
  return CLI_EXIT_OK;
}
