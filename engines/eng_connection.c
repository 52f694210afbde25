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
#include "eng_connection.h"
#include "eng_deps.h"
#include "eng_live.h"

struct EngConnections
{
  guint connections;      /* in force, after the profile's maximum */
  guint copy_connections; /* copy queues in force: connections, or fewer */
  /* connections x ENG_N_QUEUES fifos, and as many again for small copies
   * when copy_connections is below connections (COPY QUEUES) */
  EngFifo *queues;
  guint32 *active_kernel; /* connection_serializes: the kernel in flight */
  guint next;             /* assign_on_submit: where the round-robin looks first */
  guint32 *last_issued;   /* the last queued op issued to each connection */
  SimTime *last_arrival;  /* ops reach a connection in issue order */
};

void
eng_connection_init (EngSim *sim, guint connections)
{
  const GpuProfile *profile = &sim->profile;
  EngConnections *c = g_new0 (EngConnections, 1);
  gboolean left_unset = connections == 0 && schedule_connections (sim->sched) == 0;
  if (connections == 0)
    connections = schedule_connections (sim->sched);
  if (connections == 0)
    connections = profile->default_connections;
  /* Devices before Kepler have a single hardware queue whatever is asked. */
  c->connections = MAX (MIN (connections, profile->max_connections), 1);
  c->copy_connections = c->connections;
  if (left_unset && profile->default_copy_connections > 0)
    c->copy_connections = MIN (profile->default_copy_connections, c->connections);

  guint n_queues = c->connections * ENG_N_QUEUES * (c->copy_connections < c->connections ? 2 : 1);
  c->queues = g_new (EngFifo, n_queues);
  for (guint q = 0; q < n_queues; q++)
    eng_fifo_init (&c->queues[q]);
  c->active_kernel = g_new (guint32, c->connections);
  c->last_arrival = g_new0 (SimTime, c->connections);
  c->last_issued = g_new (guint32, c->connections);
  for (guint i = 0; i < c->connections; i++)
    c->active_kernel[i] = c->last_issued[i] = ENG_NONE;
  /* assign_on_submit: the legacy default stream took connection 0 when the
   * context was created, so the streams' round robin starts after it
   * (WHICH CONNECTION). */
  c->next = 1 % c->connections;
  sim->conn = c;
}

void
eng_connection_free (EngSim *sim)
{
  EngConnections *c = sim->conn;
  if (c == NULL)
    return;
  g_free (c->queues);
  g_free (c->active_kernel);
  g_free (c->last_arrival);
  g_free (c->last_issued);
  g_free (c);
  sim->conn = NULL;
}

guint
eng_connection_count (const EngSim *sim)
{
  return sim->conn->connections;
}

guint
eng_connection_copy_count (const EngSim *sim)
{
  return sim->conn->copy_connections;
}

/* The documented rule (assign_on_submit false): creation order, the legacy
 * default stream on connection 0 with the first stream. */
guint
eng_connection_of (const EngSim *sim, guint32 stream)
{
  if (stream == SCHED_STREAM_DEFAULT)
    return 0;
  return (stream - 1) % sim->conn->connections;
}

guint
eng_connection_queue_owner (const EngSim *sim, guint32 op)
{
  const EngConnections *c = sim->conn;
  guint conn = (guint) sim->results[op].conn;
  if (sim->ops[op].qclass == ENG_Q_COMPUTE || c->copy_connections == c->connections)
    return conn;
  if (eng_sop (sim, op)->u.copy.bytes < sim->profile.shared_copy_min_size)
    return c->connections + conn; /* the small copies' queues, after the shared ones */
  return conn % c->copy_connections;
}

/* The `qclass` queue of connection `owner` (eng_connection_queue_owner). */
static inline EngFifo *
queue_of (const EngConnections *c, guint owner, EngQueueClass qclass)
{
  return &c->queues[owner * ENG_N_QUEUES + qclass];
}

/* Whether the connection is held (see WHICH CONNECTION): a head of one of
 * its queues has not gone to its engine, so it waits for its dependencies,
 * or an op issued to it has not arrived. Ops reach a connection in issue
 * order, so the last one issued to it has arrived only when all have. */
