/* test_gantt.c: what a Gantt chart shows of many streams: a height that grows with the rows, colours fixed by stream name, labels wherever they fit. */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "sim/front/plot.h"
#include "sim/front/stream_colours.h"
#include "sim/formats/timeline.h"
#include "support/picture.h"
#include "support/plot_stub.h"
#include "support/temp_dir.h"



/* A timeline of `n` streams s1..sN, each one H2D copy of 1 us, one after
 * another on the H2D engine, stream by stream in the order of `order` (n
 * stream numbers), labelled "up-K" for stream sK. */
static Timeline *
streams_timeline (const guint *order, guint n)
{
  Timeline *t = timeline_new ("streams.csv");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *stream = g_strdup_printf ("s%u", order[i]);
      g_autofree char *label = g_strdup_printf ("up-%u", order[i]);
      TimelineRow row = { .op = i, .stream = stream, .kind = "h2d", .engine = "h2d", .conn = 0,
                          .start = 1000 * (SimTime) i, .end = 1000 * (SimTime) i + 1000,
                          .label = label };
      timeline_append (t, &row);
    }
  return t;
}

static Timeline *
streams_in_order (guint n)
{
  g_autofree guint *order = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    order[i] = i + 1;
  return streams_timeline (order, n);
}


/* The bars' data as label -> "colour fit_chars", for the first bar of each
 * label (its engine row). */
static GHashTable *
bars_by_label (const char *bars)
{
  GHashTable *by_label = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) lines = g_strsplit (bars, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (*lines[i] == '\0')
        continue;
      g_auto (GStrv) f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 7);
      if (!g_hash_table_contains (by_label, f[5]))
        g_hash_table_insert (by_label, g_strdup (f[5]), g_strdup_printf ("%s %s", f[4], f[6]));
    }
  return by_label;
}

/* The height grows with the rows when --size is not given. 40 streams with
 * --streams: the H2D copy row (one lane: the copies follow each other)
 * ends at 1, then 40 stream rows of one lane, each after half a lane:
 * the lanes end at 1 + 40 * 1.5 = 61, and 150 + 61 * 22 = 1492 pixels.
 * Without --streams the lanes end at 1: the least height, 900. A --size
 * is kept as given. */
static void
test_height_grows (void)
{
  g_assert_cmpuint (plot_chosen_height (61), ==, 1492);
  g_assert_cmpuint (plot_chosen_height (1), ==, 900);
  g_assert_cmpuint (plot_chosen_height (100000), ==, PLOT_MAX_CHOSEN_HEIGHT);
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = streams_in_order (40);
  g_autofree char *dir = temp_dir_new ("test-gantt");
  g_autofree char *png = g_build_filename (dir, "t.png", NULL);
  PlotOptions options;
  plot_options_init (&options);
  options.show_streams = TRUE;
  g_autoptr (GError) error = NULL;
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  g_assert_no_error (error);
  picture_assert_png_size (png, 1600, 1492);

  options.show_streams = FALSE;
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  picture_assert_png_size (png, 1600, 900);

  options.show_streams = TRUE;
  g_assert_true (plot_parse_size ("1600x700", &options.width, &options.height, &error));
  g_assert_true (plot_timeline_file (t, NULL, &options, png, &error));
  picture_assert_png_size (png, 1600, 700);
  temp_dir_remove (dir);
}

/* Natural order: numbers inside names compare as numbers. */
static void
test_natural_order (void)
{
  g_assert_cmpint (stream_name_compare ("s2", "s10"), <, 0);
  g_assert_cmpint (stream_name_compare ("s10", "s2"), >, 0);
  g_assert_cmpint (stream_name_compare ("s2", "s2"), ==, 0);
  g_assert_cmpint (stream_name_compare ("a", "b"), <, 0);
  g_assert_cmpint (stream_name_compare ("s9x", "s10"), <, 0);
  g_assert_cmpint (stream_name_compare ("copy2", "copy10b"), <, 0);
  g_assert_cmpint (stream_name_compare ("s", "s1"), <, 0);
  /* equal as numbers: still a fixed order */
  g_assert_cmpint (stream_name_compare ("s02", "s2"), !=, 0);
  g_assert_cmpint (stream_name_compare ("s02", "s2"), ==, -stream_name_compare ("s2", "s02"));
}

/* A stream's colour is its place in the natural order of the names, the
 * legacy default stream last, whatever order the ops come in and whichever
 * timeline is drawn first: streams s10, s2, s1 appearing in that order get
 * s1 = 0, s2 = 1, s10 = 2 alone, above another timeline, and below one. */
