/* schedule_names.c: after the expansion, the events that waits and syncs name: each recorded somewhere or declared, else refused as a typo with the nearest known name.
 *
 * An event comes into being at its first use, so `wait s2 dnoe` for `done`
 * would otherwise wait on a new event that nothing records, which CUDA
 * treats as done: the schedule would run, and predict an overlap the
 * program does not have. The check runs over the whole expanded schedule
 * rather than at each wait, because a wait may name an event recorded only
 * further down (a loop's first iteration waits on what its last recorded,
 * or the host issues the wait first). A wait or sync on an event that is
 * never recorded is legal CUDA (it does nothing); `event NAME` says it is
 * meant. Streams need no such check: every op but `sync` refuses an
 * undeclared stream where it stands, and a `sync` whose name is no stream
 * names an event, checked here. */
#include "schedule_parser.h"
#include "sim/core/near_name.h"

/* The first op that names event `index`: the one that created it, since
 * events are numbered in the order of their first use. */
static const SchedOp *
first_op_of (const Schedule *sched, guint32 index)
{
  for (gsize i = 0; i < sched->n_ops; i++)
    if ((sched->ops[i].kind == SCHED_OP_WAIT || sched->ops[i].kind == SCHED_OP_SYNC_EVENT)
        && sched->ops[i].event == index)
      return &sched->ops[i];
  return NULL;
}

/* The names `typed` may have been meant as, NULL-ended: the known events,
 * and for a sync also the streams and `device`. The strings are the
 * schedule's. */
static const char **
candidates (const Schedule *sched, const gboolean *known, gboolean sync)
{
  GPtrArray *names = g_ptr_array_new ();
  if (sync)
    {
      for (guint i = 0; i < sched->streams->len; i++)
        g_ptr_array_add (names, (gpointer) g_array_index (sched->streams, SchedStream, i).name);
      g_ptr_array_add (names, (gpointer) "device");
    }
  for (guint i = 0; i < sched->events->len; i++)
    if (known[i])
      g_ptr_array_add (names, g_ptr_array_index (sched->events, i));
  g_ptr_array_add (names, NULL);
  return (const char **) g_ptr_array_free (names, FALSE);
}

/* Whether event a is first used above event b in the file. */
static gboolean
used_above (const Parser *p, guint32 a, guint32 b)
{
  guint line_a = g_array_index (p->sched->event_lines, guint32, a);
  guint line_b = g_array_index (p->sched->event_lines, guint32, b);
  return line_a < line_b
         || (line_a == line_b && g_array_index (p->event_uses, EventUse, a).column
                                   < g_array_index (p->event_uses, EventUse, b).column);
}

gboolean
parser_names_check (Parser *p, GError **error)
{
  const Schedule *sched = p->sched;
  guint n = sched->events->len;
  guint32 worst = G_MAXUINT32;

  if (n == 0)
    return TRUE;
  /* known[i]: event i is recorded or declared */
  g_autofree gboolean *known = g_new0 (gboolean, n);
  for (gsize i = 0; i < sched->n_ops; i++)
    if (sched->ops[i].kind == SCHED_OP_RECORD)
      known[sched->ops[i].event] = TRUE;
  for (guint32 i = 0; i < n; i++)
    {
      if (g_array_index (p->event_uses, EventUse, i).declared_line != 0)
        known[i] = TRUE;
      /* of the unknown, the one first used highest in the file */
      if (!known[i] && (worst == G_MAXUINT32 || used_above (p, i, worst)))
        worst = i;
    }
  if (worst == G_MAXUINT32)
    return TRUE;

  const char *name = g_ptr_array_index (sched->events, worst);
  const SchedOp *op = first_op_of (sched, worst);
  gboolean sync = op != NULL && op->kind == SCHED_OP_SYNC_EVENT;
  g_autofree const char **names = candidates (sched, known, sync);
  const char *near = near_name (name, names);
  g_autofree char *suggestion = near != NULL ? g_strdup_printf ("; did you mean '%s'?", near)
                                             : g_strdup ("");
  p->lineno = g_array_index (sched->event_lines, guint32, worst);
  guint column = g_array_index (p->event_uses, EventUse, worst).column;
  if (sync)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, column,
                        "no stream or recorded event is named '%s'; declare the stream with "
                        "`stream %s` before the sync, or write `event %s` if it is an event "
                        "never recorded (the sync does nothing)%s",
                        name, name, name, suggestion);
  return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, column,
                      "event '%s' is never recorded; record it, or write `event %s` if the wait "
                      "is meant to do nothing (as in CUDA, for an event never recorded)%s",
                      name, name, suggestion);
}
