/* test_sweep.c: sweep value lists, and a sweep's makespans against single predictions (API and CLI). */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "engines/eng_sim.h"
#include "sim/front/prediction.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "sim/front/sweep.h"
#include "support/cli_run.h"
#include "support/picture.h"
#include "support/temp_dir.h"

#define PIPELINE SRCDIR "/traces/seed/pipeline.sched"

static void
assert_values (const char *text, const char *const *expected, gboolean geometric)
{
  gboolean geo = !geometric;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) values = sweep_expand_values ("n", text, &geo, &error);
  g_assert_no_error (error);
  g_assert_nonnull (values);
  g_assert_cmpstrv (values, expected);
  g_assert_cmpint (geo, ==, geometric);
}

/* Lists are kept as written (blanks trimmed); FIRST..LAST is every
 * integer; FIRST..LAST*F multiplies by F while it stays <= LAST. */
static void
test_expand (void)
{
  assert_values ("1, 2,4MiB", (const char *const[]){ "1", "2", "4MiB", NULL }, FALSE);
  assert_values ("3..6", (const char *const[]){ "3", "4", "5", "6", NULL }, FALSE);
  assert_values ("7..7", (const char *const[]){ "7", NULL }, FALSE);
  assert_values ("1..64*2",
                 (const char *const[]){ "1", "2", "4", "8", "16", "32", "64", NULL }, TRUE);
  /* 3, 9, 27, 81; 243 passes 100. */
  assert_values ("3..100*3", (const char *const[]){ "3", "9", "27", "81", NULL }, TRUE);
  assert_values ("1..2,10", (const char *const[]){ "1", "2", "10", NULL }, FALSE);
}

/* Each malformed list is refused with a message naming the parameter. */
static void
test_expand_errors (void)
{
  static const char *const bad[] = { "5..1", "1..x", "..4", "0..8*2", "1..8*1", "1..8*",
                                     "1,,2", "1,", "1..20000", "-1..3" };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gboolean geometric = FALSE;
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) values = sweep_expand_values ("nchunks", bad[i], &geometric, &error);
      g_assert_null (values);
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      g_assert_nonnull (strstr (error->message, "-D nchunks="));
    }
}

/* The swept parameter is the one -D with a list; the others are fixed and
 * come first in each point's defines; device lists are split on commas. */
