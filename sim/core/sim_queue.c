/* sim_queue.c: the discrete-event core: a binary heap of events keyed on (time, sequence), a heap of ordered sources, a few timers, and the steps left for the current instant. */
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

struct SimSource
{
  SimSourceFunc func;
  gpointer arg;
  guint64 tag;
  SimQueue *queue;
  guint pos;            /* its entry in the queue's source heap, or NO_POS */
};

/* A source's earliest event, kept in the heap entry itself so that the heap
 * compares keys without following the pointer. */
typedef struct
{
  SimTime when;
  guint64 seq;
  SimSource *source;
} SimSourceKey;

#define NO_POS G_MAXUINT

struct SimQueue
{
  SimEvent *heap;
  gsize len;
  gsize cap;
  guint64 next_seq;
  SimTime now;

  /* ordered sources with an event, a min-heap on their earliest one */
  SimSourceKey *sources;
  guint n_sources, sources_cap;
  GPtrArray *all_sources; /* every source made, freed with the queue */

  /* steps (sim_queue_post), a stack: the next to run is the last */
  SimEvent *steps;
  gsize n_steps, steps_cap;

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
  queue->all_sources = g_ptr_array_new_with_free_func (g_free);
  return queue;
}

void
sim_queue_free (SimQueue *queue)
{
  if (queue == NULL)
    return;
  g_free (queue->heap);
  g_free (queue->sources);
  g_free (queue->steps);
  g_ptr_array_unref (queue->all_sources);
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

/* ---- Steps ---- */

void
sim_queue_post (SimQueue *queue, SimEventFunc func, gpointer arg, guint64 tag)
{
  if (queue->n_steps == queue->steps_cap)
    {
      queue->steps_cap = MAX (queue->steps_cap * 2, 64);
      queue->steps = g_renew (SimEvent, queue->steps, queue->steps_cap);
    }
  queue->steps[queue->n_steps++] = (SimEvent) { queue->now, 0, func, arg, tag };
}

gsize
sim_queue_steps (const SimQueue *queue)
{
  return queue->n_steps;
}

/* Steps [from, n_steps) were posted in this order by one event or step:
 * reversed, the first posted is the next to run. */
static inline void
steps_reverse_from (SimQueue *queue, gsize from)
{
  SimEvent *lo = queue->steps + from, *hi = queue->steps + queue->n_steps;
  while (hi - lo > 1)
    {
      SimEvent t = *lo;
      *lo++ = *--hi;
      *hi = t;
    }
}

/* Runs the steps the event just run left, and those they post, until none
 * is left. */
static void
run_steps (SimQueue *queue)
{
  steps_reverse_from (queue, 0);
  while (queue->n_steps > 0)
    {
      SimEvent step = queue->steps[--queue->n_steps];
      gsize mark = queue->n_steps;
      step.func (queue, queue->now, step.arg, step.tag);
      steps_reverse_from (queue, mark);
    }
}

guint64
sim_queue_take_seq (SimQueue *queue, guint64 n)
{
  guint64 first = queue->next_seq;
  queue->next_seq += n;
  return first;
}

/* ---- Ordered sources ---- */

SimSource *
sim_queue_source_new (SimQueue *queue, SimSourceFunc func, gpointer arg, guint64 tag)
{
  g_return_val_if_fail (queue != NULL && func != NULL, NULL);
  SimSource *source = g_new (SimSource, 1);
  *source = (SimSource) { func, arg, tag, queue, NO_POS };
  g_ptr_array_add (queue->all_sources, source);
  return source;
}

static inline gboolean
source_before (const SimSourceKey *a, const SimSourceKey *b)
{
  return key_before (a->when, a->seq, b->when, b->seq);
}

static inline void
source_put (SimQueue *queue, guint i, SimSourceKey key)
{
  queue->sources[i] = key;
  key.source->pos = i;
}

/* Moves the entry at i up to its place. */
static void
sources_up (SimQueue *queue, guint i)
{
  SimSourceKey key = queue->sources[i];
  while (i > 0 && source_before (&key, &queue->sources[(i - 1) / 2]))
    {
      source_put (queue, i, queue->sources[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
  source_put (queue, i, key);
}

/* Moves the entry at i down to its place. */
static void
sources_down (SimQueue *queue, guint i)
{
  SimSourceKey key = queue->sources[i];
  for (;;)
    {
      guint c = 2 * i + 1;
      if (c >= queue->n_sources)
        break;
      if (c + 1 < queue->n_sources && source_before (&queue->sources[c + 1], &queue->sources[c]))
        c++;
      if (!source_before (&queue->sources[c], &key))
        break;
      source_put (queue, i, queue->sources[c]);
      i = c;
    }
  source_put (queue, i, key);
}

void
sim_queue_source_next (SimSource *source, SimTime when, guint64 seq)
{
  g_return_if_fail (source != NULL);
  SimQueue *queue = source->queue;
  guint i = source->pos;
  if (when == SIM_TIME_NEVER)
    {
      if (i == NO_POS)
        return;
      source->pos = NO_POS;
      if (i != --queue->n_sources)
        {
          source_put (queue, i, queue->sources[queue->n_sources]);
          sources_down (queue, i);
          sources_up (queue, i);
        }
      return;
    }
  /* Like sim_queue_schedule: an event in the past is a model bug. */
  g_assert (when >= queue->now);
  SimSourceKey key = { when, seq, source };
  if (i == NO_POS)
    {
      if (queue->n_sources == queue->sources_cap)
        {
          queue->sources_cap = MAX (queue->sources_cap * 2, 8);
          queue->sources = g_renew (SimSourceKey, queue->sources, queue->sources_cap);
        }
      i = queue->n_sources++;
      source_put (queue, i, key);
      sources_up (queue, i);
      return;
    }
  gboolean later = source_before (&queue->sources[i], &key);
  source_put (queue, i, key);
  if (later)
    sources_down (queue, i);
  else
    sources_up (queue, i);
}

gboolean
sim_queue_peek_other (const SimQueue *queue, const SimSource *source, SimTime *when,
                      guint64 *seq)
{
  SimTime w = SIM_TIME_NEVER;
  guint64 q = G_MAXUINT64;
  if (queue->len > 0)
    {
      w = queue->heap[0].when;
      q = queue->heap[0].seq;
    }
  const SimTimer *t = queue->timer_first;
  if (t != NULL && key_before (t->when, t->seq, w, q))
    {
      w = t->when;
      q = t->seq;
    }
  /* the other sources' earliest: the top, or when `source` is the top, the
   * earlier of its children */
  guint first = 0, last = 0;
  if (queue->n_sources > 0 && queue->sources[0].source == source)
    first = 1, last = 2;
  for (guint i = first; i <= last && i < queue->n_sources; i++)
    if (key_before (queue->sources[i].when, queue->sources[i].seq, w, q))
      {
        w = queue->sources[i].when;
        q = queue->sources[i].seq;
      }
  if (w == SIM_TIME_NEVER)
    return FALSE;
  *when = w;
  *seq = q;
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
      /* the earliest of the heap's top, the first timer and the first source */
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
      if (queue->n_sources > 0
          && key_before (queue->sources[0].when, queue->sources[0].seq, when, seq))
        pick = RUN_SOURCE;

      if (pick == RUN_SOURCE)
        {
          SimSource *source = queue->sources[0].source;
          queue->now = queue->sources[0].when;
          source->func (queue, queue->now, source->arg, source->tag);
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
      if (queue->n_steps > 0)
        run_steps (queue);
      count++;
    }
  return count;
}