static gboolean
connection_held (const EngSim *sim, guint conn)
{
  const EngConnections *c = sim->conn;
  /* Copy queues shared by several connections (COPY QUEUES) are not this
   * connection's to hold: in the measurements a D2H waiting at the head of
   * one held back the D2H of every fourth stream after it, the eighth and
   * twelfth too, which would have gone elsewhere had its connection been
   * skipped. */
  gboolean own_copy_queues = c->copy_connections == c->connections;
  for (guint q = 0; q < ENG_N_QUEUES; q++)
    {
      if (q != ENG_Q_COMPUTE && !own_copy_queues)
        continue;
      guint32 head = queue_of (c, conn, (EngQueueClass) q)->head;
      if (head != ENG_NONE && !(sim->ops[head].flags & ENG_OP_SUBMITTED))
        return TRUE;
    }
  guint32 last = c->last_issued[conn];
  return last != ENG_NONE && !(sim->ops[last].flags & ENG_OP_ARRIVED);
}

guint
eng_connection_assign (EngSim *sim, guint32 op)
{
  EngConnections *c = sim->conn;
  guint32 stream = eng_sop (sim, op)->stream;
  if (stream == SCHED_STREAM_DEFAULT)
    return 0;
  /* Work in flight: it keeps its connection, the one its last op went to
   * (every op that can be a stream's last has one). */
  guint32 tail = eng_deps_order_last (sim, op);
  if (tail != ENG_NONE && !(sim->ops[tail].flags & ENG_OP_SIGNALED))
    return (guint) sim->results[tail].conn;
  guint chosen = c->next;
  for (guint i = 0; i < c->connections; i++)
    {
      guint k = (c->next + i) % c->connections;
      if (!connection_held (sim, k))
        {
          chosen = k;
          break;
        }
    }
  c->next = (chosen + 1) % c->connections;
  return chosen;
}

/* A connection is one command stream: its ops reach their queues in issue
 * order, whatever their submit latencies. Without this a copy with a short
 * submit latency could overtake the kernel issued before it into the same
 * queue and wait at its head for that kernel forever. */
SimTime
eng_connection_arrival (EngSim *sim, guint32 op, SimTime arrival)
{
  EngConnections *c = sim->conn;
  guint conn = (guint) sim->results[op].conn;
  arrival = sim_time_max (arrival, c->last_arrival[conn]);
  c->last_arrival[conn] = arrival;
  c->last_issued[conn] = op;
  return arrival;
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
  EngFifo *fifo = queue_of (sim->conn, eng_connection_queue_owner (sim, op),
                            (EngQueueClass) sim->ops[op].qclass);
  gboolean was_empty = fifo->head == ENG_NONE;
  eng_fifo_push (sim, fifo, op, ENG_LINK_QUEUE);
  if (was_empty)
    became_head (sim, op, ENG_NONE, now);
}

guint32
eng_connection_head (const EngSim *sim, guint owner, EngQueueClass qclass)
{
  return queue_of (sim->conn, owner, qclass)->head;
}

gboolean
eng_connection_may_submit (const EngSim *sim, guint owner, guint32 op)
{
  /* a compute queue is its own connection's */
  return !(sim->profile.connection_serializes && eng_runs_as_kernel (eng_sop (sim, op))
           && sim->conn->active_kernel[owner] != ENG_NONE);
}

guint32
eng_connection_pop (EngSim *sim, guint32 op, SimTime now)
{
  EngConnections *c = sim->conn;
  EngOp *o = &sim->ops[op];
  guint owner = eng_connection_queue_owner (sim, op);
  EngFifo *fifo = queue_of (c, owner, (EngQueueClass) o->qclass);
  g_assert (fifo->head == op);
  eng_fifo_pop (sim, fifo, ENG_LINK_QUEUE);
  /* Whether it waited at the head for its dependencies, for the op behind
   * it (eng_op_started), which may start after this one has signaled and
   * given its slot back. Both times are final: it went to its engine, so
   * every dependency was satisfied, and it reached the head before. */
  const EngLive *l = eng_live (sim, op);
  if (l->deps_time > l->head_time)
    o->flags |= ENG_OP_HELD_BY_DEPS;
  if (eng_runs_as_kernel (eng_sop (sim, op)) && sim->profile.connection_serializes)
    c->active_kernel[owner] = op;
  if (fifo->head != ENG_NONE)
    became_head (sim, fifo->head, op, now);
  return fifo->head;
}

gboolean
eng_connection_kernel_done (EngSim *sim, guint32 op)
{
  EngConnections *c = sim->conn;
  guint conn = (guint) sim->results[op].conn;
  if (c->active_kernel[conn] != op)
    return FALSE;
  c->active_kernel[conn] = ENG_NONE;
  return TRUE;
}
