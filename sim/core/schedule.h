/* schedule.h: a parsed schedule, the program whose issue order streamsim simulates.
 *
 * A Schedule is what the schedule language (MODEL.md section 3) means once
 * `let` parameters are substituted and `repeat` loops are expanded: a list of
 * streams in creation order, a list of event names, and a flat list of ops in
 * issue order. It holds no file handle; the parser (schedule_parse.c) builds
 * it and everything else only reads it. The engines and the CUDA harness both
 * consume this one representation. */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include <glib.h>
#include "sim_time.h"

/* Stream 0 is always CUDA's legacy default stream, named "default". */
#define SCHED_STREAM_DEFAULT 0u

/* No event / no per-device time list. */
#define SCHED_NONE G_MAXUINT32

typedef enum
{
  SCHED_OP_COPY,        /* cudaMemcpyAsync: h2d, d2h, d2d */
  SCHED_OP_MEMCPY,      /* synchronous cudaMemcpy on the legacy default stream */
  SCHED_OP_KERNEL,      /* a kernel launch */
  SCHED_OP_RECORD,      /* cudaEventRecord (event, stream) */
  SCHED_OP_WAIT,        /* cudaStreamWaitEvent (stream, event) */
  SCHED_OP_SYNC_STREAM, /* cudaStreamSynchronize (stream) */
  SCHED_OP_SYNC_EVENT,  /* cudaEventSynchronize (event) */
  SCHED_OP_SYNC_DEVICE, /* cudaDeviceSynchronize () */
  SCHED_OP_HOST,        /* CPU work on the host thread */
  SCHED_OP_MEMSET,      /* cudaMemsetAsync of device memory (stream) */
  SCHED_OP_HOSTFN,      /* cudaLaunchHostFunc (stream): host code run when the stream reaches it */
  SCHED_OP_SPAWN,       /* a `thread NAME` block: the host thread that reaches it starts thread u.thread */
  SCHED_OP_JOIN,        /* `join NAME`: the calling host thread waits until thread u.thread has ended */
  SCHED_OP_MALLOC,      /* cudaMallocAsync (u.bytes, stream): from the device's default pool */
  SCHED_OP_FREE,        /* cudaFreeAsync (stream) of an allocation of u.bytes */
} SchedOpKind;

typedef enum
{
  SCHED_DIR_H2D,
  SCHED_DIR_D2H,
  SCHED_DIR_D2D,
} SchedCopyDir;

/* One stream, in creation order. Priorities follow CUDA: lower is more urgent
 * (-1 beats 0). */
typedef struct
{
  const char *name;
  gint priority;
  gboolean nonblocking; /* created with cudaStreamNonBlocking */
  guint line;           /* the `stream` statement; 0 for "default" */
} SchedStream;

/* A kernel's duration: either block_time (time one block holds its SM slot)
 * or an isolated time for the whole grid, possibly per device
 * (`time=c1060:4.3ms,k20:0.4ms`); see schedule_kernel_time(). */
typedef struct
{
  guint32 grid;      /* blocks */
  guint32 block;     /* threads per block */
  guint32 smem;      /* dynamic shared memory per block, bytes */
  guint32 regs;      /* registers per thread, 0 = unspecified */
  SimTime block_time; /* >= 0 when given by block_time=, else -1 */
  guint32 times;     /* index of a time list (schedule_time_list), or SCHED_NONE */
  gboolean loads;    /* `loads`: this launch loads the kernel's code (its first, with lazy loading) */
} SchedKernel;

typedef struct
{
  /* Bit fields, so that an op keeps within 64 bytes (tests/test_schedule.c). */
  SchedCopyDir dir : 2;
  guint pageable : 1; /* host memory is pageable (malloc) rather than pinned */
  /* `cached`: the pageable host buffer is in the CPU's caches (copied or
   * written shortly before, as a loop copies the same buffer over and over):
   * the copy takes the profile's *_cached link. Only with pageable, never
   * with untouched, never for d2d. */
  guint cached : 1;
  /* `rows=N`: a 2D or 3D copy (cudaMemcpy2DAsync, cudaMemcpy3DAsync) of
   * `bytes` in N rows of bytes / N each; 0 for a plain copy. The profile's
   * row rate bounds how fast such a copy can go (gpu_profile_copy_time). */
  guint32 rows;
  /* Bytes of the pageable host buffer that the program has not touched yet
   * (0 to bytes): the copy pays the kernel's first-touch page faults on
   * them (profile's *_untouched_bandwidth). Only with pageable, never for
   * d2d. */
  guint64 untouched;
  /* `huge` or `huge=SIZE`: of the untouched bytes, those that fault in as
   * transparent huge pages (2 MiB; memory advised MADV_HUGEPAGE, as NumPy
   * advises arrays of 4 MiB or more, or any memory where THP is `always`):
   * they take the profile's *_untouched_huge link, the other untouched
   * bytes the *_untouched one. `huge` alone is all of them. 0 to untouched. */
  guint64 huge;
  guint64 bytes;
} SchedCopy;

