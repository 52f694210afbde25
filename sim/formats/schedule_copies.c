/* schedule_copies.c: pass 3's copies: `h2d`, `d2h` and `d2d` into a stream and the synchronous `memcpy`, with their host memory (pinned or pageable, untouched, huge, cached) and 2D rows.
 *
 * A file of its own because the four statements share one tail of options
 * whose combinations (cached against untouched, a host memory state on a
 * d2d copy, rows that do not split the size) are checked only once the
 * whole line has been read. */
#include "schedule_parser.h"
#include "units.h"

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

/* `huge` (all the untouched bytes) or `huge=SIZE` (that many of them), after
 * untouched is known. */
static gboolean
parser_copy_huge (Parser *p, const Token *t, SchedCopy *copy, GError **error)
{
  copy->huge = copy->untouched;
  if (t->s[strlen ("huge")] != '=')
    return TRUE;
  const char *why, *value = t->s + strlen ("huge=");
  if (!units_parse_size (value, &copy->huge, &why))
    return parser_fail (p, error, parser_why_code (why), t->col, "bad huge= '%s': %s", value, why);
  if (copy->huge > copy->untouched)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                        "huge=%s is more than the %" G_GUINT64_FORMAT " untouched bytes; it is "
                        "the part of them that faults in as huge pages", value, copy->untouched);
  return TRUE;
}

/* The optional tokens after a copy's size: pageable or pinned, untouched
 * or untouched=SIZE, huge or huge=SIZE, cached, rows=N, label=. */
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
                return parser_fail (p, error, parser_why_code (why), t->col, "bad untouched= '%s': %s",
                                    value, why);
              if (op->u.copy.untouched > op->u.copy.bytes)
                return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                                    "untouched=%s is more than the copy's %" G_GUINT64_FORMAT
                                    " bytes; it is the part of the host buffer not yet touched",
                                    value, op->u.copy.bytes);
            }
        }
      else if (strcmp (t->s, "huge") == 0 || (value = TOKEN_ATTR (t, "huge")) != NULL)
        {
          if (huge != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col, "huge is given twice");
          huge = t;
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
  return huge == NULL || parser_copy_huge (p, huge, &op->u.copy, error);
}

gboolean
parser_stmt_copy (Parser *p, SchedCopyDir dir, GError **error)
{
  static const char *const usages[] = {
    "`h2d STREAM SIZE [pageable [untouched[=SIZE] [huge[=SIZE]]|cached]|pinned] [rows=N] [label=NAME]`",
    "`d2h STREAM SIZE [pageable [untouched[=SIZE] [huge[=SIZE]]|cached]|pinned] [rows=N] [label=NAME]`",
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

gboolean
parser_stmt_memcpy (Parser *p, GError **error)
{
  static const char usage[] = "`memcpy h2d|d2h|d2d SIZE [pageable [untouched[=SIZE] [huge[=SIZE]]|cached]|pinned] [rows=N] [label=NAME]`";
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
