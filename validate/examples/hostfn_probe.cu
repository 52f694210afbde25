// hostfn_probe.cu: how a host function (cudaLaunchHostFunc) runs in its
// stream, measured in a program of its own.
//
// A host function spins on the host for a set time. Stamp kernels
// (spin_stamp: one thread writes %globaltimer) around it in its stream give
// its span on the GPU's clock. The cases:
//   alone MS         one host function in s1 (its span, less MS, is what it
//                    costs the stream beyond its own run)
//   beside-kernel    a 1 ms host function in s1, then a 10 us one-block
//                    kernel in s2: does the kernel wait for it (with one
//                    connection: does a host function hold its queue)?
//   two-streams      1 ms host functions in s1 and s2 at once: do they run
//                    side by side or one after the other (one thread)?
//
//   hostfn_probe     (CUDA_DEVICE_MAX_CONNECTIONS as the caller sets it)
//
// Prints one line per case:
//   CASE ms a_start_us a_end_us b_start_us b_end_us
// from the earliest stamp of the case, in microseconds: `a` is s1's span
// (between its stamps), `b` what ran in s2 (the kernel, or s2's span).
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "kernels/spin.h"

static void CUDART_CB
spin_host (void *arg)
{
  double ms = *(double *) arg;
  auto t0 = std::chrono::steady_clock::now ();
  while (std::chrono::duration<double, std::milli> (std::chrono::steady_clock::now () - t0).count () < ms)
    ;
}

static unsigned long long *stamps; // device: s1 before, s1 after, s2 before, s2 after
static SpinSlot *slot;

// what: 0 alone, 1 beside a kernel in s2, 2 beside a host function in s2
static void
run_case (const char *name, double ms, int what, cudaStream_t s1, cudaStream_t s2)
{
  static double arg[2];
  arg[0] = arg[1] = ms;
  CHECK (spin_reset_slots (slot, 1, s1));
  CHECK (cudaDeviceSynchronize ());
  CHECK (spin_stamp (&stamps[0], s1));
  CHECK (cudaLaunchHostFunc (s1, spin_host, &arg[0]));
  CHECK (spin_stamp (&stamps[1], s1));
  if (what == 1)
    CHECK (spin_launch (1, 32, 0, s2, 10000, slot));
  else if (what == 2)
    {
      CHECK (spin_stamp (&stamps[2], s2));
      CHECK (cudaLaunchHostFunc (s2, spin_host, &arg[1]));
      CHECK (spin_stamp (&stamps[3], s2));
    }
  CHECK (cudaDeviceSynchronize ());
  unsigned long long t[4];
  SpinSlot k;
  CHECK (cudaMemcpy (t, stamps, sizeof t, cudaMemcpyDeviceToHost));
  CHECK (cudaMemcpy (&k, slot, sizeof k, cudaMemcpyDeviceToHost));
  unsigned long long base = t[0];
  double b0 = 0, b1 = 0;
  if (what == 1)
    b0 = ((double) k.start - (double) base) / 1e3, b1 = ((double) k.end - (double) base) / 1e3;
  else if (what == 2)
    b0 = ((double) t[2] - (double) base) / 1e3, b1 = ((double) t[3] - (double) base) / 1e3;
  std::printf ("%s %.3f %.1f %.1f %.1f %.1f\n", name, ms, 0.0, ((double) t[1] - (double) base) / 1e3,
               b0, b1);
}

int
main ()
{
  CHECK (cudaMalloc (&stamps, 4 * sizeof (unsigned long long)));
  CHECK (cudaMalloc (&slot, sizeof (SpinSlot)));
  cudaStream_t s1, s2;
  CHECK (cudaStreamCreateWithFlags (&s1, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&s2, cudaStreamNonBlocking));
  run_case ("warmup", 0.1, 1, s1, s2);
  run_case ("warmup", 0.1, 2, s1, s2);
  for (int r = 0; r < 3; r++)
    {
      run_case ("alone", 0.0, 0, s1, s2);
      run_case ("alone", 0.1, 0, s1, s2);
      run_case ("alone", 1.0, 0, s1, s2);
      run_case ("beside-kernel", 1.0, 1, s1, s2);
      run_case ("two-streams", 1.0, 2, s1, s2);
    }
  return 0;
}
