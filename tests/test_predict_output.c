/* test_predict_output.c: what `predict` reports (the summary as JSON and as text, --explain, --critical-path), compared with timelines worked out by hand. */
#include <json-glib/json-glib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/front/prediction.h"
#include "sim/front/prediction_json.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/schedule_parse.h"
#include "sim/formats/timeline_writer.h"
#include "support/schedule_gen.h"
#include "support/cli_run.h"
#include "support/plot_stub.h"
#include "support/temp_dir.h"

/* Two streams, each an H2D, a kernel and a D2H, then a device sync, on the
 * schematic K20: every phase takes exactly 1 ms, host calls and latencies
 * take nothing, two copy engines, one SM holding one block. By hand:
 *
 *   H2D engine:  s1's copy 0-1 ms, s2's 1-2 ms (one engine per direction)
 *   compute:     s1's kernel 1-2 ms (after its copy), s2's 2-3 ms
 *   D2H engine:  s1's copy 2-3 ms, s2's 3-4 ms
 *   host:        the sync, issued at 0, returns at 4 ms
 *
 * So the makespan is 4 ms; each engine is busy 2 ms (half of it); copies
 * together 0-4 ms; copies and kernels overlap over 1-3 ms; H2D (0-2) and
 * D2H (2-4) never overlap; the host is blocked 4 ms. */
static const char schedule_text[] =
  "device schematic-k20\n"
  "stream s1\n"
  "stream s2\n"
  "h2d s1 4MiB\n"
  "kernel s1 grid=1 block=32 time=1ms\n"
  "d2h s1 4MiB\n"
  "h2d s2 4MiB\n"
  "kernel s2 grid=1 block=32 time=1ms\n"
  "d2h s2 4MiB\n"
  "sync device\n";

static JsonObject *
engine_entry (JsonArray *engines, const char *name)
{
  for (guint i = 0; i < json_array_get_length (engines); i++)
    {
      JsonObject *e = json_array_get_object_element (engines, i);
      if (strcmp (json_object_get_string_member (e, "engine"), name) == 0)
        return e;
    }
  g_error ("no engine '%s' in the summary", name);
}

static void
assert_engine (JsonArray *engines, const char *name, gint64 ops, gint64 busy_ns,
               double utilization)
{
  JsonObject *e = engine_entry (engines, name);
  g_assert_cmpint (json_object_get_int_member (e, "ops"), ==, ops);
  g_assert_cmpint (json_object_get_int_member (e, "busy_ns"), ==, busy_ns);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (e, "utilization"), utilization,
                                  1e-12);
}

