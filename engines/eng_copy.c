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
 * schedule may hold millions of ops.)
 *
 * A copy from or to pageable memory does not hold its engine. The driver
 * stages it through a pinned buffer a chunk at a time, and the engine is
 * idle while the CPU copies each chunk into or out of that buffer, which is
 * what limits the copy's rate. So such a copy runs in a lane of its own (at
 * most one: it holds the host until it ends, eng_host.c), and a direct copy
 * (pinned or device memory) that becomes ready meanwhile starts at once, at
 * full speed, while the staged copy waits for it: its chunks queue behind
 * the direct copy. A staged copy starts only when the engine has no direct
 * copy running, in its turn among the ready copies like any other.
 * Measured on an H100 (traces/validation/pageable-beside, validate/results/
 * h100/pageable-beside/): a pinned 8 MiB H2D ran whole inside a pageable
 * 16 MiB H2D at the pinned rate; a pageable copy issued during a long pinned
 * copy of its direction started 2 us after that copy ended. With the staged
 * copy waiting while the pinned one runs, traces/validation/pageable comes
 * out 2 to 4% early; with it going on beside, 10 to 11% early.
 *
 * Not at once, though: the first `pageable_overlap` of the direct copy
 * (the profile's, by the staged copy's direction) goes by while the engine
 * would have idled between the staged copy's chunks, and the staged copy
 * goes on through it; it is held up from then until the direct copy ends.
 * Measured in one process (validate/examples/pageable-inside-d2h.sched,
 * validate/results/<gpu>/pageable-inside/): a 16 MiB pageable D2H was held
 * up by a 4, 8 or 16 MiB pinned D2H inside it for the pinned copy's time
 * less 63 us on the H100 and 39 us on the H200 (medians of 90), an H2D by
 * a pinned H2D for its time less 116 and 114 us. The staged
 * lane's end timer fires at that point (HOLD_TAG) when the copy would not
 * end before it. */
#include <math.h>
#include "eng_connection.h"
#include "eng_copy.h"
#include "eng_live.h"
#include "eng_op.h"

/* A copy in progress on an engine, and how far it has got. */
typedef struct
{
  guint32 op;         /* ENG_NONE when empty */
  SimTimer *end;      /* its end */
  double left;        /* solo-time it has still to go */
  double rate;        /* its progress per ns: 1 alone, the duplex factor in
                       * duplex, 0 while a staged copy yields */
  SimTime since;      /* when `left` was last brought up to date */
} Lane;

/* One copy engine (a direction, or both on one-engine devices), and the
 * copies it runs: one direct copy (pinned or device memory) and one copy
 * staged from or to pageable memory, which moves only while the direct lane
 * is empty. */
typedef struct
{
  EngFifo ready;      /* ops ready for it, in the order they became ready */
  Lane direct;
  Lane staged;        /* never used by the d2d engine */
  guint32 last;       /* last op that ended on it, for causes */
  SimTime hold_from;  /* while a direct copy runs: when it holds the staged copy up */
  gboolean hold_set;  /* the staged lane's timer is set for hold_from, not its end */
} Engine;

/* A staged lane's timer tag: its op, and this bit where it marks the moment
 * the direct copy beside it holds it up rather than its end. */
#define HOLD_TAG (G_GUINT64_CONSTANT (1) << 32)

enum
{
  COPY_SLOT_H2D = 0, /* also the single engine of one-engine devices */
  COPY_SLOT_D2H = 1,
  COPY_SLOT_D2D = 2,
  COPY_SLOTS
};

