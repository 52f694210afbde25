/* eng_deps.c: who waits for whom: stream order, event waits and the legacy default stream.
 *
 * Dependencies are fixed when the host issues an op, from the issue order
 * alone: the previous op of its stream, the most recent record of an event it
 * waits on, and the legacy default stream's barriers. Each becomes an edge
 * from the op waited on to the waiting op; an op counts its unsatisfied edges
 * and becomes ready when the count reaches zero.
 *
 * The legacy default stream: an op issued to it waits for the last op of every
 * blocking stream, and the next op of each blocking stream waits for it.
 * Rather than scanning every stream at each default-stream op, we keep the
 * list of blocking streams that received work since the last default-stream
 * op (`dirty`), so the cost stays proportional to the work issued.
 *
 * Record and wait ops are markers: they run on no engine and pass their
 * dependencies through, so that a kernel behind `wait s2 e1` sees the
 * completion of the op before `record e1 s1`, with the latency of that op's
 * engine, and its cause names the event. */
#include "eng_internal.h"

static EngEngine
target_engine (const EngSim *sim, guint32 op)
{
  return (EngEngine) sim->results[op].engine;
}

SimTime
eng_deps_latency (const EngSim *sim, EngEngine from, EngEngine to)
{
  if (from == ENG_ENGINE_STREAM || to == ENG_ENGINE_STREAM || to == ENG_ENGINE_HOST
      || from == ENG_ENGINE_HOST)
    return 0;
  if (from == to)
    return to == ENG_ENGINE_COMPUTE ? sim->profile.kernel_gap : 0;
  return sim->profile.dependency_latency;
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
  if (sim->ops[op].qclass == ENG_Q_NONE)
    {
      /* a marker resolves as soon as it is issued and its dependencies are seen */
      sim->results[op].start = now;
      eng_op_finish (sim, op, now);
    }
  else
    eng_connection_pump (sim, eng_connection_queue_owner (sim, op), sim->ops[op].qclass, now);
}

void
eng_deps_wake_later (EngSim *sim, guint32 op)
{
  EngOp *o = &sim->ops[op];
  if (!(o->flags & ENG_OP_DEPS_EVENT))
    {
      o->flags |= ENG_OP_DEPS_EVENT;
      sim_queue_schedule (sim->events, eng_live (sim, op)->deps_time, deps_ready_event, sim, op);
    }
}

/* Called when an op's last dependency is satisfied, or when it arrives. The
 * dependency may be seen only later (cross-engine latency): then an event
 * wakes the op at that time. */
static inline void
deps_maybe_ready (EngSim *sim, guint32 op, const EngOp *o, const EngLive *l, SimTime now)
{
  if (l->pending > 0 || !(o->flags & ENG_OP_ARRIVED) || (o->flags & ENG_OP_STARTED))
    return;
  if (l->deps_time > now)
    {
      eng_deps_wake_later (sim, op);
      return;
    }
  deps_ready_event (sim->events, now, sim, op);
}

void
eng_deps_arrived (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  EngLive *l = eng_live (sim, op);
  o->flags |= ENG_OP_ARRIVED;
  l->arrive = now;
  deps_maybe_ready (sim, op, o, l, now);
}

void
eng_deps_satisfy (EngSim *sim, guint32 op, SimTime when, EngCause cause, guint32 ref)
{
  EngOp *o = &sim->ops[op];
  EngLive *l = eng_live (sim, op);
  g_assert (l->pending > 0);
  if (when >= l->deps_time)
    {
      l->deps_time = when;
      o->deps_cause = (guint8) cause;
      o->deps_ref = ref;
    }
  l->pending--;
  if (l->pending == 0)
    deps_maybe_ready (sim, op, o, l, sim_queue_now (sim->events));
}

static EngCause
edge_cause (EngEdgeKind kind)
{
  switch (kind)
    {
    case ENG_EDGE_EVENT:
      return ENG_CAUSE_EVENT;
    case ENG_EDGE_LEGACY:
      return ENG_CAUSE_LEGACY;
    default:
      return ENG_CAUSE_STREAM;
    }
}

/* Satisfies one edge from `src` (whose completion is visible at `when`). A
 * marker passes on what it waited for, so causes name the real reason. */
