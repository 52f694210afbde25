/* picture.c: gnuplot present or the test skipped; a PNG's size read from its header. */
#include "picture.h"

gboolean
picture_need_gnuplot (void)
{
  g_autofree char *gnuplot = g_find_program_in_path ("gnuplot");
  if (gnuplot == NULL)
    {
      g_test_skip ("gnuplot is not on PATH (Debian: apt-get install gnuplot-nox)");
      return FALSE;
    }
  return TRUE;
}

void
picture_assert_png_size (const char *path, guint width, guint height)
{
  g_autofree char *data = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  g_assert_cmpuint (length, >, 24);
  static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_assert_cmpmem (data, 8, signature, 8);
  g_assert_cmpmem (data + 12, 4, "IHDR", 4);
  const unsigned char *p = (const unsigned char *) data;
  guint w = ((guint) p[16] << 24) | ((guint) p[17] << 16) | ((guint) p[18] << 8) | p[19];
  guint h = ((guint) p[20] << 24) | ((guint) p[21] << 16) | ((guint) p[22] << 8) | p[23];
  g_assert_cmpuint (w, ==, width);
  g_assert_cmpuint (h, ==, height);
}
