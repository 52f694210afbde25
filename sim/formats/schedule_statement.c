/* schedule_statement.c: pass 3 of the schedule parser: one statement's tokens read into an op, a declaration or a setting of the Schedule. */
#include "schedule_parser.h"
#include "units.h"

/* units.c starts the phrases for well-formed values out of range with
 * "negative" or "too large". */
static ScheduleError
why_code (const char *why)
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

static const char *
parser_intern (Parser *p, const char *s)
{
  return g_string_chunk_insert_const (p->sched->strings, s);
}

static guint
event_line (const Schedule *sched, guint index)
{
  return g_array_index (sched->event_lines, guint32, index);
}

/* Whether `t` names a declared stream, and its index. (A direct-mapped
 * cache of names in front of the table gained 1% end to end: streamsim-bench
 * -n 1e6, 2026-11-27.) */
static gboolean
stream_lookup (Parser *p, const Token *t, guint32 *index)
{
  gpointer found = g_hash_table_lookup (p->sched->stream_index, t->s);
  if (found == NULL)
    return FALSE;
  *index = GPOINTER_TO_UINT (found) - 1;
  return TRUE;
}

static gboolean
parser_stream_ref (Parser *p, const Token *t, guint32 *index, GError **error)
{
  if (stream_lookup (p, t, index))
    return TRUE;
  gpointer found = g_hash_table_lookup (p->sched->event_index, t->s);
  if (found != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, t->col,
                        "'%s' is an event (first used at line %u), not a stream; "
                        "declare streams with `stream NAME`",
                        t->s, event_line (p->sched, GPOINTER_TO_UINT (found) - 1));
  return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, t->col,
                      "undefined stream '%s'; declare it with `stream %s` before its first use, "
                      "or use `default`", t->s, t->s);
}

/* Events come into being at their first use. */
static gboolean
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

/* `key=...`: the value after '=', or NULL. */
static const char *
token_attr (const Token *t, const char *key, gsize key_len)
{
  if (t->len > key_len && t->s[key_len] == '=' && memcmp (t->s, key, key_len) == 0)
    return t->s + key_len + 1;
  return NULL;
}
#define TOKEN_ATTR(t, key) token_attr ((t), key, sizeof (key) - 1)

/* label=NAME, or label="NAME WITH BLANKS" (value points into the line's
 * buffer, where the closing quote is cut off). */
static gboolean
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

/* Tokens from `first` on may only be label=NAME. */
static gboolean
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

static gboolean
parser_uint (Parser *p, const Token *t, const char *value, guint64 min, guint64 max,
             const char *what, guint64 *out, GError **error)
{
  const char *why;

  if (!units_parse_uint (value, G_MAXUINT64, out, &why))
    return parser_fail (p, error, why_code (why), t->col,
                        "%s%s%s: %s; %s takes %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                        what, g_str_has_suffix (what, "=") ? "" : " ", value, why, what, min,
                        max);
  if (*out < min || *out > max)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                        "%s%s%s is out of range; %s takes %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                        what, g_str_has_suffix (what, "=") ? "" : " ", value, what, min, max);
  return TRUE;
}

/* grid= or block= as X, XxY or XxYxZ, CUDA's dim3: each factor within its
 * axis's limit (`axes`, messages naming it by `names`), the product, which
 * is what the model uses, at most `max` `unit`. */
static gboolean
parser_dim (Parser *p, const Token *t, char *value, const guint64 *axes,
            const char *const *names, guint64 max, const char *unit, guint64 *out,
            GError **error)
{
  guint64 product = 1;
  char *s = value;

  for (guint axis = 0;; axis++)
    {
      char *x = strchr (s, 'x');
      guint64 n;

      if (axis == 3)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                            "%s%s has more than three dimensions; write X, XxY or XxYxZ",
                            names[0], value);
      if (x != NULL)
        *x = '\0';
      if (!parser_uint (p, t, s, 1, axes[axis], names[axis], &n, error))
        return FALSE;
      product *= n; /* below 2^31 x 2^16 x 2^16 */
      if (x == NULL)
        break;
      *x = 'x';
      s = x + 1;
    }
  if (product > max)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                        "%s%s is %" G_GUINT64_FORMAT " %s; at most %" G_GUINT64_FORMAT
                        " are allowed", names[0], value, product, unit, max);
  *out = product;
  return TRUE;
}

static gboolean
stmt_device (Parser *p, GError **error)
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

static gboolean
stmt_connections (Parser *p, GError **error)
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

static gboolean parser_size (Parser *p, const Token *t, guint64 *bytes, GError **error);

