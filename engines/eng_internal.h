/* eng_internal.h: the state the engine files share; never included outside engines/. */
#ifndef ENG_INTERNAL_H
#define ENG_INTERNAL_H

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

/* How a dependent learns of an op's completion. */
typedef enum
{
  ENG_EDGE_STREAM,
  ENG_EDGE_EVENT,
  ENG_EDGE_LEGACY,
} EngEdgeKind;

typedef struct
{
  guint32 target;
  guint32 next;  /* next edge of the same source op */
  guint8 kind;   /* EngEdgeKind */
} EngEdge;

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
                                 * there for its dependencies (eng_sim_started
                                 * asks, for the op behind it) */
};

/* The model's state for one op that outlives its run: 16 bytes, since a
 * schedule of ten million ops keeps ten million of them. What only matters
 * while an op is in flight is in EngLive, a slot it holds from its issue to
 * its signal; what only matters while it runs on an engine lives with the
 * engine (a running copy's progress in EngCopyEngine, a kernel's blocks in
 * EngKernelSlot); and what the schedule or the results already hold is not
 * repeated. */
typedef struct
{
  guint32 live;         /* its slot in EngSim.live while in flight, else ENG_NONE */
  guint32 deps_ref;
  guint32 run;          /* Fermi launch run, or ENG_NONE */
  guint8 qclass;        /* EngQueueClass */
  guint8 flags;
  guint8 signal_engine; /* engine whose completion this op's signal carries */
  guint8 deps_cause;    /* EngCause of the latest dependency */
} EngOp;

/* The state of an op in flight: from the host's issue of a device call to
 * its full signal (eng_live.c). After that no one reads it: a later
 * dependent of a signaled op is satisfied at once (eng_deps.c), the op is in
 * no queue, and what the op behind it in its queue asks of it is a flag
 * (ENG_OP_HELD_BY_DEPS). So the slots are about as many as the ops in
 * flight, not as the ops: 48 bytes an op fewer to fault in. */
typedef struct
{
  guint32 next;         /* next op in its connection queue; in a free slot, the next free slot */
  guint32 next_ready;   /* next op waiting for the same engine (a copy engine, kernel admission) */
  guint32 first_edge;   /* dependents, through EngEdge.next */
  guint32 pending;      /* dependencies not yet satisfied */
  guint32 head_ref;     /* op ahead of it in the queue when it got there late */
  SimTime arrive;       /* reached its queue */
  SimTime deps_time;    /* every dependency seen, latencies included */
  SimTime head_time;    /* reached the head of its queue */
  SimTime submitted;    /* handed to its engine */
} EngLive;

typedef struct
{
  guint32 head, tail;
} EngFifo;

/* A copy in progress on an engine, and how far it has got. */
typedef struct
{
  guint32 op;         /* ENG_NONE when empty */
  SimTimer *end;      /* its end */
  double left;        /* solo-time it has still to go */
  double rate;        /* its progress per ns: 1 alone, the duplex factor in
                       * duplex, 0 while a staged copy yields (eng_copy.c) */
  SimTime since;      /* when `left` was last brought up to date */
} EngCopyLane;

/* One copy engine (a direction, or both on one-engine devices), and the
 * copies it runs: one direct copy (pinned or device memory) and one copy
 * staged from or to pageable memory, which moves only while the direct lane
 * is empty. */
typedef struct
{
  EngFifo ready;      /* ops ready for it, in the order they became ready */
  EngCopyLane direct;
  EngCopyLane staged; /* never used by the d2d engine */
  guint32 last;       /* last op that ended on it, for causes */
} EngCopyEngine;

/* The resources one SM has in use (eng_sm_load and eng_sm_read, for tests:
 * the engine keeps them per resource, eng_sm.c says why). */
typedef struct
{
  guint32 threads;
  guint32 blocks;
  guint32 smem;
  guint32 regs;
} EngSm;

/* What one block of a kernel takes, as eng_sm.c's lanes use it: computed
 * once when the kernel is admitted (eng_sm_need), since a kernel places and
 * gives back blocks many times. */
typedef struct
{
  GpuBlockFootprint fp;
  float threads, smem, regs;
  float inv_threads, inv_smem, inv_regs; /* 1 / the need (at least 1), for the rooms */
  float smem_none, regs_none; /* G_MAXFLOAT where the block takes none: no limit */
} EngSmNeed;

