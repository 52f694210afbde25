/* val_run.c: a schedule performed with the real CUDA calls and timed op by op (see val_run.h). */
#include <stdlib.h>
#include <string.h>
#include "val_run.h"
#include "sim/recorded/marker_times.h"
#include "val_clock.h"
#include "val_cuda.h"
#include "val_cupti.h"
#include "val_hostfn.h"
#include "val_rows.h"
#include "val_threads.h"
#include "val_untouched.h"
#include "kernels/spin.h"

/* How one op is performed; filled once by val_run_new. */
typedef struct
{
  /* copies */
  void *dst;
  const void *src;
  enum cudaMemcpyKind dir;
  void *fresh;               /* `pageable untouched`: this run's own mapping */
  /* kernels */
  unsigned int grid, block;
  size_t smem;               /* dynamic shared memory, padding for regs= included */
  unsigned long long block_ns;
  guint waves;
  guint slot;
  guint fresh_copy;          /* `loads` with several host threads: its spin copy this repeat */
  /* host functions: their slot in ValRun's hostfns */
  guint hostfn;
  /* timing events: copies and memsets get a start and an end event, records
   * and waits one event right after them; NULL where none */
  cudaEvent_t ev_a, ev_b;
  /* the first node of a graph launch: the graph, captured and instantiated
   * once; NULL elsewhere */
  cudaGraphExec_t graph;
  /* `malloc`: the memory it got this repeat (NULL once freed); `free`: the
   * `malloc` op whose allocation it gives back */
  void *ptr;
  gsize malloc_op;
} OpPlan;

struct ValRun
{
  const Schedule *sched;
  const ValDevice *dev;
  gsize n_ops;
  OpPlan *plan;
  cudaStream_t *streams; /* [0] is the legacy default stream */
  guint n_streams;
  cudaEvent_t *events;   /* the schedule's own, timing disabled */
  guint n_events;
  cudaStream_t helper;   /* the harness's: slot resets and clock probes */
  ValClock *clock;
  SpinSlot *slots;       /* device, one per kernel op */
  SpinSlot *slots_host;
  guint n_slots;
  void *dev_buf, *d2d_buf, *pinned_buf, *pageable_buf;
  ValHostFn *hostfns;    /* one per hostfn op */
  guint n_hostfns;
  /* The next spin_launch_fresh copy a `loads` kernel gets. A launch that
   * loads its kernel's code is a first launch in the process, and every
   * repeat (warm-up, timed, untimed) is to measure one: each `loads` op
   * takes a copy never launched before in every repeat, and the run fails
   * once the SPIN_FRESH_INSTANCES copies are used up. */
  guint next_fresh;
  ValThreads *threads;   /* the schedule's host threads; NULL when it has one */
  gboolean allocates;    /* the schedule has `malloc` or `free` (plan_allocs) */
  ValCupti *cupti;
  guint32 *cupti_ids;    /* CUPTI's id of each schedule stream */
};

const char *
val_timing_name (ValTiming timing)
{
  switch (timing)
    {
    case VAL_TIMING_CUPTI:
      return "cupti";
    case VAL_TIMING_EVENTS:
      return "events";
    default:
      return "none";
    }
}

static gboolean G_GNUC_PRINTF (4, 5)
op_error (const ValRun *run, const SchedOp *op, GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *body = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, VAL_ERROR, VAL_ERROR_SCHEDULE, "%s:%u:%u: %s",
               schedule_path (run->sched), op->line, op->column, body);
  g_free (body);
  return FALSE;
}

/* Blocks per SM for this kernel. The spin kernel needs few registers, so a
 * kernel that declares regs= would fit more blocks than the real one; the
 * harness then pads the block's dynamic shared memory until the SM holds no
 * more blocks than those registers allow (CUDA allocates registers per warp
 * in units of 256). */
static gboolean
plan_kernel_shape (ValRun *run, const SchedOp *op, OpPlan *p, GError **error)
{
  const struct cudaDeviceProp *prop = &run->dev->prop;
  const SchedKernel *k = &op->u.kernel;

  if (k->block == 0 || k->block > (guint32) prop->maxThreadsPerBlock)
    return op_error (run, op, error, "block=%u: this GPU (%s) allows 1 to %d threads per block",
                     k->block, run->dev->gpu, prop->maxThreadsPerBlock);
  if (k->grid == 0 || k->grid > (guint32) prop->maxGridSize[0])
    return op_error (run, op, error, "grid=%u: this GPU (%s) allows 1 to %d blocks",
                     k->grid, run->dev->gpu, prop->maxGridSize[0]);
  if (k->smem > prop->sharedMemPerBlockOptin)
    return op_error (run, op, error,
                     "smem=%u: this GPU (%s) allows at most %zu bytes of shared memory per block",
                     k->smem, run->dev->gpu, prop->sharedMemPerBlockOptin);
  p->grid = k->grid;
  p->block = k->block;
  p->smem = k->smem;

  int bps = 0;
  if (!VAL_CUDA (spin_occupancy (&bps, p->block, p->smem), error))
    return FALSE;
  if (k->regs > 0)
    {
      guint warps = (k->block + 31) / 32;
      guint per_warp = (k->regs * 32 + 255) / 256 * 256;
      guint64 per_block = (guint64) per_warp * warps;
      if (k->regs > 255 || per_block > (guint64) prop->regsPerBlock)
        return op_error (run, op, error,
                         "regs=%u with block=%u needs %" G_GUINT64_FORMAT " registers; this GPU "
                         "allows at most 255 per thread and %d per block",
                         k->regs, k->block, per_block, prop->regsPerBlock);
      int limit = (int) ((guint64) prop->regsPerMultiprocessor / per_block);
      if (limit < bps)
        {
          size_t lo = p->smem, hi = prop->sharedMemPerBlockOptin;
          /* The smallest padding whose occupancy is at most `limit`. */
          while (lo < hi)
            {
              size_t mid = lo + (hi - lo) / 2;
              int b = 0;
              if (!VAL_CUDA (spin_occupancy (&b, p->block, mid), error))
                return FALSE;
              if (b <= limit)
                hi = mid;
              else
                lo = mid + 1;
            }
          p->smem = lo;
          if (!VAL_CUDA (spin_occupancy (&bps, p->block, p->smem), error))
            return FALSE;
        }
    }
  if (bps <= 0)
    return op_error (run, op, error, "a block of %u threads with %zu bytes of shared memory "
                     "does not fit on one SM of this GPU (%s)", p->block, p->smem, run->dev->gpu);

  guint64 slots = (guint64) bps * (guint64) prop->multiProcessorCount;
  p->waves = (guint) ((p->grid + slots - 1) / slots);
  return TRUE;
}

