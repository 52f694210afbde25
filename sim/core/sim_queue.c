/* sim_queue.c: the discrete-event core, a binary heap keyed on (time, sequence), a model's source and a few timers. */
#include "sim_queue.h"

typedef struct
{
  SimTime when;
  guint64 seq;
  SimEventFunc func;
  gpointer arg;
  guint64 tag;
} SimEvent;

struct SimTimer
{
  SimTime when;         /* SIM_TIME_NEVER: not pending */
  guint64 seq;
  guint64 tag;
  SimEventFunc func;
  gpointer arg;
  SimQueue *queue;
};

struct SimQueue
{
  SimEvent *heap;
  gsize len;
  gsize cap;
  guint64 next_seq;
  SimTime now;

  /* the model's own events (sim_queue_set_source) */
  SimSourceFunc source_func;
  gpointer source_arg;
  SimTime source_when;   /* SIM_TIME_NEVER: none */
  guint64 source_seq;

  /* timers (sim_queue_timer_new), and the pending one that fires first */
  SimTimer timers[SIM_QUEUE_MAX_TIMERS];
  guint n_timers;
  SimTimer *timer_first; /* NULL: none pending */
};

SimQueue *
sim_queue_new (void)
{
  SimQueue *queue = g_new0 (SimQueue, 1);
  queue->cap = 64;
  queue->heap = g_new (SimEvent, queue->cap);
  queue->source_when = SIM_TIME_NEVER;
  return queue;
}

void
sim_queue_free (SimQueue *queue)
{
  if (queue == NULL)
    return;
  g_free (queue->heap);
  g_free (queue);
}

static inline gboolean
key_before (SimTime when, guint64 seq, SimTime bound_when, guint64 bound_seq)
{
  return when < bound_when || (when == bound_when && seq < bound_seq);
}

static inline gboolean
event_before (const SimEvent *a, const SimEvent *b)
{
  return key_before (a->when, a->seq, b->when, b->seq);
}

void
sim_queue_schedule (SimQueue *queue, SimTime when, SimEventFunc func,
                    gpointer arg, guint64 tag)
{
  g_return_if_fail (queue != NULL && func != NULL);
  /* An event in the past is a model bug, not a user error. */
  g_assert (when >= queue->now);

  if (queue->len == queue->cap)
    {
      queue->cap *= 2;
      queue->heap = g_renew (SimEvent, queue->heap, queue->cap);
    }
  SimEvent ev = { when, queue->next_seq++, func, arg, tag };
  gsize i = queue->len++;
  while (i > 0)
    {
      gsize parent = (i - 1) / 2;
      if (!event_before (&ev, &queue->heap[parent]))
        break;
      queue->heap[i] = queue->heap[parent];
      i = parent;
    }
  queue->heap[i] = ev;
}

static SimEvent
pop_min (SimQueue *queue)
{
  SimEvent top = queue->heap[0];
  SimEvent last = queue->heap[--queue->len];
  gsize i = 0;
  for (;;)
    {
      gsize child = 2 * i + 1;
      if (child >= queue->len)
        break;
      if (child + 1 < queue->len && event_before (&queue->heap[child + 1], &queue->heap[child]))
        child++;
      if (!event_before (&queue->heap[child], &last))
        break;
      queue->heap[i] = queue->heap[child];
      i = child;
    }
  if (queue->len > 0)
    queue->heap[i] = last;
  return top;
}

SimTime
sim_queue_now (const SimQueue *queue)
{
  return queue->now;
}

gsize
sim_queue_pending (const SimQueue *queue)
{
  return queue->len;
}

void
sim_queue_set_source (SimQueue *queue, SimSourceFunc func, gpointer arg)
{
  g_return_if_fail (queue != NULL && func != NULL);
  queue->source_func = func;
  queue->source_arg = arg;
  queue->source_when = SIM_TIME_NEVER;
}

void
sim_queue_source_next (SimQueue *queue, SimTime when, guint64 seq)
{
  /* Like sim_queue_schedule: an event in the past is a model bug. */
  g_assert (when >= queue->now);
  queue->source_when = when;
  queue->source_seq = seq;
}

guint64
sim_queue_take_seq (SimQueue *queue, guint64 n)
{
  guint64 first = queue->next_seq;
  queue->next_seq += n;
  return first;
}

