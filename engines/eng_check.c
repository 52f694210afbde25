/* eng_check.c: checks a run's results against the contract of MODEL.md, from the schedule, the profile and the results alone.
 *
 * The checker's handle and the order of its checks; each group of rules of
 * eng_check.h is checked in a file of its own, whose top comment says what
 * it checks and what it cannot:
 *  - times, host: eng_check_host.c (with a synchronize's own cost);
 *  - stream, event, legacy, sync: eng_check_deps.c;
 *  - engine: eng_check_engine.c;
 *  - copy-engine, copy-time: eng_check_copy.c;
 *  - kernel-time, kernel-limit, sm-capacity: eng_check_kernel.c;
 *  - queue: eng_check_queue.c;
 *  - callback: eng_check_callback.c.
 * eng_check_rules.h holds the state and the helpers they share.
 *
 * What cannot be checked from start and end times alone, and is not, beyond
 * what those files say: whether an op started as early as it could (the
 * checker tests safety, not that the model wasted no time), and so the exact
 * latencies (dependency, kernel gap), Fermi's deferred completion and the
 * moment a kernel left its queue (admission comes before the first block,
 * unseen). */
#include <stdarg.h>
#include "eng_check_rules.h"

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

void
eng_check_report (EngCheck *check, EngCheckRule rule, guint32 op, guint32 other,
                  const char *format, ...)
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

  eng_check_host (check);
  eng_check_deps (check);
  eng_check_engines (check);
  eng_check_copies (check);
  eng_check_kernels (check);
  eng_check_queues (check);
  eng_check_callback (check);

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
