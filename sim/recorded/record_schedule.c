/* record_schedule.c: a recorder log read as a schedule (record_schedule.h). */
#include <stdlib.h>
#include <string.h>
#include "sim/core/located_error.h"
#include "record_alone.h"
#include "record_call.h"
#include "record_capture.h"
#include "record_branches.h"
#include "record_graph.h"
#include "record_hostfn.h"
#include "kernel_label.h"
#include "record_inside.h"
#include "record_loads.h"
#include "record_memset.h"
#include "record_schedule.h"
#include "record_threads.h"
#include "sim/formats/schedule_parse.h"
#include "sim/core/schedule.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/units.h"

/* A call's GPU work: the kernel, copies or memset CUPTI reported for it, joined. */
typedef struct
{
  gboolean timed;
  guint64 start, end;
  gboolean pageable;
  guint copy_kind;
  guint64 copy_bytes;   /* the copy records' bytes, added up */
  const RecordWork *kernel;
  const RecordWork *memset;
} CallWork;

/* Where a host thread stands while its calls are written. */
typedef struct
{
  guint64 last_exit;    /* the latest return of its op calls, or where it began (CUPTI clock) */
  guint64 short_gaps;   /* host gaps under the minimum not written yet (write_gap) */
  guint64 boundaries;   /* calls entered since its last op call returned (RecordOptions' call_gap_ns) */
} HostPlace;

typedef struct
{
  const RecordLog *log;
  const RecordOptions *opt;
  GString *text;
  GArray *origin;       /* per text line, the log line of the call it came from (0: none) */
  /* While a thread block is written: the top level's text and origins,
   * which declarations go to (a block may hold none); NULL otherwise. */
  GString *top_text;
  GArray *top_origin;
  guint top_thread;     /* the log's number of the thread at the top level */
  guint n_blocks;       /* threads written as `thread` blocks (record_threads.h) */
  guint n_spawned;      /* blocks opened so far */
  guint thread;         /* ... of the thread whose calls are written */
  HostPlace *place;     /* ... and where it stands */
  gsize block_ops;      /* the ops before the open block's first */
  guint call_line;      /* the log line of the call being written */
  GArray *issue, *start, *end;
  GHashTable *streams;  /* handle -> name (owned strings in `names`) */
  GHashTable *events;
  GPtrArray *event_names; /* the events' names in the order they were named */
  GHashTable *recorded;   /* the names of the events a `record` was written for */
  GPtrArray *names;
  GPtrArray *lanes;     /* the names of the streams graphs' branches use, declared (in `names`) */
  guint n_streams, n_events;
  GHashTable *per_thread; /* thread number -> the name of its per-thread default stream,
                             once declared */
  GHashTable *by_correlation; /* runtime correlation -> call index + 1 */
  CallWork *work;       /* per call */
  guint *call_of_work;  /* per work record of the log: its call + 1; 0: none */
  gboolean log_has_memsets; /* the log has memset records (record_memset.h) */
  AloneTime *alone;     /* per call: its kernel's time alone (record_alone.h); zeroed for the rest */
  gboolean *loads;      /* per call: a launch that loads its kernel's code (record_loads.h) */
  HostfnTime *hostfn;   /* per call: a host function's time (record_hostfn.h) */
  guint *elapsed_from;  /* per record call: the record call a cudaEventElapsedTime measured
                           from to it, + 1; 0 if none */
  guint *op_of_call;    /* per call: the op it became, + 1; 0 if none */
  gboolean *captured;   /* per call: a stream capture took it into a graph */
  GPtrArray **graph_nodes; /* per graph launch call: its records (record_graph.h); else NULL */
  const char **graph_why;  /* ... and why `graph` cannot write them, or NULL */
  InsideHost *inside;   /* per call: the host time inside it (record_inside.h) */
  RecordSchedule *rec;
  const char *times_of; /* the device kernel times are tagged with (time=h100:...), or NULL */
  guint64 t0;
  gboolean started;     /* some call is an op: t0 is its call's, or options' origin */
  GError **error;
} Builder;

static void
line_end (Builder *b)
{
  g_string_append_c (b->text, '\n');
  g_array_append_val (b->origin, b->call_line);
}

static void G_GNUC_PRINTF (2, 3)
comment (Builder *b, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_string_append (b->text, "# ");
  g_string_append_vprintf (b->text, format, args);
  va_end (args);
  line_end (b);
}

static void
append_size (GString *s, guint64 bytes)
{
  g_autofree char *text = units_format_exact_size (bytes);
  g_string_append (s, text);
}

/* A time in ns held as a double, rounded, at most G_MAXUINT64 (a log's
 * times may add up past what 64 bits hold). */
static guint64
ns_rounded (double ns)
{
  return ns + 0.5 >= 18446744073709551615.0 ? G_MAXUINT64 : ns > 0 ? (guint64) (ns + 0.5) : 0;
}

/* Whether a copy record's host side is pageable memory. */
static gboolean
copy_is_pageable (const RecordWork *r)
{
  return r->a[2] == RECORD_MEMORY_PAGEABLE || r->a[3] == RECORD_MEMORY_PAGEABLE;
}

