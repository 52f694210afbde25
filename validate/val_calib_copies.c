/* val_calib_copies.c: the calibration's copy benchmarks: each link's latency and bandwidth, 2D copies' row rates, duplex, the engines (see val_bench.h).
 *
 * A copy alone takes latency + bytes / bandwidth in the model
 * (engines/eng_copy.c), and back-to-back copies of one stream follow each
 * other with no gap, so each size is timed as the model counts it and the
 * line is fitted over sizes from 4 KiB to 256 MiB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "kernels/spin.h"
#include "val_bench.h"
#include "val_cuda.h"
#include "val_rows.h"
#include "val_untouched.h"

#define N_SIZES 9 /* 4 KiB * 4^k, k = 0..8: 4 KiB .. 256 MiB */
#define BLOCKER_NS 200000ull

/* The host memory a copy benchmark uses. */
typedef enum
{
  HOST_PINNED,
  HOST_PAGEABLE,  /* malloc'ed and written once, as a program's buffers */
  HOST_UNTOUCHED, /* fresh from mmap for every copy: no page resident */
} HostMemory;

/* One copy, from an event before its call to one after it. Pageable
 * copies are timed so, being synchronous for the host (they cannot be
 * queued behind a blocker), and so are big pinned ones alone. */
static gboolean
time_copy_between_events (Bench *b, void *dst, const void *src, guint64 bytes,
                    enum cudaMemcpyKind kind, SimTime *ns, GError **error)
{
  return VAL_CUDA (cudaEventRecord (b->ev[0], b->a), error)
         && VAL_CUDA (cudaMemcpyAsync (dst, src, bytes, kind, b->a), error)
         && VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
         && VAL_CUDA (cudaStreamSynchronize (b->a), error)
         && val_cuda_elapsed (b->ev[0], b->ev[1], ns, error);
}

/* A copy from or into memory no page of which has been touched, mapped for
 * it and unmapped after (val_untouched.h). */
static gboolean
time_untouched_copy (Bench *b, SchedCopyDir dir, guint64 bytes, SimTime *ns, GError **error)
{
  void *host = val_untouched_map (bytes, 0, error);
  if (host == NULL)
    return FALSE;
  void *dst;
  const void *src;
  enum cudaMemcpyKind kind;
  val_bench_copy_args (b, dir, host, &dst, &src, &kind);
  gboolean ok = time_copy_between_events (b, dst, src, bytes, kind, ns, error);
  val_untouched_unmap (host, bytes);
  return ok;
}

/* A copy to time behind a blocker: `width` bytes by cudaMemcpyAsync when
 * `rows` is 0, else `rows` rows of `width` bytes by cudaMemcpy2DAsync with
 * the pitches given. */
typedef struct
{
  void *dst;
  const void *src;
  size_t width, rows, dpitch, spitch;
  enum cudaMemcpyKind kind;
} QueuedCopy;

static cudaError_t
issue_queued (const QueuedCopy *c, cudaStream_t s)
{
  return c->rows == 0 ? cudaMemcpyAsync (c->dst, c->src, c->width, c->kind, s)
                      : cudaMemcpy2DAsync (c->dst, c->dpitch, c->src, c->spitch, c->width,
                                           c->rows, c->kind, s);
}

/* A queued copy's time: a first copy, an event and `k` more copies behind
 * a blocker kernel, then an event; the time between the events over `k`
 * (time_copy says why). */
