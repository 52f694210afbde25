/* sim_time.h: simulated time, an integer count of nanoseconds. */
#ifndef SIM_TIME_H
#define SIM_TIME_H

#include <stdint.h>

/* Simulated time and durations, in nanoseconds. Signed so that differences
 * are natural; every value the simulator produces is >= 0. The core never
 * reads a wall clock. */
typedef int64_t SimTime;

#define SIM_TIME_NEVER INT64_MAX
#define SIM_NS(x) ((SimTime) (x))
#define SIM_US(x) ((SimTime) (x) * 1000)
#define SIM_MS(x) ((SimTime) (x) * 1000000)
#define SIM_S(x) ((SimTime) (x) * 1000000000)

static inline SimTime
sim_time_max (SimTime a, SimTime b)
{
  return a > b ? a : b;
}

static inline SimTime
sim_time_min (SimTime a, SimTime b)
{
  return a < b ? a : b;
}

#endif /* SIM_TIME_H */
