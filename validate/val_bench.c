/* val_bench.c: what the calibration's in-process benchmarks share: the GPU's resources, the clock, the profile being filled (see val_bench.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/spin.h"
#include "val_bench.h"
#include "val_cuda.h"

void
val_bench_note (Bench *b, const char *key, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *text = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "  %-26s %s\n", key, text);
  g_ptr_array_add (b->comments, g_strdup (key));
  g_ptr_array_add (b->comments, text);
}

gboolean
val_bench_read_slots (Bench *b, guint n, GError **error)
{
  return VAL_CUDA (cudaDeviceSynchronize (), error)
         && VAL_CUDA (cudaMemcpy (b->slots_host, b->slots, n * sizeof (SpinSlot),
                                  cudaMemcpyDeviceToHost), error);
}

gboolean
val_bench_reset_slots (Bench *b, guint n, GError **error)
{
  return VAL_CUDA (spin_reset_slots (b->slots, n, b->helper), error)
         && VAL_CUDA (cudaStreamSynchronize (b->helper), error);
}

void
val_bench_copy_args (Bench *b, SchedCopyDir dir, void *host, void **dst, const void **src,
                     enum cudaMemcpyKind *kind)
{
  switch (dir)
    {
    case SCHED_DIR_H2D:
      *dst = b->dev_dst;
      *src = host;
      *kind = cudaMemcpyHostToDevice;
      break;
    case SCHED_DIR_D2H:
      *dst = host;
      *src = b->dev_src;
      *kind = cudaMemcpyDeviceToHost;
      break;
    default:
      *dst = b->dev_dst;
      *src = b->dev_src;
      *kind = cudaMemcpyDeviceToDevice;
      break;
    }
}

gboolean
val_bench_open (Bench *b, const ValDevice *dev, const ValProbeResults *probes, GError **error)
{
  b->dev = dev;
  b->probes = probes;
  b->comments = g_ptr_array_new_with_free_func (g_free);
  if (!VAL_CUDA (cudaStreamCreateWithFlags (&b->a, cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->b, cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->rot[2], cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->rot[3], cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->helper, cudaStreamNonBlocking), error))
    return FALSE;
  b->rot[0] = b->a;
  b->rot[1] = b->b;
  for (int i = 0; i < 6; i++)
    if (!VAL_CUDA (cudaEventCreate (&b->ev[i]), error))
      return FALSE;
  if (!VAL_CUDA (cudaEventCreateWithFlags (&b->plain, cudaEventDisableTiming), error)
      || !VAL_CUDA (cudaMalloc (&b->dev_src, MAX_SIZE), error)
      || !VAL_CUDA (cudaMalloc (&b->dev_dst, MAX_SIZE), error)
      || !VAL_CUDA (cudaMallocHost (&b->pinned, MAX_SIZE), error)
      || !VAL_CUDA (cudaMallocHost (&b->pinned2, BIG), error)
      || !VAL_CUDA (cudaMalloc ((void **) &b->slots, N_SLOTS * sizeof (SpinSlot)), error)
      || !VAL_CUDA (spin_configure (dev->prop.sharedMemPerBlockOptin), error))
    return FALSE;
  b->pageable = malloc (MAX_SIZE);
  if (b->pageable == NULL)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "cannot allocate 256 MiB of host memory");
      return FALSE;
    }
  memset (b->pageable, 1, MAX_SIZE);
  memset (b->pinned, 1, MAX_SIZE);
  memset (b->pinned2, 1, BIG);
  b->slots_host = g_new0 (SpinSlot, N_SLOTS);
  b->clock = val_clock_new (b->helper, error);
  return b->clock != NULL && VAL_CUDA (cudaMemset (b->dev_src, 1, MAX_SIZE), error);
}

void
val_bench_close (Bench *b)
{
  cudaDeviceSynchronize ();
  val_clock_free (b->clock);
  for (int i = 0; i < 6; i++)
    if (b->ev[i] != NULL)
      cudaEventDestroy (b->ev[i]);
  for (int i = 2; i < 4; i++)
    if (b->rot[i] != NULL)
      cudaStreamDestroy (b->rot[i]);
  if (b->plain != NULL)
    cudaEventDestroy (b->plain);
  cudaFree (b->dev_src);
  cudaFree (b->dev_dst);
  cudaFreeHost (b->pinned);
  cudaFreeHost (b->pinned2);
  cudaFree (b->slots);
  free (b->pageable);
  g_free (b->slots_host);
  if (b->comments != NULL)
    g_ptr_array_unref (b->comments);
  gpu_profile_clear (&b->prof);
}
