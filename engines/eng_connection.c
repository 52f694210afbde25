/* eng_connection.c: hardware work queues ("connections"), which stream goes to which, and the false-dependency rule.
 *
 * THE RULE. A device has C connections (1 before Kepler; on Kepler and later
 * CUDA_DEVICE_MAX_CONNECTIONS, default 8). Streams are assigned to them
 * round-robin in creation order: the i-th stream created (i = 0, 1, ...) goes
 * to connection i mod C; the legacy default stream uses connection 0 (but see
 * WHICH CONNECTION below for the H100 and H200). Each connection holds one
 * in-order queue per engine class: host-to-device copies, device-to-host
 * copies and compute (kernels, device-to-device copies); a device with a
 * single copy engine has one copy queue for both directions.
 * Ops enter their queue in issue order. Only the op at the head of a queue
 * can go to its engine, and only once its own dependencies are met; every op
 * behind it waits too, even ops of other streams that are ready. That wait is
 * a "false dependency": nothing in the program asked for it.
 *
 * This one rule reproduces the seed's three devices. On the C1060 and C2050
 * (C = 1) all streams share one set of queues, so issue order decides what
 * can overlap ("within an engine all external dependencies are lost"); the
 * K20's Hyper-Q gives each of a few streams its own queues, so issue order
 * stops mattering. With more streams than connections, streams that share a
 * connection interfere again.
 *
 * An op leaves the head when its engine accepts it: a copy when it starts, a
 * kernel when the kernel engine admits it (it then competes for SM slots),
 * so kernels of one connection can run side by side unless the profile says
 * `connection_serializes`, in which case the next kernel of a connection waits
 * until the previous one has finished.
 *
 * Rejected alternative: one queue per stream with a global arbiter. It cannot
 * produce the C1060's V1 result (12 units: each D2H blocks the next stream's
 * H2D in the shared copy queue), which the per-connection queue gives exactly.
 *
 * WHICH CONNECTION (profile key `assign_on_submit`). Round-robin in creation
 * order is the documented rule, and the one the seed's devices get. The H100
 * and H200 do otherwise (validate/FINDINGS.md, "How streams map to
 * connections"): 17 streams on 8 connections, stream 1's connection held by
 * a kernel waiting behind a 2 ms one, and streams 9 and 17, which creation
 * order puts behind it, started at once, whether the other connections were
 * idle or busy with 2 ms kernels; yet with every connection held, streams
 * did queue round-robin. What fits these schedules on both GPUs, and two
 * more predicted before they were measured (validate/results/h100/
 * assign-on-submit: streams issued out of creation order, a waiting copy): a
 * stream takes a connection when it submits work and has nothing in flight,
 * and keeps it while it has. It takes the next connection round-robin that
 * is not held, and when every connection is held, the next one round-robin
 * all the same. A connection is held while the GPU has not taken up what was
 * pushed to it: an op issued to it has not reached it yet, or the head of one
 * of its queues waits for its dependencies. (Counting only waiting heads put
 * connections-tiebreak's s5 behind a kernel still on its way. Whether an op
 * on its way holds its connection when it waits for nothing is a race on the
 * GPUs: connections-idle's s4 was held in some runs and not in others.)
 *
 * The legacy default stream keeps connection 0 for good, and takes no part
 * in the round robin: the driver gives it the first connection when the
 * context is created, so the first stream to submit takes connection 1 and
 * the C-th shares the default stream's. Measured on an H100 and an H200 with
 * a program of its own (validate/examples/default_queue.cu): four streams
 * hold all four connections and the default stream then launches a kernel;
 * it joined the fourth stream's queue, and with k streams used before the
 * four, the (4 - k mod 4)-th's, whether or not the default stream had run
 * work first; with 8 and 2 connections likewise. Sharing connection 0 with
 * the first stream, the documented rule, was wrong in every case.
 *
 * COPY QUEUES (profile key `default_copy_connections`). With
 * CUDA_DEVICE_MAX_CONNECTIONS set to C, each of the C connections has copy
 * queues of its own. Left unset, the H100 and H200 give kernels 8 connections
 * but copies only 4: connection c's copy queues are connection (c mod 4)'s.
 * Measured with programs of their own (validate/results/h100/copy-queues/):
 * N streams each issue one H2D copy while a long one runs; the copies of
 * streams i and i + 4 went one after the other, as one queue's do (the engine
 * keeps serving the queue it is on: eng_copy.c), 1, 5, 2, 6, 3, 7, 4, 8 for
 * eight streams, and a D2H waiting for its stream's kernel held back the
 * D2H of every fourth stream after it, and no other. With the variable set
 * to 2, 4, 8 or 16 the same tests gave C copy queues; kernels with it unset
 * gave 8 (validate/examples/default_queue.cu). Only copies of at least
 * `shared_copy_min_size` share (512 KiB on the H100: smaller D2H copies were
 * held back by none, or at random, in the same test, and H2D copies of 16
 * KiB or less overtook a running 64 MiB copy, which the model does not
 * know). Smaller ones have queues of their own, one per connection and
 * apart from the shared ones: a 4 KiB D2H of the ninth stream, on the first
 * stream's connection, did not wait behind that stream's 4 MiB D2H
 * (traces/validation/copies-held-small). */
