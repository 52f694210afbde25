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
 * (`full_for`), so a group's end looks at its own SMs only (measured 8 to
 * 12% faster end to end with the h200 profile, about 1% with the k20's
 * four chunks: streamsim-bench at 10^6 ops). And the ends of a big kernel's
 * groups that change nothing but its count of blocks left run in batches
 * (pure_batch), so a kernel of 100,000 blocks costs about as much as one of
 * a few waves. These shortcuts and eng_sm.c's placement give exactly what
 * placing block by block and running every end as an event give; together
 * they make the benchmark's simulation about 100 times faster than that
 * plain reference (eng_sim_set_reference; tests/test_sm.c compares them).
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
 * When a kernel ends, the kernels waiting for admission get the place it
 * left first, one at a time, each with what its admission sets off in its
 * queue settled before the next (eng_post); then the dispatch list gets
 * the SMs, and then the kernel's end is signaled (eng_op_finished). */
#include <string.h>
#include "eng_kernel.h"
#include "eng_live.h"
#include "eng_op.h"
#include "eng_sm.h"

/* Blocks of one kernel dispatched together: they end together, at `end`.
 * `seq` is the sequence number the event core gave that end (see
 * sim_queue_take_seq), so that it runs exactly where a scheduled event would. */
typedef struct
{
  SimTime end;
  guint64 seq;
  EngPlacement *placement;
} Group;

/* An admitted kernel. Its groups in flight form a ring in the order they
 * end: they all last block_time, so they end in the order they were
 * dispatched. The ring is an ordered source of the event core. */
typedef struct
{
  guint32 op;
  guint32 next;         /* the dispatch list, by slot index; in a free slot, the next free slot */
  gint priority;
  guint64 accept_seq;
  EngSmNeed need;
  SimTime block_time;
  guint32 remaining;    /* blocks not yet dispatched */
  guint32 in_flight;    /* blocks dispatched and running */
  Group *ring;          /* ring[(ring_head + i) & (ring_cap - 1)], i < ring_len */
  guint32 ring_head, ring_len, ring_cap;
  SimSource *source;    /* the ring's first end, for the event core */
} Slot;

struct EngKernels
{
  EngSms sms;
  gint *stream_priority;  /* of each stream */
  guint running;          /* kernels admitted and not finished */
  guint32 dispatch_list;  /* slots of admitted kernels with blocks left, by (priority, seq) */
  guint32 full_for;       /* slot for which no SM has room, except those a group just left */
  guint32 admit_list;     /* queue heads waiting for the concurrency limit, through next_ready */
  guint64 accept_seq;
  guint32 last_kernel;    /* last kernel to free slots or finish, for causes */
  /* A kernel's last group while its end is offered (group_end): its SMs,
   * and the kernel */
  const EngPlacement *ending;
  guint32 ending_op;
  Slot *slots;
  guint n_slots;
  guint32 free_slot;      /* unused slots, through Slot.next */
};

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

/* What a kernel's blocks are, as the SMs hold them. */
typedef struct
{
  guint32 grid, block, smem, regs;
  SimTime block_time;
} Shape;

/* A kernel's own shape, or for a memset the kernel it runs as: one block
 * per SM for the memset's whole time (gpu_profile.h). */
static void
shape_of (const EngSim *sim, const SchedOp *sop, Shape *shape)
{
  if (sop->kind == SCHED_OP_MEMSET)
    {
      *shape = (Shape) { sim->profile.sm_count, GPU_MEMSET_BLOCK, 0, 0,
                         gpu_profile_memset_time (&sim->profile, sop->u.bytes, sop->host_memory) };
      return;
    }
  const SchedKernel *k = &sop->u.kernel;
  *shape = (Shape) { k->grid, k->block, k->smem, k->regs, block_time_of (sim, k) };
}

/* Checks one kernel op against the device and looks up its time; what a
 * kernel needs at run time is computed when it is admitted (admit()), so
 * that nothing per kernel is kept for the whole run. */
