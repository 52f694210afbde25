// cold_call_probe.cu: what a CUDA call costs the host by how long the host
// worked since its previous call: a measurement program of its own.
//
// Recorded programs' calls take longer the more host work came before them
// (a launch 4 us in a tight loop, 6 to 8 us after a few microseconds of
// Python). This program makes calls after host work of a set length, of two
// kinds:
//   spin   the host reads its clock until the time is up (its caches keep
//          the driver's code and data)
//   touch  the host writes one byte a cache line over a 64 MiB buffer until
//          the time is up (it evicts them, as an interpreter's work does)
// For each kind and each length GAP (0 to 64 us), 400 rounds of: host work,
// a one-block launch (spin kernel, no spinning), host work, a
// cudaEventRecord, host work, a cudaMemsetAsync of 4 KiB, host work, a
// cudaMemcpyAsync of 4 KiB from pinned memory to the device, each call timed
// on the host's steady clock; every 50 rounds the host synchronizes (not
// timed, followed by 20 us of the same work). One line per kind, gap and
// call:
//   cold WORK GAP_US CALL median_us p25_us p75_us
// Run it alone, and under `streamsim-validate --record`, whose CUPTI records
// time the same calls from inside.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"
#include "kernels/spin.h"

enum { ROUNDS = 400, SYNC_EVERY = 50, BUFFER = 64 << 20, LINE = 64 };

static volatile uint8_t *buffer; // host memory the touch work writes
static size_t cursor;            // where the touch work goes on

// Host work of `kind` (0 spin, 1 touch) for `us` microseconds.
static void
work (int kind, double us)
{
  double until = now_us () + us;
  if (kind == 0)
    {
      while (now_us () < until)
        ;
      return;
    }
  do
    {
      for (int i = 0; i < 64; i++)
        {
          buffer[cursor] = (uint8_t) (buffer[cursor] + 1);
          cursor = (cursor + LINE) % BUFFER;
        }
    }
  while (now_us () < until);
}

static double
quantile (std::vector<double> v, double q)
{
  std::sort (v.begin (), v.end ());
  return v[(size_t) (q * (double) (v.size () - 1))];
}

int
main ()
{
  static const char *kinds[] = { "spin", "touch" };
  static const char *calls[] = { "launch", "record", "memset", "h2d" };
  static const double gaps[] = { 0, 0.5, 1, 2, 4, 8, 16, 32, 64 };
  SpinSlot *slot;
  void *device, *pinned;
  cudaStream_t s;
  cudaEvent_t e;
  buffer = new uint8_t[BUFFER]();
  CHECK (cudaMalloc (&slot, sizeof (SpinSlot)));
  CHECK (cudaMalloc (&device, 4096));
  CHECK (cudaMallocHost (&pinned, 4096));
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaEventCreateWithFlags (&e, cudaEventDisableTiming));
  // warm-up: every call once
  CHECK (spin_launch (1, 32, 0, s, 0, slot));
  CHECK (cudaEventRecord (e, s));
  CHECK (cudaMemsetAsync (device, 0, 4096, s));
  CHECK (cudaMemcpyAsync (device, pinned, 4096, cudaMemcpyHostToDevice, s));
  CHECK (cudaStreamSynchronize (s));

  for (int kind = 0; kind < 2; kind++)
    for (double gap : gaps)
      {
        std::vector<double> t[4];
        for (int r = 0; r < ROUNDS; r++)
          {
            if (r % SYNC_EVERY == 0)
              {
                CHECK (cudaStreamSynchronize (s));
                work (kind, 20);
              }
            for (int c = 0; c < 4; c++)
              {
                work (kind, gap);
                double t0 = now_us ();
                if (c == 0)
                  CHECK (spin_launch (1, 32, 0, s, 0, slot));
                else if (c == 1)
                  CHECK (cudaEventRecord (e, s));
                else if (c == 2)
                  CHECK (cudaMemsetAsync (device, 0, 4096, s));
                else
                  CHECK (cudaMemcpyAsync (device, pinned, 4096, cudaMemcpyHostToDevice, s));
                t[c].push_back (now_us () - t0);
              }
          }
        CHECK (cudaStreamSynchronize (s));
        for (int c = 0; c < 4; c++)
          std::printf ("cold %s %g %s %.3f %.3f %.3f\n", kinds[kind], gap, calls[c],
                       quantile (t[c], 0.5), quantile (t[c], 0.25), quantile (t[c], 0.75));
        std::fflush (stdout);
      }
  return 0;
}
