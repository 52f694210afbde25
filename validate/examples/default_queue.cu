// default_queue.cu: which hardware queue (connection) the legacy default
// stream's work joins, measured in a program of its own.
//
// streamsim-validate cannot answer this: its own helper stream and call-cost
// probe take connections between repeats, and the driver's round robin of
// connections runs across the whole process. Here nothing runs but this.
//
// Four non-blocking streams each run a long kernel (3, 1, 2 and 1.5 ms) and a
// 10 us kernel behind it, which waits in the stream's connection until the
// long one ends; so every connection a stream holds frees at its own time.
// Then the legacy default stream launches a 10 us kernel: the time it starts
// names the queue it joined (`joined:sN`; `none` when it started at once).
//
//   default_queue VARIANT K     (CUDA_DEVICE_MAX_CONNECTIONS sets C)
//     VARIANT a: the default stream is first used by that last kernel
//     VARIANT b: the default stream runs a kernel (and syncs) before all else
//     K: streams created and used (one kernel, then a sync) before the four
//
// On an H100 and an H200 (validate/results/h100/connections-more/MANIFEST.md)
// the default stream joined the stream that took the same connection in a
// round robin that starts one after it, K streams on: with C = 4, s4 for
// K = 0, s3 for 1, s2 for 2, s1 for 3, s4 again for 4; a and b alike. So the
// default stream has the first connection from the context's creation, and
// the streams take the following ones as they submit.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "kernels/spin.h" /* the harness's spin kernel: each kernel's first start lands in a slot */

int main (int argc, char **argv)
{
  char variant = argc > 1 ? argv[1][0] : 'a';
  int k = argc > 2 ? std::atoi (argv[2]) : 0;
  if ((variant != 'a' && variant != 'b') || k < 0)
    {
      std::fprintf (stderr, "usage: default_queue a|b K\n");
      return 2;
    }
  enum { STREAMS = 4, SLOTS = 2 * STREAMS + 1 };
  const unsigned long long long_ns[STREAMS] = { 3000000, 1000000, 2000000, 1500000 };
  SpinSlot *d, h[SLOTS];
  CHECK (cudaMalloc (&d, sizeof h));
  CHECK (spin_reset_slots (d, SLOTS, cudaStreamLegacy));
  CHECK (cudaDeviceSynchronize ());
  if (variant == 'b')
    {
      CHECK (spin_launch (1, 32, 0, cudaStreamLegacy, 1000, nullptr));
      CHECK (cudaDeviceSynchronize ());
    }
  for (int i = 0; i < k; i++)
    {
      cudaStream_t x;
      CHECK (cudaStreamCreateWithFlags (&x, cudaStreamNonBlocking));
      CHECK (spin_launch (1, 32, 0, x, 1000, nullptr));
      CHECK (cudaDeviceSynchronize ());
    }
  cudaStream_t s[STREAMS];
  for (int i = 0; i < STREAMS; i++)
    CHECK (cudaStreamCreateWithFlags (&s[i], cudaStreamNonBlocking));
  for (int i = 0; i < STREAMS; i++)
    {
      CHECK (spin_launch (1, 32, 0, s[i], long_ns[i], d + 2 * i));
      CHECK (spin_launch (1, 32, 0, s[i], 10000, d + 2 * i + 1));
    }
  usleep (50);
  CHECK (spin_launch (1, 32, 0, cudaStreamLegacy, 10000, d + 2 * STREAMS));
  CHECK (cudaDeviceSynchronize ());
  CHECK (cudaMemcpy (h, d, sizeof h, cudaMemcpyDeviceToHost));

  std::printf ("%c k=%d", variant, k);
  for (int i = 0; i < STREAMS; i++)
    std::printf (" s%d:%.0f/%.0f", i + 1, (h[2 * i].start - h[0].start) / 1e3,
                 (h[2 * i + 1].start - h[0].start) / 1e3);
  double dflt = (h[2 * STREAMS].start - h[0].start) / 1e3;
  int joined = 0;
  for (int i = 0; i < STREAMS; i++)
    {
      double behind = (h[2 * i + 1].start - h[0].start) / 1e3;
      if (dflt > behind - 5 && dflt < behind + 5)
        joined = i + 1;
    }
  if (joined > 0)
    std::printf (" default:%.0f joined:s%d\n", dflt, joined);
  else
    std::printf (" default:%.0f joined:none\n", dflt);
  return 0;
}
