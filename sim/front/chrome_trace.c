/* chrome_trace.c: a timeline as Chrome trace-event JSON (Perfetto), built with json-glib. */
#include "chrome_trace.h"

#include <string.h>
#include "cause_link.h"
#include "engine_rows.h"
#include "json_text.h"
#include "lanes.h"
#include "sim/formats/output_file.h"

#define CHROME_PID_DEVICE 1
#define CHROME_PID_STREAMS 2
#define CHROME_PID_PATH 3

/* All slices and flow events share one category: the Chrome trace viewer
 * binds a flow event to a slice only when their categories match. */
#define CHROME_CATEGORY "op"

/* Record and wait markers belong to no engine: they show on stream tracks. */
#define CHROME_MARKER_ENGINE "stream"

typedef struct
{
  const Timeline *timeline;
  JsonBuilder *builder;
  guint next_tid;
  guint *device_tid; /* per row; 0 when not on a device track */
  guint *stream_tid; /* per row; 0 when not on a stream track */
  GHashTable *op_rows; /* rows by op number (timeline_op_rows) */
  guint *path_tid;   /* per row; 0 when not on the critical path */
  guint *path_step;  /* per row: its place on the critical path, from 1; 0 when not on it */
  GArray *path_rows; /* gsize: the critical path's rows, first op first */
  guint next_flow;   /* the id of the next flow's two events */
} ChromeTrace;

static double
chrome_us (SimTime ns)
{
  return (double) ns / 1000.0;
}

static void
chrome_metadata (JsonBuilder *b, const char *name, guint pid, guint tid, const char *key,
                 const char *text, gint64 number)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "ph");
  json_builder_add_string_value (b, "M");
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, pid);
  json_builder_set_member_name (b, "tid");
  json_builder_add_int_value (b, tid);
  json_builder_set_member_name (b, "args");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, key);
  if (text != NULL)
    json_builder_add_string_value (b, text);
  else
    json_builder_add_int_value (b, number);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static gboolean
chrome_is_marker (const TimelineRow *row)
{
  return row->engine != NULL && strcmp (row->engine, CHROME_MARKER_ENGINE) == 0;
}

static const char *
chrome_stream_name (const TimelineRow *row)
{
  return row->stream != NULL && *row->stream != '\0' ? row->stream : NULL;
}

/* A stream track shows what the stream's queue did; the host thread's
 * synchronize calls name a stream too but run on the host. */
static gboolean
chrome_on_stream_track (const TimelineRow *row)
{
  return chrome_stream_name (row) != NULL
         && !(row->engine != NULL && strcmp (row->engine, "host") == 0);
}

/* Gives the rows in `rows` (indices) tracks of their own in `pid`: one when
 * none overlap, more (named "TITLE #2", ...) where they do. */
static void
chrome_tracks (ChromeTrace *t, guint pid, const GArray *rows, const char *title,
               guint *tid_of_row)
{
  gsize n = rows->len;
  if (n == 0)
    return;
  SimTime *start = g_new (SimTime, n);
  SimTime *end = g_new (SimTime, n);
  guint *lane = g_new (guint, n);
  for (gsize k = 0; k < n; k++)
    {
      const TimelineRow *row = timeline_row (t->timeline, g_array_index (rows, gsize, k));
      start[k] = row->start;
      end[k] = row->end;
    }
  guint n_lanes = lanes_assign (start, end, n, lane);
  guint first = t->next_tid;
  t->next_tid += n_lanes;
  for (guint l = 0; l < n_lanes; l++)
    {
      g_autofree char *name = l == 0 ? g_strdup (title) : g_strdup_printf ("%s #%u", title, l + 1);
      chrome_metadata (t->builder, "thread_name", pid, first + l, "name", name, 0);
      chrome_metadata (t->builder, "thread_sort_index", pid, first + l, "sort_index", NULL,
                       first + l);
    }
  for (gsize k = 0; k < n; k++)
    tid_of_row[g_array_index (rows, gsize, k)] = first + lane[k];
  g_free (start);
  g_free (end);
  g_free (lane);
}

