/* schedule_subst.c: a schedule line with its $NAME and ${...} substituted and split into tokens, and the parameters it reads (`let`, -D). */
#include "schedule_parser.h"

gboolean
parser_lookup (Parser *p, const char *name, gsize len, guint col, char *number,
               const char **value, GError **error)
{
  Param *param;

  for (guint d = p->depth; d-- > 0;)
    {
      LoopVar *var = &p->vars[d];
      if (var->name->len == len && memcmp (var->name->str, name, len) == 0)
        {
          var->used = TRUE;
          g_snprintf (number, 32, "%" G_GINT64_FORMAT, var->value);
          *value = number;
          return TRUE;
        }
    }
  memcpy (p->name, name, len);
  p->name[len] = '\0';
  param = g_hash_table_lookup (p->params, p->name);
  if (param != NULL
      && (param->from_define || (param->line_index < p->index && p->index < param->scope_end)))
    {
      param->used = TRUE;
      *value = param->value;
      return TRUE;
    }
  if (param != NULL && param->line_index >= p->index)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, col,
                        "parameter '%s' is used before its `let` at line %u; move the `let` up",
                        p->name, param->lineno);
  if (param != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, col,
                        "parameter '%s' is defined at line %u inside a block, and is not visible "
                        "after the block's end (line %u); define it before the block",
                        p->name, param->lineno, p->lines[param->scope_end].lineno);
  return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, col,
                      "undefined parameter '%s'; define it with `let %s = VALUE` or -D %s=VALUE, "
                      "or use the variable of an enclosing `repeat`",
                      p->name, p->name, p->name);
}

/* ${NAME} or ${INTEGER}, which substitute their text as it is (a name may
 * hold any value, `4MiB` as well as `8`), or an integer expression
 * (schedule_expr.c), which substitutes its value. `number` receives a
 * computed value. */
static gboolean
parser_expression (Parser *p, const char *s, gsize len, guint col, char *number,
                   const char **value, gsize *value_len, GError **error)
{
  const char *end = s + len;
  const char *a = s, *a_end, *rest;
  gint64 result;

  while (a < end && is_blank (*a))
    a++;
  a_end = a;
  if (a < end && is_name_start (*a))
    while (a_end < end && is_name_char (*a_end))
      a_end++;
  else
    while (a_end < end && g_ascii_isdigit (*a_end))
      a_end++;
  rest = a_end;
  while (rest < end && is_blank (*rest))
    rest++;
  if (a_end > a && rest == end)
    {
      if (is_name_start (*a))
        {
          if (!parser_lookup (p, a, a_end - a, col, number, value, error))
            return FALSE;
          *value_len = strlen (*value);
        }
      else
        {
          *value = a;
          *value_len = a_end - a;
        }
      return TRUE;
    }
  if (!parser_expr_eval (p, s, len, col + 2, FALSE, &result, error))
    return FALSE;
  *value_len = g_snprintf (number, 32, "%" G_GINT64_FORMAT, result);
  *value = number;
  return TRUE;
}

/* Copies src (len bytes, whose first byte is at column col0 of the file's
 * line) into p->buf with every $NAME and ${...} replaced. Substituted bytes
 * take the column of their '$'. `has_dollar`: whether src holds a '$',
 * which the caller knows (a statement's Line, from parser_scan) or looks for. */
static gboolean
parser_subst (Parser *p, const char *src, gsize len, guint col0, gboolean has_dollar,
              GError **error)
{
  gsize out = 0;
  gsize i = 0;

  if (!has_dollar)
    {
      memcpy (p->buf, src, len);
      p->buf[len] = '\0';
      p->len = (guint) len;
      p->identity = TRUE;
      p->base_col = col0;
      return TRUE;
    }

  p->identity = FALSE;
  while (i < len)
    {
      char number[32];
      const char *value;
      gsize value_len = 0;
      gsize used;
      guint col = col0 + (guint) i;

      if (src[i] != '$')
        {
          /* len <= LINE_MAX_BYTES, so plain text alone cannot overflow buf. */
          if (out == LINE_MAX_BYTES)
            return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, col,
                                "after substitution the line is longer than %d bytes", LINE_MAX_BYTES);
          p->buf[out] = src[i];
          p->cols[out] = (guint16) col;
          out++;
          i++;
          continue;
        }
      if (i + 1 < len && src[i + 1] == '{')
        {
          const char *close = memchr (src + i + 2, '}', len - i - 2);
          if (close == NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                                "'${' without a closing '}'; write ${NAME} or ${NAME+1}");
          if (!parser_expression (p, src + i + 2, close - (src + i + 2), col, number,
                                  &value, &value_len, error))
            return FALSE;
          used = close - (src + i) + 1;
        }
      else if (i + 1 < len && is_name_start (src[i + 1]))
        {
          gsize k = i + 1;
          while (k < len && is_name_char (src[k]))
            k++;
          if (!parser_lookup (p, src + i + 1, k - i - 1, col, number, &value, error))
            return FALSE;
          value_len = strlen (value);
          used = k - i;
        }
      else
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                            "'$' must be followed by a name or {expression}, as in $i, ${i} or ${i+1}");
      if (value_len > LINE_MAX_BYTES - out)
        return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, col,
                            "after substitution the line is longer than %d bytes", LINE_MAX_BYTES);
      memcpy (p->buf + out, value, value_len);
      for (gsize k = 0; k < value_len; k++)
        p->cols[out + k] = (guint16) col;
      out += value_len;
      i += used;
    }
  p->buf[out] = '\0';
  p->cols[out] = (guint16) (col0 + len);
  p->len = (guint) out;
  return TRUE;
}

