/* eng_check_host.c: the host threads' rules: when each call was issued and how long host work and the host's own costs took (times, host, and a synchronize's own cost).
 *
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
 * And of a synchronize: it starts when it is called (host) and returns no
 * earlier than its call's cost (sync; eng_check_deps.c checks what it
 * waited for); a poll returns at the end of one of its queries, which
 * begin query + every apart from its call (sync). */
#include "eng_check_rules.h"

static gboolean
is_device_op (const SchedOp *sop)
{
  return sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY || is_kernel (sop);
}

void
eng_check_host (EngCheck *check)
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
        eng_check_report (check, ENG_CHECK_TIMES, op, NONE,
                          "issue %" G_GINT64_FORMAT ", start %" G_GINT64_FORMAT ", end %" G_GINT64_FORMAT
                          " ns are not in order 0 <= issue <= start <= end",
                          r->issue, r->start, r->end);
      if (is_device_op (sop))
        {
          SimTime arrive = add_sat (r->issue, cost + gpu_profile_submit_latency (p, sop->kind));
          if (r->start < arrive)
            eng_check_report (check, ENG_CHECK_TIMES, op, NONE,
                              "started at %" G_GINT64_FORMAT
                              " ns, before its call reached the device at %" G_GINT64_FORMAT
                              " ns (issue + host cost + submit latency)", r->start, arrive);
        }
      else if (is_marker (sop) || sop->kind == SCHED_OP_HOSTFN)
        {
          SimTime arrive = add_sat (r->issue, cost);
          if (r->start < arrive)
            eng_check_report (check, ENG_CHECK_TIMES, op, NONE,
                              "resolved at %" G_GINT64_FORMAT " ns, before its call ended at %"
                              G_GINT64_FORMAT " ns", r->start, arrive);
          if (is_marker (sop) && r->end != r->start)
            eng_check_report (check, ENG_CHECK_TIMES, op, NONE,
                              "a record, wait, malloc or free is an instant, but it lasted from %"
                              G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns", r->start, r->end);
        }
      else if (sop->kind == SCHED_OP_SPAWN || sop->kind == SCHED_OP_JOIN)
        {
          gboolean spawn = sop->kind == SCHED_OP_SPAWN;
          if (r->start != r->issue
              || (spawn && r->end != add_sat (r->start, gpu_profile_thread_create (p, !spawned))))
            eng_check_report (check, ENG_CHECK_HOST, op, NONE,
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
            eng_check_report (check, ENG_CHECK_HOST, op, NONE,
                              "host work of %" G_GINT64_FORMAT " ns issued at %" G_GINT64_FORMAT
                              " ns ran from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns",
                              sop->u.duration, r->issue, r->start, r->end);
        }
      else
        {
          if (r->start != r->issue)
            eng_check_report (check, ENG_CHECK_HOST, op, NONE,
                              "a synchronize starts when it is called (%" G_GINT64_FORMAT
                              " ns), not at %" G_GINT64_FORMAT " ns", r->issue, r->start);
          /* one that found nothing to wait for may cost host_sync_idle */
          SimTime cost = sop->poll ? gpu_profile_query_cost (p)
                                   : MIN (p->host_sync, gpu_profile_idle_sync_cost (p));
          if (r->end < add_sat (r->issue, cost))
            eng_check_report (check, ENG_CHECK_SYNC, op, NONE,
                              "returned at %" G_GINT64_FORMAT " ns, before the call's cost (%"
                              G_GINT64_FORMAT " ns) was paid", r->end, cost);
          else if (sop->poll && cost + sop->u.duration > 0
                   && (r->end - r->issue - cost) % (cost + sop->u.duration) != 0)
            eng_check_report (check, ENG_CHECK_SYNC, op, NONE,
                              "a poll's queries take %" G_GINT64_FORMAT " ns each, %" G_GINT64_FORMAT
                              " ns apart, but its loop ran from %" G_GINT64_FORMAT " to %"
                              G_GINT64_FORMAT " ns, not a whole number of them", cost,
                              cost + sop->u.duration, r->issue, r->end);
        }

      if (i == 0 && r->issue != 0)
        eng_check_report (check, ENG_CHECK_HOST, op, NONE,
                          "the first call is issued at 0 ns, not at %" G_GINT64_FORMAT, r->issue);
      else if (i > 0 && r->issue < ready[th])
        eng_check_report (check, ENG_CHECK_HOST, op, ready_op[th],
                          "issued at %" G_GINT64_FORMAT " ns, before the host was free at %"
                          G_GINT64_FORMAT " ns (after op %u)", r->issue, ready[th], ready_op[th]);

      if (gpu_profile_copy_blocks (sop))
        ready[th] = gpu_profile_copy_return (p, schedule_wait_blocks (check->sched, sop), r->issue,
                                             r->end);
      else if (sop->kind == SCHED_OP_HOST || !is_stream_op (sop))
        ready[th] = r->end;
      else
        ready[th] = add_sat (r->issue, cost);
      ready_op[th] = op;
    }
}