static gboolean
plan_kernel (ValRun *run, const SchedOp *op, OpPlan *p, const char *const *names,
             GError **error)
{
  if (!plan_kernel_shape (run, op, p, error))
    return FALSE;
  const SchedKernel *k = &op->u.kernel;
  if (k->block_time >= 0)
    p->block_ns = (unsigned long long) k->block_time;
  else
    {
      /* time= is the kernel's isolated time on the device: spread it over
       * the waves this GPU makes of the grid, as the model does. */
      SimTime t = 0;
      if (!schedule_kernel_time (run->sched, op, names, &t, error))
        return FALSE;
      p->block_ns = (unsigned long long) ((t + p->waves / 2) / p->waves);
    }
  if (k->loads && p->smem > SPIN_FRESH_MAX_SMEM)
    return op_error (run, op, error,
                     "a `loads` kernel with %zu bytes of dynamic shared memory: the harness can "
                     "give a kernel whose code is not loaded at most %u (raising its limit would "
                     "load it)", p->smem, SPIN_FRESH_MAX_SMEM);
  p->slot = run->n_slots++;
  return TRUE;
}

/* A 2D copy's row pitch in device memory (val_rows.h). */
static size_t
device_pitch (const SchedCopy *c)
{
  return val_rows_pitch (c->bytes / c->rows);
}

/* The device memory a copy touches: its bytes, or its pitched rows. */
static guint64
device_bytes (const SchedCopy *c)
{
  return c->rows == 0 ? c->bytes : (guint64) device_pitch (c) * c->rows;
}

static gboolean
alloc_buffers (ValRun *run, GError **error)
{
  guint64 dev = 0, d2d = 0, pinned = 0, pageable = 0;
  for (gsize i = 0; i < run->n_ops; i++)
    {
      const SchedOp *op = schedule_op (run->sched, i);
      if (op->kind == SCHED_OP_MEMSET && op->host_memory)
        pinned = MAX (pinned, op->u.bytes); /* `memset ... pinned` writes the pinned buffer */
      else if (op->kind == SCHED_OP_MEMSET)
        dev = MAX (dev, op->u.bytes); /* memsets write the device buffer */
      if (op->kind != SCHED_OP_COPY && op->kind != SCHED_OP_MEMCPY)
        continue;
      guint64 b = op->u.copy.bytes;
      dev = MAX (dev, device_bytes (&op->u.copy));
      if (op->u.copy.dir == SCHED_DIR_D2D)
        d2d = MAX (d2d, device_bytes (&op->u.copy));
      else if (op->u.copy.pageable && op->u.copy.untouched == 0)
        pageable = MAX (pageable, b); /* untouched copies map their own */
      else
        pinned = MAX (pinned, b);
    }
  /* One buffer of the largest size per kind, shared by every copy of that
   * kind: copies that overlap may touch the same bytes, which costs nothing
   * in time and keeps the footprint at one buffer a kind. */
  if (dev > 0 && !VAL_CUDA (cudaMalloc (&run->dev_buf, dev), error))
    return FALSE;
  if (d2d > 0 && !VAL_CUDA (cudaMalloc (&run->d2d_buf, d2d), error))
    return FALSE;
  if (pinned > 0 && !VAL_CUDA (cudaMallocHost (&run->pinned_buf, pinned), error))
    return FALSE;
  if (pageable > 0)
    {
      run->pageable_buf = malloc (pageable);
      if (run->pageable_buf == NULL)
        {
          g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                       "cannot allocate %" G_GUINT64_FORMAT " bytes of pageable host memory",
                       pageable);
          return FALSE;
        }
      /* Touch every page now, so page faults stay out of the timed copies. */
      memset (run->pageable_buf, 1, pageable);
    }
  if (pinned > 0)
    memset (run->pinned_buf, 1, pinned);
  /* On the helper stream, as everything the harness does on the GPU: a
   * call on the legacy default stream would give it a hardware queue before
   * the schedule does (validate/FINDINGS.md, "The legacy default stream's
   * connection"). */
  if (dev > 0
      && (!VAL_CUDA (cudaMemsetAsync (run->dev_buf, 1, dev, run->helper), error)
          || !VAL_CUDA (cudaStreamSynchronize (run->helper), error)))
    return FALSE;
  return TRUE;
}

static void
plan_copy (ValRun *run, const SchedOp *op, OpPlan *p)
{
  void *host = op->u.copy.pageable ? run->pageable_buf : run->pinned_buf;
  switch (op->u.copy.dir)
    {
    case SCHED_DIR_H2D:
      p->dst = run->dev_buf;
      p->src = host;
      p->dir = cudaMemcpyHostToDevice;
      break;
    case SCHED_DIR_D2H:
      p->dst = host;
      p->src = run->dev_buf;
      p->dir = cudaMemcpyDeviceToHost;
      break;
    case SCHED_DIR_D2D:
      p->dst = run->d2d_buf;
      p->src = run->dev_buf;
      p->dir = cudaMemcpyDeviceToDevice;
      break;
    }
}

