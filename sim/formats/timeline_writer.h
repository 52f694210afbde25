/* timeline_writer.h: the timeline CSV written row by row; rows are not kept in memory. */
#ifndef TIMELINE_WRITER_H
#define TIMELINE_WRITER_H

#include "timeline.h"

typedef struct TimelineWriter TimelineWriter;

/* Writes to a temporary file beside `path`; timeline_writer_finish() renames
 * it into place, timeline_writer_abort() (or a failed finish) removes it, so
 * a failed run never leaves a partial file. `path` "-" writes to stdout.
 * `meta` is NULL or NULL-ended pairs {key, value, key, value, ..., NULL}.
 * With `issuer` the CSV has the thread column (each row's issuer): a
 * schedule of several host threads. */
TimelineWriter *timeline_writer_new (const char *path, const char *const *meta, gboolean issuer,
                                     GError **error);
gboolean timeline_writer_add (TimelineWriter *writer, const TimelineRow *row,
                              GError **error);
/* Appends whole rows already formatted by timeline_row_append(), with the
 * writer's `issuer`, after the rows added before them. */
gboolean timeline_writer_add_rows (TimelineWriter *writer, const char *rows, gsize len,
                                   GError **error);
gboolean timeline_writer_finish (TimelineWriter *writer, GError **error);
void timeline_writer_abort (TimelineWriter *writer);

#endif /* TIMELINE_WRITER_H */
