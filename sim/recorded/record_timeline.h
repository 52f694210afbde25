/* record_timeline.h: a recorded or imported program's measured timeline, written as the timeline CSV. */
#ifndef RECORD_TIMELINE_H
#define RECORD_TIMELINE_H

#include <glib.h>
#include "record_schedule.h"

/* Writes `rec`'s ops with the times the recording gave them (records' and
 * waits' derived from their streams first, marker_times.h, which sets
 * them in `rec`) to `path` (timeline_writer.h: nothing is left there on
 * failure), with `meta`, the writer's NULL-ended key and value pairs. */
gboolean record_timeline_write (RecordSchedule *rec, const char *path, const char *const *meta,
                                GError **error);

#endif /* RECORD_TIMELINE_H */
