// sync_probe.cu: how long synchronizes take to return, run as it is and under
// streamsim's recorder (`streamsim-validate --record ... -- sync_probe`), for
// the recorder's cost in a synchronize (validate/fit-recorded-sync.sh).
//
// Five kinds of call that wait, each 200 times:
//   stream   cudaStreamSynchronize of the probe's stream
//   device   cudaDeviceSynchronize
//   event    cudaEventSynchronize of an event recorded in that stream
//   copy     cudaMemcpy of 4 bytes device to pinned host, the kernel in the
//            legacy default stream (the copy's own time is in TIME)
//   free     cudaFree of 256 bytes allocated before the kernel, the kernel in
//            the legacy default stream
//   pageable the copy's, into pageable (malloc'd) memory
//   pageable-h2d  4 bytes from pageable memory to the device, behind the same kernel
// each in two states:
//   idle     nothing left to wait for (the stream's and event's work long done):
//            the call's own time, host clock to host clock
//   after    behind a one-block kernel that spins SPIN_US (below) and stamps its end
//            with %globaltimer: from that end to the call's return, the GPU's
//            clock tied to the host's (clock_tie.h)
// Under the recorder the same calls are in its log, with CUPTI's kernel times:
// fit-recorded-sync.sh reads both, so that it compares the recorder's view of a
// call (its log) with the program's own timing of it as it runs untraced.
//
// Its first argument says how the host waits in those synchronizes:
//   auto       the runtime's default (no flag set)
//   spin       cudaSetDeviceFlags (cudaDeviceScheduleSpin)
//   yield      cudaSetDeviceFlags (cudaDeviceScheduleYield)
//   blocking   cudaSetDeviceFlags (cudaDeviceScheduleBlockingSync)
//   event-blocking  no device flag; the event made with cudaEventBlockingSync
// and its second how long the kernel spins, in us (20 unless given), since a
// thread that sleeps may wake the later the longer it slept.
//
// Lines (times in ns, integers):
//   gpu NAME                      the device
//   mode MODE SPIN_NS             the arguments
//   clock OFFSET WINDOW           host = globaltimer + OFFSET; WINDOW the best read's span
//   sync KIND STATE I TIME        one synchronize: KIND stream, device, event, copy, free, pageable or pageable-h2d,
//                                 STATE idle or after, I its index, TIME as above
//   median KIND STATE TIME        the median of the 200
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  DEFAULT_SPIN_US = 20,
};

enum Kind { STREAM, DEVICE, EVENT, COPY, FREE, PAGEABLE, PAGEABLE_H2D };
static const char *const KIND_NAMES[] = { "stream", "device", "event", "copy", "free", "pageable",
                                          "pageable-h2d" };

// What a call that waits needs: the copy's 4 bytes each way, the buffer
// a free gives back (allocated before each kernel).
struct Waiting
{
  cudaStream_t stream;
  cudaEvent_t event;
  int *device_word;
  int *host_word;
  int *pageable_word;
  void *to_free;
};

static void
synchronize (Kind kind, Waiting *w)
{
  if (kind == STREAM)
    CHECK (cudaStreamSynchronize (w->stream));
  else if (kind == DEVICE)
    CHECK (cudaDeviceSynchronize ());
  else if (kind == EVENT)
    CHECK (cudaEventSynchronize (w->event));
  else if (kind == COPY)
    CHECK (cudaMemcpy (w->host_word, w->device_word, sizeof (int), cudaMemcpyDeviceToHost));
  else if (kind == PAGEABLE)
    CHECK (cudaMemcpy (w->pageable_word, w->device_word, sizeof (int), cudaMemcpyDeviceToHost));
  else if (kind == PAGEABLE_H2D)
    CHECK (cudaMemcpy (w->device_word, w->pageable_word, sizeof (int), cudaMemcpyHostToDevice));
  else
    {
      CHECK (cudaFree (w->to_free));
      w->to_free = NULL;
    }
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "auto";
  unsigned flags = 0;
  unsigned event_flags = cudaEventDisableTiming;
  if (std::strcmp (mode, "spin") == 0)
    flags = cudaDeviceScheduleSpin;
  else if (std::strcmp (mode, "yield") == 0)
    flags = cudaDeviceScheduleYield;
  else if (std::strcmp (mode, "blocking") == 0)
    flags = cudaDeviceScheduleBlockingSync;
  else if (std::strcmp (mode, "event-blocking") == 0)
    event_flags |= cudaEventBlockingSync;
  else if (std::strcmp (mode, "auto") != 0)
    {
      std::fprintf (stderr, "usage: %s [auto|spin|yield|blocking|event-blocking] [SPIN_US]\n", argv[0]);
      return 2;
    }
  long spin_us = argc > 2 ? std::atol (argv[2]) : DEFAULT_SPIN_US;
  if (spin_us <= 0)
    {
      std::fprintf (stderr, "%s: SPIN_US must be a positive number of microseconds\n", argv[0]);
      return 2;
    }
  unsigned long long spin_ns = (unsigned long long) spin_us * 1000;
  // before anything makes the context, which takes the flags it finds
  if (flags != 0)
    CHECK (cudaSetDeviceFlags (flags));
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  std::printf ("mode %s %llu\n", mode, spin_ns);
  cudaStream_t stream;
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  cudaEvent_t event;
  CHECK (cudaEventCreateWithFlags (&event, event_flags));
  unsigned long long *end;
  CHECK (cudaHostAlloc (&end, sizeof *end, cudaHostAllocMapped));
  long long offset = clock_tie_printed ();

  Waiting w = { stream, event, NULL, NULL, NULL, NULL };
  CHECK (cudaMalloc (&w.device_word, sizeof (int)));
  CHECK (cudaMallocHost (&w.host_word, sizeof (int)));
  std::vector<int> pageable (1024);
  w.pageable_word = pageable.data ();
  for (int k = STREAM; k <= PAGEABLE_H2D; k++)
    {
      Kind kind = (Kind) k;
      // a blocking copy (cudaMemcpy, the legacy default stream) and a free
      // (the device) wait for a kernel of the legacy default stream
      cudaStream_t kernel_stream = kind >= COPY ? 0 : stream;
      std::vector<double> idle, after;
      for (int i = -WARMUP; i < REPEATS; i++)
        {
          // idle: the stream's and the event's work long done
          CHECK (cudaEventRecord (event, stream));
          if (kind == FREE)
            CHECK (cudaMalloc (&w.to_free, 256));
          CHECK (cudaDeviceSynchronize ());
          double t0 = now_us ();
          synchronize (kind, &w);
          double t1 = now_us ();
          // after: behind a kernel that ends spin_ns on
          if (kind == FREE)
            CHECK (cudaMalloc (&w.to_free, 256));
          *(volatile unsigned long long *) end = 0;
          spin_and_stamp<<<1, 1, 0, kernel_stream>>> (spin_ns, end);
          CHECK (cudaGetLastError ());
          CHECK (cudaEventRecord (event, stream));
          synchronize (kind, &w);
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
