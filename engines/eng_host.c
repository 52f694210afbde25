/* eng_host.c: the host thread: issues the schedule's calls in order, paying each call's cost, blocking where CUDA blocks.
 *
 * The host issues one call per event: at time t it makes call i, which holds
 * the host for the call's cost from the profile; the op reaches its device
 * queue after that cost plus the device-side submit latency (launch latency
 * for kernels). Calls that block (cudaMemcpy, pageable cudaMemcpyAsync,
 * the synchronize calls) park the host until their condition holds; the
 * completion of the op waited for resumes it. */
#include "eng_host.h"
#include "eng_deps.h"
#include "eng_op.h"

struct EngHost
{
  gsize next_issue;
  SimTimer *step;         /* the host's next call */
  guint32 wait_op;        /* blocking op the host waits on, or ENG_NONE */
  guint wait_count;       /* ops still to signal before it may go on */
  gboolean wait_all;      /* sync device: every op issued */
  SimTime wait_since;
  gsize outstanding;      /* device ops issued and not signaled */
  guint32 last_signaled;  /* most recent op whose completion the host could see */
};

static void
schedule_host (EngSim *sim, SimTime when)
{
  g_assert (!sim_queue_timer_pending (sim->host->step)); /* one call at a time */
  sim_queue_timer_set (sim->host->step, when, 0);
}

/* The host waits for one op; TRUE if it is already complete. */
static gboolean
wait_for (EngSim *sim, guint32 op)
{
  if (op == ENG_NONE || (sim->ops[op].flags & ENG_OP_SIGNALED))
    return TRUE;
  if (!(sim->ops[op].flags & ENG_OP_HOST_WAITED))
    {
      sim->ops[op].flags |= ENG_OP_HOST_WAITED;
      sim->host->wait_count++;
    }
  return FALSE;
}

static void
resume (EngSim *sim, SimTime now)
{
  EngHost *h = sim->host;
  guint32 op = h->wait_op;
  const SchedOp *sop = eng_sop (sim, op);
  EngOpResult *r = &sim->results[op];
  h->wait_op = ENG_NONE;
  h->wait_all = FALSE;
  SimTime back;
  if (sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY)
    back = now + sim->profile.host_memcpy_sync; /* blocking copy: r->end is the copy's */
  else
    {
      back = sim_time_max (now, h->wait_since) + sim->profile.host_sync;
      r->end = back;
      r->cause = ENG_CAUSE_SYNC;
      r->cause_ref = h->last_signaled;
      eng_sim_reach (sim, back);
    }
  schedule_host (sim, back);
}

void
eng_host_op_signaled (EngSim *sim, guint32 op, SimTime now)
{
  EngHost *h = sim->host;
  EngOp *o = &sim->ops[op];
  g_assert (h->outstanding > 0); /* only device ops signal */
  h->outstanding--;
  h->last_signaled = op;
  if (h->wait_op == ENG_NONE)
    return;
  if (o->flags & ENG_OP_HOST_WAITED)
    {
      o->flags &= ~ENG_OP_HOST_WAITED;
      h->wait_count--;
    }
  gboolean done = h->wait_all ? h->outstanding == 0 : h->wait_count == 0;
  if (done)
    resume (sim, now);
}

/* Starts a synchronize call; returns TRUE if the host must wait. */
static gboolean
begin_sync (EngSim *sim, guint32 op, const SchedOp *sop)
{
  EngHost *h = sim->host;
  gboolean ready = TRUE;
  h->wait_count = 0;
  switch (sop->kind)
    {
    case SCHED_OP_SYNC_STREAM:
      ready = wait_for (sim, eng_deps_stream_last (sim, sop->stream));
      if (sop->stream == SCHED_STREAM_DEFAULT)
        {
          /* The legacy default stream is synchronous with every blocking
           * stream: syncing it waits for their work too. */
          for (guint s = 1; s < schedule_n_streams (sim->sched); s++)
            if (!schedule_stream (sim->sched, s)->nonblocking)
              ready = wait_for (sim, eng_deps_stream_last (sim, s)) && ready;
        }
      break;
    case SCHED_OP_SYNC_EVENT:
      if (sop->event != SCHED_NONE)
        ready = wait_for (sim, eng_deps_event_last (sim, sop->event));
      break;
    case SCHED_OP_SYNC_DEVICE:
      ready = h->outstanding == 0;
      h->wait_all = !ready;
      break;
    default:
      g_assert_not_reached ();
    }
  if (!ready)
    h->wait_op = op;
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
      return TRUE;
    default:
      return gpu_profile_copy_blocks (sop);
    }
}

static void
host_step_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) tag;
  EngSim *sim = arg;
  EngHost *h = sim->host;
  sim->n_events++;
  if (h->next_issue >= sim->n_ops)
    return;
  guint32 op = (guint32) h->next_issue++;
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
      schedule_host (sim, r->end);
      return;
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
      r->start = now;
      eng_op_done_on_host (sim, op);
      h->wait_since = now;
      if (!begin_sync (sim, op, sop))
        {
          /* nothing to wait for: the call returns at once */
          r->end = now + gpu_profile_idle_sync_cost (&sim->profile);
          eng_sim_reach (sim, r->end);
          schedule_host (sim, r->end);
        }
      return;
    default:
      break;
    }

  /* A device call: in flight from here to its signal. */
  h->outstanding++;
  SimTime cost = gpu_profile_call_cost (&sim->profile, sop);
  eng_op_issue (sim, op, now, cost);
  if (gpu_profile_copy_blocks (sop))
    {
      h->wait_op = op;
      h->wait_since = now + cost;
      h->wait_count = 0;
      wait_for (sim, op);
      return;
    }
  schedule_host (sim, now + cost);
}

void
eng_host_init (EngSim *sim)
{
  EngHost *h = g_new0 (EngHost, 1);
  h->wait_op = h->last_signaled = ENG_NONE;
  /* One call at a time: the host's next step is a timer, not a heap event. */
  h->step = sim_queue_timer_new (sim->events, host_step_event, sim);
  sim->host = h;
}

void
eng_host_free (EngSim *sim)
{
  g_free (sim->host);
  sim->host = NULL;
}

void
eng_host_start (EngSim *sim)
{
  schedule_host (sim, 0);
}
