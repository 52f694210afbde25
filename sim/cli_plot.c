/* cli_plot.c: placeholder until `streamsim plot` lands. */
#include <stdio.h>
#include "cli.h"

int
cli_plot_main (int argc, char **argv)
{
  (void) argc;
  (void) argv;
  fprintf (stderr, "streamsim: 'plot' is not implemented yet\n");
  return CLI_EXIT_SYSTEM;
}
