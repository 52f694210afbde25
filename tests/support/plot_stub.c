/* plot_stub.c: a stand-in plots/ folder whose gantt.gp writes its critical-path data, not a picture. */
#include "plot_stub.h"

#include <glib/gstdio.h>

static const char stub_script[] =
  "if (path eq '') {\n"
  "  set print output\n"
  "  print 'none'\n"
  "  unset print\n"
  "} else {\n"
  "  ignored = system(sprintf(\"cp '%s' '%s'\", path, output))\n"
  "}\n";

char *
plot_stub_new (void)
{
  char *dir = g_dir_make_tmp ("streamsim-plot-stub-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_autofree char *script = g_build_filename (dir, "gantt.gp", NULL);
  g_assert_true (g_file_set_contents (script, stub_script, -1, NULL));
  return dir;
}

void
plot_stub_remove (char *dir)
{
  g_autofree char *script = g_build_filename (dir, "gantt.gp", NULL);
  g_unlink (script);
  g_rmdir (dir);
  g_free (dir);
}
