/* record_call.c: a recorded call's kind from its function's name (record_call.h). */
#include <string.h>
#include "record_call.h"
#include "record_memset.h"

/* A function's name and the kind of call it is. */
typedef struct
{
  const char *name;
  RecordCallKind kind;
} NamedKind;

static const NamedKind known_calls[] = {
  { "cudaStreamCreate", RECORD_CALL_STREAM_CREATE },
  { "cudaStreamCreateWithFlags", RECORD_CALL_STREAM_CREATE },
  { "cudaStreamCreateWithPriority", RECORD_CALL_STREAM_CREATE },
  { "cudaMemcpyAsync", RECORD_CALL_COPY },
  { "cudaMemcpy", RECORD_CALL_MEMCPY },
  { "cudaLaunchKernel", RECORD_CALL_KERNEL },
  { "cudaLaunchKernelExC", RECORD_CALL_KERNEL },
  { "cudaEventRecord", RECORD_CALL_RECORD },
  { "cudaEventRecordWithFlags", RECORD_CALL_RECORD },
  { "cudaStreamWaitEvent", RECORD_CALL_WAIT },
  { "cudaEventSynchronize", RECORD_CALL_SYNC_EVENT },
  { "cudaStreamSynchronize", RECORD_CALL_SYNC_STREAM },
  { "cudaDeviceSynchronize", RECORD_CALL_SYNC_DEVICE },
  { "cudaThreadSynchronize", RECORD_CALL_SYNC_DEVICE },
  { "cudaFree", RECORD_CALL_FREE },
  { "cudaFreeHost", RECORD_CALL_FREE },
  { "cudaLaunchHostFunc", RECORD_CALL_HOSTFN },
  { "cudaGraphLaunch", RECORD_CALL_GRAPH },
  { "cudaStreamAddCallback", RECORD_CALL_HOSTFN },
  /* the driver API's, logged when no runtime call made them; a blocking
   * copy's size and direction are then read from CUPTI's record (the log
   * keeps none for them) or from its name */
  { "cuLaunchKernel", RECORD_CALL_KERNEL },
  { "cuLaunchKernelEx", RECORD_CALL_KERNEL },
  { "cuMemcpyAsync", RECORD_CALL_COPY },
  { "cuMemcpyHtoDAsync", RECORD_CALL_COPY },
  { "cuMemcpyHtoDAsync_v2", RECORD_CALL_COPY },
  { "cuMemcpyDtoHAsync", RECORD_CALL_COPY },
  { "cuMemcpyDtoHAsync_v2", RECORD_CALL_COPY },
  { "cuMemcpyDtoDAsync", RECORD_CALL_COPY },
  { "cuMemcpyDtoDAsync_v2", RECORD_CALL_COPY },
  { "cuMemcpy", RECORD_CALL_MEMCPY },
  { "cuMemcpyHtoD", RECORD_CALL_MEMCPY },
  { "cuMemcpyHtoD_v2", RECORD_CALL_MEMCPY },
  { "cuMemcpyDtoH", RECORD_CALL_MEMCPY },
  { "cuMemcpyDtoH_v2", RECORD_CALL_MEMCPY },
  { "cuMemcpyDtoD", RECORD_CALL_MEMCPY },
  { "cuMemcpyDtoD_v2", RECORD_CALL_MEMCPY },
  { "cuEventRecord", RECORD_CALL_RECORD },
  { "cuEventRecordWithFlags", RECORD_CALL_RECORD },
  { "cuStreamWaitEvent", RECORD_CALL_WAIT },
  { "cuEventSynchronize", RECORD_CALL_SYNC_EVENT },
  { "cuStreamSynchronize", RECORD_CALL_SYNC_STREAM },
  { "cuCtxSynchronize", RECORD_CALL_SYNC_DEVICE },
  { "cuLaunchHostFunc", RECORD_CALL_HOSTFN },
  { "cuGraphLaunch", RECORD_CALL_GRAPH },
  { "cuStreamAddCallback", RECORD_CALL_HOSTFN },
};

/* 2D and 3D copies of linear memory, by the kind they are when their log
 * line carries their rows (record_call_kind_of); those of arrays and peer
 * copies stay not modelled. */
