/* test_import_cli.c: `streamsim import` as a user runs it: outputs, exit statuses, and the committed PyTorch traces predicted against their measured wall times. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "support/cli_run.h"
#include "support/temp_dir.h"

#define RESULTS_DIR SRCDIR "/validate/results"

/* A malformed trace: exit 2 with its place, and no schedule written (not
 * even an empty one); a missing one: exit 3. */
static void
test_errors (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-import");
  temp_dir_write (dir, "cut.json", "{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"cat\": ");
  const char *cut[] = { "import", "cut.json", "-o", "app.sched", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (dir, cut, NULL, NULL, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "streamsim: cut.json:3:"));
  g_autofree char *written = g_build_filename (dir, "app.sched", NULL);
  g_assert_false (g_file_test (written, G_FILE_TEST_EXISTS));

  const char *missing[] = { "import", "none.json", "-o", "app.sched", NULL };
  g_autofree char *err2 = NULL;
  g_assert_cmpint (cli_run (dir, missing, NULL, NULL, &err2), ==, 3);
  g_assert_true (g_str_has_prefix (err2, "streamsim: cannot read none.json: "));

  const char *csv[] = { "import", "cut.json", "-o", "app.csv", NULL };
  g_autofree char *err3 = NULL;
  g_assert_cmpint (cli_run (dir, csv, NULL, NULL, &err3), ==, 2);
  g_assert_nonnull (strstr (err3, "-o writes the schedule: name it .sched"));

  /* an endless input of no format is refused at its first bytes, not read
   * to the 2 GiB bound */
  const char *zeros[] = { "import", "/dev/zero", "-o", "app.sched", NULL };
  g_autofree char *err4 = NULL;
  g_assert_cmpint (cli_run (dir, zeros, NULL, NULL, &err4), ==, 2);
  g_assert_true (g_str_has_prefix (err4, "streamsim: /dev/zero: at byte 0: not a trace "
                                         "streamsim reads"));
  g_assert_false (g_file_test (written, G_FILE_TEST_EXISTS));
  g_autofree char *cut_path = g_build_filename (dir, "cut.json", NULL);
  g_unlink (cut_path);
  temp_dir_remove_empty (dir);
}

/* A call the language cannot express (a peer-to-peer copy) stays a
 * comment in the schedule, and the summary on standard error counts it;
 * the kernel before it is the one statement. */
static void
test_not_modelled (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-import");
  temp_dir_write (dir, "p.json", "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"tid\": 1, "
    "\"ts\": 10, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 12, \"dur\": 5, \"args\": "
    "{\"stream\": 7, \"correlation\": 1, \"grid\": [1, 1, 1], \"block\": [32, 1, 1]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemcpyPeerAsync\", \"tid\": 1, "
    "\"ts\": 13, \"dur\": 1, \"args\": {\"correlation\": 2}},\n"
    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy PtoP (Device -> Device)\", "
    "\"ts\": 18, \"dur\": 2, \"args\": {\"stream\": 7, \"correlation\": 2, \"bytes\": 64}}\n"
    "]}\n");
  const char *args[] = { "import", "p.json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\nkernel s1 grid=1 block=32 time=5.000us"));
  g_assert_nonnull (strstr (out, "\n# not modelled: cudaMemcpyPeerAsync"));
  g_assert_nonnull (strstr (err, "; 1 calls put GPU work the schedule cannot express (see its "
                                 "\"not modelled\" comments)"));
  temp_dir_remove (dir);
}

/* The makespan `streamsim predict SCHEDULE -d DEVICE --json` prints, ns. */
static gint64
predicted_makespan (const char *dir, const char *schedule, const char *device)
{
  const char *args[] = { "predict", schedule, "-d", device, "--json", "-", "-q", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, &out, NULL), ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  JsonObject *summary = json_node_get_object (json_parser_get_root (parser));
  return json_object_get_int_member (summary, "makespan_ns");
}

/* The PyTorch programs of validate/examples/torch, traced seven times on
 * H100s and four times on H200s (validate/results/h100/torch/MANIFEST.md and
 * h200's):
 * each imported with the profile of its GPU and predicted on it, the
 * makespan within 3% of the wall time the program measured for the traced
 * region (NAME.wall.json, traced_region_s), as issue 39 asks. */