/* Every `pageable untouched` (or `untouched=SIZE`) copy gets host memory of its own, mapped
 * afresh before each run (val_untouched.h), so that the copy itself faults
 * its pages in every time. */
static gboolean
map_untouched (ValRun *run, GError **error)
{
  for (gsize i = 0; i < run->n_ops; i++)
    {
      const SchedOp *op = schedule_op (run->sched, i);
      OpPlan *p = &run->plan[i];
      if ((op->kind != SCHED_OP_COPY && op->kind != SCHED_OP_MEMCPY) || op->u.copy.untouched == 0
          || op->u.copy.bytes == 0)
        continue;
      val_untouched_unmap (p->fresh, op->u.copy.bytes);
      GError *local = NULL;
      p->fresh = val_untouched_map (op->u.copy.bytes, op->u.copy.huge, &local);
      if (p->fresh == NULL)
        {
          op_error (run, op, error, "%s", local->message);
          g_error_free (local);
          return FALSE;
        }
      /* untouched=SIZE: the rest of the buffer, its start, made resident */
      if (op->u.copy.untouched < op->u.copy.bytes)
        memset (p->fresh, 0, op->u.copy.bytes - op->u.copy.untouched);
      if (op->u.copy.dir == SCHED_DIR_H2D)
        p->src = p->fresh;
      else
        p->dst = p->fresh;
    }
  return TRUE;
}

static void
unmap_untouched (ValRun *run)
{
  for (gsize i = 0; run->plan != NULL && i < run->n_ops; i++)
    val_untouched_unmap (run->plan[i].fresh, schedule_op (run->sched, i)->u.copy.bytes);
}

static gboolean
create_streams (ValRun *run, GError **error)
{
  run->n_streams = schedule_n_streams (run->sched);
  run->streams = g_new0 (cudaStream_t, run->n_streams);
  run->streams[SCHED_STREAM_DEFAULT] = cudaStreamLegacy;
  for (guint i = 1; i < run->n_streams; i++)
    {
      const SchedStream *s = schedule_stream (run->sched, i);
      /* CUDA clamps priorities into its range itself; clamping here too
       * keeps the value the CSV reports honest. Lower is more urgent. */
      int prio = CLAMP (s->priority, run->dev->priority_greatest, run->dev->priority_least);
      if (prio != s->priority)
        g_printerr ("streamsim-validate: %s:%u: priority %d is outside this GPU's range %d..%d; "
                    "CUDA uses %d\n", schedule_path (run->sched), s->line, s->priority,
                    run->dev->priority_greatest, run->dev->priority_least, prio);
      unsigned int flags = s->nonblocking ? cudaStreamNonBlocking : cudaStreamDefault;
      if (!VAL_CUDA (cudaStreamCreateWithPriority (&run->streams[i], flags, prio), error))
        return FALSE;
    }
  /* Created last so that the schedule's streams get the hardware queues
   * they would get in a program of their own. */
  if (!VAL_CUDA (cudaStreamCreateWithFlags (&run->helper, cudaStreamNonBlocking), error))
    return FALSE;

  run->n_events = schedule_n_events (run->sched);
  run->events = g_new0 (cudaEvent_t, MAX (run->n_events, 1));
  for (guint i = 0; i < run->n_events; i++)
    {
      unsigned flags = cudaEventDisableTiming;
      if (schedule_event_blocking_sync (run->sched, i))
        flags |= cudaEventBlockingSync;
      if (!VAL_CUDA (cudaEventCreateWithFlags (&run->events[i], flags), error))
        return FALSE;
    }
  return TRUE;
}

/* Each `free` gives back the allocation of the latest `malloc` of its size
 * above it in the file that no other `free` gave back: one stack of
 * `malloc` ops per size, in file order. */
static gboolean
plan_allocs (ValRun *run, GError **error)
{
  g_autoptr (GHashTable) unfreed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                          (GDestroyNotify) g_array_unref);
  for (gsize i = 0; i < run->n_ops; i++)
    {
      const SchedOp *op = schedule_op (run->sched, i);
      if (op->kind != SCHED_OP_MALLOC && op->kind != SCHED_OP_FREE)
        continue;
      run->allocates = TRUE;
      GArray *stack = g_hash_table_lookup (unfreed, &op->u.bytes);
      if (op->kind == SCHED_OP_MALLOC)
        {
          if (stack == NULL)
            {
              stack = g_array_new (FALSE, FALSE, sizeof (gsize));
              g_hash_table_insert (unfreed, g_memdup2 (&op->u.bytes, sizeof op->u.bytes), stack);
            }
          g_array_append_val (stack, i);
          continue;
        }
      if (stack == NULL || stack->len == 0)
        return op_error (run, op, error, "a `free` of %" G_GUINT64_FORMAT " bytes with no `malloc` "
                         "of that size above it left to give back", op->u.bytes);
      run->plan[i].malloc_op = g_array_index (stack, gsize, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
    }
  return TRUE;
}

/* The default memory pool keeps what the schedule's `pool_threshold` says
 * at a synchronize (0, the driver's default, when it says nothing). */
static gboolean
set_pool_threshold (ValRun *run, GError **error)
{
  cudaMemPool_t pool;
  guint64 threshold = schedule_pool_threshold (run->sched);
  return VAL_CUDA (cudaDeviceGetDefaultMemPool (&pool, run->dev->ordinal), error)
         && VAL_CUDA (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold),
                      error);
}