static void
test_colour_by_name (void)
{
  static const guint backwards[] = { 10, 2, 1 };
  static const guint forwards[] = { 1, 2, 10 };
  g_autoptr (Timeline) a = streams_timeline (backwards, 3);
  g_autoptr (Timeline) b = streams_timeline (forwards, 3);
  PlotOptions options;
  plot_options_init (&options);
  const Timeline *firsts[] = { a, a, b };
  const Timeline *seconds[] = { NULL, b, a };
  for (guint k = 0; k < G_N_ELEMENTS (firsts); k++)
    {
      g_autofree char *bars = plot_stub_data_of (firsts[k], seconds[k], &options, "bars");
      g_autoptr (GHashTable) by_label = bars_by_label (bars);
      g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "up-1"), "0 "));
      g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "up-2"), "1 "));
      g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "up-10"), "2 "));
    }

  /* "default" after "s1", although it comes first in the alphabet */
  g_autoptr (Timeline) d = timeline_new ("default.csv");
  TimelineRow rows[] = {
    { .op = 0, .stream = "default", .kind = "h2d", .engine = "h2d", .start = 0, .end = 10,
      .label = "on-default" },
    { .op = 1, .stream = "s1", .kind = "h2d", .engine = "h2d", .start = 10, .end = 20,
      .label = "on-s1" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    timeline_append (d, &rows[i]);
  const Timeline *sets[] = { d };
  g_autoptr (StreamColours) colours = stream_colours_new (sets, 1);
  g_assert_cmpint (stream_colours_index (colours, "s1"), ==, 0);
  g_assert_cmpint (stream_colours_index (colours, "default"), ==, 1);
  g_assert_cmpint (stream_colours_index (colours, ""), ==, -1);
  g_assert_cmpint (stream_colours_index (colours, "nope"), ==, -1);
}

/* 33 streams: colours 0 to 32, and the palette of gantt.gp has 32 distinct
 * colours, so only s33 (colour 32) shares one, with s1 (colour 0): the
 * labels of those two name their stream, the others do not. With 32
 * streams no label names its stream. */
static void
test_palette (void)
{
  g_autofree char *gp = g_build_filename (SRCDIR, "plots", "gantt.gp", NULL);
  g_autofree char *script = NULL;
  g_assert_true (g_file_get_contents (gp, &script, NULL, NULL));
  const char *pal = strstr (script, "array pal[32] = [");
  g_assert_nonnull (pal);
  pal += strlen ("array pal[32] = [");
  g_autofree char *entries = g_strndup (pal, strcspn (pal, "]"));
  g_autoptr (GHashTable) distinct = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (const char *p = strstr (entries, "0x"); p != NULL; p = strstr (p + 2, "0x"))
    g_hash_table_add (distinct, g_ascii_strdown (p, 8));
  g_assert_cmpuint (g_hash_table_size (distinct), ==, PLOT_PALETTE_SIZE);
  g_assert_nonnull (strstr (script, "pal[int(i) % 32 + 1]"));

  PlotOptions options;
  plot_options_init (&options);
  g_autoptr (Timeline) t33 = streams_in_order (33);
  g_autofree char *bars = plot_stub_data_of (t33, NULL, &options, "bars");
  g_autoptr (GHashTable) by_label = bars_by_label (bars);
  g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "s1: up-1"), "0 "));
  g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "s33: up-33"), "32 "));
  g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "up-2"), "1 "));
  g_assert_true (g_str_has_prefix (g_hash_table_lookup (by_label, "up-32"), "31 "));
  g_assert_cmpuint (g_hash_table_size (by_label), ==, 33);

  g_autoptr (Timeline) t32 = streams_in_order (32);
  g_autofree char *bars32 = plot_stub_data_of (t32, NULL, &options, "bars");
  g_assert_null (strstr (bars32, ": up-"));
}

/* Bars that look equally long show their labels alike: each bar is fitted
 * by the longest label among the bars of its row within 5% of its length.
 * By hand, on one H2D row: bar "a" 1000 ns, "abcd" 1040 ns (4% longer),
 * "abcdefgh" 2000 ns, "xy" 2200 ns (10% longer than 2000: apart). So "a"
 * and "abcd" are fitted as 4 characters, "abcdefgh" as 8, "xy" as 2. */