/* SMs per chunk: eng_sm.c works on the SMs this many at a time (one SSE2
 * vector of 32-bit lanes). */
#define ENG_SM_LANES 4

/* Where one dispatch put its blocks (eng_sm.c): a count per SM, and the
 * chunks of SMs (eng_sm.c's vectors) where some count is not 0. Placements
 * are recycled (EngSim.free_placements), all the same size, their counts 0. */
typedef struct EngPlacement EngPlacement;
struct EngPlacement
{
  guint32 blocks;       /* in all */
  guint32 most;         /* the largest count */
  float *count;         /* blocks per SM (EngSim.sm_pad entries, 0 past the last SM), after most_mask;
                           whole numbers kept as floats, as eng_sm.c keeps the SMs' use */
  guint16 *chunks;      /* the first SM of each chunk with blocks, in order, after count */
  guint32 n_chunks;
  EngPlacement *next_free;
  guint64 most_mask[];  /* the SMs with `most` blocks, a bit each (EngSim.sm_words words) */
};

/* Blocks of one kernel dispatched together: they end together, at `end`.
 * `seq` is the sequence number the event core gave that end (see
 * sim_queue_take_seq), so that it runs exactly where a scheduled event would. */
typedef struct
{
  SimTime end;
  guint64 seq;
  EngPlacement *placement;
} EngGroup;

/* An admitted kernel (eng_kernel.c). Its groups in flight form a ring in the
 * order they end: they all last block_time, so they end in the order they
 * were dispatched. */
typedef struct
{
  guint32 op;
  guint32 next;         /* the dispatch list, by slot index */
  gint priority;
  guint64 accept_seq;
  EngSmNeed need;
  SimTime block_time;
  guint32 remaining;    /* blocks not yet dispatched */
  guint32 in_flight;    /* blocks dispatched and running */
  EngGroup *ring;       /* ring[(ring_head + i) & (ring_cap - 1)], i < ring_len */
  guint32 ring_head, ring_len, ring_cap;
  guint32 heap_pos;     /* index in EngSim.kheap, or ENG_NONE when no group is in flight */
} EngKernelSlot;

/* An entry of EngSim.kheap: a kernel and the key of its first group's end
 * (kept here so that the heap compares without following the ring). */
typedef struct
{
  SimTime end;
  guint64 seq;
  guint32 slot;
} EngKernelKey;

/* A Fermi launch run: kernels issued back to back whose completions are
 * signalled together. */
typedef struct
{
  guint32 first, last;  /* its kernels are the device ops from first to last, in issue order */
  guint32 unfinished;
  guint32 released_by;  /* the member whose end released the run */
  gboolean released;
  SimTime release_time; /* when its members' completion became visible */
} EngRun;

struct EngSim
{
  GpuProfile profile;
  const Schedule *sched;
  const SchedOp *sops;    /* schedule_ops (sched) */
  gint *stream_priority;  /* of each stream */
  SimQueue *events;
  guint connections;
  gsize n_ops;
  EngOp *ops;
  EngOpResult *results;
  EngLive *live;          /* n_live of live_cap slots (eng_live.c) */
  guint32 n_live, live_cap;
  guint32 free_live;      /* released slots, through EngLive.next */
  EngEdge *edges;         /* n_edges of edges_cap (eng_deps.c appends them) */
  guint32 n_edges, edges_cap;
  guint32 free_edges;     /* edges of signaled ops, reused through EngEdge.next */

  /* issue-time bookkeeping (eng_deps.c) */
  guint32 *stream_tail;   /* last op issued to each stream */
  guint32 *stream_legacy; /* last legacy op each stream has an edge from */
  guint32 *event_record;  /* most recent record of each event */
  guint32 last_legacy;
  guint32 *dirty;         /* blocking streams with ops since the last legacy op */
  guint n_dirty;
  gboolean *is_dirty;

  /* connections (eng_connection.c): connections x ENG_N_QUEUES fifos, and
   * as many again for small copies when copy_connections is below
   * connections (COPY QUEUES) */
  EngFifo *queues;
  guint copy_connections; /* copy queues in force: connections, or fewer */
  guint32 *conn_active_kernel; /* connection_serializes: the kernel in flight */
  guint conn_next;        /* assign_on_submit: where the round-robin looks first */
  guint32 *conn_last_issued; /* the last queued op issued to each connection (assign_on_submit) */

