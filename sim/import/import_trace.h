/* import_trace.h: a profiler's trace of a CUDA program, its calls and GPU work, turned into a recorded program (record_log.h).
 *
 * PyTorch's profiler (Kineto, import_kineto.h) and Nsight Systems
 * (import_nsys.h) trace what the recorder logs (record_log.h), but not all
 * of it. Both give every runtime and driver call with its thread, host
 * times and correlation id, and every kernel, copy and memset with its
 * device times, its stream (the profiler's stream id, not the handle) and
 * the correlation id of the call that made it. Neither gives a call's
 * arguments. So, for the recorded program:
 *
 * - A launch, copy or memset takes its stream, shape and size from its GPU
 *   work; one whose work is not in the trace is left out (its stream and
 *   shape are unknown) and counted. A copy whose CUPTI kind is neither
 *   host to device, device to host, device to device nor host to host (a
 *   peer or array copy) is a call the language cannot express.
 * - Streams are the profiler's stream ids, each declared as a stream of its
 *   own in the order of its first use, without flags or priority (the trace
 *   gives neither). The stream where a blocking copy or a synchronous memset
 *   ran is the legacy default stream (the runtime runs them there): its work
 *   goes to `default`. No other stream is taken as the legacy one.
 * - Records, waits and synchronizes take their stream and event from the
 *   trace's synchronization records where it has them (`syncs`: Kineto's
 *   cuda_sync events, Nsight Systems' CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)
 *   and its event records (`records`: Kineto's cuda_event, Nsight Systems'
 *   CUPTI_ACTIVITY_KIND_CUDA_EVENT). Where it has none (PyTorch's profiler
 *   records cuda_sync events only when asked), they are inferred
 *   (import_infer.h) and counted.
 * - A driver call made inside a runtime call of the same thread (it began
 *   and ended within it) is that call's (a link, as the recorder logs it);
 *   other driver calls are calls of their own (cuLaunchKernel from cuBLAS).
 * - Stream creations are host time: the trace does not say which stream
 *   they made.
 * - With a region (a user annotation or NVTX range), only the calls that
 *   began inside it are imported, with the work they made; the region's
 *   start is the schedule's time 0 (RecordOptions.origin_ns). */
#ifndef IMPORT_TRACE_H
#define IMPORT_TRACE_H

#include <glib.h>
#include "sim/recorded/record_log.h"

#define IMPORT_ERROR (import_error_quark ())
GQuark import_error_quark (void);

typedef enum
{
  IMPORT_ERROR_IO,     /* "cannot read PATH: why": a failure of the machine */
  IMPORT_ERROR_PARSE,  /* "PATH:LINE:COLUMN: what", "PATH: table T row N: what",
                          "PATH: at byte N: what": bad input */
} ImportError;

/* A stream or event the trace does not give. */
#define IMPORT_NONE G_GINT64_CONSTANT (-1)

typedef struct
{
  guint line, column;   /* where the trace gives it, for messages, from 1 */
  const char *table;    /* a database's: the call's table, `line` its row; else NULL */
  guint thread;         /* 1 for the first thread */
  const char *name;     /* as CUPTI names it, without a version suffix ("cudaLaunchKernel") */
  guint64 enter, exit;  /* host times, ns */
  guint32 correlation;
} ImportCall;

typedef struct
{
  RecordWorkKind kind;
  guint32 correlation;  /* the call's that made it */
  gint64 stream;        /* the profiler's stream id */
  guint64 start, end;   /* device times, ns, on the calls' clock */
  guint64 a[4];         /* as RecordWork's: kernel grid (blocks), block (threads), shared
                           memory (static and dynamic), registers; copy bytes, copy kind,
                           source and destination memory kinds; memset bytes, value, memory */
  const char *name;     /* kernels; "" where the trace gives none */
} ImportWork;

typedef enum
{
  IMPORT_SYNC_STREAM,   /* cudaStreamSynchronize */
  IMPORT_SYNC_EVENT,    /* cudaEventSynchronize */
  IMPORT_SYNC_WAIT,     /* cudaStreamWaitEvent */
  IMPORT_SYNC_DEVICE,   /* cudaDeviceSynchronize */
} ImportSyncKind;

