/* schedule_order.c: the rules an issue order keeps (schedule_order.h), checked, moved within and enumerated. */
#include "schedule_order.h"

#include <string.h>

/* The ops one op needs directly: its stream's op before it, its event's, its
 * kernel's loading launch, the host statement before it, and for a sync of
 * a stream that stream's last op. */
#define N_PREDS 5

struct ScheduleOrder
{
  gsize n;
  guint32 *pred;        /* [op * N_PREDS + k], SCHED_NONE when none */
  guint32 *block_of;    /* per op */
  gsize *block_first;   /* n_blocks + 1 positions: block b is [first[b], first[b + 1]) */
  guint n_blocks;
  guint32 *succ_first;  /* n + 1: the ops that need op i are succ[succ_first[i] ..] */
  guint32 *succ;
};

static gboolean
is_stream_op (SchedOpKind kind)
{
  switch (kind)
    {
    case SCHED_OP_COPY:
    case SCHED_OP_KERNEL:
    case SCHED_OP_RECORD:
    case SCHED_OP_WAIT:
    case SCHED_OP_MEMSET:
    case SCHED_OP_HOSTFN:
    case SCHED_OP_MALLOC:
    case SCHED_OP_FREE:
      return TRUE;
    case SCHED_OP_MEMCPY:
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_SYNC_DEVICE:
    case SCHED_OP_HOST:
    case SCHED_OP_SPAWN:
    case SCHED_OP_JOIN:
      return FALSE;
    }
  return FALSE;
}

/* Nothing crosses these, either way: they need every op before them. */
static gboolean
is_barrier (const SchedOp *op, gboolean legacy_joins)
{
  /* A graph launch is one call: its nodes stay together, and where it was. */
  if (op->graph != 0)
    return TRUE;
  switch (op->kind)
    {
    case SCHED_OP_SYNC_DEVICE:
    case SCHED_OP_MEMCPY:
    case SCHED_OP_SPAWN:
    case SCHED_OP_JOIN:
      return TRUE;
    case SCHED_OP_KERNEL:
      if (op->u.kernel.loads && op->label == NULL)
        return TRUE;
      break;
    default:
      break;
    }
  return legacy_joins && is_stream_op (op->kind) && op->stream == SCHED_STREAM_DEFAULT;
}

/* What the host thread does itself or waits in: the ops after it stay
 * after it, and it keeps what it waits for before it. */
static gboolean
is_host_statement (const SchedOp *op)
{
  switch (op->kind)
    {
    case SCHED_OP_SYNC_STREAM:
    case SCHED_OP_SYNC_EVENT:
    case SCHED_OP_HOST:
      return TRUE;
    case SCHED_OP_COPY:
      /* a pageable copy returns once the host has staged its data */
      return op->u.copy.pageable && op->u.copy.dir != SCHED_DIR_D2D;
    default:
      return FALSE;
    }
}

static void
add_pred (ScheduleOrder *rules, guint32 op, guint32 pred)
{
  guint32 *p = &rules->pred[(gsize) op * N_PREDS];
  if (pred == SCHED_NONE || rules->block_of[pred] != rules->block_of[op])
    return;
  for (guint k = 0; k < N_PREDS; k++)
    if (p[k] == SCHED_NONE || p[k] == pred)
      {
        p[k] = pred;
        return;
      }
  g_assert_not_reached ();
}