static const NamedKind rows_copies[] = {
  { "cudaMemcpy2DAsync", RECORD_CALL_COPY },
  { "cudaMemcpy3DAsync", RECORD_CALL_COPY },
  { "cudaMemcpy2D", RECORD_CALL_MEMCPY },
  { "cudaMemcpy3D", RECORD_CALL_MEMCPY },
};

/* Families of calls that put work on the GPU; those not named above are
 * left out of the schedule, and said so. */
static const char *const gpu_work_prefixes[] = {
  "cudaMemcpy", "cudaMemset", "cudaLaunch", "cudaGraphLaunch", "cudaMemPrefetch",
  "cudaStreamAddCallback", "cudaMallocAsync", "cudaFreeAsync",
  /* the driver API's, logged when no runtime call made them */
  "cuLaunch", "cuMemcpy", "cuMemset", "cuGraphLaunch", "cuStreamAddCallback",
  "cuMemAllocAsync", "cuMemFreeAsync",
};

gboolean
record_call_is_driver (const char *name)
{
  return g_str_has_prefix (name, "cu") && !g_str_has_prefix (name, "cuda");
}

gboolean
record_call_is_stream_alloc (const char *name)
{
  return g_str_has_prefix (name, "cudaMallocAsync") || g_str_has_prefix (name, "cudaFreeAsync")
         || g_str_has_prefix (name, "cuMemAllocAsync") || g_str_has_prefix (name, "cuMemFreeAsync");
}

/* The length of `name` without its per-thread suffix, if any. */
static gsize
base_length (const char *name, gboolean *per_thread)
{
  gsize n = strlen (name);
  *per_thread = n > 5 && (g_str_has_suffix (name, "_ptsz") || g_str_has_suffix (name, "_ptds"));
  return *per_thread ? n - 5 : n;
}

gboolean
record_call_is_query (const char *name, gboolean *event)
{
  gboolean per_thread;
  gsize n = base_length (name, &per_thread);
  *event = n == strlen ("cudaEventQuery") && strncmp (name, "cudaEventQuery", n) == 0;
  return *event || (n == strlen ("cudaStreamQuery") && strncmp (name, "cudaStreamQuery", n) == 0);
}

/* The kind `table` gives the first `n` bytes of `name`; FALSE where it has
 * no such name. */
static gboolean
table_kind (const NamedKind *table, guint len, const char *name, gsize n, RecordCallKind *kind)
{
  for (guint i = 0; i < len; i++)
    if (strlen (table[i].name) == n && strncmp (table[i].name, name, n) == 0)
      {
        *kind = table[i].kind;
        return TRUE;
      }
  return FALSE;
}

/* The kind of a 2D or 3D copy with its rows; RECORD_CALL_HOST for other names. */
static RecordCallKind
rows_copy_kind (const char *name)
{
  gboolean per_thread;
  gsize n = base_length (name, &per_thread);
  RecordCallKind kind;
  return table_kind (rows_copies, G_N_ELEMENTS (rows_copies), name, n, &kind) ? kind
                                                                               : RECORD_CALL_HOST;
}

gboolean
record_call_is_rows_copy (const char *name)
{
  return rows_copy_kind (name) != RECORD_CALL_HOST;
}

guint64
record_call_rows (const RecordCall *c)
{
  guint64 rows = c->a[2];
  if (!record_call_is_rows_copy (c->name) || rows == 0 || rows > G_MAXUINT32 || c->a[0] % rows != 0)
    return 0;
  return rows;
}

RecordCallKind
record_call_kind_of (const RecordCall *c, gboolean *per_thread)
{
  RecordCallKind kind = record_call_kind (c->name, per_thread);
  return record_call_rows (c) > 0 ? rows_copy_kind (c->name) : kind;
}

RecordCallKind
record_call_kind (const char *name, gboolean *per_thread)
{
  gsize n = base_length (name, per_thread);
  RecordCallKind kind;
  if (table_kind (known_calls, G_N_ELEMENTS (known_calls), name, n, &kind))
    return kind;
  if (record_memset_is (name))
    return RECORD_CALL_MEMSET;
  for (guint i = 0; i < G_N_ELEMENTS (gpu_work_prefixes); i++)
    if (g_str_has_prefix (name, gpu_work_prefixes[i]))
      return RECORD_CALL_NOT_MODELLED;
  return RECORD_CALL_HOST;
}

