/* eng_check.c: checks a run's results against the contract of MODEL.md, from the schedule, the profile and the results alone.
 *
 * What is checked (each a rule of eng_check.h):
 *  - times: 0 <= issue <= start <= end; a copy or kernel starts no earlier
 *    than its call's host cost plus its submit latency (launch latency for
 *    kernels, copy_submit for copies) after the call; a record or wait is an
 *    instant at or after its call's cost.
 *  - host: the first call is at 0, a thread block's first thread_start after
 *    its SPAWN's call, which costs thread_create, and its first call that
 *    puts work on the GPU costs thread_first_call more; each call is issued after
 *    the previous one of its host thread returned: after its cost for
 *    asynchronous calls, at the end of host work, at a synchronize's return,
 *    and memcpy_sync after a blocking copy ended (cudaMemcpy and pageable
 *    host<->device copies); host work lasts exactly its duration.
 *  - sync: `sync S` returns host_sync or more after the last op issued to S
 *    ended (for `default`, also every blocking stream's last op); `sync E`
 *    after the most recent record of E; `sync device` after every device op
 *    and marker issued before it.
 *  - stream: an op starts after the previous op of its stream ended (an op
 *    of a graph's branch: the previous op of its stream in the same launch;
 *    two ops that two host threads issued at one instant are not ordered,
 *    here nor by the sync and queue rules).
 *  - event: `wait S E` resolves after the most recent record of E issued before
 *    it completed, and so does the next op of S.
 *  - legacy: an op of the default stream starts after the last op of every
 *    blocking stream issued before it ended; the first op of a blocking stream
 *    after a default-stream op starts after that op ended.
 *  - engine: the op ran on the engine its kind and the profile's copy engines
 *    give, on connection (stream - 1) mod C (the default stream on 0); under
 *    assign_on_submit on one of the C, the same as the op before it in its
 *    stream when that one had not ended when this one was issued.
 *  - copy-engine: at most one direct copy (pinned or device memory) at a time
 *    on each copy engine (h2d, d2h, or the single engine of a one-engine
 *    device; d2d copies one at a time), and at most one staged copy (pageable
 *    memory), which starts at no time a direct copy runs there.
 *  - copy-time: a copy lasts latency + bytes / bandwidth of its direction and
 *    memory kind, stretched by (1 - duplex_factor) of the time a copy of the
 *    other direction ran beside it, within rounding; a staged copy also by
 *    every moment a direct copy ran on its engine after the first
 *    pageable_overlap of it (the profile's, by the staged copy's direction:
 *    it is paused then, and not slowed by duplex while paused).
 *  - kernel-limit: at most max_concurrent_kernels kernels run at once; with
 *    connection_serializes, kernels of one connection never overlap.
 *  - kernel-time: a kernel lasts at least waves x block time (no schedule of
 *    its blocks on sm_count x blocks-per-SM slots is shorter), and exactly that
 *    when no other kernel ran during it. Block time is block_time=, or time=
 *    divided by the waves and rounded, as MODEL.md defines it.
 *  - sm-capacity: for every window [a, b] and the kernels that ran entirely
 *    inside it, what their blocks held over time (grid x block time x each
 *    block's block slot, threads, shared memory and registers) is at most what
 *    sm_count SMs hold over b - a, resource by resource. Each block is counted
 *    at the least it can take (threads and registers not rounded to warps),
 *    so the rule holds whether the model pools SMs or places blocks per SM.
 *    With more than WINDOW_KERNELS kernels only the busy periods (maximal
 *    runs of overlapping kernels) are windows.
 *  - callback: host functions run one at a time (one thread for the
 *    process), each for exactly its own time.
 *  Memsets are kernels throughout: one block of GPU_MEMSET_BLOCK threads per
 *  SM for latency + bytes / bandwidth (gpu_profile.h).
 *  - queue: within one connection queue, an op starts no earlier than any copy
 *    ahead of it (a copy leaves the queue when it starts), and a kernel no
 *    earlier than any kernel of the same priority ahead of it (the left-over
 *    policy dispatches equal priorities in admission order). With fewer copy
 *    queues than connections (copy_connections), connection c's copies of at
 *    least shared_copy_min_size are in connection (c mod copy_connections)'s
 *    queues, and smaller ones in queues of their own (eng_connection.c).
 *
 * What cannot be checked from start and end times alone, and is not:
 *  - whether an op started as early as it could (the checker tests safety,
 *    not that the model wasted no time), and so the exact latencies
 *    (dependency, kernel gap), Fermi's deferred completion and the moment a
 *    kernel left its queue (admission comes before the first block, unseen);
 *  - per-SM placement: results carry no block counts per instant or per SM,
 *    so the SM rule is the capacity integral above, which a run that
 *    over-fills SMs for a while and leaves them idle later can pass, and which
 *    cannot see one SM over its limits while another has room;
 *  - priorities: a higher-priority kernel may overtake an earlier one, so
 *    kernels of different priorities in one queue are not ordered;
 *  - the order in which one copy engine served copies from different
 *    connections (it serves them in the order they became ready).
 * Blocks per SM come from gpu_profile_blocks_per_sm(), the profile's shared
 * occupancy rule; the property test checks that rule against the raw limits. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "eng_check.h"

#define NONE G_MAXUINT32
/* Windows checked pairwise below this many kernels; busy periods above. */
#define WINDOW_KERNELS 2000
/* Priorities run from -5 (most urgent) to 0. */
#define N_PRIORITIES 6

struct EngCheck
{
  const GpuProfile *profile;
  const Schedule *sched;
  guint connections;
  guint copy_connections; /* connections with copy queues of their own */
  const EngOpResult *r;
  gsize n;
  /* The ops in the order they were issued, which the rules about what was
   * issued before an op follow: NULL for one host thread, whose order is the
   * ops' own. With several, by issue time (ties in file order: which of two
   * threads calling at one instant went first is not in the results). */
  guint32 *order;

  GArray *kept; /* EngCheckViolation */
  gsize total;
  gsize per_rule[ENG_CHECK_N_RULES];
};

static const char *const rule_names[ENG_CHECK_N_RULES] = {
  "times", "host", "sync", "stream", "event", "legacy", "engine", "copy-engine",
  "copy-time", "kernel-limit", "kernel-time", "sm-capacity", "queue", "callback",
};

const char *
eng_check_rule_name (EngCheckRule rule)
{
  g_return_val_if_fail (rule < ENG_CHECK_N_RULES, "?");
  return rule_names[rule];
}

static void G_GNUC_PRINTF (5, 6)
violation (EngCheck *check, EngCheckRule rule, guint32 op, guint32 other, const char *format, ...)
{
  check->total++;
  check->per_rule[rule]++;
  if (check->kept->len >= ENG_CHECK_MAX_KEPT)
    return;
  va_list args;
  va_start (args, format);
  EngCheckViolation v = { rule, op, other, g_strdup_vprintf (format, args) };
  va_end (args);
  g_array_append_val (check->kept, v);
}

