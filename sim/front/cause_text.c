/* cause_text.c: what an op waited for, as the sentence of the CSV's cause column and of --explain. */
#include "cause_text.h"
#include "sim/core/str_append.h"

static const char *
stream_name (const EngSim *sim, gsize op)
{
  return schedule_stream (eng_sim_schedule (sim), schedule_op (eng_sim_schedule (sim), op)->stream)->name;
}

/* " (stream NAME)" */
static void
append_stream_of (const EngSim *sim, gsize op, GString *out)
{
  g_string_append (out, " (stream ");
  g_string_append (out, stream_name (sim, op));
  g_string_append_c (out, ')');
}

void
cause_text_append (const EngSim *sim, gsize op, GString *out)
{
  g_return_if_fail (sim != NULL && out != NULL);
  const Schedule *sched = eng_sim_schedule (sim);
  const EngOpResult *r = &eng_sim_results (sim)[op];
  guint32 ref = r->cause_ref;
  const SchedOp *sop = schedule_op (sched, op);
  switch ((EngCause) r->cause)
    {
    case ENG_CAUSE_NONE:
      return;
    case ENG_CAUSE_STREAM:
      g_string_append (out, "stream ");
      g_string_append (out, stream_name (sim, ref));
      g_string_append (out, " after op ");
      str_append_uint (out, ref);
      return;
    case ENG_CAUSE_EVENT:
      g_string_append (out, "event ");
      g_string_append (out, schedule_event_name (sched, schedule_op (sched, ref)->event));
      g_string_append (out, " recorded by op ");
      str_append_uint (out, ref);
      append_stream_of (sim, ref, out);
      return;
    case ENG_CAUSE_LEGACY:
      if (sop->stream == SCHED_STREAM_DEFAULT)
        {
          g_string_append (out, "legacy default stream waits for op ");
          str_append_uint (out, ref);
          append_stream_of (sim, ref, out);
          return;
        }
      g_string_append (out, "legacy default stream op ");
      str_append_uint (out, ref);
      g_string_append (out, " must finish first");
      return;
    case ENG_CAUSE_QUEUE:
      g_string_append (out, "queue conn");
      if (r->conn < 0)
        {
          g_string_append_c (out, '-');
          str_append_uint (out, (guint64) ABS (r->conn));
        }
      else /* the connection whose queue it is (eng_connection.c, COPY QUEUES) */
        str_append_uint (out, eng_sim_queue_connection (sim, op));
      g_string_append_c (out, '/');
      g_string_append (out, eng_queue_name (r->queue));
      g_string_append (out, " behind op ");
      str_append_uint (out, ref);
      append_stream_of (sim, ref, out);
      g_string_append (out, ": false dependency");
      return;
    case ENG_CAUSE_ENGINE:
      g_string_append (out, "engine ");
      g_string_append (out, eng_engine_name (r->engine));
      g_string_append (out, " busy with op ");
      str_append_uint (out, ref);
      return;
    case ENG_CAUSE_SLOTS:
      if (ref == ENG_NO_REF)
        {
          g_string_append (out, "slots: kernel concurrency limit");
          return;
        }
      g_string_append (out, "slots held by op ");
      str_append_uint (out, ref);
      g_string_append (out, " (SMs full or concurrency limit)");
      return;
    case ENG_CAUSE_DEFERRED:
      g_string_append (out, "deferred completion of op ");
      str_append_uint (out, ref);
      g_string_append (out, " held until op ");
      str_append_uint (out, eng_sim_waited_for (sim, op));
      g_string_append (out, " ended (kernels launched back to back)");
      return;
    case ENG_CAUSE_LOAD:
      if (sop->kind == SCHED_OP_KERNEL && sop->u.kernel.loads)
        {
          g_string_append (out, "loading its code: the GPU went idle when op ");
          str_append_uint (out, ref);
          append_stream_of (sim, ref, out);
          g_string_append (out, " ended");
          return;
        }
      g_string_append (out, "op ");
      str_append_uint (out, ref);
      append_stream_of (sim, ref, out);
      g_string_append (out, " loading its kernel's code held the GPU");
      return;
    case ENG_CAUSE_SYNC:
      if (ref == ENG_NO_REF)
        {
          g_string_append (out, "sync");
          return;
        }
      if (sop->kind == SCHED_OP_JOIN)
        {
          /* a join waits for its thread's last call, not for that call's work */
          g_string_append (out, "join until the thread's last call, op ");
          str_append_uint (out, eng_sim_waited_for (sim, op));
          g_string_append (out, ", returned");
          return;
        }
      g_string_append (out, sop->poll ? "poll until op " : "sync until op ");
      str_append_uint (out, eng_sim_waited_for (sim, op));
      g_string_append (out, " finished");
      /* its return then holds the wake (engines/MODEL.md, "How the host waits") */
      if (schedule_wait_blocks (eng_sim_schedule (sim), sop))
        g_string_append (out, ", the thread asleep (blocking_sync)");
      return;
    default:
      break;
    }
  g_assert_not_reached ();
}
