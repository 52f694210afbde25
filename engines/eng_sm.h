/* eng_sm.h: what each SM holds, and where the block scheduler puts a dispatch of blocks (eng_sm.c). */
#ifndef ENG_SM_H
#define ENG_SM_H

#include <glib.h>
#include "sim/core/gpu_profile.h"

/* SMs per chunk: eng_sm.c works on the SMs this many at a time (one SSE2
 * vector of 32-bit lanes). */
#define ENG_SM_LANES 4

/* The resources one SM has in use (eng_sm_load and eng_sm_read, for tests:
 * the SMs keep them per resource, eng_sm.c says why). */
typedef struct
{
  guint32 threads;
  guint32 blocks;
  guint32 smem;
  guint32 regs;
} EngSm;

/* What one block of a kernel takes, as eng_sm.c's lanes use it: computed
 * once when the kernel is admitted (eng_sm_need), since a kernel places and
 * gives back blocks many times. */
typedef struct
{
  GpuBlockFootprint fp;
  float threads, smem, regs;
  float div_threads, div_smem, div_regs; /* the need, at least 1: the rooms' divisors */
  float smem_none, regs_none; /* G_MAXFLOAT where the block takes none: no limit */
} EngSmNeed;

/* Where one dispatch put its blocks: a count per SM, and the chunks of SMs
 * (eng_sm.c's vectors) where some count is not 0. Placements are recycled
 * (EngSms.free_placements), all the same size, their counts 0. */
typedef struct EngPlacement EngPlacement;
struct EngPlacement
{
  guint32 blocks;       /* in all */
  guint32 most;         /* the largest count */
  float *count;         /* blocks per SM (EngSms.pad entries, 0 past the last SM), after most_mask;
                           whole numbers kept as floats, as eng_sm.c keeps the SMs' use */
  guint16 *chunks;      /* the first SM of each chunk with blocks, in order, after count */
  guint32 n_chunks;
  EngPlacement *next_free;
  guint64 most_mask[];  /* the SMs with `most` blocks, a bit each (EngSms.words words) */
};

/* The SMs of one device. */
typedef struct
{
  const GpuProfile *profile;
  guint sm_count;       /* the profile's, at hand for the hot paths */
  float *use;           /* what the SMs hold, per resource (eng_sm.c: ENG_SM_THREADS.. x pad),
                           whole numbers kept as floats (eng_sm.c says why) */
  guint pad;            /* SMs rounded up to whole vectors; the SMs past sm_count stay full */
  guint words;          /* 64-bit words in a mask of SMs */
  guint next;           /* where the block scheduler looks first */
  EngPlacement *free_placements;
  float *room;          /* scratch for eng_sm_place: blocks of room per SM (pad) */
  guint16 *chunks;      /* the first SM of every chunk: 0, LANES, 2 LANES, ... */
  guint64 *mask;        /* scratch for eng_sm_place: a mask of SMs (words) */
  guint32 *order;       /* scratch, one per SM, for the caller (eng_kernel.c: turns seen per SM) */
} EngSms;

/* Sets up the SMs of `profile`, empty, and the placements' scratch; the
 * profile must outlive them. */
void eng_sm_init (EngSms *sms, const GpuProfile *profile);
/* Frees the SMs, the scratch and the recycled placements. */
void eng_sm_free (EngSms *sms);
/* `need` for a block of this footprint. */
void eng_sm_need (const GpuBlockFootprint *fp, EngSmNeed *need);
/* Places up to `want` blocks as the block scheduler would, looking only at
 * the SMs where `within` has blocks (NULL: every SM); NULL when none has room. */
EngPlacement *eng_sm_place (EngSms *sms, const EngSmNeed *need, guint32 want,
                            const EngPlacement *within);
/* The same placement, found one block at a time over every SM: the plain
 * reference eng_sm_place must equal. */
EngPlacement *eng_sm_place_one_by_one (EngSms *sms, const EngSmNeed *need, guint32 want);
/* Takes a placement's blocks off their SMs. The placement itself stays as
 * it was (its chunks are eng_sm_place's `within` for what it left) until
 * freed. */
void eng_sm_give_back (EngSms *sms, EngPlacement *pl, const EngSmNeed *need);
void eng_sm_placement_free (EngSms *sms, EngPlacement *pl);
/* Sets what each SM holds from one EngSm per SM (tests), and reads it back. */
void eng_sm_load (EngSms *sms, const EngSm *per_sm);
void eng_sm_read (const EngSms *sms, EngSm *per_sm);

/* The last SM of `mask` that a scan starting at SM `start` reaches: the
 * highest one below start, or else the highest of all (mask is not empty).
 * In plain C, word by word. */
static inline guint
eng_sm_mask_last_words (const EngSms *sms, const guint64 *mask, guint start)
{
  guint w = start / 64, b = start % 64;
  guint64 below = b > 0 ? mask[w] & (((guint64) 1 << b) - 1) : 0;
  for (;;)
    {
      if (below != 0)
        break;
      if (w == 0)
        {
          /* none below start: the highest of all */
          for (w = sms->words; w-- > 0 && mask[w] == 0;)
            ;
          below = mask[w];
          break;
        }
      below = mask[--w];
    }
  return w * 64 + 63 - (guint) __builtin_clzll (below);
}

/* The same. For fewer than 64 SMs (one word) a select, not a branch: which
 * SM comes last is data the branch predictor misses, and pure batches ask
 * this for every group of every turn. Measured 4 to 7% faster end to end
 * than eng_sm_mask_last_words alone (streamsim-bench, k20, 10^6 ops);
 * tests/test_sm.c checks the two agree. */
static inline guint
eng_sm_mask_last (const EngSms *sms, const guint64 *mask, guint start)
{
  if (sms->words != 1)
    return eng_sm_mask_last_words (sms, mask, start);
  guint64 below = mask[0] & (((guint64) 1 << start) - 1);
  guint64 from = below != 0 ? below : mask[0];
  return 63 - (guint) __builtin_clzll (from);
}

/* Where the block scheduler looks first after SM s took the last block:
 * the SM after it, round the SMs. */
static inline guint
eng_sm_after (const EngSms *sms, guint s)
{
  guint next = s + 1;
  return next & -(guint) (next < sms->sm_count); /* no branch: 0 past the last */
}

/* `next` after the SMs of `pl` are filled again, exactly, from `start`:
 * the last block goes, in the last turn, to the SM with the most blocks that
 * the scan reaches last. Inline: a kernel's pure group ends (eng_kernel.c)
 * call it for every group. */
static inline guint
eng_sm_next_after_refill (const EngSms *sms, const EngPlacement *pl, guint start)
{
  return eng_sm_after (sms, eng_sm_mask_last (sms, pl->most_mask, start));
}

#endif /* ENG_SM_H */
