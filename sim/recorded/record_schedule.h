/* record_schedule.h: a recorded program (record_log.h) turned into a schedule, and the times it measured.
 *
 * Each call the language can express becomes a statement, in the order the
 * calls began: cudaStreamCreate* a `stream` (in creation order, where it
 * was created), cudaMemcpyAsync `h2d`/`d2h`/`d2d` (`pageable` when CUPTI saw
 * pageable host memory), cudaMemcpy `memcpy` (from device to device,
 * which the host does not wait for, a `d2d` in its default stream),
 * cudaMemcpy2DAsync and cudaMemcpy3DAsync, cudaMemcpy2D and cudaMemcpy3D
 * the same with `rows=` (their height, or height x depth, where the log
 * keeps it: record_call.h), cudaLaunchKernel* `kernel`
 * (grid and block as thread counts, smem= and regs= as CUPTI reported them,
 * label= from the kernel's name), cudaEventRecord `record`,
 * cudaStreamWaitEvent `wait`, cudaStreamSynchronize, cudaEventSynchronize
 * and cudaDeviceSynchronize `sync`, and cudaFree and cudaFreeHost, which wait
 * for the device, `sync device`; every memset function a `memset` of
 * device memory (record_memset.h), cudaLaunchHostFunc and
 * cudaStreamAddCallback a `hostfn` whose time is read from its stream
 * (record_hostfn.h). The driver API's launches, copies, memsets, host
 * functions, records, waits and synchronizes logged outside any runtime
 * call (cuLaunchKernel, cuMemcpyHtoD, ... as cuDNN, cuBLASLt, cuFFT and CuPy
 * make them) become the same statements; a blocking driver copy's size and
 * direction come from CUPTI's record where the log has none. A runtime
 * launch that loaded its kernel's code gets `loads` (record_loads.h).
 *
 * Host time between two such calls becomes `host` when it is at least
 * `min_host_ns`; shorter gaps are added up and become `host` when their sum
 * reaches `min_host_ns`, until a call that waits for the GPU (so a stretch
 * of launches loses less than `min_host_ns` in all); what ran before the
 * first one (context creation, allocations) is left out, unless
 * `origin_ns` says where to begin. Host time inside a
 * call beyond what the model charges for it becomes `host` before or after
 * its statement (record_inside.h). Calls that put work on the GPU that the
 * language cannot express (copies of CUDA arrays, 2D and 3D copies whose
 * rows the log does not keep, graphs, memsets of host memory,
 * stream-ordered allocation, ...) become comments, with what is known of
 * their work (a memset's stream, bytes and memory), and are counted: their
 * GPU time is missing from a prediction. Every other call is host time.
 *
 * Calls of several host threads: the first thread's stand at the top
 * level, each other's in a `thread` block placed where its first call
 * began (record_threads.h). Host gaps, and the host time inside a call,
 * are worked out per thread from that thread's calls alone (what its calls
 * waited for on the GPU is the device's: all threads' work); a thread's
 * per-thread default stream is its own (`per_thread_tN`). A block stands
 * earlier by what the model charges it (the profile's thread_start, or its
 * thread_create where the thread began inside a call), so that the thread's
 * first line and the top level's next call run where they began. No
 * `join` is written: the recorder cannot see one.
 *
 * Calls that a stream capture took into a graph put no work on the GPU
 * where they were made (record_capture.h): they become comments, and the
 * graph's work is cudaGraphLaunch's, which is not modelled.
 *
 * An event record that a cudaEventElapsedTime call measured to, from an
 * earlier record, gets label=elapsed_from_opN, N being the earlier record's
 * op: `streamsim compare --regions` reports that interval as a region
 * (COMPARE_ELAPSED_LABEL in sim/front/compare.h is the same prefix).
 *
 * A kernel's time= is its time alone (record_alone.h): how long it ran, or,
 * where it shared the GPU with other kernels, the median of the same
 * kernel's lone runs, or a time inferred from how far the kernels beside it
 * oversubscribed the SMs; the statement's comment says which. CUPTI's
 * records of kernels are longer than the kernels' blocks, the span the
 * model's kernel times and latencies are measured in: the time written is
 * less the profile's trace_extra (validate/examples/kernel_trace_probe.cu).
 *
 * `profile`, the GPU recorded on, gives kernels' shares of the SMs,
 * trace_extra, the host functions' wake-up and resume, and the host time a
 * loading launch costs (kernel_load); without it none of those is known
 * (taken as 0), and shared kernels without lone runs keep the times they
 * ran. */
