/* record_call_work.c: each call with the GPU work CUPTI reported for it (record_builder.h):
 * joined to it, the shape of its copy, its kind in the schedule, whether it becomes an op
 * and whether it holds the host until GPU work is done. */
#include <string.h>
#include "record_builder.h"
#include "record_graph.h"
#include "record_memset.h"

/* Whether a copy record's host side is pageable memory. */
gboolean
builder_copy_is_pageable (const RecordWork *r)
{
  return r->a[2] == RECORD_MEMORY_PAGEABLE || r->a[3] == RECORD_MEMORY_PAGEABLE;
}

/* A copy's bytes and cudaMemcpyKind: the call's, except where the log
 * kept none (the driver API's blocking copies: their name's direction and
 * CUPTI's bytes) or the kind is cudaMemcpyDefault (CUPTI's direction). */
void
builder_copy_shape (const RecordCall *c, const CallWork *w, guint64 *bytes, guint *kind)
{
  *bytes = c->a[0];
  *kind = (guint) c->a[1];
  if (record_call_is_driver (c->name) && c->a[0] == 0)
    {
      *bytes = w->copy_bytes;
      *kind = strstr (c->name, "HtoD") != NULL ? RECORD_MEMCPY_H2D
            : strstr (c->name, "DtoH") != NULL ? RECORD_MEMCPY_D2H
            : strstr (c->name, "DtoD") != NULL ? RECORD_MEMCPY_D2D : RECORD_MEMCPY_DEFAULT;
    }
  if (*kind == RECORD_MEMCPY_DEFAULT && w->timed)
    *kind = w->copy_kind == RECORD_COPY_HTOD ? RECORD_MEMCPY_H2D
          : w->copy_kind == RECORD_COPY_DTOH ? RECORD_MEMCPY_D2H
          : w->copy_kind == RECORD_COPY_DTOD ? RECORD_MEMCPY_D2D : RECORD_MEMCPY_DEFAULT;
}

/* A call's kind in the schedule: classify()'s, except that a blocking
 * copy from device to device is an async one in its default stream, for
 * the host does not wait for it ("no host-side synchronization is
 * performed", the runtime's API synchronization behavior; reduction's host
 * went on 140 us before such a copy ended). */
RecordCallKind
builder_call_kind (const RecordCall *c, const CallWork *w, gboolean *per_thread)
{
  RecordCallKind kind = record_call_kind_of (c, per_thread);
  guint64 bytes;
  guint copy_kind;
  gboolean event_query;
  if (w->poll_end > 0 && record_call_is_query (c->name, &event_query))
    return event_query ? RECORD_CALL_SYNC_EVENT : RECORD_CALL_SYNC_STREAM;
  if (kind != RECORD_CALL_MEMCPY)
    return kind;
  builder_copy_shape (c, w, &bytes, &copy_kind);
  return copy_kind == RECORD_MEMCPY_D2D ? RECORD_CALL_COPY : kind;
}

/* Whether a call of this kind becomes an op (not only a declaration, a
 * comment or host time): what the host time before it is measured up to. */
gboolean
builder_makes_op (const Builder *b, RecordCallKind kind, const RecordCall *c, const CallWork *w)
{
  switch (kind)
    {
    case RECORD_CALL_HOST:
    case RECORD_CALL_STREAM_CREATE:
    case RECORD_CALL_NOT_MODELLED:
      return FALSE;
    case RECORD_CALL_MEMSET:
      {
        MemsetShape m;
        record_memset_shape (c, w->memset, b->log_has_memsets, &m);
        return m.what == MEMSET_OP;
      }
    case RECORD_CALL_GRAPH:
      return b->graph_why[c - &g_array_index (b->log->calls, RecordCall, 0)] == NULL;
    case RECORD_CALL_COPY:
    case RECORD_CALL_MEMCPY:
      {
        /* host to host, or empty: no GPU work, host time */
        guint64 bytes;
        guint copy_kind;
        builder_copy_shape (c, w, &bytes, &copy_kind);
        return bytes > 0 && copy_kind != RECORD_MEMCPY_H2H;
      }
    default:
      return TRUE;
    }
}

