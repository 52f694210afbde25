/* eng_callback.c: host functions (cudaLaunchHostFunc), run one at a time by the driver's callback thread when their stream reaches them.
 *
 * Measured on an H100 and an H200 (validate/examples/hostfn_probe.cu,
 * validate/results/<gpu>/probes/): a host function in a stream runs once
 * the work before it in the stream is done, and the stream goes on once it
 * returns, about 20 us later than its own time ([host] hostfn); two host
 * functions of two streams issued together take twice as long as one, so
 * the process has one thread for them; and on eight connections a kernel of
 * another stream does not wait for one. So a host function is an op on an
 * engine of its own, the callback thread, which runs them in the order they
 * became ready, each for hostfn + its time; it waits in no hardware queue. */
#include "eng_callback.h"
#include "eng_live.h"
#include "eng_op.h"

struct EngCallback
{
  EngFifo ready;        /* host functions ready, in the order they became so */
  guint32 running;      /* ENG_NONE when the thread is idle */
  guint32 last;         /* the last one that ran, for causes */
  SimTimer *end;
};

static void
try_run (EngSim *sim, SimTime now)
{
  EngCallback *cb = sim->callback;
  if (cb->running != ENG_NONE)
    return;
  guint32 op = eng_fifo_pop (sim, &cb->ready, ENG_LINK_READY);
  if (op == ENG_NONE)
    return;
  cb->running = op;
  gboolean waited = now > eng_live (sim, op)->submitted;
  eng_op_started (sim, op, now, waited ? ENG_CAUSE_ENGINE : ENG_CAUSE_NONE, cb->last);
  sim_queue_timer_set (cb->end, now + sim->profile.hostfn + eng_sop (sim, op)->u.duration, op);
}

static void
try_run_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) tag;
  try_run (arg, now);
}

static void
end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  EngCallback *cb = sim->callback;
  guint32 op = (guint32) tag;
  sim->n_events++;
  g_assert (cb->running == op);
  cb->running = ENG_NONE;
  cb->last = op;
  gsize posted = eng_posted (sim);
  eng_op_finished (sim, op, now);
  /* the next one after this one's signal has been heard */
  if (eng_posted (sim) != posted)
    eng_post (sim, try_run_step, 0, 0);
  else
    try_run (sim, now);
}

static void
callback_submit (EngSim *sim, guint32 op, SimTime now)
{
  EngCallback *cb = sim->callback;
  eng_live (sim, op)->submitted = now;
  eng_fifo_push (sim, &cb->ready, op, ENG_LINK_READY);
  try_run (sim, now);
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
  cb->running = cb->last = ENG_NONE;
  cb->end = sim_queue_timer_new (sim->events, end_event, sim);
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
