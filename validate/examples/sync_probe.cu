// sync_probe.cu: how long synchronizes take to return, run as it is and under
// streamsim's recorder (`streamsim-validate --record ... -- sync_probe`), for
// the recorder's cost in a synchronize (validate/fit-recorded-sync.sh).
//
// Three kinds of synchronize, each 200 times:
//   stream   cudaStreamSynchronize of the probe's stream
//   device   cudaDeviceSynchronize
//   event    cudaEventSynchronize of an event recorded in that stream
// each in two states:
//   idle     nothing left to wait for (the stream's and event's work long done):
//            the call's own time, host clock to host clock
//   after    behind a one-block kernel that spins 20 us and stamps its end
//            with %globaltimer: from that end to the call's return, the GPU's
//            clock tied to the host's (clock_tie.h)
// Under the recorder the same calls are in its log, with CUPTI's kernel times:
// fit-recorded-sync.sh reads both, so that it compares the recorder's view of a
// call (its log) with the program's own timing of it as it runs untraced.
//
// Lines (times in ns, integers):
//   gpu NAME                      the device
//   clock OFFSET WINDOW           host = globaltimer + OFFSET; WINDOW the best read's span
//   sync KIND STATE I TIME        one synchronize: KIND stream, device or event,
//                                 STATE idle or after, I its index, TIME as above
//   median KIND STATE TIME        the median of the 200
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "clock_tie.h"
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum
{
  REPEATS = 200,
  WARMUP = 20,
  SPIN_NS = 20000,
};

__global__ void
spin_and_stamp (unsigned long long spin_ns, volatile unsigned long long *end)
{
  spin_for (spin_ns);
  *end = globaltimer ();
}

enum Kind { STREAM, DEVICE, EVENT };
static const char *const KIND_NAMES[] = { "stream", "device", "event" };

static void
synchronize (Kind kind, cudaStream_t stream, cudaEvent_t event)
{
  if (kind == STREAM)
    CHECK (cudaStreamSynchronize (stream));
  else if (kind == DEVICE)
    CHECK (cudaDeviceSynchronize ());
  else
    CHECK (cudaEventSynchronize (event));
}

int
main ()
{
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  cudaStream_t stream, tick_stream;
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&tick_stream, cudaStreamNonBlocking));
  cudaEvent_t event;
  CHECK (cudaEventCreateWithFlags (&event, cudaEventDisableTiming));
  unsigned long long *tick, *end;
  int *stop;
  CHECK (cudaHostAlloc (&tick, sizeof *tick, cudaHostAllocMapped));
  CHECK (cudaHostAlloc (&end, sizeof *end, cudaHostAllocMapped));
  CHECK (cudaHostAlloc (&stop, sizeof *stop, cudaHostAllocMapped));
  long long window = 0;
  long long offset = clock_tie (tick_stream, tick, stop, &window);
  std::printf ("clock %lld %lld\n", offset, window);

  for (int k = STREAM; k <= EVENT; k++)
    {
      Kind kind = (Kind) k;
      std::vector<double> idle, after;
      for (int i = -WARMUP; i < REPEATS; i++)
        {
          // idle: the stream's and the event's work long done
          CHECK (cudaEventRecord (event, stream));
          CHECK (cudaDeviceSynchronize ());
          double t0 = now_us ();
          synchronize (kind, stream, event);
          double t1 = now_us ();
          // after: behind a kernel that ends 20 us on
          *(volatile unsigned long long *) end = 0;
          spin_and_stamp<<<1, 1, 0, stream>>> (SPIN_NS, end);
          CHECK (cudaGetLastError ());
          CHECK (cudaEventRecord (event, stream));
          synchronize (kind, stream, event);
          double t2 = now_us ();
          unsigned long long stamped = *(volatile unsigned long long *) end;
          if (i < 0)
            continue;
          idle.push_back ((t1 - t0) * 1000.0);
          after.push_back (t2 * 1000.0 - (double) ((long long) stamped + offset));
          std::printf ("sync %s idle %d %.0f\n", KIND_NAMES[k], i, idle.back ());
          std::printf ("sync %s after %d %.0f\n", KIND_NAMES[k], i, after.back ());
        }
      std::printf ("median %s idle %.0f\n", KIND_NAMES[k], median (idle));
      std::printf ("median %s after %.0f\n", KIND_NAMES[k], median (after));
    }
  return 0;
}
