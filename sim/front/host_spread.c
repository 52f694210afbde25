/* host_spread.c: a schedule run at both ends of its profile's host spread (host_spread.h). */
#include "host_spread.h"

#include "engines/eng_sim.h"
#include "sim/formats/units.h"

gboolean
host_spread_makespans (const GpuProfile *profile, const Schedule *sched, guint connections,
                       SimTime makespan[2])
{
  if (!gpu_profile_has_host_spread (profile))
    return FALSE;
  for (guint end = GPU_HOST_FAST; end <= GPU_HOST_SLOW; end++)
    {
      GpuProfile at;
      gpu_profile_at_host_speed (&at, profile, (GpuHostEnd) end);
      EngSim *sim = eng_sim_new (&at, sched, connections, NULL);
      g_assert (sim != NULL);
      eng_sim_run (sim);
      makespan[end] = eng_sim_makespan (sim);
      eng_sim_free (sim);
      gpu_profile_clear (&at);
    }
  return TRUE;
}

char *
host_spread_text (const GpuProfile *profile, const SimTime makespan[2])
{
  g_autofree char *fast = units_format_time (makespan[GPU_HOST_FAST]);
  g_autofree char *slow = units_format_time (makespan[GPU_HOST_SLOW]);
  return g_strdup_printf ("%s on %s's fast host, %s on its slow one", fast,
                          gpu_profile_name (profile), slow);
}
