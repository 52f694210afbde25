/* timeline.c: a timeline in memory (rows and "# key: value" metadata) and the CSV's columns; the writer and the reader have files of their own. */
#include <string.h>
#include "timeline.h"
#include "timeline_private.h"
#include "timeline_writer.h"

G_DEFINE_QUARK (timeline-error-quark, timeline_error)

const TimelineColumnInfo timeline_columns[N_COLUMNS] = {
  [COL_OP] = { "op", TRUE },
  [COL_LINE] = { "line", TRUE },
  [COL_STREAM] = { "stream", TRUE },
  [COL_KIND] = { "kind", TRUE },
  [COL_ENGINE] = { "engine", TRUE },
  [COL_CONN] = { "conn", FALSE },
  [COL_ISSUE] = { "issue_ns", TRUE },
  [COL_START] = { "start_ns", TRUE },
  [COL_END] = { "end_ns", TRUE },
  [COL_BYTES] = { "bytes", FALSE },
  [COL_GRID] = { "grid", FALSE },
  [COL_BLOCK] = { "block", FALSE },
  [COL_LABEL] = { "label", FALSE },
  [COL_CAUSE] = { "cause", FALSE },
  [COL_THREAD] = { "thread", FALSE },
};

gboolean
timeline_meta_key_is_valid (const char *key)
{
  if (*key == '\0')
    return FALSE;
  for (const char *p = key; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '-'))
      return FALSE;
  return TRUE;
}

struct Timeline
{
  char *path;
  GArray *rows;          /* TimelineRow, strings in `strings` */
  GStringChunk *strings; /* every string of rows and metadata, interned */
  GPtrArray *meta;       /* const char *: key, value, key, value, ... */
};

Timeline *
timeline_new (const char *path)
{
  Timeline *timeline = g_new0 (Timeline, 1);
  timeline->path = g_strdup (path);
  timeline->rows = g_array_new (FALSE, FALSE, sizeof (TimelineRow));
  timeline->strings = g_string_chunk_new (4096);
  timeline->meta = g_ptr_array_new ();
  return timeline;
}

void
timeline_free (Timeline *timeline)
{
  if (timeline == NULL)
    return;
  g_free (timeline->path);
  g_array_unref (timeline->rows);
  g_string_chunk_free (timeline->strings);
  g_ptr_array_unref (timeline->meta);
  g_free (timeline);
}

static const char *
intern (Timeline *timeline, const char *text)
{
  return text != NULL ? g_string_chunk_insert_const (timeline->strings, text) : NULL;
}

void
timeline_append (Timeline *timeline, const TimelineRow *row)
{
  g_return_if_fail (timeline != NULL && row != NULL);

  TimelineRow copy = *row;
  copy.stream = intern (timeline, row->stream);
  copy.kind = intern (timeline, row->kind);
  copy.engine = intern (timeline, row->engine);
  copy.label = intern (timeline, row->label);
  copy.cause = intern (timeline, row->cause);
  copy.thread = intern (timeline, row->thread);
  copy.issuer = intern (timeline, row->issuer);
  g_array_append_val (timeline->rows, copy);
}

void
timeline_set_meta (Timeline *timeline, const char *key, const char *value)
{
  g_return_if_fail (timeline != NULL && key != NULL && value != NULL);
  g_return_if_fail (timeline_meta_key_is_valid (key));

  const char *v = intern (timeline, value);
  for (guint i = 0; i < timeline->meta->len; i += 2)
    if (strcmp (g_ptr_array_index (timeline->meta, i), key) == 0)
      {
        timeline->meta->pdata[i + 1] = (gpointer) v;
        return;
      }
  g_ptr_array_add (timeline->meta, (gpointer) intern (timeline, key));
  g_ptr_array_add (timeline->meta, (gpointer) v);
}

gsize
timeline_n_rows (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, 0);
  return timeline->rows->len;
}

const TimelineRow *
timeline_row (const Timeline *timeline, gsize index)
{
  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (index < timeline->rows->len, NULL);
  return &g_array_index (timeline->rows, TimelineRow, index);
}

const char *
timeline_meta (const Timeline *timeline, const char *key)
{
  g_return_val_if_fail (timeline != NULL && key != NULL, NULL);
  for (guint i = 0; i < timeline->meta->len; i += 2)
    if (strcmp (g_ptr_array_index (timeline->meta, i), key) == 0)
      return g_ptr_array_index (timeline->meta, i + 1);
  return NULL;
}

const char *
timeline_path (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, NULL);
  return timeline->path;
}

SimTime
timeline_makespan (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, 0);
  SimTime makespan = 0;
  for (guint i = 0; i < timeline->rows->len; i++)
    makespan = sim_time_max (makespan, g_array_index (timeline->rows, TimelineRow, i).end);
  return makespan;
}

/* Keys and values are op + 1 and row + 1: a hash of pointers holds no 0. */
GHashTable *
timeline_op_rows (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, NULL);
  GHashTable *op_rows = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < timeline->rows->len; i++)
    g_hash_table_insert (op_rows,
                         GSIZE_TO_POINTER ((gsize) g_array_index (timeline->rows, TimelineRow, i).op + 1),
                         GSIZE_TO_POINTER ((gsize) i + 1));
  return op_rows;
}

gboolean
timeline_op_row (GHashTable *op_rows, guint32 op, gsize *row)
{
  g_return_val_if_fail (op_rows != NULL && row != NULL, FALSE);
  gsize found = GPOINTER_TO_SIZE (g_hash_table_lookup (op_rows, GSIZE_TO_POINTER ((gsize) op + 1)));
  if (found == 0)
    return FALSE;
  *row = found - 1;
  return TRUE;
}

gboolean
timeline_write (const Timeline *timeline, const char *path, GError **error)
{
  g_return_val_if_fail (timeline != NULL && path != NULL, FALSE);

  const char **meta = g_new (const char *, timeline->meta->len + 1);
  for (guint i = 0; i < timeline->meta->len; i++)
    meta[i] = g_ptr_array_index (timeline->meta, i);
  meta[timeline->meta->len] = NULL;
  gboolean issuer = FALSE;
  for (guint i = 0; i < timeline->rows->len && !issuer; i++)
    issuer = g_array_index (timeline->rows, TimelineRow, i).issuer != NULL;
  TimelineWriter *writer = timeline_writer_new (path, meta, issuer, error);
  g_free (meta);
  if (writer == NULL)
    return FALSE;
  for (guint i = 0; i < timeline->rows->len; i++)
    if (!timeline_writer_add (writer, &g_array_index (timeline->rows, TimelineRow, i), error))
      {
        timeline_writer_abort (writer);
        return FALSE;
      }
  return timeline_writer_finish (writer, error);
}
