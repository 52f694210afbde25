// clock_tie.h: the GPU's %globaltimer tied to the host's steady clock, for the
// measurement programs beside it that set GPU stamps against host times
// (graph_branches_probe.cu, sync_probe.cu).
//
// A one-thread kernel keeps writing %globaltimer to mapped host memory and the
// host reads it 2000 times; the smallest (host time after the read) - (value
// read) is the offset. It overstates the offset by the write's latency over
// PCIe (under 1 us), so GPU stamps come out that much late against the host's.
#ifndef CLOCK_TIE_H
#define CLOCK_TIE_H

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"

// Nanoseconds on the host's steady clock.
static inline long long
now_ns ()
{
  return std::chrono::duration_cast<std::chrono::nanoseconds> (
           std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

// Writes %globaltimer to mapped host memory until told to stop (or 0.2 s).
__global__ void
clock_ticker (volatile unsigned long long *tick, volatile int *stop)
{
  unsigned long long t0 = globaltimer (), t;
  do
    {
      t = globaltimer ();
      *tick = t;
    }
  while (!*stop && t - t0 < 200000000ull);
}

// host ns = globaltimer + the result, the ticker run in `stream` on `tick`
// and `stop` (mapped host memory); *window is the best read's span.
static long long
clock_tie (cudaStream_t stream, volatile unsigned long long *tick, volatile int *stop,
           long long *window)
{
  const int samples = 2000;
  *tick = 0;
  *stop = 0;
  clock_ticker<<<1, 1, 0, stream>>> (tick, stop);
  CHECK (cudaGetLastError ());
  long long waited_from = now_ns ();
  while (*tick == 0)
    if (now_ns () - waited_from > 10000000000ll)
      {
        std::fprintf (stderr, "the clock kernel did not start within 10 s\n");
        std::exit (1);
      }
  long long best = 0;
  *window = 0;
  for (int i = 0; i < samples; i++)
    {
      long long h1 = now_ns ();
      long long g = (long long) *tick;
      long long h2 = now_ns ();
      if (i == 0 || h2 - g < best)
        {
          best = h2 - g;
          *window = h2 - h1;
        }
    }
  *stop = 1;
  CHECK (cudaStreamSynchronize (stream));
  return best;
}

// The same with a ticker stream and mapped words of its own; prints
// "clock OFFSET WINDOW" and returns the offset.
static long long
clock_tie_printed ()
{
  cudaStream_t stream;
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  unsigned long long *tick;
  int *stop;
  CHECK (cudaHostAlloc (&tick, sizeof *tick, cudaHostAllocMapped));
  CHECK (cudaHostAlloc (&stop, sizeof *stop, cudaHostAllocMapped));
  long long window = 0;
  long long offset = clock_tie (stream, tick, stop, &window);
  std::printf ("clock %lld %lld\n", offset, window);
  return offset;
}

#endif /* CLOCK_TIE_H */
