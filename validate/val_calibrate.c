/* val_calibrate.c: measure a GPU and write its device profile: the stages in order, the limits, the queues (see val_calibrate.h).
 *
 * Each profile number is measured the way the engine model uses it, so that
 * the model fed with these numbers reproduces the microbenchmarks
 * themselves: the copy links in val_calib_copies.c, the host's calls and
 * the latencies in val_calib_host.c, what needs a context of its own in
 * val_probe.c; the kernel limits and the queues are filled in here from
 * the device's properties and the probes. Every number is a median over
 * many trials, or a mean where the model sums it (call costs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/formats/profile_file.h"
#include "sim/formats/profile_keys.h"
#include "kernels/spin.h"
#include "sim/formats/units.h"
#include "calib_fit.h"
#include "val_bench.h"
#include "val_calibrate.h"
#include "val_cuda.h"

static void
fill_kernel_limits (Bench *b)
{
  const struct cudaDeviceProp *p = &b->dev->prop;
  GpuProfile *f = &b->prof;
  f->sm_count = (guint) p->multiProcessorCount;
  f->max_threads_per_sm = (guint) p->maxThreadsPerMultiProcessor;
  f->max_blocks_per_sm = (guint) p->maxBlocksPerMultiProcessor;
  f->smem_per_sm = p->sharedMemPerMultiprocessor;
  f->regs_per_sm = (guint) p->regsPerMultiprocessor;
  f->max_threads_per_block = (guint) p->maxThreadsPerBlock;
  f->max_smem_per_block = p->sharedMemPerBlockOptin;
  val_bench_note (b, "kernel",
                  "[kernel] limits from cudaGetDeviceProperties (multiProcessorCount, "
                  "maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor, "
                  "sharedMemPerMultiprocessor, regsPerMultiprocessor, maxThreadsPerBlock, "
                  "sharedMemPerBlockOptin); each block also reserves %zu bytes of shared memory "
                  "(reservedSharedMemPerBlock), which the model does not count",
                  p->reservedSharedMemPerBlock);
}

/* The numbers a model scaling kernel times between devices reads: the
 * device's peak clocks and bus width, and the FP32 rate they give. */
static gboolean
fill_device_rates (Bench *b, GError **error)
{
  const struct cudaDeviceProp *p = &b->dev->prop;
  GpuProfile *f = &b->prof;
  int clock_khz = 0, memory_khz = 0, bus_bits = 0;
  if (!VAL_CUDA (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrClockRate, 0), error)
      || !VAL_CUDA (cudaDeviceGetAttribute (&memory_khz, cudaDevAttrMemoryClockRate, 0), error)
      || !VAL_CUDA (cudaDeviceGetAttribute (&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0), error))
    return FALSE;
  f->sm_clock = clock_khz > 0 ? clock_khz * 1e3 : 0;
  val_bench_note (b, "kernel.sm_clock", "cudaDevAttrClockRate: the SMs' peak clock, %d kHz",
                  clock_khz);
  /* Beyond what a profile holds, the key is left out (unknown) rather than
   * the whole profile refused. */
  double memory = calib_fit_memory_bandwidth (memory_khz, bus_bits);
  f->memory_bandwidth = memory <= PROFILE_MAX_BANDWIDTH ? memory : 0;
  val_bench_note (b, "kernel.memory_bandwidth",
                  "cudaDevAttrMemoryClockRate %d kHz x cudaDevAttrGlobalMemoryBusWidth %d bits "
                  "x 2 transfers per clock: the peak, as deviceQuery computes it (a data sheet "
                  "may round it, or give less)", memory_khz, bus_bits);
  f->fp32_flops = calib_fit_fp32_flops (p->major, p->minor, f->sm_count, f->sm_clock);
  val_bench_note (b, "kernel.fp32_flops",
                  "2 x %u SMs x %u FP32 results per clock per SM (CUDA C++ Programming Guide, "
                  "arithmetic instruction throughput, compute capability %d.%d) x the peak clock",
                  f->sm_count, calib_fit_fp32_per_sm (p->major, p->minor), p->major, p->minor);
  return TRUE;
}

