/* host_spread.h: a schedule's makespan at the fast and the slow end of its profile's host ([spread]).
 *
 * The machines a profile stands for do not all run the host alike: lent
 * cloud machines run each process's host at one of two speeds, and a launch,
 * a cudaMemcpyAsync and a pageable copy cost more together on the slow one
 * (validate/FINDINGS.md, "The host's two speeds"). A profile may give both
 * ends (gpu_profile_at_host_speed); a host-bound schedule's makespan then
 * lies between the two runs here, and an advised change that gains at one
 * end may lose at the other. */
#ifndef HOST_SPREAD_H
#define HOST_SPREAD_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "sim/core/schedule.h"
#include "sim/core/sim_time.h"

/* The makespan of `sched` issued as it is, on `connections` (0: the
 * schedule's, as eng_sim_new takes it), at each end of `profile`'s spread:
 * makespan[GPU_HOST_FAST] and makespan[GPU_HOST_SLOW]. FALSE, and nothing
 * run, where the profile gives no spread. The schedule passed eng_sim_new's
 * checks on `profile` already (the spread changes no limit). */
gboolean host_spread_makespans (const GpuProfile *profile, const Schedule *sched,
                                guint connections, SimTime makespan[2]);

/* "on h200's fast host 1.2 ms, its slow one 1.5 ms" for the summaries;
 * newly allocated. */
char *host_spread_text (const GpuProfile *profile, const SimTime makespan[2]);

#endif
