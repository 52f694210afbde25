/* compare.h: two timelines of one schedule side by side (predicted against measured), op by op.
 *
 * Ops are matched by their index in issue order and checked to come from the
 * same schedule line, so a predicted and a measured CSV of different
 * schedules (or of one schedule with different -D values) are refused rather
 * than compared. Errors are signed, predicted minus measured; percentages are
 * of the measured (reference) makespan. */
#ifndef COMPARE_H
#define COMPARE_H

#include <glib.h>
#include "sim/core/sim_time.h"
#include "sim/formats/timeline.h"

#define COMPARE_ERROR (compare_error_quark ())
GQuark compare_error_quark (void);

typedef enum
{
  COMPARE_ERROR_MISMATCH, /* the timelines do not describe the same ops */
  COMPARE_ERROR_REGION,   /* a label names a region that cannot be */
} CompareError;

/* One op of both timelines. Pointers are into the compared timelines. */
typedef struct
{
  guint32 op;
  guint32 line;
  const char *stream;
  const char *kind;
  const char *engine;
  const char *label; /* the measured row's; NULL when it has none */
  /* the host thread that issued it (the timelines' thread column: the
   * measured one's, else the predicted one's); NULL in timelines of one */
  const char *thread;
  SimTime pred_issue, pred_start, pred_end;
  SimTime meas_issue, meas_start, meas_end;
  SimTime start_error; /* pred_start - meas_start */
  SimTime end_error;   /* pred_end - meas_end */
} CompareOp;

typedef struct Compare Compare;

/* Matches the rows of `predicted` and `measured`, which must stay alive as
 * long as the result. Fails with COMPARE_ERROR_MISMATCH when the op counts
 * differ or an op comes from different lines in the two. */
Compare *compare_timelines (const Timeline *predicted, const Timeline *measured,
                            GError **error);
void compare_free (Compare *cmp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Compare, compare_free)

gsize compare_n_ops (const Compare *cmp);
const CompareOp *compare_op (const Compare *cmp, gsize index);

SimTime compare_predicted_makespan (const Compare *cmp);
SimTime compare_measured_makespan (const Compare *cmp);

/* 100 * (predicted - measured) / measured makespan, signed; a measured
 * makespan of 0 counts as 1 ns. */
double compare_makespan_error (const Compare *cmp);

/* Summaries of |end_error| (or |start_error|) over all ops, as a percentage
 * of the measured makespan: the nearest-rank quantile, so always some op's
 * error (0.5 is the median, the lower middle one for an even count; 1 the
 * largest). 0 when there are no ops. */
double compare_end_error (const Compare *cmp, double quantile);
double compare_start_error (const Compare *cmp, double quantile);

/* The op with the largest |end_error|, or G_MAXSIZE when there is none. */
gsize compare_worst_end (const Compare *cmp);

/* ---- Regions: the intervals a program's host sees the GPU through. ----
 *
 * A recorded makespan is mostly host time that the recording copies
 * exactly; a region is an interval that ends where the host waited for the
 * GPU, so its duration tests the model. Two kinds, each taken in both
 * timelines:
 *   - sync: from the end of one synchronization to the end of the next, in
 *     op order. A synchronization is a `sync` op or a blocking copy to the
 *     host (`memcpy d2h`): the host waits for the GPU in both. Other
 *     blocking copies are not: CUDA's cudaMemcpy returns before a device to
 *     device copy ends, and before a copy from pageable memory to the device
 *     has left its staging buffer.
 *   - elapsed: from the end of one event record to the end of another that
 *     is labelled COMPARE_ELAPSED_LABEL followed by the first one's op
 *     number ("elapsed_from_op12"): the interval the program timed with
 *     cudaEventElapsedTime (streamsim-validate --record writes these labels).
 * A region's error is 100 * (predicted - measured) / measured duration,
 * signed (a measured duration under 1 ns counts as 1 ns). It splits in two
 * parts that add up to it, each of the measured duration: the host's, from
 * the region's start to the call that closes it (the closing op's issue:
 * how much sooner or later the host got there, which the calls' costs and
 * waits on the way decide), and the wait's, the rest (from that call to
 * its end: what the GPU still had to do). */

