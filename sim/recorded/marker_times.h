/* marker_times.h: when records and waits completed, derived from the measured times of their streams' other ops. */
#ifndef MARKER_TIMES_H
#define MARKER_TIMES_H

#include "sim/core/schedule.h"
#include "sim/core/sim_time.h"

/* Records and waits put nothing on the GPU that a clock could time without
 * changing the run (a timing event beside each would add work to the
 * queues), so their times are derived. A record completes once its stream's
 * earlier work has (the legacy default stream's too, for blocking streams;
 * every blocking stream's, for the default stream), and not before its call;
 * a wait passes once that holds and the record it waits for has completed.
 * `issue`, `start` and `end` hold one time per op of `sched`; an op whose end
 * is negative (not measured) and is a record or a wait gets its start and
 * end set; the others are read only. Syncs do not count as stream work. */
void marker_times_derive (const Schedule *sched, const SimTime *issue, SimTime *start,
                          SimTime *end);

#endif /* MARKER_TIMES_H */
