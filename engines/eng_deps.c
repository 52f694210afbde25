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
 * Record and wait ops are markers (eng_marker.c): they run on no engine and
 * pass their dependencies through, so that a kernel behind `wait s2 e1` sees
 * the completion of the op before `record e1 s1`, with the latency of that
 * op's engine, and its cause names the event.
 *
 * An op's dependents hear of its completion one at a time, each in a step
 * of its own (sim_queue_post): what a dependent that becomes ready sets off
 * (its engine starting it, ...) is settled before the next hears. */
#include "eng_deps.h"
#include "eng_fermi.h"
#include "eng_op.h"

/* How a dependent learns of an op's completion. */
typedef enum
{
  EDGE_STREAM,
  EDGE_EVENT,
  EDGE_LEGACY,
  EDGE_LOAD,    /* a launch that loads its kernel's code waits for the GPU to go idle */
  EDGE_LOADED,  /* an op issued after such a launch waits for it to start */
} EdgeKind;

/* Which of an op's dependents hear of it (signal_from). */
typedef enum
{
  HEAR_ALL,     /* its completion, seen by every dependent */
  HEAR_KERNELS, /* a Fermi kernel's held completion, seen by kernels alone */
  HEAR_STARTED, /* a loading launch's start, by the ops issued after it */
} Hearing;

/* One dependency, from the op waited on (which lists its edges through
 * EngLive.first_edge and `next`) to the waiting op. */
typedef struct
{
  guint32 target;  /* ENG_NONE once it has been told */
  guint32 next;    /* next edge of the same source op */
  guint8 kind;     /* EdgeKind */
} Edge;

struct EngDeps
{
  Edge *edges;            /* n_edges of edges_cap */
  guint32 n_edges, edges_cap;
  guint32 free_edges;     /* edges of signaled ops, reused through Edge.next */
  guint32 *stream_tail;   /* last op issued to each stream */
  /* A graph's branches (SchedOp.graph_branch): per stream, the last op
   * it was given in the launch lane_graph names, apart from stream_tail;
   * made at the first branch. */
  guint32 *lane_tail;
  guint32 *lane_graph;
  guint32 *stream_legacy; /* last legacy op each stream has an edge from */
  guint32 *event_record;  /* most recent record of each event */
  guint32 last_legacy;
  guint32 loading;        /* a launch that loads its code and has not started, or ENG_NONE */
  guint32 *dirty;         /* blocking streams with ops since the last legacy op */
  guint n_dirty;
  gboolean *is_dirty;
};

void
eng_deps_init (EngSim *sim)
{
  EngDeps *d = g_new0 (EngDeps, 1);
  /* Edges are reused once their source has signaled, so there are about
   * as many as ops in flight, not as ops. */
  d->edges_cap = 1024;
  d->edges = g_new (Edge, d->edges_cap);
  d->free_edges = ENG_NONE;
  guint n_streams = schedule_n_streams (sim->sched);
  d->stream_tail = g_new (guint32, n_streams);
  d->stream_legacy = g_new (guint32, n_streams);
  d->dirty = g_new (guint32, n_streams);
  d->is_dirty = g_new0 (gboolean, n_streams);
  for (guint s = 0; s < n_streams; s++)
    d->stream_tail[s] = d->stream_legacy[s] = ENG_NONE;
  guint n_events = schedule_n_events (sim->sched);
  d->event_record = g_new (guint32, MAX (n_events, 1));
  for (guint e = 0; e < n_events; e++)
    d->event_record[e] = ENG_NONE;
  d->last_legacy = d->loading = ENG_NONE;
  sim->deps = d;
}

void
eng_deps_free (EngSim *sim)
{
  EngDeps *d = sim->deps;
  if (d == NULL)
    return;
  g_free (d->edges);
  g_free (d->stream_tail);
  g_free (d->lane_tail);
  g_free (d->lane_graph);
  g_free (d->stream_legacy);
  g_free (d->dirty);
  g_free (d->is_dirty);
  g_free (d->event_record);
  g_free (d);
  sim->deps = NULL;
}

guint32
eng_deps_stream_last (const EngSim *sim, guint stream)
{
  return sim->deps->stream_tail[stream];
}

guint32
eng_deps_order_last (const EngSim *sim, guint32 op)
{
  const EngDeps *d = sim->deps;
  const SchedOp *sop = eng_sop (sim, op);
  if (!sop->graph_branch)
    return d->stream_tail[sop->stream];
  if (d->lane_graph == NULL || d->lane_graph[sop->stream] != sop->graph)
    return ENG_NONE;
  return d->lane_tail[sop->stream];
}

