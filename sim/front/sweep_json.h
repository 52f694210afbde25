/* sweep_json.h: a finished sweep as JSON, for scripts that compare devices or pick a value. */
#ifndef SWEEP_JSON_H
#define SWEEP_JSON_H

#include <glib.h>
#include "sweep.h"

/* After sweep_run():
 *   {"schedule": PATH, "param": NAME, "values": ["1", "2", ...],
 *    "devices": [{"device": NAME, "makespan_ns": [one per value, in order],
 *                 "fastest": {"value": "8", "makespan_ns": N,
 *                             "critical_path_time": [{"part", "ns"}, ...]}},
 *                ...]}
 * Values stay the strings given to -D (they need not be numbers); "fastest"
 * is sweep_fastest(), the first of equal makespans, with its critical
 * path's time as `predict --json` gives it (prediction_json.h). Newly allocated; sets
 * *length when not NULL. */
char *sweep_json_to_data (const Sweep *sweep, const char *schedule_path, gsize *length);

#endif /* SWEEP_JSON_H */
