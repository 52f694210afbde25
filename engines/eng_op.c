/* eng_op.c: an op's life as a state machine: issued, arrived, head of its queue, submitted, started, finished, signaled.
 *
 *   issued     the host makes the call (eng_host.c: eng_op_issue); its
 *              dependencies are fixed from the issue order (eng_deps.c)
 *   arrived    after the call's cost and the submit latency it reaches its
 *              connection's queue for its engine class (eng_connection.c);
 *              a marker (record, wait) has no queue
 *   head       it is first in that queue: only the head may go
 *   submitted  at the head with its dependencies seen, it goes to its
 *              engine (its class's submit: eng_copy.c, eng_kernel.c, or a
 *              marker's eng_marker.c); the engine accepts it off the queue,
 *              which lets the op behind it become the head
 *   started    its engine starts it (a copy engine free, SM slots)
 *   finished   it ends on its engine
 *   signaled   its completion is visible to every dependent and to the
 *              host: at its end, or on a Fermi device when its launch run
 *              is released (eng_fermi.c)
 *
 * The parts of the model report each step here and never call one another:
 * what a step makes possible for another part (a queue to pump, a dependent
 * to wake, the host to resume) is posted as a step of its own
 * (eng_post, sim_queue_post) and runs once the current one has returned.
 *
 * What an op waited for (its result's cause) is settled here too, as it
 * starts: the latest of reaching the device, its dependencies, reaching the
 * head of its queue, and its engine. */
#include "eng_op.h"
#include "eng_callback.h"
#include "eng_connection.h"
#include "eng_copy.h"
#include "eng_deps.h"
#include "eng_fermi.h"
#include "eng_host.h"
#include "eng_kernel.h"
#include "eng_live.h"
#include "eng_marker.h"

/* The class of each kind of op: a new kind of op is a new entry. */
static const EngEngineClass *
class_of_kind (SchedOpKind kind)
{
  switch (kind)
    {
    case SCHED_OP_KERNEL:
    case SCHED_OP_MEMSET: /* a kernel the driver launches (eng_kernel.c) */
      return &eng_kernel_class;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return &eng_copy_class;
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
    case SCHED_OP_MALLOC: /* stream-ordered: it passes through its stream as a record does */
    case SCHED_OP_FREE:
      return &eng_marker_class;
    case SCHED_OP_HOSTFN:
      return &eng_callback_class;
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
    case SCHED_OP_HOST:
    case SCHED_OP_SPAWN:
    case SCHED_OP_JOIN:
      break;
    }
  return NULL;
}

const EngEngineClass *
eng_op_class (const EngSim *sim, guint32 op)
{
  return class_of_kind (eng_sop (sim, op)->kind);
}

gboolean
eng_op_prepare (EngSim *sim, guint32 op, GError **error)
{
  const SchedOp *sop = eng_sop (sim, op);
  const EngEngineClass *class = class_of_kind (sop->kind);
  EngOp *o = &sim->ops[op];
  EngOpResult *r = &sim->results[op];
  o->live = o->run = o->deps_ref = ENG_NONE;
  o->qclass = (guint8) (class != NULL ? class->queue_of (sim, sop) : ENG_Q_NONE);
  o->signal_engine = ENG_ENGINE_STREAM;
  r->engine = (guint8) (class != NULL ? class->engine_of (sim, sop) : ENG_ENGINE_HOST);
  r->conn = (gint8) (class != NULL ? (gint) eng_connection_of (sim, sop->stream) : -1);
  r->cause_ref = ENG_NO_REF;
  return class == NULL || class->prepare == NULL || class->prepare (sim, op, error);
}

/* ---- Issued and arrived ---- */

static void arrive_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

void
eng_op_issue (EngSim *sim, guint32 op, SimTime now, SimTime cost)
{
  eng_live_take (sim, op);
  EngOpResult *r = &sim->results[op];
  if (sim->profile.assign_on_submit)
    r->conn = (gint8) eng_connection_assign (sim, op);
  eng_fermi_issue (sim, op);
  eng_deps_issue (sim, op);
  SimTime arrival = now + cost + gpu_profile_submit_latency (&sim->profile, eng_sop (sim, op)->kind);
  if (sim->ops[op].qclass != ENG_Q_NONE)
    arrival = eng_connection_arrival (sim, op, arrival);
  sim_queue_schedule (sim->events, arrival, arrive_event, sim, op);
}

void
eng_op_done_on_host (EngSim *sim, guint32 op)
{
  sim->ops[op].flags |= ENG_OP_FINISHED | ENG_OP_SIGNALED;
  sim->n_finished++;
}

static void pump (EngSim *sim, guint owner, EngQueueClass qclass, SimTime now);
static void ready_check (EngSim *sim, guint32 op, SimTime now);

