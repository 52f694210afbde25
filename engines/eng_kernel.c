/* eng_kernel.c: the kernel engine at block level: SM resources, the left-over policy, the concurrency limit.
 *
 * Each SM has threads, block slots, shared memory and registers. A block
 * takes what its kernel's shape needs (eng_profile_block_footprint) from one
 * SM, for its block time. The block scheduler places blocks breadth-first,
 * round robin over the SMs: each block goes to the next SM, from where the
 * last one went, that has room for it. So a grid of 66 blocks on 132 SMs lands
 * one block on each of 66 SMs, and kernels limited by different resources
 * (one by shared memory, one by threads) share an SM as the hardware lets
 * them: measured on an H200, a 100 KiB-shared-memory kernel, a 512-thread
 * kernel and a second 100 KiB kernel all ran side by side on every SM.
 *
 * Rejected: pooling each SM's capacity as one fraction (a block of a kernel
 * that fits bps per SM takes 1/bps of an SM). It is exact for one kernel, but
 * charges a shared-memory-bound kernel for threads it does not use; it
 * predicted 607 us where the H200 took 425 (traces/validation/smem-sharing).
 *
 * Cost: blocks dispatched together end together, so one event covers a whole
 * dispatch (a wave), never one per block; placing a block is O(1) while SMs
 * have room. A dispatch remembers how many blocks it put on each SM, to give
 * them back when it ends.
 *
 * The left-over policy: admitted kernels form a dispatch list ordered by
 * stream priority, then admission order. Blocks are dispatched from the first
 * kernel of the list; a later kernel gets SMs only after every block of the
 * kernels ahead of it has been dispatched, and then only what is free. A
 * higher-priority kernel therefore overtakes the remaining blocks of a lower
 * one, but never preempts blocks already running.
 *
 * The concurrency limit: at most max_concurrent_kernels kernels are admitted
 * at once (C1060: 1, so kernels never overlap there); queue heads beyond it
 * wait in `admit_list`, by priority and then the order they became ready.
 *
 * Fermi's deferred completion (C2050): kernels issued back to back form a
 * launch run (eng_host.c decides membership); eng_deps.c lets other kernels
 * see a member's end at once but holds the signal for everything else until
 * the whole run has finished. */
#include <string.h>
#include "eng_internal.h"

gboolean
eng_kernel_prepare (EngSim *sim, GError **error)
{
  const EngProfile *p = &sim->profile;
  const char *dev = eng_profile_name (p);

  for (gsize i = 0; i < sim->n_ops; i++)
    {
      const SchedOp *sop = eng_sop (sim, (guint32) i);
      if (sop->kind != SCHED_OP_KERNEL)
        continue;
      const SchedKernel *k = &sop->u.kernel;
      if (k->block > p->max_threads_per_block)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: block=%u is more than the %u threads per block %s allows",
                       schedule_path (sim->sched), sop->line, sop->column, k->block,
                       p->max_threads_per_block, dev);
          return FALSE;
        }
      if (k->smem > p->max_smem_per_block)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: smem=%u bytes is more than the %" G_GUINT64_FORMAT
                       " bytes per block %s allows",
                       schedule_path (sim->sched), sop->line, sop->column, k->smem,
                       p->max_smem_per_block, dev);
          return FALSE;
        }
      guint bps = eng_profile_blocks_per_sm (p, k->block, k->smem, k->regs);
      if (bps == 0)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: one block (block=%u, smem=%u, regs=%u) does not fit on an SM of %s",
                       schedule_path (sim->sched), sop->line, sop->column, k->block, k->smem,
                       k->regs, dev);
          return FALSE;
        }
      SimTime block_time = k->block_time;
      if (block_time < 0)
        {
          SimTime total;
          if (!schedule_kernel_time (sim->sched, sop, (const char *const *) p->names, &total,
                                     error))
            return FALSE;
          /* time= is the kernel's isolated time: waves x block time. */
          guint64 per_wave = (guint64) p->sm_count * bps;
          guint64 waves = (k->grid + per_wave - 1) / per_wave;
          block_time = (SimTime) ((total + (SimTime) waves / 2) / (SimTime) waves);
        }
      EngOp *o = &sim->ops[i];
      o->u.k.block_time = block_time;
      o->u.k.grid = k->grid;
      o->u.k.remaining = k->grid;
      o->u.k.priority = schedule_stream (sim->sched, sop->stream)->priority;
      eng_profile_block_footprint (p, k->block, k->smem, k->regs, &o->u.k.need);
    }

  sim->sms = g_new0 (EngSm, p->sm_count);
  sim->sm_placed = g_new0 (guint32, p->sm_count);
  return TRUE;
}

