/* plot.c: a timeline laid out as a Gantt chart (lanes, bars, markers, arrows) for plots/gantt.gp. */
#include "plot.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "cause_link.h"
#include "engine_rows.h"
#include "lanes.h"
#include "stream_colours.h"

/* The legend names at most this many streams: one per colour of gantt.gp's
 * palette (PLOT_PALETTE_SIZE), so the legend shows every colour. */
#define PLOT_LEGEND_MAX PLOT_PALETTE_SIZE

/* Bars whose lengths differ by less than this factor look equal; they show
 * their labels alike (plot_fit_chars). */
#define PLOT_EQUAL_BARS 1.05

/* Record and wait markers have no engine; drawn as ticks on stream rows. */
#define PLOT_MARKER_ENGINE "stream"

/* Dependency arrows help while they can be told apart; past this many the
 * chart draws none. */
#define PLOT_MAX_ARROWS 300

void
plot_options_init (PlotOptions *options)
{
  g_return_if_fail (options != NULL);
  options->width = PLOT_DEFAULT_WIDTH;
  options->height = 0;
  options->show_streams = FALSE;
  options->title = NULL;
  options->critical_path = NULL;
}

guint
plot_chosen_height (double lanes)
{
  double height = PLOT_FRAME_PX + ceil (MAX (lanes, 0) * PLOT_LANE_PX);
  return (guint) CLAMP (height, PLOT_DEFAULT_HEIGHT, PLOT_MAX_CHOSEN_HEIGHT);
}

gboolean
plot_parse_size (const char *text, guint *width, guint *height, GError **error)
{
  g_return_val_if_fail (text != NULL && width != NULL && height != NULL, FALSE);

  guint64 w = 0, h = 0;
  char *rest = NULL;
  const char *x = strchr (text, 'x');
  if (x != NULL && g_ascii_isdigit (text[0]) && g_ascii_isdigit (x[1]))
    {
      w = g_ascii_strtoull (text, &rest, 10);
      if (rest == x)
        h = g_ascii_strtoull (x + 1, &rest, 10);
    }
  if (x == NULL || rest == NULL || *rest != '\0' || w < 64 || w > 20000 || h < 64
      || h > 20000)
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_INPUT,
                   "--size %s: expected WIDTHxHEIGHT in pixels, each 64 to 20000 "
                   "(for example 1600x900)",
                   text);
      return FALSE;
    }
  *width = (guint) w;
  *height = (guint) h;
  return TRUE;
}

/* Text that goes into a tab-separated data file or a gnuplot string: no
 * control characters, so a label can break neither a line nor a field. */
static void
plot_append_clean (GString *out, const char *text, gboolean no_blanks)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      char c = *p;
      if ((unsigned char) c < 0x20 || c == 0x7f)
        c = ' ';
      if (no_blanks && c == ' ')
        c = '_';
      g_string_append_c (out, c);
    }
}

/* ---- The Gantt chart's layout ---- */

/* Where an op was drawn first (its engine row), for dependency arrows. */
typedef struct
{
  double y;
  gboolean placed;
} PlotAnchor;

/* The rows of the chart, top to bottom, written as gnuplot data files:
 *   bars:   start_ns end_ns y_low y_high colour label fit_chars
 *   lanes:  y_low y_high label shade        (one line per labelled group of lanes)
 *   ticks:  x_ns y_low y_high colour        (record and wait markers)
 *   arrows: from_ns from_y to_ns to_y       (cross-stream dependencies)
 *   path:   start_ns end_ns y_low y_high    (outlines of the critical path's ops)
 * y grows downwards (gantt.gp reverses the axis); each lane is one unit high.
 * Colour -1 is an op of no stream (a device-wide sync). fit_chars: the
 * longest label among the bars of its group of lanes that look as long as
 * it does, which gantt.gp fits instead of the bar's own label, so that equal
 * bars show their labels alike. */
