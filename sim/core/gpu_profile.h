/* gpu_profile.h: the numbers that describe one GPU and its host link to the engine model.
 *
 * A plain value type. Profiles are written as GLib key files under
 * engines/profiles/ (see README.md there for every key, its unit and range);
 * sim/formats/profile_load.c reads them, since the engines know nothing of files. */
#ifndef GPU_PROFILE_H
#define GPU_PROFILE_H

#include <glib.h>
#include "sim_time.h"
#include "schedule.h"

#define GPU_PROFILE_MAX_NAMES 8

/* One direction and host-memory kind of the link: a copy of `b` bytes takes
 * latency + b / bandwidth when it runs alone. */
typedef struct
{
  double bandwidth; /* bytes per second */
  SimTime latency;
} GpuLink;

/* Measured times at rising points `at` (n 0: none; the loader checks that
 * they rise), read between the points on a straight line. Two uses:
 *
 * - A link's copies by size, where they leave its line (`at` in bytes): a
 *   copy of `b` bytes takes the time interpolated between the points either
 *   side of b, (0 bytes, the link's latency) being the first, and beyond the
 *   last point that point's time plus the further bytes at the link's
 *   bandwidth. The times need not rise with the sizes (a pageable H2D of 64
 *   KiB took longer than one of 128 KiB on the H100 and H200).
 * - What a blocking wait adds by how long it waited (`at` in ns): before the
 *   first point that point's time, beyond the last the last's. */
#define GPU_POINTS_MAX 16
typedef struct
{
  guint n;
  guint64 at[GPU_POINTS_MAX];
  SimTime time[GPU_POINTS_MAX];
} GpuPoints;

/* The host costs that set a process's speed, as streamsim-validate measures
 * them in every run (validate/val_hostcost.c): what a launch and a
 * cudaMemcpyAsync hold the host, and the pageable links' rates, which the
 * CPU's copying through the staging buffer sets. */
typedef struct
{
  SimTime kernel_launch, memcpy_async;
  double h2d_pageable_bandwidth, d2h_pageable_bandwidth; /* bytes per second */
} GpuHostSpeed;

typedef enum
{
  GPU_HOST_FAST,
  GPU_HOST_SLOW,
} GpuHostEnd;

