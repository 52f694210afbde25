/* val_calib_host.c: the calibration's host and latency benchmarks: what each call costs the host, and how long the GPU takes to start what it was given (see val_bench.h).
 *
 * Each number is measured the way engines/eng_host.c and eng_deps.c use it:
 * a device call arrives at its queue at call start + host cost + submit
 * latency (launch latency for kernels, copy_submit for copies); a kernel
 * follows a kernel after kernel_gap, any other cross-engine dependency costs
 * dependency latency; a blocking call returns its host cost after its
 * condition holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "kernels/spin.h"
#include "val_bench.h"
#include "val_cuda.h"

#define HOST_CALLS 2000
#define HOST_BATCH 100
#define LAT_TRIALS 200

/* Median duration of `n` calls of one kind, in batches with a sync between
 * so that no queue fills up. */
typedef enum
{
  CALL_LAUNCH,
  CALL_LAUNCH_ROTATE,       /* into four streams in turn */
  CALL_MEMCPY_ASYNC,
  CALL_MEMCPY_ASYNC_ROTATE, /* into two streams in turn */
  CALL_RECORD,
  CALL_WAIT,
  CALL_SYNC_IDLE,
} CallKind;

/* A call's cost: the time from one call to the next, the median over the
 * batches of each batch's mean (calib_fit_median_of_means says why). */
static gboolean
time_calls (Bench *b, CallKind kind, SimTime *cost, GError **error)
{
  SimTime *t = g_new (SimTime, HOST_CALLS);
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;
  val_bench_copy_args (b, SCHED_DIR_H2D, b->pinned, &dst, &src, &k);
  gboolean ok = VAL_CUDA (cudaEventRecord (b->plain, b->b), error)
                && VAL_CUDA (cudaDeviceSynchronize (), error);
  /* One clock read between calls, as the harness issues a schedule: each
   * call's cost includes one read of the host clock, which the harness also
   * adds to every op it measures. */
  SimTime t0 = val_cuda_now ();
  for (int i = 0; i < HOST_CALLS && ok; i++)
    {
      cudaError_t rc = cudaSuccess;
      switch (kind)
        {
        case CALL_LAUNCH:
          rc = spin_launch (1, 32, 0, b->a, 0, NULL);
          break;
        case CALL_LAUNCH_ROTATE:
          rc = spin_launch (1, 32, 0, b->rot[i % 4], 0, NULL);
          break;
        case CALL_MEMCPY_ASYNC:
          rc = cudaMemcpyAsync (dst, src, SMALL, k, b->a);
          break;
        case CALL_MEMCPY_ASYNC_ROTATE:
          rc = cudaMemcpyAsync (dst, src, SMALL, k, b->rot[i % 2]);
          break;
        case CALL_RECORD:
          rc = cudaEventRecord (b->plain, b->a);
          break;
        case CALL_WAIT:
          rc = cudaStreamWaitEvent (b->a, b->plain, 0);
          break;
        case CALL_SYNC_IDLE:
          rc = cudaStreamSynchronize (b->a);
          break;
        }
      SimTime t1 = val_cuda_now ();
      t[i] = t1 - t0;
      t0 = t1;
      ok = VAL_CUDA (rc, error);
      /* Work between calls (a fresh record to wait on, a sync after each
       * batch) must not count: restart the clock after it. */
      if (ok && kind == CALL_WAIT)
        ok = VAL_CUDA (cudaEventRecord (b->plain, b->b), error);
      if (ok && (i + 1) % HOST_BATCH == 0)
        ok = VAL_CUDA (cudaDeviceSynchronize (), error);
      if (kind == CALL_WAIT || (i + 1) % HOST_BATCH == 0)
        t0 = val_cuda_now ();
    }
  if (ok)
    *cost = calib_fit_median_of_means (t, HOST_CALLS, HOST_BATCH);
  g_free (t);
  return ok;
}

