/* test_chrome_trace.c: the Chrome trace JSON parses back, keeps slices apart and draws the right flows. */
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "sim/front/chrome_trace.h"
#include "sim/formats/timeline.h"
#include "support/temp_dir.h"

/* A Fermi-like run of four streams, times in ns (MODEL.md's seed, V2 order):
 *   op 0-3   h2d s1..s4        [1000i, 1000i+1000)           engine h2d
 *   op 4-7   kernel s1..s4     [1000+1000j, 2500+1000j)      engine compute:
 *            each overlaps the next, so compute needs 2 tracks:
 *            op 4 lane 0 (to 2500), op 5 lane 1 (to 3500), op 6 lane 0
 *            (2500 <= 3000), op 7 lane 1 (3500 <= 4000)
 *   op 8-11  d2h s1..s4        [5500+1000j, 6500+1000j)      engine d2h
 *   op 12    record e1 s1      [6500,6500]                   marker ("stream")
 *   op 13    wait s2 e1        [7500,7500]                   marker
 *   op 14    kernel s2         [7500,8000)                   compute, lane 0
 *   op 15    sync device       [100,9500)                    host, no stream
 * Causes: op 8 deferred (held until op 7 ended: the flow comes from op 7),
 * op 9 queue (op 8), op 14 event (op 12) are flows; op 10 engine, op 11
 * stream, op 15 sync are not. */
static Timeline *
make_fixture (void)
{
  Timeline *t = timeline_new ("fixture.csv");
  timeline_set_meta (t, "schedule", "traces/seed/async-v2.sched");
  timeline_set_meta (t, "device", "c2050");
  static const char *const streams[] = { "s1", "s2", "s3", "s4" };
  for (guint i = 0; i < 4; i++)
    {
      TimelineRow row = { .op = i, .line = 10 + i, .stream = streams[i], .kind = "h2d",
                          .engine = "h2d", .conn = 0, .issue = 10 * i, .start = 1000 * i,
                          .end = 1000 * i + 1000, .bytes = 4194304 };
      timeline_append (t, &row);
    }
  for (guint j = 0; j < 4; j++)
    {
      TimelineRow row = { .op = 4 + j, .line = 20 + j, .stream = streams[j], .kind = "kernel",
                          .engine = "compute", .conn = 0, .issue = 50 + 10 * j,
                          .start = 1000 + 1000 * j, .end = 2500 + 1000 * j, .grid = 4096,
                          .block = 256, .cause = j == 1 ? "stream s2 after op 1" : NULL };
      timeline_append (t, &row);
    }
  static const char *const d2h_causes[] = {
    "deferred completion of op 4 held until op 7 ended",
    "queue conn0/d2h behind op 8 (stream s1)",
    "engine d2h busy with op 9",
    "stream s4 after op 7",
  };
  for (guint j = 0; j < 4; j++)
    {
      TimelineRow row = { .op = 8 + j, .line = 30 + j, .stream = streams[j], .kind = "d2h",
                          .engine = "d2h", .conn = 0, .issue = 90 + 10 * j,
                          .start = 5500 + 1000 * j, .end = 6500 + 1000 * j, .bytes = 4194304,
                          .cause = d2h_causes[j] };
      timeline_append (t, &row);
    }
  TimelineRow record = { .op = 12, .line = 40, .stream = "s1", .kind = "record",
                         .engine = "stream", .conn = -1, .issue = 130, .start = 6500,
                         .end = 6500, .label = "e1 done", .cause = "stream s1 after op 8" };
  timeline_append (t, &record);
  TimelineRow wait = { .op = 13, .line = 41, .stream = "s2", .kind = "wait", .engine = "stream",
                       .conn = -1, .issue = 140, .start = 7500, .end = 7500,
                       .cause = "stream s2 after op 9" };
  timeline_append (t, &wait);
  TimelineRow late = { .op = 14, .line = 42, .stream = "s2", .kind = "kernel",
                       .engine = "compute", .conn = 0, .issue = 150, .start = 7500, .end = 8000,
                       .grid = 64, .block = 128, .cause = "event e1 recorded by op 12" };
  timeline_append (t, &late);
  TimelineRow sync = { .op = 15, .line = 43, .stream = "", .kind = "sync", .engine = "host",
                       .conn = -1, .issue = 100, .start = 100, .end = 9500,
                       .cause = "sync waited for op 11" };
  timeline_append (t, &sync);
  return t;
}

static JsonParser *
parse_trace_with_path (const Timeline *t, const GArray *critical_path)
{
  gsize length = 0;
  g_autofree char *data = chrome_trace_to_data (t, critical_path, &length);
  g_assert_nonnull (data);
  JsonParser *parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (parser, data, (gssize) length, &error));
  g_assert_no_error (error);
  return parser;
}

