/* sim_queue.h: the discrete-event core, a priority queue of timed events.
 *
 * The core knows nothing of GPUs. A model schedules events (a callback and a
 * pointer) at simulated times; sim_queue_run() pops them in order of time and
 * calls them. Events at the same time run in the order they were scheduled
 * (a sequence number breaks ties), so a run is deterministic. */
#ifndef SIM_QUEUE_H
#define SIM_QUEUE_H

#include <glib.h>
#include "sim_time.h"

typedef struct SimQueue SimQueue;

/* Called when an event fires; `now` is its time. `arg` and `tag` are what was
 * passed to sim_queue_schedule(). */
typedef void (*SimEventFunc) (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

SimQueue *sim_queue_new (void);
void sim_queue_free (SimQueue *queue);

/* Schedules func(arg, tag) at `when`, which must not lie in the past. */
void sim_queue_schedule (SimQueue *queue, SimTime when, SimEventFunc func,
                         gpointer arg, guint64 tag);

/* The time of the event being run, or of the last one run. */
SimTime sim_queue_now (const SimQueue *queue);

/* Runs events until none is left. Returns the number of events run. */
guint64 sim_queue_run (SimQueue *queue);

/* Events waiting to run. */
gsize sim_queue_pending (const SimQueue *queue);

#endif /* SIM_QUEUE_H */