/* `pool_threshold SIZE`: what the default pool keeps at a synchronize. */
static gboolean
stmt_pool_threshold (Parser *p, GError **error)
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

static gboolean
stmt_stream (Parser *p, GError **error)
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
                        t[1].s, event_line (sched, GPOINTER_TO_UINT (found) - 1));

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

/* `event NAME`: an event that may never be recorded, so that a wait or sync
 * on it (a no-op, as in CUDA) is not taken for a typo (schedule_names.c). */
static gboolean
stmt_event (Parser *p, GError **error)
{
  const Token *t = p->tokens;
  guint32 index;

  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 2 ? t[2].col : t[0].col,
                        "expected `event NAME` with one event name, for example `event done`");
  if (!parser_event_ref (p, &t[1], &index, error))
    return FALSE;
  EventUse *use = &g_array_index (p->event_uses, EventUse, index);
  if (use->declared_line != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "event '%s' is declared twice; the first declaration is at line %u",
                        t[1].s, use->declared_line);
  use->declared_line = p->lineno;
  return TRUE;
}

/* `untouched` and `cached` (the token `t`, NULL when not given) say how a
 * pageable host buffer stands: never on a d2d copy, only with pageable
 * (`why_pageable` says so). */
static gboolean
parser_host_state (Parser *p, const Token *t, const SchedOp *op, const char *why_pageable,
                   GError **error)
{
  if (t == NULL)
    return TRUE;
  if (op->u.copy.dir == SCHED_DIR_D2D)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "%s describes host memory, and a d2d copy touches none", t->s);
  if (!op->u.copy.pageable)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col, "%s needs pageable: %s",
                        t->s, why_pageable);
  return TRUE;
}

/* The optional tokens after a copy's size: pageable or pinned, untouched
 * or untouched=SIZE, huge, cached, rows=N, label=. */
static gboolean
parser_copy_tail (Parser *p, guint first, SchedOp *op, const char *usage, GError **error)
{
  gboolean have_memory = FALSE;
  const Token *untouched = NULL;
  const Token *cached = NULL;
  const Token *huge = NULL;
  const Token *rows = NULL;

  for (guint i = first; i < p->n_tokens; i++)
    {
      const Token *t = &p->tokens[i];
      const char *value;
      gboolean pageable = strcmp (t->s, "pageable") == 0;

      if (pageable || strcmp (t->s, "pinned") == 0)
        {
          if (have_memory)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                                "give at most one of pageable or pinned");
          op->u.copy.pageable = pageable;
          have_memory = TRUE;
        }
      else if (strcmp (t->s, "untouched") == 0 || (value = TOKEN_ATTR (t, "untouched")) != NULL)
        {
          if (untouched != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                                "untouched is given twice");
          untouched = t;
          op->u.copy.untouched = op->u.copy.bytes;
          if (t->s[strlen ("untouched")] == '=')
            {
              const char *why;
              value = t->s + strlen ("untouched=");
              if (!units_parse_size (value, &op->u.copy.untouched, &why))
                return parser_fail (p, error, why_code (why), t->col, "bad untouched= '%s': %s",
                                    value, why);
              if (op->u.copy.untouched > op->u.copy.bytes)
                return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                                    "untouched=%s is more than the copy's %" G_GUINT64_FORMAT
                                    " bytes; it is the part of the host buffer not yet touched",
                                    value, op->u.copy.bytes);
            }
        }
      else if (strcmp (t->s, "huge") == 0)
        {
          if (huge != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col, "huge is given twice");
          huge = t;
          op->u.copy.huge = TRUE;
        }
      else if (strcmp (t->s, "cached") == 0)
        {
          if (cached != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col, "cached is given twice");
          cached = t;
          op->u.copy.cached = TRUE;
        }
      else if ((value = TOKEN_ATTR (t, "rows")) != NULL)
        {
          guint64 n;
          if (rows != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col, "rows= is given twice");
          rows = t;
          if (!parser_uint (p, t, value, 1, G_MAXUINT32, "rows=", &n, error))
            return FALSE;
          op->u.copy.rows = (guint32) n;
        }
      else if ((value = TOKEN_ATTR (t, "label")) != NULL)
        {
          if (!parser_label (p, t, value, op, error))
            return FALSE;
        }
      else
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                            "unexpected '%s'; expected %s", t->s, usage);
    }

  /* A 2D copy moves rows of one width: SIZE is width x rows. */
  if (rows != NULL && op->u.copy.bytes % op->u.copy.rows != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, rows->col,
                        "the copy's %" G_GUINT64_FORMAT " bytes do not split into %u rows of "
                        "one width; SIZE is the whole copy, its row's width times rows=",
                        op->u.copy.bytes, op->u.copy.rows);
  /* Checked after the loop, so that `untouched pageable` reads as well as
   * `pageable untouched`. */
  if (!parser_host_state (p, untouched, op,
                          "pinned memory is always resident; write `pageable untouched` for "
                          "malloc'ed memory the program has not written yet", error)
      || !parser_host_state (p, cached, op,
                             "it says a pageable buffer is in the CPU's caches; write "
                             "`pageable cached`", error))
    return FALSE;
  if (cached != NULL && untouched != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, cached->col,
                        "cached and untouched contradict each other: memory the program "
                        "has not touched yet is in no cache");
  if (huge != NULL && untouched == NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, huge->col,
                        "huge says how an untouched buffer's pages fault in; write "
                        "`pageable untouched huge`");
  return TRUE;
}

