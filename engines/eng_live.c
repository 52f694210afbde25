/* eng_live.c: the slots that hold an op's state while it is in flight.
 *
 * An op takes a slot (EngLive) when the host issues it and gives it back
 * after its full signal, so the slots are about as many as the ops in flight
 * at once, not as the ops: kept in every op's EngOp instead, that state
 * would be 48 MB of fresh pages at 10^6 ops.
 *
 * A slot given back is reused before the array grows, so that the slots in
 * use stay in the cache. Under AddressSanitizer a slot given back is
 * poisoned, all but its free-list link, so that a read of an op's state
 * after its signal (a bug that would otherwise read another op's state)
 * fails the sanitizer build of the tests. */
#include "eng_live.h"

#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void) (addr), (void) (size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void) (addr), (void) (size))
#endif

/* What stays readable in a free slot: its link (8 bytes, the sanitizer's
 * granule, so that the poisoned rest starts on one). */
#define LINK_BYTES 8

void
eng_live_take (EngSim *sim, guint32 op)
{
  guint32 slot = sim->free_live;
  if (slot != ENG_NONE)
    {
      ASAN_UNPOISON_MEMORY_REGION (&sim->live[slot], sizeof (EngLive));
      sim->free_live = sim->live[slot].next;
    }
  else
    {
      /* Every slot is in use, so none is poisoned while the array moves. */
      if (sim->n_live == sim->live_cap)
        {
          g_assert (sim->live_cap < G_MAXUINT32 / 2); /* indexed in 32 bits, ENG_NONE aside */
          sim->live_cap = MAX (sim->live_cap * 2, 1024);
          sim->live = g_renew (EngLive, sim->live, sim->live_cap);
        }
      slot = sim->n_live++;
    }
  /* What is read before it is written: the queue links and the times are
   * set as the op reaches a queue, its head and its engine. */
  EngLive *l = &sim->live[slot];
  l->first_edge = ENG_NONE;
  l->pending = 0;
  l->head_ref = ENG_NONE;
  l->deps_time = 0;
  sim->ops[op].live = slot;
}

void
eng_live_release (EngSim *sim, guint32 op)
{
  guint32 slot = sim->ops[op].live;
  g_assert (slot != ENG_NONE);
  sim->ops[op].live = ENG_NONE;
  EngLive *l = &sim->live[slot];
  l->next = sim->free_live;
  sim->free_live = slot;
  ASAN_POISON_MEMORY_REGION ((char *) l + LINK_BYTES, sizeof (EngLive) - LINK_BYTES);
}

void
eng_live_free (EngSim *sim)
{
  /* unpoisoned, so that the allocator may touch the whole block */
  if (sim->live != NULL)
    ASAN_UNPOISON_MEMORY_REGION (sim->live, sim->live_cap * sizeof (EngLive));
  g_free (sim->live);
  sim->live = NULL;
}
