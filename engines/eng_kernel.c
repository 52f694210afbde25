/* eng_kernel.c: the kernel engine at block level: SM slots, the left-over policy, the concurrency limit.
 *
 * Each SM holds as many blocks of a kernel as its thread, block, shared-memory
 * and register limits allow (bps, from eng_profile_blocks_per_sm). A block of
 * that kernel therefore takes 1/bps of an SM. We track the free capacity of
 * all SMs together in integer "slot units": an SM is L units, L being the
 * least common multiple of every bps in the schedule, so a block takes L/bps
 * units exactly and capacity never drifts.
 *
 * Why not a per-SM array of resources: blocks of one dispatch all end
 * together, so the engine works per wave, not per block; with pooled units a
 * dispatch costs O(1) instead of O(SMs), which keeps a kernel of 100,000
 * blocks to a hundred events. The pool is exact for a kernel alone
 * (isolated time = waves x block time) and for kernels of one shape; for
 * mixed shapes it lets blocks share SMs in proportion, as the hardware's
 * block scheduler does up to fragmentation, which it ignores.
 *
 * The left-over policy: admitted kernels form a dispatch list ordered by
 * stream priority, then admission order. Blocks are dispatched from the first
 * kernel of the list; a later kernel gets slots only after every block of the
 * kernels ahead of it has been dispatched, and then only slots that are free.
 * A higher-priority kernel therefore overtakes the remaining blocks of a
 * lower one, but never preempts blocks already running.
 *
 * The concurrency limit: at most max_concurrent_kernels kernels are admitted
 * at once (C1060: 1, so kernels never overlap there); queue heads beyond it
 * wait in `admit_list`, by priority and then the order they became ready.
 *
 * Fermi's deferred completion (C2050): kernels issued back to back form a
 * launch run (eng_host.c decides membership); eng_deps.c lets other kernels
 * see a member's end at once but holds the signal for everything else until
 * the whole run has finished. */
#include "eng_internal.h"

static guint64
gcd64 (guint64 a, guint64 b)
{
  while (b != 0)
    {
      guint64 t = a % b;
      a = b;
      b = t;
    }
  return a;
}

gboolean
eng_kernel_prepare (EngSim *sim, GError **error)
{
  const EngProfile *p = &sim->profile;
  guint32 *bps = g_new0 (guint32, sim->n_ops);
  guint64 lcm = 1;
  gboolean exact = TRUE;

  for (gsize i = 0; i < sim->n_ops; i++)
    {
      const SchedOp *sop = eng_sop (sim, (guint32) i);
      if (sop->kind != SCHED_OP_KERNEL)
        continue;
      const SchedKernel *k = &sop->u.kernel;
      const char *dev = eng_profile_name (p);
      if (k->block > p->max_threads_per_block)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: block=%u is more than the %u threads per block %s allows",
                       schedule_path (sim->sched), sop->line, sop->column, k->block,
                       p->max_threads_per_block, dev);
          g_free (bps);
          return FALSE;
        }
      if (k->smem > p->max_smem_per_block)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: smem=%u bytes is more than the %" G_GUINT64_FORMAT
                       " bytes per block %s allows",
                       schedule_path (sim->sched), sop->line, sop->column, k->smem,
                       p->max_smem_per_block, dev);
          g_free (bps);
          return FALSE;
        }
      bps[i] = eng_profile_blocks_per_sm (p, k->block, k->smem, k->regs);
      if (bps[i] == 0)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: one block (block=%u, smem=%u, regs=%u) does not fit on an SM of %s",
                       schedule_path (sim->sched), sop->line, sop->column, k->block, k->smem,
                       k->regs, dev);
          g_free (bps);
          return FALSE;
        }
      SimTime block_time = k->block_time;
      if (block_time < 0)
        {
          SimTime total;
          if (!schedule_kernel_time (sim->sched, sop, (const char *const *) p->names, &total,
                                     error))
            {
              g_free (bps);
              return FALSE;
            }
          /* time= is the kernel's isolated time: waves x block time. */
          guint64 per_wave = (guint64) p->sm_count * bps[i];
          guint64 waves = (k->grid + per_wave - 1) / per_wave;
          block_time = (SimTime) ((total + (SimTime) waves / 2) / (SimTime) waves);
        }
      EngOp *o = &sim->ops[i];
      o->u.k.block_time = block_time;
      o->u.k.grid = k->grid;
      o->u.k.remaining = k->grid;
      o->u.k.priority = schedule_stream (sim->sched, sop->stream)->priority;
      if (exact)
        {
          guint64 g = gcd64 (lcm, bps[i]);
          guint64 next = lcm / g * bps[i];
          if (next > (G_MAXUINT64 >> 12) / p->sm_count)
            exact = FALSE; /* too many distinct shapes: fall back, see below */
          else
            lcm = next;
        }
    }

  /* With absurdly many distinct shapes the exact common multiple would
   * overflow; then a fixed large unit is used and each block rounds its share
   * up, which can only under-fill SMs, never over-fill them. */
  guint64 sm_units = exact ? lcm : ((guint64) 1 << 40);
  sim->slots_total = sm_units * p->sm_count;
  sim->slots_free = sim->slots_total;
  for (gsize i = 0; i < sim->n_ops; i++)
    if (bps[i] != 0)
      sim->ops[i].u.k.unit = (sm_units + bps[i] - 1) / bps[i];
  g_free (bps);
  return TRUE;
}

