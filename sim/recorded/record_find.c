/* record_find.c: what the log says of each call before any is written (record_builder.h):
 * the host time inside it, whether a stream capture took it, which intervals the program
 * timed, host functions' times, kernels' times alone, which calls become ops and time 0. */
#include "record_builder.h"
#include "record_capture.h"
#include "record_loads.h"

/* How the host time inside a call is found (record_inside.h): per call,
 * what kind of call it is, what it waits for, and its group. Blocking
 * copies are grouped by direction and host memory, whatever their
 * function: the driver stages them alike. */
static void
inside_call (const Builder *b, guint index, GHashTable *nonblocking, InsideCall *ic)
{
  gboolean device_sleeps = b->schedule == SCHED_SCHEDULE_BLOCKING_SYNC;
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  gboolean per_thread;
  RecordCallKind kind = builder_call_kind (c, w, &per_thread);
  guint64 handle = c->stream;
  *ic = (InsideCall) {
    .group = c->name, .enter = c->enter, .exit = MAX (c->exit, c->enter), .event = c->event,
    .timed = w->timed && !b->captured[index], .start = w->start, .end = w->end,
    .records = kind == RECORD_CALL_RECORD && !b->captured[index],
    .waits_event = kind == RECORD_CALL_WAIT && !b->captured[index],
  };
  ic->stream = builder_stream_key (b, c, kind, per_thread);
  ic->nonblocking = g_hash_table_contains (nonblocking, &handle);
  /* a query waits for nothing, but what it asked of is found as for a
   * synchronize: builder_find_polls reads it */
  gboolean event_query;
  if (record_call_is_query (c->name, &event_query) && !b->captured[index])
    {
      ic->kind = INSIDE_BLOCKING;
      ic->waits = event_query ? INSIDE_WAITS_EVENT : INSIDE_WAITS_STREAM;
      ic->group = "query";
      return;
    }
  if (b->captured[index] || !builder_makes_op (b, kind, c, w))
    return;
  guint64 bytes;
  guint copy_kind;
  ic->untimed_work = !ic->timed && (kind == RECORD_CALL_KERNEL || kind == RECORD_CALL_MEMSET
                                     || kind == RECORD_CALL_COPY || kind == RECORD_CALL_MEMCPY
                                     || kind == RECORD_CALL_GRAPH);
  switch (kind)
    {
    case RECORD_CALL_KERNEL:
    case RECORD_CALL_MEMSET:
    case RECORD_CALL_HOSTFN:
    case RECORD_CALL_RECORD:
    case RECORD_CALL_WAIT:
    case RECORD_CALL_GRAPH:
      ic->kind = INSIDE_ASYNC;
      break;
    case RECORD_CALL_COPY:
    case RECORD_CALL_MEMCPY:
      builder_copy_shape (c, w, &bytes, &copy_kind);
      if (kind == RECORD_CALL_COPY && !w->pageable)
        ic->kind = INSIDE_ASYNC;
      else if (!(w->pageable && copy_kind == RECORD_MEMCPY_D2H))
        {
          ic->kind = INSIDE_BLOCKING;
          ic->waits = INSIDE_WAITS_OWN;
          /* the bytes not resident, as builder_write_copy counts them */
          ic->untouched = w->pageable && copy_kind != RECORD_MEMCPY_D2D
                          && !record_call_is_rows_copy (c->name) && c->a[2] > 0;
          ic->group = copy_kind == RECORD_MEMCPY_H2D
                      ? (w->pageable ? "blocking h2d pageable" : "blocking h2d")
                    : copy_kind == RECORD_MEMCPY_D2H ? "blocking d2h" : "blocking d2d";
          /* by size: within a factor of two */
          char setup[64];
          g_snprintf (setup, sizeof setup, "%s, 2^%u bytes", ic->group,
                      bytes > 0 ? (guint) g_bit_storage (bytes) : 0u);
          ic->setup_group = g_intern_string (setup);
          if (device_sleeps
              && schedule_copy_wait_sleeps (copy_kind == RECORD_MEMCPY_H2D ? SCHED_DIR_H2D
                                                                           : SCHED_DIR_D2H,
                                            w->pageable))
            ic->sleeps = b->opt->profile;
        }
      break;
    case RECORD_CALL_SYNC_EVENT:
    case RECORD_CALL_SYNC_STREAM:
    case RECORD_CALL_SYNC_DEVICE:
      ic->kind = INSIDE_BLOCKING;
      ic->waits = kind == RECORD_CALL_SYNC_EVENT ? INSIDE_WAITS_EVENT
                : kind == RECORD_CALL_SYNC_STREAM ? INSIDE_WAITS_STREAM : INSIDE_WAITS_DEVICE;
      if (kind == RECORD_CALL_SYNC_EVENT ? g_hash_table_contains (b->sleeping_events, &c->event)
                                         : device_sleeps)
        ic->sleeps = b->opt->profile;
      break;
    case RECORD_CALL_FREE:
      ic->kind = INSIDE_FREE;
      if (device_sleeps)
        ic->sleeps = b->opt->profile;
      if (b->opt->profile != NULL)
        {
          ic->charged = (guint64) gpu_profile_idle_sync_cost (b->opt->profile);
          ic->charged_wait = (guint64) b->opt->profile->host_sync;
        }
      break;
    default:
      break;
    }
}

