/* eng_check_engine.c: the engine, queue and connection the contract sends each op to, and the rule that it went there (engine).
 *
 *  - engine: the op ran on the engine its kind and the profile's copy engines
 *    give, on connection (stream - 1) mod C (the default stream on 0); under
 *    assign_on_submit on one of the C, the same as the op before it in its
 *    stream when that one had not ended when this one was issued.
 * The copy, kernel and queue rules group ops by the engine, queue class and
 * connection worked out here. */
#include "eng_check_rules.h"

EngEngine
eng_check_expected_engine (const GpuProfile *p, const SchedOp *sop)
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

int
eng_check_queue_class (const GpuProfile *p, const SchedOp *sop)
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

guint
eng_check_connection_of_op (const EngCheck *check, gsize op)
{
  if (check->profile->assign_on_submit && check->r[op].conn >= 0
      && (guint) check->r[op].conn < check->connections)
    return (guint) check->r[op].conn;
  return expected_connection (check, sop_of (check, op)->stream);
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
  guint32 *slot = eng_check_order_slot (check, lanes, sop, stream_last, FALSE);
  guint32 before = *slot;
  *slot = (guint32) i;
  if (sop->stream == SCHED_STREAM_DEFAULT)
    {
      if (r->conn != 0)
        eng_check_report (check, ENG_CHECK_ENGINE, (guint32) i, NONE,
                          "went to connection %d, expected 0 (the default stream's)", r->conn);
      return;
    }
  if (r->conn < 0 || (guint) r->conn >= check->connections)
    {
      eng_check_report (check, ENG_CHECK_ENGINE, (guint32) i, NONE,
                        "went to connection %d, expected one of 0 to %u", r->conn,
                        check->connections - 1);
      return;
    }
  if (before != NONE && check->r[before].end > r->issue && check->r[before].conn != r->conn)
    eng_check_report (check, ENG_CHECK_ENGINE, (guint32) i, before,
                      "went to connection %d, while op %u of its stream, still in flight when it "
                      "was issued, went to %d (a stream keeps its connection while it has work)",
                      r->conn, before, check->r[before].conn);
}

void
eng_check_engines (EngCheck *check)
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
      EngEngine want = eng_check_expected_engine (check->profile, sop);
      if (r->engine != want)
        eng_check_report (check, ENG_CHECK_ENGINE, (guint32) i, NONE, "ran on engine %s, expected %s",
                          r->engine < ENG_N_ENGINES ? eng_engine_name ((EngEngine) r->engine) : "?",
                          eng_engine_name (want));
      /* markers and host functions wait in no queue, but belong to their stream's connection */
      gboolean queued = eng_check_queue_class (check->profile, sop) >= 0 || is_marker (sop)
                        || sop->kind == SCHED_OP_HOSTFN;
      if (queued && stream_last != NULL)
        {
          check_connection_on_submit (check, i, stream_last, &lanes);
          continue;
        }
      int conn = queued ? (int) expected_connection (check, sop->stream) : -1;
      if (r->conn != conn)
        eng_check_report (check, ENG_CHECK_ENGINE, (guint32) i, NONE,
                          "went to connection %d, expected %d (streams go round-robin over %u)",
                          r->conn, conn, check->connections);
    }
  g_free (stream_last);
  eng_check_lanes_free (&lanes);
}
