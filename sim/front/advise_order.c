/* advise_order.c: the issue-order search: the orders with a name (depth-first and
 * breadth-first), every order the rules allow when there are few enough, else moves of one
 * op at a time from the best so far, first those the longest waits point to, then random
 * ones. schedule_order.h says which orders keep what the program computes. */
#include "advise_search.h"

#include <string.h>

/* The positions the op at `p` may move to, [*lo, *hi]: up to the nearest op
 * on each side that it needs, or that needs it, within its block (a block
 * holds the same positions in every valid order as op indices). */
static void
move_range (const Search *s, const guint32 *order, gsize p, gsize *lo, gsize *hi)
{
  gsize first, end;
  schedule_order_block_range (s->rules, schedule_order_block_of (s->rules, (guint32) p), &first,
                              &end);
  gsize q = p;
  while (q > first && !schedule_order_needs (s->rules, order[q - 1], order[p]))
    q--;
  *lo = q;
  q = p;
  while (q + 1 < end && !schedule_order_needs (s->rules, order[p], order[q + 1]))
    q++;
  *hi = q;
}

/* Adds to `round` the move of `from` to `to` from `base`, if it is one. */
static void
add_move (const Search *s, const Config *base, gsize from, gsize to, Config *round, gsize *n)
{
  if (from == to || *n >= ADVISE_ROUND)
    return;
  advise_config_copy (&round[*n], base, s);
  schedule_order_move (round[*n].order, from, to);
  (*n)++;
}

typedef struct
{
  gsize position;
  SimTime waited;
} Wait;

static gint
longer_wait_first (gconstpointer a, gconstpointer b)
{
  const Wait *x = a, *y = b;
  if (x->waited != y->waited)
    return x->waited > y->waited ? -1 : 1;
  return x->position < y->position ? -1 : x->position > y->position;
}

/* The moves the longest waits of `best`'s run suggest: the op that waited
 * moved before what it waited for, or that moved after it; or, when it
 * waited for no single op, moved as early as it may go. */
static void
guided_moves (Search *s, const Config *best, const EngSim *sim, const gsize *movable,
              gsize n_movable, Config *round, gsize *n)
{
  const EngOpResult *results = eng_sim_results (sim);
  g_autoptr (GArray) waits = g_array_new (FALSE, FALSE, sizeof (Wait));
  for (gsize i = 0; i < n_movable; i++)
    {
      Wait w = { movable[i], advise_waited (&results[movable[i]]) };
      if (w.waited > 0)
        g_array_append_val (waits, w);
    }
  g_array_sort (waits, longer_wait_first);
  for (guint i = 0; i < waits->len && *n < ADVISE_ROUND / 2; i++)
    {
      gsize p = g_array_index (waits, Wait, i).position, lo, hi;
      guint32 ref = results[p].cause_ref;
      move_range (s, best->order, p, &lo, &hi);
      if (ref != ENG_NO_REF && ref < p)
        {
          add_move (s, best, p, MAX (lo, ref), round, n);
          gsize rlo, rhi;
          move_range (s, best->order, ref, &rlo, &rhi);
          add_move (s, best, ref, MIN (rhi, p), round, n);
        }
      else
        add_move (s, best, p, lo, round, n);
    }
}

/* Random moves of one op within the places it may go. */
static void
random_moves (Search *s, const Config *best, const gsize *movable, gsize n_movable,
              Config *round, gsize *n)
{
  for (guint tries = 0; *n < ADVISE_ROUND && tries < 4 * ADVISE_ROUND; tries++)
    {
      gsize p = movable[g_rand_int_range (s->rand, 0, (gint32) n_movable)], lo, hi;
      move_range (s, best->order, p, &lo, &hi);
      if (lo == hi)
        continue;
      gsize q = lo + (gsize) g_rand_int_range (s->rand, 0, (gint32) (hi - lo));
      if (q >= p)
        q++; /* any place but its own */
      add_move (s, best, p, q, round, n);
    }
}

static gboolean
count_order (const guint32 *order, gpointer data)
{
  (void) order;
  (void) data;
  return TRUE;
}

typedef struct
{
  Search *s;
  Config *best;
  Config *round;
  gsize n;
} Every;

