/* eng_limits.h: refuses, before a run, a schedule whose simulated time could overflow 64-bit nanoseconds. */
#ifndef ENG_LIMITS_H
#define ENG_LIMITS_H

#include <glib.h>
#include "eng_profile.h"
#include "../sim/schedule.h"

/* The most simulated time a run may reach: 2^62 ns, about 146 years, half
 * of what SimTime holds, so that a time plus any one duration or latency
 * still fits. */
#define ENG_LIMITS_MAX_TIME ((SimTime) 1 << 62)

/* Checks that no run of `sched` on `profile` can pass ENG_LIMITS_MAX_TIME,
 * from an upper bound on the makespan: every op's longest possible duration
 * plus every cost and latency it can incur, summed as if nothing overlapped.
 * Fails with ENG_ERROR_UNSUPPORTED and "file:line:column: " naming the op
 * that is too long, or the op by which the sum passes the limit. Call it on
 * a schedule whose kernels eng_kernel_prepare() accepted. */
gboolean eng_limits_check (const EngProfile *profile, const Schedule *sched, GError **error);

#endif /* ENG_LIMITS_H */
