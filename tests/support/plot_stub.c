/* plot_stub.c: a stand-in plots/ folder whose gantt.gp writes one of its data files, not a picture. */
#include "plot_stub.h"

#include <glib/gstdio.h>
#include "temp_dir.h"

/* %s: the gantt.gp variable naming the data file to copy */
static const char stub_script[] =
  "if (%s eq '') {\n"
  "  set print output\n"
  "  print 'none'\n"
  "  unset print\n"
  "} else {\n"
  "  ignored = system(sprintf(\"cp '%%s' '%%s'\", %s, output))\n"
  "}\n";

char *
plot_stub_new_copying (const char *variable)
{
  char *dir = g_dir_make_tmp ("streamsim-plot-stub-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_autofree char *script = g_build_filename (dir, "gantt.gp", NULL);
  g_autofree char *text = g_strdup_printf (stub_script, variable, variable);
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  return dir;
}

char *
plot_stub_new (void)
{
  return plot_stub_new_copying ("path");
}

void
plot_stub_remove (char *dir)
{
  g_autofree char *script = g_build_filename (dir, "gantt.gp", NULL);
  g_unlink (script);
  g_rmdir (dir);
  g_free (dir);
}

char *
plot_stub_data_of (const Timeline *t, const Timeline *vs, const PlotOptions *options,
                   const char *variable)
{
  char *scripts = plot_stub_new_copying (variable);
  g_autofree char *dir = temp_dir_new ("plot-stub-out");
  g_autofree char *out = g_build_filename (dir, "t.png", NULL);
  g_setenv ("STREAMSIM_PLOT_DIR", scripts, TRUE);
  g_autoptr (GError) error = NULL;
  gboolean ok = plot_timeline_file (t, vs, options, out, &error);
  g_unsetenv ("STREAMSIM_PLOT_DIR");
  g_assert_no_error (error);
  g_assert_true (ok);
  char *text = NULL;
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  temp_dir_remove (dir);
  plot_stub_remove (scripts);
  return text;
}