static void
test_summary_by_hand (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-json");
  temp_dir_write (dir, "two.sched", schedule_text);
  g_autofree char *sched_path = g_build_filename (dir, "two.sched", NULL);
  PredictionOptions options = { NULL, 0, NULL, 0, PREDICTION_HOST_OWN };
  g_autoptr (GError) error = NULL;
  g_autoptr (Prediction) p = prediction_run (sched_path, &options, &error);
  g_assert_no_error (error);
  gsize length = 0;
  PredictionSummary summary;
  prediction_summarize (p, &summary);
  g_autoptr (GArray) path = prediction_critical_path (p);
  g_auto (GStrv) notes = prediction_notes (p);
  g_autofree char *data = prediction_json_to_data (p, &summary, path, (const char *const *) notes,
                                                   &length);
  g_assert_cmpuint (length, ==, strlen (data));
  g_assert_true (g_str_has_suffix (data, "}\n"));

  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, data, (gssize) length, &error));
  g_assert_no_error (error);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (o, "source"),
                                   "predicted by streamsim "));
  g_assert_cmpstr (json_object_get_string_member (o, "schedule"), ==, sched_path);
  g_assert_cmpstr (json_object_get_string_member (o, "device"), ==, "schematic-k20");
  g_assert_cmpint (json_object_get_int_member (o, "connections"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (o, "ops"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (o, "makespan_ns"), ==, 4000000);

  JsonArray *engines = json_object_get_array_member (o, "engines");
  /* h2d, d2h, compute, host: the engines that ran an op */
  g_assert_cmpuint (json_array_get_length (engines), ==, 4);
  assert_engine (engines, "h2d", 2, 2000000, 0.5);
  assert_engine (engines, "d2h", 2, 2000000, 0.5);
  assert_engine (engines, "compute", 2, 2000000, 0.5);
  /* a sync blocks the host; it is not host work */
  assert_engine (engines, "host", 1, 0, 0);

  g_assert_cmpint (json_object_get_int_member (o, "copy_busy_ns"), ==, 4000000);
  g_assert_cmpint (json_object_get_int_member (o, "copy_compute_overlap_ns"), ==, 2000000);
  g_assert_cmpint (json_object_get_int_member (o, "h2d_d2h_overlap_ns"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "host_blocked_ns"), ==, 4000000);
  temp_dir_remove (dir);
}

/* What ops waited for, on the schematic K20 (as above: 1 ms phases, free
 * host calls and latencies, one H2D and one D2H engine, s1 and s2 on
 * connections 0 and 1). By hand, each wait has a single cause:
 *
 *   op 0  h2d s1     0-1 ms  waited for nothing
 *   op 1  h2d s2     1-2 ms  engine: the H2D engine is busy with op 0 (1 ms)
 *   op 2  kernel s1  1-2 ms  stream: after op 0 (1 ms; the SM is free)
 *   op 3  d2h s1     2-3 ms  stream: after op 2 (2 ms; the D2H engine is free)
 *   op 4  sync device        sync: returns at 3 ms, when op 3 ends (3 ms)
 *
 * Every call is issued at 0 (free calls), so the waits are [0, 1] (op 1),
 * [0, 1] (op 2), [0, 2] (op 3) and [0, 3] (op 4) ms. A cause's total is the
 * time some op waited for it, each moment once: stream: 2 ops, [0, 1] and
 * [0, 2] nest, so 2 ms in all, 2 ms the longest; sync: 1 op, 3 ms; engine:
 * 1 op, 1 ms. Listed by total: sync, stream, engine.
 *
 * The critical path: the sync ends last (at 3 ms, with op 3), and it waited
 * for op 3, op 3 for op 2, op 2 for op 0, which waited for nothing:
 * ops 0, 2, 3, 4. Op 1 ends at 2 ms and is not on it. */
static const char waits_text[] =
  "device schematic-k20\n"
  "stream s1\n"
  "stream s2\n"
  "h2d s1 4MiB\n"
  "h2d s2 4MiB\n"
  "kernel s1 grid=1 block=32 time=1ms\n"
  "d2h s1 4MiB\n"
  "sync device\n";

static void
assert_wait (JsonArray *waits, guint index, const char *cause, gint64 ops, gint64 total_ns,
             gint64 longest_ns)
{
  JsonObject *w = json_array_get_object_element (waits, index);
  g_assert_cmpstr (json_object_get_string_member (w, "cause"), ==, cause);
  g_assert_cmpint (json_object_get_int_member (w, "ops"), ==, ops);
  g_assert_cmpint (json_object_get_int_member (w, "total_ns"), ==, total_ns);
  g_assert_cmpint (json_object_get_int_member (w, "longest_ns"), ==, longest_ns);
}

/* The JSON's critical_path_time: `parts` pairs of a name and nanoseconds,
 * in order, NULL-ended. */
typedef struct
{
  const char *part;
  gint64 ns;
} PathPart;

static void
assert_path_time (JsonObject *o, const PathPart *parts)
{
  JsonArray *time = json_object_get_array_member (o, "critical_path_time");
  guint n = 0;
  for (; parts[n].part != NULL; n++)
    {
      g_assert_cmpuint (n, <, json_array_get_length (time));
      JsonObject *part = json_array_get_object_element (time, n);
      g_assert_cmpstr (json_object_get_string_member (part, "part"), ==, parts[n].part);
      g_assert_cmpint (json_object_get_int_member (part, "ns"), ==, parts[n].ns);
    }
  g_assert_cmpuint (json_array_get_length (time), ==, n);
}

/* The JSON's critical_path: `n` ops with their start and end, in order. */
typedef struct
{
  gint64 op, start, end;
} PathStep;

static void
assert_path (JsonObject *o, const PathStep *expected, guint n)
{
  JsonArray *path = json_object_get_array_member (o, "critical_path");
  g_assert_cmpuint (json_array_get_length (path), ==, n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *step = json_array_get_object_element (path, i);
      g_assert_cmpint (json_object_get_int_member (step, "op"), ==, expected[i].op);
      g_assert_cmpint (json_object_get_int_member (step, "start_ns"), ==, expected[i].start);
      g_assert_cmpint (json_object_get_int_member (step, "end_ns"), ==, expected[i].end);
    }
}

/* `streamsim predict S OPTION - [EXTRA]` on a schedule of text `sched_text`:
 * stdout parsed as JSON (which fails the test if it is not), stderr into
 * *err. */
static JsonParser *
predict_to_stdout (const char *sched_text, const char *option, const char *extra, char **err)
{
  g_autofree char *dir = temp_dir_new ("streamsim-json");
  temp_dir_write (dir, "s.sched", sched_text);
  const char *const args[] = { "predict", "s.sched", option, "-", extra, NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, &out, err), ==, 0);
  g_autoptr (GError) error = NULL;
  JsonParser *parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  temp_dir_remove (dir);
  return parser;
}

static void
test_waits_by_hand (void)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = predict_to_stdout (waits_text, "--json", NULL, &err);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "makespan_ns"), ==, 3000000);
  JsonArray *waits = json_object_get_array_member (o, "waits");
  g_assert_cmpuint (json_array_get_length (waits), ==, 3);
  assert_wait (waits, 0, "sync", 1, 3000000, 3000000);
  assert_wait (waits, 1, "stream", 2, 2000000, 2000000);
  assert_wait (waits, 2, "engine", 1, 1000000, 1000000);

  const PathStep expected_path[] = { { 0, 0, 1000000 },
                                     { 2, 1000000, 2000000 },
                                     { 3, 2000000, 3000000 },
                                     { 4, 0, 3000000 } };
  assert_path (o, expected_path, G_N_ELEMENTS (expected_path));
  JsonArray *path = json_object_get_array_member (o, "critical_path");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (path, 0),
                                                  "cause"), ==, "");
  /* each op of the path runs its 1 ms after the one above; the sync returns
   * with op 3, at no cost: ties (1 ms each) in engine order */
  const PathPart parts[] = { { "h2d", 1000000 }, { "d2h", 1000000 }, { "compute", 1000000 },
                             { "between", 0 }, { NULL, 0 } };
  assert_path_time (o, parts);

  /* The text summary (on stderr here) lists the same rows in that order:
   * cause, ops, total, longest. */
  const char *table = strstr (err, "\nwaited for ");
  g_assert_nonnull (table);
  g_auto (GStrv) lines = g_strsplit (table + 1, "\n", -1);
  const char *expected[][5] = { { "sync", "1", "3", "ms", "3" },
                                { "stream", "2", "2", "ms", "2" },
                                { "engine", "1", "1", "ms", "1" } };
  g_assert_cmpuint (g_strv_length (lines), >=, 4);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto (GStrv) words = g_strsplit_set (lines[i + 1], " ", -1);
      GPtrArray *kept = g_ptr_array_new ();
      for (char **w = words; *w != NULL; w++)
        if (**w != '\0')
          g_ptr_array_add (kept, *w);
      g_assert_cmpuint (kept->len, >=, 5);
      for (guint k = 0; k < 5; k++)
        g_assert_cmpstr (g_ptr_array_index (kept, k), ==, expected[i][k]);
      g_ptr_array_free (kept, TRUE);
    }
  g_assert_cmpstr (lines[4], ==, "");
}