typedef struct
{
  /* The profile's name and those it inherits from, most specific first,
   * NULL-ended; kernel `time=` lists are matched against these. */
  char *names[GPU_PROFILE_MAX_NAMES + 1];
  char *description;
  /* [device] calibrated: the numbers were measured on the device by
   * streamsim-validate --calibrate, not estimated from data sheets. */
  gboolean calibrated;

  /* [copy] */
  guint copy_engines;        /* 1: one engine and queue for both directions */
  GpuLink h2d_pinned, h2d_pageable;
  GpuLink d2h_pinned, d2h_pageable;
  /* The pageable links' times by size where they leave the line (a step
   * between 16 and 64 KiB on the H100 and H200, engines/MODEL.md); copies
   * the CPU has just written or copied, so `cached` copies up to the last
   * size take them too. */
  GpuPoints h2d_pageable_sizes, d2h_pageable_sizes;
  /* Pageable memory the program has not touched yet: the kernel faults each
   * page in while the driver stages the copy. Bandwidth 0 when the profile
   * has not measured it; such copies then run on the pageable link. */
  GpuLink h2d_untouched, d2h_untouched;
  /* The same where the untouched pages fault in as huge pages (`huge`).
   * Bandwidth 0 when not measured: such copies take the untouched link. */
  GpuLink h2d_untouched_huge, d2h_untouched_huge;
  /* Pageable memory in the CPU's caches (`cached`: a buffer copied or written
   * shortly before). Bandwidth 0 when not measured: the pageable link. */
  GpuLink h2d_cached, d2h_cached;
  GpuLink d2d;
  double duplex_factor;      /* speed of each direction while both run, (0, 1] */
  /* The most rows a 2D or 3D copy (`rows=`) moves per second, by direction
   * (indexed by SchedCopyDir), pinned or pageable; 0 where the profile has
   * not measured it: such a copy then takes what a copy of its bytes does. */
  double row_rate[3];
  /* How long a direct copy (pinned or device memory) that starts while a
   * copy staged from pageable memory is under way on its engine runs before
   * it holds that copy up, by the staged copy's direction (indexed by
   * SchedCopyDir; d2d never): the first part of it goes by while the engine
   * would have idled between the staged copy's chunks (eng_copy.c). 0 where
   * the profile has not measured it: held up at once. */
  SimTime pageable_overlap[3];

  /* [kernel] memset_bandwidth and memset_latency: a memset of device memory
   * runs on the SMs, as a kernel of one block per SM for latency + bytes /
   * bandwidth (engines/MODEL.md). Bandwidth 0 when the profile has not
   * measured it. */
  GpuLink memset;
  /* [kernel] memset_host_bandwidth: a memset of pinned host memory runs on
   * the SMs as one of device memory does, for memset_latency + bytes / this
   * bandwidth: the GPU writes the bytes over the host link (engines/MODEL.md).
   * 0 where not measured: the profile's d2h_pinned_bandwidth, that link's
   * rate in the same direction. */
  double memset_host_bandwidth;

  /* [host]: time each API call holds the host thread */
  SimTime host_kernel_launch;
  SimTime host_memcpy_async;
  SimTime host_memcpy_sync;  /* call overhead of cudaMemcpy beyond the copy */
  SimTime host_event_record;
  SimTime host_stream_wait;
  SimTime host_sync;         /* a synchronize call, returning after its condition */
  SimTime host_sync_idle;    /* one that finds nothing to wait for; 0: host_sync's */
  SimTime host_query;        /* a cudaStreamQuery or cudaEventQuery call (`poll`); 0: host_sync_idle's */
  /* [host] sync_blocking_wake: what a wait that blocks its thread (a
   * synchronize, a blocking copy or a free under `device_schedule
   * blocking_sync`, a synchronize of a `blocking_sync` event) adds to its
   * return, by how long it waited for the GPU (GpuPoints in ns); none: what
   * a spinning wait costs (engines/MODEL.md, "How the host waits") */
  GpuPoints sync_blocking_wake;
  SimTime host_memset;       /* a cudaMemsetAsync call; 0: kernel_launch's */
  SimTime host_kernel_load;  /* what a launch that loads its kernel's code costs beyond a launch */
  SimTime host_graph_launch; /* a cudaGraphLaunch call; 0: kernel_launch's */
  /* the driver's callback thread (host functions, eng_callback.c) */
  SimTime hostfn_wake;       /* its stream reached a host function while the thread was idle, to its start */
  SimTime hostfn_wake_idle;  /* the same where the stream was idle when the function was issued */
  SimTime hostfn_next;       /* one host function's return to the start of the next one waiting */
  /* host threads (`thread` blocks, eng_host.c) */
  SimTime host_thread_create;     /* the call that starts a thread, to its caller */
  SimTime host_thread_start;      /* from that call to the new thread's first call */
  SimTime host_thread_create_first; /* the same two for the first thread a run starts; 0: the above */
  SimTime host_thread_start_first;
  SimTime host_thread_join;       /* a join of a thread that has ended already */
  SimTime host_thread_join_wake;  /* from a joined thread's end to the return of the join waiting for it */
  SimTime host_thread_first_call; /* what a thread's first call that puts work on the GPU
                                     costs beyond its own cost (not the main thread's) */
  /* stream-ordered allocation (`malloc`, `free`; gpu_pool_*) */
  SimTime host_malloc_async;      /* a cudaMallocAsync the pool has the memory for */
  SimTime host_free_async;        /* a cudaFreeAsync */
  SimTime pool_grow;              /* growing the pool: this, plus its bytes at pool_grow_rate */
  double pool_grow_rate;          /* bytes per second; 0: growing costs nothing */
  guint64 pool_grow_min;          /* the pool grows by at least this */
  SimTime pool_trim;              /* a synchronize giving bytes back: this, plus them at */
  double pool_trim_rate;          /*   pool_trim_rate (bytes per second; 0: nothing) */

  /* [latency]: device-side delays */
  SimTime launch_latency;    /* end of a launch call to its first block, idle GPU */
  SimTime copy_submit;       /* end of a copy call to the copy's place in its queue */
  SimTime dependency_latency; /* a completion seen by another engine or stream */
  SimTime kernel_gap;        /* between kernels that follow each other on the engine */
  SimTime query_latency;     /* from the work's end until a query finds it done; 0: host_sync's */
  SimTime graph_node_gap;    /* the same between two kernels of one graph launch; 0: kernel_gap */
  SimTime graph_engine_gap;  /* a completion seen by a node of the same graph launch on another
                                engine; 0: dependency */
  SimTime module_load;       /* the GPU idle to the start of a kernel whose launch loads its code */
  SimTime hostfn_resume;     /* a host function's return to its stream going on */

  /* [queues] */
  guint max_connections;     /* 1 before Kepler, 32 after */
  guint default_connections; /* CUDA_DEVICE_MAX_CONNECTIONS when unset */
  guint default_copy_connections; /* copy queues when it is unset; 0: default_connections
                                   * (eng_connection.c, COPY QUEUES) */
  guint64 shared_copy_min_size;   /* smaller copies keep their own connection's queue then */
  gboolean assign_on_submit; /* streams take a connection when they submit, not when created
                              * (eng_connection.c) */

  /* [kernel] */
  guint sm_count;
  guint max_threads_per_sm;
  guint max_blocks_per_sm;
  guint64 smem_per_sm;         /* bytes */
  guint regs_per_sm;
  guint max_threads_per_block;
  guint64 max_smem_per_block;  /* bytes */
  guint default_regs;          /* registers per thread when a kernel gives none */
  guint max_concurrent_kernels;
  gboolean deferred_completion;   /* Fermi: completions held until a launch run ends */
  gboolean connection_serializes; /* kernels of one connection never overlap */
  /* What the device can do, for scaling kernel times from one device to
   * another; the engine model does not read them. 0 where the profile does
   * not say (unknown). */
  double sm_clock;             /* Hz, the SMs' highest (boost) clock */
  double memory_bandwidth;     /* bytes per second, device memory's peak */
  double fp32_flops;           /* FP32 operations per second at sm_clock, an FMA counting 2 */
  /* How much longer CUPTI's record of a kernel is than the kernel's blocks
   * (the first block's start to the last block's end), the span the
   * model's kernel times and latencies are measured in: the recorder and
   * the importers take it off a traced kernel's duration. 0: not measured,
   * nothing taken off. */
  SimTime trace_extra;

  /* [spread]: the host as the machines this profile stands for ran it, at
   * its fast and its slow end (gpu_profile_at_host_speed). Lent cloud
   * machines run a process's host at one of two speeds, and the costs that
   * move with it move together (validate/FINDINGS.md, "The host's two
   * speeds"). kernel_launch 0: the profile gives no spread. */
  GpuHostSpeed host_fast, host_slow;

  /* [info]: where the numbers come from (free text, may be NULL) */
  char *gpu, *driver, *cuda, *date, *source;
} GpuProfile;

