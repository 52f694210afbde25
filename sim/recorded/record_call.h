/* record_call.h: what a recorded CUDA call is to a schedule, from its function's name.
 *
 * Names are CUPTI's, without a version suffix: "cudaLaunchKernel",
 * "cudaMemcpyAsync_ptsz", "cuLaunchKernel". The runtime API's calls the
 * schedule language has statements for are named one by one, so are the
 * driver API's that libraries make without a runtime call (cuDNN, cuBLASLt,
 * cuFFT, CuPy); the other calls of families that put work on the GPU
 * (cudaMemcpy2DToArray, cudaMallocAsync, ...) cannot be expressed, and
 * everything else is host time.
 *
 * 2D and 3D copies between linear memory (cudaMemcpy2DAsync, cudaMemcpy2D,
 * cudaMemcpy3DAsync, cudaMemcpy3D, each with its per-thread variant) are
 * copies with `rows=` where their log line carries their rows
 * (record_call_kind_of); by name alone, and in logs that keep no rows, they
 * are not modelled. */
#ifndef RECORD_CALL_H
#define RECORD_CALL_H

#include <glib.h>
#include "record_log.h"

typedef enum
{
  RECORD_CALL_HOST,          /* host time only */
  RECORD_CALL_STREAM_CREATE,
  RECORD_CALL_COPY,          /* an async copy */
  RECORD_CALL_MEMCPY,        /* a blocking copy */
  RECORD_CALL_KERNEL,
  RECORD_CALL_RECORD,
  RECORD_CALL_WAIT,
  RECORD_CALL_SYNC_EVENT,
  RECORD_CALL_SYNC_STREAM,
  RECORD_CALL_SYNC_DEVICE,
  RECORD_CALL_FREE,          /* waits for the device: `sync device` */
  RECORD_CALL_MEMSET,        /* any memset function (record_memset.h) */
  RECORD_CALL_HOSTFN,        /* a host function or stream callback */
  RECORD_CALL_GRAPH,         /* a graph launch (record_graph.h) */
  RECORD_CALL_NOT_MODELLED,  /* GPU work the language has no statement for */
} RecordCallKind;

/* The kind of a call to `name`; *per_thread is set when the name ends in a
 * per-thread-default-stream suffix (_ptsz, _ptds), where stream 0 means
 * the per-thread stream. */
RecordCallKind record_call_kind (const char *name, gboolean *per_thread);

/* The kind of a logged call: record_call_kind's, except that a 2D or 3D
 * copy whose log line carries its rows (record_call_rows) is a copy, async
 * or blocking as its name says. */
RecordCallKind record_call_kind_of (const RecordCall *c, gboolean *per_thread);
/* Whether `name` is a 2D or 3D copy of linear memory, whose A2 is its
 * rows (record_log.h). */
gboolean record_call_is_rows_copy (const char *name);
/* A 2D or 3D copy's rows (its height, or height x depth), as `rows=` can
 * write them: from 1 to G_MAXUINT32, dividing its bytes (A0). 0 for any
 * other call, a log that keeps none (A2 is 0), or rows the statement
 * cannot hold. */
guint64 record_call_rows (const RecordCall *c);

/* Whether `name` is cudaStreamQuery or cudaEventQuery (or the per-thread
 * stream's), and in *event which of the two. */
gboolean record_call_is_query (const char *name, gboolean *event);

/* A driver API function ("cuLaunchKernel"), not a runtime one. */
gboolean record_call_is_driver (const char *name);
/* Whether `name` allocates or frees in stream order (cudaMallocAsync,
 * cudaFreeAsync and the driver's cuMemAllocAsync, cuMemFreeAsync). */
gboolean record_call_is_stream_alloc (const char *name);

#endif /* RECORD_CALL_H */
