/* eng_sm.c: what each SM holds, and the block scheduler's breadth-first round robin, computed a dispatch at a time over runs of SMs in the same state.
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
 * And not even per SM, but per run of neighbouring SMs in the same state.
 * The blocks of a dispatch end together and leave together, so SMs side by
 * side usually hold the same: measured on the benchmark, a placement looks
 * at 9.8 SMs in 2.8 such runs on the K20 (13 SMs), at 85 SMs in 4.3 runs on
 * the H200 (132 SMs). Equal SMs have equal room and, in the rule above, get
 * equal counts, except where the scan's turn ends among them; so rooms, the
 * turn and the counts are worked out per run ("piece"), and a placement is
 * recorded as segments of neighbouring SMs with one count. The SMs' state
 * is itself kept per run (below), so nothing is done per SM: pieces are the
 * runs, read from a bit array, cut at sm_next and at the ends of the SMs
 * looked at; taking and giving back blocks change a segment's runs.
 *
 * History: until the fourth round the state was one vector per SM, runs
 * were found by comparing each SM with the one before, and segments were
 * taken four SMs at a time under a lane mask. A bit per SM, "holds the same
 * as the next", kept beside that per-SM state, was rejected then: it cost
 * two compares per segment at every take and give back, more than the
 * compares it saved on the K20; keeping the state only per run drops the
 * per-SM stores as well (PERFORMANCE.md, fourth round).
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
 * of four. GCC and clang vector extensions (SSE2 on x86-64, plain code
 * elsewhere). No lane overflows: an SM's use stays within its limits, which
 * are below 2^32 (smem_per_sm <= 1 MiB). */
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


/* ---- The SMs' state, per run ----
 *
 * Neighbouring SMs usually hold the same (the table at the top), so the
 * state is kept per run: bit s of `sm_starts` says that SM s begins a run
 * (it differs from SM s - 1; bit 0 always set), and sms[s] is valid only
 * where that bit is set. Runs are maximal: no two neighbouring runs hold
 * the same. Taking or giving back blocks on a range of SMs cuts the runs at
 * its two ends, changes the runs inside (one, nearly always) and joins the
 * ends again where they now equal their neighbours: adding the same to two
 * runs that differ keeps them different, so the runs inside stay maximal.
 * This makes a placement and a give-back cost per segment, not per SM: on
 * the H200's 132 SMs that was most of the simulation. The bit array has a
 * word more than the SMs need and sms[] one spare SM, so that the end of a
 * range at the last SM needs no branch: bit sm_count is never set. */

/* The functions below take the bits as `bits` and a constant `one`: TRUE
 * when all of them, bit sm_count included, lie in bits[0] (fewer than 64
 * SMs). Then every access is to bits[0], and a caller that copies the word
 * into a local keeps it in a register for a whole placement or give-back.
 * Through memory, every bit store and the next lookup form one chain of
 * store and load after another: with it the K20's simulation was 5 to 7%
 * slower with one stream, 0 to 7% on the default workload (A/B). */

static inline gboolean
bit_get (const guint64 *bits, guint s, gboolean one)
{
  return (bits[one ? 0 : s / 64] >> (s % 64)) & 1;
}

/* Sets bit s to `on` (0 or 1). */
static inline void
bit_put (guint64 *bits, guint s, guint64 on, gboolean one)
{
  guint w = one ? 0 : s / 64;
  guint64 m = (guint64) 1 << (s % 64);
  bits[w] = (bits[w] & ~m) | (-on & m);
}

/* The first SM of the run that holds SM s. */
static inline guint
run_of (const guint64 *bits, guint s, gboolean one)
{
  guint w = one ? 0 : s / 64;
  guint64 b = bits[w] & ((((guint64) 2) << (s % 64)) - 1);
  if (!one)
    while (b == 0) /* bit 0 is set: ends */
      b = bits[--w];
  return w * 64 + 63 - (guint) __builtin_clzll (b);
}

/* The first SM from s on, below b, that begins a run; b if none. */
static inline guint
next_start (const guint64 *bits, guint s, guint b, gboolean one)
{
  guint w = one ? 0 : s / 64;
  guint64 m = bits[w] & (~(guint64) 0 << (s % 64)); /* one: s < 64 */
  if (!one)
    while (m == 0 && ++w * 64 < b)
      m = bits[w];
  return m != 0 ? MIN (w * 64 + (guint) __builtin_ctzll (m), b) : b;
}