/* After a repeat: what it allocated and did not give back is freed, and the
 * pool emptied, so that every repeat starts from an empty pool as the
 * model's run does. */
static gboolean
empty_pool (ValRun *run, GError **error)
{
  for (gsize i = 0; i < run->n_ops; i++)
    if (run->plan[i].ptr != NULL)
      {
        if (!VAL_CUDA (cudaFreeAsync (run->plan[i].ptr, run->helper), error))
          return FALSE;
        run->plan[i].ptr = NULL;
      }
  cudaMemPool_t pool;
  return VAL_CUDA (cudaStreamSynchronize (run->helper), error)
         && VAL_CUDA (cudaDeviceGetDefaultMemPool (&pool, run->dev->ordinal), error)
         && VAL_CUDA (cudaMemPoolTrimTo (pool, 0), error);
}

/* Each graph launch's nodes, captured from its stream into a graph and
 * instantiated, once: the launch is then one cudaGraphLaunch, as a
 * program's that captured its work would be. A graph's records and waits
 * are captured as they stand, carrying the capture to its other streams
 * and back (its branches). The harness times kernels on their own clock,
 * wherever they run; copies and memsets are matched with CUPTI's records
 * by their stream, which a graph's nodes do not keep, so its graphs are of
 * kernels only. */
static gboolean
plan_graphs (ValRun *run, GError **error)
{
  for (gsize i = 0; i < run->n_ops;)
    {
      const SchedOp *first = schedule_op (run->sched, i);
      if (!first->graph_launch)
        {
          i++;
          continue;
        }
      if (first->stream == SCHED_STREAM_DEFAULT)
        return op_error (run, first, error, "a graph launched into the legacy default stream: "
                         "the harness captures a graph from its stream, which that one cannot be");
      cudaStream_t s = run->streams[first->stream];
      if (!VAL_CUDA (cudaStreamBeginCapture (s, cudaStreamCaptureModeThreadLocal), error))
        return FALSE;
      gsize j = i;
      for (; j < run->n_ops && schedule_op (run->sched, j)->graph == first->graph; j++)
        {
          const SchedOp *op = schedule_op (run->sched, j);
          const OpPlan *p = &run->plan[j];
          cudaStream_t in = run->streams[op->stream];
          if (op->kind == SCHED_OP_RECORD)
            {
              if (!VAL_CUDA (cudaEventRecord (run->events[op->event], in), error))
                return FALSE;
              continue;
            }
          if (op->kind == SCHED_OP_WAIT)
            {
              if (!VAL_CUDA (cudaStreamWaitEvent (in, run->events[op->event], 0), error))
                return FALSE;
              continue;
            }
          if (op->kind != SCHED_OP_KERNEL)
            {
              cudaGraph_t dropped;
              cudaStreamEndCapture (s, &dropped);
              if (dropped != NULL)
                cudaGraphDestroy (dropped);
              return op_error (run, op, error, "the harness runs graphs of kernels only: it "
                               "matches copies and memsets with CUPTI's records by stream, "
                               "which a graph's nodes do not keep");
            }
          if (!VAL_CUDA (spin_launch (p->grid, p->block, p->smem, in, p->block_ns,
                                      &run->slots[p->slot]), error))
            return FALSE;
        }
      cudaGraph_t graph;
      if (!VAL_CUDA (cudaStreamEndCapture (s, &graph), error))
        return FALSE;
      gboolean ok = VAL_CUDA (cudaGraphInstantiate (&run->plan[i].graph, graph, 0), error);
      cudaGraphDestroy (graph);
      if (!ok)
        return FALSE;
      i = j;
    }
  return TRUE;
}

/* With CUDA_MODULE_LOADING=EAGER every kernel is loaded when the context
 * is made, and a `loads` kernel runs as a plain one. */
static void
warn_eager_loading (const Schedule *sched)
{
  const char *mode = g_getenv ("CUDA_MODULE_LOADING");
  if (mode == NULL || g_ascii_strcasecmp (mode, "LAZY") == 0)
    return;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if (op->kind == SCHED_OP_KERNEL && op->u.kernel.loads)
        {
          g_printerr ("streamsim-validate: %s:%u:%u: CUDA_MODULE_LOADING=%s: this `loads` "
                      "kernel's code is loaded before it is launched\n",
                      schedule_path (sched), op->line, op->column, mode);
          return;
        }
    }
}

ValRun *
val_run_new (const Schedule *sched, const ValDevice *dev, const char *const *names,
             GError **error)
{
  g_return_val_if_fail (sched != NULL && dev != NULL && names != NULL, NULL);

  ValRun *run = g_new0 (ValRun, 1);
  run->sched = sched;
  run->dev = dev;
  run->n_ops = schedule_n_ops (sched);
  run->plan = g_new0 (OpPlan, MAX (run->n_ops, 1));

  if (!VAL_CUDA (spin_configure (dev->prop.sharedMemPerBlockOptin), error)
      || !create_streams (run, error) || !alloc_buffers (run, error))
    goto fail;

  for (gsize i = 0; i < run->n_ops; i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      OpPlan *p = &run->plan[i];
      switch (op->kind)
        {
        case SCHED_OP_COPY:
        case SCHED_OP_MEMCPY:
        case SCHED_OP_MEMSET:
          if (op->kind != SCHED_OP_MEMSET)
            plan_copy (run, op, p);
          if (!VAL_CUDA (cudaEventCreate (&p->ev_a), error)
              || !VAL_CUDA (cudaEventCreate (&p->ev_b), error))
            goto fail;
          break;
        case SCHED_OP_KERNEL:
          if (!plan_kernel (run, op, p, names, error))
            goto fail;
          break;
        case SCHED_OP_FREE:
        case SCHED_OP_RECORD:
        case SCHED_OP_WAIT:
        case SCHED_OP_MALLOC:
          if (!VAL_CUDA (cudaEventCreate (&p->ev_a), error))
            goto fail;
          break;
        case SCHED_OP_HOSTFN:
          p->hostfn = run->n_hostfns++;
          break;
        default:
          break;
        }
    }

  run->hostfns = g_new0 (ValHostFn, MAX (run->n_hostfns, 1));
  for (gsize i = 0; i < run->n_ops; i++)
    if (schedule_op (sched, i)->kind == SCHED_OP_HOSTFN)
      run->hostfns[run->plan[i].hostfn].ns = schedule_op (sched, i)->u.duration;
  warn_eager_loading (sched);
  run->slots_host = g_new0 (SpinSlot, MAX (run->n_slots, 1));
  if (!VAL_CUDA (cudaMalloc ((void **) &run->slots, MAX (run->n_slots, 1) * sizeof (SpinSlot)),
                 error))
    goto fail;
  run->clock = val_clock_new (run->helper, error);
  if (run->clock == NULL || !plan_graphs (run, error) || !plan_allocs (run, error)
      || (run->allocates && !set_pool_threshold (run, error)))
    goto fail;
  run->threads = val_threads_new (sched, dev->ordinal);
  return run;

fail:
  val_run_free (run);
  return NULL;
}

