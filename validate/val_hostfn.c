/* val_hostfn.c: host functions that time themselves (see val_hostfn.h). */
#include "val_hostfn.h"
#include "val_cuda.h"

void
val_hostfn_reset (ValHostFn *fn)
{
  fn->start = fn->end = -1;
}

/* Runs on the driver's callback thread. The caller reads start and end only
 * after a synchronize has seen the function return. */
static void CUDART_CB
busy_body (void *arg)
{
  ValHostFn *fn = arg;
  SimTime start = val_cuda_now (), now = start;
  while (now - start < fn->ns)
    now = val_cuda_now ();
  fn->start = start;
  fn->end = now;
}

cudaError_t
val_hostfn_launch (ValHostFn *fn, cudaStream_t stream)
{
  return cudaLaunchHostFunc (stream, busy_body, fn);
}