/* What SM s holds. */
static inline SmVec
sm_get (const EngSim *sim, const guint64 *bits, guint s, gboolean one)
{
  return sm_load (&sim->sms[run_of (bits, s, one)]);
}

static inline SmVec
vec_select (gboolean c, SmVec a, SmVec b)
{
  SmVec m = (SmVec) { 0, 0, 0, 0 } - (SmVec) { c, c, c, c };
  return (a & m) | (b & ~m);
}

/* SMs first .. e - 1, which all hold `old` (they lie in one run), now hold
 * `now` (which differs from `old`). No branch: the two cuts and joins are
 * selects and bit stores. */
static inline void
runs_take (EngSim *sim, guint64 *bits, guint first, guint e, SmVec old, SmVec now,
           gboolean one)
{
  guint n = sim->profile.sm_count;
  EngSm *sms = sim->sms;
  /* the cut at e: SM e keeps what it holds; the bit stays off past the end */
  SmVec at_e = vec_select (bit_get (bits, e, one), sm_load (&sms[e]), old);
  sm_store (&sms[e], at_e);
  bit_put (bits, e, (e < n) & !sm_same (at_e, now), one);
  /* the cut at first, unless the run before holds `now` too */
  SmVec before = sm_get (sim, bits, first - (first > 0), one); /* first = 0: unused */
  sm_store (&sms[first], now);
  bit_put (bits, first, (first == 0) | !sm_same (before, now), one);
}

/* Adds d (lane-wise, modulo 2^32: a give-back adds minus the blocks' use) to
 * SMs a .. e - 1, which may lie in several runs (nearly always one). Two
 * lookups of a run's first SM, for SMs a - 1 and e - 1; the rest follows
 * from the bits at a and e. */
static inline void
runs_add (EngSim *sim, guint64 *bits, guint a, guint e, SmVec d, gboolean one)
{
  guint n = sim->profile.sm_count;
  EngSm *sms = sim->sms;
  guint r_before = run_of (bits, a - (a > 0), one); /* SM a - 1's run (a = 0: unused) */
  guint r_last = run_of (bits, e - 1, one);         /* SM e - 1's run */
  /* cut at e and at a: each holds what its run holds */
  SmVec at_e = sm_load (&sms[bit_get (bits, e, one) ? e : r_last]); /* e = n: the spare SM */
  sm_store (&sms[e], at_e);
  sm_store (&sms[a], sm_load (&sms[bit_get (bits, a, one) ? a : r_before]));
  /* every run from a to e - 1, a's included (its bit is set below) */
  guint wa = one ? 0 : a / 64, wl = one ? 0 : (e - 1) / 64;
  guint64 lo = ~(guint64) 0 << (a % 64), hi = (((guint64) 2) << ((e - 1) % 64)) - 1;
  for (guint w = wa; w <= wl; w++)
    for (guint64 b = (bits[w] | (w == wa ? (guint64) 1 << (a % 64) : 0))
                     & (w == wa ? lo : ~(guint64) 0) & (w == wl ? hi : ~(guint64) 0);
         b != 0; b &= b - 1)
      {
        EngSm *sm = &sms[w * 64 + (guint) __builtin_ctzll (b)];
        sm_store (sm, sm_load (sm) + d);
      }
  /* join again where the ends now equal their neighbours: SM e - 1 is in
   * the run from a or from r_last, whichever is later */
  SmVec now_a = sm_load (&sms[a]);
  g_assert (now_a[1] <= sim->profile.max_blocks_per_sm); /* no more given back than held */
  bit_put (bits, e, (e < n) & !sm_same (at_e, sm_load (&sms[MAX (a, r_last)])), one);
  bit_put (bits, a, (a == 0) | !sm_same (sm_load (&sms[r_before]), now_a), one);
}

