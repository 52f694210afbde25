/* eng_check_rules.h: the checker's state and the helpers its files share (eng_check.c and the eng_check_*.c of each group of rules); not for use outside them.
 *
 * eng_check.c says which file checks which rule of eng_check.h, and runs
 * them. */
#ifndef ENG_CHECK_RULES_H
#define ENG_CHECK_RULES_H

#include "eng_check.h"

/* No op: an `other` that names none, a slot that holds none yet. */
#define NONE G_MAXUINT32

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

/* Records that `op` broke `rule` (against `other`, or NONE): every
 * violation is counted, the first ENG_CHECK_MAX_KEPT are kept with the
 * message. */
void eng_check_report (EngCheck *check, EngCheckRule rule, guint32 op, guint32 other,
                       const char *format, ...) G_GNUC_PRINTF (5, 6);

/* ---- The ops and the order they were issued in ---- */

static inline const SchedOp *
sop_of (const EngCheck *check, gsize i)
{
  return schedule_op (check->sched, i);
}

/* The k-th op issued. */
static inline gsize
issued (const EngCheck *check, gsize k)
{
  return check->order != NULL ? check->order[k] : k;
}

/* Two host threads that called at one instant: which went first is not in
 * the results, so neither is which of the two ops follows the other. */
static inline gboolean
unordered (const EngCheck *check, guint32 op, guint32 other)
{
  return check->r[op].issue == check->r[other].issue
         && schedule_op_thread (check->sched, op) != schedule_op_thread (check->sched, other);
}

/* a + b, or G_MAXINT64 where that overflows. */
static inline SimTime
add_sat (SimTime a, SimTime b)
{
  SimTime r;
  return __builtin_add_overflow (a, b, &r) ? G_MAXINT64 : r;
}

/* ---- What the contract says about each kind of op ---- */

/* Ops that belong to a stream's order: copies, memcpy, kernels, markers. */
static inline gboolean
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
static inline gboolean
is_kernel (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_KERNEL || sop->kind == SCHED_OP_MEMSET;
}

/* Ops that pass through their stream at an instant: records, waits, and
 * stream-ordered allocation. */
static inline gboolean
is_marker (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_RECORD || sop->kind == SCHED_OP_WAIT
         || sop->kind == SCHED_OP_MALLOC || sop->kind == SCHED_OP_FREE;
}

static inline gboolean
is_copy (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY;
}

/* ---- Where the contract sends an op (eng_check_engine.c) ---- */

/* The engine an op runs on, by its kind and the profile's copy engines. */
EngEngine eng_check_expected_engine (const GpuProfile *p, const SchedOp *sop);
/* The per-connection queue class: 0 h2d, 1 d2h, 2 the one copy queue,
 * 3 compute (kernels and d2d copies); -1 for no queue. */
int eng_check_queue_class (const GpuProfile *p, const SchedOp *sop);
/* The connection whose queues an op went through, once eng_check_engines has
 * checked it: under assign_on_submit the one the results name (which depends
 * on the queues' state, not on the stream alone), else the stream's. */
guint eng_check_connection_of_op (const EngCheck *check, gsize op);

/* ---- A stream's order (eng_check_deps.c) ---- */

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
guint32 *eng_check_order_slot (const EngCheck *check, Lanes *lanes, const SchedOp *sop,
                               guint32 *stream_slots, gboolean floor);
void eng_check_lanes_free (Lanes *lanes);

/* ---- Spans of time on one resource (eng_check_span.c) ---- */

typedef struct
{
  guint32 op;
  SimTime start, end;
} Span;

/* Orders spans by start, then end, then op (for g_array_sort, qsort). */
int eng_check_span_by_start (const void *a, const void *b);
/* Reports each span that begins before an earlier one on the same resource
 * has ended. `spans` is sorted by start. */
void eng_check_serial (EngCheck *check, EngCheckRule rule, const Span *spans, gsize n,
                       const char *what);

/* ---- The groups of rules, in the order eng_check_results runs them ---- */

/* times, host, and a synchronize's own cost (eng_check_host.c) */
void eng_check_host (EngCheck *check);
/* stream, event, legacy, sync (eng_check_deps.c) */
void eng_check_deps (EngCheck *check);
/* engine (eng_check_engine.c) */
void eng_check_engines (EngCheck *check);
/* copy-engine, copy-time (eng_check_copy.c) */
void eng_check_copies (EngCheck *check);
/* kernel-time, kernel-limit, sm-capacity (eng_check_kernel.c) */
void eng_check_kernels (EngCheck *check);
/* queue (eng_check_queue.c) */
void eng_check_queues (EngCheck *check);
/* callback (eng_check_callback.c) */
void eng_check_callback (EngCheck *check);

#endif /* ENG_CHECK_RULES_H */
