/* import_schedule.c: a trace's schedule (import_schedule.h). */
#include <string.h>
#include "import_schedule.h"
#include "sim/formats/units.h"

RecordSchedule *
import_schedule_build (ImportTrace *trace, const ImportScheduleOptions *options,
                       ImportCounts *counts, GError **error)
{
  g_return_val_if_fail (trace != NULL && options != NULL && counts != NULL, NULL);
  memset (counts, 0, sizeof *counts);
  const char *region = options->region != NULL ? options->region : IMPORT_DEFAULT_REGION;
  if (!import_trace_select_region (trace, region) && options->region != NULL)
    {
      g_set_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE, "%s: no user annotation or NVTX "
                   "range named %s (the region to import)", trace->path, region);
      return NULL;
    }
  g_autoptr (RecordLog) log = import_trace_log (trace, counts);
  g_auto (GStrv) header = import_trace_header (trace, counts);
  RecordOptions record = {
    .min_host_ns = options->min_host_ns,
    .connections = options->connections,
    .header = (const char *const *) header,
    .profile = options->profile,
    .origin_ns = trace->region ? trace->region_start : 0,
    .traced_calls = !options->untraced_calls,
  };
  RecordSchedule *rec = record_schedule_build (log, &record, error);
  if (rec == NULL && error != NULL)
    import_trace_locate_error (trace, *error);
  return rec;
}

char *
import_schedule_summary (const ImportTrace *trace, const RecordSchedule *rec,
                         const ImportCounts *counts)
{
  g_return_val_if_fail (trace != NULL && rec != NULL && counts != NULL, NULL);
  g_autofree char *summary = record_schedule_summary (rec, counts->n_calls - counts->n_outside);
  GString *line = g_string_new (summary);
  if (trace->region)
    g_string_append_printf (line, "; region %s (the trace's %u other calls left out)",
                            trace->region_name, counts->n_outside);
  if (counts->n_stream_inferred + counts->n_event_inferred > 0)
    g_string_append_printf (line, "; the streams of %u records, waits, syncs or host functions "
                            "and the events of %u waits or event syncs inferred (the trace does "
                            "not give them)", counts->n_stream_inferred, counts->n_event_inferred);
  if (counts->n_idle > 0)
    {
      g_autofree char *total = units_format_time ((SimTime) counts->idle_ns);
      g_string_append_printf (line, "; the GPU sat idle %s in %u stretch%s of 1 ms or more while "
                              "submitted work waited (held by what the trace does not show: "
                              "predictions come out short by about as much)", total,
                              counts->n_idle, counts->n_idle == 1 ? "" : "es");
    }
  if (counts->n_record_added > 0)
    g_string_append_printf (line, "; %u event records added before waits whose record the trace "
                            "does not have", counts->n_record_added);
  if (counts->n_no_work > 0)
    g_string_append_printf (line, "; %u launches, copies or memsets left out: their GPU work is "
                            "not in the trace", counts->n_no_work);
  return g_string_free (line, FALSE);
}
