/* schedule_gen.h: the text of a random valid schedule, from a seed (benchmarks, property tests).
 *
 * The generator writes schedule-language text (MODEL.md section 3), not a
 * Schedule, so that whoever uses it goes through the real parser. Every
 * schedule it writes is valid for every device whose limits are at least
 * those in ScheduleGenOptions (the defaults fit every shipped profile: c1060,
 * c2050, k20): kernels stay within the block, shared-memory and register
 * limits, every time= list has a fallback entry, stream and event names never
 * collide, and waits mostly name events recorded earlier (a few name events
 * never recorded, which CUDA treats as no-ops).
 *
 * The same options and seed give the same text on every machine and GLib
 * version: the generator carries its own pseudo-random generator. */
#ifndef SCHEDULE_GEN_H
#define SCHEDULE_GEN_H

#include <glib.h>

/* Relative weights of the statements drawn for each op. */
typedef struct
{
  guint h2d, d2h, d2d;  /* cudaMemcpyAsync */
  guint memcpy;         /* synchronous cudaMemcpy: blocks the host */
  guint kernel;
  guint record, wait;
  guint sync;           /* sync STREAM, sync EVENT or sync device: blocks the host */
  guint host;           /* host work */
} ScheduleGenMix;

typedef struct
{
  guint64 seed;
  guint64 n_ops;          /* run-time statements, i.e. timeline rows */
  guint n_streams;        /* declared streams, 1..SCHEDULE_GEN_MAX_STREAMS (plus "default") */
  guint connections;      /* a `connections N` line (1..32), or 0 for none */
  const char *device;     /* a `device NAME` line, or NULL for none */
  ScheduleGenMix mix;

  /* Kernels: the schedule launches `kernel_types` distinct kernels (a shape
   * and a time each) over and over, as programs do. Grids are drawn
   * log-uniformly from 1..max_grid; with big_kernels every kernel has
   * SCHEDULE_GEN_BIG_GRID blocks instead. */
  guint kernel_types;
  guint32 max_grid;
  gboolean big_kernels;
  guint max_block;          /* threads per block */
  guint max_smem;           /* bytes of shared memory per block */
  guint max_regs_per_block; /* regs= x threads (rounded up to a warp) stays below this */

  /* Fractions, in percent, of features that change the host's or the
   * default stream's behaviour. */
  guint pct_default_stream;  /* stream ops issued to the legacy default stream */
  guint pct_pageable;        /* copies from pageable memory (the host waits) */
  guint pct_never_recorded;  /* waits and event syncs on events never recorded */
  guint pct_label;           /* ops with a label= */
  guint pct_nonblocking;     /* streams created nonblocking */
  guint pct_priority;        /* streams created with priority=-1 */
} ScheduleGenOptions;

#define SCHEDULE_GEN_MAX_STREAMS 1024
#define SCHEDULE_GEN_BIG_GRID 100000

/* Defaults: 1000 ops on 8 streams, the mix of a pipelined program (mostly
 * copies and kernels, one event pair in ten ops, rare blocking calls), limits
 * that fit the c1060 (512 threads, 16 KiB, 16384 registers per block). */
void schedule_gen_options_init (ScheduleGenOptions *options);

/* Appends the schedule's text to `out`. */
void schedule_gen_append (const ScheduleGenOptions *options, GString *out);

/* The schedule's text, newly allocated; *length (if not NULL) gets its length. */
char *schedule_gen_text (const ScheduleGenOptions *options, gsize *length);

#endif /* SCHEDULE_GEN_H */
