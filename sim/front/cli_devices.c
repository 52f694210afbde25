/* cli_devices.c: `streamsim devices`: the profiles on the search path and their main parameters. */
#include <stdio.h>
#include "cli.h"
#include "device_name.h"
#include "sim/formats/profile_file.h"

int
cli_devices_main (int argc, char **argv)
{
  gboolean paths = FALSE;
  g_auto (GStrv) device_args = NULL;
  GOptionEntry entries[] = {
    { "paths", 'p', 0, G_OPTION_ARG_NONE, &paths, "Also print the folders searched", NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &device_args,
      CLI_DEVICE_HELP "; list only these (default: every profile found)", "D,..." },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- list device profiles");
  g_option_context_set_summary (context,
                                "Lists the device profiles that --device NAME finds, with the numbers\n"
                                "that matter most for overlap: copy engines, hardware queues\n"
                                "(connections, default/max) and when a stream is assigned to one\n"
                                "(assign: \"create\", round-robin in creation order; \"submit\",\n"
                                "each time it submits with nothing in flight, as on the H100 and\n"
                                "H200), SMs, the concurrent-kernel limit, pinned link bandwidth\n"
                                "each way, what a kernel launch holds the host (launch us) and, for\n"
                                "a profile that gives its host's spread, the launch at its fast and\n"
                                "slow host (spread us; predict and advise run both). Profiles are\n"
                                "searched in $STREAMSIM_PROFILE_PATH\n"
                                "(':'-separated), then the built-in folder.\n"
                                "source: \"calibrated\" for a profile measured on its device by\n"
                                "streamsim-validate --calibrate ([device] calibrated = true),\n"
                                "\"estimate\" for one from data sheets and estimates.");
  g_option_context_add_main_entries (context, entries, NULL);
  g_auto (GStrv) args = NULL;
  if (!cli_parse_options (context, entries, argc, argv, &args))
    return CLI_EXIT_INPUT;
  if (args[1] != NULL)
    {
      cli_error ("streamsim devices: unexpected argument '%s'; devices takes no "
                 "arguments (see --help)",
                 args[1]);
      return CLI_EXIT_INPUT;
    }
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) chosen = device_names_from_args ((const char *const *) device_args, &error);
  if (error != NULL)
    {
      cli_error ("streamsim devices: %s", error->message);
      return CLI_EXIT_INPUT;
    }
  if (paths)
    {
      const char *const *dirs = profile_search_path ();
      for (guint i = 0; dirs[i] != NULL; i++)
        printf ("# searched: %s\n", dirs[i]);
    }
  g_auto (GStrv) names = chosen != NULL ? g_strdupv (chosen) : profile_list ();
  printf ("%-10s %4s %5s %-6s %4s %5s %9s %9s %9s %-11s %-10s  %s\n", "name", "CEs", "conns",
          "assign", "SMs", "kconc", "h2d GB/s", "d2h GB/s", "launch us", "spread us", "source",
          "description");
  int status = CLI_EXIT_OK;
  for (guint i = 0; names[i] != NULL; i++)
    {
      GpuProfile p = { 0 };
      g_autoptr (GError) perr = NULL;
      if (!profile_load (names[i], &p, &perr))
        {
          device_name_suggest (names[i], perr);
          cli_error ("streamsim devices: %s", perr->message);
          status = CLI_EXIT_INPUT;
          continue;
        }
      g_autofree char *spread
        = gpu_profile_has_host_spread (&p)
            ? g_strdup_printf ("%.2f-%.2f", (double) p.host_fast.kernel_launch / 1e3,
                               (double) p.host_slow.kernel_launch / 1e3)
            : g_strdup ("-");
      printf ("%-10s %4u %2u/%-2u %-6s %4u %5u %9.2f %9.2f %9.2f %-11s %-10s  %s\n", names[i],
              p.copy_engines, p.default_connections, p.max_connections,
              p.assign_on_submit ? "submit" : "create", p.sm_count, p.max_concurrent_kernels,
              p.h2d_pinned.bandwidth / 1e9, p.d2h_pinned.bandwidth / 1e9,
              (double) p.host_kernel_launch / 1e3, spread,
              p.calibrated ? "calibrated" : "estimate", p.description != NULL ? p.description : "");
      gpu_profile_clear (&p);
    }
  return status;
}
