/* gpu_profile.c: copying and freeing GPU profiles, and the numbers the model derives from one: blocks per SM, a copy's link and time, a kernel's time. */
#include <math.h>
#include <string.h>
#include "gpu_profile.h"

void
gpu_profile_clear (GpuProfile *profile)
{
  g_return_if_fail (profile != NULL);

  for (guint i = 0; i < GPU_PROFILE_MAX_NAMES; i++)
    g_free (profile->names[i]);
  g_free (profile->description);
  g_free (profile->gpu);
  g_free (profile->driver);
  g_free (profile->cuda);
  g_free (profile->date);
  g_free (profile->source);
  memset (profile, 0, sizeof *profile);
}

/* `dest` is overwritten, not cleared first: pass a zeroed or cleared one. */
void
gpu_profile_copy (GpuProfile *dest, const GpuProfile *src)
{
  g_return_if_fail (dest != NULL && src != NULL && dest != src);

  *dest = *src;
  for (guint i = 0; i < GPU_PROFILE_MAX_NAMES; i++)
    dest->names[i] = g_strdup (src->names[i]);
  dest->names[GPU_PROFILE_MAX_NAMES] = NULL;
  dest->description = g_strdup (src->description);
  dest->gpu = g_strdup (src->gpu);
  dest->driver = g_strdup (src->driver);
  dest->cuda = g_strdup (src->cuda);
  dest->date = g_strdup (src->date);
  dest->source = g_strdup (src->source);
}

gboolean
gpu_profile_has_host_spread (const GpuProfile *profile)
{
  return profile->host_fast.kernel_launch > 0;
}

void
gpu_profile_at_host_speed (GpuProfile *dest, const GpuProfile *src, GpuHostEnd end)
{
  g_return_if_fail (gpu_profile_has_host_spread (src));
  gpu_profile_copy (dest, src);
  const GpuHostSpeed *speed = end == GPU_HOST_FAST ? &src->host_fast : &src->host_slow;
  dest->host_kernel_launch = speed->kernel_launch;
  dest->host_memcpy_async = speed->memcpy_async;
  dest->h2d_pageable.bandwidth = speed->h2d_pageable_bandwidth;
  dest->d2h_pageable.bandwidth = speed->d2h_pageable_bandwidth;
}

/* The occupancy rule of the CUDA occupancy calculator, without its allocation
 * granularities: an SM holds as many blocks as the tightest of its block,
 * thread, shared-memory and register limits allows. Threads are counted in
 * whole warps because a partial warp still takes a warp's slots; registers
 * are counted per rounded block for the same reason. The calculator's
 * register and shared-memory rounding (per warp to 256 registers, smem to
 * 128 B or 256 B) is left out: it changes the answer only for shapes near a
 * limit, and a profile cannot hold every generation's rounding rules. */
void
gpu_profile_block_footprint (const GpuProfile *profile, guint block_threads, guint64 smem,
                             guint regs, GpuBlockFootprint *footprint)
{
  g_return_if_fail (profile != NULL && footprint != NULL);
  guint64 threads = ((guint64) block_threads + 31) / 32 * 32;
  guint64 regs_per_block = (guint64) (regs > 0 ? regs : profile->default_regs) * threads;
  footprint->threads = (guint32) MIN (threads, G_MAXUINT32);
  footprint->smem = (guint32) MIN (smem, G_MAXUINT32);
  footprint->regs = (guint32) MIN (regs_per_block, G_MAXUINT32);
}