static gboolean
kernel_prepare (EngSim *sim, guint32 op, GError **error)
{
  const SchedOp *sop = eng_sop (sim, op);
  const GpuProfile *p = &sim->profile;
  const char *dev = gpu_profile_name (p);
  if (sop->kind == SCHED_OP_MEMSET)
    {
      if (sop->host_memory && p->memset.bandwidth > 0 && gpu_profile_memset_host_bandwidth (p) <= 0)
        {
          g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                       "%s:%u:%u: a memset of pinned host memory, but the profile of %s has "
                       "neither [kernel] memset_host_bandwidth nor [copy] d2h_pinned_bandwidth",
                       schedule_path (sim->sched), sop->line, sop->column, dev);
          return FALSE;
        }
      if (p->memset.bandwidth > 0)
        return TRUE;
      g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                   "%s:%u:%u: a memset, but the profile of %s has no [kernel] memset_bandwidth "
                   "(validate/examples/memset_probe.cu measures it)",
                   schedule_path (sim->sched), sop->line, sop->column, dev);
      return FALSE;
    }
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

static EngEngine
kernel_engine_of (const EngSim *sim, const SchedOp *sop)
{
  (void) sim;
  (void) sop;
  return ENG_ENGINE_COMPUTE;
}

static EngQueueClass
kernel_queue_of (const EngSim *sim, const SchedOp *sop)
{
  (void) sim;
  (void) sop;
  return ENG_Q_COMPUTE;
}

/* ---- Groups in flight ----
 *
 * Blocks dispatched together end together: one "group". A kernel's groups
 * are not events of the event core's heap: each admitted kernel keeps them in
 * a ring, in the order they end, and hands the event core its first end as
 * an ordered source (sim_queue_source_next). A group's key is the (time,
 * sequence number) the event would have had, so everything runs in exactly
 * the order of one heap of events; what the rings buy is pure_batch()
 * below. */

static inline Group *
ring_at (Slot *k, guint32 i)
{
  return &k->ring[(k->ring_head + i) & (k->ring_cap - 1)];
}

/* Tells the event core where the slot's first group ends (or that it has
 * none). */
static void
sync_source (Slot *k)
{
  if (k->ring_len == 0)
    sim_queue_source_next (k->source, SIM_TIME_NEVER, 0);
  else
    sim_queue_source_next (k->source, ring_at (k, 0)->end, ring_at (k, 0)->seq);
}

/* A group ends at `end`; it takes its sequence number now, where
 * sim_queue_schedule would have. */
static void
ring_push (Slot *k, SimTime end, guint64 seq, EngPlacement *placement)
{
  if (k->ring_len == k->ring_cap)
    {
      guint32 cap = MAX (k->ring_cap * 2, 8);
      Group *ring = g_new (Group, cap);
      for (guint32 i = 0; i < k->ring_len; i++)
        ring[i] = *ring_at (k, i);
      g_free (k->ring);
      k->ring = ring;
      k->ring_cap = cap;
      k->ring_head = 0;
    }
  Group *g = ring_at (k, k->ring_len++);
  g->end = end;
  g->seq = seq;
  g->placement = placement;
  if (k->ring_len == 1)
    sync_source (k);
}

/* Takes the slot's first group out of its ring. */
static Group
ring_pop (Slot *k)
{
  Group g = *ring_at (k, 0);
  k->ring_head = (k->ring_head + 1) & (k->ring_cap - 1);
  k->ring_len--;
  sync_source (k);
  return g;
}