/* Nanoseconds exactly, as microseconds with three decimals. */
static void
append_time (GString *s, guint64 ns)
{
  g_string_append_printf (s, "%" G_GUINT64_FORMAT ".%03uus", ns / 1000, (guint) (ns % 1000));
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (Builder *b, const RecordCall *c, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (b->error, RECORD_ERROR, RECORD_ERROR_PARSE, b->log->path, c->line, 1,
                      format, args);
  va_end (args);
  return FALSE;
}

static const char *
remember (Builder *b, GHashTable *table, guint64 handle, char *name)
{
  g_ptr_array_add (b->names, name);
  g_hash_table_insert (table, g_memdup2 (&handle, sizeof handle), name);
  return name;
}

/* Declarations stand at the top level: while a thread block is written,
 * one goes before it. Swaps the block's text and the top level's, so that
 * a declaration is written between two calls of this (at its line's start). */
static void
swap_top (Builder *b)
{
  if (b->top_text == NULL)
    return;
  GString *text = b->text;
  GArray *origin = b->origin;
  b->text = b->top_text;
  b->origin = b->top_origin;
  b->top_text = text;
  b->top_origin = origin;
}

static const char *
new_stream (Builder *b, guint64 handle, guint64 flags, gint64 priority, const char *why)
{
  const char *name = remember (b, b->streams, handle, g_strdup_printf ("s%u", ++b->n_streams));
  swap_top (b);
  g_string_append_printf (b->text, "stream %s", name);
  if (flags & 1) /* cudaStreamNonBlocking */
    g_string_append (b->text, " nonblocking");
  if (priority != 0)
    g_string_append_printf (b->text, " priority=%" G_GINT64_FORMAT, priority);
  if (why != NULL)
    g_string_append_printf (b->text, "   # %s", why);
  line_end (b);
  swap_top (b);
  return name;
}

/* The schedule's name for a thread's per-thread default stream (each host
 * thread has one of its own): "per_thread" for the top level's. */
static char *
per_thread_stream (const Builder *b, guint thread)
{
  return thread == b->top_thread ? g_strdup ("per_thread") : g_strdup_printf ("per_thread_t%u", thread);
}

/* The per-thread default stream of the thread whose calls are written,
 * declared on its first use. */
static const char *
per_thread_name (Builder *b)
{
  const char *name = g_hash_table_lookup (b->per_thread, GUINT_TO_POINTER (b->thread));
  if (name != NULL)
    return name;
  char *made = per_thread_stream (b, b->thread);
  g_ptr_array_add (b->names, made);
  g_hash_table_insert (b->per_thread, GUINT_TO_POINTER (b->thread), made);
  swap_top (b);
  if (b->thread == b->top_thread)
    g_string_append_printf (b->text, "stream %s   # the per-thread default stream", made);
  else
    g_string_append_printf (b->text, "stream %s   # thread t%u's per-thread default stream", made,
                            b->thread);
  line_end (b);
  swap_top (b);
  return made;
}

/* The schedule's name for a stream handle, declaring it on first use when
 * the runtime did not create it (the per-thread stream; a library's stream
 * made through the driver API). */
static const char *
stream_name (Builder *b, guint64 handle, gboolean per_thread)
{
  if ((handle == 0 && !per_thread) || handle == RECORD_STREAM_LEGACY)
    return "default";
  if (handle == 0 || handle == RECORD_STREAM_PER_THREAD)
    return per_thread_name (b);
  const char *name = g_hash_table_lookup (b->streams, &handle);
  if (name == NULL)
    name = new_stream (b, handle, 0, 0, "created outside the runtime API (a library?)");
  return name;
}

static const char *
event_name (Builder *b, guint64 handle)
{
  const char *name = g_hash_table_lookup (b->events, &handle);
  if (name == NULL)
    {
      name = remember (b, b->events, handle, g_strdup_printf ("e%u", ++b->n_events));
      g_ptr_array_add (b->event_names, (gpointer) name);
    }
  return name;
}

static SimTime
since_t0 (const Builder *b, guint64 t)
{
  return t >= b->t0 ? (SimTime) (t - b->t0) : -(SimTime) (b->t0 - t);
}

/* Opens an op's statement: its times go into the per-op arrays. */
static void
op_times (Builder *b, guint64 issue, SimTime start, SimTime end)
{
  SimTime i = since_t0 (b, issue);
  g_array_append_val (b->issue, i);
  g_array_append_val (b->start, start);
  g_array_append_val (b->end, end);
}

/* How long a call ran on the host; 0 for one the recorder saw no return of. */
static guint64
call_took (const RecordCall *c)
{
  return c->exit > c->enter ? c->exit - c->enter : 0;
}

/* A `host` statement for host work from `from` to `to` (CUPTI clock);
 * `why`, when not NULL, ends it as a comment. */
static void
write_host (Builder *b, guint64 from, guint64 to, const char *why)
{
  g_string_append (b->text, "host ");
  append_time (b->text, to - from);
  if (why != NULL)
    g_string_append_printf (b->text, "   # %s", why);
  line_end (b);
  op_times (b, from, since_t0 (b, from), since_t0 (b, to));
}

static SimTime
work_start (const Builder *b, const CallWork *w)
{
  return w->timed ? since_t0 (b, w->start) : -1;
}

static SimTime
work_end (const Builder *b, const CallWork *w)
{
  return w->timed ? since_t0 (b, w->end) : -1;
}

/* A copy's bytes and cudaMemcpyKind: the call's, except where the log
 * kept none (the driver API's blocking copies: their name's direction and
 * CUPTI's bytes) or the kind is cudaMemcpyDefault (CUPTI's direction). */
static void
copy_shape (const RecordCall *c, const CallWork *w, guint64 *bytes, guint *kind)
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
static RecordCallKind
call_kind (const RecordCall *c, const CallWork *w, gboolean *per_thread)
{
  RecordCallKind kind = record_call_kind_of (c, per_thread);
  guint64 bytes;
  guint copy_kind;
  if (kind != RECORD_CALL_MEMCPY)
    return kind;
  copy_shape (c, w, &bytes, &copy_kind);
  return copy_kind == RECORD_MEMCPY_D2D ? RECORD_CALL_COPY : kind;
}

/* The page the recorder counts untouched memory in (record_inject.c:
 * sysconf's page size, 4 KiB on the x86-64 machines it runs on). */
#define RECORD_PAGE 4096u

static gboolean
write_copy (Builder *b, const RecordCall *c, const CallWork *w, gboolean sync, gboolean per_thread,
            guint64 issue)
{
  guint64 bytes;
  guint kind;
  copy_shape (c, w, &bytes, &kind);
  const char *dir = kind == RECORD_MEMCPY_H2D ? "h2d"
                  : kind == RECORD_MEMCPY_D2H ? "d2h"
                  : kind == RECORD_MEMCPY_D2D ? "d2d" : NULL;
  if (dir == NULL)
    return fail (b, c, "%s of %" G_GUINT64_FORMAT " bytes with copy kind %u, which is neither "
                 "host to device, device to host nor device to device", c->name, bytes, kind);
  if (sync)
    g_string_append_printf (b->text, "memcpy %s ", dir);
  else
    g_string_append_printf (b->text, "%s %s ", dir, stream_name (b, c->stream, per_thread));
  append_size (b->text, bytes);
  /* A 2D or 3D copy's A2 is its rows (one row: a plain copy), and the log
   * counts no untouched memory for it. */
  guint64 rows = record_call_rows (c);
  /* How much of the host buffer was not resident yet (record_inject.c):
   * `untouched` for all of it, `untouched=SIZE` for a part. The log counts
   * whole pages, and the pages at the buffer's two ends are shared with
   * what lies beside it (malloc writes a block's header just before it):
   * less than two pages short of the buffer is all of it. */
  guint64 cold = kind == RECORD_MEMCPY_D2D || record_call_is_rows_copy (c->name)
                 ? 0 : MIN (c->a[2], bytes);
  if (w->pageable)
    {
      g_string_append (b->text, " pageable");
      if (cold > 0 && cold + 2 * RECORD_PAGE > bytes)
        g_string_append (b->text, " untouched");
      else if (cold > 0)
        {
          g_string_append (b->text, " untouched=");
          append_size (b->text, cold);
        }
    }
  if (rows > 1)
    g_string_append_printf (b->text, " rows=%" G_GUINT64_FORMAT, rows);
  g_string_append_printf (b->text, "   # %s", c->name);
  gboolean ignored;
  if (!sync && record_call_kind_of (c, &ignored) == RECORD_CALL_MEMCPY)
    g_string_append (b->text, " (device to device: the host does not wait for it)");
  if (rows > 1)
    {
      g_string_append (b->text, ", ");
      append_size (b->text, bytes / rows);
      g_string_append_printf (b->text, " x %" G_GUINT64_FORMAT " rows", rows);
    }
  if (w->pageable && cold > 0)
    g_string_append_printf (b->text, ", %.0f%% of the host buffer not yet resident",
                            100.0 * (double) cold / (double) bytes);
  if (w->timed)
    {
      g_string_append (b->text, ", ");
      append_time (b->text, w->end - w->start);
      g_string_append (b->text, " on the GPU");
    }
  else
    {
      g_string_append (b->text, ", not timed by CUPTI (taken as pinned)");
      b->rec->n_untimed++;
    }
  line_end (b);
  SimTime start = work_start (b, w), end = work_end (b, w);
  if (sync)
    {
      /* a blocking copy ends for the host when the call returns (or where
       * the host work after it began: write_call) */
      start = start >= 0 ? start : since_t0 (b, issue);
      end = MAX (end, since_t0 (b, c->exit));
    }
  op_times (b, issue, start, end);
  return TRUE;
}

/* A traced kernel's time as its blocks took it: CUPTI's record, less the
 * profile's trace_extra, at least 1 ns. */
static guint64
blocks_time (const Builder *b, guint64 traced)
{
  guint64 extra = b->opt->profile != NULL ? (guint64) b->opt->profile->trace_extra : 0;
  return traced > extra ? traced - extra : 1;
}

/* The comment after a kernel's statement: where its time= came from. */
static void
kernel_comment (Builder *b, const CallWork *w, const AloneTime *a, gboolean loads)
{
  g_autoptr (GString) text = g_string_new (NULL);
  if (loads)
    g_string_append (text, "its kernel's first launch in the process: it loads the code "
                     "(CUDA_MODULE_LOADING lazy)");
  if (!w->timed)
    {
      g_string_append_printf (text, "%snot timed by CUPTI: time=0", text->len > 0 ? "; " : "");
      b->rec->n_untimed++;
    }
  else if (a->how != ALONE_RAN_ALONE)
    {
      g_string_append_printf (text, "%sran ", text->len > 0 ? "; " : "");
      append_time (text, w->end - w->start);
      g_string_append (text, " beside other kernels");
      if (a->how == ALONE_LONE_RUNS)
        g_string_append_printf (text, "; time= is the median of the same kernel's runs alone "
                                "(%u)", a->runs);
      else if (a->how == ALONE_INFERRED)
        {
          g_string_append (text, ", which oversubscribed the SMs; time= inferred: scaled by its "
                           "busy period's ");
          append_time (text, a->period);
          g_string_append (text, " over the kernels' ");
          append_time (text, ns_rounded (a->held));
          g_string_append (text, " of occupancy x duration (record_alone.h)");
          b->rec->n_inferred++;
        }
      else if (a->how == ALONE_ROOM)
        g_string_append (text, ", which left room on the SMs: time= as it ran");
      else
        g_string_append (text, "; no profile to tell their share of the SMs: time= as it ran");
    }
  if (text->len > 0)
    g_string_append_printf (b->text, "   # %s", text->str);
}

/* A kernel statement up to its time, which it writes as that of the
 * device recorded on (time=h100:...) where the profile can carry it. */
static void
append_kernel_head (Builder *b, const char *stream, guint64 grid, guint64 block, guint64 smem,
                    guint64 regs, guint64 time)
{
  g_string_append_printf (b->text, "kernel %s grid=%" G_GUINT64_FORMAT " block=%" G_GUINT64_FORMAT,
                          stream, grid, block);
  if (smem > 0)
    {
      g_string_append (b->text, " smem=");
      append_size (b->text, smem);
    }
  if (regs > 0)
    g_string_append_printf (b->text, " regs=%" G_GUINT64_FORMAT, regs);
  g_string_append (b->text, " time=");
  if (b->times_of != NULL)
    g_string_append_printf (b->text, "%s:", b->times_of);
  append_time (b->text, time);
}

static gboolean
write_kernel (Builder *b, guint index, gboolean per_thread, guint64 issue)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  const RecordWork *k = w->kernel;
  guint64 grid = k != NULL ? k->a[0] : c->a[0], block = k != NULL ? k->a[1] : c->a[1];
  if (grid == 0 || block == 0)
    return fail (b, c, "%s with %" G_GUINT64_FORMAT " blocks of %" G_GUINT64_FORMAT
                 " threads: a kernel needs at least one of each", c->name, grid, block);
  const AloneTime *a = &b->alone[index];
  append_kernel_head (b, stream_name (b, c->stream, per_thread), grid, block,
                      k != NULL ? k->a[2] : c->a[2], k != NULL ? k->a[3] : 0,
                      w->timed ? blocks_time (b, a->time) : 0);
  if (b->loads[index])
    {
      g_string_append (b->text, " loads");
      b->rec->n_loads++;
    }
  g_autofree char *label = k != NULL ? kernel_label (k->name) : g_strdup ("");
  if (label[0] != '\0')
    g_string_append_printf (b->text, " label=%s", label);
  kernel_comment (b, w, a, b->loads[index]);
  line_end (b);
  op_times (b, issue, work_start (b, w), work_end (b, w));
  return TRUE;
}