static gboolean
bench_kernel_keys (Bench *b, GError **error)
{
  int regs = 0;
  if (!VAL_CUDA (spin_registers (&regs), error))
    return FALSE;
  /* Registers are allocated per warp in units of 256, i.e. per thread in
   * units of 8: the count the occupancy rule sees. */
  b->prof.default_regs = (guint) CLAMP ((regs + 7) / 8 * 8, 1, 255);
  val_bench_note (b, "kernel.default_regs",
                  "the harness's spin kernel uses %d registers per thread, allocated as %u "
                  "(warps take registers in units of 256)", regs, b->prof.default_regs);

  const ValProbeResults *probes = b->probes;
  b->prof.max_concurrent_kernels = probes->max_concurrent > 0 ? probes->max_concurrent : 128;
  val_bench_note (b, "kernel.max_concurrent_kernels",
                  "measured: 160 single-block 5 ms kernels in 160 streams (32 connections): at "
                  "most %u ran at once (the programming guide says 128 for compute capability "
                  "9.0)", probes->max_concurrent);

  /* Not measured (-1): the model's default, kernels of one connection overlap. */
  b->prof.connection_serializes = probes->overlap_one_connection >= 0
                                  && probes->overlap_one_connection < 0.5;
  val_bench_note (b, "kernel.connection_serializes",
                  "measured: two kernels of %d blocks x %d threads (half of every SM each) in "
                  "two streams overlapped %.0f%% with CUDA_DEVICE_MAX_CONNECTIONS=1 (one "
                  "connection) and %.0f%% with 8 (one each)", b->dev->prop.multiProcessorCount,
                  MIN (b->dev->prop.maxThreadsPerMultiProcessor / 2,
                       b->dev->prop.maxThreadsPerBlock),
                  100 * probes->overlap_one_connection, 100 * probes->overlap_two_connections);
  return TRUE;
}

static void
fill_queues (Bench *b)
{
  const ValProbeResults *probes = b->probes;
  b->prof.default_connections = probes->default_connections > 0 ? probes->default_connections : 8;
  b->prof.max_connections = MAX (probes->connections32 > 0 ? probes->connections32 : 32,
                                 b->prof.default_connections);
  val_bench_note (b, "queues",
                  "[queues] measured: stream 0 holds its connection with a kernel waiting "
                  "behind a 2 ms kernel; streams 1..64 then launch one kernel each, 2 ms long "
                  "(every connection busy) or 10 us (connections mostly idle); the streams held "
                  "back share stream 0's connection");
  val_bench_note (b, "queues.default_connections",
                  "measured with CUDA_DEVICE_MAX_CONNECTIONS unset: held back: streams %s "
                  "(%s)%s; with 10 us kernels: %s", probes->delayed_default,
                  probes->rr_default ? "round-robin in creation order"
                                     : "NOT a round-robin pattern",
                  probes->default_connections > 0 ? "" : "; no stream held back, 8 assumed",
                  probes->cold_default ? probes->cold_default : "not measured");
  /* Stream 0's connection held, and no stream of 64 held back behind it
   * although creation order puts every eighth there: streams took
   * connections that were not held (calib_fit_assign_on_submit). */
  b->prof.assign_on_submit = probes->default_measured && probes->assign_on_submit;
  val_bench_note (b, "queues.assign_on_submit",
                  "measured: with stream 0's connection held (a kernel waiting behind a 2 ms "
                  "kernel), streams 1..64 (2 ms kernels) held back: %s; round-robin in creation "
                  "order holds back every stream that shares stream 0's connection%s",
                  probes->delayed_default,
                  !probes->default_measured ? "; not measured, so the documented rule (false)"
                  : b->prof.assign_on_submit ? ": streams take a connection that is not held "
                                               "when they submit"
                                             : "");
  /* Fewer copy queues than connections, as the H100 and H200 give when the
   * variable is unset (engines/eng_connection.c, COPY QUEUES); left out
   * otherwise, which means as many. */
  guint copy = probes->default_copy_connections;
  gboolean shared = copy > 0 && copy < b->prof.default_connections;
  b->prof.default_copy_connections = shared ? copy : 0;
  b->prof.shared_copy_min_size = shared ? probes->shared_copy_min : 0;
  g_autofree char *least = units_format_exact_size (probes->shared_copy_min);
  val_bench_note (b, "queues.default_copy_connections",
                  "measured with CUDA_DEVICE_MAX_CONNECTIONS unset: a 1 MiB D2H waiting for its "
                  "stream's 2 ms kernel held back the 1 MiB D2H of stream %u of 32 and every "
                  "%u-th after it: connection c's copies go to connection (c mod %u)'s copy "
                  "queues, where kernels have %u connections", copy, copy, copy,
                  b->prof.default_connections);
  val_bench_note (b, "queues.shared_copy_min_size",
                  "measured the same way: the same pattern twice at every size from %s to "
                  "1 MiB (halving from 1 MiB down to 64 KiB)", least);
  val_bench_note (b, "queues.max_connections",
                  "measured with CUDA_DEVICE_MAX_CONNECTIONS=32: held back: streams %s (%s), "
                  "with 10 us kernels %s; with 4: streams %s (%s), with 10 us kernels %s",
                  probes->delayed32, probes->rr32 ? "round-robin" : "NOT round-robin",
                  probes->cold32 ? probes->cold32 : "not measured", probes->delayed4,
                  probes->rr4 ? "round-robin" : "NOT round-robin",
                  probes->cold4 ? probes->cold4 : "not measured");
}

