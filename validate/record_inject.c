/* record_inject.c: libstreamsim-record.so, a CUPTI injection library that logs a program's CUDA calls and the GPU work they started.
 *
 * The CUDA driver loads it into any program when CUDA_INJECTION64_PATH names
 * it, and calls InitializeInjection() once, at cuInit. From then on every
 * runtime API call is logged with its host times and the arguments the
 * schedule language can express (streams, events, sizes, grids), so are the
 * driver API calls that put work on the GPU or wait for it when no runtime
 * call made them (driver_call_logged), and every kernel, copy and memset the
 * GPU runs comes back from CUPTI's activity records with its device times. When the program exits the whole log is written, in one
 * go, to $STREAMSIM_RECORD_LOG (sim/recorded/record_log.h describes the format; the
 * `streamsim-validate --record` command sets both variables and turns the
 * log into a schedule).
 *
 * This file is plain C with no GLib: it runs inside somebody else's program,
 * which may bring its own GLib (or none), and it is built into a shared
 * object, which Debian's static GLib cannot be linked into. It decides
 * nothing about the model: it writes down what happened and sim/recorded/record_schedule.c
 * interprets it. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record_pages.h"

#define ACTIVITY_BUFFER (8u << 20)

typedef struct
{
  const char *name;   /* CUPTI's, a global constant */
  uint32_t thread;    /* small number of the calling thread, 1 for the first */
  uint64_t enter, exit;
  uint32_t correlation;
  uint64_t stream, event;
  uint64_t a[3];      /* per call: sizes and kinds, grid and block, flags */
  size_t parent;      /* the call in progress when this one began, if it nests */
  struct Pages *pages; /* an untouched copy's: how its pages faulted in */
  uintptr_t host;     /* an explicit H2D's or D2H's host buffer, 0 for other calls */
  int driver;         /* a driver API call made outside any runtime call */
} Call;

typedef enum { WORK_COPY, WORK_KERNEL, WORK_MEMSET } WorkKind;

/* An untouched copy's buffer's bytes (from its Call's `host`) and of them
 * those on huge pages (record_pages.h) as the call began and as it
 * returned; -1 where the kernel cannot tell. */
typedef struct Pages
{
  size_t count;
  int64_t huge_before, huge_after;
} Pages;

typedef struct
{
  WorkKind kind;
  uint32_t correlation, runtime_correlation;
  uint64_t start, end;
  uint64_t a[5];      /* kernel: grid, block, smem, regs; copy: bytes, kind, src, dst;
                         memset: bytes, value, memory kind */
  char *name;         /* kernels */
} Work;

/* One lock for everything: calls come from the program's threads, activity
 * buffers from a CUPTI thread. A runtime call takes it twice (enter, exit). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Call *calls;
static size_t n_calls, cap_calls;
static Work *works;
static size_t n_works, cap_works;
static uint32_t (*links)[2]; /* driver correlation -> runtime correlation */
static size_t n_links, cap_links;
static uint32_t n_threads;
static int failed; /* out of memory: the log says so rather than lie */
/* CUDA_MODULE_LOADING as the process had it when the driver read it (at
 * cuInit, which loads this library): whether first launches load code */
static char *module_loading;

static __thread uint32_t thread_number;
static __thread size_t current_call = SIZE_MAX; /* the logged call in progress */

static int
grow (void **array, size_t *cap, size_t n, size_t size)
{
  if (n < *cap)
    return 1;
  size_t want = *cap ? *cap * 2 : 4096;
  void *p = realloc (*array, want * size);
  if (p == NULL)
    {
      failed = 1;
      return 0;
    }
  *array = p;
  *cap = want;
  return 1;
}

static uint64_t
now (void)
{
  uint64_t t = 0;
  cuptiGetTimestamp (&t);
  return t;
}

static uint64_t
dim_product (dim3 d)
{
  return (uint64_t) d.x * d.y * d.z;
}

/* An event record's or wait's event and stream, of either API. */
static void
set_handles (Call *c, const void *event, const void *stream)
{
  c->event = (uint64_t) (uintptr_t) event;
  c->stream = (uint64_t) (uintptr_t) stream;
}

