/* eng_engine.h: how an engine plugs into the model: a small table of operations per class of op (as ROSS's tw_lptype).
 *
 * eng_op.c owns an op's life and calls its class at two points: when the
 * model is set up (prepare: check the op against the device) and when the op
 * may go to its engine (submit: it is at the head of its connection's queue,
 * if it has one, and its dependencies are met). From then on the engine
 * reports back to eng_op.c (eng_op_accepted, eng_op_started,
 * eng_op_finished); it never calls another part of the model. A new kind of
 * op (a memset, a host function, a graph launch) is a new class, or a new
 * entry of eng_op.c's table of kinds. */
#ifndef ENG_ENGINE_H
#define ENG_ENGINE_H

#include "eng_state.h"

typedef struct
{
  const char *name;
  /* Sets up the engine's state in `sim` (the profile and schedule are in
   * place), and frees it; NULL when it keeps none. */
  void (*init) (EngSim *sim);
  void (*free) (EngSim *sim);
  /* Checks one op of this class against the device before the run, with a
   * file:line:column message; NULL: nothing to check. */
  gboolean (*prepare) (EngSim *sim, guint32 op, GError **error);
  /* The engine an op of this class runs on (the result's `engine`) and the
   * queue it waits in (ENG_Q_NONE: none). */
  EngEngine (*engine_of) (const EngSim *sim, const SchedOp *sop);
  EngQueueClass (*queue_of) (const EngSim *sim, const SchedOp *sop);
  /* The op may go: it is the engine's now. */
  void (*submit) (EngSim *sim, guint32 op, SimTime now);
} EngEngineClass;

/* The classes: eng_marker.h (records and waits), eng_copy.h, eng_kernel.h
 * (kernels, memsets), eng_callback.h (host functions). */

#endif /* ENG_ENGINE_H */
