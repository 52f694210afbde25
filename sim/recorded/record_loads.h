/* record_loads.h: which recorded launches loaded their kernel's code (`kernel ... loads`).
 *
 * With CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2 (the recorded
 * processes ran with CUDA 13), the runtime loads a kernel's code at its
 * first launch in the process (engines/MODEL.md, "Lazy module loading").
 * So a runtime launch (cudaLaunchKernel*) loads when no call before it, in
 * the order the calls began, ran a kernel of the same function (the same
 * name in CUPTI's records, whatever its grid): not a launch of it, nor a
 * graph launch whose nodes ran it. A launch CUPTI returned no record for has
 * no name, so it is never marked.
 *
 * The code may have been loaded before the first launch all the same: a
 * call that takes the function (cudaFuncGetAttributes, cudaFuncSetAttribute,
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, as libraries make before
 * choosing a kernel) loads it, and the log does not say which function such
 * a call took. A launch that loads holds the host the profile's kernel_load
 * longer than one that does not (measured: 15.0 us against 5.9 on an H100,
 * validate/results/h100/probes/); so a first launch that took less than the
 * usual launch of its function (record_inside_usual: the lower median of the
 * calls of the same name) plus kernel_load loaded nothing, and is not
 * marked. A first launch alone in its group has nothing to compare with,
 * and is marked. A load holds the whole device (the model waits for it to
 * go idle and runs nothing issued later before the loaded kernel): so a
 * first launch whose kernel started only after the work of a call made
 * after it had returned had started loaded nothing either (a profiler's
 * trace that begins after the program did, where every kernel's first
 * launch in the trace looks like its first). Calls of other threads made
 * while it ran do not count: the load may have been done by then. Driver API launches (cuLaunchKernel) are
 * not marked: a driver user's kernel is loaded when cuModuleGetFunction
 * returns its handle, before any launch (the CUDA programming guide's "Lazy
 * Loading"). With CUDA_MODULE_LOADING=EAGER, which a log records (record_log.h),
 * nothing is loaded at a launch. */
#ifndef RECORD_LOADS_H
#define RECORD_LOADS_H

#include <glib.h>
#include "record_log.h"

/* How the process loaded kernels, from the log's `env` lines: TRUE for
 * lazy (CUDA_MODULE_LOADING unset, LAZY or anything but EAGER); `*recorded`
 * says whether the log recorded the variable. */
gboolean record_loads_lazy (const RecordLog *log, gboolean *recorded);

/* Per call of `log`, TRUE for a launch that loads its kernel's code.
 * `call_of_work` gives each work record's call (index + 1; 0: none),
 * `position` each call's place in the order the calls began, and
 * `may_load` which calls are runtime launches that put their kernel on the
 * GPU where they were made (not captured into a graph), `usual` each call's
 * usual time (record_inside_usual; -1: not known), `kernel_load` the
 * profile's (0 without one: any first launch not quicker than usual
 * loads). The result has one
 * entry per call (g_free it). */
gboolean *record_loads_find (const RecordLog *log, const guint *call_of_work,
                             const guint *position, const gboolean *may_load,
                             const gint64 *usual, guint64 kernel_load);

#endif /* RECORD_LOADS_H */
