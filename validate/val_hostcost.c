/* val_hostcost.c: the host's cost of API calls and the link's speed, measured in the very process that runs a schedule (see val_hostcost.h). */
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "kernels/spin.h"
#include "val_cuda.h"
#include "val_hostcost.h"

#define CALLS 400
#define SMALL 4096

typedef enum
{
  CALL_LAUNCH,
  CALL_H2D,
  CALL_D2H,
} CallKind;

struct ValHostProbe
{
  cudaStream_t *s;
  guint n_streams;
  void *dev, *pinned, *pageable;
  void *pinned_big; /* 64 MiB, for the link's speed */
  cudaEvent_t ev[2];
  SpinSlot *slot; /* launches pass one, as the harness's do */
};

/* Mean and median time from one call to the next over `n` calls in a row,
 * as the harness issues a schedule: one host clock read between calls, no
 * sync in between. (A probe that synced every 100 calls measured 2.7 us a
 * call where tiny-copies' calls, issued without syncs, cost 4.1 us in the
 * same process: the queue state is what differed.) The mean is what the
 * model uses (calib_fit_mean says why); the median goes into the metadata
 * beside it. */
static gboolean
call_gaps (ValHostProbe *res, CallKind kind, int n, SimTime *mean, SimTime *median,
           GError **error)
{
  SimTime t[CALLS];
  g_return_val_if_fail (n <= CALLS, FALSE);
  if (!VAL_CUDA (cudaDeviceSynchronize (), error))
    return FALSE;
  SimTime t0 = val_cuda_now ();
  for (int i = 0; i < n; i++)
    {
      cudaStream_t s = res->s[i % res->n_streams];
      cudaError_t rc;
      switch (kind)
        {
        case CALL_LAUNCH:
          rc = spin_launch (1, 32, 0, s, 0, res->slot);
          break;
        case CALL_H2D:
          rc = cudaMemcpyAsync (res->dev, res->pinned, SMALL, cudaMemcpyHostToDevice, s);
          break;
        default:
          rc = cudaMemcpyAsync (res->pinned, res->dev, SMALL, cudaMemcpyDeviceToHost, s);
          break;
        }
      SimTime t1 = val_cuda_now ();
      t[i] = t1 - t0;
      t0 = t1;
      if (!VAL_CUDA (rc, error))
        return FALSE;
    }
  *mean = calib_fit_mean (t, n);
  *median = calib_fit_median (t, n);
  return VAL_CUDA (cudaDeviceSynchronize (), error);
}

/* One pageable copy as the model counts it: from the call until the copy is
 * done (the call blocks the host for most of it). */
static gboolean
pageable_copy (ValHostProbe *p, enum cudaMemcpyKind kind, SimTime *ns, GError **error)
{
  gboolean h2d = kind == cudaMemcpyHostToDevice;
  SimTime t0 = val_cuda_now ();
  if (!VAL_CUDA (cudaMemcpyAsync (h2d ? p->dev : p->pageable, h2d ? p->pageable : p->dev,
                                  VAL_HOSTCOST_COPY_BYTES, kind, p->s[0]),
                 error)
      || !VAL_CUDA (cudaStreamSynchronize (p->s[0]), error))
    return FALSE;
  *ns = val_cuda_now () - t0;
  return TRUE;
}

/* One pinned copy as the model counts it: two back to back in one stream,
 * timed from an event between them to an event after the second, so that
 * neither the call nor an event in front of the copy is counted (the
 * calibration times its copy sweeps the same way, val_calib_copies.c). */
static gboolean
pinned_copy (ValHostProbe *p, enum cudaMemcpyKind kind, SimTime *ns, GError **error)
{
  gboolean h2d = kind == cudaMemcpyHostToDevice;
  void *dst = h2d ? p->dev : p->pinned_big;
  const void *src = h2d ? p->pinned_big : p->dev;
  return VAL_CUDA (cudaMemcpyAsync (dst, src, VAL_HOSTCOST_COPY_BYTES, kind, p->s[0]), error)
         && VAL_CUDA (cudaEventRecord (p->ev[0], p->s[0]), error)
         && VAL_CUDA (cudaMemcpyAsync (dst, src, VAL_HOSTCOST_COPY_BYTES, kind, p->s[0]), error)
         && VAL_CUDA (cudaEventRecord (p->ev[1], p->s[0]), error)
         && VAL_CUDA (cudaEventSynchronize (p->ev[1]), error)
         && val_cuda_elapsed (p->ev[0], p->ev[1], ns, error);
}

ValHostProbe *
val_host_probe_new (guint n_streams, ValProbeCopies copies, GError **error)
{
  gboolean big = (copies & (VAL_PROBE_PAGEABLE | VAL_PROBE_PINNED)) != 0;
  ValHostProbe *p = g_new0 (ValHostProbe, 1);
  gboolean ok = TRUE;
  p->n_streams = MAX (n_streams, 1);
  p->s = g_new0 (cudaStream_t, p->n_streams);
  for (guint i = 0; i < p->n_streams && ok; i++)
    ok = VAL_CUDA (cudaStreamCreateWithFlags (&p->s[i], cudaStreamNonBlocking), error);
  ok = ok && VAL_CUDA (cudaMalloc ((void **) &p->slot, sizeof (SpinSlot)), error)
       && VAL_CUDA (cudaMalloc (&p->dev, big ? VAL_HOSTCOST_COPY_BYTES : SMALL), error)
       && VAL_CUDA (cudaMallocHost (&p->pinned, SMALL), error);
  if (ok)
    memset (p->pinned, 1, SMALL);
  if (ok && (copies & VAL_PROBE_PINNED))
    {
      ok = VAL_CUDA (cudaMallocHost (&p->pinned_big, VAL_HOSTCOST_COPY_BYTES), error);
      for (int i = 0; i < 2 && ok; i++)
        ok = VAL_CUDA (cudaEventCreate (&p->ev[i]), error);
      if (ok)
        memset (p->pinned_big, 1, VAL_HOSTCOST_COPY_BYTES);
    }
  if (ok && (copies & VAL_PROBE_PAGEABLE))
    {
      p->pageable = malloc (VAL_HOSTCOST_COPY_BYTES);
      if (p->pageable == NULL)
        {
          g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                       "cannot allocate 64 MiB of pageable host memory");
          ok = FALSE;
        }
      else
        /* Touched first, as the harness touches the schedule's buffers. */
        memset (p->pageable, 1, VAL_HOSTCOST_COPY_BYTES);
    }
  if (!ok)
    {
      val_host_probe_free (p);
      return NULL;
    }
  return p;
}