/* One run-time statement. `stream` is meaningful for COPY, MEMCPY (always the
 * default stream), KERNEL, MEMSET, HOSTFN, RECORD, WAIT and SYNC_STREAM
 * (SCHED_NONE for the others);
 * `event` for RECORD, WAIT and SYNC_EVENT. */
typedef struct
{
  SchedOpKind kind;
  guint32 line;
  guint32 column;
  guint32 stream;
  guint32 event;
  /* A node of a graph launch (`graph STREAM` ... `end`), or a record or
   * wait that joins its streams: the launch's number, from 1, the same for
   * every op of one launch; 0 for an op of no graph. graph_launch is set on
   * the launch's first op, which carries the cudaGraphLaunch call, and is
   * in STREAM. graph_branch is set on an op in another stream, a branch: it
   * follows the ops of its stream in the same launch alone, not what that
   * stream was given outside the graph, and what the stream is given after
   * does not follow it. */
  guint32 graph : 28;
  guint32 graph_branch : 1;
  guint32 graph_launch : 1;
  /* MEMSET: of pinned host memory (`memset STREAM SIZE pinned`), which the
   * GPU writes over the host link; 0: of device memory. */
  guint32 host_memory : 1;
  /* SYNC_STREAM, SYNC_EVENT: `poll`, a loop of cudaStreamQuery or
   * cudaEventQuery until the work is done, with u.duration of the host's own
   * work between two queries, rather than one synchronize call. */
  guint32 poll : 1;
  const char *label; /* optional `label=NAME`, NULL if none */
  union
  {
    SchedCopy copy;     /* COPY, MEMCPY */
    SchedKernel kernel; /* KERNEL */
    SimTime duration;   /* HOST, HOSTFN; a poll's host work between queries */
    guint64 bytes;      /* MEMSET, MALLOC, FREE */
    guint32 thread;     /* SPAWN, JOIN: the host thread started or joined */
  } u;
} SchedOp;

/* One entry of a per-device time list; device NULL is the fallback entry
 * (a bare `time=2ms`, or an entry without a device prefix). */
typedef struct
{
  const char *device;
  SimTime time;
} SchedDeviceTime;

/* An `elapsed NAME A B` statement: the time from the record of event A to
 * that of event B, as cudaEventElapsedTime (A, B) would give it, where each
 * is the last `record` of its event issued before the statement. */
typedef struct
{
  const char *name;
  guint32 line;
  guint32 column;
  guint32 from_op;   /* the `record` ops, indices into the ops */
  guint32 to_op;
} SchedElapsed;

/* How the host waits in the calls that wait for the GPU
 * (cudaSetDeviceFlags' cudaDeviceSchedule*): the `device_schedule`
 * statement. Auto, spin and yield return as soon as the GPU is done (yield
 * measured as spin; auto is spin or yield by the CPU count); blocking_sync
 * puts the thread to sleep until the GPU wakes it (engines/MODEL.md, "How
 * the host waits"). */
typedef enum
{
  SCHED_SCHEDULE_AUTO,
  SCHED_SCHEDULE_SPIN,
  SCHED_SCHEDULE_YIELD,
  SCHED_SCHEDULE_BLOCKING_SYNC,
} SchedDeviceSchedule;

/* The statement's word for each, in enum order. */
extern const char *const sched_device_schedule_names[];

typedef struct Schedule Schedule;

/* Accessors. Pointers stay valid for the schedule's lifetime. */
const char *schedule_path (const Schedule *sched);
/* The `device` statement's name, or NULL. */
const char *schedule_device (const Schedule *sched);
/* Where the `device` statement names its device (for messages about that
 * device); FALSE when the schedule has none. */
gboolean schedule_device_position (const Schedule *sched, guint *line, guint *column);
/* The `connections` statement's value, or 0 when the schedule has none. */
guint schedule_connections (const Schedule *sched);
/* The `pool_threshold` statement's value: the bytes the default memory
 * pool keeps at a synchronize (cudaMemPoolAttrReleaseThreshold); 0, the
 * driver's default, when the schedule has none. */
guint64 schedule_pool_threshold (const Schedule *sched);
/* The `device_schedule` statement's value; SCHED_SCHEDULE_AUTO when none. */
SchedDeviceSchedule schedule_device_schedule (const Schedule *sched);

guint schedule_n_streams (const Schedule *sched);
const SchedStream *schedule_stream (const Schedule *sched, guint index);
/* Index of the stream with that name, or SCHED_NONE. */
guint schedule_find_stream (const Schedule *sched, const char *name);

