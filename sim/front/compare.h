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
} CompareError;

/* One op of both timelines. Pointers are into the compared timelines. */
typedef struct
{
  guint32 op;
  guint32 line;
  const char *stream;
  const char *kind;
  SimTime pred_start, pred_end;
  SimTime meas_start, meas_end;
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

#endif /* COMPARE_H */
