/* eng_kernel.c: the kernel engine at block level: SM resources, the left-over policy, the concurrency limit.
 *
 * Each SM has threads, block slots, shared memory and registers. A block
 * takes what its kernel's shape needs (gpu_profile_block_footprint) from one
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
 * Cost: blocks dispatched together end together (a "group"), so one event
 * covers a whole dispatch, never one per block; eng_sm.c places a dispatch
 * per SM, not per block, and remembers how many blocks it put on each SM, to
 * give them back when it ends. While a kernel is first in the dispatch list
 * and no SM has room for it, only the SMs a group just left can take blocks
 * (`full_for`), so a group's end looks at its own SMs only. And the ends of a
 * big kernel's groups that change nothing but its count of blocks left run
 * in batches (pure_batch), so a kernel of 100,000 blocks costs about as much
 * as one of a few waves. Both shortcuts give exactly what placing block by
 * block and running every end as an event give (eng_sim_set_reference, and
 * tests/test_sm.c, compare them).
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

/* The time one block of this kernel holds its SM: given by block_time=, or
 * derived from time=, the kernel's isolated time, which is waves x block
 * time. */
static SimTime
block_time_of (const EngSim *sim, const SchedKernel *k)
{
  if (k->block_time >= 0)
    return k->block_time;
  const GpuProfile *p = &sim->profile;
  SimTime total = g_array_index (sim->list_time, SimTime, k->times);
  guint bps = gpu_profile_blocks_per_sm (p, k->block, k->smem, k->regs);
  guint64 per_wave = (guint64) p->sm_count * bps;
  guint64 waves = (k->grid + per_wave - 1) / per_wave;
  return (SimTime) ((total + (SimTime) waves / 2) / (SimTime) waves);
}

/* Checks one kernel op against the device and looks up its time; what a
 * kernel needs at run time is computed when it is admitted (admit()), so
 * that nothing per kernel is kept for the whole run. eng_sim_new calls it
 * for each kernel in its one pass over the ops. */
gboolean
eng_kernel_prepare (EngSim *sim, const SchedOp *sop, GError **error)
{
  const GpuProfile *p = &sim->profile;
  const char *dev = gpu_profile_name (p);
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
  guint bps = gpu_profile_blocks_per_sm (p, k->block, k->smem, k->regs);
  if (bps == 0)
    {
      g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                   "%s:%u:%u: one block (block=%u, smem=%u, regs=%u) does not fit on an SM of %s",
                   schedule_path (sim->sched), sop->line, sop->column, k->block, k->smem,
                   k->regs, dev);
      return FALSE;
    }
  /* The device's time for its time= list, kept in sim->list_time for
   * block_time_of() at admission. */
  SimTime total;
  if (k->block_time < 0
      && !gpu_profile_kernel_time (p, sim->sched, sop, sim->list_time, &total, error))
    return FALSE;
  return TRUE;
}

/* ---- Groups in flight ----
 *
 * Blocks dispatched together end together: one "group". A kernel's groups
 * are not events of the event core's heap: each admitted kernel keeps them in
 * a ring (EngKernelSlot), in the order they end, and a small heap of kernels
 * (`kheap`, on the end of each kernel's first group) gives the earliest group
 * of all, which the event core runs as its source (sim_queue_set_source). A
 * group's key is the (time, sequence number) the event would have had, so
 * everything runs in exactly the order of one heap of events; what the rings
 * buy is pure_batch() below. */

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
kkey_before (const EngKernelKey *a, const EngKernelKey *b)
{
  return key_before (a->end, a->seq, b->end, b->seq);
}

static void
kheap_swap (EngSim *sim, guint i, guint j)
{
  EngKernelKey t = sim->kheap[i];
  sim->kheap[i] = sim->kheap[j];
  sim->kheap[j] = t;
  sim->kslots[sim->kheap[i].slot].heap_pos = i;
  sim->kslots[sim->kheap[j].slot].heap_pos = j;
}

static void
kheap_up (EngSim *sim, guint i)
{
  while (i > 0 && kkey_before (&sim->kheap[i], &sim->kheap[(i - 1) / 2]))
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
      if (c + 1 < sim->kheap_len && kkey_before (&sim->kheap[c + 1], &sim->kheap[c]))
        c++;
      if (!kkey_before (&sim->kheap[c], &sim->kheap[i]))
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
    sim_queue_source_next (sim->events, sim->kheap[0].end, sim->kheap[0].seq);
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
          sim->kslots[sim->kheap[i].slot].heap_pos = i;
          kheap_down (sim, i);
          kheap_up (sim, i);
        }
    }
  else
    {
      const EngGroup *g = ring_at (k, 0);
      sim->kheap[i].end = g->end;
      sim->kheap[i].seq = g->seq;
      kheap_down (sim, i); /* an end only moves later */
    }
  sync_source (sim);
}

