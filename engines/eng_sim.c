/* eng_sim.c: wires the host thread, dependencies, connections and engines to the event core; results and causes. */
#include <string.h>
#include "eng_internal.h"
#include "eng_limits.h"
#include "sim/core/str_append.h"

G_DEFINE_QUARK (eng-error-quark, eng_error)

/* Memory per op is the benchmark's budget (PERFORMANCE.md), and on a fresh
 * page every byte is also time (a page fault per 4 KiB: about 35 ms for
 * 10^6 ops' state, PERFORMANCE-LOG.md, seventh round): keep both small. */
G_STATIC_ASSERT (sizeof (EngOp) == 16);
G_STATIC_ASSERT (sizeof (EngLive) == 56);
G_STATIC_ASSERT (sizeof (EngOpResult) == 32);

static const char *const engine_names[ENG_N_ENGINES] = {
  "h2d", "d2h", "copy", "d2d", "compute", "host", "stream",
};

static const char *const cause_names[ENG_N_CAUSES] = {
  "none", "stream", "event", "legacy", "queue", "engine", "slots", "deferred", "sync",
};

static const char *const queue_names[ENG_N_QUEUES] = { "h2d", "d2h", "copy", "compute" };

const char *
eng_engine_name (EngEngine engine)
{
  g_return_val_if_fail (engine < ENG_N_ENGINES, "?");
  return engine_names[engine];
}

const char *
eng_cause_name (EngCause cause)
{
  g_return_val_if_fail (cause < ENG_N_CAUSES, "?");
  return cause_names[cause];
}

static EngEngine
engine_of (const EngSim *sim, const SchedOp *sop)
{
  switch (sop->kind)
    {
    case SCHED_OP_KERNEL:
      return ENG_ENGINE_COMPUTE;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return eng_copy_engine_of (sim, sop);
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
      return ENG_ENGINE_STREAM;
    default:
      return ENG_ENGINE_HOST;
    }
}