static void kernel_source (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

static guint32
slot_alloc (EngSim *sim)
{
  EngKernels *kn = sim->kernel;
  if (kn->free_slot == ENG_NONE)
    {
      guint n = MAX (kn->n_slots * 2, 8);
      kn->slots = g_renew (Slot, kn->slots, n);
      for (guint i = n; i-- > kn->n_slots;)
        {
          memset (&kn->slots[i], 0, sizeof (Slot));
          kn->slots[i].source = sim_queue_source_new (sim->events, kernel_source, sim, i);
          kn->slots[i].next = kn->free_slot;
          kn->free_slot = i;
        }
      kn->n_slots = n;
    }
  guint32 slot = kn->free_slot;
  kn->free_slot = kn->slots[slot].next;
  kn->slots[slot].next = ENG_NONE;
  return slot;
}

static void
slot_release (EngKernels *kn, guint32 slot)
{
  Slot *k = &kn->slots[slot];
  g_assert (k->ring_len == 0);
  k->op = ENG_NONE;
  k->next = kn->free_slot;
  kn->free_slot = slot;
}

/* ---- Dispatch ---- */

/* Inserts a slot into the dispatch list, after every kernel that comes
 * before it by (priority, admission order). */
static void
dispatch_insert (EngKernels *kn, guint32 slot)
{
  Slot *k = &kn->slots[slot];
  guint32 *at = &kn->dispatch_list;
  while (*at != ENG_NONE)
    {
      Slot *c = &kn->slots[*at];
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
  EngKernels *kn = sim->kernel;
  EngLive *l = eng_live (sim, op);
  gint priority = kn->stream_priority[eng_sop (sim, op)->stream];
  guint32 *at = &kn->admit_list;
  while (*at != ENG_NONE)
    {
      EngLive *c = eng_live (sim, *at);
      gint cp = kn->stream_priority[eng_sop (sim, *at)->stream];
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
  EngKernels *kn = sim->kernel;
  while (kn->dispatch_list != ENG_NONE)
    {
      guint32 slot = kn->dispatch_list;
      Slot *k = &kn->slots[slot];
      EngPlacement *pl = NULL;
      if (k->remaining > 0)
        {
          /* the reference looks at every SM every time, relying on no claim */
          if (sim->reference)
            pl = eng_sm_place_one_by_one (&kn->sms, &k->need, k->remaining);
          else if (kn->full_for != slot)
            pl = eng_sm_place (&kn->sms, &k->need, k->remaining, NULL);
          else if (freed != NULL)
            pl = eng_sm_place (&kn->sms, &k->need, k->remaining, freed);
        }
      if (pl != NULL)
        {
          if (!(sim->ops[k->op].flags & ENG_OP_STARTED))
            eng_op_started (sim, k->op, now,
                            now > eng_live (sim, k->op)->submitted ? ENG_CAUSE_SLOTS
                                                                  : ENG_CAUSE_NONE,
                            kn->last_kernel);
          k->remaining -= pl->blocks;
          k->in_flight += pl->blocks;
          ring_push (k, now + k->block_time, sim_queue_take_seq (sim->events, 1), pl);
        }
      if (k->remaining > 0)
        {
          /* left-over policy: nobody behind it gets SMs yet */
          kn->full_for = slot;
          return;
        }
      if (kn->full_for == slot)
        kn->full_for = ENG_NONE;
      kn->dispatch_list = k->next;
      k->next = ENG_NONE;
    }
  /* Nobody was offered what `freed` left: no claim about full SMs holds. */
  kn->full_for = ENG_NONE;
}

static void
admit (EngSim *sim, guint32 op, SimTime now)
{
  EngKernels *kn = sim->kernel;
  const SchedOp *sop = eng_sop (sim, op);
  Shape shape;
  shape_of (sim, sop, &shape);
  guint32 slot = slot_alloc (sim);
  Slot *k = &kn->slots[slot];
  kn->running++;
  k->op = op;
  k->priority = kn->stream_priority[sop->stream];
  k->accept_seq = kn->accept_seq++;
  GpuBlockFootprint fp;
  gpu_profile_block_footprint (&sim->profile, shape.block, shape.smem, shape.regs, &fp);
  eng_sm_need (&fp, &k->need);
  k->block_time = shape.block_time;
  k->remaining = shape.grid;
  k->in_flight = 0;
  dispatch_insert (kn, slot);
  if (shape.grid != 0)
    try_dispatch (sim, now, kn->ending);
  /* Leaving the queue lets the next kernel of the same connection be
   * admitted: only once this one is in the dispatch list and has had its
   * SMs, so that the next cannot overtake it (found by predict --check on
   * random schedules: tests/fuzz/regressions/predict-kernel-admission-order-h100). */
  eng_op_accepted (sim, op, now);
}

static void
kernel_submit (EngSim *sim, guint32 op, SimTime now)
{
  if (sim->kernel->running < sim->profile.max_concurrent_kernels)
    admit (sim, op, now);
  else
    admit_insert (sim, op);
}

/* ---- Ends of groups ---- */

/* After a kernel's last group ended: the kernels waiting for admission get
 * the place first, each after what the one before set off (in a step of
 * its own when that posted any); then the dispatch list gets the SMs the
 * group left, and the kernel's end is signaled. */
static void kernel_end_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag);

static void
kernel_end (EngSim *sim, SimTime now)
{
  EngKernels *kn = sim->kernel;
  while (kn->admit_list != ENG_NONE && kn->running < sim->profile.max_concurrent_kernels)
    {
      guint32 next = kn->admit_list;
      EngLive *l = eng_live (sim, next);
      kn->admit_list = l->next_ready;
      l->next_ready = ENG_NONE;
      gsize posted = eng_posted (sim);
      admit (sim, next, now);
      if (eng_posted (sim) != posted)
        {
          eng_post (sim, kernel_end_step, 0, 0);
          return;
        }
    }
  EngPlacement *freed = (EngPlacement *) kn->ending;
  guint32 op = kn->ending_op;
  try_dispatch (sim, now, freed);
  kn->ending = NULL;
  eng_sm_placement_free (&kn->sms, freed);
  eng_op_finished (sim, op, now);
}

static void
kernel_end_step (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) tag;
  kernel_end (arg, now);
}

/* The first group of kernel `slot` ends: its blocks leave their SMs, which
 * go to the dispatch list; the kernel is done when its last group ends. */
static void
group_end (EngSim *sim, guint32 slot, SimTime now)
{
  EngKernels *kn = sim->kernel;
  Slot *k = &kn->slots[slot];
  Group g = ring_pop (k);
  sim->n_events++;
  k->in_flight -= g.placement->blocks;
  eng_sm_give_back (&kn->sms, g.placement, &k->need);
  kn->last_kernel = k->op;
  if (k->remaining > 0 || k->in_flight > 0)
    {
      try_dispatch (sim, now, g.placement);
      eng_sm_placement_free (&kn->sms, g.placement);
      return;
    }
  /* The kernel is done. What its last group left is offered through
   * admissions (and the kernels they pump from their queues) and
   * try_dispatch: every dispatch until then is told those SMs (`ending`),
   * so that the `full_for` claim made before this end holds for the rest
   * of the SMs, and a kernel it names looks at those SMs only. Kernels
   * waiting for admission were there first, so they get the freed place
   * before anything this completion makes ready. */
  kn->ending = g.placement;
  kn->ending_op = k->op;
  slot_release (kn, slot);
  kn->running--;
  kernel_end (sim, now);
}

/* `next` after one turn of the ring: each group ends and its kernel fills
 * the same SMs again. */
static guint
next_after_cycle (const EngSms *sms, Slot *k, guint start)
{
  for (guint32 i = 0; i < k->ring_len; i++)
    start = eng_sm_next_after_refill (sms, ring_at (k, i)->placement, start);
  return start;
}

static inline gboolean
key_before (SimTime when, guint64 seq, SimTime bound_when, guint64 bound_seq)
{
  return when < bound_when || (when == bound_when && seq < bound_seq);
}
/* Ends of groups that change nothing but the kernel's count of blocks left
 * (and where the block scheduler looks next), run in one go.
 *
 * While kernel K is first in the dispatch list with blocks left and no SM has
 * room for another of its blocks (full_for), a group of K that ends leaves
 * room on its SMs for exactly the blocks it had there: K takes them again at
 * once, the same count on the same SMs. If K still has blocks left after
 * that, the end changed only K's count of blocks left and the SMs' `next`, and
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
  EngKernels *kn = sim->kernel;
  EngSms *sms = &kn->sms;
  Slot *k = &kn->slots[slot];
  if (sim->reference || kn->dispatch_list != slot || kn->full_for != slot
      || k->remaining <= ring_at (k, 0)->placement->blocks)
    return FALSE;

  /* The bound: the earliest event that is not one of K's. */
  SimTime bound_when;
  guint64 bound_seq;
  if (!sim_queue_peek_other (sim->events, k->source, &bound_when, &bound_seq))
    {
      bound_when = SIM_TIME_NEVER;
      bound_seq = G_MAXUINT64;
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
      guint sm_next = sms->next;
      Group *ring = k->ring;
      guint64 first = sim_queue_take_seq (sim->events, 0); /* the next one, not taken yet */
      while (n < groups)
        {
          Group *g = &ring[head];
          guint32 blocks = g->placement->blocks;
          if (remaining <= blocks || !key_before (g->end, g->seq, bound_when, bound_seq))
            break;
          remaining -= blocks;
          sm_next = eng_sm_next_after_refill (sms, g->placement, sm_next);
          Group *back = &ring[(head + groups) & mask];
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
          sms->next = sm_next;
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
          Group *g = ring_at (k, i);
          g->end += (SimTime) turns * bt;
          g->seq = first_turn + (turns - 1) * groups + i;
        }
      k->remaining -= (guint32) (turns * k->in_flight);
      fired += turns * groups;

      /* sm_next: follow turns until a value repeats */
      guint32 *seen = sms->order; /* seen[s]: 1 + the turn after which sm_next was s */
      memset (seen, 0, sim->profile.sm_count * sizeof (guint32));
      guint x = sms->next;
      for (guint64 t = 0; t < turns; t++)
        {
          if (seen[x] != 0)
            {
              /* x repeats the value after turn seen[x] - 1: the period is known */
              guint64 period = t - (seen[x] - 1);
              guint64 left = (turns - t) % period;
              for (guint64 r = 0; r < left; r++)
                x = next_after_cycle (sms, k, x);
              break;
            }
          seen[x] = (guint32) t + 1;
          x = next_after_cycle (sms, k, x);
        }
      sms->next = x;
    }
  if (fired == 0)
    return FALSE;
  sim->n_events += fired;
  kn->last_kernel = k->op;
  sync_source (k);
  return TRUE;
}

