/* eng_sim.c: the model's public face: sets up its parts, wires them to the event core, runs, and reads back what each op did and why. */
#include "eng_callback.h"
#include "eng_connection.h"
#include "eng_copy.h"
#include "eng_deps.h"
#include "eng_fermi.h"
#include "eng_host.h"
#include "eng_kernel.h"
#include "eng_limits.h"
#include "eng_live.h"
#include "eng_op.h"

G_DEFINE_QUARK (eng-error-quark, eng_error)

/* A schedule of ten million ops keeps ten million of each: keep them small
 * (a page fault per 4 KiB of fresh memory is also time). */
G_STATIC_ASSERT (sizeof (EngOp) == 16);
G_STATIC_ASSERT (sizeof (EngLive) == 56);
G_STATIC_ASSERT (sizeof (EngOpResult) == 32);

/* The engines that keep state of their own, set up in this order. */
static const EngEngineClass *const engine_classes[] = { &eng_copy_class, &eng_kernel_class,
                                                         &eng_callback_class };

static const char *const engine_names[ENG_N_ENGINES] = {
  "h2d", "d2h", "copy", "d2d", "compute", "host", "stream", "callback",
};

static const char *const cause_names[ENG_N_CAUSES] = {
  "none", "stream", "event", "legacy", "queue", "engine", "slots", "deferred", "sync", "load",
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

const char *
eng_queue_name (guint queue)
{
  g_return_val_if_fail (queue < ENG_N_QUEUES, "?");
  return queue_names[queue];
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
  sim->sops = schedule_ops (sched);
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
  sim->free_live = ENG_NONE; /* the slots come as the host issues (eng_live.c) */
  sim->list_time = g_array_new (FALSE, FALSE, sizeof (SimTime));
  sim->events = sim_queue_new ();

  eng_connection_init (sim, connections);
  eng_deps_init (sim);
  eng_fermi_init (sim);
  eng_host_init (sim);
  for (guint i = 0; i < G_N_ELEMENTS (engine_classes); i++)
    engine_classes[i]->init (sim);

  /* One pass over the ops: each op's state, its check against the device,
   * the bound on simulated time. On a fresh page every op's first touch is
   * a page fault, and each further pass over 10^6 ops costs milliseconds. */
  EngLimits limits;
  eng_limits_init (&limits, profile, sim->list_time);
  gboolean ok = TRUE;
  for (gsize i = 0; i < sim->n_ops && ok; i++)
    ok = eng_op_prepare (sim, (guint32) i, error)
         && eng_limits_add (&limits, profile, sched, eng_sop (sim, (guint32) i), error);
  if (!ok)
    {
      eng_sim_free (sim);
      return NULL;
    }
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
  for (guint i = 0; i < G_N_ELEMENTS (engine_classes); i++)
    engine_classes[i]->free (sim);
  eng_host_free (sim);
  eng_fermi_free (sim);
  eng_deps_free (sim);
  eng_connection_free (sim);
  eng_live_free (sim);
  sim_queue_free (sim->events);
  if (sim->list_time != NULL)
    g_array_free (sim->list_time, TRUE);
  g_free (sim->ops);
  g_free (sim->results);
  gpu_profile_clear (&sim->profile);
  g_free (sim);
}

void
eng_sim_run (EngSim *sim)
{
  g_return_if_fail (sim != NULL);
  eng_host_start (sim);
  sim_queue_run (sim->events);
  /* Every op must have run: a leftover means a dependency the model never
   * satisfied, which is a bug, not bad input. Each op finishes once
   * (eng_op_finished), so counting them is the same check as looking at
   * every op's flags, without a pass over all of them. */
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
  return eng_connection_count (sim);
}

guint
eng_sim_copy_connections (const EngSim *sim)
{
  return eng_connection_copy_count (sim);
}

guint64
eng_sim_events (const EngSim *sim)
{
  return sim->n_events;
}

const Schedule *
eng_sim_schedule (const EngSim *sim)
{
  return sim->sched;
}

guint
eng_sim_queue_connection (const EngSim *sim, gsize op)
{
  g_return_val_if_fail (op < sim->n_ops && sim->results[op].conn >= 0, 0);
  /* the connection whose queue it is (eng_connection.c, COPY QUEUES) */
  return eng_connection_queue_owner (sim, (guint32) op) % eng_connection_count (sim);
}

/* The op whose end let a wait of `cause` on `ref` go: `ref`, except when
 * that op's completion was held in a Fermi launch run: then the run's
 * release, the end of its last member, let it go. A dependent kernel-to-
 * other-engine wait (ENG_CAUSE_DEFERRED) is held so; a synchronize's op is
 * the member signaled last, the run's oldest, whose end is not what the
 * host waited for. */
static guint32
link_of (const EngSim *sim, EngCause cause, guint32 ref)
{
  if ((cause == ENG_CAUSE_DEFERRED || cause == ENG_CAUSE_SYNC) && ref != ENG_NO_REF)
    return eng_fermi_released_by (sim, ref);
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
  /* A host thread issues its ops in their order; the calls between the one
   * found and `op` each held it for their cost only. A thread's first op
   * was issued after the SPAWN op that started it. */
  guint thread = schedule_op_thread (sim->sched, op);
  for (gsize i = op; i-- > 0;)
    {
      const SchedOp *sop = eng_sop (sim, (guint32) i);
      if (sop->kind == SCHED_OP_SPAWN && sop->u.thread == thread)
        return (guint32) i;
      if (schedule_op_thread (sim->sched, i) == thread && eng_host_call_holds (sop))
        return (guint32) i;
    }
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
