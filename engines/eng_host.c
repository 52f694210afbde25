/* eng_host.c: the host thread: issues the schedule's calls in order, paying each call's cost, blocking where CUDA blocks.
 *
 * The host issues one call per event: at time t it makes call i, which holds
 * the host for the call's cost from the profile; the op reaches its device
 * queue after that cost plus the device-side submit latency (launch latency
 * for kernels). Calls that block (cudaMemcpy, pageable cudaMemcpyAsync,
 * the synchronize calls) park the host until their condition holds; the
 * completion of the op waited for resumes it.
 *
 * Fermi launch runs are decided here because they depend on issue order: a
 * kernel joins the open run if the previous device call was a kernel and the
 * run still has a kernel that has not finished; any other device call closes
 * the run. */
#include "eng_internal.h"

static void host_step_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

static void
schedule_host (EngSim *sim, SimTime when)
{
  g_assert (!sim_queue_timer_pending (sim->host_step)); /* one call at a time */
  sim_queue_timer_set (sim->host_step, when, 0);
}

static void
arrive_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) tag;
  EngOp *o = &sim->ops[op];
  sim->n_events++;
  if (o->qclass == ENG_Q_NONE)
    eng_deps_arrived (sim, op, now);
  else
    eng_connection_arrive (sim, op, now);
}

static void
join_launch_run (EngSim *sim, guint32 op, const SchedOp *sop)
{
  if (!sim->profile.deferred_completion)
    return;
  if (sop->kind != SCHED_OP_KERNEL)
    {
      sim->last_device_op_was_kernel = FALSE;
      sim->open_run = ENG_NONE;
      return;
    }
  EngRun *run = NULL;
  if (sim->last_device_op_was_kernel && sim->open_run != ENG_NONE)
    {
      run = &g_array_index (sim->runs, EngRun, sim->open_run);
      if (run->released || run->unfinished == 0)
        run = NULL;
    }
  if (run == NULL)
    {
      EngRun fresh = { op, op, 0, ENG_NONE, FALSE, 0 };
      g_array_append_val (sim->runs, fresh);
      sim->open_run = sim->runs->len - 1;
      run = &g_array_index (sim->runs, EngRun, sim->open_run);
    }
  /* Any other device call closes the run, so its members are the device
   * ops from first to last. */
  sim->ops[op].run = sim->open_run;
  run->last = op;
  run->unfinished++;
  sim->last_device_op_was_kernel = TRUE;
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
      sim->host_wait_count++;
    }
  return FALSE;
}

static void
resume (EngSim *sim, SimTime now)
{
  guint32 op = sim->host_wait_op;
  const SchedOp *sop = eng_sop (sim, op);
  EngOpResult *r = &sim->results[op];
  sim->host_wait_op = ENG_NONE;
  sim->host_wait_all = FALSE;
  SimTime back;
  if (sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY)
    back = now + sim->profile.host_memcpy_sync; /* blocking copy: r->end is the copy's */
  else
    {
      back = sim_time_max (now, sim->host_wait_since) + sim->profile.host_sync;
      r->end = back;
      r->cause = ENG_CAUSE_SYNC;
      r->cause_ref = sim->last_signaled;
      if (back > sim->makespan)
        sim->makespan = back;
    }
  schedule_host (sim, back);
}

void
eng_host_op_signaled (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  if (o->qclass != ENG_Q_NONE || eng_sop (sim, op)->kind == SCHED_OP_RECORD
      || eng_sop (sim, op)->kind == SCHED_OP_WAIT)
    {
      g_assert (sim->outstanding > 0);
      sim->outstanding--;
    }
  sim->last_signaled = op;
  if (sim->host_wait_op == ENG_NONE)
    return;
  if (o->flags & ENG_OP_HOST_WAITED)
    {
      o->flags &= ~ENG_OP_HOST_WAITED;
      sim->host_wait_count--;
    }
  gboolean done = sim->host_wait_all ? sim->outstanding == 0 : sim->host_wait_count == 0;
  if (done)
    resume (sim, now);
}