void
val_run_free (ValRun *run)
{
  if (run == NULL)
    return;
  /* Teardown is best effort: errors here cannot change any result. */
  cudaDeviceSynchronize ();
  val_clock_free (run->clock);
  for (gsize i = 0; i < run->n_ops; i++)
    {
      if (run->plan[i].ev_a != NULL)
        cudaEventDestroy (run->plan[i].ev_a);
      if (run->plan[i].ev_b != NULL)
        cudaEventDestroy (run->plan[i].ev_b);
      if (run->plan[i].graph != NULL)
        cudaGraphExecDestroy (run->plan[i].graph);
    }
  for (guint i = 0; run->events != NULL && i < run->n_events; i++)
    if (run->events[i] != NULL)
      cudaEventDestroy (run->events[i]);
  for (guint i = 1; run->streams != NULL && i < run->n_streams; i++)
    if (run->streams[i] != NULL)
      cudaStreamDestroy (run->streams[i]);
  if (run->helper != NULL)
    cudaStreamDestroy (run->helper);
  val_cupti_free (run->cupti);
  g_free (run->cupti_ids);
  cudaFree (run->slots);
  cudaFree (run->dev_buf);
  cudaFree (run->d2d_buf);
  cudaFreeHost (run->pinned_buf);
  free (run->pageable_buf);
  unmap_untouched (run);
  val_threads_free (run->threads);
  g_free (run->slots_host);
  g_free (run->hostfns);
  g_free (run->streams);
  g_free (run->events);
  g_free (run->plan);
  g_free (run);
}

/* A copy op's call: cudaMemcpyAsync into `s`, or cudaMemcpy for a `memcpy`;
 * with rows=, their 2D forms, rows of bytes / rows, pitched in device
 * memory and packed in host memory (device_pitch). */
static cudaError_t
copy_call (const SchedOp *op, const OpPlan *p, cudaStream_t s, const char **call)
{
  const SchedCopy *c = &op->u.copy;
  gboolean blocking = op->kind == SCHED_OP_MEMCPY;
  if (c->rows == 0)
    {
      *call = blocking ? "cudaMemcpy" : "cudaMemcpyAsync";
      return blocking ? cudaMemcpy (p->dst, p->src, c->bytes, p->dir)
                      : cudaMemcpyAsync (p->dst, p->src, c->bytes, p->dir, s);
    }
  size_t width = c->bytes / c->rows, pitch = device_pitch (c);
  size_t dpitch = p->dir == cudaMemcpyDeviceToHost ? width : pitch;
  size_t spitch = p->dir == cudaMemcpyHostToDevice ? width : pitch;
  *call = blocking ? "cudaMemcpy2D" : "cudaMemcpy2DAsync";
  return blocking ? cudaMemcpy2D (p->dst, dpitch, p->src, spitch, width, c->rows, p->dir)
                  : cudaMemcpy2DAsync (p->dst, dpitch, p->src, spitch, width, c->rows, p->dir, s);
}

static gboolean
fresh_used_up (const ValRun *run, const SchedOp *op, GError **error)
{
  return op_error (run, op, error,
                   "a `loads` kernel takes a kernel never launched before in every repeat, "
                   "and the harness's %d are used up: ask for fewer repeats",
                   SPIN_FRESH_INSTANCES);
}

/* `poll`: cudaStreamQuery or cudaEventQuery until the work is done, the
 * op's host work between two queries; what the last query returned
 * (cudaSuccess, or an error other than cudaErrorNotReady), and in *call
 * its name. */
static cudaError_t
poll_until_done (const ValRun *run, const SchedOp *op, cudaStream_t s, const char **call)
{
  gboolean stream = op->kind == SCHED_OP_SYNC_STREAM;
  *call = stream ? "cudaStreamQuery" : "cudaEventQuery";
  for (;;)
    {
      cudaError_t rc = stream ? cudaStreamQuery (s) : cudaEventQuery (run->events[op->event]);
      if (rc != cudaErrorNotReady)
        return rc;
      if (op->u.duration > 0)
        val_cuda_busy (op->u.duration);
    }
}

/* Issues op i: only the API call (and, in events mode, its timing events).
 * The caller reads the host clock once between two ops: that reading is
 * both the previous op's return and this op's issue, so the harness adds
 * one clock read per op to the program it measures, not two. */
