/* eng_sm.c: what each SM holds, and the block scheduler's breadth-first round robin, computed a dispatch at a time over all SMs at once.
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
 * Every step of that rule is the same arithmetic on every SM, so the SMs are
 * kept as a structure of arrays, one array of 32-bit lanes per resource
 * (threads, blocks, shared memory, registers: ENG_SM_*), and each step runs
 * over the SMs four lanes (a "chunk") at a time with no branch per SM: the
 * rooms (three quotients), their sum and largest, the turn k (a
 * binary search on sums), the counts, and adding them to the SMs.
 *
 * The lanes hold single-precision floats, although every value is a whole
 * number: x86's baseline (SSE2) has no vector division, 32-bit
 * multiplication, minimum or maximum of integers, and converting to floats
 * and back for each of them costs more than the arithmetic. Every value is
 * exact: use, limits, rooms and counts are whole numbers of at most 2^20
 * (profile_keys.c's ranges), sums of rooms at most 1024 SMs x 64 blocks, all
 * below 2^24, where floats hold every whole number and add, subtract and
 * multiply them exactly; the rooms' quotients are exact after truncation
 * (lanes_quotient).
 *
 * Which SMs get the extra block is a bit mask, cut to its first bits in
 * scan order. A placement is one count per SM, plus the list of chunks
 * where it has blocks, so that giving it back visits only those. And a
 * placement can be limited to the chunks of another (`within`): the caller
 * knows that no other SM has room for this kernel (eng_kernel.c keeps that
 * fact while a kernel stays first in the dispatch list), so only the SMs a
 * group of blocks just left are worth looking at. On the H200's 132 SMs
 * (33 chunks) a group's end looks at about a third of them that way.
 *
 * Rejected: runs of neighbouring SMs in one state (a bit per SM where a run
 * begins), placements as segments of SMs with one count. The work is per
 * run instead of per SM, but every step is a loop over runs whose length
 * depends on the data, and the mispredicted exits of those loops cost more
 * than doing every SM of the K20 (13 SMs: four chunks) without a branch: the
 * simulation ran 15 to 20% slower. Wider vectors (eight lanes, or an AVX2
 * copy of these functions chosen at run time) gave nothing or less: GCC
 * lowers generic 8-lane vectors to SSE2 through the stack.
 *
 * eng_sm_place_one_by_one is the same placement in plain C, a block at a
 * time; tests/test_sm.c checks the two agree.
 *
 * These are one speed trick, kept as a whole: against plain loops over the
 * SMs' lanes, masks scanned word by word, placements from g_malloc0 and
 * every SM looked at each time, they make streamsim-bench at 10^6 ops about
 * 12% faster end to end (median of nine alternating pairs on a 2-core
 * machine; 11.6% fewer instructions at 10^5 ops) and `advise` about half
 * again as many candidates a second. Each part alone gained under 5%, the
 * others covering for it. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "eng_sm.h"

/* Resources, in the order of their arrays in sms->use. */
enum
{
  ENG_SM_THREADS,
  ENG_SM_BLOCKS,
  ENG_SM_SMEM,
  ENG_SM_REGS,
  ENG_SM_RESOURCES
};

/* Four SMs' values of one resource: GCC and clang vector extensions, one
 * SSE2 register on x86-64 (wider vectors were tried: GCC lowers them to
 * SSE2 through the stack), plain code elsewhere. `Lanes` holds whole
 * numbers as floats (see above); `Mask` is what comparing two of them
 * gives, -1 in a lane where it holds and 0 where not. */
#define LANES ENG_SM_LANES
typedef float Lanes __attribute__ ((vector_size (LANES * sizeof (float))));
typedef gint32 Mask __attribute__ ((vector_size (LANES * sizeof (gint32))));
G_STATIC_ASSERT (LANES == 4); /* lanes_splat and lanes_from_bits spell out four lanes */