static void
test_torch_traces (void)
{
  static const char *const programs[] = { "two_streams", "matmul_chain", "mlp_train",
                                          "cnn_infer" };
  static const struct { const char *dir, *device; } runs[] = {
    { "h100/torch", "h100" }, { "h200/torch", "h200" }, { "h200/torch/run2", "h200" },
    { "h100/torch/more-runs/0044-a", "h100" }, { "h100/torch/more-runs/0044-b", "h100" },
    { "h100/torch/more-runs/0046-a", "h100" }, { "h100/torch/more-runs/0046-b", "h100" },
    { "h100/torch/more-runs/0049-a", "h100" }, { "h100/torch/more-runs/0049-b", "h100" },
    { "h200/torch/more-runs/0309-a", "h200" }, { "h200/torch/more-runs/0309-b", "h200" },
  };
  g_autofree char *dir = temp_dir_new ("streamsim-import");
  for (guint n = 0; n < G_N_ELEMENTS (runs) * G_N_ELEMENTS (programs); n++)
    {
      guint r = n / G_N_ELEMENTS (programs), i = n % G_N_ELEMENTS (programs);
      g_autofree char *trace = g_strdup_printf (RESULTS_DIR "/%s/%s.trace.json.gz", runs[r].dir,
                                                programs[i]);
      g_autofree char *wall_path = g_strdup_printf (RESULTS_DIR "/%s/%s.wall.json", runs[r].dir,
                                                    programs[i]);
      g_autofree char *schedule = g_strdup_printf ("%s.sched", programs[i]);
      const char *args[] = { "import", trace, "-d", runs[r].device, "-o", schedule, "-q", NULL };
      g_assert_cmpint (cli_run (dir, args, NULL, NULL, NULL), ==, 0);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_assert_true (json_parser_load_from_file (parser, wall_path, NULL));
      double measured = json_object_get_double_member (
        json_node_get_object (json_parser_get_root (parser)), "traced_region_s") * 1e9;
      double predicted = (double) predicted_makespan (dir, schedule, runs[r].device);
      double error = 100.0 * (predicted - measured) / measured;
      if (g_test_verbose ())
        g_printerr ("%s/%s: predicted %.3f ms, measured %.3f ms, %+.2f%%\n", runs[r].dir, programs[i],
                    predicted / 1e6, measured / 1e6, error);
      g_assert_cmpfloat (fabs (error), <=, 3.0);
      g_autofree char *written = g_build_filename (dir, schedule, NULL);
      g_unlink (written);
    }
  temp_dir_remove_empty (dir);
}

/* --timeline: the trace's own times of each op, from the region's start.
 * The trace (us): region 1000-1200; a launch called at 1010 (1 us), its
 * kernel 1012-1112 on stream 7; a stream synchronize 1013-1113. The ops,
 * worked out by hand: host 0-10 us (the region's start to the launch);
 * the kernel, issued at 10, 12-112; host 11-13 (the gap between the two
 * calls, 2 us, the minimum); the sync issued at 13, returned at 113. A
 * name that is no CSV, or both outputs on standard output: exit 2. */
static void
test_timeline (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-import");
  temp_dir_write (dir, "t.json", "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"streamsim_region\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 1000, \"dur\": 200},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 1010, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 1012, "
    "\"dur\": 100, \"args\": {\"stream\": 7, \"correlation\": 1, \"grid\": [1, 1, 1], "
    "\"block\": [32, 1, 1]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaStreamSynchronize\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 1013, \"dur\": 100, \"args\": {\"correlation\": 2}}\n]}\n");
  const char *args[] = { "import", "t.json", "-o", "t.sched", "--timeline", "t.csv", "-q", NULL };
  g_assert_cmpint (cli_run (dir, args, NULL, NULL, NULL), ==, 0);
  g_autofree char *path = g_build_filename (dir, "t.csv", NULL);
  g_autofree char *csv = NULL;
  g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv, "# source: imported\n# trace: t.json\n"));
  /* stream, kind, issue, start and end of each row */
  GString *rows = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "op,"))
        continue;
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (f), >=, 9);
      g_string_append_printf (rows, "%s %s %s %s %s\n", f[2], f[3], f[6], f[7], f[8]);
    }
  g_autofree char *got = g_string_free (rows, FALSE);
  g_assert_cmpstr (got, ==, " host 0 0 10000\ns1 kernel 10000 12000 112000\n host 11000 11000 13000\n"
                            "s1 sync 13000 13000 113000\n");
  const char *png[] = { "import", "t.json", "-o", "u.sched", "--timeline", "t.png", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (dir, png, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--timeline t.png: the name ends in .png"));
  const char *both[] = { "import", "t.json", "--timeline", "-", NULL };
  g_assert_cmpint (cli_run (dir, both, NULL, NULL, NULL), ==, 2);
  g_autofree char *u = g_build_filename (dir, "u.sched", NULL);
  g_assert_false (g_file_test (u, G_FILE_TEST_EXISTS));
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/cli/errors", test_errors);
  g_test_add_func ("/import/cli/not-modelled", test_not_modelled);
  g_test_add_func ("/import/cli/torch-traces", test_torch_traces);
  g_test_add_func ("/import/cli/timeline", test_timeline);
  return g_test_run ();
}