static char *
profile_name_of (const char *path)
{
  char *base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".ini"))
    base[strlen (base) - 4] = '\0';
  return base;
}

/* The blocking links' latencies as the model charges them
 * (calib_fit_net_latency): known once the host's calls and the copy
 * submission are measured. */
static void
net_blocking_links (Bench *b)
{
  static const char *const links[] = { "h2d_pageable_latency", "d2h_pageable_latency",
                                       "h2d_untouched_latency", "d2h_untouched_latency" };
  SimTime before = b->prof.host_memcpy_async + b->prof.copy_submit;
  for (gsize i = 0; i < G_N_ELEMENTS (links); i++)
    {
      const ProfileKey *key = &profile_keys[profile_key_index ("copy", links[i])];
      SimTime *latency = &G_STRUCT_MEMBER (SimTime, &b->prof, key->offset);
      SimTime intercept = *latency;
      *latency = calib_fit_net_latency (intercept, before);
      g_autofree char *where = g_strdup_printf ("copy.%s", links[i]);
      val_bench_note (b, where,
                      "measured: the fit's intercept, %.2f us, less what the model charges before "
                      "a copy starts (memcpy_async %.2f us + copy_submit %.2f us), which the span "
                      "from an event before the call holds",
                      val_bench_us (intercept), val_bench_us (b->prof.host_memcpy_async),
                      val_bench_us (b->prof.copy_submit));
    }
}

gboolean
val_calibrate_run (const ValDevice *dev, const ValProbeResults *probes, const char *path,
                   GError **error)
{
  Bench b = { 0 };
  gboolean ok = val_bench_open (&b, dev, probes, error);
  SimTime started = val_cuda_now ();
  /* A warm-up pass of everything the benchmarks call. */
  ok = ok && val_calib_copies_warm_up (&b, error) && val_clock_sync (b.clock, error);
  unsigned long long resolution = 0, *res_dev = NULL;
  if (ok)
    ok = VAL_CUDA (cudaMalloc ((void **) &res_dev, sizeof *res_dev), error)
         && VAL_CUDA (spin_resolution (res_dev, 100000, b.a), error)
         && VAL_CUDA (cudaStreamSynchronize (b.a), error)
         && VAL_CUDA (cudaMemcpy (&resolution, res_dev, sizeof resolution,
                                  cudaMemcpyDeviceToHost), error);
  cudaFree (res_dev);

  if (ok)
    {
      fprintf (stderr, "calibrate: copies\n");
      ok = val_calib_copies (&b, error);
    }
  if (ok)
    {
      fprintf (stderr, "calibrate: host calls and latencies\n");
      ok = val_calib_host (&b, error);
    }
  if (ok)
    net_blocking_links (&b);
  if (ok)
    {
      fprintf (stderr, "calibrate: limits\n");
      fill_kernel_limits (&b);
      fill_queues (&b);
      ok = bench_kernel_keys (&b, error) && fill_device_rates (&b, error);
    }
  if (ok)
    {
      char *name = profile_name_of (path);
      g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
      b.prof.names[0] = name;
      b.prof.description = g_strdup_printf ("%s, calibrated by streamsim-validate", dev->gpu);
      b.prof.calibrated = TRUE;
      b.prof.gpu = g_strdup (dev->gpu);
      b.prof.driver = g_strdup (dev->driver);
      b.prof.cuda = g_strdup (dev->cuda);
      b.prof.date = g_date_time_format_iso8601 (now);
      const char *connections = g_getenv ("CUDA_DEVICE_MAX_CONNECTIONS");
      b.prof.source = g_strdup_printf (
        "streamsim-validate --calibrate (%.1f s of benchmarks); globaltimer resolution %llu ns; "
        "CUDA_DEVICE_MAX_CONNECTIONS %s", (double) (val_cuda_now () - started) / 1e9,
        resolution, connections != NULL ? connections : "unset");
      val_bench_note (&b, "info",
                      "[info] the GPU and software of the measurements");
      g_ptr_array_add (b.comments, NULL);
      ok = profile_save (&b.prof, path, (const char *const *) b.comments->pdata, error);
      if (ok)
        fprintf (stderr, "calibrate: wrote %s\n", path);
    }
  val_bench_close (&b);
  return ok;
}
