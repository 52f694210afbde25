/* advise_explain.c: the explanation of a change (`advise --explain`): the op whose wait
 * it shrank the most, what that op waited for before it and how long, and after it. */
#include "advise_search.h"

#include "cause_text.h"
#include "op_name.h"
#include "sim/formats/units.h"

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

/* The op at position `op` of an order, as the file numbers it (OpNumberFunc). */
static guint32
number_at (guint32 op, gconstpointer data)
{
  const Labels *labels = data;
  return op < labels->n ? labels->order[op] : op;
}

char *
advise_explain_step (Search *s, const Step *step)
{
  Config before, after;
  advise_config_init (&before, s);
  advise_config_init (&after, s);
  advise_config_copy (&before, &step->before, s);
  advise_config_copy (&after, &step->after, s);
  /* each run on its own copy: the cause's words read the run's schedule */
  g_autoptr (Schedule) sched_before = advise_schedule_of (s, &before);
  g_autoptr (Schedule) sched_after = advise_schedule_of (s, &after);
  g_autoptr (EngSim) sim_before = advise_run_kept (s, sched_before, before.connections);
  g_autofree SimTime *wait_before = g_new (SimTime, MAX (s->n, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (s->n, 1));
  const EngOpResult *rb = eng_sim_results (sim_before);
  for (gsize p = 0; p < s->n; p++)
    {
      wait_before[before.order[p]] = advise_waited (&rb[p]);
      position[before.order[p]] = (guint32) p;
    }
  g_autoptr (EngSim) sim_after = advise_run_kept (s, sched_after, after.connections);
  const EngOpResult *ra = eng_sim_results (sim_after);
  guint32 op = G_MAXUINT32;
  SimTime drop = 0, wait_after = 0;
  for (gsize p = 0; p < s->n; p++)
    {
      guint32 o = after.order[p];
      if (wait_before[o] - advise_waited (&ra[p]) > drop)
        {
          drop = wait_before[o] - advise_waited (&ra[p]);
          op = o;
          wait_after = advise_waited (&ra[p]);
        }
    }
  char *text = NULL;
  if (op != G_MAXUINT32)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      g_autoptr (GString) cause = g_string_new (NULL);
      cause_text_append (sim_before, position[op], cause);
      Labels labels = { s->sched, before.order, s->n };
      g_autofree char *named = op_name_in_text_as (cause->str, number_at, label_at, &labels);
      g_autofree char *was = units_format_time (wait_before[op]);
      g_autofree char *now = units_format_time (wait_after);
      const SchedOp *o = schedule_op (s->sched, op);
      g_string_append_printf (out, "%s: ", step->text);
      op_name_append (out, op, o->label);
      g_string_append_printf (out, " (line %u) waited %s for %s; after it, %s", o->line, was,
                              named, now);
      text = g_string_free (g_steal_pointer (&out), FALSE);
    }
  advise_config_clear (&before);
  advise_config_clear (&after);
  return text;
}
