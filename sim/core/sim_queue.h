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

/* Events waiting to run in the heap (a source's own events and timers not
 * counted). */
gsize sim_queue_pending (const SimQueue *queue);

/* ---- Events a model orders itself ----
 *
 * A model with many events of a regular shape (the kernel engine's block
 * groups: each kernel's end in the order they were dispatched) may keep them
 * in structures of its own instead of the heap. It takes each such event's
 * sequence number from sim_queue_take_seq() at the moment it would have
 * called sim_queue_schedule(), and tells the queue the key (time, sequence)
 * of its earliest one; sim_queue_run() then calls `func` whenever that key
 * comes before every event of the heap, exactly where the event would have
 * run had it been scheduled. One source per queue. */
typedef void (*SimSourceFunc) (SimQueue *queue, SimTime now, gpointer arg);

void sim_queue_set_source (SimQueue *queue, SimSourceFunc func, gpointer arg);
/* The source's earliest event; `when` SIM_TIME_NEVER: it has none. */
void sim_queue_source_next (SimQueue *queue, SimTime when, guint64 seq);
/* Takes `n` consecutive sequence numbers, as n calls to sim_queue_schedule()
 * would; returns the first. */
guint64 sim_queue_take_seq (SimQueue *queue, guint64 n);
/* The key of the earliest event of the heap and the timers (the source's
 * not counted); FALSE when there is none. */
gboolean sim_queue_peek (const SimQueue *queue, SimTime *when, guint64 *seq);

/* ---- Timers ----
 *
 * An event that is pending at most once at a time, such as a thread's next
 * step or the end of what a server runs: setting the timer again replaces the
 * pending firing (a model would otherwise schedule a new event and ignore
 * the old one when it pops). Timers are kept out of the heap, in a few
 * slots the run loop compares, so setting and firing one costs no heap
 * traffic. sim_queue_timer_set() takes a sequence number as
 * sim_queue_schedule() would, so a timer fires exactly where the same event
 * scheduled would run. At most SIM_QUEUE_MAX_TIMERS per queue; freed with
 * it. */
#define SIM_QUEUE_MAX_TIMERS 8

typedef struct SimTimer SimTimer;

SimTimer *sim_queue_timer_new (SimQueue *queue, SimEventFunc func, gpointer arg);
/* Fires func(arg, tag) at `when` (not in the past), instead of any pending
 * firing. */
void sim_queue_timer_set (SimTimer *timer, SimTime when, guint64 tag);
/* Takes back the pending firing, if any; takes no sequence number, so the
 * events around it keep their order. */
void sim_queue_timer_stop (SimTimer *timer);
/* Whether the timer is set and has not fired yet. */
gboolean sim_queue_timer_pending (const SimTimer *timer);

#endif /* SIM_QUEUE_H */
