/* advise.c: the search behind `streamsim advise` (advise.h). */
#include "advise.h"

#include <string.h>
#include "cause_text.h"
#include "host_spread.h"
#include "op_name.h"
#include "prediction.h"
#include "sweep.h"
#include "engines/eng_sim.h"
#include "sim/core/schedule_edit.h"
#include "sim/core/schedule_order.h"
#include "sim/formats/units.h"

/* The most synchronizations the hints try leaving out, one at a time. */
#define MAX_SYNC_HINTS_TRIED 256
/* How many of them the advice lists. */
#define MAX_SYNC_HINTS 3
/* A hint must gain this part of the makespan to be told. */
#define MIN_HINT_GAIN 0.01

/* One candidate: what the program is issued as. */
typedef struct
{
  guint32 *order;     /* op indices of the parsed schedule, in issue order */
  guint connections;  /* 0: the schedule's `connections`, else the driver's */
  gint *priority;     /* per stream */
  guint64 pool_threshold; /* `pool_threshold` */
  SimTime makespan;
} Config;

/* The search over one parsed schedule. */
typedef struct
{
  const GpuProfile *profile;
  const Schedule *sched;
  ScheduleOrder *rules;
  gsize n;
  guint n_streams;
  guint jobs;
  Schedule **work;       /* a copy per thread */
  guint64 budget;
  guint64 evaluated;
  gboolean exhaustive;   /* every order search tried every order */
  GRand *rand;
} Search;

/* A change found, with the candidates before and after it. */
typedef struct
{
  AdviseChangeKind kind;
  char *text;
  Config before, after;
} Step;

struct Advice
{
  char *device;
  Schedule *original;
  guint original_connections;
  SimTime original_makespan;
  Schedule *best;
  guint best_connections;
  SimTime best_makespan;
  char *define;
  GArray *changes;   /* AdviseChange */
  GArray *hints;     /* AdviseHint */
  guint64 candidates;
  gboolean exhaustive;
  char *explain;
  char *order_kept;  /* why the issue order was not searched though asked, or NULL */
  gboolean has_spread; /* the profile gives its host's spread: */
  SimTime spread_original[2], spread_best[2]; /* the makespans at each end (GpuHostEnd) */
};

static void
config_init (Config *c, const Search *s)
{
  c->order = g_new (guint32, MAX (s->n, 1));
  c->priority = g_new0 (gint, s->n_streams);
  c->connections = 0;
  c->makespan = -1;
}

static void
config_copy (Config *dest, const Config *src, const Search *s)
{
  memcpy (dest->order, src->order, s->n * sizeof (guint32));
  memcpy (dest->priority, src->priority, s->n_streams * sizeof (gint));
  dest->connections = src->connections;
  dest->pool_threshold = src->pool_threshold;
  dest->makespan = src->makespan;
}

static void
config_clear (Config *c)
{
  g_clear_pointer (&c->order, g_free);
  g_clear_pointer (&c->priority, g_free);
}

/* Runs `c` on thread `job`'s copy; returns the run when `keep`, else frees it. */
static EngSim *
simulate (const Search *s, guint job, Config *c, gboolean keep)
{
  Schedule *w = s->work[job];
  schedule_set_order (w, c->order);
  for (guint k = 0; k < s->n_streams; k++)
    schedule_set_stream_priority (w, k, c->priority[k]);
  schedule_set_pool_threshold (w, c->pool_threshold);
  GError *error = NULL;
  /* what eng_sim_new checks (shapes, times, limits) no candidate changes,
   * and the program itself passed */
  EngSim *sim = eng_sim_new (s->profile, w, c->connections, &error);
  if (sim == NULL)
    {
      g_critical ("advise: a candidate failed the checks the program passed: %s", error->message);
      g_error_free (error);
      c->makespan = G_MAXINT64;
      return NULL;
    }
  eng_sim_run (sim);
  c->makespan = eng_sim_makespan (sim);
  if (keep)
    return sim;
  eng_sim_free (sim);
  return NULL;
}

typedef struct
{
  Search *s;
  Config *configs;
  gsize n;
  guint job;
} Part;