static JsonParser *
parse_trace (const Timeline *t)
{
  return parse_trace_with_path (t, NULL);
}

static JsonArray *
events_of (JsonParser *parser)
{
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  g_assert_nonnull (root);
  g_assert_cmpstr (json_object_get_string_member (root, "displayTimeUnit"), ==, "ns");
  JsonArray *events = json_object_get_array_member (root, "traceEvents");
  g_assert_nonnull (events);
  return events;
}

static guint
count_phase (JsonArray *events, const char *phase)
{
  guint n = 0;
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), phase) == 0)
        n++;
    }
  return n;
}

/* The name a thread_name metadata event gives (pid, tid), or NULL. */
static const char *
track_name (JsonArray *events, gint64 pid, gint64 tid)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), "M") == 0
          && strcmp (json_object_get_string_member (e, "name"), "thread_name") == 0
          && json_object_get_int_member (e, "pid") == pid
          && json_object_get_int_member (e, "tid") == tid)
        return json_object_get_string_member (json_object_get_object_member (e, "args"),
                                              "name");
    }
  return NULL;
}

/* The X event of op `op` in process `pid`. */
static JsonObject *
slice_of (JsonArray *events, gint64 pid, gint64 op)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), "X") == 0
          && json_object_get_int_member (e, "pid") == pid
          && json_object_get_int_member (json_object_get_object_member (e, "args"), "op")
                 == op)
        return e;
    }
  return NULL;
}

static gint64
ns_of (JsonObject *e, const char *member)
{
  return (gint64) llround (json_object_get_double_member (e, member) * 1000.0);
}

typedef struct
{
  gint64 start, end;
} Span;

static gint
span_by_start (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;
  return x->start < y->start ? -1 : (x->start > y->start ? 1 : 0);
}

/* Every slice on a (pid, tid) track ends no later than the next begins. */
static void
assert_no_overlap (JsonArray *events)
{
  g_autoptr (GHashTable) tracks
      = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), "X") != 0)
        continue;
      gint64 *key = g_new (gint64, 1);
      *key = json_object_get_int_member (e, "pid") * 1000000 + json_object_get_int_member (e, "tid");
      GArray *spans = g_hash_table_lookup (tracks, key);
      if (spans == NULL)
        {
          spans = g_array_new (FALSE, FALSE, sizeof (Span));
          g_hash_table_insert (tracks, key, spans);
        }
      else
        g_free (key);
      Span s = { ns_of (e, "ts"), ns_of (e, "ts") + ns_of (e, "dur") };
      g_assert_cmpint (s.end, >=, s.start);
      g_array_append_val (spans, s);
    }
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, tracks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *spans = value;
      g_array_sort (spans, span_by_start);
      for (guint k = 1; k < spans->len; k++)
        g_assert_cmpint (g_array_index (spans, Span, k).start, >=,
                         g_array_index (spans, Span, k - 1).end);
    }
}

/* Tracks: device h2d, compute, compute #2, d2h, host (no copy or d2d rows);
 * streams s1..s4, none with overlapping ops. Slices: 16 rows less the two
 * markers on the device (14), 16 less the host sync on streams (15): 29. */
static void
test_tracks (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  g_autoptr (JsonParser) parser = parse_trace (t);
  JsonArray *events = events_of (parser);

  g_assert_cmpuint (count_phase (events, "X"), ==, 29);
  guint names = 0;
  g_autoptr (GPtrArray) device = g_ptr_array_new ();
  g_autoptr (GPtrArray) streams = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "name"), "thread_name") != 0)
        continue;
      names++;
      const char *name = json_object_get_string_member (json_object_get_object_member (e, "args"), "name");
      g_ptr_array_add (json_object_get_int_member (e, "pid") == 1 ? device : streams, (gpointer) name);
    }
  g_assert_cmpuint (names, ==, 9);
  g_assert_cmpuint (device->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (device, 0), ==, "H2D copy");
  g_assert_cmpstr (g_ptr_array_index (device, 1), ==, "compute");
  g_assert_cmpstr (g_ptr_array_index (device, 2), ==, "compute #2");
  g_assert_cmpstr (g_ptr_array_index (device, 3), ==, "D2H copy");
  g_assert_cmpstr (g_ptr_array_index (device, 4), ==, "host thread");
  g_assert_cmpuint (streams->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (streams, 0), ==, "stream s1");
  g_assert_cmpstr (g_ptr_array_index (streams, 3), ==, "stream s4");

  /* Kernels 4 and 6 share the first compute track, 5 and 7 the second. */
  JsonObject *k4 = slice_of (events, 1, 4), *k5 = slice_of (events, 1, 5);
  JsonObject *k6 = slice_of (events, 1, 6), *k7 = slice_of (events, 1, 7);
  g_assert_cmpstr (track_name (events, 1, json_object_get_int_member (k4, "tid")), ==, "compute");
  g_assert_cmpstr (track_name (events, 1, json_object_get_int_member (k5, "tid")), ==, "compute #2");
  g_assert_cmpint (json_object_get_int_member (k6, "tid"), ==, json_object_get_int_member (k4, "tid"));
  g_assert_cmpint (json_object_get_int_member (k7, "tid"), ==, json_object_get_int_member (k5, "tid"));
  /* Markers are on stream tracks only; the host sync on the device only. */
  g_assert_null (slice_of (events, 1, 12));
  g_assert_nonnull (slice_of (events, 2, 12));
  g_assert_null (slice_of (events, 2, 15));
  g_assert_nonnull (slice_of (events, 1, 15));
  assert_no_overlap (events);
}

