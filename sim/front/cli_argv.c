/* cli_argv.c: attached short-option values split off, as getopt would read them, before GOption parses. */
#include "cli_argv.h"

#include <string.h>

static const GOptionEntry *
cli_argv_entry (const GOptionEntry *entries, const char *name, gboolean is_short)
{
  for (const GOptionEntry *e = entries; e != NULL && e->long_name != NULL; e++)
    if (is_short ? e->short_name == name[0] && name[1] == '\0'
                 : strcmp (e->long_name, name) == 0)
      return e;
  return NULL;
}

gboolean
cli_argv_takes_value (const GOptionEntry *entries, const char *name, gboolean is_short)
{
  g_return_val_if_fail (name != NULL, FALSE);
  const GOptionEntry *e = cli_argv_entry (entries, name, is_short);
  if (e == NULL || e->arg == G_OPTION_ARG_NONE)
    return FALSE;
  return !(e->arg == G_OPTION_ARG_CALLBACK
           && (e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG)) != 0);
}

/* A cluster "-abc" (without the dash: "abc") into `out` as getopt reads
 * it; returns TRUE when its last option still waits for its value in the
 * next argument. A cluster with a letter `entries` does not know is copied
 * whole. */
static gboolean
cli_argv_cluster (const char *arg, const GOptionEntry *entries, GPtrArray *out)
{
  const char *letters = arg + 1;
  const char *value_letter = NULL;
  for (const char *c = letters; *c != '\0' && value_letter == NULL; c++)
    {
      char name[2] = { *c, '\0' };
      if (cli_argv_entry (entries, name, TRUE) == NULL)
        {
          g_ptr_array_add (out, g_strdup (arg));
          return FALSE;
        }
      if (cli_argv_takes_value (entries, name, TRUE))
        value_letter = c;
    }
  /* Flags alone, or one value-taking option alone: GOption reads them as
   * they are. */
  if (value_letter == NULL || (value_letter == letters && value_letter[1] == '\0'))
    {
      g_ptr_array_add (out, g_strdup (arg));
      return value_letter != NULL;
    }
  for (const char *c = letters; c <= value_letter; c++)
    g_ptr_array_add (out, g_strdup_printf ("-%c", *c));
  if (value_letter[1] == '\0')
    return TRUE;
  g_ptr_array_add (out, g_strdup (value_letter + 1));
  return FALSE;
}

char **
cli_argv_split_short (const char *const *argv, const GOptionEntry *entries)
{
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  GPtrArray *out = g_ptr_array_new ();
  g_ptr_array_add (out, g_strdup (argv[0]));
  gboolean value_next = FALSE, options_ended = FALSE;
  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];
      if (value_next || options_ended || arg[0] != '-' || arg[1] == '\0')
        {
          g_ptr_array_add (out, g_strdup (arg));
          value_next = FALSE;
          continue;
        }
      if (strcmp (arg, "--") == 0)
        {
          g_ptr_array_add (out, g_strdup (arg));
          options_ended = TRUE;
          continue;
        }
      if (arg[1] == '-')
        {
          g_ptr_array_add (out, g_strdup (arg));
          value_next = strchr (arg, '=') == NULL && cli_argv_takes_value (entries, arg + 2, FALSE);
          continue;
        }
      value_next = cli_argv_cluster (arg, entries, out);
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}