static gpointer
run_part (gpointer data)
{
  Part *part = data;
  for (gsize i = part->job; i < part->n; i += part->s->jobs)
    simulate (part->s, part->job, &part->configs[i], FALSE);
  return NULL;
}

/* Simulates every config, candidate i on thread i mod jobs. */
static void
evaluate (Search *s, Config *configs, gsize n)
{
  guint jobs = (guint) MIN ((gsize) s->jobs, n);
  Part parts[jobs > 0 ? jobs : 1];
  GThread *threads[jobs > 0 ? jobs : 1];
  for (guint j = 0; j < jobs; j++)
    {
      parts[j] = (Part) { s, configs, n, j };
      threads[j] = j == 0 ? NULL : g_thread_new ("advise", run_part, &parts[j]);
    }
  if (jobs > 0)
    run_part (&parts[0]);
  for (guint j = 1; j < jobs; j++)
    g_thread_join (threads[j]);
  s->evaluated += n;
}

/* The index of the fastest config, the first of equals. */
static gsize
fastest (const Config *configs, gsize n)
{
  gsize best = 0;
  for (gsize i = 1; i < n; i++)
    if (configs[i].makespan < configs[best].makespan)
      best = i;
  return best;
}

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
  config_copy (&round[*n], base, s);
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

/* How long the op at `p` of a run waited (prediction_waited's measure). */
static SimTime
waited (const EngOpResult *r)
{
  if (r->cause == ENG_CAUSE_NONE)
    return 0;
  return (r->cause == ENG_CAUSE_SYNC ? r->end : r->start) - r->issue;
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
      Wait w = { movable[i], waited (&results[movable[i]]) };
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
  evaluate (e->s, e->round, e->n);
  gsize f = fastest (e->round, e->n);
  if (e->round[f].makespan < e->best->makespan)
    config_copy (e->best, &e->round[f], e->s);
  e->n = 0;
}

static gboolean
every_order (const guint32 *order, gpointer data)
{
  Every *e = data;
  config_copy (&e->round[e->n], e->best, e->s);
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

/* Searches issue orders for `best` (evaluated), keeping its connections
 * and priorities; returns how the best order was found. */
static const char *
search_order (Search *s, Config *best)
{
  const char *how = NULL;
  guint64 start = s->evaluated;
  Config round[ADVISE_ROUND];
  for (guint i = 0; i < ADVISE_ROUND; i++)
    config_init (&round[i], s);

  config_copy (&round[0], best, s);
  config_copy (&round[1], best, s);
  named_orders (s, round[0].order, round[1].order);
  evaluate (s, round, 2);
  gsize f = fastest (round, 2);
  if (round[f].makespan < best->makespan)
    {
      config_copy (best, &round[f], s);
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
      EngSim *sim = n_movable > 0 ? simulate (s, 0, best, TRUE) : NULL;
      while (sim != NULL && idle < ADVISE_PATIENCE && s->evaluated - start < s->budget)
        {
          gsize n = 0;
          guided_moves (s, best, sim, movable, n_movable, round, &n);
          random_moves (s, best, movable, n_movable, round, &n);
          n = MIN (n, (gsize) (s->budget - (s->evaluated - start)));
          if (n == 0)
            break;
          evaluate (s, round, n);
          f = fastest (round, n);
          if (round[f].makespan < best->makespan)
            {
              config_copy (best, &round[f], s);
              how = "searched: ops moved one at a time while the makespan fell";
              idle = 0;
              eng_sim_free (sim);
              sim = simulate (s, 0, best, TRUE);
            }
          else
            idle++;
        }
      if (sim != NULL)
        eng_sim_free (sim);
      g_free (movable);
    }
  for (guint i = 0; i < ADVISE_ROUND; i++)
    config_clear (&round[i]);
  return how;
}

/* The connection count the model uses for `c`. */
static guint
connections_in_force (const Search *s, const Config *c)
{
  EngSim *sim = eng_sim_new (s->profile, s->work[0], c->connections, NULL);
  guint n = sim != NULL ? eng_sim_connections (sim) : c->connections;
  eng_sim_free (sim);
  return n;
}

/* Tries every other connection count for `best`; TRUE when one is faster. */
static gboolean
search_connections (Search *s, Config *best)
{
  guint max = s->profile->max_connections;
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));
  guint now = connections_in_force (s, best);
  for (guint v = 1; v <= max; v *= 2)
    if (v != now)
      g_array_append_val (values, v);
  guint streams = s->n_streams - 1;
  if (streams >= 1 && streams <= max && (streams & (streams - 1)) != 0 && streams != now)
    g_array_append_val (values, streams);
  Config *configs = g_new (Config, MAX (values->len, 1));
  for (guint i = 0; i < values->len; i++)
    {
      config_init (&configs[i], s);
      config_copy (&configs[i], best, s);
      configs[i].connections = g_array_index (values, guint, i);
    }
  gboolean gained = FALSE;
  if (values->len > 0)
    {
      evaluate (s, configs, values->len);
      gsize f = fastest (configs, values->len);
      if (configs[f].makespan < best->makespan)
        {
          config_copy (best, &configs[f], s);
          gained = TRUE;
        }
    }
  for (guint i = 0; i < values->len; i++)
    config_clear (&configs[i]);
  g_free (configs);
  g_array_unref (values);
  return gained;
}