static gboolean
bench_host_calls (Bench *b, GError **error)
{
  SimTime idle_sync = 0;
  if (!time_calls (b, CALL_LAUNCH, &b->launch_one, error)
      || !time_calls (b, CALL_LAUNCH_ROTATE, &b->prof.host_kernel_launch, error)
      || !time_calls (b, CALL_MEMCPY_ASYNC, &b->memcpy_one, error)
      || !time_calls (b, CALL_MEMCPY_ASYNC_ROTATE, &b->prof.host_memcpy_async, error)
      || !time_calls (b, CALL_RECORD, &b->prof.host_event_record, error)
      || !time_calls (b, CALL_WAIT, &b->prof.host_stream_wait, error)
      || !time_calls (b, CALL_SYNC_IDLE, &idle_sync, error))
    return FALSE;
  SimTime reads[1000];
  for (int i = 0; i < 1000; i++)
    {
      SimTime a = val_cuda_now ();
      reads[i] = val_cuda_now () - a;
    }
  val_bench_note (b, "host",
                  "[host] measured: time from one call to the next over %d calls, in batches of "
                  "%d with a cudaDeviceSynchronize between; the median over the batches of each "
                  "batch's mean (a host-bound run pays the mean); it includes one read of the "
                  "host clock (CLOCK_MONOTONIC, %.3f us here), as every op the harness measures "
                  "does", HOST_CALLS, HOST_BATCH, val_bench_us (calib_fit_median (reads, 1000)));
  /* Programs with several streams alternate between them, and a call into
   * another stream than the previous one costs more: that is the number the
   * suite's multi-stream schedules see. */
  val_bench_note (b, "host.kernel_launch",
                  "measured: launch of an empty 1-block kernel into four streams in turn, %.2f "
                  "us; into one stream %.2f us", val_bench_us (b->prof.host_kernel_launch),
                  val_bench_us (b->launch_one));
  val_bench_note (b, "host.memcpy_async",
                  "measured: cudaMemcpyAsync of 4 KiB pinned H2D into two streams in turn, %.2f "
                  "us; into one stream %.2f us", val_bench_us (b->prof.host_memcpy_async),
                  val_bench_us (b->memcpy_one));
  val_bench_note (b, "host.event_record",
                  "measured: cudaEventRecord (timing disabled), %.2f us",
                  val_bench_us (b->prof.host_event_record));
  val_bench_note (b, "host.stream_wait",
                  "measured: cudaStreamWaitEvent on a completed event, %.2f us",
                  val_bench_us (b->prof.host_stream_wait));

  /* host.sync: a sync returns this long after its condition holds: a 50 us
   * kernel, then cudaStreamSynchronize; its return minus the kernel's end. */
  SimTime t[LAT_TRIALS];
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!val_bench_reset_slots (b, 1, error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 50000ull, &b->slots[0]), error)
          || !VAL_CUDA (cudaStreamSynchronize (b->a), error))
        return FALSE;
      SimTime back = val_cuda_now ();
      if (!val_bench_read_slots (b, 1, error))
        return FALSE;
      t[i] = back - val_clock_from_gpu (b->clock, b->slots_host[0].end);
    }
  SimTime wake = calib_fit_median (t, LAT_TRIALS);
  b->prof.host_sync = MAX (wake, 0);
  val_bench_note (b, "host.sync",
                  "measured: cudaStreamSynchronize returned %.2f us after the kernel it waited "
                  "for ended (globaltimer tied to the host clock; median of %d); the call on an "
                  "idle stream takes %.2f us", val_bench_us (wake), LAT_TRIALS,
                  val_bench_us (idle_sync));
  b->prof.host_sync_idle = MAX (idle_sync, 0);
  val_bench_note (b, "host.sync_idle",
                  "measured: a cudaStreamSynchronize on an idle stream, what a sync that finds "
                  "nothing to wait for costs (%.2f us)", val_bench_us (idle_sync));
  return TRUE;
}

