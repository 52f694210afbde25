/* eng_check_kernel.c: the kernel engine's rules: how many kernels ran at once, how long each took, and what they held of the SMs (kernel-limit, kernel-time, sm-capacity).
 *
 *  - kernel-limit: at most max_concurrent_kernels kernels run at once; with
 *    connection_serializes, kernels of one connection never overlap.
 *  - kernel-time: a kernel lasts at least waves x block time (no schedule of
 *    its blocks on sm_count x blocks-per-SM slots is shorter), and exactly that
 *    when no other kernel ran during it. Block time is block_time=, or time=
 *    divided by the waves and rounded, as MODEL.md defines it.
 *  - sm-capacity: for every window [a, b] and the kernels that ran entirely
 *    inside it, what their blocks held over time (grid x block time x each
 *    block's block slot, threads, shared memory and registers) is at most what
 *    sm_count SMs hold over b - a, resource by resource. Each block is counted
 *    at the least it can take (threads and registers not rounded to warps),
 *    so the rule holds whether the model pools SMs or places blocks per SM.
 *    With more than WINDOW_KERNELS kernels only the busy periods (maximal
 *    runs of overlapping kernels) are windows.
 *  Memsets are kernels throughout: one block of GPU_MEMSET_BLOCK threads per
 *  SM for latency + bytes / bandwidth (gpu_profile.h).
 * Blocks per SM come from gpu_profile_blocks_per_sm(), the profile's shared
 * occupancy rule; the property test checks that rule against the raw limits.
 *
 * Not checked: per-SM placement: results carry no block counts per instant
 * or per SM, so the SM rule is the capacity integral above, which a run that
 * over-fills SMs for a while and leaves them idle later can pass, and which
 * cannot see one SM over its limits while another has room. */
#include <stdlib.h>
#include <string.h>
#include "eng_check_rules.h"

/* Windows checked pairwise below this many kernels; busy periods above. */
#define WINDOW_KERNELS 2000

/* The kernel an op runs as: its own, or a memset's (gpu_profile.h). */
static const SchedKernel *
kernel_of (const GpuProfile *p, const SchedOp *sop, SchedKernel *scratch)
{
  if (sop->kind != SCHED_OP_MEMSET)
    return &sop->u.kernel;
  *scratch = (SchedKernel) { p->sm_count, GPU_MEMSET_BLOCK, 0, 0,
                             gpu_profile_memset_time (p, sop->u.bytes, sop->host_memory), SCHED_NONE, FALSE };
  return scratch;
}

/* What an SM holds: block slots, threads, shared memory, registers. */
enum
{
  RES_BLOCKS,
  RES_THREADS,
  RES_SMEM,
  RES_REGS,
  N_RESOURCES
};

static const char *const resource_names[N_RESOURCES] = {
  "block slots", "threads", "bytes of shared memory", "registers",
};

typedef struct
{
  guint32 op;
  SimTime start, end;
  guint bps;        /* blocks per SM */
  guint64 waves;
  SimTime block_time;
  double work[N_RESOURCES]; /* grid x block time x what one block takes of each resource */
  gboolean shared;  /* another kernel ran during part of it */
} KernelSpan;

static int
kernel_by_start (const void *a, const void *b)
{
  const KernelSpan *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->op < y->op ? -1 : x->op > y->op;
}

static int
kernel_by_end (const void *a, const void *b)
{
  const KernelSpan *const *x = a, *const *y = b;
  if ((*x)->end != (*y)->end)
    return (*x)->end < (*y)->end ? -1 : 1;
  return (*x)->op < (*y)->op ? -1 : (*x)->op > (*y)->op;
}

/* Fills the kernel's shape; FALSE (with a violation) if the profile cannot
 * run it, which eng_sim_new should have refused. */
