/* import_kineto.h: PyTorch profiler (Kineto) Chrome JSON traces read as traces of calls and GPU work (import_trace.h).
 *
 * torch.profiler's export_chrome_trace writes what libkineto's
 * ChromeTraceLogger writes (pytorch/kineto, libkineto/src/output_json.cpp):
 * an object whose "traceEvents" array holds complete events (`"ph": "X"`)
 * with "cat", "name", "ts" and "dur" in microseconds (integers in old
 * versions, "us.ns" decimals since), "pid", "tid" and "args". The
 * categories read (ActivityType's names):
 *
 * - cuda_runtime, cuda_driver: a call, its thread ("tid") and args
 *   "correlation"; its name is CUPTI's without the version suffix.
 * - kernel: args "stream", "correlation", "grid" and "block" (three
 *   dimensions each), "registers per thread", "shared memory" (static plus
 *   dynamic).
 * - gpu_memcpy: args "stream", "correlation", "bytes"; the copy and memory
 *   kinds are in the name, "Memcpy HtoD (Pinned -> Device)".
 * - gpu_memset: args "stream", "correlation", "bytes"; the memory kind in
 *   the name, "Memset (Device)".
 * - cuda_sync (only with experimental_config(enable_cuda_sync_events=True)):
 *   the name is the kind ("Stream Sync", "Event Sync", "Stream Wait Event",
 *   "Context Sync"); args "stream" (-1: none), "correlation" of the call,
 *   and for event syncs and waits "wait_on_cuda_event_id",
 *   "wait_on_cuda_event_record_corr_id" and "wait_on_stream", the record's.
 * - cuda_event: args "event_id", "stream", "correlation" of the record.
 * - user_annotation: record_function's spans, the regions to import.
 *
 * Every other category Kineto writes is skipped; a category it does not
 * write, a phase the Chrome trace format does not have, a missing or
 * mistyped field of an event read, and malformed JSON are errors at the
 * event's "FILE:LINE:COLUMN" (its opening brace), as json-glib counts
 * them. */
#ifndef IMPORT_KINETO_H
#define IMPORT_KINETO_H

#include <glib.h>
#include "import_trace.h"

/* The trace in `text` (JSON, `length` bytes), named `path` in messages;
 * NULL with IMPORT_ERROR_PARSE where it is not one. */
ImportTrace *import_kineto_parse (const char *path, const char *text, gsize length, GError **error);

#endif /* IMPORT_KINETO_H */
