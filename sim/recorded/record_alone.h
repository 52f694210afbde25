/* record_alone.h: a recorded kernel's time alone on the GPU, for its `time=`.
 *
 * A kernel's `time=` is its time alone: the model shares the SMs between
 * kernels that run together itself, so a duration measured while another
 * kernel held part of the SMs would count the sharing twice (issue 37,
 * cause 1). Kernels are grouped in busy periods: a period runs from a
 * kernel's measured start for as long as the next kernel starts before
 * every kernel so far has ended. A kernel alone in its period ran alone and
 * keeps its duration. One that shared its period takes, in this order:
 *
 * 1. the median of the lone runs of the same kernel (its key: name and
 *    shape), where there are any: what it measured without sharing;
 * 2. else an inferred time. Each kernel holds a share of the GPU, its
 *    occupancy: min(1, grid / (SMs x blocks per SM for its shape)). Over a
 *    period of length L the kernels held sum(occupancy x duration) of
 *    GPU-time; more than L means the GPU was oversubscribed and each kernel
 *    was slowed, so its time alone is its duration x L / sum(occupancy x
 *    duration). Two kernels that each fill the GPU, measured 2 ms each side
 *    by side, were 1 ms each alone. This needs no model of how blocks are
 *    placed: it assumes only that a full GPU was shared in proportion over
 *    the whole period, and it keeps the period's GPU-time: the kernels' times
 *    alone, weighted by their occupancies, add up to L;
 * 3. its own duration, where its period left room on the SMs (sum(occupancy
 *    x duration) at most L: the sharing did not slow it by taking SMs), or
 *    where an occupancy is not known (no profile, or a block no SM can hold).
 *
 * A communication kernel (NCCL's collectives and sends, a kernel that
 * waits inside for its peers on other GPUs) keeps its own duration
 * wherever it ran: its length is its peers' pace, which neither its lone
 * runs nor its share of the SMs tell (ALONE_PEERS).
 *
 * The median is the upper one of an even count (the later of the middle
 * two in ascending order). */
#ifndef RECORD_ALONE_H
#define RECORD_ALONE_H

#include <glib.h>

typedef struct
{
  guint64 start, end;   /* measured on the GPU, ns */
  const char *key;      /* the same kernel: name and shape (compared by content) */
  double occupancy;     /* its share of the GPU, in (0, 1]; negative when not known */
  gboolean peers;       /* a communication kernel (record_alone_paced_by_peers) */
} AloneKernel;

typedef enum
{
  ALONE_RAN_ALONE,      /* no other kernel in its period: its own duration */
  ALONE_LONE_RUNS,      /* 1: the median of its key's lone runs */
  ALONE_INFERRED,       /* 2: its duration scaled by its period */
  ALONE_ROOM,           /* 3: its period left room on the SMs; its own duration */
  ALONE_UNKNOWN,        /* 3: an occupancy in its period is not known; its own duration */
  ALONE_PEERS,          /* a communication kernel that shared its period: its own duration */
} AloneHow;

typedef struct
{
  AloneHow how;
  guint64 time;         /* the time alone, ns (at least 1 where inferred or a median) */
  guint runs;           /* ALONE_LONE_RUNS: the runs the median is over */
  guint64 period;       /* its busy period's length, ns */
  double held;          /* ... and that period's sum of occupancy x duration, ns (negative
                           when an occupancy is not known) */
} AloneTime;

/* The time alone of each of the `n` kernels, given in any order; the
 * result has one entry per kernel (g_free it). */
AloneTime *record_alone_find (const AloneKernel *kernels, guint n);

/* Whether the kernel named `name` (as CUPTI gives it, mangled or not) is a
 * communication kernel: NCCL's (ncclKernel_..., ncclDevKernel_...). */
gboolean record_alone_paced_by_peers (const char *name);

#endif /* RECORD_ALONE_H */
