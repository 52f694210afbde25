/* cli_run.c: streamsim as a child process (see cli_run.h). */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli_run.h"

/* In the child, before exec: standard input from the file (open and dup2
 * are safe to call there). */
static void
stdin_from_file (gpointer path)
{
  int fd = open (path, O_RDONLY);
  if (fd < 0 || dup2 (fd, 0) < 0)
    _exit (127);
  close (fd);
}

int
cli_run_argv (const char *dir, const char *const *argv, const char *in, char **out, char **err)
{
  GSpawnFlags flags = G_SPAWN_SEARCH_PATH | (out == NULL ? G_SPAWN_STDOUT_TO_DEV_NULL : 0)
                      | (err == NULL ? G_SPAWN_STDERR_TO_DEV_NULL : 0);
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (dir, (char **) argv, NULL, flags,
                               in != NULL ? stdin_from_file : NULL, (gpointer) in, out, err,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

int
cli_run (const char *dir, const char *const *args, const char *in, char **out, char **err)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) STREAMSIM_BIN);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  int status = cli_run_argv (dir, (const char *const *) argv->pdata, in, out, err);
  g_ptr_array_free (argv, TRUE);
  return status;
}