static gboolean
issue_op (ValRun *run, gsize i, gboolean events, GError **error)
{
  const SchedOp *op = schedule_op (run->sched, i);
  OpPlan *p = &run->plan[i];
  /* Host work and the device and event syncs name no stream. */
  cudaStream_t s = op->stream < run->n_streams ? run->streams[op->stream] : NULL;
  cudaError_t rc = cudaSuccess;
  const char *call = NULL;

  /* A graph launch is its first node's call; the others run in it. */
  if (op->graph != 0)
    return !op->graph_launch
           || val_cuda_check (cudaGraphLaunch (p->graph, s), "cudaGraphLaunch", error);

  switch (op->kind)
    {
    case SCHED_OP_COPY:
      if (events && !VAL_CUDA (cudaEventRecord (p->ev_a, s), error))
        return FALSE;
      rc = copy_call (op, p, s, &call);
      if (rc == cudaSuccess && events)
        return VAL_CUDA (cudaEventRecord (p->ev_b, s), error);
      break;
    case SCHED_OP_MEMCPY:
      /* The end event is recorded after cudaMemcpy returned: it only bounds
       * the copy's end from above, so the host's return is used instead. */
      if (events && !VAL_CUDA (cudaEventRecord (p->ev_a, cudaStreamLegacy), error))
        return FALSE;
      rc = copy_call (op, p, NULL, &call);
      break;
    case SCHED_OP_KERNEL:
      if (!op->u.kernel.loads)
        rc = spin_launch (p->grid, p->block, p->smem, s, p->block_ns, &run->slots[p->slot]);
      else if (run->threads != NULL)
        rc = spin_launch_fresh (p->fresh_copy, p->grid, p->block, p->smem, s, p->block_ns,
                                &run->slots[p->slot]);
      else if (run->next_fresh >= SPIN_FRESH_INSTANCES)
        return fresh_used_up (run, op, error);
      else
        rc = spin_launch_fresh (run->next_fresh++, p->grid, p->block, p->smem, s, p->block_ns,
                                &run->slots[p->slot]);
      call = "kernel launch";
      break;
    case SCHED_OP_MEMSET:
      if (events && !VAL_CUDA (cudaEventRecord (p->ev_a, s), error))
        return FALSE;
      rc = cudaMemsetAsync (op->host_memory ? run->pinned_buf : run->dev_buf, 0, op->u.bytes, s);
      call = "cudaMemsetAsync";
      if (rc == cudaSuccess && events)
        return VAL_CUDA (cudaEventRecord (p->ev_b, s), error);
      break;
    case SCHED_OP_HOSTFN:
      rc = val_hostfn_launch (&run->hostfns[p->hostfn], s);
      call = "cudaLaunchHostFunc";
      break;
    case SCHED_OP_RECORD:
      rc = cudaEventRecord (run->events[op->event], s);
      call = "cudaEventRecord";
      if (rc == cudaSuccess && events)
        return VAL_CUDA (cudaEventRecord (p->ev_a, s), error);
      break;
    case SCHED_OP_WAIT:
      rc = cudaStreamWaitEvent (s, run->events[op->event], 0);
      call = "cudaStreamWaitEvent";
      if (rc == cudaSuccess && events)
        return VAL_CUDA (cudaEventRecord (p->ev_a, s), error);
      break;
    case SCHED_OP_MALLOC:
      rc = cudaMallocAsync (&p->ptr, op->u.bytes, s);
      call = "cudaMallocAsync";
      if (rc == cudaSuccess && events)
        return VAL_CUDA (cudaEventRecord (p->ev_a, s), error);
      break;
    case SCHED_OP_FREE:
      {
        OpPlan *m = &run->plan[p->malloc_op];
        if (m->ptr == NULL)
          return op_error (run, op, error, "its `malloc` (line %u) was not made before it "
                           "(another host thread's, later)",
                           schedule_op (run->sched, p->malloc_op)->line);
        rc = cudaFreeAsync (m->ptr, s);
        m->ptr = NULL;
        call = "cudaFreeAsync";
        if (rc == cudaSuccess && events)
          return VAL_CUDA (cudaEventRecord (p->ev_a, s), error);
        break;
      }
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
      if (op->poll)
        rc = poll_until_done (run, op, s, &call);
      else if (op->kind == SCHED_OP_SYNC_STREAM)
        {
          rc = cudaStreamSynchronize (s);
          call = "cudaStreamSynchronize";
        }
      else
        {
          rc = cudaEventSynchronize (run->events[op->event]);
          call = "cudaEventSynchronize";
        }
      break;
    case SCHED_OP_SYNC_DEVICE:
      rc = cudaDeviceSynchronize ();
      call = "cudaDeviceSynchronize";
      break;
    case SCHED_OP_HOST:
      val_cuda_busy (op->u.duration);
      break;
    case SCHED_OP_SPAWN:
    case SCHED_OP_JOIN:
      break; /* only in schedules of several host threads, whose runner performs them */
    }
  if (rc != cudaSuccess)
    {
      char *what = g_strdup_printf ("%s for %s:%u", call, schedule_path (run->sched), op->line);
      gboolean ok = val_cuda_check (rc, what, error);
      g_free (what);
      return ok;
    }
  return TRUE;
}

gboolean
val_run_use_cupti (ValRun *run, GError **error)
{
  g_return_val_if_fail (run != NULL, FALSE);
  if (run->cupti != NULL)
    return TRUE;
  run->cupti = val_cupti_open (error);
  if (run->cupti == NULL)
    return FALSE;
  run->cupti_ids = g_new0 (guint32, run->n_streams);
  for (guint i = 0; i < run->n_streams; i++)
    if (!val_cupti_stream_id (run->cupti, run->streams[i], &run->cupti_ids[i], error))
      {
        val_cupti_free (run->cupti);
        run->cupti = NULL;
        return FALSE;
      }
  return TRUE;
}