EngSim *
eng_sim_new (const GpuProfile *profile, const Schedule *sched, guint connections,
             GError **error)
{
  g_return_val_if_fail (profile != NULL && sched != NULL, NULL);
  g_return_val_if_fail (connections <= 32, NULL);

  EngSim *sim = g_new0 (EngSim, 1);
  gpu_profile_copy (&sim->profile, profile);
  sim->sched = sched;
  gboolean left_unset = connections == 0 && schedule_connections (sched) == 0;
  if (connections == 0)
    connections = schedule_connections (sched);
  if (connections == 0)
    connections = profile->default_connections;
  /* Devices before Kepler have a single hardware queue whatever is asked. */
  sim->connections = MIN (connections, profile->max_connections);
  if (sim->connections == 0)
    sim->connections = 1;
  sim->copy_connections = eng_connection_copy_count (profile, sim->connections, left_unset);

  sim->n_ops = schedule_n_ops (sched);
  if (sim->n_ops >= ENG_NONE)
    {
      g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                   "%s: %" G_GSIZE_FORMAT " ops are more than the model can index",
                   schedule_path (sched), sim->n_ops);
      eng_sim_free (sim);
      return NULL;
    }
  sim->ops = g_new0 (EngOp, sim->n_ops);
  sim->results = g_new0 (EngOpResult, sim->n_ops);
  /* Edges are reused once their source has signaled (eng_deps.c), so
   * there are about as many as ops in flight, not as ops. */
  sim->edges_cap = 1024;
  sim->edges = g_new (EngEdge, sim->edges_cap);
  sim->free_edges = ENG_NONE;
  sim->free_live = ENG_NONE; /* the slots come as the host issues (eng_live.c) */
  sim->runs = g_array_new (FALSE, FALSE, sizeof (EngRun));
  sim->events = sim_queue_new ();

  sim->sops = schedule_ops (sched);
  guint n_streams = schedule_n_streams (sched);
  sim->stream_priority = g_new (gint, n_streams);
  for (guint s = 0; s < n_streams; s++)
    sim->stream_priority[s] = schedule_stream (sched, s)->priority;
  sim->stream_tail = g_new (guint32, n_streams);
  sim->stream_legacy = g_new (guint32, n_streams);
  sim->dirty = g_new (guint32, n_streams);
  sim->is_dirty = g_new0 (gboolean, n_streams);
  for (guint s = 0; s < n_streams; s++)
    sim->stream_tail[s] = sim->stream_legacy[s] = ENG_NONE;
  guint n_events = schedule_n_events (sched);
  sim->event_record = g_new (guint32, MAX (n_events, 1));
  for (guint e = 0; e < n_events; e++)
    sim->event_record[e] = ENG_NONE;
  sim->last_legacy = ENG_NONE;

  guint n_queues = sim->connections * ENG_N_QUEUES * (sim->copy_connections < sim->connections ? 2 : 1);
  sim->queues = g_new (EngFifo, n_queues);
  for (guint q = 0; q < n_queues; q++)
    sim->queues[q].head = sim->queues[q].tail = ENG_NONE;
  sim->conn_active_kernel = g_new (guint32, sim->connections);
  sim->conn_last_arrival = g_new0 (SimTime, sim->connections);
  sim->conn_last_issued = g_new (guint32, sim->connections);
  for (guint c = 0; c < sim->connections; c++)
    sim->conn_active_kernel[c] = sim->conn_last_issued[c] = ENG_NONE;
  /* assign_on_submit: the legacy default stream took connection 0 when the
   * context was created, so the streams' round robin starts after it
   * (eng_connection.c, WHICH CONNECTION). */
  sim->conn_next = 1 % sim->connections;
  for (guint i = 0; i < G_N_ELEMENTS (sim->copy); i++)
    {
      sim->copy[i].ready.head = sim->copy[i].ready.tail = ENG_NONE;
      sim->copy[i].direct.op = sim->copy[i].staged.op = sim->copy[i].last = ENG_NONE;
    }
  sim->dispatch_list = sim->admit_list = ENG_NONE;
  sim->last_kernel = ENG_NONE;
  sim->open_run = ENG_NONE;
  sim->host_wait_op = ENG_NONE;
  sim->last_signaled = ENG_NONE;

  eng_copy_start (sim);
  eng_kernel_start (sim);
  /* One pass over the ops: each op's state, the kernel's check against the
   * device, the bound on simulated time. On a fresh page every op's first
   * touch is a page fault, and each further pass over 10^6 ops costs
   * milliseconds (PERFORMANCE-LOG.md, seventh round). */
  EngLimits limits;
  eng_limits_init (&limits, profile, sim->list_time);
  gboolean ok = TRUE;
  for (gsize i = 0; i < sim->n_ops && ok; i++)
    {
      const SchedOp *sop = eng_sop (sim, (guint32) i);
      EngOp *o = &sim->ops[i];
      EngOpResult *r = &sim->results[i];
      o->live = o->run = o->deps_ref = ENG_NONE;
      o->qclass = (guint8) eng_connection_class (sim, sop);
      o->signal_engine = ENG_ENGINE_STREAM;
      r->engine = (guint8) engine_of (sim, sop);
      r->conn = -1;
      r->cause_ref = ENG_NO_REF;
      if (o->qclass != ENG_Q_NONE || sop->kind == SCHED_OP_RECORD || sop->kind == SCHED_OP_WAIT)
        r->conn = (gint8) eng_connection_of (sim, sop->stream);
      ok = (sop->kind != SCHED_OP_KERNEL || eng_kernel_prepare (sim, sop, error))
           && eng_limits_add (&limits, profile, sched, sop, error);
    }
  if (!ok)
    {
      eng_sim_free (sim);
      return NULL;
    }
  eng_sm_init (sim);
  return sim;
}

void
eng_sim_set_reference (EngSim *sim, gboolean reference)
{
  g_return_if_fail (sim != NULL);
  sim->reference = reference;
}

void
eng_sim_free (EngSim *sim)
{
  if (sim == NULL)
    return;
  gpu_profile_clear (&sim->profile);
  sim_queue_free (sim->events);
  g_free (sim->ops);
  g_free (sim->results);
  g_free (sim->edges);
  eng_live_free (sim);
  if (sim->runs)
    g_array_free (sim->runs, TRUE);
  g_free (sim->stream_priority);
  g_free (sim->stream_tail);
  g_free (sim->stream_legacy);
  g_free (sim->dirty);
  g_free (sim->is_dirty);
  g_free (sim->event_record);
  g_free (sim->queues);
  g_free (sim->conn_active_kernel);
  g_free (sim->conn_last_arrival);
  g_free (sim->conn_last_issued);
  eng_kernel_free (sim);
  g_free (sim);
}

/* Settles what an op waited for last when it starts on its engine: the
 * latest of reaching the device, its dependencies, reaching the head of its
 * queue, and its engine becoming free. Ties go to the dependency, then the
 * queue, then the engine: the more specific explanation. */
void
eng_sim_started (EngSim *sim, guint32 op, SimTime now, EngCause engine_cause, guint32 engine_ref)
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
   * it left that answer in its flags when it left the head (eng_connection.c). */
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
}