static void write_not_modelled (Builder *b, const RecordCall *c, const CallWork *w,
                                gboolean per_thread, const char *why);

/* The stream of a graph's lane: the launch's for lane 0, else a stream
 * of the branches' own, declared on its first use (record_branches.h). */
static const char *
lane_stream (Builder *b, const char *launch_stream, guint lane)
{
  if (lane == 0)
    return launch_stream;
  while (b->lanes->len < lane)
    {
      char *name = g_strdup_printf ("branch%u", b->lanes->len + 1);
      g_ptr_array_add (b->names, name);
      g_ptr_array_add (b->lanes, name);
      swap_top (b);
      g_string_append_printf (b->text, "stream %s   # a graph's branches, as the recorder lays them out",
                              name);
      line_end (b);
      swap_top (b);
    }
  return g_ptr_array_index (b->lanes, lane - 1);
}

/* One node of a graph launch as its statement in `stream`. */
static void
write_node (Builder *b, const RecordWork *r, const char *stream)
{
  g_string_append (b->text, "  ");
  if (r->kind == RECORD_WORK_KERNEL)
    {
      append_kernel_head (b, stream, r->a[0], r->a[1], r->a[2], r->a[3],
                          blocks_time (b, r->end - r->start));
      g_autofree char *label = kernel_label (r->name);
      if (label[0] != '\0')
        g_string_append_printf (b->text, " label=%s", label);
    }
  else
    {
      const char *what = r->kind == RECORD_WORK_MEMSET ? "memset"
                         : r->a[1] == RECORD_COPY_HTOD ? "h2d"
                         : r->a[1] == RECORD_COPY_DTOH ? "d2h" : "d2d";
      g_string_append_printf (b->text, "%s %s ", what, stream);
      append_size (b->text, r->a[0]);
      if (r->kind == RECORD_WORK_COPY && copy_is_pageable (r))
        g_string_append (b->text, " pageable");
    }
  line_end (b);
}

/* A graph launch (record_graph.h) as a `graph` block: each node as its
 * statement, issued where the launch was, in the launch's stream or, for
 * nodes that ran side by side, in the lanes record_branches_plan lays
 * out, joined by records and waits of events of their own (gbN); kernels'
 * times CUPTI's less trace_extra. A record or wait is given the end of
 * the node it follows. */
static void
write_graph (Builder *b, guint index, gboolean per_thread, guint64 issue)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const GPtrArray *nodes = b->graph_nodes[index];
  const char *stream = stream_name (b, c->stream, per_thread);
  g_autofree gint64 *start = g_new (gint64, nodes->len);
  g_autofree gint64 *end = g_new (gint64, nodes->len);
  for (guint i = 0; i < nodes->len; i++)
    {
      const RecordWork *r = g_ptr_array_index (nodes, i);
      start[i] = (gint64) r->start;
      end[i] = (gint64) r->end;
    }
  guint n_lanes;
  g_autoptr (GArray) items = record_branches_plan (start, end, nodes->len, &n_lanes);
  for (guint l = 1; l < n_lanes; l++)
    lane_stream (b, stream, l);
  g_string_append_printf (b->text, "graph %s   # %s, %u node%s", stream, c->name, nodes->len,
                          nodes->len == 1 ? "" : "s");
  if (n_lanes > 1)
    g_string_append_printf (b->text, " in %u lanes, from when they ran", n_lanes);
  line_end (b);
  for (guint k = 0; k < items->len; k++)
    {
      const BranchItem *it = &g_array_index (items, BranchItem, k);
      const char *in = lane_stream (b, stream, it->lane);
      if (it->kind == BRANCH_NODE)
        {
          const RecordWork *r = g_ptr_array_index (nodes, it->node);
          write_node (b, r, in);
          op_times (b, issue, since_t0 (b, r->start), since_t0 (b, r->end));
          continue;
        }
      SimTime at = since_t0 (b, it->node == G_MAXUINT ? (guint64) start[0] : (guint64) end[it->node]);
      if (it->kind == BRANCH_RECORD)
        g_string_append_printf (b->text, "  record gb%u %s", it->event, in);
      else
        g_string_append_printf (b->text, "  wait %s gb%u", in, it->event);
      line_end (b);
      op_times (b, issue, at, at);
    }
  g_string_append (b->text, "end");
  line_end (b);
}

/* A memset call as a `memset` statement (record_memset.h); a memset the
 * statement cannot stand for is a comment, and one of no bytes nothing. */
static void
write_memset (Builder *b, const RecordCall *c, const CallWork *w, gboolean per_thread,
              guint64 issue)
{
  MemsetShape m;
  record_memset_shape (c, w->memset, b->log_has_memsets, &m);
  if (m.what == MEMSET_EMPTY)
    {
      comment (b, "%s of 0 bytes: no GPU work", c->name);
      return;
    }
  if (m.what != MEMSET_OP)
    {
      write_not_modelled (b, c, w, per_thread,
                          m.what == MEMSET_NOT_DEVICE ? "the language's memset is of device memory"
                          : "no CUPTI record, and the log keeps no size for it");
      return;
    }
  guint64 sync_stream = per_thread ? RECORD_STREAM_PER_THREAD : RECORD_STREAM_LEGACY;
  g_string_append_printf (b->text, "memset %s ",
                          stream_name (b, m.sync ? sync_stream : c->stream, per_thread));
  append_size (b->text, m.bytes);
  g_string_append_printf (b->text, "   # %s", c->name);
  if (m.sync)
    g_string_append (b->text, " (of device memory: the host does not wait for it)");
  if (m.rows)
    g_string_append (b->text, ", a 2D or 3D memset as one of its bytes");
  if (m.no_stream)
    g_string_append (b->text, ", the log keeps no stream for it (taken as the call's handle)");
  if (m.untimed)
    {
      g_string_append (b->text, ", not timed by CUPTI (taken as device memory)");
      b->rec->n_untimed++;
    }
  else
    {
      g_string_append (b->text, ", ");
      append_time (b->text, w->end - w->start);
      g_string_append (b->text, " on the GPU");
    }
  line_end (b);
  op_times (b, issue, work_start (b, w), work_end (b, w));
}

