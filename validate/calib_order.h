/* calib_order.h: which repeats of a measured schedule share the most common copy order (plain C, tested without a GPU). */
#ifndef CALIB_ORDER_H
#define CALIB_ORDER_H

#include <glib.h>
#include "sim/core/schedule.h"
#include "sim/core/sim_time.h"

/* Chooses the repeats the harness takes its per-op medians over: those in
 * which every copy direction finished its copies in the most common order.
 * `end[r][op]` is the end time of each op in repeat r (other ops are
 * ignored). When the copy engines pick between connections differently
 * from one repeat to the next, a median per op over all repeats would mix
 * the orders and describe no run at all (validate/FINDINGS.md: the seed's
 * three waiting H2D copies each came out "second"). Marks the chosen
 * repeats in `keep` and returns how many there are (at least 1 when
 * reps > 0); ties go to the order seen first. */
int calib_order_choose (const Schedule *sched, const SimTime *const *end, int reps,
                        gboolean *keep);

#endif /* CALIB_ORDER_H */