/* --explain lists every op that waited, with the waits worked out for
 * waits_text above (op 1: 1 ms, op 2: 1 ms, op 3: 2 ms, op 4: 3 ms);
 * --explain-only keeps the ops of the causes it names, in issue order. */
static void
test_explain_only (void)
{
  struct
  {
    const char *causes;          /* NULL: --explain */
    const char *lines[5];        /* "op N ... waited W" of each listed op */
  } cases[] = {
    { NULL, { "op 1 line 5 h2d s2 waited 1 ms", "op 2 line 6 kernel s1 waited 1 ms",
              "op 3 line 7 d2h s1 waited 2 ms", "op 4 line 8 sync waited 3 ms", NULL } },
    { "engine", { "op 1 line 5 h2d s2 waited 1 ms", NULL } },
    { "sync,stream", { "op 2 line 6 kernel s1 waited 1 ms", "op 3 line 7 d2h s1 waited 2 ms",
                       "op 4 line 8 sync waited 3 ms", NULL } },
    { "queue", { NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      g_autofree char *option = cases[i].causes != NULL
                                  ? g_strconcat ("--explain-only=", cases[i].causes, NULL)
                                  : g_strdup ("--explain");
      g_object_unref (predict_to_stdout (waits_text, "--json", option, &err));
      const char *list = strstr (err, "\nwhy ops waited");
      g_assert_nonnull (list);
      g_auto (GStrv) lines = g_strsplit (list + 1, "\n", -1);
      guint n = 0;
      while (cases[i].lines[n] != NULL)
        {
          /* the words up to the wait, blanks collapsed */
          g_auto (GStrv) words = g_strsplit_set (lines[n + 1], " :", -1);
          g_autoptr (GString) joined = g_string_new (NULL);
          for (char **w = words; *w != NULL && joined->len < strlen (cases[i].lines[n]); w++)
            if (**w != '\0')
              g_string_append_printf (joined, "%s%s", joined->len > 0 ? " " : "", *w);
          g_assert_cmpstr (joined->str, ==, cases[i].lines[n]);
          n++;
        }
      if (n == 0)
        g_assert_cmpstr (lines[1], ==, "  no op waited for these causes");
      else
        g_assert_false (g_str_has_prefix (lines[n + 1], "  op "));
    }
}

/* A join waits for its thread's last call to return, not for that call's
 * work, and --explain says so. By hand on schematic-k20 (no call or thread
 * costs): thread a's host work runs 0-1 ms, its H2D is called at 1 ms and
 * returns at once, so the thread ends and the join (called at 0) returns at
 * 1 ms, while the copy runs 1-2 ms. */
static void
test_join_cause (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-join");
  temp_dir_write (dir, "j.sched",
                  "device schematic-k20\n"
                  "stream s1\n"
                  "thread a\n"
                  "  host 1ms\n"
                  "  h2d s1 4MiB\n"
                  "end\n"
                  "join a\n");
  const char *const args[] = { "predict", "j.sched", "--explain", "-q", "-o", "j.csv", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "  op 3     line 7    join            waited       1 ms: "
                                 "join until the thread's last call, op 2, returned\n"));
  g_autofree char *csv_path = g_build_filename (dir, "j.csv", NULL);
  g_autofree char *csv = NULL;
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_nonnull (strstr (csv, "\n2,5,s1,h2d,h2d,0,1000000,1000000,2000000,"));
  g_assert_nonnull (strstr (csv, "\n3,7,,join,host,,0,0,1000000,"));
  temp_dir_remove (dir);
}

/* --explain names the 2D copies whose rows set their time, worked out by
 * hand on schematic-rows (a 4 MiB pinned H2D in 1 ms; at most 2.048 million
 * rows a second): 4096 rows of 1 KiB take 2 ms, more than the bytes' 1 ms,
 * twice (one line, "and 1 more like it"); 1024 rows of 4 KiB take 0.5 ms,
 * less than the bytes: not listed; no D2H rate: not listed. */
static void
test_explain_rows (void)
{
  static const char text[] = "device schematic-rows\n"
                             "stream s1\n"
                             "h2d s1 4MiB rows=4096 label=narrow\n"
                             "h2d s1 4MiB rows=1024\n"
                             "d2h s1 4MiB rows=262144\n"
                             "h2d s1 4MiB rows=4096\n";
  g_autofree char *err = NULL;
  g_object_unref (predict_to_stdout (text, "--json", "--explain", &err));
  const char *list = strstr (err, "\n2D copies whose rows set their time");
  g_assert_nonnull (list);
  g_auto (GStrv) lines = g_strsplit (list + 1, "\n", -1);
  g_assert_cmpstr (lines[1], ==,
                   "  op 0 narrow and 1 more like it: 4096 rows of 1KiB at 2.0 million a second, "
                   "2 ms; its bytes alone 1 ms");
  g_assert_cmpstr (lines[2], ==, "");
}

/* --explain breaks each pageable copy's time down by the state of its host
 * memory, worked out by hand on schematic-huge (pageable 4 MiB in 2 ms, no
 * latency; untouched H2D 4 MiB in 4 ms + 0.5 ms, D2H 2 MiB in 4 ms; huge
 * pages: H2D 4 MiB in 1 ms + 0.1 ms, D2H 2 MiB in 1 ms) and schematic-cached
 * (a cached H2D 4 MiB in 1 ms + 0.25 ms):
 *   4 MiB H2D, twice                  4 MiB at 2.10 GB/s: 2 ms (one line)
 *   4 MiB D2H, 1 MiB untouched        1 MiB at 0.52 GB/s, 2 ms, + 3 MiB at 2.10, 1.5 ms
 *                                     + the untouched link's latency, 0: 3.5 ms
 *   4 MiB D2H untouched, 2 MiB huge   2 MiB at 2.10 GB/s, 1 ms, + 2 MiB at 0.52, 4 ms,
 *                                     + the huge link's latency, 0: 5 ms
 *   4 MiB H2D untouched, all huge     4 MiB at 4.19 GB/s, 1 ms, + 0.1 ms
 *   pinned and device-to-device       not listed
 *   4 MiB H2D cached                  4 MiB at 4.19 GB/s, 1 ms, + 0.25 ms */
static void
test_explain_pageable (void)
{
  static const char text[] = "device schematic-huge\n"
                             "stream s1\n"
                             "h2d s1 4MiB pageable label=a\n"
                             "d2h s1 4MiB pageable untouched=1MiB\n"
                             "d2h s1 4MiB pageable untouched huge=2MiB\n"
                             "h2d s1 4MiB pageable untouched huge\n"
                             "h2d s1 4MiB\n"
                             "d2d s1 4MiB pageable\n"
                             "h2d s1 4MiB pageable\n";
  g_autofree char *err = NULL;
  g_object_unref (predict_to_stdout (text, "--json", "--explain", &err));
  const char *list = strstr (err, "\npageable copies, by the state of their host memory");
  g_assert_nonnull (list);
  g_auto (GStrv) lines = g_strsplit (list + 1, "\n", -1);
  g_assert_cmpstr (lines[1], ==, "  op 0 a and 1 more like it: 4MiB h2d at 2.10 GB/s (pageable) + 0 ns = 2 ms");
  g_assert_cmpstr (lines[2], ==, "  op 1: 4MiB d2h: 1MiB at 0.52 GB/s (untouched, small pages) + 3MiB at "
                                 "2.10 GB/s (pageable) + 0 ns = 3.5 ms");
  g_assert_cmpstr (lines[3], ==, "  op 2: 4MiB d2h: 2MiB at 2.10 GB/s (untouched, huge pages) + 2MiB at "
                                 "0.52 GB/s (untouched, small pages) + 0 ns = 5 ms");
  g_assert_cmpstr (lines[4], ==, "  op 3: 4MiB h2d at 4.19 GB/s (untouched, huge pages) + 100 us = 1.1 ms");
  g_assert_cmpstr (lines[5], ==, "");

  static const char cached[] = "device schematic-cached\n"
                               "stream s1\n"
                               "h2d s1 4MiB pageable cached\n";
  g_autofree char *err2 = NULL;
  g_object_unref (predict_to_stdout (cached, "--json", "--explain", &err2));
  g_assert_nonnull (strstr (err2, "\n  op 0: 4MiB h2d at 4.19 GB/s (pageable, in the CPU's caches) + 250 us "
                                  "= 1.25 ms\n"));
}

/* The critical path through the host, on the schematic K20 (as above; a
 * pageable copy runs at half the pinned bandwidth, 2 ms for 4 MiB, and a
 * 4 MiB device-to-device copy takes 1 ms). By hand:
 *
 *   op 0  h2d s1 pageable   issued 0, runs 0-2 ms, holds the host until then
 *   op 1  d2d s2 pageable   issued 2 ms, runs 2-3 ms; touches no host memory,
 *                           so it does not hold the host
 *   op 2  host 2ms          issued 2 ms (ops 0, 1 cost nothing), 2-4 ms
 *   op 3  kernel s1         issued 4 ms, when the host work ended; its stream
 *                           and the SM are free: 4-5 ms, the makespan
 *
 * Ops 2 and 3 waited for no op; the host issued them late. So the path is
 * op 0, then op 2 (issued after op 0 returned and one other call, op 1),
 * then op 3 (after op 2 returned). Op 0 was issued at 0: no closing line.
 * Taking the d2d for a blocking copy would put op 1 in op 0's place. */
static const char host_path_text[] =
  "device schematic-k20\n"
  "stream s1\n"
  "stream s2\n"
  "h2d s1 4MiB pageable\n"
  "d2d s2 4MiB pageable\n"
  "host 2ms\n"
  "kernel s1 grid=1 block=32 time=1ms\n";

static void
test_critical_path_through_host (void)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser
    = predict_to_stdout (host_path_text, "--json", "--critical-path", &err);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "makespan_ns"), ==, 5000000);
  JsonArray *path = json_object_get_array_member (o, "critical_path");
  struct
  {
    gint64 op, issue, start, end;
    const char *cause;
  } expected[] = {
    { 0, 0, 0, 2000000, "" },
    { 2, 2000000, 2000000, 4000000, "host issued it after op 0 returned and 1 other call" },
    { 3, 4000000, 4000000, 5000000, "host issued it after op 2 returned" },
  };
  g_assert_cmpuint (json_array_get_length (path), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject *step = json_array_get_object_element (path, i);
      g_assert_cmpint (json_object_get_int_member (step, "op"), ==, expected[i].op);
      g_assert_cmpint (json_object_get_int_member (step, "issue_ns"), ==, expected[i].issue);
      g_assert_cmpint (json_object_get_int_member (step, "start_ns"), ==, expected[i].start);
      g_assert_cmpint (json_object_get_int_member (step, "end_ns"), ==, expected[i].end);
      g_assert_cmpstr (json_object_get_string_member (step, "cause"), ==, expected[i].cause);
    }
  const PathPart parts[] = { { "h2d", 2000000 }, { "host", 2000000 }, { "compute", 1000000 },
                             { "between", 0 }, { NULL, 0 } };
  assert_path_time (o, parts);
  /* the text lists the same ops and causes, then the time on the path */
  const char *text = strstr (err, "makespan):\n");
  g_assert_nonnull (text);
  g_auto (GStrv) lines = g_strsplit (strchr (text, '\n') + 1, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *head = g_strdup_printf ("  op %-5" G_GINT64_FORMAT " ", expected[i].op);
      g_assert_true (g_str_has_prefix (lines[i], head));
      g_assert_true (g_str_has_suffix (lines[i], expected[i].cause));
    }
  g_assert_cmpstr (lines[3], ==,
                   "  time on the path: h2d 2 ms, host 2 ms, compute 1 ms, calls and latencies 0 ns");
  g_assert_cmpstr (lines[4], ==, "");
}

