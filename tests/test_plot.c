/* test_plot.c: Gantt charts come out of gnuplot at the requested size, and failures leave no file. */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "sim/front/plot.h"
#include "sim/formats/timeline.h"
#include "support/cli_run.h"
#include "support/picture.h"
#include "support/plot_stub.h"
#include "support/temp_dir.h"



/* The files in a folder, to check that nothing (no temporary) is left. */
static guint
count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  guint n = 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* Two streams, H2D, two overlapping kernels (two compute lanes), D2H, a
 * record marker and a host sync (on `sync_stream`); labels with a blank and
 * a quote. */
static Timeline *
make_fixture_on (const char *sync_stream)
{
  Timeline *t = timeline_new ("fixture.csv");
  timeline_set_meta (t, "schedule", "it's a test.sched");
  timeline_set_meta (t, "device", "c2050");
  const TimelineRow rows[] = {
    { .op = 0, .stream = "s1", .kind = "h2d", .engine = "h2d", .conn = 0, .start = 0, .end = 1000000, .bytes = 4194304 },
    { .op = 1, .stream = "s2", .kind = "h2d", .engine = "h2d", .conn = 0, .start = 1000000, .end = 2000000, .bytes = 4194304 },
    { .op = 2, .stream = "s1", .kind = "kernel", .engine = "compute", .conn = 0, .start = 1000000, .end = 2500000, .grid = 64, .block = 256, .label = "big kernel" },
    { .op = 3, .stream = "s2", .kind = "kernel", .engine = "compute", .conn = 0, .start = 2000000, .end = 3500000, .grid = 64, .block = 256, .label = "it's \"quoted\"\ttab" },
    { .op = 4, .stream = "s1", .kind = "record", .engine = "stream", .conn = -1, .start = 2500000, .end = 2500000 },
    { .op = 5, .stream = "s1", .kind = "d2h", .engine = "d2h", .conn = 0, .start = 3500000, .end = 4500000, .bytes = 4194304, .cause = "deferred completion of op 2" },
    { .op = 6, .stream = "s2", .kind = "d2h", .engine = "d2h", .conn = 0, .start = 4500000, .end = 5500000, .bytes = 4194304 },
    { .op = 7, .stream = sync_stream, .kind = "sync", .engine = "host", .conn = -1, .start = 10000, .end = 5500000 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    timeline_append (t, &rows[i]);
  return t;
}

static Timeline *
make_fixture (void)
{
  return make_fixture_on ("");
}

/* The default width is 1600 and the height is chosen (0); a chart of few
 * rows is 900 high: the fixture's lanes end at 6.5 (H2D copy 1 lane,
 * compute 2, D2H copy 1, host 1, half a lane between groups), 9.5 with
 * the two stream rows, and 150 + 9.5 * 22 = 359 is below 900. */
static void
test_png_default_size (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  PlotOptions options;
  plot_options_init (&options);
  g_assert_cmpuint (options.width, ==, 1600);
  g_assert_cmpuint (options.height, ==, 0);
  g_autoptr (GError) error = NULL;
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  g_assert_no_error (error);
  picture_assert_png_size (png, 1600, 900);

  options.show_streams = TRUE;
  options.title = "streams 'quoted' title";
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  g_assert_no_error (error);
  picture_assert_png_size (png, 1600, 900);
  g_assert_cmpuint (count_files (dir), ==, 1);
  temp_dir_remove (dir);
}

static void
test_png_custom_size (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *png = g_build_filename (dir, "small.PNG", NULL);
  PlotOptions options;
  plot_options_init (&options);
  g_autoptr (GError) error = NULL;
  g_assert_true (plot_parse_size ("800x500", &options.width, &options.height, &error));
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  g_assert_no_error (error);
  picture_assert_png_size (png, 800, 500);
  temp_dir_remove (dir);
}

/* A timeline against itself: every row gets two lanes; the picture is made
 * at the requested size. */
static void
test_vs_self (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *png = g_build_filename (dir, "vs.png", NULL);
  PlotOptions options;
  plot_options_init (&options);
  options.show_streams = TRUE;
  g_autoptr (GError) error = NULL;
  g_assert_true (plot_timeline_file (t, t, &options, png, &error));
  g_assert_no_error (error);
  picture_assert_png_size (png, 1600, 900);
  temp_dir_remove (dir);
}

/* ".svg" picks gnuplot's svg terminal: the file is an SVG document of the
 * requested width. */
static void
test_svg (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *svg = g_build_filename (dir, "t.svg", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (plot_timeline_file (t, NULL, NULL, svg, &error));
  g_assert_no_error (error);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<svg"));
  g_assert_nonnull (strstr (text, "width=\"1600\""));
  g_assert_nonnull (strstr (text, "big kernel"));
  temp_dir_remove (dir);
}

/* 64 streams and 10,000 ops, kernels four deep: still one picture of the
 * requested size, in reasonable time (data files, not one object per bar). */
static void
test_many_ops (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = timeline_new ("many.csv");
  static const char *const engines[] = { "h2d", "compute", "d2h" };
  for (guint i = 0; i < 10000; i++)
    {
      g_autofree char *stream = g_strdup_printf ("stream%u", i % 64);
      const char *engine = engines[i % 3];
      SimTime start = strcmp (engine, "compute") == 0 ? 250 * (SimTime) i : 300 * (SimTime) i;
      TimelineRow row = { .op = i, .stream = stream, .kind = engine, .engine = engine,
                          .conn = -1, .start = start,
                          .end = start + (strcmp (engine, "compute") == 0 ? 2800 : 280) };
      timeline_append (t, &row);
    }
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *png = g_build_filename (dir, "many.png", NULL);
  PlotOptions options;
  plot_options_init (&options);
  options.show_streams = TRUE;
  options.height = 900;
  g_autoptr (GError) error = NULL;
  gint64 begin = g_get_monotonic_time ();
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  g_assert_no_error (error);
  double seconds = (double) (g_get_monotonic_time () - begin) / 1e6;
  g_test_message ("64 streams, 10000 ops drawn in %.2f s", seconds);
  g_assert_cmpfloat (seconds, <, 60.0);
  picture_assert_png_size (png, 1600, 900);
  temp_dir_remove (dir);
}

/* User errors: an unknown picture type, an empty timeline, one with
 * nothing on an engine, a bad size. None writes a file. */
static void
test_input_errors (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  g_autoptr (Timeline) empty = timeline_new ("empty.csv");
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *jpg = g_build_filename (dir, "t.jpg", NULL);
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_false (plot_timeline_file (t, NULL, NULL, jpg, &error));
  g_assert_error (error, PLOT_ERROR, PLOT_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, ".png or .svg"));
  g_clear_error (&error);
  g_assert_false (plot_timeline_file (empty, NULL, NULL, png, &error));
  g_assert_error (error, PLOT_ERROR, PLOT_ERROR_INPUT);
  g_clear_error (&error);
  /* Only markers: nothing on an engine row. */
  g_autoptr (Timeline) markers = timeline_new ("markers.csv");
  TimelineRow record = { .op = 0, .stream = "s1", .kind = "record", .engine = "stream",
                         .conn = -1, .start = 5, .end = 5 };
  timeline_append (markers, &record);
  g_assert_false (plot_timeline_file (markers, NULL, NULL, png, &error));
  g_assert_error (error, PLOT_ERROR, PLOT_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "--streams"));
  g_clear_error (&error);
  g_assert_cmpuint (count_files (dir), ==, 0);

  guint w = 0, h = 0;
  g_assert_true (plot_parse_size ("1600x900", &w, &h, NULL));
  g_assert_cmpuint (w, ==, 1600);
  g_assert_cmpuint (h, ==, 900);
  static const char *const bad[] = { "1600", "x900", "1600x", "16x900", "1600x900x2",
                                     "1600 x 900", "99999x900", "-5x900" };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (plot_parse_size (bad[i], &w, &h, &error));
      g_assert_error (error, PLOT_ERROR, PLOT_ERROR_INPUT);
      g_assert_nonnull (strstr (error->message, "WIDTHxHEIGHT"));
      g_clear_error (&error);
    }
  temp_dir_remove (dir);
}