static void
arrive_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) tag;
  EngOp *o = &sim->ops[op];
  sim->n_events++;
  o->flags |= ENG_OP_ARRIVED;
  eng_live (sim, op)->arrive = now;
  if (o->qclass == ENG_Q_NONE)
    {
      ready_check (sim, op, now);
      return;
    }
  eng_connection_arrive (sim, op, now);
  pump (sim, eng_connection_queue_owner (sim, op), (EngQueueClass) o->qclass, now);
}

/* ---- Dependencies met, head of the queue, submitted ---- */

/* The op's dependencies are all seen and it has arrived: an op in no queue
 * (a marker, a host function) goes to its class at once, a queued op goes if
 * it is its queue's head. */
static void
go (EngSim *sim, guint32 op, SimTime now)
{
  guint qclass = sim->ops[op].qclass;
  if (qclass == ENG_Q_NONE)
    eng_op_class (sim, op)->submit (sim, op, now);
  else
    pump (sim, eng_connection_queue_owner (sim, op), (EngQueueClass) qclass, now);
}

static void
deps_ready_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) tag;
  sim->ops[op].flags &= ~ENG_OP_DEPS_EVENT;
  sim->n_events++;
  if (!(sim->ops[op].flags & ENG_OP_ARRIVED))
    return;
  go (sim, op, now);
}

/* Its dependencies are seen only later (a cross-engine latency): an event
 * wakes it then. */
static void
wake_later (EngSim *sim, guint32 op)
{
  EngOp *o = &sim->ops[op];
  if (!(o->flags & ENG_OP_DEPS_EVENT))
    {
      o->flags |= ENG_OP_DEPS_EVENT;
      sim_queue_schedule (sim->events, eng_live (sim, op)->deps_time, deps_ready_event, sim, op);
    }
}

/* When an op's last dependency is satisfied, or when it arrives. */
static void
ready_check (EngSim *sim, guint32 op, SimTime now)
{
  const EngOp *o = &sim->ops[op];
  const EngLive *l = eng_live (sim, op);
  if (l->pending > 0 || !(o->flags & ENG_OP_ARRIVED) || (o->flags & ENG_OP_STARTED))
    return;
  if (l->deps_time > now)
    {
      wake_later (sim, op);
      return;
    }
  /* as the event would, at once */
  deps_ready_event (sim->events, now, sim, op);
}

static void
ready_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  ready_check (arg, ENG_STEP_A (tag), now);
}

void
eng_op_deps_met (EngSim *sim, guint32 op)
{
  const EngOp *o = &sim->ops[op];
  /* Not arrived yet: its arrival checks; started: it went already. */
  if (!(o->flags & ENG_OP_ARRIVED) || (o->flags & ENG_OP_STARTED))
    return;
  /* Seen only later: an event then, touching no other part now. */
  SimTime now = sim_queue_now (sim->events);
  if (eng_live (sim, op)->deps_time > now)
    wake_later (sim, op);
  else
    eng_post (sim, ready_step, op, 0);
}

/* Hands the head of connection `owner`'s `qclass` queue to its engine if it
 * is ready. */
static void
pump (EngSim *sim, guint owner, EngQueueClass qclass, SimTime now)
{
  guint32 head = eng_connection_head (sim, owner, qclass);
  if (head == ENG_NONE)
    return;
  EngOp *o = &sim->ops[head];
  EngLive *l = eng_live (sim, head);
  if ((o->flags & ENG_OP_SUBMITTED) || l->pending > 0)
    return;
  if (l->deps_time > now)
    {
      wake_later (sim, head);
      return;
    }
  if (!eng_connection_may_submit (sim, owner, head))
    return; /* eng_op_finished pumps again when the kernel ahead ends */
  o->flags |= ENG_OP_SUBMITTED;
  l->submitted = now;
  eng_op_class (sim, head)->submit (sim, head, now);
}

static void
pump_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  pump (arg, ENG_STEP_A (tag), (EngQueueClass) ENG_STEP_B (tag), now);
}

void
eng_op_accepted (EngSim *sim, guint32 op, SimTime now)
{
  if (eng_connection_pop (sim, op, now) != ENG_NONE)
    eng_post (sim, pump_step, eng_connection_queue_owner (sim, op),
                     sim->ops[op].qclass);
}

/* ---- Started: what it waited for ---- */

/* Settles what an op waited for last when it starts on its engine: the
 * latest of reaching the device, its dependencies, reaching the head of its
 * queue, and its engine becoming free. Ties go to the dependency, then the
 * queue, then the engine: the more specific explanation. */