/* cudaEventElapsedTime's (or cuEventElapsedTime's) two events: the start as
 * the call's event, the end's handle as its first number. */
static void
set_elapsed (Call *c, const void *start, const void *end)
{
  c->event = (uint64_t) (uintptr_t) start;
  c->a[0] = (uint64_t) (uintptr_t) end;
}

/* A copy call's arguments, for cudaMemcpy and cudaMemcpyAsync (each with
 * its per-thread variant); 0 for any other call. */
static int
copy_params (CUpti_CallbackId id, const void *params, const void **dst, const void **src,
             size_t *count, enum cudaMemcpyKind *kind)
{
  switch (id)
    {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
      {
        const cudaMemcpyAsync_v3020_params *p = params;
        *dst = p->dst, *src = p->src, *count = p->count, *kind = p->kind;
      }
      return 1;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
      {
        const cudaMemcpy_v3020_params *p = params;
        *dst = p->dst, *src = p->src, *count = p->count, *kind = p->kind;
      }
      return 1;
    default:
      return 0;
    }
}

/* A 2D or 3D copy of rows of `width` bytes, `height` x `depth` of them:
 * its bytes, kind and rows. */
static void
copy_rows (Call *c, size_t width, size_t height, size_t depth, enum cudaMemcpyKind kind)
{
  c->a[0] = (uint64_t) width * height * depth;
  c->a[1] = (uint64_t) kind;
  c->a[2] = (uint64_t) height * depth;
}

/* A 3D copy's, from its parameters; nothing for one of a CUDA array, whose
 * extent counts elements rather than bytes (left not modelled). */
static void
copy_3d (Call *c, const struct cudaMemcpy3DParms *p)
{
  if (p != NULL && p->srcArray == NULL && p->dstArray == NULL)
    copy_rows (c, p->extent.width, p->extent.height, p->extent.depth, p->kind);
}

/* The arguments worth keeping, by function. `exit` is set for the second
 * visit, when outputs (a created stream) are there to read. */
