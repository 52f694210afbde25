/* cli_compare.c: placeholder until `streamsim compare` lands. */
#include <stdio.h>
#include "cli.h"

int
cli_compare_main (int argc, char **argv)
{
  (void) argc;
  (void) argv;
  fprintf (stderr, "streamsim: 'compare' is not implemented yet\n");
  return CLI_EXIT_SYSTEM;
}