void
val_host_probe_free (ValHostProbe *p)
{
  if (p == NULL)
    return;
  cudaDeviceSynchronize ();
  free (p->pageable);
  if (p->pinned_big != NULL)
    cudaFreeHost (p->pinned_big);
  for (int i = 0; i < 2; i++)
    if (p->ev[i] != NULL)
      cudaEventDestroy (p->ev[i]);
  if (p->pinned != NULL)
    cudaFreeHost (p->pinned);
  if (p->dev != NULL)
    cudaFree (p->dev);
  if (p->slot != NULL)
    cudaFree (p->slot);
  for (guint i = 0; i < p->n_streams; i++)
    if (p->s[i] != NULL)
      cudaStreamDestroy (p->s[i]);
  g_free (p->s);
  g_free (p);
}

gboolean
val_host_probe_measure (ValHostProbe *p, ValHostCosts *costs, GError **error)
{
  g_return_val_if_fail (p != NULL && costs != NULL, FALSE);
  costs->h2d_pageable = costs->d2h_pageable = -1;
  costs->h2d_pinned = costs->d2h_pinned = -1;
  /* The model has one cost for a copy call; H2D calls cost more (in
   * tiny-copies 4.1 us against 3.1 us for D2H), so the mean of both. */
  SimTime h2d, d2h, h2d_median, d2h_median;
  if (!call_gaps (p, CALL_LAUNCH, CALLS, &costs->kernel_launch, &costs->kernel_launch_median,
                  error)
      || !call_gaps (p, CALL_H2D, CALLS / 2, &h2d, &h2d_median, error)
      || !call_gaps (p, CALL_D2H, CALLS / 2, &d2h, &d2h_median, error))
    return FALSE;
  costs->memcpy_async = (h2d + d2h) / 2;
  costs->memcpy_async_median = (h2d_median + d2h_median) / 2;
  if (p->pageable != NULL
      && !(pageable_copy (p, cudaMemcpyHostToDevice, &costs->h2d_pageable, error)
           && pageable_copy (p, cudaMemcpyDeviceToHost, &costs->d2h_pageable, error)))
    return FALSE;
  if (p->pinned_big != NULL
      && !(pinned_copy (p, cudaMemcpyHostToDevice, &costs->h2d_pinned, error)
           && pinned_copy (p, cudaMemcpyDeviceToHost, &costs->d2h_pinned, error)))
    return FALSE;
  return TRUE;
}

void
val_host_costs_median (const ValHostCosts *costs, int n, ValHostCosts *median)
{
  g_return_if_fail (n > 0);
  SimTime *v = g_new (SimTime, n);
#define MEDIAN_OF(field)                                                                     \
  do                                                                                         \
    {                                                                                        \
      for (int i = 0; i < n; i++)                                                            \
        v[i] = costs[i].field;                                                               \
      median->field = calib_fit_median (v, n);                                               \
    }                                                                                        \
  while (0)
  MEDIAN_OF (kernel_launch);
  MEDIAN_OF (memcpy_async);
  MEDIAN_OF (kernel_launch_median);
  MEDIAN_OF (memcpy_async_median);
  MEDIAN_OF (h2d_pageable);
  MEDIAN_OF (d2h_pageable);
  MEDIAN_OF (h2d_pinned);
  MEDIAN_OF (d2h_pinned);
#undef MEDIAN_OF
  g_free (v);
}

char *
val_host_costs_format (const ValHostCosts *costs)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "kernel_launch=%" G_GINT64_FORMAT "ns memcpy_async=%"
                          G_GINT64_FORMAT "ns", costs->kernel_launch, costs->memcpy_async);
  if (costs->h2d_pageable >= 0)
    g_string_append_printf (s, " h2d_pageable_64MiB=%" G_GINT64_FORMAT "ns", costs->h2d_pageable);
  if (costs->d2h_pageable >= 0)
    g_string_append_printf (s, " d2h_pageable_64MiB=%" G_GINT64_FORMAT "ns", costs->d2h_pageable);
  if (costs->h2d_pinned >= 0)
    g_string_append_printf (s, " h2d_pinned_64MiB=%" G_GINT64_FORMAT "ns", costs->h2d_pinned);
  if (costs->d2h_pinned >= 0)
    g_string_append_printf (s, " d2h_pinned_64MiB=%" G_GINT64_FORMAT "ns", costs->d2h_pinned);
  g_string_append_printf (s, " kernel_launch_median=%" G_GINT64_FORMAT "ns memcpy_async_median=%"
                          G_GINT64_FORMAT "ns", costs->kernel_launch_median,
                          costs->memcpy_async_median);
  return g_string_free (s, FALSE);
}