static void
every_flush (Every *e)
{
  if (e->n == 0)
    return;
  advise_evaluate (e->s, e->round, e->n);
  gsize f = advise_fastest (e->round, e->n);
  if (e->round[f].makespan < e->best->makespan)
    advise_config_copy (e->best, &e->round[f], e->s);
  e->n = 0;
}

static gboolean
every_order (const guint32 *order, gpointer data)
{
  Every *e = data;
  advise_config_copy (&e->round[e->n], e->best, e->s);
  memcpy (e->round[e->n].order, order, e->s->n * sizeof (guint32));
  if (++e->n == ADVISE_ROUND)
    every_flush (e);
  return TRUE;
}

/* The named orders: keys by stream (depth-first) and by place within the
 * stream's ops of the block (breadth-first). */
static void
named_orders (const Search *s, guint32 *depth, guint32 *breadth)
{
  const SchedOp *ops = schedule_ops (s->sched);
  guint64 *key = g_new (guint64, MAX (s->n, 1));
  for (gsize i = 0; i < s->n; i++)
    key[i] = ops[i].stream;
  schedule_order_by_key (s->rules, key, depth);
  guint *place = g_new0 (guint, s->n_streams);
  guint block = G_MAXUINT;
  for (gsize i = 0; i < s->n; i++)
    {
      if (schedule_order_block_of (s->rules, (guint32) i) != block)
        {
          block = schedule_order_block_of (s->rules, (guint32) i);
          memset (place, 0, s->n_streams * sizeof (guint));
        }
      key[i] = ops[i].stream < s->n_streams ? place[ops[i].stream]++ : 0;
    }
  schedule_order_by_key (s->rules, key, breadth);
  g_free (place);
  g_free (key);
}

const char *
advise_search_order (Search *s, Config *best)
{
  const char *how = NULL;
  guint64 start = s->evaluated;
  Config round[ADVISE_ROUND];
  for (guint i = 0; i < ADVISE_ROUND; i++)
    advise_config_init (&round[i], s);

  advise_config_copy (&round[0], best, s);
  advise_config_copy (&round[1], best, s);
  named_orders (s, round[0].order, round[1].order);
  advise_evaluate (s, round, 2);
  gsize f = advise_fastest (round, 2);
  if (round[f].makespan < best->makespan)
    {
      advise_config_copy (best, &round[f], s);
      how = f == 0 ? "depth-first: each stream's ops together, stream after stream"
                   : "breadth-first: one op of each stream in turn";
    }

  gboolean all = FALSE;
  schedule_order_each (s->rules, s->budget + 1, count_order, NULL, &all);
  if (all)
    {
      SimTime before = best->makespan;
      Every e = { s, best, round, 0 };
      guint64 n = schedule_order_each (s->rules, s->budget, every_order, &e, NULL);
      every_flush (&e);
      if (best->makespan < before)
        how = n == 1 ? how : "the fastest of every order the rules allow";
    }
  else
    {
      s->exhaustive = FALSE;
      gsize *movable = g_new (gsize, MAX (s->n, 1)), n_movable = 0;
      for (guint b = 0; b < schedule_order_n_blocks (s->rules); b++)
        {
          gsize first, end;
          schedule_order_block_range (s->rules, b, &first, &end);
          for (gsize p = first; end - first > 1 && p < end; p++)
            movable[n_movable++] = p;
        }
      guint idle = 0;
      EngSim *sim = n_movable > 0 ? advise_simulate (s, 0, best, TRUE) : NULL;
      while (sim != NULL && idle < ADVISE_PATIENCE && s->evaluated - start < s->budget)
        {
          gsize n = 0;
          guided_moves (s, best, sim, movable, n_movable, round, &n);
          random_moves (s, best, movable, n_movable, round, &n);
          n = MIN (n, (gsize) (s->budget - (s->evaluated - start)));
          if (n == 0)
            break;
          advise_evaluate (s, round, n);
          f = advise_fastest (round, n);
          if (round[f].makespan < best->makespan)
            {
              advise_config_copy (best, &round[f], s);
              how = "searched: ops moved one at a time while the makespan fell";
              idle = 0;
              eng_sim_free (sim);
              sim = advise_simulate (s, 0, best, TRUE);
            }
          else
            idle++;
        }
      if (sim != NULL)
        eng_sim_free (sim);
      g_free (movable);
    }
  for (guint i = 0; i < ADVISE_ROUND; i++)
    advise_config_clear (&round[i]);
  return how;
}