static void
kernel_source (SimQueue *queue, SimTime now, gpointer arg, guint64 slot)
{
  (void) queue;
  EngSim *sim = arg;
  if (!pure_batch (sim, (guint32) slot))
    group_end (sim, (guint32) slot, now);
}

static void
kernel_init (EngSim *sim)
{
  EngKernels *kn = g_new0 (EngKernels, 1);
  eng_sm_init (&kn->sms, &sim->profile);
  guint n_streams = schedule_n_streams (sim->sched);
  kn->stream_priority = g_new (gint, n_streams);
  for (guint s = 0; s < n_streams; s++)
    kn->stream_priority[s] = schedule_stream (sim->sched, s)->priority;
  kn->dispatch_list = kn->admit_list = kn->full_for = ENG_NONE;
  kn->free_slot = ENG_NONE;
  kn->last_kernel = ENG_NONE;
  sim->kernel = kn;
}

static void
kernel_free (EngSim *sim)
{
  EngKernels *kn = sim->kernel;
  if (kn == NULL)
    return;
  for (guint i = 0; i < kn->n_slots; i++)
    {
      Slot *k = &kn->slots[i];
      for (guint32 j = 0; j < k->ring_len; j++)
        eng_sm_placement_free (&kn->sms, ring_at (k, j)->placement);
      g_free (k->ring);
    }
  eng_sm_free (&kn->sms);
  g_free (kn->slots);
  g_free (kn->stream_priority);
  g_free (kn);
  sim->kernel = NULL;
}

const EngEngineClass eng_kernel_class = {
  .name = "kernel",
  .init = kernel_init,
  .free = kernel_free,
  .prepare = kernel_prepare,
  .engine_of = kernel_engine_of,
  .queue_of = kernel_queue_of,
  .submit = kernel_submit,
};
