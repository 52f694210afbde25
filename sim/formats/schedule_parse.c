/* schedule_parse.c: reads the schedule language (MODEL.md section 3) into a Schedule: runs the passes, and counts and expands loops.
 *
 * Three passes over the text, none of which builds a syntax tree:
 *
 * 1. scan (schedule_scan.c): split the text into lines, reject NUL bytes,
 *    bad UTF-8 and long lines, strip comments, and pair each `repeat` with
 *    its `end`. A line is 24 bytes of offsets; no text is copied.
 * 2. count: define the `let` parameters and evaluate the loop headers to learn
 *    how many ops the schedule expands to, before any op is allocated. A loop
 *    whose body does not depend on its variable is counted once and
 *    multiplied, so `repeat i 1..1000000000000000` is refused at once. A loop
 *    whose nested headers, `if` conditions or `let` values read its variable
 *    (`repeat j 1..$i`) is counted iteration by iteration; an iteration
 *    issues at least one op or counts as idle, and idle iterations are
 *    limited by --max-ops too, so that walk stops after about 2 x --max-ops
 *    steps. An `if` is evaluated and only its branch taken is counted.
 * 3. expand: walk the lines again, re-running loop bodies, substituting each
 *    line into one fixed buffer and tokenizing it in place (schedule_subst.c),
 *    and appending its op to an array sized by pass 2 (schedule_statement.c).
 *
 * The event names are checked last (schedule_names.c), over the whole
 * schedule: a wait may name an event that is recorded only further down.
 *
 * Expanding loops into text first was rejected: its memory grows with the
 * expansion rather than with the file. Per-op cost is one substitution, one
 * tokenization and a few hash lookups; names (streams, events, labels,
 * devices) are interned in the schedule's GStringChunk. */
#include <stdarg.h>
#include <string.h>
#include "input_file.h"
#include "sim/core/located_error.h"
#include "schedule_parser.h"
#include "schedule_parse.h"

gboolean
parser_fail (Parser *p, GError **error, ScheduleError code, guint col, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (error, SCHEDULE_ERROR, code, p->path, p->lineno, col, format, args);
  va_end (args);
  return FALSE;
}

static guint64
sat_add (guint64 a, guint64 b)
{
  guint64 r;
  return g_uint64_checked_add (&r, a, b) ? r : G_MAXUINT64;
}

static guint64
sat_mul (guint64 a, guint64 b)
{
  guint64 r;
  return g_uint64_checked_mul (&r, a, b) ? r : G_MAXUINT64;
}

/* ---- Loops ---- */

/* Reads `repeat VAR A..B` at lines[index] into vars[p->depth] (the caller
 * pushes it). */
static gboolean
parser_repeat (Parser *p, gsize index, gint64 *from, gint64 *to, GError **error)
{
  Token *t;
  const char *dots;
  gboolean too_large;
  Param *param;
  LoopVar *var;

  if (!parser_enter (p, index, error))
    return FALSE;
  t = p->tokens;
  if (p->n_tokens != 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX,
                        p->n_tokens > 3 ? t[3].col : t[0].col,
                        "expected `repeat VAR A..B` with integers A <= B, for example `repeat i 1..4`");
  if (!is_identifier (t[1].s, t[1].len))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "'%s' is not a loop variable name; names are letters, digits and '_', "
                        "not starting with a digit", t[1].s);
  for (guint d = 0; d < p->depth; d++)
    if (strcmp (p->vars[d].name->str, t[1].s) == 0)
      return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                          "loop variable '%s' is already the variable of the enclosing loop at line %u; "
                          "give each nested loop its own variable",
                          t[1].s, p->vars[d].lineno);
  param = g_hash_table_lookup (p->params, t[1].s);
  if (param != NULL
      && (param->from_define || (param->line_index < index && index < param->scope_end)))
    {
      if (param->from_define)
        return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                            "loop variable '%s' has the name of a -D parameter; "
                            "loop variables and parameters need different names", t[1].s);
      return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                          "loop variable '%s' has the name of the parameter defined at line %u; "
                          "loop variables and parameters need different names",
                          t[1].s, param->lineno);
    }
  dots = strstr (t[2].s, "..");
  if (dots == NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[2].col,
                        "expected a range A..B of integers, for example 1..4, not '%s'", t[2].s);
  if (!parse_int64 (t[2].s, dots - t[2].s, from, &too_large)
      || !parse_int64 (dots + 2, strlen (dots + 2), to, &too_large))
    return parser_fail (p, error, too_large ? SCHEDULE_ERROR_RANGE : SCHEDULE_ERROR_SYNTAX,
                        t[2].col, "expected a range A..B of 64-bit integers, for example 1..4, not '%s'",
                        t[2].s);

  var = &p->vars[p->depth];
  if (var->name == NULL)
    var->name = g_string_new (NULL);
  g_string_assign (var->name, t[1].s);
  var->lineno = p->lineno;
  var->value = *from;
  var->used = FALSE;
  return TRUE;
}

