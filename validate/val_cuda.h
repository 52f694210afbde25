/* val_cuda.h: the harness's error domain, CUDA return codes turned into GErrors, and the host clock. */
#ifndef VAL_CUDA_H
#define VAL_CUDA_H

#include <glib.h>
#include <cuda_runtime_api.h>
#include "sim/core/sim_time.h"

#define VAL_ERROR (val_error_quark ())
GQuark val_error_quark (void);

typedef enum
{
  VAL_ERROR_CUDA,     /* a CUDA call failed, or there is no GPU */
  VAL_ERROR_SCHEDULE, /* the schedule asks for what this GPU cannot do */
  VAL_ERROR_PROBE,    /* a calibration probe gave no usable answer */
} ValError;

/* FALSE and a VAL_ERROR_CUDA error naming the call when rc is not
 * cudaSuccess. Use through VAL_CUDA so the message quotes the call. */
gboolean val_cuda_check (cudaError_t rc, const char *call, GError **error);
#define VAL_CUDA(call, error) val_cuda_check ((call), #call, (error))

/* The time from event `from` to event `to` (both recorded and done), in ns,
 * rounded to the nearest; negative when `to` came first. CUDA gives it in
 * float milliseconds, about 0.5 us resolution. */
gboolean val_cuda_elapsed (cudaEvent_t from, cudaEvent_t to, SimTime *ns, GError **error);

/* CLOCK_MONOTONIC in nanoseconds: the host clock every time is put on. */
SimTime val_cuda_now (void);

/* Holds the host thread for `ns` in a busy loop (the schedule's `host` work;
 * a sleep would hand the core away and wake up late). */
void val_cuda_busy (SimTime ns);

#endif /* VAL_CUDA_H */