guint
gpu_profile_blocks_per_sm (const GpuProfile *profile, guint block_threads,
                           guint64 smem, guint regs)
{
  g_return_val_if_fail (profile != NULL, 0);
  g_return_val_if_fail (block_threads > 0, 0);

  if (block_threads > profile->max_threads_per_block)
    return 0;
  if (smem > profile->max_smem_per_block)
    return 0;

  GpuBlockFootprint fp;
  gpu_profile_block_footprint (profile, block_threads, smem, regs, &fp);
  guint64 blocks = profile->max_blocks_per_sm;
  blocks = MIN (blocks, profile->max_threads_per_sm / fp.threads);
  if (fp.smem > 0)
    blocks = MIN (blocks, profile->smem_per_sm / fp.smem);
  if (fp.regs > 0)
    blocks = MIN (blocks, profile->regs_per_sm / fp.regs);
  return (guint) blocks;
}

SimTime
gpu_profile_call_cost (const GpuProfile *p, const SchedOp *op)
{
  /* A graph's nodes cost the host nothing each: its first carries the launch. */
  if (op->graph != 0)
    return !op->graph_launch ? 0 : p->host_graph_launch > 0 ? p->host_graph_launch : p->host_kernel_launch;
  switch (op->kind)
    {
    case SCHED_OP_KERNEL:
      return p->host_kernel_launch + (op->u.kernel.loads ? p->host_kernel_load : 0);
    case SCHED_OP_MEMSET:
      return p->host_memset > 0 ? p->host_memset : p->host_kernel_launch;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return p->host_memcpy_async;
    case SCHED_OP_HOSTFN: /* an enqueue, as a record is; its own cost is not measured yet */
      return p->host_event_record;
    case SCHED_OP_RECORD:
      return p->host_event_record;
    case SCHED_OP_MALLOC:
      return p->host_malloc_async;
    case SCHED_OP_FREE:
      return p->host_free_async;
    case SCHED_OP_WAIT:
      return p->host_stream_wait;
    case SCHED_OP_HOST:
    case SCHED_OP_SPAWN: /* the thread's start is not measured: the recorder times its first call */
    case SCHED_OP_JOIN:
      return 0;
    default:
      return op->poll ? gpu_profile_query_cost (p) : p->host_sync;
    }
}

SimTime
gpu_profile_thread_call_cost (const GpuProfile *p, const SchedOp *op, gboolean first_of_thread)
{
  return gpu_profile_call_cost (p, op) + (first_of_thread ? p->host_thread_first_call : 0);
}

gboolean
gpu_profile_call_puts_work (const SchedOp *op)
{
  switch (op->kind)
    {
    case SCHED_OP_HOST:
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
    case SCHED_OP_SPAWN:
    case SCHED_OP_JOIN:
      return FALSE;
    default:
      return TRUE;
    }
}

/* The time `bytes` take at `rate`; schedules that could come near 2^62 ns
 * are refused before a run (eng_limits.c), so the clamp only keeps the
 * conversion defined. */
static SimTime
bytes_at (guint64 bytes, double rate)
{
  double ns = rate > 0 ? (double) bytes / rate * 1e9 + 0.5 : 0;
  return ns < 4e18 ? (SimTime) ns : (SimTime) 4e18;
}