/* ---- What the contract says about each kind of op ---- */

static const SchedOp *
sop_of (const EngCheck *check, gsize i)
{
  return schedule_op (check->sched, i);
}

/* The k-th op issued. */
static gsize
issued (const EngCheck *check, gsize k)
{
  return check->order != NULL ? check->order[k] : k;
}

static void
issue_order (EngCheck *check)
{
  if (schedule_n_threads (check->sched) == 1)
    return;
  g_autofree SimTime *issue = g_new (SimTime, MAX (check->n, 1));
  for (gsize i = 0; i < check->n; i++)
    issue[i] = check->r[i].issue;
  check->order = schedule_issue_order (check->sched, issue);
}

/* Ops that belong to a stream's order: copies, memcpy, kernels, markers. */
static gboolean
is_stream_op (const SchedOp *sop)
{
  switch (sop->kind)
    {
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
    case SCHED_OP_KERNEL:
    case SCHED_OP_MEMSET:
    case SCHED_OP_HOSTFN:
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
    case SCHED_OP_MALLOC:
    case SCHED_OP_FREE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Ops that run on the SMs: kernels, and memsets (a kernel the driver launches). */
static gboolean
is_kernel (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_KERNEL || sop->kind == SCHED_OP_MEMSET;
}

/* The kernel an op runs as: its own, or a memset's (gpu_profile.h). */
static const SchedKernel *
kernel_of (const GpuProfile *p, const SchedOp *sop, SchedKernel *scratch)
{
  if (sop->kind != SCHED_OP_MEMSET)
    return &sop->u.kernel;
  *scratch = (SchedKernel) { p->sm_count, GPU_MEMSET_BLOCK, 0, 0,
                             gpu_profile_memset_time (p, sop->u.bytes), SCHED_NONE, FALSE };
  return scratch;
}

static gboolean
is_device_op (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY || is_kernel (sop);
}

/* Ops that pass through their stream at an instant: records, waits, and
 * stream-ordered allocation. */
static gboolean
is_marker (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_RECORD || sop->kind == SCHED_OP_WAIT
         || sop->kind == SCHED_OP_MALLOC || sop->kind == SCHED_OP_FREE;
}

static gboolean
is_copy (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY;
}

static EngEngine
expected_engine (const GpuProfile *p, const SchedOp *sop)
{
  switch (sop->kind)
    {
    case SCHED_OP_KERNEL:
    case SCHED_OP_MEMSET:
      return ENG_ENGINE_COMPUTE;
    case SCHED_OP_HOSTFN:
      return ENG_ENGINE_CALLBACK;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      if (sop->u.copy.dir == SCHED_DIR_D2D)
        return ENG_ENGINE_D2D;
      if (p->copy_engines < 2)
        return ENG_ENGINE_COPY;
      return sop->u.copy.dir == SCHED_DIR_H2D ? ENG_ENGINE_H2D : ENG_ENGINE_D2H;
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
    case SCHED_OP_MALLOC:
    case SCHED_OP_FREE:
      return ENG_ENGINE_STREAM;
    default:
      return ENG_ENGINE_HOST;
    }
}

/* The per-connection queue class: 0 h2d, 1 d2h, 2 the one copy queue,
 * 3 compute (kernels and d2d copies); -1 for no queue. */
static int
queue_class (const GpuProfile *p, const SchedOp *sop)
{
  if (is_kernel (sop))
    return 3;
  if (!is_copy (sop))
    return -1;
  if (sop->u.copy.dir == SCHED_DIR_D2D)
    return 3;
  if (p->copy_engines < 2)
    return 2;
  return sop->u.copy.dir == SCHED_DIR_H2D ? 0 : 1;
}

static guint
expected_connection (const EngCheck *check, guint32 stream)
{
  if (stream == SCHED_STREAM_DEFAULT)
    return 0;
  return (stream - 1) % check->connections;
}

/* The connection whose queues an op went through, once check_engines has
 * checked it: under assign_on_submit the one the results name (which depends
 * on the queues' state, not on the stream alone), else the stream's. */
static guint
connection_of_op (const EngCheck *check, gsize op)
{
  if (check->profile->assign_on_submit && check->r[op].conn >= 0
      && (guint) check->r[op].conn < check->connections)
    return (guint) check->r[op].conn;
  return expected_connection (check, sop_of (check, op)->stream);
}

static gboolean
stream_blocking (const EngCheck *check, guint32 stream)
{
  return stream != SCHED_STREAM_DEFAULT
         && !schedule_stream (check->sched, stream)->nonblocking;
}

static SimTime
add_sat (SimTime a, SimTime b)
{
  SimTime r;
  return __builtin_add_overflow (a, b, &r) ? G_MAXINT64 : r;
}

/* ---- times, host, engine ---- */

static void
check_host (EngCheck *check)
{
  const GpuProfile *p = check->profile;
  /* Per host thread: the earliest its next call may be issued, and after
   * which op; a thread's first call comes after the SPAWN that starts it. */
  guint n_threads = schedule_n_threads (check->sched);
  g_autofree SimTime *ready = g_new0 (SimTime, n_threads);
  g_autofree guint32 *ready_op = g_new (guint32, n_threads);
  g_autofree gboolean *called = g_new0 (gboolean, n_threads); /* made a device call */
  /* what growing the memory pool added to each `malloc`, walked in issue
   * order; with several threads a synchronize's return, where the pool gives
   * memory back, may fall among another thread's calls, so there the check
   * takes no growth (a lower bound on the call's cost) */
  g_autofree SimTime *growth = g_new0 (SimTime, MAX (check->n, 1));
  if (n_threads == 1)
    gpu_pool_growth (p, check->sched, check->order, growth);
  for (guint t = 0; t < n_threads; t++)
    ready_op[t] = NONE;
  gboolean spawned = FALSE; /* SPAWNs are the main thread's: file order is their order */

  for (gsize i = 0; i < check->n; i++)
    {
      const SchedOp *sop = sop_of (check, i);
      const EngOpResult *r = &check->r[i];
      guint32 op = (guint32) i;
      guint th = schedule_op_thread (check->sched, i);
      /* a thread's first call that puts work on the GPU costs thread_first_call more */
      gboolean device_call = gpu_profile_call_puts_work (sop);
      SimTime cost = gpu_profile_thread_call_cost (p, sop, device_call && th != 0 && !called[th])
                     + growth[i];
      called[th] = called[th] || device_call;

      if (r->issue < 0 || r->start < r->issue || r->end < r->start)
        violation (check, ENG_CHECK_TIMES, op, NONE,
                   "issue %" G_GINT64_FORMAT ", start %" G_GINT64_FORMAT ", end %" G_GINT64_FORMAT
                   " ns are not in order 0 <= issue <= start <= end",
                   r->issue, r->start, r->end);
      if (is_device_op (sop))
        {
          SimTime arrive = add_sat (r->issue, cost + gpu_profile_submit_latency (p, sop->kind));
          if (r->start < arrive)
            violation (check, ENG_CHECK_TIMES, op, NONE,
                       "started at %" G_GINT64_FORMAT " ns, before its call reached the device at %"
                       G_GINT64_FORMAT " ns (issue + host cost + submit latency)", r->start, arrive);
        }
      else if (is_marker (sop) || sop->kind == SCHED_OP_HOSTFN)
        {
          SimTime arrive = add_sat (r->issue, cost);
          if (r->start < arrive)
            violation (check, ENG_CHECK_TIMES, op, NONE,
                       "resolved at %" G_GINT64_FORMAT " ns, before its call ended at %"
                       G_GINT64_FORMAT " ns", r->start, arrive);
          if (is_marker (sop) && r->end != r->start)
            violation (check, ENG_CHECK_TIMES, op, NONE,
                       "a record, wait, malloc or free is an instant, but it lasted from %" G_GINT64_FORMAT
                       " to %" G_GINT64_FORMAT " ns", r->start, r->end);
        }
      else if (sop->kind == SCHED_OP_SPAWN || sop->kind == SCHED_OP_JOIN)
        {
          gboolean spawn = sop->kind == SCHED_OP_SPAWN;
          if (r->start != r->issue
              || (spawn && r->end != add_sat (r->start, gpu_profile_thread_create (p, !spawned))))
            violation (check, ENG_CHECK_HOST, op, NONE,
                       "a thread's start costs thread_create and a join starts when it is "
                       "called, but it was called at %" G_GINT64_FORMAT " ns and ran from %"
                       G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns", r->issue, r->start, r->end);
          if (spawn)
            {
              ready[sop->u.thread] = add_sat (r->start, gpu_profile_thread_start (p, !spawned));
              ready_op[sop->u.thread] = op;
              spawned = TRUE;
            }
        }
      else if (sop->kind == SCHED_OP_HOST)
        {
          if (r->start != r->issue || r->end != add_sat (r->issue, sop->u.duration))
            violation (check, ENG_CHECK_HOST, op, NONE,
                       "host work of %" G_GINT64_FORMAT " ns issued at %" G_GINT64_FORMAT
                       " ns ran from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns",
                       sop->u.duration, r->issue, r->start, r->end);
        }
      else
        {
          if (r->start != r->issue)
            violation (check, ENG_CHECK_HOST, op, NONE,
                       "a synchronize starts when it is called (%" G_GINT64_FORMAT
                       " ns), not at %" G_GINT64_FORMAT " ns", r->issue, r->start);
          /* one that found nothing to wait for may cost host_sync_idle */
          SimTime cost = MIN (p->host_sync, gpu_profile_idle_sync_cost (p));
          if (r->end < add_sat (r->issue, cost))
            violation (check, ENG_CHECK_SYNC, op, NONE,
                       "returned at %" G_GINT64_FORMAT " ns, before the call's cost (%"
                       G_GINT64_FORMAT " ns) was paid", r->end, cost);
        }

      if (i == 0 && r->issue != 0)
        violation (check, ENG_CHECK_HOST, op, NONE,
                   "the first call is issued at 0 ns, not at %" G_GINT64_FORMAT, r->issue);
      else if (i > 0 && r->issue < ready[th])
        violation (check, ENG_CHECK_HOST, op, ready_op[th],
                   "issued at %" G_GINT64_FORMAT " ns, before the host was free at %"
                   G_GINT64_FORMAT " ns (after op %u)", r->issue, ready[th], ready_op[th]);

      if (gpu_profile_copy_blocks (sop))
        ready[th] = add_sat (r->end, p->host_memcpy_sync);
      else if (sop->kind == SCHED_OP_HOST || !is_stream_op (sop))
        ready[th] = r->end;
      else
        ready[th] = add_sat (r->issue, cost);
      ready_op[th] = op;
    }
}

/* A graph's branches (SchedOp.graph_branch) follow their stream's ops in
 * the same launch alone: per stream, the launch whose branch it last
 * carried and that branch's last op, and the record a `wait` in it made
 * the next op follow. Made at the first branch. */
typedef struct
{
  guint32 *graph, *tail, *floor;
} Lanes;

/* Where the op before `sop` in its order is kept: its stream's slot in
 * `stream_slots`, or for a branch its lane's (`floor`: the lane's event
 * floor rather than its tail). */
static guint32 *
order_slot (const EngCheck *check, Lanes *lanes, const SchedOp *sop, guint32 *stream_slots,
            gboolean floor)
{
  if (!sop->graph_branch)
    return &stream_slots[sop->stream];
  if (lanes->graph == NULL)
    {
      guint n = schedule_n_streams (check->sched);
      lanes->graph = g_new0 (guint32, n);
      lanes->tail = g_new (guint32, n);
      lanes->floor = g_new (guint32, n);
    }
  if (lanes->graph[sop->stream] != sop->graph)
    {
      lanes->graph[sop->stream] = sop->graph;
      lanes->tail[sop->stream] = lanes->floor[sop->stream] = NONE;
    }
  return floor ? &lanes->floor[sop->stream] : &lanes->tail[sop->stream];
}

static void
lanes_free (Lanes *lanes)
{
  g_free (lanes->graph);
  g_free (lanes->tail);
  g_free (lanes->floor);
}

/* Under assign_on_submit a stream may take any connection when it has
 * nothing in flight, so what is checked is that it kept its connection while
 * the op before it in the stream had not ended, and that the connection
 * exists; the default stream stays on connection 0. */
static void
check_connection_on_submit (EngCheck *check, gsize i, guint32 *stream_last, Lanes *lanes)
{
  const SchedOp *sop = sop_of (check, i);
  const EngOpResult *r = &check->r[i];
  guint32 *slot = order_slot (check, lanes, sop, stream_last, FALSE);
  guint32 before = *slot;
  *slot = (guint32) i;
  if (sop->stream == SCHED_STREAM_DEFAULT)
    {
      if (r->conn != 0)
        violation (check, ENG_CHECK_ENGINE, (guint32) i, NONE,
                   "went to connection %d, expected 0 (the default stream's)", r->conn);
      return;
    }
  if (r->conn < 0 || (guint) r->conn >= check->connections)
    {
      violation (check, ENG_CHECK_ENGINE, (guint32) i, NONE,
                 "went to connection %d, expected one of 0 to %u", r->conn,
                 check->connections - 1);
      return;
    }
  if (before != NONE && check->r[before].end > r->issue && check->r[before].conn != r->conn)
    violation (check, ENG_CHECK_ENGINE, (guint32) i, before,
               "went to connection %d, while op %u of its stream, still in flight when it "
               "was issued, went to %d (a stream keeps its connection while it has work)",
               r->conn, before, check->r[before].conn);
}

static void
check_engines (EngCheck *check)
{
  guint32 *stream_last = NULL;
  Lanes lanes = { NULL, NULL, NULL };
  if (check->profile->assign_on_submit)
    {
      guint n_streams = schedule_n_streams (check->sched);
      stream_last = g_new (guint32, n_streams);
      for (guint s = 0; s < n_streams; s++)
        stream_last[s] = NONE;
    }
  for (gsize k = 0; k < check->n; k++)
    {
      gsize i = issued (check, k);
      const SchedOp *sop = sop_of (check, i);
      const EngOpResult *r = &check->r[i];
      EngEngine want = expected_engine (check->profile, sop);
      if (r->engine != want)
        violation (check, ENG_CHECK_ENGINE, (guint32) i, NONE, "ran on engine %s, expected %s",
                   r->engine < ENG_N_ENGINES ? eng_engine_name ((EngEngine) r->engine) : "?",
                   eng_engine_name (want));
      /* markers and host functions wait in no queue, but belong to their stream's connection */
      gboolean queued = queue_class (check->profile, sop) >= 0 || is_marker (sop)
                        || sop->kind == SCHED_OP_HOSTFN;
      if (queued && stream_last != NULL)
        {
          check_connection_on_submit (check, i, stream_last, &lanes);
          continue;
        }
      int conn = queued ? (int) expected_connection (check, sop->stream) : -1;
      if (r->conn != conn)
        violation (check, ENG_CHECK_ENGINE, (guint32) i, NONE,
                   "went to connection %d, expected %d (streams go round-robin over %u)",
                   r->conn, conn, check->connections);
    }
  g_free (stream_last);
  lanes_free (&lanes);
}

/* ---- stream order, events, the legacy default stream, syncs ---- */

typedef struct
{
  guint32 *tail;          /* last op issued to each stream */
  guint32 *event_floor;   /* the record the next op of a stream must follow, after a wait */
  guint32 *seen_legacy;   /* the default-stream op each stream was last checked against */
  guint32 *dirty;         /* blocking streams with ops since the last default-stream op */
  gboolean *is_dirty;
  guint n_dirty;
  guint32 *record;        /* most recent record of each event */
  guint32 last_legacy;
  guint32 device_last;    /* device op or marker with the latest end so far */
  guint32 loading;        /* the last launch that loads its code, which later ops follow */
} DepState;

/* Two host threads that called at one instant: which went first is not in
 * the results, so neither is which of the two ops follows the other. */
static gboolean
unordered (const EngCheck *check, guint32 op, guint32 other)
{
  return check->r[op].issue == check->r[other].issue
         && schedule_op_thread (check->sched, op) != schedule_op_thread (check->sched, other);
}

static void
check_after (EngCheck *check, EngCheckRule rule, guint32 op, guint32 before, const char *what)
{
  if (before == NONE || unordered (check, op, before))
    return;
  const EngOpResult *r = &check->r[op];
  const EngOpResult *b = &check->r[before];
  if (r->start < b->end)
    violation (check, rule, op, before,
               "started at %" G_GINT64_FORMAT " ns, before op %u (%s) ended at %" G_GINT64_FORMAT
               " ns", r->start, before, what, b->end);
}

static void
check_sync_after (EngCheck *check, guint32 op, guint32 waited, const char *what)
{
  if (waited == NONE || unordered (check, op, waited))
    return;
  /* a call made after the waited op ended found nothing to wait for; its
   * cost is checked with the call's own */
  if (check->r[waited].end <= check->r[op].issue)
    return;
  SimTime need = add_sat (check->r[waited].end, check->profile->host_sync);
  if (check->r[op].end < need)
    violation (check, ENG_CHECK_SYNC, op, waited,
               "returned at %" G_GINT64_FORMAT " ns, before op %u (%s) ended at %" G_GINT64_FORMAT
               " ns plus the call's cost", check->r[op].end, waited, what,
               check->r[waited].end);
}

static void
check_deps (EngCheck *check)
{
  guint n_streams = schedule_n_streams (check->sched);
  guint n_events = schedule_n_events (check->sched);
  DepState st = { 0 };
  Lanes lanes = { NULL, NULL, NULL };
  st.tail = g_new (guint32, n_streams);
  st.event_floor = g_new (guint32, n_streams);
  st.seen_legacy = g_new (guint32, n_streams);
  st.dirty = g_new (guint32, n_streams);
  st.is_dirty = g_new0 (gboolean, n_streams);
  st.record = g_new (guint32, MAX (n_events, 1));
  for (guint s = 0; s < n_streams; s++)
    st.tail[s] = st.event_floor[s] = st.seen_legacy[s] = NONE;
  for (guint e = 0; e < n_events; e++)
    st.record[e] = NONE;
  st.last_legacy = st.device_last = st.loading = NONE;

  for (gsize k = 0; k < check->n; k++)
    {
      gsize i = issued (check, k);
      const SchedOp *sop = sop_of (check, i);
      guint32 op = (guint32) i;
      if (is_stream_op (sop))
        {
          guint32 s = sop->stream;
          guint32 *tail = order_slot (check, &lanes, sop, st.tail, FALSE);
          guint32 *floor = order_slot (check, &lanes, sop, st.event_floor, TRUE);
          check_after (check, ENG_CHECK_STREAM, op, *tail, "the previous op of its stream");
          if (st.loading != NONE)
            {
              if (check->r[op].start < check->r[st.loading].start)
                violation (check, ENG_CHECK_STREAM, op, st.loading,
                           "started at %" G_GINT64_FORMAT " ns, before op %u, a launch issued "
                           "before it that loads its code, started at %" G_GINT64_FORMAT " ns",
                           check->r[op].start, st.loading, check->r[st.loading].start);
            }
          if (sop->kind == SCHED_OP_KERNEL && sop->u.kernel.loads)
            {
              for (guint o = 0; o < n_streams; o++)
                if (o != s)
                  check_after (check, ENG_CHECK_STREAM, op, st.tail[o],
                               "an op issued before it, since its launch loads its code");
              st.loading = op;
            }
          if (*floor != NONE)
            {
              check_after (check, ENG_CHECK_EVENT, op, *floor, "the record its stream waited for");
              *floor = NONE;
            }
          if (sop->kind == SCHED_OP_WAIT && sop->event != SCHED_NONE
              && st.record[sop->event] != NONE)
            {
              check_after (check, ENG_CHECK_EVENT, op, st.record[sop->event],
                           "the record it waits for");
              *floor = st.record[sop->event];
            }
          if (sop->graph_branch)
            ; /* a branch stands in the launch, apart from the legacy stream's order */
          else if (s == SCHED_STREAM_DEFAULT)
            {
              /* Streams that got no work since the previous default-stream op
               * were checked against it, and it ended before this one began. */
              for (guint d = 0; d < st.n_dirty; d++)
                {
                  guint32 b = st.dirty[d];
                  st.is_dirty[b] = FALSE;
                  check_after (check, ENG_CHECK_LEGACY, op, st.tail[b],
                               "the last op of a blocking stream, which the default stream waits for");
                }
              st.n_dirty = 0;
              st.last_legacy = op;
            }
          else if (stream_blocking (check, s))
            {
              if (st.seen_legacy[s] != st.last_legacy)
                {
                  check_after (check, ENG_CHECK_LEGACY, op, st.last_legacy,
                               "a default-stream op, which blocking streams wait for");
                  st.seen_legacy[s] = st.last_legacy;
                }
              if (!st.is_dirty[s])
                {
                  st.is_dirty[s] = TRUE;
                  st.dirty[st.n_dirty++] = s;
                }
            }
          *tail = op;
          if (sop->kind == SCHED_OP_RECORD && sop->event != SCHED_NONE)
            st.record[sop->event] = op;
          if (st.device_last == NONE || check->r[op].end > check->r[st.device_last].end)
            st.device_last = op;
          continue;
        }
      switch (sop->kind)
        {
        case SCHED_OP_SYNC_STREAM:
          check_sync_after (check, op, st.tail[sop->stream], "the last op of the stream");
          if (sop->stream == SCHED_STREAM_DEFAULT)
            for (guint s = 1; s < n_streams; s++)
              if (stream_blocking (check, s))
                check_sync_after (check, op, st.tail[s],
                                  "the last op of a blocking stream, which `sync default` includes");
          break;
        case SCHED_OP_SYNC_EVENT:
          if (sop->event != SCHED_NONE)
            check_sync_after (check, op, st.record[sop->event], "the record of the event");
          break;
        case SCHED_OP_SYNC_DEVICE:
          check_sync_after (check, op, st.device_last, "the device op that ended last");
          break;
        default:
          break;
        }
    }

  g_free (st.tail);
  g_free (st.event_floor);
  g_free (st.seen_legacy);
  g_free (st.dirty);
  g_free (st.is_dirty);
  g_free (st.record);
  lanes_free (&lanes);
}

/* ---- copy engines ---- */

typedef struct
{
  guint32 op;
  SimTime start, end;
} Span;

static int
span_by_start (const void *a, const void *b)
{
  const Span *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return x->op < y->op ? -1 : x->op > y->op;
}

/* Reports each span that begins before an earlier one on the same resource
 * has ended. `spans` is sorted by start. */
static void check_serial (EngCheck *check, EngCheckRule rule, const Span *spans, gsize n,
                          const char *what);

/* Host functions: one at a time, each for its time. */
static void
check_callback (EngCheck *check)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));
  for (gsize k = 0; k < check->n; k++)
    {
      gsize i = issued (check, k);
      const SchedOp *sop = sop_of (check, i);
      const EngOpResult *r = &check->r[i];
      if (sop->kind != SCHED_OP_HOSTFN)
        continue;
      SimTime want = sop->u.duration;
      if (r->end - r->start != want)
        violation (check, ENG_CHECK_CALLBACK, (guint32) i, NONE,
                   "a host function of %" G_GINT64_FORMAT " ns ran %" G_GINT64_FORMAT "-%"
                   G_GINT64_FORMAT " ns, not its time (%" G_GINT64_FORMAT " ns)",
                   sop->u.duration, r->start, r->end, want);
      Span s = { (guint32) i, r->start, r->end };
      g_array_append_val (spans, s);
    }
  g_array_sort (spans, span_by_start);
  check_serial (check, ENG_CHECK_CALLBACK, (const Span *) spans->data, spans->len,
                "the callback thread");
  g_array_free (spans, TRUE);
}

