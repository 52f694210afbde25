/* val_threads.h: a schedule's host threads (`thread` blocks), each issuing its own ops on a GThread of its own.
 *
 * Thread 0 ("main") is the caller's: its ops are issued on the thread that
 * calls val_threads_run. A SPAWN op starts its thread (g_thread_try_new);
 * the new thread first makes the harness's device current (cudaSetDevice:
 * the runtime's primary context is shared by every thread of the process),
 * then issues its ops in order. A JOIN op is g_thread_join. Threads that no
 * JOIN waited for are joined once main's ops are done, so that when
 * val_threads_run returns nothing it started is running.
 *
 * Every op's issue time (the clock read before its call) and return time
 * (the read after it) are written by the thread that issues the op, each
 * thread with a clock cursor of its own: a SPAWN returns when
 * g_thread_try_new has, a JOIN when g_thread_join has. */
#ifndef VAL_THREADS_H
#define VAL_THREADS_H

#include <glib.h>
#include "sim/core/schedule.h"

/* Issues op `op` (never a SPAWN or JOIN), on the calling thread. */
typedef gboolean (*ValIssueFunc) (gpointer data, gsize op, GError **error);

typedef struct ValThreads ValThreads;

/* Each host thread's ops of `sched`, for runs on device `device`; NULL when
 * the schedule has one thread (its ops are then issued by the caller's own
 * loop, as they always were). */
ValThreads *val_threads_new (const Schedule *sched, int device);
void val_threads_free (ValThreads *threads);

/* Issues every op of the schedule once, each on its own host thread, and
 * sets issued[op] and returned[op]. After an error no thread issues another
 * op; the first error is returned once every thread has ended. */
gboolean val_threads_run (ValThreads *threads, ValIssueFunc issue, gpointer data,
                          SimTime *issued, SimTime *returned, GError **error);

#endif /* VAL_THREADS_H */
