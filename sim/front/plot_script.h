/* plot_script.h: a gnuplot script of plots/ run on data files written beforehand (Gantt charts, sweeps).
 *
 * The C side hands a script file names and a few variables through `gnuplot
 * -e`. The picture type follows the output's extension: ".png" (pngcairo)
 * or ".svg". Output is written to a temporary file beside it and renamed
 * into place, so a failed run never leaves a partial picture. */
#ifndef PLOT_SCRIPT_H
#define PLOT_SCRIPT_H

#include <glib.h>

#define PLOT_ERROR (plot_error_quark ())
GQuark plot_error_quark (void);

typedef enum
{
  PLOT_ERROR_INPUT,   /* nothing to draw, an unknown picture type, a bad size */
  PLOT_ERROR_GNUPLOT, /* gnuplot is missing or failed; the message carries its stderr */
  PLOT_ERROR_IO,      /* a data file or the picture could not be written */
} PlotError;

/* The folder of the .gp scripts: $STREAMSIM_PLOT_DIR, else the installed
 * scripts beside the program (PREFIX/share/streamsim/plots, data_dir.h), else
 * the source tree's plots/ compiled in. */
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

#endif /* PLOT_SCRIPT_H */
