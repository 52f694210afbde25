/* eng_sm.c: what each SM holds, and the block scheduler's breadth-first round robin, computed a dispatch at a time.
 *
 * The block scheduler (eng_kernel.c says why this one) takes the blocks of a
 * dispatch one at a time: each goes to the next SM, from where the last block
 * went (`sm_next`), that has room for it, and the scan gives up after a whole
 * turn of SMs without room. Done block by block that is O(blocks), and a wave
 * of a big kernel is thousands of blocks. Here it is computed per SM, with
 * the same result:
 *
 *   The scan visits the SMs in turns starting at sm_next, so turn j puts one
 *   block on every SM with room for at least j blocks. With room[s] blocks of
 *   room on SM s and W blocks wanted, it places min(W, sum of room): all of
 *   room[s] when W covers the sum; otherwise min(room[s], k - 1) plus one on
 *   each of the first SMs (in scan order) with room >= k, where turn k is the
 *   one that places the W-th block. The SM that gets the last block, plus
 *   one, is the new sm_next.
 *
 * A placement can be limited to some SMs (`cands`): the caller knows that no
 * other SM has room for this kernel (eng_kernel.c keeps that fact while a
 * kernel stays first in the dispatch list), so only the SMs a group of blocks
 * just left are worth looking at.
 *
 * tests/test_sm.c checks all of this against the block-by-block scan. */
#include <string.h>
#include "eng_internal.h"

/* How many more blocks of this footprint an SM that takes one can take. */
static inline guint32
sm_room (const EngProfile *p, const EngSm *sm, const EngBlockFootprint *need)
{
  guint32 room = p->max_blocks_per_sm - sm->blocks;
  room = MIN (room, (p->max_threads_per_sm - sm->threads) / need->threads);
  if (need->smem > 0)
    room = (guint32) MIN ((guint64) room, (p->smem_per_sm - sm->smem) / need->smem);
  if (need->regs > 0)
    room = MIN (room, (guint32) ((p->regs_per_sm - sm->regs) / need->regs));
  return room;
}

/* An SM's use, and what a block adds to it, as one vector of four 32-bit
 * lanes in EngSm's field order (threads, blocks, smem, regs), so that taking
 * blocks, giving them back and the fit test are one operation each instead
 * of four; a group's end does all three on each of its SMs, and that was a
 * fifth of the simulation's instructions. GCC and clang vector extensions
 * (SSE2 on x86-64, plain code elsewhere). No lane overflows: an SM's use
 * stays within its limits, which are below 2^32 (smem_per_sm <= 1 MiB). */
typedef guint32 SmVec __attribute__ ((vector_size (16)));
typedef guint64 SmVec2 __attribute__ ((vector_size (16)));
G_STATIC_ASSERT (sizeof (EngSm) == sizeof (SmVec));
G_STATIC_ASSERT (G_STRUCT_OFFSET (EngSm, threads) == 0 && G_STRUCT_OFFSET (EngSm, blocks) == 4
                 && G_STRUCT_OFFSET (EngSm, smem) == 8 && G_STRUCT_OFFSET (EngSm, regs) == 12);

static inline SmVec
sm_load (const EngSm *sm)
{
  SmVec v;
  memcpy (&v, sm, sizeof v);
  return v;
}

static inline void
sm_store (EngSm *sm, SmVec v)
{
  memcpy (sm, &v, sizeof v);
}

/* What one block adds to its SM. */
static inline SmVec
sm_step (const EngBlockFootprint *need)
{
  return (SmVec) { need->threads, 1, need->smem, need->regs };
}

/* The most of each resource an SM may use and still take one more block:
 * its limit minus the block's need (a block fits an empty SM:
 * eng_kernel_prepare checked). */
static inline SmVec
sm_most (const EngProfile *p, const EngBlockFootprint *need)
{
  return (SmVec) { p->max_threads_per_sm - need->threads, p->max_blocks_per_sm - 1,
                   (guint32) MIN (p->smem_per_sm - need->smem, G_MAXUINT32),
                   p->regs_per_sm - need->regs };
}