static void
parser_tokenize (Parser *p)
{
  char *s = p->buf;
  char *end = p->buf + p->len;

  p->n_tokens = 0;
  for (;;)
    {
      Token *t;
      while (s < end && is_blank (*s))
        s++;
      if (s == end)
        break;
      t = &p->tokens[p->n_tokens++];
      t->s = s;
      t->col = parser_col (p, s);
      /* label="my gemm": a quoted label is one word up to its closing
       * quote, blanks included; without one, the word ends as usual and
       * parser_label refuses it. */
      if (G_UNLIKELY (*s == 'l') && end - s > 7 && memcmp (s, "label=\"", 7) == 0)
        {
          char *close = memchr (s + 7, '"', end - s - 7);
          if (close != NULL)
            s = close;
        }
      s = (char *) word_end (s, end);
      t->len = (guint) (s - t->s);
      if (s < end)
        *s++ = '\0';
    }
}

/* Makes lines[index] the current line: substituted and tokenized. */
gboolean
parser_enter (Parser *p, gsize index, GError **error)
{
  const Line *l = &p->lines[index];

  p->index = index;
  p->lineno = l->lineno;
  if (!parser_subst (p, p->text + l->start + l->first, l->end - l->first, l->first + 1u,
                     l->has_dollar, error))
    return FALSE;
  parser_tokenize (p);
  return TRUE;
}

/* ---- Parameters ---- */

gboolean
parser_defines (Parser *p, const char *const *defines, GError **error)
{
  for (; defines != NULL && *defines != NULL; defines++)
    {
      const char *define = *defines;
      const char *eq = strchr (define, '=');
      Param *param;

      if (eq == NULL)
        {
          g_set_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_SYNTAX,
                       "-D %s: expected -D NAME=VALUE, for example -D chunk=8MiB", define);
          return FALSE;
        }
      if (!is_identifier (define, eq - define))
        {
          g_set_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_SYNTAX,
                       "-D %s: '%.*s' is not a parameter name; names are letters, "
                       "digits and '_', not starting with a digit",
                       define, (int) (eq - define), define);
          return FALSE;
        }
      if (eq[1] == '\0' || strchr (eq, '\n') != NULL || !g_utf8_validate (eq, -1, NULL))
        {
          g_set_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_SYNTAX,
                       "-D %.*s=...: the value must be non-empty UTF-8 text on one line",
                       (int) (eq - define), define);
          return FALSE;
        }
      /* A later -D for the same name wins, as with a compiler's -D. */
      param = g_new0 (Param, 1);
      param->value = g_strdup (eq + 1);
      param->from_define = TRUE;
      g_hash_table_insert (p->params, g_strndup (define, eq - define), param);
    }
  return TRUE;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* A -D that sets no `let` and is never read is most likely a misspelt
 * name; running without it would silently ignore what was asked for. */
gboolean
parser_defines_used (Parser *p, const char *const *defines, GError **error)
{
  for (; defines != NULL && *defines != NULL; defines++)
    {
      const char *eq = strchr (*defines, '=');
      char *name = g_strndup (*defines, eq - *defines);
      Param *param = g_hash_table_lookup (p->params, name);
      if (param->from_define && param->let_lineno == 0 && !param->used)
        {
          GPtrArray *lets = g_ptr_array_new ();
          GHashTableIter iter;
          gpointer key, value;
          g_hash_table_iter_init (&iter, p->params);
          while (g_hash_table_iter_next (&iter, &key, &value))
            if (!((Param *) value)->from_define || ((Param *) value)->let_lineno != 0)
              g_ptr_array_add (lets, key);
          g_ptr_array_sort (lets, compare_names);
          g_ptr_array_add (lets, NULL);
          char *known = g_strjoinv (", ", (char **) lets->pdata);
          g_set_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_UNDEFINED,
                       "-D %s: %s has no `let %s` and never uses $%s; -D sets a parameter the "
                       "schedule defines or reads (its parameters: %s)",
                       *defines, p->path, name, name, *known != '\0' ? known : "none");
          g_free (known);
          g_ptr_array_free (lets, TRUE);
          g_free (name);
          return FALSE;
        }
      g_free (name);
    }
  return TRUE;
}