/* The op a call that puts work on the GPU becomes, as the model charges
 * its call (a graph launch's first node carries it), in *op; FALSE for a
 * call of another kind. */
static gboolean
device_op_of (RecordCallKind kind, SchedOp *op)
{
  static const struct { RecordCallKind call; SchedOpKind op; } kinds[] = {
    { RECORD_CALL_KERNEL, SCHED_OP_KERNEL }, { RECORD_CALL_MEMSET, SCHED_OP_MEMSET },
    { RECORD_CALL_COPY, SCHED_OP_COPY },     { RECORD_CALL_MEMCPY, SCHED_OP_MEMCPY },
    { RECORD_CALL_HOSTFN, SCHED_OP_HOSTFN }, { RECORD_CALL_RECORD, SCHED_OP_RECORD },
    { RECORD_CALL_WAIT, SCHED_OP_WAIT },     { RECORD_CALL_GRAPH, SCHED_OP_KERNEL },
  };
  guint i = 0;
  while (i < G_N_ELEMENTS (kinds) && kinds[i].call != kind)
    i++;
  if (i == G_N_ELEMENTS (kinds))
    return FALSE;
  *op = (SchedOp) { 0 };
  op->kind = kinds[i].op;
  if (kind == RECORD_CALL_GRAPH)
    {
      op->graph = 1;
      op->graph_launch = TRUE;
    }
  return TRUE;
}

/* The call's time up to its group's `usual` beyond what the profile charges
 * its op (RecordOptions' traced_calls): the tracer's cost in every call. */
static guint64
traced_cost (const Builder *b, guint index, const InsideCall *ic, guint64 usual)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  gboolean per_thread;
  SchedOp op;
  if (!device_op_of (builder_call_kind (c, &b->work[index], &per_thread), &op))
    return 0;
  guint64 took = MIN (ic->exit - ic->enter, usual);
  guint64 charged = (guint64) gpu_profile_call_cost (b->opt->profile, &op);
  return took > charged ? took - charged : 0;
}

/* The model charges the first call that puts work on the GPU of each
 * thread with a block of its own thread_first_call more (eng_host.c): where
 * that call is asynchronous, so much of its time is the model's, not host
 * time inside it. (A blocking copy's set-up before its copy is no host
 * time the recorder writes, so it is the model's already.) */
static void
charge_first_calls (Builder *b, const guint *order, InsideCall *calls)
{
  if (b->opt->profile == NULL || b->opt->profile->host_thread_first_call <= 0)
    return;
  g_autoptr (GHashTable) blocks = record_threads_in_blocks (b->log, order);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  for (guint k = 0; k < b->log->calls->len; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gpointer thread = GUINT_TO_POINTER (c->thread);
      if (!g_hash_table_contains (blocks, thread) || g_hash_table_contains (seen, thread))
        continue;
      gboolean per_thread;
      RecordCallKind kind = builder_call_kind (c, &b->work[i], &per_thread);
      SchedOp op;
      if (!device_op_of (kind, &op) || b->captured[i] || !builder_makes_op (b, kind, c, &b->work[i]))
        continue;
      g_hash_table_add (seen, thread);
      if (calls[k].kind == INSIDE_ASYNC)
        calls[k].charged += (guint64) b->opt->profile->host_thread_first_call;
    }
}

static void find_loads (Builder *b, const guint *order, const gint64 *usual);

/* The host time inside every call, from the calls in the order they began;
 * and on the way, from the calls' usual times, which launches load their
 * code (find_loads), since the model charges those more. */
