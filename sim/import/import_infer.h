/* import_infer.h: the streams and events of a trace's records, waits and synchronizes, where the trace does not give them.
 *
 * A profiler's call records carry no arguments (import_trace.h): a launch's
 * stream is its kernel's, but a cudaEventRecord, a cudaStreamWaitEvent, a
 * cudaStreamSynchronize or a cudaEventSynchronize puts no work on the GPU
 * that would name its stream or event. The trace's synchronization and
 * event records (ImportSync, ImportRecord) say them where the profiler kept
 * them; otherwise they are inferred, in this order, from the calls around
 * them and the GPU's times:
 *
 * - A record's stream is that of the work its thread issued last before it
 *   (PyTorch's event.record() and wait_stream() record on the stream the
 *   thread has been issuing to), else of the work it issues next, else the
 *   trace's first stream; each record without an event id is an event of
 *   its own. It completes when the work issued to its stream before it
 *   has ended, or where that stream was idle, when it is issued.
 * - A wait's stream is that of the work its thread issues next (PyTorch
 *   issues the waiting stream's work right after wait_event()), else of the
 *   work it issued last. Its record is, among the records issued before it
 *   on other streams, the one that completed last no later than the next
 *   work of its stream started: a wait holds that work until its record
 *   completes, so the record completed by then, and the latest such is the
 *   one that explains the start best. Where none did (the trace has no
 *   cudaEventRecord: some Kineto versions leave it out), a record of its
 *   own, made right before the wait (as PyTorch's wait_stream() records
 *   the other stream's event and waits on it at once), on the other stream
 *   whose work issued before the wait ended last no later than that start.
 *   Without a later work in its stream, the record issued last before it
 *   on another stream; without any, an event never recorded (the wait does
 *   nothing, as CUDA's).
 * - A stream synchronize waits for the stream whose work issued before it
 *   ended last while it waited (after it began, by its return); where no
 *   stream's did (it did not wait), the stream its thread issued to last,
 *   else next.
 * - An event synchronize waits for the record issued before it that
 *   completed last while it waited; where none did, the record its thread
 *   issued last.
 * - A host function's stream is that of the work its thread issued last,
 *   else next.
 *
 * On the same GPU a wrong guess changes little, since the inferred waits
 * were met when the trace was taken; on another GPU an inferred wait can
 * hold work that the real one did not. The count of inferred streams and
 * events goes into the schedule's header. Only the last 1024 records before
 * a wait or an event synchronize are candidates. */
#ifndef IMPORT_INFER_H
#define IMPORT_INFER_H

#include <glib.h>
#include "import_trace.h"
#include "sim/recorded/record_call.h"

/* A call as the inference sees it, in the order the calls began. */
typedef struct
{
  RecordCallKind kind;
  guint thread;
  guint64 enter, exit;
  guint32 correlation;
  gint64 stream;        /* a launch's, copy's or memset's: its work's stream; else IMPORT_NONE */
  gboolean timed;       /* ... and its work's device times */
  guint64 start, end;
} InferCall;

/* Events are keys: an event id the trace gives, or a record's own event,
 * or one never recorded. */
#define IMPORT_EVENT_ID(id) ((G_GUINT64_CONSTANT (1) << 32) + (guint64) (id))
#define IMPORT_EVENT_OF_RECORD(k) ((G_GUINT64_CONSTANT (2) << 32) + (guint64) (k))
#define IMPORT_EVENT_UNRECORDED(k) ((G_GUINT64_CONSTANT (3) << 32) + (guint64) (k))
#define IMPORT_EVENT_BEFORE_WAIT(k) ((G_GUINT64_CONSTANT (4) << 32) + (guint64) (k))

typedef struct
{
  gint64 stream;        /* records, waits, stream syncs and host functions: their stream;
                           other calls: InferCall.stream */
  guint64 event;        /* records, waits and event syncs: the event's key */
  gboolean stream_inferred, event_inferred;
  gint64 record_before;  /* a wait whose record is one of its own, made right before it:
                            that record's stream; else IMPORT_NONE */
} InferTarget;

/* Per call of `calls` (n of them, in the order they began), its stream and
 * event, from `trace`'s syncs and records where they name the call's
 * correlation, else inferred as above. `fallback` is the stream taken
 * where nothing else tells (IMPORT_NONE: the legacy default stream). The
 * result has n entries (g_free it). */
InferTarget *import_infer_targets (const InferCall *calls, guint n, const ImportTrace *trace,
                                   gint64 fallback);

#endif /* IMPORT_INFER_H */