static gboolean
parser_size (Parser *p, const Token *t, guint64 *bytes, GError **error)
{
  const char *why;

  if (!units_parse_size (t->s, bytes, &why))
    return parser_fail (p, error, why_code (why), t->col, "bad size '%s': %s", t->s, why);
  return TRUE;
}

static gboolean
stmt_copy (Parser *p, SchedCopyDir dir, GError **error)
{
  static const char *const usages[] = {
    "`h2d STREAM SIZE [pageable [untouched[=SIZE] [huge]|cached]|pinned] [rows=N] [label=NAME]`",
    "`d2h STREAM SIZE [pageable [untouched[=SIZE] [huge]|cached]|pinned] [rows=N] [label=NAME]`",
    "`d2d STREAM SIZE [pageable|pinned] [rows=N] [label=NAME]`",
  };
  const Token *t = p->tokens;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usages[dir]);
  op = parser_op (p, SCHED_OP_COPY);
  op->u.copy.dir = dir;
  return parser_stream_ref (p, &t[1], &op->stream, error)
         && parser_size (p, &t[2], &op->u.copy.bytes, error)
         && parser_copy_tail (p, 3, op, usages[dir], error);
}

static gboolean
stmt_memcpy (Parser *p, GError **error)
{
  static const char usage[] = "`memcpy h2d|d2h|d2d SIZE [pageable [untouched[=SIZE] [huge]|cached]|pinned] [rows=N] [label=NAME]`";
  const Token *t = p->tokens;
  SchedOp *op;
  SchedCopyDir dir;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  if (strcmp (t[1].s, "h2d") == 0)
    dir = SCHED_DIR_H2D;
  else if (strcmp (t[1].s, "d2h") == 0)
    dir = SCHED_DIR_D2H;
  else if (strcmp (t[1].s, "d2d") == 0)
    dir = SCHED_DIR_D2D;
  else
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "unknown copy direction '%s'; expected h2d, d2h or d2d", t[1].s);
  op = parser_op (p, SCHED_OP_MEMCPY);
  op->stream = SCHED_STREAM_DEFAULT;
  op->u.copy.dir = dir;
  return parser_size (p, &t[2], &op->u.copy.bytes, error)
         && parser_copy_tail (p, 3, op, usage, error);
}

/* One value of grid=, block=, smem= or regs=, checked. */
static gboolean
shape_value (Parser *p, const Token *t, SchedShapeKey key, char *text, guint64 *n, GError **error)
{
  static const guint64 grid_axes[] = { G_MAXINT32, 65535, 65535 };
  static const char *const grid_names[] = { "grid=", "grid= Y", "grid= Z" };
  static const guint64 block_axes[] = { 1024, 1024, 64 };
  static const char *const block_names[] = { "block=", "block= Y", "block= Z" };
  const char *why;

  switch (key)
    {
    case SCHED_SHAPE_GRID:
      return parser_dim (p, t, text, grid_axes, grid_names, G_MAXINT32, "blocks", n, error);
    case SCHED_SHAPE_BLOCK:
      return parser_dim (p, t, text, block_axes, block_names, 1024, "threads", n, error);
    case SCHED_SHAPE_SMEM:
      if (!units_parse_size (text, n, &why))
        return parser_fail (p, error, why_code (why), t->col, "bad smem= '%s': %s", text, why);
      if (*n > G_MAXUINT32)
        return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                            "smem=%s is out of range; shared memory per block must be below 4GiB",
                            text);
      return TRUE;
    case SCHED_SHAPE_REGS:
      return parser_uint (p, t, text, 1, 255, "regs=", n, error);
    }
  g_assert_not_reached ();
}

