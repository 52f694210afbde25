/* record_memset.h: a recorded memset call read as a `memset STREAM SIZE` statement, or why not.
 *
 * The language's `memset` is cudaMemsetAsync of device memory, which runs on
 * the SMs (engines/MODEL.md, "Memsets"). Every memset function of the
 * runtime and driver APIs (cudaMemset*, cuMemset*) is read the same way:
 *
 * - Its bytes are CUPTI's memset record's, what the GPU set, or where CUPTI
 *   returned none the call's (a 2D memset's width times height); its memory
 *   is the record's kind. Device memory (or static device memory) becomes a
 *   `memset`, and so does pinned host memory set asynchronously (`memset
 *   STREAM SIZE pinned`: XLA sets its 8 B flags so); pageable or managed
 *   memory, and a synchronous memset of pinned memory (the host waits for
 *   it, which `memset` does not say), stay `# not modelled` comments.
 *   Without a record the memory is taken as device memory, and the comment
 *   says so.
 * - A 2D or 3D memset becomes one memset of its bytes.
 * - The synchronous functions (no "Async": cudaMemset, cuMemsetD32_v2, ...)
 *   run in the legacy default stream (or the per-thread one, _ptds) and, of
 *   device memory, are asynchronous with respect to the host, as the CUDA
 *   runtime's "API synchronization behavior" says: "The cudaMemset
 *   functions are asynchronous with respect to the host except when the
 *   target memory is pinned host memory" (and managed memory, which stays a
 *   comment here). So the host does not wait for them either.
 * - A memset of no bytes puts nothing on the GPU: host time only. A call
 *   with no size in the log and no CUPTI record, in a log without memset
 *   records at all (recorders before 2026-11-26 kept neither), has an
 *   unknown size: a comment.
 * - Driver API memsets logged by recorders before 2026-11-27 kept neither
 *   their stream nor their size (record_log.h): the size is CUPTI's, and the
 *   stream, unknown, is taken as the call's handle (0: the legacy default
 *   stream), which the comment says. */
#ifndef RECORD_MEMSET_H
#define RECORD_MEMSET_H

#include <glib.h>
#include "record_log.h"

typedef enum
{
  MEMSET_OP,            /* a `memset` statement */
  MEMSET_EMPTY,         /* no bytes: host time */
  MEMSET_NOT_DEVICE,    /* of memory CUPTI calls neither device memory nor pinned: not modelled */
  MEMSET_SYNC_PINNED,   /* a synchronous memset of pinned host memory: not modelled */
  MEMSET_SIZE_UNKNOWN,  /* no size anywhere: not modelled */
} MemsetWhat;

typedef struct
{
  MemsetWhat what;
  guint64 bytes;
  guint64 memory;       /* CUpti_ActivityMemoryKind, when CUPTI timed it */
  gboolean sync;        /* a function without "Async" */
  gboolean pinned;      /* MEMSET_OP: of pinned host memory */
  gboolean rows;        /* a 2D or 3D memset */
  gboolean untimed;     /* no CUPTI record: its memory taken as device memory */
  gboolean no_stream;   /* the log kept no stream for it */
} MemsetShape;

/* Whether a function (its name without a _ptsz or _ptds suffix) sets memory. */
gboolean record_memset_is (const char *name);

/* What call `c` is, given its CUPTI memset record (or NULL) and whether the
 * log has memset records at all. */
void record_memset_shape (const RecordCall *c, const RecordWork *record, gboolean log_has_memsets,
                          MemsetShape *shape);

/* CUpti_ActivityMemoryKind's name for a memory kind ("device", "pinned", ...). */
const char *record_memset_memory_name (guint64 kind);

#endif /* RECORD_MEMSET_H */