/* gnuplot missing: a clear error, no picture and no temporary left. */
static void
test_gnuplot_missing (void)
{
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  g_setenv ("STREAMSIM_GNUPLOT", "streamsim-test-no-such-gnuplot", TRUE);
  g_autoptr (GError) error = NULL;
  gboolean ok = plot_timeline_file (t, NULL, NULL, png, &error);
  g_unsetenv ("STREAMSIM_GNUPLOT");
  g_assert_false (ok);
  g_assert_error (error, PLOT_ERROR, PLOT_ERROR_GNUPLOT);
  g_assert_nonnull (strstr (error->message, "gnuplot not found"));
  g_assert_cmpuint (count_files (dir), ==, 0);
  temp_dir_remove (dir);
}

/* gnuplot failing (a broken script): the error carries gnuplot's own
 * message; no picture, no temporary; an old picture stays as it was. */
static void
test_gnuplot_fails (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = make_fixture ();
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *scripts = g_dir_make_tmp ("test-plot-scripts-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (scripts, "gantt.gp", NULL);
  g_assert_true (g_file_set_contents (script,
                                      "set terminal pngcairo size width,height\n"
                                      "set output output\n"
                                      "plot no_such_function(x)\n",
                                      -1, NULL));
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  g_assert_true (g_file_set_contents (png, "old", -1, NULL));
  g_setenv ("STREAMSIM_PLOT_DIR", scripts, TRUE);
  g_autoptr (GError) error = NULL;
  gboolean ok = plot_timeline_file (t, NULL, NULL, png, &error);
  g_unsetenv ("STREAMSIM_PLOT_DIR");
  g_assert_false (ok);
  g_assert_error (error, PLOT_ERROR, PLOT_ERROR_GNUPLOT);
  g_assert_nonnull (strstr (error->message, "gnuplot failed"));
  g_assert_nonnull (strstr (error->message, "no_such_function"));
  g_assert_cmpuint (count_files (dir), ==, 1);
  g_autofree char *old = NULL;
  g_assert_true (g_file_get_contents (png, &old, NULL, NULL));
  g_assert_cmpstr (old, ==, "old");
  temp_dir_remove (dir);
  temp_dir_remove (scripts);
}


/* The critical path's outlines, or "none". */
static char *
path_data_of (const Timeline *t, const PlotOptions *options)
{
  return plot_stub_data_of (t, NULL, options, "path");
}

/* The critical path's outlines, worked out by hand on the fixture (lanes
 * one unit high, bars from lane + 0.1 to lane + 0.9, half a unit between
 * groups): H2D copy lanes [0, 1) (ops 0 and 1 only touch), compute [1.5,
 * 3.5) (ops 2 and 3 overlap: two lanes), D2H copy [4, 5), host thread
 * [5.5, 6.5). Path 0, 2, 5, 7 outlines op 0 at 0.1-0.9, op 2 in the first
 * compute lane at 1.6-2.4, op 5 at 4.1-4.9 and the sync at 5.6-6.4, in the
 * order the rows are drawn. With --streams, stream s1's row [7, 8) repeats
 * ops 0, 2 and 5 (one lane: they do not overlap) and, for op 4 on the
 * path, its record marker's tick from 7.05 to 7.95 at 2.5 ms. */
static void
test_critical_path_outlines (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = make_fixture ();
  PlotOptions options;
  plot_options_init (&options);
  g_autofree char *none = path_data_of (t, &options);
  g_assert_cmpstr (none, ==, "none\n");

  static const guint32 ops[] = { 0, 2, 5, 7 };
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (path, ops, G_N_ELEMENTS (ops));
  options.critical_path = path;
  g_autofree char *engines = path_data_of (t, &options);
  /* ops 0, 2, 5 and 7 on their engine rows */
#define ENGINE_ROW_OUTLINES                                                                   \
  "0\t1000000\t0.100\t0.900\n"                                                               \
  "1000000\t2500000\t1.600\t2.400\n"                                                         \
  "3500000\t4500000\t4.100\t4.900\n"                                                         \
  "10000\t5500000\t5.600\t6.400\n"
  g_assert_cmpstr (engines, ==, ENGINE_ROW_OUTLINES);

  guint32 record = 4;
  g_array_append_val (path, record);
  options.show_streams = TRUE;
  g_autofree char *streams = path_data_of (t, &options);
  g_assert_cmpstr (streams, ==,
                   ENGINE_ROW_OUTLINES
                   "0\t1000000\t7.100\t7.900\n"
                   "1000000\t2500000\t7.100\t7.900\n"
                   "3500000\t4500000\t7.100\t7.900\n"
                   "2500000\t2500000\t7.050\t7.950\n");
#undef ENGINE_ROW_OUTLINES
}

/* Host calls of several host threads: a row for each thread, titled with
 * its name, where one thread's calls are the host row's. */
static void
test_host_threads (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = timeline_new ("threads.csv");
  TimelineRow rows[] = {
    { .op = 0, .line = 1, .stream = "s1", .kind = "kernel", .engine = "compute", .conn = 0,
      .start = 0, .end = 1000000, .grid = 1, .block = 32 },
    { .op = 1, .line = 2, .stream = "", .kind = "sync", .engine = "host", .conn = -1,
      .start = 0, .end = 1000000, .thread = "main" },
    { .op = 2, .line = 4, .stream = "", .kind = "host", .engine = "host", .conn = -1,
      .start = 100000, .end = 900000, .thread = "w1" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    timeline_append (t, &rows[i]);
  PlotOptions options;
  plot_options_init (&options);
  g_autofree char *lanes = plot_stub_data_of (t, NULL, &options, "lanes");
  g_assert_nonnull (strstr (lanes, "host thread main"));
  g_assert_nonnull (strstr (lanes, "host thread w1"));
  /* lanes.dat: y_low, y_high, label, shade, tab-separated */
  g_assert_null (strstr (lanes, "\thost thread\t"));
}

/* Strings reach gnuplot quoted: a quote is doubled, control characters
 * become blanks, integers are plain. */
static void
test_vars (void)
{
  g_autoptr (GString) cmd = g_string_new (NULL);
  plot_var_string (cmd, "a", "it's\nx");
  plot_var_int (cmd, "n", -42);
  plot_var_string (cmd, "e", NULL);
  g_assert_cmpstr (cmd->str, ==, "a='it''s x';n=-42;e='';");
}

/* `streamsim plot` on a CSV: a PNG of --size, a --vs overlay, --chrome
 * alone (no picture then), and exit 2 for an unknown picture type. */
static void
test_cli (void)
{
  if (!picture_need_gnuplot ())
    return;
  /* timeline_read wants a stream in every row, so the sync names one here. */
  g_autoptr (Timeline) t = make_fixture_on ("default");
  g_autofree char *dir = temp_dir_new ("test-plot");
  g_autofree char *csv = g_build_filename (dir, "t.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (timeline_write (t, csv, &error));
  g_assert_no_error (error);

  g_autofree char *png = g_build_filename (dir, "out.png", NULL);
  const char *plot[] = { "plot", csv, "-o", png, "--streams", "--size", "1000x600", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (NULL, plot, NULL, NULL, &err), ==, 0);
  picture_assert_png_size (png, 1000, 600);

  g_autofree char *vs = g_build_filename (dir, "vs.png", NULL);
  const char *overlay[] = { "plot", csv, "--vs", csv, "-o", vs, NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (NULL, overlay, NULL, NULL, &err), ==, 0);
  picture_assert_png_size (vs, 1600, 900);

  g_autofree char *json = g_build_filename (dir, "t.json", NULL);
  g_autofree char *default_png = g_build_filename (dir, "t.png", NULL);
  const char *chrome[] = { "plot", csv, "--chrome", json, NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (NULL, chrome, NULL, NULL, &err), ==, 0);
  g_assert_true (g_file_test (json, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (default_png, G_FILE_TEST_EXISTS));

  const char *plain[] = { "plot", csv, NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (NULL, plain, NULL, NULL, &err), ==, 0);
  picture_assert_png_size (default_png, 1600, 900);

  g_autofree char *gif = g_build_filename (dir, "t.gif", NULL);
  const char *bad[] = { "plot", csv, "-o", gif, NULL };
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (NULL, bad, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, ".png or .svg"));
  g_assert_false (g_file_test (gif, G_FILE_TEST_EXISTS));
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/png-default-size", test_png_default_size);
  g_test_add_func ("/plot/png-custom-size", test_png_custom_size);
  g_test_add_func ("/plot/vs-self", test_vs_self);
  g_test_add_func ("/plot/svg", test_svg);
  g_test_add_func ("/plot/many-ops", test_many_ops);
  g_test_add_func ("/plot/input-errors", test_input_errors);
  g_test_add_func ("/plot/gnuplot-missing", test_gnuplot_missing);
  g_test_add_func ("/plot/gnuplot-fails", test_gnuplot_fails);
  g_test_add_func ("/plot/vars", test_vars);
  g_test_add_func ("/plot/host-threads", test_host_threads);
  g_test_add_func ("/plot/critical-path-outlines", test_critical_path_outlines);
  g_test_add_func ("/plot/cli", test_cli);
  return g_test_run ();
}