/* A host function or stream callback as a `hostfn` (record_hostfn.h). */
static void
write_hostfn (Builder *b, guint index, gboolean per_thread, guint64 issue)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const HostfnTime *h = &b->hostfn[index];
  g_string_append_printf (b->text, "hostfn %s ", stream_name (b, c->stream, per_thread));
  b->rec->n_hostfn++;
  append_time (b->text, h->time);
  g_string_append_printf (b->text, "   # %s; the recorder does not see the function run: ", c->name);
  if (h->how == HOSTFN_ESTIMATED)
    {
      g_string_append (b->text, "its stream's next work started ");
      append_time (b->text, h->next_start - h->ready);
      g_string_append (b->text, " after the stream reached it, less ");
      append_time (b->text, h->begin - h->ready);
      g_string_append_printf (b->text, " before the callback thread began it (the profile's "
                              "wake-up%s, or the function before it) and the profile's resume",
                              h->idle ? " where the stream was idle at the call" : "");
      b->rec->n_hostfn_estimated++;
    }
  else if (h->how == HOSTFN_ISSUED_LATE)
    g_string_append (b->text, "its stream's next work was issued after it had returned; "
                     "TIME is unknown, taken as 0");
  else
    g_string_append (b->text, "no later work in its stream shows when it returned; TIME is "
                     "unknown, taken as 0");
  line_end (b);
  /* its row: the run as estimated, or the earliest it could have run */
  op_times (b, issue, since_t0 (b, h->begin), since_t0 (b, h->end));
}

/* Whether a call of this kind becomes an op (not only a declaration, a
 * comment or host time): what the host time before it is measured up to. */
static gboolean
makes_op (const Builder *b, RecordCallKind kind, const RecordCall *c, const CallWork *w)
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
        copy_shape (c, w, &bytes, &copy_kind);
        return bytes > 0 && copy_kind != RECORD_MEMCPY_H2H;
      }
    default:
      return TRUE;
    }
}

/* The schedule's name for a stream, for a comment: declares nothing. */
static char *
stream_label (const Builder *b, guint64 handle, gboolean per_thread)
{
  if ((handle == 0 && !per_thread) || handle == RECORD_STREAM_LEGACY)
    return g_strdup ("default");
  if (handle == 0 || handle == RECORD_STREAM_PER_THREAD)
    return per_thread_stream (b, b->thread);
  const char *name = g_hash_table_lookup (b->streams, &handle);
  return name != NULL ? g_strdup (name) : g_strdup_printf ("stream 0x%" G_GINT64_MODIFIER "x", handle);
}

/* A call whose GPU work the language cannot express, as a comment with
 * what is known of that work (a memset's stream, size and memory, from the
 * call and CUPTI's record). */
static void
write_not_modelled (Builder *b, const RecordCall *c, const CallWork *w, gboolean per_thread,
                    const char *why)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append_printf (text, "not modelled: %s (%s)", c->name, why);
  if (w->memset != NULL)
    {
      g_autofree char *stream = stream_label (b, c->stream, per_thread);
      g_string_append_printf (text, ", in %s, ", stream);
      append_size (text, w->memset->a[0]);
      g_string_append_printf (text, " of %s memory", record_memset_memory_name (w->memset->a[2]));
    }
  if (w->timed)
    {
      g_string_append (text, ", ");
      append_time (text, w->end - w->start);
      g_string_append (text, " on the GPU");
    }
  comment (b, "%s", text->str);
  b->rec->n_not_modelled++;
}

/* Whether a call holds the host until GPU work is done: a synchronize, a
 * blocking copy, a copy from or to pageable memory, a graph launch with
 * such a copy. */
static gboolean
waits_for_gpu (RecordCallKind kind, const CallWork *w)
{
  return kind == RECORD_CALL_MEMCPY || kind == RECORD_CALL_SYNC_EVENT
         || kind == RECORD_CALL_SYNC_STREAM || kind == RECORD_CALL_SYNC_DEVICE
         || kind == RECORD_CALL_FREE
         || ((kind == RECORD_CALL_COPY || kind == RECORD_CALL_GRAPH) && w->pageable);
}

/* The tracer's cost of a call (InsideHost.traced) that is its own `host`
 * statement: at least the minimum host time; less is added up with the
 * host gaps (record_schedule_build). */
static guint64
traced_written (const Builder *b, const InsideHost *in)
{
  return in->traced >= b->opt->min_host_ns ? in->traced : 0;
}

/* The `host` statement for the host time inside an op's call
 * (record_inside.h): before the op (`before`), or after it. */
static void
write_inside (Builder *b, const RecordCall *c, const CallWork *w, const InsideHost *in,
              gboolean before, gboolean blocking_op)
{
  g_autoptr (GString) why = g_string_new (NULL);
  g_string_append_printf (why, "inside %s, which took ", c->name);
  append_time (why, call_took (c));
  const char *sep = ": ";
  guint64 after = in->after + traced_written (b, in);
  if (!before && after > in->after)
    {
      g_string_append (why, ": the tracer's cost, ");
      append_time (why, in->traced);
      g_string_append (why, " beyond the profile's");
      if (in->after == 0)
        {
          write_host (b, c->exit - after, c->exit, why->str);
          return;
        }
      sep = "; then ";
    }
  if (before)
    {
      g_string_append (why, ": set-up before its work started, beyond its usual ");
      append_time (why, in->usual);
      write_host (b, c->enter, c->enter + in->before, why->str);
      return;
    }
  if (in->kind == INSIDE_FREE)
    g_string_append (why, " (host work after the GPU was idle, beyond the profile's "
                     "synchronize)");
  else if (in->kind == INSIDE_BLOCKING && in->usual > 0)
    {
      g_string_append (why, sep);
      g_string_append (why, "host work after the GPU work it waited for had ended, beyond "
                       "the usual ");
      append_time (why, in->usual);
      g_string_append (why, " after it");
    }
  else if (in->kind == INSIDE_BLOCKING)
    g_string_append_printf (why, "%shost work after the GPU work it waited for had ended "
                            "(calls like it usually return by then)", sep);
  else if (in->no_usual)
    g_string_append_printf (why, "%shost work after its work had started (its only call of "
                            "the kind: no usual time to go by)", sep);
  else
    {
      g_string_append (why, sep);
      g_string_append (why, "host work after its work was submitted, beyond its usual ");
      append_time (why, in->usual);
    }
  if (blocking_op)
    {
      /* a synchronize or blocking copy ends for the host where the host work
       * began (an async copy from pageable memory keeps CUPTI's end) */
      SimTime *end = &g_array_index (b->end, SimTime, b->end->len - 1);
      *end = MAX (work_end (b, w), since_t0 (b, c->exit - in->after));
    }
  write_host (b, c->exit - after, c->exit, why->str);
}

/* One call as statements: `kind` and `per_thread` as classify() found
 * them, `op` as makes_op() decided. */
