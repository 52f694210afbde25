/* fuzz_timeline.c: libFuzzer target for the timeline CSV reader (timeline_read), as compare and plot use it, and for compare's regions over runs. */
#include "fuzz_input.h"
#include "fuzz_printable.h"
#include "sim/formats/timeline.h"
#include "sim/front/compare.h"

/* What `compare T T --regions --runs T` does with a timeline: with itself as
 * the other run, every region of positive length is inside it, once. */
static void
check_regions (const Timeline *timeline)
{
  Compare *cmp = compare_timelines (timeline, timeline, NULL);
  if (cmp == NULL)
    return;
  GError *error = NULL;
  if (compare_find_regions (cmp, &error))
    {
      g_assert (compare_add_run (cmp, timeline, NULL));
      for (gsize i = 0; i < compare_n_regions (cmp); i++)
        {
          const CompareRegion *r = compare_region (cmp, i);
          const CompareRunSpread *spread = compare_region_runs (cmp, i);
          g_assert (spread->shortest <= r->meas && r->meas <= spread->longest);
          g_assert (spread->runs == (r->meas > 0));
          g_assert (compare_region_inside_runs (cmp, i) == (r->meas > 0));
        }
    }
  else
    {
      fuzz_assert_printable (error->message);
      g_clear_error (&error);
    }
  compare_free (cmp);
}

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
      check_regions (timeline);
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