static void
chrome_assign_tracks (ChromeTrace *t)
{
  const Timeline *tl = t->timeline;
  gsize n = timeline_n_rows (tl);
  g_autoptr (GHashTable) done = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (done, (gpointer) CHROME_MARKER_ENGINE);

  /* Known engines first, in their fixed order, then any other engine name
   * in the order it appears. */
  g_autoptr (GPtrArray) engines = g_ptr_array_new ();
  g_autoptr (GPtrArray) titles = g_ptr_array_new ();
  gsize n_known;
  const EngineRow *known = engine_rows (&n_known);
  for (gsize e = 0; e < n_known; e++)
    {
      g_ptr_array_add (engines, (gpointer) known[e].engine);
      g_ptr_array_add (titles, (gpointer) known[e].title);
      g_hash_table_add (done, (gpointer) known[e].engine);
    }
  for (gsize i = 0; i < n; i++)
    {
      const char *engine = timeline_row (tl, i)->engine;
      if (engine != NULL && *engine != '\0' && !g_hash_table_contains (done, engine))
        {
          g_hash_table_add (done, (gpointer) engine);
          g_ptr_array_add (engines, (gpointer) engine);
          g_ptr_array_add (titles, (gpointer) engine);
        }
    }
  /* with several host threads, a track of host calls for each */
  g_autoptr (GPtrArray) threads = engine_rows_host_threads (&tl, 1);
  for (guint e = 0; e < engines->len; e++)
    {
      const char *engine = g_ptr_array_index (engines, e);
      gboolean by_thread = threads->len > 0 && strcmp (engine, "host") == 0;
      for (guint k = 0; k < (by_thread ? threads->len : 1); k++)
        {
          g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (gsize));
          for (gsize i = 0; i < n; i++)
            {
              const TimelineRow *row = timeline_row (tl, i);
              if (row->engine != NULL && strcmp (row->engine, engine) == 0
                  && (!by_thread || g_strcmp0 (row->thread, g_ptr_array_index (threads, k)) == 0))
                g_array_append_val (rows, i);
            }
          g_autofree char *title = by_thread
                                   ? g_strdup_printf ("host thread %s",
                                                      (const char *) g_ptr_array_index (threads, k))
                                   : g_strdup (g_ptr_array_index (titles, e));
          chrome_tracks (t, CHROME_PID_DEVICE, rows, title, t->device_tid);
        }
    }

  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < n; i++)
    {
      const TimelineRow *first = timeline_row (tl, i);
      if (!chrome_on_stream_track (first) || g_hash_table_contains (seen, first->stream))
        continue;
      g_hash_table_add (seen, (gpointer) first->stream);
      g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (gsize));
      for (gsize j = i; j < n; j++)
        {
          const TimelineRow *row = timeline_row (tl, j);
          if (chrome_on_stream_track (row) && strcmp (row->stream, first->stream) == 0)
            g_array_append_val (rows, j);
        }
      g_autofree char *title = g_strdup_printf ("stream %s", first->stream);
      chrome_tracks (t, CHROME_PID_STREAMS, rows, title, t->stream_tid);
    }
}

static void
chrome_slice (ChromeTrace *t, gsize index, guint pid, guint tid)
{
  const TimelineRow *row = timeline_row (t->timeline, index);
  JsonBuilder *b = t->builder;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  if (row->label != NULL && *row->label != '\0')
    json_builder_add_string_value (b, row->label);
  else
    {
      g_autofree char *name = g_strdup_printf ("%s %u", row->kind != NULL ? row->kind : "op",
                                               row->op);
      json_builder_add_string_value (b, name);
    }
  json_builder_set_member_name (b, "cat");
  json_builder_add_string_value (b, CHROME_CATEGORY);
  json_builder_set_member_name (b, "ph");
  json_builder_add_string_value (b, "X");
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, pid);
  json_builder_set_member_name (b, "tid");
  json_builder_add_int_value (b, tid);
  json_builder_set_member_name (b, "ts");
  json_builder_add_double_value (b, chrome_us (row->start));
  json_builder_set_member_name (b, "dur");
  json_builder_add_double_value (b, chrome_us (sim_time_max (row->end - row->start, 0)));

  json_builder_set_member_name (b, "args");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "op");
  json_builder_add_int_value (b, row->op);
  json_builder_set_member_name (b, "line");
  json_builder_add_int_value (b, row->line);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, row->kind != NULL ? row->kind : "");
  if (row->stream != NULL && *row->stream != '\0')
    {
      json_builder_set_member_name (b, "stream");
      json_builder_add_string_value (b, row->stream);
    }
  if (row->engine != NULL && *row->engine != '\0')
    {
      json_builder_set_member_name (b, "engine");
      json_builder_add_string_value (b, row->engine);
    }
  if (row->conn >= 0)
    {
      json_builder_set_member_name (b, "conn");
      json_builder_add_int_value (b, row->conn);
    }
  json_builder_set_member_name (b, "issue_ns");
  json_builder_add_int_value (b, row->issue);
  if (row->bytes > 0)
    {
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) MIN (row->bytes, (guint64) G_MAXINT64));
    }
  if (row->grid > 0)
    {
      json_builder_set_member_name (b, "grid");
      json_builder_add_int_value (b, row->grid);
      json_builder_set_member_name (b, "block");
      json_builder_add_int_value (b, row->block);
    }
  if (row->label != NULL && *row->label != '\0')
    {
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, row->label);
    }
  if (row->cause != NULL && *row->cause != '\0')
    {
      json_builder_set_member_name (b, "cause");
      json_builder_add_string_value (b, row->cause);
    }
  if (t->path_step[index] != 0)
    {
      json_builder_set_member_name (b, "critical_path_step");
      json_builder_add_int_value (b, t->path_step[index]);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static void
chrome_flow_event (JsonBuilder *b, const char *phase, const char *name, guint id,
                   guint pid, guint tid, SimTime at)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "cat");
  json_builder_add_string_value (b, CHROME_CATEGORY);
  json_builder_set_member_name (b, "ph");
  json_builder_add_string_value (b, phase);
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, id);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, pid);
  json_builder_set_member_name (b, "tid");
  json_builder_add_int_value (b, tid);
  json_builder_set_member_name (b, "ts");
  json_builder_add_double_value (b, chrome_us (at));
  if (strcmp (phase, "f") == 0)
    {
      json_builder_set_member_name (b, "bp");
      json_builder_add_string_value (b, "e");
    }
  json_builder_end_object (b);
}

