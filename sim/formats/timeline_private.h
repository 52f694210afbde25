/* timeline_private.h: the timeline CSV's columns and metadata keys, shared by timeline.c, timeline_writer.c and timeline_read.c. */
#ifndef TIMELINE_PRIVATE_H
#define TIMELINE_PRIVATE_H

#include <glib.h>

/* The columns, in the order they are written. */
typedef enum
{
  COL_OP,
  COL_LINE,
  COL_STREAM,
  COL_KIND,
  COL_ENGINE,
  COL_CONN,
  COL_ISSUE,
  COL_START,
  COL_END,
  COL_BYTES,
  COL_GRID,
  COL_BLOCK,
  COL_LABEL,
  COL_CAUSE,
  /* the issuing host thread, written only for a schedule of several */
  COL_THREAD,
  N_COLUMNS
} TimelineColumn;

typedef struct
{
  const char *name;
  gboolean required; /* a reader refuses a header without it */
} TimelineColumnInfo;

extern const TimelineColumnInfo timeline_columns[N_COLUMNS];

#define REQUIRED_COLUMNS "op, line, stream, kind, engine, issue_ns, start_ns, end_ns"

/* A metadata key is letters, digits, '_', '.' and '-', so that "# key: value"
 * reads back as it was written. */
gboolean timeline_meta_key_is_valid (const char *key);

#endif /* TIMELINE_PRIVATE_H */
