// launch_busy_probe.cu: what a kernel launch call costs the host by how many
// streams it goes round and whether their work is still running.
//
// For S = 1, 4, 16 and 48 streams (nonblocking), 96 launches of a one-block
// kernel round the S streams in turn, each call timed on the host's clock:
//   idle   the kernel returns at once, so each stream's work has ended by its
//          next launch (as the harness's host-cost probe launches,
//          validate/val_hostcost.h)
//   busy   the kernel spins 2 ms, so every launch goes into a stream whose
//          earlier kernels still run or wait (as issue 40's advised
//          connections schedules launch: 48 streams of 200 us kernels)
// after a cudaDeviceSynchronize; the two modes take turns, five rounds each,
// so that both see the same host. CUDA_DEVICE_MAX_CONNECTIONS as the
// environment sets it (8 when unset).
//
// Lines (times in ns, integers):
//   gpu NAME
//   launch MODE S ROUND MEDIAN P25 P75   one round's 96 calls
//   median MODE S MEDIAN                 the median of the five rounds' medians
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum
{
  LAUNCHES = 96,
  ROUNDS = 5,
  BUSY_NS = 2000000,
};

__global__ void
spin_kernel (unsigned long long ns)
{
  if (ns > 0)
    spin_for (ns);
}

// The calls' times of one round, sorted.
static std::vector<double>
round_of (const std::vector<cudaStream_t> &streams, unsigned long long spin_ns)
{
  CHECK (cudaDeviceSynchronize ());
  std::vector<double> t;
  for (int i = 0; i < LAUNCHES; i++)
    {
      double t0 = now_us ();
      spin_kernel<<<1, 32, 0, streams[i % streams.size ()]>>> (spin_ns);
      double t1 = now_us ();
      t.push_back ((t1 - t0) * 1000.0);
    }
  CHECK (cudaGetLastError ());
  CHECK (cudaDeviceSynchronize ());
  std::sort (t.begin (), t.end ());
  return t;
}

int
main ()
{
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  std::vector<cudaStream_t> all (48);
  for (auto &s : all)
    CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  // warm-up: every stream used once, the kernel's code loaded
  round_of (all, 0);
  const int counts[] = { 1, 4, 16, 48 };
  const char *const modes[] = { "idle", "busy" };
  for (int n : counts)
    {
      std::vector<cudaStream_t> streams (all.begin (), all.begin () + n);
      std::vector<double> medians[2];
      for (int r = 0; r < ROUNDS; r++)
        for (int m = 0; m < 2; m++)
          {
            std::vector<double> t = round_of (streams, m == 0 ? 0 : BUSY_NS);
            double med = t[t.size () / 2];
            medians[m].push_back (med);
            std::printf ("launch %s %d %d %.0f %.0f %.0f\n", modes[m], n, r, med, t[t.size () / 4],
                         t[3 * t.size () / 4]);
          }
      for (int m = 0; m < 2; m++)
        std::printf ("median %s %d %.0f\n", modes[m], n, median (medians[m]));
    }
  return 0;
}
