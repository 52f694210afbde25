/* prediction.h: one `predict` run: parse a schedule, load a profile, run the model, turn results into timeline rows.
 *
 * This is the glue the command line, sweeps and tests share, so that they all
 * predict the same way. */
#ifndef PREDICTION_H
#define PREDICTION_H

#include <glib.h>
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "sim/formats/timeline.h"
#include "engines/eng_sim.h"

typedef struct Prediction Prediction;

/* Whose host costs a prediction runs with: the profile's own, or those of
 * one end of its [spread] (host_spread.h). */
typedef enum
{
  PREDICTION_HOST_OWN = 0,
  PREDICTION_HOST_FAST,
  PREDICTION_HOST_SLOW,
} PredictionHost;

typedef struct
{
  const char *device;          /* profile name or path; NULL: the schedule's `device` */
  guint connections;           /* 0: the schedule's, else the profile's default */
  const char *const *defines;  /* -D name=value, NULL-ended, or NULL */
  guint64 max_ops;             /* 0: SCHEDULE_DEFAULT_MAX_OPS */
  PredictionHost host;         /* an end of the profile's [spread], which it must have */
} PredictionOptions;

/* What prediction_run does before it simulates: parses the schedule into
 * *sched (the caller's to free), loads the profile (options->device, else
 * the schedule's `device`) into *profile (gpu_profile_clear), and gives
 * kernels measured on another GPU a time on this one (kernel_times.h;
 * *carried, if not NULL, receives them: g_array_unref). Errors carry
 * file:line:column. */
gboolean prediction_prepare (const char *schedule_path, const PredictionOptions *options,
                             Schedule **sched, GpuProfile *profile, GArray **carried,
                             GError **error);
/* Parses, loads and simulates. Errors carry file:line:column. */
Prediction *prediction_run (const char *schedule_path, const PredictionOptions *options,
                            GError **error);
/* What prediction_run does after parsing and loading: simulates `sched` on
 * `profile` (copied). Takes ownership of `sched`, which is freed on failure
 * too. For callers that time or build the phases apart (the benchmark). */
Prediction *prediction_run_schedule (Schedule *sched, const GpuProfile *profile,
                                     guint connections, GError **error);
void prediction_free (Prediction *prediction);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Prediction, prediction_free)

const Schedule *prediction_schedule (const Prediction *prediction);
const EngSim *prediction_sim (const Prediction *prediction);
const GpuProfile *prediction_profile (const Prediction *prediction);
SimTime prediction_makespan (const Prediction *prediction);
/* The makespan at the fast and the slow end of the profile's host spread
 * (host_spread.h), indexed by GpuHostEnd; FALSE where the profile gives
 * none. Runs the schedule twice more. */
gboolean prediction_host_spread (const Prediction *prediction, SimTime makespan[2]);
/* The schedule's `elapsed` statement `index` (schedule_elapsed): the end of
 * its second event's record minus that of its first, which is negative
 * when the second completed first, as cudaEventElapsedTime gives it. */
SimTime prediction_elapsed (const Prediction *prediction, guint index);
/* The kernels whose times prediction_run carried from another GPU
 * (KernelTimeCarried, kernel_times.h); NULL for prediction_run_schedule. */
const GArray *prediction_carried_times (const Prediction *prediction);

/* Fills `row` for op `index`. String fields point into the schedule or into
 * `scratch` (for the cause), valid until the next call with that scratch. */
void prediction_row (const Prediction *prediction, gsize index, TimelineRow *row,
                     GString *scratch);

/* How long op `index` waited, as --explain reports it: from its issue to
 * its start (a sync: to its end, since a sync's wait is its run); 0 for an
 * op that waited for nothing (its cause ENG_CAUSE_NONE). */
SimTime prediction_waited (const Prediction *prediction, gsize index);

/* The critical path: from the op that ends last (the latest issued among
 * those ending at the makespan) back along what each op waited for
 * (eng_sim_waited_for) and, from an op that waited for nothing, to the
 * host call whose return let the host issue it (eng_sim_issued_after),
 * up to an op that waited for nothing and was issued after call costs
 * alone. The op indices (guint32), first op first; empty for an empty
 * schedule. */