/* `let NAME = VALUE`, read from the raw line: the name is literal and the
 * value is substituted only when no -D overrides it. */
gboolean
parser_let (Parser *p, gsize index, GError **error)
{
  const Line *l = &p->lines[index];
  const char *line = p->text + l->start;
  gsize pos = l->first + 3;
  gsize name_start, name_end;
  gsize end = l->end;
  Param *param;
  char *value;
  gsize vstart, vend;

  p->index = index;
  p->lineno = l->lineno;
  while (pos < end && is_blank (line[pos]))
    pos++;
  name_start = pos;
  if (pos < end && is_name_start (line[pos]))
    while (pos < end && is_name_char (line[pos]))
      pos++;
  name_end = pos;
  if (name_end == name_start || (pos < end && !is_blank (line[pos]) && line[pos] != '='))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) name_start + 1,
                        "expected `let NAME = VALUE`; a NAME is letters, digits and '_', "
                        "not starting with a digit");
  while (pos < end && is_blank (line[pos]))
    pos++;
  if (pos == end || line[pos] != '=')
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) pos + 1,
                        "expected '=' after `let %.*s`", (int) (name_end - name_start),
                        line + name_start);
  pos++;
  while (pos < end && is_blank (line[pos]))
    pos++;
  if (pos == end)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) pos + 1,
                        "`let %.*s =` needs a value after '='", (int) (name_end - name_start),
                        line + name_start);

  memcpy (p->name, line + name_start, name_end - name_start);
  p->name[name_end - name_start] = '\0';
  for (guint d = 0; d < p->depth; d++)
    if (strcmp (p->vars[d].name->str, p->name) == 0)
      return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, (guint) name_start + 1,
                          "parameter '%s' has the name of the variable of the enclosing loop at "
                          "line %u; loop variables and parameters need different names",
                          p->name, p->vars[d].lineno);
  param = g_hash_table_lookup (p->params, p->name);
  if (param != NULL)
    {
      if (param->from_define && (param->let_lineno == 0 || param->let_lineno == l->lineno))
        {
          param->let_lineno = l->lineno;
          return TRUE;
        }
      /* The same `let` run again, or one whose earlier namesake's block
       * has ended: the new value replaces the old. */
      if (param->from_define
          || (param->line_index != index && param->line_index < index && index < param->scope_end))
        return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, (guint) name_start + 1,
                            "parameter '%s' is defined twice; the first `let` is at line %u",
                            p->name, param->from_define ? param->let_lineno : param->lineno);
    }

  if (!parser_subst (p, line + pos, end - pos, (guint) pos + 1,
                     memchr (line + pos, '$', end - pos) != NULL, error))
    return FALSE;
  for (vstart = 0; vstart < p->len && is_blank (p->buf[vstart]); vstart++)
    ;
  for (vend = p->len; vend > vstart && is_blank (p->buf[vend - 1]); vend--)
    ;
  if (vend == vstart)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) pos + 1,
                        "`let %.*s =` needs a value; the substitution left it empty",
                        (int) (name_end - name_start), line + name_start);
  value = g_strndup (p->buf + vstart, vend - vstart);
  /* The substitution's lookups used p->name. */
  memcpy (p->name, line + name_start, name_end - name_start);
  p->name[name_end - name_start] = '\0';
  param = g_hash_table_lookup (p->params, p->name);
  if (param == NULL)
    {
      if (g_hash_table_size (p->params) >= SCHEDULE_MAX_PARAMS)
        {
          g_free (value);
          return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, (guint) name_start + 1,
                              "more than %d parameters; a schedule may define at most that many",
                              SCHEDULE_MAX_PARAMS);
        }
      param = g_new0 (Param, 1);
      g_hash_table_insert (p->params, g_strndup (line + name_start, name_end - name_start), param);
    }
  g_free (param->value);
  param->value = value;
  param->line_index = index;
  param->scope_end = parser_let_scope_end (p, index);
  param->lineno = l->lineno;
  return TRUE;
}

gsize
parser_let_scope_end (const Parser *p, gsize index)
{
  guint32 opener = p->lines[index].match;
  return opener == NO_BLOCK ? p->n_lines : p->lines[opener].match;
}

void
parser_param_free (gpointer data)
{
  Param *param = data;
  g_free (param->value);
  g_free (param);
}
