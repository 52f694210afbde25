/* record_write_kernel.c: a kernel launch as its `kernel` statement, with its time alone and
 * where it came from, and a graph launch as a `graph` block of its nodes (record_builder.h). */
#include "kernel_label.h"
#include "record_branches.h"
#include "record_builder.h"

/* A time in ns held as a double, rounded, at most G_MAXUINT64 (a log's
 * times may add up past what 64 bits hold). */
static guint64
ns_rounded (double ns)
{
  return ns + 0.5 >= 18446744073709551615.0 ? G_MAXUINT64 : ns > 0 ? (guint64) (ns + 0.5) : 0;
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
      builder_append_time (text, w->end - w->start);
      g_string_append (text, " beside other kernels");
      if (a->how == ALONE_LONE_RUNS)
        g_string_append_printf (text, "; time= is the median of the same kernel's runs alone "
                                "(%u)", a->runs);
      else if (a->how == ALONE_INFERRED)
        {
          g_string_append (text, ", which oversubscribed the SMs; time= inferred: scaled by its "
                           "busy period's ");
          builder_append_time (text, a->period);
          g_string_append (text, " over the kernels' ");
          builder_append_time (text, ns_rounded (a->held));
          g_string_append (text, " of occupancy x duration (record_alone.h)");
          b->rec->n_inferred++;
        }
      else if (a->how == ALONE_PEERS)
        g_string_append (text, ", a communication kernel: time= as it ran (its peers' pace, "
                         "record_alone.h)");
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
      builder_append_size (b->text, smem);
    }
  if (regs > 0)
    g_string_append_printf (b->text, " regs=%" G_GUINT64_FORMAT, regs);
  g_string_append (b->text, " time=");
  if (b->times_of != NULL)
    g_string_append_printf (b->text, "%s:", b->times_of);
  builder_append_time (b->text, time);
}

gboolean
builder_write_kernel (Builder *b, guint index, gboolean per_thread, guint64 issue)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  const RecordWork *k = w->kernel;
  guint64 grid = k != NULL ? k->a[0] : c->a[0], block = k != NULL ? k->a[1] : c->a[1];
  if (grid == 0 || block == 0)
    return builder_fail (b, c, "%s with %" G_GUINT64_FORMAT " blocks of %" G_GUINT64_FORMAT
                 " threads: a kernel needs at least one of each", c->name, grid, block);
  const AloneTime *a = &b->alone[index];
  append_kernel_head (b, builder_stream_name (b, c->stream, per_thread), grid, block,
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
  builder_line_end (b);
  builder_op_times (b, issue, builder_work_start (b, w), builder_work_end (b, w));
  return TRUE;
}

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
      builder_swap_top (b);
      g_string_append_printf (b->text, "stream %s   # a graph's branches, as the recorder lays them out",
                              name);
      builder_line_end (b);
      builder_swap_top (b);
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
      builder_append_size (b->text, r->a[0]);
      if (r->kind == RECORD_WORK_COPY && builder_copy_is_pageable (r))
        g_string_append (b->text, " pageable");
    }
  builder_line_end (b);
}

/* A graph launch (record_graph.h) as a `graph` block: each node as its
 * statement, issued where the launch was, in the launch's stream or, for
 * nodes that ran side by side, in the lanes record_branches_plan lays
 * out, joined by records and waits of events of their own (gbN); kernels'
 * times CUPTI's less trace_extra. A record or wait is given the end of
 * the node it follows. */
void
builder_write_graph (Builder *b, guint index, gboolean per_thread, guint64 issue)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const GPtrArray *nodes = b->graph_nodes[index];
  const char *stream = builder_stream_name (b, c->stream, per_thread);
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
  builder_line_end (b);
  for (guint k = 0; k < items->len; k++)
    {
      const BranchItem *it = &g_array_index (items, BranchItem, k);
      const char *in = lane_stream (b, stream, it->lane);
      if (it->kind == BRANCH_NODE)
        {
          const RecordWork *r = g_ptr_array_index (nodes, it->node);
          write_node (b, r, in);
          builder_op_times (b, issue, builder_since_t0 (b, r->start), builder_since_t0 (b, r->end));
          continue;
        }
      SimTime at = builder_since_t0 (b, it->node == G_MAXUINT ? (guint64) start[0] : (guint64) end[it->node]);
      if (it->kind == BRANCH_RECORD)
        g_string_append_printf (b->text, "  record gb%u %s", it->event, in);
      else
        g_string_append_printf (b->text, "  wait %s gb%u", in, it->event);
      builder_line_end (b);
      builder_op_times (b, issue, at, at);
    }
  g_string_append (b->text, "end");
  builder_line_end (b);
}
