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
#define PLOT_DEFAULT_HEIGHT 900

typedef struct
{
  guint width, height;   /* pixels (svg: points) */
  gboolean show_streams; /* add one row per stream below the engine rows */
  const char *title;     /* NULL: schedule, device and makespan from the metadata */
  /* NULL, or the op numbers (guint32) of a critical path through the first
   * timeline (prediction_critical_path): their bars and markers get a dark
   * outline, and the legend names it. */
  const GArray *critical_path;
} PlotOptions;

void plot_options_init (PlotOptions *options);

/* Parses "WIDTHxHEIGHT" ("1600x900"); each side 64..20000. */
gboolean plot_parse_size (const char *text, guint *width, guint *height, GError **error);

/* Draws `timeline` as a Gantt chart into `output` (.png or .svg). With `vs`
 * (may be NULL) every row gets two lanes, `timeline` above and `vs` below. */
gboolean plot_timeline_file (const Timeline *timeline, const Timeline *vs,
                             const PlotOptions *options, const char *output,
                             GError **error);

#endif /* PLOT_H */