#define COMPARE_ELAPSED_LABEL "elapsed_from_op"

typedef enum
{
  COMPARE_REGION_SYNC,
  COMPARE_REGION_ELAPSED,
} CompareRegionKind;

typedef struct
{
  CompareRegionKind kind;
  guint32 from_op, to_op;   /* op numbers (the measured timeline's) */
  guint32 pred_from_op, pred_to_op; /* the predicted timeline's: the same but in
                                       compare_by_order */
  SimTime pred, meas;       /* durations */
  SimTime pred_host, meas_host; /* from the start to the closing op's issue */
  double error;             /* percent of meas, signed */
  double host_error;        /* the host's part of it; error - host_error is the wait's */
} CompareRegion;

/* Finds the regions, in the order of their closing op (then their opening
 * one). Fails with COMPARE_ERROR_REGION, naming the op and its line, when an
 * elapsed label is malformed or names no earlier record. */
gboolean compare_find_regions (Compare *cmp, GError **error);
gsize compare_n_regions (const Compare *cmp);
const CompareRegion *compare_region (const Compare *cmp, gsize index);

/* Two timelines of different schedules of one program: recorded or
 * imported on two machines, or on two GPUs, whose host gaps and so ops
 * differ while their synchronizations and timed intervals are the same
 * calls in the same order. No op is matched (compare_n_ops is 0): each
 * timeline's regions are found alone, as compare_find_regions finds them,
 * and the k-th of each kind in one is paired with the k-th of that kind in
 * the other. Fails with COMPARE_ERROR_MISMATCH when a kind has not as many
 * regions in both, COMPARE_ERROR_REGION as compare_find_regions. */
Compare *compare_by_order (const Timeline *predicted, const Timeline *measured, GError **error);

/* The regions whose measured duration is at least `min_meas`. */
gsize compare_n_regions_over (const Compare *cmp, SimTime min_meas);

/* The nearest-rank quantile of |error| over the regions measured at least
 * `min_meas` long (always some region's error; 0.5 is the median, the lower
 * middle one for an even count); 0 when there are none. */
double compare_region_error (const Compare *cmp, double quantile, SimTime min_meas);

/* The region with the largest |error| among those measured at least
 * `min_meas` long, or G_MAXSIZE when there is none. */
gsize compare_worst_region (const Compare *cmp, SimTime min_meas);

/* Other runs of the program whose run the measured timeline is (recorded
 * again, on this machine or another): per region, the lengths the same
 * region measured in them. The same region is the k-th of its kind in each,
 * as compare_by_order pairs them; a run with another number of regions of a
 * kind says nothing of that kind, and one where a region's length is 0 or
 * less (two threads' synchronizations closing it before it opened) nothing
 * of that region. Call after the regions are found (compare_find_regions,
 * compare_by_order; finding them again forgets the runs); fails as
 * compare_find_regions does on the run's labels. `run` need not stay alive. */
gboolean compare_add_run (Compare *cmp, const Timeline *run, GError **error);

typedef struct
{
  SimTime shortest, longest; /* over the measured timeline and the runs that have it */
  guint runs;                /* the added runs that have it */
} CompareRunSpread;

/* Region `index`'s lengths over the runs; NULL when no run was added. */
const CompareRunSpread *compare_region_runs (const Compare *cmp, gsize index);

/* Whether region `index`'s prediction lies within the lengths it measured,
 * in the measured timeline and the runs that have it (FALSE when none has):
 * it misses by no more than the program varies from run to run. */
gboolean compare_region_inside_runs (const Compare *cmp, gsize index);

/* Of the regions measured at least `min_meas` long, those inside their runs. */
gsize compare_n_regions_inside_runs (const Compare *cmp, SimTime min_meas);

/* compare_region_error with each region inside its runs counted as 0. */
double compare_region_error_over_runs (const Compare *cmp, double quantile, SimTime min_meas);

#endif /* COMPARE_H */