/* One entry of a per-device list: its device (NULL for the bare entry) and
 * its value's text, `at` the token with the column of that text. */
typedef gboolean (*DeviceEntryFunc) (Parser *p, const Token *at, const char *device, char *text,
                                     gpointer data, GError **error);

/* A per-device list, `key`'s value "dev:VALUE,dev:VALUE,VALUE" (split in
 * place): each entry given to `take` in order, then checked against those
 * before it. An empty entry, a bad device name, two bare entries or a device
 * twice are refused, the messages naming `key` and showing `example`, the
 * device names' `name_hint` and what the bare entry is (`bare`). */
static gboolean
parser_device_list (Parser *p, const Token *t, const char *key, const char *example,
                    const char *name_hint, const char *bare, char *value, DeviceEntryFunc take,
                    gpointer data, GError **error)
{
  g_autoptr (GPtrArray) seen = g_ptr_array_new (); /* each entry's device, NULL if bare */
  char *s = value;
  for (;;)
    {
      char *comma = strchr (s, ',');
      if (comma != NULL)
        *comma = '\0';
      Token entry = *t;
      entry.col = parser_col (p, s);
      if (*s == '\0')
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, entry.col,
                            "empty entry in %s; write %s", key, example);
      const char *device = NULL;
      char *text = s;
      char *colon = strchr (s, ':');
      if (colon != NULL)
        {
          *colon = '\0';
          if (!parser_is_object_name (s))
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, entry.col,
                                "'%s' is not a device name in %s; names use letters, digits, "
                                "'_', '.' and '-'%s", s, key, name_hint);
          device = s;
          text = colon + 1;
          entry.col = parser_col (p, text);
        }
      if (!take (p, &entry, device, text, data, error))
        return FALSE;
      for (guint i = 0; i < seen->len; i++)
        {
          const char *other = g_ptr_array_index (seen, i);
          if (device == NULL && other == NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, parser_col (p, s),
                                "%s has two entries without a device; give at most one %s", key,
                                bare);
          if (device != NULL && other != NULL && strcmp (device, other) == 0)
            return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, parser_col (p, s),
                                "device '%s' appears twice in %s", device, key);
        }
      g_ptr_array_add (seen, (gpointer) device);
      if (comma == NULL)
        return TRUE;
      s = comma + 1;
    }
}

typedef struct
{
  SchedOp *op;
  SchedShapeKey key;
} ShapeList;

/* An entry of grid=, block=, smem= or regs=: to Schedule.shapes, and the
 * bare one also the kernel's. */
static gboolean
take_shape (Parser *p, const Token *at, const char *device, char *text, gpointer data,
            GError **error)
{
  const ShapeList *list = data;
  guint64 n;
  if (!shape_value (p, at, list->key, text, &n, error))
    return FALSE;
  SchedDeviceShape shape = { (guint32) (list->op - p->sched->ops), list->key,
                             device != NULL ? parser_intern (p, device) : NULL, (guint32) n };
  if (device == NULL)
    sched_kernel_set_shape (&list->op->u.kernel, list->key, shape.value);
  g_array_append_val (p->sched->shapes, shape);
  return TRUE;
}

/* grid=, block=, smem= or regs=: one value, or a list of per-device values
 * with at most one bare value, as time= (`grid=k20:26,h100:132,64`). A
 * list's entries go to Schedule.shapes, for schedule_select_device; the
 * bare value, if any, is also the kernel's until then. */
static gboolean
parser_shape (Parser *p, const Token *t, SchedShapeKey key, char *value, SchedOp *op,
              GError **error)
{
  guint64 n;
  if (strchr (value, ':') == NULL)
    {
      if (!shape_value (p, t, key, value, &n, error))
        return FALSE;
      sched_kernel_set_shape (&op->u.kernel, key, (guint32) n);
      return TRUE;
    }
  ShapeList list = { op, key };
  g_autofree char *example = g_strdup_printf ("%sk20:VALUE,h100:VALUE,VALUE",
                                              sched_shape_keys[key]);
  return parser_device_list (p, t, sched_shape_keys[key], example, "", "bare value", value,
                             take_shape, &list, error);
}

/* An entry of time=: to Schedule.times, counted in the list's n. */
static gboolean
take_time (Parser *p, const Token *at, const char *device, char *text, gpointer data,
           GError **error)
{
  ScheduleTimeList *list = data;
  SchedDeviceTime entry = { device != NULL ? parser_intern (p, device) : NULL, 0 };
  const char *why;
  if (!units_parse_time (text, &entry.time, &why))
    return parser_fail (p, error, why_code (why), at->col, "bad time '%s' in time=: %s", text, why);
  g_array_append_val (p->sched->times, entry);
  list->n++;
  return TRUE;
}