static gboolean
write_call (Builder *b, guint index, RecordCallKind kind, gboolean per_thread, gboolean op)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  const InsideHost *in = &b->inside[index];
  gboolean blocking_op = kind != RECORD_CALL_COPY && waits_for_gpu (kind, w);
  if (op && in->before > 0)
    write_inside (b, c, w, in, TRUE, blocking_op);
  /* the op is issued where the set-up before it ended */
  guint64 issue = c->enter + (op ? in->before : 0);
  SimTime enter = since_t0 (b, issue), exit = since_t0 (b, MAX (c->exit, c->enter));
  switch (kind)
    {
    case RECORD_CALL_HOST:
      break;
    case RECORD_CALL_STREAM_CREATE:
      new_stream (b, c->stream, c->a[0], (gint64) c->a[1], NULL);
      break;
    case RECORD_CALL_COPY:
    case RECORD_CALL_MEMCPY:
      if (op && !write_copy (b, c, w, kind == RECORD_CALL_MEMCPY, per_thread, issue))
        return FALSE;
      if (!op && record_call_is_driver (c->name) && c->a[0] == 0 && !w->timed)
        write_not_modelled (b, c, w, per_thread, "no CUPTI record, and the log keeps no size for it");
      break;
    case RECORD_CALL_KERNEL:
      if (!write_kernel (b, index, per_thread, issue))
        return FALSE;
      break;
    case RECORD_CALL_MEMSET:
      write_memset (b, c, w, per_thread, issue);
      break;
    case RECORD_CALL_HOSTFN:
      write_hostfn (b, index, per_thread, issue);
      break;
    case RECORD_CALL_GRAPH:
      if (op)
        write_graph (b, index, per_thread, issue);
      else
        write_not_modelled (b, c, w, per_thread, b->graph_why[index]);
      break;
    case RECORD_CALL_RECORD:
      {
        const char *event = event_name (b, c->event);
        g_hash_table_add (b->recorded, (gpointer) event);
        g_string_append_printf (b->text, "record %s %s", event,
                                stream_name (b, c->stream, per_thread));
      }
      if (b->elapsed_from[index] > 0 && b->op_of_call[b->elapsed_from[index] - 1] > 0)
        {
          guint from = b->op_of_call[b->elapsed_from[index] - 1] - 1;
          g_string_append_printf (b->text, " label=" RECORD_ELAPSED_LABEL "%u   # the program "
                                  "timed op %u to here with cudaEventElapsedTime", from, from);
        }
      line_end (b);
      op_times (b, issue, -1, -1);
      break;
    case RECORD_CALL_WAIT:
      g_string_append_printf (b->text, "wait %s %s", stream_name (b, c->stream, per_thread),
                              event_name (b, c->event));
      line_end (b);
      op_times (b, issue, -1, -1);
      break;
    case RECORD_CALL_SYNC_EVENT:
    case RECORD_CALL_SYNC_STREAM:
    case RECORD_CALL_SYNC_DEVICE:
    case RECORD_CALL_FREE:
      g_string_append_printf (b->text, "sync %s",
                              kind == RECORD_CALL_SYNC_EVENT ? event_name (b, c->event)
                              : kind == RECORD_CALL_SYNC_STREAM ? stream_name (b, c->stream, per_thread)
                              : "device");
      if (kind == RECORD_CALL_FREE)
        g_string_append_printf (b->text, "   # %s waits for the device", c->name);
      line_end (b);
      op_times (b, issue, enter, exit);
      break;
    case RECORD_CALL_NOT_MODELLED:
      /* Stream-ordered allocation that CUPTI saw no GPU work for (a pool
       * with memory to give) is host time alone, which the gaps keep. */
      if (record_call_is_stream_alloc (c->name) && !w->timed && w->memset == NULL)
        comment (b, "%s: stream-ordered allocation, no GPU work of its own; its host time is "
                 "in the gaps", c->name);
      else if (record_call_is_rows_copy (c->name))
        write_not_modelled (b, c, w, per_thread,
                            w->timed && w->copy_kind >= RECORD_COPY_HTOA
                            && w->copy_kind <= RECORD_COPY_DTOA
                            ? "a 3D copy to or from a CUDA array"
                            : c->a[2] == 0
                            ? "a 2D or 3D copy whose rows the log does not keep, as older "
                              "recorders' logs and profilers' traces do not"
                            : "a 2D or 3D copy whose rows rows= cannot hold: past 4294967295, "
                              "or not dividing its bytes");
      else
        write_not_modelled (b, c, w, per_thread, "its GPU work is missing from predictions");
      break;
    }
  if (op && in->after + traced_written (b, in) > 0)
    write_inside (b, c, w, in, FALSE, blocking_op);
  return TRUE;
}

/* The host time from one op's call returning (`from`) to the next one's
 * (`to`): a `host` statement when it is at least the minimum; shorter gaps
 * are added up in `*short_gaps` (between two calls that wait for the GPU),
 * and become one when their sum reaches the minimum, so that a stretch of
 * launches loses less than the minimum in all, not that much per launch.
 * Before a call that waits for GPU work that had already ended, or for
 * its own work on a stream with nothing left to run (`flush`: the inside
 * rules' `idle`), they are written whatever their sum: no wait absorbs
 * them. */
static void
write_gap (Builder *b, guint64 from, guint64 to, guint64 *short_gaps, gboolean flush)
{
  if (to > from && to - from >= b->opt->min_host_ns)
    {
      /* the short gaps before it, where no wait absorbs them, first */
      if (flush && *short_gaps > 0)
        write_gap (b, from, from, short_gaps, TRUE);
      write_host (b, from, to, NULL);
      return;
    }
  if (to > from)
    *short_gaps += to - from;
  if (*short_gaps == 0 || (*short_gaps < b->opt->min_host_ns && !flush))
    return;
  g_autoptr (GString) why = g_string_new (NULL);
  g_string_append (why, "host gaps under ");
  append_time (why, b->opt->min_host_ns);
  g_string_append (why, " since the last call that waited for the GPU, added up");
  if (b->opt->traced_calls)
    g_string_append (why, " with the tracer's costs under it");
  write_host (b, to - *short_gaps, to, why->str);
  *short_gaps = 0;
}

/* A call's stream as record_inside.h and record_hostfn.h key it: the
 * legacy default stream (where a blocking copy runs too), its thread's
 * per-thread one (the top level's RECORD_STREAM_PER_THREAD, another's that
 * with the thread's number above bit 32: no stream's address, which is
 * aligned, ends in 2), or the handle. */
static guint64
stream_key (const Builder *b, const RecordCall *c, RecordCallKind kind, gboolean per_thread)
{
  guint64 handle = c->stream;
  if ((handle == 0 && !per_thread) || handle == RECORD_STREAM_LEGACY || kind == RECORD_CALL_MEMCPY)
    return INSIDE_STREAM_LEGACY;
  if (handle != 0 && handle != RECORD_STREAM_PER_THREAD)
    return handle;
  return c->thread == b->top_thread ? RECORD_STREAM_PER_THREAD
                                    : RECORD_STREAM_PER_THREAD | (guint64) c->thread << 32;
}

/* How the host time inside a call is found (record_inside.h): per call,
 * what kind of call it is, what it waits for, and its group. Blocking
 * copies are grouped by direction and host memory, whatever their
 * function: the driver stages them alike. */
static void
inside_call (const Builder *b, guint index, GHashTable *nonblocking, InsideCall *ic)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  gboolean per_thread;
  RecordCallKind kind = call_kind (c, w, &per_thread);
  guint64 handle = c->stream;
  *ic = (InsideCall) {
    .group = c->name, .enter = c->enter, .exit = MAX (c->exit, c->enter), .event = c->event,
    .timed = w->timed && !b->captured[index], .start = w->start, .end = w->end,
    .records = kind == RECORD_CALL_RECORD && !b->captured[index],
    .waits_event = kind == RECORD_CALL_WAIT && !b->captured[index],
  };
  ic->stream = stream_key (b, c, kind, per_thread);
  ic->nonblocking = g_hash_table_contains (nonblocking, &handle);
  if (b->captured[index] || !makes_op (b, kind, c, w))
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
      copy_shape (c, w, &bytes, &copy_kind);
      if (kind == RECORD_CALL_COPY && !w->pageable)
        ic->kind = INSIDE_ASYNC;
      else if (!(w->pageable && copy_kind == RECORD_MEMCPY_D2H))
        {
          ic->kind = INSIDE_BLOCKING;
          ic->waits = INSIDE_WAITS_OWN;
          ic->group = copy_kind == RECORD_MEMCPY_H2D
                      ? (w->pageable ? "blocking h2d pageable" : "blocking h2d")
                    : copy_kind == RECORD_MEMCPY_D2H ? "blocking d2h" : "blocking d2d";
        }
      break;
    case RECORD_CALL_SYNC_EVENT:
    case RECORD_CALL_SYNC_STREAM:
    case RECORD_CALL_SYNC_DEVICE:
      ic->kind = INSIDE_BLOCKING;
      ic->waits = kind == RECORD_CALL_SYNC_EVENT ? INSIDE_WAITS_EVENT
                : kind == RECORD_CALL_SYNC_STREAM ? INSIDE_WAITS_STREAM : INSIDE_WAITS_DEVICE;
      break;
    case RECORD_CALL_FREE:
      ic->kind = INSIDE_FREE;
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

