// poll_probe.cu: how a loop of cudaStreamQuery or cudaEventQuery ends after
// the work it waits for, run as it is and under streamsim's recorder
// (`streamsim-validate --record ... -- poll_probe`), for the model's `poll`
// (engines/MODEL.md, "How the host waits"; validate/fit-poll.sh).
//
// Each case REPEATS times, after 20 untimed:
//   idle KIND       one query of work long done: the call's own time, host
//                   clock to host clock (KIND stream or event)
//   after KIND US   behind a one-block kernel that spins SPIN_US and stamps its
//                   end with %globaltimer, query until done with US
//                   microseconds of host work between two queries: from that
//                   end to the loop's return (the GPU's clock tied to the
//                   host's, clock_tie.h), and how many queries it made
// and, for comparison, `sync stream`: cudaStreamSynchronize behind the same
// kernel, from its end to the return.
//
// Its first argument is how long the kernel spins, in us (200 unless given),
// its second how many times each case runs (200 unless given).
//
// Lines (times in ns, integers):
//   gpu NAME                         the device
//   clock OFFSET WINDOW              host = globaltimer + OFFSET
//   idle KIND I TIME
//   after KIND EVERY_US I TIME QUERIES
//   sync stream I TIME
//   median idle KIND TIME
//   median after KIND EVERY_US TIME QUERIES
//   median sync stream TIME
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
  DEFAULT_REPEATS = 200,
  WARMUP = 20,
  DEFAULT_SPIN_US = 200,
};

static void
host_work (double us)
{
  double until = now_us () + us;
  while (now_us () < until)
    ;
}

// Queries the stream or the event until done; returns how many queries.
static int
poll (bool stream, cudaStream_t s, cudaEvent_t e, double every_us)
{
  for (int n = 1;; n++)
    {
      cudaError_t rc = stream ? cudaStreamQuery (s) : cudaEventQuery (e);
      if (rc == cudaSuccess)
        return n;
      if (rc != cudaErrorNotReady)
        CHECK (rc);
      if (every_us > 0)
        host_work (every_us);
    }
}

int
main (int argc, char **argv)
{
  long spin_us = argc > 1 ? std::atol (argv[1]) : DEFAULT_SPIN_US;
  int repeats = argc > 2 ? std::atoi (argv[2]) : DEFAULT_REPEATS;
  if (spin_us <= 0 || repeats <= 0)
    {
      std::fprintf (stderr, "usage: %s [SPIN_US [REPEATS]]\n", argv[0]);
      return 2;
    }
  unsigned long long spin_ns = (unsigned long long) spin_us * 1000;
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  cudaStream_t stream;
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  cudaEvent_t event;
  CHECK (cudaEventCreateWithFlags (&event, cudaEventDisableTiming));
  unsigned long long *end;
  CHECK (cudaHostAlloc (&end, sizeof *end, cudaHostAllocMapped));
  long long offset = clock_tie_printed ();

  static const double everys[] = { 0, 2, 10, 50 };
  for (int k = 0; k < 2; k++)
    {
      bool on_stream = k == 0;
      const char *kind = on_stream ? "stream" : "event";
      std::vector<double> idle;
      for (int i = -WARMUP; i < repeats; i++)
        {
          CHECK (cudaEventRecord (event, stream));
          CHECK (cudaDeviceSynchronize ());
          double t0 = now_us ();
          poll (on_stream, stream, event, 0);
          double t1 = now_us ();
          if (i < 0)
            continue;
          idle.push_back ((t1 - t0) * 1000.0);
          std::printf ("idle %s %d %.0f\n", kind, i, idle.back ());
        }
      std::printf ("median idle %s %.0f\n", kind, median (idle));
      for (double every : everys)
        {
          std::vector<double> after, queries;
          for (int i = -WARMUP; i < repeats; i++)
            {
              *(volatile unsigned long long *) end = 0;
              spin_and_stamp<<<1, 1, 0, stream>>> (spin_ns, end);
              CHECK (cudaGetLastError ());
              CHECK (cudaEventRecord (event, stream));
              int n = poll (on_stream, stream, event, every);
              double t2 = now_us ();
              unsigned long long stamped = *(volatile unsigned long long *) end;
              if (i < 0)
                continue;
              after.push_back (t2 * 1000.0 - (double) ((long long) stamped + offset));
              queries.push_back (n);
              std::printf ("after %s %.0f %d %.0f %d\n", kind, every, i, after.back (), n);
            }
          std::printf ("median after %s %.0f %.0f %.0f\n", kind, every, median (after),
                       median (queries));
        }
    }
  std::vector<double> synced;
  for (int i = -WARMUP; i < repeats; i++)
    {
      *(volatile unsigned long long *) end = 0;
      spin_and_stamp<<<1, 1, 0, stream>>> (spin_ns, end);
      CHECK (cudaGetLastError ());
      CHECK (cudaStreamSynchronize (stream));
      double t2 = now_us ();
      unsigned long long stamped = *(volatile unsigned long long *) end;
      if (i < 0)
        continue;
      synced.push_back (t2 * 1000.0 - (double) ((long long) stamped + offset));
      std::printf ("sync stream %d %.0f\n", i, synced.back ());
    }
  std::printf ("median sync stream %.0f\n", median (synced));
  return 0;
}