  /* copy engines (eng_copy.c) */
  EngCopyEngine copy[3];  /* h2d, d2h, or [0] alone; [2]: d2d */

  /* kernel engine (eng_kernel.c) */
  float *sm_use;          /* what the SMs hold, per resource (eng_sm.c: ENG_SM_THREADS.. x sm_pad),
                             whole numbers kept as floats (eng_sm.c says why) */
  guint sm_pad;           /* SMs rounded up to whole vectors; the SMs past sm_count stay full */
  guint sm_next;          /* where the block scheduler looks first */
  GArray *list_time;      /* SimTime: each time= list's time on this device, -1 until needed */
  guint sm_words;         /* 64-bit words in a mask of SMs */
  EngPlacement *free_placements;
  float *sm_room;         /* scratch for eng_sm_place: blocks of room per SM (sm_pad) */
  guint16 *sm_chunks;     /* the first SM of every chunk: 0, LANES, 2 LANES, ... */
  guint64 *sm_mask;       /* scratch for eng_sm_place: a mask of SMs (sm_words) */
  guint32 *sm_order;      /* scratch, one per SM (pure_batch: turns seen per SM) */
  guint running_kernels;
  guint32 dispatch_list;  /* slots of admitted kernels with blocks left, by (priority, seq) */
  guint32 full_for;       /* slot for which no SM has room, except those a group just left */
  const EngPlacement *ending; /* a kernel's last group while its end runs (eng_kernel.c: group_end) */
  EngKernelSlot *kslots;  /* admitted kernels */
  guint n_kslots;
  guint32 free_kslot;     /* unused slots, through EngKernelSlot.next */
  EngKernelKey *kheap;    /* kernels with groups in flight, a min-heap on their first group's end */
  guint kheap_len;
  guint32 admit_list;     /* queue heads waiting for the concurrency limit */
  guint64 accept_seq;
  guint32 last_kernel;    /* last kernel to free slots or finish, for causes */
  GArray *runs;           /* EngRun */
  guint32 open_run;       /* the run a kernel issued next may join */
  gboolean last_device_op_was_kernel;

  /* host thread (eng_host.c) */
  gsize next_issue;
  SimTimer *host_step;    /* the host's next call */
  SimTime *conn_last_arrival; /* ops reach a connection in issue order */
  guint32 host_wait_op;   /* blocking op the host waits on, or ENG_NONE */
  guint host_wait_count;  /* sync device/default: ops still to finish */
  gboolean host_wait_all;
  SimTime host_wait_since;
  gsize outstanding;      /* device ops issued and not signalled */
  guint32 last_signaled;  /* most recent op whose completion the host could see */

  SimTime makespan;
  guint64 n_events;
  gsize n_finished;       /* ops with ENG_OP_FINISHED set: n_ops after the run */

  /* Reference mode (eng_sim_set_reference): blocks placed one at a time,
   * every group end run as its own event. Slow; for tests. */
  gboolean reference;
};

/* eng_sim.c */
/* Reference mode, for tests: the kernel engine places blocks one at a time
 * over every SM (the block scheduler as first written) and runs every end of
 * a group as its own event, without the shortcuts of eng_sm_place() and
 * pure_batch(). Results must be identical either way. Set before the run. */
void eng_sim_set_reference (EngSim *sim, gboolean reference);
/* The op starts on its engine at `now`; engine_cause is ENG_CAUSE_ENGINE or
 * ENG_CAUSE_SLOTS when it waited for its engine (held by engine_ref), else
 * ENG_CAUSE_NONE. */
void eng_sim_started (EngSim *sim, guint32 op, SimTime now, EngCause engine_cause,
                      guint32 engine_ref);
/* A marker (record, wait) finished: every dependency it had is seen by now,
 * so what it waited for is settled: the latest of them, when that came after
 * it reached the device. */
void eng_sim_marker_finished (EngSim *sim, guint32 op);
/* When the op's completion became visible to its dependents (valid once
 * ENG_OP_SIGNALED is set): its end, or its Fermi launch run's release. */