static gboolean
kernel_shape (EngCheck *check, guint32 op, KernelSpan *k)
{
  const GpuProfile *p = check->profile;
  const SchedOp *sop = sop_of (check, op);
  SchedKernel scratch;
  const SchedKernel *kern = kernel_of (p, sop, &scratch);
  k->bps = gpu_profile_blocks_per_sm (p, kern->block, kern->smem, kern->regs);
  if (k->bps == 0)
    {
      eng_check_report (check, ENG_CHECK_ENGINE, op, NONE,
                        "ran, but one block (block=%u, smem=%u, regs=%u) does not fit on an SM",
                        kern->block, kern->smem, kern->regs);
      return FALSE;
    }
  guint64 per_wave = (guint64) p->sm_count * k->bps;
  k->waves = (kern->grid + per_wave - 1) / per_wave;
  if (kern->block_time >= 0)
    k->block_time = kern->block_time;
  else
    {
      SimTime total = 0;
      if (!schedule_kernel_time (check->sched, sop, (const char *const *) p->names, &total, NULL))
        {
          eng_check_report (check, ENG_CHECK_ENGINE, op, NONE, "ran, but has no time= for this device");
          return FALSE;
        }
      k->block_time = (total + (SimTime) k->waves / 2) / (SimTime) k->waves;
    }
  /* The least each block can take: threads and registers unrounded, so
   * that the bound holds whatever granularity the model counts in. */
  double blocks_time = (double) kern->grid * (double) k->block_time;
  guint regs = kern->regs != 0 ? kern->regs : p->default_regs;
  k->work[RES_BLOCKS] = blocks_time;
  k->work[RES_THREADS] = blocks_time * kern->block;
  k->work[RES_SMEM] = blocks_time * kern->smem;
  k->work[RES_REGS] = blocks_time * kern->block * regs;
  return TRUE;
}

typedef struct
{
  SimTime at;
  int delta;    /* -1 an end, +1 a start */
  guint32 op;
} Edge;

static int
edge_order (const void *a, const void *b)
{
  const Edge *x = a, *y = b;
  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  if (x->delta != y->delta)
    return x->delta < y->delta ? -1 : 1; /* ends first: spans are half-open */
  return x->op < y->op ? -1 : x->op > y->op;
}

static void
check_kernel_limit (EngCheck *check, KernelSpan *ks, gsize n)
{
  const GpuProfile *p = check->profile;
  Edge *edges = g_new (Edge, 2 * n);
  gsize m = 0;
  for (gsize i = 0; i < n; i++)
    if (ks[i].end != ks[i].start)
      {
        edges[m++] = (Edge) { ks[i].start, +1, ks[i].op };
        edges[m++] = (Edge) { ks[i].end, -1, ks[i].op };
      }
  if (m > 1)
    qsort (edges, m, sizeof *edges, edge_order);
  guint running = 0;
  for (gsize i = 0; i < m; i++)
    {
      if (edges[i].delta < 0)
        {
          running--;
          continue;
        }
      running++;
      if (running > p->max_concurrent_kernels)
        eng_check_report (check, ENG_CHECK_KERNEL_LIMIT, edges[i].op, NONE,
                          "started at %" G_GINT64_FORMAT " ns as kernel number %u running at once; "
                          "the device runs at most %u (max_concurrent_kernels)",
                          edges[i].at, running, p->max_concurrent_kernels);
    }
  g_free (edges);

  if (!p->connection_serializes)
    return;
  GArray **per_conn = g_new0 (GArray *, check->connections);
  for (gsize i = 0; i < n; i++)
    {
      guint c = eng_check_connection_of_op (check, ks[i].op);
      if (per_conn[c] == NULL)
        per_conn[c] = g_array_new (FALSE, FALSE, sizeof (Span));
      Span s = { ks[i].op, ks[i].start, ks[i].end };
      g_array_append_val (per_conn[c], s);
    }
  for (guint c = 0; c < check->connections; c++)
    if (per_conn[c] != NULL)
      {
        eng_check_serial (check, ENG_CHECK_KERNEL_LIMIT, (const Span *) per_conn[c]->data,
                          per_conn[c]->len, "its connection (connection_serializes)");
        g_array_free (per_conn[c], TRUE);
      }
  g_free (per_conn);
}

static double
capacity_of (const GpuProfile *p, guint r)
{
  switch (r)
    {
    case RES_BLOCKS:
      return p->max_blocks_per_sm;
    case RES_THREADS:
      return p->max_threads_per_sm;
    case RES_SMEM:
      return (double) p->smem_per_sm;
    default:
      return p->regs_per_sm;
    }
}

/* The first resource that the work of the kernels inside [a, b] needs more
 * of than the SMs hold in that time, or -1. */
static int
over_capacity (const EngCheck *check, const double *work, SimTime a, SimTime b)
{
  for (guint r = 0; r < N_RESOURCES; r++)
    {
      double capacity = (double) check->profile->sm_count * capacity_of (check->profile, r)
                        * (double) (b - a);
      if (work[r] > capacity * (1.0 + 1e-9) + 1.0)
        return (int) r;
    }
  return -1;
}

static void
report_capacity (EngCheck *check, const KernelSpan *last, const double *work, int r, SimTime a,
                 SimTime b)
{
  const GpuProfile *p = check->profile;
  eng_check_report (check, ENG_CHECK_SM_CAPACITY, last->op, NONE,
                    "the kernels that ran within %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
                    " ns (this one ending last) held %.4g %s-ns (grid x block time x each block's "
                    "share), more than %u SMs of %.0f hold in that time (%.4g)",
                    a, b, work[r], resource_names[r], p->sm_count, capacity_of (p, (guint) r),
                    (double) p->sm_count * capacity_of (p, (guint) r) * (double) (b - a));
}

