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
//
// Then a chain of 16 launches of a kernel whose one block spins for 5 us,
// reading %globaltimer as it begins and ends, captured into a graph and
// launched 20 times (the first 2 untimed), each launch followed by a
// synchronize; and the same 16 launches made one by one, 20 times. One line
// per kernel:
//   node MODE LAUNCH INDEX START_NS END_NS
// (MODE graph or direct; times on %globaltimer): the gap between two nodes
// of a graph is one's START less the END of the one before.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum { WARMUP = 5, TRIALS = 50 };

__global__ void
empty_kernel (int *p)
{
  if (p != nullptr && threadIdx.x == 1024)
    *p = 0;
}

__global__ void
stamped_kernel (unsigned long long spin_ns, unsigned long long *slot)
{
  unsigned long long t0 = globaltimer ();
  while (globaltimer () - t0 < spin_ns)
    ;
  slot[0] = t0;
  slot[1] = globaltimer ();
}

enum { CHAIN = 16, CHAIN_LAUNCHES = 20, CHAIN_WARMUP = 2, SPIN_NS = 5000 };

// Launch i of the chain ran: its slots copied into `host`.
static void
copy_out (std::vector<unsigned long long> &host, const unsigned long long *slots, int i)
{
  CHECK (cudaMemcpy (host.data () + 2 * CHAIN * i, slots, 2 * CHAIN * sizeof *slots,
                     cudaMemcpyDeviceToHost));
}

static void
print_nodes (const char *mode, const std::vector<unsigned long long> &host)
{
  for (int i = CHAIN_WARMUP; i < CHAIN_LAUNCHES; i++)
    for (int k = 0; k < CHAIN; k++)
      std::printf ("node %s %d %d %llu %llu\n", mode, i, k, host[2 * (CHAIN * i + k)],
                   host[2 * (CHAIN * i + k) + 1]);
}

// The chain of stamped kernels, as a graph or launched one by one.
static void
chain (cudaStream_t s)
{
  unsigned long long *slots;
  CHECK (cudaMalloc (&slots, 2 * CHAIN * sizeof *slots));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  // each launch writes the same slots, copied out after it
  std::vector<unsigned long long> host (2 * CHAIN * CHAIN_LAUNCHES);
  CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < CHAIN; k++)
    stamped_kernel<<<1, 32, 0, s>>> (SPIN_NS, slots + 2 * k);
  CHECK (cudaStreamEndCapture (s, &graph));
  CHECK (cudaGraphInstantiate (&exec, graph, 0));
  for (int i = 0; i < CHAIN_LAUNCHES; i++)
    {
      CHECK (cudaGraphLaunch (exec, s));
      CHECK (cudaStreamSynchronize (s));
      copy_out (host, slots, i);
    }
  print_nodes ("graph", host);
  for (int i = 0; i < CHAIN_LAUNCHES; i++)
    {
      for (int k = 0; k < CHAIN; k++)
        stamped_kernel<<<1, 32, 0, s>>> (SPIN_NS, slots + 2 * k);
      CHECK (cudaStreamSynchronize (s));
      copy_out (host, slots, i);
    }
  print_nodes ("direct", host);
  CHECK (cudaGraphExecDestroy (exec));
  CHECK (cudaGraphDestroy (graph));
  CHECK (cudaFree (slots));
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
  chain (s);
  return 0;
}
