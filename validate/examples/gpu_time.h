// gpu_time.h: the GPU's %globaltimer, for the measurement programs beside it
// whose kernels stamp their own blocks (graph_probe.cu, kernel_trace_probe.cu)
// or spin for a given time (graph_nodes_probe.cu, graph_update_probe.cu).
#ifndef GPU_TIME_H
#define GPU_TIME_H

// Nanoseconds on the GPU's global timer (32 ns steps on an H100 and an H200).
__device__ static inline unsigned long long
globaltimer ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Returns `ns` nanoseconds after it was called, on the global timer.
__device__ static inline void
spin_for (unsigned long long ns)
{
  unsigned long long t0 = globaltimer ();
  while (globaltimer () - t0 < ns)
    ;
}

// One thread spins `spin_ns` and stamps its end in *end (mapped host memory,
// read against the host's clock through clock_tie.h: sync_probe.cu, poll_probe.cu).
__global__ static void
spin_and_stamp (unsigned long long spin_ns, volatile unsigned long long *end)
{
  spin_for (spin_ns);
  *end = globaltimer ();
}

#endif /* GPU_TIME_H */
