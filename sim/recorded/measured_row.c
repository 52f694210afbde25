/* measured_row.c: a schedule op's fields in a measured timeline (measured_row.h). */
#include "measured_row.h"

#include <string.h>

static const char *
engine_name (const SchedOp *op)
{
  switch (op->kind)
    {
    case SCHED_OP_COPY:
    case SCHED_OP_MEMCPY:
      return schedule_copy_dir_name (op->u.copy.dir);
    case SCHED_OP_KERNEL:
    case SCHED_OP_MEMSET: /* cudaMemsetAsync runs on the SMs (memset_probe.cu) */
      return "compute";
    case SCHED_OP_HOSTFN:
      return "callback";
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
    case SCHED_OP_MALLOC:
    case SCHED_OP_FREE:
      return "stream";
    default:
      return "host";
    }
}

static gboolean
op_has_stream (const SchedOp *op)
{
  return op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY || op->kind == SCHED_OP_KERNEL
         || op->kind == SCHED_OP_RECORD || op->kind == SCHED_OP_WAIT
         || op->kind == SCHED_OP_SYNC_STREAM || op->kind == SCHED_OP_MEMSET
         || op->kind == SCHED_OP_HOSTFN || op->kind == SCHED_OP_MALLOC
         || op->kind == SCHED_OP_FREE;
}

void
measured_row_fill (const Schedule *sched, gsize index, TimelineRow *row)
{
  const SchedOp *op = schedule_op (sched, index);
  gboolean copy = op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY;
  *row = (TimelineRow) {
    .op = (guint32) index,
    .line = op->line,
    .stream = op_has_stream (op) ? schedule_stream (sched, op->stream)->name : "",
    .kind = schedule_op_kind_name (op),
    .engine = engine_name (op),
    .conn = -1,
    .issue = -1,
    .start = -1,
    .end = -1,
    .bytes = copy ? op->u.copy.bytes : 0,
    .grid = op->kind == SCHED_OP_KERNEL ? op->u.kernel.grid : 0,
    .block = op->kind == SCHED_OP_KERNEL ? op->u.kernel.block : 0,
    .label = op->label,
    .cause = NULL,
  };
  row->issuer = schedule_op_thread_name (sched, index);
  if (strcmp (row->engine, "host") == 0)
    row->thread = row->issuer;
}