static inline SimTime eng_op_signal_time (const EngSim *sim, guint32 op);

/* eng_live.c */
/* A slot for `op` as the host issues it: no edges, nothing pending, no op
 * ahead, dependencies seen at 0 (the other fields are set before they are
 * read). Only the host's call takes slots, and the array may move when it
 * does: hold no EngLive pointer across an event. */
void eng_live_take (EngSim *sim, guint32 op);
/* Gives the slot back after the op's full signal. */
void eng_live_release (EngSim *sim, guint32 op);
void eng_live_free (EngSim *sim);

/* eng_deps.c */
void eng_deps_issue (EngSim *sim, guint32 op);
void eng_deps_arrived (EngSim *sim, guint32 op, SimTime now); /* markers */
void eng_deps_wake_later (EngSim *sim, guint32 op);
void eng_deps_satisfy (EngSim *sim, guint32 op, SimTime when, EngCause cause, guint32 ref);
void eng_deps_signal (EngSim *sim, guint32 op, SimTime now, gboolean compute_only);
SimTime eng_deps_latency (const EngSim *sim, EngEngine from, EngEngine to);
void eng_op_finish (EngSim *sim, guint32 op, SimTime now);

/* eng_connection.c */
EngQueueClass eng_connection_class (const EngSim *sim, const SchedOp *sop);
guint eng_connection_of (const EngSim *sim, guint32 stream);
/* How many connections have copy queues of their own (COPY QUEUES):
 * `connections`, or the profile's default_copy_connections when the count
 * was left to the driver (`left_unset`). */
guint eng_connection_copy_count (const GpuProfile *profile, guint connections, gboolean left_unset);
/* The set of queues op joins: its connection's, or for a copy, the one it
 * shares, or past the connections' the small copies' (COPY QUEUES). The
 * op's connection and queue class must be set. */
guint eng_connection_queue_owner (const EngSim *sim, guint32 op);
/* Under assign_on_submit, the connection an op goes to, chosen as the host
 * issues it (before eng_deps_issue, which makes it its stream's last op): a
 * stream with nothing in flight takes one anew, else keeps its own. */
guint eng_connection_assign (EngSim *sim, guint32 op);
void eng_connection_arrive (EngSim *sim, guint32 op, SimTime now);
void eng_connection_pump (EngSim *sim, guint owner, EngQueueClass qclass, SimTime now);
void eng_connection_pop (EngSim *sim, guint32 op, SimTime now);
void eng_connection_kernel_done (EngSim *sim, guint32 op, SimTime now);

/* eng_copy.c */
EngEngine eng_copy_engine_of (const EngSim *sim, const SchedOp *sop);
void eng_copy_start (EngSim *sim);
void eng_copy_submit (EngSim *sim, guint32 op, SimTime now);

/* eng_kernel.c */
gboolean eng_kernel_prepare (EngSim *sim, const SchedOp *sop, GError **error);
void eng_kernel_submit (EngSim *sim, guint32 op, SimTime now);
void eng_kernel_start (EngSim *sim);
void eng_kernel_free (EngSim *sim);

/* eng_sm.c */
/* Allocates the SMs (empty) and the placement's scratch, for sim->profile. */
void eng_sm_init (EngSim *sim);
/* `need` for a block of this footprint. */
void eng_sm_need (const GpuBlockFootprint *fp, EngSmNeed *need);
/* Takes a placement's blocks off their SMs and leaves it with none (counts
 * and `blocks` 0); its chunks stay, for eng_sm_place's `within`, until freed. */
void eng_sm_give_back (EngSim *sim, EngPlacement *pl, const EngSmNeed *need);
/* Places up to `want` blocks as the block scheduler would, looking only at
 * the SMs where `within` has blocks (NULL: every SM); NULL when none has room. */
EngPlacement *eng_sm_place (EngSim *sim, const EngSmNeed *need, guint32 want,
                            const EngPlacement *within);
void eng_sm_placement_free (EngSim *sim, EngPlacement *pl);
/* Sets what each SM holds from one EngSm per SM (tests), and reads it back. */
void eng_sm_load (EngSim *sim, const EngSm *per_sm);
void eng_sm_read (const EngSim *sim, EngSm *per_sm);
/* Frees the SMs, the scratch and the recycled placements. */
void eng_sm_free (EngSim *sim);

