/* val_hostcost.c: the host's cost of API calls, measured in the very process that runs a schedule (see val_hostcost.h). */
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "spin.h"
#include "val_cuda.h"
#include "val_hostcost.h"

#define CALLS 400
#define BATCH 100          /* calls between two syncs, so that no queue fills */
#define SMALL 4096
#define PAGEABLE_TRIALS 3

typedef enum
{
  CALL_LAUNCH,
  CALL_MEMCPY,
} CallKind;

typedef struct
{
  cudaStream_t s[4];
  void *dev, *pinned;
} Res;

/* Median time from one call to the next, as the harness issues a schedule:
 * one host clock read between calls; the clock restarts after each sync. */
static gboolean
median_gap (Res *res, CallKind kind, SimTime *median, GError **error)
{
  SimTime t[CALLS];
  if (!VAL_CUDA (cudaDeviceSynchronize (), error))
    return FALSE;
  SimTime t0 = val_cuda_now ();
  for (int i = 0; i < CALLS; i++)
    {
      cudaError_t rc = kind == CALL_LAUNCH
        ? spin_launch (1, 32, 0, res->s[i % 4], 0, NULL)
        : cudaMemcpyAsync (res->dev, res->pinned, SMALL, cudaMemcpyHostToDevice, res->s[i % 2]);
      SimTime t1 = val_cuda_now ();
      t[i] = t1 - t0;
      t0 = t1;
      if (!VAL_CUDA (rc, error))
        return FALSE;
      if ((i + 1) % BATCH == 0)
        {
          if (!VAL_CUDA (cudaDeviceSynchronize (), error))
            return FALSE;
          t0 = val_cuda_now ();
        }
    }
  *median = calib_fit_median (t, CALLS);
  return TRUE;
}

/* One pageable copy as the model counts it: from the call until the copy is
 * done (the call blocks the host for most of it). */
static gboolean
pageable_copy (Res *res, void *host, enum cudaMemcpyKind kind, SimTime *median, GError **error)
{
  SimTime t[PAGEABLE_TRIALS];
  for (int i = 0; i < PAGEABLE_TRIALS; i++)
    {
      void *dst = kind == cudaMemcpyHostToDevice ? res->dev : host;
      const void *src = kind == cudaMemcpyHostToDevice ? (const void *) host : res->dev;
      SimTime t0 = val_cuda_now ();
      if (!VAL_CUDA (cudaMemcpyAsync (dst, src, VAL_HOSTCOST_PAGEABLE_BYTES, kind, res->s[0]),
                     error)
          || !VAL_CUDA (cudaStreamSynchronize (res->s[0]), error))
        return FALSE;
      t[i] = val_cuda_now () - t0;
    }
  *median = calib_fit_median (t, PAGEABLE_TRIALS);
  return TRUE;
}

gboolean
val_host_costs_measure (ValHostCosts *costs, gboolean pageable, GError **error)
{
  g_return_val_if_fail (costs != NULL, FALSE);
  Res res = { 0 };
  void *host = NULL;
  gboolean ok = TRUE;
  costs->h2d_pageable = costs->d2h_pageable = -1;
  guint64 dev_bytes = pageable ? VAL_HOSTCOST_PAGEABLE_BYTES : SMALL;
  for (int i = 0; i < 4 && ok; i++)
    ok = VAL_CUDA (cudaStreamCreateWithFlags (&res.s[i], cudaStreamNonBlocking), error);
  ok = ok && VAL_CUDA (cudaMalloc (&res.dev, dev_bytes), error)
       && VAL_CUDA (cudaMallocHost (&res.pinned, SMALL), error);
  if (ok)
    memset (res.pinned, 1, SMALL);
  ok = ok && median_gap (&res, CALL_LAUNCH, &costs->kernel_launch, error)
       && median_gap (&res, CALL_MEMCPY, &costs->memcpy_async, error);
  if (ok && pageable)
    {
      host = malloc (VAL_HOSTCOST_PAGEABLE_BYTES);
      if (host == NULL)
        {
          g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                       "cannot allocate 64 MiB of pageable host memory");
          ok = FALSE;
        }
      else
        {
          /* Touched first, as the harness touches the schedule's buffers. */
          memset (host, 1, VAL_HOSTCOST_PAGEABLE_BYTES);
          ok = pageable_copy (&res, host, cudaMemcpyHostToDevice, &costs->h2d_pageable, error)
               && pageable_copy (&res, host, cudaMemcpyDeviceToHost, &costs->d2h_pageable,
                                 error);
        }
    }
  /* Free what was made whether or not it all worked; a failure here must
   * not hide the first one. */
  free (host);
  cudaDeviceSynchronize ();
  if (res.pinned != NULL)
    cudaFreeHost (res.pinned);
  if (res.dev != NULL)
    cudaFree (res.dev);
  for (int i = 0; i < 4; i++)
    if (res.s[i] != NULL)
      cudaStreamDestroy (res.s[i]);
  return ok;
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
  return g_string_free (s, FALSE);
}
