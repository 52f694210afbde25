/* plot_script.c: a gnuplot script of plots/ run on data files, its picture renamed into place only when it is whole. */
#include "plot_script.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/formats/data_dir.h"
#include "sim/formats/output_file.h"

#ifndef STREAMSIM_PLOT_DIR
#define STREAMSIM_PLOT_DIR "plots"
#endif

G_DEFINE_QUARK (plot-error-quark, plot_error)

const char *
plot_script_dir (void)
{
  const char *dir = g_getenv ("STREAMSIM_PLOT_DIR");
  return dir != NULL && *dir != '\0' ? dir : data_dir ("plots", STREAMSIM_PLOT_DIR);
}

void
plot_var_string (GString *commands, const char *name, const char *value)
{
  g_return_if_fail (commands != NULL && name != NULL);
  g_string_append_printf (commands, "%s='", name);
  /* In a single-quoted gnuplot string only the quote itself is special, and
   * it is written twice. */
  for (const char *p = value != NULL ? value : ""; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append (commands, "''");
      else if ((unsigned char) *p < 0x20 || *p == 0x7f)
        g_string_append_c (commands, ' ');
      else
        g_string_append_c (commands, *p);
    }
  g_string_append (commands, "';");
}

void
plot_var_int (GString *commands, const char *name, gint64 value)
{
  g_return_if_fail (commands != NULL && name != NULL);
  g_string_append_printf (commands, "%s=%" G_GINT64_FORMAT ";", name, value);
}

static const char *
plot_terminal_for (const char *output)
{
  const char *dot = strrchr (output, '.');
  if (dot == NULL || strchr (dot, '/') != NULL)
    return NULL;
  if (g_ascii_strcasecmp (dot, ".png") == 0)
    return "png";
  if (g_ascii_strcasecmp (dot, ".svg") == 0)
    return "svg";
  return NULL;
}

/* gnuplot prints each error with the offending line and a caret; the last
 * few lines are the useful part. */
static char *
plot_stderr_tail (const char *text)
{
  if (text == NULL || *text == '\0')
    return g_strdup ("(no message)");
  char *copy = g_strstrip (g_strdup (text));
  gsize len = strlen (copy);
  if (len > 1500)
    {
      char *tail = g_strdup_printf ("...%s", copy + len - 1500);
      g_free (copy);
      return tail;
    }
  return copy;
}

gboolean
plot_check_output (const char *output, GError **error)
{
  g_return_val_if_fail (output != NULL, FALSE);
  if (plot_terminal_for (output) != NULL)
    return TRUE;
  g_set_error (error, PLOT_ERROR, PLOT_ERROR_INPUT,
               "%s: unknown picture type; the output's name must end in .png or .svg", output);
  return FALSE;
}

gboolean
plot_run_script (const char *script, const char *commands, guint width, guint height,
                 const char *output, GError **error)
{
  g_return_val_if_fail (script != NULL && output != NULL, FALSE);

  if (!plot_check_output (output, error))
    return FALSE;
  const char *term = plot_terminal_for (output);
  g_autofree char *script_path = g_build_filename (plot_script_dir (), script, NULL);
  if (!g_file_test (script_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO,
                   "%s: plot script not found (set STREAMSIM_PLOT_DIR to a folder holding "
                   "the .gp scripts: the source tree's plots/ or an installed "
                   "share/streamsim/plots)",
                   script_path);
      return FALSE;
    }
  const char *program = g_getenv ("STREAMSIM_GNUPLOT");
  if (program == NULL || *program == '\0')
    program = "gnuplot";
  g_autofree char *gnuplot = g_find_program_in_path (program);
  if (gnuplot == NULL)
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_GNUPLOT,
                   "%s: gnuplot not found; install it (Debian: apt-get install "
                   "gnuplot-nox) or name it with STREAMSIM_GNUPLOT",
                   program);
      return FALSE;
    }

  /* The temporary file sits beside the output so that the rename stays
   * within one file system; it starts with a dot to stay out of the way. */
  g_autofree char *dir = g_path_get_dirname (output);
  g_autofree char *base = g_path_get_basename (output);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX", base);
  g_autofree char *temp = g_build_filename (dir, name, NULL);
  int fd = g_mkstemp (temp);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO, "%s: cannot write a file in %s: %s",
                   output, dir, g_strerror (saved));
      return FALSE;
    }
  g_close (fd, NULL);
  g_chmod (temp, 0644);

  g_autoptr (GString) all = g_string_new (commands != NULL ? commands : "");
  plot_var_string (all, "term", term);
  plot_var_string (all, "output", temp);
  plot_var_int (all, "width", width);
  plot_var_int (all, "height", height);

  const char *argv[] = { gnuplot, "-d", "-e", all->str, script_path, NULL };
  g_autofree char *err_text = NULL;
  gint status = 0;
  GError *spawn_error = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_STDIN_FROM_DEV_NULL | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, &err_text, &status, &spawn_error))
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "%s: cannot run gnuplot: %s",
                   gnuplot, spawn_error->message);
      g_error_free (spawn_error);
      g_unlink (temp);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_autofree char *tail = plot_stderr_tail (err_text);
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "gnuplot failed on %s: %s",
                   script_path, tail);
      g_unlink (temp);
      return FALSE;
    }
  GStatBuf st;
  if (g_stat (temp, &st) != 0 || st.st_size == 0)
    {
      g_autofree char *tail = plot_stderr_tail (err_text);
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_GNUPLOT,
                   "gnuplot wrote no picture from %s: %s", script_path, tail);
      g_unlink (temp);
      return FALSE;
    }
  /* A rename, or a copy into /dev/null, a pipe or a link (output_file.c). */
  GError *commit_error = NULL;
  if (!output_file_commit (temp, output, &commit_error))
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO, "%s: %s", output, commit_error->message);
      g_error_free (commit_error);
      return FALSE;
    }
  return TRUE;
}