ScheduleOrder *
schedule_order_new (const Schedule *sched)
{
  g_return_val_if_fail (sched != NULL, NULL);
  ScheduleOrder *rules = g_new0 (ScheduleOrder, 1);
  gsize n = schedule_n_ops (sched);
  const SchedOp *ops = schedule_ops (sched);
  rules->n = n;
  rules->pred = g_new (guint32, MAX (n, 1) * N_PREDS);
  memset (rules->pred, 0xff, MAX (n, 1) * N_PREDS * sizeof (guint32));
  rules->block_of = g_new (guint32, MAX (n, 1));

  /* the legacy default stream waits for blocking streams and they for it */
  gboolean legacy_joins = FALSE;
  for (guint s = 1; s < schedule_n_streams (sched); s++)
    legacy_joins |= !schedule_stream (sched, s)->nonblocking;

  GArray *firsts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gboolean open = FALSE; /* the last block takes more ops */
  for (gsize i = 0; i < n; i++)
    {
      gboolean barrier = is_barrier (&ops[i], legacy_joins);
      if (barrier || !open)
        g_array_append_val (firsts, i);
      open = !barrier;
      rules->block_of[i] = firsts->len - 1;
    }
  rules->n_blocks = firsts->len;
  g_array_append_val (firsts, n);
  rules->block_first = (gsize *) g_array_free (firsts, FALSE);

  guint32 *last_in_stream = g_new (guint32, schedule_n_streams (sched));
  memset (last_in_stream, 0xff, schedule_n_streams (sched) * sizeof (guint32));
  guint32 *last_on_event = g_new (guint32, MAX (schedule_n_events (sched), 1));
  memset (last_on_event, 0xff, MAX (schedule_n_events (sched), 1) * sizeof (guint32));
  GHashTable *loading = g_hash_table_new (g_str_hash, g_str_equal); /* label -> op + 1 */
  guint32 last_host = SCHED_NONE;
  for (gsize i = 0; i < n; i++)
    {
      const SchedOp *op = &ops[i];
      add_pred (rules, i, last_host);
      if (op->kind == SCHED_OP_SYNC_STREAM)
        add_pred (rules, i, last_in_stream[op->stream]);
      if (is_stream_op (op->kind))
        {
          add_pred (rules, i, last_in_stream[op->stream]);
          last_in_stream[op->stream] = i;
        }
      if (op->kind == SCHED_OP_RECORD || op->kind == SCHED_OP_WAIT
          || op->kind == SCHED_OP_SYNC_EVENT)
        {
          add_pred (rules, i, last_on_event[op->event]);
          last_on_event[op->event] = i;
        }
      if (op->kind == SCHED_OP_KERNEL && op->label != NULL)
        {
          guint32 loader = GPOINTER_TO_UINT (g_hash_table_lookup (loading, op->label));
          if (loader != 0)
            add_pred (rules, i, loader - 1);
          if (op->u.kernel.loads)
            g_hash_table_insert (loading, (gpointer) op->label, GUINT_TO_POINTER (i + 1));
        }
      if (is_host_statement (op))
        last_host = i;
    }
  g_hash_table_unref (loading);
  g_free (last_on_event);
  g_free (last_in_stream);

  /* successors, for building orders */
  rules->succ_first = g_new0 (guint32, n + 1);
  for (gsize i = 0; i < n * N_PREDS; i++)
    if (rules->pred[i] != SCHED_NONE)
      rules->succ_first[rules->pred[i] + 1]++;
  for (gsize i = 0; i < n; i++)
    rules->succ_first[i + 1] += rules->succ_first[i];
  rules->succ = g_new (guint32, MAX (rules->succ_first[n], 1));
  guint32 *fill = g_memdup2 (rules->succ_first, (n + 1) * sizeof (guint32));
  for (gsize i = 0; i < n; i++)
    for (guint k = 0; k < N_PREDS; k++)
      {
        guint32 p = rules->pred[i * N_PREDS + k];
        if (p != SCHED_NONE)
          rules->succ[fill[p]++] = i;
      }
  g_free (fill);
  return rules;
}

void
schedule_order_free (ScheduleOrder *rules)
{
  if (rules == NULL)
    return;
  g_free (rules->pred);
  g_free (rules->block_of);
  g_free (rules->block_first);
  g_free (rules->succ_first);
  g_free (rules->succ);
  g_free (rules);
}

gsize
schedule_order_n_ops (const ScheduleOrder *rules)
{
  return rules->n;
}

guint32 *
schedule_order_identity (const ScheduleOrder *rules)
{
  guint32 *order = g_new (guint32, MAX (rules->n, 1));
  for (gsize i = 0; i < rules->n; i++)
    order[i] = i;
  return order;
}

guint
schedule_order_n_blocks (const ScheduleOrder *rules)
{
  return rules->n_blocks;
}

void
schedule_order_block_range (const ScheduleOrder *rules, guint b, gsize *first, gsize *end)
{
  g_return_if_fail (b < rules->n_blocks);
  *first = rules->block_first[b];
  *end = rules->block_first[b + 1];
}

guint
schedule_order_block_of (const ScheduleOrder *rules, guint32 op)
{
  g_return_val_if_fail (op < rules->n, 0);
  return rules->block_of[op];
}

gboolean
schedule_order_needs (const ScheduleOrder *rules, guint32 before, guint32 after)
{
  const guint32 *p = &rules->pred[(gsize) after * N_PREDS];
  for (guint k = 0; k < N_PREDS; k++)
    if (p[k] == before)
      return TRUE;
  return FALSE;
}

