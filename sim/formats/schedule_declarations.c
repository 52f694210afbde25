/* schedule_declarations.c: pass 3's settings and declarations: `device`, `connections`, `pool_threshold` and `device_schedule`, each given at most once, and `stream` and `event`, the names later statements use.
 *
 * A file of its own because none of these statements appends an op: they
 * fill the Schedule's settings and its tables of names, and what they
 * refuse is a setting given twice or a name already taken. */
#include "schedule_parser.h"
#include "sim/core/schedule_edit.h"

gboolean
parser_stmt_device (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;

  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 2 ? t[2].col : t[0].col,
                        "expected `device NAME` with one profile name, for example `device k20`");
  if (!parser_is_object_name (t[1].s))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "'%s' is not a device name; names use letters, digits, '_', '.' and '-'",
                        t[1].s);
  if (sched->device != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[0].col,
                        "`device` is given twice; the first is at line %u", sched->device_line);
  sched->device = parser_intern (p, t[1].s);
  sched->device_line = p->lineno;
  sched->device_column = t[1].col;
  return TRUE;
}

/* A setting of one value that a schedule gives at most once (`first_line`:
 * the line it was given at, 0 while it has not been): `expected` says its
 * form when the statement has not exactly one value. */
static gboolean
parser_setting (Parser *p, guint first_line, const char *expected, GError **error)
{
  const Token *t = p->tokens;
  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 2 ? t[2].col : t[0].col,
                        "expected %s", expected);
  if (first_line != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[0].col,
                        "`%s` is given twice; the first is at line %u", t[0].s, first_line);
  return TRUE;
}

gboolean
parser_stmt_connections (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;
  guint64 n;

  if (!parser_setting (p, sched->connections_line,
                       "`connections N` with N from 1 to 32 (CUDA_DEVICE_MAX_CONNECTIONS)", error))
    return FALSE;
  if (!parser_uint (p, &t[1], t[1].s, 1, 32, "connections", &n, error))
    return FALSE;
  sched->connections = (guint) n;
  sched->connections_line = p->lineno;
  return TRUE;
}

/* `pool_threshold SIZE`: what the default pool keeps at a synchronize. */
gboolean
parser_stmt_pool_threshold (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  if (!parser_setting (p, sched->pool_threshold_line,
                       "`pool_threshold SIZE`: the bytes the default memory pool keeps at a "
                       "synchronize (cudaMemPoolAttrReleaseThreshold; 0 by default)", error))
    return FALSE;
  if (!parser_size (p, &p->tokens[1], &sched->pool_threshold, error))
    return FALSE;
  sched->pool_threshold_line = p->lineno;
  return TRUE;
}

/* `device_schedule auto|spin|yield|blocking_sync`: how the host waits for
 * the GPU (cudaSetDeviceFlags). */
gboolean
parser_stmt_device_schedule (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;
  if (!parser_setting (p, sched->device_schedule_line,
                       "`device_schedule auto|spin|yield|blocking_sync`: how the host waits "
                       "for the GPU (cudaSetDeviceFlags' cudaDeviceSchedule*)", error))
    return FALSE;
  for (guint i = 0; i <= SCHED_SCHEDULE_BLOCKING_SYNC; i++)
    if (strcmp (t[1].s, sched_device_schedule_names[i]) == 0)
      {
        sched->device_schedule = (SchedDeviceSchedule) i;
        sched->device_schedule_line = p->lineno;
        return TRUE;
      }
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                      "unknown device_schedule '%s'; expected auto, spin, yield or blocking_sync "
                      "(cudaDeviceScheduleAuto, ...Spin, ...Yield, ...BlockingSync)", t[1].s);
}

gboolean
parser_stmt_stream (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;
  SchedStream stream = { 0 };
  gpointer found;
  gboolean have_priority = FALSE;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "expected `stream NAME [priority=N] [nonblocking]`");
  if (strcmp (t[1].s, "default") == 0)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "'default' is the legacy default stream, which always exists; "
                        "give this stream another name");
  if (!parser_is_object_name (t[1].s) || strcmp (t[1].s, "device") == 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "'%s' is not a stream name; names use letters, digits, '_', '.' and '-', "
                        "and `device` is reserved for `sync device`", t[1].s);
  found = g_hash_table_lookup (sched->stream_index, t[1].s);
  if (found != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "stream '%s' is declared twice; the first declaration is at line %u",
                        t[1].s, g_array_index (sched->streams, SchedStream,
                                               GPOINTER_TO_UINT (found) - 1).line);
  found = g_hash_table_lookup (sched->event_index, t[1].s);
  if (found != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "'%s' is already an event (first used at line %u); "
                        "streams and events need different names",
                        t[1].s, parser_event_line (sched, GPOINTER_TO_UINT (found) - 1));

  for (guint i = 2; i < p->n_tokens; i++)
    {
      const char *value;
      if (strcmp (t[i].s, "nonblocking") == 0)
        {
          if (stream.nonblocking)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[i].col,
                                "nonblocking is given twice");
          stream.nonblocking = TRUE;
        }
      else if ((value = TOKEN_ATTR (&t[i], "priority")) != NULL)
        {
          gint64 priority;
          gboolean too_large;
          if (have_priority)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[i].col,
                                "priority= is given twice");
          if (!parse_int64 (value, strlen (value), &priority, &too_large))
            return parser_fail (p, error, too_large ? SCHEDULE_ERROR_RANGE : SCHEDULE_ERROR_SYNTAX,
                                t[i].col, "priority=%s: expected an integer from -5 to 0 "
                                "(lower is more urgent)", value);
          if (priority < -5 || priority > 0)
            return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t[i].col,
                                "priority=%s is out of range; priority= takes -5 (most urgent) to 0",
                                value);
          stream.priority = (gint) priority;
          have_priority = TRUE;
        }
      else
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[i].col,
                            "unknown stream attribute '%s'; `stream NAME` takes priority=N "
                            "(-5 to 0, lower is more urgent) and nonblocking", t[i].s);
    }

  if (sched->streams->len >= G_MAXUINT32 - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t[1].col, "too many streams");
  stream.name = parser_intern (p, t[1].s);
  stream.line = p->lineno;
  g_array_append_val (sched->streams, stream);
  g_hash_table_insert (sched->stream_index, (gpointer) stream.name,
                       GUINT_TO_POINTER (sched->streams->len));
  return TRUE;
}

/* `event NAME [blocking_sync]`: an event that may never be recorded, so
 * that a wait or sync on it (a no-op, as in CUDA) is not taken for a typo
 * (schedule_names.c); `blocking_sync`: made with cudaEventBlockingSync, so
 * that a synchronize of it sleeps. */
gboolean
parser_stmt_event (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;
  guint32 index;

  if (p->n_tokens < 2 || p->n_tokens > 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 3 ? t[3].col : t[0].col,
                        "expected `event NAME [blocking_sync]` with one event name, for example "
                        "`event done`");
  if (p->n_tokens == 3 && strcmp (t[2].s, "blocking_sync") != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[2].col,
                        "unknown event attribute '%s'; `event NAME` takes blocking_sync "
                        "(cudaEventBlockingSync)", t[2].s);
  if (!parser_event_ref (p, &t[1], &index, error))
    return FALSE;
  EventUse *use = &g_array_index (p->event_uses, EventUse, index);
  if (use->declared_line != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "event '%s' is declared twice; the first declaration is at line %u",
                        t[1].s, use->declared_line);
  use->declared_line = p->lineno;
  if (p->n_tokens == 3)
    schedule_set_event_blocking_sync (sched, index, TRUE);
  return TRUE;
}
