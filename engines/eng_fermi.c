/* eng_fermi.c: Fermi's deferred completion (profile key deferred_completion): kernels launched back to back signal the rest of the device together.
 *
 * On the C2050 the completion of a kernel issued right after another kernel
 * is not seen by the copy engines or the host until every kernel of that
 * "launch run" has finished (shared/seeds 001: the seed's async V2 order is
 * slower on the C2050 than V1 for this reason). The rule:
 *  - a launch run is decided by issue order: a kernel joins the open run if
 *    the previous device call was a kernel and the run still has a kernel
 *    that has not finished; any other device call closes the run;
 *  - when a member finishes, other kernels see it at once (the kernel
 *    engine knows its own kernels), everything else waits: copies, markers,
 *    the host;
 *  - when the last member finishes, the run is released: every member's
 *    completion becomes visible at that moment, newest member first.
 * A dependent that waited for the release gives ENG_CAUSE_DEFERRED as its
 * cause, and the critical path follows the member whose end released the
 * run (eng_fermi_released_by). */
#include "eng_fermi.h"
#include "eng_deps.h"
#include "eng_op.h"

/* A launch run: its kernels in issue order, from `last` back through each
 * member's prev_member. (Not an index range: host threads issue ops out of
 * their index order.) */
typedef struct
{
  guint32 last;
  guint32 unfinished;
  guint32 released_by;  /* the member whose end released the run */
  gboolean released;
  SimTime release_time; /* when its members' completion became visible */
} Run;

struct EngFermi
{
  GArray *runs;         /* Run */
  guint32 *prev_member; /* per op: the member of its run issued before it, or ENG_NONE */
  guint32 open_run;     /* the run a kernel issued next may join */
  gboolean last_device_op_was_kernel;
};

void
eng_fermi_init (EngSim *sim)
{
  EngFermi *f = g_new0 (EngFermi, 1);
  f->runs = g_array_new (FALSE, FALSE, sizeof (Run));
  if (sim->profile.deferred_completion)
    f->prev_member = g_new (guint32, MAX (sim->n_ops, 1));
  f->open_run = ENG_NONE;
  sim->fermi = f;
}

void
eng_fermi_free (EngSim *sim)
{
  if (sim->fermi == NULL)
    return;
  g_array_free (sim->fermi->runs, TRUE);
  g_free (sim->fermi->prev_member);
  g_free (sim->fermi);
  sim->fermi = NULL;
}

static Run *
run_of (const EngSim *sim, guint32 run)
{
  return &g_array_index (sim->fermi->runs, Run, run);
}

void
eng_fermi_issue (EngSim *sim, guint32 op)
{
  if (!sim->profile.deferred_completion)
    return;
  EngFermi *f = sim->fermi;
  if (eng_sop (sim, op)->kind != SCHED_OP_KERNEL)
    {
      f->last_device_op_was_kernel = FALSE;
      f->open_run = ENG_NONE;
      return;
    }
  Run *run = NULL;
  if (f->last_device_op_was_kernel && f->open_run != ENG_NONE)
    {
      run = run_of (sim, f->open_run);
      if (run->released || run->unfinished == 0)
        run = NULL;
    }
  if (run == NULL)
    {
      Run fresh = { ENG_NONE, 0, ENG_NONE, FALSE, 0 };
      g_array_append_val (f->runs, fresh);
      f->open_run = f->runs->len - 1;
      run = run_of (sim, f->open_run);
    }
  sim->ops[op].run = f->open_run;
  f->prev_member[op] = run->last;
  run->last = op;
  run->unfinished++;
  f->last_device_op_was_kernel = TRUE;
}

/* Releases run `run` from member `m` back: signals m, and goes on with the
 * member issued before it in a step after m's dependents have heard. */
static void release_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

static void
release_from (EngSim *sim, guint32 run_index, guint32 m, SimTime now)
{
  eng_op_signal (sim, m, now);
  guint32 before = sim->fermi->prev_member[m];
  if (before != ENG_NONE)
    eng_post (sim, release_step, run_index, before);
}

static void
release_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  release_from (arg, ENG_STEP_A (tag), ENG_STEP_B (tag), now);
}

/* After a member's end has reached the kernels. */
static void
member_done (EngSim *sim, guint32 op, SimTime now)
{
  guint32 index = sim->ops[op].run;
  Run *run = run_of (sim, index);
  g_assert (run->unfinished > 0);
  run->unfinished--;
  if (run->unfinished > 0)
    return;
  run->released_by = op;
  run->released = TRUE;
  run->release_time = now;
  release_from (sim, index, run->last, now);
}

static void
member_done_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  member_done (arg, ENG_STEP_A (tag), now);
}

gboolean
eng_fermi_finished (EngSim *sim, guint32 op, SimTime now)
{
  if (sim->ops[op].run == ENG_NONE)
    return FALSE;
  if (eng_deps_signal (sim, op, TRUE))
    eng_post (sim, member_done_step, op, 0);
  else
    member_done (sim, op, now);
  return TRUE;
}

gboolean
eng_fermi_seen_early (const EngSim *sim, guint32 src, EngEngine to)
{
  return sim->ops[src].run != ENG_NONE && to == ENG_ENGINE_COMPUTE;
}

SimTime
eng_fermi_signal_time (const EngSim *sim, guint32 op)
{
  guint32 run = sim->ops[op].run;
  if (run != ENG_NONE)
    return run_of (sim, run)->release_time;
  return sim->results[op].end;
}

guint32
eng_fermi_released_by (const EngSim *sim, guint32 op)
{
  guint32 run = sim->ops[op].run;
  if (run != ENG_NONE)
    return run_of (sim, run)->released_by;
  return op;
}