void
eng_sim_marker_finished (EngSim *sim, guint32 op)
{
  const EngOp *o = &sim->ops[op];
  const EngLive *l = eng_live (sim, op);
  EngOpResult *r = &sim->results[op];
  if (r->engine != ENG_ENGINE_STREAM)
    return;
  if (o->deps_cause != ENG_CAUSE_NONE && l->deps_time > l->arrive)
    {
      r->cause = o->deps_cause;
      r->cause_ref = o->deps_ref;
    }
}

void
eng_sim_run (EngSim *sim)
{
  g_return_if_fail (sim != NULL);
  eng_host_start (sim);
  sim_queue_run (sim->events);
  /* Every op must have run: a leftover means a dependency the model never
   * satisfied, which is a bug, not bad input. Each op finishes once (see
   * eng_op_finish), so counting them is the same check as looking at every
   * op's flags, without a pass over all of them. */
  g_assert (sim->n_finished == sim->n_ops);
}

const EngOpResult *
eng_sim_results (const EngSim *sim)
{
  return sim->results;
}

SimTime
eng_sim_makespan (const EngSim *sim)
{
  return sim->makespan;
}

guint
eng_sim_connections (const EngSim *sim)
{
  return sim->connections;
}

guint
eng_sim_copy_connections (const EngSim *sim)
{
  return sim->copy_connections;
}

guint64
eng_sim_events (const EngSim *sim)
{
  return sim->n_events;
}

static const char *
stream_name (const EngSim *sim, guint32 op)
{
  return schedule_stream (sim->sched, eng_sop (sim, op)->stream)->name;
}

/* " (stream NAME)" */
static void
append_stream_of (const EngSim *sim, guint32 op, GString *out)
{
  STR_APPEND_LITERAL (out, " (stream ");
  str_append_str (out, stream_name (sim, op));
  g_string_append_c (out, ')');
}

void
eng_sim_append_cause (const EngSim *sim, gsize op, GString *out)
{
  g_return_if_fail (op < sim->n_ops && out != NULL);
  const EngOpResult *r = &sim->results[op];
  guint32 ref = r->cause_ref;
  const SchedOp *sop = eng_sop (sim, (guint32) op);
  switch ((EngCause) r->cause)
    {
    case ENG_CAUSE_NONE:
      return;
    case ENG_CAUSE_STREAM:
      STR_APPEND_LITERAL (out, "stream ");
      str_append_str (out, stream_name (sim, ref));
      STR_APPEND_LITERAL (out, " after op ");
      str_append_uint (out, ref);
      return;
    case ENG_CAUSE_EVENT:
      STR_APPEND_LITERAL (out, "event ");
      str_append_str (out, schedule_event_name (sim->sched, eng_sop (sim, ref)->event));
      STR_APPEND_LITERAL (out, " recorded by op ");
      str_append_uint (out, ref);
      append_stream_of (sim, ref, out);
      return;
    case ENG_CAUSE_LEGACY:
      if (sop->stream == SCHED_STREAM_DEFAULT)
        {
          STR_APPEND_LITERAL (out, "legacy default stream waits for op ");
          str_append_uint (out, ref);
          append_stream_of (sim, ref, out);
          return;
        }
      STR_APPEND_LITERAL (out, "legacy default stream op ");
      str_append_uint (out, ref);
      STR_APPEND_LITERAL (out, " must finish first");
      return;
    case ENG_CAUSE_QUEUE:
      STR_APPEND_LITERAL (out, "queue conn");
      if (r->conn < 0)
        {
          g_string_append_c (out, '-');
          str_append_uint (out, (guint64) ABS (r->conn));
        }
      else /* the connection whose queue it is (eng_connection.c, COPY QUEUES) */
        str_append_uint (out, eng_connection_queue_owner (sim, (guint32) op) % sim->connections);
      g_string_append_c (out, '/');
      str_append_str (out, queue_names[r->queue]);
      STR_APPEND_LITERAL (out, " behind op ");
      str_append_uint (out, ref);
      append_stream_of (sim, ref, out);
      STR_APPEND_LITERAL (out, ": false dependency");
      return;
    case ENG_CAUSE_ENGINE:
      STR_APPEND_LITERAL (out, "engine ");
      str_append_str (out, eng_engine_name (r->engine));
      STR_APPEND_LITERAL (out, " busy with op ");
      str_append_uint (out, ref);
      return;
    case ENG_CAUSE_SLOTS:
      if (ref == ENG_NO_REF)
        {
          STR_APPEND_LITERAL (out, "slots: kernel concurrency limit");
          return;
        }
      STR_APPEND_LITERAL (out, "slots held by op ");
      str_append_uint (out, ref);
      STR_APPEND_LITERAL (out, " (SMs full or concurrency limit)");
      return;
    case ENG_CAUSE_DEFERRED:
      STR_APPEND_LITERAL (out, "deferred completion of op ");
      str_append_uint (out, ref);
      STR_APPEND_LITERAL (out, " held until op ");
      str_append_uint (out, eng_sim_waited_for (sim, op));
      STR_APPEND_LITERAL (out, " ended (kernels launched back to back)");
      return;
    case ENG_CAUSE_SYNC:
      if (ref == ENG_NO_REF)
        {
          STR_APPEND_LITERAL (out, "sync");
          return;
        }
      STR_APPEND_LITERAL (out, "sync until op ");
      str_append_uint (out, ref);
      STR_APPEND_LITERAL (out, " finished");
      return;
    default:
      break;
    }
  g_assert_not_reached ();
}

