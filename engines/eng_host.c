/* eng_host.c: the host threads: each issues its calls in order, paying each call's cost, blocking where CUDA blocks.
 *
 * A host thread issues one call per event: at time t it makes call i, which
 * holds the thread for the call's cost from the profile; the op reaches its
 * device queue after that cost plus the device-side submit latency (launch
 * latency for kernels). Calls that block (cudaMemcpy, pageable
 * cudaMemcpyAsync, the synchronize calls) park the thread until their
 * condition holds; the completion of the op waited for resumes it. A `poll`
 * parks it too, as a loop of queries whose first after that completion is
 * its last.
 *
 * Most schedules have one thread, which issues every op in order. A
 * schedule with `thread` blocks (schedule.h) has more: the thread that
 * reaches a block's SPAWN op starts the block's thread and goes on; `join`
 * parks the caller until the joined thread has made its last call (the
 * profile's thread_* costs: thread_call). Threads share the streams and the device and do not wait for each
 * other's calls. `sync device` waits for what every thread had issued when
 * it was called. */
#include "eng_host.h"
#include "eng_deps.h"
#include "eng_op.h"

typedef struct
{
  guint32 *ops;           /* its ops in order; NULL: the one thread, every op */
  gsize n_ops;
  gsize next;             /* the next of them to issue */
  guint32 wait_op;        /* blocking op the thread waits on, or ENG_NONE */
  guint wait_count;       /* ops still to signal before it may go on */
  gboolean wait_all;      /* sync device, one thread: every op issued */
  SimTime wait_since;
  GArray *waits;          /* several threads: the ops it waits for (guint32) */
  gboolean ended;
  gboolean called;        /* it has made a call that puts work on the GPU */
  guint32 joiner;         /* the thread parked in `join` for this one, or ENG_NONE */
} EngThread;

struct EngHost
{
  EngThread *threads;
  guint n_threads;
  SimTimer *step;         /* thread 0's next call; the others' are plain events */
  gboolean spawned;       /* a thread has been started (the first costs more) */
  gsize outstanding;      /* device ops issued and not signaled */
  GpuPool pool;           /* the default memory pool (`malloc`, `free`) */
  guint32 last_signaled;  /* most recent op whose completion the host could see */
};

static void host_step_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

static void
schedule_host (EngSim *sim, guint thread, SimTime when)
{
  if (thread == 0)
    {
      g_assert (!sim_queue_timer_pending (sim->host->step)); /* one call at a time */
      sim_queue_timer_set (sim->host->step, when, 0);
    }
  else
    sim_queue_schedule (sim->events, when, host_step_event, sim, thread);
}

static gboolean
several (const EngSim *sim)
{
  return sim->host->n_threads > 1;
}

/* The thread waits for one op; TRUE if it is already complete. */
static gboolean
wait_for (EngSim *sim, EngThread *t, guint32 op)
{
  if (op == ENG_NONE || (sim->ops[op].flags & ENG_OP_SIGNALED))
    return TRUE;
  if (several (sim))
    {
      /* two threads may wait for one op: each keeps its own list */
      for (guint i = 0; i < t->waits->len; i++)
        if (g_array_index (t->waits, guint32, i) == op)
          return FALSE;
      g_array_append_val (t->waits, op);
      t->wait_count++;
    }
  else if (!(sim->ops[op].flags & ENG_OP_HOST_WAITED))
    {
      sim->ops[op].flags |= ENG_OP_HOST_WAITED;
      t->wait_count++;
    }
  return FALSE;
}

static void
resume (EngSim *sim, guint thread, SimTime now)
{
  EngHost *h = sim->host;
  EngThread *t = &h->threads[thread];
  guint32 op = t->wait_op;
  const SchedOp *sop = eng_sop (sim, op);
  EngOpResult *r = &sim->results[op];
  t->wait_op = ENG_NONE;
  t->wait_all = FALSE;
  SimTime back;
  /* a thread that slept in its wait (`device_schedule blocking_sync`, a
   * blocking_sync event) wakes the later the longer it waited since its call */
  gboolean sleeps = schedule_wait_blocks (sim->sched, sop);
  if (sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY)
    back = gpu_profile_copy_return (&sim->profile, sleeps, r->issue, now); /* r->end is the copy's */
  else if (sop->kind == SCHED_OP_JOIN)
    {
      /* the joined thread's last call is what it waited for */
      const EngThread *joined = &h->threads[sop->u.thread];
      back = now + sim->profile.host_thread_join_wake;
      r->end = back;
      eng_sim_reach (sim, back);
      r->cause = ENG_CAUSE_SYNC;
      r->cause_ref = joined->n_ops > 0 ? joined->ops[joined->n_ops - 1] : ENG_NO_REF;
    }
  else if (sop->poll)
    {
      /* the first query to begin once the work is done ends the loop */
      back = gpu_profile_poll_return (&sim->profile, r->issue, sop->u.duration, now);
      r->end = back;
      r->cause = ENG_CAUSE_SYNC;
      r->cause_ref = h->last_signaled;
      eng_sim_reach (sim, back);
    }
  else
    {
      /* a synchronize gives back what the pool holds beyond what it keeps */
      SimTime wake = sleeps ? gpu_profile_blocking_wake (&sim->profile, now - r->issue) : 0;
      back = sim_time_max (now, t->wait_since) + sim->profile.host_sync + wake
             + gpu_pool_trim (&sim->profile, &h->pool, schedule_pool_threshold (sim->sched));
      r->end = back;
      r->cause = ENG_CAUSE_SYNC;
      r->cause_ref = h->last_signaled;
      eng_sim_reach (sim, back);
    }
  schedule_host (sim, thread, back);
}

