// launch_flags_probe.cu: what a kernel launch and a cudaMemcpyAsync cost the host by the
// flags of the streams they go into.
//
// nonblocking: cudaStreamNonBlocking, as the harness's host-cost probe and the
//              calibration create their streams (validate/val_hostcost.c), so the
//              profiles' kernel_launch and memcpy_async are these;
// blocking:    cudaStreamCreate's default, as a schedule's `stream s1` is run by the
//              harness and as most programs create theirs: the legacy default stream
//              synchronizes with them.
// For S = 1, 8 and 48 streams of each kind, 96 calls round the S streams in turn, timed
// as the harness's probe times them: one host clock read between two calls, no
// synchronize between, the gaps' mean and median; a cudaDeviceSynchronize before each
// round. Calls: launches of a one-block kernel that returns at once (`launch`), and
// cudaMemcpyAsync of 4 B from pinned memory to the device (`copy`). The two flags take
// turns, seven rounds each, so that both see the same host. CUDA_DEVICE_MAX_CONNECTIONS
// as the environment sets it (8 when unset).
//
// The first S calls of a round are each its stream's first since the synchronize, the
// others not: their means are given apart too.
//
// Lines (times in ns, integers):
//   gpu NAME
//   call KIND FLAGS S ROUND MEAN MEDIAN FIRST REST   one round's 96 calls: the gaps' mean and
//                                                    median, the mean of the first S, of the rest
//   median KIND FLAGS S MEAN MEDIAN FIRST REST       the medians of the seven rounds' columns
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"

enum
{
  CALLS = 96,
  ROUNDS = 7,
  MAX_STREAMS = 48,
};

__global__ void
empty_kernel (int *p)
{
  if (p != nullptr && threadIdx.x == 1024)
    *p = 0;
}

struct Buffers
{
  int *dev;
  int *pinned;
};

// The gaps between one round's calls, in ns.
static std::vector<double>
round_of (const std::vector<cudaStream_t> &streams, bool copy, const Buffers &b)
{
  CHECK (cudaDeviceSynchronize ());
  std::vector<double> t;
  double t0 = now_us ();
  for (int i = 0; i < CALLS; i++)
    {
      cudaStream_t s = streams[i % streams.size ()];
      if (copy)
        CHECK (cudaMemcpyAsync (b.dev, b.pinned, sizeof (int), cudaMemcpyHostToDevice, s));
      else
        empty_kernel<<<1, 32, 0, s>>> (b.dev);
      double t1 = now_us ();
      t.push_back ((t1 - t0) * 1000.0);
      t0 = t1;
    }
  CHECK (cudaGetLastError ());
  CHECK (cudaDeviceSynchronize ());
  return t;
}

// The mean of v[from, to).
static double
mean (const std::vector<double> &v, size_t from, size_t to)
{
  double sum = 0;
  for (size_t i = from; i < to; i++)
    sum += v[i];
  return sum / (to - from);
}

int
main ()
{
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  Buffers b;
  CHECK (cudaMalloc (&b.dev, sizeof (int)));
  CHECK (cudaMallocHost (&b.pinned, sizeof (int)));
  *b.pinned = 1;
  const char *const flag_names[] = { "nonblocking", "blocking" };
  std::vector<cudaStream_t> all[2];
  for (int f = 0; f < 2; f++)
    {
      all[f].resize (MAX_STREAMS);
      for (auto &s : all[f])
        CHECK (cudaStreamCreateWithFlags (&s, f == 0 ? cudaStreamNonBlocking : cudaStreamDefault));
      // warm-up: every stream used once by each call, the kernel's code loaded
      round_of (all[f], false, b);
      round_of (all[f], true, b);
    }
  const int counts[] = { 1, 8, MAX_STREAMS };
  const char *const kinds[] = { "launch", "copy" };
  for (int k = 0; k < 2; k++)
    for (int n : counts)
      {
        std::vector<double> cols[2][4];
        for (int r = 0; r < ROUNDS; r++)
          for (int f = 0; f < 2; f++)
            {
              std::vector<cudaStream_t> streams (all[f].begin (), all[f].begin () + n);
              std::vector<double> t = round_of (streams, k == 1, b);
              double c[4] = { mean (t, 0, CALLS), median (t), mean (t, 0, n), mean (t, n, CALLS) };
              for (int j = 0; j < 4; j++)
                cols[f][j].push_back (c[j]);
              std::printf ("call %s %s %d %d %.0f %.0f %.0f %.0f\n", kinds[k], flag_names[f], n, r,
                           c[0], c[1], c[2], c[3]);
            }
        for (int f = 0; f < 2; f++)
          std::printf ("median %s %s %d %.0f %.0f %.0f %.0f\n", kinds[k], flag_names[f], n,
                       median (cols[f][0]), median (cols[f][1]), median (cols[f][2]),
                       median (cols[f][3]));
      }
  return 0;
}
