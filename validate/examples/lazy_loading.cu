// lazy_loading.cu: whether the first launch of a kernel whose code is not
// loaded yet waits for the GPU, measured in a program of its own.
//
// With CUDA_MODULE_LOADING=LAZY (the default since CUDA 12.2) a kernel's code
// is loaded at its first launch. Here a 2 ms kernel (`busy`, loaded before)
// runs in one stream, and a 10 us kernel (`fresh`) is launched for the first
// time in another; both are one block, so they could share the SMs. Then,
// with `busy` running again, `fresh` is launched a second time (loaded now)
// as the control. Each launch's start and end come from %globaltimer; the
// host's call times from CLOCK_MONOTONIC.
//
//   lazy_loading      (CUDA_MODULE_LOADING sets LAZY or EAGER)
//
// Prints one line per case:
//   CASE start_after_busy_us busy_us call_us
// start_after_busy_us: when `fresh` started, from `busy`'s start; busy_us:
// how long `busy` ran; call_us: how long the launch call of `fresh` held the
// host. A first launch that waits for the GPU to go idle starts after
// `busy` ends (start_after_busy_us >= busy_us).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>
#include "cuda_check.h"

struct Slot
{
  unsigned long long start, end;
};

__device__ static unsigned long long
now_ns ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void
busy (Slot *slot, unsigned long long ns)
{
  unsigned long long t0 = now_ns ();
  while (now_ns () - t0 < ns)
    ;
  slot->start = t0;
  slot->end = now_ns ();
}

__global__ void
fresh (Slot *slot, unsigned long long ns)
{
  unsigned long long t0 = now_ns ();
  while (now_ns () - t0 < ns)
    ;
  slot->start = t0;
  slot->end = now_ns ();
}

static double
host_us ()
{
  timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// busy (2 ms) in s1, then fresh (10 us) in s2; prints the line for `name`.
static void
run_case (const char *name, cudaStream_t s1, cudaStream_t s2, Slot *d)
{
  Slot h[2];
  busy<<<1, 32, 0, s1>>> (&d[0], 2000000);
  CHECK (cudaGetLastError ());
  double t0 = host_us ();
  fresh<<<1, 32, 0, s2>>> (&d[1], 10000);
  double t1 = host_us ();
  CHECK (cudaGetLastError ());
  CHECK (cudaDeviceSynchronize ());
  CHECK (cudaMemcpy (h, d, sizeof h, cudaMemcpyDeviceToHost));
  std::printf ("%s %.1f %.1f %.1f\n", name, (double) (h[1].start - h[0].start) / 1e3,
               (double) (h[0].end - h[0].start) / 1e3, t1 - t0);
}

int
main ()
{
  const char *mode = std::getenv ("CUDA_MODULE_LOADING");
  std::printf ("# CUDA_MODULE_LOADING=%s\n", mode != nullptr ? mode : "(unset)");
  Slot *d;
  CHECK (cudaMalloc (&d, 2 * sizeof (Slot)));
  cudaStream_t s1, s2;
  CHECK (cudaStreamCreateWithFlags (&s1, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&s2, cudaStreamNonBlocking));
  busy<<<1, 32, 0, s1>>> (d, 1000); // loads busy
  CHECK (cudaDeviceSynchronize ());
  run_case ("first-launch", s1, s2, d);
  run_case ("second-launch", s1, s2, d);
  return 0;
}