/* The times a loop from..to runs: none when to < from. */
static guint64
range_trips (gint64 from, gint64 to)
{
  guint64 trips;
  if (to < from)
    return 0;
  trips = (guint64) to - (guint64) from + 1;
  return trips == 0 ? G_MAXUINT64 : trips; /* the whole 64-bit range */
}

/* ---- Conditions ---- */

/* Reads `if EXPR` at lines[index]: whether its first branch is taken. The
 * condition is read from the line as written, where $NAME and ${...} mean
 * NAME and (...). */
static gboolean
parser_if (Parser *p, gsize index, gboolean *taken, GError **error)
{
  const Line *l = &p->lines[index];
  const char *line = p->text + l->start;
  gsize pos = l->first + 2;
  gint64 value;

  p->index = index;
  p->lineno = l->lineno;
  while (pos < l->end && is_blank (line[pos]))
    pos++;
  if (pos == l->end)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, l->first + 1u,
                        "expected `if EXPR`, for example `if i %% 2 == 0` or `if n > 1 && !skip`");
  if (!parser_expr_eval (p, line + pos, l->end - pos, (guint) pos + 1, TRUE, &value, error))
    return FALSE;
  *taken = value != 0;
  return TRUE;
}

/* The lines of the branch an `if` at lines[index] takes: [*from, *to), empty
 * for a missing `else`; and the index of its `end`. */
static gsize
if_branch (const Parser *p, gsize index, gboolean taken, gsize *from, gsize *to)
{
  const Line *l = &p->lines[index];
  gboolean has_else = p->lines[l->match].kind == LINE_ELSE;
  gsize end = has_else ? p->lines[l->match].match : l->match;

  if (taken)
    {
      *from = index + 1;
      *to = l->match;
    }
  else
    {
      *from = has_else ? l->match + 1 : end;
      *to = end;
    }
  return end;
}

static void
count_add (Count *count, const Count *more)
{
  count->ops = sat_add (count->ops, more->ops);
  count->decls = sat_add (count->decls, more->decls);
  count->idle = sat_add (count->idle, more->idle);
  count->lower_bound |= more->lower_bound;
}

/* One iteration of a loop body counted `body`: it adds its own idle
 * iterations, and is one itself when it issues nothing. */
static guint64
iteration_idle (const Count *body)
{
  return sat_add (body->idle, body->ops == 0 && body->decls == 0);
}

/* Pass 2: how many ops and declarations lines[from, to) expand to, and how
 * many loop iterations that issue nothing: those cost time too, and bounding
 * them by --max-ops keeps `repeat i 1..1000000000000` around an `if` that is
 * never taken from running for hours. */