typedef struct
{
  GString *bars, *lanes, *ticks, *arrows, *path;
  StreamColours *colours;    /* a colour per stream name (stream_colours.h) */
  GArray *drawn;             /* gboolean per colour: some bar or tick has it */
  PlotAnchor *anchor[2];     /* per timeline, per row */
  GHashTable *op_rows[2];    /* per timeline: rows by op number (timeline_op_rows) */
  gboolean *on_path;         /* per row of the first timeline; NULL: no path given */
  double y;
  double lanes_high; /* ymax: the bottom of the last lane */
  guint group;
  gsize n_bars, n_ticks, n_arrows, n_path;
} PlotLayout;

static gint
plot_colour (PlotLayout *layout, const TimelineRow *row)
{
  return stream_colours_index (layout->colours, row->stream);
}

static gint
plot_drawn_colour (PlotLayout *layout, const TimelineRow *row)
{
  gint colour = plot_colour (layout, row);
  if (colour >= 0)
    g_array_index (layout->drawn, gboolean, colour) = TRUE;
  return colour;
}

static gboolean
plot_is_marker (const TimelineRow *row)
{
  return row->engine != NULL && strcmp (row->engine, PLOT_MARKER_ENGINE) == 0;
}

static void
plot_anchor (PlotLayout *layout, guint set, gsize row, double y)
{
  PlotAnchor *a = &layout->anchor[set][row];
  if (!a->placed)
    {
      a->y = y;
      a->placed = TRUE;
    }
}

/* An op of the critical path is outlined wherever it is drawn (its engine
 * row, and its stream row with --streams); only the first timeline's. */
static void
plot_outline (PlotLayout *layout, guint set, gsize row, SimTime start, SimTime end,
              double y_low, double y_high)
{
  if (set != 0 || layout->on_path == NULL || !layout->on_path[row])
    return;
  g_string_append_printf (layout->path, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%.3f\t%.3f\n",
                          start, end, y_low, y_high);
  layout->n_path++;
}

/* Whether a stream shares its colour with another: the palette repeats
 * past PLOT_PALETTE_SIZE streams. */
static gboolean
plot_colour_shared (const PlotLayout *layout, gint colour)
{
  guint n = stream_colours_n (layout->colours);
  return colour >= 0 && n > PLOT_PALETTE_SIZE
         && (guint) colour % PLOT_PALETTE_SIZE < n - PLOT_PALETTE_SIZE;
}

/* A bar's label: the op's label, else its number; host rows mix syncs and
 * host work, so they say which. An op of a stream whose colour another
 * stream shares names its stream first ("s33: k-33"). */
static void
plot_bar_label (GString *out, const PlotLayout *layout, const TimelineRow *row)
{
  if (plot_colour_shared (layout, stream_colours_index (layout->colours, row->stream)))
    {
      plot_append_clean (out, row->stream, FALSE);
      g_string_append (out, ": ");
    }
  if (row->label != NULL && *row->label != '\0')
    plot_append_clean (out, row->label, FALSE);
  else if (row->engine != NULL && strcmp (row->engine, "host") == 0 && row->kind != NULL)
    {
      plot_append_clean (out, row->kind, FALSE);
      g_string_append_printf (out, " %u", row->op);
    }
  else
    g_string_append_printf (out, "%u", row->op);
}

typedef struct
{
  SimTime length;
  guint chars;
  gsize bar;
} PlotBarSize;

static gint
plot_bar_size_compare (gconstpointer a, gconstpointer b)
{
  const PlotBarSize *x = a, *y = b;
  if (x->length != y->length)
    return x->length < y->length ? -1 : 1;
  return x->bar < y->bar ? -1 : (x->bar > y->bar);
}

/* fit[k] for each of n bars: the most characters of a label among the
 * bars whose length is within PLOT_EQUAL_BARS of bar k's. The bars sorted
 * by length, both ends of that window only move on; the window's maximum
 * comes from a deque of bars of falling label length. */