void gpu_profile_clear (GpuProfile *profile);
void gpu_profile_copy (GpuProfile *dest, const GpuProfile *src);

/* Whether the profile gives its host's spread ([spread]). */
gboolean gpu_profile_has_host_spread (const GpuProfile *profile);
/* A copy of `src` (gpu_profile_clear it) with the host costs of its spread's
 * `end` in place of its own; `src` must have a spread. */
void gpu_profile_at_host_speed (GpuProfile *dest, const GpuProfile *src, GpuHostEnd end);

/* What one block of a kernel takes from its SM: threads in whole warps (a
 * partial warp still takes a warp's slots), dynamic shared memory, and
 * registers for the rounded block. regs 0 means the profile's default_regs. */
typedef struct
{
  guint32 threads;
  guint32 smem;
  guint32 regs;
} GpuBlockFootprint;

void gpu_profile_block_footprint (const GpuProfile *profile, guint block_threads,
                                  guint64 smem, guint regs, GpuBlockFootprint *footprint);

/* How many blocks of a kernel with this shape one SM holds at once (0 when one
 * block does not fit). regs 0 means the profile's default_regs. */
guint gpu_profile_blocks_per_sm (const GpuProfile *profile, guint block_threads,
                                 guint64 smem, guint regs);

/* The numbers the profile gives one op; the model and the invariant checker
 * (eng_check.c) both read them here, so they cannot disagree on them. */

/* Host time the API call of op holds the host thread (synchronize calls: the
 * call itself, before or after its wait; host work: 0). */
SimTime gpu_profile_call_cost (const GpuProfile *profile, const SchedOp *op);
/* The same for a call of a host thread: `first_of_thread` for a thread's
 * first call that puts work on the GPU (not the main thread's), which costs
 * thread_first_call more (the runtime's set-up for a new thread). */
SimTime gpu_profile_thread_call_cost (const GpuProfile *profile, const SchedOp *op,
                                      gboolean first_of_thread);
/* Whether op's call puts work on the GPU (or passes through a stream):
 * every call but host work, a synchronize and a thread's start or join.
 * A thread's first such call is the one that costs thread_first_call. */