static void
test_new (void)
{
  const char *defines[] = { "size=4MiB", "nchunks=1..4", "mode=2", NULL };
  const char *devices[] = { "c1060,c2050", "k20", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (Sweep) sweep = sweep_new (defines, devices, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sweep_param (sweep), ==, "nchunks");
  g_assert_cmpuint (sweep_n_values (sweep), ==, 4);
  g_assert_cmpstr (sweep_value (sweep, 2), ==, "3");
  g_assert_false (sweep_is_geometric (sweep));
  g_assert_cmpuint (sweep_n_devices (sweep), ==, 3);
  g_assert_cmpstr (sweep_device (sweep, 0), ==, "c1060");
  g_assert_cmpstr (sweep_device (sweep, 2), ==, "k20");
  g_auto (GStrv) point = sweep_defines (sweep, 2);
  g_assert_cmpstrv (point, ((const char *const[]){ "size=4MiB", "mode=2", "nchunks=3", NULL }));

  /* No --device: one device, named by the schedule once run. */
  const char *one[] = { "n=1,2", NULL };
  g_autoptr (Sweep) plain = sweep_new (one, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sweep_n_devices (plain), ==, 1);
  g_assert_null (sweep_device (plain, 0));
}

static void
test_new_errors (void)
{
  const char *const *const cases[] = {
    (const char *const[]){ "a=1", "b=2", NULL },     /* nothing swept */
    (const char *const[]){ "a=1,2", "b=1..3", NULL }, /* two swept */
    (const char *const[]){ "=1,2", NULL },           /* no name */
    (const char *const[]){ "a", NULL },              /* no value */
    (const char *const[]){ NULL },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (Sweep) sweep = sweep_new (cases[i], NULL, &error);
      g_assert_null (sweep);
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
    }
  g_autoptr (GError) error = NULL;
  const char *defines[] = { "a=1,2", NULL };
  const char *devices[] = { "c1060,,k20", NULL };
  g_autoptr (Sweep) sweep = sweep_new (defines, devices, &error);
  g_assert_null (sweep);
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
}

/* One point straight through the model's API, not through prediction.c:
 * parse with the defines, load the profile, run, read the makespan. */
static SimTime
makespan_by_api (const char *device, const char *const *defines)
{
  g_autoptr (GError) error = NULL;
  ScheduleParseOptions options = { .defines = defines };
  g_autoptr (Schedule) sched = schedule_parse_file (PIPELINE, &options, &error);
  g_assert_no_error (error);
  GpuProfile profile;
  memset (&profile, 0, sizeof profile);
  g_assert_true (profile_load (device, &profile, &error));
  g_assert_no_error (error);
  g_autoptr (EngSim) sim = eng_sim_new (&profile, sched, 0, &error);
  g_assert_no_error (error);
  eng_sim_run (sim);
  SimTime makespan = eng_sim_makespan (sim);
  gpu_profile_clear (&profile);
  return makespan;
}

/* The CSV's records, split on commas outside quotes (RFC 4180), '#' lines
 * skipped: enough for the timeline and sweep files written here. */
static GPtrArray *
read_csv (const char *path)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      GPtrArray *fields = g_ptr_array_new ();
      GString *field = g_string_new (NULL);
      gboolean quoted = FALSE;
      for (const char *p = lines[i]; *p != '\0'; p++)
        {
          if (*p == '"' && quoted && p[1] == '"')
            g_string_append_c (field, *p++);
          else if (*p == '"')
            quoted = !quoted;
          else if (*p == ',' && !quoted)
            {
              g_ptr_array_add (fields, g_string_free (field, FALSE));
              field = g_string_new (NULL);
            }
          else
            g_string_append_c (field, *p);
        }
      g_ptr_array_add (fields, g_string_free (field, FALSE));
      g_ptr_array_add (fields, NULL);
      g_ptr_array_add (records, g_ptr_array_free (fields, FALSE));
    }
  return records;
}

static guint
column_of (char **header, const char *name)
{
  for (guint c = 0; header[c] != NULL; c++)
    if (strcmp (header[c], name) == 0)
      return c;
  g_assert_not_reached ();
}

/* `streamsim predict --csv`: the makespan is the largest end_ns. */
static SimTime
makespan_by_predict (const char *dir, const char *device, const char *value)
{
  g_autofree char *csv = g_build_filename (dir, "point.csv", NULL);
  g_autofree char *define = g_strdup_printf ("nchunks=%s", value);
  const char *args[] = { "predict", PIPELINE, "--device", device, "-D", define, "--csv", csv,
                         "-q", NULL };
  g_assert_cmpint (cli_run (NULL, args, NULL, NULL, NULL), ==, 0);
  g_autoptr (GPtrArray) records = read_csv (csv);
  g_assert_cmpuint (records->len, >, 1);
  guint end = column_of (g_ptr_array_index (records, 0), "end_ns");
  SimTime largest = -1;
  for (guint r = 1; r < records->len; r++)
    largest = MAX (largest, g_ascii_strtoll (((char **) g_ptr_array_index (records, r))[end], NULL, 10));
  g_unlink (csv);
  return largest;
}

/* 4 chunk counts on 3 devices: the sweep's makespans (in memory, and in the
 * CSV of `streamsim sweep`) equal those of each point predicted alone,
 * through the engine API and through `streamsim predict --csv`. */