static void find_loads (Builder *b, const guint *order, const gint64 *usual);

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
  if (!device_op_of (call_kind (c, &b->work[index], &per_thread), &op))
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
      RecordCallKind kind = call_kind (c, &b->work[i], &per_thread);
      SchedOp op;
      if (!device_op_of (kind, &op) || b->captured[i] || !makes_op (b, kind, c, &b->work[i]))
        continue;
      g_hash_table_add (seen, thread);
      if (calls[k].kind == INSIDE_ASYNC)
        calls[k].charged += (guint64) b->opt->profile->host_thread_first_call;
    }
}

/* The host time inside every call, from the calls in the order they began;
 * and on the way, from the calls' usual times, which launches load their
 * code (find_loads), since the model charges those more. */
static void
find_inside (Builder *b, const guint *order)
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
static void
find_captured (Builder *b, const guint *order)
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
static void
find_elapsed_pairs (Builder *b, const guint *order)
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
static void
find_alone_times (Builder *b)
{
  guint n = b->log->calls->len;
  b->alone = g_new0 (AloneTime, MAX (n, 1));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (AloneKernel));
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    {
      const CallWork *w = &b->work[i];
      /* a graph launch's kernels keep CUPTI's times (write_graph) */
      if (w->kernel == NULL || !w->timed || b->graph_nodes[i] != NULL)
        continue;
      const RecordWork *k = w->kernel;
      char *key = g_strdup_printf ("%s/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                   k->name, k->a[0], k->a[1], k->a[2]);
      g_ptr_array_add (keys, key);
      AloneKernel ak = { .start = k->start, .end = k->end, .key = key,
                         .occupancy = occupancy (b->opt->profile, k) };
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
static void
find_hostfn (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  g_autofree HostfnCall *calls = g_new0 (HostfnCall, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      const CallWork *w = &b->work[i];
      gboolean per_thread;
      RecordCallKind kind = call_kind (c, w, &per_thread);
      gboolean work = kind == RECORD_CALL_COPY || kind == RECORD_CALL_MEMCPY || kind == RECORD_CALL_KERNEL
                      || kind == RECORD_CALL_MEMSET;
      calls[k] = (HostfnCall) {
        .role = b->captured[i] ? HOSTFN_ROLE_OTHER
              : kind == RECORD_CALL_HOSTFN ? HOSTFN_ROLE_HOSTFN
              : work ? HOSTFN_ROLE_WORK : HOSTFN_ROLE_OTHER,
        .stream = stream_key (b, c, kind, per_thread),
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

/* Each kernel and copy record joined to the runtime call that started it:
 * by the runtime correlation id, or through the driver call it made. */
static void
join_work (Builder *b)
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
          w->pageable |= copy_is_pageable (r);
        }
    }
  for (guint i = 0; i < n; i++)
    if (b->graph_nodes[i] != NULL)
      b->graph_why[i] = record_graph_nodes (b->graph_nodes[i]);
}

static guint
count_threads (const RecordLog *log)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < log->calls->len; i++)
    g_hash_table_add (seen, GUINT_TO_POINTER (g_array_index (log->calls, RecordCall, i).thread));
  return g_hash_table_size (seen);
}

static int
compare_enter (gconstpointer a, gconstpointer b, gpointer calls)
{
  const RecordCall *x = &g_array_index ((GArray *) calls, RecordCall, *(const guint *) a);
  const RecordCall *y = &g_array_index ((GArray *) calls, RecordCall, *(const guint *) b);
  if (x->enter != y->enter)
    return x->enter < y->enter ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

/* Per call, whether it becomes an op (makes_op): not one a stream capture took. */
static gboolean *
find_ops (const Builder *b)
{
  guint n = b->log->calls->len;
  gboolean *is_op = g_new0 (gboolean, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      gboolean per_thread;
      is_op[i] = !b->captured[i] && makes_op (b, call_kind (c, &b->work[i], &per_thread), c,
                                              &b->work[i]);
    }
  return is_op;
}

/* Time 0: the first op's call (`order`: the calls in the order they began),
 * or options->origin_ns where that is before it; what came before is
 * set-up. */
static void
find_t0 (Builder *b, const guint *order, const gboolean *is_op)
{
  for (guint k = 0; k < b->log->calls->len && !b->started; k++)
    if (is_op[order[k]])
      {
        guint64 enter = g_array_index (b->log->calls, RecordCall, order[k]).enter;
        b->started = TRUE;
        b->t0 = b->opt->origin_ns > 0 && b->opt->origin_ns < enter ? b->opt->origin_ns : enter;
      }
}

/* One call, `op` as makes_op() decided, with the host time before it: in
 * its thread, from where that thread stood. */
static gboolean
write_step (Builder *b, guint index, gboolean op)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  HostPlace *place = b->place;
  gboolean per_thread;
  RecordCallKind kind = call_kind (c, w, &per_thread);
  b->call_line = c->line;
  place->boundaries++;
  if (b->captured[index])
    {
      /* no GPU work at the call: it runs when the graph is launched */
      comment (b, "captured into a graph: %s (it runs where the graph is launched)", c->name);
      b->rec->n_captured++;
      return TRUE;
    }
  if (op)
    {
      /* the recorder's own time at each call boundary since the last op
       * call is not the program's */
      guint64 to = c->enter;
      if (to > place->last_exit)
        to -= MIN (to - place->last_exit, b->opt->call_gap_ns * place->boundaries);
      place->boundaries = 0;
      write_gap (b, place->last_exit, to, &place->short_gaps,
                 waits_for_gpu (kind, w) && b->inside[index].idle);
      /* after the host time before it, if any */
      b->op_of_call[index] = b->issue->len + 1 + (b->inside[index].before > 0);
    }
  if (!write_call (b, index, kind, per_thread, op))
    return FALSE;
  if (!op)
    return TRUE;
  place->last_exit = MAX (place->last_exit, MAX (c->exit, c->enter));
  /* the tracer's cost under the minimum is added up as the gaps are */
  place->short_gaps += b->inside[index].traced - traced_written (b, &b->inside[index]);
  /* after a call that waits for the GPU the host's lag starts anew */
  if (waits_for_gpu (kind, w))
    place->short_gaps = 0;
  return TRUE;
}

/* What the model charges a `thread` block (0 without a profile): the
 * starting thread `create`, the new thread `start` before its first line
 * (the first block: the run's first thread's). The recorded threads began
 * on their own, so the schedule takes both off the host time around the
 * block. */
static void
spawn_costs (const Builder *b, guint64 *create, guint64 *start)
{
  const GpuProfile *p = b->opt->profile;
  gboolean first = b->n_spawned == 0;
  *create = p != NULL ? (guint64) MAX (gpu_profile_thread_create (p, first), 0) : 0;
  *start = p != NULL ? (guint64) MAX (gpu_profile_thread_start (p, first), 0) : 0;
}

/* Where a thread's block stands in the top level's time (CUPTI clock):
 * writes the top level's host time up to there, and leaves the top level
 * standing `create` after it. `began`: where the thread's first call
 * began, time 0 at the earliest. A thread that began in a gap of the top
 * level splits it, started `start` before it began; one that began inside
 * a call of the top level is started before that call, after its gap,
 * `create` before it began. Never before where the top level stands. */