static void
satisfy_from (EngSim *sim, guint32 src, guint32 target, EngEdgeKind kind, SimTime when,
              gboolean deferred)
{
  const EngOp *s = &sim->ops[src];
  EngCause cause = edge_cause (kind);
  guint32 ref = src;
  if (deferred)
    cause = ENG_CAUSE_DEFERRED;
  else if (s->qclass == ENG_Q_NONE && s->deps_cause != ENG_CAUSE_NONE && kind == ENG_EDGE_STREAM)
    {
      cause = (EngCause) s->deps_cause;
      ref = s->deps_ref;
    }
  EngOp *t = &sim->ops[target];
  SimTime lat = eng_deps_latency (sim, (EngEngine) s->signal_engine, target_engine (sim, target));
  if (t->qclass == ENG_Q_NONE && when + lat >= eng_live (sim, target)->deps_time)
    t->signal_engine = s->signal_engine;
  eng_deps_satisfy (sim, target, when + lat, cause, ref);
}

static void
add_edge (EngSim *sim, guint32 src, guint32 target, EngEdgeKind kind)
{
  if (src == ENG_NONE)
    return;
  const EngOp *s = &sim->ops[src];
  eng_live (sim, target)->pending++;
  if (s->flags & ENG_OP_SIGNALED)
    {
      SimTime signal_time = eng_op_signal_time (sim, src);
      satisfy_from (sim, src, target, kind, signal_time, signal_time > sim->results[src].end);
      return;
    }
  /* A Fermi kernel that ended but whose completion is held is already
   * visible to the kernel engine itself. */
  if ((s->flags & ENG_OP_FINISHED) && target_engine (sim, target) == ENG_ENGINE_COMPUTE)
    {
      satisfy_from (sim, src, target, kind, sim->results[src].end, FALSE);
      return;
    }
  guint32 e = sim->free_edges;
  if (e != ENG_NONE)
    sim->free_edges = sim->edges[e].next;
  else
    {
      /* appended here rather than with g_array_append_val: two library
       * calls (the append and its memcpy) for 12 bytes */
      if (sim->n_edges == sim->edges_cap)
        {
          g_assert (sim->edges_cap < G_MAXUINT32 - 1); /* indexed in 32 bits, ENG_NONE aside */
          sim->edges_cap = (guint32) MIN ((guint64) sim->edges_cap * 2, G_MAXUINT32 - 1);
          sim->edges = g_renew (EngEdge, sim->edges, sim->edges_cap);
        }
      e = sim->n_edges++;
    }
  EngLive *sl = eng_live (sim, src);
  sim->edges[e] = (EngEdge) { target, sl->first_edge, (guint8) kind };
  sl->first_edge = e;
}

void
eng_deps_issue (EngSim *sim, guint32 op)
{
  const SchedOp *sop = eng_sop (sim, op);
  guint32 stream = sop->stream;
  const SchedStream *st = schedule_stream (sim->sched, stream);

  add_edge (sim, sim->stream_tail[stream], op, ENG_EDGE_STREAM);

  if (sop->kind == SCHED_OP_WAIT && sop->event != SCHED_NONE)
    add_edge (sim, sim->event_record[sop->event], op, ENG_EDGE_EVENT);

  if (stream == SCHED_STREAM_DEFAULT)
    {
      for (guint i = 0; i < sim->n_dirty; i++)
        {
          guint32 b = sim->dirty[i];
          sim->is_dirty[b] = FALSE;
          if (sim->stream_tail[b] != sim->stream_tail[stream])
            add_edge (sim, sim->stream_tail[b], op, ENG_EDGE_LEGACY);
        }
      sim->n_dirty = 0;
      sim->last_legacy = op;
    }
  else if (!st->nonblocking)
    {
      if (sim->last_legacy != ENG_NONE && sim->stream_legacy[stream] != sim->last_legacy)
        {
          add_edge (sim, sim->last_legacy, op, ENG_EDGE_LEGACY);
          sim->stream_legacy[stream] = sim->last_legacy;
        }
      if (!sim->is_dirty[stream])
        {
          sim->is_dirty[stream] = TRUE;
          sim->dirty[sim->n_dirty++] = stream;
        }
    }

  sim->stream_tail[stream] = op;
  if (sop->kind == SCHED_OP_RECORD && sop->event != SCHED_NONE)
    sim->event_record[sop->event] = op;
}

