/* cli.h: the streamsim subcommands, each a main() of its own behind sim/main.c.
 *
 * Exit status, for every subcommand: 0 success; 1 the answer is "no" (compare:
 * error over the threshold); 2 bad input (usage, schedule, profile, CSV);
 * 3 a failure of the machine (I/O, a missing tool such as gnuplot). */
#ifndef CLI_H
#define CLI_H

#include <glib.h>

enum
{
  CLI_EXIT_OK = 0,
  CLI_EXIT_NO = 1,
  CLI_EXIT_INPUT = 2,
  CLI_EXIT_SYSTEM = 3,
};

/* argv[0] is the subcommand's name ("predict"). */
int cli_predict_main (int argc, char **argv);
int cli_devices_main (int argc, char **argv);
int cli_compare_main (int argc, char **argv);
int cli_plot_main (int argc, char **argv);
int cli_sweep_main (int argc, char **argv);
int cli_advise_main (int argc, char **argv);
int cli_import_main (int argc, char **argv);

/* The options every subcommand that has them spells the same way (GNU
 * style: "-d k20", "-dk20", "--device=k20"); each subcommand adds its own
 * help text:
 *   -d, --device     device profiles: names in any case, .ini paths, lists
 *   -D, --define     a `let` parameter, NAME=VALUE
 *   -o, --output     the main output; its kind follows its extension
 *   -q, --quiet      nothing on standard output but what was asked for
 *   -j, --jobs       points predicted at a time
 *   -c, --connections CUDA_DEVICE_MAX_CONNECTIONS
 * The first five may also come before the subcommand (main.c). */
#define CLI_DEVICE_HELP                                                                        \
  "Device profiles: names in any case (see `streamsim devices`) or .ini paths; "            \
  "comma-separated or repeated"

/* Parses a subcommand's command line, argv[0] its name, with the options
 * already in `context`, which are `entries` (so that "-dk20" can be split,
 * cli_argv.h). On success *args holds the arguments left, (*args)[0] the
 * name (free with g_strfreev). On an option error prints "streamsim
 * COMMAND: MESSAGE (see streamsim COMMAND --help)" and returns FALSE: exit
 * with CLI_EXIT_INPUT. */
gboolean cli_parse_options (GOptionContext *context, const GOptionEntry *entries, int argc,
                            char **argv, char ***args);

/* cli_parse_options for a command of one input file: `entries` are added to
 * `context` here, and anything but one argument left prints "streamsim
 * COMMAND needs WHAT (see streamsim COMMAND --help)" and returns FALSE. */
gboolean cli_parse_one_input (GOptionContext *context, const GOptionEntry *entries, int argc,
                              char **argv, const char *what, char ***args);

/* Whether -c/--connections (0 to 32) and -j/--jobs (0 to 1024) are in
 * range; else prints why: exit with CLI_EXIT_INPUT. */
gboolean cli_check_counts (gint connections, gint jobs);

/* Prints a message on stderr, followed by a line break, with the control
 * bytes it quotes (a path or a value typed on the command line) written as
 * escapes (printable.h). Every error message of the command line goes
 * through it. */
void cli_error (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* Prints "streamsim: MESSAGE" (cli_error) and returns the exit status that fits
 * the error's domain (CLI_EXIT_INPUT for schedule, profile, timeline and
 * option errors; CLI_EXIT_SYSTEM for file and spawn errors). */
int cli_report_error (const GError *error);

#endif /* CLI_H */