void
eng_op_started (EngSim *sim, guint32 op, SimTime now, EngCause engine_cause, guint32 engine_ref)
{
  EngOp *o = &sim->ops[op];
  const EngLive *l = eng_live (sim, op);
  EngOpResult *r = &sim->results[op];
  o->flags |= ENG_OP_STARTED;
  r->start = now;

  SimTime best = l->arrive;
  EngCause cause = ENG_CAUSE_NONE;
  guint32 ref = ENG_NO_REF;
  if (engine_cause != ENG_CAUSE_NONE && now > best)
    {
      best = now;
      cause = engine_cause;
      ref = engine_ref;
    }
  /* Waiting behind another op in the queue is a false dependency only when
   * that op sat at the head waiting for its own dependencies; behind an op
   * that merely waited for the same busy engine, the engine is the reason.
   * When the blocker then holds the engine too (one copy engine), the queue
   * is still what made it wait. The op ahead may have signaled by now, so
   * it left that answer in its flags when it left the head
   * (eng_connection.c). */
  guint32 ahead = l->head_ref;
  gboolean blocked_by_deps = ahead != ENG_NONE && (sim->ops[ahead].flags & ENG_OP_HELD_BY_DEPS);
  gboolean queue_then_engine = cause == ENG_CAUSE_ENGINE && ref == ahead;
  if (blocked_by_deps && l->head_time > l->arrive
      && (l->head_time >= best || queue_then_engine))
    {
      best = l->head_time;
      gboolean same_stream = eng_sop (sim, ahead)->stream == eng_sop (sim, op)->stream;
      cause = same_stream ? ENG_CAUSE_STREAM : ENG_CAUSE_QUEUE;
      ref = ahead;
      r->queue = o->qclass;
    }
  if (o->deps_cause != ENG_CAUSE_NONE && l->deps_time > l->arrive && l->deps_time >= best)
    {
      best = l->deps_time;
      cause = (EngCause) o->deps_cause;
      ref = o->deps_ref;
    }
  r->cause = (guint8) cause;
  r->cause_ref = ref;
  const SchedOp *sop = eng_sop (sim, op);
  if (sop->kind == SCHED_OP_KERNEL && sop->u.kernel.loads)
    eng_deps_started (sim, op);
}

/* ---- Finished and signaled ---- */

/* A marker resolved: every dependency it had is seen by now, so what it
 * waited for is settled: the latest of them, when that came after it
 * reached the device. It carries their engine on, so that the cross-engine
 * latency is paid once, by whoever waits on it; one the host issued late
 * completes on no engine. */
static void
marker_finished (EngSim *sim, guint32 op)
{
  EngOp *o = &sim->ops[op];
  const EngLive *l = eng_live (sim, op);
  if (o->deps_cause == ENG_CAUSE_NONE || l->deps_time < l->arrive)
    o->signal_engine = ENG_ENGINE_STREAM;
  EngOpResult *r = &sim->results[op];
  if (r->engine != ENG_ENGINE_STREAM)
    return;
  if (o->deps_cause != ENG_CAUSE_NONE && l->deps_time > l->arrive)
    {
      r->cause = o->deps_cause;
      r->cause_ref = o->deps_ref;
    }
}

static void
kernel_done_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = ENG_STEP_A (tag);
  if (eng_connection_kernel_done (sim, op))
    pump (sim, (guint) sim->results[op].conn, ENG_Q_COMPUTE, now);
}

void
eng_op_finished (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  g_assert (!(o->flags & ENG_OP_FINISHED)); /* each op finishes once: eng_sim_run counts them */
  o->flags |= ENG_OP_FINISHED | ENG_OP_STARTED;
  sim->n_finished++;
  sim->results[op].end = now;
  eng_sim_reach (sim, now);
  if (sim->results[op].engine != ENG_ENGINE_STREAM)
    o->signal_engine = sim->results[op].engine;
  else
    marker_finished (sim, op);

  if (!eng_fermi_finished (sim, op, now))
    eng_op_signal (sim, op, now);
  /* After the signal's steps: a kernel held back behind this one in its
   * connection may go. */
  if (eng_runs_as_kernel (eng_sop (sim, op)) && sim->profile.connection_serializes)
    eng_post (sim, kernel_done_step, op, 0);
}

/* After its dependents have heard: the host, and the op's slot. */
static void
signaled (EngSim *sim, guint32 op, SimTime now)
{
  eng_host_op_signaled (sim, op, now);
  eng_live_release (sim, op);
}

static void
signaled_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  signaled (arg, ENG_STEP_A (tag), now);
}

/* Every caller has posted nothing before it in its step, so what is done
 * here at once comes before anything it posts after, as posted steps
 * would. */
void
eng_op_signal (EngSim *sim, guint32 op, SimTime now)
{
  sim->ops[op].flags |= ENG_OP_SIGNALED;
  if (eng_deps_signal (sim, op, FALSE))
    eng_post (sim, signaled_step, op, 0);
  else
    signaled (sim, op, now);
}
