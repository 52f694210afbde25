/* eng_fermi.h: Fermi's deferred completion: kernels launched back to back signal the rest of the device together (eng_fermi.c). */
#ifndef ENG_FERMI_H
#define ENG_FERMI_H

#include "eng_state.h"

void eng_fermi_init (EngSim *sim);
void eng_fermi_free (EngSim *sim);
/* The host issues device op `op`: a kernel joins the open launch run or
 * opens one; any other device call closes it. */
void eng_fermi_issue (EngSim *sim, guint32 op);
/* `op` finished: TRUE when its signal is held (a member of a launch run),
 * in which case the kernels hear of it now and everything else when the run
 * is released; FALSE when it signals as any op does. */
gboolean eng_fermi_finished (EngSim *sim, guint32 op, SimTime now);
/* Whether a dependent on engine `to` already sees the held completion of
 * finished op `src` (the kernel engine does). */
gboolean eng_fermi_seen_early (const EngSim *sim, guint32 src, EngEngine to);
/* When `op`'s completion became visible (once it is signaled): its end, or
 * its launch run's release. */
SimTime eng_fermi_signal_time (const EngSim *sim, guint32 op);
/* For a member of a launch run, the member whose end released the run;
 * else `op` itself. */
guint32 eng_fermi_released_by (const EngSim *sim, guint32 op);

#endif /* ENG_FERMI_H */
