/* eng_check_queue.c: each connection queue handed its ops to the engines in issue order (queue).
 *
 *  - queue: within one connection queue, an op starts no earlier than any copy
 *    ahead of it (a copy leaves the queue when it starts), and a kernel no
 *    earlier than any kernel of the same priority ahead of it (the left-over
 *    policy dispatches equal priorities in admission order). With fewer copy
 *    queues than connections (copy_connections), connection c's copies of at
 *    least shared_copy_min_size are in connection (c mod copy_connections)'s
 *    queues, and smaller ones in queues of their own (eng_connection.c).
 * Not checked: priorities: a higher-priority kernel may overtake an earlier
 * one, so kernels of different priorities in one queue are not ordered. */
#include "eng_check_rules.h"

/* Priorities run from -5 (most urgent) to 0. */
#define N_PRIORITIES 6

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
  eng_check_report (check, ENG_CHECK_QUEUE, op, ahead,
                    "started at %" G_GINT64_FORMAT " ns, before op %u (%s ahead of it in the same "
                    "connection queue) started at %" G_GINT64_FORMAT " ns",
                    check->r[op].start, ahead, what, check->r[ahead].start);
}

void
eng_check_queues (EngCheck *check)
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
      int qc = eng_check_queue_class (check->profile, sop);
      if (qc < 0)
        continue;
      guint conn = eng_check_connection_of_op (check, i);
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