struct EngCopies
{
  Engine engine[COPY_SLOTS];
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

static Lane *
lane_of (Engine *engine, const SchedOp *sop)
{
  return gpu_profile_copy_staged (&sop->u.copy) ? &engine->staged : &engine->direct;
}

static EngEngine
copy_engine_of (const EngSim *sim, const SchedOp *sop)
{
  if (sop->u.copy.dir == SCHED_DIR_D2D)
    return ENG_ENGINE_D2D;
  if (sim->profile.copy_engines < 2)
    return ENG_ENGINE_COPY;
  return sop->u.copy.dir == SCHED_DIR_H2D ? ENG_ENGINE_H2D : ENG_ENGINE_D2H;
}

static EngQueueClass
copy_queue_of (const EngSim *sim, const SchedOp *sop)
{
  if (sop->u.copy.dir == SCHED_DIR_D2D)
    return ENG_Q_COMPUTE;
  if (sim->profile.copy_engines < 2)
    return ENG_Q_COPY;
  return sop->u.copy.dir == SCHED_DIR_H2D ? ENG_Q_H2D : ENG_Q_D2H;
}

/* Sets the lane's copy's end from its progress, in place of any end set
 * before. */
static void
schedule_end (EngSim *sim, Lane *lane, SimTime now)
{
  SimTime left = (SimTime) ceil (lane->left / lane->rate - 1e-6);
  if (left < 0)
    left = 0;
  /* A moved end counts as an event run, as a stale event would have (the
   * benchmark's events per op). */
  if (sim_queue_timer_pending (lane->end))
    sim->n_events++;
  sim_queue_timer_set (lane->end, now + left, lane->op);
}

/* Brings the lane's copy up to `now` and gives it a new rate; at rate 0 it
 * has no end until it moves again. */
static void
set_rate (EngSim *sim, Lane *lane, double rate, SimTime now)
{
  lane->left -= (double) (now - lane->since) * lane->rate;
  if (lane->left < 0)
    lane->left = 0;
  lane->since = now;
  if (rate == lane->rate)
    return;
  lane->rate = rate;
  if (rate == 0)
    sim_queue_timer_stop (lane->end);
  else
    schedule_end (sim, lane, now);
}

/* A staged copy going on beside a direct copy that has not held it up yet:
 * its timer at its end, or where the direct copy will hold it up if that
 * comes first. */
static void
staged_until_hold (EngSim *sim, Engine *engine, SimTime now)
{
  Lane *lane = &engine->staged;
  SimTime left = (SimTime) ceil (lane->left / lane->rate - 1e-6);
  if (now + MAX (left, 0) <= engine->hold_from)
    {
      schedule_end (sim, lane, now);
      engine->hold_set = FALSE;
      return;
    }
  if (sim_queue_timer_pending (lane->end))
    sim->n_events++;
  sim_queue_timer_set (lane->end, engine->hold_from, lane->op | HOLD_TAG);
  engine->hold_set = TRUE;
}

static gboolean
engine_busy (const Engine *engine)
{
  return engine->direct.op != ENG_NONE || engine->staged.op != ENG_NONE;
}

/* The speed each running host-link copy should have now: the duplex factor
 * while both directions are busy, and nothing for a staged copy while a
 * direct one runs on its engine. */
static void
update_rates (EngSim *sim, SimTime now)
{
  Engine *engines = sim->copy->engine;
  guint n = sim->profile.copy_engines < 2 ? 1 : 2;
  double link = 1.0;
  if (n == 2 && engine_busy (&engines[COPY_SLOT_H2D]) && engine_busy (&engines[COPY_SLOT_D2H]))
    link = sim->profile.duplex_factor;
  for (guint slot = 0; slot < n; slot++)
    {
      Engine *engine = &engines[slot];
      if (engine->direct.op != ENG_NONE)
        set_rate (sim, &engine->direct, link, now);
      if (engine->staged.op != ENG_NONE)
        {
          gboolean beside = engine->direct.op != ENG_NONE;
          gboolean held = beside && now >= engine->hold_from;
          set_rate (sim, &engine->staged, held ? 0.0 : link, now);
          if (beside && !held)
            staged_until_hold (sim, engine, now);
          else if (engine->hold_set && !held)
            {
              /* the direct copy ended before it held the staged one up */
              engine->hold_set = FALSE;
              schedule_end (sim, &engine->staged, now);
            }
          else if (held)
            engine->hold_set = FALSE;
        }
    }
}

/* The next copy for an idle engine: the ready one of the queue it last
 * served (its connection's, or the one it shares: eng_connection.c, COPY
 * QUEUES), else the one that has been ready longest. */
static guint32
take_next (EngSim *sim, Engine *engine)
{
  EngFifo *ready = &engine->ready;
  if (engine->last != ENG_NONE && ready->head != ready->tail)
    {
      guint owner = eng_connection_queue_owner (sim, engine->last);
      guint32 prev = ENG_NONE;
      for (guint32 op = ready->head; op != ENG_NONE; prev = op, op = eng_live (sim, op)->next_ready)
        {
          if (eng_connection_queue_owner (sim, op) != owner)
            continue;
          if (prev == ENG_NONE)
            break; /* already first */
          EngLive *l = eng_live (sim, op);
          eng_live (sim, prev)->next_ready = l->next_ready;
          if (ready->tail == op)
            ready->tail = prev;
          l->next_ready = ENG_NONE;
          return op;
        }
    }
  return eng_fifo_pop (sim, ready, ENG_LINK_READY);
}

static void try_start_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

/* Starts ready copies while the engine has no direct copy (a staged copy
 * that starts leaves room for the next). After each, once the op behind it
 * in its queue has had its turn (eng_op_accepted), the rates are brought up
 * to date: in a step of its own when that turn posted any. */
static void
try_start (EngSim *sim, guint slot, SimTime now)
{
  Engine *engine = &sim->copy->engine[slot];
  while (engine->direct.op == ENG_NONE)
    {
      guint32 op = take_next (sim, engine);
      if (op == ENG_NONE)
        return;
      const SchedOp *sop = eng_sop (sim, op);
      Lane *lane = lane_of (engine, sop);
      /* one host thread: a staged copy holds it until the copy ends, so a
       * second one cannot be ready before the first has left its lane */
      g_assert (lane->op == ENG_NONE);
      lane->op = op;
      if (lane == &engine->direct && engine->staged.op != ENG_NONE)
        engine->hold_from
          = now + sim->profile.pageable_overlap[eng_sop (sim, engine->staged.op)->u.copy.dir];
      gboolean waited = now > eng_live (sim, op)->submitted;
      lane->left = (double) gpu_profile_copy_time (&sim->profile, &sop->u.copy);
      lane->rate = 1.0;
      lane->since = now;
      eng_op_started (sim, op, now, waited ? ENG_CAUSE_ENGINE : ENG_CAUSE_NONE, engine->last);
      schedule_end (sim, lane, now);
      gsize posted = eng_posted (sim);
      eng_op_accepted (sim, op, now);
      if (eng_posted (sim) != posted)
        {
          eng_post (sim, try_start_step, slot, TRUE);
          return;
        }
      if (slot != COPY_SLOT_D2D)
        update_rates (sim, now);
    }
}

/* With `rates`, after a copy started on the engine: the rates first. */
static void
try_start_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 slot = ENG_STEP_A (tag), rates = ENG_STEP_B (tag);
  if (rates && slot != COPY_SLOT_D2D)
    update_rates (sim, now);
  try_start (sim, slot, now);
}

