/* record_log.h: the log libstreamsim-record.so writes (record_inject.c), read back.
 *
 * A text file, one record a line, fields separated by tabs:
 *
 *   streamsim-record 1                      first line: format and version
 *   call THREAD NAME ENTER EXIT CORR STREAM EVENT A0 A1 A2
 *       one runtime API call, or a driver API call made outside any runtime
 *       call that puts work on the GPU or waits for it ("cuLaunchKernel"),
 *       in the order the calls began: the calling
 *       thread (1 for the first), the function's name as CUPTI gives it
 *       ("cudaMemcpyAsync", "cudaLaunchKernel_ptsz"), its host times in ns,
 *       its correlation id, the stream and event handles it took (hex, 0x0
 *       when none: the legacy default stream, or no such argument), and up
 *       to three numbers that depend on the function: a copy's bytes,
 *       cudaMemcpyKind, and how many bytes of its host buffer had no page
 *       resident when the call began (explicit H2D and D2H kinds only; 0 in
 *       logs of streamsim before 2026-11-24, which did not look); a launch's
 *       grid and block (threads, all dimensions multiplied) and dynamic
 *       shared memory; a stream's flags and priority; and, in logs of
 *       streamsim since 2026-11-26 (0 before): a memset's bytes (width
 *       times height for 2D copies and memsets, and the 2D copy's kind), a
 *       stream-ordered allocation's bytes, the stream of stream capture,
 *       graph launches, host functions and stream-ordered allocations, and
 *       for cudaEventElapsedTime its start event as EVENT and the end
 *       event's handle as A0; and in logs of recorders newer than those
 *       of traces/real's corpus (0 in its logs): a driver API memset's
 *       stream and bytes, cudaMemset's bytes, and a driver API blocking
 *       copy's bytes and cudaMemcpyKind; and in logs of recorders that know
 *       2D copies (0 in older logs): a 2D or 3D copy's (cudaMemcpy2DAsync, cudaMemcpy2D,
 *       cudaMemcpy3DAsync, cudaMemcpy3D and their per-thread variants)
 *       rows as A2, its height or height times depth, and for those
 *       other than cudaMemcpy2DAsync its bytes (width times rows) and
 *       kind too; a 3D copy of a CUDA array keeps 0 in all three. A 2D or
 *       3D copy with 0 rows is not modelled (record_call.h); and in logs of
 *       recorders that know polls (0 in older logs), cudaStreamQuery's stream
 *       and cudaEventQuery's event (record_polls.c)
 *   pages CORR HUGE_BEFORE HUGE_AFTER
 *       a copy call whose host buffer had untouched bytes (recorders newer
 *       than traces/real's corpus; older logs have none): the bytes of the
 *       buffer on transparent huge pages as the call began and as it
 *       returned (validate/record_pages.h), what faulted in as huge pages
 *       the difference; none where the kernel could not tell
 *   buffer CORR ADDRESS
 *       an explicit H2D's or D2H's host buffer (hex), where its bytes begin
 *       (recorders newer than traces/real's corpus; older logs have none):
 *       a buffer copied again is in the CPU's caches (record_cached.c)
 *   link DRIVER_CORR RUNTIME_CORR           a driver call made by that runtime call
 *   kernel CORR START END GRID BLOCK SMEM REGS NAME
 *       a kernel the GPU ran, its device times in ns (the same clock as the
 *       calls'), static plus dynamic shared memory, registers per thread,
 *       and its (mangled) name, which may hold spaces
 *   copy CORR RUNTIME_CORR START END BYTES COPYKIND SRCKIND DSTKIND
 *       a copy the GPU ran; the kinds are CUPTI's (CUpti_ActivityMemcpyKind,
 *       CUpti_ActivityMemoryKind: 1 pageable, 2 pinned)
 *   memset CORR START END BYTES VALUE MEMKIND
 *       a memset the GPU ran (logs since 2026-11-26), its value and the
 *       kind of memory set (CUpti_ActivityMemoryKind: 3 device)
 *   env NAME VALUE                          an environment variable the CUDA driver
 *       reads, as the process had it when the recorder started (at cuInit);
 *       logged only when set. The recorder keeps CUDA_MODULE_LOADING (logs
 *       since 2026-11-27; older logs say nothing of it)
 *   incomplete WHY                          the recorder ran out of memory
 *   end N_CALLS N_WORKS                     last line: the log is whole
 *
 * A log without its `end` line was cut short (the program crashed, or was
 * killed before its exit handlers ran) and is refused. */