/* ts and dur are microseconds: kernel op 4 runs [1000, 2500) ns, so ts 1.0
 * and dur 1.5; its arguments are the row's. */
static void
test_slices (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  g_autoptr (JsonParser) parser = parse_trace (t);
  JsonArray *events = events_of (parser);

  JsonObject *k4 = slice_of (events, 1, 4);
  g_assert_nonnull (k4);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (k4, "ts"), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (k4, "dur"), 1.5, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (k4, "name"), ==, "kernel 4");
  JsonObject *args = json_object_get_object_member (k4, "args");
  g_assert_cmpint (json_object_get_int_member (args, "line"), ==, 20);
  g_assert_cmpstr (json_object_get_string_member (args, "kind"), ==, "kernel");
  g_assert_cmpint (json_object_get_int_member (args, "grid"), ==, 4096);
  g_assert_cmpint (json_object_get_int_member (args, "block"), ==, 256);
  g_assert_false (json_object_has_member (args, "bytes"));

  JsonObject *d2h = slice_of (events, 2, 9);
  args = json_object_get_object_member (d2h, "args");
  g_assert_cmpint (json_object_get_int_member (args, "bytes"), ==, 4194304);
  g_assert_cmpstr (json_object_get_string_member (args, "cause"), ==,
                   "queue conn0/d2h behind op 8 (stream s1)");
  /* A label names the slice. */
  JsonObject *record = slice_of (events, 2, 12);
  g_assert_cmpstr (json_object_get_string_member (record, "name"), ==, "e1 done");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (record, "dur"), 0.0, 1e-12);
}

/* Three flows (see the fixture): deferred 7 -> 8, queue 8 -> 9, event
 * 12 -> 14. Each starts at the referenced op's start on its stream track and
 * ends, bound to the enclosing slice, at the waiting op's start on its own. */
static void
test_flows (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  g_autoptr (JsonParser) parser = parse_trace (t);
  JsonArray *events = events_of (parser);

  g_assert_cmpuint (count_phase (events, "s"), ==, 3);
  g_assert_cmpuint (count_phase (events, "f"), ==, 3);
  static const struct
  {
    const char *kind;
    gint64 from, to;
  } expected[] = { { "deferred", 7, 8 }, { "queue", 8, 9 }, { "event", 12, 14 } };
  for (gsize k = 0; k < G_N_ELEMENTS (expected); k++)
    {
      JsonObject *from = slice_of (events, 2, expected[k].from);
      JsonObject *to = slice_of (events, 2, expected[k].to);
      JsonObject *s = NULL, *f = NULL;
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *e = json_array_get_object_element (events, i);
          const char *ph = json_object_get_string_member (e, "ph");
          if (strcmp (ph, "s") != 0 && strcmp (ph, "f") != 0)
            continue;
          if (strcmp (json_object_get_string_member (e, "name"), expected[k].kind) != 0)
            continue;
          if (strcmp (ph, "s") == 0)
            s = e;
          else
            f = e;
        }
      g_assert_nonnull (s);
      g_assert_nonnull (f);
      g_assert_cmpint (json_object_get_int_member (s, "id"), ==, json_object_get_int_member (f, "id"));
      g_assert_cmpint (json_object_get_int_member (s, "tid"), ==, json_object_get_int_member (from, "tid"));
      g_assert_cmpint (ns_of (s, "ts"), ==, ns_of (from, "ts"));
      g_assert_cmpint (json_object_get_int_member (f, "tid"), ==, json_object_get_int_member (to, "tid"));
      g_assert_cmpint (ns_of (f, "ts"), ==, ns_of (to, "ts"));
      g_assert_cmpstr (json_object_get_string_member (f, "bp"), ==, "e");
      g_assert_cmpstr (json_object_get_string_member (s, "cat"), ==,
                       json_object_get_string_member (from, "cat"));
    }
  /* The event flow crosses streams: s1's track to s2's. */
  g_assert_cmpint (json_object_get_int_member (slice_of (events, 2, 12), "tid"), !=,
                   json_object_get_int_member (slice_of (events, 2, 14), "tid"));
}