gboolean gpu_profile_call_puts_work (const SchedOp *op);
/* What starting a host thread costs its caller, and how long after that
 * call the thread makes its first call; `first`: the run's first thread. */
SimTime gpu_profile_thread_create (const GpuProfile *profile, gboolean first);

/* The device's default memory pool, as stream-ordered allocation sees it:
 * the bytes it holds from the device and those allocated from it. */
typedef struct
{
  guint64 reserved, used;
} GpuPool;
/* A cudaMallocAsync of `bytes`: what growing the pool costs the call beyond
 * malloc_async (0 when the pool has the memory free), and the pool after it.
 * The pool grows by what is missing, at least pool_grow_min. */
SimTime gpu_pool_malloc (const GpuProfile *profile, GpuPool *pool, guint64 bytes);
/* A cudaFreeAsync of an allocation of `bytes`: back to the pool. */
void gpu_pool_free (GpuPool *pool, guint64 bytes);
/* A synchronize's return: the pool gives back what it holds beyond what is
 * allocated and `threshold` (cudaMemPoolAttrReleaseThreshold), which costs
 * the call pool_trim and the bytes at pool_trim_rate; 0 when nothing. */
SimTime gpu_pool_trim (const GpuProfile *profile, GpuPool *pool, guint64 threshold);
/* What growing the pool added to each `malloc` of `sched` (0 for other
 * ops), into `growth` (one per op): the pool walked through the mallocs,
 * frees and synchronizes in `order` (op indices, NULL for file order),
 * which must be the order of one host thread's calls, since a
 * synchronize's trim falls at its return. */
void gpu_pool_growth (const GpuProfile *profile, const Schedule *sched, const guint32 *order,
                      SimTime *growth);
SimTime gpu_profile_thread_start (const GpuProfile *profile, gboolean first);

/* What a synchronize that finds nothing to wait for costs: sync_idle, or
 * sync where the profile does not give it. */
SimTime gpu_profile_idle_sync_cost (const GpuProfile *profile);
/* One cudaStreamQuery or cudaEventQuery call: `query`, else what a
 * synchronize that finds nothing to wait for costs. */
SimTime gpu_profile_query_cost (const GpuProfile *profile);
/* Where a `poll` called at `called` returns: its queries begin `every`
 * after the one before returned, and the first to begin at or after
 * query_latency (else host_sync) past `done`, where the work it waits for
 * ended, is the last. */
SimTime gpu_profile_poll_return (const GpuProfile *profile, SimTime called, SimTime every,
                                 SimTime done);

/* What a wait that blocks its thread adds to its return after waiting
 * `waited` ns for the GPU: sync_blocking_wake read at `waited`, 0 where the
 * profile has no points. */
SimTime gpu_profile_blocking_wake (const GpuProfile *profile, SimTime waited);

/* When the host returns from a blocking copy (cudaMemcpy, a pageable async
 * copy) called at `called` whose copy ended at `end`: memcpy_sync after it,
 * and where the thread sleeps in its wait (schedule_wait_blocks) the wake
 * for having waited from `called` to `end`. */
SimTime gpu_profile_copy_return (const GpuProfile *profile, gboolean sleeps, SimTime called,
                                 SimTime end);

/* From the end of a call to its op's place in its device queue: launch
 * latency for kernels, copy_submit for copies, 0 otherwise. */
SimTime gpu_profile_submit_latency (const GpuProfile *profile, SchedOpKind kind);

/* The link a copy runs over: its direction and host-memory kind (an
 * untouched copy the pageable link where the profile has no untouched one). */
GpuLink gpu_profile_link (const GpuProfile *profile, const SchedCopy *copy);
/* What kind of link a part of a copy's bytes runs on. */
typedef enum
{
  GPU_LINK_PINNED,
  GPU_LINK_DEVICE,          /* d2d: no host memory */
  GPU_LINK_PAGEABLE,        /* the pageable line */
  GPU_LINK_PAGEABLE_SIZED,  /* the pageable times by size */
  GPU_LINK_CACHED,          /* `cached`: the host buffer in the CPU's caches */
  GPU_LINK_UNTOUCHED,       /* untouched memory on small pages */
  GPU_LINK_UNTOUCHED_HUGE,  /* untouched memory faulting in as huge pages */
} GpuLinkKind;

/* A few words for a link kind ("in the CPU's caches"). */
const char *gpu_link_kind_text (GpuLinkKind kind);

#define GPU_COPY_PARTS 3

/* Some of a copy's bytes and the rate they run at (bytes per second, the
 * times by size taken as the rate that gives the copy's time). */
