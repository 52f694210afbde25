/* path_links.h: checks of the links a critical path follows (eng_sim_path_link), for the fuzz target and the regression replay. */
#ifndef PATH_LINKS_H
#define PATH_LINKS_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "engines/eng_sim.h"
#include "sim/core/schedule.h"

/* NULL when, from every op of a finished run, the links end at an op with
 * no link, each going to an op that started no later than the op it leaves
 * started (a synchronize: returned), and every host link holds on the
 * times: an op issued after call J was issued when J returned plus the
 * costs of the calls in between. Otherwise a sentence saying which op
 * broke which; free it with g_free. */
char *path_links_check (const EngSim *sim, const Schedule *sched, const GpuProfile *profile);

#endif
