/* model_run.c: parse, load a profile and simulate, asserting that each step succeeds. */
#include <string.h>
#include "model_run.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/schedule_parse.h"
#include "sim/core/schedule_device.h"

ModelRun *
model_run_text (const char *device, const char *path, const char *text)
{
  ModelRun *run = g_new0 (ModelRun, 1);
  g_autoptr (GError) error = NULL;
  ScheduleParseOptions options = { NULL, 0 };
  run->sched = schedule_parse_text (path, text, strlen (text), &options, &error);
  g_assert_no_error (error);
  g_assert_true (profile_load (device, &run->profile, &error));
  g_assert_no_error (error);
  g_assert_true (schedule_select_device (run->sched, (const char *const *) run->profile.names, &error));
  run->sim = eng_sim_new (&run->profile, run->sched, 0, &error);
  g_assert_no_error (error);
  eng_sim_run (run->sim);
  return run;
}

void
model_run_free (ModelRun *run)
{
  if (run == NULL)
    return;
  eng_sim_free (run->sim);
  gpu_profile_clear (&run->profile);
  schedule_free (run->sched);
  g_free (run);
}
