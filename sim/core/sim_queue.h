/* sim_queue.h: the discrete-event core, one queue of timed events in (time, sequence) order.
 *
 * The core knows nothing of GPUs. A model schedules events (a callback and a
 * pointer) at simulated times; sim_queue_run() runs them in order of time and
 * calls them. Events at the same time run in the order they were scheduled
 * (a sequence number breaks ties), so a run is deterministic.
 *
 * Besides plain events the queue holds two kinds of event a model keeps
 * itself, both ordered with the rest by the same (time, sequence) key:
 * ordered sources (many events of a regular shape, handed over one at a time)
 * and timers (an event pending at most once). And it holds steps: work an
 * event leaves for the same instant, run once that event has returned, as
 * Redis's ae.c runs beforesleep (sim_queue_post). */
#ifndef SIM_QUEUE_H
#define SIM_QUEUE_H

#include <glib.h>
#include "sim_time.h"

typedef struct SimQueue SimQueue;

/* Called when an event fires; `now` is its time. `arg` and `tag` are what was
 * passed to sim_queue_schedule(). */
typedef void (*SimEventFunc) (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

SimQueue *sim_queue_new (void);
/* Frees the queue with its sources and timers. */
void sim_queue_free (SimQueue *queue);

/* Schedules func(arg, tag) at `when`, which must not lie in the past. */
void sim_queue_schedule (SimQueue *queue, SimTime when, SimEventFunc func,
                         gpointer arg, guint64 tag);

/* The time of the event being run, or of the last one run. */
SimTime sim_queue_now (const SimQueue *queue);

/* Runs events until none is left. Returns the number of events run. */
guint64 sim_queue_run (SimQueue *queue);

/* Plain events waiting to run (sources' events and timers not counted). */
gsize sim_queue_pending (const SimQueue *queue);

/* ---- Steps ----
 *
 * A step is work at the current instant that an event (or a step) leaves
 * for after it returns, instead of calling it: func(queue, now, arg, tag)
 * runs once the caller is done, before any later event, so that no part of
 * a model runs while another is half-way through a change. The steps a step
 * posts run next, in the order posted, before the steps posted earlier by
 * others: depth first, the order the same calls made directly would have
 * had. Steps take no sequence number. */
void sim_queue_post (SimQueue *queue, SimEventFunc func, gpointer arg, guint64 tag);
/* How many steps wait: a caller compares it before and after a call to
 * learn whether the call posted any. */
gsize sim_queue_steps (const SimQueue *queue);

/* Takes `n` consecutive sequence numbers, as n calls to sim_queue_schedule()
 * would; returns the first. */
guint64 sim_queue_take_seq (SimQueue *queue, guint64 n);

/* ---- Ordered sources ----
 *
 * A model with many events of a regular shape (one kernel's block groups,
 * which end in the order they were dispatched) keeps them in a structure of
 * its own and hands the queue only the earliest. It takes each event's
 * sequence number from sim_queue_take_seq() at the moment it would have
 * called sim_queue_schedule(), and tells the queue the key (time, sequence)
 * of its earliest event; sim_queue_run() calls the source's function when
 * that key comes before every other event, exactly where the event would
 * have run had it been scheduled. What the source buys is the freedom to
 * run several of its events at once when nothing else comes between them
 * (sim_queue_peek_other says until when). */
typedef struct SimSource SimSource;
typedef void (*SimSourceFunc) (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

/* A source with no event yet; the queue owns it. */
SimSource *sim_queue_source_new (SimQueue *queue, SimSourceFunc func, gpointer arg,
                                 guint64 tag);
/* The source's earliest event (not in the past); `when` SIM_TIME_NEVER: it
 * has none. */
void sim_queue_source_next (SimSource *source, SimTime when, guint64 seq);
/* The key of the earliest event of the queue that is not `source`'s (NULL:
 * of any); FALSE when there is none. */
gboolean sim_queue_peek_other (const SimQueue *queue, const SimSource *source,
                               SimTime *when, guint64 *seq);

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
