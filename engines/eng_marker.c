/* eng_marker.c: event records and waits, markers in their stream that run on no engine.
 *
 * A marker has no queue: it resolves as soon as it has reached the device
 * and its dependencies (the op before it in its stream; for a wait, the
 * record it waits on) are seen. It passes them through: a kernel behind
 * `wait s2 e1` sees the completion of the op before `record e1 s1`, with the
 * latency of that op's engine, and its cause names the event (eng_deps.c,
 * eng_op.c). */
#include "eng_marker.h"
#include "eng_op.h"

static EngEngine
marker_engine (const EngSim *sim, const SchedOp *sop)
{
  (void) sim;
  (void) sop;
  return ENG_ENGINE_STREAM;
}

static EngQueueClass
marker_queue (const EngSim *sim, const SchedOp *sop)
{
  (void) sim;
  (void) sop;
  return ENG_Q_NONE;
}

static void
marker_submit (EngSim *sim, guint32 op, SimTime now)
{
  sim->results[op].start = now;
  eng_op_finished (sim, op, now);
}

const EngEngineClass eng_marker_class = {
  .name = "marker",
  .engine_of = marker_engine,
  .queue_of = marker_queue,
  .submit = marker_submit,
};
