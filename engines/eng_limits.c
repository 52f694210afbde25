/* eng_limits.c: an upper bound on a run's makespan, computed before the run, so that simulated time never overflows.
 *
 * The model adds durations and latencies to the current time in 64-bit
 * nanoseconds; a copy of 16 EiB at a few bytes per second, or a kernel of
 * 2^31 blocks of a year each, would wrap around silently (and is undefined
 * behaviour in C). Rather than check every addition in the event loop, we
 * bound the makespan once: following back from the op that ends last, each
 * step waits for one op's end plus at most one latency, and no op appears
 * twice, so the makespan is at most the sum over all ops of
 *   host call cost + submit latency + one dependency latency + kernel gap
 *   + host_sync + memcpy_sync + the op's longest duration,
 * where a copy lasts at most latency + bytes / bandwidth / duplex_factor
 * (a pageable copy also waits while direct copies run on its engine, but
 * those run inside it, after everything it waited for and before what
 * waits for it, so each is in the sum once already) and a kernel at most
 * grid x block time (every block on its own; the kernels
 * sharing SMs can stretch a kernel beyond waves x block time, but never past
 * the sum of every block's time). The sum is taken in double, so it cannot
 * overflow itself; it is loose, but a schedule near the limit (146 years of
 * simulated time) is not one anybody means to run. */
#include <math.h>
#include "eng_limits.h"
#include "eng_sim.h"

static const char *
op_what (const SchedOp *op)
{
  switch (op->kind)
    {
    case SCHED_OP_KERNEL:
      return "kernel (grid x block time)";
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return "copy (latency + bytes / bandwidth, slowed by the duplex factor)";
    case SCHED_OP_HOST:
      return "host work";
    case SCHED_OP_MEMSET:
      return "memset (latency + bytes / bandwidth, on every SM)";
    case SCHED_OP_HOSTFN:
      return "host function";
    default:
      return "call";
    }
}

/* The longest this op can run on its engine or the host, in ns. */
static double
op_longest (const GpuProfile *p, const Schedule *sched, const SchedOp *op, GArray *cache)
{
  switch (op->kind)
    {
    case SCHED_OP_KERNEL:
      {
        const SchedKernel *k = &op->u.kernel;
        SimTime block_time = k->block_time;
        if (block_time < 0)
          {
            /* time= is waves x block time; eng_kernel_prepare has accepted
             * the kernel, so it fits an SM and has a time for this device. */
            guint bps = MAX (gpu_profile_blocks_per_sm (p, k->block, k->smem, k->regs), 1u);
            double per_wave = (double) p->sm_count * bps;
            double waves = ceil ((double) k->grid / per_wave);
            SimTime total = 0;
            if (!gpu_profile_kernel_time (p, sched, op, cache, &total, NULL))
              return INFINITY;
            return (double) total / waves * (double) k->grid;
          }
        return (double) block_time * (double) k->grid;
      }
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      {
        double solo = (double) gpu_profile_copy_time (p, &op->u.copy);
        return solo / p->duplex_factor;
      }
    case SCHED_OP_HOST:
      return (double) op->u.duration;
    case SCHED_OP_MEMSET:
      /* eng_kernel.c has accepted it: the profile has a memset bandwidth */
      return ((double) p->memset.latency + (double) op->u.bytes / p->memset.bandwidth * 1e9)
             * p->sm_count;
    case SCHED_OP_HOSTFN:
      return (double) op->u.duration;
    case SCHED_OP_MALLOC:
      {
        /* its growth, and giving it back at a synchronize later */
        double grown = (double) MAX (op->u.bytes, p->pool_grow_min);
        return (p->pool_grow_rate > 0 ? grown / p->pool_grow_rate * 1e9 : 0)
               + (p->pool_trim_rate > 0 ? grown / p->pool_trim_rate * 1e9 : 0);
      }
    default:
      return 0;
    }
}

static char *
format_years (double ns)
{
  double years = ns / 1e9 / (365.25 * 24 * 3600);
  if (!isfinite (years) || years > 1e12)
    return g_strdup ("more than 10^12 years");
  if (years >= 1)
    return g_strdup_printf ("%.0f years", years);
  return g_strdup_printf ("%.0f s", ns / 1e9);
}

/* The longest wake a sleeping wait may add (gpu_profile_blocking_wake). */
static SimTime
max_wake (const GpuPoints *wake)
{
  SimTime longest = 0;
  for (guint i = 0; i < wake->n; i++)
    longest = MAX (longest, wake->time[i]);
  return longest;
}

void
eng_limits_init (EngLimits *limits, const GpuProfile *p, GArray *list_times)
{
  g_return_if_fail (limits != NULL && p != NULL && list_times != NULL);
  /* Every op may pay each of these once, whatever its kind. */
  limits->per_op = (double) MAX (MAX (p->host_kernel_launch + p->host_kernel_load,
                                      MAX (p->host_memcpy_async, p->host_memset)),
                                 MAX (MAX (p->host_event_record, p->host_stream_wait),
                                      MAX (p->host_sync, p->host_sync_idle)))
                   + (double) MAX (p->launch_latency, p->copy_submit)
                   + (double) MAX (MAX (p->dependency_latency, p->module_load), p->hostfn_resume)
                   + (double) p->kernel_gap + (double) p->host_sync + (double) p->host_memcpy_sync
                   + (double) max_wake (&p->sync_blocking_wake)
                   + (double) MAX (p->hostfn_wake, p->hostfn_wake_idle) + (double) p->hostfn_next
                   + (double) MAX (p->host_malloc_async, p->host_free_async)
                   + (double) p->pool_grow + (double) p->pool_trim
                   + (double) p->host_thread_first_call;
  limits->sum = 0;
  limits->list_times = list_times;
}

gboolean
eng_limits_add (EngLimits *limits, const GpuProfile *p, const Schedule *sched,
                const SchedOp *op, GError **error)
{
  double limit = (double) ENG_LIMITS_MAX_TIME;
  double longest = op_longest (p, sched, op, limits->list_times);
  if (!(longest + limits->per_op < limit))
    {
      g_autofree char *shown = format_years (longest);
      g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                   "%s:%u:%u: this %s may last %s of simulated time on %s; a run may "
                   "last at most 2^62 ns (146 years): use a shorter time or a smaller "
                   "grid or size",
                   schedule_path (sched), op->line, op->column, op_what (op), shown,
                   gpu_profile_name (p));
      return FALSE;
    }
  limits->sum += longest + limits->per_op;
  if (!(limits->sum < limit))
    {
      g_set_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED,
                   "%s:%u:%u: with this op the schedule may run for more than 2^62 ns "
                   "(146 years) of simulated time on %s, the most streamsim counts (the "
                   "bound adds up every op's longest duration and latencies); use shorter "
                   "times, smaller sizes or fewer ops",
                   schedule_path (sched), op->line, op->column, gpu_profile_name (p));
      return FALSE;
    }
  return TRUE;
}