static gboolean
time_queued (Bench *b, const QueuedCopy *c, int k, SimTime *ns, GError **error)
{
  if (!VAL_CUDA (spin_launch (1, 32, 0, b->a, BLOCKER_NS, NULL), error)
      || !VAL_CUDA (issue_queued (c, b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error))
    return FALSE;
  for (int i = 0; i < k; i++)
    if (!VAL_CUDA (issue_queued (c, b->a), error))
      return FALSE;
  SimTime total;
  if (!VAL_CUDA (cudaEventRecord (b->ev[2], b->a), error)
      || !VAL_CUDA (cudaStreamSynchronize (b->a), error)
      || !val_cuda_elapsed (b->ev[1], b->ev[2], &total, error))
    return FALSE;
  *ns = total / k;
  return TRUE;
}

/* One copy's time. Pinned and device copies: a blocker kernel holds the
 * stream while a first copy, an event, `k` more copies and an event are
 * queued behind it; the time between the two events over `k` is one copy
 * exactly as the model counts it (each copy starts when the one before it
 * in its stream ends). `k` copies between the events, not one, because an
 * event between two copies costs the engine time too: with one copy per
 * event pair a 4 KiB copy measured about 3.8 us, the untimed program paid
 * about 2 us per copy (validate/FINDINGS.md). */
static gboolean
time_copy (Bench *b, SchedCopyDir dir, HostMemory memory, guint64 bytes, SimTime *ns,
           GError **error)
{
  if (memory == HOST_UNTOUCHED)
    return time_untouched_copy (b, dir, bytes, ns, error);
  QueuedCopy c = { .width = bytes };
  val_bench_copy_args (b, dir, memory == HOST_PAGEABLE ? b->pageable : b->pinned, &c.dst, &c.src,
                       &c.kind);
  if (memory == HOST_PAGEABLE)
    return time_copy_between_events (b, c.dst, c.src, bytes, c.kind, ns, error);
  return time_queued (b, &c, bytes <= MiB ? 8 : 2, ns, error);
}

static int
trials_for (guint64 bytes, HostMemory memory)
{
  gboolean blocking = memory != HOST_PINNED;
  if (bytes <= MiB)
    return blocking ? 9 : 21;
  if (bytes <= 16 * MiB)
    return blocking ? 5 : 9;
  return blocking ? 3 : 5;
}

/* How a sweep's copies were timed, for the profile's comments. */
static const char *
sweep_method (HostMemory memory)
{
  switch (memory)
    {
    case HOST_PINNED:
      return "time between two events with back-to-back copies between them (8 up to 1 MiB, "
             "2 above), queued behind a blocker kernel, over the copies";
    case HOST_PAGEABLE:
      return "event before the call to event after it (pageable copies block the host)";
    default:
      return "each copy from or into memory fresh from mmap (no page resident, as a large "
             "malloc gives), event before the call to event after it";
    }
}

/* Fits `link` to copies of 4 KiB and up in one direction from one kind of
 * host memory. Untouched memory stops at 64 MiB: a 256 MiB D2H into fresh
 * pages took 0.16 s on an H100. */
static gboolean
sweep_link (Bench *b, SchedCopyDir dir, HostMemory memory, GpuLink *link, const char *name,
            GError **error)
{
  guint64 sizes[N_SIZES];
  SimTime times[N_SIZES];
  GString *points = g_string_new (NULL);
  int n_sizes = memory == HOST_UNTOUCHED ? N_SIZES - 1 : N_SIZES;
  /* Trials go round the sizes rather than repeating one size, so that each
   * size sees the caches (and, for pageable memory, the pages) as a
   * program copying buffers of several sizes would. */
  SimTime t[N_SIZES][32];
  int max_trials = trials_for (4 * KiB, memory);
  for (int i = 0; i < max_trials; i++)
    for (int k = 0; k < n_sizes; k++)
      {
        sizes[k] = 4 * KiB << (2 * k);
        if (i < trials_for (sizes[k], memory)
            && !time_copy (b, dir, memory, sizes[k], &t[k][i], error))
          {
            g_string_free (points, TRUE);
            return FALSE;
          }
      }
  for (int k = 0; k < n_sizes; k++)
    {
      times[k] = calib_fit_median (t[k], trials_for (sizes[k], memory));
      char *size = g_format_size_full (sizes[k], G_FORMAT_SIZE_IEC_UNITS);
      g_string_append_printf (points, "%s%s %.1fus", k ? ", " : "", size, val_bench_us (times[k]));
      g_free (size);
    }
  CalibLinkFit fit;
  if (!calib_fit_link (sizes, times, n_sizes, &fit))
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE,
                   "%s copies gave no usable fit (times: %s)", name, points->str);
      g_string_free (points, TRUE);
      return FALSE;
    }
  link->latency = fit.latency;
  link->bandwidth = fit.bandwidth;
  char *bw_key = g_strdup_printf ("copy.%s_bandwidth", name);
  char *lat_key = g_strdup_printf ("copy.%s_latency", name);
  val_bench_note (b, bw_key,
                  "measured: least-squares fit of latency + bytes/bandwidth (weights 1/t^2) over "
                  "4 KiB..%s, trials interleaved across sizes, %s;\nmedian times: %s;\nlargest "
                  "misfit %.1f%%", n_sizes == N_SIZES ? "256 MiB" : "64 MiB", sweep_method (memory),
                  points->str, 100 * fit.max_residual);
  val_bench_note (b, lat_key,
                  "measured: intercept of the same fit (%.2f us; bandwidth %.3f GB/s)",
                  val_bench_us (fit.latency), fit.bandwidth / 1e9);
  g_free (bw_key);
  g_free (lat_key);
  g_string_free (points, TRUE);
  return TRUE;
}

/* Two big copies issued back to back in two idle streams; each one's time
 * from the event before it to the event after it. */
