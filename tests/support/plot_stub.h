/* plot_stub.h: a stand-in plots/ folder whose gantt.gp writes one of its data files (the critical path's by default), not a picture. */
#ifndef PLOT_STUB_H
#define PLOT_STUB_H

#include <glib.h>
#include "sim/front/plot.h"

/* A new temporary folder holding a gantt.gp that copies the file named by
 * its `path` variable to `output`, or writes "none\n" when `path` is ''.
 * Point STREAMSIM_PLOT_DIR at it and the "picture" a plot writes is the
 * critical path's outlines as plot.c laid them out. Remove it with
 * plot_stub_remove(). */
char *plot_stub_new (void);
/* The same for the data file named by the gantt.gp variable `variable`
 * ("bars", "lanes", "ticks", "arrows" or "path"). */
char *plot_stub_new_copying (const char *variable);
void plot_stub_remove (char *dir);

/* Draws `t` (and `vs`, may be NULL) with plot_timeline_file through a stub
 * copying `variable`'s file, and returns what it wrote (newly allocated);
 * fails the test if drawing fails. */
char *plot_stub_data_of (const Timeline *t, const Timeline *vs, const PlotOptions *options,
                         const char *variable);

#endif /* PLOT_STUB_H */