/* Makes one stream at a time more urgent (-1) or back to 0 while that
 * gains; TRUE when anything did. */
static gboolean
search_priorities (Search *s, Config *best)
{
  guint n = s->n_streams - 1; /* not the legacy default stream */
  if (n < 2)
    return FALSE;
  Config *configs = g_new (Config, n);
  for (guint i = 0; i < n; i++)
    config_init (&configs[i], s);
  gboolean gained = FALSE;
  for (guint round = 0; round < n; round++)
    {
      for (guint i = 0; i < n; i++)
        {
          config_copy (&configs[i], best, s);
          configs[i].priority[i + 1] = best->priority[i + 1] == 0 ? -1 : 0;
        }
      evaluate (s, configs, n);
      gsize f = fastest (configs, n);
      if (configs[f].makespan >= best->makespan)
        break;
      config_copy (best, &configs[f], s);
      gained = TRUE;
    }
  for (guint i = 0; i < n; i++)
    config_clear (&configs[i]);
  g_free (configs);
  return gained;
}

static void
step_add (GArray *steps, const Search *s, AdviseChangeKind kind, char *text, const Config *before,
          const Config *after)
{
  Step step = { kind, text, { 0 }, { 0 } };
  config_init (&step.before, s);
  config_init (&step.after, s);
  config_copy (&step.before, before, s);
  config_copy (&step.after, after, s);
  g_array_append_val (steps, step);
}

static void
step_clear (gpointer data)
{
  Step *step = data;
  g_free (step->text);
  config_clear (&step->before);
  config_clear (&step->after);
}

static char *
priorities_text (const Search *s, const Config *c)
{
  GString *text = g_string_new ("stream priorities:");
  const char *sep = " ";
  for (guint k = 1; k < s->n_streams; k++)
    if (c->priority[k] != schedule_stream (s->sched, k)->priority)
      {
        g_string_append_printf (text, "%s%s priority=%d", sep, schedule_stream (s->sched, k)->name,
                                c->priority[k]);
        sep = ", ";
      }
  g_string_append (text, " (cudaStreamCreateWithPriority)");
  return g_string_free (text, FALSE);
}

static Search *
search_new (const GpuProfile *profile, const Schedule *sched, const AdviseOptions *options)
{
  Search *s = g_new0 (Search, 1);
  s->profile = profile;
  s->sched = sched;
  s->rules = schedule_order_new (sched);
  s->n = schedule_n_ops (sched);
  s->n_streams = schedule_n_streams (sched);
  s->jobs = options->jobs != 0 ? options->jobs : (guint) MAX (1, g_get_num_processors ());
  s->work = g_new (Schedule *, s->jobs);
  for (guint j = 0; j < s->jobs; j++)
    s->work[j] = schedule_copy (sched);
  s->budget = options->budget != 0 ? options->budget : ADVISE_DEFAULT_BUDGET;
  s->exhaustive = TRUE;
  s->rand = g_rand_new_with_seed ((guint32) (options->seed ^ (options->seed >> 32)));
  return s;
}