static gboolean
time_pair (Bench *b, SchedCopyDir d1, SchedCopyDir d2, SimTime s[2], SimTime e[2],
           GError **error)
{
  void *dst1, *dst2;
  const void *src1, *src2;
  enum cudaMemcpyKind k1, k2;
  val_bench_copy_args (b, d1, b->pinned, &dst1, &src1, &k1);
  val_bench_copy_args (b, d2, b->pinned, &dst2, &src2, &k2);
  if (d1 == d2 && d1 == SCHED_DIR_D2H)
    dst2 = b->pinned2;
  if (d1 == d2 && d1 == SCHED_DIR_H2D)
    src2 = b->pinned2;
  if (!VAL_CUDA (cudaEventRecord (b->ev[0], b->a), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst1, src1, BIG, k1, b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[2], b->b), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst2, src2, BIG, k2, b->b), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[3], b->b), error)
      || !VAL_CUDA (cudaDeviceSynchronize (), error))
    return FALSE;
  s[0] = 0;
  return val_cuda_elapsed (b->ev[0], b->ev[1], &e[0], error)
         && val_cuda_elapsed (b->ev[0], b->ev[2], &s[1], error)
         && val_cuda_elapsed (b->ev[0], b->ev[3], &e[1], error);
}

static gboolean
time_solo (Bench *b, SchedCopyDir d, SimTime *ns, GError **error)
{
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;
  val_bench_copy_args (b, d, b->pinned, &dst, &src, &k);
  return time_copy_between_events (b, dst, src, BIG, k, ns, error);
}

static gboolean
bench_duplex (Bench *b, GError **error)
{
  enum { T = 5 };
  SimTime solo_h[T], solo_d[T], both_h[T], both_d[T];
  double ov[T];
  for (int t = 0; t < T; t++)
    {
      SimTime s[2], e[2];
      if (!time_solo (b, SCHED_DIR_H2D, &solo_h[t], error)
          || !time_solo (b, SCHED_DIR_D2H, &solo_d[t], error)
          || !time_pair (b, SCHED_DIR_H2D, SCHED_DIR_D2H, s, e, error))
        return FALSE;
      both_h[t] = e[0] - s[0];
      both_d[t] = e[1] - s[1];
      ov[t] = calib_fit_overlap (s[0], e[0], s[1], e[1]);
    }
  SimTime sh = calib_fit_median (solo_h, T), sd = calib_fit_median (solo_d, T);
  SimTime bh = calib_fit_median (both_h, T), bd = calib_fit_median (both_d, T);
  double overlap = calib_fit_median_double (ov, T);
  b->prof.duplex_factor = calib_fit_duplex (sh, bh, sd, bd);
  val_bench_note (b, "copy.duplex_factor",
                  "measured: 64 MiB H2D and 64 MiB D2H (pinned) issued together in two streams: "
                  "H2D %.1f us alone, %.1f us together; D2H %.1f us alone, %.1f us together; "
                  "they overlapped %.0f%% (median of %d); factor = mean of alone/together",
                  val_bench_us (sh), val_bench_us (bh), val_bench_us (sd), val_bench_us (bd),
                  100 * overlap, T);

  int engines = b->dev->prop.asyncEngineCount;
  b->prof.copy_engines = (guint) CLAMP (engines, 1, 8);
  val_bench_note (b, "copy.engines",
                  "cudaDeviceProp.asyncEngineCount = %d; checked: opposite directions %s "
                  "(overlap %.0f%%)", engines,
                  overlap > 0.5 ? "ran together" : "did NOT run together", 100 * overlap);

  /* Same direction from two streams: serial or side by side? Informational:
   * the model serializes them (one engine per direction). */
  const SchedCopyDir dirs[2] = { SCHED_DIR_H2D, SCHED_DIR_D2H };
  GString *text = g_string_new (NULL);
  for (int d = 0; d < 2; d++)
    {
      double o[T];
      SimTime span[T];
      for (int t = 0; t < T; t++)
        {
          SimTime s[2], e[2];
          if (!time_pair (b, dirs[d], dirs[d], s, e, error))
            {
              g_string_free (text, TRUE);
              return FALSE;
            }
          o[t] = calib_fit_overlap (s[0], e[0], s[1], e[1]);
          span[t] = MAX (e[0], e[1]) - MIN (s[0], s[1]);
        }
      g_string_append_printf (text, "%s%s: two 64 MiB copies in two streams overlapped %.0f%%, "
                              "took %.1f us together (%.2f x one alone)", d ? "; " : "",
                              d ? "D2H" : "H2D", 100 * calib_fit_median_double (o, T),
                              val_bench_us (calib_fit_median (span, T)),
                              (double) calib_fit_median (span, T) / (double) (d ? sd : sh));
    }
  val_bench_note (b, "copy",
                  "[copy] measured by streamsim-validate --calibrate.\nSame direction from two "
                  "streams (the model runs them one after the other): %s", text->str);
  g_string_free (text, TRUE);
  return TRUE;
}

