/* plot.h: timelines drawn as Gantt charts by plots/gantt.gp.
 *
 * All styling lives in the script. This side lays out the data (which lane
 * each bar goes in, where the arrows run) and writes it to data files that
 * plot_script.h hands to gnuplot. */
#ifndef PLOT_H
#define PLOT_H

#include <glib.h>
#include "plot_script.h"
#include "sim/formats/timeline.h"

#define PLOT_DEFAULT_WIDTH 1600
/* The height of a sweep plot, and the least height of a Gantt chart whose
 * height is chosen to fit its rows. */
#define PLOT_DEFAULT_HEIGHT 900
/* A chosen height gives each lane of a Gantt chart this many pixels, room
 * for a label in gantt.gp's largest bar font, besides PLOT_FRAME_PX for the
 * title and the time axis (gantt.gp's top and bottom margins); at most
 * PLOT_MAX_CHOSEN_HEIGHT, past which lanes get less. */
#define PLOT_LANE_PX 22
#define PLOT_FRAME_PX 150
#define PLOT_MAX_CHOSEN_HEIGHT 16000
/* gantt.gp's palette: this many streams get colours of their own; past
 * them colours repeat, and each bar's label names its stream. */
#define PLOT_PALETTE_SIZE 32

typedef struct
{
  guint width;           /* pixels (svg: points) */
  guint height;          /* 0: chosen to fit the rows (plot_chosen_height) */
  gboolean show_streams; /* add one row per stream below the engine rows */
  const char *title;     /* NULL: schedule, device and makespan from the metadata */
  /* NULL, or the op numbers (guint32) of a critical path through the first
   * timeline (prediction_critical_path): their bars and markers get a dark
   * outline, and the legend names it. */
  const GArray *critical_path;
} PlotOptions;

void plot_options_init (PlotOptions *options);

/* The height of a Gantt chart of `lanes` lanes (gantt.gp's ymax): each
 * lane PLOT_LANE_PX pixels and PLOT_FRAME_PX around them, at least
 * PLOT_DEFAULT_HEIGHT and at most PLOT_MAX_CHOSEN_HEIGHT. */
guint plot_chosen_height (double lanes);

/* Parses "WIDTHxHEIGHT" ("1600x900"); each side 64..20000. */
gboolean plot_parse_size (const char *text, guint *width, guint *height, GError **error);

/* Draws `timeline` as a Gantt chart into `output` (.png or .svg). With `vs`
 * (may be NULL) every row gets two lanes, `timeline` above and `vs` below. */
gboolean plot_timeline_file (const Timeline *timeline, const Timeline *vs,
                             const PlotOptions *options, const char *output,
                             GError **error);

#endif /* PLOT_H */