/* time=2ms, or time=c1060:4.3ms,k20:0.4ms,1ms (a bare entry is the fallback). */
static gboolean
parser_time_list (Parser *p, const Token *t, char *value, guint32 *index, GError **error)
{
  Schedule *sched = p->sched;

  if (p->have_last_times && strcmp (value, p->last_times) == 0)
    {
      *index = p->last_times_index;
      return TRUE;
    }
  gpointer seen = g_hash_table_lookup (p->time_lists, value);
  if (seen != NULL)
    {
      *index = GPOINTER_TO_UINT (seen) - 1;
      strcpy (p->last_times, value);
      p->last_times_index = *index;
      p->have_last_times = TRUE;
      return TRUE;
    }
  p->have_last_times = FALSE;
  strcpy (p->last_times, value);
  if (sched->time_lists->len >= G_MAXUINT32 - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t->col, "too many time= lists");

  ScheduleTimeList list = { .first = sched->times->len, .n = 0 };
  if (!parser_device_list (p, t, "time=", "time=2ms or time=k20:0.4ms,c2050:1.1ms,2ms",
                           ", as in time=k20:0.4ms", "fallback time", value, take_time, &list,
                           error))
    return FALSE;
  *index = sched->time_lists->len;
  g_array_append_val (sched->time_lists, list);
  p->last_times_index = *index;
  p->have_last_times = TRUE;
  g_hash_table_insert (p->time_lists, g_strdup (p->last_times), GUINT_TO_POINTER (*index + 1));
  return TRUE;
}

static gboolean
stmt_kernel (Parser *p, GError **error)
{
  static const char attrs[] =
    "kernel takes grid=BLOCKS, block=THREADS, time=TIME or block_time=TIME, "
    "and optionally smem=SIZE, regs=N, label=NAME and loads";
  const Token *t = p->tokens;
  const Token *timing = NULL;
  gboolean have_shape[4] = { FALSE, FALSE, FALSE, FALSE };
  SchedKernel *k;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "expected `kernel STREAM grid=BLOCKS block=THREADS time=TIME`; %s", attrs);
  op = parser_op (p, SCHED_OP_KERNEL);
  k = &op->u.kernel;
  k->block_time = -1;
  k->times = SCHED_NONE;
  if (!parser_stream_ref (p, &t[1], &op->stream, error))
    return FALSE;

  for (guint i = 2; i < p->n_tokens; i++)
    {
      const Token *a = &p->tokens[i];
      char *eq = strchr (a->s, '=');
      char *value;
      gsize key_len;

      if (eq == NULL && strcmp (a->s, "loads") == 0)
        {
          if (k->loads)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col, "loads is given twice");
          k->loads = TRUE;
          continue;
        }
      if (eq == NULL)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                            "unexpected '%s'; %s", a->s, attrs);
      key_len = eq - a->s;
      value = eq + 1;
#define KEY_IS(key) (key_len == sizeof (key) - 1 && memcmp (a->s, key, key_len) == 0)
      if (KEY_IS ("grid") || KEY_IS ("block") || KEY_IS ("smem") || KEY_IS ("regs"))
        {
          SchedShapeKey key = KEY_IS ("grid") ? SCHED_SHAPE_GRID
                            : KEY_IS ("block") ? SCHED_SHAPE_BLOCK
                            : KEY_IS ("smem") ? SCHED_SHAPE_SMEM
                                              : SCHED_SHAPE_REGS;
          if (have_shape[key])
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col, "%s is given twice",
                                sched_shape_keys[key]);
          have_shape[key] = TRUE;
          if (!parser_shape (p, a, key, value, op, error))
            return FALSE;
        }
      else if (KEY_IS ("time") || KEY_IS ("block_time"))
        {
          gboolean per_block = KEY_IS ("block_time");
          if (timing != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                                "give exactly one of time= or block_time=");
          timing = a;
          if (per_block)
            {
              const char *why;
              if (!units_parse_time (value, &k->block_time, &why))
                return parser_fail (p, error, why_code (why), a->col, "bad block_time= '%s': %s",
                                    value, why);
            }
          else if (!parser_time_list (p, a, value, &k->times, error))
            return FALSE;
        }
      else if (KEY_IS ("label"))
        {
          if (!parser_label (p, a, value, op, error))
            return FALSE;
        }
      else
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                            "unknown kernel attribute '%.*s'; %s", (int) key_len, a->s, attrs);
#undef KEY_IS
    }
  if (!have_shape[SCHED_SHAPE_GRID])
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "kernel needs grid=BLOCKS (1 to 2147483647)");
  if (!have_shape[SCHED_SHAPE_BLOCK])
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "kernel needs block=THREADS (1 to 1024)");
  if (timing == NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "give exactly one of time= or block_time=");
  return TRUE;
}

