/* sweep.h: predict one schedule over a grid of parameter values times devices, and plot makespan.
 *
 * A sweep is given as the -D options of `streamsim sweep`: exactly one of them
 * lists several values (the swept parameter), the others fix a value. Values
 * are a comma list ("1,2,4,8"), an integer range ("1..64": every integer) or
 * a geometric range ("1..64*2": 1, 2, 4, ..., 64). Every point is predicted
 * the way `streamsim predict` does it (prediction.h). */
#ifndef SWEEP_H
#define SWEEP_H

#include <glib.h>
#include "plot.h"
#include "prediction.h"
#include "sim/core/sim_time.h"

/* The most points one swept parameter may have. */
#define SWEEP_MAX_VALUES 10000

typedef struct Sweep Sweep;

/* Expands one value list. Sets *geometric when a geometric range was used
 * (the plot then has a log x axis). Errors are G_OPTION_ERROR_BAD_VALUE and
 * name `name`. Returns a NULL-ended list. */
char **sweep_expand_values (const char *name, const char *text, gboolean *geometric,
                            GError **error);

/* `defines`: NULL-ended "name=values" strings. `devices`: NULL-ended profile
 * names or paths (an entry may itself be a comma list), or NULL for the
 * schedule's own `device`. */
Sweep *sweep_new (const char *const *defines, const char *const *devices, GError **error);
void sweep_free (Sweep *sweep);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sweep, sweep_free)

const char *sweep_param (const Sweep *sweep);
guint sweep_n_values (const Sweep *sweep);
const char *sweep_value (const Sweep *sweep, guint index);
gboolean sweep_is_geometric (const Sweep *sweep);
guint sweep_n_devices (const Sweep *sweep);
/* A device's name; before sweep_run() the schedule's own device is NULL. */
const char *sweep_device (const Sweep *sweep, guint index);

/* The -D list for one value of the swept parameter: the fixed defines and
 * "param=value", NULL-ended. */
char **sweep_defines (const Sweep *sweep, guint value);

/* Predicts every value on every device, `jobs` points at a time on as many
 * threads (0: one per processor; 1: all on this thread). `connections`
 * 0: the schedule's or the profile's default. Fails with the error of the
 * first point, in value-then-device order, that fails (file:line:column for
 * the schedule), as predicting the points one by one would; the results
 * are the same for any `jobs`. */
gboolean sweep_run (Sweep *sweep, const char *schedule_path, guint connections, guint jobs,
                    GError **error);

/* After sweep_run(): what each device's prediction says of its own
 * trust (prediction_notes; each names its profile), NULL-ended; owned by
 * the sweep. */
const char *const *sweep_notes (const Sweep *sweep);

/* After sweep_run(). */
SimTime sweep_makespan (const Sweep *sweep, guint value, guint device);
/* How that point's critical path divides by engine (prediction.h). */
const PredictionPathTime *sweep_path_time (const Sweep *sweep, guint value, guint device);
/* The index of the value with the shortest makespan on `device`, the first
 * of several equal ones (after sweep_run()). */
guint sweep_fastest (const Sweep *sweep, guint device);

/* CSV with the header param,device,makespan_ns and one row per point, value
 * by value, devices in the order given; written through a temporary file. */
gboolean sweep_write_csv (const Sweep *sweep, const char *path, GError **error);

/* A line plot of makespan against the parameter, one line per device, drawn
 * by plots/sweep.gp. `options` may be NULL (its title and size are used). */
gboolean sweep_plot (const Sweep *sweep, const char *schedule_path,
                     const PlotOptions *options, const char *output, GError **error);

#endif /* SWEEP_H */