guint32
eng_deps_event_last (const EngSim *sim, guint event)
{
  return sim->deps->event_record[event];
}

static EngEngine
target_engine (const EngSim *sim, guint32 op)
{
  return (EngEngine) sim->results[op].engine;
}

/* Whether a completion on `from` reaches `to` across engines, after the
 * `dependency` latency: not a host function's, a marker's or the host's, not
 * on the same engine, not between kernels and d2d copies. */
static gboolean
cross_engine (EngEngine from, EngEngine to)
{
  if (from == ENG_ENGINE_CALLBACK || from == ENG_ENGINE_STREAM || to == ENG_ENGINE_STREAM
      || to == ENG_ENGINE_HOST || from == ENG_ENGINE_HOST || to == ENG_ENGINE_CALLBACK || from == to)
    return FALSE;
  /* Kernels and d2d copies share the compute queue, and a completion passes
   * between them as between two kernels: a d2d behind a kernel of its stream
   * started 1.0 us after it (traces/validation/d2d, H100 and H200), where a
   * D2H waits `dependency` (4.8 and 7.1 us); in the corpus's reduction, 1.2
   * to 1.4 us either way (validate/results/<gpu>/real/). */
  return !((from == ENG_ENGINE_COMPUTE && to == ENG_ENGINE_D2D)
           || (from == ENG_ENGINE_D2D && to == ENG_ENGINE_COMPUTE));
}

SimTime
eng_deps_latency (const EngSim *sim, EngEngine from, EngEngine to)
{
  if (from == ENG_ENGINE_CALLBACK)
    return sim->profile.hostfn_resume;
  if (from == ENG_ENGINE_STREAM || to == ENG_ENGINE_STREAM || to == ENG_ENGINE_HOST
      || from == ENG_ENGINE_HOST || to == ENG_ENGINE_CALLBACK)
    return 0; /* a host function's wake-up is the callback thread's (eng_callback.c) */
  if (cross_engine (from, to))
    return sim->profile.dependency_latency;
  /* the same engine, or a kernel and a d2d copy */
  return to == ENG_ENGINE_COMPUTE || from == ENG_ENGINE_COMPUTE ? sim->profile.kernel_gap : 0;
}

/* One dependency of `op` is seen at `when`: the latest one seen is what
 * it waited for. */
static void
satisfy (EngSim *sim, guint32 op, SimTime when, EngCause cause, guint32 ref)
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
    eng_op_deps_met (sim, op);
}

static EngCause
edge_cause (EdgeKind kind)
{
  switch (kind)
    {
    case EDGE_EVENT:
      return ENG_CAUSE_EVENT;
    case EDGE_LEGACY:
      return ENG_CAUSE_LEGACY;
    case EDGE_LOAD:
    case EDGE_LOADED:
      return ENG_CAUSE_LOAD;
    default:
      return ENG_CAUSE_STREAM;
    }
}

/* Satisfies one edge from `src` (whose completion is visible at `when`;
 * `deferred` when that is later than its end, on a Fermi device). A marker
 * passes on what it waited for, so causes name the real reason. */
static void
satisfy_from (EngSim *sim, guint32 src, guint32 target, EdgeKind kind, SimTime when,
              gboolean deferred)
{
  const EngOp *s = &sim->ops[src];
  EngCause cause = edge_cause (kind);
  guint32 ref = src;
  gboolean src_marker = target_engine (sim, src) == ENG_ENGINE_STREAM;
  if (deferred)
    cause = ENG_CAUSE_DEFERRED;
  else if (src_marker && s->deps_cause != ENG_CAUSE_NONE && kind == EDGE_STREAM)
    {
      cause = (EngCause) s->deps_cause;
      ref = s->deps_ref;
    }
  EngOp *t = &sim->ops[target];
  SimTime lat = kind == EDGE_LOAD     ? sim->profile.module_load
                : kind == EDGE_LOADED ? 0
                                      : eng_deps_latency (sim, (EngEngine) s->signal_engine,
                                                          target_engine (sim, target));
  /* Nodes of one graph launch follow each other sooner than ops launched
   * one by one: two kernels `graph_node_gap` apart (validate/results/<gpu>/
   * graph-probe/), a node on another engine than the one it follows
   * `graph_engine_gap` after it, where one by one it waits `dependency`
   * (validate/results/<gpu>/graph-copy/). */
  if (kind == EDGE_STREAM && sim->sops[target].graph != 0
      && sim->sops[target].graph == sim->sops[src].graph)
    {
      EngEngine from = (EngEngine) s->signal_engine, to = target_engine (sim, target);
      if (sim->profile.graph_node_gap > 0 && from == ENG_ENGINE_COMPUTE && to == ENG_ENGINE_COMPUTE)
        lat = sim->profile.graph_node_gap;
      else if (sim->profile.graph_engine_gap > 0 && cross_engine (from, to))
        lat = sim->profile.graph_engine_gap;
    }
  if (target_engine (sim, target) == ENG_ENGINE_STREAM && when + lat >= eng_live (sim, target)->deps_time)
    t->signal_engine = s->signal_engine;
  satisfy (sim, target, when + lat, cause, ref);
}

