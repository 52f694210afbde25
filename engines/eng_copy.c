/* eng_copy.c: copy engines and the host link: one per direction, connection by connection, latency + bytes / bandwidth, duplex.
 *
 * Copy engines are shared device-wide, one per direction (measured on an
 * H200: two H2D copies from different streams and connections ran one after
 * the other), or a single one for both directions on a one-engine device
 * (C1060). An engine keeps serving the connection it is on: when a copy
 * ends, the next copy of the same connection goes first if it is ready, and
 * only then the copies of other connections, in the order they became ready.
 * Measured on an H100 and an H200 (traces/validation/copies-conn2): eight
 * 4 MiB H2D copies of streams 1..8 on two connections, all ready, finished
 * in the order 1,3,5,7,2,4,6,8, though issued in order; plain FIFO gave
 * 1,2,...,8 and missed single copies by up to 31% of the makespan.
 * (A connection offers an engine at most one copy at a time, the head of its
 * queue for that engine, so the choice scans at most C candidates.)
 *
 * A copy that runs alone takes latency + bytes / bandwidth, with the numbers
 * of its direction and host-memory kind. While copies run in both directions
 * at once, each progresses at `duplex_factor` of its solo speed; so a copy's
 * end is recomputed whenever the other direction starts or stops. The engine
 * keeps its running copy's solo-time left, and its end is a timer of the
 * event core (sim_queue_timer_set), which a recomputed end simply moves.
 * (On the engine rather than per op: only running copies need it, and a
 * schedule may hold millions of ops.) */
#include <math.h>
#include "eng_internal.h"

enum
{
  COPY_SLOT_H2D = 0, /* also the single engine of one-engine devices */
  COPY_SLOT_D2H = 1,
  COPY_SLOT_D2D = 2,
};

static guint
slot_of (const EngSim *sim, const SchedOp *sop)
{
  if (sop->u.copy.dir == SCHED_DIR_D2D)
    return COPY_SLOT_D2D;
  if (sim->profile.copy_engines < 2)
    return COPY_SLOT_H2D;
  return sop->u.copy.dir == SCHED_DIR_H2D ? COPY_SLOT_H2D : COPY_SLOT_D2H;
}

EngEngine
eng_copy_engine_of (const EngSim *sim, const SchedOp *sop)
{
  if (sop->u.copy.dir == SCHED_DIR_D2D)
    return ENG_ENGINE_D2D;
  if (sim->profile.copy_engines < 2)
    return ENG_ENGINE_COPY;
  return sop->u.copy.dir == SCHED_DIR_H2D ? ENG_ENGINE_H2D : ENG_ENGINE_D2H;
}

SimTime
eng_copy_solo_time (const EngSim *sim, const SchedOp *sop)
{
  EngLink link = eng_profile_link (&sim->profile, &sop->u.copy);
  double transfer = (double) sop->u.copy.bytes / link.bandwidth * 1e9;
  return link.latency + (SimTime) llround (transfer);
}

static void copy_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

/* Sets the end of the engine's running copy from its progress, in place of
 * any end set before. */
static void
schedule_end (EngSim *sim, EngCopyEngine *engine, SimTime now)
{
  SimTime left = (SimTime) ceil (engine->left / engine->rate - 1e-6);
  if (left < 0)
    left = 0;
  /* A moved end still counts as an event run, as it did when it was a
   * stale event of the heap (the benchmark's events per op). */
  if (sim_queue_timer_pending (engine->end))
    sim->n_events++;
  sim_queue_timer_set (engine->end, now + left, engine->running);
}

/* Brings the engine's running copy up to `now` and gives it a new rate. */
static void
set_rate (EngSim *sim, EngCopyEngine *engine, double rate, SimTime now)
{
  engine->left -= (double) (now - engine->since) * engine->rate;
  if (engine->left < 0)
    engine->left = 0;
  engine->since = now;
  if (rate != engine->rate)
    {
      engine->rate = rate;
      schedule_end (sim, engine, now);
    }
}

/* The speed each running host-link copy should have now. */
static void
update_duplex (EngSim *sim, SimTime now)
{
  if (sim->profile.copy_engines < 2)
    return;
  EngCopyEngine *up = &sim->copy[COPY_SLOT_H2D];
  EngCopyEngine *down = &sim->copy[COPY_SLOT_D2H];
  double rate = (up->running != ENG_NONE && down->running != ENG_NONE)
                  ? sim->profile.duplex_factor : 1.0;
  if (up->running != ENG_NONE)
    set_rate (sim, up, rate, now);
  if (down->running != ENG_NONE)
    set_rate (sim, down, rate, now);
}

/* The next copy for an idle engine: the ready one of the connection it last
 * served, else the one that has been ready longest. */
static guint32
take_next (EngSim *sim, EngCopyEngine *engine)
{
  EngFifo *ready = &engine->ready;
  if (engine->last != ENG_NONE && ready->head != ready->tail)
    {
      gint8 conn = sim->results[engine->last].conn;
      guint32 prev = ENG_NONE;
      for (guint32 op = ready->head; op != ENG_NONE; prev = op, op = sim->ops[op].next_ready)
        {
          if (sim->results[op].conn != conn)
            continue;
          if (prev == ENG_NONE)
            break; /* already first */
          sim->ops[prev].next_ready = sim->ops[op].next_ready;
          if (ready->tail == op)
            ready->tail = prev;
          sim->ops[op].next_ready = ENG_NONE;
          return op;
        }
    }
  return eng_fifo_pop (sim, ready, ENG_LINK_READY);
}

static void
try_start (EngSim *sim, guint slot, SimTime now)
{
  EngCopyEngine *engine = &sim->copy[slot];
  if (engine->running != ENG_NONE)
    return;
  guint32 op = take_next (sim, engine);
  if (op == ENG_NONE)
    return;
  engine->running = op;
  gboolean waited = now > sim->ops[op].submitted;
  engine->left = (double) eng_copy_solo_time (sim, eng_sop (sim, op));
  engine->rate = 1.0;
  engine->since = now;
  eng_sim_started (sim, op, now, waited ? ENG_CAUSE_ENGINE : ENG_CAUSE_NONE, engine->last);
  schedule_end (sim, engine, now);
  eng_connection_pop (sim, op, now);
  if (slot != COPY_SLOT_D2D)
    update_duplex (sim, now);
}

static void
copy_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) tag;
  sim->n_events++;
  guint slot = slot_of (sim, eng_sop (sim, op));
  EngCopyEngine *engine = &sim->copy[slot];
  g_assert (engine->running == op);
  engine->running = ENG_NONE;
  engine->last = op;
  if (slot != COPY_SLOT_D2D)
    update_duplex (sim, now);
  eng_op_finish (sim, op, now);
  try_start (sim, slot, now);
}

void
eng_copy_start (EngSim *sim)
{
  for (guint i = 0; i < G_N_ELEMENTS (sim->copy); i++)
    sim->copy[i].end = sim_queue_timer_new (sim->events, copy_end_event, sim);
}

void
eng_copy_submit (EngSim *sim, guint32 op, SimTime now)
{
  guint slot = slot_of (sim, eng_sop (sim, op));
  eng_fifo_push (sim, &sim->copy[slot].ready, op, ENG_LINK_READY);
  try_start (sim, slot, now);
}