/* Where an op's end of a flow attaches: its stream track when it has one
 * (every cross-stream arrow then runs between stream tracks), else its
 * engine track. */
static gboolean
chrome_anchor (const ChromeTrace *t, gsize row, guint *pid, guint *tid)
{
  if (t->stream_tid[row] != 0)
    {
      *pid = CHROME_PID_STREAMS;
      *tid = t->stream_tid[row];
      return TRUE;
    }
  if (t->device_tid[row] != 0)
    {
      *pid = CHROME_PID_DEVICE;
      *tid = t->device_tid[row];
      return TRUE;
    }
  return FALSE;
}

/* Flow events bind to the slice that encloses their timestamp on their track
 * (Perfetto) or to the slice starting at that timestamp (the Chrome viewer),
 * so both ends sit at a slice's start: the referenced op's and the waiting
 * op's; Perfetto draws the arrow from the end of the first slice. They come
 * after all slices in the array, so that at equal timestamps the slice is
 * already open when the flow event is read. */
static void
chrome_flows (ChromeTrace *t)
{
  const Timeline *tl = t->timeline;
  gsize n = timeline_n_rows (tl);
  for (gsize i = 0; i < n; i++)
    {
      const TimelineRow *row = timeline_row (tl, i);
      guint32 ref_op = 0;
      gsize ref;
      const char *kind = cause_link_parse (row->cause, &ref_op);
      if (kind == NULL || ref_op == row->op || !timeline_op_row (t->op_rows, ref_op, &ref))
        continue;
      guint from_pid, from_tid, to_pid, to_tid;
      if (!chrome_anchor (t, ref, &from_pid, &from_tid) || !chrome_anchor (t, i, &to_pid, &to_tid))
        continue;
      chrome_flow_event (t->builder, "s", kind, t->next_flow, from_pid, from_tid,
                         timeline_row (tl, ref)->start);
      chrome_flow_event (t->builder, "f", kind, t->next_flow, to_pid, to_tid, row->start);
      t->next_flow++;
    }
}

/* The critical path's tracks: its ops in a process of their own, the
 * viewer's first, each op linked to the next by a flow (chrome_path_flows).
 * The device's ops come first, the host thread's calls (a synchronize
 * spans what it waited for) on tracks below them; each group is packed
 * first-fit like an engine's, since path ops may overlap. */
static void
chrome_path_tracks (ChromeTrace *t, const GArray *critical_path)
{
  if (critical_path == NULL || critical_path->len == 0)
    return;
  chrome_metadata (t->builder, "process_name", CHROME_PID_PATH, 0, "name", "critical path", 0);
  chrome_metadata (t->builder, "process_sort_index", CHROME_PID_PATH, 0, "sort_index", NULL, -1);
  for (guint k = 0; k < critical_path->len; k++)
    {
      gsize row;
      if (!timeline_op_row (t->op_rows, g_array_index (critical_path, guint32, k), &row)
          || t->path_step[row] != 0)
        continue;
      t->path_step[row] = k + 1;
      g_array_append_val (t->path_rows, row);
    }
  g_autoptr (GArray) device = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GArray) host = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (guint k = 0; k < t->path_rows->len; k++)
    {
      gsize row = g_array_index (t->path_rows, gsize, k);
      const char *engine = timeline_row (t->timeline, row)->engine;
      g_array_append_val (g_strcmp0 (engine, "host") == 0 ? host : device, row);
    }
  chrome_tracks (t, CHROME_PID_PATH, device, "critical path", t->path_tid);
  chrome_tracks (t, CHROME_PID_PATH, host, "critical path: host", t->path_tid);
}