static gboolean
parser_count (Parser *p, gsize from, gsize to, Count *count, GError **error)
{
  gboolean top = p->depth == 0;

  memset (count, 0, sizeof *count);
  for (gsize i = from; i < to;)
    {
      const Line *l = &p->lines[i];

      switch ((LineKind) l->kind)
        {
        case LINE_OP:
          count->ops = sat_add (count->ops, 1);
          i++;
          break;
        case LINE_DECL:
          count->decls = sat_add (count->decls, 1);
          i++;
          break;
        case LINE_SETTING:
          i++;
          break;
        case LINE_LET:
          if (!parser_let (p, i, error))
            return FALSE;
          i++;
          break;
        case LINE_ELSE:
        case LINE_END:
          i++;
          break;
        case LINE_GRAPH: /* its nodes, once; the line itself is no op */
        case LINE_THREAD: /* its lines, and the line itself starts the thread */
          {
            Count body;
            if (!parser_count (p, i + 1, l->match, &body, error))
              return FALSE;
            if (l->kind == LINE_THREAD)
              body.ops = sat_add (body.ops, 1);
            count_add (count, &body);
            i = l->match + 1;
            break;
          }
        case LINE_IF:
          {
            gboolean taken;
            gsize a, b;
            Count branch;

            if (!parser_if (p, i, &taken, error))
              return FALSE;
            i = if_branch (p, i, taken, &a, &b) + 1;
            if (!parser_count (p, a, b, &branch, error))
              return FALSE;
            count_add (count, &branch);
            break;
          }
        case LINE_REPEAT:
          {
            gint64 a, b;
            Count body, loop;
            LoopVar *var;

            if (!parser_repeat (p, i, &a, &b, error))
              return FALSE;
            if (!l->empty_body && a <= b)
              {
                var = &p->vars[p->depth++];
                if (!parser_count (p, i + 1, l->match, &body, error))
                  return FALSE;
                if (!var->used)
                  {
                    guint64 trips = range_trips (a, b);
                    loop.ops = sat_mul (body.ops, trips);
                    loop.decls = sat_mul (body.decls, trips);
                    loop.idle = sat_mul (iteration_idle (&body), trips);
                    loop.lower_bound = body.lower_bound;
                  }
                else
                  {
                    /* Nested headers, conditions or lets read this variable:
                     * count each iteration, and stop once past the limit. */
                    loop = body;
                    loop.idle = iteration_idle (&body);
                    for (gint64 v = a; v != b && !loop.lower_bound;)
                      {
                        if (loop.ops > p->max_ops || loop.decls > p->max_ops
                            || loop.idle > p->max_ops)
                          {
                            loop.lower_bound = TRUE;
                            break;
                          }
                        var->value = ++v;
                        if (!parser_count (p, i + 1, l->match, &body, error))
                          return FALSE;
                        body.idle = iteration_idle (&body);
                        count_add (&loop, &body);
                      }
                  }
                p->depth--;
                count_add (count, &loop);
              }
            i = l->match + 1;
            break;
          }
        }
      if (top && !p->over
          && (count->ops > p->max_ops || count->decls > p->max_ops || count->idle > p->max_ops))
        {
          p->over = TRUE;
          p->over_what = count->ops > p->max_ops ? 0 : count->decls > p->max_ops ? 1 : 2;
          p->over_index = l - p->lines;
        }
    }
  return TRUE;
}

/* ---- Pass 3: expansion ---- */

static gboolean
parser_expand (Parser *p, gsize from, gsize to, GError **error)
{
  for (gsize i = from; i < to;)
    {
      const Line *l = &p->lines[i];

      switch ((LineKind) l->kind)
        {
        case LINE_DECL:
        case LINE_SETTING:
          if (!parser_thread_allows (p, i, error))
            return FALSE;
          G_GNUC_FALLTHROUGH;
        case LINE_OP:
          {
            gsize before = p->sched->n_ops;
            if (!parser_enter (p, i, error))
              return FALSE;
            if (p->n_tokens > 0 && !parser_statement (p, error))
              return FALSE;
            if (p->graph != 0 && p->n_tokens > 0
                && !parser_graph_node (p, before, p->sched->n_ops > before, error))
              return FALSE;
            i++;
            break;
          }
        case LINE_GRAPH:
          if (!parser_enter (p, i, error) || !parser_graph_open (p, error)
              || !parser_expand (p, i + 1, l->match, error)
              || !parser_graph_close (p, i, error))
            return FALSE;
          i = l->match + 1;
          break;
        case LINE_THREAD:
          if (!parser_enter (p, i, error) || !parser_thread_open (p, error)
              || !parser_expand (p, i + 1, l->match, error))
            return FALSE;
          parser_thread_close (p);
          i = l->match + 1;
          break;
        case LINE_LET: /* again: inside a block its value may change */
          if (!parser_let (p, i, error))
            return FALSE;
          i++;
          break;
        case LINE_ELSE:
        case LINE_END:
          i++;
          break;
        case LINE_IF:
          {
            gboolean taken;
            gsize a, b;

            if (!parser_if (p, i, &taken, error))
              return FALSE;
            i = if_branch (p, i, taken, &a, &b) + 1;
            if (!parser_expand (p, a, b, error))
              return FALSE;
            break;
          }
        case LINE_REPEAT:
          if (!l->empty_body)
            {
              gint64 a, b;
              LoopVar *var;

              if (!parser_repeat (p, i, &a, &b, error))
                return FALSE;
              var = &p->vars[p->depth++];
              for (gint64 v = a; a <= b; v++)
                {
                  var->value = v;
                  if (!parser_expand (p, i + 1, l->match, error))
                    return FALSE;
                  if (v == b)
                    break;
                }
              p->depth--;
            }
          i = l->match + 1;
          break;
        }
    }
  return TRUE;
}