static gboolean
stmt_record (Parser *p, GError **error)
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
static gboolean
stmt_elapsed (Parser *p, GError **error)
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

static gboolean
stmt_wait (Parser *p, GError **error)
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

/* `sync NAME` means the stream NAME if there is one, else the event NAME. */
static gboolean
stmt_sync (Parser *p, GError **error)
{
  static const char usage[] = "`sync STREAM`, `sync EVENT` or `sync device`, then optionally label=NAME";
  const Token *t = p->tokens;
  guint32 stream;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  /* `device` is reserved: no stream or event has that name */
  if (strcmp (t[1].s, "device") == 0)
    op = parser_op (p, SCHED_OP_SYNC_DEVICE);
  else if (stream_lookup (p, &t[1], &stream))
    {
      op = parser_op (p, SCHED_OP_SYNC_STREAM);
      op->stream = stream;
    }
  else
    {
      op = parser_op (p, SCHED_OP_SYNC_EVENT);
      if (!parser_event_ref (p, &t[1], &op->event, error)
          || (p->graph == 0 && !parser_event_in_reach (p, &t[1], op->event, error)))
        return FALSE;
    }
  return parser_label_tail (p, 2, op, usage, error);
}

static gboolean
stmt_memset (Parser *p, GError **error)
{
  static const char usage[] = "`memset STREAM SIZE [label=NAME]`";
  const Token *t = p->tokens;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_MEMSET);
  return parser_stream_ref (p, &t[1], &op->stream, error)
         && parser_size (p, &t[2], &op->u.bytes, error)
         && parser_label_tail (p, 3, op, usage, error);
}

/* `malloc STREAM SIZE` and `free STREAM SIZE`: stream-ordered allocation
 * from the device's default pool (cudaMallocAsync, cudaFreeAsync; `free`
 * names the size of the allocation it gives back). */
static gboolean
stmt_alloc (Parser *p, SchedOpKind kind, GError **error)
{
  const char *usage = kind == SCHED_OP_MALLOC ? "`malloc STREAM SIZE [label=NAME]`"
                                              : "`free STREAM SIZE [label=NAME]`, SIZE the allocation's";
  const Token *t = p->tokens;
  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  SchedOp *op = parser_op (p, kind);
  return parser_stream_ref (p, &t[1], &op->stream, error)
         && parser_size (p, &t[2], &op->u.bytes, error)
         && parser_label_tail (p, 3, op, usage, error);
}

static gboolean
stmt_hostfn (Parser *p, GError **error)
{
  static const char usage[] = "`hostfn STREAM TIME [label=NAME]`";
  const Token *t = p->tokens;
  const char *why;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_HOSTFN);
  if (!parser_stream_ref (p, &t[1], &op->stream, error))
    return FALSE;
  if (!units_parse_time (t[2].s, &op->u.duration, &why))
    return parser_fail (p, error, why_code (why), t[2].col, "bad time '%s': %s", t[2].s, why);
  return parser_label_tail (p, 3, op, usage, error);
}

static gboolean
stmt_host (Parser *p, GError **error)
{
  static const char usage[] = "`host TIME [label=NAME]`";
  const Token *t = p->tokens;
  const char *why;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_HOST);
  if (!units_parse_time (t[1].s, &op->u.duration, &why))
    return parser_fail (p, error, why_code (why), t[1].col, "bad time '%s': %s", t[1].s, why);
  return parser_label_tail (p, 2, op, usage, error);
}

/* ---- Graph launches ---- */

static const char graph_usage[] = "`graph STREAM`, the graph's kernels, memsets, copies and host "
                                  "functions, one a line, then `end`";

gboolean
parser_graph_open (Parser *p, GError **error)
{
  const Token *t = p->tokens;
  if (p->graph != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "a graph inside a graph; graphs do not nest (a child graph's nodes "
                        "are written in its parent)");
  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX,
                        p->n_tokens < 2 ? t[0].col : t[2].col, "expected %s", graph_usage);
  if (!parser_stream_ref (p, &t[1], &p->graph_stream, error))
    return FALSE;
  if (p->n_graphs >= (1u << 30) - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t[0].col, "too many graph launches");
  p->graph = ++p->n_graphs;
  p->graph_first_op = p->sched->n_ops;
  p->graph_branches = FALSE;
  if (p->graph_streams != NULL)
    g_hash_table_remove_all (p->graph_streams);
  return TRUE;
}

