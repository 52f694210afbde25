/* import_schedule.h: a profiler's trace turned into a schedule: its region chosen, its recorded program built (import_trace.h) and converted as the recorder's are (record_schedule.h). */
#ifndef IMPORT_SCHEDULE_H
#define IMPORT_SCHEDULE_H

#include <glib.h>
#include "import_trace.h"
#include "sim/core/gpu_profile.h"
#include "sim/recorded/record_schedule.h"

/* The region imported by default: PyTorch's record_function("streamsim_region"). */
#define IMPORT_DEFAULT_REGION "streamsim_region"

typedef struct
{
  const char *region;   /* the ranges to import (import_trace_select_region); NULL: the
                           default one where the trace has it, else the whole trace */
  guint64 min_host_ns;  /* as RecordOptions' */
  guint connections;
  const GpuProfile *profile; /* the GPU the trace was taken on, or NULL */
  gboolean untraced_calls;   /* calls cost what the profile charges, not what they took
                                under the profiler (RecordOptions' traced_calls off) */
} ImportScheduleOptions;

/* The schedule of `trace`, whose region it sets; `counts` (cleared with
 * import_counts_clear, also on failure) says what was left out or
 * inferred. A region named in `options` that the trace does not have is
 * IMPORT_ERROR_PARSE; a call the language cannot express is
 * RECORD_ERROR_PARSE at the call's place in the trace
 * (import_trace_locate_error). */
RecordSchedule *import_schedule_build (ImportTrace *trace, const ImportScheduleOptions *options,
                                       ImportCounts *counts, GError **error);

/* One line (no line break) on what the import made: record_schedule_summary's
 * counts, the region's calls, what was inferred and left out. */
char *import_schedule_summary (const ImportTrace *trace, const RecordSchedule *rec,
                               const ImportCounts *counts);

#endif /* IMPORT_SCHEDULE_H */