static void
check_serial (EngCheck *check, EngCheckRule rule, const Span *spans, gsize n, const char *what)
{
  gsize holder = G_MAXSIZE;
  for (gsize i = 0; i < n; i++)
    {
      if (spans[i].end == spans[i].start)
        continue;
      if (holder != G_MAXSIZE && spans[i].start < spans[holder].end)
        violation (check, rule, spans[i].op, spans[holder].op,
                   "ran %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " ns on %s while op %u ran there until %"
                   G_GINT64_FORMAT " ns", spans[i].start, spans[i].end, what, spans[holder].op,
                   spans[holder].end);
      if (holder == G_MAXSIZE || spans[i].end > spans[holder].end)
        holder = i;
    }
}

/* The first of `n` spans (sorted by start) that starts at or after `t`. */
static gsize
first_starting_from (const Span *o, gsize n, SimTime t)
{
  gsize lo = 0, hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (o[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Total time `s` shares with the spans of `other` (sorted by start, one
 * engine, so one at a time), and how many of them it meets. */
static SimTime
overlap_with (const Span *s, const GArray *other, guint *met)
{
  const Span *o = (const Span *) other->data;
  gsize lo = first_starting_from (o, other->len, s->end);
  SimTime total = 0;
  *met = 0;
  for (gsize k = lo; k-- > 0;)
    {
      if (o[k].end <= s->start)
        break;
      SimTime a = MAX (s->start, o[k].start), b = MIN (s->end, o[k].end);
      if (b > a)
        {
          total += b - a;
          (*met)++;
        }
    }
  return total;
}

/* The time covered by the spans of two engines together, as spans sorted by
 * start that do not overlap: what overlap_with needs where a staged copy
 * runs beside a direct one on the same engine. */
static GArray *
union_of (const GArray *a, const GArray *b)
{
  GArray *all = g_array_sized_new (FALSE, FALSE, sizeof (Span), a->len + b->len);
  g_array_append_vals (all, a->data, a->len);
  g_array_append_vals (all, b->data, b->len);
  g_array_sort (all, span_by_start);
  guint kept = 0;
  for (guint i = 0; i < all->len; i++)
    {
      Span *s = &g_array_index (all, Span, i);
      if (s->end == s->start)
        continue;
      Span *last = kept > 0 ? &g_array_index (all, Span, kept - 1) : NULL;
      if (last != NULL && s->start <= last->end)
        last->end = MAX (last->end, s->end);
      else
        g_array_index (all, Span, kept++) = *s;
    }
  g_array_set_size (all, kept);
  return all;
}

/* A staged copy starts while no direct copy runs on its engine, and every
 * direct copy it meets pauses it from `window` after that copy's start.
 * Returns the time it was paused, and the part of that time `other` (the
 * other direction) was busy. */
static SimTime
paused_time (EngCheck *check, const Span *s, const GArray *direct, const GArray *other,
             SimTime window, SimTime *paused_shared, guint *met)
{
  SimTime paused = 0;
  *paused_shared = 0;
  *met = 0;
  /* back from the first direct copy starting at or after s ends: they run
   * one at a time (checked apart), so the ones it meets are just before */
  const Span *o = (const Span *) direct->data;
  for (gsize k = first_starting_from (o, direct->len, s->end); k-- > 0;)
    {
      const Span *d = &o[k];
      if (d->end <= s->start)
        break;
      if (d->end == d->start)
        continue;
      if (d->start < s->start)
        violation (check, ENG_CHECK_COPY_ENGINE, s->op, d->op,
                   "a staged (pageable) copy started at %" G_GINT64_FORMAT
                   " ns while op %u, a direct copy, ran on its engine until %" G_GINT64_FORMAT " ns",
                   s->start, d->op, d->end);
      Span part = { d->op, MAX (s->start, d->start + window), MIN (s->end, d->end) };
      if (part.end <= part.start)
        {
          *met += 1;
          continue;
        }
      guint shared_met = 0;
      paused += part.end - part.start;
      if (other != NULL)
        *paused_shared += overlap_with (&part, other, &shared_met);
      *met += 1 + shared_met;
    }
  return paused;
}

static void
check_copies (EngCheck *check)
{
  const GpuProfile *p = check->profile;
  /* per engine, direct copies and copies staged from pageable memory */
  GArray *direct[ENG_N_ENGINES], *staged[ENG_N_ENGINES];
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      direct[e] = g_array_new (FALSE, FALSE, sizeof (Span));
      staged[e] = g_array_new (FALSE, FALSE, sizeof (Span));
    }

  for (gsize i = 0; i < check->n; i++)
    {
      const SchedOp *sop = sop_of (check, i);
      if (!is_copy (sop))
        continue;
      Span s = { (guint32) i, check->r[i].start, check->r[i].end };
      EngEngine e = expected_engine (p, sop);
      g_array_append_val (gpu_profile_copy_staged (&sop->u.copy) ? staged[e] : direct[e], s);
    }
  GArray *busy[ENG_N_ENGINES];
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      g_array_sort (direct[e], span_by_start);
      g_array_sort (staged[e], span_by_start);
      const char *name = eng_engine_name ((EngEngine) e);
      check_serial (check, ENG_CHECK_COPY_ENGINE, (const Span *) direct[e]->data, direct[e]->len, name);
      check_serial (check, ENG_CHECK_COPY_ENGINE, (const Span *) staged[e]->data, staged[e]->len, name);
      busy[e] = union_of (direct[e], staged[e]);
    }

  for (guint e = 0; e < ENG_N_ENGINES; e++)
    for (guint staging = 0; staging < 2; staging++)
      {
        const GArray *spans = staging ? staged[e] : direct[e];
        const GArray *other = e == ENG_ENGINE_H2D   ? busy[ENG_ENGINE_D2H]
                              : e == ENG_ENGINE_D2H ? busy[ENG_ENGINE_H2D]
                                                    : NULL;
        for (guint k = 0; k < spans->len; k++)
          {
            const Span *s = &g_array_index (spans, Span, k);
            const SchedOp *sop = sop_of (check, s->op);
            SimTime solo = gpu_profile_copy_time (p, &sop->u.copy);
            SimTime took = s->end - s->start;
            SimTime shared = 0, paused = 0, paused_shared = 0;
            guint met = 0, paused_met = 0;
            if (other != NULL)
              shared = overlap_with (s, other, &met);
            if (staging)
              paused = paused_time (check, s, direct[e], other, p->pageable_overlap[sop->u.copy.dir],
                                    &paused_shared, &paused_met);
            /* Alone a copy progresses at 1, beside the other direction at
             * the duplex factor f, and a staged copy not at all while a
             * direct one runs on its engine: took = solo + paused + (shared
             * outside the pauses) x (1 - f). Each change of speed may round
             * the end up by a nanosecond. */
            double want = (double) solo + (double) paused
                          + (double) (shared - paused_shared) * (1.0 - p->duplex_factor);
            double slack = 2.0 + met + paused_met + want * 1e-12;
            if (fabs ((double) took - want) > slack)
              violation (check, ENG_CHECK_COPY_TIME, s->op, NONE,
                         "took %" G_GINT64_FORMAT " ns; %" G_GUINT64_FORMAT " bytes take %" G_GINT64_FORMAT
                         " ns alone (latency + bytes / bandwidth), %.0f ns with %" G_GINT64_FORMAT
                         " ns beside a copy the other way at duplex factor %g and %" G_GINT64_FORMAT
                         " ns paused for direct copies",
                         took, sop->u.copy.bytes, solo, want, shared - paused_shared,
                         p->duplex_factor, paused);
          }
      }

  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      g_array_free (direct[e], TRUE);
      g_array_free (staged[e], TRUE);
      g_array_free (busy[e], TRUE);
    }
}

