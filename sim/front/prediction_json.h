/* prediction_json.h: a prediction's summary as JSON, for scripts that run streamsim in a loop.
 *
 * The numbers `predict` prints as text, in whole nanoseconds, under stable
 * names:
 *
 *   {"source": "predicted by streamsim 0.1.0", "schedule": "a.sched",
 *    "device": "k20", "connections": 8, "ops": 9, "makespan_ns": 4123062,
 *    "engines": [{"engine": "h2d", "ops": 3, "busy_ns": 2127153,
 *                 "utilization": 0.516}, ...],
 *    "copy_busy_ns": ..., "copy_compute_overlap_ns": ...,
 *    "h2d_d2h_overlap_ns": ..., "host_blocked_ns": ...,
 *    "waits": [{"cause": "stream", "ops": 4, "total_ns": ...,
 *               "longest_ns": ...}, ...],
 *    "critical_path": [{"op": 0, "issue_ns": ..., "start_ns": ...,
 *                       "end_ns": ..., "cause": ""}, ...],
 *    "critical_path_time": [...], "notes": ["a.sched:4:1: note: ...", ...]}
 *
 * "engines" lists the engines that ran an op, in the text summary's order;
 * "utilization" is busy time over the makespan (0 to 1). "waits" adds up
 * the causes, the longest total first (prediction_summary_wait_order);
 * "critical_path" is prediction_critical_path, first op first, each with
 * the CSV's cause text; "notes" are prediction_notes, most often none. Every other op's times and cause are the timeline
 * CSV's (--csv), not repeated here. */
#ifndef PREDICTION_JSON_H
#define PREDICTION_JSON_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "prediction.h"

/* The JSON text of `prediction` and its `summary` (prediction_summarize,
 * which the caller has often made already for the text summary), newly
 * allocated, ending in a line break; sets *length when not NULL. `path` is
 * its prediction_critical_path, and `notes` its prediction_notes (both
 * found once by the caller, which often needs them for other outputs
 * too). */
char *prediction_json_to_data (const Prediction *prediction, const PredictionSummary *summary,
                               const GArray *path, const char *const *notes, gsize *length);

/* Adds `time` as "critical_path_time"'s value: [{"part": "compute", "ns":
 * ...}, ...], the engines in prediction_path_time_order, then {"part":
 * "between", ...}. For the sweep's JSON too. */
void prediction_json_add_path_time (JsonBuilder *builder, const PredictionPathTime *time);

#endif /* PREDICTION_JSON_H */