/* ks is sorted by start. Reports the first window found over capacity. */
static void
check_sm_capacity (EngCheck *check, KernelSpan *ks, gsize n)
{
  double work[N_RESOURCES];
  int r;
  if (n <= WINDOW_KERNELS)
    {
      KernelSpan **ends = g_new (KernelSpan *, n);
      for (gsize i = 0; i < n; i++)
        ends[i] = &ks[i];
      if (n > 1)
        qsort (ends, n, sizeof *ends, kernel_by_end);
      for (gsize i = 0; i < n; i++)
        {
          SimTime a = ks[i].start;
          if (i > 0 && ks[i - 1].start == a)
            continue; /* the same windows as the kernel before */
          memset (work, 0, sizeof work);
          for (gsize j = 0; j < n; j++)
            {
              if (ends[j]->start < a)
                continue;
              for (guint x = 0; x < N_RESOURCES; x++)
                work[x] += ends[j]->work[x];
              if ((r = over_capacity (check, work, a, ends[j]->end)) >= 0)
                {
                  report_capacity (check, ends[j], work, r, a, ends[j]->end);
                  g_free (ends);
                  return;
                }
            }
        }
      g_free (ends);
      return;
    }
  gsize first = 0;
  SimTime period_end = 0;
  memset (work, 0, sizeof work);
  for (gsize i = 0; i <= n; i++)
    {
      if (i == n || (i > first && ks[i].start >= period_end))
        {
          if ((r = over_capacity (check, work, ks[first].start, period_end)) >= 0)
            {
              report_capacity (check, &ks[i - 1], work, r, ks[first].start, period_end);
              return;
            }
          if (i == n)
            break;
          first = i;
          memset (work, 0, sizeof work);
          period_end = ks[i].end;
        }
      for (guint x = 0; x < N_RESOURCES; x++)
        work[x] += ks[i].work[x];
      period_end = MAX (period_end, ks[i].end);
    }
}

void
eng_check_kernels (EngCheck *check)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (KernelSpan));
  for (gsize i = 0; i < check->n; i++)
    {
      if (!is_kernel (sop_of (check, i)))
        continue;
      KernelSpan k = { (guint32) i, check->r[i].start, check->r[i].end, 0, 0, 0, { 0 }, FALSE };
      if (k.end < k.start || !kernel_shape (check, (guint32) i, &k))
        continue;
      g_array_append_val (spans, k);
    }
  g_array_sort (spans, kernel_by_start);
  KernelSpan *ks = (KernelSpan *) spans->data;
  gsize n = spans->len;

  /* Which kernels shared the device with another: one that started before
   * an earlier kernel ended, or whose next kernel by start began before it
   * ended. Zero-length kernels hold no slot for any time. */
  SimTime reach = G_MININT64;
  for (gsize i = 0; i < n; i++)
    {
      if (ks[i].end == ks[i].start)
        continue;
      if (ks[i].start < reach)
        ks[i].shared = TRUE;
      reach = MAX (reach, ks[i].end);
      for (gsize j = i + 1; j < n; j++)
        if (ks[j].end != ks[j].start)
          {
            if (ks[j].start < ks[i].end)
              ks[i].shared = TRUE;
            break;
          }
    }

  for (gsize i = 0; i < n; i++)
    {
      const KernelSpan *k = &ks[i];
      SimTime took = k->end - k->start;
      SimTime least = (SimTime) k->waves * k->block_time;
      if (took < least)
        eng_check_report (check, ENG_CHECK_KERNEL_TIME, k->op, NONE,
                          "took %" G_GINT64_FORMAT " ns, less than its %" G_GUINT64_FORMAT
                          " waves x block time %" G_GINT64_FORMAT " ns = %" G_GINT64_FORMAT
                          " ns (%u blocks per SM)", took, k->waves, k->block_time, least, k->bps);
      else if (!k->shared && took != least)
        eng_check_report (check, ENG_CHECK_KERNEL_TIME, k->op, NONE,
                          "ran alone for %" G_GINT64_FORMAT " ns; alone it takes %" G_GUINT64_FORMAT
                          " waves x block time %" G_GINT64_FORMAT " ns = %" G_GINT64_FORMAT " ns",
                          took, k->waves, k->block_time, least);
    }

  check_kernel_limit (check, ks, n);
  check_sm_capacity (check, ks, n);
  g_array_free (spans, TRUE);
}
