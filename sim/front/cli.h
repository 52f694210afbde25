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