/* Tells dependents that `op` completed at `when`. With compute_only, only
 * kernels hear it (a Fermi kernel whose completion signal is held); their
 * edges are consumed so the later full signal does not repeat them.
 *
 * After the full signal the op's edges go to the free list: an op issued
 * later that depends on a signaled op is satisfied at once (add_edge) and
 * never needs one. Reusing them keeps the edges as many as the ops in
 * flight (at 10^6 generated ops, 12 MB of fresh pages fewer) and in the
 * cache. The chain's order is kept, so dependents hear in the same order. */
void
eng_deps_signal (EngSim *sim, guint32 op, SimTime when, gboolean compute_only)
{
  gboolean deferred = !compute_only && when > sim->results[op].end;
  guint32 last = ENG_NONE;
  for (guint32 e = eng_live (sim, op)->first_edge; e != ENG_NONE;)
    {
      /* by index, not pointer: a dependent that becomes ready may let the
       * host issue more ops, whose edges can move the array */
      guint32 next = sim->edges[e].next;
      guint32 target = sim->edges[e].target;
      if (target != ENG_NONE
          && (!compute_only || target_engine (sim, target) == ENG_ENGINE_COMPUTE))
        {
          sim->edges[e].target = ENG_NONE;
          satisfy_from (sim, op, target, (EngEdgeKind) sim->edges[e].kind, when,
                        deferred && target_engine (sim, target) != ENG_ENGINE_COMPUTE);
        }
      last = e;
      e = next;
    }
  if (!compute_only && last != ENG_NONE)
    {
      EngLive *l = eng_live (sim, op);
      sim->edges[last].next = sim->free_edges;
      sim->free_edges = l->first_edge;
      l->first_edge = ENG_NONE;
    }
}

/* Signals the members of a Fermi launch run, newest first. */
static void
release_run (EngSim *sim, guint32 run_index, SimTime now)
{
  EngRun *run = &g_array_index (sim->runs, EngRun, run_index);
  run->released = TRUE;
  run->release_time = now;
  guint32 first = run->first;
  for (guint32 m = run->last + 1; m-- > first;)
    {
      EngOp *o = &sim->ops[m];
      if (o->run != run_index)
        continue; /* host work or a sync between two members */
      o->flags |= ENG_OP_SIGNALED;
      eng_deps_signal (sim, m, now, FALSE);
      eng_host_op_signaled (sim, m, now);
      eng_live_release (sim, m);
    }
}

void
eng_op_finish (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  g_assert (!(o->flags & ENG_OP_FINISHED));
  o->flags |= ENG_OP_FINISHED | ENG_OP_STARTED;
  sim->n_finished++;
  sim->results[op].end = now;
  if (now > sim->makespan)
    sim->makespan = now;

  /* A marker resolved by its dependencies carries their engine on, so that
   * the cross-engine latency is paid once, by whoever waits on it; one the
   * host issued late completes on no engine. */
  if (o->qclass != ENG_Q_NONE)
    o->signal_engine = sim->results[op].engine;
  else
    {
      const EngLive *l = eng_live (sim, op);
      if (o->deps_cause == ENG_CAUSE_NONE || l->deps_time < l->arrive)
        o->signal_engine = ENG_ENGINE_STREAM;
      eng_sim_marker_finished (sim, op);
    }

  if (o->run != ENG_NONE)
    {
      EngRun *run = &g_array_index (sim->runs, EngRun, o->run);
      eng_deps_signal (sim, op, now, TRUE);
      g_assert (run->unfinished > 0);
      run->unfinished--;
      if (run->unfinished == 0)
        {
          run->released_by = op;
          release_run (sim, o->run, now);
        }
      return;
    }
  o->flags |= ENG_OP_SIGNALED;
  eng_deps_signal (sim, op, now, FALSE);
  eng_host_op_signaled (sim, op, now);
  eng_live_release (sim, op);
}
