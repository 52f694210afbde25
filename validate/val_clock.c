/* val_clock.c: ties between the host clock, %globaltimer and CUDA events (see val_clock.h). */
#include "val_clock.h"
#include "val_cuda.h"
#include "kernels/spin.h"

/* Stamp kernels around each bracketing event: more pairs, a tighter bracket. */
#define BRACKETS 8
/* Host reads of the ticking global timer; the fastest read wins. */
#define TICK_SAMPLES 2000
#define TICKER_MAX_NS 200000000ull /* the ticker stops itself after 0.2 s */
#define START_TIMEOUT SIM_S (10)

struct ValClock
{
  cudaStream_t stream;
  volatile unsigned long long *tick; /* mapped pinned memory the ticker writes */
  volatile int *stop;
  unsigned long long *stamps;        /* device: BRACKETS + 1 stamp kernel readings */
  cudaEvent_t events[BRACKETS];      /* events[0] is the origin */
  SimTime host_minus_gpu;            /* host clock = globaltimer + this */
  SimTime origin_gpu;                /* globaltimer when events[0] fired */
  SimTime host_window, event_window;
};

ValClock *
val_clock_new (cudaStream_t stream, GError **error)
{
  ValClock *clock = g_new0 (ValClock, 1);
  clock->stream = stream;
  void *mapped = NULL;
  if (!VAL_CUDA (cudaHostAlloc (&mapped, 64, cudaHostAllocMapped), error))
    goto fail;
  clock->tick = mapped;
  clock->stop = (volatile int *) ((char *) mapped + 32);
  if (!VAL_CUDA (cudaMalloc ((void **) &clock->stamps, (BRACKETS + 1) * sizeof (unsigned long long)),
                 error))
    goto fail;
  for (int i = 0; i < BRACKETS; i++)
    if (!VAL_CUDA (cudaEventCreate (&clock->events[i]), error))
      goto fail;
  return clock;

fail:
  val_clock_free (clock);
  return NULL;
}

void
val_clock_free (ValClock *clock)
{
  if (clock == NULL)
    return;
  for (int i = 0; i < BRACKETS; i++)
    if (clock->events[i] != NULL)
      cudaEventDestroy (clock->events[i]);
  if (clock->stamps != NULL)
    cudaFree (clock->stamps);
  if (clock->tick != NULL)
    cudaFreeHost ((void *) clock->tick);
  g_free (clock);
}

/* The host reads the global timer as a one-thread kernel keeps writing it to
 * mapped host memory. A value read between host times h1 and h2 was written
 * at least one PCIe write latency before h2, so host - gpu <= h2 - g for
 * every sample; the smallest h2 - g is the tightest such bound, and it
 * overstates the offset by about that write latency (under a microsecond),
 * which shifts GPU times slightly late against host issue times. */
static gboolean
sync_host (ValClock *clock, GError **error)
{
  *clock->tick = 0;
  *clock->stop = 0;
  if (!VAL_CUDA (spin_ticker (clock->tick, clock->stop, TICKER_MAX_NS, clock->stream), error))
    return FALSE;

  SimTime waited_from = val_cuda_now ();
  while (*clock->tick == 0)
    if (val_cuda_now () - waited_from > START_TIMEOUT)
      {
        *clock->stop = 1;
        g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                     "the clock probe kernel did not start within 10 s: is the GPU busy "
                     "with another program?");
        return FALSE;
      }

  SimTime best = G_MAXINT64, window = G_MAXINT64;
  for (int i = 0; i < TICK_SAMPLES; i++)
    {
      SimTime h1 = val_cuda_now ();
      SimTime g = (SimTime) *clock->tick;
      SimTime h2 = val_cuda_now ();
      if (h2 - g < best)
        {
          best = h2 - g;
          window = h2 - h1;
        }
    }
  *clock->stop = 1;
  if (!VAL_CUDA (cudaStreamSynchronize (clock->stream), error))
    return FALSE;
  clock->host_minus_gpu = best;
  clock->host_window = window;
  return TRUE;
}

/* stamp(0) event(0) stamp(1) event(1) ... event(B-1) stamp(B) in one stream:
 * event j fired between stamps j and j+1, so the origin event fired between
 * stamp(j) - elapsed(0, j) and stamp(j+1) - elapsed(0, j) for every j. The
 * intersection of these windows is taken and its middle used. */
static gboolean
sync_events (ValClock *clock, GError **error)
{
  for (int j = 0; j < BRACKETS; j++)
    {
      if (!VAL_CUDA (spin_stamp (&clock->stamps[j], clock->stream), error)
          || !VAL_CUDA (cudaEventRecord (clock->events[j], clock->stream), error))
        return FALSE;
    }
  if (!VAL_CUDA (spin_stamp (&clock->stamps[BRACKETS], clock->stream), error))
    return FALSE;

  unsigned long long stamps[BRACKETS + 1];
  if (!VAL_CUDA (cudaMemcpyAsync (stamps, clock->stamps, sizeof stamps, cudaMemcpyDeviceToHost,
                                  clock->stream), error)
      || !VAL_CUDA (cudaStreamSynchronize (clock->stream), error))
    return FALSE;

  SimTime lo = G_MININT64, hi = G_MAXINT64, mid_sum = 0;
  for (int j = 0; j < BRACKETS; j++)
    {
      SimTime el;
      if (!val_cuda_elapsed (clock->events[0], clock->events[j], &el, error))
        return FALSE;
      SimTime a = (SimTime) stamps[j] - el, b = (SimTime) stamps[j + 1] - el;
      lo = MAX (lo, a);
      hi = MIN (hi, b);
      mid_sum += a / 2 + b / 2;
    }
  if (lo <= hi)
    {
      clock->origin_gpu = lo + (hi - lo) / 2;
      clock->event_window = hi - lo;
    }
  else
    {
      /* Rounding of the float elapsed times can make the windows miss each
       * other by a fraction of a microsecond; the mean is then as good. */
      clock->origin_gpu = mid_sum / BRACKETS;
      clock->event_window = lo - hi;
    }
  return TRUE;
}

gboolean
val_clock_sync (ValClock *clock, GError **error)
{
  g_return_val_if_fail (clock != NULL, FALSE);
  return sync_host (clock, error) && sync_events (clock, error);
}

SimTime
val_clock_from_gpu (const ValClock *clock, guint64 globaltimer)
{
  return (SimTime) globaltimer + clock->host_minus_gpu;
}

gboolean
val_clock_from_event (const ValClock *clock, cudaEvent_t event, SimTime *host, GError **error)
{
  SimTime el;
  if (!val_cuda_elapsed (clock->events[0], event, &el, error))
    return FALSE;
  *host = clock->origin_gpu + el + clock->host_minus_gpu;
  return TRUE;
}

SimTime
val_clock_host_window (const ValClock *clock)
{
  return clock->host_window;
}

SimTime
val_clock_event_window (const ValClock *clock)
{
  return clock->event_window;
}
