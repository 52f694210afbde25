/* engine_rows.h: a timeline's engines as pictures show them: in the order data flows, with the names people use. */
#ifndef ENGINE_ROWS_H
#define ENGINE_ROWS_H

#include <glib.h>
#include "sim/formats/timeline.h"

typedef struct
{
  const char *engine; /* the CSV's `engine` value */
  const char *title;  /* what a Gantt row or a Perfetto track is called */
} EngineRow;

/* Top to bottom: H2D copy (or the single copy engine), compute, D2H copy,
 * D2D, host thread. Engines a newer CSV adds are not listed; callers give
 * them rows of their own below these. Sets *n. */
const EngineRow *engine_rows (gsize *n);

/* The host threads whose calls the timelines' rows name (TimelineRow.thread),
 * in the order their calls first appear: each gets a host row of its own
 * ("host thread NAME"); empty for timelines of one thread. The names are
 * the timelines'. */
GPtrArray *engine_rows_host_threads (const Timeline *const *sets, guint n_sets);

#endif /* ENGINE_ROWS_H */
