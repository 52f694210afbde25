/* profile_search.c: device profiles found by name on a search path, and names told apart from paths. */
#include "profile_search.h"

#include <stdlib.h>
#include <string.h>
#include "data_dir.h"


G_LOCK_DEFINE_STATIC (search_path);

/* Whether `dirs` names `dir` already: a folder searched twice finds nothing
 * more, and would be listed twice where a profile is not found. */
static gboolean
holds_dir (const GPtrArray *dirs, const char *dir)
{
  for (guint i = 0; i < dirs->len; i++)
    if (strcmp (g_ptr_array_index (dirs, i), dir) == 0)
      return TRUE;
  return FALSE;
}
static char **search_path;
static char *search_path_env;

/* Rebuilt when STREAMSIM_PROFILE_PATH changes (tests set it), so a caller
 * must not keep the array across a change of the environment. */
const char *const *
profile_search_path (void)
{
  const char *env = g_getenv ("STREAMSIM_PROFILE_PATH");

  G_LOCK (search_path);
  if (search_path == NULL || g_strcmp0 (env, search_path_env) != 0)
    {
      GPtrArray *dirs = g_ptr_array_new ();
      if (env != NULL)
        {
          char **parts = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);
          for (char **p = parts; *p != NULL; p++)
            if (**p != '\0' && !holds_dir (dirs, *p))
              g_ptr_array_add (dirs, g_strdup (*p));
          g_strfreev (parts);
        }
      const char *shipped = data_dir ("profiles", STREAMSIM_PROFILE_DIR);
      if (!holds_dir (dirs, shipped))
        g_ptr_array_add (dirs, g_strdup (shipped));
      g_ptr_array_add (dirs, NULL);
      g_strfreev (search_path);
      g_free (search_path_env);
      search_path = (char **) g_ptr_array_free (dirs, FALSE);
      search_path_env = g_strdup (env);
    }
  const char *const *result = (const char *const *) search_path;
  G_UNLOCK (search_path);
  return result;
}

gboolean
profile_name_is_valid (const char *name)
{
  if (*name == '\0')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!(g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '_' || *p == '.' || *p == '-'))
      return FALSE;
  return TRUE;
}

gboolean
profile_is_path (const char *name_or_path)
{
  return strchr (name_or_path, '/') != NULL || g_str_has_suffix (name_or_path, ".ini");
}

char *
profile_name_from_path (const char *path)
{
  char *base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".ini") && strlen (base) > 4)
    base[strlen (base) - 4] = '\0';
  return base;
}

char *
profile_find (const char *name)
{
  char *file = g_strconcat (name, ".ini", NULL);
  for (const char *const *dir = profile_search_path (); *dir != NULL; dir++)
    {
      char *path = g_build_filename (*dir, file, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_free (file);
          return path;
        }
      g_free (path);
    }
  g_free (file);
  return NULL;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char **
profile_list (void)
{
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (const char *const *dir = profile_search_path (); *dir != NULL; dir++)
    {
      GDir *d = g_dir_open (*dir, 0, NULL);
      if (d == NULL)
        continue;
      const char *entry;
      while ((entry = g_dir_read_name (d)) != NULL)
        {
          if (!g_str_has_suffix (entry, ".ini"))
            continue;
          char *name = g_strndup (entry, strlen (entry) - 4);
          char *path = g_build_filename (*dir, entry, NULL);
          if (profile_name_is_valid (name) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
            g_hash_table_add (seen, name);
          else
            g_free (name);
          g_free (path);
        }
      g_dir_close (d);
    }

  guint n;
  char **names = (char **) g_hash_table_get_keys_as_array (seen, &n);
  char **result = g_new (char *, n + 1);
  for (guint i = 0; i < n; i++)
    result[i] = g_strdup (names[i]);
  result[n] = NULL;
  g_free (names);
  g_hash_table_unref (seen);
  qsort (result, n, sizeof *result, compare_names);
  return result;
}

char *
profile_not_found_message (const char *name)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "no device profile '%s' (looked for %s.ini in ", name, name);
  const char *const *dirs = profile_search_path ();
  for (const char *const *dir = dirs; *dir != NULL; dir++)
    g_string_append_printf (s, "%s%s", dir == dirs ? "" : ", ", *dir);
  g_string_append (s, "); known: ");
  char **known = profile_list ();
  if (known[0] == NULL)
    g_string_append (s, "none");
  for (char **k = known; *k != NULL; k++)
    g_string_append_printf (s, "%s%s", k == known ? "" : ", ", *k);
  g_strfreev (known);
  return g_string_free (s, FALSE);
}
