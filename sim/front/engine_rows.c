/* engine_rows.c: the engine rows shared by the Gantt chart (plot.c) and the Perfetto trace (chrome_trace.c). */
#include "engine_rows.h"

static const EngineRow rows[] = {
  { "h2d", "H2D copy" },
  { "copy", "copy engine" },
  { "compute", "compute" },
  { "d2h", "D2H copy" },
  { "d2d", "D2D copy" },
  { "host", "host thread" },
  { "callback", "host functions" },
};

const EngineRow *
engine_rows (gsize *n)
{
  *n = G_N_ELEMENTS (rows);
  return rows;
}