static void
test_matches_predict (void)
{
  static const char *const devices[] = { "c1060", "c2050", "k20" };
  const char *defines[] = { "nchunks=1..8*2", NULL };
  const char *device_args[] = { "c1060,c2050", "k20", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (Sweep) sweep = sweep_new (defines, device_args, &error);
  g_assert_no_error (error);
  g_assert_true (sweep_run (sweep, PIPELINE, 0, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sweep_n_values (sweep), ==, 4);

  g_autofree char *dir = temp_dir_new ("test-sweep");
  for (guint v = 0; v < sweep_n_values (sweep); v++)
    {
      g_auto (GStrv) point = sweep_defines (sweep, v);
      for (guint d = 0; d < G_N_ELEMENTS (devices); d++)
        {
          SimTime swept = sweep_makespan (sweep, v, d);
          g_assert_cmpint (swept, >, 0);
          g_assert_cmpint (swept, ==, makespan_by_api (devices[d], (const char *const *) point));
          g_assert_cmpint (swept, ==, makespan_by_predict (dir, devices[d], sweep_value (sweep, v)));
        }
    }

  /* The same grid through `streamsim sweep`: one CSV row per point, values
   * outer, devices inner, each makespan as above. */
  g_autofree char *csv = g_build_filename (dir, "sweep.csv", NULL);
  const char *args[] = { "sweep", PIPELINE, "-D", "nchunks=1..8*2", "--device", "c1060,c2050",
                         "--device", "k20", "--csv", csv, "-q", NULL };
  g_assert_cmpint (cli_run (NULL, args, NULL, NULL, NULL), ==, 0);
  g_autoptr (GPtrArray) records = read_csv (csv);
  g_assert_cmpuint (records->len, ==, 1 + 4 * 3);
  g_assert_cmpstrv (g_ptr_array_index (records, 0),
                    ((const char *const[]){ "param", "device", "makespan_ns", NULL }));
  for (guint v = 0; v < 4; v++)
    for (guint d = 0; d < 3; d++)
      {
        char **row = g_ptr_array_index (records, 1 + v * 3 + d);
        g_assert_cmpstr (row[0], ==, sweep_value (sweep, v));
        g_assert_cmpstr (row[1], ==, devices[d]);
        g_assert_cmpint (g_ascii_strtoll (row[2], NULL, 10), ==, sweep_makespan (sweep, v, d));
      }
  g_unlink (csv);
  temp_dir_remove_empty (dir);
}

/* The "fastest on DEVICE: PARAM=VALUE, TIME" lines of `streamsim sweep`,
 * as DEVICE -> VALUE. */
static GHashTable *
fastest_lines (const char *out)
{
  GHashTable *fastest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (char **line = lines; *line != NULL; line++)
    {
      if (!g_str_has_prefix (*line, "fastest on "))
        continue;
      const char *device = *line + strlen ("fastest on ");
      const char *colon = strchr (device, ':');
      const char *equals = strchr (device, '=');
      const char *comma = strchr (device, ',');
      g_assert_true (colon != NULL && equals != NULL && comma != NULL && equals < comma);
      g_hash_table_insert (fastest, g_strndup (device, (gsize) (colon - device)),
                           g_strndup (equals + 1, (gsize) (comma - equals - 1)));
    }
  return fastest;
}

/* The table ends with the fastest value on each device: the first of the
 * shortest makespans in the CSV the same run wrote (each of which
 * /sweep/matches-predict checks against predict). And by hand: on `wide`
 * (16 SMs of one block), a kernel of n <= 16 blocks and time=1ms runs one
 * wave of 1 ms whatever n is, so every value ties and the first listed,
 * 4, is the fastest; its critical path is that kernel alone, 1 ms of
 * compute, with calls and latencies free on that profile.
 *
 * Each line also gives the fastest point's critical path by engine: the
 * same text as the "time on the path" line of `predict --critical-path` on
 * that point (whose parts /predict-output checks by hand). */
static void
test_fastest (void)
{
  g_autofree char *dir = temp_dir_new ("test-sweep");
  g_autofree char *csv = g_build_filename (dir, "sweep.csv", NULL);
  const char *args[] = { "sweep", PIPELINE, "-D", "nchunks=1..64*2", "--device",
                         "c1060,c2050,k20", "--csv", csv, NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (NULL, args, NULL, &out, NULL), ==, 0);
  g_autoptr (GHashTable) fastest = fastest_lines (out);
  g_assert_cmpuint (g_hash_table_size (fastest), ==, 3);
  g_autoptr (GPtrArray) records = read_csv (csv);
  static const char *const devices[] = { "c1060", "c2050", "k20" };
  for (guint d = 0; d < G_N_ELEMENTS (devices); d++)
    {
      const char *best = NULL;
      gint64 best_ns = G_MAXINT64;
      for (guint r = 1; r < records->len; r++)
        {
          char **row = g_ptr_array_index (records, r);
          gint64 ns = g_ascii_strtoll (row[2], NULL, 10);
          if (strcmp (row[1], devices[d]) == 0 && ns < best_ns)
            {
              best = row[0];
              best_ns = ns;
            }
        }
      g_assert_cmpstr (g_hash_table_lookup (fastest, devices[d]), ==, best);

      g_autofree char *define = g_strdup_printf ("nchunks=%s", best);
      const char *predict[] = { "predict", PIPELINE, "-D", define, "--device", devices[d],
                                "--critical-path", NULL };
      g_autofree char *predicted = NULL;
      g_assert_cmpint (cli_run (NULL, predict, NULL, &predicted, NULL), ==, 0);
      const char *time = strstr (predicted, "  time on the path: ");
      g_assert_nonnull (time);
      time += strlen ("  time on the path: ");
      g_autofree char *parts = g_strndup (time, strcspn (time, "\n"));
      g_autofree char *line_start = g_strdup_printf ("fastest on %s:", devices[d]);
      const char *line = strstr (out, line_start);
      g_assert_nonnull (line);
      g_autofree char *line_text = g_strndup (line, strcspn (line, "\n"));
      g_autofree char *tail = g_strdup_printf ("(critical path: %s)", parts);
      g_assert_true (g_str_has_suffix (line_text, tail));
    }
  g_unlink (csv);

  temp_dir_write (dir, "wave.sched",
                  "device wide\nlet n = 1\nstream s1\nkernel s1 grid=$n block=32 time=1ms\n");
  g_autofree char *wave = g_build_filename (dir, "wave.sched", NULL);
  const char *tie[] = { "sweep", wave, "-D", "n=4,2,16,1", NULL };
  g_autofree char *tie_out = NULL;
  g_assert_cmpint (cli_run (NULL, tie, NULL, &tie_out, NULL), ==, 0);
  g_autoptr (GHashTable) tie_fastest = fastest_lines (tie_out);
  g_assert_cmpuint (g_hash_table_size (tie_fastest), ==, 1);
  g_assert_cmpstr (g_hash_table_lookup (tie_fastest, "wide"), ==, "4");
  g_assert_nonnull (
    strstr (tie_out, " n=4, 1 ms (critical path: compute 1 ms, calls and latencies 0 ns)\n"));
  g_unlink (wave);
  temp_dir_remove_empty (dir);
}

/* `--json`: the same makespans as the CSV of the same run, value by value
 * in the order given, and the fastest value per device (the first of the
 * shortest, found here by scanning the CSV). Then by hand, on wide.ini (16
 * one-block SMs, calls and latencies free): a kernel of 1 to 16 blocks of
 * 1 ms takes 1 ms whatever its grid, so every value is 1,000,000 ns and the
 * fastest is the first listed, 4. */
static JsonObject *
parse_json_file (JsonParser *parser, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_json (void)
{
  g_autofree char *dir = temp_dir_new ("test-sweep");
  g_autofree char *csv = g_build_filename (dir, "sweep.csv", NULL);
  g_autofree char *json = g_build_filename (dir, "sweep.json", NULL);
  const char *args[] = { "sweep", PIPELINE, "-D", "nchunks=1..16*2", "--device",
                         "c1060,k20", "--csv", csv, "--json", json, "--quiet", NULL };
  g_assert_cmpint (cli_run (NULL, args, NULL, NULL, NULL), ==, 0);
  g_autoptr (GPtrArray) records = read_csv (csv);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = parse_json_file (parser, json);
  g_assert_cmpstr (json_object_get_string_member (o, "schedule"), ==, PIPELINE);
  g_assert_cmpstr (json_object_get_string_member (o, "param"), ==, "nchunks");
  JsonArray *values = json_object_get_array_member (o, "values");
  static const char *const expected_values[] = { "1", "2", "4", "8", "16" };
  g_assert_cmpuint (json_array_get_length (values), ==, G_N_ELEMENTS (expected_values));
  for (guint v = 0; v < G_N_ELEMENTS (expected_values); v++)
    g_assert_cmpstr (json_array_get_string_element (values, v), ==, expected_values[v]);
  JsonArray *devices = json_object_get_array_member (o, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 2);
  for (guint d = 0; d < 2; d++)
    {
      JsonObject *device = json_array_get_object_element (devices, d);
      const char *name = json_object_get_string_member (device, "device");
      g_assert_cmpstr (name, ==, d == 0 ? "c1060" : "k20");
      JsonArray *makespans = json_object_get_array_member (device, "makespan_ns");
      g_assert_cmpuint (json_array_get_length (makespans), ==, G_N_ELEMENTS (expected_values));
      const char *best = NULL;
      gint64 best_ns = G_MAXINT64;
      guint seen = 0;
      for (guint r = 1; r < records->len; r++)
        {
          char **row = g_ptr_array_index (records, r);
          if (strcmp (row[1], name) != 0)
            continue;
          gint64 ns = g_ascii_strtoll (row[2], NULL, 10);
          g_assert_cmpstr (row[0], ==, expected_values[seen]);
          g_assert_cmpint (json_array_get_int_element (makespans, seen), ==, ns);
          seen++;
          if (ns < best_ns)
            {
              best = row[0];
              best_ns = ns;
            }
        }
      g_assert_cmpuint (seen, ==, G_N_ELEMENTS (expected_values));
      JsonObject *fastest = json_object_get_object_member (device, "fastest");
      g_assert_cmpstr (json_object_get_string_member (fastest, "value"), ==, best);
      g_assert_cmpint (json_object_get_int_member (fastest, "makespan_ns"), ==, best_ns);
    }
  g_unlink (csv);
  g_unlink (json);

  temp_dir_write (dir, "wave.sched",
                  "device wide\nlet n = 1\nstream s1\nkernel s1 grid=$n block=32 time=1ms\n");
  g_autofree char *wave = g_build_filename (dir, "wave.sched", NULL);
  const char *tie[] = { "sweep", wave, "-D", "n=4,2,16,1", "--json", "-", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (NULL, tie, NULL, &out, NULL), ==, 0);
  g_autoptr (JsonParser) tie_parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (tie_parser, out, -1, &error));
  g_assert_no_error (error);
  JsonObject *wide = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (json_parser_get_root (tie_parser)),
                                  "devices"), 0);
  g_assert_cmpstr (json_object_get_string_member (wide, "device"), ==, "wide");
  JsonArray *makespans = json_object_get_array_member (wide, "makespan_ns");
  g_assert_cmpuint (json_array_get_length (makespans), ==, 4);
  for (guint v = 0; v < 4; v++)
    g_assert_cmpint (json_array_get_int_element (makespans, v), ==, 1000000);
  JsonObject *fastest = json_object_get_object_member (wide, "fastest");
  g_assert_cmpstr (json_object_get_string_member (fastest, "value"), ==, "4");
  g_assert_cmpint (json_object_get_int_member (fastest, "makespan_ns"), ==, 1000000);
  /* its path: the kernel's 1 ms of compute, nothing between (by hand) */
  JsonArray *path_time = json_object_get_array_member (fastest, "critical_path_time");
  g_assert_cmpuint (json_array_get_length (path_time), ==, 2);
  JsonObject *compute = json_array_get_object_element (path_time, 0);
  g_assert_cmpstr (json_object_get_string_member (compute, "part"), ==, "compute");
  g_assert_cmpint (json_object_get_int_member (compute, "ns"), ==, 1000000);
  JsonObject *between = json_array_get_object_element (path_time, 1);
  g_assert_cmpstr (json_object_get_string_member (between, "part"), ==, "between");
  g_assert_cmpint (json_object_get_int_member (between, "ns"), ==, 0);

  /* Standard output can hold only one of the two. */
  const char *both[] = { "sweep", wave, "-D", "n=1,2", "--csv", "-", "--json", "-", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (NULL, both, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "only one of --csv and --json can be -"));
  g_unlink (wave);
  temp_dir_remove_empty (dir);
}