static void
test_equal_bars_fit_alike (void)
{
  g_autoptr (Timeline) t = timeline_new ("fit.csv");
  const struct
  {
    SimTime start, end;
    const char *label;
  } bars[] = { { 0, 1000, "a" }, { 2000, 3040, "abcd" }, { 4000, 6000, "abcdefgh" },
               { 7000, 9200, "xy" } };
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++)
    {
      TimelineRow row = { .op = i, .stream = "s1", .kind = "h2d", .engine = "h2d",
                          .start = bars[i].start, .end = bars[i].end, .label = bars[i].label };
      timeline_append (t, &row);
    }
  PlotOptions options;
  plot_options_init (&options);
  g_autofree char *data = plot_stub_data_of (t, NULL, &options, "bars");
  g_autoptr (GHashTable) by_label = bars_by_label (data);
  g_assert_cmpstr (g_hash_table_lookup (by_label, "a"), ==, "0 4");
  g_assert_cmpstr (g_hash_table_lookup (by_label, "abcd"), ==, "0 4");
  g_assert_cmpstr (g_hash_table_lookup (by_label, "abcdefgh"), ==, "0 8");
  g_assert_cmpstr (g_hash_table_lookup (by_label, "xy"), ==, "0 2");
}

/* The font size gnuplot drew `label` with in an SVG (the font-size of the
 * group holding its <text>), or NULL when it was not drawn. */
static char *
svg_label_size (const char *svg, const char *label)
{
  g_autofree char *text = g_strdup_printf ("<text>%s</text>", label);
  const char *at = strstr (svg, text);
  if (at == NULL)
    return NULL;
  const char *size = g_strrstr_len (svg, at - svg, "font-size=\"");
  g_assert_nonnull (size);
  size += strlen ("font-size=\"");
  return g_strndup (size, strcspn (size, "\""));
}

/* Labels are drawn wherever they fit, in the largest of 10, 8 and 7 points.
 * By hand, in gantt.gp's geometry: 1600 wide, 250 pixels of lane titles,
 * 290 of legend: a plot area of 1060 pixels for 1.02 times the makespan,
 * here 1 ms, so a bar of L ns is L * 1060 / 1020000 pixels; one lane, 780
 * pixels high (900 less 120 of title and axis). A 4-letter label needs
 * 4 * 0.85 * P + 4 pixels at P points: 38 at 10, 31.2 at 8, 27.8 at 7.
 * Bars of 60, 34, 28 and 20 us are 62.4, 35.3, 29.1 and 20.8 pixels: "aaaa"
 * at 10 points, "bbbb" at 8, "cccc" at 7, "dddd" not at all; "e" (100 us,
 * ending at the makespan) at 10. */
static void
test_labels_where_they_fit (void)
{
  if (!picture_need_gnuplot ())
    return;
  g_autoptr (Timeline) t = timeline_new ("labels.csv");
  const struct
  {
    SimTime start, end;
    const char *label;
  } bars[] = { { 0, 60000, "aaaa" }, { 100000, 134000, "bbbb" }, { 200000, 228000, "cccc" },
               { 300000, 320000, "dddd" }, { 900000, 1000000, "e" } };
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++)
    {
      TimelineRow row = { .op = i, .stream = "s1", .kind = "h2d", .engine = "h2d",
                          .start = bars[i].start, .end = bars[i].end, .label = bars[i].label };
      timeline_append (t, &row);
    }
  g_autofree char *dir = temp_dir_new ("test-gantt");
  g_autofree char *svg_path = g_build_filename (dir, "t.svg", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (plot_timeline_file (t, NULL, NULL, svg_path, &error));
  g_assert_no_error (error);
  g_autofree char *svg = NULL;
  g_assert_true (g_file_get_contents (svg_path, &svg, NULL, NULL));
  g_autofree char *a = svg_label_size (svg, "aaaa");
  g_autofree char *b = svg_label_size (svg, "bbbb");
  g_autofree char *c = svg_label_size (svg, "cccc");
  g_autofree char *d = svg_label_size (svg, "dddd");
  g_autofree char *e = svg_label_size (svg, "e");
  g_assert_cmpstr (a, ==, "10.00");
  g_assert_cmpstr (b, ==, "8.00");
  g_assert_cmpstr (c, ==, "7.00");
  g_assert_null (d);
  g_assert_cmpstr (e, ==, "10.00");
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gantt/height-grows-with-rows", test_height_grows);
  g_test_add_func ("/gantt/natural-order", test_natural_order);
  g_test_add_func ("/gantt/colour-by-stream-name", test_colour_by_name);
  g_test_add_func ("/gantt/palette-of-32", test_palette);
  g_test_add_func ("/gantt/equal-bars-fit-alike", test_equal_bars_fit_alike);
  g_test_add_func ("/gantt/labels-where-they-fit", test_labels_where_they_fit);
  return g_test_run ();
}
