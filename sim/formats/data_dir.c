/* data_dir.c: the folders of data streamsim reads at run time, found next to the program (data_dir.h). */
#include "data_dir.h"

#include <glib.h>

/* The data folder relative to the programs' folder, from GNUInstallDirs
 * (CMakeLists.txt): "../share/streamsim" unless the install dirs were changed. */
#ifndef STREAMSIM_DATA_FROM_BIN
#define STREAMSIM_DATA_FROM_BIN "../share/streamsim"
#endif

G_LOCK_DEFINE_STATIC (found);
static GHashTable *found; /* subfolder -> the folder chosen, both owned */

static char *
installed (const char *subfolder)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  if (self == NULL)
    return NULL;
  g_autofree char *bin = g_path_get_dirname (self);
  g_autofree char *dir = g_build_filename (bin, STREAMSIM_DATA_FROM_BIN, subfolder, NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return g_canonicalize_filename (dir, NULL);
}

const char *
data_dir (const char *subfolder, const char *built_in)
{
  G_LOCK (found);
  if (found == NULL)
    found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *dir = g_hash_table_lookup (found, subfolder);
  if (dir == NULL)
    {
      char *chosen = installed (subfolder);
      if (chosen == NULL)
        chosen = g_strdup (built_in);
      g_hash_table_insert (found, g_strdup (subfolder), chosen);
      dir = chosen;
    }
  G_UNLOCK (found);
  return dir;
}