gboolean
val_run_stop_cupti (ValRun *run, GError **error)
{
  return run->cupti == NULL || val_cupti_stop (run->cupti, error);
}

const char *
val_run_cupti_library (const ValRun *run)
{
  return run->cupti != NULL ? val_cupti_library (run->cupti) : NULL;
}

static gboolean
event_time (ValRun *run, cudaEvent_t ev, SimTime *out, GError **error)
{
  return val_clock_from_event (run->clock, ev, out, error);
}

/* Op i's start and end from what the harness itself saw: kernels' global
 * timer slots, host calls' clock reads, and with events the timing events.
 * A start event fires when its stream reaches it, which can be before the
 * call that follows it was even made; a copy cannot start before its call,
 * hence the clamp. */
static gboolean
collect_op (ValRun *run, gsize i, ValTiming timing, SimTime returned, ValTimes *t,
            GError **error)
{
  const SchedOp *op = schedule_op (run->sched, i);
  OpPlan *p = &run->plan[i];
  t->start[i] = t->end[i] = -1;

  switch (op->kind)
    {
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
    case SCHED_OP_MEMSET:
      if (timing != VAL_TIMING_EVENTS)
        return TRUE; /* CUPTI's pass, or not timed */
      if (!event_time (run, p->ev_a, &t->start[i], error))
        return FALSE;
      t->start[i] = MAX (t->start[i], t->issue[i]);
      /* cudaMemcpy's end event can only be recorded after the call
       * returned: the host's return bounds the copy's end better. */
      if (op->kind == SCHED_OP_MEMCPY)
        t->end[i] = returned;
      else if (!event_time (run, p->ev_b, &t->end[i], error))
        return FALSE;
      t->end[i] = MAX (t->end[i], t->start[i]);
      return TRUE;
    case SCHED_OP_KERNEL:
      {
        const SpinSlot *slot = &run->slots_host[p->slot];
        if (slot->start == ~0ULL || slot->end == 0)
          {
            g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                         "%s:%u: the kernel left no timing: it did not run", schedule_path (run->sched),
                         op->line);
            return FALSE;
          }
        t->start[i] = val_clock_from_gpu (run->clock, slot->start);
        t->end[i] = val_clock_from_gpu (run->clock, slot->end);
        return TRUE;
      }
    case SCHED_OP_HOSTFN:
      {
        const ValHostFn *fn = &run->hostfns[p->hostfn];
        if (fn->start < 0 || fn->end < 0)
          return op_error (run, op, error, "the host function left no timing: it did not run");
        t->start[i] = fn->start;
        t->end[i] = fn->end;
        return TRUE;
      }
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
    case SCHED_OP_MALLOC:
    case SCHED_OP_FREE:
      /* a graph's are captured with it and leave no event of their own */
      if (timing != VAL_TIMING_EVENTS || op->graph != 0)
        return TRUE; /* derived later */
      if (!event_time (run, p->ev_a, &t->end[i], error))
        return FALSE;
      t->end[i] = MAX (t->end[i], t->issue[i]);
      t->start[i] = t->end[i];
      return TRUE;
    default:
      /* Host calls: from the call to its return. */
      t->start[i] = t->issue[i];
      t->end[i] = returned;
      return TRUE;
    }
}

/* The next CUPTI record at or after `r` of stream `id` and of the kind
 * (memset or copy) asked for; `n` when there is none. Records are sorted
 * by stream, then start. */
static gsize
next_record (const ValRun *run, gsize r, guint32 id, gboolean memset)
{
  gsize n = val_cupti_n_copies (run->cupti);
  for (; r < n; r++)
    {
      const ValCuptiCopy *c = val_cupti_copy (run->cupti, r);
      if (c->stream_id == id && c->memset == memset)
        return r;
    }
  return n;
}

/* Gives each copy and memset op its CUPTI records: records of one stream
 * and kind, in start order, are that stream's copies (or memsets) in issue
 * order. A copy the driver split into several transfers (pageable memory
 * goes through a staging buffer in chunks) shows as several records: they
 * are merged until their bytes make up the op's. A memset is one record. */
static gboolean
collect_cupti (ValRun *run, ValTimes *t, const SimTime *returned, GError **error)
{
  gsize n = val_cupti_n_copies (run->cupti);
  /* Issue order is file order on one host thread; with several, threads
   * that share a stream reach it in the order of their calls. */
  g_autofree guint32 *order = schedule_issue_order (run->sched, t->issue);
  for (guint s = 0; s < run->n_streams; s++)
    {
      guint32 id = run->cupti_ids[s];
      gsize r_copy = next_record (run, 0, id, FALSE), r_set = next_record (run, 0, id, TRUE);
      for (gsize k = 0; k < run->n_ops; k++)
        {
          gsize i = order != NULL ? order[k] : k;
          const SchedOp *op = schedule_op (run->sched, i);
          gboolean is_set = op->kind == SCHED_OP_MEMSET;
          if ((op->kind != SCHED_OP_COPY && op->kind != SCHED_OP_MEMCPY && !is_set)
              || op->stream != s)
            continue;
          guint64 want = is_set ? op->u.bytes : op->u.copy.bytes;
          gsize *r = is_set ? &r_set : &r_copy;
          guint64 bytes = 0;
          t->start[i] = -1;
          while (bytes < want && *r < n)
            {
              const ValCuptiCopy *c = val_cupti_copy (run->cupti, *r);
              *r = next_record (run, *r + 1, id, is_set);
              if (t->start[i] < 0)
                t->start[i] = c->start;
              t->end[i] = c->end;
              bytes += is_set ? want : MAX (c->bytes, 1);
            }
          if (bytes < want)
            {
              g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                           "%s:%u: CUPTI reported no (or too few) %s records for this op "
                           "(stream %s); try --timing events", schedule_path (run->sched),
                           op->line, is_set ? "memset" : "copy",
                           schedule_stream (run->sched, s)->name);
              return FALSE;
            }
          /* A blocking copy (cudaMemcpy, or pageable memory, which goes
           * through a staging buffer the CPU copies to or from) is done for
           * the program only when the call returns: CUPTI sees the DMA
           * alone, which for a pageable D2H ends before the CPU has copied
           * the data out of the staging buffer. */
          if (!is_set
              && (op->kind == SCHED_OP_MEMCPY
                  || (op->u.copy.pageable && op->u.copy.dir != SCHED_DIR_D2D)))
            t->end[i] = MAX (t->end[i], returned[i]);
        }
    }
  return TRUE;
}