/* ---- kernels ---- */

/* What an SM holds: block slots, threads, shared memory, registers. */
enum
{
  RES_BLOCKS,
  RES_THREADS,
  RES_SMEM,
  RES_REGS,
  N_RESOURCES
};

static const char *const resource_names[N_RESOURCES] = {
  "block slots", "threads", "bytes of shared memory", "registers",
};

typedef struct
{
  guint32 op;
  SimTime start, end;
  guint bps;        /* blocks per SM */
  guint64 waves;
  SimTime block_time;
  double work[N_RESOURCES]; /* grid x block time x what one block takes of each resource */
  gboolean shared;  /* another kernel ran during part of it */
} KernelSpan;

static int
kernel_by_start (const void *a, const void *b)
{
  const KernelSpan *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->op < y->op ? -1 : x->op > y->op;
}

static int
kernel_by_end (const void *a, const void *b)
{
  const KernelSpan *const *x = a, *const *y = b;
  if ((*x)->end != (*y)->end)
    return (*x)->end < (*y)->end ? -1 : 1;
  return (*x)->op < (*y)->op ? -1 : (*x)->op > (*y)->op;
}

/* Fills the kernel's shape; FALSE (with a violation) if the profile cannot
 * run it, which eng_sim_new should have refused. */
static gboolean
kernel_shape (EngCheck *check, guint32 op, KernelSpan *k)
{
  const GpuProfile *p = check->profile;
  const SchedOp *sop = sop_of (check, op);
  SchedKernel scratch;
  const SchedKernel *kern = kernel_of (p, sop, &scratch);
  k->bps = gpu_profile_blocks_per_sm (p, kern->block, kern->smem, kern->regs);
  if (k->bps == 0)
    {
      violation (check, ENG_CHECK_ENGINE, op, NONE,
                 "ran, but one block (block=%u, smem=%u, regs=%u) does not fit on an SM",
                 kern->block, kern->smem, kern->regs);
      return FALSE;
    }
  guint64 per_wave = (guint64) p->sm_count * k->bps;
  k->waves = (kern->grid + per_wave - 1) / per_wave;
  if (kern->block_time >= 0)
    k->block_time = kern->block_time;
  else
    {
      SimTime total = 0;
      if (!schedule_kernel_time (check->sched, sop, (const char *const *) p->names, &total, NULL))
        {
          violation (check, ENG_CHECK_ENGINE, op, NONE, "ran, but has no time= for this device");
          return FALSE;
        }
      k->block_time = (total + (SimTime) k->waves / 2) / (SimTime) k->waves;
    }
  /* The least each block can take: threads and registers unrounded, so
   * that the bound holds whatever granularity the model counts in. */
  double blocks_time = (double) kern->grid * (double) k->block_time;
  guint regs = kern->regs != 0 ? kern->regs : p->default_regs;
  k->work[RES_BLOCKS] = blocks_time;
  k->work[RES_THREADS] = blocks_time * kern->block;
  k->work[RES_SMEM] = blocks_time * kern->smem;
  k->work[RES_REGS] = blocks_time * kern->block * regs;
  return TRUE;
}

