/* record_timeline.c: a recording's measured timeline as the timeline CSV (record_timeline.h). */
#include "record_timeline.h"
#include "marker_times.h"
#include "measured_row.h"
#include "sim/formats/timeline_writer.h"

gboolean
record_timeline_write (RecordSchedule *rec, const char *path, const char *const *meta,
                       GError **error)
{
  g_return_val_if_fail (rec != NULL && rec->schedule != NULL && path != NULL, FALSE);
  const Schedule *sched = rec->schedule;
  marker_times_derive (sched, rec->issue, rec->start, rec->end);
  TimelineWriter *w = timeline_writer_new (path, meta, schedule_n_threads (sched) > 1, error);
  if (w == NULL)
    return FALSE;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      TimelineRow row;
      measured_row_fill (sched, i, &row);
      row.issue = rec->issue[i];
      row.start = rec->start[i];
      row.end = rec->end[i];
      if (!timeline_writer_add (w, &row, error))
        {
          timeline_writer_abort (w);
          return FALSE;
        }
    }
  return timeline_writer_finish (w, error);
}
