/* val_bench.h: what the calibration's in-process benchmarks share: the GPU's resources, the clock, the profile being filled.
 *
 * val_calibrate_run opens a Bench, runs the stages in order (each in its
 * own file: val_calib_copies.c, val_calib_host.c, then the limits and
 * queues in val_calibrate.c), and saves the profile with the comments the
 * stages noted. Later stages read what earlier ones measured: the latency
 * benchmarks subtract the pinned links' times and the one-stream call
 * costs. */
#ifndef VAL_BENCH_H
#define VAL_BENCH_H

#include <glib.h>
#include <cuda_runtime_api.h>
#include "sim/core/gpu_profile.h"
#include "sim/core/schedule.h"
#include "kernels/spin.h"
#include "val_clock.h"
#include "val_device.h"
#include "val_probe.h"

#define KiB ((guint64) 1024)
#define MiB (KiB * 1024)
#define MAX_SIZE (256 * MiB) /* the largest copy of the sweeps */
#define BIG (64 * MiB)       /* duplex and same-direction tests */
#define SMALL (4 * KiB)      /* latency tests */
#define N_SLOTS 4096         /* kernels' timing slots */

typedef struct
{
  const ValDevice *dev;
  const ValProbeResults *probes;
  cudaStream_t a, b, helper;
  cudaStream_t rot[4]; /* a, b and two more: calls that go round streams */
  ValClock *clock;
  cudaEvent_t ev[6];
  cudaEvent_t plain; /* timing disabled, as a program's own events */
  void *dev_src, *dev_dst, *pinned, *pinned2, *pageable;
  SpinSlot *slots, *slots_host;
  GpuProfile prof;
  SimTime launch_one, memcpy_one; /* call costs into a single stream */
  GPtrArray *comments; /* key, comment, key, comment, ... */
} Bench;

/* Makes the streams, events and buffers (256 MiB of device memory twice,
 * 256 + 64 MiB pinned, 256 MiB pageable, all written once) and ties the
 * clocks. val_bench_close frees what was made, also after a failure. */
gboolean val_bench_open (Bench *b, const ValDevice *dev, const ValProbeResults *probes,
                         GError **error);
void val_bench_close (Bench *b);

/* Prints "  key  text" on stderr and keeps it as the profile's comment on
 * `key` ("[section]" texts go on the section). */
void val_bench_note (Bench *b, const char *key, const char *format, ...) G_GNUC_PRINTF (3, 4);

static inline double
val_bench_us (SimTime ns)
{
  return (double) ns / 1000.0;
}

/* Waits for the device, then reads the first `n` timing slots into slots_host. */
gboolean val_bench_read_slots (Bench *b, guint n, GError **error);
/* Clears the first `n` timing slots. */
gboolean val_bench_reset_slots (Bench *b, guint n, GError **error);
/* The arguments of a copy in direction `dir` between the device buffers and
 * the host buffer `host`. */
void val_bench_copy_args (Bench *b, SchedCopyDir dir, void *host, void **dst, const void **src,
                          enum cudaMemcpyKind *kind);

/* The stages. */

/* A warm-up pass of the copies the sweeps make. */
gboolean val_calib_copies_warm_up (Bench *b, GError **error);
/* [copy]: the seven links (pinned, pageable and untouched each way, d2d),
 * the row rates of 2D copies, the duplex factor and the engines. */
gboolean val_calib_copies (Bench *b, GError **error);
/* [host] and [latency], and Fermi's deferred completion; after the copies. */
gboolean val_calib_host (Bench *b, GError **error);

#endif /* VAL_BENCH_H */