static void
add_edge (EngSim *sim, guint32 src, guint32 target, EdgeKind kind)
{
  if (src == ENG_NONE)
    return;
  EngDeps *d = sim->deps;
  const EngOp *s = &sim->ops[src];
  eng_live (sim, target)->pending++;
  if (kind == EDGE_LOADED && (s->flags & ENG_OP_STARTED))
    {
      satisfy_from (sim, src, target, kind, sim->results[src].start, FALSE);
      return;
    }
  if (s->flags & ENG_OP_SIGNALED)
    {
      SimTime signal_time = eng_fermi_signal_time (sim, src);
      satisfy_from (sim, src, target, kind, signal_time, signal_time > sim->results[src].end);
      return;
    }
  if ((s->flags & ENG_OP_FINISHED) && eng_fermi_seen_early (sim, src, target_engine (sim, target)))
    {
      satisfy_from (sim, src, target, kind, sim->results[src].end, FALSE);
      return;
    }
  guint32 e = d->free_edges;
  if (e != ENG_NONE)
    d->free_edges = d->edges[e].next;
  else
    {
      if (d->n_edges == d->edges_cap)
        {
          g_assert (d->edges_cap < G_MAXUINT32 - 1); /* indexed in 32 bits, ENG_NONE aside */
          d->edges_cap = (guint32) MIN ((guint64) d->edges_cap * 2, G_MAXUINT32 - 1);
          d->edges = g_renew (Edge, d->edges, d->edges_cap);
        }
      e = d->n_edges++;
    }
  EngLive *sl = eng_live (sim, src);
  d->edges[e] = (Edge) { target, sl->first_edge, (guint8) kind };
  sl->first_edge = e;
}

/* Every op issued after a launch that loads its code waits until it
 * starts (eng_deps_issue). */
static void
follow_loading (EngSim *sim, guint32 op)
{
  EngDeps *d = sim->deps;
  if (d->loading != ENG_NONE && (sim->ops[d->loading].flags & ENG_OP_STARTED))
    d->loading = ENG_NONE;
  if (d->loading != ENG_NONE)
    add_edge (sim, d->loading, op, EDGE_LOADED);
}

/* An op of a graph's branch follows the ops its stream was given in the
 * same launch, and the record it waits for, alone: the launch stands in
 * its own stream, and what that stream was given outside the graph, before
 * or after, is no part of it (a launch's branches run in streams of the
 * graph's own). */
static void
issue_branch (EngSim *sim, guint32 op, const SchedOp *sop)
{
  EngDeps *d = sim->deps;
  guint n_streams = schedule_n_streams (sim->sched);
  if (d->lane_tail == NULL)
    {
      d->lane_tail = g_new (guint32, n_streams);
      d->lane_graph = g_new0 (guint32, n_streams);
    }
  add_edge (sim, eng_deps_order_last (sim, op), op, EDGE_STREAM);
  if (sop->kind == SCHED_OP_WAIT && sop->event != SCHED_NONE)
    add_edge (sim, d->event_record[sop->event], op, EDGE_EVENT);
  follow_loading (sim, op);
  d->lane_tail[sop->stream] = op;
  d->lane_graph[sop->stream] = sop->graph;
  if (sop->kind == SCHED_OP_RECORD && sop->event != SCHED_NONE)
    d->event_record[sop->event] = op;
}