void
builder_find_inside (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  g_autoptr (GHashTable) nonblocking = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gboolean per_thread;
      if (record_call_kind_of (c, &per_thread) == RECORD_CALL_STREAM_CREATE && (c->a[0] & 1) != 0)
        g_hash_table_add (nonblocking, g_memdup2 (&c->stream, sizeof c->stream));
    }
  g_autofree InsideCall *calls = g_new0 (InsideCall, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    inside_call (b, order[k], nonblocking, &calls[k]);
  g_autofree gint64 *usual_k = record_inside_usual (calls, n);
  g_autofree gint64 *usual = g_new0 (gint64, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    usual[order[k]] = usual_k[k];
  find_loads (b, order, usual);
  /* the model charges a loading launch the profile's kernel_load more */
  for (guint k = 0; k < n; k++)
    if (b->loads[order[k]] && b->opt->profile != NULL)
      calls[k].charged = (guint64) b->opt->profile->host_kernel_load;
  charge_first_calls (b, order, calls);
  g_autofree InsideHost *found = record_inside_find (calls, n, b->opt->min_host_ns);
  b->inside = g_new0 (InsideHost, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      if (b->opt->traced_calls && b->opt->profile != NULL && calls[k].kind == INSIDE_ASYNC
          && usual_k[k] >= 0)
        found[k].traced = traced_cost (b, order[k], &calls[k], (guint64) usual_k[k]);
      b->inside[order[k]] = found[k];
    }
}

/* What each call is to a stream capture (record_capture.h), and so which
 * calls a capture took. */
void
builder_find_captured (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  g_autofree CaptureRole *role = g_new0 (CaptureRole, MAX (n, 1));
  g_autofree gboolean *timed = g_new0 (gboolean, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gboolean per_thread;
      RecordCallKind kind = record_call_kind_of (c, &per_thread);
      timed[i] = b->work[i].timed;
      role[i] = kind == RECORD_CALL_COPY || kind == RECORD_CALL_MEMCPY || kind == RECORD_CALL_KERNEL
                ? CAPTURE_ROLE_WORK
              : kind == RECORD_CALL_NOT_MODELLED || kind == RECORD_CALL_MEMSET
                || kind == RECORD_CALL_HOSTFN || kind == RECORD_CALL_GRAPH
              ? CAPTURE_ROLE_OTHER_WORK
              : kind == RECORD_CALL_RECORD ? CAPTURE_ROLE_RECORD
              : kind == RECORD_CALL_WAIT ? CAPTURE_ROLE_WAIT
              : g_str_has_prefix (c->name, "cudaStreamBeginCapture") ? CAPTURE_ROLE_BEGIN
              : g_str_has_prefix (c->name, "cudaStreamEndCapture") ? CAPTURE_ROLE_END
              : CAPTURE_ROLE_OTHER;
    }
  b->captured = record_capture_find (b->log, order, role, timed);
}

static gboolean
is_elapsed_time (const char *name)
{
  return g_str_has_prefix (name, "cudaEventElapsedTime") || g_str_has_prefix (name, "cuEventElapsedTime");
}

/* The pairs of event records that cudaEventElapsedTime calls measured: the
 * latest record of each of its two events before the call, in the order the
 * calls began (`order`). A record that ends several such intervals keeps
 * the first; a pair whose end was recorded before its start is skipped. */
void
builder_find_elapsed_pairs (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  b->elapsed_from = g_new0 (guint, MAX (n, 1));
  b->op_of_call = g_new0 (guint, MAX (n, 1));
  g_autofree guint *position = g_new0 (guint, MAX (n, 1));
  /* event handle -> its latest record call + 1 */
  g_autoptr (GHashTable) latest = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint k = 0; k < n; k++)
    {
      guint i = order[k];
      position[i] = k;
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gboolean per_thread;
      if (record_call_kind_of (c, &per_thread) == RECORD_CALL_RECORD && !b->captured[i])
        g_hash_table_insert (latest, g_memdup2 (&c->event, sizeof c->event), GUINT_TO_POINTER (i + 1));
      else if (is_elapsed_time (c->name))
        {
          guint64 end_event = c->a[0];
          guint from = GPOINTER_TO_UINT (g_hash_table_lookup (latest, &c->event));
          guint to = GPOINTER_TO_UINT (g_hash_table_lookup (latest, &end_event));
          if (from == 0 || to == 0 || from == to || position[from - 1] > position[to - 1]
              || b->elapsed_from[to - 1] != 0)
            continue;
          b->elapsed_from[to - 1] = from;
        }
    }
}

/* A kernel's share of the GPU recorded on: min(1, grid / (SMs x blocks per
 * SM for its shape)); -1 without a profile or where no SM holds a block. */
static double
occupancy (const GpuProfile *profile, const RecordWork *k)
{
  if (profile == NULL || k->a[1] == 0 || k->a[1] > G_MAXUINT || k->a[3] > G_MAXUINT)
    return -1;
  guint per_sm = gpu_profile_blocks_per_sm (profile, (guint) k->a[1], k->a[2], (guint) k->a[3]);
  if (per_sm == 0 || profile->sm_count == 0)
    return -1;
  return MIN (1.0, (double) k->a[0] / ((double) profile->sm_count * per_sm));
}