static void
search_free (Search *s)
{
  for (guint j = 0; j < s->jobs; j++)
    schedule_free (s->work[j]);
  g_free (s->work);
  schedule_order_free (s->rules);
  g_rand_free (s->rand);
  g_free (s);
}

/* The program as given, for the search `s`. */
static void
program_config (const Search *s, guint connections, Config *c)
{
  config_init (c, s);
  for (gsize i = 0; i < s->n; i++)
    c->order[i] = (guint32) i;
  for (guint k = 0; k < s->n_streams; k++)
    c->priority[k] = schedule_stream (s->sched, k)->priority;
  c->connections = connections;
  c->pool_threshold = schedule_pool_threshold (s->sched);
}

/* The most the schedule holds allocated with `malloc` at once, in file
 * order; 0 when it allocates nothing. */
static guint64
peak_allocated (const Schedule *sched)
{
  guint64 used = 0, peak = 0;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if (op->kind == SCHED_OP_MALLOC)
        used = used > G_MAXUINT64 - op->u.bytes ? G_MAXUINT64 : used + op->u.bytes;
      else if (op->kind == SCHED_OP_FREE)
        used -= MIN (used, op->u.bytes);
      peak = MAX (peak, used);
    }
  return peak;
}

/* The pool's release threshold raised to what the schedule holds at most
 * at once, when that gains; TRUE when it did. */
static gboolean
search_pool (Search *s, Config *best)
{
  guint64 peak = peak_allocated (s->sched);
  if (peak <= best->pool_threshold)
    return FALSE;
  Config c;
  config_init (&c, s);
  config_copy (&c, best, s);
  c.pool_threshold = peak;
  evaluate (s, &c, 1);
  gboolean gained = c.makespan < best->makespan;
  if (gained)
    config_copy (best, &c, s);
  config_clear (&c);
  return gained;
}

/* Every search for one parsed schedule, from the program's own config;
 * appends the steps that gained and leaves the best in *best. */
static void
advise_schedule (Search *s, const AdviseOptions *options, GArray *steps, Config *best)
{
  Config before;
  config_init (&before, s);
  if (!options->fixed_order)
    {
      config_copy (&before, best, s);
      const char *how = search_order (s, best);
      if (best->makespan < before.makespan)
        step_add (steps, s, ADVISE_ORDER, g_strdup_printf ("issue order, %s", how), &before, best);
    }
  if (!options->fixed_connections && s->profile->max_connections > 1)
    {
      config_copy (&before, best, s);
      guint was = connections_in_force (s, best);
      if (search_connections (s, best))
        {
          step_add (steps, s, ADVISE_CONNECTIONS,
                    g_strdup_printf ("CUDA_DEVICE_MAX_CONNECTIONS=%u (was %u)", best->connections,
                                     was),
                    &before, best);
          if (!options->fixed_order)
            {
              config_copy (&before, best, s);
              const char *how = search_order (s, best);
              if (best->makespan < before.makespan)
                step_add (steps, s, ADVISE_ORDER,
                          g_strdup_printf ("issue order for %u connections, %s",
                                           best->connections, how),
                          &before, best);
            }
        }
    }
  /* priorities came with compute capability 3.5, as did more connections */
  if (!options->fixed_priorities && s->profile->max_connections > 1)
    {
      config_copy (&before, best, s);
      if (search_priorities (s, best))
        step_add (steps, s, ADVISE_PRIORITIES, priorities_text (s, best), &before, best);
    }
  if (!options->fixed_pool)
    {
      config_copy (&before, best, s);
      if (search_pool (s, best))
        {
          g_autofree char *now = units_format_size (best->pool_threshold);
          g_autofree char *was = units_format_size (before.pool_threshold);
          step_add (steps, s, ADVISE_POOL,
                    g_strdup_printf ("the default memory pool's release threshold "
                                     "(cudaMemPoolAttrReleaseThreshold, `pool_threshold`) %s "
                                     "(was %s): no synchronize gives back what a later "
                                     "cudaMallocAsync would grow the pool for again", now, was),
                    &before, best);
        }
    }
  config_clear (&before);
}

