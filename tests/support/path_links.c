/* path_links.c: checks of the links a critical path follows, from the results and the schedule alone.
 *
 * The walk of prediction_critical_path trusts two claims of eng_sim.h: the
 * links never go round in a circle, and a host link (eng_sim_issued_after)
 * names the call whose return set the op's issue time. Both are checked
 * here on the times, not on the code that makes the links: a link to the
 * kernel ahead in a queue that started later than the op behind it made a
 * circle once (tests/fuzz/regressions/predict-path-loop-k20). */
#include "path_links.h"

/* When the host returned from a call that held it: at the end of host
 * work and of a synchronize, the cudaMemcpy overhead (and a sleeping
 * thread's wake) after a blocking copy's end. */
static SimTime
returned_at (const EngOpResult *r, const SchedOp *sop, const Schedule *sched,
             const GpuProfile *profile)
{
  if (sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY)
    return gpu_profile_copy_return (profile, schedule_wait_blocks (sched, sop), r->issue, r->end);
  return r->end;
}

/* The host link of eng_sim.h, per host thread: an op is issued when the call
 * before it in its thread that held the host returned (for a thread's first
 * ops, its SPAWN's start plus thread_start), plus the costs of that thread's
 * calls in between, a thread's first device call costing thread_first_call
 * more. */
static char *
check_host_links (const EngSim *sim, const Schedule *sched, const GpuProfile *profile)
{
  const EngOpResult *results = eng_sim_results (sim);
  gsize n = schedule_n_ops (sched);
  guint n_threads = schedule_n_threads (sched);
  /* A malloc's call costs what growing the pool took too; with several
   * threads the pool's order is not one thread's, so there a call costs at
   * least its own and the host link bounds the issue from below. */
  gboolean one_thread = n_threads == 1;
  g_autofree SimTime *growth = g_new0 (SimTime, MAX (n, 1));
  if (one_thread)
    gpu_pool_growth (profile, sched, NULL, growth);
  /* each op's cost as its thread's call, and the run's first SPAWN (file
   * order is the SPAWNs' order: the main thread's) */
  g_autofree SimTime *cost = g_new0 (SimTime, MAX (n, 1));
  g_autofree gboolean *called = g_new0 (gboolean, MAX (n_threads, 1));
  gsize first_spawn = G_MAXSIZE;
  for (gsize k = 0; k < n; k++)
    {
      const SchedOp *sop = schedule_op (sched, k);
      guint th = schedule_op_thread (sched, k);
      gboolean device = gpu_profile_call_puts_work (sop);
      cost[k] = gpu_profile_thread_call_cost (profile, sop, device && th != 0 && !called[th])
                + growth[k];
      called[th] = called[th] || device;
      if (sop->kind == SCHED_OP_SPAWN && first_spawn == G_MAXSIZE)
        first_spawn = k;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (results[i].cause != ENG_CAUSE_NONE)
        continue;
      guint th = schedule_op_thread (sched, i);
      guint32 held = eng_sim_issued_after (sim, i);
      SimTime t = 0;
      gboolean grew = FALSE;
      if (held != ENG_NO_REF)
        {
          const SchedOp *hop = schedule_op (sched, held);
          t = hop->kind == SCHED_OP_SPAWN && hop->u.thread == th
                ? results[held].start + gpu_profile_thread_start (profile, held == first_spawn)
                : returned_at (&results[held], hop, sched, profile);
        }
      for (gsize k = held == ENG_NO_REF ? 0 : held + 1; k < i; k++)
        if (schedule_op_thread (sched, k) == th)
          {
            t += cost[k];
            grew = grew || schedule_op (sched, k)->kind == SCHED_OP_MALLOC;
          }
      if (one_thread || !grew ? t != results[i].issue : t > results[i].issue)
        return g_strdup_printf ("op %" G_GSIZE_FORMAT " was issued at %" G_GINT64_FORMAT
                                " ns, not at %" G_GINT64_FORMAT " ns as its host link (op %d) says",
                                i, results[i].issue, t, held == ENG_NO_REF ? -1 : (int) held);
    }
  return NULL;
}

/* Whether a link from `op` to `next` goes back in time no further than the
 * path may: `next` started no later than `op` started, or than it returned
 * for a synchronize (called before what it waits for starts); a join links
 * to its thread's last call, which was made no later than the join returned
 * (its GPU work may start later: a join waits for the thread, not its work). */
static gboolean
link_ok (const EngOpResult *results, guint32 op, const SchedOp *sop, guint32 next)
{
  switch (sop->kind)
    {
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
      return results[next].start <= results[op].end;
    case SCHED_OP_JOIN:
      return results[next].issue <= results[op].end;
    default:
      return results[next].start <= results[op].start;
    }
}

char *
path_links_check (const EngSim *sim, const Schedule *sched, const GpuProfile *profile)
{
  char *broken = check_host_links (sim, sched, profile);
  if (broken != NULL)
    return broken;
  /* Each walk marks its ops 1, then 2 once it is known to end, so all
   * walks together are O(n) links. */
  const EngOpResult *results = eng_sim_results (sim);
  gsize n = schedule_n_ops (sched);
  guint8 *state = g_new0 (guint8, MAX (n, 1));
  for (gsize i = 0; i < n && broken == NULL; i++)
    {
      guint32 op = (guint32) i;
      while (op != ENG_NO_REF && state[op] == 0)
        {
          state[op] = 1;
          guint32 next = eng_sim_path_link (sim, op);
          if (next != ENG_NO_REF && (next >= n || !link_ok (results, op, schedule_op (sched, op), next)))
            {
              broken = g_strdup_printf ("the path link from op %u goes to op %u, which started "
                                        "later", op, next);
              break;
            }
          op = next;
        }
      if (broken == NULL && op != ENG_NO_REF && state[op] == 1)
        broken = g_strdup_printf ("the path links from op %u lead round to it", op);
      for (op = (guint32) i; op != ENG_NO_REF && state[op] == 1; op = eng_sim_path_link (sim, op))
        state[op] = 2;
    }
  g_free (state);
  return broken;
}