static gboolean
bench_latencies (Bench *b, GError **error)
{
  SimTime t[LAT_TRIALS], raw[LAT_TRIALS];
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;

  /* launch: first block start - (call start + host.kernel_launch). */
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!val_bench_reset_slots (b, 1, error))
        return FALSE;
      SimTime t0 = val_cuda_now ();
      if (!VAL_CUDA (spin_launch (1, 32, 0, b->a, 0, &b->slots[0]), error)
          || !val_bench_read_slots (b, 1, error))
        return FALSE;
      raw[i] = val_clock_from_gpu (b->clock, b->slots_host[0].start) - t0;
    }
  SimTime launch = calib_fit_median (raw, LAT_TRIALS);
  b->prof.launch_latency = MAX (0, launch - b->launch_one);
  val_bench_note (b, "latency.launch",
                  "measured: an idle GPU started a 1-block kernel %.2f us after the launch call "
                  "began (median of %d); minus the call's %.2f us (one stream)",
                  val_bench_us (launch), LAT_TRIALS, val_bench_us (b->launch_one));

  /* copy_submit: a 4 KiB H2D into an idle stream ends host.memcpy_async +
   * copy_submit + latency + bytes/bandwidth after its call began. */
  val_bench_copy_args (b, SCHED_DIR_H2D, b->pinned, &dst, &src, &k);
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!VAL_CUDA (cudaDeviceSynchronize (), error))
        return FALSE;
      SimTime t0 = val_cuda_now ();
      SimTime end;
      if (!VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->a), error)
          || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
          || !VAL_CUDA (cudaStreamSynchronize (b->a), error)
          || !val_clock_from_event (b->clock, b->ev[1], &end, error))
        return FALSE;
      raw[i] = end - t0;
    }
  SimTime copy_total = calib_fit_median (raw, LAT_TRIALS);
  SimTime copy4k = b->prof.h2d_pinned.latency
                   + (SimTime) ((double) SMALL / b->prof.h2d_pinned.bandwidth * 1e9);
  b->prof.copy_submit = MAX (0, copy_total - b->memcpy_one - copy4k);
  val_bench_note (b, "latency.copy_submit",
                  "measured: a 4 KiB pinned H2D into an idle stream ended %.2f us after its call "
                  "began (median of %d); minus the call's %.2f us (one stream) and the copy's "
                  "own %.2f us", val_bench_us (copy_total), LAT_TRIALS,
                  val_bench_us (b->memcpy_one), val_bench_us (copy4k));

  /* host.memcpy_sync: cudaMemcpy returns memcpy_sync after its copy ends. */
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      SimTime t0 = val_cuda_now ();
      if (!VAL_CUDA (cudaMemcpy (dst, src, SMALL, k), error))
        return FALSE;
      raw[i] = val_cuda_now () - t0;
    }
  SimTime sync_total = calib_fit_median (raw, LAT_TRIALS);
  b->prof.host_memcpy_sync = MAX (0, sync_total - b->memcpy_one - b->prof.copy_submit - copy4k);
  val_bench_note (b, "host.memcpy_sync",
                  "measured: cudaMemcpy of 4 KiB pinned H2D took %.2f us (median of %d); minus "
                  "the async call's cost, latency.copy_submit and the copy itself",
                  val_bench_us (sync_total), LAT_TRIALS);

  /* dependency: kernel end -> a 4 KiB D2H behind it in the same stream. */
  val_bench_copy_args (b, SCHED_DIR_D2H, b->pinned, &dst, &src, &k);
  SimTime copy4k_d2h = b->prof.d2h_pinned.latency
                       + (SimTime) ((double) SMALL / b->prof.d2h_pinned.bandwidth * 1e9);
  SimTime cross[LAT_TRIALS];
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      SimTime end, end2;
      if (!val_bench_reset_slots (b, 2, error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 30000ull, &b->slots[0]), error)
          || !VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->a), error)
          || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
          /* across streams through an event: kernel in a, record, wait in b, copy in b */
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 30000ull, &b->slots[1]), error)
          || !VAL_CUDA (cudaEventRecord (b->plain, b->a), error)
          || !VAL_CUDA (cudaStreamWaitEvent (b->b, b->plain, 0), error)
          || !VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->b), error)
          || !VAL_CUDA (cudaEventRecord (b->ev[2], b->b), error)
          || !val_bench_read_slots (b, 2, error)
          || !val_clock_from_event (b->clock, b->ev[1], &end, error)
          || !val_clock_from_event (b->clock, b->ev[2], &end2, error))
        return FALSE;
      t[i] = end - val_clock_from_gpu (b->clock, b->slots_host[0].end) - copy4k_d2h;
      cross[i] = end2 - val_clock_from_gpu (b->clock, b->slots_host[1].end) - copy4k_d2h;
    }
  SimTime dep = calib_fit_median (t, LAT_TRIALS), dep_cross = calib_fit_median (cross, LAT_TRIALS);
  b->prof.dependency_latency = MAX (0, dep);
  val_bench_note (b, "latency.dependency",
                  "measured: a 4 KiB D2H queued behind a kernel in the same stream ended %.2f us "
                  "after the kernel plus the copy's own %.2f us (median of %d); through an event "
                  "into another stream: %.2f us", val_bench_us (dep), val_bench_us (copy4k_d2h),
                  LAT_TRIALS, val_bench_us (dep_cross));

  /* kernel_gap: a kernel queued behind a kernel of the same stream; and
   * behind a kernel of another stream through an event, for comparison. */
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!val_bench_reset_slots (b, 4, error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 50000ull, &b->slots[0]), error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 0, &b->slots[1]), error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 50000ull, &b->slots[2]), error)
          || !VAL_CUDA (cudaEventRecord (b->plain, b->a), error)
          || !VAL_CUDA (cudaStreamWaitEvent (b->b, b->plain, 0), error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->b, 0, &b->slots[3]), error)
          || !val_bench_read_slots (b, 4, error))
        return FALSE;
      t[i] = (SimTime) (b->slots_host[1].start - b->slots_host[0].end);
      cross[i] = (SimTime) (b->slots_host[3].start - b->slots_host[2].end);
    }
  SimTime gap = calib_fit_median (t, LAT_TRIALS), gap_cross = calib_fit_median (cross, LAT_TRIALS);
  b->prof.kernel_gap = MAX (0, gap);
  val_bench_note (b, "latency.kernel_gap",
                  "measured: a kernel queued behind a kernel of its stream started %.2f us after "
                  "it ended (globaltimer, median of %d); behind a kernel of another stream "
                  "through an event: %.2f us", val_bench_us (gap), LAT_TRIALS,
                  val_bench_us (gap_cross));
  return TRUE;
}