/* --chrome and --plot mark the critical path that --critical-path prints:
 * on host_path_text, by hand (test_critical_path_through_host), ops 0
 * (h2d, 0-2 ms), 2 (host work, 2-4 ms) and 3 (kernel, 4-5 ms).
 * - The Chrome trace repeats them in process 3 with steps 1, 2, 3: ops 0
 *   and 3 on the device's path track, the host work (op 2) on the host's.
 * - The plot (through plot_stub.h's gantt.gp) outlines them where plot.c
 *   draws them, lanes one unit high and half a unit between rows: H2D copy
 *   [0, 1) holds op 0 at 0.1-0.9, compute [1.5, 2.5) op 3 at 1.6-2.4, D2D
 *   copy [3, 4) only op 1, off the path, and host thread [4.5, 5.5) op 2
 *   at 4.6-5.4. */
static void
test_pictures_mark_critical_path (void)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = predict_to_stdout (host_path_text, "--chrome", NULL, &err);
  JsonArray *events = json_object_get_array_member (
    json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  const gint64 expected[][3] = { { 0, 0, 2000 }, { 2, 2000, 4000 }, { 3, 4000, 5000 } };
  guint found = 0;
  gint64 tid[G_N_ELEMENTS (expected)];
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      if (strcmp (json_object_get_string_member (e, "ph"), "X") != 0
          || json_object_get_int_member (e, "pid") != 3)
        continue;
      JsonObject *args = json_object_get_object_member (e, "args");
      g_assert_cmpuint (found, <, G_N_ELEMENTS (expected));
      g_assert_cmpint (json_object_get_int_member (args, "op"), ==, expected[found][0]);
      g_assert_cmpint (json_object_get_int_member (args, "critical_path_step"), ==, found + 1);
      g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, expected[found][1]);
      g_assert_cmpfloat (json_object_get_double_member (e, "ts")
                         + json_object_get_double_member (e, "dur"), ==, expected[found][2]);
      tid[found] = json_object_get_int_member (e, "tid");
      found++;
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (expected));
  g_assert_cmpint (tid[0], ==, tid[2]);
  g_assert_cmpint (tid[0], !=, tid[1]);

  g_autofree char *gnuplot = g_find_program_in_path ("gnuplot");
  if (gnuplot == NULL)
    {
      g_test_skip ("the plot half needs gnuplot on PATH (Debian: apt-get install gnuplot-nox)");
      return;
    }
  char *stub = plot_stub_new ();
  g_autofree char *dir = temp_dir_new ("streamsim-plot");
  temp_dir_write (dir, "s.sched", host_path_text);
  const char *const args[] = { "predict", "s.sched", "--plot", "t.png", "--quiet", NULL };
  g_setenv ("STREAMSIM_PLOT_DIR", stub, TRUE);
  int status = cli_run (dir, args, NULL, NULL, NULL);
  g_unsetenv ("STREAMSIM_PLOT_DIR");
  g_assert_cmpint (status, ==, 0);
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  g_autofree char *outlines = NULL;
  g_assert_true (g_file_get_contents (png, &outlines, NULL, NULL));
  g_assert_cmpstr (outlines, ==,
                   "0\t2000000\t0.100\t0.900\n"
                   "4000000\t5000000\t1.600\t2.400\n"
                   "2000000\t4000000\t4.600\t5.400\n");
  temp_dir_remove (dir);
  plot_stub_remove (stub);
}

