/* schedule_events.c: pass 3's events and synchronization: `record`, `wait`, `sync` (a stream, an event or the device), `poll` and `elapsed`.
 *
 * A file of its own because these statements order streams and the host
 * rather than put work on the GPU, and share the rules of which record an
 * event stands for: one recorded inside a graph serves only that graph, and
 * `elapsed` measures between records of its own host thread. */
#include "schedule_parser.h"
#include "units.h"

gboolean
parser_stmt_record (Parser *p, GError **error)
{
  static const char usage[] = "`record EVENT STREAM [label=NAME]`";
  const Token *t = p->tokens;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_RECORD);
  if (!parser_event_ref (p, &t[1], &op->event, error)
      || !parser_stream_ref (p, &t[2], &op->stream, error)
      || !parser_label_tail (p, 3, op, usage, error))
    return FALSE;
  EventUse *use = &g_array_index (p->event_uses, EventUse, op->event);
  use->graph = p->graph;
  use->record_line = p->lineno;
  return TRUE;
}

/* A record inside a graph joins that graph's streams and nothing else (in
 * stream capture it makes no node): outside, only a record made outside
 * can be waited for, synchronized with or timed; inside, only one made in
 * the same graph. */
static gboolean
parser_event_in_reach (Parser *p, const Token *t, guint32 event, GError **error)
{
  const EventUse *use = &g_array_index (p->event_uses, EventUse, event);
  if (p->graph == 0 && use->graph != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "event '%s' was last recorded inside a graph (line %u), where a record "
                        "only joins the graph's streams; record it again after the graph's `end`",
                        t->s, use->record_line);
  if (p->graph != 0 && use->graph != p->graph)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "event '%s' has no `record` in this graph before this line; inside a "
                        "graph, `wait` joins a stream to work recorded earlier in the same graph, "
                        "as in stream capture", t->s);
  return TRUE;
}

/* The last `record` of the event named by `t` issued so far. */
static gboolean
parser_last_record (Parser *p, const Token *t, guint32 *op, GError **error)
{
  gpointer found = g_hash_table_lookup (p->sched->event_index, t->s);
  if (found != NULL)
    {
      guint32 event = GPOINTER_TO_UINT (found) - 1;
      for (gsize i = p->sched->n_ops; i-- > 0;)
        if (p->sched->ops[i].kind == SCHED_OP_RECORD && p->sched->ops[i].event == event)
          {
            /* Which of two threads' records came first is the run's
             * business, not the file's. */
            if (parser_op_thread (p, i) != p->thread)
              return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                                  "event '%s' was last recorded by thread '%s' (line %u); "
                                  "`elapsed` measures between records of its own thread", t->s,
                                  schedule_thread_name (p->sched, parser_op_thread (p, i)),
                                  p->sched->ops[i].line);
            if (p->graph == 0 && !parser_event_in_reach (p, t, event, error))
              return FALSE;
            *op = (guint32) i;
            return TRUE;
          }
    }
  return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, t->col,
                      "event '%s' has no `record` before this line; `elapsed` measures "
                      "between two recorded events", t->s);
}

/* `elapsed NAME A B`: reported by predict, not an op. */
gboolean
parser_stmt_elapsed (Parser *p, GError **error)
{
  GArray *all = p->sched->elapsed;
  const Token *t = p->tokens;
  SchedElapsed e = { NULL, p->lineno, t[0].col, 0, 0 };

  if (p->n_tokens != 4)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 4 ? t[4].col : t[0].col,
                        "expected `elapsed NAME EVENT_A EVENT_B`: the time from A's record to "
                        "B's, as cudaEventElapsedTime (A, B)");
  if (!parser_is_object_name (t[1].s))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "'%s' is not a name for `elapsed`; names use letters, digits, '_', '.' "
                        "and '-'", t[1].s);
  if (p->elapsed_names == NULL)
    p->elapsed_names = g_hash_table_new (g_str_hash, g_str_equal);
  gpointer line = g_hash_table_lookup (p->elapsed_names, t[1].s);
  if (line != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "elapsed '%s' is given twice; the first is at line %u", t[1].s,
                        GPOINTER_TO_UINT (line));
  if (all->len >= G_MAXUINT32 - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t[1].col, "too many `elapsed`");
  if (!parser_last_record (p, &t[2], &e.from_op, error)
      || !parser_last_record (p, &t[3], &e.to_op, error))
    return FALSE;
  e.name = parser_intern (p, t[1].s);
  g_hash_table_insert (p->elapsed_names, (gpointer) e.name, GUINT_TO_POINTER (p->lineno));
  g_array_append_val (all, e);
  return TRUE;
}