/* The flow events named `name`, phase "s" or "f", in the order written. */
static GPtrArray *
flows_named (JsonArray *events, const char *name, const char *phase)
{
  GPtrArray *found = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), phase) == 0
          && strcmp (json_object_get_string_member (e, "name"), name) == 0)
        g_ptr_array_add (found, e);
    }
  return found;
}

static gint64
step_of (JsonObject *slice)
{
  JsonObject *args = json_object_get_object_member (slice, "args");
  return json_object_has_member (args, "critical_path_step")
             ? json_object_get_int_member (args, "critical_path_step")
             : 0;
}

/* A critical path through the fixture, chosen by hand to follow its causes:
 * h2d op 3 [3000, 4000), kernel op 7 [4000, 5500) (s4 after op 3), d2h op
 * 11 [8500, 9500) (s4 after op 7), and the sync op 15 [100, 9500) that
 * waited for op 11. Worked out by hand from chrome_trace.h's rules:
 * - process 3, "critical path", sorted first (-1), holds the four ops
 *   again: ops 3, 7 and 11 (they follow each other) on the track "critical
 *   path", and the host's sync, op 15, on "critical path: host" below.
 * - Every slice of op 7 (device, stream, path) carries step 2; op 4, off
 *   the path, none.
 * - Three flows "critical path": 3 -> 7 -> 11 -> 15, each from the start of
 *   one path slice to the start of the next, on process 3.
 * - The three dependency flows of test_flows are still there. */
static void
test_critical_path (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  static const guint32 ops[] = { 3, 7, 11, 15 };
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (path, ops, G_N_ELEMENTS (ops));
  g_autoptr (JsonParser) parser = parse_trace_with_path (t, path);
  JsonArray *events = events_of (parser);

  gboolean named = FALSE, sorted = FALSE;
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), "M") != 0
          || json_object_get_int_member (e, "pid") != 3)
        continue;
      JsonObject *args = json_object_get_object_member (e, "args");
      const char *name = json_object_get_string_member (e, "name");
      if (strcmp (name, "process_name") == 0)
        named = strcmp (json_object_get_string_member (args, "name"), "critical path") == 0;
      if (strcmp (name, "process_sort_index") == 0)
        sorted = json_object_get_int_member (args, "sort_index") == -1;
    }
  g_assert_true (named);
  g_assert_true (sorted);

  g_assert_cmpuint (count_phase (events, "X"), ==, 29 + 4);
  for (gsize k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      JsonObject *slice = slice_of (events, 3, ops[k]);
      g_assert_nonnull (slice);
      g_assert_cmpint (step_of (slice), ==, (gint64) k + 1);
      const char *track = track_name (events, 3, json_object_get_int_member (slice, "tid"));
      g_assert_cmpstr (track, ==, ops[k] == 15 ? "critical path: host" : "critical path");
    }
  g_assert_cmpint (step_of (slice_of (events, 1, 7)), ==, 2);
  g_assert_cmpint (step_of (slice_of (events, 2, 7)), ==, 2);
  g_assert_cmpint (step_of (slice_of (events, 1, 4)), ==, 0);
  g_assert_null (slice_of (events, 3, 4));

  g_autoptr (GPtrArray) starts = flows_named (events, "critical path", "s");
  g_autoptr (GPtrArray) finishes = flows_named (events, "critical path", "f");
  g_assert_cmpuint (starts->len, ==, 3);
  g_assert_cmpuint (finishes->len, ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      JsonObject *s = g_ptr_array_index (starts, k), *f = g_ptr_array_index (finishes, k);
      JsonObject *from = slice_of (events, 3, ops[k]), *to = slice_of (events, 3, ops[k + 1]);
      g_assert_cmpint (json_object_get_int_member (s, "id"), ==, json_object_get_int_member (f, "id"));
      g_assert_cmpint (json_object_get_int_member (s, "pid"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (s, "tid"), ==, json_object_get_int_member (from, "tid"));
      g_assert_cmpint (ns_of (s, "ts"), ==, ns_of (from, "ts"));
      g_assert_cmpint (json_object_get_int_member (f, "tid"), ==, json_object_get_int_member (to, "tid"));
      g_assert_cmpint (ns_of (f, "ts"), ==, ns_of (to, "ts"));
    }
  g_assert_cmpuint (count_phase (events, "s"), ==, 3 + 3);
  assert_no_overlap (events);

  /* Without a path: no process 3 and no step anywhere. */
  g_autoptr (JsonParser) plain = parse_trace (t);
  JsonArray *plain_events = events_of (plain);
  for (gsize k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_assert_null (slice_of (plain_events, 3, ops[k]));
      g_assert_cmpint (step_of (slice_of (plain_events, 1, ops[k])), ==, 0);
    }
}

