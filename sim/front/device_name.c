/* device_name.c: device names matched case-insensitively, lists split, typos answered with the nearest profile. */
#include "device_name.h"

#include "sim/core/near_name.h"
#include "sim/formats/profile_file.h"

char *
device_name_resolve (const char *typed)
{
  g_return_val_if_fail (typed != NULL, NULL);
  if (profile_is_path (typed))
    return g_strdup (typed);
  /* Profile names are lower case (profile_name_is_valid), so at most one
   * profile matches a name in any case. */
  g_autofree char *lower = g_ascii_strdown (typed, -1);
  if (profile_name_is_valid (lower))
    {
      g_autofree char *found = profile_find (lower);
      if (found != NULL)
        return g_steal_pointer (&lower);
    }
  return g_strdup (typed);
}

void
device_name_suggest (const char *typed, GError *error)
{
  g_return_if_fail (typed != NULL);
  if (error == NULL || profile_is_path (typed))
    return;
  g_autofree char *resolved = device_name_resolve (typed);
  if (profile_name_is_valid (resolved))
    {
      g_autofree char *found = profile_find (resolved);
      if (found != NULL)
        return;
    }
  g_auto (GStrv) known = profile_list ();
  const char *near = near_name (typed, (const char *const *) known);
  if (near == NULL)
    return;
  char *message = g_strdup_printf ("%s; did you mean '%s'?", error->message, near);
  g_free (error->message);
  error->message = message;
}

gboolean
device_name_check (const char *typed, GError **error)
{
  g_return_val_if_fail (typed != NULL, FALSE);
  g_autofree char *resolved = device_name_resolve (typed);
  if (profile_is_path (resolved))
    {
      if (g_file_test (resolved, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  else if (profile_name_is_valid (resolved))
    {
      g_autofree char *found = profile_find (resolved);
      if (found != NULL)
        return TRUE;
    }
  /* profile_load refuses such a name or path before it reads a byte, with
   * the message it gives wherever a profile is named. */
  GpuProfile none;
  GError *local = NULL;
  if (profile_load (resolved, &none, &local))
    {
      /* the file appeared since */
      gpu_profile_clear (&none);
      return TRUE;
    }
  device_name_suggest (typed, local);
  g_propagate_error (error, local);
  return FALSE;
}

char **
device_names_from_args (const char *const *args, GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      g_auto (GStrv) parts = g_strsplit (args[i], ",", -1);
      for (guint k = 0; parts[k] != NULL; k++)
        {
          const char *name = g_strstrip (parts[k]);
          if (*name == '\0')
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--device %s: empty device name in the list", args[i]);
              return NULL;
            }
          g_ptr_array_add (names, device_name_resolve (name));
        }
    }
  if (names->len == 0)
    return NULL;
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}
