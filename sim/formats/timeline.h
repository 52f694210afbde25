/* timeline.h: the timeline CSV of MODEL.md section 5, shared by predict, validate and compare.
 *
 * Columns, in this order:
 *   op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
 * and, for a schedule of several host threads, thread (the issuing one).
 * op is the 0-based index in issue order, line the schedule line, times are
 * integer nanoseconds from the first API call. Empty fields are allowed for
 * stream (host work and device or event syncs belong to no stream), conn,
 * bytes, grid, block, label and cause. Lines starting with '#' before
 * the header carry metadata as "# key: value" (schedule, device, source);
 * readers keep them and ignore other comments. Fields holding a comma, quote
 * or newline are quoted as in RFC 4180. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <glib.h>
#include "sim/core/sim_time.h"

typedef struct
{
  guint32 op;
  guint32 line;
  const char *stream;
  const char *kind;   /* h2d d2h d2d memcpy kernel record wait sync host */
  const char *engine; /* h2d d2h copy d2d compute host stream */
  gint32 conn;        /* hardware queue, -1 when none */
  SimTime issue;
  SimTime start;
  SimTime end;
  guint64 bytes;      /* copies; 0 otherwise */
  guint32 grid;       /* kernels; 0 otherwise */
  guint32 block;
  const char *label;  /* may be NULL */
  const char *cause;  /* may be NULL */
  /* The host thread that made a host-side call (engine `host`) of a schedule
   * with several (`thread` blocks), which the pictures give a row each; NULL
   * otherwise. Not a CSV column: a timeline read back has none. */
  const char *thread;
  /* The host thread that issued the op, whatever its engine, in a schedule
   * with several: the CSV's optional `thread` column, which compare pairs a
   * thread's synchronizations by; NULL otherwise. */
  const char *issuer;
} TimelineRow;

#define TIMELINE_ERROR (timeline_error_quark ())
GQuark timeline_error_quark (void);

typedef enum
{
  TIMELINE_ERROR_IO,
  TIMELINE_ERROR_PARSE, /* message starts with "file:line:column: " */
} TimelineError;

/* ---- A timeline in memory, read whole (the streamed writer is in
 * timeline_writer.h). ---- */

typedef struct Timeline Timeline;

/* The longest timeline file read, in bytes (decompressed, where it is gzipped). */
#define TIMELINE_MAX_FILE_BYTES ((gsize) 1 << 30)

Timeline *timeline_read (const char *path, GError **error);

/* The timeline CSV in `data[0..length)`, read as timeline_read reads a
 * file, named `path` in messages (a file read and decompressed by the
 * caller). */
Timeline *timeline_read_data (const char *path, const char *data, gsize length, GError **error);
void timeline_free (Timeline *timeline);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Timeline, timeline_free)

gsize timeline_n_rows (const Timeline *timeline);
const TimelineRow *timeline_row (const Timeline *timeline, gsize index);
/* A "# key: value" metadata value, or NULL. */
const char *timeline_meta (const Timeline *timeline, const char *key);
const char *timeline_path (const Timeline *timeline);
/* The largest end_ns, 0 for an empty timeline. */
SimTime timeline_makespan (const Timeline *timeline);

/* Rows found by op number, to follow what a row names (a cause's op, a
 * critical path's ops): timeline_op_rows() indexes every row once, and
 * timeline_op_row() looks an op up in that index. Where two rows carry one
 * op (a malformed CSV), the last is found. */
GHashTable *timeline_op_rows (const Timeline *timeline);
gboolean timeline_op_row (GHashTable *op_rows, guint32 op, gsize *row);

/* Builds a timeline in memory (tests, the harness): rows are copied. */
Timeline *timeline_new (const char *path);
void timeline_append (Timeline *timeline, const TimelineRow *row);
void timeline_set_meta (Timeline *timeline, const char *key, const char *value);
/* Writes a whole timeline through the streamed writer. */
gboolean timeline_write (const Timeline *timeline, const char *path, GError **error);

#endif /* TIMELINE_H */