static void
copy_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) tag;
  sim->n_events++;
  const SchedOp *sop = eng_sop (sim, op);
  guint slot = slot_of (sim, sop);
  Engine *engine = &sim->copy->engine[slot];
  if (tag & HOLD_TAG)
    {
      /* the direct copy beside the staged one holds it up from now */
      update_rates (sim, now);
      return;
    }
  Lane *lane = lane_of (engine, sop);
  g_assert (lane->op == op);
  lane->op = ENG_NONE;
  engine->last = op;
  if (slot != COPY_SLOT_D2D)
    update_rates (sim, now);
  gsize posted = eng_posted (sim);
  eng_op_finished (sim, op, now);
  /* after the op's signal has been heard */
  if (eng_posted (sim) != posted)
    eng_post (sim, try_start_step, slot, FALSE);
  else
    try_start (sim, slot, now);
}

static void
copy_init (EngSim *sim)
{
  EngCopies *c = g_new0 (EngCopies, 1);
  for (guint i = 0; i < COPY_SLOTS; i++)
    {
      Engine *e = &c->engine[i];
      eng_fifo_init (&e->ready);
      e->direct.op = e->staged.op = e->last = ENG_NONE;
      e->hold_set = FALSE;
      e->direct.end = sim_queue_timer_new (sim->events, copy_end_event, sim);
      /* d2d copies are never staged: the timer slots are few (sim_queue.h).
       * Making each timer only with its lane's first copy measured 0.3%
       * fewer instructions (callgrind, 10^5 ops): not kept. */
      e->staged.end = i == COPY_SLOT_D2D ? NULL : sim_queue_timer_new (sim->events, copy_end_event, sim);
    }
  sim->copy = c;
}

static void
copy_free (EngSim *sim)
{
  g_free (sim->copy);
  sim->copy = NULL;
}

static void
copy_submit (EngSim *sim, guint32 op, SimTime now)
{
  guint slot = slot_of (sim, eng_sop (sim, op));
  eng_fifo_push (sim, &sim->copy->engine[slot].ready, op, ENG_LINK_READY);
  try_start (sim, slot, now);
}

const EngEngineClass eng_copy_class = {
  .name = "copy",
  .init = copy_init,
  .free = copy_free,
  .engine_of = copy_engine_of,
  .queue_of = copy_queue_of,
  .submit = copy_submit,
};