/* Whether an SM that uses `use` takes one more block: no use above `most`. */
static inline gboolean
sm_fits (SmVec use, SmVec most)
{
  SmVec2 over = (SmVec2) (use > most);
  return (over[0] | over[1]) == 0;
}

static inline gboolean
sm_same (SmVec a, SmVec b)
{
  SmVec2 differ = (SmVec2) (a != b);
  return (differ[0] | differ[1]) == 0;
}

static inline void
sm_add (EngSm *sm, SmVec step, guint32 n)
{
  sm_store (sm, sm_load (sm) + n * step);
}

void
eng_sm_take (EngSim *sim, const EngPlacement *pl, const EngBlockFootprint *need)
{
  SmVec step = sm_step (need);
  for (guint32 i = 0; i < pl->n_sms; i++)
    sm_add (&sim->sms[ENG_PLACED_SM (pl->sms[i])], step, ENG_PLACED_COUNT (pl->sms[i]));
}

void
eng_sm_give_back (EngSim *sim, const EngPlacement *pl, const EngBlockFootprint *need)
{
  SmVec step = sm_step (need);
  EngSm *sms = sim->sms;
  const guint32 *placed = pl->sms, n_sms = pl->n_sms; /* locals: the stores cannot alias them */
  /* most SMs of a placement have its largest count (and a lane-wise
   * multiply is several instructions without SSE4.1) */
  guint32 most = pl->most;
  SmVec most_step = most * step;
  for (guint32 i = 0; i < n_sms; i++)
    {
      EngSm *sm = &sms[ENG_PLACED_SM (placed[i])];
      guint32 n = ENG_PLACED_COUNT (placed[i]);
      g_assert (sm->blocks >= n);
      sm_store (sm, sm_load (sm) - (n == most ? most_step : n * step));
    }
}

/* ---- Placements ---- */

static EngPlacement *
placement_new (EngSim *sim)
{
  EngPlacement *pl = sim->free_placements;
  gsize words = sim->sm_words;
  if (pl != NULL)
    sim->free_placements = pl->next_free;
  else
    {
      /* every placement can hold every SM, so that they can be recycled */
      pl = g_malloc (sizeof (EngPlacement) + words * sizeof (guint64)
                     + sim->profile.sm_count * sizeof (guint32));
      pl->sms = (guint32 *) (pl->most_mask + words);
    }
  pl->blocks = pl->n_sms = pl->most = 0;
  memset (pl->most_mask, 0, words * sizeof (guint64));
  return pl;
}

void
eng_sm_placement_free (EngSim *sim, EngPlacement *pl)
{
  pl->next_free = sim->free_placements;
  sim->free_placements = pl;
}

void
eng_sm_free (EngSim *sim)
{
  while (sim->free_placements != NULL)
    {
      EngPlacement *pl = sim->free_placements;
      sim->free_placements = pl->next_free;
      g_free (pl);
    }
}

/* ---- The block scheduler ---- */

/* The SMs a placement looks at are listed by index: every SM (position i
 * is SM i), or the SMs of `cands`. The scan order, from sm_next, is the
 * positions from `wrap` (the first SM at or after sm_next) to the end, then
 * those before `wrap`; working by position in index order means that nothing
 * is copied or reordered, and the placement comes out by SM index as it is
 * recorded. */
static inline guint
sm_at (const guint32 *cands, guint32 i)
{
  return cands != NULL ? ENG_PLACED_SM (cands[i]) : i;
}

/* Records count[i] blocks on the SM at position i, takes them from the SMs,
 * and moves sm_next past `last`, the SM that got the last block. */