/* The time on the critical path where calls and latencies cost something,
 * on tests/profiles/test_base.ini. By hand, from its numbers:
 *
 *   op 0  h2d 10 MB   issued 0; its call (memcpy_async 3 us) and the copy
 *                     submit latency (2 us) bring it to the engine at 5 us;
 *                     it takes 10 us + 10 MB / 10 GB/s = 1010 us: 5-1015 us
 *   op 1  kernel      issued at 3 us; after op 0 and the dependency latency
 *                     (1 us): 1016-1116 us
 *   op 2  sync s1     issued at 7 us; returns sync (2.5 us) after op 1:
 *                     1118.5 us, the makespan
 *
 * Path 0, 1, 2: h2d 1010 us, compute 100 us, and between them 5 + 1 + 2.5
 * = 8.5 us; together the makespan. */
static void
test_critical_path_time_by_hand (void)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser
    = predict_to_stdout ("device test_base\nstream s1\nh2d s1 10MB\n"
                         "kernel s1 grid=1 block=32 time=100us\nsync s1\n",
                         "--json", "--critical-path", &err);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "makespan_ns"), ==, 1118500);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "critical_path")), ==,
                    3);
  const PathPart parts[] = { { "h2d", 1010000 }, { "compute", 100000 }, { "between", 8500 },
                             { NULL, 0 } };
  assert_path_time (o, parts);
  g_assert_nonnull (
    strstr (err, "\n  time on the path: h2d 1.01 ms, compute 100 us, calls and latencies 8.5 us\n"));
}