/* Each timed kernel's time alone (record_alone.h), per call. */
void
builder_find_alone_times (Builder *b)
{
  guint n = b->log->calls->len;
  b->alone = g_new0 (AloneTime, MAX (n, 1));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (AloneKernel));
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    {
      const CallWork *w = &b->work[i];
      /* a graph launch's kernels keep CUPTI's times (builder_write_graph) */
      if (w->kernel == NULL || !w->timed || b->graph_nodes[i] != NULL)
        continue;
      const RecordWork *k = w->kernel;
      char *key = g_strdup_printf ("%s/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                   k->name, k->a[0], k->a[1], k->a[2]);
      g_ptr_array_add (keys, key);
      AloneKernel ak = { .start = k->start, .end = k->end, .key = key,
                         .occupancy = occupancy (b->opt->profile, k),
                         .peers = record_alone_paced_by_peers (k->name) };
      g_array_append_val (kernels, ak);
      g_array_append_val (calls, i);
    }
  g_autofree AloneTime *found = record_alone_find ((const AloneKernel *) kernels->data, kernels->len);
  for (guint j = 0; j < calls->len; j++)
    b->alone[g_array_index (calls, guint, j)] = found[j];
}

/* Which launches load their kernel's code (record_loads.h), given each
 * call's usual time. */
static void
find_loads (Builder *b, const guint *order, const gint64 *usual)
{
  guint n = b->log->calls->len;
  g_autofree guint *position = g_new0 (guint, MAX (n, 1));
  g_autofree gboolean *may_load = g_new0 (gboolean, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    position[order[k]] = k;
  for (guint i = 0; i < n; i++)
    {
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gboolean per_thread;
      may_load[i] = record_call_kind_of (c, &per_thread) == RECORD_CALL_KERNEL
                    && !record_call_is_driver (c->name)
                    && !b->captured[i];
    }
  const GpuProfile *p = b->opt->profile;
  b->loads = record_loads_find (b->log, b->call_of_work, position, may_load, usual,
                                p != NULL ? (guint64) p->host_kernel_load : 0);
}

/* Host functions' times, from the work of their streams (record_hostfn.h). */
void
builder_find_hostfn (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  g_autofree HostfnCall *calls = g_new0 (HostfnCall, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      const CallWork *w = &b->work[i];
      gboolean per_thread;
      RecordCallKind kind = builder_call_kind (c, w, &per_thread);
      gboolean work = kind == RECORD_CALL_COPY || kind == RECORD_CALL_MEMCPY || kind == RECORD_CALL_KERNEL
                      || kind == RECORD_CALL_MEMSET;
      calls[k] = (HostfnCall) {
        .role = b->captured[i] ? HOSTFN_ROLE_OTHER
              : kind == RECORD_CALL_HOSTFN ? HOSTFN_ROLE_HOSTFN
              : work ? HOSTFN_ROLE_WORK : HOSTFN_ROLE_OTHER,
        .stream = builder_stream_key (b, c, kind, per_thread),
        .enter = c->enter, .exit = MAX (c->exit, c->enter),
        .timed = w->timed, .start = w->start, .end = w->end,
      };
    }
  const GpuProfile *p = b->opt->profile;
  HostfnCosts costs = { 0 };
  if (p != NULL)
    costs = (HostfnCosts) { .wake = (guint64) p->hostfn_wake, .wake_idle = (guint64) p->hostfn_wake_idle,
                            .next = (guint64) p->hostfn_next, .resume = (guint64) p->hostfn_resume };
  g_autofree HostfnTime *found = record_hostfn_find (calls, n, &costs);
  b->hostfn = g_new0 (HostfnTime, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    b->hostfn[order[k]] = found[k];
}

/* Per call, whether it becomes an op (builder_makes_op): not one a stream capture took. */
gboolean *
builder_find_ops (const Builder *b)
{
  guint n = b->log->calls->len;
  gboolean *is_op = g_new0 (gboolean, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gboolean per_thread;
      is_op[i] = !b->captured[i] && builder_makes_op (b, builder_call_kind (c, &b->work[i], &per_thread), c,
                                              &b->work[i]);
    }
  return is_op;
}

/* Time 0: the first op's call (`order`: the calls in the order they began),
 * or options->origin_ns where that is before it; what came before is
 * set-up. */
void
builder_find_t0 (Builder *b, const guint *order, const gboolean *is_op)
{
  for (guint k = 0; k < b->log->calls->len && !b->started; k++)
    if (is_op[order[k]])
      {
        guint64 enter = g_array_index (b->log->calls, RecordCall, order[k]).enter;
        b->started = TRUE;
        b->t0 = b->opt->origin_ns > 0 && b->opt->origin_ns < enter ? b->opt->origin_ns : enter;
      }
}
