/* val_run.h: performing a schedule on the GPU with the real CUDA calls, and timing every op.
 *
 * A ValRun holds what the schedule needs for as many repeats as asked:
 * streams created once in file order (the harness creates its own helper
 * stream last, so that it cannot change what the schedule's streams get),
 * the schedule's events, device and host buffers (one of the largest size
 * per kind, shared by every copy of that kind), a timing slot per kernel,
 * and timing events for the events mode. Each repeat issues the ops in file
 * order from this thread, or, for a schedule of several host threads, each
 * thread's ops in order from a thread of its own (val_threads.h), and puts
 * every time on the host clock. */
#ifndef VAL_RUN_H
#define VAL_RUN_H

#include <glib.h>
#include "sim/core/schedule.h"
#include "val_device.h"

/* One repeat's times, host clock, absolute (not yet from the origin).
 * Times the repeat could not see are -1 (an uninstrumented repeat has no
 * copy, record or wait times). */
typedef struct
{
  SimTime *issue; /* the host began the op's API call */
  SimTime *start;
  SimTime *end;
  SimTime done;   /* cudaDeviceSynchronize after the last op returned */
} ValTimes;

typedef struct ValRun ValRun;

/* How copies (and through them records and waits) are timed. */
typedef enum
{
  VAL_TIMING_NONE,   /* kernels and host calls only: the program as it would run */
  VAL_TIMING_CUPTI,  /* CUPTI's memcpy records: nothing added to the streams */
  VAL_TIMING_EVENTS, /* timing events before and after each copy, after each record and wait */
} ValTiming;

const char *val_timing_name (ValTiming timing);

/* Prepares the schedule for this device. `names` (NULL-ended, most specific
 * first) select kernels' `time=` entries. Fails with a file:line:column
 * message when a kernel does not fit this GPU or has no time for it. */
ValRun *val_run_new (const Schedule *sched, const ValDevice *dev, const char *const *names,
                     GError **error);
/* Loads CUPTI for VAL_TIMING_CUPTI; FALSE (and why) when it is not there. */
gboolean val_run_use_cupti (ValRun *run, GError **error);
/* Stops CUPTI tracing for the rest of the process (runs that compare
 * against an untraced program); VAL_TIMING_CUPTI is not allowed after. */
gboolean val_run_stop_cupti (ValRun *run, GError **error);
/* The libcupti in use, or NULL. */
const char *val_run_cupti_library (const ValRun *run);
void val_run_free (ValRun *run);

/* Performs the schedule once. Kernels always time themselves; copies as
 * `timing` says. With CUPTI or no timing, a record's time is derived: it
 * completes when the work before it in its stream has (or when issued, if
 * that is later), and a wait when that and the record it waits for have;
 * a copy's start is CUPTI's, which is when the copy engine began it.
 * Every host thread the repeat started has ended before its final
 * synchronize. */
gboolean val_run_once (ValRun *run, ValTiming timing, ValTimes *times, GError **error);

ValTimes *val_times_new (gsize n_ops);
void val_times_free (ValTimes *times);

/* The block time each kernel op was given (ns; 0 for other ops) and the waves
 * it makes on this GPU, for the CSV's metadata and the report. */
SimTime val_run_block_time (const ValRun *run, gsize op);
guint val_run_waves (const ValRun *run, gsize op);

/* Clock-tie windows of the last repeat (see val_clock.h), ns. */
SimTime val_run_clock_window (const ValRun *run);

#endif /* VAL_RUN_H */
