/* schedule_expr.c: the integer expressions of the schedule language (`${(r+1)%n}`, `if i > 0 && i < n`), evaluated as they are read.
 *
 * A recursive descent over the text with C's operators and precedence:
 *
 *   or      := and ('||' and)*
 *   and     := equal ('&&' equal)*
 *   equal   := compare (('==' | '!=') compare)*
 *   compare := sum (('<' | '<=' | '>' | '>=') sum)*
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '+' | '!') unary | primary
 *   primary := INTEGER | NAME | '(' or ')'     and, in a condition, $NAME | '${' or '}'
 *
 * Values are 64-bit signed integers; a comparison or a logical operator gives
 * 0 or 1. `&&` and `||` skip their right side as C does, so `n != 0 && 8/n > 1`
 * is safe: the skipped side is still read (its names must exist) but not
 * computed. Building a tree first was rejected: an expression is evaluated
 * once where it is read, and a line holds at most 4096 bytes of it. */
#include "schedule_parser.h"

/* Parentheses nest at most this deep, which bounds the recursion. */
#define EXPR_MAX_DEPTH 64

typedef struct
{
  Parser *p;
  const char *s;       /* the whole expression, for messages */
  gsize len;
  const char *at;      /* the next byte to read */
  const char *end;
  guint col;           /* the column of s[0] */
  gboolean dollar;     /* $NAME and ${...} are allowed (a condition) */
  const char *open;    /* how messages quote the expression: "${" and "}" */
  const char *close;
  guint depth;
  GError **error;
} Expr;

static gboolean expr_or (Expr *e, gboolean live, gint64 *value);

static guint
expr_col (const Expr *e, const char *at)
{
  return e->col + (guint) (at - e->s);
}

static gboolean
expr_fail (Expr *e, const char *at, ScheduleError code, const char *why)
{
  return parser_fail (e->p, e->error, code, expr_col (e, at), "'%s%.*s%s': %s", e->open,
                      (int) e->len, e->s, e->close, why);
}

static void
expr_skip (Expr *e)
{
  while (e->at < e->end && is_blank (*e->at))
    e->at++;
}

/* Whether the next bytes are `op` (and, for a one-byte op, not the start of
 * a two-byte one such as `<=`); consumes it. */
static gboolean
expr_accept (Expr *e, const char *op)
{
  gsize n = strlen (op);
  expr_skip (e);
  if ((gsize) (e->end - e->at) < n || memcmp (e->at, op, n) != 0)
    return FALSE;
  if (n == 1 && e->at + 1 < e->end && e->at[1] == '=' && strchr ("<>!=", op[0]) != NULL)
    return FALSE;
  if (n == 1 && e->at + 1 < e->end && (op[0] == '&' || op[0] == '|') && e->at[1] == op[0])
    return FALSE;
  e->at += n;
  return TRUE;
}

static gboolean
expr_name (Expr *e, const char *name, gsize len, gint64 *value)
{
  char number[32];
  const char *text;
  gboolean too_large;
  guint col = expr_col (e, name);

  if (!parser_lookup (e->p, name, len, col, number, &text, e->error))
    return FALSE;
  if (!parse_int64 (text, strlen (text), value, &too_large))
    {
      char *why = too_large
        ? g_strdup_printf ("%.*s is %s, which does not fit 64 bits", (int) len, name, text)
        : g_strdup_printf ("'%.*s' is '%s', not an integer; arithmetic takes integers",
                           (int) len, name, text);
      expr_fail (e, name, too_large ? SCHEDULE_ERROR_RANGE : SCHEDULE_ERROR_SYNTAX, why);
      g_free (why);
      return FALSE;
    }
  return TRUE;
}