/* The critical path past a kernel that was overtaken after it left its
 * queue, on slots4 (two SMs of 1024 threads and two blocks; as the
 * schematic K20: 1 ms per 4 MiB pinned copy, nothing for calls and
 * latencies). One connection, so s2's and s3's kernels share a compute
 * queue. By hand:
 *
 *   op 0  kernel s1 2 x 512 threads  0-2 ms, a block on each SM
 *   op 1  h2d s4                     0-1 ms
 *   op 2  record e s4                1 ms
 *   op 3  wait s2 e                  1 ms
 *   op 4  kernel s2 1 x 1024         held at the head of the queue by the
 *                                    event until 1 ms; admitted then, but
 *                                    no SM has 1024 threads free until op 0
 *                                    ends: 2-3 ms
 *   op 5  kernel s3 1 x 256, priority -1: behind op 4 in the queue until
 *                                    1 ms (a false dependency), then ahead
 *                                    of it in the dispatch list, and 256
 *                                    threads are free: 1-2 ms
 *   op 6  d2h s3 pageable            after op 5: 2-4 ms, the makespan
 *
 * So op 5 started before op 4, the op it waited behind; what let op 5 go
 * is what held op 4 in the queue, the record (op 2), which waited for the
 * copy (op 1). The path: 1, 2, 5, 6. Following op 4's own wait instead
 * (op 0's slots) would put op 4 above op 5 and start the path at op 0. */
static const char overtaken_text[] =
  "device slots4\n"
  "connections 1\n"
  "stream s1\n"
  "stream s2\n"
  "stream s3 priority=-1\n"
  "stream s4\n"
  "kernel s1 grid=2 block=512 time=2ms\n"
  "h2d s4 4MiB\n"
  "record e s4\n"
  "wait s2 e\n"
  "kernel s2 grid=1 block=1024 time=1ms\n"
  "kernel s3 grid=1 block=256 time=1ms\n"
  "d2h s3 4MiB pageable\n";

static void
test_critical_path_past_overtaken_kernel (void)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = predict_to_stdout (overtaken_text, "--json", NULL, &err);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "makespan_ns"), ==, 4000000);
  const PathStep expected[] = { { 1, 0, 1000000 },
                                { 2, 1000000, 1000000 },
                                { 5, 1000000, 2000000 },
                                { 6, 2000000, 4000000 } };
  assert_path (o, expected, G_N_ELEMENTS (expected));
  JsonArray *path = json_object_get_array_member (o, "critical_path");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (path, 2), "cause"),
                   ==, "queue conn0/compute behind op 4 (stream s2): false dependency "
                       "(op 4 left the queue after op 2, then waited for SMs)");
}

/* A schedule without ops: nothing waited and the critical path is empty,
 * in the JSON and in --critical-path's text. */
/* The makespan at both ends of the profile's host (tests/profiles/spread.ini:
 * a launch holds the host 1 ms, 0.5 ms on the fast host and 2 ms on the
 * slow one; a 4 MiB pageable H2D takes 2, 1 and 4 ms; all else free). By
 * hand: the copy from 0, holding the host; the launch from its end; the
 * 3 ms kernel from the launch's end: 2 + 1 + 3 = 6 ms, fast 1 + 0.5 + 3 =
 * 4.5 ms, slow 4 + 2 + 3 = 9 ms. The JSON summary carries the two ends,
 * and a run at one end (--host) takes its makespan; a profile without
 * [spread] has none, and refuses --host. */
static void
test_host_spread_by_hand (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-spread");
  temp_dir_write (dir, "s.sched",
                  "stream s1\nstream s2\nh2d s1 4MiB pageable\n"
                  "kernel s2 grid=1 block=32 time=3ms\n");
  g_autofree char *sched_path = g_build_filename (dir, "s.sched", NULL);
  PredictionOptions options = { "spread", 0, NULL, 0, PREDICTION_HOST_OWN };
  g_autoptr (GError) error = NULL;
  g_autoptr (Prediction) p = prediction_run (sched_path, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (prediction_makespan (p), ==, 6000000);
  SimTime ends[2];
  g_assert_true (prediction_host_spread (p, ends));
  g_assert_cmpint (ends[GPU_HOST_FAST], ==, 4500000);
  g_assert_cmpint (ends[GPU_HOST_SLOW], ==, 9000000);

  PredictionSummary summary;
  prediction_summarize (p, &summary);
  g_assert_false (summary.has_spread);
  prediction_summarize_spread (p, &summary);
  g_assert_true (summary.has_spread);
  g_assert_cmpint (summary.spread[GPU_HOST_SLOW], ==, 9000000);
  g_autoptr (GArray) path = prediction_critical_path (p);
  g_auto (GStrv) notes = prediction_notes (p);
  gsize length = 0;
  g_autofree char *data = prediction_json_to_data (p, &summary, path, (const char *const *) notes,
                                                   &length);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, data, (gssize) length, &error));
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "makespan_fast_host_ns"), ==, 4500000);
  g_assert_cmpint (json_object_get_int_member (o, "makespan_slow_host_ns"), ==, 9000000);

  /* --host runs at one end: its makespan is that end's */
  PredictionOptions fast = { "spread", 0, NULL, 0, PREDICTION_HOST_FAST };
  g_autoptr (Prediction) f = prediction_run (sched_path, &fast, &error);
  g_assert_no_error (error);
  g_assert_cmpint (prediction_makespan (f), ==, 4500000);
  PredictionOptions slow = { "spread", 0, NULL, 0, PREDICTION_HOST_SLOW };
  g_autoptr (Prediction) sl = prediction_run (sched_path, &slow, &error);
  g_assert_no_error (error);
  g_assert_cmpint (prediction_makespan (sl), ==, 9000000);

  PredictionOptions plain = { "schematic-k20", 0, NULL, 0, PREDICTION_HOST_OWN };
  g_autoptr (Prediction) q = prediction_run (sched_path, &plain, &error);
  g_assert_no_error (error);
  g_assert_false (prediction_host_spread (q, ends));
  /* and a profile without [spread] has no end to run at */
  plain.host = PREDICTION_HOST_SLOW;
  g_assert_null (prediction_run (sched_path, &plain, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "--host slow: profile schematic-k20 gives no [spread]"));
  temp_dir_remove (dir);
}