typedef struct
{
  SimTime at;
  int delta;    /* -1 an end, +1 a start */
  guint32 op;
} Edge;

static int
edge_order (const void *a, const void *b)
{
  const Edge *x = a, *y = b;
  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  if (x->delta != y->delta)
    return x->delta < y->delta ? -1 : 1; /* ends first: spans are half-open */
  return x->op < y->op ? -1 : x->op > y->op;
}

static void
check_kernel_limit (EngCheck *check, KernelSpan *ks, gsize n)
{
  const GpuProfile *p = check->profile;
  Edge *edges = g_new (Edge, 2 * n);
  gsize m = 0;
  for (gsize i = 0; i < n; i++)
    if (ks[i].end != ks[i].start)
      {
        edges[m++] = (Edge) { ks[i].start, +1, ks[i].op };
        edges[m++] = (Edge) { ks[i].end, -1, ks[i].op };
      }
  if (m > 1)
    qsort (edges, m, sizeof *edges, edge_order);
  guint running = 0;
  for (gsize i = 0; i < m; i++)
    {
      if (edges[i].delta < 0)
        {
          running--;
          continue;
        }
      running++;
      if (running > p->max_concurrent_kernels)
        violation (check, ENG_CHECK_KERNEL_LIMIT, edges[i].op, NONE,
                   "started at %" G_GINT64_FORMAT " ns as kernel number %u running at once; "
                   "the device runs at most %u (max_concurrent_kernels)",
                   edges[i].at, running, p->max_concurrent_kernels);
    }
  g_free (edges);

  if (!p->connection_serializes)
    return;
  GArray **per_conn = g_new0 (GArray *, check->connections);
  for (gsize i = 0; i < n; i++)
    {
      guint c = connection_of_op (check, ks[i].op);
      if (per_conn[c] == NULL)
        per_conn[c] = g_array_new (FALSE, FALSE, sizeof (Span));
      Span s = { ks[i].op, ks[i].start, ks[i].end };
      g_array_append_val (per_conn[c], s);
    }
  for (guint c = 0; c < check->connections; c++)
    if (per_conn[c] != NULL)
      {
        check_serial (check, ENG_CHECK_KERNEL_LIMIT, (const Span *) per_conn[c]->data,
                      per_conn[c]->len, "its connection (connection_serializes)");
        g_array_free (per_conn[c], TRUE);
      }
  g_free (per_conn);
}

