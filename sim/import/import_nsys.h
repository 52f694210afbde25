/* import_nsys.h: Nsight Systems' SQLite export (`nsys export --type sqlite`) read as a trace of calls and GPU work (import_trace.h).
 *
 * The tables and columns read, as NVIDIA's "SQLite Export Schema
 * Reference" (Nsight Systems' exporter documentation) names them; tables
 * are made only when the report has such data, and a missing optional
 * column reads as NULL:
 *
 * - CUPTI_ACTIVITY_KIND_RUNTIME and _DRIVER: a call's start, end,
 *   correlationId, nameId (StringIds: "cudaLaunchKernel_v7000"), and
 *   globalTid (its thread; optional).
 * - CUPTI_ACTIVITY_KIND_KERNEL: start, end, streamId, correlationId,
 *   gridX/Y/Z, blockX/Y/Z, and optionally registersPerThread,
 *   staticSharedMemory, dynamicSharedMemory; its name through StringIds
 *   from demangledName, else shortName, else mangledName.
 * - CUPTI_ACTIVITY_KIND_MEMCPY: start, end, streamId, correlationId, bytes,
 *   copyKind (ENUM_CUDA_MEMCPY_OPER), and optionally srcKind and dstKind
 *   (ENUM_CUDA_MEM_KIND).
 * - CUPTI_ACTIVITY_KIND_MEMSET: start, end, streamId, correlationId, bytes,
 *   and optionally memKind (ENUM_CUDA_MEM_KIND).
 * - CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (optional): correlationId, syncType
 *   (ENUM_CUPTI_SYNC_TYPE), streamId, eventId (CUPTI's "not applicable",
 *   4294967295 or -1, for none).
 * - CUPTI_ACTIVITY_KIND_CUDA_EVENT (optional): a record's correlationId,
 *   streamId and eventId.
 * - NVTX_EVENTS (optional): ranges, start and end, named by text or
 *   textId (StringIds): the regions to import.
 *
 * The ENUM tables map ids to names: their numbers differ between versions,
 * so kinds are read from each row's `label` and `name` ("Host-to-Device",
 * "CUDA_MEMCPY_OPER_HTOD"), never from the ids. The schema versions this
 * reads are those whose tables have these columns: the 2021 exporter's
 * and later ones, which only added columns. A database without
 * CUPTI_ACTIVITY_KIND_RUNTIME (no CUDA trace), a missing required column
 * or table, a NULL or out-of-range value and a corrupt file are errors
 * naming "FILE: table T row N" (SQLite's rowid) where a row is at fault. */
#ifndef IMPORT_NSYS_H
#define IMPORT_NSYS_H

#include <glib.h>
#include "import_trace.h"

/* The SQLite database at `path`, opened read-only. */
ImportTrace *import_nsys_read (const char *path, GError **error);

/* The database held in `data[0..length)` (a decompressed or fuzzed one),
 * named `path` in messages. */
ImportTrace *import_nsys_parse (const char *path, const guint8 *data, gsize length,
                                GError **error);

#endif /* IMPORT_NSYS_H */
