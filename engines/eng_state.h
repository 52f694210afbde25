/* eng_state.h: the state the engine files share: the run's inputs, each op's state, and the handles of the parts of the model.
 *
 * Each part of the model (host, dependencies, connections, copy engines,
 * kernel engine, Fermi's launch runs) keeps its own state behind its own
 * header, as an opaque handle here; what they share is the op: its state for
 * the whole run (EngOp), its state while in flight (EngLive), its result.
 * Never included outside engines/. */
#ifndef ENG_STATE_H
#define ENG_STATE_H

#include "eng_sim.h"
#include "sim/core/sim_queue.h"

#define ENG_NONE G_MAXUINT32

/* The per-connection queue an op waits in. A one-copy-engine device puts both
 * directions in ENG_Q_COPY; kernels and device-to-device copies share
 * ENG_Q_COMPUTE. Markers, host work and syncs use no queue. */
typedef enum
{
  ENG_Q_H2D,
  ENG_Q_D2H,
  ENG_Q_COPY,
  ENG_Q_COMPUTE,
  ENG_N_QUEUES,
  ENG_Q_NONE = 0xff
} EngQueueClass;

/* Where an op is in its life (eng_op.c), and two facts other ops ask of it. */
enum
{
  ENG_OP_ARRIVED = 1 << 0,   /* in its queue (or, for markers, issued) */
  ENG_OP_SUBMITTED = 1 << 1, /* handed to its engine, waiting for or holding it */
  ENG_OP_STARTED = 1 << 2,
  ENG_OP_FINISHED = 1 << 3,  /* ended on its engine */
  ENG_OP_SIGNALED = 1 << 4,  /* its completion is visible to every dependent */
  ENG_OP_DEPS_EVENT = 1 << 5, /* a deps-ready event is scheduled */
  ENG_OP_HOST_WAITED = 1 << 6, /* the host is blocked in a sync that includes it */
  ENG_OP_HELD_BY_DEPS = 1 << 7, /* it left the head of its queue after waiting
                                 * there for its dependencies (eng_op.c asks,
                                 * for the op behind it) */
};

/* The model's state for one op that outlives its run: 16 bytes, since a
 * schedule of ten million ops keeps ten million of them. What only matters
 * while an op is in flight is in EngLive, a slot it holds from its issue to
 * its signal (eng_live.c); what only matters while it runs on an engine
 * lives with the engine; and what the schedule or the results already hold
 * is not repeated. */
typedef struct
{
  guint32 live;         /* its slot in EngSim.live while in flight, else ENG_NONE */
  guint32 deps_ref;     /* the dependency seen last (eng_deps.c) */
  guint32 run;          /* Fermi launch run (eng_fermi.c), or ENG_NONE */
  guint8 qclass;        /* EngQueueClass */
  guint8 flags;
  guint8 signal_engine; /* engine whose completion this op's signal carries */
  guint8 deps_cause;    /* EngCause of the dependency seen last */
} EngOp;

/* The state of an op in flight: from the host's issue of a device call to
 * its full signal. After that no one reads it: a later dependent of a
 * signaled op is satisfied at once (eng_deps.c), the op is in no queue, and
 * what the op behind it in its queue asks of it is a flag
 * (ENG_OP_HELD_BY_DEPS). So the slots are about as many as the ops in
 * flight, not as the ops. */
typedef struct
{
  guint32 next;         /* next op in its connection queue; in a free slot, the next free slot */
  guint32 next_ready;   /* next op waiting for the same engine (a copy engine, kernel admission) */
  guint32 first_edge;   /* dependents, through EngEdge.next (eng_deps.c) */
  guint32 pending;      /* dependencies not yet satisfied */
  guint32 head_ref;     /* op ahead of it in the queue when it got there late */
  SimTime arrive;       /* reached its queue */
  SimTime deps_time;    /* every dependency seen, latencies included */
  SimTime head_time;    /* reached the head of its queue */
  SimTime submitted;    /* handed to its engine */
} EngLive;

typedef struct EngHost EngHost;
typedef struct EngDeps EngDeps;
typedef struct EngConnections EngConnections;
typedef struct EngCopies EngCopies;
typedef struct EngKernels EngKernels;
typedef struct EngFermi EngFermi;
typedef struct EngCallback EngCallback;

struct EngSim
{
  GpuProfile profile;
  const Schedule *sched;
  const SchedOp *sops;    /* schedule_ops (sched) */
  SimQueue *events;
  gsize n_ops;
  EngOp *ops;
  EngOpResult *results;
  EngLive *live;          /* n_live of live_cap slots (eng_live.c) */
  guint32 n_live, live_cap;
  guint32 free_live;      /* released slots, through EngLive.next */
  GArray *list_time;      /* SimTime: each time= list's time on this device, -1 until needed */

  EngHost *host;
  EngDeps *deps;
  EngConnections *conn;
  EngCopies *copy;
  EngKernels *kernel;
  EngFermi *fermi;
  EngCallback *callback;

  SimTime makespan;
  guint64 n_events;
  gsize n_finished;       /* ops with ENG_OP_FINISHED set: n_ops after the run */

  /* Reference mode (eng_sim_set_reference): blocks placed one at a time,
   * every group end run as its own event. Slow; for tests. */
  gboolean reference;
};

static inline const SchedOp *
eng_sop (const EngSim *sim, guint32 op)
{
  return &sim->sops[op];
}

/* Whether the op runs on the SMs as a kernel: a kernel, or a memset (which
 * the driver runs as one). */
static inline gboolean
eng_runs_as_kernel (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_KERNEL || sop->kind == SCHED_OP_MEMSET;
}

/* The in-flight state of `op`, which must be in flight. */
static inline EngLive *
eng_live (const EngSim *sim, guint32 op)
{
  return &sim->live[sim->ops[op].live];
}

/* Posts `step` to run at this instant, once the current event or step has
 * returned (sim_queue_post), with two numbers for it: ENG_STEP_A (tag) and
 * ENG_STEP_B (tag) read them back. */
static inline void
eng_post (EngSim *sim, SimEventFunc step, guint32 a, guint32 b)
{
  sim_queue_post (sim->events, step, sim, (guint64) b << 32 | a);
}

#define ENG_STEP_A(tag) ((guint32) (tag))
#define ENG_STEP_B(tag) ((guint32) ((tag) >> 32))

/* How many steps are posted and waiting: compared before and after a call,
 * whether the call posted any. */
static inline gsize
eng_posted (const EngSim *sim)
{
  return sim_queue_steps (sim->events);
}

/* The op's end is the latest simulated time so far, if it is later. */
static inline void
eng_sim_reach (EngSim *sim, SimTime t)
{
  if (t > sim->makespan)
    sim->makespan = t;
}

#endif /* ENG_STATE_H */
