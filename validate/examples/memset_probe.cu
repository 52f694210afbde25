// memset_probe.cu: where cudaMemsetAsync runs and how fast, measured in a
// program of its own.
//
// A memset (of device memory; with the argument `host`, of pinned host
// memory, as XLA sets its 8 B flags) is bracketed in its stream by two stamp kernels
// (spin_stamp: one thread writes %globaltimer), so its span is the gap
// between them, less the gap two stamps leave with nothing between (printed
// as `stamps`). The cases:
//   alone SIZE        the memset on an idle GPU (its rate)
//   beside-kernel     a 64 MiB memset while a 2 ms kernel fills every SM
//   small-beside-kernel  the same with an 8 B memset (small ones may not run
//                     as a kernel: their calls cost a quarter of a large one's)
//   beside-small      the same beside a 2 ms kernel of one block
//   beside-h2d        the same while a 256 MiB host-to-device copy runs
//   beside-d2h        the same while a 256 MiB device-to-host copy runs
// A memset that runs on the SMs waits for the full kernel; one that runs on a
// copy engine waits for the copy in its direction.
//
//   memset_probe [host]   (CUDA_DEVICE_MAX_CONNECTIONS as the caller sets it)
// The stamps around a copy beside it (cases beside-h2d, beside-d2h) are in
// its own stream, so `other` is the copy's span with a stamp's cost.
//
// Prints one line per case:
//   CASE bytes start_us end_us other_start_us other_end_us
// times from the first stamp of the case, in microseconds; `other` is what
// ran beside it (0 0 when nothing did). Then what the calls cost the host,
// as the calibration measures a launch (the median over 20 batches of 100
// calls of each batch's mean), for a one-block launch and cudaMemsetAsync of
// 4 KiB and 4 MiB, into one stream and into four in turn, then for memsets
// of 8 B to 64 MiB into one stream (KIND memset-BYTES):
//   calls KIND STREAMS us
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"
#include "kernels/spin.h"

static unsigned long long *stamps; // device: before, after
static SpinSlot *slot;             // device: the kernel beside it
static void *buffer;               // the memory the memsets fill: device, or pinned host
static void *host;                 // pinned host memory for the copies
static void *device_copy;          // device side of the copies

enum { BIG = 256 << 20 };

// One memset of `bytes` in s2, bracketed by stamps; `beside` is what s1 runs
// first: 0 nothing, 1 a full kernel, 2 a one-block kernel, 3 an H2D copy,
// 4 a D2H copy.
static void
run_case (const char *name, size_t bytes, int beside, cudaStream_t s1, cudaStream_t s2,
          int full_grid)
{
  CHECK (spin_reset_slots (slot, 1, s1));
  CHECK (cudaDeviceSynchronize ());
  CHECK (spin_stamp (&stamps[2], s1));
  if (beside == 1)
    CHECK (spin_launch (full_grid, 1024, 0, s1, 2000000, slot));
  else if (beside == 2)
    CHECK (spin_launch (1, 32, 0, s1, 2000000, slot));
  else if (beside == 3)
    CHECK (cudaMemcpyAsync (device_copy, host, BIG, cudaMemcpyHostToDevice, s1));
  else if (beside == 4)
    CHECK (cudaMemcpyAsync (host, device_copy, BIG, cudaMemcpyDeviceToHost, s1));
  CHECK (spin_stamp (&stamps[3], s1));
  CHECK (spin_stamp (&stamps[0], s2));
  CHECK (cudaMemsetAsync (buffer, 0, bytes, s2));
  CHECK (spin_stamp (&stamps[1], s2));
  CHECK (cudaDeviceSynchronize ());
  unsigned long long t[4];
  SpinSlot k;
  CHECK (cudaMemcpy (t, stamps, sizeof t, cudaMemcpyDeviceToHost));
  CHECK (cudaMemcpy (&k, slot, sizeof k, cudaMemcpyDeviceToHost));
  unsigned long long base = t[0] < t[2] ? t[0] : t[2];
  double other_start = 0, other_end = 0;
  if (beside == 1 || beside == 2)
    other_start = (double) (k.start - base) / 1e3, other_end = (double) (k.end - base) / 1e3;
  else if (beside >= 3)
    other_start = (double) (t[2] - base) / 1e3, other_end = (double) (t[3] - base) / 1e3;
  std::printf ("%s %zu %.1f %.1f %.1f %.1f\n", name, bytes, (double) (t[0] - base) / 1e3,
               (double) (t[1] - base) / 1e3, other_start, other_end);
}