/* A stream other than the launch's takes part in the graph from its first
 * `wait` on an event recorded in the graph, as a stream joins a capture
 * (stmt_wait has checked the event). */
static gboolean
graph_branch (Parser *p, SchedOp *op, GError **error)
{
  const Token *t = p->tokens;
  const char *name = schedule_stream (p->sched, op->stream)->name;
  guint col = op->kind == SCHED_OP_WAIT ? t[1].col : op->kind == SCHED_OP_RECORD ? t[2].col : t[1].col;
  if (op->stream == SCHED_STREAM_DEFAULT)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "the legacy default stream cannot be one of a graph's streams (it "
                        "cannot be captured); name a stream of your own");
  if (p->graph_streams == NULL)
    p->graph_streams = g_hash_table_new (g_direct_hash, g_direct_equal);
  gpointer key = GUINT_TO_POINTER (op->stream + 1);
  if (op->kind == SCHED_OP_WAIT)
    g_hash_table_add (p->graph_streams, key);
  else if (!g_hash_table_contains (p->graph_streams, key))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "stream '%s' is not in this graph yet: a graph launched into '%s' takes "
                        "in another stream with `wait %s EVENT` on an event recorded in the graph",
                        name, schedule_stream (p->sched, p->graph_stream)->name, name);
  op->graph_branch = 1;
  p->graph_branches = TRUE;
  return TRUE;
}

gboolean
parser_graph_node (Parser *p, gsize index, gboolean made, GError **error)
{
  const Token *t = p->tokens;
  SchedOp *op = made ? &p->sched->ops[index] : NULL;
  gboolean allowed = op != NULL
                     && (op->kind == SCHED_OP_KERNEL || op->kind == SCHED_OP_MEMSET
                         || op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_HOSTFN
                         || op->kind == SCHED_OP_RECORD || op->kind == SCHED_OP_WAIT);
  if (!allowed)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "`%s` cannot stand inside a graph: a graph launch's nodes are kernels, "
                        "memsets, copies and host functions, joined by `record` and `wait` "
                        "(write it before `graph` or after its `end`)", t[0].s);
  if (op->kind == SCHED_OP_KERNEL && op->u.kernel.loads)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "`loads` inside a graph: a graph's kernels have their code loaded when "
                        "it is instantiated, before its first launch");
  if (op->stream != p->graph_stream && !graph_branch (p, op, error))
    return FALSE;
  op->graph = p->graph;
  op->graph_launch = index == p->graph_first_op;
  return TRUE;
}

/* Every node in another stream must come back to the launch's stream
 * before `end`, as cudaStreamEndCapture requires (an unjoined stream is
 * its error): each is reached, going back from the launch stream's last
 * op, through the order of each stream within the graph and from each
 * `wait` to its record. */
static gboolean
graph_joined (Parser *p, GError **error)
{
  const SchedOp *ops = p->sched->ops + p->graph_first_op;
  gsize n = p->sched->n_ops - p->graph_first_op;
  g_autofree guint32 *before = g_new (guint32, 2 * n); /* per op: its stream's, its record */
  g_autofree gboolean *reached = g_new0 (gboolean, n);
  g_autoptr (GHashTable) last = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) recorded = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (gsize k = 0; k < n; k++)
    {
      before[2 * k] = GPOINTER_TO_UINT (g_hash_table_lookup (last, GUINT_TO_POINTER (ops[k].stream + 1)));
      before[2 * k + 1] = ops[k].kind == SCHED_OP_WAIT
                            ? GPOINTER_TO_UINT (g_hash_table_lookup (recorded, GUINT_TO_POINTER (ops[k].event + 1)))
                            : 0;
      g_hash_table_insert (last, GUINT_TO_POINTER (ops[k].stream + 1), GUINT_TO_POINTER (k + 1));
      if (ops[k].kind == SCHED_OP_RECORD)
        g_hash_table_insert (recorded, GUINT_TO_POINTER (ops[k].event + 1), GUINT_TO_POINTER (k + 1));
    }
  /* indices + 1 of ops still to visit; each op is pushed once */
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 top = GPOINTER_TO_UINT (g_hash_table_lookup (last, GUINT_TO_POINTER (p->graph_stream + 1)));
  if (top != 0)
    {
      reached[top - 1] = TRUE;
      g_array_append_val (stack, top);
    }
  while (stack->len > 0)
    {
      guint32 k = g_array_index (stack, guint32, stack->len - 1) - 1;
      g_array_set_size (stack, stack->len - 1);
      for (guint j = 0; j < 2; j++)
        {
          guint32 b = before[2 * k + j];
          if (b != 0 && !reached[b - 1])
            {
              reached[b - 1] = TRUE;
              g_array_append_val (stack, b);
            }
        }
    }
  for (gsize k = 0; k < n; k++)
    if (!reached[k] && ops[k].kind != SCHED_OP_RECORD && ops[k].kind != SCHED_OP_WAIT)
      {
        const char *name = schedule_stream (p->sched, ops[k].stream)->name;
        p->lineno = ops[k].line;
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, ops[k].column,
                            "this node in stream '%s' is not joined back into '%s' before the "
                            "graph's `end`: record an event in '%s' after it and `wait %s` on it "
                            "(cudaStreamEndCapture fails on an unjoined stream)",
                            name, schedule_stream (p->sched, p->graph_stream)->name, name,
                            schedule_stream (p->sched, p->graph_stream)->name);
      }
  return TRUE;
}

