/* chrome_trace.h: a timeline as Chrome trace-event JSON, which the Perfetto UI (ui.perfetto.dev) opens.
 *
 * The trace holds two processes: "device" (pid 1) with a track per engine,
 * and "streams" (pid 2) with a track per stream. Each op is a complete event
 * ("ph":"X", ts and dur in microseconds with nanosecond decimals) carrying its
 * op, line, kind, bytes, grid, block, label and cause as arguments. Slices on
 * one track never overlap, because Perfetto draws overlapping slices of a
 * track wrongly: where they would (concurrent kernels), the engine gets extra
 * tracks "compute #2", "compute #3", ... filled first-fit. Cross-stream
 * dependencies (cause_link.h: event, queue, legacy and deferred causes)
 * become flow arrows from the op named to the one that waited.
 *
 * Given a critical path (prediction_critical_path: op numbers, first op
 * first), a third process, "critical path" (pid 3, listed first), repeats
 * its ops in order on tracks of their own (the device's ops on "critical
 * path", the host thread's calls below on "critical path: host"), each
 * linked to the next by a flow named "critical path"; every slice of a path op carries
 * "critical_path_step" (1 for the first) among its arguments. */
#ifndef CHROME_TRACE_H
#define CHROME_TRACE_H

#include <glib.h>
#include "sim/formats/timeline.h"

/* The JSON text, newly allocated; sets *length when not NULL. `critical_path`
 * may be NULL (a measured timeline has none). */
char *chrome_trace_to_data (const Timeline *timeline, const GArray *critical_path,
                            gsize *length);

/* Writes the JSON to `path` through a temporary file and a rename, so that a
 * failure leaves no partial file. Errors are G_FILE_ERROR. */
gboolean chrome_trace_write (const Timeline *timeline, const GArray *critical_path,
                             const char *path, GError **error);

#endif /* CHROME_TRACE_H */