guint schedule_n_events (const Schedule *sched);
const char *schedule_event_name (const Schedule *sched, guint index);
/* Whether the event was declared `event NAME blocking_sync`
 * (cudaEventBlockingSync): a synchronize of it sleeps. */
gboolean schedule_event_blocking_sync (const Schedule *sched, guint index);
/* Whether the host thread sleeps while `op` waits for the GPU, to be woken
 * when it is done: a synchronize of a blocking_sync event; a stream's or
 * the device's synchronize and a blocking copy under `device_schedule
 * blocking_sync` (a synchronize of another event spins even then; a
 * pageable host-to-device copy is taken to spin: schedule_copy_wait_sleeps). */
gboolean schedule_wait_blocks (const Schedule *sched, const SchedOp *op);
/* Whether a blocking copy's wait sleeps under `device_schedule
 * blocking_sync`: a cudaMemcpy to the host, into pinned and pageable memory,
 * sleeps until its copy ends; a pageable host-to-device one sleeps only
 * while it waits for its stream's earlier work, not for its own copy (the
 * host stages the bytes itself), and is taken to spin. */
gboolean schedule_copy_wait_sleeps (SchedCopyDir dir, gboolean pageable);

gsize schedule_n_ops (const Schedule *sched);
const SchedOp *schedule_op (const Schedule *sched, gsize index);
/* Every op, in issue order, as one array of schedule_n_ops() (NULL when
 * there is none): for loops over millions of ops. */
const SchedOp *schedule_ops (const Schedule *sched);

/* Host threads: 0 is the thread that runs the file's top level ("main");
 * each `thread NAME` block run adds one. A thread block's lines are ops of
 * its thread, consecutive in the ops, right after the SPAWN op that starts
 * it (which is an op of the starting thread). */
guint schedule_n_threads (const Schedule *sched);
const char *schedule_thread_name (const Schedule *sched, guint thread);
/* The host thread that issues op `index`. */
guint schedule_op_thread (const Schedule *sched, gsize index);
/* Its name, for the pictures' rows: NULL in a schedule of one thread. */
const char *schedule_op_thread_name (const Schedule *sched, gsize index);
/* The ops in the order they were issued, from their issue times `issue`
 * (one per op): NULL for a schedule of one thread, whose order is the ops'
 * own; with several, by issue time, ties in file order (which of two
 * threads calling at one instant went first is not known from times).
 * The caller frees it. */
guint32 *schedule_issue_order (const Schedule *sched, const SimTime *issue);

/* The `elapsed` statements, in file order. A copy (schedule_edit.h) has
 * none, since its ops may move. */
guint schedule_n_elapsed (const Schedule *sched);
const SchedElapsed *schedule_elapsed (const Schedule *sched, guint index);

/* Per-device time list `index`; sets *n_entries. */
const SchedDeviceTime *schedule_time_list (const Schedule *sched, guint32 index,
                                           guint *n_entries);

/* The `time=` of a kernel op for a device. `names` is the device's name
 * followed by the names it inherits from (most specific first), NULL-ended.
 * The first list entry whose device matches the earliest name wins; then the
 * fallback entry. Returns FALSE and sets *error (file:line:column) when the
 * list has no entry for the device. Must not be called for block_time kernels. */
gboolean schedule_kernel_time (const Schedule *sched, const SchedOp *op,
                               const char *const *names, SimTime *time,
                               GError **error);

/* Short lower-case names used in the CSV: "h2d", "kernel", "sync", ... */
const char *schedule_op_kind_name (const SchedOp *op);
/* Every name schedule_op_kind_name gives, NULL-ended: what a timeline's
 * `kind` column may hold. */
const char *const *schedule_kind_names (void);
const char *schedule_copy_dir_name (SchedCopyDir dir);

void schedule_free (Schedule *sched);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Schedule, schedule_free)

/* Errors from parsing and from checks on a schedule. Every message starts with
 * "file:line:column: ". */
#define SCHEDULE_ERROR (schedule_error_quark ())
GQuark schedule_error_quark (void);

typedef enum
{
  SCHEDULE_ERROR_SYNTAX,    /* malformed statement or value */
  SCHEDULE_ERROR_UNDEFINED, /* unknown stream, event or parameter */
  SCHEDULE_ERROR_DUPLICATE, /* a name declared twice */
  SCHEDULE_ERROR_RANGE,     /* a value outside what is allowed */
  SCHEDULE_ERROR_LIMIT,     /* too many ops, too deep, too long */
  SCHEDULE_ERROR_IO,        /* the file could not be read */
} ScheduleError;

#endif /* SCHEDULE_H */