/* Starts a synchronize call; returns TRUE if the host must wait. */
static gboolean
begin_sync (EngSim *sim, guint32 op, const SchedOp *sop)
{
  gboolean ready = TRUE;
  sim->host_wait_count = 0;
  switch (sop->kind)
    {
    case SCHED_OP_SYNC_STREAM:
      ready = wait_for (sim, sim->stream_tail[sop->stream]);
      if (sop->stream == SCHED_STREAM_DEFAULT)
        {
          /* The legacy default stream is synchronous with every blocking
           * stream: syncing it waits for their work too. */
          for (guint s = 1; s < schedule_n_streams (sim->sched); s++)
            if (!schedule_stream (sim->sched, s)->nonblocking)
              ready = wait_for (sim, sim->stream_tail[s]) && ready;
        }
      break;
    case SCHED_OP_SYNC_EVENT:
      if (sop->event != SCHED_NONE)
        ready = wait_for (sim, sim->event_record[sop->event]);
      break;
    case SCHED_OP_SYNC_DEVICE:
      ready = sim->outstanding == 0;
      sim->host_wait_all = !ready;
      break;
    default:
      g_assert_not_reached ();
    }
  if (!ready)
    sim->host_wait_op = op;
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

/* Host work and synchronizations are done in the host's call itself, on
 * no engine (eng_op_finish is for ops that run on one). */
static inline void
host_op_finished (EngSim *sim, guint32 op)
{
  sim->ops[op].flags |= ENG_OP_FINISHED | ENG_OP_SIGNALED;
  sim->n_finished++;
}

static void
host_step_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) tag;
  EngSim *sim = arg;
  sim->n_events++;
  if (sim->next_issue >= sim->n_ops)
    return;
  guint32 op = (guint32) sim->next_issue++;
  const SchedOp *sop = eng_sop (sim, op);
  EngOpResult *r = &sim->results[op];
  r->issue = now;

  switch (sop->kind)
    {
    case SCHED_OP_HOST:
      r->start = now;
      r->end = now + sop->u.duration;
      if (r->end > sim->makespan)
        sim->makespan = r->end;
      host_op_finished (sim, op);
      schedule_host (sim, r->end);
      return;
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
      r->start = now;
      host_op_finished (sim, op);
      sim->host_wait_since = now;
      if (!begin_sync (sim, op, sop))
        {
          r->end = now + sim->profile.host_sync;
          if (r->end > sim->makespan)
            sim->makespan = r->end;
          schedule_host (sim, r->end);
        }
      return;
    default:
      break;
    }

  /* A device call: in flight from here to its signal. */
  eng_live_take (sim, op);
  if (sim->profile.assign_on_submit && r->conn >= 0)
    r->conn = (gint8) eng_connection_assign (sim, op);
  join_launch_run (sim, op, sop);
  eng_deps_issue (sim, op);
  sim->outstanding++;
  SimTime cost = gpu_profile_call_cost (&sim->profile, sop->kind);
  SimTime arrival = now + cost + gpu_profile_submit_latency (&sim->profile, sop->kind);
  if (sim->ops[op].qclass != ENG_Q_NONE)
    {
      /* A connection is one command stream: its ops reach their queues in
       * issue order, whatever their submit latencies. Without this a copy
       * with a short submit latency could overtake the kernel issued before
       * it into the same queue and wait at its head for that kernel forever. */
      SimTime *last = &sim->conn_last_arrival[sim->results[op].conn];
      arrival = sim_time_max (arrival, *last);
      *last = arrival;
      sim->conn_last_issued[sim->results[op].conn] = op;
    }
  sim_queue_schedule (sim->events, arrival, arrive_event, sim, op);
  if (gpu_profile_copy_blocks (sop))
    {
      sim->host_wait_op = op;
      sim->host_wait_since = now + cost;
      sim->host_wait_count = 0;
      wait_for (sim, op);
      return;
    }
  schedule_host (sim, now + cost);
}

void
eng_host_start (EngSim *sim)
{
  /* One call at a time: the host's next step is a timer, not a heap event. */
  sim->host_step = sim_queue_timer_new (sim->events, host_step_event, sim);
  schedule_host (sim, 0);
}
