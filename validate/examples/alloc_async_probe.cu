// alloc_async_probe.cu: what stream-ordered allocation (cudaMallocAsync,
// cudaFreeAsync) costs the host and the stream, for a model of it.
//
// Each case runs 30 iterations in one stream s, after 3 untimed ones:
//   cudaMallocAsync (&p, SIZE, s); kernel (s) 20 us; cudaFreeAsync (p, s);
//   then, in the `sync` cases, cudaStreamSynchronize (s) after each iteration
//   (which trims the default pool to its release threshold), else one after all.
// Cases: SIZE 1 MiB, 64 MiB and 1 GiB (or the sizes in MiB given as arguments);
// the default pool's release threshold
// as the driver sets it (0: a synchronize gives the memory back) or the
// largest (the pool keeps what it has); a synchronize after each iteration or
// not. The kernel is one block of 32 threads that sleeps 20 us; events
// recorded right before the malloc and right after the kernel give the GPU
// time the iteration's work took in the stream.
//
// Lines (fields separated by one space; times in microseconds, medians over
// the 30 iterations):
//   gpu NAME
//   case SIZE_MIB THRESHOLD SYNC MALLOC FREE SYNC_CALL GPU
//       THRESHOLD `default` or `keep`; SYNC `each` or `end`; MALLOC and FREE
//       the calls' host times; SYNC_CALL the synchronize's host time (each)
//       or 0; GPU the stream's time from the malloc's event to the kernel's
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"

namespace
{

__global__ void
nap (unsigned ns)
{
  __nanosleep (ns);
}

void
run_case (size_t mib, bool keep, bool each, cudaStream_t s)
{
  cudaMemPool_t pool;
  CHECK (cudaDeviceGetDefaultMemPool (&pool, 0));
  uint64_t threshold = keep ? UINT64_MAX : 0;
  CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK (cudaDeviceSynchronize ());
  CHECK (cudaMemPoolTrimTo (pool, 0));
  cudaEvent_t a, b;
  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  std::vector<double> m, f, y, g;
  for (int i = -3; i < 30; i++)
    {
      void *p = nullptr;
      CHECK (cudaEventRecord (a, s));
      double t0 = now_us ();
      CHECK (cudaMallocAsync (&p, mib << 20, s));
      double t1 = now_us ();
      nap<<<1, 32, 0, s>>> (20000);
      CHECK (cudaEventRecord (b, s));
      double t2 = now_us ();
      CHECK (cudaFreeAsync (p, s));
      double t3 = now_us ();
      double t4 = t3;
      if (each)
        {
          CHECK (cudaStreamSynchronize (s));
          t4 = now_us ();
        }
      else
        CHECK (cudaEventSynchronize (b));
      float ms = 0;
      CHECK (cudaEventElapsedTime (&ms, a, b));
      if (i < 0)
        continue;
      m.push_back (t1 - t0);
      f.push_back (t3 - t2);
      y.push_back (t4 - t3);
      g.push_back (ms * 1000.0);
    }
  if (!each)
    CHECK (cudaStreamSynchronize (s));
  std::printf ("case %zu %s %s %.2f %.2f %.2f %.2f\n", mib, keep ? "keep" : "default",
               each ? "each" : "end", median (m), median (f), median (y), median (g));
  CHECK (cudaEventDestroy (a));
  CHECK (cudaEventDestroy (b));
}

} // namespace

int
main (int argc, char **argv)
{
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  std::vector<size_t> sizes = { 1, 64, 1024 };
  if (argc > 1)
    {
      sizes.clear ();
      for (int i = 1; i < argc; i++)
        sizes.push_back ((size_t) std::strtoull (argv[i], nullptr, 10));
    }
  for (size_t mib : sizes)
    for (int keep = 0; keep < 2; keep++)
      for (int each = 1; each >= 0; each--)
        run_case (mib, keep, each, s);
  return 0;
}