static double
capacity_of (const GpuProfile *p, guint r)
{
  switch (r)
    {
    case RES_BLOCKS:
      return p->max_blocks_per_sm;
    case RES_THREADS:
      return p->max_threads_per_sm;
    case RES_SMEM:
      return (double) p->smem_per_sm;
    default:
      return p->regs_per_sm;
    }
}

/* The first resource that the work of the kernels inside [a, b] needs more
 * of than the SMs hold in that time, or -1. */
static int
over_capacity (const EngCheck *check, const double *work, SimTime a, SimTime b)
{
  for (guint r = 0; r < N_RESOURCES; r++)
    {
      double capacity = (double) check->profile->sm_count * capacity_of (check->profile, r)
                        * (double) (b - a);
      if (work[r] > capacity * (1.0 + 1e-9) + 1.0)
        return (int) r;
    }
  return -1;
}

static void
report_capacity (EngCheck *check, const KernelSpan *last, const double *work, int r, SimTime a,
                 SimTime b)
{
  const GpuProfile *p = check->profile;
  violation (check, ENG_CHECK_SM_CAPACITY, last->op, NONE,
             "the kernels that ran within %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
             " ns (this one ending last) held %.4g %s-ns (grid x block time x each block's "
             "share), more than %u SMs of %.0f hold in that time (%.4g)",
             a, b, work[r], resource_names[r], p->sm_count, capacity_of (p, (guint) r),
             (double) p->sm_count * capacity_of (p, (guint) r) * (double) (b - a));
}