void
eng_sm_load (EngSim *sim, const EngSm *per_sm)
{
  guint n = sim->profile.sm_count;
  memset (sim->sm_starts, 0, (sim->sm_words + 1) * sizeof (guint64));
  for (guint s = 0; s < n; s++)
    if (s == 0 || !sm_same (sm_load (&per_sm[s]), sm_load (&per_sm[s - 1])))
      {
        bit_put (sim->sm_starts, s, 1, FALSE);
        sim->sms[s] = per_sm[s];
      }
}

void
eng_sm_read (const EngSim *sim, EngSm *per_sm)
{
  for (guint s = 0; s < sim->profile.sm_count; s++)
    sm_store (&per_sm[s], sm_get (sim, sim->sm_starts, s, FALSE));
}

void
eng_sm_init (EngSim *sim)
{
  const EngProfile *p = &sim->profile;
  sim->sms = g_new0 (EngSm, p->sm_count + 1);
  sim->sm_words = (p->sm_count + 63) / 64;
  /* every SM empty: one run */
  sim->sm_starts = g_new0 (guint64, sim->sm_words + 1);
  sim->sm_starts[0] = 1;
  sim->sm_pieces = g_new0 (EngSeg, p->sm_count);
  sim->sm_piece_use = g_new0 (EngSm, p->sm_count);
  sim->sm_room = g_new0 (guint32, p->sm_count);
  sim->sm_order = g_new0 (guint32, p->sm_count);
  sim->sm_hist = g_new0 (guint32, p->max_blocks_per_sm + 2);
}

static inline void
give_back (EngSim *sim, guint64 *bits, const EngPlacement *pl, const EngBlockFootprint *need,
           gboolean one)
{
  SmVec step = sm_step (need);
  for (guint32 i = 0; i < pl->n_segs; i++)
    {
      const EngSeg *g = &pl->segs[i];
      runs_add (sim, bits, g->start, g->start + g->len, -(g->count * step), one);
    }
}

void
eng_sm_give_back (EngSim *sim, const EngPlacement *pl, const EngBlockFootprint *need)
{
  if (sim->profile.sm_count < 64)
    {
      guint64 bits = sim->sm_starts[0]; /* in a register: see `one` above */
      give_back (sim, &bits, pl, need, TRUE);
      sim->sm_starts[0] = bits;
    }
  else
    give_back (sim, sim->sm_starts, pl, need, FALSE);
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
      /* every placement can hold a segment per SM, so that they can be recycled */
      pl = g_malloc (sizeof (EngPlacement) + words * sizeof (guint64)
                     + sim->profile.sm_count * sizeof (EngSeg));
      pl->segs = (EngSeg *) (pl->most_mask + words);
    }
  pl->blocks = pl->n_segs = pl->most = 0;
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
  g_free (sim->sms);
  g_free (sim->sm_starts);
  g_free (sim->sm_pieces);
  g_free (sim->sm_piece_use);
  g_free (sim->sm_room);
  g_free (sim->sm_hist);
  g_free (sim->sm_order);
}

/* Sets the bits of SMs start .. start + len - 1 in a mask. */
static void
mask_set_range (guint64 *mask, guint start, guint len)
{
  while (len > 0)
    {
      guint b = start % 64, n = MIN (len, 64 - b);
      mask[start / 64] |= (n == 64 ? ~(guint64) 0 : (((guint64) 1 << n) - 1)) << b;
      start += n;
      len -= n;
    }
}

/* ---- The block scheduler ---- */

/* The block scheduler as first written, one block at a time (commit
 * 579d2f1's place_blocks): each block goes to the next SM from sm_next with
 * room, until `want` are placed or a whole turn of SMs has none. The
 * reference that eng_sm_place() must equal; used in reference mode
 * (eng_sim_set_reference) and by tests/test_sm.c. Its placement has a
 * segment per SM. */
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
      EngSm x;
      sm_store (&x, sm_get (sim, sim->sm_starts, sm, FALSE));
      if (x.blocks <= most_blocks && x.threads <= most_threads && x.smem <= most_smem
          && x.regs <= most_regs)
        {
          runs_add (sim, sim->sm_starts, sm, sm + 1, sm_step (need), FALSE);
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
        pl->segs[pl->n_segs++] = (EngSeg) { (guint16) s, 1, (guint16) placed[s] };
        pl->blocks += placed[s];
        if (placed[s] == pl->most)
          pl->most_mask[s / 64] |= (guint64) 1 << (s % 64);
      }
  return pl;
}