enum { BATCHES = 20, PER_BATCH = 100 };

// The host's cost of one call of `kind` (0 a launch, else a memset of that
// many bytes), into `n` streams in turn.
static void
time_calls (const char *kind, size_t bytes, cudaStream_t *streams, int n)
{
  std::vector<double> means;
  for (int b = 0; b < BATCHES; b++)
    {
      CHECK (cudaDeviceSynchronize ());
      double t0 = now_us ();
      for (int i = 0; i < PER_BATCH; i++)
        {
          cudaStream_t s = streams[i % n];
          if (bytes == 0)
            CHECK (spin_launch (1, 32, 0, s, 0, slot));
          else
            CHECK (cudaMemsetAsync (buffer, 0, bytes, s));
        }
      means.push_back ((now_us () - t0) / PER_BATCH);
    }
  CHECK (cudaDeviceSynchronize ());
  std::printf ("calls %s %d %.2f\n", kind, n, median (means));
}

int
main (int argc, char **argv)
{
  bool host_target = argc > 1 && std::string (argv[1]) == "host";
  int device, sms, per_sm;
  CHECK (cudaGetDevice (&device));
  CHECK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK (spin_occupancy (&per_sm, 1024, 0));
  CHECK (cudaMalloc (&stamps, 4 * sizeof (unsigned long long)));
  CHECK (cudaMalloc (&slot, sizeof (SpinSlot)));
  if (host_target)
    CHECK (cudaMallocHost (&buffer, BIG));
  else
    CHECK (cudaMalloc (&buffer, BIG));
  CHECK (cudaMalloc (&device_copy, BIG));
  CHECK (cudaMallocHost (&host, BIG));
  cudaStream_t s1, s2;
  CHECK (cudaStreamCreateWithFlags (&s1, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&s2, cudaStreamNonBlocking));
  // warm-up: every kind of call once
  run_case ("warmup", 4096, 3, s1, s2, sms * per_sm);
  run_case ("warmup", 4096, 4, s1, s2, sms * per_sm);
  run_case ("warmup", 4096, 1, s1, s2, sms * per_sm);
  // two stamps with nothing between: what the bracket itself costs
  for (int r = 0; r < 3; r++)
    run_case ("stamps", 0, 0, s1, s2, sms * per_sm);
  for (int r = 0; r < 3; r++)
    {
      run_case ("alone", 8, 0, s1, s2, sms * per_sm);
      for (size_t bytes = 4096; bytes <= BIG; bytes *= 4)
        run_case ("alone", bytes, 0, s1, s2, sms * per_sm);
    }
  for (int r = 0; r < 3; r++)
    {
      run_case ("beside-kernel", 64 << 20, 1, s1, s2, sms * per_sm);
      run_case ("small-beside-kernel", 8, 1, s1, s2, sms * per_sm);
      run_case ("beside-small", 64 << 20, 2, s1, s2, sms * per_sm);
      run_case ("beside-h2d", 64 << 20, 3, s1, s2, sms * per_sm);
      run_case ("beside-d2h", 64 << 20, 4, s1, s2, sms * per_sm);
    }
  cudaStream_t four[4];
  for (cudaStream_t &s : four)
    CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  for (int n : { 1, 4 })
    {
      time_calls ("launch", 0, four, n);
      time_calls ("memset-4KiB", 4096, four, n);
      time_calls ("memset-4MiB", 4 << 20, four, n);
    }
  // the call's cost by size, into one stream
  for (size_t bytes : { (size_t) 8, (size_t) 256, (size_t) 4096, (size_t) 8192, (size_t) 16384,
                        (size_t) 32768, (size_t) 65536, (size_t) 262144,
                        (size_t) 1 << 20, (size_t) 4 << 20, (size_t) 16 << 20, (size_t) 64 << 20 })
    {
      char kind[32];
      std::snprintf (kind, sizeof kind, "memset-%zu", bytes);
      time_calls (kind, bytes, four, 1);
    }
  return 0;
}