static gboolean
parser_run (Parser *p, const ScheduleParseOptions *options, GError **error)
{
  Count total;

  if (!parser_defines (p, options != NULL ? options->defines : NULL, error)
      || !parser_scan (p, error)
      || !parser_count (p, 0, p->n_lines, &total, error))
    return FALSE;

  if (p->over)
    {
      static const char *const what[] = { "ops", "declarations",
                                          "loop iterations that issue nothing" };
      const Line *l = &p->lines[p->over_index];
      guint64 n = p->over_what == 0 ? total.ops : p->over_what == 1 ? total.decls : total.idle;
      gboolean exact = !total.lower_bound && n != G_MAXUINT64;

      p->lineno = l->lineno;
      return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, l->first + 1u,
                          "the schedule expands to %s%" G_GUINT64_FORMAT " %s, more than --max-ops %"
                          G_GUINT64_FORMAT, exact ? "" : "more than ", n, what[p->over_what],
                          p->max_ops);
    }

  p->ops_cap = total.ops;
  p->sched->ops = g_new (SchedOp, p->ops_cap);
  if (!parser_expand (p, 0, p->n_lines, error)
      || !parser_defines_used (p, options != NULL ? options->defines : NULL, error)
      || !parser_names_check (p, error))
    return FALSE;
  if (p->sched->n_ops < p->ops_cap)
    p->sched->ops = g_renew (SchedOp, p->sched->ops, p->sched->n_ops);
  parser_threads_finish (p);
  return TRUE;
}

Schedule *
schedule_parse_text (const char *path, const char *text, gsize length,
                     const ScheduleParseOptions *options, GError **error)
{
  Parser *p;
  Schedule *sched;
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p = g_new0 (Parser, 1);
  p->path = path;
  p->text = text != NULL ? text : "";
  p->length = length;
  p->max_ops = options != NULL && options->max_ops != 0 ? options->max_ops : SCHEDULE_DEFAULT_MAX_OPS;
  p->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, parser_param_free);
  /* (A hash of eight bytes at a time instead of g_str_hash gained nothing
   * measurable end to end: streamsim-bench -n 1e6, 2026-11-27.) */
  p->time_lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->event_uses = g_array_new (FALSE, FALSE, sizeof (EventUse));
  sched = p->sched = schedule_new (path);

  ok = parser_run (p, options, error);

  for (guint d = 0; d < REPEAT_MAX_DEPTH; d++)
    if (p->vars[d].name != NULL)
      g_string_free (p->vars[d].name, TRUE);
  g_hash_table_unref (p->params);
  g_hash_table_unref (p->time_lists);
  if (p->elapsed_names != NULL)
    g_hash_table_unref (p->elapsed_names);
  if (p->graph_streams != NULL)
    g_hash_table_unref (p->graph_streams);
  parser_threads_free (p);
  g_array_unref (p->event_uses);
  g_free (p->lines);
  g_free (p);
  if (!ok)
    {
      schedule_free (sched);
      return NULL;
    }
  return sched;
}

Schedule *
schedule_parse_file (const char *path, const ScheduleParseOptions *options, GError **error)
{
  Schedule *sched;
  char *text;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  GError *local = NULL;
  text = input_file_read (path, SCHEDULE_MAX_FILE_BYTES, &length, &local);
  if (text == NULL)
    {
      if (g_error_matches (local, INPUT_FILE_ERROR, INPUT_FILE_ERROR_TOO_LARGE))
        g_set_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_LIMIT,
                     "%s (write long schedules with `repeat`)", local->message);
      else
        g_set_error_literal (error, SCHEDULE_ERROR, SCHEDULE_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  sched = schedule_parse_text (input_file_name (path), text, length, options, error);
  g_free (text);
  return sched;
}
