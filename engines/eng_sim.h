/* eng_sim.h: run a schedule through the GPU model and read back what each op did and why.
 *
 * The model (engines/MODEL.md) is split by concept; engines/README.md is the
 * map. Only this header is for use outside engines/. */
#ifndef ENG_SIM_H
#define ENG_SIM_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "sim/core/schedule.h"

/* Where an op ran. */
typedef enum
{
  ENG_ENGINE_H2D,     /* host-to-device copy engine */
  ENG_ENGINE_D2H,     /* device-to-host copy engine */
  ENG_ENGINE_COPY,    /* the single copy engine of a one-engine device */
  ENG_ENGINE_D2D,     /* device-to-device copies */
  ENG_ENGINE_COMPUTE, /* the kernel engine (SMs) */
  ENG_ENGINE_HOST,    /* the host thread: syncs, host work, blocking copies' wait */
  ENG_ENGINE_STREAM,  /* no engine: event record and wait markers */
  ENG_ENGINE_CALLBACK, /* the driver's thread that runs host functions */
  ENG_N_ENGINES
} EngEngine;

/* What an op waited for last, i.e. the constraint that set its start time. */
typedef enum
{
  /* Started when it reached the device. An op the host issued late waited
   * for nothing once issued: its wait counts from its issue, and the
   * critical path follows the host (eng_sim_issued_after) instead. */
  ENG_CAUSE_NONE,
  ENG_CAUSE_STREAM,   /* the previous op of its stream (ref) */
  ENG_CAUSE_EVENT,    /* an event wait: the record (ref) */
  ENG_CAUSE_LEGACY,   /* the legacy default stream: op ref */
  ENG_CAUSE_QUEUE,    /* false dependency: behind op ref in its connection's queue */
  ENG_CAUSE_ENGINE,   /* its engine was busy with op ref */
  ENG_CAUSE_SLOTS,    /* kernel slots or the concurrency limit, held by op ref */
  ENG_CAUSE_DEFERRED, /* Fermi: completion of its dependency ref held until the launch run ended */
  ENG_CAUSE_SYNC,     /* host call that waited for op ref to finish */
  ENG_CAUSE_LOAD,     /* a launch that loads its kernel's code waited for the GPU to go idle: op ref last */
  ENG_N_CAUSES
} EngCause;

#define ENG_NO_REF G_MAXUINT32

typedef struct
{
  SimTime issue;  /* the host made the call */
  SimTime start;  /* the op began on its engine (host: the call began) */
  SimTime end;    /* the op finished (host calls: the call returned) */
  guint32 cause_ref;
  guint8 cause;   /* EngCause */
  guint8 engine;  /* EngEngine */
  gint8 conn;     /* connection (at most 32, eng_sim_new), -1 for none */
  guint8 queue;   /* for ENG_CAUSE_QUEUE: the queue class (eng_queue_name) */
} EngOpResult;

typedef struct EngSim EngSim;

/* Prepares a run. `connections` 0 means the schedule's `connections`
 * statement, else the profile's default. Checks the schedule against the
 * device (a block larger than the device allows, a kernel without a time for
 * this device, ...) and fails with a file:line:column message. */
EngSim *eng_sim_new (const GpuProfile *profile, const Schedule *sched,
                     guint connections, GError **error);
void eng_sim_free (EngSim *sim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EngSim, eng_sim_free)

/* Runs the whole schedule. */
void eng_sim_run (EngSim *sim);

/* After the run: one result per schedule op, in issue order. */
const EngOpResult *eng_sim_results (const EngSim *sim);
SimTime eng_sim_makespan (const EngSim *sim);
/* The connection count in force (after the profile's maximum). */
guint eng_sim_connections (const EngSim *sim);
/* How many of them have queues of their own for copies (eng_connection.c,
 * COPY QUEUES): the connection count, or fewer when it was left to the
 * driver on a profile with default_copy_connections. */
guint eng_sim_copy_connections (const EngSim *sim);
/* Number of events the run took. */
guint64 eng_sim_events (const EngSim *sim);
/* Reference mode, for tests: the kernel engine places blocks one at a time
 * over every SM (the block scheduler in plain C) and runs every end of a
 * group as its own event, without the shortcuts of eng_sm_place() and
 * eng_kernel.c's pure batches. Results must be identical either way. Set
 * before the run. */
void eng_sim_set_reference (EngSim *sim, gboolean reference);

const char *eng_engine_name (EngEngine engine);
const char *eng_cause_name (EngCause cause);
/* The name of a result's `queue`: "h2d", "d2h", "copy", "compute". */
const char *eng_queue_name (guint queue);
/* The schedule the model runs. */
const Schedule *eng_sim_schedule (const EngSim *sim);
/* For an op that waited in a queue (ENG_CAUSE_QUEUE, `conn` >= 0), the
 * connection whose queue it was: its own, or the one whose copy queues it
 * shares (eng_connection.c, COPY QUEUES). */
guint eng_sim_queue_connection (const EngSim *sim, gsize op);
/* The op whose progress let `op` go, the link a critical path follows: the
 * op its cause names, except for a Fermi deferred completion, where it is
 * the kernel whose end released the launch run. ENG_NO_REF when the op
 * waited for no op (nothing, or a limit no single op holds). */
guint32 eng_sim_waited_for (const EngSim *sim, gsize op);
/* The call whose return let the host issue `op`: the latest call of its
 * host thread before it that held the host until something happened
 * (eng_host_call_holds: host work, a synchronize, a blocking copy, a
 * thread's start or join); the host issued `op` when that call returned
 * plus the costs of its thread's calls in between. For a thread's first
 * calls it is the SPAWN that started the thread, which they follow by
 * thread_start from its start. ENG_NO_REF when no call before `op` held the
 * host: its issue time is the costs of the calls before it. */
guint32 eng_sim_issued_after (const EngSim *sim, gsize op);
/* TRUE for an op that waited in its queue behind a kernel (ENG_CAUSE_QUEUE)
 * that then started after it did: admitted first, that kernel was
 * overtaken in the dispatch list by this op, of a higher priority. */
gboolean eng_sim_behind_overtaken (const EngSim *sim, gsize op);
/* For such an op, what held the kernel ahead at the head of the queue: its
 * last dependency's op. ENG_NO_REF for any other op, or when none did. */
guint32 eng_sim_queue_released_by (const EngSim *sim, gsize op);
/* The link a critical path follows from `op`: eng_sim_waited_for; for an
 * op that waited for nothing (ENG_CAUSE_NONE: it started when it was
 * issued and reached its engine), eng_sim_issued_after; for one behind an
 * overtaken kernel in its queue, eng_sim_queue_released_by. Each link goes
 * to an op that started no later than `op` started (a synchronize: than it
 * returned; a join: to its thread's last call, made no later than the join
 * returned). ENG_NO_REF at the start of the path. */
guint32 eng_sim_path_link (const EngSim *sim, gsize op);

#define ENG_ERROR (eng_error_quark ())
GQuark eng_error_quark (void);
typedef enum
{
  ENG_ERROR_UNSUPPORTED, /* the schedule asks for what the device cannot do */
} EngError;

#endif /* ENG_SIM_H */