static void
plot_fit_chars (const SimTime *length, const guint *chars, gsize n, guint *fit)
{
  PlotBarSize *sizes = g_new (PlotBarSize, n);
  for (gsize k = 0; k < n; k++)
    sizes[k] = (PlotBarSize) { MAX (length[k], 0), chars[k], k };
  qsort (sizes, n, sizeof *sizes, plot_bar_size_compare);
  gsize *deque = g_new (gsize, n);
  gsize head = 0, tail = 0, lo = 0, hi = 0;
  for (gsize k = 0; k < n; k++)
    {
      double d = (double) sizes[k].length;
      while (hi < n && (double) sizes[hi].length <= d * PLOT_EQUAL_BARS)
        {
          while (tail > head && sizes[deque[tail - 1]].chars <= sizes[hi].chars)
            tail--;
          deque[tail++] = hi++;
        }
      while ((double) sizes[lo].length * PLOT_EQUAL_BARS < d)
        lo++;
      while (deque[head] < lo)
        head++;
      fit[sizes[k].bar] = sizes[deque[head]].chars;
    }
  g_free (deque);
  g_free (sizes);
}

/* One group of lanes: the rows of one engine (or stream) of one timeline,
 * packed first-fit so that overlapping ops (concurrent kernels) sit in lanes
 * of their own instead of hiding each other. */
static void
plot_layout_lanes (PlotLayout *layout, guint set, const Timeline *timeline, const GArray *rows,
                   const char *label)
{
  gsize n = rows->len;
  SimTime *start = g_new (SimTime, n);
  SimTime *end = g_new (SimTime, n);
  SimTime *length = g_new (SimTime, n);
  guint *lane = g_new0 (guint, n);
  guint *chars = g_new (guint, n);
  guint *fit = g_new (guint, n);
  gsize *bar_row = g_new (gsize, n);
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  gsize n_bars = 0;
  for (gsize k = 0; k < n; k++)
    {
      const TimelineRow *row = timeline_row (timeline, g_array_index (rows, gsize, k));
      if (plot_is_marker (row))
        continue;
      start[n_bars] = row->start;
      end[n_bars] = row->end;
      length[n_bars] = sim_time_max (row->end - row->start, 0);
      GString *text = g_string_new (NULL);
      plot_bar_label (text, layout, row);
      chars[n_bars] = (guint) g_utf8_strlen (text->str, (gssize) text->len);
      g_ptr_array_add (labels, g_string_free (text, FALSE));
      bar_row[n_bars++] = g_array_index (rows, gsize, k);
    }
  guint n_lanes = MAX (lanes_assign (start, end, n_bars, lane), 1);
  plot_fit_chars (length, chars, n_bars, fit);
  double y0 = layout->y;

  for (gsize k = 0; k < n_bars; k++)
    {
      const TimelineRow *row = timeline_row (timeline, bar_row[k]);
      g_string_append_printf (layout->bars,
                              "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%.3f\t%.3f\t%d\t%s\t%u\n",
                              row->start, sim_time_max (row->start, row->end),
                              y0 + lane[k] + 0.1, y0 + lane[k] + 0.9,
                              plot_drawn_colour (layout, row),
                              (const char *) g_ptr_array_index (labels, k), fit[k]);
      plot_outline (layout, set, bar_row[k], row->start, sim_time_max (row->start, row->end),
                    y0 + lane[k] + 0.1, y0 + lane[k] + 0.9);
      plot_anchor (layout, set, bar_row[k], y0 + lane[k] + 0.5);
      layout->n_bars++;
    }
  for (gsize k = 0; k < n; k++)
    {
      gsize index = g_array_index (rows, gsize, k);
      const TimelineRow *row = timeline_row (timeline, index);
      if (!plot_is_marker (row))
        continue;
      g_string_append_printf (layout->ticks, "%" G_GINT64_FORMAT "\t%.3f\t%.3f\t%d\n",
                              row->start, y0 + 0.05, y0 + n_lanes - 0.05,
                              plot_drawn_colour (layout, row));
      plot_outline (layout, set, index, row->start, row->start, y0 + 0.05, y0 + n_lanes - 0.05);
      plot_anchor (layout, set, index, y0 + 0.5 * n_lanes);
      layout->n_ticks++;
    }
  g_string_append_printf (layout->lanes, "%.3f\t%.3f\t", y0, y0 + n_lanes);
  plot_append_clean (layout->lanes, label, FALSE);
  g_string_append_printf (layout->lanes, "\t%u\n", layout->group % 2);
  layout->y = y0 + n_lanes;

  g_free (start);
  g_free (end);
  g_free (length);
  g_free (lane);
  g_free (chars);
  g_free (fit);
  g_free (bar_row);
  g_ptr_array_unref (labels);
}