static void
read_arguments (Call *c, CUpti_CallbackId id, const void *params, int exit)
{
  const void *dst, *src;
  size_t count;
  enum cudaMemcpyKind kind;
  if (copy_params (id, params, &dst, &src, &count, &kind))
    {
      c->a[0] = count;
      c->a[1] = (uint64_t) kind;
    }
  switch (id)
    {
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020:
      if (exit)
        c->stream = (uint64_t) (uintptr_t) *((const cudaStreamCreate_v3020_params *) params)->pStream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000:
      {
        const cudaStreamCreateWithFlags_v5000_params *p = params;
        if (exit)
          c->stream = (uint64_t) (uintptr_t) *p->pStream;
        c->a[0] = p->flags;
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050:
      {
        const cudaStreamCreateWithPriority_v5050_params *p = params;
        if (exit)
          c->stream = (uint64_t) (uintptr_t) *p->pStream;
        c->a[0] = p->flags;
        c->a[1] = (uint64_t) (int64_t) p->priority;
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaSetDeviceFlags_v3020:
      c->a[0] = ((const cudaSetDeviceFlags_v3020_params *) params)->flags;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020:
      {
        const cudaEventCreateWithFlags_v3020_params *p = params;
        if (exit && p->event != NULL)
          c->event = (uint64_t) (uintptr_t) *p->event;
        c->a[0] = p->flags;
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaMemcpyAsync_v3020_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      {
        const cudaLaunchKernel_v7000_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->stream;
        c->a[0] = dim_product (p->gridDim);
        c->a[1] = dim_product (p->blockDim);
        c->a[2] = p->sharedMem;
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
      {
        const cudaLaunchConfig_t *config = ((const cudaLaunchKernelExC_v11060_params *) params)->config;
        if (config != NULL)
          {
            c->stream = (uint64_t) (uintptr_t) config->stream;
            c->a[0] = dim_product (config->gridDim);
            c->a[1] = dim_product (config->blockDim);
            c->a[2] = config->dynamicSmemBytes;
          }
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010:
      /* cudaEventRecordWithFlags' parameters begin with the same two */
      set_handles (c, ((const cudaEventRecord_v3020_params *) params)->event,
                   ((const cudaEventRecord_v3020_params *) params)->stream);
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000:
      set_handles (c, ((const cudaStreamWaitEvent_v3020_params *) params)->event,
                   ((const cudaStreamWaitEvent_v3020_params *) params)->stream);
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
      c->event = (uint64_t) (uintptr_t) ((const cudaEventSynchronize_v3020_params *) params)->event;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaStreamSynchronize_v3020_params *) params)->stream;
      break;
    /* a loop of queries until the work is done is a `poll` (record_polls.c) */
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020:
      c->event = (uint64_t) (uintptr_t) ((const cudaEventQuery_v3020_params *) params)->event;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaStreamQuery_v3020_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000:
      {
        const cudaMemsetAsync_v3020_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->stream;
        c->a[0] = p->count;
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000:
      c->a[0] = ((const cudaMemset_v3020_params *) params)->count;
      break;
    /* 2D memsets, which the schedule language cannot express yet, keep their
     * stream and size, so that a later recorder can read them from the log. */
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000:
      {
        const cudaMemset2DAsync_v3020_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->stream;
        c->a[0] = (uint64_t) p->width * p->height;
      }
      break;
    /* 2D and 3D copies: bytes, kind and rows (record_log.h) */
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_ptsz_v7000:
      {
        const cudaMemcpy2DAsync_v3020_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->stream;
        copy_rows (c, p->width, p->height, 1, p->kind);
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000:
      {
        const cudaMemcpy2D_v3020_params *p = params;
        copy_rows (c, p->width, p->height, 1, p->kind);
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000:
      {
        const cudaMemcpy3DAsync_v3020_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->stream;
        copy_3d (c, p->p);
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000:
      copy_3d (c, ((const cudaMemcpy3D_v3020_params *) params)->p);
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaStreamBeginCapture_v10000_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030:
      c->stream = (uint64_t) (uintptr_t) ((const cudaStreamBeginCaptureToGraph_v12030_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaStreamEndCapture_v10000_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaGraphLaunch_v10000_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaLaunchHostFunc_v10000_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_v5000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_ptsz_v7000:
      c->stream = (uint64_t) (uintptr_t) ((const cudaStreamAddCallback_v5000_params *) params)->stream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020:
      {
        const cudaMallocAsync_v11020_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->hStream;
        c->a[0] = p->size;
      }
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020:
      c->stream = (uint64_t) (uintptr_t) ((const cudaFreeAsync_v11020_params *) params)->hStream;
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080:
      /* both versions take (ms, start, end); CUDA 13's headers keep the older
       * one's struct only among removed functions */
      set_elapsed (c, ((const cudaEventElapsedTime_v12080_params *) params)->start,
                   ((const cudaEventElapsedTime_v12080_params *) params)->end);
      break;
    default:
      break;
    }
}

/* Driver API calls made outside any runtime call (CuPy's, Triton's and
 * XLA's launches, for example) are logged like runtime calls when they put
 * work on the GPU or wait for it, or set how the host waits for it (a
 * context's scheduling flags, an event's); the driver calls a runtime call
 * makes are only linked to it. Polling (cuEventQuery, cuStreamQuery) is
 * left out: it can run millions of times. */
static int
driver_call_logged (const char *name)
{
  static const char *const prefixes[] = {
    "cuLaunch", "cuMemcpy", "cuMemset", "cuGraphLaunch", "cuStreamSynchronize",
    "cuStreamWaitEvent", "cuEventRecord", "cuEventSynchronize", "cuCtxSynchronize",
    "cuEventElapsedTime", "cuMemAllocAsync", "cuMemFreeAsync", "cuStreamAddCallback",
    "cuCtxCreate", "cuDevicePrimaryCtxSetFlags", "cuCtxSetFlags", "cuEventCreate",
  };
  for (size_t i = 0; name != NULL && i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (strncmp (name, prefixes[i], strlen (prefixes[i])) == 0)
      return 1;
  return 0;
}

/* An async driver copy's stream and bytes: the four functions' parameters
 * are laid out alike (cuMemcpyAsync_params is one of them). */
static void
driver_copy (Call *c, const void *params, enum cudaMemcpyKind kind)
{
  const cuMemcpyAsync_params *p = params;
  c->stream = (uint64_t) (uintptr_t) p->hStream;
  c->a[0] = p->ByteCount;
  c->a[1] = (uint64_t) kind;
}

/* A driver memset's stream and bytes: N elements (a 2D memset's width
 * times its height) of 1, 2 or 4 bytes. */
static void
driver_memset (Call *c, CUstream stream, size_t elements, uint64_t element_size)
{
  c->stream = (uint64_t) (uintptr_t) stream;
  c->a[0] = (uint64_t) elements * element_size;
}

/* A logged driver call's arguments, in the runtime calls' fields: a copy's
 * bytes and cudaMemcpyKind, a launch's grid, block and dynamic shared
 * memory, a memset's bytes, the stream and event. */
static void
read_driver_arguments (Call *c, CUpti_CallbackId id, const void *params)
{
  switch (id)
    {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      {
        const cuLaunchKernel_params *p = params;
        c->stream = (uint64_t) (uintptr_t) p->hStream;
        c->a[0] = (uint64_t) p->gridDimX * p->gridDimY * p->gridDimZ;
        c->a[1] = (uint64_t) p->blockDimX * p->blockDimY * p->blockDimZ;
        c->a[2] = p->sharedMemBytes;
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      {
        const CUlaunchConfig *config = ((const cuLaunchKernelEx_params *) params)->config;
        if (config != NULL)
          {
            c->stream = (uint64_t) (uintptr_t) config->hStream;
            c->a[0] = (uint64_t) config->gridDimX * config->gridDimY * config->gridDimZ;
            c->a[1] = (uint64_t) config->blockDimX * config->blockDimY * config->blockDimZ;
            c->a[2] = config->sharedMemBytes;
          }
      }
      break;
    /* the direction is the function's */
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz:
      driver_copy (c, params, cudaMemcpyHostToDevice);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz:
      driver_copy (c, params, cudaMemcpyDeviceToHost);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz:
      driver_copy (c, params, cudaMemcpyDeviceToDevice);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz:
      driver_copy (c, params, cudaMemcpyDefault);
      break;
    /* blocking copies: their size and the function's direction (their
     * stream is the default one) */
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds:
      c->a[0] = ((const cuMemcpyHtoD_v2_params *) params)->ByteCount;
      c->a[1] = cudaMemcpyHostToDevice;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds:
      c->a[0] = ((const cuMemcpyDtoH_v2_params *) params)->ByteCount;
      c->a[1] = cudaMemcpyDeviceToHost;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds:
      c->a[0] = ((const cuMemcpyDtoD_v2_params *) params)->ByteCount;
      c->a[1] = cudaMemcpyDeviceToDevice;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds:
      c->a[0] = ((const cuMemcpy_params *) params)->ByteCount;
      c->a[1] = cudaMemcpyDefault;
      break;
    /* memsets, which the schedule language cannot express yet: their
     * stream and size, for a later conversion of the log */
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz:
      {
        const cuMemsetD8Async_params *p = params;
        driver_memset (c, p->hStream, p->N, 1);
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz:
      {
        const cuMemsetD16Async_params *p = params;
        driver_memset (c, p->hStream, p->N, 2);
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz:
      {
        const cuMemsetD32Async_params *p = params;
        driver_memset (c, p->hStream, p->N, 4);
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz:
      {
        const cuMemsetD2D8Async_params *p = params;
        driver_memset (c, p->hStream, p->Width * p->Height, 1);
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz:
      {
        const cuMemsetD2D16Async_params *p = params;
        driver_memset (c, p->hStream, p->Width * p->Height, 2);
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz:
      {
        const cuMemsetD2D32Async_params *p = params;
        driver_memset (c, p->hStream, p->Width * p->Height, 4);
      }
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds:
      driver_memset (c, NULL, ((const cuMemsetD8_v2_params *) params)->N, 1);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds:
      driver_memset (c, NULL, ((const cuMemsetD16_v2_params *) params)->N, 2);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds:
      driver_memset (c, NULL, ((const cuMemsetD32_v2_params *) params)->N, 4);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz:
      c->stream = (uint64_t) (uintptr_t) ((const cuStreamSynchronize_params *) params)->hStream;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord:
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags:
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz:
      /* cuEventRecordWithFlags' parameters begin with the same two */
      set_handles (c, ((const cuEventRecord_params *) params)->hEvent,
                   ((const cuEventRecord_params *) params)->hStream);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz:
      set_handles (c, ((const cuStreamWaitEvent_params *) params)->hEvent,
                   ((const cuStreamWaitEvent_params *) params)->hStream);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize:
      c->event = (uint64_t) (uintptr_t) ((const cuEventSynchronize_params *) params)->hEvent;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime:
    case CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime_v2:
      set_elapsed (c, ((const cuEventElapsedTime_params *) params)->hStart,
                   ((const cuEventElapsedTime_params *) params)->hEnd);
      break;
    /* the context's flags: CU_CTX_SCHED_* has cudaDeviceSchedule*'s values */
    case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2:
      c->a[0] = ((const cuCtxCreate_v2_params *) params)->flags;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3:
      c->a[0] = ((const cuCtxCreate_v3_params *) params)->flags;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4:
      c->a[0] = ((const cuCtxCreate_v4_params *) params)->flags;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags_v2:
      c->a[0] = ((const cuDevicePrimaryCtxSetFlags_v2_params *) params)->flags;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSetFlags:
      c->a[0] = ((const cuCtxSetFlags_params *) params)->flags;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuEventCreate:
      c->a[0] = ((const cuEventCreate_params *) params)->Flags;
      break;
    default:
      break;
    }
}

/* What a logged driver call gives back, read as it returns: the event a
 * cuEventCreate made. */
static void
read_driver_results (Call *c, CUpti_CallbackId id, const void *params)
{
  if (id == CUPTI_DRIVER_TRACE_CBID_cuEventCreate)
    {
      const cuEventCreate_params *p = params;
      if (p->phEvent != NULL)
        c->event = (uint64_t) (uintptr_t) *p->phEvent;
    }
}

/* A copy call's host buffer: explicit cudaMemcpyHostToDevice and DeviceToHost
 * only. With cudaMemcpyDefault the host side is not known here, and a device
 * pointer's reserved address range reads as not resident too. */
static const void *
copy_host (CUpti_CallbackId id, const void *params, size_t *count)
{
  const void *dst, *src;
  enum cudaMemcpyKind kind;
  if (!copy_params (id, params, &dst, &src, count, &kind) || *count == 0)
    return NULL;
  return kind == cudaMemcpyHostToDevice ? src : kind == cudaMemcpyDeviceToHost ? dst : NULL;
}

/* How many bytes of a copy's host buffer had no page resident when the call
 * began (mincore): pages the program never touched, which the kernel faults
 * in while the driver stages the copy, several times slower than the copy
 * itself (validate/FINDINGS.md). */
static uint64_t
untouched_bytes (const void *host, size_t count)
{
  long page = sysconf (_SC_PAGESIZE);
  if (host == NULL || count == 0 || page <= 0)
    return 0;
  uintptr_t first = (uintptr_t) host & ~((uintptr_t) page - 1);
  size_t pages = ((uintptr_t) host + count - first + (size_t) page - 1) / (size_t) page;
  unsigned char resident[4096];
  uint64_t cold = 0;
  for (size_t done = 0; done < pages; done += sizeof resident)
    {
      size_t n = pages - done < sizeof resident ? pages - done : sizeof resident;
      /* fails for what is not mapped memory: then nothing is known */
      if (mincore ((void *) (first + done * (size_t) page), n * (size_t) page, resident) != 0)
        return 0;
      for (size_t i = 0; i < n; i++)
        cold += (resident[i] & 1) ? 0 : (uint64_t) page;
    }
  return cold < count ? cold : count;
}

static void CUPTIAPI
on_call (void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data)
{
  (void) userdata;
  const CUpti_CallbackData *cb = data;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    {
      if (current_call != SIZE_MAX)
        {
          pthread_mutex_lock (&lock);
          Call *c = &calls[current_call];
          if (cb->callbackSite == CUPTI_API_ENTER)
            {
              /* A driver call made by the call in progress: kernels' and
               * copies' records may carry its correlation rather than the
               * runtime's. */
              if (grow ((void **) &links, &cap_links, n_links, sizeof *links))
                {
                  links[n_links][0] = cb->correlationId;
                  links[n_links][1] = c->correlation;
                  n_links++;
                }
            }
          else if (c->driver && c->correlation == cb->correlationId)
            {
              /* the logged driver call returns */
              c->exit = now ();
              read_driver_results (c, id, cb->functionParams);
              current_call = c->parent;
            }
          pthread_mutex_unlock (&lock);
          return;
        }
      if (cb->callbackSite != CUPTI_API_ENTER || !driver_call_logged (cb->functionName))
        return;
      pthread_mutex_lock (&lock);
      if (thread_number == 0)
        thread_number = ++n_threads;
      if (grow ((void **) &calls, &cap_calls, n_calls, sizeof *calls))
        {
          Call *c = &calls[n_calls];
          memset (c, 0, sizeof *c);
          c->name = cb->functionName;
          c->thread = thread_number;
          c->correlation = cb->correlationId;
          c->driver = 1;
          read_driver_arguments (c, id, cb->functionParams);
          c->parent = SIZE_MAX;
          current_call = n_calls++;
          c->enter = now (); /* last: the bookkeeping is not the call's time */
        }
      pthread_mutex_unlock (&lock);
      return;
    }
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API)
    return;
  /* The call's time runs from the end of this callback at its entry to the
   * start of the one at its exit: what the recorder does on entry (looking
   * at the copy's host pages, writing the call down) is not the call's. */
  size_t count = 0;
  const void *host = cb->callbackSite == CUPTI_API_ENTER ? copy_host (id, cb->functionParams, &count) : NULL;
  uint64_t cold = untouched_bytes (host, count);
  Pages pages = { count, cold > 0 ? record_pages_huge (host, count) : -1, -1 };
  uint64_t t = cb->callbackSite == CUPTI_API_ENTER ? 0 : now ();
  Pages *look = NULL; /* to look at again as the call returns */
  pthread_mutex_lock (&lock);
  if (thread_number == 0)
    thread_number = ++n_threads;
  if (cb->callbackSite == CUPTI_API_ENTER)
    {
      if (grow ((void **) &calls, &cap_calls, n_calls, sizeof *calls))
        {
          Call *c = &calls[n_calls];
          memset (c, 0, sizeof *c);
          c->name = cb->functionName;
          c->thread = thread_number;
          c->correlation = cb->correlationId;
          read_arguments (c, id, cb->functionParams, 0);
          c->host = (uintptr_t) host;
          if (cold > 0)
            {
              c->a[2] = cold;
              c->pages = malloc (sizeof pages);
              if (c->pages != NULL)
                *c->pages = pages;
            }
          c->parent = current_call;
          current_call = n_calls++;
          c->enter = now ();
        }
    }
  else if (current_call != SIZE_MAX)
    {
      Call *c = &calls[current_call];
      c->exit = t;
      read_arguments (c, id, cb->functionParams, 1);
      look = c->pages;
      host = (const void *) c->host;
      current_call = c->parent;
    }
  pthread_mutex_unlock (&lock);
  if (look != NULL)
    look->huge_after = record_pages_huge (host, look->count);
}

static void CUPTIAPI
buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  *buffer = aligned_alloc (8, ACTIVITY_BUFFER);
  *size = *buffer != NULL ? ACTIVITY_BUFFER : 0;
  *max_records = 0;
}

static void
keep_record (const CUpti_Activity *record)
{
  Work w;
  memset (&w, 0, sizeof w);
  if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL)
    {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *) record;
      w.kind = WORK_KERNEL;
      w.correlation = k->correlationId;
      w.start = k->start;
      w.end = k->end;
      w.a[0] = (uint64_t) k->gridX * k->gridY * k->gridZ;
      w.a[1] = (uint64_t) k->blockX * k->blockY * k->blockZ;
      w.a[2] = (uint64_t) k->staticSharedMemory + (uint64_t) k->dynamicSharedMemory;
      w.a[3] = k->registersPerThread;
      w.name = k->name != NULL ? strdup (k->name) : NULL;
    }
  else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY)
    {
      const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *) record;
      w.correlation = m->correlationId;
      w.runtime_correlation = m->runtimeCorrelationId;
      w.start = m->start;
      w.end = m->end;
      w.a[0] = m->bytes;
      w.a[1] = m->copyKind;
      w.a[2] = m->srcKind;
      w.a[3] = m->dstKind;
    }
  else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET)
    {
      const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *) record;
      w.kind = WORK_MEMSET;
      w.correlation = m->correlationId;
      w.start = m->start;
      w.end = m->end;
      w.a[0] = m->bytes;
      w.a[1] = m->value;
      w.a[2] = m->memoryKind;
    }
  else
    return;
  pthread_mutex_lock (&lock);
  if (grow ((void **) &works, &cap_works, n_works, sizeof *works))
    works[n_works++] = w;
  else
    free (w.name);
  pthread_mutex_unlock (&lock);
}

static void CUPTIAPI
buffer_completed (CUcontext context, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
  (void) context;
  (void) stream;
  (void) size;
  CUpti_Activity *record = NULL;
  while (cuptiActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    keep_record (record);
  free (buffer);
}

/* Kernel names are C++ symbols: a tab or newline would break the line. */
static void
write_name (FILE *f, const char *name)
{
  for (const char *s = name; s != NULL && *s != '\0'; s++)
    fputc (*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void
write_log (void)
{
  cuptiActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  const char *path = getenv ("STREAMSIM_RECORD_LOG");
  if (path == NULL || *path == '\0')
    path = "streamsim-record.log";
  pthread_mutex_lock (&lock);
  FILE *f = fopen (path, "w");
  if (f == NULL)
    {
      fprintf (stderr, "streamsim-record: cannot write %s\n", path);
      pthread_mutex_unlock (&lock);
      return;
    }
  fprintf (f, "streamsim-record\t1\n");
  if (module_loading != NULL)
    {
      fprintf (f, "env\tCUDA_MODULE_LOADING\t");
      write_name (f, module_loading);
      fputc ('\n', f);
    }
  if (failed)
    fprintf (f, "incomplete\tout of memory while recording\n");
  for (size_t i = 0; i < n_calls; i++)
    {
      const Call *c = &calls[i];
      fprintf (f, "call\t%u\t%s\t%llu\t%llu\t%u\t%#llx\t%#llx\t%llu\t%llu\t%llu\n", c->thread,
               c->name != NULL ? c->name : "?", (unsigned long long) c->enter,
               (unsigned long long) c->exit, c->correlation, (unsigned long long) c->stream,
               (unsigned long long) c->event, (unsigned long long) c->a[0],
               (unsigned long long) c->a[1], (unsigned long long) c->a[2]);
    }
  for (size_t i = 0; i < n_calls; i++)
    {
      const Pages *p = calls[i].pages;
      if (p != NULL && p->huge_before >= 0 && p->huge_after >= 0)
        fprintf (f, "pages\t%u\t%lld\t%lld\n", calls[i].correlation,
                 (long long) p->huge_before, (long long) p->huge_after);
    }
  for (size_t i = 0; i < n_calls; i++)
    if (calls[i].host != 0)
      fprintf (f, "buffer\t%u\t%#llx\n", calls[i].correlation, (unsigned long long) calls[i].host);
  for (size_t i = 0; i < n_links; i++)
    fprintf (f, "link\t%u\t%u\n", links[i][0], links[i][1]);
  for (size_t i = 0; i < n_works; i++)
    {
      const Work *w = &works[i];
      if (w->kind == WORK_KERNEL)
        {
          fprintf (f, "kernel\t%u\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t", w->correlation,
                   (unsigned long long) w->start, (unsigned long long) w->end,
                   (unsigned long long) w->a[0], (unsigned long long) w->a[1],
                   (unsigned long long) w->a[2], (unsigned long long) w->a[3]);
          write_name (f, w->name);
          fputc ('\n', f);
        }
      else if (w->kind == WORK_MEMSET)
        fprintf (f, "memset\t%u\t%llu\t%llu\t%llu\t%llu\t%llu\n", w->correlation,
                 (unsigned long long) w->start, (unsigned long long) w->end,
                 (unsigned long long) w->a[0], (unsigned long long) w->a[1],
                 (unsigned long long) w->a[2]);
      else
        fprintf (f, "copy\t%u\t%u\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\n", w->correlation,
                 w->runtime_correlation, (unsigned long long) w->start,
                 (unsigned long long) w->end, (unsigned long long) w->a[0],
                 (unsigned long long) w->a[1], (unsigned long long) w->a[2],
                 (unsigned long long) w->a[3]);
    }
  fprintf (f, "end\t%zu\t%zu\n", n_calls, n_works);
  if (fclose (f) != 0)
    fprintf (stderr, "streamsim-record: cannot write %s\n", path);
  pthread_mutex_unlock (&lock);
}

static void
report (CUptiResult result, const char *what)
{
  const char *text = NULL;
  cuptiGetResultString (result, &text);
  fprintf (stderr, "streamsim-record: %s failed: %s (nothing will be recorded)\n", what,
           text != NULL ? text : "?");
}

/* The driver calls the recorder hears: those it logs, which are also the
 * ones that put work on the GPU (a runtime call's work may carry the
 * correlation of the driver call it made). Every driver call the runtime
 * makes inside a call would cost that call a callback. */
static CUptiResult
enable_driver_callbacks (CUpti_SubscriberHandle subscriber)
{
  for (uint32_t id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; id++)
    {
      const char *name = NULL;
      if (cuptiGetCallbackName (CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS
          || !driver_call_logged (name))
        continue;
      CUptiResult r = cuptiEnableCallback (1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
      if (r != CUPTI_SUCCESS)
        return r;
    }
  return CUPTI_SUCCESS;
}

int
InitializeInjection (void)
{
  CUpti_SubscriberHandle subscriber;
  CUptiResult r = cuptiSubscribe (&subscriber, on_call, NULL);
  if (r != CUPTI_SUCCESS)
    {
      report (r, "cuptiSubscribe");
      return 0;
    }
  if ((r = cuptiEnableDomain (1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API)) != CUPTI_SUCCESS
      || (r = enable_driver_callbacks (subscriber)) != CUPTI_SUCCESS
      || (r = cuptiActivityRegisterCallbacks (buffer_requested, buffer_completed)) != CUPTI_SUCCESS
      || (r = cuptiActivityEnable (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS
      || (r = cuptiActivityEnable (CUPTI_ACTIVITY_KIND_MEMCPY)) != CUPTI_SUCCESS
      || (r = cuptiActivityEnable (CUPTI_ACTIVITY_KIND_MEMSET)) != CUPTI_SUCCESS)
    {
      report (r, "setting up CUPTI");
      return 0;
    }
  const char *loading = getenv ("CUDA_MODULE_LOADING");
  if (loading != NULL)
    module_loading = strdup (loading);
  /* Registered after the CUDA runtime's own exit handler (the runtime
   * initializes the driver, which loads us), so it runs before the runtime
   * tears its context down. */
  atexit (write_log);
  return 1;
}
