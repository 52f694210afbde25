/* eng_op.h: an op's life, from the host's call to the moment every dependent can see it completed (eng_op.c).
 *
 * The parts of the model report the steps of an op's life here, and eng_op.c
 * decides what follows: the host issues it, the dependencies say when they
 * are met, the engines say when they take it, start it and finish it. */
#ifndef ENG_OP_H
#define ENG_OP_H

#include "eng_engine.h"

/* The class of `op`'s kind (eng_engine.h); NULL for the host's own calls
 * (host work, synchronizations), which run on no engine. */
const EngEngineClass *eng_op_class (const EngSim *sim, guint32 op);

/* Sets up `op`'s state and result before the run, and asks its class to
 * check it against the device. */
gboolean eng_op_prepare (EngSim *sim, guint32 op, GError **error);

/* The host made the device call `op` at `now`, and it holds the host for
 * `cost`: the op is in flight from here; it reaches its queue after the cost
 * and the device's submit latency. */
void eng_op_issue (EngSim *sim, guint32 op, SimTime now, SimTime cost);
/* The host did `op` (host work, a synchronization) in its own call: it is
 * finished and signaled, on no engine. */
void eng_op_done_on_host (EngSim *sim, guint32 op);

/* The dependencies (eng_deps.c): the last of `op`'s dependencies is
 * satisfied; it is seen at its deps_time. */
void eng_op_deps_met (EngSim *sim, guint32 op);

/* The engines. `op` left the head of its queue for its engine at `now`. */
void eng_op_accepted (EngSim *sim, guint32 op, SimTime now);
/* `op` starts on its engine at `now`; engine_cause is ENG_CAUSE_ENGINE or
 * ENG_CAUSE_SLOTS when it waited for its engine (held by engine_ref), else
 * ENG_CAUSE_NONE. */
void eng_op_started (EngSim *sim, guint32 op, SimTime now, EngCause engine_cause,
                     guint32 engine_ref);
/* `op` ended on its engine at `now` (a marker: its dependencies were seen). */
void eng_op_finished (EngSim *sim, guint32 op, SimTime now);

/* `op`'s completion becomes visible to every dependent and to the host now:
 * at its end, or for a Fermi launch run's member when the run is released
 * (eng_fermi.c). */
void eng_op_signal (EngSim *sim, guint32 op, SimTime now);

#endif /* ENG_OP_H */