/* A copy of the search's schedule as `c` issues it. */
static Schedule *
schedule_of (const Search *s, const Config *c)
{
  Schedule *sched = schedule_copy (s->sched);
  schedule_set_order (sched, c->order);
  for (guint k = 0; k < s->n_streams; k++)
    schedule_set_stream_priority (sched, k, c->priority[k]);
  if (c->connections != 0)
    schedule_set_connections (sched, c->connections);
  schedule_set_pool_threshold (sched, c->pool_threshold);
  return sched;
}

/* A run of `sched`, which passed the checks as the program did. */
static EngSim *
run_kept (const Search *s, const Schedule *sched, guint connections)
{
  EngSim *sim = eng_sim_new (s->profile, sched, connections, NULL);
  g_assert (sim != NULL);
  eng_sim_run (sim);
  return sim;
}

static SimTime
run_once (const Search *s, const Schedule *sched, guint connections)
{
  g_autoptr (EngSim) sim = run_kept (s, sched, connections);
  return eng_sim_makespan (sim);
}

static gboolean
worth_telling (SimTime makespan, SimTime after)
{
  return (double) (makespan - after) >= MIN_HINT_GAIN * (double) makespan;
}

/* Pins every pageable copy of sched; returns how many there were. */
static guint
pin_pageable (Schedule *sched)
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

static char *
pinned_text (guint pageable)
{
  return g_strdup_printf ("pinned host memory (cudaMallocHost, cudaHostRegister) for the %u "
                          "pageable cop%s", pageable, pageable == 1 ? "y" : "ies");
}

