/* eng_limits.h: refuses, before a run, a schedule whose simulated time could overflow 64-bit nanoseconds. */
#ifndef ENG_LIMITS_H
#define ENG_LIMITS_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "sim/core/schedule.h"

/* The most simulated time a run may reach: 2^62 ns, about 146 years, half
 * of what SimTime holds, so that a time plus any one duration or latency
 * still fits. */
#define ENG_LIMITS_MAX_TIME ((SimTime) 1 << 62)

/* Checks that no run of a schedule on a profile can pass
 * ENG_LIMITS_MAX_TIME, from an upper bound on the makespan: every op's
 * longest possible duration plus every cost and latency it can incur,
 * summed as if nothing overlapped. Op by op, so that eng_sim_new does it in
 * its one pass over the ops: init, then add every op in order. */
typedef struct
{
  double per_op;      /* the costs and latencies any op may pay */
  double sum;         /* the bound so far */
  GArray *list_times; /* borrowed: gpu_profile_kernel_time's cache of time= lists */
} EngLimits;

/* `list_times` is the cache gpu_profile_kernel_time() fills, shared with
 * the kernel engine (eng_sim_new passes sim->list_time), so that each list
 * is looked up once for both; it must outlive `limits`. */
void eng_limits_init (EngLimits *limits, const GpuProfile *profile, GArray *list_times);
/* Adds `op`; fails with ENG_ERROR_UNSUPPORTED and "file:line:column: " when
 * the op alone is too long or the sum passes the limit with it. Call it on a
 * kernel after eng_kernel_prepare() accepted it. */
gboolean eng_limits_add (EngLimits *limits, const GpuProfile *profile, const Schedule *sched,
                         const SchedOp *op, GError **error);

#endif /* ENG_LIMITS_H */