/* 4 MiB in rows of `width` bytes in direction `dir`, laid out as the
 * harness runs `rows=` copies (val_rows.h), timed as a pinned copy of 4 MiB
 * is (time_queued, two copies between the events). */
static gboolean
time_rows_copy (Bench *b, SchedCopyDir dir, size_t width, SimTime *ns, GError **error)
{
  size_t pitch = val_rows_pitch (width);
  QueuedCopy c = { .width = width, .rows = 4 * MiB / width,
                   .dpitch = dir == SCHED_DIR_D2H ? width : pitch,
                   .spitch = dir == SCHED_DIR_H2D ? width : pitch };
  val_bench_copy_args (b, dir, b->pinned, &c.dst, &c.src, &c.kind);
  return time_queued (b, &c, 2, ns, error);
}

/* [copy] <dir>_row_rate: 4 MiB in rows of 16 and 64 bytes, narrow enough
 * that the rows, not the bytes, set the pace (validate/results/h100/copy2d/);
 * each width's row time is its median time less the link's latency over its
 * rows, and the rate one over the mean of the two (validate/fit-copy2d.sh
 * fits the probe's runs the same way). After the links' sweeps. */
static gboolean
bench_rows (Bench *b, SchedCopyDir dir, const GpuLink *link, const char *name, GError **error)
{
  enum { T = 5 };
  static const size_t widths[] = { 16, 64 };
  double row_ns[G_N_ELEMENTS (widths)];
  SimTime median[G_N_ELEMENTS (widths)];
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      SimTime t[T];
      for (int i = 0; i < T; i++)
        if (!time_rows_copy (b, dir, widths[w], &t[i], error))
          return FALSE;
      median[w] = calib_fit_median (t, T);
      row_ns[w] = (double) (median[w] - link->latency) / (double) (4 * MiB / widths[w]);
    }
  double mean = (row_ns[0] + row_ns[1]) / 2;
  if (mean <= 0)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE,
                   "%s copies in narrow rows took no longer than the link's latency (%.1f and "
                   "%.1f us)", name, val_bench_us (median[0]), val_bench_us (median[1]));
      return FALSE;
    }
  b->prof.row_rate[dir] = 1e9 / mean;
  char *key = g_strdup_printf ("copy.%s_row_rate", name);
  val_bench_note (b, key,
                  "measured: 4 MiB by cudaMemcpy2DAsync in rows of 16 and 64 B (device side "
                  "pitched), %.1f and %.1f us (median of %d, timed as the pinned links are); "
                  "less the link's latency, %.3f and %.3f ns a row; the rate is one over their "
                  "mean", val_bench_us (median[0]), val_bench_us (median[1]), T, row_ns[0],
                  row_ns[1]);
  g_free (key);
  return TRUE;
}

gboolean
val_calib_copies_warm_up (Bench *b, GError **error)
{
  SimTime t;
  return time_copy (b, SCHED_DIR_H2D, HOST_PINNED, MiB, &t, error)
         && time_copy (b, SCHED_DIR_D2H, HOST_PAGEABLE, MiB, &t, error);
}

gboolean
val_calib_copies (Bench *b, GError **error)
{
  return sweep_link (b, SCHED_DIR_H2D, HOST_PINNED, &b->prof.h2d_pinned, "h2d_pinned", error)
         && sweep_link (b, SCHED_DIR_D2H, HOST_PINNED, &b->prof.d2h_pinned, "d2h_pinned", error)
         && sweep_link (b, SCHED_DIR_H2D, HOST_PAGEABLE, &b->prof.h2d_pageable, "h2d_pageable",
                        error)
         && sweep_link (b, SCHED_DIR_D2H, HOST_PAGEABLE, &b->prof.d2h_pageable, "d2h_pageable",
                        error)
         && sweep_link (b, SCHED_DIR_H2D, HOST_UNTOUCHED, &b->prof.h2d_untouched, "h2d_untouched",
                        error)
         && sweep_link (b, SCHED_DIR_D2H, HOST_UNTOUCHED, &b->prof.d2h_untouched, "d2h_untouched",
                        error)
         && sweep_link (b, SCHED_DIR_D2D, HOST_PINNED, &b->prof.d2d, "d2d", error)
         && bench_rows (b, SCHED_DIR_H2D, &b->prof.h2d_pinned, "h2d", error)
         && bench_rows (b, SCHED_DIR_D2H, &b->prof.d2h_pinned, "d2h", error)
         && bench_rows (b, SCHED_DIR_D2D, &b->prof.d2d, "d2d", error)
         && bench_duplex (b, error);
}
