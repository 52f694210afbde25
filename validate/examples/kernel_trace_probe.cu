// kernel_trace_probe.cu: kernels that time their own blocks with %globaltimer,
// to be run under the recorder (streamsim-validate --record), whose kernel
// times are CUPTI's activity records: the two clocks side by side tell how
// much longer a traced kernel is than its blocks. The harness and the
// profile's latencies use the blocks' times; the recorder uses CUPTI's.
//
// For each shape (grid, block, spin) it launches the spin kernel 40 times
// back to back in one stream (`queued`: each launch made while the kernel
// before it runs) and 20 times with the host waiting 100 us after each
// launch (`idle`: the GPU idle at each launch), after 5 untimed launches of
// the shape, all in one stream, then copies the times back. Every block's
// thread 0 reads %globaltimer as the block begins, spins for `spin` ns, and
// reads it again as it ends; the earliest start and latest end of each
// launch are kept. Prints one line per launch, in launch order:
//   launch INDEX MODE GRID BLOCK SPIN_NS START_NS END_NS
// (MODE: warmup, queued or idle; times on the GPU's %globaltimer). The
// recording's measured timeline has the same launches as its kernel rows,
// in the same order.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum { WARMUP = 5, QUEUED = 40, IDLE = 20, IDLE_WAIT_US = 100 };

__global__ void
spin_kernel (unsigned long long spin_ns, unsigned long long *first, unsigned long long *last)
{
  unsigned long long t0 = globaltimer ();
  if (threadIdx.x == 0)
    while (globaltimer () - t0 < spin_ns)
      ;
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      atomicMin (first, t0);
      atomicMax (last, globaltimer ());
    }
}

struct Shape
{
  unsigned grid, block;
  unsigned long long spin_ns;
};

int
main ()
{
  const Shape shapes[] = {
    { 1, 32, 0 },         { 1, 32, 5000 },      { 1, 32, 50000 },
    { 132, 128, 5000 },   { 132, 128, 50000 },  { 1056, 256, 5000 },
    { 2640, 256, 2000 },
  };
  const int n_shapes = sizeof shapes / sizeof shapes[0];
  const int per_shape = WARMUP + QUEUED + IDLE;
  const int total = n_shapes * per_shape;
  unsigned long long *first, *last;
  CHECK (cudaMalloc (&first, total * sizeof *first));
  CHECK (cudaMalloc (&last, total * sizeof *last));
  CHECK (cudaMemset (first, 0xff, total * sizeof *first));
  CHECK (cudaMemset (last, 0, total * sizeof *last));
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaDeviceSynchronize ());
  std::vector<const char *> mode (total);
  int i = 0;
  for (const Shape &sh : shapes)
    {
      for (int k = 0; k < WARMUP + QUEUED; k++, i++)
        {
          mode[i] = k < WARMUP ? "warmup" : "queued";
          spin_kernel<<<sh.grid, sh.block, 0, s>>> (sh.spin_ns, first + i, last + i);
        }
      CHECK (cudaStreamSynchronize (s));
      for (int k = 0; k < IDLE; k++, i++)
        {
          mode[i] = "idle";
          spin_kernel<<<sh.grid, sh.block, 0, s>>> (sh.spin_ns, first + i, last + i);
          double until = now_us () + IDLE_WAIT_US + sh.spin_ns / 1000.0;
          while (now_us () < until)
            ;
        }
      CHECK (cudaStreamSynchronize (s));
    }
  CHECK (cudaGetLastError ());
  std::vector<unsigned long long> f (total), l (total);
  CHECK (cudaMemcpy (f.data (), first, total * sizeof *first, cudaMemcpyDeviceToHost));
  CHECK (cudaMemcpy (l.data (), last, total * sizeof *last, cudaMemcpyDeviceToHost));
  for (int j = 0; j < total; j++)
    {
      const Shape &sh = shapes[j / per_shape];
      std::printf ("launch %d %s %u %u %llu %llu %llu\n", j, mode[j], sh.grid, sh.block,
                   sh.spin_ns, f[j], l[j]);
    }
  return 0;
}
