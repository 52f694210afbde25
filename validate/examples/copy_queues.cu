// copy_queues.cu: how many hardware queues copies have, measured in a
// program of its own (engines/eng_connection.c, COPY QUEUES).
//
//   copy_queues order N   N streams each issue one H2D copy, s1 64 MiB and the
//                         others 4 MiB, all issued while s1's runs; prints the
//                         streams in the order their copies ended. The engine
//                         drains the queue it is on before it turns to
//                         another, so streams that share a queue end together.
//   copy_queues held N [BYTES]
//                         s1 runs a 1 ms kernel and then a D2H of BYTES
//                         (default 4 MiB), which waits at the head of its
//                         queue; s2..sN issue one such D2H each. Prints which
//                         ended after s1's kernel: the streams
//                         that share its queue (the others end in turn on the
//                         engine, each about 0.1 ms after the one before).
//
// CUDA_DEVICE_MAX_CONNECTIONS as given. On an H100 and an H200 (driver
// 580.159.04): with it set to C, the streams i and i + C share a queue; left
// unset, i and i + 4, although kernels then have 8 connections.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "kernels/spin.h" /* the harness's spin kernel */

int main (int argc, char **argv)
{
  bool held = argc > 1 && std::strcmp (argv[1], "held") == 0;
  int n = argc > 2 ? std::atoi (argv[2]) : 8;
  if (argc < 3 || (!held && std::strcmp (argv[1], "order") != 0) || n < 2)
    {
      std::fprintf (stderr, "usage: copy_queues order N | held N [BYTES] (N >= 2)\n");
      return 2;
    }
  const size_t big = 64u << 20;
  const size_t small = argc > 3 ? (size_t) std::strtoull (argv[3], nullptr, 10) : 4u << 20;
  if (small == 0 || small > big)
    {
      std::fprintf (stderr, "copy_queues: BYTES must be 1 to %zu\n", big);
      return 2;
    }
  char *h, *d;
  CHECK (cudaMallocHost (&h, big + n * small));
  CHECK (cudaMalloc (&d, big + n * small));
  CHECK (cudaDeviceSynchronize ());
  std::vector<cudaStream_t> s (n);
  std::vector<cudaEvent_t> ev (n);
  cudaEvent_t start;
  CHECK (cudaEventCreate (&start));
  for (int i = 0; i < n; i++)
    {
      CHECK (cudaStreamCreateWithFlags (&s[i], cudaStreamNonBlocking));
      CHECK (cudaEventCreate (&ev[i]));
    }
  CHECK (cudaEventRecord (start, s[0]));
  cudaEvent_t kernel_end;
  CHECK (cudaEventCreate (&kernel_end));
  if (held)
    CHECK (spin_launch (1, 32, 0, s[0], 1000000ull, nullptr));
  CHECK (cudaEventRecord (kernel_end, s[0]));
  for (int i = 0; i < n; i++)
    {
      size_t off = i == 0 ? 0 : big + (i - 1) * small;
      size_t bytes = i == 0 && !held ? big : small;
      if (held)
        CHECK (cudaMemcpyAsync (h + off, d + off, bytes, cudaMemcpyDeviceToHost, s[i]));
      else
        CHECK (cudaMemcpyAsync (d + off, h + off, bytes, cudaMemcpyHostToDevice, s[i]));
      CHECK (cudaEventRecord (ev[i], s[i]));
    }
  CHECK (cudaDeviceSynchronize ());
  std::vector<float> t (n);
  std::vector<int> order (n);
  for (int i = 0; i < n; i++)
    {
      CHECK (cudaEventElapsedTime (&t[i], start, ev[i]));
      order[i] = i;
    }
  std::sort (order.begin (), order.end (), [&] (int a, int b) { return t[a] < t[b]; });
  float kernel_ms;
  CHECK (cudaEventElapsedTime (&kernel_ms, start, kernel_end));
  std::printf ("%s n=%d", held ? "held" : "order", n);
  if (held)
    {
      std::printf (" bytes=%zu after s1's kernel:", small);
      for (int i = 1; i < n; i++)
        if (t[i] > kernel_ms)
          std::printf (" s%d", i + 1);
    }
  else
    {
      std::printf (" order:");
      for (int i = 0; i < n; i++)
        std::printf (" s%d", order[i] + 1);
    }
  std::printf ("  (ends us:");
  for (int i = 0; i < n; i++)
    std::printf (" %.0f", t[order[i]] * 1000);
  std::printf (")\n");
  return 0;
}
