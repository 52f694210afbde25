/* sim_queue.c: the discrete-event core, a binary heap keyed on (time, sequence). */
#include "sim_queue.h"

typedef struct
{
  SimTime when;
  guint64 seq;
  SimEventFunc func;
  gpointer arg;
  guint64 tag;
} SimEvent;

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
event_before (const SimEvent *a, const SimEvent *b)
{
  return a->when < b->when || (a->when == b->when && a->seq < b->seq);
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
  if (queue->len == 0)
    return FALSE;
  *when = queue->heap[0].when;
  *seq = queue->heap[0].seq;
  return TRUE;
}

/* TRUE when the source's earliest event runs before the heap's. */
static inline gboolean
source_first (const SimQueue *queue)
{
  if (queue->source_when == SIM_TIME_NEVER)
    return FALSE;
  if (queue->len == 0)
    return TRUE;
  const SimEvent *top = &queue->heap[0];
  return queue->source_when < top->when
         || (queue->source_when == top->when && queue->source_seq < top->seq);
}

guint64
sim_queue_run (SimQueue *queue)
{
  guint64 count = 0;
  for (;;)
    {
      if (source_first (queue))
        {
          queue->now = queue->source_when;
          queue->source_func (queue, queue->now, queue->source_arg);
        }
      else if (queue->len > 0)
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
