/* schedule_statement.c: pass 3 of the schedule parser: a statement's keyword sent to the file that reads its kind, and what those files share: names, references to streams and events, labels, whole numbers and sizes.
 *
 * Each kind of statement is read in a file of its own: settings and
 * declarations (schedule_declarations.c), copies (schedule_copies.c),
 * kernels (schedule_kernels.c), events and synchronization
 * (schedule_events.c), device memory (schedule_memory.c), host time
 * (schedule_host.c), graph launches (schedule_graphs.c) and `join`
 * (schedule_threads.c). The helpers here are those several kinds use, so
 * that a stream, an event, a label or a size is read, and refused, in the
 * same words in every statement. */
#include "schedule_parser.h"
#include "units.h"

ScheduleError
parser_why_code (const char *why)
{
  if (g_str_has_prefix (why, "negative") || g_str_has_prefix (why, "too large"))
    return SCHEDULE_ERROR_RANGE;
  return SCHEDULE_ERROR_SYNTAX;
}

gboolean
parser_is_object_name (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '.' && *s != '-')
      return FALSE;
  return TRUE;
}

SchedOp *
parser_op (Parser *p, SchedOpKind kind)
{
  Schedule *sched = p->sched;
  SchedOp *op;

  if (sched->n_ops == p->ops_cap)
    {
      /* Pass 2 counts every op, so this only happens if it miscounted. */
      p->ops_cap = MAX (16, p->ops_cap * 2);
      sched->ops = g_renew (SchedOp, sched->ops, p->ops_cap);
    }
  op = &sched->ops[sched->n_ops++];
  memset (op, 0, sizeof *op);
  op->kind = kind;
  op->line = p->lineno;
  op->column = p->tokens[0].col;
  op->stream = SCHED_NONE;
  op->event = SCHED_NONE;
  return op;
}

const char *
parser_intern (Parser *p, const char *s)
{
  return g_string_chunk_insert_const (p->sched->strings, s);
}

guint
parser_event_line (const Schedule *sched, guint index)
{
  return g_array_index (sched->event_lines, guint32, index);
}

/* Option: a direct-mapped cache of names in front of the table gained 1%
 * end to end (streamsim-bench -n 1e6, 2026-11-27). */
gboolean
parser_stream_lookup (Parser *p, const Token *t, guint32 *index)
{
  gpointer found = g_hash_table_lookup (p->sched->stream_index, t->s);
  if (found == NULL)
    return FALSE;
  *index = GPOINTER_TO_UINT (found) - 1;
  return TRUE;
}

gboolean
parser_stream_ref (Parser *p, const Token *t, guint32 *index, GError **error)
{
  if (parser_stream_lookup (p, t, index))
    return TRUE;
  gpointer found = g_hash_table_lookup (p->sched->event_index, t->s);
  if (found != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, t->col,
                        "'%s' is an event (first used at line %u), not a stream; "
                        "declare streams with `stream NAME`",
                        t->s, parser_event_line (p->sched, GPOINTER_TO_UINT (found) - 1));
  /* the declaration advised below must itself be accepted */
  if (!parser_is_object_name (t->s) || strcmp (t->s, "device") == 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "'%s' is not a stream name; names use letters, digits, '_', '.' and '-', "
                        "and `device` is reserved for `sync device`", t->s);
  return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, t->col,
                      "undefined stream '%s'; declare it with `stream %s` before its first use, "
                      "or use `default`", t->s, t->s);
}

gboolean
parser_event_ref (Parser *p, const Token *t, guint32 *index, GError **error)
{
  Schedule *sched = p->sched;
  gpointer found = g_hash_table_lookup (sched->event_index, t->s);
  const char *name;
  guint32 line;

  if (found != NULL)
    {
      *index = GPOINTER_TO_UINT (found) - 1;
      return TRUE;
    }
  found = g_hash_table_lookup (sched->stream_index, t->s);
  if (found != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t->col,
                        "'%s' is a stream, not an event; streams and events need different names",
                        t->s);
  if (!parser_is_object_name (t->s) || strcmp (t->s, "device") == 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "'%s' is not an event name; names use letters, digits, '_', '.' and '-', "
                        "and `device` is reserved for `sync device`", t->s);
  if (sched->events->len >= G_MAXUINT32 - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t->col, "too many events");
  name = parser_intern (p, t->s);
  line = p->lineno;
  *index = sched->events->len;
  g_ptr_array_add (sched->events, (gpointer) name);
  g_array_append_val (sched->event_lines, line);
  EventUse use = { t->col, 0, 0, 0 };
  g_array_append_val (p->event_uses, use);
  g_hash_table_insert (sched->event_index, (gpointer) name, GUINT_TO_POINTER (*index + 1));
  return TRUE;
}

gboolean
parser_label (Parser *p, const Token *t, const char *value, SchedOp *op, GError **error)
{
  if (op->label != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "label= is given twice; an op has one label");
  if (*value == '"')
    {
      gsize len = strlen (value);
      if (len < 2 || value[len - 1] != '"' || memchr (value + 1, '"', len - 2) != NULL)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                            "a quoted label runs from label=\" to the next '\"', which must end "
                            "the word, as in label=\"my gemm\"");
      ((char *) value)[len - 1] = '\0';
      value++;
    }
  if (*value == '\0')
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "label= needs a name, for example label=upload or label=\"my gemm\"");
  op->label = parser_intern (p, value);
  return TRUE;
}

