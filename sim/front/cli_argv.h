/* cli_argv.h: command lines rewritten into the form GOption parses: "-dk20" as "-d k20", options before the subcommand moved after it. */
#ifndef CLI_ARGV_H
#define CLI_ARGV_H

#include <glib.h>

/* A copy of `argv` (NULL-ended, argv[0] the program or command) in which a
 * short option that takes a value and has it attached is split from it, as
 * GNU getopt reads it: "-dk20" becomes "-d" "k20", and in a cluster of
 * flags "-qdk20" becomes "-q" "-d" "k20". Which options take values comes
 * from `entries` (NULL-ended by a NULL long_name). Values of options ("-o
 * -dx" keeps "-dx" as -o's value), clusters holding an option `entries` does
 * not know (left for GOption to report), and everything after "--" are
 * copied unchanged. Free with g_strfreev. */
char **cli_argv_split_short (const char *const *argv, const GOptionEntry *entries);

/* Whether the entry of `entries` named `name` ("device", or a one-letter
 * short name) takes a value; FALSE for flags and unknown names. */
gboolean cli_argv_takes_value (const GOptionEntry *entries, const char *name, gboolean is_short);

#endif /* CLI_ARGV_H */