/* The next range of SMs to look at: all of them, or the next candidate
 * segments that lie side by side. FALSE when there is none left. */
static inline gboolean
next_range (const EngSim *sim, const EngPlacement *cands, guint32 *ci, guint *a, guint *b)
{
  if (cands == NULL)
    {
      if (*ci > 0)
        return FALSE;
      *ci = 1;
      *a = 0;
      *b = sim->profile.sm_count;
      return TRUE;
    }
  guint32 i = *ci;
  if (i >= cands->n_segs)
    return FALSE;
  *a = cands->segs[i].start;
  *b = *a + cands->segs[i].len;
  for (i++; i < cands->n_segs && cands->segs[i].start == *b; i++)
    *b += cands->segs[i].len;
  *ci = i;
  return TRUE;
}

/* Records `count` blocks on each of `len` SMs from `first`, which hold
 * `state` (in one run), and takes them. */
static inline void
emit (EngPlacement *pl, EngSim *sim, guint64 *bits, SmVec state, SmVec step, guint first,
      guint len, guint32 count, gboolean one)
{
  pl->segs[pl->n_segs++] = (EngSeg) { (guint16) first, (guint16) len, (guint16) count };
  pl->blocks += count * len;
  runs_take (sim, bits, first, first + len, state, state + count * step, one);
}

/* eng_sm_place(): the SMs looked at as pieces (runs in one state, cut at
 * sm_next so that each lies wholly before or from it: the scan order is the
 * pieces from sm_next on, then those before), their rooms, the counts by the
 * rule at the top of this file, then the taking. */
