/* main.c: `streamsim COMMAND ...`, dispatching to the subcommands of cli.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cli_argv.h"
#include "sim/core/near_name.h"
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
  { "advise", cli_advise_main, "find the issue order and settings predicted to finish soonest" },
  { "import", cli_import_main, "turn a PyTorch profiler or Nsight Systems trace into a schedule" },
};

static void
usage (FILE *out)
{
  fprintf (out,
           "Usage: streamsim [OPTION...] COMMAND [OPTION...] [ARGUMENT...]\n"
           "\n"
           "Predicts how a GPU overlaps copies and kernels for a given issue order.\n"
           "\n"
           "Commands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s  %s\n", commands[i].name, commands[i].summary);
  fprintf (out,
           "\n"
           "Options mean the same in every command that takes them: -d/--device,\n"
           "-D/--define, -o/--output (its kind follows its extension), -q/--quiet,\n"
           "-j/--jobs, -c/--connections. The first five may also come before COMMAND.\n"
           "\n"
           "Examples:\n"
           "  streamsim predict traces/seed/async-v2.sched --device c2050 --explain\n"
           "  streamsim -d c1060,c2050,k20 predict traces/seed/async-v2.sched\n"
           "\n"
           "`streamsim help COMMAND` (or `streamsim COMMAND --help`) explains each command's\n"
           "options.\n");
}

static const CliCommand *
find_command (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (name, commands[i].name) == 0)
      return &commands[i];
  return NULL;
}

/* One line: "streamsim: unknown command 'predcit'; did you mean 'predict'?
 * (commands: ...)"; the exit status for it. */
static int
unknown_command (const char *name)
{
  const char *names[G_N_ELEMENTS (commands) + 1];
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    names[i] = commands[i].name;
  names[G_N_ELEMENTS (commands)] = NULL;
  const char *near = near_name (name, names);
  g_autofree char *suggestion = near != NULL ? g_strdup_printf ("; did you mean '%s'?", near)
                                             : g_strdup ("");
  g_autofree char *list = g_strjoinv (", ", (char **) names);
  cli_error ("streamsim: unknown command '%s'%s (commands: %s; see streamsim --help)", name,
             suggestion, list);
  return CLI_EXIT_INPUT;
}

static int
run_command (const CliCommand *command, int argc, char **argv)
{
  /* so that --help says "streamsim predict [OPTION...]" */
  g_autofree char *prgname = g_strdup_printf ("streamsim %s", command->name);
  g_set_prgname (prgname);
  return command->main (argc, argv);
}

/* The options that may come before the command: those every command
 * spells the same way (cli.h). Only which of them take a value matters
 * here; the command parses them again, after its name. */
static char *before_device, *before_define, *before_output, *before_jobs;
static gboolean before_quiet, before_help;
static const GOptionEntry before_entries[] = {
  { "device", 'd', 0, G_OPTION_ARG_STRING, &before_device, NULL, NULL },
  { "define", 'D', 0, G_OPTION_ARG_STRING, &before_define, NULL, NULL },
  { "output", 'o', 0, G_OPTION_ARG_STRING, &before_output, NULL, NULL },
  { "jobs", 'j', 0, G_OPTION_ARG_STRING, &before_jobs, NULL, NULL },
  { "quiet", 'q', 0, G_OPTION_ARG_NONE, &before_quiet, NULL, NULL },
  { "help", 'h', 0, G_OPTION_ARG_NONE, &before_help, NULL, NULL },
  { NULL, 0, 0, 0, NULL, NULL, NULL },
};

/* `streamsim -d k20 predict x.sched` as `streamsim predict -d k20 x.sched`:
 * GOption, in strict POSIX mode, reads the options up to the first word
 * that is not one, the command; those arguments, as typed, go after it.
 * Sets *moved to the new argument vector (free with g_strfreev) and returns
 * CLI_EXIT_OK; leaves *moved NULL when it printed the usage (--help and no
 * command) or why it cannot, and returns the exit status. */
static int
options_after_command (int argc, char **argv, char ***moved)
{
  g_autoptr (GPtrArray) given = g_ptr_array_new ();
  for (int i = 0; i < argc; i++)
    g_ptr_array_add (given, argv[i]);
  g_ptr_array_add (given, NULL);
  g_auto (GStrv) split = cli_argv_split_short ((const char *const *) given->pdata, before_entries);
  g_auto (GStrv) rest = g_strdupv (split);
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_set_strict_posix (context, TRUE);
  g_option_context_add_main_entries (context, before_entries, NULL);
  g_autoptr (GError) error = NULL;
  gboolean ok = g_option_context_parse_strv (context, &rest, &error);
  g_clear_pointer (&before_device, g_free);
  g_clear_pointer (&before_define, g_free);
  g_clear_pointer (&before_output, g_free);
  g_clear_pointer (&before_jobs, g_free);
  if (!ok)
    {
      cli_error ("streamsim: %s; before the command only -d, -D, -o, -q and -j (--device, "
                 "--define, --output, --quiet, --jobs) are taken, the others follow it",
                 error->message);
      return CLI_EXIT_INPUT;
    }
  guint n_split = g_strv_length (split), n_rest = g_strv_length (rest);
  if (n_rest < 2)
    {
      if (before_help)
        {
          usage (stdout);
          return CLI_EXIT_OK;
        }
      cli_error ("streamsim: options but no command; give one of predict, devices, compare, "
                 "plot, sweep, advise, import after them (see streamsim --help)");
      return CLI_EXIT_INPUT;
    }
  /* rest: the program, the command and what followed it, as typed; the
   * options before the command are the n_split - n_rest words after the
   * program. */
  guint n_before = n_split - n_rest;
  GPtrArray *out = g_ptr_array_new ();
  g_ptr_array_add (out, g_strdup (split[0]));
  g_ptr_array_add (out, g_strdup (split[n_before + 1]));
  for (guint i = 1; i <= n_before; i++)
    g_ptr_array_add (out, g_strdup (split[i]));
  for (guint i = n_before + 2; i < n_split; i++)
    g_ptr_array_add (out, g_strdup (split[i]));
  g_ptr_array_add (out, NULL);
  *moved = (char **) g_ptr_array_free (out, FALSE);
  return CLI_EXIT_OK;
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
  if (argc == 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      usage (stdout);
      return CLI_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("streamsim %s\n", STREAMSIM_VERSION);
      return CLI_EXIT_OK;
    }
  /* `streamsim help CMD` is `streamsim CMD --help`. */
  if (strcmp (argv[1], "help") == 0)
    {
      if (argc == 2)
        {
          usage (stdout);
          return CLI_EXIT_OK;
        }
      const CliCommand *command = find_command (argv[2]);
      if (command == NULL)
        return unknown_command (argv[2]);
      if (argc > 3)
        {
          cli_error ("streamsim: help takes one command, not '%s' too", argv[3]);
          return CLI_EXIT_INPUT;
        }
      char *help_argv[] = { argv[2], (char *) "--help", NULL };
      return run_command (command, 2, help_argv);
    }
  g_auto (GStrv) moved = NULL;
  if (argv[1][0] == '-')
    {
      int status = options_after_command (argc, argv, &moved);
      if (moved == NULL)
        return status;
      argv = moved;
      argc = (int) g_strv_length (moved);
    }
  const CliCommand *command = find_command (argv[1]);
  if (command == NULL)
    return unknown_command (argv[1]);
  return run_command (command, argc - 1, argv + 1);
}
