/* advise.c: `streamsim advise` (advise.h): the searches run in their order on the program
 * as given and on each `vary` value, the best of them kept, and the Advice that holds it.
 * advise_search.h says which file holds each search. */
#include "advise.h"

#include <string.h>
#include "advise_search.h"
#include "host_spread.h"
#include "prediction.h"
#include "sweep.h"
#include "sim/core/schedule_edit.h"
#include "sim/formats/units.h"

static void
step_add (GArray *steps, const Search *s, AdviseChangeKind kind, char *text, const Config *before,
          const Config *after)
{
  Step step = { kind, text, { 0 }, { 0 } };
  advise_config_init (&step.before, s);
  advise_config_init (&step.after, s);
  advise_config_copy (&step.before, before, s);
  advise_config_copy (&step.after, after, s);
  g_array_append_val (steps, step);
}

static void
step_clear (gpointer data)
{
  Step *step = data;
  g_free (step->text);
  advise_config_clear (&step->before);
  advise_config_clear (&step->after);
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

/* Frees a search with its best config and steps, and its schedule where that
 * is not `original` (a `vary` value's, or a pinned copy); nothing for NULL. */
static void
drop_search (Search *s, Config *best, GArray *steps, const Schedule *original)
{
  if (s == NULL)
    return;
  const Schedule *sched = s->sched;
  advise_config_clear (best);
  g_array_unref (steps);
  advise_search_free (s);
  if (sched != original)
    schedule_free ((Schedule *) sched);
}

/* Every search for one parsed schedule, from the program's own config;
 * appends the steps that gained and leaves the best in *best. */
static void
advise_schedule (Search *s, const AdviseOptions *options, GArray *steps, Config *best)
{
  Config before;
  advise_config_init (&before, s);
  if (!options->fixed_order)
    {
      advise_config_copy (&before, best, s);
      const char *how = advise_search_order (s, best);
      if (best->makespan < before.makespan)
        step_add (steps, s, ADVISE_ORDER, g_strdup_printf ("issue order, %s", how), &before, best);
    }
  if (!options->fixed_connections && s->profile->max_connections > 1)
    {
      advise_config_copy (&before, best, s);
      guint was = advise_connections_in_force (s, best);
      if (advise_search_connections (s, best))
        {
          step_add (steps, s, ADVISE_CONNECTIONS,
                    g_strdup_printf ("CUDA_DEVICE_MAX_CONNECTIONS=%u (was %u)", best->connections,
                                     was),
                    &before, best);
          if (!options->fixed_order)
            {
              advise_config_copy (&before, best, s);
              const char *how = advise_search_order (s, best);
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
      advise_config_copy (&before, best, s);
      if (advise_search_priorities (s, best))
        step_add (steps, s, ADVISE_PRIORITIES, priorities_text (s, best), &before, best);
    }
  if (!options->fixed_pool)
    {
      advise_config_copy (&before, best, s);
      if (advise_search_pool (s, best))
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
  advise_config_clear (&before);
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
              drop_search (chosen, &chosen_best, chosen_steps, original);
              advice_free (advice);
              gpu_profile_clear (&profile);
              return NULL;
            }
          gpu_profile_clear (&again);
          g_autoptr (EngSim) valid = eng_sim_new (&profile, sched, options->connections, error);
          if (valid == NULL)
            {
              schedule_free (sched);
              drop_search (chosen, &chosen_best, chosen_steps, original);
              advice_free (advice);
              gpu_profile_clear (&profile);
              return NULL;
            }
        }
      guint pinned = 0;
      if (options->pinned)
        {
          Schedule *copy = schedule_copy (sched);
          pinned = advise_pin_pageable (copy);
          if (sched != original)
            schedule_free (sched);
          sched = copy;
        }
      Search *s = advise_search_new (&profile, sched, options);
      GArray *steps = g_array_new (FALSE, FALSE, sizeof (Step));
      g_array_set_clear_func (steps, step_clear);
      Config best;
      advise_program_config (s, options->connections, &best);
      advise_evaluate (s, &best, 1);
      if (values != NULL || pinned > 0)
        {
          /* the value and the pinning, against the program as given */
          Config given;
          advise_program_config (s, options->connections, &given);
          given.makespan = advice->original_makespan;
          g_autofree char *pin = pinned > 0 ? advise_pinned_text (pinned) : NULL;
          if (values != NULL)
            step_add (steps, s, ADVISE_VALUE,
                      g_strdup_printf ("-D %s%s%s", define, pin != NULL ? ", with " : "",
                                       pin != NULL ? pin : ""),
                      &given, &best);
          else
            step_add (steps, s, ADVISE_PINNED, g_steal_pointer (&pin), &given, &best);
          advise_config_clear (&given);
        }
      advise_schedule (s, options, steps, &best);
      advice->candidates += s->evaluated;
      if (chosen == NULL || best.makespan < chosen_best.makespan)
        {
          drop_search (chosen, &chosen_best, chosen_steps, original);
          chosen = s;
          chosen_best = best;
          chosen_steps = steps;
          g_free (advice->define);
          advice->define = g_steal_pointer (&define);
        }
      else
        drop_search (s, &best, steps, original);
    }

  advice->exhaustive = chosen->exhaustive && !options->fixed_order;
  advice->best_makespan = chosen_best.makespan;
  advice->best_connections = chosen_best.connections;
  advice->best = advise_schedule_of (chosen, &chosen_best);
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
    advice->explain = advise_explain_step (chosen, &g_array_index (chosen_steps, Step, largest));
  advise_add_hints (advice, chosen, &chosen_best);

  const Schedule *searched = chosen->sched;
  advise_config_clear (&chosen_best);
  g_array_unref (chosen_steps);
  advise_search_free (chosen);
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