/* What the profiler saw of a synchronizing call. */
typedef struct
{
  ImportSyncKind kind;
  guint32 correlation;  /* the call's */
  gint64 stream;        /* the stream synchronized, or made to wait */
  gint64 event;         /* the event's id (CUPTI's) */
  guint32 record;       /* the correlation of the record it waits for; 0 when not known */
  gint64 record_stream; /* ... and that record's stream */
} ImportSync;

/* What the profiler saw of an event record. */
typedef struct
{
  guint32 correlation;  /* the cudaEventRecord's */
  gint64 stream, event;
} ImportRecord;

/* A span of time the program named: a user annotation (Kineto's
 * record_function) or an NVTX range. */
typedef struct
{
  const char *name;
  guint64 start, end;
} ImportRange;

typedef struct
{
  char *path;           /* as messages name it */
  const char *format;   /* "Kineto (PyTorch profiler) JSON", ... */
  GArray *calls;        /* ImportCall */
  GArray *works;        /* ImportWork */
  GArray *syncs;        /* ImportSync */
  GArray *records;      /* ImportRecord */
  GArray *ranges;       /* ImportRange */
  GStringChunk *strings;
  gboolean region;      /* only the calls that began in [region_start, region_end] */
  guint64 region_start, region_end;
  char *region_name;
} ImportTrace;

/* What the conversion had to leave out or infer, for the schedule's header
 * and the command's summary. */
typedef struct
{
  guint n_calls;        /* the trace's calls */
  guint n_outside;      /* ... that began outside the region */
  guint n_linked;       /* driver calls made inside a runtime call */
  guint n_no_work;      /* launches, copies and memsets whose work is not in the trace */
  guint n_stream_inferred; /* records, waits, syncs and host functions whose stream the
                              trace does not give (import_infer.h) */
  guint n_event_inferred;  /* waits and event syncs whose record the trace does not give */
  guint n_idle;            /* the GPU's idle stretches of 1 ms or more with submitted work
                              waiting (import_idle.h) */
  guint64 idle_ns;         /* ... their length together */
  guint n_record_added;    /* ... of them waits given a record of their own, made right before
                              them on the stream the inference chose (import_infer.h) */
  guint n_streams;      /* streams declared */
  gint64 legacy;        /* the profiler's id of the legacy default stream, or IMPORT_NONE */
  GPtrArray *stream_ids;/* per declared stream s1, s2, ...: its profiler id (GINT_TO_POINTER) */
} ImportCounts;

ImportTrace *import_trace_new (const char *path, const char *format);
void import_trace_free (ImportTrace *trace);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ImportTrace, import_trace_free)

/* `name` as CUPTI's callback tables spell it, without the version suffix
 * Nsight Systems keeps ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel";
 * "cuMemcpyHtoD_v2" keeps its _v2, an API generation, as Kineto does),
 * copied into the trace's strings. */
const char *import_trace_name (ImportTrace *trace, const char *name);

/* Makes the region the span of the ranges named `name`, from the first's
 * start to the last's end; FALSE where no range has that name. */
gboolean import_trace_select_region (ImportTrace *trace, const char *name);

/* The recorded program, as record_schedule_build converts it; `counts`
 * (cleared with import_counts_clear) says what was left out or inferred. */
RecordLog *import_trace_log (const ImportTrace *trace, ImportCounts *counts);
void import_counts_clear (ImportCounts *counts);

/* An error of record_schedule_build on the log of import_trace_log, which
 * names a call by its place in the trace, made to name it where the trace
 * gives it: "PATH:LINE:COLUMN: what" or "PATH: table T row N: what". */
void import_trace_locate_error (const ImportTrace *trace, GError *error);

/* Comment lines for the schedule's top: where it came from, the region,
 * the streams, what was inferred (NULL-ended; g_strfreev). */
char **import_trace_header (const ImportTrace *trace, const ImportCounts *counts);

#endif /* IMPORT_TRACE_H */