#ifndef RECORD_LOG_H
#define RECORD_LOG_H

#include <glib.h>

/* The runtime's special stream handles (driver_types.h), as calls carry
 * them; 0 is the legacy default stream, or the per-thread one for a
 * function of the per-thread default stream (a _ptsz or _ptds name). */
#define RECORD_STREAM_LEGACY 0x1u
#define RECORD_STREAM_PER_THREAD 0x2u

/* cudaMemcpyKind, a copy call's A1. */
typedef enum
{
  RECORD_MEMCPY_H2H = 0,
  RECORD_MEMCPY_H2D = 1,
  RECORD_MEMCPY_D2H = 2,
  RECORD_MEMCPY_D2D = 3,
  RECORD_MEMCPY_DEFAULT = 4,
} RecordMemcpyKind;

/* CUpti_ActivityMemcpyKind, a copy record's COPYKIND. */
typedef enum
{
  RECORD_COPY_UNKNOWN = 0,
  RECORD_COPY_HTOD = 1,
  RECORD_COPY_DTOH = 2,
  RECORD_COPY_HTOA = 3,
  RECORD_COPY_ATOH = 4,
  RECORD_COPY_ATOA = 5,
  RECORD_COPY_ATOD = 6,
  RECORD_COPY_DTOA = 7,
  RECORD_COPY_DTOD = 8,
  RECORD_COPY_HTOH = 9,
  RECORD_COPY_PTOP = 10,
} RecordCopyKind;

/* CUpti_ActivityMemoryKind, a copy record's SRCKIND and DSTKIND and a
 * memset record's MEMKIND. */
typedef enum
{
  RECORD_MEMORY_UNKNOWN = 0,
  RECORD_MEMORY_PAGEABLE = 1,
  RECORD_MEMORY_PINNED = 2,
  RECORD_MEMORY_DEVICE = 3,
  RECORD_MEMORY_ARRAY = 4,
  RECORD_MEMORY_MANAGED = 5,
  RECORD_MEMORY_DEVICE_STATIC = 6,
  RECORD_MEMORY_MANAGED_STATIC = 7,
} RecordMemoryKind;

typedef struct
{
  guint line;         /* in the log, for messages */
  guint thread;
  const char *name;
  guint64 enter, exit;
  guint32 correlation;
  guint64 stream, event;
  guint64 a[3];
} RecordCall;

typedef enum
{
  RECORD_WORK_COPY,
  RECORD_WORK_KERNEL,
  RECORD_WORK_MEMSET,
} RecordWorkKind;

typedef struct
{
  RecordWorkKind kind;
  guint32 correlation, runtime_correlation;
  guint64 start, end;
  guint64 a[4];       /* kernel: grid, block, smem, regs; copy: bytes, copy kind, src, dst
                         kind; memset: bytes, value, memory kind */
  const char *name;   /* kernels; "" when CUPTI gave none */
} RecordWork;

/* A `pages` line. */
typedef struct
{
  guint64 huge_before, huge_after; /* the buffer's bytes on huge pages */
} RecordPages;

typedef struct
{
  char *path;
  GArray *calls;      /* RecordCall */
  GHashTable *pages;  /* correlation -> RecordPages (owned), `pages` lines */
  GHashTable *buffers; /* correlation -> guint64 host address (owned), `buffer` lines */
  GArray *works;      /* RecordWork */
  GHashTable *links;  /* driver correlation -> runtime correlation (GUINT_TO_POINTER) */
  GHashTable *env;    /* `env` lines: name -> value (owned strings) */
  char *incomplete;   /* why, or NULL */
  GStringChunk *strings;
} RecordLog;

#define RECORD_ERROR (record_error_quark ())
GQuark record_error_quark (void);

typedef enum
{
  RECORD_ERROR_IO,
  RECORD_ERROR_PARSE, /* "file:line:column: what" */
} RecordError;

RecordLog *record_log_read (const char *path, GError **error);
/* An empty log, its calls and works to be added by the caller (an importer
 * of another profiler's trace); `path` names it in messages. Names are
 * copied into `strings`. */
RecordLog *record_log_new (const char *path);
RecordLog *record_log_parse (const char *path, const char *text, gsize length, GError **error);
void record_log_free (RecordLog *log);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecordLog, record_log_free)

#endif /* RECORD_LOG_H */