static gboolean
sm_fits (const EngProfile *p, const EngSm *sm, const EngBlockFootprint *need)
{
  return sm->blocks < p->max_blocks_per_sm
         && sm->threads + need->threads <= p->max_threads_per_sm
         && (guint64) sm->smem + need->smem <= p->smem_per_sm
         && (guint64) sm->regs + need->regs <= p->regs_per_sm;
}

static void
sm_take (EngSm *sm, const EngBlockFootprint *need, guint32 n)
{
  sm->blocks += n;
  sm->threads += n * need->threads;
  sm->smem += n * need->smem;
  sm->regs += n * need->regs;
}

static void
sm_give_back (EngSm *sm, const EngBlockFootprint *need, guint32 n)
{
  g_assert (sm->blocks >= n);
  sm->blocks -= n;
  sm->threads -= n * need->threads;
  sm->smem -= n * need->smem;
  sm->regs -= n * need->regs;
}

/* The blocks of one dispatch: they all end together. `placed` holds
 * (sm << 8 | count) for each SM that got blocks; a count never exceeds
 * max_blocks_per_sm (<= 64). */
typedef struct
{
  guint32 op;
  guint32 blocks;
  guint32 n_placed;
  guint32 placed[];
} EngDispatch;

/* Places up to `want` blocks of `op`, breadth-first and round robin from
 * sm_next; returns the dispatch, or NULL when no SM has room. */
static EngDispatch *
place_blocks (EngSim *sim, guint32 op, guint32 want)
{
  const EngProfile *p = &sim->profile;
  const EngBlockFootprint *need = &sim->ops[op].u.k.need;
  guint n_sms = p->sm_count;
  GArray *touched = NULL;
  guint32 done = 0;
  guint misses = 0; /* SMs in a row that had no room */
  guint sm = sim->sm_next;
  while (done < want && misses < n_sms)
    {
      if (sm_fits (p, &sim->sms[sm], need))
        {
          sm_take (&sim->sms[sm], need, 1);
          if (sim->sm_placed[sm]++ == 0)
            {
              if (touched == NULL)
                touched = g_array_sized_new (FALSE, FALSE, sizeof (guint32), MIN (want, n_sms));
              g_array_append_val (touched, sm);
            }
          done++;
          misses = 0;
          sim->sm_next = (sm + 1) % n_sms;
        }
      else
        misses++;
      sm = (sm + 1) % n_sms;
    }
  if (done == 0)
    return NULL;
  EngDispatch *d = g_malloc (sizeof (EngDispatch) + touched->len * sizeof (guint32));
  d->op = op;
  d->blocks = done;
  d->n_placed = touched->len;
  for (guint i = 0; i < touched->len; i++)
    {
      guint32 s = g_array_index (touched, guint32, i);
      d->placed[i] = (s << 8) | sim->sm_placed[s];
      sim->sm_placed[s] = 0;
    }
  g_array_free (touched, TRUE);
  return d;
}

/* ---- Groups in flight ----
 *
 * A kernel's groups are not events of the event core's heap: each admitted
 * kernel keeps them in a ring (EngKernelSlot), and a small heap of kernels
 * (`kheap`, on the end of each kernel's first group) gives the earliest group
 * of all, which the event core runs as its "source" (sim_queue_set_source)
 * with the same (time, sequence) key the scheduled event would have had. So
 * the order of everything is exactly that of one heap of events; what the
 * rings buy is the batch below. */

static inline EngGroup *
ring_at (EngKernelSlot *k, guint32 i)
{
  return &k->ring[(k->ring_head + i) & (k->ring_cap - 1)];
}

static inline gboolean
key_before (SimTime when, guint64 seq, SimTime bound_when, guint64 bound_seq)
{
  return when < bound_when || (when == bound_when && seq < bound_seq);
}

static inline gboolean
slot_before (EngSim *sim, guint32 a, guint32 b)
{
  const EngGroup *x = ring_at (&sim->kslots[a], 0);
  const EngGroup *y = ring_at (&sim->kslots[b], 0);
  return key_before (x->end, x->seq, y->end, y->seq);
}