/* The op whose end let a wait of `cause` on `ref` go: `ref`, except for a
 * Fermi deferred completion, where the dependency ended earlier and its
 * completion was signalled when the last kernel of its launch run ended. */
static guint32
link_of (const EngSim *sim, EngCause cause, guint32 ref)
{
  if (cause == ENG_CAUSE_DEFERRED && ref != ENG_NO_REF)
    {
      const EngOp *k = &sim->ops[ref];
      if (k->run != ENG_NONE)
        return g_array_index (sim->runs, EngRun, k->run).released_by;
    }
  return ref;
}

guint32
eng_sim_waited_for (const EngSim *sim, gsize op)
{
  g_return_val_if_fail (op < sim->n_ops, ENG_NO_REF);
  const EngOpResult *r = &sim->results[op];
  if (r->cause == ENG_CAUSE_NONE)
    return ENG_NO_REF;
  return link_of (sim, (EngCause) r->cause, r->cause_ref);
}

gboolean
eng_sim_behind_overtaken (const EngSim *sim, gsize op)
{
  g_return_val_if_fail (op < sim->n_ops, FALSE);
  const EngOpResult *r = &sim->results[op];
  return r->cause == ENG_CAUSE_QUEUE && sim->results[r->cause_ref].start > r->start;
}

/* What held the kernel `ahead` at the head of its queue, for an op behind
 * it that overtook it. That kernel left the queue when the kernel engine
 * admitted it, before the op behind started, and started itself later,
 * after kernels of a higher priority (the left-over policy). Its own cause
 * explains that later start, not its leaving. A false dependency is only
 * charged to an op held at the head by its dependencies (eng_sim_started),
 * so those are what held the queue. */
static guint32
queue_held_by (const EngSim *sim, guint32 ahead)
{
  const EngOp *o = &sim->ops[ahead];
  if (o->deps_cause == ENG_CAUSE_NONE)
    return ENG_NO_REF;
  return link_of (sim, (EngCause) o->deps_cause, o->deps_ref);
}

guint32
eng_sim_queue_released_by (const EngSim *sim, gsize op)
{
  if (!eng_sim_behind_overtaken (sim, op))
    return ENG_NO_REF;
  return queue_held_by (sim, sim->results[op].cause_ref);
}

guint32
eng_sim_issued_after (const EngSim *sim, gsize op)
{
  g_return_val_if_fail (op < sim->n_ops, ENG_NO_REF);
  /* The host issues the ops in their order; the calls between the one
   * found and `op` each held it for their cost only. */
  for (gsize i = op; i-- > 0;)
    if (eng_host_call_holds (eng_sop (sim, (guint32) i)))
      return (guint32) i;
  return ENG_NO_REF;
}

guint32
eng_sim_path_link (const EngSim *sim, gsize op)
{
  g_return_val_if_fail (op < sim->n_ops, ENG_NO_REF);
  if (sim->results[op].cause == ENG_CAUSE_NONE)
    return eng_sim_issued_after (sim, op);
  if (eng_sim_behind_overtaken (sim, op))
    return queue_held_by (sim, sim->results[op].cause_ref);
  return eng_sim_waited_for (sim, op);
}

char *
eng_sim_describe_cause (const EngSim *sim, gsize op)
{
  g_return_val_if_fail (op < sim->n_ops, NULL);
  GString *out = g_string_new (NULL);
  eng_sim_append_cause (sim, op, out);
  return g_string_free (out, FALSE);
}