/* ks is sorted by start. Reports the first window found over capacity. */
static void
check_sm_capacity (EngCheck *check, KernelSpan *ks, gsize n)
{
  double work[N_RESOURCES];
  int r;
  if (n <= WINDOW_KERNELS)
    {
      KernelSpan **ends = g_new (KernelSpan *, n);
      for (gsize i = 0; i < n; i++)
        ends[i] = &ks[i];
      if (n > 1)
        qsort (ends, n, sizeof *ends, kernel_by_end);
      for (gsize i = 0; i < n; i++)
        {
          SimTime a = ks[i].start;
          if (i > 0 && ks[i - 1].start == a)
            continue; /* the same windows as the kernel before */
          memset (work, 0, sizeof work);
          for (gsize j = 0; j < n; j++)
            {
              if (ends[j]->start < a)
                continue;
              for (guint x = 0; x < N_RESOURCES; x++)
                work[x] += ends[j]->work[x];
              if ((r = over_capacity (check, work, a, ends[j]->end)) >= 0)
                {
                  report_capacity (check, ends[j], work, r, a, ends[j]->end);
                  g_free (ends);
                  return;
                }
            }
        }
      g_free (ends);
      return;
    }
  gsize first = 0;
  SimTime period_end = 0;
  memset (work, 0, sizeof work);
  for (gsize i = 0; i <= n; i++)
    {
      if (i == n || (i > first && ks[i].start >= period_end))
        {
          if ((r = over_capacity (check, work, ks[first].start, period_end)) >= 0)
            {
              report_capacity (check, &ks[i - 1], work, r, ks[first].start, period_end);
              return;
            }
          if (i == n)
            break;
          first = i;
          memset (work, 0, sizeof work);
          period_end = ks[i].end;
        }
      for (guint x = 0; x < N_RESOURCES; x++)
        work[x] += ks[i].work[x];
      period_end = MAX (period_end, ks[i].end);
    }
}

