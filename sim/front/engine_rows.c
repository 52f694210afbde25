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

GPtrArray *
engine_rows_host_threads (const Timeline *const *sets, guint n_sets)
{
  GPtrArray *threads = g_ptr_array_new ();
  for (guint s = 0; s < n_sets; s++)
    for (gsize i = 0; i < timeline_n_rows (sets[s]); i++)
      {
        const char *thread = timeline_row (sets[s], i)->thread;
        if (thread != NULL && !g_ptr_array_find_with_equal_func (threads, thread, g_str_equal, NULL))
          g_ptr_array_add (threads, (gpointer) thread);
      }
  return threads;
}

const EngineRow *
engine_rows (gsize *n)
{
  *n = G_N_ELEMENTS (rows);
  return rows;
}