typedef gboolean (*PlotRowFilter) (const TimelineRow *row, const char *key);

static gboolean
plot_row_on_engine (const TimelineRow *row, const char *engine)
{
  return row->engine != NULL && strcmp (row->engine, engine) == 0;
}

/* With several host threads, each has a row of the host's calls. */
static gboolean
plot_row_on_host_thread (const TimelineRow *row, const char *thread)
{
  return row->thread != NULL && strcmp (row->thread, thread) == 0
         && plot_row_on_engine (row, "host");
}

/* A stream's row shows what its queue did: copies, kernels and the record
 * and wait markers; the host thread's calls (syncs) stay in the host row. */
static gboolean
plot_row_on_stream (const TimelineRow *row, const char *stream)
{
  return row->stream != NULL && strcmp (row->stream, stream) == 0
         && !plot_row_on_engine (row, "host");
}

/* One labelled row of the chart: a group of lanes per timeline. */
static void
plot_layout_group (PlotLayout *layout, const Timeline *const *sets,
                   const char *const *set_names, guint n_sets, PlotRowFilter filter,
                   const char *key, const char *title)
{
  for (guint s = 0; s < n_sets; s++)
    {
      g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (gsize));
      for (gsize i = 0; i < timeline_n_rows (sets[s]); i++)
        if (filter (timeline_row (sets[s], i), key))
          g_array_append_val (rows, i);
      g_autofree char *label = n_sets > 1 ? g_strdup_printf ("%s · %s", title, set_names[s])
                                          : g_strdup (title);
      if (s > 0)
        layout->y += 0.25;
      plot_layout_lanes (layout, s, sets[s], rows, label);
    }
  layout->y += 0.5;
  layout->group++;
}

static gboolean
plot_any_row (const Timeline *const *sets, guint n_sets, PlotRowFilter filter,
              const char *key)
{
  for (guint s = 0; s < n_sets; s++)
    for (gsize i = 0; i < timeline_n_rows (sets[s]); i++)
      if (filter (timeline_row (sets[s], i), key))
        return TRUE;
  return FALSE;
}

/* Arrows for the cross-stream dependencies (cause_link.h) between ops drawn
 * in different lanes: from the end of the op waited for to the start of the
 * op that waited. Same-lane ties (a copy queued behind the one before it)
 * would only be short hooks between touching bars. */
static void
plot_layout_arrows (PlotLayout *layout, guint set, const Timeline *timeline)
{
  gsize n = timeline_n_rows (timeline);
  for (gsize i = 0; i < n; i++)
    {
      const TimelineRow *row = timeline_row (timeline, i);
      guint32 ref_op = 0;
      gsize ref;
      if (cause_link_parse (row->cause, &ref_op) == NULL || ref_op == row->op
          || !timeline_op_row (layout->op_rows[set], ref_op, &ref))
        continue;
      const PlotAnchor *from = &layout->anchor[set][ref], *to = &layout->anchor[set][i];
      if (!from->placed || !to->placed || fabs (from->y - to->y) < 0.5)
        continue;
      /* From the edge of one bar to the facing edge of the other, so the
       * head stays visible. */
      double edge = to->y > from->y ? 0.4 : -0.4;
      const TimelineRow *waited = timeline_row (timeline, ref);
      g_string_append_printf (layout->arrows,
                              "%" G_GINT64_FORMAT "\t%.3f\t%" G_GINT64_FORMAT "\t%.3f\n",
                              sim_time_max (waited->start, waited->end), from->y + edge,
                              row->start, to->y - edge);
      layout->n_arrows++;
    }
}