static void
test_no_ops (void)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser
    = predict_to_stdout ("device schematic-k20\nstream s1\n", "--json", "--critical-path", &err);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "ops"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "makespan_ns"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "waits")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "critical_path")),
                    ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "notes")), ==, 0);
  g_assert_true (g_str_has_suffix (err, "makespan):\n  no op\n"));
  g_assert_null (strstr (err, "\nwaited for ")); /* no waits table */
}

/* With --json - (or --chrome -), standard output holds the JSON alone and
 * the text summary goes to standard error; before, --chrome - appended the
 * summary to the JSON. */
static void
test_stdout_holds_json_alone (gconstpointer data)
{
  g_autofree char *err = NULL;
  g_object_unref (predict_to_stdout (schedule_text, data, NULL, &err));
  g_assert_nonnull (strstr (err, "makespan     4 ms\n"));
}

/* What `streamsim predict FILE [--device DEVICE]` run in `dir` prints on
 * standard error; the run must succeed. */
static char *
predict_stderr (const char *dir, const char *file, const char *device)
{
  const char *const argv[] = { "predict", file, device != NULL ? "--device" : NULL, device, NULL };
  char *err = NULL;
  g_assert_cmpint (cli_run (dir, argv, NULL, NULL, &err), ==, 0);
  return err;
}

/* Cached copies on a profile without a cached link for their direction:
 * predict says so, naming the first such copy and the count; on
 * schematic-cached, which has an H2D link and no D2H one, only the D2H's
 * note stays. */
static void
test_cached_note (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-note");
  temp_dir_write (dir, "c.sched", "device schematic-k20\n"
                                  "stream s1\n"
                                  "h2d s1 1MiB pageable\n"
                                  "h2d s1 1MiB pageable cached\n"
                                  "d2h s1 1MiB pageable cached\n");
  g_autofree char *err = predict_stderr (dir, "c.sched", NULL);
  g_assert_nonnull (strstr (err, "streamsim predict: c.sched:4:1: note: 1 cached pageable h2d "
                                 "copy is predicted at the pageable link: profile schematic-k20 "
                                 "has no h2d_cached_bandwidth"));
  g_assert_nonnull (strstr (err, "c.sched:5:1: note: 1 cached pageable d2h copy"));
  g_autofree char *measured = predict_stderr (dir, "c.sched", "schematic-cached");
  g_assert_null (strstr (measured, "cached pageable h2d"));
  g_assert_nonnull (strstr (measured, "c.sched:5:1: note: 1 cached pageable d2h copy"));
  temp_dir_remove (dir);
}

/* Untouched copies on a profile that has not measured them: predict says so
 * once per direction, naming the first such copy (line 4, then line 6: the
 * H2D at line 5 is touched) and the count; --quiet says nothing, and a
 * profile with the links (schematic-untouched) needs no note. The sweep
 * says it once per device. */