gboolean
parser_label_tail (Parser *p, guint first, SchedOp *op, const char *usage, GError **error)
{
  for (guint i = first; i < p->n_tokens; i++)
    {
      const Token *t = &p->tokens[i];
      const char *value = TOKEN_ATTR (t, "label");
      if (value == NULL)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                            "unexpected '%s'; expected %s", t->s, usage);
      if (!parser_label (p, t, value, op, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
parser_uint (Parser *p, const Token *t, const char *value, guint64 min, guint64 max,
             const char *what, guint64 *out, GError **error)
{
  const char *why;

  if (*value == '\0')
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "%s has no value; %s takes a whole number, %" G_GUINT64_FORMAT " to %"
                        G_GUINT64_FORMAT, what, what, min, max);
  if (!units_parse_uint (value, G_MAXUINT64, out, &why))
    return parser_fail (p, error, parser_why_code (why), t->col,
                        "%s%s%s: %s; %s takes %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                        what, g_str_has_suffix (what, "=") ? "" : " ", value, why, what, min,
                        max);
  if (*out < min || *out > max)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                        "%s%s%s is out of range; %s takes %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                        what, g_str_has_suffix (what, "=") ? "" : " ", value, what, min, max);
  return TRUE;
}

gboolean
parser_size (Parser *p, const Token *t, guint64 *bytes, GError **error)
{
  const char *why;

  if (!units_parse_size (t->s, bytes, &why))
    return parser_fail (p, error, parser_why_code (why), t->col, "bad size '%s': %s", t->s, why);
  return TRUE;
}

gboolean
parser_statement (Parser *p, GError **error)
{
  const char *kw = p->tokens[0].s;
  const guint kw_len = p->tokens[0].len;
/* The token's length is known, so a keyword is a few compares, not a strcmp. */
#define KW_IS(w) (kw_len == sizeof (w) - 1 && memcmp (kw, w, sizeof (w) - 1) == 0)

  switch (kw[0])
    {
    case 'c':
      if (KW_IS ("connections"))
        return parser_stmt_connections (p, error);
      break;
    case 'd':
      if (KW_IS ("d2h"))
        return parser_stmt_copy (p, SCHED_DIR_D2H, error);
      if (KW_IS ("d2d"))
        return parser_stmt_copy (p, SCHED_DIR_D2D, error);
      if (KW_IS ("device"))
        return parser_stmt_device (p, error);
      if (KW_IS ("device_schedule"))
        return parser_stmt_device_schedule (p, error);
      break;
    case 'e':
      if (KW_IS ("elapsed"))
        return parser_stmt_elapsed (p, error);
      if (KW_IS ("end") || KW_IS ("else"))
        goto structural;
      if (KW_IS ("event"))
        return parser_stmt_event (p, error);
      break;
    case 'f':
      if (KW_IS ("free"))
        return parser_stmt_alloc (p, SCHED_OP_FREE, error);
      break;
    case 'g':
      if (KW_IS ("graph"))
        goto structural;
      break;
    case 'h':
      if (KW_IS ("h2d"))
        return parser_stmt_copy (p, SCHED_DIR_H2D, error);
      if (KW_IS ("host"))
        return parser_stmt_host (p, error);
      if (KW_IS ("hostfn"))
        return parser_stmt_hostfn (p, error);
      break;
    case 'i':
      if (KW_IS ("if"))
        goto structural;
      break;
    case 'j':
      if (KW_IS ("join"))
        return parser_join (p, error);
      break;
    case 'k':
      if (KW_IS ("kernel"))
        return parser_stmt_kernel (p, error);
      break;
    case 'l':
      if (KW_IS ("let"))
        goto structural;
      break;
    case 'm':
      if (KW_IS ("memcpy"))
        return parser_stmt_memcpy (p, error);
      if (KW_IS ("malloc"))
        return parser_stmt_alloc (p, SCHED_OP_MALLOC, error);
      if (KW_IS ("memset"))
        return parser_stmt_memset (p, error);
      break;
    case 'p':
      if (KW_IS ("pool_threshold"))
        return parser_stmt_pool_threshold (p, error);
      if (KW_IS ("poll"))
        return parser_stmt_poll (p, error);
      break;
    case 'r':
      if (KW_IS ("record"))
        return parser_stmt_record (p, error);
      if (KW_IS ("repeat"))
        goto structural;
      break;
    case 's':
      if (KW_IS ("stream"))
        return parser_stmt_stream (p, error);
      if (KW_IS ("sync"))
        return parser_stmt_sync (p, error);
      break;
    case 't':
      if (KW_IS ("thread"))
        goto structural;
      break;
    case 'w':
      if (KW_IS ("wait"))
        return parser_stmt_wait (p, error);
      break;
    default:
      break;
    }
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->tokens[0].col,
                      "unknown statement '%s'; expected one of device, connections, "
                      "pool_threshold, device_schedule, let, stream, event, repeat, if, else, end, graph, thread, "
                      "join, h2d, d2h, d2d, memcpy, memset, malloc, free, kernel, hostfn, record, "
                      "wait, sync, poll, host, elapsed", kw);
structural:
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->tokens[0].col,
                      "`%s` must be written out, not produced by a substitution", kw);
}
#undef KW_IS