static void
plot_layout_clear (PlotLayout *layout, guint n_sets)
{
  g_string_free (layout->bars, TRUE);
  g_string_free (layout->lanes, TRUE);
  g_string_free (layout->ticks, TRUE);
  g_string_free (layout->arrows, TRUE);
  g_string_free (layout->path, TRUE);
  g_free (layout->on_path);
  stream_colours_free (layout->colours);
  g_array_unref (layout->drawn);
  for (guint s = 0; s < n_sets; s++)
    {
      g_free (layout->anchor[s]);
      g_hash_table_unref (layout->op_rows[s]);
    }
}

/* What a timeline is called in lane labels: the first word of its
 * "# source:" metadata ("predicted by streamsim 0.1" gives "predicted"),
 * else its file name without the extension. */
static char *
plot_set_name (const Timeline *timeline, const char *fallback)
{
  const char *source = timeline_meta (timeline, "source");
  if (source != NULL && *source != '\0' && *source != ' ')
    {
      g_autofree char *word = g_strndup (source, strcspn (source, " \t"));
      return g_utf8_substring (word, 0, MIN (g_utf8_strlen (word, -1), 24));
    }
  const char *path = timeline_path (timeline);
  if (path == NULL || *path == '\0')
    return g_strdup (fallback);
  char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  return base;
}

static char *
plot_schedule_name (const Timeline *timeline)
{
  const char *schedule = timeline_meta (timeline, "schedule");
  if (schedule != NULL && *schedule != '\0')
    return g_path_get_basename (schedule);
  const char *path = timeline_path (timeline);
  return path != NULL && *path != '\0' ? g_path_get_basename (path) : g_strdup ("timeline");
}

static const char *
plot_device_name (const Timeline *timeline)
{
  const char *device = timeline_meta (timeline, "device");
  return device != NULL && *device != '\0' ? device : "unknown device";
}

