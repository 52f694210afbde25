/* eng_host.h: the host thread, which makes the schedule's calls in order and blocks where CUDA blocks (eng_host.c). */
#ifndef ENG_HOST_H
#define ENG_HOST_H

#include "eng_state.h"

void eng_host_init (EngSim *sim);
void eng_host_free (EngSim *sim);
/* The host makes its first call at time 0. */
void eng_host_start (EngSim *sim);
/* A device op's completion is visible to the host (it may be waiting). */
void eng_host_op_signaled (EngSim *sim, guint32 op, SimTime now);
/* TRUE for a call that holds the host until something happens, not just
 * for its cost: host work, a synchronize, a blocking copy, starting a
 * thread (thread_create) and joining one. */
gboolean eng_host_call_holds (const SchedOp *sop);

#endif /* ENG_HOST_H */