gboolean
parser_stmt_wait (Parser *p, GError **error)
{
  static const char usage[] = "`wait STREAM EVENT [label=NAME]`";
  const Token *t = p->tokens;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_WAIT);
  return parser_stream_ref (p, &t[1], &op->stream, error)
         && parser_event_ref (p, &t[2], &op->event, error)
         && parser_event_in_reach (p, &t[2], op->event, error)
         && parser_label_tail (p, 3, op, usage, error);
}

/* The op of `sync NAME` or `poll NAME`: of the stream NAME if there is one,
 * else of the event NAME; NULL on error. */
static SchedOp *
sync_target (Parser *p, const Token *name, GError **error)
{
  guint32 stream;
  SchedOp *op;

  if (parser_stream_lookup (p, name, &stream))
    {
      op = parser_op (p, SCHED_OP_SYNC_STREAM);
      op->stream = stream;
      return op;
    }
  op = parser_op (p, SCHED_OP_SYNC_EVENT);
  if (!parser_event_ref (p, name, &op->event, error)
      || (p->graph == 0 && !parser_event_in_reach (p, name, op->event, error)))
    return NULL;
  return op;
}

gboolean
parser_stmt_sync (Parser *p, GError **error)
{
  static const char usage[] = "`sync STREAM`, `sync EVENT` or `sync device`, then optionally label=NAME";
  const Token *t = p->tokens;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  /* `device` is reserved: no stream or event has that name */
  if (strcmp (t[1].s, "device") == 0)
    op = parser_op (p, SCHED_OP_SYNC_DEVICE);
  else if ((op = sync_target (p, &t[1], error)) == NULL)
    return FALSE;
  return parser_label_tail (p, 2, op, usage, error);
}

/* `poll NAME [every=TIME]`: the host queries the stream or event until its
 * work is done, doing TIME of its own work between two queries. */
gboolean
parser_stmt_poll (Parser *p, GError **error)
{
  static const char usage[] = "`poll STREAM` or `poll EVENT`, then optionally every=TIME and label=NAME";
  const Token *t = p->tokens;
  gboolean every_seen = FALSE;
  const char *why;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  if (strcmp (t[1].s, "device") == 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "CUDA has no query of the whole device: poll a stream or an event, "
                        "or write `sync device`");
  if ((op = sync_target (p, &t[1], error)) == NULL)
    return FALSE;
  op->poll = 1;
  for (guint i = 2; i < p->n_tokens; i++)
    {
      const Token *tk = &t[i];
      const char *every = TOKEN_ATTR (tk, "every");
      if (every == NULL)
        {
          const char *label = TOKEN_ATTR (tk, "label");
          if (label == NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, tk->col,
                                "unexpected '%s'; expected %s", tk->s, usage);
          if (!parser_label (p, tk, label, op, error))
            return FALSE;
          continue;
        }
      if (every_seen)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, tk->col, "every= is given twice");
      every_seen = TRUE;
      if (!units_parse_time (every, &op->u.duration, &why))
        return parser_fail (p, error, parser_why_code (why), tk->col, "bad time every=%s: %s",
                            every, why);
    }
  return TRUE;
}