#include "eng_internal.h"

/* The documented rule (assign_on_submit false): creation order, the legacy
 * default stream on connection 0 with the first stream. */
guint
eng_connection_of (const EngSim *sim, guint32 stream)
{
  if (stream == SCHED_STREAM_DEFAULT)
    return 0;
  return (stream - 1) % sim->connections;
}

guint
eng_connection_copy_count (const GpuProfile *profile, guint connections, gboolean left_unset)
{
  if (left_unset && profile->default_copy_connections > 0)
    return MIN (profile->default_copy_connections, connections);
  return connections;
}

guint
eng_connection_queue_owner (const EngSim *sim, guint32 op)
{
  guint conn = (guint) sim->results[op].conn;
  if (sim->ops[op].qclass == ENG_Q_COMPUTE || sim->copy_connections == sim->connections)
    return conn;
  if (eng_sop (sim, op)->u.copy.bytes < sim->profile.shared_copy_min_size)
    return sim->connections + conn; /* the small copies' queues, after the shared ones */
  return conn % sim->copy_connections;
}

/* The `qclass` queue of connection `owner` (eng_connection_queue_owner). */
static EngFifo *
queue_of (EngSim *sim, guint owner, EngQueueClass qclass)
{
  return &sim->queues[owner * ENG_N_QUEUES + qclass];
}

/* Whether the connection is held (see WHICH CONNECTION): a head of one of
 * its queues has not gone to its engine, so it waits for its dependencies,
 * or an op issued to it has not arrived. Ops reach a connection in issue
 * order, so the last one issued to it has arrived only when all have. */
static gboolean
connection_held (EngSim *sim, guint conn)
{
  /* Copy queues shared by several connections (COPY QUEUES) are not this
   * connection's to hold: in the measurements a D2H waiting at the head of
   * one held back the D2H of every fourth stream after it, the eighth and
   * twelfth too, which would have gone elsewhere had its connection been
   * skipped. */
  gboolean own_copy_queues = sim->copy_connections == sim->connections;
  for (guint q = 0; q < ENG_N_QUEUES; q++)
    {
      if (q != ENG_Q_COMPUTE && !own_copy_queues)
        continue;
      guint32 head = queue_of (sim, conn, (EngQueueClass) q)->head;
      if (head != ENG_NONE && !(sim->ops[head].flags & ENG_OP_SUBMITTED))
        return TRUE;
    }
  guint32 last = sim->conn_last_issued[conn];
  return last != ENG_NONE && !(sim->ops[last].flags & ENG_OP_ARRIVED);
}

guint
eng_connection_assign (EngSim *sim, guint32 op)
{
  guint32 stream = eng_sop (sim, op)->stream;
  if (stream == SCHED_STREAM_DEFAULT)
    return 0;
  /* Work in flight: it keeps its connection, the one its last op went to
   * (every op that can be a stream's last has one). */
  guint32 tail = sim->stream_tail[stream];
  if (tail != ENG_NONE && !(sim->ops[tail].flags & ENG_OP_SIGNALED))
    return (guint) sim->results[tail].conn;
  guint chosen = sim->conn_next;
  for (guint i = 0; i < sim->connections; i++)
    {
      guint c = (sim->conn_next + i) % sim->connections;
      if (!connection_held (sim, c))
        {
          chosen = c;
          break;
        }
    }
  sim->conn_next = (chosen + 1) % sim->connections;
  return chosen;
}