static EngPlacement *
placement_fill (EngSim *sim, const EngBlockFootprint *need, const guint32 *cands,
                const guint32 *count, guint32 m, guint32 most, guint last)
{
  SmVec step = sm_step (need);
  SmVec most_step = most * step; /* most SMs get `most` blocks: see eng_sm_give_back */
  EngPlacement *pl = placement_new (sim);
  EngSm *sms = sim->sms;
  guint32 n_sms = 0, blocks = 0;
  pl->most = most;
  for (guint32 i = 0; i < m; i++)
    {
      guint32 c = count[i];
      if (c == 0)
        continue;
      guint s = sm_at (cands, i);
      pl->sms[n_sms++] = ENG_PLACED (s, c);
      blocks += c;
      if (c == most)
        {
          pl->most_mask[s / 64] |= (guint64) 1 << (s % 64);
          sm_store (&sms[s], sm_load (&sms[s]) + most_step);
        }
      else
        sm_add (&sms[s], step, c);
    }
  pl->n_sms = n_sms;
  pl->blocks = blocks;
  sim->sm_next = last + 1 < sim->profile.sm_count ? last + 1 : 0;
  return pl;
}

/* The block scheduler as first written, one block at a time (commit
 * 579d2f1's place_blocks): each block goes to the next SM from sm_next with
 * room, until `want` are placed or a whole turn of SMs has none. The
 * reference that eng_sm_place() must equal; used in reference mode
 * (eng_sim_set_reference) and by tests/test_sm.c. */