void
eng_deps_issue (EngSim *sim, guint32 op)
{
  EngDeps *d = sim->deps;
  const SchedOp *sop = eng_sop (sim, op);
  if (sop->graph_branch)
    {
      issue_branch (sim, op, sop);
      return;
    }
  guint32 stream = sop->stream;
  const SchedStream *st = schedule_stream (sim->sched, stream);

  add_edge (sim, d->stream_tail[stream], op, EDGE_STREAM);

  if (sop->kind == SCHED_OP_WAIT && sop->event != SCHED_NONE)
    add_edge (sim, d->event_record[sop->event], op, EDGE_EVENT);

  if (stream == SCHED_STREAM_DEFAULT)
    {
      for (guint i = 0; i < d->n_dirty; i++)
        {
          guint32 b = d->dirty[i];
          d->is_dirty[b] = FALSE;
          if (d->stream_tail[b] != d->stream_tail[stream])
            add_edge (sim, d->stream_tail[b], op, EDGE_LEGACY);
        }
      d->n_dirty = 0;
      d->last_legacy = op;
    }
  else if (!st->nonblocking)
    {
      if (d->last_legacy != ENG_NONE && d->stream_legacy[stream] != d->last_legacy)
        {
          add_edge (sim, d->last_legacy, op, EDGE_LEGACY);
          d->stream_legacy[stream] = d->last_legacy;
        }
      if (!d->is_dirty[stream])
        {
          d->is_dirty[stream] = TRUE;
          d->dirty[d->n_dirty++] = stream;
        }
    }

  /* Loading a kernel's code holds the whole GPU (measured on an H100,
   * traces/validation/loads): a launch that loads waits for every op issued
   * before it, in any stream (its own stream's last op is an edge already),
   * and every op issued after it waits until it starts. */
  follow_loading (sim, op);
  if (sop->kind == SCHED_OP_KERNEL && sop->u.kernel.loads)
    {
      for (guint s = 0; s < schedule_n_streams (sim->sched); s++)
        if (s != stream && d->stream_tail[s] != ENG_NONE)
          add_edge (sim, d->stream_tail[s], op, EDGE_LOAD);
      d->loading = op;
    }

  d->stream_tail[stream] = op;
  if (sop->kind == SCHED_OP_RECORD && sop->event != SCHED_NONE)
    d->event_record[sop->event] = op;
}

/* Tells the dependents of `op` on its edges from `e` on, until one of them
 * has something to do (a step posted: it runs first, and this walk goes on
 * in a step after it); TRUE when it posted steps. `hear` says which
 * dependents hear and of what (Hearing); the edges of those that heard
 * before the full signal are consumed so that it does not repeat them.
 *
 * After the full signal the op's edges go to the free list: an op issued
 * later that depends on a signaled op is satisfied at once (add_edge) and
 * never needs one. Reusing them keeps the edges as many as the ops in
 * flight and in the cache. The chain's order is kept, so dependents hear in
 * the same order. */
static gboolean
signal_from (EngSim *sim, guint32 op, guint32 e, Hearing hear, SimEventFunc again)
{
  EngDeps *d = sim->deps;
  SimTime when = hear == HEAR_KERNELS ? sim->results[op].end
                 : hear == HEAR_STARTED ? sim->results[op].start
                                        : eng_fermi_signal_time (sim, op);
  gboolean deferred = hear == HEAR_ALL && when > sim->results[op].end;
  gsize posted = eng_posted (sim);
  while (e != ENG_NONE)
    {
      guint32 next = d->edges[e].next;
      guint32 target = d->edges[e].target;
      if (target != ENG_NONE
          && (hear == HEAR_ALL
              || (hear == HEAR_KERNELS && target_engine (sim, target) == ENG_ENGINE_COMPUTE)
              || (hear == HEAR_STARTED && d->edges[e].kind == EDGE_LOADED)))
        {
          d->edges[e].target = ENG_NONE;
          satisfy_from (sim, op, target, (EdgeKind) d->edges[e].kind, when,
                        deferred && target_engine (sim, target) != ENG_ENGINE_COMPUTE);
        }
      if (next == ENG_NONE && hear == HEAR_ALL)
        {
          EngLive *l = eng_live (sim, op);
          d->edges[e].next = d->free_edges;
          d->free_edges = l->first_edge;
          l->first_edge = ENG_NONE;
        }
      e = next;
      if (e != ENG_NONE && eng_posted (sim) != posted)
        eng_post (sim, again, op, e);
      if (eng_posted (sim) != posted)
        return TRUE;
    }
  return FALSE;
}

static void
signal_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) now;
  signal_from (arg, ENG_STEP_A (tag), ENG_STEP_B (tag), HEAR_ALL, signal_step);
}

static void
kernels_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) now;
  signal_from (arg, ENG_STEP_A (tag), ENG_STEP_B (tag), HEAR_KERNELS, kernels_step);
}

static void
started_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) now;
  signal_from (arg, ENG_STEP_A (tag), ENG_STEP_B (tag), HEAR_STARTED, started_step);
}

gboolean
eng_deps_signal (EngSim *sim, guint32 op, gboolean compute_only)
{
  return signal_from (sim, op, eng_live (sim, op)->first_edge,
                      compute_only ? HEAR_KERNELS : HEAR_ALL,
                      compute_only ? kernels_step : signal_step);
}

void
eng_deps_started (EngSim *sim, guint32 op)
{
  signal_from (sim, op, eng_live (sim, op)->first_edge, HEAR_STARTED, started_step);
}
