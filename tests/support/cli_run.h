/* cli_run.h: the streamsim command line run as a child process, for tests of what a user sees. */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include <glib.h>

/* Runs the streamsim binary the tests were built with, `args` (NULL-ended)
 * after its name, in the folder `dir` (NULL: this one), with standard input
 * read from the file `in` (NULL: /dev/null). *out and *err receive its
 * standard output and error (NULL: discarded). Returns its exit status; a
 * child that does not exit (a crash) fails the calling test. */
int cli_run (const char *dir, const char *const *args, const char *in, char **out, char **err);

/* The same for any program: `argv` (NULL-ended) starts with the program,
 * looked up in PATH when it has no '/'. */
int cli_run_argv (const char *dir, const char *const *argv, const char *in, char **out,
                  char **err);

#endif /* CLI_RUN_H */
