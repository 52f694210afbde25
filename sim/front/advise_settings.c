/* advise_settings.c: the settings' searches, each from the best candidate so far:
 * CUDA_DEVICE_MAX_CONNECTIONS, stream priorities and the default memory pool's release
 * threshold. */
#include "advise_search.h"

guint
advise_connections_in_force (const Search *s, const Config *c)
{
  EngSim *sim = eng_sim_new (s->profile, s->work[0], c->connections, NULL);
  guint n = sim != NULL ? eng_sim_connections (sim) : c->connections;
  eng_sim_free (sim);
  return n;
}

gboolean
advise_search_connections (Search *s, Config *best)
{
  guint max = s->profile->max_connections;
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));
  guint now = advise_connections_in_force (s, best);
  for (guint v = 1; v <= max; v *= 2)
    if (v != now)
      g_array_append_val (values, v);
  guint streams = s->n_streams - 1;
  if (streams >= 1 && streams <= max && (streams & (streams - 1)) != 0 && streams != now)
    g_array_append_val (values, streams);
  Config *configs = g_new (Config, MAX (values->len, 1));
  for (guint i = 0; i < values->len; i++)
    {
      advise_config_init (&configs[i], s);
      advise_config_copy (&configs[i], best, s);
      configs[i].connections = g_array_index (values, guint, i);
    }
  gboolean gained = FALSE;
  if (values->len > 0)
    {
      advise_evaluate (s, configs, values->len);
      gsize f = advise_fastest (configs, values->len);
      if (configs[f].makespan < best->makespan)
        {
          advise_config_copy (best, &configs[f], s);
          gained = TRUE;
        }
    }
  for (guint i = 0; i < values->len; i++)
    advise_config_clear (&configs[i]);
  g_free (configs);
  g_array_unref (values);
  return gained;
}

gboolean
advise_search_priorities (Search *s, Config *best)
{
  guint n = s->n_streams - 1; /* not the legacy default stream */
  if (n < 2)
    return FALSE;
  Config *configs = g_new (Config, n);
  for (guint i = 0; i < n; i++)
    advise_config_init (&configs[i], s);
  gboolean gained = FALSE;
  for (guint round = 0; round < n; round++)
    {
      for (guint i = 0; i < n; i++)
        {
          advise_config_copy (&configs[i], best, s);
          configs[i].priority[i + 1] = best->priority[i + 1] == 0 ? -1 : 0;
        }
      advise_evaluate (s, configs, n);
      gsize f = advise_fastest (configs, n);
      if (configs[f].makespan >= best->makespan)
        break;
      advise_config_copy (best, &configs[f], s);
      gained = TRUE;
    }
  for (guint i = 0; i < n; i++)
    advise_config_clear (&configs[i]);
  g_free (configs);
  return gained;
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

gboolean
advise_search_pool (Search *s, Config *best)
{
  guint64 peak = peak_allocated (s->sched);
  if (peak <= best->pool_threshold)
    return FALSE;
  Config c;
  advise_config_init (&c, s);
  advise_config_copy (&c, best, s);
  c.pool_threshold = peak;
  advise_evaluate (s, &c, 1);
  gboolean gained = c.makespan < best->makespan;
  if (gained)
    advise_config_copy (best, &c, s);
  advise_config_clear (&c);
  return gained;
}