/* A group ends at `end`; it takes its sequence number now, where
 * sim_queue_schedule would have. */
static void
ring_push (EngSim *sim, guint32 slot, SimTime end, guint64 seq, EngPlacement *placement)
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
  g->seq = seq;
  g->placement = placement;
  if (k->ring_len == 1)
    {
      k->heap_pos = sim->kheap_len;
      sim->kheap[sim->kheap_len++] = (EngKernelKey) { end, seq, slot };
      kheap_up (sim, k->heap_pos);
      if (k->heap_pos == 0)
        sync_source (sim);
    }
}

/* Takes the slot's first group out of its ring (the caller fixes the heap). */
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
      sim->kheap = g_renew (EngKernelKey, sim->kheap, n);
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
    {
      EngKernelSlot *k = &sim->kslots[i];
      for (guint32 j = 0; j < k->ring_len; j++)
        eng_sm_placement_free (sim, ring_at (k, j)->placement);
      g_free (k->ring);
    }
  eng_sm_free (sim);
  g_free (sim->kslots);
  g_free (sim->kheap);
  if (sim->list_time != NULL)
    g_array_free (sim->list_time, TRUE);
}

/* ---- Dispatch ---- */

/* Inserts a slot into the dispatch list, after every kernel that comes
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
  EngLive *l = eng_live (sim, op);
  gint priority = sim->stream_priority[eng_sop (sim, op)->stream];
  guint32 *at = &sim->admit_list;
  while (*at != ENG_NONE)
    {
      EngLive *c = eng_live (sim, *at);
      gint cp = sim->stream_priority[eng_sop (sim, *at)->stream];
      gboolean before = cp < priority || (cp == priority && *at < op);
      if (!before)
        break;
      at = &c->next_ready;
    }
  l->next_ready = *at;
  *at = op;
}

/* Gives free SMs to the dispatch list, first kernel first. `freed` is the
 * placement of a group that just ended (or NULL): while the first kernel is
 * the one `full_for` names, no SM had room for it before, so only the SMs
 * that group left can have room now and the others need no look. */
static void
try_dispatch (EngSim *sim, SimTime now, const EngPlacement *freed)
{
  while (sim->dispatch_list != ENG_NONE)
    {
      guint32 slot = sim->dispatch_list;
      EngKernelSlot *k = &sim->kslots[slot];
      EngPlacement *pl = NULL;
      if (k->remaining > 0)
        {
          /* the reference looks at every SM every time, relying on no claim */
          if (sim->reference || sim->full_for != slot)
            pl = eng_sm_place (sim, &k->need, k->remaining, NULL);
          else if (freed != NULL)
            pl = eng_sm_place (sim, &k->need, k->remaining, freed);
        }
      if (pl != NULL)
        {
          if (!(sim->ops[k->op].flags & ENG_OP_STARTED))
            eng_sim_started (sim, k->op, now,
                             now > eng_live (sim, k->op)->submitted ? ENG_CAUSE_SLOTS
                                                                   : ENG_CAUSE_NONE,
                             sim->last_kernel);
          k->remaining -= pl->blocks;
          k->in_flight += pl->blocks;
          ring_push (sim, slot, now + k->block_time, sim_queue_take_seq (sim->events, 1), pl);
        }
      if (k->remaining > 0)
        {
          /* left-over policy: nobody behind it gets SMs yet */
          sim->full_for = slot;
          return;
        }
      if (sim->full_for == slot)
        sim->full_for = ENG_NONE;
      sim->dispatch_list = k->next;
      k->next = ENG_NONE;
    }
  /* Nobody was offered what `freed` left: no claim about full SMs holds. */
  sim->full_for = ENG_NONE;
}