/* `(` or `${` has been read: the expression up to `close`. */
static gboolean
expr_group (Expr *e, const char *opening, char close, gint64 *value, gboolean live)
{
  if (e->depth == EXPR_MAX_DEPTH)
    return expr_fail (e, opening, SCHEDULE_ERROR_LIMIT,
                      "parentheses nest at most 64 deep");
  e->depth++;
  if (!expr_or (e, live, value))
    return FALSE;
  e->depth--;
  expr_skip (e);
  if (e->at == e->end || *e->at != close)
    return expr_fail (e, e->at, SCHEDULE_ERROR_SYNTAX,
                      close == ')' ? "expected ')' to close the '('"
                                   : "expected '}' to close the '${'");
  e->at++;
  return TRUE;
}

static gboolean
expr_primary (Expr *e, gboolean live, gint64 *value)
{
  const char *q;

  expr_skip (e);
  q = e->at;
  if (q < e->end && *q == '(')
    {
      e->at++;
      return expr_group (e, q, ')', value, live);
    }
  if (e->dollar && q + 1 < e->end && q[0] == '$' && q[1] == '{')
    {
      e->at += 2;
      return expr_group (e, q, '}', value, live);
    }
  if (e->dollar && q + 1 < e->end && q[0] == '$' && is_name_start (q[1]))
    q++;
  if (q < e->end && is_name_start (*q))
    {
      const char *name = q;
      while (q < e->end && is_name_char (*q))
        q++;
      e->at = q;
      return expr_name (e, name, q - name, value);
    }
  if (q < e->end && g_ascii_isdigit (*q))
    {
      guint64 magnitude = 0;
      for (; q < e->end && g_ascii_isdigit (*q); q++)
        {
          if (magnitude > (guint64) (G_MAXINT64 - (*q - '0')) / 10)
            return expr_fail (e, e->at, SCHEDULE_ERROR_RANGE, "the number does not fit 64 bits");
          magnitude = magnitude * 10 + (guint) (*q - '0');
        }
      if (q < e->end && is_name_char (*q))
        return expr_fail (e, q, SCHEDULE_ERROR_SYNTAX,
                          "a number is digits only; names start with a letter or '_'");
      e->at = q;
      *value = (gint64) magnitude;
      return TRUE;
    }
  return expr_fail (e, q, SCHEDULE_ERROR_SYNTAX,
                    q == e->end ? "expected a name, an integer or '(' at the end"
                                : "expected a name, an integer or '('");
}

static gboolean
expr_unary (Expr *e, gboolean live, gint64 *value)
{
  const char *op;

  expr_skip (e);
  op = e->at;
  if (op < e->end && (*op == '-' || *op == '+' || (*op == '!' && !(op + 1 < e->end && op[1] == '='))))
    {
      if (e->depth == EXPR_MAX_DEPTH)
        return expr_fail (e, op, SCHEDULE_ERROR_LIMIT, "operators nest at most 64 deep");
      e->at++;
      e->depth++;
      if (!expr_unary (e, live, value))
        return FALSE;
      e->depth--;
      if (*op == '!')
        *value = *value == 0;
      else if (*op == '-' && live)
        {
          if (*value == G_MININT64)
            return expr_fail (e, op, SCHEDULE_ERROR_RANGE, "the result does not fit 64 bits");
          *value = -*value;
        }
      return TRUE;
    }
  return expr_primary (e, live, value);
}

static gboolean
expr_product (Expr *e, gboolean live, gint64 *value)
{
  if (!expr_unary (e, live, value))
    return FALSE;
  for (;;)
    {
      const char *op;
      gint64 right;
      gboolean overflow = FALSE;

      expr_skip (e);
      op = e->at;
      if (!expr_accept (e, "*") && !expr_accept (e, "/") && !expr_accept (e, "%"))
        return TRUE;
      if (!expr_unary (e, live, &right))
        return FALSE;
      if (!live)
        continue;
      if (*op == '*')
        overflow = __builtin_mul_overflow (*value, right, value);
      else if (right == 0)
        return expr_fail (e, op, SCHEDULE_ERROR_RANGE,
                          *op == '/' ? "division by zero" : "modulo by zero");
      else if (*value == G_MININT64 && right == -1)
        overflow = TRUE;
      else
        *value = *op == '/' ? *value / right : *value % right;
      if (overflow)
        return expr_fail (e, op, SCHEDULE_ERROR_RANGE, "the result does not fit 64 bits");
    }
}