/* Fermi's deferred completion: a D2H waiting on a short kernel, while a long
 * kernel of another stream was launched right after the short one. */
static gboolean
bench_deferred (Bench *b, GError **error)
{
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;
  val_bench_copy_args (b, SCHED_DIR_D2H, b->pinned, &dst, &src, &k);
  SimTime end, long_end;
  if (!val_clock_sync (b->clock, error) || !val_bench_reset_slots (b, 2, error)
      || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 100000ull, &b->slots[0]), error)
      || !VAL_CUDA (spin_launch (1, 32, 0, b->b, 1000000ull, &b->slots[1]), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
      || !val_bench_read_slots (b, 2, error)
      || !val_clock_from_event (b->clock, b->ev[1], &end, error))
    return FALSE;
  long_end = val_clock_from_gpu (b->clock, b->slots_host[1].end);
  b->prof.deferred_completion = end >= long_end;
  val_bench_note (b, "kernel.deferred_completion",
                  "measured: a D2H behind a 100 us kernel ended %.1f us %s the 1 ms kernel "
                  "launched after it in another stream ended", val_bench_us (ABS (long_end - end)),
                  end >= long_end ? "after" : "before");
  return TRUE;
}

gboolean
val_calib_host (Bench *b, GError **error)
{
  return bench_host_calls (b, error) && bench_latencies (b, error) && bench_deferred (b, error);
}