static EngPlacement *
place_blocks (EngSim *sim, const EngBlockFootprint *need, guint32 want)
{
  const EngProfile *p = &sim->profile;
  guint n_sms = p->sm_count;
  guint32 *placed = sim->sm_room; /* blocks per SM index */
  memset (placed, 0, n_sms * sizeof (guint32));
  guint64 most_blocks = p->max_blocks_per_sm - 1;
  guint64 most_threads = p->max_threads_per_sm - need->threads;
  guint64 most_smem = p->smem_per_sm - need->smem;
  guint64 most_regs = p->regs_per_sm - need->regs;
  guint32 done = 0;
  guint misses = 0; /* SMs in a row that had no room */
  guint sm = sim->sm_next;
  while (done < want && misses < n_sms)
    {
      EngSm *x = &sim->sms[sm];
      if (x->blocks <= most_blocks && x->threads <= most_threads && x->smem <= most_smem
          && x->regs <= most_regs)
        {
          sm_add (x, sm_step (need), 1);
          placed[sm]++;
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
  EngPlacement *pl = placement_new (sim);
  for (guint s = 0; s < n_sms; s++)
    pl->most = MAX (pl->most, placed[s]);
  for (guint s = 0; s < n_sms; s++)
    if (placed[s] > 0)
      {
        pl->sms[pl->n_sms++] = ENG_PLACED (s, placed[s]);
        pl->blocks += placed[s];
        if (placed[s] == pl->most)
          pl->most_mask[s / 64] |= (guint64) 1 << (s % 64);
      }
  return pl;
}

/* eng_sm_place() for the m SMs of `cands`, or all m SMs when NULL. Always
 * inlined, so that each of the two calls below is compiled for its own case
 * and the loops over the SMs test nothing about `cands`. */
static G_ALWAYS_INLINE inline EngPlacement *
place (EngSim *sim, const EngBlockFootprint *need, guint32 want, const guint32 *cands,
       guint32 m)
{
  const EngProfile *p = &sim->profile;
  const EngBlockFootprint nd = *need;
  const EngSm *sms = sim->sms;
  guint start = sim->sm_next;
  guint32 wrap = start;
  if (cands != NULL)
    for (wrap = 0; wrap < m && ENG_PLACED_SM (cands[wrap]) < start; wrap++)
      ;
  guint32 *count = sim->sm_room; /* by position: room, then blocks placed */

  SmVec most_use = sm_most (p, &nd);
  guint32 fitting = 0, total = 0, most = 0;
  guint last_lo = 0, last_hi = 0; /* the last SM with `most` room before, from wrap */
  gboolean have_lo = FALSE;
  if (want > m)
    {
      /* More blocks than SMs to look at: turn 1 cannot place them all, so
       * the rooms are needed; compute them in the same pass. SMs side by
       * side often hold the same (the blocks of one group, given back
       * together), and an SM in the same state as the one before has the
       * same room: one compare instead of the fit test and three divisions.
       * (No SM uses 2^32 - 1 threads, so the first never matches.) */
      SmVec prev_use = { G_MAXUINT32, G_MAXUINT32, G_MAXUINT32, G_MAXUINT32 };
      guint32 prev_room = 0;
      for (guint32 i = 0; i < m; i++)
        {
          guint s = sm_at (cands, i);
          SmVec use = sm_load (&sms[s]);
          guint32 r;
          if (sm_same (use, prev_use))
            r = prev_room;
          else
            {
              r = sm_fits (use, most_use) ? sm_room (p, &sms[s], &nd) : 0;
              prev_use = use;
              prev_room = r;
            }
          if (r > 0)
            {
              fitting++;
              total += r; /* no overflow: an SM holds fewer than 256 blocks */
              if (r > most)
                {
                  most = r;
                  have_lo = FALSE;
                }
              if (r == most)
                {
                  if (i < wrap)
                    {
                      last_lo = s;
                      have_lo = TRUE;
                    }
                  else
                    last_hi = s;
                }
            }
          count[i] = r;
        }
      if (fitting == 0)
        return NULL;
    }
  else
    {
      for (guint32 i = 0; i < m; i++)
        {
          const EngSm *sm = &sms[sm_at (cands, i)];
          guint32 r = sm_fits (sm_load (sm), most_use);
          count[i] = r;
          fitting += r;
        }
      if (fitting == 0)
        return NULL;

      /* Few blocks wanted: turn 1 places them all, one on each of the first
       * `want` SMs (in scan order) where a block fits; no room needs
       * computing. */
      if (want <= fitting)
        {
          guint last = 0;
          for (guint32 j = 0; j < m; j++)
            {
              guint32 i = wrap + j < m ? wrap + j : wrap + j - m;
              if (count[i] != 0)
                {
                  if (want == 0)
                    count[i] = 0;
                  else
                    {
                      want--;
                      last = sm_at (cands, i);
                    }
                }
            }
          return placement_fill (sim, need, cands, count, m, 1, last);
        }
      for (guint32 i = 0; i < m; i++)
        if (count[i] != 0)
          {
            guint s = sm_at (cands, i);
            guint32 r = sm_room (p, &sms[s], &nd);
            count[i] = r;
            total += r;
            if (r > most)
              {
                most = r;
                have_lo = FALSE;
              }
            if (r == most)
              {
                if (i < wrap)
                  {
                    last_lo = s;
                    have_lo = TRUE;
                  }
                else
                  last_hi = s;
              }
          }
    }

  if (want >= total)
    {
      /* every SM filled; turn `most` places the last block, on the last SM
       * (in scan order) with that much room: the highest such SM before
       * sm_next, else the highest from it */
      return placement_fill (sim, need, cands, count, m, most, have_lo ? last_lo : last_hi);
    }

  /* at_least[j]: SMs with room for j blocks or more, i.e. the blocks turn j
   * places; turn k places the want-th, on the extra-th SM with room >= k. */
  guint32 *at_least = sim->sm_hist;
  memset (at_least, 0, (most + 2) * sizeof (guint32));
  for (guint32 i = 0; i < m; i++)
    at_least[count[i]]++;
  for (guint32 j = most; j-- > 1;)
    at_least[j] += at_least[j + 1];
  guint32 placed = 0, k;
  for (k = 1; placed + at_least[k] < want; k++)
    placed += at_least[k];
  guint32 extra = want - placed;
  guint last = 0;
  most = 0;
  for (guint32 j = 0; j < m; j++)
    {
      guint32 i = wrap + j < m ? wrap + j : wrap + j - m;
      gboolean one_more = count[i] >= k && extra > 0;
      count[i] = MIN (count[i], k - 1) + one_more;
      most = MAX (most, count[i]);
      if (one_more)
        {
          extra--;
          last = sm_at (cands, i);
        }
    }
  return placement_fill (sim, need, cands, count, m, most, last);
}

EngPlacement *
eng_sm_place (EngSim *sim, const EngBlockFootprint *need, guint32 want,
              const EngPlacement *cands)
{
  if (want == 0)
    return NULL;
  if (sim->reference)
    return place_blocks (sim, need, want);
  if (cands != NULL)
    return place (sim, need, want, cands->sms, cands->n_sms);
  return place (sim, need, want, NULL, sim->profile.sm_count);
}