static guint64
top_until_spawn (Builder *b, const ThreadStep *step, guint64 began)
{
  HostPlace *top = b->place;
  guint64 create, start, spawn;
  spawn_costs (b, &create, &start);
  if (step->inside == 0)
    {
      spawn = MAX (top->last_exit, began > start ? began - start : 0);
      if (spawn > top->last_exit)
        {
          g_autofree char *why = g_strdup_printf ("until thread t%u began%s", step->thread,
                                                  start > 0 ? ", less the profile's thread_start" : "");
          write_host (b, top->last_exit, spawn, why);
        }
    }
  else
    {
      guint index = step->inside - 1;
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
      gboolean per_thread;
      RecordCallKind kind = call_kind (c, &b->work[index], &per_thread);
      spawn = MAX (top->last_exit, c->enter > create ? c->enter - create : 0);
      b->call_line = c->line;
      write_gap (b, top->last_exit, spawn, &top->short_gaps,
                 waits_for_gpu (kind, &b->work[index]) && b->inside[index].idle);
    }
  top->last_exit = spawn + create;
  b->n_spawned++;
  return spawn;
}

/* Opens a thread's block (record_threads.h): the top level's host time up
 * to where it starts, its SPAWN op, and the block's own text, `*place`
 * where the thread stands. A thread that began inside a call of the top
 * level has for its first line the host time from where the model starts
 * it to its own first call. */
static void
open_thread (Builder *b, const ThreadStep *step, HostPlace *place)
{
  const RecordCall *first = &g_array_index (b->log->calls, RecordCall, step->call);
  guint64 create, start;
  spawn_costs (b, &create, &start);
  guint64 began = b->started ? MAX (first->enter, b->t0) : b->t0;
  guint64 spawn = top_until_spawn (b, step, began), first_line = spawn + start;
  b->call_line = first->line;
  /* the caller goes on after the profile's thread_create */
  op_times (b, spawn, since_t0 (b, spawn), since_t0 (b, spawn + create));
  b->top_text = b->text;
  b->top_origin = b->origin;
  b->text = g_string_new (NULL);
  b->origin = g_array_new (FALSE, FALSE, sizeof (guint));
  b->thread = step->thread;
  b->place = place;
  b->block_ops = b->issue->len;
  *place = (HostPlace) { .last_exit = MAX (first_line, began) };
  if (step->inside > 0 && began > first_line)
    {
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, step->inside - 1);
      g_autofree char *why = g_strdup_printf ("up to this thread's first call, which began "
                                              "inside thread %u's %s", c->thread, c->name);
      write_host (b, first_line, began, why);
    }
}

/* Closes the thread block open_thread opened: its text, indented, after
 * the top level's, between its `thread` line and its `end`. */
static void
close_thread (Builder *b, const ThreadStep *step, HostPlace *top)
{
  const RecordCall *first = &g_array_index (b->log->calls, RecordCall, step->call);
  b->call_line = first->line;
  if (b->issue->len == b->block_ops)
    comment (b, "none of this thread's calls becomes an op: they are host time of its own");
  g_autoptr (GString) block = b->text;
  g_autoptr (GArray) origin = b->origin;
  b->text = b->top_text;
  b->origin = b->top_origin;
  b->top_text = NULL;
  b->top_origin = NULL;
  if (b->started && first->enter < b->t0)
    g_string_append_printf (b->text, "thread t%u   # the log's thread %u, from time 0: its first "
                            "call (%s) began before", step->thread, step->thread, first->name);
  else
    g_string_append_printf (b->text, "thread t%u   # the log's thread %u, from where its first "
                            "call (%s) began", step->thread, step->thread, first->name);
  line_end (b);
  const char *line = block->str;
  for (guint i = 0; i < origin->len; i++)
    {
      const char *next = strchr (line, '\n');
      g_string_append (b->text, "  ");
      g_string_append_len (b->text, line, next - line + 1);
      g_array_append_val (b->origin, g_array_index (origin, guint, i));
      line = next + 1;
    }
  g_string_append (b->text, "end");
  line_end (b);
  b->thread = b->top_thread;
  b->place = top;
}

static void
write_header (Builder *b)
{
  for (const char *const *h = b->opt->header; h != NULL && *h != NULL; h++)
    comment (b, "%s", *h);
  comment (b, "Kernel times are their times alone: as measured, or where a kernel shared the "
           "GPU as its comment says, less the profile's trace_extra; host gaps under %" G_GUINT64_FORMAT
           " ns are added up until they reach that, and left out where a call that waits "
           "for the GPU comes first.", b->opt->min_host_ns);
  gboolean recorded;
  gboolean lazy = record_loads_lazy (b->log, &recorded);
  comment (b, "CUDA_MODULE_LOADING %s: %s", recorded ? "as recorded" : "not in the log, so LAZY "
           "(unset: LAZY since CUDA 12.2)", lazy ? "a kernel's first runtime launch loads its "
           "code (`loads`)" : "EAGER, no launch loads code");
  if (b->opt->profile != NULL)
    comment (b, "Profile %s, of the GPU recorded on: kernels' shares of the SMs, how much "
             "longer CUPTI's kernel records are than the kernels' blocks (trace_extra, %"
             G_GUINT64_FORMAT " ns), host functions' and loading launches' costs.",
             gpu_profile_name (b->opt->profile), (guint64) b->opt->profile->trace_extra);
  else
    comment (b, "No profile of the GPU recorded on: kernels keep CUPTI's times, those that "
             "shared an oversubscribed GPU the times they ran, and host functions' and loading "
             "launches' costs are taken as 0.");
  if (b->opt->traced_calls && b->opt->profile != NULL)
    comment (b, "Calls cost the host what they took in the trace, up to the usual time of "
             "their kind: what they took beyond the profile's cost (the tracer's) is host time "
             "after the op, `inside CALL ... the tracer's cost`, or added up with the gaps where "
             "it is under the minimum.");
  if (b->opt->call_gap_ns > 0)
    comment (b, "Host gaps are less the recorder's own time, %" G_GUINT64_FORMAT " ns at each "
             "call that began in them (at most all of the gap): the program's time without "
             "the recorder.", b->opt->call_gap_ns);
  if (b->times_of != NULL)
    comment (b, "Kernel times are the %s's (time=%s:...), the device predicted when none is "
             "given: on another, each is carried there by what bounds the kernel "
             "(engines/MODEL.md).", b->times_of, b->times_of);
  if (b->rec->n_threads > 1 && b->n_blocks == 0)
    comment (b, "Calls came from %u host threads, which took turns: none called while another "
             "thread's call was under way (as PyTorch's autograd thread calls while the main "
             "thread waits for it outside CUDA), so their calls stand at the top level in the "
             "order they began, the order the program imposed.", b->rec->n_threads);
  else if (b->rec->n_threads > 1)
    comment (b, "Calls came from %u host threads. %u of them called while another thread's "
             "call was under way: each is a `thread` block started where its first call "
             "began, on the wall clock, its host time its own calls' gaps. The others took "
             "turns (one called only while the others did not, as PyTorch's autograd thread "
             "does) and stand at the top level in the order their calls began. The recorder "
             "sees no joins (pthread_join is no CUDA call): the schedule has none.",
             b->rec->n_threads, b->n_blocks);
  if (b->log->incomplete != NULL)
    comment (b, "The recording is incomplete: %s.", b->log->incomplete);
  if (b->times_of != NULL)
    {
      g_string_append_printf (b->text, "device %s", b->times_of);
      line_end (b);
    }
  if (b->opt->connections > 0)
    {
      g_string_append_printf (b->text, "connections %u", b->opt->connections);
      line_end (b);
    }
}

/* The events waited on or synchronized with but never recorded (or recorded
 * only inside a graph capture), declared so that the schedule parses: such a
 * wait does nothing, in CUDA as in the model. After the ops, so that each op
 * keeps the line it was written on. */
