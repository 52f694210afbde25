/* record_write_threads.c: the calls of a host thread that called while another's call was
 * under way, as a `thread` block placed where its first call began (record_threads.h says
 * which threads; record_builder.h). */
#include <string.h>
#include "record_builder.h"

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
          builder_write_host (b, top->last_exit, spawn, why);
        }
    }
  else
    {
      guint index = step->inside - 1;
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
      gboolean per_thread;
      RecordCallKind kind = builder_call_kind (c, &b->work[index], &per_thread);
      spawn = MAX (top->last_exit, c->enter > create ? c->enter - create : 0);
      b->call_line = c->line;
      builder_write_gap (b, top->last_exit, spawn, &top->short_gaps,
                 builder_waits_for_gpu (kind, &b->work[index]) && b->inside[index].idle);
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
void
builder_open_thread (Builder *b, const ThreadStep *step, HostPlace *place)
{
  const RecordCall *first = &g_array_index (b->log->calls, RecordCall, step->call);
  guint64 create, start;
  spawn_costs (b, &create, &start);
  guint64 began = b->started ? MAX (first->enter, b->t0) : b->t0;
  guint64 spawn = top_until_spawn (b, step, began), first_line = spawn + start;
  b->call_line = first->line;
  /* the caller goes on after the profile's thread_create */
  builder_op_times (b, spawn, builder_since_t0 (b, spawn), builder_since_t0 (b, spawn + create));
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
      builder_write_host (b, first_line, began, why);
    }
}

/* Closes the thread block builder_open_thread opened: its text, indented, after
 * the top level's, between its `thread` line and its `end`. */
void
builder_close_thread (Builder *b, const ThreadStep *step, HostPlace *top)
{
  const RecordCall *first = &g_array_index (b->log->calls, RecordCall, step->call);
  b->call_line = first->line;
  if (b->issue->len == b->block_ops)
    builder_comment (b, "none of this thread's calls becomes an op: they are host time of its own");
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
  builder_line_end (b);
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
  builder_line_end (b);
  b->thread = b->top_thread;
  b->place = top;
}