static void
check_kernels (EngCheck *check)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (KernelSpan));
  for (gsize i = 0; i < check->n; i++)
    {
      if (!is_kernel (sop_of (check, i)))
        continue;
      KernelSpan k = { (guint32) i, check->r[i].start, check->r[i].end, 0, 0, 0, { 0 }, FALSE };
      if (k.end < k.start || !kernel_shape (check, (guint32) i, &k))
        continue;
      g_array_append_val (spans, k);
    }
  g_array_sort (spans, kernel_by_start);
  KernelSpan *ks = (KernelSpan *) spans->data;
  gsize n = spans->len;

  /* Which kernels shared the device with another: one that started before
   * an earlier kernel ended, or whose next kernel by start began before it
   * ended. Zero-length kernels hold no slot for any time. */
  SimTime reach = G_MININT64;
  for (gsize i = 0; i < n; i++)
    {
      if (ks[i].end == ks[i].start)
        continue;
      if (ks[i].start < reach)
        ks[i].shared = TRUE;
      reach = MAX (reach, ks[i].end);
      for (gsize j = i + 1; j < n; j++)
        if (ks[j].end != ks[j].start)
          {
            if (ks[j].start < ks[i].end)
              ks[i].shared = TRUE;
            break;
          }
    }

  for (gsize i = 0; i < n; i++)
    {
      const KernelSpan *k = &ks[i];
      SimTime took = k->end - k->start;
      SimTime least = (SimTime) k->waves * k->block_time;
      if (took < least)
        violation (check, ENG_CHECK_KERNEL_TIME, k->op, NONE,
                   "took %" G_GINT64_FORMAT " ns, less than its %" G_GUINT64_FORMAT
                   " waves x block time %" G_GINT64_FORMAT " ns = %" G_GINT64_FORMAT
                   " ns (%u blocks per SM)", took, k->waves, k->block_time, least, k->bps);
      else if (!k->shared && took != least)
        violation (check, ENG_CHECK_KERNEL_TIME, k->op, NONE,
                   "ran alone for %" G_GINT64_FORMAT " ns; alone it takes %" G_GUINT64_FORMAT
                   " waves x block time %" G_GINT64_FORMAT " ns = %" G_GINT64_FORMAT " ns",
                   took, k->waves, k->block_time, least);
    }

  check_kernel_limit (check, ks, n);
  check_sm_capacity (check, ks, n);
  g_array_free (spans, TRUE);
}

/* ---- connection queues ---- */

typedef struct
{
  guint32 copy;                   /* the copy ahead with the latest start */
  guint32 kernel[N_PRIORITIES];   /* per priority, the kernel ahead with the latest start */
} QueueState;

static void
check_queue_after (EngCheck *check, guint32 op, guint32 ahead, const char *what)
{
  if (ahead == NONE || unordered (check, op, ahead) || check->r[op].start >= check->r[ahead].start)
    return;
  violation (check, ENG_CHECK_QUEUE, op, ahead,
             "started at %" G_GINT64_FORMAT " ns, before op %u (%s ahead of it in the same "
             "connection queue) started at %" G_GINT64_FORMAT " ns",
             check->r[op].start, ahead, what, check->r[ahead].start);
}

static void
check_queues (EngCheck *check)
{
  /* and as many again for small copies when copy queues are shared (COPY QUEUES) */
  gsize n_queues = (gsize) check->connections * 4 * (check->copy_connections < check->connections ? 2 : 1);
  QueueState *q = g_new (QueueState, n_queues);
  for (gsize i = 0; i < n_queues; i++)
    {
      q[i].copy = NONE;
      for (guint p = 0; p < N_PRIORITIES; p++)
        q[i].kernel[p] = NONE;
    }
  for (gsize k = 0; k < check->n; k++)
    {
      gsize i = issued (check, k);
      const SchedOp *sop = sop_of (check, i);
      int qc = queue_class (check->profile, sop);
      if (qc < 0)
        continue;
      guint conn = connection_of_op (check, i);
      if (qc != 3 && check->copy_connections < check->connections)
        conn = sop->u.copy.bytes >= check->profile->shared_copy_min_size
                 ? conn % check->copy_connections
                 : check->connections + conn;
      QueueState *qs = &q[conn * 4 + (guint) qc];
      guint32 op = (guint32) i;
      SimTime start = check->r[i].start;
      check_queue_after (check, op, qs->copy, "a copy");
      if (is_kernel (sop))
        {
          gint prio = schedule_stream (check->sched, sop->stream)->priority;
          guint p = (guint) CLAMP (-prio, 0, N_PRIORITIES - 1);
          check_queue_after (check, op, qs->kernel[p], "a kernel of the same priority");
          if (qs->kernel[p] == NONE || start > check->r[qs->kernel[p]].start)
            qs->kernel[p] = op;
        }
      else if (qs->copy == NONE || start > check->r[qs->copy].start)
        qs->copy = op;
    }
  g_free (q);
}

/* ---- The handle ---- */

EngCheck *
eng_check_results (const GpuProfile *profile, const Schedule *sched, guint connections,
                   guint copy_connections, const EngOpResult *results)
{
  g_return_val_if_fail (profile != NULL && sched != NULL, NULL);
  g_return_val_if_fail (results != NULL || schedule_n_ops (sched) == 0, NULL);
  g_return_val_if_fail (connections >= 1, NULL);
  g_return_val_if_fail (copy_connections >= 1 && copy_connections <= connections, NULL);

  EngCheck *check = g_new0 (EngCheck, 1);
  check->profile = profile;
  check->sched = sched;
  check->connections = connections;
  check->copy_connections = copy_connections;
  check->r = results;
  check->n = schedule_n_ops (sched);
  check->kept = g_array_new (FALSE, FALSE, sizeof (EngCheckViolation));
  issue_order (check);

  check_host (check);
  check_deps (check);
  check_engines (check);
  check_copies (check);
  check_kernels (check);
  check_queues (check);
  check_callback (check);

  check->profile = NULL;
  check->sched = NULL;
  check->r = NULL;
  g_clear_pointer (&check->order, g_free);
  return check;
}

void
eng_check_free (EngCheck *check)
{
  if (check == NULL)
    return;
  for (guint i = 0; i < check->kept->len; i++)
    g_free (g_array_index (check->kept, EngCheckViolation, i).message);
  g_array_free (check->kept, TRUE);
  g_free (check);
}

gsize
eng_check_n_violations (const EngCheck *check)
{
  g_return_val_if_fail (check != NULL, 0);
  return check->total;
}

gsize
eng_check_n_kept (const EngCheck *check)
{
  g_return_val_if_fail (check != NULL, 0);
  return check->kept->len;
}

const EngCheckViolation *
eng_check_violation (const EngCheck *check, gsize index)
{
  g_return_val_if_fail (check != NULL && index < check->kept->len, NULL);
  return &g_array_index (check->kept, EngCheckViolation, index);
}

gsize
eng_check_count (const EngCheck *check, EngCheckRule rule)
{
  g_return_val_if_fail (check != NULL && rule < ENG_CHECK_N_RULES, 0);
  return check->per_rule[rule];
}