/* pipeline.sched with 4 chunks is the seed's async V1, op for op (4 MiB
 * chunks, grid 4096, V1's kernel times), so the makespans are equal. */
static void
test_pipeline_is_seed (void)
{
  const char *defines[] = { "nchunks=2,4", NULL };
  const char *devices[] = { "c1060,c2050,k20", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (Sweep) sweep = sweep_new (defines, devices, &error);
  g_assert_true (sweep_run (sweep, PIPELINE, 0, 0, &error));
  g_assert_no_error (error);
  for (guint d = 0; d < 3; d++)
    {
      PredictionOptions options = { .device = sweep_device (sweep, d) };
      g_autoptr (Prediction) seed
          = prediction_run (SRCDIR "/traces/seed/async-v1.sched", &options, &error);
      g_assert_no_error (error);
      g_assert_cmpint (sweep_makespan (sweep, 1, d), ==, prediction_makespan (seed));
    }
}

/* Without --device the schedule's own device is used, and named. */
static void
test_schedule_device (void)
{
  const char *defines[] = { "nchunks=1,2", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (Sweep) sweep = sweep_new (defines, NULL, &error);
  g_assert_true (sweep_run (sweep, PIPELINE, 0, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sweep_device (sweep, 0), ==, "k20");
  const char *const point[] = { "nchunks=2", NULL };
  g_assert_cmpint (sweep_makespan (sweep, 1, 0), ==, makespan_by_api ("k20", point));
}


/* The plot: a PNG of the requested size, through the API and the CLI;
 * a geometric sweep and a plain list both draw. */
static void
test_plot (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autofree char *dir = temp_dir_new ("test-sweep");
  g_autofree char *png = g_build_filename (dir, "sweep.png", NULL);
  const char *defines[] = { "nchunks=1..16*2", NULL };
  const char *devices[] = { "c1060,k20", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (Sweep) sweep = sweep_new (defines, devices, &error);
  g_assert_true (sweep_run (sweep, PIPELINE, 0, 0, &error));
  PlotOptions options;
  plot_options_init (&options);
  options.width = 900;
  options.height = 500;
  g_assert_true (sweep_plot (sweep, PIPELINE, &options, png, &error));
  g_assert_no_error (error);
  picture_assert_png_size (png, 900, 500);

  g_autofree char *svg = g_build_filename (dir, "sweep.svg", NULL);
  const char *args[] = { "sweep", PIPELINE, "-D", "nchunks=1,3,5", "--device", "c2050",
                         "-o", svg, "-q", NULL };
  g_assert_cmpint (cli_run (NULL, args, NULL, NULL, NULL), ==, 0);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<svg"));
  g_assert_nonnull (strstr (text, "c2050"));
  temp_dir_remove (dir);
}

/* Bad input exits 2 and writes nothing: an empty range, no swept -D, an
 * unknown device, an unknown picture type (refused before running). */
static void
test_cli_errors (void)
{
  g_autofree char *dir = temp_dir_new ("test-sweep");
  g_autofree char *csv = g_build_filename (dir, "s.csv", NULL);
  g_autofree char *gif = g_build_filename (dir, "s.gif", NULL);
  const char *range[] = { "sweep", PIPELINE, "-D", "nchunks=5..1", "--csv", csv, NULL };
  g_assert_cmpint (cli_run (NULL, range, NULL, NULL, NULL), ==, 2);
  const char *none[] = { "sweep", PIPELINE, "-D", "nchunks=4", "--csv", csv, NULL };
  g_assert_cmpint (cli_run (NULL, none, NULL, NULL, NULL), ==, 2);
  const char *device[] = { "sweep", PIPELINE, "-D", "nchunks=1,2", "--device",
                           "no-such-gpu", "--csv", csv, NULL };
  g_assert_cmpint (cli_run (NULL, device, NULL, NULL, NULL), ==, 2);
  const char *picture[] = { "sweep", PIPELINE, "-D", "nchunks=1,2", "-o", gif, "--csv", csv,
                            NULL };
  g_assert_cmpint (cli_run (NULL, picture, NULL, NULL, NULL), ==, 2);
  const char *jobs[] = { "sweep", PIPELINE, "-D", "nchunks=1,2", "--jobs", "-1", "--csv", csv,
                         NULL };
  g_assert_cmpint (cli_run (NULL, jobs, NULL, NULL, NULL), ==, 2);
  g_assert_false (g_file_test (csv, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (gif, G_FILE_TEST_EXISTS));
  temp_dir_remove_empty (dir); /* nor a temporary file */
}

/* Points predicted on several threads: every makespan, critical path,
 * note and device name the same as one by one (test_matches_predict checks
 * the one-by-one results against `streamsim predict`), the schedule's own
 * device included, with more jobs than processors and than points. */
static void
test_jobs_same (void)
{
  const char *defines[] = { "nchunks=1..64*2", NULL };
  const char *device_args[] = { "c1060,c2050,k20", NULL };
  for (guint with_devices = 0; with_devices < 2; with_devices++)
    {
      const char *const *devices = with_devices ? device_args : NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (Sweep) one = sweep_new (defines, devices, &error);
      g_assert_true (sweep_run (one, PIPELINE, 0, 1, &error));
      g_assert_no_error (error);
      for (guint jobs = 2; jobs <= 64; jobs *= 4)
        {
          g_autoptr (Sweep) many = sweep_new (defines, devices, &error);
          g_assert_true (sweep_run (many, PIPELINE, 0, jobs, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (sweep_n_devices (many), ==, sweep_n_devices (one));
          for (guint d = 0; d < sweep_n_devices (one); d++)
            {
              g_assert_cmpstr (sweep_device (many, d), ==, sweep_device (one, d));
              for (guint v = 0; v < sweep_n_values (one); v++)
                {
                  g_assert_cmpint (sweep_makespan (many, v, d), ==, sweep_makespan (one, v, d));
                  g_assert_true (memcmp (sweep_path_time (many, v, d), sweep_path_time (one, v, d),
                                         sizeof (PredictionPathTime)) == 0);
                }
            }
          const char *const *a = sweep_notes (one), *const *b = sweep_notes (many);
          g_assert_cmpuint (g_strv_length ((char **) a), ==, g_strv_length ((char **) b));
          for (guint i = 0; a[i] != NULL; i++)
            g_assert_cmpstr (a[i], ==, b[i]);
        }
      if (!with_devices)
        g_assert_cmpstr (sweep_device (one, 0), ==, "k20");
    }
}

/* Two values that fail in different ways: 65536 chunks give each kernel
 * 16384 / 65536 = 0 blocks (grid=0, line 23, column 14), 0 chunks an empty
 * loop (line 17, column 10). The error is the first in value order whatever
 * the threads finish first, as one by one. */
static void
test_jobs_first_error (void)
{
  const char *defines[] = { "nchunks=2,65536,0,4", NULL };
  const char *devices[] = { "c1060,k20", NULL };
  for (guint jobs = 1; jobs <= 16; jobs *= 2)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (Sweep) sweep = sweep_new (defines, devices, &error);
      g_assert_false (sweep_run (sweep, PIPELINE, 0, jobs, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "pipeline.sched:23:14: grid=0"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sweep/expand", test_expand);
  g_test_add_func ("/sweep/expand-errors", test_expand_errors);
  g_test_add_func ("/sweep/new", test_new);
  g_test_add_func ("/sweep/new-errors", test_new_errors);
  g_test_add_func ("/sweep/matches-predict", test_matches_predict);
  g_test_add_func ("/sweep/jobs-same", test_jobs_same);
  g_test_add_func ("/sweep/jobs-first-error", test_jobs_first_error);
  g_test_add_func ("/sweep/fastest", test_fastest);
  g_test_add_func ("/sweep/json", test_json);
  g_test_add_func ("/sweep/pipeline-is-seed", test_pipeline_is_seed);
  g_test_add_func ("/sweep/schedule-device", test_schedule_device);
  g_test_add_func ("/sweep/plot", test_plot);
  g_test_add_func ("/sweep/cli-errors", test_cli_errors);
  return g_test_run ();
}
