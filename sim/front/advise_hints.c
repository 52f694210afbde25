/* advise_hints.c: the hints, changes of what the program does that the user must decide
 * (pinned host memory instead of pageable, untouched buffers on huge pages, waits that
 * spin instead of sleeping, a synchronization left out), each told when it gains
 * enough; and the pinning itself, which `--pinned` takes before the search. */
#include "advise_search.h"

#include <string.h>
#include "sim/core/schedule_edit.h"

/* The most synchronizations the hints try leaving out, one at a time. */
#define MAX_SYNC_HINTS_TRIED 256
/* How many of them the advice lists. */
#define MAX_SYNC_HINTS 3
/* A hint must gain this part of the makespan to be told. */
#define MIN_HINT_GAIN 0.01
/* A transparent huge page: 2 MiB, an aligned frame of it. */
#define HUGE_FRAME ((guint64) 2 << 20)

static SimTime
run_once (const Search *s, const Schedule *sched, guint connections)
{
  g_autoptr (EngSim) sim = advise_run_kept (s, sched, connections);
  return eng_sim_makespan (sim);
}

static gboolean
worth_telling (SimTime makespan, SimTime after)
{
  return (double) (makespan - after) >= MIN_HINT_GAIN * (double) makespan;
}

guint
advise_pin_pageable (Schedule *sched)
{
  guint pageable = 0;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if ((op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY) && op->u.copy.pageable)
        {
          schedule_set_pinned (sched, i);
          pageable++;
        }
    }
  return pageable;
}

char *
advise_pinned_text (guint pageable)
{
  return g_strdup_printf ("pinned host memory (cudaMallocHost, cudaHostRegister) for the %u "
                          "pageable cop%s", pageable, pageable == 1 ? "y" : "ies");
}

void
advise_add_hints (Advice *advice, const Search *s, const Config *best)
{
  g_autoptr (Schedule) sched = advise_schedule_of (s, best);
  guint pageable = advise_pin_pageable (sched);
  if (pageable > 0)
    {
      AdviseHint hint = { advise_pinned_text (pageable), run_once (s, sched, best->connections) };
      if (worth_telling (best->makespan, hint.after))
        g_array_append_val (advice->hints, hint);
      else
        g_free (hint.text);
    }

  /* untouched host memory faults in 2 MiB at a time on huge pages, about
   * twice as fast for a D2H and four times for an H2D (engines/MODEL.md);
   * a huge page takes a whole aligned 2 MiB frame, of which untouched bytes
   * hold at least (bytes - 2 MiB + 1) / 2 MiB whatever their alignment */
  g_autoptr (Schedule) huge = advise_schedule_of (s, best);
  guint untouched = 0;
  for (gsize i = 0; i < schedule_n_ops (huge); i++)
    {
      const SchedOp *op = schedule_op (huge, i);
      if (op->kind != SCHED_OP_COPY && op->kind != SCHED_OP_MEMCPY)
        continue;
      guint64 frames = op->u.copy.untouched >= HUGE_FRAME
                         ? (op->u.copy.untouched - HUGE_FRAME + 1) / HUGE_FRAME : 0;
      if (op->u.copy.huge < frames * HUGE_FRAME)
        {
          schedule_set_huge (huge, i, frames * HUGE_FRAME);
          untouched++;
        }
    }
  if (untouched > 0)
    {
      AdviseHint hint = { NULL, run_once (s, huge, best->connections) };
      if (worth_telling (best->makespan, hint.after))
        {
          hint.text = g_strdup_printf ("transparent huge pages for the %u cop%s into or from "
                                       "host memory not yet touched (madvise MADV_HUGEPAGE on "
                                       "the buffer, as NumPy does from 4 MiB, or THP "
                                       "`always`): its whole 2 MiB frames then fault in at once",
                                       untouched, untouched == 1 ? "y" : "ies");
          g_array_append_val (advice->hints, hint);
        }
    }

  /* a host that sleeps in its waits wakes tens of microseconds after the
   * GPU is done; one that spins holds a CPU core instead */
  g_autoptr (Schedule) spinning = advise_schedule_of (s, best);
  guint sleeping_events = 0;
  for (guint e = 0; e < schedule_n_events (spinning); e++)
    if (schedule_event_blocking_sync (spinning, e))
      {
        schedule_set_event_blocking_sync (spinning, e, FALSE);
        sleeping_events++;
      }
  gboolean device_sleeps = schedule_device_schedule (spinning) == SCHED_SCHEDULE_BLOCKING_SYNC;
  if (device_sleeps || sleeping_events > 0)
    {
      schedule_set_device_schedule (spinning, SCHED_SCHEDULE_AUTO);
      AdviseHint hint = { NULL, run_once (s, spinning, best->connections) };
      if (worth_telling (best->makespan, hint.after))
        {
          hint.text = g_strdup_printf ("waits that spin instead of sleeping (%s%s%s): each "
                                       "then holds a CPU core",
                                       device_sleeps ? "no cudaDeviceScheduleBlockingSync" : "",
                                       device_sleeps && sleeping_events > 0 ? ", " : "",
                                       sleeping_events > 0 ? "no cudaEventBlockingSync" : "");
          g_array_append_val (advice->hints, hint);
        }
    }

  GArray *syncs = g_array_new (FALSE, FALSE, sizeof (AdviseHint));
  guint tried = 0;
  g_autoptr (Schedule) advised = advise_schedule_of (s, best);
  for (gsize i = 0; i + 1 < s->n && tried < MAX_SYNC_HINTS_TRIED; i++)
    {
      const SchedOp *op = schedule_op (advised, i);
      if (op->kind < SCHED_OP_SYNC_STREAM || op->kind > SCHED_OP_SYNC_DEVICE)
        continue;
      tried++;
      g_autoptr (Schedule) fewer = advise_schedule_of (s, best);
      schedule_remove_op (fewer, i);
      AdviseHint hint = { NULL, run_once (s, fewer, best->connections) };
      if (!worth_telling (best->makespan, hint.after))
        continue;
      const char *what = op->kind == SCHED_OP_SYNC_DEVICE ? "device"
                         : op->kind == SCHED_OP_SYNC_STREAM
                           ? schedule_stream (advised, op->stream)->name
                           : schedule_event_name (advised, op->event);
      hint.text = g_strdup_printf ("leave out `%s %s` (line %u), if nothing after it needs "
                                   "what it waits for",
                                   op->poll ? "poll" : "sync", what, op->line);
      /* a line run again (in a loop) is one hint: the time it gains most */
      guint same = 0;
      while (same < syncs->len && strcmp (g_array_index (syncs, AdviseHint, same).text, hint.text) != 0)
        same++;
      if (same == syncs->len)
        g_array_append_val (syncs, hint);
      else
        {
          AdviseHint *kept = &g_array_index (syncs, AdviseHint, same);
          kept->after = MIN (kept->after, hint.after);
          g_free (hint.text);
        }
    }
  /* the largest gains, first of equals first */
  for (guint k = 0; k < MAX_SYNC_HINTS && syncs->len > 0; k++)
    {
      guint f = 0;
      for (guint i = 1; i < syncs->len; i++)
        if (g_array_index (syncs, AdviseHint, i).after < g_array_index (syncs, AdviseHint, f).after)
          f = i;
      g_array_append_val (advice->hints, g_array_index (syncs, AdviseHint, f));
      g_array_remove_index (syncs, f);
    }
  for (guint i = 0; i < syncs->len; i++)
    g_free (g_array_index (syncs, AdviseHint, i).text);
  g_array_unref (syncs);
}