GArray *prediction_critical_path (const Prediction *prediction);

/* How a critical path's time divides, parts that add up to the makespan:
 * each op of `path` owns the part of its run that no op before it on the
 * path covered, counted to its engine (host work to "host"); what no op's
 * run covers (call costs, submit and dependency latencies, a synchronize's
 * return after what it waited for) goes to `between`. */
typedef struct
{
  SimTime on_engine[ENG_N_ENGINES];
  SimTime between;
} PredictionPathTime;

void prediction_critical_path_time (const Prediction *prediction, const GArray *path,
                                    PredictionPathTime *time);
/* The engines with time on the path, the most first (ties in EngEngine
 * order); returns how many. */
guint prediction_path_time_order (const PredictionPathTime *time, EngEngine order[ENG_N_ENGINES]);
/* The parts in that order, as `predict --critical-path` ends with them:
 * "compute 2 ms, h2d 1 ms, calls and latencies 8 us". Newly allocated. */
char *prediction_path_time_text (const PredictionPathTime *time);

/* prediction_row for op `index` of a critical path, its cause saying why
 * it waited for the op before it: the CSV's cause; for an op that waited
 * for nothing, "host issued it after op J returned and N other calls";
 * behind a kernel that started after it, the CSV's cause and "(op K left
 * the queue after op J, then waited for SMs)". Empty for an op issued
 * after call costs alone (the path's first). */
void prediction_path_row (const Prediction *prediction, gsize index, TimelineRow *row,
                          GString *scratch);

/* What the user should know about how far to trust this prediction, one
 * line each (no newline), NULL-ended; free with g_strfreev. Today: untouched
 * pageable copies on a profile that has not measured them. */
char **prediction_notes (const Prediction *prediction);

/* The "# key: value" metadata of a predicted timeline, NULL-ended pairs;
 * free with g_strfreev. */
char **prediction_meta (const Prediction *prediction);

/* Streams the timeline CSV to `path` ("-" for stdout). */
gboolean prediction_write_csv (const Prediction *prediction, const char *path, GError **error);

/* The whole timeline in memory (for plots and traces). */
Timeline *prediction_timeline (const Prediction *prediction);

/* Busy time per engine (the union of its ops' intervals) and overlaps. */
typedef struct
{
  SimTime makespan;
  SimTime busy[ENG_N_ENGINES];
  SimTime copy_busy;             /* any copy engine busy */
  SimTime copy_compute_overlap;  /* a copy and a kernel running at once */
  SimTime h2d_d2h_overlap;       /* copies in both directions at once */
  SimTime host_blocked;          /* the host waiting in syncs (not counted as busy) */
  guint ops[ENG_N_ENGINES];
  /* Ops by the last thing each waited for (--explain's causes), the time
   * some op waited for it (the union of their waits, prediction_waited, so
   * that waits nested in one another count once and a total is at most the
   * makespan) and the longest wait; [ENG_CAUSE_NONE] counts the ops that
   * waited for nothing. */
  guint waits[ENG_N_CAUSES];
  SimTime waited[ENG_N_CAUSES];
  SimTime longest_wait[ENG_N_CAUSES];
  /* The makespan at the fast and the slow end of the profile's host
   * (prediction_host_spread), once prediction_summarize_spread has run
   * them; has_spread FALSE before that and where the profile gives none. */
  gboolean has_spread;
  SimTime spread[2];
} PredictionSummary;

void prediction_summarize (const Prediction *prediction, PredictionSummary *summary);
/* Adds the makespans at the two ends of the host to a summary: two more
 * runs of the schedule, for the outputs that show them. */
void prediction_summarize_spread (const Prediction *prediction, PredictionSummary *summary);

/* The causes some op waited for (ENG_CAUSE_NONE left out), the longest total
 * wait first, ties in the order of EngCause; returns how many. The text
 * summary and the JSON list them in this order. */
guint prediction_summary_wait_order (const PredictionSummary *summary,
                                     EngCause order[ENG_N_CAUSES]);

#endif /* PREDICTION_H */
