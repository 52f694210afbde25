/* eng_callback.c: host functions (cudaLaunchHostFunc), run one at a time by the driver's callback thread when their stream reaches them.
 *
 * Measured on an H100 and an H200 (validate/examples/hostfn_probe.cu,
 * validate/results/<gpu>/probes/) and on the H100 with the harness
 * (traces/validation/hostfn-*, validate/results/h100/new-ops/):
 *  - host functions of two streams issued together run one after the
 *    other, so the process has one thread for them; the second begins
 *    about 5 us after the first returns ([host] hostfn_next);
 *  - a function begins some time after its stream reaches it
 *    ([host] hostfn_wake): in the probe, whose stream had GPU work in flight
 *    when the function was issued, the function and its wake-up cost the
 *    stream about 28 us (H100) or 20 us (H200) beyond its own time; where
 *    the stream was idle at the call, the function began 47 to 101 us after
 *    it (hostfn_wake_idle, the harness's schedules);
 *  - its stream goes on 3 to 10 us after it returns ([latency]
 *    hostfn_resume, eng_deps.c);
 *  - with one connection or eight, a kernel of another stream does not
 *    wait for it: it waits in no hardware queue.
 * So the callback thread is an engine of its own: the functions ready for
 * it wait in the order they became ready; an idle thread starts one after
 * the wake-up, a busy one the next after hostfn_next; each runs its own
 * time, which is its row in the timeline. */
#include "eng_callback.h"
#include "eng_live.h"
#include "eng_op.h"

/* What the thread's timer does when it fires. */
enum
{
  PHASE_START = 0,        /* the function begins; its thread was idle */
  PHASE_START_QUEUED = 1, /* the function begins; it waited for the one before */
  PHASE_END = 2,          /* the function returns */
};

struct EngCallback
{
  EngFifo ready;        /* host functions ready, in the order they became so */
  gboolean busy;        /* a function is about to begin or running */
  guint32 last;         /* the last one that ran, for causes */
  SimTimer *timer;      /* the next begin or return, its phase in the tag's top half */
};

static void
set_timer (EngSim *sim, SimTime when, guint32 op, guint phase)
{
  sim_queue_timer_set (sim->callback->timer, when, (guint64) phase << 32 | op);
}

/* Whether the op's stream was idle when the host issued it: what it waits
 * for in its stream was already seen done. */
static gboolean
issued_on_idle_stream (const EngSim *sim, guint32 op)
{
  return eng_live (sim, op)->deps_time <= sim->results[op].issue;
}

static void
timer_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  EngCallback *cb = sim->callback;
  guint32 op = (guint32) tag;
  guint phase = (guint) (tag >> 32);
  sim->n_events++;
  if (phase != PHASE_END)
    {
      eng_op_started (sim, op, now, phase == PHASE_START_QUEUED ? ENG_CAUSE_ENGINE : ENG_CAUSE_NONE,
                      cb->last);
      set_timer (sim, now + eng_sop (sim, op)->u.duration, op, PHASE_END);
      return;
    }
  cb->last = op;
  eng_op_finished (sim, op, now);
  guint32 next = eng_fifo_pop (sim, &cb->ready, ENG_LINK_READY);
  if (next == ENG_NONE)
    cb->busy = FALSE;
  else
    set_timer (sim, now + sim->profile.hostfn_next, next, PHASE_START_QUEUED);
}

static void
callback_submit (EngSim *sim, guint32 op, SimTime now)
{
  EngCallback *cb = sim->callback;
  if (cb->busy)
    {
      eng_fifo_push (sim, &cb->ready, op, ENG_LINK_READY);
      return;
    }
  cb->busy = TRUE;
  SimTime wake = issued_on_idle_stream (sim, op) ? sim->profile.hostfn_wake_idle
                                                 : sim->profile.hostfn_wake;
  set_timer (sim, now + wake, op, PHASE_START);
}

static EngEngine
callback_engine_of (const EngSim *sim, const SchedOp *sop)
{
  (void) sim;
  (void) sop;
  return ENG_ENGINE_CALLBACK;
}

static EngQueueClass
callback_queue_of (const EngSim *sim, const SchedOp *sop)
{
  (void) sim;
  (void) sop;
  return ENG_Q_NONE;
}

static void
callback_init (EngSim *sim)
{
  EngCallback *cb = g_new0 (EngCallback, 1);
  eng_fifo_init (&cb->ready);
  cb->last = ENG_NONE;
  cb->timer = sim_queue_timer_new (sim->events, timer_event, sim);
  sim->callback = cb;
}

static void
callback_free (EngSim *sim)
{
  g_free (sim->callback);
  sim->callback = NULL;
}

const EngEngineClass eng_callback_class = {
  .name = "callback",
  .init = callback_init,
  .free = callback_free,
  .engine_of = callback_engine_of,
  .queue_of = callback_queue_of,
  .submit = callback_submit,
};