static gboolean
plot_write_data (const char *dir, const char *name, const GString *text, char **path,
                 GError **error)
{
  *path = g_build_filename (dir, name, NULL);
  GError *local = NULL;
  if (!g_file_set_contents (*path, text->str, (gssize) text->len, &local))
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* Writes the layout's data files into a fresh temporary folder, runs
 * gantt.gp on them and removes the folder again, whatever happened. */
static gboolean
plot_gantt_run (const PlotLayout *layout, GString *cmd, const PlotOptions *options,
                const char *output, GError **error)
{
  GError *local = NULL;
  char *dir = g_dir_make_tmp ("streamsim-plot-XXXXXX", &local);
  if (dir == NULL)
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  gboolean arrows = layout->n_arrows > 0 && layout->n_arrows <= PLOT_MAX_ARROWS;
  char *paths[5] = { NULL, NULL, NULL, NULL, NULL };
  gboolean ok = plot_write_data (dir, "bars.dat", layout->bars, &paths[0], error)
                && plot_write_data (dir, "lanes.dat", layout->lanes, &paths[1], error)
                && plot_write_data (dir, "ticks.dat", layout->ticks, &paths[2], error)
                && plot_write_data (dir, "arrows.dat", layout->arrows, &paths[3], error)
                && plot_write_data (dir, "path.dat", layout->path, &paths[4], error);
  if (ok)
    {
      plot_var_string (cmd, "bars", paths[0]);
      plot_var_string (cmd, "lanes", paths[1]);
      plot_var_string (cmd, "ticks", layout->n_ticks > 0 ? paths[2] : "");
      plot_var_string (cmd, "arrows", arrows ? paths[3] : "");
      plot_var_string (cmd, "path", layout->n_path > 0 ? paths[4] : "");
      guint height = options->height != 0 ? options->height : plot_chosen_height (layout->lanes_high);
      ok = plot_run_script ("gantt.gp", cmd->str, options->width, height, output,
                            error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      if (paths[i] != NULL)
        g_unlink (paths[i]);
      g_free (paths[i]);
    }
  g_rmdir (dir);
  g_free (dir);
  return ok;
}

gboolean
plot_timeline_file (const Timeline *timeline, const Timeline *vs,
                    const PlotOptions *options, const char *output, GError **error)
{
  g_return_val_if_fail (timeline != NULL && output != NULL, FALSE);

  PlotOptions defaults;
  if (options == NULL)
    {
      plot_options_init (&defaults);
      options = &defaults;
    }
  if (timeline_n_rows (timeline) == 0 && (vs == NULL || timeline_n_rows (vs) == 0))
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_INPUT,
                   "%s: the timeline has no ops to draw",
                   timeline_path (timeline) != NULL ? timeline_path (timeline) : output);
      return FALSE;
    }

  const Timeline *sets[2] = { timeline, vs };
  guint n_sets = vs != NULL ? 2 : 1;
  g_autofree char *name0 = plot_set_name (timeline, "first");
  g_autofree char *name1 = vs != NULL ? plot_set_name (vs, "second") : NULL;
  if (name1 != NULL && strcmp (name0, name1) == 0)
    {
      /* A timeline against itself, or two files of the same name. */
      char *a = g_strdup_printf ("1: %s", name0), *b = g_strdup_printf ("2: %s", name1);
      g_free (name0);
      g_free (name1);
      name0 = a;
      name1 = b;
    }
  const char *set_names[2] = { name0, name1 };

  PlotLayout layout = {
    .bars = g_string_new (NULL),
    .lanes = g_string_new (NULL),
    .ticks = g_string_new (NULL),
    .arrows = g_string_new (NULL),
    .path = g_string_new (NULL),
    .colours = stream_colours_new (sets, n_sets),
  };
  layout.drawn = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_array_set_size (layout.drawn, stream_colours_n (layout.colours));
  for (guint s = 0; s < n_sets; s++)
    {
      layout.anchor[s] = g_new0 (PlotAnchor, timeline_n_rows (sets[s]));
      layout.op_rows[s] = timeline_op_rows (sets[s]);
    }
  if (options->critical_path != NULL)
    {
      layout.on_path = g_new0 (gboolean, timeline_n_rows (timeline));
      for (guint k = 0; k < options->critical_path->len; k++)
        {
          gsize row;
          if (timeline_op_row (layout.op_rows[0],
                               g_array_index (options->critical_path, guint32, k), &row))
            layout.on_path[row] = TRUE;
        }
    }
  gsize n_rows;
  const EngineRow *rows = engine_rows (&n_rows);
  g_autoptr (GPtrArray) threads = engine_rows_host_threads (sets, n_sets);
  for (gsize e = 0; e < n_rows; e++)
    if (threads->len > 0 && strcmp (rows[e].engine, "host") == 0)
      for (guint k = 0; k < threads->len; k++)
        {
          g_autofree char *title = g_strdup_printf ("host thread %s",
                                                    (const char *) g_ptr_array_index (threads, k));
          plot_layout_group (&layout, sets, set_names, n_sets, plot_row_on_host_thread,
                             g_ptr_array_index (threads, k), title);
        }
    else if (plot_any_row (sets, n_sets, plot_row_on_engine, rows[e].engine))
      plot_layout_group (&layout, sets, set_names, n_sets, plot_row_on_engine,
                         rows[e].engine, rows[e].title);
  g_autoptr (GHashTable) known = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize e = 0; e < n_rows; e++)
    g_hash_table_add (known, (gpointer) rows[e].engine);
  g_hash_table_add (known, (gpointer) PLOT_MARKER_ENGINE);
  for (guint s = 0; s < n_sets; s++)
    for (gsize i = 0; i < timeline_n_rows (sets[s]); i++)
      {
        const char *engine = timeline_row (sets[s], i)->engine;
        if (engine == NULL || *engine == '\0' || g_hash_table_contains (known, engine))
          continue;
        g_hash_table_add (known, (gpointer) engine);
        plot_layout_group (&layout, sets, set_names, n_sets, plot_row_on_engine, engine,
                           engine);
      }
  /* Stream rows in colour order, as the legend lists them. */
  if (options->show_streams)
    for (guint k = 0; k < stream_colours_n (layout.colours); k++)
      {
        const char *stream = stream_colours_name (layout.colours, k);
        if (!plot_any_row (sets, n_sets, plot_row_on_stream, stream))
          continue;
        g_autofree char *title = g_strdup_printf ("stream %s", stream);
        plot_layout_group (&layout, sets, set_names, n_sets, plot_row_on_stream, stream,
                           title);
      }
  for (guint s = 0; s < n_sets; s++)
    plot_layout_arrows (&layout, s, sets[s]);
  if (layout.n_bars == 0 && layout.n_ticks == 0)
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_INPUT,
                   "%s: no op ran on an engine, so there is nothing to draw; record and "
                   "wait markers show on stream rows (--streams)",
                   timeline_path (timeline) != NULL ? timeline_path (timeline) : output);
      plot_layout_clear (&layout, n_sets);
      return FALSE;
    }

  /* The legend: the streams drawn, in colour order, at most
   * PLOT_LEGEND_MAX of them; gantt.gp says how many more there are. */
  g_autoptr (GString) legend = g_string_new (NULL);
  g_autoptr (GString) legend_colours = g_string_new (NULL);
  guint n_drawn = 0;
  for (guint k = 0; k < stream_colours_n (layout.colours); k++)
    {
      if (!g_array_index (layout.drawn, gboolean, k))
        continue;
      if (n_drawn++ >= PLOT_LEGEND_MAX)
        continue;
      const char *stream = stream_colours_name (layout.colours, k);
      g_autofree char *name = g_utf8_substring (stream, 0, MIN (g_utf8_strlen (stream, -1), 20));
      if (legend->len > 0)
        {
          g_string_append_c (legend, ' ');
          g_string_append_c (legend_colours, ' ');
        }
      plot_append_clean (legend, name, TRUE);
      g_string_append_printf (legend_colours, "%u", k);
    }

  g_autofree char *schedule = plot_schedule_name (timeline);
  g_autofree char *vs_schedule = vs != NULL ? plot_schedule_name (vs) : NULL;
  g_autoptr (GString) cmd = g_string_new (NULL);
  layout.lanes_high = MAX (layout.y - 0.5, 1.0);
  g_string_append_printf (cmd, "ymax=%.3f;", layout.lanes_high);
  plot_var_string (cmd, "plot_title", options->title != NULL ? options->title : "");
  plot_var_string (cmd, "schedule", schedule);
  plot_var_string (cmd, "device", plot_device_name (timeline));
  plot_var_int (cmd, "makespan_ns", timeline_makespan (timeline));
  plot_var_string (cmd, "set1", name0);
  plot_var_int (cmd, "vs", vs != NULL);
  if (vs != NULL)
    {
      plot_var_string (cmd, "set2", name1);
      plot_var_string (cmd, "vs_schedule", vs_schedule);
      plot_var_string (cmd, "vs_device", plot_device_name (vs));
      plot_var_int (cmd, "vs_makespan_ns", timeline_makespan (vs));
    }
  plot_var_string (cmd, "streams", legend->str);
  plot_var_string (cmd, "stream_colours", legend_colours->str);
  plot_var_int (cmd, "nstreams", n_drawn);

  gboolean ok = plot_gantt_run (&layout, cmd, options, output, error);
  plot_layout_clear (&layout, n_sets);
  return ok;
}