/* Whether a call holds the host until GPU work is done: a synchronize, a
 * blocking copy, a copy from or to pageable memory, a graph launch with
 * such a copy. */
gboolean
builder_waits_for_gpu (RecordCallKind kind, const CallWork *w)
{
  return kind == RECORD_CALL_MEMCPY || kind == RECORD_CALL_SYNC_EVENT
         || kind == RECORD_CALL_SYNC_STREAM || kind == RECORD_CALL_SYNC_DEVICE
         || kind == RECORD_CALL_FREE
         || ((kind == RECORD_CALL_COPY || kind == RECORD_CALL_GRAPH) && w->pageable);
}

/* A call's stream as record_inside.h and record_hostfn.h key it: the
 * legacy default stream (where a blocking copy runs too), its thread's
 * per-thread one (the top level's RECORD_STREAM_PER_THREAD, another's that
 * with the thread's number above bit 32: no stream's address, which is
 * aligned, ends in 2), or the handle. */
guint64
builder_stream_key (const Builder *b, const RecordCall *c, RecordCallKind kind, gboolean per_thread)
{
  guint64 handle = c->stream;
  if ((handle == 0 && !per_thread) || handle == RECORD_STREAM_LEGACY || kind == RECORD_CALL_MEMCPY)
    return INSIDE_STREAM_LEGACY;
  if (handle != 0 && handle != RECORD_STREAM_PER_THREAD)
    return handle;
  return c->thread == b->top_thread ? RECORD_STREAM_PER_THREAD
                                    : RECORD_STREAM_PER_THREAD | (guint64) c->thread << 32;
}

/* Each kernel and copy record joined to the runtime call that started it:
 * by the runtime correlation id, or through the driver call it made. */
void
builder_join_work (Builder *b)
{
  guint n = b->log->calls->len;
  b->work = g_new0 (CallWork, n);
  b->call_of_work = g_new0 (guint, MAX (b->log->works->len, 1));
  b->graph_nodes = g_new0 (GPtrArray *, MAX (n, 1));
  b->graph_why = g_new0 (const char *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      gboolean per_thread;
      if (record_call_kind_of (&g_array_index (b->log->calls, RecordCall, i), &per_thread)
          == RECORD_CALL_GRAPH)
        b->graph_nodes[i] = g_ptr_array_new ();
    }
  b->by_correlation = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      guint32 corr = g_array_index (b->log->calls, RecordCall, i).correlation;
      if (corr != 0)
        g_hash_table_insert (b->by_correlation, GUINT_TO_POINTER (corr), GUINT_TO_POINTER (i + 1));
    }
  for (guint j = 0; j < b->log->works->len; j++)
    {
      const RecordWork *r = &g_array_index (b->log->works, RecordWork, j);
      guint32 tries[3] = { r->runtime_correlation, r->correlation,
                           GPOINTER_TO_UINT (g_hash_table_lookup (b->log->links,
                                                                  GUINT_TO_POINTER (r->correlation))) };
      guint call = 0;
      for (guint t = 0; t < 3 && call == 0; t++)
        if (tries[t] != 0)
          call = GPOINTER_TO_UINT (g_hash_table_lookup (b->by_correlation, GUINT_TO_POINTER (tries[t])));
      b->log_has_memsets |= r->kind == RECORD_WORK_MEMSET;
      if (call == 0)
        continue;
      b->call_of_work[j] = call;
      if (b->graph_nodes[call - 1] != NULL)
        g_ptr_array_add (b->graph_nodes[call - 1], (gpointer) r);
      CallWork *w = &b->work[call - 1];
      w->start = w->timed ? MIN (w->start, r->start) : r->start;
      w->end = w->timed ? MAX (w->end, r->end) : r->end;
      w->timed = TRUE;
      if (r->kind == RECORD_WORK_KERNEL)
        w->kernel = r;
      else if (r->kind == RECORD_WORK_MEMSET)
        w->memset = r;
      else
        {
          w->copy_kind = (guint) r->a[1];
          w->copy_bytes += r->a[0];
          w->pageable |= builder_copy_is_pageable (r);
        }
    }
  for (guint i = 0; i < n; i++)
    if (b->graph_nodes[i] != NULL)
      b->graph_why[i] = record_graph_nodes (b->graph_nodes[i]);
}
