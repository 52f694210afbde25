// graph_copy_probe.cu: what a copy node after a kernel node costs a graph's
// launch-and-synchronize, timed on the host's clock with no tracer: a
// measurement program of its own, beside graph-copy-pageable.sched,
// graph-copy-pinned.sched and graph-no-copy.sched, which write the same
// iterations for the model.
//
// jacobiCudaGraphs' graph (NVIDIA cuda-samples), captured from a stream: a
// memset of 8 B, a 5 us kernel of 66 blocks of 256 threads, and a D2H of 8 B
// into pageable memory (`pageable`, the sample's), into pinned memory
// (`pinned`), or no copy (`none`); and the kernel alone (`kernel`). Each
// variant launched 20 times untimed, then 200 times, each launch followed by
// a cudaStreamSynchronize; the variants take turns, one iteration each, so
// that a drift of the host's speed falls on all of them. Prints, per variant, the median and the mean of
// an iteration (the launch call to the synchronize's return), in us:
//   variant NAME median_us mean_us
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum { WARMUP = 20, TRIALS = 200, BLOCKS = 66, THREADS = 256, SPIN_NS = 5000, VARIANTS = 4 };

__global__ void
spin_kernel (unsigned long long spin_ns)
{
  spin_for (spin_ns);
}

int
main ()
{
  static const char *names[VARIANTS] = { "pageable", "pinned", "none", "kernel" };
  char *device, *pinned;
  CHECK (cudaMalloc (&device, 8));
  CHECK (cudaMallocHost (&pinned, 8));
  char *pageable = static_cast<char *> (std::malloc (4096));
  std::memset (pageable, 1, 4096); // resident: not an untouched copy
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  cudaGraphExec_t exec[VARIANTS];
  for (int v = 0; v < VARIANTS; v++)
    {
      cudaGraph_t graph;
      CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeGlobal));
      if (v < 3)
        CHECK (cudaMemsetAsync (device, 0, 8, s));
      spin_kernel<<<BLOCKS, THREADS, 0, s>>> (SPIN_NS);
      CHECK (cudaGetLastError ());
      if (v < 2)
        CHECK (cudaMemcpyAsync (v == 0 ? pageable : pinned, device, 8, cudaMemcpyDeviceToHost, s));
      CHECK (cudaStreamEndCapture (s, &graph));
      CHECK (cudaGraphInstantiate (&exec[v], graph, 0));
      CHECK (cudaGraphDestroy (graph));
    }
  std::vector<double> t[VARIANTS];
  for (int i = 0; i < WARMUP + TRIALS; i++)
    for (int v = 0; v < VARIANTS; v++)
      {
        double t0 = now_us ();
        CHECK (cudaGraphLaunch (exec[v], s));
        CHECK (cudaStreamSynchronize (s));
        if (i >= WARMUP)
          t[v].push_back (now_us () - t0);
      }
  for (int v = 0; v < VARIANTS; v++)
    {
      double sum = 0;
      for (double x : t[v])
        sum += x;
      std::printf ("variant %s %.2f %.2f\n", names[v], median (t[v]), sum / t[v].size ());
      CHECK (cudaGraphExecDestroy (exec[v]));
    }
  std::free (pageable);
  CHECK (cudaFreeHost (pinned));
  CHECK (cudaFree (device));
  return 0;
}
