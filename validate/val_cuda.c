/* val_cuda.c: CUDA errors as GErrors, and the host clock (see val_cuda.h). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "val_cuda.h"

G_DEFINE_QUARK (val-error-quark, val_error)

gboolean
val_cuda_check (cudaError_t rc, const char *call, GError **error)
{
  if (rc == cudaSuccess)
    return TRUE;
  /* Clear the sticky "last error" so a later check reports its own call. */
  (void) cudaGetLastError ();
  g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "CUDA call failed: %s: %s (%s, code %d)",
               call, cudaGetErrorString (rc), cudaGetErrorName (rc), (int) rc);
  return FALSE;
}

gboolean
val_cuda_elapsed (cudaEvent_t from, cudaEvent_t to, SimTime *ns, GError **error)
{
  float ms = 0;
  if (!VAL_CUDA (cudaEventElapsedTime (&ms, from, to), error))
    return FALSE;
  *ns = (SimTime) ((double) ms * 1e6 + (ms >= 0 ? 0.5 : -0.5));
  return TRUE;
}

SimTime
val_cuda_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (SimTime) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
val_cuda_busy (SimTime ns)
{
  SimTime until = val_cuda_now () + ns;
  while (val_cuda_now () < until)
    ;
}
