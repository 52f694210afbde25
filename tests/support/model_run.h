/* model_run.h: a schedule text run through the model on a named profile, for whole-schedule tests. */
#ifndef MODEL_RUN_H
#define MODEL_RUN_H

#include "sim/core/gpu_profile.h"
#include "engines/eng_sim.h"
#include "sim/core/schedule.h"

typedef struct
{
  Schedule *sched;
  GpuProfile profile;
  EngSim *sim;
} ModelRun;

/* Parses `text` (named `path` in messages), loads the profile `device` and
 * runs the model; any error fails the calling test. */
ModelRun *model_run_text (const char *device, const char *path, const char *text);
void model_run_free (ModelRun *run);

#endif /* MODEL_RUN_H */