/* Several threads: `op` signaled; the threads it was the last wait of go on. */
static void
signal_threads (EngSim *sim, guint32 op, SimTime now)
{
  EngHost *h = sim->host;
  for (guint i = 0; i < h->n_threads; i++)
    {
      EngThread *t = &h->threads[i];
      if (t->wait_op == ENG_NONE || t->wait_count == 0)
        continue;
      for (guint j = 0; j < t->waits->len; j++)
        if (g_array_index (t->waits, guint32, j) == op)
          {
            g_array_remove_index_fast (t->waits, j);
            if (--t->wait_count == 0)
              resume (sim, i, now);
            break;
          }
    }
}

void
eng_host_op_signaled (EngSim *sim, guint32 op, SimTime now)
{
  EngHost *h = sim->host;
  EngThread *t = &h->threads[0];
  EngOp *o = &sim->ops[op];
  g_assert (h->outstanding > 0); /* only device ops signal */
  h->outstanding--;
  h->last_signaled = op;
  if (several (sim))
    {
      signal_threads (sim, op, now);
      return;
    }
  if (t->wait_op == ENG_NONE)
    return;
  if (o->flags & ENG_OP_HOST_WAITED)
    {
      o->flags &= ~ENG_OP_HOST_WAITED;
      t->wait_count--;
    }
  gboolean done = t->wait_all ? h->outstanding == 0 : t->wait_count == 0;
  if (done)
    resume (sim, 0, now);
}

/* Starts a synchronize call; returns TRUE if the thread must wait. */
static gboolean
begin_sync (EngSim *sim, EngThread *t, guint32 op, const SchedOp *sop)
{
  EngHost *h = sim->host;
  gboolean ready = TRUE;
  t->wait_count = 0;
  switch (sop->kind)
    {
    case SCHED_OP_SYNC_STREAM:
      ready = wait_for (sim, t, eng_deps_stream_last (sim, sop->stream));
      if (sop->stream == SCHED_STREAM_DEFAULT)
        {
          /* The legacy default stream is synchronous with every blocking
           * stream: syncing it waits for their work too. */
          for (guint s = 1; s < schedule_n_streams (sim->sched); s++)
            if (!schedule_stream (sim->sched, s)->nonblocking)
              ready = wait_for (sim, t, eng_deps_stream_last (sim, s)) && ready;
        }
      break;
    case SCHED_OP_SYNC_EVENT:
      if (sop->event != SCHED_NONE)
        ready = wait_for (sim, t, eng_deps_event_last (sim, sop->event));
      break;
    case SCHED_OP_SYNC_DEVICE:
      if (several (sim))
        {
          /* what every thread had issued: each stream's last op, since a
           * stream's ops signal in order */
          for (guint s = 0; s < schedule_n_streams (sim->sched); s++)
            ready = wait_for (sim, t, eng_deps_stream_last (sim, s)) && ready;
          break;
        }
      ready = h->outstanding == 0;
      t->wait_all = !ready;
      break;
    default:
      g_assert_not_reached ();
    }
  if (!ready)
    t->wait_op = op;
  return !ready;
}

gboolean
eng_host_call_holds (const SchedOp *sop)
{
  switch (sop->kind)
    {
    case SCHED_OP_HOST:
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
    case SCHED_OP_SPAWN: /* the caller goes on after thread_create */
    case SCHED_OP_JOIN:
      return TRUE;
    default:
      return gpu_profile_copy_blocks (sop);
    }
}

/* Thread `thread` made its last call at `now`: a `join` parked on it goes on. */
static void
thread_ended (EngSim *sim, guint thread, SimTime now)
{
  EngThread *t = &sim->host->threads[thread];
  t->ended = TRUE;
  if (t->joiner != ENG_NONE)
    resume (sim, t->joiner, now);
}

/* SPAWN starts a thread: the caller goes on after thread_create, the new
 * thread makes its first call thread_start after the SPAWN's (the run's
 * first thread: thread_create_first and thread_start_first). JOIN returns
 * thread_join after its call when the thread has ended, else
 * thread_join_wake after the thread's end (resume). */