#ifndef RECORD_SCHEDULE_H
#define RECORD_SCHEDULE_H

#include <glib.h>
#include "record_log.h"
#include "sim/core/gpu_profile.h"
#include "sim/core/schedule.h"
#include "sim/core/sim_time.h"

/* The label prefix of a record that closes an interval the program timed. */
#define RECORD_ELAPSED_LABEL "elapsed_from_op"

typedef struct
{
  guint64 min_host_ns; /* shorter host gaps are added up (above) */
  guint connections;   /* `connections N` when not 0 */
  const char *const *header; /* comment lines for the top, NULL-ended; may be NULL */
  const GpuProfile *profile; /* the GPU recorded on (above), or NULL */
  guint64 origin_ns;   /* when not 0 and before the first op's call: time 0, the host
                          time from it to that call a `host` statement (the start of
                          a traced region); 0: the first op's call is time 0 */
  gboolean traced_calls; /* an async call's time up to its group's usual, beyond what
                            the profile charges it, is host time after its op: the
                            log's tracer slowed every call (a profiler's trace), and
                            the schedule is to run as the traced program did */
  guint64 call_gap_ns;   /* the recorder's own time at each boundary between two calls,
                            taken off the host gaps (each gap by as many as calls
                            were entered in it, at most all of it); 0: gaps as
                            recorded */
} RecordOptions;

typedef struct
{
  char *text;          /* the schedule */
  Schedule *schedule;  /* the text, parsed back (named "recorded.sched") */
  gsize n_ops;         /* statements that are ops, in order: schedule_n_ops (schedule) */
  SimTime *issue;      /* per op, ns from the first op's call */
  SimTime *start;      /* -1 where nothing timed it (records and waits: */
  SimTime *end;        /*   marker_times.h derives them) */
  guint n_not_modelled;/* calls whose GPU work the schedule leaves out */
  guint n_captured;    /* calls a stream capture took into a graph (record_capture.h) */
  guint n_untimed;     /* kernels, copies and memsets CUPTI returned no record for */
  guint n_loads;       /* launches marked `loads` */
  guint n_cached;      /* pageable H2Ds marked `cached` (record_cached.c) */
  guint n_polls;       /* loops of queries written as `poll` (record_polls.c) */
  guint n_inferred;    /* kernels whose time alone was inferred (record_alone.h, 2) */
  guint n_hostfn;      /* `hostfn` statements */
  guint n_hostfn_estimated; /* ... whose time was read from their stream */
  guint n_threads;     /* host threads that made CUDA calls: 1 + the schedule's thread blocks */
} RecordSchedule;

/* Fails (RECORD_ERROR_PARSE, naming the log's line) when a call makes no
 * sense in the language: an unknown copy direction, a kernel of no blocks,
 * a value past the language's limits. */
RecordSchedule *record_schedule_build (const RecordLog *log, const RecordOptions *options,
                                       GError **error);
/* One line (no line break) counting what the schedule made of `n_calls`
 * calls: "1172 ops from 1692 CUDA calls; 8 launches load their kernel's
 * code", each count only where it is not 0. */
char *record_schedule_summary (const RecordSchedule *rec, guint n_calls);

void record_schedule_free (RecordSchedule *rec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecordSchedule, record_schedule_free)

#endif /* RECORD_SCHEDULE_H */