static inline Lanes
lanes_load (const float *p)
{
  Lanes v;
  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
lanes_store (float *p, Lanes v)
{
  memcpy (p, &v, sizeof v);
}

static inline Lanes
lanes_splat (float x)
{
  return (Lanes) { x, x, x, x };
}

static inline Lanes
lanes_min (Lanes a, Lanes b)
{
#if defined(__SSE2__)
  return _mm_min_ps (a, b);
#else
  Lanes m;
  for (guint i = 0; i < LANES; i++)
    m[i] = MIN (a[i], b[i]);
  return m;
#endif
}

static inline Lanes
lanes_max (Lanes a, Lanes b)
{
#if defined(__SSE2__)
  return _mm_max_ps (a, b);
#else
  Lanes m;
  for (guint i = 0; i < LANES; i++)
    m[i] = MAX (a[i], b[i]);
  return m;
#endif
}

/* Drops the fraction: a conversion to integers and back (SSE2 has no
 * rounding of floats to whole floats). */
static inline Lanes
lanes_trunc (Lanes v)
{
  return __builtin_convertvector (__builtin_convertvector (v, Mask), Lanes);
}

/* floor(a / b) for whole 0 <= a < 2^22 and b >= 1, before truncation,
 * from `half` = a + 1/2 and b as floats: half / b.
 *
 * Why it truncates to floor(a / b): write a = n b + r, 0 <= r < b. Then
 * half / b = n + (r + 1/2) / b lies at least 1/(2b) inside (n, n + 1), and
 * the division, correctly rounded, errs by at most 2^-24 relatively: less
 * than 1/(2b) whenever a + 1/2 < 2^22. So it stays inside (n, n + 1) and
 * truncates to n. Every a here is at most 2^20 (profile_keys.c's ranges),
 * and a + 1/2 is exact in a float below 2^23. Truncation is monotonic, so
 * the least of several such quotients, truncated once, is the least of
 * their floors.
 * Option: a multiplication by 1 / b, exact by the same argument with a
 * little less room; measured no faster end to end (streamsim-bench). */
static inline Lanes
lanes_quotient (Lanes half, Lanes b)
{
  return half / b;
}

static inline guint32
lanes_sum (Lanes v)
{
  float s = 0;
  for (guint i = 0; i < LANES; i++)
    s += v[i];
  return (guint32) s;
}

static inline guint32
lanes_largest (Lanes v)
{
  float m = v[0];
  for (guint i = 1; i < LANES; i++)
    m = MAX (m, v[i]);
  return (guint32) m;
}

/* A bit per lane of a comparison's result. */
static inline guint32
lanes_bits (Mask m)
{
#if defined(__SSE2__)
  __m128 v;
  memcpy (&v, &m, sizeof v);
  return (guint32) _mm_movemask_ps (v);
#else
  guint32 bits = 0;
  for (guint i = 0; i < LANES; i++)
    bits |= (guint32) (m[i] & 1) << i;
  return bits;
#endif
}

/* Lanes 1 where bit i of `bits` (LANES bits) is set, else 0. */
static inline Lanes
lanes_from_bits (guint32 bits)
{
  const Mask bit = { 1, 2, 4, 8 };
  Mask set = (((Mask) { 0 } + (gint32) bits) & bit) != 0; /* -1 or 0 */
  return __builtin_convertvector (-set, Lanes);
}

/* ---- The SMs ---- */

static inline float *
use_of (const EngSms *sms, guint resource)
{
  return sms->use + (gsize) resource * sms->pad;
}

void
eng_sm_init (EngSms *sms, const GpuProfile *p)
{
  memset (sms, 0, sizeof *sms);
  sms->profile = p;
  sms->sm_count = p->sm_count;
  sms->pad = (p->sm_count + LANES - 1) / LANES * LANES;
  sms->words = (p->sm_count + 63) / 64;
  sms->use = g_new0 (float, ENG_SM_RESOURCES * sms->pad);
  /* the lanes past the last SM hold every block slot: no room, ever */
  for (guint s = p->sm_count; s < sms->pad; s++)
    use_of (sms, ENG_SM_BLOCKS)[s] = (float) p->max_blocks_per_sm;
  sms->room = g_new0 (float, sms->pad);
  sms->chunks = g_new (guint16, sms->pad / LANES);
  for (guint i = 0; i < sms->pad / LANES; i++)
    sms->chunks[i] = (guint16) (i * LANES);
  sms->mask = g_new0 (guint64, sms->words);
  sms->order = g_new0 (guint32, p->sm_count);
}

void
eng_sm_load (EngSms *sms, const EngSm *per_sm)
{
  for (guint s = 0; s < sms->profile->sm_count; s++)
    {
      use_of (sms, ENG_SM_THREADS)[s] = (float) per_sm[s].threads;
      use_of (sms, ENG_SM_BLOCKS)[s] = (float) per_sm[s].blocks;
      use_of (sms, ENG_SM_SMEM)[s] = (float) per_sm[s].smem;
      use_of (sms, ENG_SM_REGS)[s] = (float) per_sm[s].regs;
    }
}

void
eng_sm_read (const EngSms *sms, EngSm *per_sm)
{
  for (guint s = 0; s < sms->profile->sm_count; s++)
    per_sm[s] = (EngSm) { (guint32) use_of (sms, ENG_SM_THREADS)[s],
                          (guint32) use_of (sms, ENG_SM_BLOCKS)[s],
                          (guint32) use_of (sms, ENG_SM_SMEM)[s],
                          (guint32) use_of (sms, ENG_SM_REGS)[s] };
}

void
eng_sm_need (const GpuBlockFootprint *fp, EngSmNeed *need)
{
  need->fp = *fp;
  need->threads = (float) fp->threads;
  need->smem = (float) fp->smem;
  need->regs = (float) fp->regs;
  need->div_threads = (float) MAX (fp->threads, 1);
  need->div_smem = (float) MAX (fp->smem, 1);
  need->div_regs = (float) MAX (fp->regs, 1);
  /* a resource the block does not use sets no limit (the quotients are
   * never negative, so a floor of 0 changes nothing) */
  need->smem_none = fp->smem == 0 ? G_MAXFLOAT : 0;
  need->regs_none = fp->regs == 0 ? G_MAXFLOAT : 0;
}

/* Adding blocks of one footprint to the SMs: the arrays and what a block
 * takes, in locals, since the compiler cannot tell that the stores to the
 * arrays leave them alone. */
typedef struct
{
  float *t, *b, *m, *r;
  float per_t, per_b, per_m, per_r;
} SmAdder;

/* sign -1: to take blocks away */
static inline SmAdder
adder_new (EngSms *sms, const EngSmNeed *need, float sign)
{
  return (SmAdder) { use_of (sms, ENG_SM_THREADS), use_of (sms, ENG_SM_BLOCKS),
                     use_of (sms, ENG_SM_SMEM), use_of (sms, ENG_SM_REGS),
                     sign * need->threads, sign, sign * need->smem, sign * need->regs };
}

/* Adds `count` blocks to SMs c .. c + LANES - 1. */
static inline void
adder_add (const SmAdder *a, guint c, Lanes count)
{
  lanes_store (a->t + c, lanes_load (a->t + c) + count * a->per_t);
  lanes_store (a->b + c, lanes_load (a->b + c) + count * a->per_b);
  lanes_store (a->m + c, lanes_load (a->m + c) + count * a->per_m);
  lanes_store (a->r + c, lanes_load (a->r + c) + count * a->per_r);
}

/* Option: the placement's counts set to 0 in this same pass, so that
 * freeing it need not visit its chunks again; measured no faster end to
 * end (streamsim-bench). */
void
eng_sm_give_back (EngSms *sms, EngPlacement *pl, const EngSmNeed *need)
{
  const SmAdder a = adder_new (sms, need, -1);
  float *count = pl->count;
  Mask below = { 0 }; /* an SM with fewer than no blocks */
  for (guint32 i = 0; i < pl->n_chunks; i++)
    {
      guint c = pl->chunks[i];
      adder_add (&a, c, lanes_load (count + c));
      below |= lanes_load (a.b + c) < 0;
    }
  g_assert (lanes_bits (below) == 0); /* no more given back than held */
}

/* ---- Placements ---- */

/* Clears and copies masks of SMs.
 * Option: a plain store for one word (fewer than 64 SMs) instead of the
 * library call; measured under 1% end to end (streamsim-bench). */
static inline void
mask_clear (guint64 *mask, guint words)
{
  memset (mask, 0, words * sizeof (guint64));
}

static inline void
mask_copy (guint64 *dest, const guint64 *src, guint words)
{
  memcpy (dest, src, words * sizeof (guint64));
}

static EngPlacement *
placement_new (EngSms *sms)
{
  EngPlacement *pl = sms->free_placements;
  gsize words = sms->words;
  if (pl != NULL)
    sms->free_placements = pl->next_free;
  else
    {
      /* all the same size, so that they can be recycled; counts 0 */
      pl = g_malloc0 (sizeof (EngPlacement) + words * sizeof (guint64)
                      + sms->pad * sizeof (float) + sms->pad / LANES * sizeof (guint16));
      pl->count = (float *) (pl->most_mask + words);
      pl->chunks = (guint16 *) (pl->count + sms->pad);
    }
  pl->blocks = pl->most = pl->n_chunks = 0;
  mask_clear (pl->most_mask, (guint) words);
  return pl;
}

void
eng_sm_placement_free (EngSms *sms, EngPlacement *pl)
{
  /* its counts back to 0, for its next use */
  for (guint32 i = 0; i < pl->n_chunks; i++)
    lanes_store (pl->count + pl->chunks[i], lanes_splat (0));
  pl->next_free = sms->free_placements;
  sms->free_placements = pl;
}

void
eng_sm_free (EngSms *sms)
{
  while (sms->free_placements != NULL)
    {
      EngPlacement *pl = sms->free_placements;
      sms->free_placements = pl->next_free;
      g_free (pl);
    }
  g_free (sms->use);
  g_free (sms->room);
  g_free (sms->chunks);
  g_free (sms->mask);
  g_free (sms->order);
}

/* Sets pl->most_mask from pl->count: the SMs with pl->most blocks. */
static void
placement_mark_most (const EngSms *sms, EngPlacement *pl)
{
  for (guint s = 0; s < sms->profile->sm_count; s++)
    if ((guint32) pl->count[s] == pl->most)
      pl->most_mask[s / 64] |= (guint64) 1 << (s % 64);
}

/* ---- The block scheduler ---- */

/* The block scheduler in plain C, one block at a time: each block goes to
 * the next SM from `next` with room, until `want` are placed or a whole turn
 * of SMs has none. The reference that eng_sm_place() must equal; used in
 * reference mode (eng_sim_set_reference) and by tests/test_sm.c. */
EngPlacement *
eng_sm_place_one_by_one (EngSms *sms, const EngSmNeed *sm_need, guint32 want)
{
  const GpuBlockFootprint *need = &sm_need->fp;
  const GpuProfile *p = sms->profile;
  guint n_sms = p->sm_count;
  float *t = use_of (sms, ENG_SM_THREADS), *b = use_of (sms, ENG_SM_BLOCKS);
  float *m = use_of (sms, ENG_SM_SMEM), *r = use_of (sms, ENG_SM_REGS);
  EngPlacement *pl = placement_new (sms);
  guint misses = 0; /* SMs in a row that had no room */
  guint sm = sms->next;
  while (pl->blocks < want && misses < n_sms)
    {
      if ((guint64) b[sm] < p->max_blocks_per_sm
          && (guint64) t[sm] + need->threads <= p->max_threads_per_sm
          && (guint64) m[sm] + need->smem <= p->smem_per_sm
          && (guint64) r[sm] + need->regs <= p->regs_per_sm)
        {
          t[sm] += (float) need->threads;
          b[sm]++;
          m[sm] += (float) need->smem;
          r[sm] += (float) need->regs;
          pl->count[sm]++;
          pl->blocks++;
          misses = 0;
          sms->next = (sm + 1) % n_sms;
        }
      else
        misses++;
      sm = (sm + 1) % n_sms;
    }
  if (pl->blocks == 0)
    {
      eng_sm_placement_free (sms, pl);
      return NULL;
    }
  for (guint s = 0; s < n_sms; s++)
    pl->most = MAX (pl->most, (guint32) pl->count[s]);
  placement_mark_most (sms, pl);
  for (guint c = 0; c < sms->pad; c += LANES)
    if (lanes_bits (lanes_load (pl->count + c) != 0) != 0)
      pl->chunks[pl->n_chunks++] = (guint16) c;
  return pl;
}

/* Sums min(room, j) over the chunks: the blocks that turns 1 .. j place. */
static inline guint32
turns_place (const float *room, const guint16 *chunks, guint n, guint32 j)
{
  Lanes sum = lanes_splat (0), cap = lanes_splat ((float) j);
  for (guint i = 0; i < n; i++)
    sum += lanes_min (lanes_load (room + chunks[i]), cap);
  return (guint32) lanes_sum (sum);
}

/* Keeps, in `mask`, only its first n set bits in scan order from SM
 * `start` (from start to the last SM, then from SM 0), and returns the SM
 * of the last one kept. The mask has at least n >= 1 bits. */
static guint
mask_keep_first (guint64 *mask, guint words, guint start, guint32 n)
{
  guint64 keep[(1024 + 63) / 64]; /* sm_count <= 1024 */
  mask_clear (keep, words);
  /* word ws from start, the words after it, those before it, word ws below start */
  guint ws = start / 64, last = 0;
  guint64 from_start = ~(guint64) 0 << (start % 64);
  for (guint i = 0; i <= words && n > 0; i++)
    {
      guint w = (ws + i) % words;
      guint64 part = mask[w] & (i == 0 ? from_start : i == words ? ~from_start : ~(guint64) 0);
      guint32 c = (guint32) __builtin_popcountll (part);
      if (n > c)
        {
          keep[w] |= part;
          n -= c;
          continue;
        }
      guint64 x = part;
      for (guint32 j = 1; j < n; j++)
        x &= x - 1;
      guint pos = (guint) __builtin_ctzll (x);
      keep[w] |= part & ((((guint64) 2) << pos) - 1); /* pos = 63: all of part */
      last = w * 64 + pos;
      n = 0;
    }
  mask_copy (mask, keep, words);
  return last;
}

/* Records `count` blocks on the SMs of chunk c in the placement, and takes
 * them; notes the chunk when it got any. */
static inline void
take_chunk (const SmAdder *add, EngPlacement *pl, guint c, Lanes count, guint32 *n_got)
{
  lanes_store (pl->count + c, count);
  adder_add (add, c, count);
  pl->chunks[*n_got] = (guint16) c;
  *n_got += lanes_bits (count != 0) != 0;
}

EngPlacement *
eng_sm_place (EngSms *sms, const EngSmNeed *need, guint32 want,
              const EngPlacement *within)
{
  if (want == 0)
    return NULL;

  float *room = sms->room;
  /* the chunks looked at; every pass below visits these and no others */
  const guint16 *chunks = within != NULL ? within->chunks : sms->chunks;
  guint n = within != NULL ? within->n_chunks : sms->pad / LANES;

  /* the rooms, their sum and largest */
  const float *t = use_of (sms, ENG_SM_THREADS), *b = use_of (sms, ENG_SM_BLOCKS);
  const float *m = use_of (sms, ENG_SM_SMEM), *r = use_of (sms, ENG_SM_REGS);
  /* free + 1/2 = (limit + 1/2) - use, for lanes_quotient */
  const GpuProfile *p = sms->profile;
  Lanes half_t = lanes_splat ((float) p->max_threads_per_sm + 0.5f);
  Lanes limit_b = lanes_splat ((float) p->max_blocks_per_sm);
  Lanes half_m = lanes_splat ((float) p->smem_per_sm + 0.5f);
  Lanes half_r = lanes_splat ((float) p->regs_per_sm + 0.5f);
  Lanes div_t = lanes_splat (need->div_threads);
  Lanes div_m = lanes_splat (need->div_smem), no_smem = lanes_splat (need->smem_none);
  Lanes div_r = lanes_splat (need->div_regs), no_regs = lanes_splat (need->regs_none);
  Lanes sum = lanes_splat (0), largest = lanes_splat (0);
  for (guint i = 0; i < n; i++)
    {
      guint c = chunks[i];
      Lanes x = lanes_min (limit_b - lanes_load (b + c),
                           lanes_quotient (half_t - lanes_load (t + c), div_t));
      x = lanes_min (x, lanes_max (lanes_quotient (half_m - lanes_load (m + c), div_m), no_smem));
      x = lanes_min (x, lanes_max (lanes_quotient (half_r - lanes_load (r + c), div_r), no_regs));
      x = lanes_trunc (x);
      lanes_store (room + c, x);
      sum += x;
      largest = lanes_max (largest, x);
    }
  guint32 total = lanes_sum (sum), most = lanes_largest (largest);
  if (most == 0)
    return NULL; /* no SM has room */

  /* When every SM is filled, each gets its room, and the SMs with the
   * largest room are the placement's `most`. Otherwise (below) each gets
   * min(room, k - 1) blocks, and one more where `extra` has its bit. */
  EngPlacement *pl = placement_new (sms);
  const SmAdder add = adder_new (sms, need, 1);
  guint32 n_got = 0;
  guint last;
  if (want >= total)
    {
      Lanes most_lanes = lanes_splat ((float) most);
      for (guint i = 0; i < n; i++)
        {
          guint c = chunks[i];
          Lanes count = lanes_load (room + c);
          pl->most_mask[c / 64] |= (guint64) lanes_bits (count == most_lanes) << (c % 64);
          take_chunk (&add, pl, c, count, &n_got);
        }
      pl->blocks = total;
      pl->most = most;
      last = eng_sm_mask_last (sms, pl->most_mask, sms->next);
    }
  else
    {
      /* Turn k places the want-th block: with few blocks wanted (no more
       * than the SMs that fit one) turn 1, else the first turn after which
       * the blocks placed reach `want`, found by halving [1, most]. */
      guint32 k = 1, placed = 0;
      guint32 n_fitting = turns_place (room, chunks, n, 1); /* turn 1: one on each that fits one */
      if (want > n_fitting)
        {
          guint32 lo = 1, hi = most; /* turns_place (lo) = placed < want <= turns_place (hi) */
          placed = n_fitting;
          while (hi - lo > 1)
            {
              guint32 mid = (lo + hi) / 2;
              guint32 at_mid = turns_place (room, chunks, n, mid);
              if (at_mid >= want)
                hi = mid;
              else
                {
                  lo = mid;
                  placed = at_mid;
                }
            }
          k = hi;
        }
      /* The SMs with room for k, in scan order: the first want - placed of
       * them get the extra block; the last of those gets the last block. */
      guint64 *extra = sms->mask;
      mask_clear (extra, sms->words);
      for (guint i = 0; i < n; i++)
        {
          guint c = chunks[i];
          guint32 bits = lanes_bits (lanes_load (room + c) >= lanes_splat ((float) k));
          extra[c / 64] |= (guint64) bits << (c % 64);
        }
      last = mask_keep_first (extra, sms->words, sms->next, want - placed);
      mask_copy (pl->most_mask, extra, sms->words);
      Lanes cap = lanes_splat ((float) (k - 1));
      for (guint i = 0; i < n; i++)
        {
          guint c = chunks[i];
          Lanes count = lanes_min (lanes_load (room + c), cap)
                        + lanes_from_bits ((guint32) (extra[c / 64] >> (c % 64)) & 0xf);
          take_chunk (&add, pl, c, count, &n_got);
        }
      pl->blocks = want;
      pl->most = k;
    }
  pl->n_chunks = n_got;
  sms->next = eng_sm_after (sms, last);
  return pl;
}
