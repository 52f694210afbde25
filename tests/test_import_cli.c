/* test_import_cli.c: `streamsim import` as a user runs it: outputs, exit statuses, and the committed PyTorch traces predicted against their measured wall times. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "support/cli_run.h"
#include "support/temp_dir.h"

#define TORCH_DIR SRCDIR "/validate/results/h100/torch"

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

/* The makespan `streamsim predict SCHEDULE -d h100 --json` prints, ns. */
static gint64
predicted_makespan (const char *dir, const char *schedule)
{
  const char *args[] = { "predict", schedule, "-d", "h100", "--json", "-", "-q", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, &out, NULL), ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  JsonObject *summary = json_node_get_object (json_parser_get_root (parser));
  return json_object_get_int_member (summary, "makespan_ns");
}

/* The PyTorch programs of validate/examples/torch, traced on an H100
 * (validate/results/h100/torch/MANIFEST.md): each imported with the h100
 * profile and predicted on it, the makespan within 3% of the wall time the
 * program measured for the traced region (NAME.wall.json, traced_region_s),
 * as issue 39 asks. */
static void
test_torch_traces (void)
{
  static const char *const programs[] = { "two_streams", "matmul_chain", "mlp_train",
                                          "cnn_infer" };
  g_autofree char *dir = temp_dir_new ("streamsim-import");
  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    {
      g_autofree char *trace = g_strdup_printf (TORCH_DIR "/%s.trace.json.gz", programs[i]);
      g_autofree char *wall_path = g_strdup_printf (TORCH_DIR "/%s.wall.json", programs[i]);
      g_autofree char *schedule = g_strdup_printf ("%s.sched", programs[i]);
      const char *args[] = { "import", trace, "-d", "h100", "-o", schedule, "-q", NULL };
      g_assert_cmpint (cli_run (dir, args, NULL, NULL, NULL), ==, 0);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_assert_true (json_parser_load_from_file (parser, wall_path, NULL));
      double measured = json_object_get_double_member (
        json_node_get_object (json_parser_get_root (parser)), "traced_region_s") * 1e9;
      double predicted = (double) predicted_makespan (dir, schedule);
      double error = 100.0 * (predicted - measured) / measured;
      if (g_test_verbose ())
        g_printerr ("%s: predicted %.3f ms, measured %.3f ms, %+.2f%%\n", programs[i],
                    predicted / 1e6, measured / 1e6, error);
      g_assert_cmpfloat (fabs (error), <=, 3.0);
      g_autofree char *written = g_build_filename (dir, schedule, NULL);
      g_unlink (written);
    }
  temp_dir_remove_empty (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/cli/errors", test_errors);
  g_test_add_func ("/import/cli/not-modelled", test_not_modelled);
  g_test_add_func ("/import/cli/torch-traces", test_torch_traces);
  return g_test_run ();
}