static gboolean
expr_sum (Expr *e, gboolean live, gint64 *value)
{
  if (!expr_product (e, live, value))
    return FALSE;
  for (;;)
    {
      const char *op;
      gint64 right;
      gboolean overflow;

      expr_skip (e);
      op = e->at;
      if (!expr_accept (e, "+") && !expr_accept (e, "-"))
        return TRUE;
      if (!expr_product (e, live, &right))
        return FALSE;
      if (!live)
        continue;
      overflow = *op == '+' ? __builtin_add_overflow (*value, right, value)
                            : __builtin_sub_overflow (*value, right, value);
      if (overflow)
        return expr_fail (e, op, SCHEDULE_ERROR_RANGE, "the result does not fit 64 bits");
    }
}

static gboolean
expr_compare (Expr *e, gboolean live, gint64 *value)
{
  if (!expr_sum (e, live, value))
    return FALSE;
  for (;;)
    {
      gint64 right;
      int op;

      if (expr_accept (e, "<="))
        op = 'l';
      else if (expr_accept (e, ">="))
        op = 'g';
      else if (expr_accept (e, "<"))
        op = '<';
      else if (expr_accept (e, ">"))
        op = '>';
      else
        return TRUE;
      if (!expr_sum (e, live, &right))
        return FALSE;
      *value = op == 'l' ? *value <= right
             : op == 'g' ? *value >= right
             : op == '<' ? *value < right
                         : *value > right;
    }
}

static gboolean
expr_equal (Expr *e, gboolean live, gint64 *value)
{
  if (!expr_compare (e, live, value))
    return FALSE;
  for (;;)
    {
      gint64 right;
      gboolean equal;

      if (expr_accept (e, "=="))
        equal = TRUE;
      else if (expr_accept (e, "!="))
        equal = FALSE;
      else
        return TRUE;
      if (!expr_compare (e, live, &right))
        return FALSE;
      *value = (*value == right) == equal;
    }
}

/* `&&` (or_ FALSE) or `||` (or_ TRUE): 1 or 0, its right side skipped
 * when the left decides. */
static gboolean
expr_logical (Expr *e, gboolean or_, gboolean live, gint64 *value)
{
  if (!(or_ ? expr_logical (e, FALSE, live, value) : expr_equal (e, live, value)))
    return FALSE;
  while (expr_accept (e, or_ ? "||" : "&&"))
    {
      gint64 right;
      gboolean left = *value != 0;
      gboolean decided = or_ ? left : !left;
      if (!(or_ ? expr_logical (e, FALSE, live && !decided, &right)
                : expr_equal (e, live && !decided, &right)))
        return FALSE;
      *value = or_ ? left || right != 0 : left && right != 0;
    }
  return TRUE;
}

static gboolean
expr_or (Expr *e, gboolean live, gint64 *value)
{
  return expr_logical (e, TRUE, live, value);
}

gboolean
parser_expr_eval (Parser *p, const char *s, gsize len, guint col, gboolean condition,
                  gint64 *value, GError **error)
{
  Expr e = {
    .p = p, .s = s, .len = len, .at = s, .end = s + len, .col = col,
    .dollar = condition, .open = condition ? "" : "${", .close = condition ? "" : "}",
    .error = error,
  };

  if (!expr_or (&e, TRUE, value))
    return FALSE;
  expr_skip (&e);
  if (e.at < e.end)
    {
      const char *why = *e.at == '='
        ? "expected an operator; compare with '=='"
        : *e.at == '&' || *e.at == '|'
        ? "expected an operator; the logical operators are '&&' and '||'"
        : "expected an operator: + - * / % == != < <= > >= && || or the end";
      return expr_fail (&e, e.at, SCHEDULE_ERROR_SYNTAX, why);
    }
  return TRUE;
}