gboolean
parser_graph_close (Parser *p, gsize index, GError **error)
{
  gboolean any_node = FALSE;
  for (gsize k = p->graph_first_op; k < p->sched->n_ops && !any_node; k++)
    any_node = p->sched->ops[k].kind != SCHED_OP_RECORD && p->sched->ops[k].kind != SCHED_OP_WAIT;
  if (!any_node)
    {
      const Line *l = &p->lines[index];
      p->lineno = l->lineno;
      return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, l->first + 1u,
                          "a graph with no node; expected %s", graph_usage);
    }
  if (p->graph_branches && !graph_joined (p, error))
    return FALSE;
  p->graph = 0;
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
        return stmt_connections (p, error);
      break;
    case 'd':
      if (KW_IS ("d2h"))
        return stmt_copy (p, SCHED_DIR_D2H, error);
      if (KW_IS ("d2d"))
        return stmt_copy (p, SCHED_DIR_D2D, error);
      if (KW_IS ("device"))
        return stmt_device (p, error);
      break;
    case 'e':
      if (KW_IS ("elapsed"))
        return stmt_elapsed (p, error);
      if (KW_IS ("end") || KW_IS ("else"))
        goto structural;
      if (KW_IS ("event"))
        return stmt_event (p, error);
      break;
    case 'f':
      if (KW_IS ("free"))
        return stmt_alloc (p, SCHED_OP_FREE, error);
      break;
    case 'g':
      if (KW_IS ("graph"))
        goto structural;
      break;
    case 'h':
      if (KW_IS ("h2d"))
        return stmt_copy (p, SCHED_DIR_H2D, error);
      if (KW_IS ("host"))
        return stmt_host (p, error);
      if (KW_IS ("hostfn"))
        return stmt_hostfn (p, error);
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
        return stmt_kernel (p, error);
      break;
    case 'l':
      if (KW_IS ("let"))
        goto structural;
      break;
    case 'm':
      if (KW_IS ("memcpy"))
        return stmt_memcpy (p, error);
      if (KW_IS ("malloc"))
        return stmt_alloc (p, SCHED_OP_MALLOC, error);
      if (KW_IS ("memset"))
        return stmt_memset (p, error);
      break;
    case 'p':
      if (KW_IS ("pool_threshold"))
        return stmt_pool_threshold (p, error);
      break;
    case 'r':
      if (KW_IS ("record"))
        return stmt_record (p, error);
      if (KW_IS ("repeat"))
        goto structural;
      break;
    case 's':
      if (KW_IS ("stream"))
        return stmt_stream (p, error);
      if (KW_IS ("sync"))
        return stmt_sync (p, error);
      break;
    case 't':
      if (KW_IS ("thread"))
        goto structural;
      break;
    case 'w':
      if (KW_IS ("wait"))
        return stmt_wait (p, error);
      break;
    default:
      break;
    }
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->tokens[0].col,
                      "unknown statement '%s'; expected one of device, connections, "
                      "pool_threshold, let, stream, event, repeat, if, else, end, graph, thread, "
                      "join, h2d, d2h, d2d, memcpy, memset, malloc, free, kernel, hostfn, record, "
                      "wait, sync, host, elapsed", kw);
structural:
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->tokens[0].col,
                      "`%s` must be written out, not produced by a substitution", kw);
}
#undef KW_IS