/* The changes of meaning worth telling: pinned memory, and syncs left out. */
static void
add_hints (Advice *advice, const Search *s, const Config *best)
{
  g_autoptr (Schedule) sched = schedule_of (s, best);
  guint pageable = pin_pageable (sched);
  if (pageable > 0)
    {
      AdviseHint hint = { pinned_text (pageable), run_once (s, sched, best->connections) };
      if (worth_telling (best->makespan, hint.after))
        g_array_append_val (advice->hints, hint);
      else
        g_free (hint.text);
    }

  GArray *syncs = g_array_new (FALSE, FALSE, sizeof (AdviseHint));
  guint tried = 0;
  g_autoptr (Schedule) advised = schedule_of (s, best);
  for (gsize i = 0; i + 1 < s->n && tried < MAX_SYNC_HINTS_TRIED; i++)
    {
      const SchedOp *op = schedule_op (advised, i);
      if (op->kind < SCHED_OP_SYNC_STREAM || op->kind > SCHED_OP_SYNC_DEVICE)
        continue;
      tried++;
      g_autoptr (Schedule) fewer = schedule_of (s, best);
      schedule_remove_op (fewer, i);
      AdviseHint hint = { NULL, run_once (s, fewer, best->connections) };
      if (!worth_telling (best->makespan, hint.after))
        continue;
      const char *what = op->kind == SCHED_OP_SYNC_DEVICE ? "device"
                         : op->kind == SCHED_OP_SYNC_STREAM
                           ? schedule_stream (advised, op->stream)->name
                           : schedule_event_name (advised, op->event);
      hint.text = g_strdup_printf ("leave out `sync %s` (line %u), if nothing after it needs "
                                   "what it waits for",
                                   what, op->line);
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

typedef struct
{
  const Schedule *sched;
  const guint32 *order;
  gsize n;
} Labels;

/* The label of the op at position `op` of an order (OpLabelFunc). */
static const char *
label_at (guint32 op, gconstpointer data)
{
  const Labels *labels = data;
  return op < labels->n ? schedule_op (labels->sched, labels->order[op])->label : NULL;
}

static gboolean
is_identity (const guint32 *order, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (order[i] != i)
      return FALSE;
  return TRUE;
}

/* For the step with the largest gain, the op whose wait shrank most: "op 9
 * d2h-1 (line 20) waited 5 ms for ...; after it, 1.8 ms". */
static char *
explain_step (Search *s, const Step *step)
{
  Config before, after;
  config_init (&before, s);
  config_init (&after, s);
  config_copy (&before, &step->before, s);
  config_copy (&after, &step->after, s);
  /* each run on its own copy: the cause's words read the run's schedule */
  g_autoptr (Schedule) sched_before = schedule_of (s, &before);
  g_autoptr (Schedule) sched_after = schedule_of (s, &after);
  g_autoptr (EngSim) sim_before = run_kept (s, sched_before, before.connections);
  g_autofree SimTime *wait_before = g_new (SimTime, MAX (s->n, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (s->n, 1));
  const EngOpResult *rb = eng_sim_results (sim_before);
  for (gsize p = 0; p < s->n; p++)
    {
      wait_before[before.order[p]] = waited (&rb[p]);
      position[before.order[p]] = (guint32) p;
    }
  g_autoptr (EngSim) sim_after = run_kept (s, sched_after, after.connections);
  const EngOpResult *ra = eng_sim_results (sim_after);
  guint32 op = G_MAXUINT32;
  SimTime drop = 0, wait_after = 0;
  for (gsize p = 0; p < s->n; p++)
    {
      guint32 o = after.order[p];
      if (wait_before[o] - waited (&ra[p]) > drop)
        {
          drop = wait_before[o] - waited (&ra[p]);
          op = o;
          wait_after = waited (&ra[p]);
        }
    }
  char *text = NULL;
  if (op != G_MAXUINT32)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      g_autoptr (GString) cause = g_string_new (NULL);
      cause_text_append (sim_before, position[op], cause);
      Labels labels = { s->sched, before.order, s->n };
      g_autofree char *named = op_name_in_text (cause->str, label_at, &labels);
      g_autofree char *was = units_format_time (wait_before[op]);
      g_autofree char *now = units_format_time (wait_after);
      const SchedOp *o = schedule_op (s->sched, op);
      g_string_append_printf (out, "%s: ", step->text);
      op_name_append (out, op, o->label);
      g_string_append_printf (out, " (line %u) waited %s for %s%s; after it, %s", o->line, was,
                              named,
                              is_identity (before.order, s->n)
                                ? "" : " (op numbers of the issue order before the change)",
                              now);
      text = g_string_free (g_steal_pointer (&out), FALSE);
    }
  config_clear (&before);
  config_clear (&after);
  return text;
}

Advice *
advise_run (const char *schedule_path, const AdviseOptions *options, GError **error)
{
  g_return_val_if_fail (schedule_path != NULL && options != NULL, NULL);
  PredictionOptions prediction = { options->device, options->connections, options->defines, 0,
                                   PREDICTION_HOST_OWN };
  Schedule *original = NULL;
  GpuProfile profile;
  if (!prediction_prepare (schedule_path, &prediction, &original, &profile, NULL, error))
    return NULL;
  /* Its orders keep one thread's calls in order and move them past one
   * another; calls of several threads would need rules between threads.
   * Such a schedule keeps its order, and the settings are searched. */
  AdviseOptions kept = *options;
  gboolean keep_order = schedule_n_threads (original) > 1 && !options->fixed_order;
  kept.fixed_order = options->fixed_order || keep_order;
  options = &kept;
  g_autoptr (GError) check = NULL;
  g_autoptr (EngSim) checked = eng_sim_new (&profile, original, options->connections, &check);
  if (checked == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&check));
      schedule_free (original);
      gpu_profile_clear (&profile);
      return NULL;
    }
  eng_sim_run (checked);

  Advice *advice = g_new0 (Advice, 1);
  advice->device = g_strdup (gpu_profile_name (&profile));
  advice->original = original;
  advice->original_connections = options->connections;
  advice->original_makespan = eng_sim_makespan (checked);
  if (keep_order)
    advice->order_kept = g_strdup_printf ("the issue order is kept: the schedule has %u host "
                                          "threads, and orders are searched for one thread's "
                                          "calls only", schedule_n_threads (original));
  advice->changes = g_array_new (FALSE, FALSE, sizeof (AdviseChange));
  advice->hints = g_array_new (FALSE, FALSE, sizeof (AdviseHint));

  /* the values to try: the program's own, or each one `vary` allows */
  g_auto (GStrv) values = NULL;
  g_autofree char *name = NULL;
  if (options->vary != NULL)
    {
      const char *eq = strchr (options->vary, '=');
      gboolean geometric;
      if (eq == NULL || eq == options->vary)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--vary %s: expected NAME=VALUES (1,2,4 or 1..64 or 1..64*2)",
                       options->vary);
          advice_free (advice);
          gpu_profile_clear (&profile);
          return NULL;
        }
      name = g_strndup (options->vary, (gsize) (eq - options->vary));
      values = sweep_expand_values (name, eq + 1, &geometric, error);
      if (values == NULL)
        {
          advice_free (advice);
          gpu_profile_clear (&profile);
          return NULL;
        }
    }

  Search *chosen = NULL;
  Config chosen_best = { 0 };
  GArray *chosen_steps = NULL;
  guint n_values = values != NULL ? g_strv_length (values) : 1;
  for (guint v = 0; v < n_values; v++)
    {
      Schedule *sched = original;
      g_autofree char *define = NULL;
      if (values != NULL)
        {
          define = g_strdup_printf ("%s=%s", name, values[v]);
          GPtrArray *defines = g_ptr_array_new ();
          for (const char *const *d = options->defines; d != NULL && *d != NULL; d++)
            g_ptr_array_add (defines, (gpointer) *d);
          g_ptr_array_add (defines, define);
          g_ptr_array_add (defines, NULL);
          PredictionOptions with = prediction;
          with.defines = (const char *const *) defines->pdata;
          GpuProfile again;
          gboolean ok = prediction_prepare (schedule_path, &with, &sched, &again, NULL, error);
          g_ptr_array_unref (defines);
          if (!ok)
            {
              advice_free (advice);
              gpu_profile_clear (&profile);
              return NULL;
            }
          gpu_profile_clear (&again);
          g_autoptr (EngSim) valid = eng_sim_new (&profile, sched, options->connections, error);
          if (valid == NULL)
            {
              schedule_free (sched);
              advice_free (advice);
              gpu_profile_clear (&profile);
              return NULL;
            }
        }
      guint pinned = 0;
      if (options->pinned)
        {
          Schedule *copy = schedule_copy (sched);
          pinned = pin_pageable (copy);
          if (sched != original)
            schedule_free (sched);
          sched = copy;
        }
      Search *s = search_new (&profile, sched, options);
      GArray *steps = g_array_new (FALSE, FALSE, sizeof (Step));
      g_array_set_clear_func (steps, step_clear);
      Config best;
      program_config (s, options->connections, &best);
      evaluate (s, &best, 1);
      if (values != NULL || pinned > 0)
        {
          /* the value and the pinning, against the program as given */
          Config given;
          program_config (s, options->connections, &given);
          given.makespan = advice->original_makespan;
          g_autofree char *pin = pinned > 0 ? pinned_text (pinned) : NULL;
          if (values != NULL)
            step_add (steps, s, ADVISE_VALUE,
                      g_strdup_printf ("-D %s%s%s", define, pin != NULL ? ", with " : "",
                                       pin != NULL ? pin : ""),
                      &given, &best);
          else
            step_add (steps, s, ADVISE_PINNED, g_steal_pointer (&pin), &given, &best);
          config_clear (&given);
        }
      advise_schedule (s, options, steps, &best);
      advice->candidates += s->evaluated;
      if (chosen == NULL || best.makespan < chosen_best.makespan)
        {
          if (chosen != NULL)
            {
              const Schedule *old = chosen->sched;
              config_clear (&chosen_best);
              g_array_unref (chosen_steps);
              search_free (chosen);
              if (old != original)
                schedule_free ((Schedule *) old);
            }
          chosen = s;
          chosen_best = best;
          chosen_steps = steps;
          g_free (advice->define);
          advice->define = g_steal_pointer (&define);
        }
      else
        {
          config_clear (&best);
          g_array_unref (steps);
          search_free (s);
          if (sched != original)
            schedule_free (sched);
        }
    }

  advice->exhaustive = chosen->exhaustive && !options->fixed_order;
  advice->best_makespan = chosen_best.makespan;
  advice->best_connections = chosen_best.connections;
  advice->best = schedule_of (chosen, &chosen_best);
  advice->has_spread
    = host_spread_makespans (&profile, advice->original, advice->original_connections,
                             advice->spread_original)
      && host_spread_makespans (&profile, advice->best, advice->best_connections,
                                advice->spread_best);
  /* the steps that gained, in order; the value's only when it gained */
  guint largest = G_MAXUINT;
  for (guint i = 0; i < chosen_steps->len; i++)
    {
      Step *step = &g_array_index (chosen_steps, Step, i);
      if (step->after.makespan >= step->before.makespan)
        continue;
      AdviseChange change = { step->kind, g_strdup (step->text), step->before.makespan,
                              step->after.makespan };
      g_array_append_val (advice->changes, change);
      if (step->kind != ADVISE_VALUE && step->kind != ADVISE_PINNED
          && (largest == G_MAXUINT
              || step->before.makespan - step->after.makespan
                   > g_array_index (chosen_steps, Step, largest).before.makespan
                       - g_array_index (chosen_steps, Step, largest).after.makespan))
        largest = i;
    }
  if (largest != G_MAXUINT)
    advice->explain = explain_step (chosen, &g_array_index (chosen_steps, Step, largest));
  add_hints (advice, chosen, &chosen_best);

  const Schedule *searched = chosen->sched;
  config_clear (&chosen_best);
  g_array_unref (chosen_steps);
  search_free (chosen);
  if (searched != original)
    schedule_free ((Schedule *) searched);
  gpu_profile_clear (&profile);
  return advice;
}

