/* main.c: `streamsim COMMAND ...`, dispatching to the subcommands of cli.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "plot.h"
#include "sim/core/printable.h"
#include "sim/formats/profile_file.h"
#include "engines/eng_sim.h"
#include "sim/core/schedule.h"
#include "sim/formats/timeline.h"

typedef struct
{
  const char *name;
  int (*main) (int argc, char **argv);
  const char *summary;
} CliCommand;

static const CliCommand commands[] = {
  { "predict", cli_predict_main, "simulate a schedule on a device profile; timeline CSV, summary, --explain" },
  { "devices", cli_devices_main, "list the device profiles and their main parameters" },
  { "compare", cli_compare_main, "compare two timelines op by op (predicted vs measured)" },
  { "plot", cli_plot_main, "draw a timeline (or two, --vs) as a Gantt chart with gnuplot" },
  { "sweep", cli_sweep_main, "predict a grid of parameter values and devices; plot makespan" },
};

static void
usage (FILE *out)
{
  fprintf (out,
           "Usage: streamsim COMMAND [OPTION...]\n"
           "\n"
           "Predicts how a GPU overlaps copies and kernels for a given issue order.\n"
           "\n"
           "Commands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s  %s\n", commands[i].name, commands[i].summary);
  fprintf (out,
           "\n"
           "Example:\n"
           "  streamsim predict traces/seed/async-v2.sched --device c2050 --explain\n"
           "\n"
           "`streamsim COMMAND --help` explains each command's options.\n");
}

void
cli_error (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *shown = printable_text (text, TRUE);
  fprintf (stderr, "%s\n", shown);
}

int
cli_report_error (const GError *error)
{
  cli_error ("streamsim: %s", error->message);
  if (error->domain == SCHEDULE_ERROR)
    return error->code == SCHEDULE_ERROR_IO ? CLI_EXIT_SYSTEM : CLI_EXIT_INPUT;
  if (error->domain == TIMELINE_ERROR)
    return error->code == TIMELINE_ERROR_IO ? CLI_EXIT_SYSTEM : CLI_EXIT_INPUT;
  if (error->domain == PROFILE_ERROR || error->domain == G_OPTION_ERROR
      || error->domain == ENG_ERROR)
    return CLI_EXIT_INPUT;
  if (error->domain == PLOT_ERROR)
    return error->code == PLOT_ERROR_INPUT ? CLI_EXIT_INPUT : CLI_EXIT_SYSTEM;
  return CLI_EXIT_SYSTEM;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      usage (stderr);
      return CLI_EXIT_INPUT;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return CLI_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("streamsim %s\n", STREAMSIM_VERSION);
      return CLI_EXIT_OK;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        /* so that --help says "streamsim predict [OPTION...]" */
        g_autofree char *prgname = g_strdup_printf ("streamsim %s", commands[i].name);
        g_set_prgname (prgname);
        return commands[i].main (argc - 1, argv + 1);
      }
  cli_error ("streamsim: unknown command '%s'\n", argv[1]);
  usage (stderr);
  return CLI_EXIT_INPUT;
}
