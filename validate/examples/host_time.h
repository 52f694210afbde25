// host_time.h: the host clock and a median, for the measurement programs
// beside it that time CUDA calls from the host (pageable_probe.cu,
// graph_probe.cu, kernel_trace_probe.cu).
#ifndef HOST_TIME_H
#define HOST_TIME_H

#include <algorithm>
#include <chrono>
#include <vector>

// Microseconds on the steady clock.
static inline double
now_us ()
{
  return std::chrono::duration<double, std::micro> (
           std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

// The median of `v` (the upper one of an even count).
static inline double
median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  return v[v.size () / 2];
}

#endif /* HOST_TIME_H */