static inline EngPlacement *
place (EngSim *sim, guint64 *bits, const EngBlockFootprint *need, guint32 want,
       const EngPlacement *cands, gboolean one)
{
  const EngProfile *p = &sim->profile;
  const EngBlockFootprint nd = *need;
  EngSm *sms = sim->sms;
  guint start = sim->sm_next;
  EngSeg *pc = sim->sm_pieces; /* .count: the piece's room */
  EngSm *pc_use = sim->sm_piece_use; /* what each piece holds */
  SmVec most_use = sm_most (p, &nd);
  SmVec prev_use = { G_MAXUINT32, G_MAXUINT32, G_MAXUINT32, G_MAXUINT32 };
  guint32 prev_room = 0, fitting = 0, total = 0, most = 0, np = 0, wrap = G_MAXUINT32;
  guint last_lo = 0, last_hi = 0; /* the last SM with `most` room before sm_next, from it */
  gboolean have_lo = FALSE;
  guint32 ci = 0;
  guint a, b;
  while (next_range (sim, cands, &ci, &a, &b))
    {
      /* the pieces from a to b: each ends where the next run begins, at
       * sm_next, or at b */
      SmVec use = sm_get (sim, bits, a, one); /* what the run holding SM a holds */
      for (guint t; a < b; a = t)
        {
          t = next_start (bits, a + 1, b, one);
          t = a < start && start < t ? start : t;
          use = vec_select (bit_get (bits, a, one), sm_load (&sms[a]), use);
          if (!sm_same (use, prev_use))
            {
              /* neighbouring pieces (cut at sm_next or between
               * candidates) often hold the same: the room is the same */
              EngSm sm;
              sm_store (&sm, use);
              prev_use = use;
              prev_room = sm_fits (use, most_use) ? sm_room (p, &sm, &nd) : 0;
            }
          guint32 r = prev_room;
          if (wrap == G_MAXUINT32 && a >= start)
            wrap = np;
          sm_store (&pc_use[np], use);
          pc[np++] = (EngSeg) { (guint16) a, (guint16) (t - a), (guint16) r };
          if (r > 0)
            {
              fitting += t - a;
              total += r * (t - a); /* < 256 x 1024 */
              if (r > most)
                {
                  most = r;
                  have_lo = FALSE;
                }
              if (r == most)
                {
                  if (a < start)
                    {
                      last_lo = t - 1;
                      have_lo = TRUE;
                    }
                  else
                    last_hi = t - 1;
                }
            }
        }
    }
  if (fitting == 0)
    return NULL;
  if (wrap == G_MAXUINT32)
    wrap = np;

  EngPlacement *pl = placement_new (sim);
  SmVec step = sm_step (&nd);
  guint last;
  if (want >= total)
    {
      /* every SM filled; turn `most` places the last block, on the last SM
       * (in scan order) with that much room: the highest such SM before
       * sm_next, else the highest from it */
      for (guint32 i = 0; i < np; i++)
        if (pc[i].count > 0)
          {
            emit (pl, sim, bits, sm_load (&pc_use[i]), step, pc[i].start, pc[i].len,
                  pc[i].count, one);
            if (pc[i].count == most)
              mask_set_range (pl->most_mask, pc[i].start, pc[i].len);
          }
      pl->most = most;
      last = have_lo ? last_lo : last_hi;
    }
  else
    {
      /* Each piece gets min(room, k - 1) blocks and one more on its first
       * extra_of[i] SMs. Turn k places the want-th block, on the extra-th
       * SM (in scan order) with room >= k; at_least[j]: SMs with room for j
       * blocks or more, i.e. the blocks turn j places. With few blocks
       * wanted (no more than the SMs that fit one), turn 1 places them all. */
      guint32 placed = 0, k = 1;
      if (want > fitting)
        {
          guint32 *at_least = sim->sm_hist;
          memset (at_least, 0, (most + 2) * sizeof (guint32));
          for (guint32 i = 0; i < np; i++)
            at_least[pc[i].count] += pc[i].len;
          for (guint32 j = most; j-- > 1;)
            at_least[j] += at_least[j + 1];
          for (; placed + at_least[k] < want; k++)
            placed += at_least[k];
        }
      guint32 extra = want - placed;
      guint32 *extra_of = sim->sm_room;
      last = 0;
      for (guint32 j = 0; j < np; j++)
        {
          guint32 i = wrap + j < np ? wrap + j : wrap + j - np;
          guint32 x = 0;
          if (pc[i].count >= k && extra > 0)
            {
              x = MIN (pc[i].len, extra);
              extra -= x;
              last = pc[i].start + x - 1u;
            }
          extra_of[i] = x;
        }
      for (guint32 i = 0; i < np; i++)
        {
          guint32 base = MIN ((guint32) pc[i].count, k - 1), x = extra_of[i];
          if (x == 0 && base == 0)
            continue;
          SmVec state = sm_load (&pc_use[i]);
          if (x > 0)
            emit (pl, sim, bits, state, step, pc[i].start, x, base + 1, one);
          if (base > 0 && x < pc[i].len)
            emit (pl, sim, bits, state, step, pc[i].start + x, pc[i].len - x, base, one);
          pl->most = MAX (pl->most, base + (x > 0));
        }
      for (guint32 i = 0; i < pl->n_segs; i++)
        if (pl->segs[i].count == pl->most)
          mask_set_range (pl->most_mask, pl->segs[i].start, pl->segs[i].len);
    }
  sim->sm_next = last + 1 < p->sm_count ? last + 1 : 0;
  return pl;
}

/* place() for fewer than 64 SMs, their bits in a register, and for more */
static G_GNUC_NO_INLINE EngPlacement *
place_one_word (EngSim *sim, const EngBlockFootprint *need, guint32 want,
                const EngPlacement *cands)
{
  guint64 bits = sim->sm_starts[0];
  EngPlacement *pl = place (sim, &bits, need, want, cands, TRUE);
  sim->sm_starts[0] = bits;
  return pl;
}

static G_GNUC_NO_INLINE EngPlacement *
place_words (EngSim *sim, const EngBlockFootprint *need, guint32 want,
             const EngPlacement *cands)
{
  return place (sim, sim->sm_starts, need, want, cands, FALSE);
}

EngPlacement *
eng_sm_place (EngSim *sim, const EngBlockFootprint *need, guint32 want,
              const EngPlacement *cands)
{
  if (want == 0)
    return NULL;
  if (sim->reference)
    return place_blocks (sim, need, want);
  if (sim->profile.sm_count < 64)
    return place_one_word (sim, need, want, cands);
  return place_words (sim, need, want, cands);
}
