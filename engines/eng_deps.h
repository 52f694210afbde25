/* eng_deps.h: who waits for whom: stream order, event waits and the legacy default stream (eng_deps.c). */
#ifndef ENG_DEPS_H
#define ENG_DEPS_H

#include "eng_state.h"

void eng_deps_init (EngSim *sim);
void eng_deps_free (EngSim *sim);

/* Fixes `op`'s dependencies as the host issues it, from the issue order;
 * those on ops already signaled are satisfied at once. */
void eng_deps_issue (EngSim *sim, guint32 op);

/* Tells `op`'s dependents that it completed: at its end, with compute_only
 * kernels only (a Fermi kernel whose signal is held: eng_fermi.c), else all
 * of them at its signal time, in the order the dependencies were made. A
 * dependent that becomes ready goes on in a step (eng_post), and the
 * ones after it hear in a step after that: TRUE when steps were posted, so
 * that what the caller does once every dependent has heard is posted after
 * them. */
gboolean eng_deps_signal (EngSim *sim, guint32 op, gboolean compute_only);

/* `op`, a launch that loads its kernel's code, started: the ops issued
 * after it hear of it. */
void eng_deps_started (EngSim *sim, guint32 op);

/* The latency with which engine `to` sees a completion on engine `from`. */
SimTime eng_deps_latency (const EngSim *sim, EngEngine from, EngEngine to);

/* The last op issued to `stream`, and the last record of `event`
 * (ENG_NONE: none yet): what a synchronize waits for. */
guint32 eng_deps_stream_last (const EngSim *sim, guint stream);
guint32 eng_deps_event_last (const EngSim *sim, guint event);
/* The op issued before `op` in its order: its stream's last, or for a
 * graph's branch (SchedOp.graph_branch) its stream's last in the same
 * launch; ENG_NONE when there is none. Call it before eng_deps_issue. */
guint32 eng_deps_order_last (const EngSim *sim, guint32 op);

#endif /* ENG_DEPS_H */