static void
test_untouched_note (void)
{
  static const char text[] = "device schematic-k20\n"
                             "stream s1\n"
                             "# untouched, touched, untouched, untouched\n"
                             "h2d s1 1MiB pageable untouched\n"
                             "h2d s1 1MiB pageable\n"
                             "d2h s1 1MiB pageable untouched\n"
                             "d2h s1 1MiB pageable untouched\n";
  g_autofree char *dir = temp_dir_new ("streamsim-note");
  temp_dir_write (dir, "u.sched", text);

  g_autofree char *err = predict_stderr (dir, "u.sched", NULL);
  g_assert_nonnull (strstr (err, "streamsim predict: u.sched:4:1: note: 1 untouched pageable h2d "
                                 "copy is predicted at the pageable link"));
  g_assert_nonnull (strstr (err, "streamsim predict: u.sched:6:1: note: 2 untouched pageable d2h "
                                 "copies are predicted"));
  g_assert_nonnull (strstr (err, "profile schematic-k20 has no d2h_untouched_bandwidth"));

  /* the JSON carries the same notes, without the program's name */
  g_autofree char *json_err = NULL;
  g_autoptr (JsonParser) parser = predict_to_stdout (text, "--json", NULL, &json_err);
  JsonArray *notes = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                   "notes");
  g_assert_cmpuint (json_array_get_length (notes), ==, 2);
  g_assert_true (g_str_has_prefix (json_array_get_string_element (notes, 0),
                                   "s.sched:4:1: note: 1 untouched pageable h2d copy"));
  g_assert_true (g_str_has_prefix (json_array_get_string_element (notes, 1),
                                   "s.sched:6:1: note: 2 untouched pageable d2h copies"));

  const char *const quiet[] = { "predict", "u.sched", "--quiet", NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (dir, quiet, NULL, NULL, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");

  g_autofree char *measured = predict_stderr (dir, "u.sched", "schematic-untouched");
  g_assert_null (strstr (measured, "note:"));

  temp_dir_write (dir, "p.sched", "device schematic-k20\nlet n = 1MiB\nstream s1\n"
                                  "h2d s1 $n pageable untouched\n");
  const char *const sweep_p[] = { "sweep", "p.sched", "-D", "n=1MiB,2MiB", "--device",
                                  "schematic-k20,schematic-untouched", NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (dir, sweep_p, NULL, NULL, &err), ==, 0);
  const char *first = strstr (err, "streamsim sweep: p.sched:4:1: note: 1 untouched pageable h2d");
  g_assert_nonnull (first);
  /* once: two values, one device without the links */
  g_assert_null (strstr (first + strlen ("streamsim sweep: p.sched"), "p.sched:4:1: note:"));
  temp_dir_remove (dir);
}

/* prediction_write_csv formats blocks of rows on two threads: its file must
 * hold the bytes that the writer gives when handed the same rows one at a
 * time (timeline_writer_add, itself checked against the plain reference by
 * test_timeline_row), on a schedule of several blocks with a short last
 * one. */
static void
test_csv_blocks_as_rows (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-csv-blocks");
  g_autofree char *blocks_path = g_build_filename (dir, "blocks.csv", NULL);
  g_autofree char *rows_path = g_build_filename (dir, "rows.csv", NULL);
  g_autoptr (GError) error = NULL;

  ScheduleGenOptions gen;
  schedule_gen_options_init (&gen);
  gen.seed = 7;
  gen.n_ops = 10 * 1024 + 345; /* eleven blocks of 1,024 rows, the last of 345 */
  gsize length;
  g_autofree char *text = schedule_gen_text (&gen, &length);
  ScheduleParseOptions parse = { NULL, gen.n_ops + 1 };
  Schedule *sched = schedule_parse_text ("generated.sched", text, length, &parse, &error);
  g_assert_no_error (error);
  GpuProfile profile;
  g_assert_true (profile_load ("k20", &profile, &error));
  g_assert_no_error (error);
  g_autoptr (Prediction) p = prediction_run_schedule (sched, &profile, 0, &error);
  g_assert_no_error (error);
  gpu_profile_clear (&profile);

  g_assert_true (prediction_write_csv (p, blocks_path, &error));
  g_assert_no_error (error);

  g_auto (GStrv) meta = NULL;
  {
    /* the same meta lines: read back from the first file's comment lines */
    g_autofree char *head = NULL;
    g_assert_true (g_file_get_contents (blocks_path, &head, NULL, &error));
    GPtrArray *pairs = g_ptr_array_new ();
    for (char *line = head; g_str_has_prefix (line, "# "); line = strchr (line, '\n') + 1)
      {
        char *colon = strstr (line, ": ");
        char *end = strchr (line, '\n');
        g_ptr_array_add (pairs, g_strndup (line + 2, colon - line - 2));
        g_ptr_array_add (pairs, g_strndup (colon + 2, end - colon - 2));
      }
    g_ptr_array_add (pairs, NULL);
    meta = (GStrv) g_ptr_array_free (pairs, FALSE);
  }
  TimelineWriter *writer = timeline_writer_new (rows_path, (const char *const *) meta, FALSE, &error);
  g_assert_no_error (error);
  g_autoptr (GString) scratch = g_string_new (NULL);
  for (gsize i = 0; i < gen.n_ops; i++)
    {
      TimelineRow row;
      prediction_row (p, i, &row, scratch);
      g_assert_true (timeline_writer_add (writer, &row, &error));
    }
  g_assert_true (timeline_writer_finish (writer, &error));
  g_assert_no_error (error);

  g_autofree char *blocks = NULL, *rows = NULL;
  gsize blocks_len, rows_len;
  g_assert_true (g_file_get_contents (blocks_path, &blocks, &blocks_len, &error));
  g_assert_true (g_file_get_contents (rows_path, &rows, &rows_len, &error));
  g_assert_cmpuint (blocks_len, ==, rows_len);
  g_assert_true (memcmp (blocks, rows, rows_len) == 0);
  /* every op has its row: the header, then n_ops lines */
  gsize lines = 0;
  for (const char *c = rows; c < rows + rows_len; c++)
    lines += *c == '\n';
  g_assert_cmpuint (lines, ==, g_strv_length (meta) / 2 + 1 + gen.n_ops);
  g_remove (blocks_path);
  g_remove (rows_path);
  temp_dir_remove_empty (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/predict-output/summary-by-hand", test_summary_by_hand);
  g_test_add_func ("/predict-output/waits-and-critical-path-by-hand", test_waits_by_hand);
  g_test_add_func ("/predict-output/critical-path-through-host", test_critical_path_through_host);
  g_test_add_func ("/predict-output/critical-path-time-by-hand", test_critical_path_time_by_hand);
  g_test_add_func ("/predict-output/pictures-mark-critical-path", test_pictures_mark_critical_path);
  g_test_add_func ("/predict-output/critical-path-past-an-overtaken-kernel",
                   test_critical_path_past_overtaken_kernel);
  g_test_add_func ("/predict-output/explain-only", test_explain_only);
  g_test_add_func ("/predict-output/explain-rows", test_explain_rows);
  g_test_add_func ("/predict-output/explain-pageable", test_explain_pageable);
  g_test_add_func ("/predict-output/join-cause", test_join_cause);
  g_test_add_func ("/predict-output/no-ops", test_no_ops);
  g_test_add_func ("/predict-output/host-spread-by-hand", test_host_spread_by_hand);
  g_test_add_func ("/predict-output/csv-blocks-as-rows", test_csv_blocks_as_rows);
  g_test_add_func ("/predict-output/untouched-note", test_untouched_note);
  g_test_add_func ("/predict-output/cached-note", test_cached_note);
  g_test_add_data_func ("/predict-output/stdout-holds-json-alone/json", "--json",
                        test_stdout_holds_json_alone);
  g_test_add_data_func ("/predict-output/stdout-holds-json-alone/chrome", "--chrome",
                        test_stdout_holds_json_alone);
  return g_test_run ();
}