/* With several host threads each `loads` kernel's copy is chosen before
 * the repeat, in file order, so that the threads share no counter. Graph
 * nodes launch the copy captured with the graph. */
static gboolean
number_fresh (ValRun *run, GError **error)
{
  for (gsize i = 0; i < run->n_ops; i++)
    {
      const SchedOp *op = schedule_op (run->sched, i);
      if (op->kind != SCHED_OP_KERNEL || !op->u.kernel.loads || op->graph != 0)
        continue;
      if (run->next_fresh >= SPIN_FRESH_INSTANCES)
        return fresh_used_up (run, op, error);
      run->plan[i].fresh_copy = run->next_fresh++;
    }
  return TRUE;
}

typedef struct
{
  ValRun *run;
  gboolean events;
} IssueArgs;

static gboolean
issue_on_thread (gpointer data, gsize i, GError **error)
{
  const IssueArgs *args = data;
  return issue_op (args->run, i, args->events, error);
}

/* Every op issued by its own host thread (val_threads.h); each thread's
 * ops are timed as the one-thread loop times them. */
static gboolean
issue_threads (ValRun *run, ValTiming timing, ValTimes *t, SimTime *returned, GError **error)
{
  IssueArgs args = { run, timing == VAL_TIMING_EVENTS };
  return number_fresh (run, error)
         && val_threads_run (run->threads, issue_on_thread, &args, t->issue, returned, error);
}

gboolean
val_run_once (ValRun *run, ValTiming timing, ValTimes *t, GError **error)
{
  g_return_val_if_fail (run != NULL && t != NULL, FALSE);
  g_return_val_if_fail (timing != VAL_TIMING_CUPTI || run->cupti != NULL, FALSE);

  if (!VAL_CUDA (cudaDeviceSynchronize (), error)
      || !map_untouched (run, error)
      || !VAL_CUDA (spin_reset_slots (run->slots, run->n_slots, run->helper), error)
      || !VAL_CUDA (cudaStreamSynchronize (run->helper), error)
      || !val_clock_sync (run->clock, error))
    return FALSE;
  if (timing == VAL_TIMING_CUPTI && !val_cupti_begin (run->cupti, error))
    return FALSE;
  for (guint k = 0; k < run->n_hostfns; k++)
    val_hostfn_reset (&run->hostfns[k]);

  SimTime *returned = g_new (SimTime, MAX (run->n_ops, 1));
  gboolean ok = TRUE;
  if (run->threads != NULL)
    ok = issue_threads (run, timing, t, returned, error);
  else
    {
      SimTime now = val_cuda_now ();
      for (gsize i = 0; i < run->n_ops && ok; i++)
        {
          t->issue[i] = now;
          ok = issue_op (run, i, timing == VAL_TIMING_EVENTS, error);
          now = val_cuda_now ();
          returned[i] = now;
        }
    }
  if (ok)
    ok = VAL_CUDA (cudaDeviceSynchronize (), error);
  t->done = val_cuda_now ();
  if (ok && timing == VAL_TIMING_CUPTI)
    ok = val_cupti_end (run->cupti, error);
  if (ok && run->allocates)
    ok = empty_pool (run, error);
  if (ok)
    ok = VAL_CUDA (cudaMemcpyAsync (run->slots_host, run->slots,
                                    MAX (run->n_slots, 1) * sizeof (SpinSlot),
                                    cudaMemcpyDeviceToHost, run->helper), error)
         && VAL_CUDA (cudaStreamSynchronize (run->helper), error);
  for (gsize i = 0; i < run->n_ops && ok; i++)
    ok = collect_op (run, i, timing, returned[i], t, error);
  if (ok && timing == VAL_TIMING_CUPTI)
    ok = collect_cupti (run, t, returned, error);
  if (ok)
    marker_times_derive (run->sched, t->issue, t->start, t->end);
  g_free (returned);
  return ok;
}

ValTimes *
val_times_new (gsize n_ops)
{
  ValTimes *t = g_new0 (ValTimes, 1);
  t->issue = g_new0 (SimTime, MAX (n_ops, 1));
  t->start = g_new0 (SimTime, MAX (n_ops, 1));
  t->end = g_new0 (SimTime, MAX (n_ops, 1));
  return t;
}

void
val_times_free (ValTimes *t)
{
  if (t == NULL)
    return;
  g_free (t->issue);
  g_free (t->start);
  g_free (t->end);
  g_free (t);
}

SimTime
val_run_block_time (const ValRun *run, gsize op)
{
  g_return_val_if_fail (run != NULL && op < run->n_ops, 0);
  return (SimTime) run->plan[op].block_ns;
}

guint
val_run_waves (const ValRun *run, gsize op)
{
  g_return_val_if_fail (run != NULL && op < run->n_ops, 0);
  return run->plan[op].waves;
}

SimTime
val_run_clock_window (const ValRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return val_clock_host_window (run->clock) + val_clock_event_window (run->clock);
}
