/* val_threads.c: a schedule's host threads, each issuing its ops on a GThread (see val_threads.h). */
#include "val_threads.h"
#include "val_cuda.h"

/* One host thread: its ops in issue order and, while it runs, its GThread. */
typedef struct
{
  ValThreads *all;
  gsize *ops;
  gsize n_ops;
  GThread *handle; /* under all->lock: set by its SPAWN, taken by its JOIN */
} HostThread;

struct ValThreads
{
  const Schedule *sched;
  int device;
  guint n_threads;
  HostThread *threads;
  /* One run's arguments: set before its first SPAWN, only read during it. */
  ValIssueFunc issue;
  gpointer data;
  SimTime *issued, *returned;
  GMutex lock;   /* the threads' handles and the error */
  GError *error; /* the run's first error */
  gint failed;   /* atomic: set once any thread has failed */
};

ValThreads *
val_threads_new (const Schedule *sched, int device)
{
  g_return_val_if_fail (sched != NULL, NULL);
  guint n = schedule_n_threads (sched);
  if (n <= 1)
    return NULL;
  ValThreads *all = g_new0 (ValThreads, 1);
  all->sched = sched;
  all->device = device;
  all->n_threads = n;
  all->threads = g_new0 (HostThread, n);
  gsize n_ops = schedule_n_ops (sched);
  for (gsize i = 0; i < n_ops; i++)
    all->threads[schedule_op_thread (sched, i)].n_ops++;
  for (guint k = 0; k < n; k++)
    {
      all->threads[k].all = all;
      all->threads[k].ops = g_new (gsize, MAX (all->threads[k].n_ops, 1));
      all->threads[k].n_ops = 0;
    }
  for (gsize i = 0; i < n_ops; i++)
    {
      HostThread *th = &all->threads[schedule_op_thread (sched, i)];
      th->ops[th->n_ops++] = i;
    }
  g_mutex_init (&all->lock);
  return all;
}

void
val_threads_free (ValThreads *all)
{
  if (all == NULL)
    return;
  for (guint k = 0; k < all->n_threads; k++)
    g_free (all->threads[k].ops);
  g_free (all->threads);
  g_mutex_clear (&all->lock);
  g_free (all);
}

/* Keeps the run's first error (taking `error`); every thread stops issuing. */
static void
fail (ValThreads *all, GError *error)
{
  g_atomic_int_set (&all->failed, TRUE);
  g_mutex_lock (&all->lock);
  if (all->error == NULL)
    {
      all->error = error;
      error = NULL;
    }
  g_mutex_unlock (&all->lock);
  g_clear_error (&error);
}

static GThread *
take_handle (ValThreads *all, guint thread)
{
  g_mutex_lock (&all->lock);
  GThread *handle = all->threads[thread].handle;
  all->threads[thread].handle = NULL;
  g_mutex_unlock (&all->lock);
  return handle;
}

static gpointer thread_body (gpointer data);

static gboolean
spawn (ValThreads *all, const SchedOp *op, GError **error)
{
  HostThread *th = &all->threads[op->u.thread];
  const char *name = schedule_thread_name (all->sched, op->u.thread);
  GThread *handle = g_thread_try_new (name, thread_body, th, error);
  if (handle == NULL)
    {
      g_prefix_error (error, "%s:%u:%u: cannot start host thread %s: ", schedule_path (all->sched),
                      op->line, op->column, name);
      return FALSE;
    }
  g_mutex_lock (&all->lock);
  th->handle = handle;
  g_mutex_unlock (&all->lock);
  return TRUE;
}

/* The parser lets a thread be joined only once, after its start in the
 * joining thread's order: a missing handle is the harness's error. */
static gboolean
join (ValThreads *all, const SchedOp *op, GError **error)
{
  GThread *handle = take_handle (all, op->u.thread);
  if (handle == NULL)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_SCHEDULE,
                   "%s:%u:%u: join %s: the thread is not running (not started, or joined already)",
                   schedule_path (all->sched), op->line, op->column,
                   schedule_thread_name (all->sched, op->u.thread));
      return FALSE;
    }
  g_thread_join (handle);
  return TRUE;
}

/* The thread's ops in order, one clock read between two calls as in the
 * one-thread loop (val_run.c): that read is the earlier op's return and the
 * next op's issue. */
static void
issue_ops (HostThread *th)
{
  ValThreads *all = th->all;
  GError *error = NULL;
  gboolean ok = TRUE;
  SimTime now = val_cuda_now ();
  for (gsize k = 0; k < th->n_ops && ok && !g_atomic_int_get (&all->failed); k++)
    {
      gsize i = th->ops[k];
      const SchedOp *op = schedule_op (all->sched, i);
      all->issued[i] = now;
      if (op->kind == SCHED_OP_SPAWN)
        ok = spawn (all, op, &error);
      else if (op->kind == SCHED_OP_JOIN)
        ok = join (all, op, &error);
      else
        ok = all->issue (all->data, i, &error);
      now = val_cuda_now ();
      all->returned[i] = now;
    }
  if (!ok)
    fail (all, error);
}

/* A started thread: the device current on it first, outside its ops' times. */
static gpointer
thread_body (gpointer data)
{
  HostThread *th = data;
  GError *error = NULL;
  if (VAL_CUDA (cudaSetDevice (th->all->device), &error))
    issue_ops (th);
  else
    fail (th->all, error);
  return NULL;
}

gboolean
val_threads_run (ValThreads *all, ValIssueFunc issue, gpointer data, SimTime *issued,
                 SimTime *returned, GError **error)
{
  g_return_val_if_fail (all != NULL && issue != NULL, FALSE);
  all->issue = issue;
  all->data = data;
  all->issued = issued;
  all->returned = returned;
  g_atomic_int_set (&all->failed, FALSE);

  issue_ops (&all->threads[0]);
  /* The threads no JOIN waited for. A thread is numbered after the one
   * that starts it, so once the threads before it have ended, whatever
   * SPAWN would start it has run. */
  for (guint k = 1; k < all->n_threads; k++)
    {
      GThread *handle = take_handle (all, k);
      if (handle != NULL)
        g_thread_join (handle);
    }

  g_mutex_lock (&all->lock);
  GError *first = all->error;
  all->error = NULL;
  g_mutex_unlock (&all->lock);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}