static void
write_never_recorded (Builder *b)
{
  gboolean first = TRUE;
  b->call_line = 0;
  for (guint i = 0; i < b->event_names->len; i++)
    {
      const char *name = g_ptr_array_index (b->event_names, i);
      if (g_hash_table_contains (b->recorded, name))
        continue;
      if (first)
        comment (b, "Waited on or synchronized with but never recorded, which makes those "
                 "calls do nothing:");
      first = FALSE;
      g_string_append_printf (b->text, "event %s", name);
      line_end (b);
    }
}

/* The schedule language has limits of its own (block= at most 1024, ...)
 * that a log, written by hand or damaged, may exceed. Rather than repeat
 * them here, the text is parsed back (the result is kept for the caller),
 * and a statement it refuses is reported at the log line of the call it
 * came from. */
static Schedule *
parse_back (Builder *b)
{
  g_autoptr (GError) why = NULL;
  const char *name = "recorded.sched";
  Schedule *sched = schedule_parse_text (name, b->text->str, b->text->len, NULL, &why);
  if (sched != NULL && schedule_n_ops (sched) != b->issue->len)
    {
      located_error_set (b->error, RECORD_ERROR, RECORD_ERROR_PARSE, b->log->path, 1, 1,
                         "the schedule has %zu ops where %u were recorded (a bug in the "
                         "recorder: please report it with this log)",
                         (size_t) schedule_n_ops (sched), b->issue->len);
      schedule_free (sched);
      return NULL;
    }
  if (sched != NULL)
    return sched;
  const char *rest = why->message;
  guint64 line = 0;
  if (g_str_has_prefix (rest, name) && rest[strlen (name)] == ':')
    {
      char *after = NULL;
      line = g_ascii_strtoull (rest + strlen (name) + 1, &after, 10);
      rest = strstr (after, ": ") != NULL ? strstr (after, ": ") + 2 : rest;
    }
  guint at = line >= 1 && line <= b->origin->len ? g_array_index (b->origin, guint, line - 1) : 0;
  located_error_set (b->error, RECORD_ERROR, RECORD_ERROR_PARSE, b->log->path, MAX (at, 1), 1,
                     "the schedule language cannot express this call: %s", rest);
  return NULL;
}

/* The name kernel times are tagged with: the profile recorded on, where
 * that name loads a profile with the rates that carry a time to another
 * device (a shipped or calibrated profile on the search path); else NULL,
 * and times stay bare, for every device as they are. */
static const char *
times_device (const GpuProfile *profile)
{
  if (profile == NULL || !gpu_profile_has_rates (profile, NULL))
    return NULL;
  GpuProfile again = { 0 };
  gboolean found = profile_load (gpu_profile_name (profile), &again, NULL)
                   && gpu_profile_has_rates (&again, NULL);
  gpu_profile_clear (&again);
  return found ? gpu_profile_name (profile) : NULL;
}

RecordSchedule *
record_schedule_build (const RecordLog *log, const RecordOptions *opt, GError **error)
{
  g_return_val_if_fail (log != NULL && opt != NULL, NULL);
  RecordSchedule *rec = g_new0 (RecordSchedule, 1);
  Builder b = {
    .log = log, .opt = opt, .text = g_string_new (NULL), .rec = rec, .error = error,
    .issue = g_array_new (FALSE, FALSE, sizeof (SimTime)),
    .start = g_array_new (FALSE, FALSE, sizeof (SimTime)),
    .end = g_array_new (FALSE, FALSE, sizeof (SimTime)),
    .streams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .events = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .event_names = g_ptr_array_new (),
    .recorded = g_hash_table_new (NULL, NULL),
    .names = g_ptr_array_new_with_free_func (g_free),
    .lanes = g_ptr_array_new (),
    .origin = g_array_new (FALSE, FALSE, sizeof (guint)),
    .per_thread = g_hash_table_new (NULL, NULL),
  };
  b.times_of = times_device (opt->profile);
  rec->n_threads = count_threads (log);
  b.top_thread = b.thread = record_threads_first (log);
  join_work (&b);
  find_alone_times (&b);

  guint n = log->calls->len;
  guint *order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof (guint), compare_enter, log->calls);
  b.n_blocks = record_threads_n_blocks (log, order);
  write_header (&b);
  find_captured (&b, order);
  find_elapsed_pairs (&b, order);
  find_hostfn (&b, order);
  find_inside (&b, order);

  g_autofree gboolean *is_op = find_ops (&b);
  find_t0 (&b, order, is_op);
  g_autoptr (GArray) steps = record_threads_plan (log, order, is_op);
  HostPlace top = { .last_exit = b.t0 }, other = { 0 };
  b.place = &top;
  gboolean ok = TRUE;
  for (guint k = 0; k < steps->len && ok; k++)
    {
      const ThreadStep *step = &g_array_index (steps, ThreadStep, k);
      if (step->kind == THREAD_STEP_OPEN)
        open_thread (&b, step, &other);
      else if (step->kind == THREAD_STEP_CLOSE)
        close_thread (&b, step, &top);
      else
        ok = write_step (&b, step->call, is_op[step->call]);
    }
  if (b.top_text != NULL)
    {
      /* a call in a block failed: the top level's text is the schedule's */
      g_string_free (b.text, TRUE);
      g_array_unref (b.origin);
      b.text = b.top_text;
      b.origin = b.top_origin;
    }
  g_free (order);
  if (ok)
    {
      write_never_recorded (&b);
      ok = (rec->schedule = parse_back (&b)) != NULL;
    }

  rec->n_ops = b.issue->len;
  rec->issue = (SimTime *) g_array_free (b.issue, FALSE);
  rec->start = (SimTime *) g_array_free (b.start, FALSE);
  rec->end = (SimTime *) g_array_free (b.end, FALSE);
  rec->text = g_string_free (b.text, FALSE);
  g_hash_table_unref (b.streams);
  g_hash_table_unref (b.events);
  g_ptr_array_unref (b.event_names);
  g_hash_table_unref (b.recorded);
  g_hash_table_unref (b.per_thread);
  g_ptr_array_unref (b.lanes);
  g_ptr_array_unref (b.names);
  g_hash_table_unref (b.by_correlation);
  g_free (b.work);
  g_free (b.alone);
  g_free (b.call_of_work);
  for (guint i = 0; i < n; i++)
    if (b.graph_nodes[i] != NULL)
      g_ptr_array_unref (b.graph_nodes[i]);
  g_free (b.graph_nodes);
  g_free (b.graph_why);
  g_free (b.loads);
  g_free (b.hostfn);
  g_free (b.elapsed_from);
  g_free (b.captured);
  g_free (b.op_of_call);
  g_free (b.inside);
  g_array_unref (b.origin);
  if (!ok)
    {
      record_schedule_free (rec);
      return NULL;
    }
  return rec;
}

char *
record_schedule_summary (const RecordSchedule *rec, guint n_calls)
{
  g_return_val_if_fail (rec != NULL, NULL);
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%zu ops from %u CUDA calls", (size_t) rec->n_ops, n_calls);
  if (rec->n_not_modelled > 0)
    g_string_append_printf (s, "; %u calls put GPU work the schedule cannot express (see its "
                            "\"not modelled\" comments)", rec->n_not_modelled);
  if (rec->n_captured > 0)
    g_string_append_printf (s, "; %u calls were captured into graphs", rec->n_captured);
  if (rec->n_untimed > 0)
    g_string_append_printf (s, "; %u kernels, copies or memsets had no CUPTI record",
                            rec->n_untimed);
  if (rec->n_loads > 0)
    g_string_append_printf (s, "; %u launches load their kernel's code", rec->n_loads);
  if (rec->n_inferred > 0)
    g_string_append_printf (s, "; %u kernels' times alone inferred from sharing", rec->n_inferred);
  if (rec->n_hostfn > 0)
    g_string_append_printf (s, "; %u host functions, %u of them timed from their streams",
                            rec->n_hostfn, rec->n_hostfn_estimated);
  return g_string_free (s, FALSE);
}

void
record_schedule_free (RecordSchedule *rec)
{
  if (rec == NULL)
    return;
  g_free (rec->text);
  if (rec->schedule != NULL)
    schedule_free (rec->schedule);
  g_free (rec->issue);
  g_free (rec->start);
  g_free (rec->end);
  g_free (rec);
}
