/* host_spread.c: a schedule run at both ends of its profile's host spread (host_spread.h). */
#include "host_spread.h"

#include "engines/eng_sim.h"
#include "sim/formats/units.h"

typedef struct
{
  GpuProfile profile;
  const Schedule *sched;
  guint connections;
  SimTime makespan;
} EndRun;

static gpointer
run_end (gpointer data)
{
  EndRun *run = data;
  EngSim *sim = eng_sim_new (&run->profile, run->sched, run->connections, NULL);
  g_assert (sim != NULL);
  eng_sim_run (sim);
  run->makespan = eng_sim_makespan (sim);
  eng_sim_free (sim);
  return NULL;
}

/* The two ends run at once, the fast one on a thread of its own: a run
 * reads the schedule and writes only its own EngSim. `predict -d h100` of
 * a 10^6-op generated schedule (streamsim-bench --emit --ops 1000000) on two
 * cores: 1.33 s and 232 MB so, 1.85 s and 185 MB one after the other, 0.79 s
 * and 156 MB on a profile without [spread]. */
gboolean
host_spread_makespans (const GpuProfile *profile, const Schedule *sched, guint connections,
                       SimTime makespan[2])
{
  if (!gpu_profile_has_host_spread (profile))
    return FALSE;
  EndRun runs[2];
  for (guint end = GPU_HOST_FAST; end <= GPU_HOST_SLOW; end++)
    {
      gpu_profile_at_host_speed (&runs[end].profile, profile, (GpuHostEnd) end);
      runs[end].sched = sched;
      runs[end].connections = connections;
    }
  GThread *fast = g_thread_new ("host-spread", run_end, &runs[GPU_HOST_FAST]);
  run_end (&runs[GPU_HOST_SLOW]);
  g_thread_join (fast);
  for (guint end = GPU_HOST_FAST; end <= GPU_HOST_SLOW; end++)
    {
      makespan[end] = runs[end].makespan;
      gpu_profile_clear (&runs[end].profile);
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