EngQueueClass
eng_connection_class (const EngSim *sim, const SchedOp *sop)
{
  switch (sop->kind)
    {
    case SCHED_OP_KERNEL:
      return ENG_Q_COMPUTE;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      if (sop->u.copy.dir == SCHED_DIR_D2D)
        return ENG_Q_COMPUTE;
      if (sim->profile.copy_engines < 2)
        return ENG_Q_COPY;
      return sop->u.copy.dir == SCHED_DIR_H2D ? ENG_Q_H2D : ENG_Q_D2H;
    default:
      return ENG_Q_NONE;
    }
}


static void
became_head (EngSim *sim, guint32 op, guint32 ahead, SimTime now)
{
  EngLive *l = eng_live (sim, op);
  l->head_time = now;
  l->head_ref = ahead;
}

void
eng_connection_arrive (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  guint owner = eng_connection_queue_owner (sim, op);
  EngFifo *fifo = queue_of (sim, owner, o->qclass);
  o->flags |= ENG_OP_ARRIVED;
  eng_live (sim, op)->arrive = now;
  gboolean was_empty = fifo->head == ENG_NONE;
  eng_fifo_push (sim, fifo, op, ENG_LINK_QUEUE);
  if (was_empty)
    became_head (sim, op, ENG_NONE, now);
  eng_connection_pump (sim, owner, o->qclass, now);
}

/* Hands the head of connection `owner`'s `qclass` queue to its engine if it
 * is ready. */
void
eng_connection_pump (EngSim *sim, guint owner, EngQueueClass qclass, SimTime now)
{
  EngFifo *fifo = queue_of (sim, owner, qclass);
  guint32 head = fifo->head;
  if (head == ENG_NONE)
    return;
  EngOp *o = &sim->ops[head];
  EngLive *l = eng_live (sim, head);
  if ((o->flags & ENG_OP_SUBMITTED) || l->pending > 0)
    return;
  if (l->deps_time > now)
    {
      eng_deps_wake_later (sim, head);
      return;
    }
  const SchedOp *sop = eng_sop (sim, head);
  if (sop->kind == SCHED_OP_KERNEL && sim->profile.connection_serializes
      && sim->conn_active_kernel[owner] != ENG_NONE) /* a compute queue: its own connection */
    return; /* eng_connection_kernel_done pumps again */
  o->flags |= ENG_OP_SUBMITTED;
  l->submitted = now;
  if (sop->kind == SCHED_OP_KERNEL)
    eng_kernel_submit (sim, head, now);
  else
    eng_copy_submit (sim, head, now);
}

/* The engine accepted the head of its queue: the next op moves up. */
void
eng_connection_pop (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  guint owner = eng_connection_queue_owner (sim, op);
  EngFifo *fifo = queue_of (sim, owner, o->qclass);
  g_assert (fifo->head == op);
  eng_fifo_pop (sim, fifo, ENG_LINK_QUEUE);
  /* Whether it waited at the head for its dependencies, for the op behind
   * it (eng_sim_started), which may start after this one has signaled and
   * given its slot back. Both times are final: it went to its engine, so
   * every dependency was satisfied, and it reached the head before. */
  const EngLive *l = eng_live (sim, op);
  if (l->deps_time > l->head_time)
    o->flags |= ENG_OP_HELD_BY_DEPS;
  if (eng_sop (sim, op)->kind == SCHED_OP_KERNEL && sim->profile.connection_serializes)
    sim->conn_active_kernel[owner] = op;
  if (fifo->head != ENG_NONE)
    {
      became_head (sim, fifo->head, op, now);
      eng_connection_pump (sim, owner, o->qclass, now);
    }
}

void
eng_connection_kernel_done (EngSim *sim, guint32 op, SimTime now)
{
  guint conn = (guint) sim->results[op].conn;
  if (sim->conn_active_kernel[conn] == op)
    {
      sim->conn_active_kernel[conn] = ENG_NONE;
      eng_connection_pump (sim, conn, ENG_Q_COMPUTE, now);
    }
}
