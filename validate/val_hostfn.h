/* val_hostfn.h: the schedule's host functions (`hostfn`), launched with cudaLaunchHostFunc and timed by themselves.
 *
 * A host function busy-waits its time on the driver's callback thread and
 * reads the harness's host clock (val_cuda_now, the clock of every issue
 * time) when it begins and when it returns, so its row has the timeline's
 * time base with nothing added to the stream. */
#ifndef VAL_HOSTFN_H
#define VAL_HOSTFN_H

#include <cuda_runtime_api.h>
#include "sim/core/sim_time.h"

typedef struct
{
  SimTime ns;    /* how long the function holds its thread */
  SimTime start; /* host clock when it began; -1 until it has run */
  SimTime end;   /* host clock when it returned; -1 until it has run */
} ValHostFn;

/* Sets start and end to -1 (before each repeat). */
void val_hostfn_reset (ValHostFn *fn);

/* cudaLaunchHostFunc of the busy-wait in `stream`; `fn` must stay valid
 * until the stream has run it. */
cudaError_t val_hostfn_launch (ValHostFn *fn, cudaStream_t stream);

#endif /* VAL_HOSTFN_H */