gboolean
schedule_order_check (const ScheduleOrder *rules, const guint32 *order, gsize *position)
{
  gsize n = rules->n, bad = n;
  gsize *pos = g_new (gsize, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    pos[i] = n;
  for (gsize p = 0; p < n && bad == n; p++)
    {
      /* a permutation whose blocks keep their places */
      if (order[p] >= n || pos[order[p]] != n || rules->block_of[order[p]] != rules->block_of[p])
        bad = p;
      else
        pos[order[p]] = p;
    }
  for (gsize p = 0; p < n && bad == n; p++)
    for (guint k = 0; k < N_PREDS; k++)
      {
        guint32 pred = rules->pred[(gsize) order[p] * N_PREDS + k];
        if (pred != SCHED_NONE && pos[pred] > p)
          {
            bad = p;
            break;
          }
      }
  g_free (pos);
  if (position != NULL)
    *position = bad;
  return bad == n;
}

gboolean
schedule_order_can_move (const ScheduleOrder *rules, const guint32 *order, gsize from, gsize to)
{
  g_return_val_if_fail (from < rules->n && to < rules->n, FALSE);
  guint32 op = order[from];
  /* positions keep their blocks: ops at `from` and `to` share one */
  if (rules->block_of[from] != rules->block_of[to])
    return FALSE;
  /* earlier: nothing it passes may be needed before it; later: nothing it
   * passes may need it (rules chain, so direct needs are enough) */
  for (gsize p = to; p < from; p++)
    if (schedule_order_needs (rules, order[p], op))
      return FALSE;
  for (gsize p = from + 1; p <= to; p++)
    if (schedule_order_needs (rules, op, order[p]))
      return FALSE;
  return TRUE;
}

void
schedule_order_move (guint32 *order, gsize from, gsize to)
{
  guint32 op = order[from];
  if (to < from)
    memmove (&order[to + 1], &order[to], (from - to) * sizeof (guint32));
  else
    memmove (&order[from], &order[from + 1], (to - from) * sizeof (guint32));
  order[to] = op;
}

/* Counts of rules not yet met, per op. */
static guint8 *
pending_counts (const ScheduleOrder *rules)
{
  guint8 *pending = g_new0 (guint8, MAX (rules->n, 1));
  for (gsize i = 0; i < rules->n; i++)
    for (guint k = 0; k < N_PREDS; k++)
      pending[i] += rules->pred[i * N_PREDS + k] != SCHED_NONE;
  return pending;
}

/* A binary heap of ops by (key, op). */
typedef struct
{
  guint32 *op;
  gsize len;
  const guint64 *key;
} Heap;

static gboolean
heap_less (const Heap *h, guint32 a, guint32 b)
{
  return h->key[a] != h->key[b] ? h->key[a] < h->key[b] : a < b;
}

static void
heap_push (Heap *h, guint32 op)
{
  gsize i = h->len++;
  while (i > 0 && heap_less (h, op, h->op[(i - 1) / 2]))
    {
      h->op[i] = h->op[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  h->op[i] = op;
}

static guint32
heap_pop (Heap *h)
{
  guint32 top = h->op[0], last = h->op[--h->len];
  gsize i = 0;
  for (;;)
    {
      gsize c = 2 * i + 1;
      if (c >= h->len)
        break;
      if (c + 1 < h->len && heap_less (h, h->op[c + 1], h->op[c]))
        c++;
      if (!heap_less (h, h->op[c], last))
        break;
      h->op[i] = h->op[c];
      i = c;
    }
  if (h->len > 0)
    h->op[i] = last;
  return top;
}

void
schedule_order_by_key (const ScheduleOrder *rules, const guint64 *key, guint32 *order)
{
  guint8 *pending = pending_counts (rules);
  Heap heap = { g_new (guint32, MAX (rules->n, 1)), 0, key };
  gsize p = 0;
  for (guint b = 0; b < rules->n_blocks; b++)
    {
      for (gsize i = rules->block_first[b]; i < rules->block_first[b + 1]; i++)
        if (pending[i] == 0)
          heap_push (&heap, i);
      while (heap.len > 0)
        {
          guint32 op = heap_pop (&heap);
          order[p++] = op;
          for (guint32 s = rules->succ_first[op]; s < rules->succ_first[op + 1]; s++)
            if (--pending[rules->succ[s]] == 0)
              heap_push (&heap, rules->succ[s]);
        }
    }
  g_assert (p == rules->n);
  g_free (heap.op);
  g_free (pending);
}

typedef struct
{
  const ScheduleOrder *rules;
  guint8 *pending;
  gboolean *placed;
  guint32 *order;
  guint64 given, limit;
  ScheduleOrderEach each;
  gpointer data;
  gboolean stopped;
} Walk;

/* Places every op that may come at position p in turn, smallest first. */
static void
walk (Walk *w, gsize p)
{
  const ScheduleOrder *rules = w->rules;
  if (p == rules->n)
    {
      w->given++;
      if (!w->each (w->order, w->data) || w->given >= w->limit)
        w->stopped = TRUE;
      return;
    }
  guint b = rules->block_of[p];
  for (gsize i = rules->block_first[b]; i < rules->block_first[b + 1] && !w->stopped; i++)
    {
      if (w->placed[i] || w->pending[i] != 0)
        continue;
      w->placed[i] = TRUE;
      w->order[p] = i;
      for (guint32 s = rules->succ_first[i]; s < rules->succ_first[i + 1]; s++)
        w->pending[rules->succ[s]]--;
      walk (w, p + 1);
      for (guint32 s = rules->succ_first[i]; s < rules->succ_first[i + 1]; s++)
        w->pending[rules->succ[s]]++;
      w->placed[i] = FALSE;
    }
}

guint64
schedule_order_each (const ScheduleOrder *rules, guint64 limit, ScheduleOrderEach each,
                     gpointer data, gboolean *all)
{
  Walk w = { rules, pending_counts (rules), g_new0 (gboolean, MAX (rules->n, 1)),
             g_new (guint32, MAX (rules->n, 1)), 0, limit, each, data, FALSE };
  if (limit > 0)
    walk (&w, 0);
  g_free (w.pending);
  g_free (w.placed);
  g_free (w.order);
  if (all != NULL)
    *all = !w.stopped && limit > 0;
  return w.given;
}