static void group_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

/* Inserts `op` into a list linked through `link`, after every op that comes
 * before it by (priority, key). */
static void
insert_ordered (EngSim *sim, guint32 *list, guint32 op, glong link, gboolean by_accept)
{
  EngOp *o = &sim->ops[op];
  guint32 *at = list;
  while (*at != ENG_NONE)
    {
      EngOp *c = &sim->ops[*at];
      gboolean before = c->u.k.priority < o->u.k.priority
                        || (c->u.k.priority == o->u.k.priority
                            && (by_accept ? c->u.k.accept_seq < o->u.k.accept_seq : *at < op));
      if (!before)
        break;
      at = &ENG_OP_LINK (sim, *at, link);
    }
  ENG_OP_LINK (sim, op, link) = *at;
  *at = op;
}

static void
try_dispatch (EngSim *sim, SimTime now)
{
  while (sim->dispatch_list != ENG_NONE)
    {
      guint32 op = sim->dispatch_list;
      EngOp *o = &sim->ops[op];
      guint64 fit = sim->slots_free / o->u.k.unit;
      guint32 n = (guint32) MIN ((guint64) o->u.k.remaining, fit);
      if (n > 0)
        {
          if (!(o->flags & ENG_OP_STARTED))
            {
              if (now > o->submitted)
                {
                  o->engine_cause = ENG_CAUSE_SLOTS;
                  o->engine_ref = sim->last_kernel;
                  o->engine_time = now;
                }
              eng_sim_started (sim, op, now);
            }
          o->u.k.remaining -= n;
          o->u.k.in_flight += n;
          sim->slots_free -= (guint64) n * o->u.k.unit;
          sim_queue_schedule (sim->events, now + o->u.k.block_time, group_end_event, sim,
                              ((guint64) n << 32) | op);
        }
      if (o->u.k.remaining > 0)
        return; /* left-over policy: nobody behind it gets slots yet */
      sim->dispatch_list = o->next;
      o->next = ENG_NONE;
    }
}

static void
admit (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  sim->running_kernels++;
  o->u.k.accept_seq = sim->accept_seq++;
  eng_connection_pop (sim, op, now);
  insert_ordered (sim, &sim->dispatch_list, op, ENG_LINK_QUEUE, TRUE);
  if (o->u.k.grid == 0)
    return;
  try_dispatch (sim, now);
}

void
eng_kernel_submit (EngSim *sim, guint32 op, SimTime now)
{
  if (sim->running_kernels < sim->profile.max_concurrent_kernels)
    admit (sim, op, now);
  else
    insert_ordered (sim, &sim->admit_list, op, ENG_LINK_READY, FALSE);
}

static void
group_end_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 op = (guint32) (tag & 0xffffffffu);
  guint32 n = (guint32) (tag >> 32);
  EngOp *o = &sim->ops[op];
  sim->n_events++;
  o->u.k.in_flight -= n;
  sim->slots_free += (guint64) n * o->u.k.unit;
  sim->last_kernel = op;
  if (o->u.k.remaining > 0 || o->u.k.in_flight > 0)
    {
      try_dispatch (sim, now);
      return;
    }
  /* The kernel is done. Kernels waiting for admission were there first, so
   * they get the freed place before anything this completion makes ready. */
  sim->running_kernels--;
  while (sim->admit_list != ENG_NONE
         && sim->running_kernels < sim->profile.max_concurrent_kernels)
    {
      guint32 next = sim->admit_list;
      sim->admit_list = sim->ops[next].next_ready;
      sim->ops[next].next_ready = ENG_NONE;
      admit (sim, next, now);
    }
  try_dispatch (sim, now);
  eng_op_finish (sim, op, now);
  eng_connection_kernel_done (sim, op, now);
}