static void
admit (EngSim *sim, guint32 op, SimTime now)
{
  const SchedOp *sop = eng_sop (sim, op);
  const SchedKernel *sk = &sop->u.kernel;
  guint32 slot = slot_alloc (sim);
  EngKernelSlot *k = &sim->kslots[slot];
  sim->running_kernels++;
  k->op = op;
  k->priority = sim->stream_priority[sop->stream];
  k->accept_seq = sim->accept_seq++;
  GpuBlockFootprint fp;
  gpu_profile_block_footprint (&sim->profile, sk->block, sk->smem, sk->regs, &fp);
  eng_sm_need (&fp, &k->need);
  k->block_time = block_time_of (sim, sk);
  k->remaining = sk->grid;
  k->in_flight = 0;
  dispatch_insert (sim, slot);
  if (sk->grid != 0)
    try_dispatch (sim, now, sim->ending);
  /* Popping pumps the queue, which may admit the next kernel of the same
   * connection: only once this one is in the dispatch list and has had its
   * SMs, so that the next cannot overtake it (found by predict --check on
   * random schedules: tests/fuzz/regressions/predict-kernel-admission-order-h100). */
  eng_connection_pop (sim, op, now);
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

/* The first group of kernel `slot` ends: its blocks leave their SMs, which
 * go to the dispatch list; the kernel is done when its last group ends. */
static void
group_end (EngSim *sim, guint32 slot, SimTime now)
{
  EngKernelSlot *k = &sim->kslots[slot];
  EngGroup g = ring_pop (k);
  kheap_fix (sim, slot);
  sim->n_events++;
  k->in_flight -= g.placement->blocks;
  eng_sm_give_back (sim, g.placement, &k->need);
  sim->last_kernel = k->op;
  if (k->remaining > 0 || k->in_flight > 0)
    {
      try_dispatch (sim, now, g.placement);
      eng_sm_placement_free (sim, g.placement);
      return;
    }
  /* The kernel is done. What its last group left is offered below, through
   * admissions (and the kernels they pump from their queues) and
   * try_dispatch: every dispatch until then is told those SMs (`ending`),
   * so that the `full_for` claim made before this end holds for the rest
   * of the SMs, and a kernel it names looks at those SMs only. */
  sim->ending = g.placement;
  guint32 op = k->op;
  slot_release (sim, slot);
  /* Kernels waiting for admission were there first, so they get the freed
   * place before anything this completion makes ready. */
  sim->running_kernels--;
  while (sim->admit_list != ENG_NONE
         && sim->running_kernels < sim->profile.max_concurrent_kernels)
    {
      guint32 next = sim->admit_list;
      EngLive *l = eng_live (sim, next);
      sim->admit_list = l->next_ready;
      l->next_ready = ENG_NONE;
      admit (sim, next, now);
    }
  try_dispatch (sim, now, g.placement);
  sim->ending = NULL;
  eng_sm_placement_free (sim, g.placement);
  eng_op_finish (sim, op, now);
  eng_connection_kernel_done (sim, op, now);
}

/* sm_next after one turn of the ring: each group ends and its kernel fills
 * the same SMs again. */
static guint
sm_next_after_cycle (EngSim *sim, EngKernelSlot *k, guint start)
{
  for (guint32 i = 0; i < k->ring_len; i++)
    start = eng_sm_next_after_refill (sim, ring_at (k, i)->placement, start);
  return start;
}

/* Ends of groups that change nothing but the kernel's count of blocks left
 * (and where the block scheduler looks next), run in one go.
 *
 * While kernel K is first in the dispatch list with blocks left and no SM has
 * room for another of its blocks (full_for), a group of K that ends leaves
 * room on its SMs for exactly the blocks it had there: K takes them again at
 * once, the same count on the same SMs. If K still has blocks left after
 * that, the end changed only K's count of blocks left and sm_next, and
 * scheduled K's next end. Call such an end "pure".
 *
 * Pure ends of K that come before every other event (of the heap, of other
 * kernels) would run back to back, nothing in between, so they can be
 * applied together as long as each takes the sequence number it would have
 * taken:
 *  - one by one, for the ring's groups as they are (their sequence numbers
 *    are compared with the bound's);
 *  - then whole turns, once every group has ended once in this batch: every
 *    group ends again block_time later, in the same order, with sequence
 *    numbers larger than the bound's, so a turn fits when its last end is
 *    strictly before the bound's time. C turns take C x (blocks in flight)
 *    blocks and C x (groups) sequence numbers; sm_next after C turns is
 *    found by following turns until it repeats (it ranges over the SMs).
 * So a kernel of 100,000 blocks costs O(groups) per event of anything else,
 * not an event per group per wave.
 *
 * Returns FALSE (and does nothing) when the first group's end is not pure. */
static gboolean
pure_batch (EngSim *sim, guint32 slot)
{
  EngKernelSlot *k = &sim->kslots[slot];
  if (sim->reference || sim->dispatch_list != slot || sim->full_for != slot
      || k->remaining <= ring_at (k, 0)->placement->blocks)
    return FALSE;

  /* The bound: the earliest event that is not one of K's. */
  SimTime bound_when = SIM_TIME_NEVER;
  guint64 bound_seq = G_MAXUINT64;
  sim_queue_peek (sim->events, &bound_when, &bound_seq);
  for (guint c = 1; c <= 2 && c < sim->kheap_len; c++)
    {
      const EngKernelKey *o = &sim->kheap[c];
      if (key_before (o->end, o->seq, bound_when, bound_seq))
        {
          bound_when = o->end;
          bound_seq = o->seq;
        }
    }

  guint32 groups = k->ring_len;
  guint64 fired = 0;
  for (guint pass = 0; pass < 2; pass++)
    {
      /* one by one: at most one turn. The ends move to the back of the
       * ring with the sequence numbers they take, consecutive since nothing
       * else runs in between (taken from the event core after the loop). */
      guint32 mask = k->ring_cap - 1, head = k->ring_head, n = 0;
      guint32 remaining = k->remaining;
      guint sm_next = sim->sm_next;
      EngGroup *ring = k->ring;
      guint64 first = sim_queue_take_seq (sim->events, 0); /* the next one, not taken yet */
      while (n < groups)
        {
          EngGroup *g = &ring[head];
          guint32 blocks = g->placement->blocks;
          if (remaining <= blocks || !key_before (g->end, g->seq, bound_when, bound_seq))
            break;
          remaining -= blocks;
          sm_next = eng_sm_next_after_refill (sim, g->placement, sm_next);
          EngGroup *back = &ring[(head + groups) & mask];
          back->end = g->end + k->block_time;
          back->placement = g->placement;
          back->seq = first + n;
          head = (head + 1) & mask;
          n++;
        }
      if (n > 0)
        {
          sim_queue_take_seq (sim->events, n);
          k->ring_head = head;
          k->remaining = remaining;
          sim->sm_next = sm_next;
          fired += n;
        }
      if (pass == 1 || fired < groups)
        break;

      /* whole turns: every group has ended once in this batch */
      SimTime bt = k->block_time;
      SimTime last = ring_at (k, groups - 1)->end;
      guint64 turns = (k->remaining - 1) / k->in_flight;
      if (last >= bound_when)
        turns = 0;
      else if (bt > 0)
        turns = MIN (turns, (guint64) ((bound_when - 1 - last) / bt) + 1);
      if (turns == 0)
        continue;
      guint64 first_turn = sim_queue_take_seq (sim->events, turns * groups);
      for (guint32 i = 0; i < groups; i++)
        {
          EngGroup *g = ring_at (k, i);
          g->end += (SimTime) turns * bt;
          g->seq = first_turn + (turns - 1) * groups + i;
        }
      k->remaining -= (guint32) (turns * k->in_flight);
      fired += turns * groups;

      /* sm_next: follow turns until a value repeats */
      guint32 *seen = sim->sm_order; /* seen[s]: 1 + the turn after which sm_next was s */
      memset (seen, 0, sim->profile.sm_count * sizeof (guint32));
      guint x = sim->sm_next;
      for (guint64 t = 0; t < turns; t++)
        {
          if (seen[x] != 0)
            {
              /* x repeats the value after turn seen[x] - 1: the period is known */
              guint64 period = t - (seen[x] - 1);
              guint64 left = (turns - t) % period;
              for (guint64 r = 0; r < left; r++)
                x = sm_next_after_cycle (sim, k, x);
              break;
            }
          seen[x] = (guint32) t + 1;
          x = sm_next_after_cycle (sim, k, x);
        }
      sim->sm_next = x;
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
  guint32 slot = sim->kheap[0].slot;
  if (!pure_batch (sim, slot))
    group_end (sim, slot, now);
}

void
eng_kernel_start (EngSim *sim)
{
  sim->list_time = g_array_new (FALSE, FALSE, sizeof (SimTime));
  sim->dispatch_list = sim->admit_list = sim->full_for = ENG_NONE;
  sim->free_kslot = ENG_NONE;
  sim_queue_set_source (sim->events, kernel_source, sim);
}