typedef struct
{
  guint64 bytes;
  double bandwidth;
  GpuLinkKind kind;
} GpuCopyPart;

/* How a copy's bytes run, the parts gpu_profile_copy_time adds up: the
 * untouched bytes on huge pages, those on small pages, then the resident
 * ones (a copy of one kind of memory has one part); returns how many, and
 * the latency the copy pays. */
guint gpu_profile_copy_parts (const GpuProfile *profile, const SchedCopy *copy,
                              GpuCopyPart parts[GPU_COPY_PARTS], SimTime *latency);
/* How long a copy takes alone: latency + bytes / bandwidth of its link, in
 * whole ns. The model runs copies for this long and the checker holds it to
 * it; eng_limits.c keeps its own sum in double, where it cannot overflow. */
SimTime gpu_profile_copy_time (const GpuProfile *profile, const SchedCopy *copy);
/* Whether a 2D or 3D copy's rows, not its bytes, set its time: its rows at
 * the profile's row rate take longer than its bytes on its link. *rows_ns
 * and *bytes_ns are the two times (without the latency). */
gboolean gpu_profile_copy_row_bound (const GpuProfile *profile, const SchedCopy *copy,
                                     double *rows_ns, double *bytes_ns);
/* How long a memset of `bytes` takes on an idle GPU: memset_latency + bytes
 * / memset_bandwidth, in whole ns (the bandwidth must be set); of pinned
 * host memory (`host`), bytes / gpu_profile_memset_host_bandwidth. */
SimTime gpu_profile_memset_time (const GpuProfile *profile, guint64 bytes, gboolean host);
/* The rate of a memset of pinned host memory: memset_host_bandwidth, else
 * d2h_pinned_bandwidth; 0 when the profile has neither. */
double gpu_profile_memset_host_bandwidth (const GpuProfile *profile);
/* The kernel a memset runs as on the SMs: one block of GPU_MEMSET_BLOCK
 * threads per SM, each for the memset's time (the model and the checker
 * both take it from here). */
#define GPU_MEMSET_BLOCK 256
/* Whether a copy goes through the driver's pinned staging buffer: one from
 * or to pageable host memory (a d2d copy touches no host memory, whatever
 * it is marked). eng_copy.c says what that changes. */
static inline gboolean
gpu_profile_copy_staged (const SchedCopy *copy)
{
  return copy->pageable && copy->dir != SCHED_DIR_D2D;
}
/* Whether a copy op holds the host until it is done: cudaMemcpy, and a
 * cudaMemcpyAsync through the staging buffer. */
static inline gboolean
gpu_profile_copy_blocks (const SchedOp *op)
{
  return op->kind == SCHED_OP_MEMCPY
         || (op->kind == SCHED_OP_COPY && gpu_profile_copy_staged (&op->u.copy));
}

/* Whether the profile can tell an untouched copy from a pageable one; when
 * it cannot, the prediction should say so (sim/prediction.c does). */
gboolean gpu_profile_knows_untouched (const GpuProfile *profile, SchedCopyDir dir);
/* Whether it has the huge-page untouched link of `dir` (`untouched huge`);
 * without one such copies take the untouched link. */
gboolean gpu_profile_knows_untouched_huge (const GpuProfile *profile, SchedCopyDir dir);
/* Whether `profile` has a cached link for `dir` (always for d2d, which has
 * no host memory); without one, `pageable cached` copies run on the pageable
 * link. */
gboolean gpu_profile_knows_cached (const GpuProfile *profile, SchedCopyDir dir);

/* The device's time for a kernel op's time= list (schedule_kernel_time),
 * looked up once per list, since a loop of identical kernels shares one:
 * `cache` holds each list's time, -1 until needed, and grows as lists are
 * asked for. FALSE, with `error` set, when the list has no time for the
 * device. */
gboolean gpu_profile_kernel_time (const GpuProfile *profile, const Schedule *sched,
                                  const SchedOp *op, GArray *cache, SimTime *total,
                                  GError **error);

/* Whether the profile has the rates that carry a kernel's time to another
 * device (sm_clock, memory_bandwidth, fp32_flops); else *missing (may be
 * NULL) names the first it lacks. */
gboolean gpu_profile_has_rates (const GpuProfile *profile, const char **missing);

/* The profile's own name. */
static inline const char *
gpu_profile_name (const GpuProfile *profile)
{
  return profile->names[0];
}

#endif /* GPU_PROFILE_H */
