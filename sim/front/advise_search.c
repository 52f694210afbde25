/* advise_search.c: the search over one parsed schedule (advise_search.h) and its candidates:
 * each simulated on a thread's own copy of the schedule, many at a time, and the fastest
 * chosen the same way for any number of threads. */
#include "advise_search.h"

#include <string.h>
#include "sim/core/schedule_edit.h"

void
advise_config_init (Config *c, const Search *s)
{
  c->order = g_new (guint32, MAX (s->n, 1));
  c->priority = g_new0 (gint, s->n_streams);
  c->connections = 0;
  c->makespan = -1;
}

void
advise_config_copy (Config *dest, const Config *src, const Search *s)
{
  memcpy (dest->order, src->order, s->n * sizeof (guint32));
  memcpy (dest->priority, src->priority, s->n_streams * sizeof (gint));
  dest->connections = src->connections;
  dest->pool_threshold = src->pool_threshold;
  dest->makespan = src->makespan;
}

void
advise_config_clear (Config *c)
{
  g_clear_pointer (&c->order, g_free);
  g_clear_pointer (&c->priority, g_free);
}

EngSim *
advise_simulate (const Search *s, guint job, Config *c, gboolean keep)
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
    advise_simulate (part->s, part->job, &part->configs[i], FALSE);
  return NULL;
}

void
advise_evaluate (Search *s, Config *configs, gsize n)
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

gsize
advise_fastest (const Config *configs, gsize n)
{
  gsize best = 0;
  for (gsize i = 1; i < n; i++)
    if (configs[i].makespan < configs[best].makespan)
      best = i;
  return best;
}

SimTime
advise_waited (const EngOpResult *r)
{
  if (r->cause == ENG_CAUSE_NONE)
    return 0;
  return (r->cause == ENG_CAUSE_SYNC ? r->end : r->start) - r->issue;
}

Search *
advise_search_new (const GpuProfile *profile, const Schedule *sched, const AdviseOptions *options)
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

void
advise_search_free (Search *s)
{
  for (guint j = 0; j < s->jobs; j++)
    schedule_free (s->work[j]);
  g_free (s->work);
  schedule_order_free (s->rules);
  g_rand_free (s->rand);
  g_free (s);
}

void
advise_program_config (const Search *s, guint connections, Config *c)
{
  advise_config_init (c, s);
  for (gsize i = 0; i < s->n; i++)
    c->order[i] = (guint32) i;
  for (guint k = 0; k < s->n_streams; k++)
    c->priority[k] = schedule_stream (s->sched, k)->priority;
  c->connections = connections;
  c->pool_threshold = schedule_pool_threshold (s->sched);
}

Schedule *
advise_schedule_of (const Search *s, const Config *c)
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

EngSim *
advise_run_kept (const Search *s, const Schedule *sched, guint connections)
{
  EngSim *sim = eng_sim_new (s->profile, sched, connections, NULL);
  g_assert (sim != NULL);
  eng_sim_run (sim);
  return sim;
}