void
advice_free (Advice *advice)
{
  if (advice == NULL)
    return;
  g_free (advice->device);
  schedule_free (advice->original);
  schedule_free (advice->best);
  g_free (advice->define);
  for (guint i = 0; i < advice->changes->len; i++)
    g_free (g_array_index (advice->changes, AdviseChange, i).text);
  g_array_unref (advice->changes);
  for (guint i = 0; i < advice->hints->len; i++)
    g_free (g_array_index (advice->hints, AdviseHint, i).text);
  g_array_unref (advice->hints);
  g_free (advice->explain);
  g_free (advice->order_kept);
  g_free (advice);
}

const char *
advice_device (const Advice *advice)
{
  return advice->device;
}

SimTime
advice_original (const Advice *advice)
{
  return advice->original_makespan;
}

SimTime
advice_best (const Advice *advice)
{
  return advice->best_makespan;
}

guint
advice_n_changes (const Advice *advice)
{
  return advice->changes->len;
}

const AdviseChange *
advice_change (const Advice *advice, guint index)
{
  g_return_val_if_fail (index < advice->changes->len, NULL);
  return &g_array_index (advice->changes, AdviseChange, index);
}

guint
advice_n_hints (const Advice *advice)
{
  return advice->hints->len;
}

const AdviseHint *
advice_hint (const Advice *advice, guint index)
{
  g_return_val_if_fail (index < advice->hints->len, NULL);
  return &g_array_index (advice->hints, AdviseHint, index);
}

guint64
advice_candidates (const Advice *advice)
{
  return advice->candidates;
}

gboolean
advice_exhaustive (const Advice *advice)
{
  return advice->exhaustive;
}

const char *
advice_order_kept (const Advice *advice)
{
  return advice->order_kept;
}

const Schedule *
advice_original_schedule (const Advice *advice)
{
  return advice->original;
}

const Schedule *
advice_schedule (const Advice *advice)
{
  return advice->best;
}

guint
advice_original_connections (const Advice *advice)
{
  return advice->original_connections;
}

guint
advice_connections (const Advice *advice)
{
  return advice->best_connections;
}

const char *
advice_define (const Advice *advice)
{
  return advice->define;
}

char *
advice_explain (const Advice *advice)
{
  return g_strdup (advice->explain);
}

gboolean
advice_host_spread (const Advice *advice, SimTime original[2], SimTime best[2])
{
  if (!advice->has_spread)
    return FALSE;
  memcpy (original, advice->spread_original, sizeof advice->spread_original);
  memcpy (best, advice->spread_best, sizeof advice->spread_best);
  return TRUE;
}
