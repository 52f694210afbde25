/* cli_predict.h: the parts of `streamsim predict` beside its main (cli_predict.c): the listings, and one summary row per device. */
#ifndef CLI_PREDICT_H
#define CLI_PREDICT_H

#include <stdio.h>
#include <glib.h>
#include "prediction.h"

/* Where the text goes, in sections parted by one blank line: none before
 * the first, so that `--critical-path -q` starts with its heading. */
typedef struct
{
  FILE *out;
  gboolean started;
} CliReport;

/* Starts a section: a blank line unless it is the first. */
void cli_report_section (CliReport *report);

/* --explain: every op that waited, or (show not NULL) those whose cause is
 * shown; ops named by number and label (op_name.h), also in the causes. */
void cli_predict_explain (const Prediction *p, const gboolean *show, CliReport *report);

/* --critical-path: the chain of waits `path` that ends at the makespan,
 * first op first, and how its time divides. */
void cli_predict_critical_path (const Prediction *p, const GArray *path, CliReport *report);

/* --check: the results against the model's rules (engines/eng_check.c);
 * violations on standard error. Returns TRUE when every rule holds. */
gboolean cli_predict_check (const Prediction *p, CliReport *report, gboolean quiet);

/* `predict --device a,b,...`: the schedule predicted on each device and
 * one summary row per device (with --check, each checked); the exit status. */
int cli_predict_devices (const char *schedule, const char *const *devices,
                         const PredictionOptions *options, gboolean check, gboolean quiet);

#endif /* CLI_PREDICT_H */
