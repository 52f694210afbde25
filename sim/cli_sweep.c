/* cli_sweep.c: placeholder until `streamsim sweep` lands. */
#include <stdio.h>
#include "cli.h"

int
cli_sweep_main (int argc, char **argv)
{
  (void) argc;
  (void) argv;
  fprintf (stderr, "streamsim: 'sweep' is not implemented yet\n");
  return CLI_EXIT_SYSTEM;
}
