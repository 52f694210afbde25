/* temp_dir.c: a test's scratch folder (see temp_dir.h). */
#include <glib/gstdio.h>
#include "temp_dir.h"

char *
temp_dir_new (const char *prefix)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *pattern = g_strdup_printf ("%s-XXXXXX", prefix);
  char *dir = g_dir_make_tmp (pattern, &error);
  g_assert_no_error (error);
  return dir;
}

void
temp_dir_write (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

void
temp_dir_remove (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

void
temp_dir_remove_empty (const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  const char *left = g_dir_read_name (d);
  if (left != NULL)
    g_error ("%s should be empty, but holds %s", dir, left);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}