/* The last SM of `mask` that a scan starting at SM `start` reaches: the
 * highest one below start, or else the highest of all (mask is not empty). */
static inline guint
eng_sm_mask_last (const EngSim *sim, const guint64 *mask, guint start)
{
  if (sim->sm_words == 1)
    {
      /* fewer than 64 SMs: a select, not a branch (which SM comes last is
       * data the predictor misses, and pure batches ask this for every
       * group of every turn) */
      guint64 below = mask[0] & (((guint64) 1 << start) - 1);
      guint64 from = below != 0 ? below : mask[0];
      return 63 - (guint) __builtin_clzll (from);
    }
  guint w = start / 64, b = start % 64;
  guint64 below = b > 0 ? mask[w] & (((guint64) 1 << b) - 1) : 0;
  for (;;)
    {
      if (below != 0)
        break;
      if (w == 0)
        {
          /* none below start: the highest of all */
          for (w = sim->sm_words; w-- > 0 && mask[w] == 0;)
            ;
          below = mask[w];
          break;
        }
      below = mask[--w];
    }
  return w * 64 + 63 - (guint) __builtin_clzll (below);
}

/* Where the block scheduler looks first after SM s took the last block:
 * the SM after it, round the SMs. */
static inline guint
eng_sm_after (const EngSim *sim, guint s)
{
  guint next = s + 1;
  return next & -(guint) (next < sim->profile.sm_count); /* no branch: 0 past the last */
}

/* sm_next after the SMs of `pl` are filled again, exactly, from `start`:
 * the last block goes, in the last turn, to the SM with the most blocks that
 * the scan reaches last. Inline: a kernel's pure group ends (eng_kernel.c)
 * call it for every group. */
static inline guint
eng_sm_next_after_refill (const EngSim *sim, const EngPlacement *pl, guint start)
{
  return eng_sm_after (sim, eng_sm_mask_last (sim, pl->most_mask, start));
}

/* eng_host.c */
void eng_host_start (EngSim *sim);
void eng_host_op_signaled (EngSim *sim, guint32 op, SimTime now);
/* TRUE for a call that holds the host until something happens, not just
 * for its cost: host work, a synchronize, a blocking copy. */
gboolean eng_host_call_holds (const SchedOp *sop);

/* helpers */
static inline const SchedOp *
eng_sop (const EngSim *sim, guint32 op)
{
  return &sim->sops[op];
}

static inline SimTime
eng_op_signal_time (const EngSim *sim, guint32 op)
{
  guint32 run = sim->ops[op].run;
  if (run != ENG_NONE)
    return g_array_index (sim->runs, EngRun, run).release_time;
  return sim->results[op].end;
}

/* The in-flight state of `op`, which must be in flight. */
static inline EngLive *
eng_live (const EngSim *sim, guint32 op)
{
  return &sim->live[sim->ops[op].live];
}

/* FIFOs of ops linked through a field of EngLive: `next` for connection
 * queues, `next_ready` for the ops waiting for an engine (an op waits for its
 * engine while still at the head of its connection queue). */
#define ENG_LINK_QUEUE G_STRUCT_OFFSET (EngLive, next)
#define ENG_LINK_READY G_STRUCT_OFFSET (EngLive, next_ready)
#define ENG_OP_LINK(sim, op, link) G_STRUCT_MEMBER (guint32, eng_live (sim, op), link)

static inline void
eng_fifo_push (EngSim *sim, EngFifo *fifo, guint32 op, glong link)
{
  ENG_OP_LINK (sim, op, link) = ENG_NONE;
  if (fifo->tail == ENG_NONE)
    fifo->head = op;
  else
    ENG_OP_LINK (sim, fifo->tail, link) = op;
  fifo->tail = op;
}

static inline guint32
eng_fifo_pop (EngSim *sim, EngFifo *fifo, glong link)
{
  guint32 op = fifo->head;
  if (op != ENG_NONE)
    {
      fifo->head = ENG_OP_LINK (sim, op, link);
      if (fifo->head == ENG_NONE)
        fifo->tail = ENG_NONE;
      ENG_OP_LINK (sim, op, link) = ENG_NONE;
    }
  return op;
}

#endif /* ENG_INTERNAL_H */
