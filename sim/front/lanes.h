/* lanes.h: first-fit packing of time intervals into lanes where none overlap. */
#ifndef LANES_H
#define LANES_H

#include <glib.h>
#include "sim/core/sim_time.h"

/* Assigns each interval [start[i], end[i]) to a lane so that no two intervals
 * in one lane overlap; intervals that only touch (one ends where the next
 * starts) share a lane. Intervals are taken by start time (ties by index) and
 * each goes to the lowest-numbered lane that is free, which uses as few lanes
 * as the largest number of intervals open at one instant. An end before its
 * start counts as a zero-length interval. Writes lane[i] for every i and
 * returns the number of lanes used (0 when n is 0). */
guint lanes_assign (const SimTime *start, const SimTime *end, gsize n, guint *lane);

#endif /* LANES_H */