static guint64
add_bytes (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

SimTime
gpu_pool_malloc (const GpuProfile *p, GpuPool *pool, guint64 bytes)
{
  guint64 free_bytes = pool->reserved - pool->used;
  SimTime cost = 0;
  if (bytes > free_bytes)
    {
      guint64 grow = MAX (bytes - free_bytes, p->pool_grow_min);
      pool->reserved = add_bytes (pool->reserved, grow);
      cost = p->pool_grow + bytes_at (grow, p->pool_grow_rate);
    }
  pool->used = add_bytes (pool->used, bytes);
  return cost;
}

void
gpu_pool_free (GpuPool *pool, guint64 bytes)
{
  pool->used -= MIN (bytes, pool->used);
}

SimTime
gpu_pool_trim (const GpuProfile *p, GpuPool *pool, guint64 threshold)
{
  guint64 keep = MAX (pool->used, threshold);
  if (pool->reserved <= keep)
    return 0;
  guint64 excess = pool->reserved - keep;
  pool->reserved = keep;
  return p->pool_trim + bytes_at (excess, p->pool_trim_rate);
}

void
gpu_pool_growth (const GpuProfile *p, const Schedule *sched, const guint32 *order, SimTime *growth)
{
  GpuPool pool = { 0, 0 };
  gsize n = schedule_n_ops (sched);
  for (gsize k = 0; k < n; k++)
    {
      gsize i = order != NULL ? order[k] : k;
      const SchedOp *sop = schedule_op (sched, i);
      growth[i] = 0;
      if (sop->kind == SCHED_OP_MALLOC)
        growth[i] = gpu_pool_malloc (p, &pool, sop->u.bytes);
      else if (sop->kind == SCHED_OP_FREE)
        gpu_pool_free (&pool, sop->u.bytes);
      else if ((sop->kind == SCHED_OP_SYNC_STREAM || sop->kind == SCHED_OP_SYNC_EVENT
                || sop->kind == SCHED_OP_SYNC_DEVICE) && !sop->poll)
        gpu_pool_trim (p, &pool, schedule_pool_threshold (sched));
    }
}

SimTime
gpu_profile_thread_create (const GpuProfile *p, gboolean first)
{
  return first && p->host_thread_create_first > 0 ? p->host_thread_create_first
                                                  : p->host_thread_create;
}

SimTime
gpu_profile_thread_start (const GpuProfile *p, gboolean first)
{
  return first && p->host_thread_start_first > 0 ? p->host_thread_start_first
                                                 : p->host_thread_start;
}

SimTime
gpu_profile_submit_latency (const GpuProfile *p, SchedOpKind kind)
{
  switch (kind)
    {
    case SCHED_OP_KERNEL:
    case SCHED_OP_MEMSET:
      return p->launch_latency;
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return p->copy_submit;
    default:
      return 0;
    }
}

/* Of a host-memory link measured per direction (`h2d`, `d2h`), the one for
 * `dir`: NULL for d2d (no host memory) or where the profile has not
 * measured it (bandwidth 0). */
static const GpuLink *
measured_link (const GpuLink *h2d, const GpuLink *d2h, SchedCopyDir dir)
{
  const GpuLink *link = dir == SCHED_DIR_H2D ? h2d : dir == SCHED_DIR_D2H ? d2h : NULL;
  return link != NULL && link->bandwidth > 0 ? link : NULL;
}

static const GpuLink *
untouched_link (const GpuProfile *p, SchedCopyDir dir)
{
  return measured_link (&p->h2d_untouched, &p->d2h_untouched, dir);
}

static const GpuLink *
untouched_huge_link (const GpuProfile *p, SchedCopyDir dir)
{
  return measured_link (&p->h2d_untouched_huge, &p->d2h_untouched_huge, dir);
}

/* The link of a copy's untouched bytes: the huge-page one where some fault
 * in as huge pages and the profile has it (its latency is the copy's), else
 * the untouched one; NULL where it has neither. */
static const GpuLink *
copy_untouched_link (const GpuProfile *p, const SchedCopy *copy)
{
  const GpuLink *huge = copy->huge > 0 ? untouched_huge_link (p, copy->dir) : NULL;
  return huge != NULL ? huge : untouched_link (p, copy->dir);
}

/* A copy of `bytes` on `line` with its times by size (GpuPoints), in ns:
 * straight from (0, the line's latency) through each point, and beyond the
 * last at the line's bandwidth. */
static double
sized_time (const GpuLink *line, const GpuPoints *sizes, guint64 bytes)
{
  double from_bytes = 0, from_time = (double) line->latency;
  for (guint i = 0; i < sizes->n; i++)
    {
      double to_bytes = (double) sizes->at[i], to_time = (double) sizes->time[i];
      if ((double) bytes <= to_bytes)
        return from_time + (to_time - from_time) * ((double) bytes - from_bytes)
                             / (to_bytes - from_bytes);
      from_bytes = to_bytes;
      from_time = to_time;
    }
  return from_time + ((double) bytes - from_bytes) / line->bandwidth * 1e9;
}

/* The link a copy of `bytes` runs on where `line` has times by size: the
 * line's latency, and the rate that takes the copy's bytes the rest of its
 * sized time (so that latency + bytes / bandwidth is that time, whatever
 * shares of the bytes the callers split it into); no time at all beyond
 * the latency where the sized time is no more than it. */
static GpuLink
sized_link (const GpuLink *line, const GpuPoints *sizes, guint64 bytes)
{
  if (sizes->n == 0)
    return *line;
  double beyond = sized_time (line, sizes, bytes) - (double) line->latency;
  return (GpuLink) { beyond > 0 ? (double) bytes / beyond * 1e9 : INFINITY, line->latency };
}

/* The pageable link of a copy's resident bytes: its times by size where the
 * profile has them and the copy is no larger than their last size, whether
 * `cached` or not, since they were measured on buffers the CPU had just
 * written or copied. Else the cached line where the copy is `cached`, the
 * profile has measured it, and it is the faster of the two for the copy's
 * bytes (each line is fitted over its own sizes, and below a few tens of
 * KiB the cached line's intercept can lie above the pageable one's, where
 * small copies the CPU has just touched take the same time whether copied
 * again or written first: validate/results/<gpu>/pageable-probe/small/);
 * else the pageable line, through its times by size. */
static GpuLink
pageable_link (const GpuLink *pageable, const GpuPoints *sizes, const GpuLink *cached,
               const SchedCopy *copy, GpuLinkKind *kind)
{
  GpuLink on_pageable = sized_link (pageable, sizes, copy->bytes);
  gboolean sized = sizes->n > 0 && copy->bytes <= sizes->at[sizes->n - 1];
  *kind = sized ? GPU_LINK_PAGEABLE_SIZED : GPU_LINK_PAGEABLE;
  if (!copy->cached || cached->bandwidth <= 0 || sized)
    return on_pageable;
  double bytes = (double) copy->bytes;
  double cached_time = (double) cached->latency + bytes / cached->bandwidth * 1e9;
  double pageable_time = (double) on_pageable.latency + bytes / on_pageable.bandwidth * 1e9;
  if (cached_time > pageable_time)
    return on_pageable;
  *kind = GPU_LINK_CACHED;
  return *cached;
}

/* The link of the copy's touched bytes, and its kind. */
static GpuLink
resident_link (const GpuProfile *p, const SchedCopy *copy, GpuLinkKind *kind)
{
  *kind = copy->dir == SCHED_DIR_D2D ? GPU_LINK_DEVICE : GPU_LINK_PINNED;
  switch (copy->dir)
    {
    case SCHED_DIR_H2D:
      return copy->pageable
               ? pageable_link (&p->h2d_pageable, &p->h2d_pageable_sizes, &p->h2d_cached, copy, kind)
               : p->h2d_pinned;
    case SCHED_DIR_D2H:
      return copy->pageable
               ? pageable_link (&p->d2h_pageable, &p->d2h_pageable_sizes, &p->d2h_cached, copy, kind)
               : p->d2h_pinned;
    default:
      return p->d2d;
    }
}

GpuLink
gpu_profile_link (const GpuProfile *p, const SchedCopy *copy)
{
  const GpuLink *untouched = copy->untouched > 0 ? copy_untouched_link (p, copy) : NULL;
  GpuLinkKind kind;
  return untouched != NULL ? *untouched : resident_link (p, copy, &kind);
}

const char *
gpu_link_kind_text (GpuLinkKind kind)
{
  switch (kind)
    {
    case GPU_LINK_PINNED:
      return "pinned";
    case GPU_LINK_DEVICE:
      return "device memory";
    case GPU_LINK_PAGEABLE:
      return "pageable";
    case GPU_LINK_PAGEABLE_SIZED:
      return "pageable, its time by size";
    case GPU_LINK_CACHED:
      return "pageable, in the CPU's caches";
    case GPU_LINK_UNTOUCHED:
      return "untouched, small pages";
    case GPU_LINK_UNTOUCHED_HUGE:
      return "untouched, huge pages";
    }
  return "?";
}

guint
gpu_profile_copy_parts (const GpuProfile *p, const SchedCopy *copy, GpuCopyPart parts[GPU_COPY_PARTS],
                        SimTime *latency)
{
  /* A buffer partly untouched: its untouched bytes at the untouched link's
   * rate, the others at the pageable link's, and the untouched latency; of
   * the untouched bytes, those on huge pages at the huge link's rate where
   * the profile has it (`link`), the others at the untouched one's. */
  const GpuLink *cold = copy->untouched > 0 ? copy_untouched_link (p, copy) : NULL;
  GpuLinkKind resident_kind;
  GpuLink resident = resident_link (p, copy, &resident_kind);
  GpuLink link = cold != NULL ? *cold : resident;
  guint64 untouched = cold != NULL ? MIN (copy->untouched, copy->bytes) : copy->bytes;
  const GpuLink *small = untouched_link (p, copy->dir);
  gboolean huge = cold != NULL && copy->huge > 0 && untouched_huge_link (p, copy->dir) != NULL;
  guint64 on_small = huge && small != NULL ? untouched - MIN (copy->huge, untouched) : 0;
  guint n = 0;
  parts[n++] = (GpuCopyPart) { untouched - on_small, link.bandwidth,
                               cold == NULL ? resident_kind
                               : huge ? GPU_LINK_UNTOUCHED_HUGE : GPU_LINK_UNTOUCHED };
  if (on_small > 0)
    parts[n++] = (GpuCopyPart) { on_small, small->bandwidth, GPU_LINK_UNTOUCHED };
  if (untouched < copy->bytes)
    parts[n++] = (GpuCopyPart) { copy->bytes - untouched, resident.bandwidth, resident_kind };
  *latency = link.latency;
  return n;
}

/* A copy's time on its link beyond the latency, by its bytes. */
static double
bytes_time (const GpuCopyPart *parts, guint n)
{
  double transfer = 0;
  for (guint i = 0; i < n; i++)
    transfer += (double) parts[i].bytes / parts[i].bandwidth * 1e9;
  return transfer;
}

/* A 2D or 3D copy's rows at the profile's row rate, in ns; 0 for a plain
 * copy or where the profile has no rate (engines/MODEL.md, the copy engines:
 * an engine moves at most row_rate rows a second, whatever their bytes). */
static double
rows_time (const GpuProfile *p, const SchedCopy *copy)
{
  double rate = p->row_rate[copy->dir];
  return copy->rows > 1 && rate > 0 ? (double) copy->rows / rate * 1e9 : 0;
}

SimTime
gpu_profile_copy_time (const GpuProfile *p, const SchedCopy *copy)
{
  GpuCopyPart parts[GPU_COPY_PARTS];
  SimTime latency;
  guint n = gpu_profile_copy_parts (p, copy, parts, &latency);
  double transfer = MAX (bytes_time (parts, n), rows_time (p, copy));
  return latency + (SimTime) llround (transfer);
}

gboolean
gpu_profile_copy_row_bound (const GpuProfile *p, const SchedCopy *copy, double *rows_ns,
                            double *bytes_ns)
{
  GpuCopyPart parts[GPU_COPY_PARTS];
  SimTime latency;
  *bytes_ns = bytes_time (parts, gpu_profile_copy_parts (p, copy, parts, &latency));
  *rows_ns = rows_time (p, copy);
  return *rows_ns > *bytes_ns;
}

SimTime
gpu_profile_memset_time (const GpuProfile *p, guint64 bytes, gboolean host)
{
  double bandwidth = host ? gpu_profile_memset_host_bandwidth (p) : p->memset.bandwidth;
  g_return_val_if_fail (bandwidth > 0, 0);
  return p->memset.latency + (SimTime) llround ((double) bytes / bandwidth * 1e9);
}

double
gpu_profile_memset_host_bandwidth (const GpuProfile *p)
{
  return p->memset_host_bandwidth > 0 ? p->memset_host_bandwidth : p->d2h_pinned.bandwidth;
}

SimTime
gpu_profile_idle_sync_cost (const GpuProfile *p)
{
  return p->host_sync_idle > 0 ? p->host_sync_idle : p->host_sync;
}

SimTime
gpu_profile_query_cost (const GpuProfile *p)
{
  return p->host_query > 0 ? p->host_query : gpu_profile_idle_sync_cost (p);
}

SimTime
gpu_profile_poll_return (const GpuProfile *p, SimTime called, SimTime every, SimTime done)
{
  SimTime query = gpu_profile_query_cost (p);
  SimTime period = query + every;
  if (done > called) /* work that ended before the call is long seen */
    done += p->query_latency > 0 ? p->query_latency : p->host_sync;
  if (done <= called || period <= 0)
    return sim_time_max (called, done) + query;
  SimTime queries = (done - called + period - 1) / period; /* before the one that sees it */
  return called + queries * period + query;
}

SimTime
gpu_profile_copy_return (const GpuProfile *p, gboolean sleeps, SimTime called, SimTime end)
{
  return end + p->host_memcpy_sync + (sleeps ? gpu_profile_blocking_wake (p, end - called) : 0);
}

SimTime
gpu_profile_blocking_wake (const GpuProfile *p, SimTime waited)
{
  const GpuPoints *w = &p->sync_blocking_wake;
  if (w->n == 0)
    return 0;
  guint64 waited_ns = waited > 0 ? (guint64) waited : 0;
  if (waited_ns <= w->at[0])
    return w->time[0];
  for (guint i = 1; i < w->n; i++)
    if (waited_ns <= w->at[i])
      {
        double from = (double) w->time[i - 1], to = (double) w->time[i];
        double part = (double) (waited_ns - w->at[i - 1]) / (double) (w->at[i] - w->at[i - 1]);
        return (SimTime) llround (from + (to - from) * part);
      }
  return w->time[w->n - 1];
}

gboolean
gpu_profile_has_rates (const GpuProfile *profile, const char **missing)
{
  const char *lacks = profile->sm_clock <= 0 ? "sm_clock"
                      : profile->memory_bandwidth <= 0 ? "memory_bandwidth"
                      : profile->fp32_flops <= 0 ? "fp32_flops"
                      : NULL;
  if (missing != NULL)
    *missing = lacks;
  return lacks == NULL;
}

gboolean
gpu_profile_knows_untouched (const GpuProfile *p, SchedCopyDir dir)
{
  return dir == SCHED_DIR_D2D || untouched_link (p, dir) != NULL;
}

gboolean
gpu_profile_knows_untouched_huge (const GpuProfile *p, SchedCopyDir dir)
{
  return dir == SCHED_DIR_D2D || untouched_huge_link (p, dir) != NULL;
}

gboolean
gpu_profile_knows_cached (const GpuProfile *p, SchedCopyDir dir)
{
  return dir == SCHED_DIR_D2D || measured_link (&p->h2d_cached, &p->d2h_cached, dir) != NULL;
}

gboolean
gpu_profile_kernel_time (const GpuProfile *profile, const Schedule *sched, const SchedOp *op,
                         GArray *cache, SimTime *total, GError **error)
{
  guint32 list = op->u.kernel.times;
  if (list >= cache->len)
    {
      SimTime unset = -1;
      while (cache->len <= list)
        g_array_append_val (cache, unset);
    }
  SimTime *t = &g_array_index (cache, SimTime, list);
  if (*t < 0
      && !schedule_kernel_time (sched, op, (const char *const *) profile->names, t, error))
    return FALSE;
  *total = *t;
  return TRUE;
}