gboolean
sim_queue_peek (const SimQueue *queue, SimTime *when, guint64 *seq)
{
  const SimTimer *t = queue->timer_first;
  if (queue->len == 0 && t == NULL)
    return FALSE;
  if (queue->len > 0
      && (t == NULL || key_before (queue->heap[0].when, queue->heap[0].seq, t->when, t->seq)))
    {
      *when = queue->heap[0].when;
      *seq = queue->heap[0].seq;
    }
  else
    {
      *when = t->when;
      *seq = t->seq;
    }
  return TRUE;
}

/* ---- Timers ---- */

SimTimer *
sim_queue_timer_new (SimQueue *queue, SimEventFunc func, gpointer arg)
{
  g_return_val_if_fail (queue != NULL && func != NULL, NULL);
  g_return_val_if_fail (queue->n_timers < SIM_QUEUE_MAX_TIMERS, NULL);
  SimTimer *t = &queue->timers[queue->n_timers++];
  *t = (SimTimer) { SIM_TIME_NEVER, 0, 0, func, arg, queue };
  return t;
}

/* Finds the pending timer that fires first: a scan of a few slots. */
static void
timers_rescan (SimQueue *queue)
{
  SimTimer *first = NULL;
  for (guint i = 0; i < queue->n_timers; i++)
    {
      SimTimer *t = &queue->timers[i];
      if (t->when != SIM_TIME_NEVER
          && (first == NULL || key_before (t->when, t->seq, first->when, first->seq)))
        first = t;
    }
  queue->timer_first = first;
}

void
sim_queue_timer_set (SimTimer *timer, SimTime when, guint64 tag)
{
  g_return_if_fail (timer != NULL);
  SimQueue *queue = timer->queue;
  /* Like sim_queue_schedule: an event in the past is a model bug. */
  g_assert (when >= queue->now && when != SIM_TIME_NEVER);
  timer->when = when;
  timer->seq = queue->next_seq++;
  timer->tag = tag;
  SimTimer *first = queue->timer_first;
  if (first == NULL || key_before (when, timer->seq, first->when, first->seq))
    queue->timer_first = timer;
  else if (first == timer)
    timers_rescan (queue); /* it moved later */
}

void
sim_queue_timer_stop (SimTimer *timer)
{
  g_return_if_fail (timer != NULL);
  if (timer->when == SIM_TIME_NEVER)
    return;
  timer->when = SIM_TIME_NEVER;
  if (timer->queue->timer_first == timer)
    timers_rescan (timer->queue);
}

gboolean
sim_queue_timer_pending (const SimTimer *timer)
{
  return timer->when != SIM_TIME_NEVER;
}

/* ---- The loop ---- */

guint64
sim_queue_run (SimQueue *queue)
{
  enum { RUN_HEAP, RUN_TIMER, RUN_SOURCE };
  guint64 count = 0;
  for (;;)
    {
      /* the earliest of the heap's top, the first timer and the source */
      SimTime when = SIM_TIME_NEVER;
      guint64 seq = G_MAXUINT64;
      int pick = -1;
      if (queue->len > 0)
        {
          when = queue->heap[0].when;
          seq = queue->heap[0].seq;
          pick = RUN_HEAP;
        }
      SimTimer *t = queue->timer_first;
      if (t != NULL && key_before (t->when, t->seq, when, seq))
        {
          when = t->when;
          seq = t->seq;
          pick = RUN_TIMER;
        }
      if (queue->source_when != SIM_TIME_NEVER
          && key_before (queue->source_when, queue->source_seq, when, seq))
        pick = RUN_SOURCE;

      if (pick == RUN_SOURCE)
        {
          queue->now = queue->source_when;
          queue->source_func (queue, queue->now, queue->source_arg);
        }
      else if (pick == RUN_TIMER)
        {
          queue->now = t->when;
          t->when = SIM_TIME_NEVER; /* before the call, which may set it again */
          timers_rescan (queue);
          t->func (queue, queue->now, t->arg, t->tag);
        }
      else if (pick == RUN_HEAP)
        {
          SimEvent ev = pop_min (queue);
          queue->now = ev.when;
          ev.func (queue, ev.when, ev.arg, ev.tag);
        }
      else
        break;
      count++;
    }
  return count;
}
