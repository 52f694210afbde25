/* cli_options.c: a subcommand's options parsed the one way every subcommand parses them. */
#include "cli.h"
#include "cli_argv.h"

gboolean
cli_parse_options (GOptionContext *context, const GOptionEntry *entries, int argc, char **argv,
                   char ***args)
{
  g_return_val_if_fail (context != NULL && argc >= 1 && argv != NULL && args != NULL, FALSE);
  g_autoptr (GPtrArray) given = g_ptr_array_new ();
  for (int i = 0; i < argc; i++)
    g_ptr_array_add (given, argv[i]);
  g_ptr_array_add (given, NULL);
  g_auto (GStrv) split = cli_argv_split_short ((const char *const *) given->pdata, entries);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse_strv (context, &split, &error))
    {
      cli_error ("streamsim %s: %s (see streamsim %s --help)", argv[0], error->message, argv[0]);
      return FALSE;
    }
  *args = g_steal_pointer (&split);
  return TRUE;
}

gboolean
cli_parse_one_input (GOptionContext *context, const GOptionEntry *entries, int argc,
                     char **argv, const char *what, char ***args)
{
  g_option_context_add_main_entries (context, entries, NULL);
  if (!cli_parse_options (context, entries, argc, argv, args))
    return FALSE;
  if (g_strv_length (*args) != 2)
    {
      cli_error ("streamsim: %s needs %s (see streamsim %s --help)", argv[0], what, argv[0]);
      g_clear_pointer (args, g_strfreev);
      return FALSE;
    }
  return TRUE;
}

gboolean
cli_check_counts (gint connections, gint jobs)
{
  if (connections < 0 || connections > 32)
    {
      cli_error ("streamsim: --connections must be 1 to 32 (0: the default), not %d",
                 connections);
      return FALSE;
    }
  if (jobs < 0 || jobs > 1024)
    {
      cli_error ("streamsim: --jobs must be 1 to 1024 (0: one per processor), not %d", jobs);
      return FALSE;
    }
  return TRUE;
}