static void
chrome_path_flows (ChromeTrace *t)
{
  for (guint k = 1; k < t->path_rows->len; k++)
    {
      gsize from = g_array_index (t->path_rows, gsize, k - 1);
      gsize to = g_array_index (t->path_rows, gsize, k);
      chrome_flow_event (t->builder, "s", "critical path", t->next_flow, CHROME_PID_PATH,
                         t->path_tid[from], timeline_row (t->timeline, from)->start);
      chrome_flow_event (t->builder, "f", "critical path", t->next_flow, CHROME_PID_PATH,
                         t->path_tid[to], timeline_row (t->timeline, to)->start);
      t->next_flow++;
    }
}

char *
chrome_trace_to_data (const Timeline *timeline, const GArray *critical_path, gsize *length)
{
  g_return_val_if_fail (timeline != NULL, NULL);

  gsize n = timeline_n_rows (timeline);
  ChromeTrace t = {
    .timeline = timeline,
    .builder = json_builder_new (),
    .next_tid = 1,
    .device_tid = g_new0 (guint, n),
    .stream_tid = g_new0 (guint, n),
    .op_rows = timeline_op_rows (timeline),
    .path_tid = g_new0 (guint, n),
    .path_step = g_new0 (guint, n),
    .path_rows = g_array_new (FALSE, FALSE, sizeof (gsize)),
    .next_flow = 1,
  };
  JsonBuilder *b = t.builder;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "traceEvents");
  json_builder_begin_array (b);

  chrome_metadata (b, "process_name", CHROME_PID_DEVICE, 0, "name", "device", 0);
  chrome_metadata (b, "process_sort_index", CHROME_PID_DEVICE, 0, "sort_index", NULL, 0);
  chrome_metadata (b, "process_name", CHROME_PID_STREAMS, 0, "name", "streams", 0);
  chrome_metadata (b, "process_sort_index", CHROME_PID_STREAMS, 0, "sort_index", NULL, 1);
  chrome_assign_tracks (&t);
  chrome_path_tracks (&t, critical_path);

  for (gsize i = 0; i < n; i++)
    {
      const TimelineRow *row = timeline_row (timeline, i);
      if (t.device_tid[i] != 0 && !chrome_is_marker (row))
        chrome_slice (&t, i, CHROME_PID_DEVICE, t.device_tid[i]);
      if (t.stream_tid[i] != 0)
        chrome_slice (&t, i, CHROME_PID_STREAMS, t.stream_tid[i]);
    }
  for (guint k = 0; k < t.path_rows->len; k++)
    {
      gsize i = g_array_index (t.path_rows, gsize, k);
      chrome_slice (&t, i, CHROME_PID_PATH, t.path_tid[i]);
    }
  chrome_flows (&t);
  chrome_path_flows (&t);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "displayTimeUnit");
  json_builder_add_string_value (b, "ns");
  /* Free-form facts about the trace, shown by the viewers' metadata panes. */
  json_builder_set_member_name (b, "otherData");
  json_builder_begin_object (b);
  static const char *const keys[] = { "schedule", "device", "source" };
  for (gsize k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      const char *value = timeline_meta (timeline, keys[k]);
      if (value == NULL)
        continue;
      json_builder_set_member_name (b, keys[k]);
      json_builder_add_string_value (b, value);
    }
  json_builder_set_member_name (b, "makespan_ns");
  json_builder_add_int_value (b, timeline_makespan (timeline));
  json_builder_end_object (b);
  json_builder_end_object (b);

  /* Not indented: a trace of 10^5 ops is large enough as it is. */
  char *data = json_text_from_builder (b, FALSE, length);
  g_object_unref (b);
  g_free (t.device_tid);
  g_free (t.stream_tid);
  g_hash_table_unref (t.op_rows);
  g_free (t.path_tid);
  g_free (t.path_step);
  g_array_unref (t.path_rows);
  return data;
}

gboolean
chrome_trace_write (const Timeline *timeline, const GArray *critical_path, const char *path,
                    GError **error)
{
  g_return_val_if_fail (timeline != NULL && path != NULL, FALSE);

  gsize length = 0;
  g_autofree char *data = chrome_trace_to_data (timeline, critical_path, &length);
  /* A temporary file beside `path`, renamed (devices and pipes in place). */
  return output_file_set_contents (path, data, length, error);
}