static void
kheap_swap (EngSim *sim, guint i, guint j)
{
  guint32 t = sim->kheap[i];
  sim->kheap[i] = sim->kheap[j];
  sim->kheap[j] = t;
  sim->kslots[sim->kheap[i]].heap_pos = i;
  sim->kslots[sim->kheap[j]].heap_pos = j;
}

static void
kheap_up (EngSim *sim, guint i)
{
  while (i > 0 && slot_before (sim, sim->kheap[i], sim->kheap[(i - 1) / 2]))
    {
      kheap_swap (sim, i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
}

static void
kheap_down (EngSim *sim, guint i)
{
  for (;;)
    {
      guint c = 2 * i + 1;
      if (c >= sim->kheap_len)
        return;
      if (c + 1 < sim->kheap_len && slot_before (sim, sim->kheap[c + 1], sim->kheap[c]))
        c++;
      if (!slot_before (sim, sim->kheap[c], sim->kheap[i]))
        return;
      kheap_swap (sim, i, c);
      i = c;
    }
}

/* Tells the event core where the earliest group ends. */
static void
sync_source (EngSim *sim)
{
  if (sim->kheap_len == 0)
    sim_queue_source_next (sim->events, SIM_TIME_NEVER, 0);
  else
    {
      const EngGroup *g = ring_at (&sim->kslots[sim->kheap[0]], 0);
      sim_queue_source_next (sim->events, g->end, g->seq);
    }
}

/* The slot's first group changed (it ended, or the ring became empty). */
static void
kheap_fix (EngSim *sim, guint32 slot)
{
  EngKernelSlot *k = &sim->kslots[slot];
  guint i = k->heap_pos;
  if (k->ring_len == 0)
    {
      k->heap_pos = ENG_NONE;
      sim->kheap_len--;
      if (i != sim->kheap_len)
        {
          sim->kheap[i] = sim->kheap[sim->kheap_len];
          sim->kslots[sim->kheap[i]].heap_pos = i;
          kheap_down (sim, i);
          kheap_up (sim, i);
        }
    }
  else
    kheap_down (sim, i); /* keys only grow */
  if (i == 0 || sim->kheap_len == 0)
    sync_source (sim);
}

/* A new group of `n` blocks ends at `end`; its sequence number is taken now,
 * where sim_queue_schedule would have taken it. */
static void
ring_push (EngSim *sim, guint32 slot, SimTime end, guint32 n)
{
  EngKernelSlot *k = &sim->kslots[slot];
  if (k->ring_len == k->ring_cap)
    {
      guint32 cap = MAX (k->ring_cap * 2, 8);
      EngGroup *ring = g_new (EngGroup, cap);
      for (guint32 i = 0; i < k->ring_len; i++)
        ring[i] = *ring_at (k, i);
      g_free (k->ring);
      k->ring = ring;
      k->ring_cap = cap;
      k->ring_head = 0;
    }
  EngGroup *g = ring_at (k, k->ring_len++);
  g->end = end;
  g->seq = sim_queue_take_seq (sim->events, 1);
  g->n = n;
  if (k->ring_len == 1)
    {
      k->heap_pos = sim->kheap_len;
      sim->kheap[sim->kheap_len++] = slot;
      kheap_up (sim, k->heap_pos);
      if (k->heap_pos == 0)
        sync_source (sim);
    }
}

/* Takes the slot's first group out of its ring (the heap is fixed by the caller). */
static EngGroup
ring_pop (EngKernelSlot *k)
{
  EngGroup g = *ring_at (k, 0);
  k->ring_head = (k->ring_head + 1) & (k->ring_cap - 1);
  k->ring_len--;
  return g;
}

static guint32
slot_alloc (EngSim *sim)
{
  if (sim->free_kslot == ENG_NONE)
    {
      guint n = MAX (sim->n_kslots * 2, 8);
      sim->kslots = g_renew (EngKernelSlot, sim->kslots, n);
      sim->kheap = g_renew (guint32, sim->kheap, n);
      for (guint i = n; i-- > sim->n_kslots;)
        {
          memset (&sim->kslots[i], 0, sizeof (EngKernelSlot));
          sim->kslots[i].next = sim->free_kslot;
          sim->kslots[i].heap_pos = ENG_NONE;
          sim->free_kslot = i;
        }
      sim->n_kslots = n;
    }
  guint32 slot = sim->free_kslot;
  sim->free_kslot = sim->kslots[slot].next;
  sim->kslots[slot].next = ENG_NONE;
  return slot;
}

static void
slot_release (EngSim *sim, guint32 slot)
{
  EngKernelSlot *k = &sim->kslots[slot];
  g_assert (k->ring_len == 0 && k->heap_pos == ENG_NONE);
  k->op = ENG_NONE;
  k->next = sim->free_kslot;
  sim->free_kslot = slot;
}

void
eng_kernel_free (EngSim *sim)
{
  for (guint i = 0; i < sim->n_kslots; i++)
    g_free (sim->kslots[i].ring);
  g_free (sim->kslots);
  g_free (sim->kheap);
}

/* ---- Dispatch ---- */

/* Inserts slot `slot` into the dispatch list, after every kernel that comes
 * before it by (priority, admission order). */
static void
dispatch_insert (EngSim *sim, guint32 slot)
{
  EngKernelSlot *k = &sim->kslots[slot];
  guint32 *at = &sim->dispatch_list;
  while (*at != ENG_NONE)
    {
      EngKernelSlot *c = &sim->kslots[*at];
      gboolean before = c->priority < k->priority
                        || (c->priority == k->priority && c->accept_seq < k->accept_seq);
      if (!before)
        break;
      at = &c->next;
    }
  k->next = *at;
  *at = slot;
}

/* Inserts `op` into the admission list (linked through next_ready), after
 * every op that comes before it by (priority, issue order). */
static void
admit_insert (EngSim *sim, guint32 op)
{
  EngOp *o = &sim->ops[op];
  guint32 *at = &sim->admit_list;
  while (*at != ENG_NONE)
    {
      EngOp *c = &sim->ops[*at];
      gboolean before = c->u.k.priority < o->u.k.priority
                        || (c->u.k.priority == o->u.k.priority && *at < op);
      if (!before)
        break;
      at = &c->next_ready;
    }
  o->next_ready = *at;
  *at = op;
}

static void
try_dispatch (EngSim *sim, SimTime now)
{
  while (sim->dispatch_list != ENG_NONE)
    {
      guint32 slot = sim->dispatch_list;
      EngKernelSlot *k = &sim->kslots[slot];
      guint64 fit = sim->slots_free / k->unit;
      guint32 n = (guint32) MIN ((guint64) k->remaining, fit);
      if (n > 0)
        {
          EngOp *o = &sim->ops[k->op];
          if (!(o->flags & ENG_OP_STARTED))
            {
              if (now > o->submitted)
                {
                  o->engine_cause = ENG_CAUSE_SLOTS;
                  o->engine_ref = sim->last_kernel;
                  o->engine_time = now;
                }
              eng_sim_started (sim, k->op, now);
            }
          k->remaining -= n;
          k->in_flight += n;
          sim->slots_free -= (guint64) n * k->unit;
          ring_push (sim, slot, now + k->block_time, n);
        }
      if (k->remaining > 0)
        return; /* left-over policy: nobody behind it gets slots yet */
      sim->dispatch_list = k->next;
      k->next = ENG_NONE;
    }
}

static void
admit (EngSim *sim, guint32 op, SimTime now)
{
  EngOp *o = &sim->ops[op];
  guint32 slot = slot_alloc (sim);
  EngKernelSlot *k = &sim->kslots[slot];
  sim->running_kernels++;
  k->op = op;
  k->priority = o->u.k.priority;
  k->accept_seq = sim->accept_seq++;
  k->unit = o->u.k.unit;
  k->block_time = o->u.k.block_time;
  k->remaining = o->u.k.grid;
  k->in_flight = 0;
  eng_connection_pop (sim, op, now);
  dispatch_insert (sim, slot);
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
    admit_insert (sim, op);
}

/* ---- Ends of groups ---- */

/* The first group of kernel `slot` ends: its blocks free their slots, which
 * go to the dispatch list; the kernel is done when its last group ends. */
static void
group_end (EngSim *sim, guint32 slot, SimTime now)
{
  EngKernelSlot *k = &sim->kslots[slot];
  EngGroup g = ring_pop (k);
  kheap_fix (sim, slot);
  sim->n_events++;
  k->in_flight -= g.n;
  sim->slots_free += (guint64) g.n * k->unit;
  sim->last_kernel = k->op;
  if (k->remaining > 0 || k->in_flight > 0)
    {
      try_dispatch (sim, now);
      return;
    }
  /* The kernel is done. Kernels waiting for admission were there first, so
   * they get the freed place before anything this completion makes ready. */
  guint32 op = k->op;
  slot_release (sim, slot);
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

/* Ends of groups that change nothing but the kernel's count of blocks left,
 * run in one go.
 *
 * While kernel K is first in the dispatch list with blocks left, the free
 * slots are fewer than one of its blocks needs (try_dispatch gave it every
 * slot that fit). When one of K's groups of n blocks ends, its slots are
 * exactly enough for n more blocks of K, which K takes at once; if K still
 * has blocks left afterwards, the end changed only K's count of blocks left,
 * and scheduled K's next end. Such ends are "pure".
 *
 * A run of pure ends of K that come before every other event (of the heap,
 * of other kernels) would run back to back, nothing in between; so they can
 * be applied together, as long as each takes the sequence number it would
 * have taken. Two cases:
 *  - one by one, for the ring's groups as they are (their sequence numbers
 *    compare with the bound's);
 *  - whole cycles, once every group has ended once in the batch: every group
 *    then ends again bt later, in the same order, and the sequence numbers
 *    they take are larger than the bound's, so a cycle fits when its last
 *    end is strictly before the bound's time. C cycles take C x (blocks in
 *    flight) blocks and C x (groups) sequence numbers.
 * This turns a kernel of 100,000 blocks into O(groups) work per event of
 * anything else, instead of an event per group per wave.
 *
 * Returns FALSE (and does nothing) when the first group's end is not pure. */
static gboolean
pure_batch (EngSim *sim, guint32 slot)
{
  EngKernelSlot *k = &sim->kslots[slot];
  if (sim->dispatch_list != slot || k->remaining <= ring_at (k, 0)->n)
    return FALSE;
  g_assert (sim->slots_free < k->unit);

  /* The bound: the earliest event that is not one of K's. */
  SimTime bound_when = SIM_TIME_NEVER;
  guint64 bound_seq = G_MAXUINT64;
  sim_queue_peek (sim->events, &bound_when, &bound_seq);
  for (guint c = 1; c <= 2 && c < sim->kheap_len; c++)
    {
      const EngGroup *o = ring_at (&sim->kslots[sim->kheap[c]], 0);
      if (key_before (o->end, o->seq, bound_when, bound_seq))
        {
          bound_when = o->end;
          bound_seq = o->seq;
        }
    }

  guint32 groups = k->ring_len;
  guint32 fired = 0;
  for (guint pass = 0; pass < 2; pass++)
    {
      /* one by one: at most one cycle */
      for (guint32 i = 0; i < groups; i++)
        {
          EngGroup *g = ring_at (k, 0);
          if (k->remaining <= g->n || !key_before (g->end, g->seq, bound_when, bound_seq))
            break;
          EngGroup done = ring_pop (k);
          k->remaining -= done.n;
          ring_push (sim, slot, done.end + k->block_time, done.n);
          fired++;
        }
      if (pass == 1 || fired < groups)
        break;

      /* whole cycles: every group has ended once in this batch */
      SimTime bt = k->block_time;
      SimTime last = ring_at (k, groups - 1)->end;
      guint64 cycles = (k->remaining - 1) / k->in_flight;
      if (last >= bound_when)
        cycles = 0;
      else if (bt > 0)
        cycles = MIN (cycles, (guint64) ((bound_when - 1 - last) / bt) + 1);
      if (cycles == 0)
        continue;
      guint64 first = sim_queue_take_seq (sim->events, cycles * groups);
      for (guint32 i = 0; i < groups; i++)
        {
          EngGroup *g = ring_at (k, i);
          g->end += (SimTime) cycles * bt;
          g->seq = first + (cycles - 1) * groups + i;
        }
      k->remaining -= (guint32) (cycles * k->in_flight);
      fired += (guint32) (cycles * groups);
    }
  if (fired == 0)
    return FALSE;
  sim->n_events += fired;
  sim->last_kernel = k->op;
  kheap_fix (sim, slot);
  return TRUE;
}

static void
kernel_source (SimQueue *queue, SimTime now, gpointer arg)
{
  (void) queue;
  EngSim *sim = arg;
  guint32 slot = sim->kheap[0];
  if (!pure_batch (sim, slot))
    group_end (sim, slot, now);
}

void
eng_kernel_start (EngSim *sim)
{
  sim_queue_set_source (sim->events, kernel_source, sim);
}
