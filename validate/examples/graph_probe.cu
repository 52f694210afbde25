// graph_probe.cu: what a CUDA graph launch costs the host and the GPU against
// the same kernels launched one by one, by the graph's size: a measurement
// program of its own.
//
// A graph of N launches of an empty one-block kernel, in a chain, is made by
// capturing the launches from a stream and instantiated once. For N in 1, 4,
// 16, 64 it prints, over 50 launches after 5 untimed:
//   graph N call_us first_call_us span_us
//   direct N call_us span_us
// call_us: the median time of the cudaGraphLaunch call (graph), or of the N
// cudaLaunchKernel calls together (direct); first_call_us: the graph's first
// launch after instantiation; span_us: the median time between events
// recorded in the stream before and after the launch(es), after which the
// host synchronizes: how long the GPU took for the N kernels.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"

enum { WARMUP = 5, TRIALS = 50 };

__global__ void
empty_kernel (int *p)
{
  if (p != nullptr && threadIdx.x == 1024)
    *p = 0;
}

int
main ()
{
  cudaStream_t s;
  cudaEvent_t before, after;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaEventCreate (&before));
  CHECK (cudaEventCreate (&after));
  empty_kernel<<<1, 32, 0, s>>> (nullptr); // loads the kernel's code
  CHECK (cudaStreamSynchronize (s));
  const int sizes[] = { 1, 4, 16, 64 };
  for (int n : sizes)
    {
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeGlobal));
      for (int k = 0; k < n; k++)
        empty_kernel<<<1, 32, 0, s>>> (nullptr);
      CHECK (cudaStreamEndCapture (s, &graph));
      CHECK (cudaGraphInstantiate (&exec, graph, 0));
      std::vector<double> call, span;
      double first = 0;
      for (int i = 0; i < WARMUP + TRIALS; i++)
        {
          CHECK (cudaEventRecord (before, s));
          double t0 = now_us ();
          CHECK (cudaGraphLaunch (exec, s));
          double t1 = now_us ();
          CHECK (cudaEventRecord (after, s));
          CHECK (cudaStreamSynchronize (s));
          float ms;
          CHECK (cudaEventElapsedTime (&ms, before, after));
          if (i == 0)
            first = t1 - t0;
          if (i >= WARMUP)
            {
              call.push_back (t1 - t0);
              span.push_back (ms * 1000.0);
            }
        }
      std::printf ("graph %d %.2f %.2f %.2f\n", n, median (call), first, median (span));
      call.clear ();
      span.clear ();
      for (int i = 0; i < WARMUP + TRIALS; i++)
        {
          CHECK (cudaEventRecord (before, s));
          double t0 = now_us ();
          for (int k = 0; k < n; k++)
            empty_kernel<<<1, 32, 0, s>>> (nullptr);
          double t1 = now_us ();
          CHECK (cudaEventRecord (after, s));
          CHECK (cudaStreamSynchronize (s));
          float ms;
          CHECK (cudaEventElapsedTime (&ms, before, after));
          if (i >= WARMUP)
            {
              call.push_back (t1 - t0);
              span.push_back (ms * 1000.0);
            }
        }
      std::printf ("direct %d %.2f %.2f\n", n, median (call), median (span));
      CHECK (cudaGraphExecDestroy (exec));
      CHECK (cudaGraphDestroy (graph));
    }
  return 0;
}