static void
thread_call (EngSim *sim, guint thread, guint32 op, const SchedOp *sop, SimTime now)
{
  EngHost *h = sim->host;
  const GpuProfile *p = &sim->profile;
  EngOpResult *r = &sim->results[op];
  EngThread *other = &h->threads[sop->u.thread];
  r->start = now;
  eng_op_done_on_host (sim, op);
  if (sop->kind == SCHED_OP_SPAWN)
    {
      r->end = now + gpu_profile_thread_create (p, !h->spawned);
      eng_sim_reach (sim, r->end);
      /* the caller goes on first where the two fall at one instant */
      schedule_host (sim, thread, r->end);
      schedule_host (sim, sop->u.thread, now + gpu_profile_thread_start (p, !h->spawned));
      h->spawned = TRUE;
      return;
    }
  if (other->ended)
    {
      r->end = now + p->host_thread_join;
      eng_sim_reach (sim, r->end);
      schedule_host (sim, thread, r->end);
      return;
    }
  other->joiner = thread;
  h->threads[thread].wait_op = op;
}

static void
host_step_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  EngHost *h = sim->host;
  guint thread = (guint) tag;
  EngThread *t = &h->threads[thread];
  sim->n_events++;
  if (t->next >= t->n_ops)
    {
      if (several (sim) && !t->ended)
        thread_ended (sim, thread, now);
      return;
    }
  guint32 op = t->ops != NULL ? t->ops[t->next] : (guint32) t->next;
  t->next++;
  const SchedOp *sop = eng_sop (sim, op);
  EngOpResult *r = &sim->results[op];
  r->issue = now;

  switch (sop->kind)
    {
    case SCHED_OP_HOST:
      r->start = now;
      r->end = now + sop->u.duration;
      eng_sim_reach (sim, r->end);
      eng_op_done_on_host (sim, op);
      schedule_host (sim, thread, r->end);
      return;
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
      r->start = now;
      eng_op_done_on_host (sim, op);
      t->wait_since = now;
      if (!begin_sync (sim, t, op, sop))
        {
          /* nothing to wait for: the call returns at once, after giving the
           * pool's memory back where it holds more than it keeps (a query
           * gives nothing back) */
          if (sop->poll)
            r->end = gpu_profile_poll_return (&sim->profile, now, sop->u.duration, now);
          else
            r->end = now + gpu_profile_idle_sync_cost (&sim->profile)
                     + gpu_pool_trim (&sim->profile, &h->pool, schedule_pool_threshold (sim->sched));
          eng_sim_reach (sim, r->end);
          schedule_host (sim, thread, r->end);
        }
      return;
    case SCHED_OP_SPAWN:
    case SCHED_OP_JOIN:
      thread_call (sim, thread, op, sop, now);
      return;
    default:
      break;
    }

  /* A device call: in flight from here to its signal. */
  h->outstanding++;
  SimTime cost = gpu_profile_thread_call_cost (&sim->profile, sop, thread != 0 && !t->called);
  t->called = TRUE;
  /* a cudaMallocAsync the pool lacks the memory for grows it first */
  if (sop->kind == SCHED_OP_MALLOC)
    cost += gpu_pool_malloc (&sim->profile, &h->pool, sop->u.bytes);
  else if (sop->kind == SCHED_OP_FREE)
    gpu_pool_free (&h->pool, sop->u.bytes);
  eng_op_issue (sim, op, now, cost);
  if (gpu_profile_copy_blocks (sop))
    {
      t->wait_op = op;
      t->wait_since = now + cost;
      t->wait_count = 0;
      wait_for (sim, t, op);
      return;
    }
  schedule_host (sim, thread, now + cost);
}

void
eng_host_init (EngSim *sim)
{
  EngHost *h = g_new0 (EngHost, 1);
  h->last_signaled = ENG_NONE;
  h->n_threads = schedule_n_threads (sim->sched);
  h->threads = g_new0 (EngThread, h->n_threads);
  for (guint i = 0; i < h->n_threads; i++)
    {
      h->threads[i].wait_op = h->threads[i].joiner = ENG_NONE;
      if (h->n_threads > 1)
        h->threads[i].waits = g_array_new (FALSE, FALSE, sizeof (guint32));
    }
  if (h->n_threads == 1)
    h->threads[0].n_ops = sim->n_ops;
  else
    {
      /* each thread's ops, in order */
      for (gsize i = 0; i < sim->n_ops; i++)
        h->threads[schedule_op_thread (sim->sched, i)].n_ops++;
      for (guint i = 0; i < h->n_threads; i++)
        h->threads[i].ops = g_new (guint32, MAX (h->threads[i].n_ops, 1));
      for (gsize i = 0; i < sim->n_ops; i++)
        {
          EngThread *t = &h->threads[schedule_op_thread (sim->sched, i)];
          t->ops[t->next++] = (guint32) i;
        }
      for (guint i = 0; i < h->n_threads; i++)
        h->threads[i].next = 0;
    }
  /* One call at a time: thread 0's next step is a timer, not a heap event. */
  h->step = sim_queue_timer_new (sim->events, host_step_event, sim);
  sim->host = h;
}

void
eng_host_free (EngSim *sim)
{
  EngHost *h = sim->host;
  if (h == NULL)
    return;
  for (guint i = 0; i < h->n_threads; i++)
    {
      g_free (h->threads[i].ops);
      if (h->threads[i].waits != NULL)
        g_array_unref (h->threads[i].waits);
    }
  g_free (h->threads);
  g_free (h);
  sim->host = NULL;
}

void
eng_host_start (EngSim *sim)
{
  schedule_host (sim, 0, 0);
}
