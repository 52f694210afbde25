/* plot_stub.h: a stand-in plots/ folder whose gantt.gp writes its critical-path data, not a picture. */
#ifndef PLOT_STUB_H
#define PLOT_STUB_H

#include <glib.h>

/* A new temporary folder holding a gantt.gp that copies the file named by
 * its `path` variable to `output`, or writes "none\n" when `path` is ''.
 * Point STREAMSIM_PLOT_DIR at it and the "picture" a plot writes is the
 * critical path's outlines as plot.c laid them out. Remove it with
 * plot_stub_remove(). */
char *plot_stub_new (void);
void plot_stub_remove (char *dir);

#endif /* PLOT_STUB_H */
