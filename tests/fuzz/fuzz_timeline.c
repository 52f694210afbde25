/* fuzz_timeline.c: libFuzzer target for the timeline CSV reader (timeline_read), as compare and plot use it. */
#include "fuzz_input.h"
#include "fuzz_printable.h"
#include "sim/formats/timeline.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *path = fuzz_input_write (data, size, ".csv");
  GError *error = NULL;
  Timeline *timeline = timeline_read (path, &error);
  if (timeline != NULL)
    {
      g_assert (error == NULL);
      SimTime makespan = 0;
      for (gsize i = 0; i < timeline_n_rows (timeline); i++)
        {
          const TimelineRow *row = timeline_row (timeline, i);
          g_assert (row->start <= row->end);
          g_assert (row->stream != NULL && row->kind != NULL && row->engine != NULL);
          makespan = MAX (makespan, row->end);
        }
      g_assert (timeline_makespan (timeline) == makespan);
      (void) timeline_meta (timeline, "device");
      timeline_free (timeline);
    }
  else
    {
      g_assert (error != NULL);
      /* Parse errors start with the file's path and a line and column. */
      if (error->code == TIMELINE_ERROR_PARSE)
        {
          g_assert (fuzz_is_about (error->message, path));
          fuzz_assert_printable (error->message);
        }
      g_clear_error (&error);
    }
  return 0;
}
