/* plot.h: pictures drawn by gnuplot from data files this module writes (Gantt charts, line plots).
 *
 * All styling lives in the scripts under plots/ (gantt.gp, sweep.gp). The C
 * side lays out the data (which row each bar goes in) and hands the scripts
 * file names and a few variables through `gnuplot -e`. The picture type
 * follows the output's extension: ".png" (pngcairo) or ".svg". Output is
 * written to a temporary file beside it and renamed into place, so a failed
 * run never leaves a partial picture. */
#ifndef PLOT_H
#define PLOT_H

#include <glib.h>
#include "timeline.h"

#define PLOT_ERROR (plot_error_quark ())
GQuark plot_error_quark (void);

typedef enum
{
  PLOT_ERROR_INPUT,   /* nothing to draw, an unknown picture type, a bad size */
  PLOT_ERROR_GNUPLOT, /* gnuplot is missing or failed; the message carries its stderr */
  PLOT_ERROR_IO,      /* a data file or the picture could not be written */
} PlotError;

#define PLOT_DEFAULT_WIDTH 1600
#define PLOT_DEFAULT_HEIGHT 900

typedef struct
{
  guint width, height;   /* pixels (svg: points) */
  gboolean show_streams; /* add one row per stream below the engine rows */
  const char *title;     /* NULL: schedule, device and makespan from the metadata */
} PlotOptions;

void plot_options_init (PlotOptions *options);

/* Parses "WIDTHxHEIGHT" ("1600x900"); each side 64..20000. */
gboolean plot_parse_size (const char *text, guint *width, guint *height, GError **error);

/* Draws `timeline` as a Gantt chart into `output` (.png or .svg). With `vs`
 * (may be NULL) every row gets two lanes, `timeline` above and `vs` below. */
gboolean plot_timeline_file (const Timeline *timeline, const Timeline *vs,
                             const PlotOptions *options, const char *output,
                             GError **error);

/* ---- Running a script of plots/ (used by the sweep) ---- */

/* The folder of the .gp scripts: $STREAMSIM_PLOT_DIR, else the source tree's
 * plots/ compiled in. */
const char *plot_script_dir (void);

/* Appends `name='value';` to a gnuplot command line, quoting the value as a
 * gnuplot string (control characters become blanks). */
void plot_var_string (GString *commands, const char *name, const char *value);
/* Appends `name=value;` for an integer. */
void plot_var_int (GString *commands, const char *name, gint64 value);

/* Checks that `output` names a picture type plot_run_script() can write
 * (.png or .svg), so a long run can refuse a bad name before it starts. */
gboolean plot_check_output (const char *output, GError **error);

/* Runs `gnuplot -d -e "COMMANDS term=...; output=...; width=...; height=..."
 * plots/SCRIPT`, where output is a temporary file renamed to `output` once
 * gnuplot succeeded. The gnuplot program is $STREAMSIM_GNUPLOT or "gnuplot"
 * on PATH. */
gboolean plot_run_script (const char *script, const char *commands, guint width,
                          guint height, const char *output, GError **error);

#endif /* PLOT_H */