/* 64 streams, 2,000 kernels that each overlap the next 7: the compute engine
 * needs exactly 8 tracks (8 kernels open at once), and no track of the 8 +
 * 64 has overlapping slices. */
static void
test_many_overlaps (void)
{
  g_autoptr (Timeline) t = timeline_new ("many.csv");
  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *stream = g_strdup_printf ("s%u", i % 64);
      TimelineRow row = { .op = i, .line = 1, .stream = stream, .kind = "kernel",
                          .engine = "compute", .conn = -1, .start = 100 * i,
                          .end = 100 * i + 800, .grid = 1, .block = 32 };
      timeline_append (t, &row);
    }
  g_autoptr (JsonParser) parser = parse_trace (t);
  JsonArray *events = events_of (parser);
  g_assert_cmpstr (track_name (events, 1, 8), ==, "compute #8");
  /* Tracks are numbered in order: compute 1..8, then the streams. */
  g_assert_cmpstr (track_name (events, 1, 1), ==, "compute");
  g_assert_null (track_name (events, 1, 9));
  g_assert_cmpstr (track_name (events, 2, 9), ==, "stream s0");
  g_assert_cmpstr (track_name (events, 2, 72), ==, "stream s63");
  g_assert_cmpuint (count_phase (events, "X"), ==, 4000);
  assert_no_overlap (events);
}

/* Host calls of several host threads: a track for each thread, named for
 * it, in the order the threads' calls first appear (the main thread's sync
 * overlaps w1's host work, which would otherwise take a lane "#2"). */
static void
test_host_threads (void)
{
  g_autoptr (Timeline) t = timeline_new ("threads.csv");
  TimelineRow rows[] = {
    { .op = 0, .line = 1, .stream = "", .kind = "thread", .engine = "host", .conn = -1,
      .start = 0, .end = 100, .thread = "main" },
    { .op = 1, .line = 2, .stream = "", .kind = "host", .engine = "host", .conn = -1,
      .start = 200, .end = 900, .thread = "w1" },
    { .op = 2, .line = 4, .stream = "", .kind = "sync", .engine = "host", .conn = -1,
      .start = 100, .end = 1000, .thread = "main" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    timeline_append (t, &rows[i]);
  g_autoptr (JsonParser) parser = parse_trace (t);
  JsonArray *events = events_of (parser);
  g_assert_cmpstr (track_name (events, 1, 1), ==, "host thread main");
  g_assert_cmpstr (track_name (events, 1, 2), ==, "host thread w1");
  g_assert_null (track_name (events, 1, 3));
  assert_no_overlap (events);
}

/* The file goes through a temporary name: a folder that does not exist
 * gives an error and no file; a good path gives JSON that parses. */
static void
test_write (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-chrome");
  g_autofree char *bad = g_build_filename (dir, "missing", "t.json", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_false (chrome_trace_write (t, NULL, bad, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  g_autofree char *good = g_build_filename (dir, "t.json", NULL);
  g_assert_true (chrome_trace_write (t, NULL, good, NULL));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, good, NULL));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (root, "traceEvents")),
                   >, 29);
  JsonObject *other = json_object_get_object_member (root, "otherData");
  g_assert_cmpstr (json_object_get_string_member (other, "device"), ==, "c2050");
  g_assert_cmpint (json_object_get_int_member (other, "makespan_ns"), ==, 9500);
  g_unlink (good);
  temp_dir_remove_empty (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chrome-trace/tracks", test_tracks);
  g_test_add_func ("/chrome-trace/slices", test_slices);
  g_test_add_func ("/chrome-trace/flows", test_flows);
  g_test_add_func ("/chrome-trace/host-threads", test_host_threads);
  g_test_add_func ("/chrome-trace/critical-path", test_critical_path);
  g_test_add_func ("/chrome-trace/many-overlaps", test_many_overlaps);
  g_test_add_func ("/chrome-trace/write", test_write);
  return g_test_run ();
}
