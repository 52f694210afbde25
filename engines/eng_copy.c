/* eng_copy.c: copy engines and the host link: FIFO per direction, latency + bytes / bandwidth, duplex.
 *
 * Copy engines are shared device-wide, one per direction (measured on an
 * H200: two H2D copies from different streams and connections ran one after
 * the other), or a single one for both directions on a one-engine device
 * (C1060). An engine serves the copies handed to it by the connection queues
 * in the order they became ready.
 *
 * A copy that runs alone takes latency + bytes / bandwidth, with the numbers
 * of its direction and host-memory kind. While copies run in both directions
 * at once, each progresses at `duplex_factor` of its solo speed; so a copy's
 * end is recomputed whenever the other direction starts or stops. Each copy
 * keeps the solo-time it has left and a generation number: a rescheduled end
 * event makes the old one stale rather than searching the event queue for it. */
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

static const EngLink *
link_of (const EngProfile *p, const SchedCopy *copy)
{
  switch (copy->dir)
    {
    case SCHED_DIR_H2D:
      return copy->pageable ? &p->h2d_pageable : &p->h2d_pinned;
    case SCHED_DIR_D2H:
      return copy->pageable ? &p->d2h_pageable : &p->d2h_pinned;
    default:
      return &p->d2d;
    }
}

SimTime
eng_copy_solo_time (const EngSim *sim, const SchedOp *sop)
{
  const EngLink *link = link_of (&sim->profile, &sop->u.copy);
  double transfer = (double) sop->u.copy.bytes / link->bandwidth * 1e9;
  return link->latency + (SimTime) llround (transfer);
}

static void copy_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

static void
schedule_end (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  SimTime left = (SimTime) ceil (o->u.c.left / o->u.c.rate - 1e-6);
  if (left < 0)
    left = 0;
  o->u.c.gen++;
  sim_queue_schedule (sim->events, now + left, copy_end_event, sim,
                      ((guint64) o->u.c.gen << 32) | op);
}

/* Brings a running copy's progress up to `now` and gives it a new rate. */
static void
set_rate (EngSim *sim, guint32 op, double rate, SimTime now)
{
  EngOp *o = &sim->ops[op];
  o->u.c.left -= (double) (now - o->u.c.since) * o->u.c.rate;
  if (o->u.c.left < 0)
    o->u.c.left = 0;
  o->u.c.since = now;
  if (rate != o->u.c.rate)
    {
      o->u.c.rate = rate;
      schedule_end (sim, op, now);
    }
}

/* The speed each running host-link copy should have now. */
static void
update_duplex (EngSim *sim, SimTime now)
{
  if (sim->profile.copy_engines < 2)
    return;
  guint32 up = sim->copy[COPY_SLOT_H2D].running;
  guint32 down = sim->copy[COPY_SLOT_D2H].running;
  double rate = (up != ENG_NONE && down != ENG_NONE) ? sim->profile.duplex_factor : 1.0;
  if (up != ENG_NONE)
    set_rate (sim, up, rate, now);
  if (down != ENG_NONE)
    set_rate (sim, down, rate, now);
}

static void
try_start (EngSim *sim, guint slot, SimTime now)
{
  EngCopyEngine *engine = &sim->copy[slot];
  if (engine->running != ENG_NONE)
    return;
  guint32 op = eng_fifo_pop (sim, &engine->ready, ENG_LINK_READY);
  if (op == ENG_NONE)
    return;
  EngOp *o = &sim->ops[op];
  engine->running = op;
  if (now > o->submitted)
    {
      o->engine_cause = ENG_CAUSE_ENGINE;
      o->engine_ref = engine->last;
      o->engine_time = now;
    }
  o->u.c.left = (double) o->u.c.solo;
  o->u.c.rate = 1.0;
  o->u.c.since = now;
  eng_sim_started (sim, op, now);
  schedule_end (sim, op, now);
  eng_connection_pop (sim, op, now);
  if (slot != COPY_SLOT_D2D)
    update_duplex (sim, now);
}

static void
copy_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) (tag & 0xffffffffu);
  guint32 gen = (guint32) (tag >> 32);
  sim->n_events++;
  if (sim->ops[op].u.c.gen != gen)
    return; /* rescheduled by a duplex change */
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
eng_copy_submit (EngSim *sim, guint32 op, SimTime now)
{
  const SchedOp *sop = eng_sop (sim, op);
  guint slot = slot_of (sim, sop);
  sim->ops[op].u.c.solo = eng_copy_solo_time (sim, sop);
  eng_fifo_push (sim, &sim->copy[slot].ready, op, ENG_LINK_READY);
  try_start (sim, slot, now);
}
