/* schedule_parse.c: reads the schedule language (MODEL.md section 3) into a Schedule.
 *
 * Three passes over the text, none of which builds a syntax tree:
 *
 * 1. scan: split the text into lines, reject NUL bytes, bad UTF-8 and long
 *    lines, strip comments, and pair each `repeat` with its `end`. A line is
 *    24 bytes of offsets; no text is copied.
 * 2. count: define the `let` parameters and evaluate the loop headers to learn
 *    how many ops the schedule expands to, before any op is allocated. A loop
 *    whose body does not depend on its variable is counted once and
 *    multiplied, so `repeat i 1..1000000000000000` is refused at once. A loop
 *    whose nested headers read its variable (`repeat j 1..$i`) is counted
 *    iteration by iteration; every iteration yields at least one statement
 *    (ranges are never empty), so that walk stops after about --max-ops steps.
 * 3. expand: walk the lines again, re-running loop bodies, substituting each
 *    line into one fixed buffer, tokenizing it in place and appending ops to
 *    an array sized by pass 2.
 *
 * Expanding loops into text first was rejected: its memory grows with the
 * expansion rather than with the file. Per-op cost is one substitution, one
 * tokenization and a few hash lookups; names (streams, events, labels,
 * devices) are interned in the schedule's GStringChunk. */
#include "input_file.h"
#include "located_error.h"
#include "schedule.h"
#include "schedule_private.h"
#include "units.h"

#include <stdarg.h>
#include <string.h>

#define LINE_MAX_BYTES 4096
#define REPEAT_MAX_DEPTH 16
/* Bounds on what a file may hold, so that memory stays bounded whatever is
 * fed in (a Line costs 24 bytes, a parameter about 100): 2^24 statement
 * lines (longer schedules use `repeat`), 65536 `let` parameters, and files
 * of at most 1 GiB, read until the first NUL byte (which the scan reports). */
#define SCHEDULE_MAX_LINES ((gsize) 1 << 24)
#define SCHEDULE_MAX_PARAMS 65536
#define SCHEDULE_MAX_FILE_BYTES ((gsize) 1 << 30)
/* A token is at least one byte followed by a blank. */
#define MAX_TOKENS (LINE_MAX_BYTES / 2 + 1)

typedef enum
{
  LINE_OP,     /* a run-time statement (or one whose keyword is substituted) */
  LINE_DECL,   /* stream */
  LINE_SETTING, /* device, connections: once each, not counted against --max-ops */
  LINE_LET,
  LINE_REPEAT,
  LINE_END,
} LineKind;

/* A non-blank line of the file. Columns are byte offsets into it. */
typedef struct
{
  gsize start;        /* offset of the line in the text */
  guint32 lineno;
  guint16 first;      /* offset of the first non-blank byte */
  guint16 end;        /* offset past the statement, comment and blanks removed */
  guint32 match;      /* LINE_REPEAT: index of its `end` */
  guint8 kind;
  guint8 empty_body;  /* LINE_REPEAT: no statement inside, only loops */
} Line;

/* A `let` parameter or a -D define. */
typedef struct
{
  char *value;
  gsize line_index;   /* a `let` is visible to the lines after it */
  guint32 lineno;     /* the `let` line; 0 for a -D */
  guint32 let_lineno; /* a -D: the `let` line it overrode, or 0 */
  gboolean from_define;
  gboolean used;      /* a -D that no `let` overrides must be read somewhere */
} Param;

typedef struct
{
  GString *name;
  gint64 value;
  guint32 lineno;     /* the `repeat` line */
  gboolean used;      /* read by a nested loop header (count pass) */
} LoopVar;

typedef struct
{
  char *s;            /* NUL-terminated, inside Parser.buf */
  guint len;
  guint col;
} Token;

typedef struct
{
  guint64 ops;
  guint64 decls;
  gboolean lower_bound; /* counting stopped early: the real count is larger */
} Count;

typedef struct
{
  const char *path;
  const char *text;
  gsize length;
  guint64 max_ops;
  Schedule *sched;
  gsize ops_cap;

  Line *lines;
  gsize n_lines;
  GHashTable *params;          /* name -> Param */
  LoopVar vars[REPEAT_MAX_DEPTH];
  guint depth;
  gsize over_index;            /* count pass: the top-level line that crossed --max-ops */
  gboolean over;
  gboolean over_ops;           /* ops crossed it (else stream declarations) */

  /* The line being worked on, after substitution and tokenization. */
  gsize index;
  guint32 lineno;
  char buf[LINE_MAX_BYTES + 1];
  guint16 cols[LINE_MAX_BYTES + 1]; /* the original column of each byte of buf */
  gboolean identity;           /* no substitution: column = base_col + offset */
  guint base_col;
  guint len;
  Token tokens[MAX_TOKENS];
  guint n_tokens;
  char name[LINE_MAX_BYTES + 1];

  /* The text of the last kernel's time= and its list: a loop of identical
   * kernels shares one list instead of adding one per op. */
  char last_times[LINE_MAX_BYTES + 1];
  guint32 last_times_index;
  gboolean have_last_times;
  /* Every time= text seen -> its list + 1: kernels launched again later
   * (not back to back) share the list too, so that a schedule of millions
   * of launches of a few kernels keeps a few lists. */
  GHashTable *time_lists;
} Parser;

static gboolean parser_fail (Parser *p, GError **error, ScheduleError code, guint col,
                             const char *format, ...) G_GNUC_PRINTF (5, 6);

static gboolean
parser_fail (Parser *p, GError **error, ScheduleError code, guint col, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (error, SCHEDULE_ERROR, code, p->path, p->lineno, col, format, args);
  va_end (args);
  return FALSE;
}

/* units.c starts the phrases for well-formed values out of range with
 * "negative" or "too large". */
static ScheduleError
why_code (const char *why)
{
  if (g_str_has_prefix (why, "negative") || g_str_has_prefix (why, "too large"))
    return SCHEDULE_ERROR_RANGE;
  return SCHEDULE_ERROR_SYNTAX;
}

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The end of the word at s: the first blank at or after s, or end. Words
 * average a handful of bytes and lines a few dozen, so this is where
 * tokenizing spends its time; it tests eight bytes at a time. Every blank is
 * below 0x21, and in (x - 0x21 in each byte) & ~x & 0x80 in each byte the
 * lowest flag is exactly the first byte below 0x21: bytes before it are
 * 0x21 or more and lend no borrow upward, and a byte of 0x80 or more is
 * never flagged (~x). That byte is a blank, or a control character that is
 * part of the word, after which the search goes on. */
static inline const char *
word_end (const char *s, const char *end)
{
  const guint64 lows = G_GUINT64_CONSTANT (0x2121212121212121);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  while (end - s >= 8)
    {
      guint64 x;
      memcpy (&x, s, 8);
      x = GUINT64_FROM_LE (x);
      guint64 below = (x - lows) & ~x & highs;
      if (below == 0)
        {
          s += 8;
          continue;
        }
      s += __builtin_ctzll (below) / 8;
      if (is_blank (*s))
        return s;
      s++;
    }
  while (s < end && !is_blank (*s))
    s++;
  return s;
}

static inline gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static inline gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Parameter and loop variable names: [A-Za-z_][A-Za-z0-9_]*. */
static gboolean
is_identifier (const char *s, gsize len)
{
  if (len == 0 || !is_name_start (s[0]))
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!is_name_char (s[i]))
      return FALSE;
  return TRUE;
}

/* Stream, event and device names: [A-Za-z0-9_.-]+. */
static gboolean
is_object_name (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '.' && *s != '-')
      return FALSE;
  return TRUE;
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

/* A signed decimal integer, the whole string. */
static gboolean
parse_int64 (const char *s, gsize len, gint64 *value, gboolean *too_large)
{
  gboolean negative = FALSE;
  guint64 magnitude = 0;
  gsize i = 0;

  *too_large = FALSE;
  if (len > 0 && s[0] == '-')
    {
      negative = TRUE;
      i = 1;
    }
  if (i == len)
    return FALSE;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      if (magnitude > (G_MAXUINT64 - 9) / 10)
        *too_large = TRUE;
      else
        magnitude = magnitude * 10 + (guint) (s[i] - '0');
    }
  if (*too_large || magnitude > (negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64))
    {
      *too_large = TRUE;
      return FALSE;
    }
  *value = negative ? (gint64) ((guint64) 0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

static void
param_free (gpointer data)
{
  Param *param = data;
  g_free (param->value);
  g_free (param);
}

/* ---- Pass 1: lines ---- */

/* TRUE when every byte is 0x01..0x7f: plain ASCII without NUL, which is
 * valid UTF-8. Schedules are almost always ASCII, and g_utf8_validate on
 * every line took a seventh of the time to parse a generated schedule; other
 * lines still go through it, for its exact error position. */
static gboolean
is_plain_ascii (const char *s, gsize len)
{
  /* Eight bytes at a time: (x - 0x01..) & ~x has a high bit set iff some
   * byte is zero (the classic test, exact as to whether there is one), and
   * x itself iff some byte is 0x80 or more. */
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  gsize i = 0;
  for (; i + 8 <= len; i += 8)
    {
      guint64 x;
      memcpy (&x, s + i, 8);
      if ((((x - ones) & ~x) | x) & highs)
        return FALSE;
    }
  for (; i < len; i++)
    if ((guchar) s[i] - 1u >= 0x7fu)
      return FALSE;
  return TRUE;
}

static gboolean
parser_scan (Parser *p, GError **error)
{
  const char *text = p->text;
  gsize n_newlines = 0;
  gsize pos = 0;
  guint32 lineno = 0;
  gsize open[REPEAT_MAX_DEPTH];
  gsize stmts_at_open[REPEAT_MAX_DEPTH];
  guint depth = 0;
  gsize n_stmts = 0;

  for (const char *s = text, *end = text + p->length;
       s < end && (s = memchr (s, '\n', end - s)) != NULL; s++)
    n_newlines++;
  p->lines = g_new (Line, MIN (n_newlines, SCHEDULE_MAX_LINES) + 1);
  /* A UTF-8 byte order mark, as some Windows editors write, is not text. */
  if (p->length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    pos = 3;

  while (pos < p->length)
    {
      const char *line = text + pos;
      const char *newline = memchr (line, '\n', p->length - pos);
      gsize len = newline != NULL ? (gsize) (newline - line) : p->length - pos;
      gsize next = pos + len + (newline != NULL ? 1 : 0);
      const char *bad;
      const char *hash;
      gsize first, end, word;
      Line *l;

      p->lineno = ++lineno;
      if (len > 0 && line[len - 1] == '\r')
        len--;
      if (len > LINE_MAX_BYTES)
        return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, LINE_MAX_BYTES + 1,
                            "the line is %" G_GSIZE_FORMAT " bytes long; lines may be at most %d bytes",
                            len, LINE_MAX_BYTES);
      if (!is_plain_ascii (line, len) && !g_utf8_validate (line, (gssize) len, &bad))
        {
          if (*bad == '\0')
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) (bad - line) + 1,
                                "NUL byte; a schedule is UTF-8 text without NUL bytes");
          return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) (bad - line) + 1,
                              "invalid UTF-8; a schedule is UTF-8 text");
        }
      pos = next;

      hash = memchr (line, '#', len);
      end = hash != NULL ? (gsize) (hash - line) : len;
      while (end > 0 && is_blank (line[end - 1]))
        end--;
      first = 0;
      while (first < end && is_blank (line[first]))
        first++;
      if (first == end)
        continue;

      if (p->n_lines == SCHEDULE_MAX_LINES)
        return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, 1,
                            "more than %" G_GSIZE_FORMAT " statement lines; a schedule may have at "
                            "most that many (write long schedules with `repeat`)",
                            SCHEDULE_MAX_LINES);
      l = &p->lines[p->n_lines];
      l->start = line - text;
      l->lineno = lineno;
      l->first = (guint16) first;
      l->end = (guint16) end;
      l->match = 0;
      l->empty_body = FALSE;
      word = (gsize) (word_end (line + first, line + end) - line);
#define WORD_IS(w) (word - first == sizeof (w) - 1 && memcmp (line + first, w, sizeof (w) - 1) == 0)
      if (WORD_IS ("repeat"))
        {
          if (depth == REPEAT_MAX_DEPTH)
            return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, (guint) first + 1,
                                "repeat loops nest at most %d deep", REPEAT_MAX_DEPTH);
          l->kind = LINE_REPEAT;
          open[depth] = p->n_lines;
          stmts_at_open[depth] = n_stmts;
          depth++;
        }
      else if (WORD_IS ("end"))
        {
          Line *r;
          gsize extra = word;
          while (extra < end && is_blank (line[extra]))
            extra++;
          if (extra < end)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) extra + 1,
                                "unexpected text after `end`; `end` stands alone on its line");
          if (depth == 0)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) first + 1,
                                "`end` without a `repeat`; each `repeat VAR A..B` takes one `end`");
          l->kind = LINE_END;
          depth--;
          r = &p->lines[open[depth]];
          r->match = (guint32) p->n_lines;
          r->empty_body = n_stmts == stmts_at_open[depth];
        }
      else if (WORD_IS ("let"))
        {
          if (depth > 0)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) first + 1,
                                "`let` is not allowed inside `repeat`: a parameter has one value; "
                                "define it before the loop");
          l->kind = LINE_LET;
        }
      else if (WORD_IS ("stream"))
        {
          l->kind = LINE_DECL;
          n_stmts++;
        }
      else if (WORD_IS ("device") || WORD_IS ("connections"))
        {
          l->kind = LINE_SETTING;
          n_stmts++;
        }
      else
        {
          l->kind = LINE_OP;
          n_stmts++;
        }
#undef WORD_IS
      p->n_lines++;
    }

  if (depth > 0)
    {
      const Line *r = &p->lines[open[depth - 1]];
      p->lineno = r->lineno;
      return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, r->first + 1u,
                          "`repeat` without a matching `end`; close each loop with a line `end`");
    }
  return TRUE;
}

/* ---- Substitution and tokens ---- */

static inline guint
parser_col (const Parser *p, const char *at)
{
  gsize offset = at - p->buf;
  return p->identity ? p->base_col + (guint) offset : p->cols[offset];
}

/* The value of `name` (len bytes): a loop variable (formatted into `number`)
 * or a parameter visible from the current line. */
static gboolean
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
  if (param != NULL && (param->from_define || param->line_index < p->index))
    {
      param->used = TRUE;
      *value = param->value;
      return TRUE;
    }
  if (param != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, col,
                        "parameter '%s' is used before its `let` at line %u; move the `let` up",
                        p->name, param->lineno);
  return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, col,
                      "undefined parameter '%s'; define it with `let %s = VALUE` or -D %s=VALUE, "
                      "or use the variable of an enclosing `repeat`",
                      p->name, p->name, p->name);
}

/* An operand of ${...}: a name or an integer literal; returns its end. */
static const char *
expr_operand (const char *s, const char *end)
{
  const char *q = s;
  if (q < end && is_name_start (*q))
    while (q < end && is_name_char (*q))
      q++;
  else
    while (q < end && g_ascii_isdigit (*q))
      q++;
  return q;
}

static gboolean
expr_value (Parser *p, const char *s, gsize len, guint col, const char *whole, gsize whole_len,
            gint64 *value, GError **error)
{
  char number[32];
  const char *text;
  gboolean too_large;

  if (is_name_start (s[0]))
    {
      if (!parser_lookup (p, s, len, col, number, &text, error))
        return FALSE;
    }
  else
    {
      memcpy (number, s, MIN (len, sizeof number - 1));
      number[MIN (len, sizeof number - 1)] = '\0';
      if (len >= sizeof number)
        return parser_fail (p, error, SCHEDULE_ERROR_RANGE, col,
                            "'${%.*s}': the number does not fit 64 bits", (int) whole_len, whole);
      text = number;
    }
  if (!parse_int64 (text, strlen (text), value, &too_large))
    {
      if (too_large)
        return parser_fail (p, error, SCHEDULE_ERROR_RANGE, col,
                            "'${%.*s}': %s does not fit 64 bits", (int) whole_len, whole, text);
      return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                          "'${%.*s}': '%.*s' is '%s', not an integer; arithmetic takes integers",
                          (int) whole_len, whole, (int) len, s, text);
    }
  return TRUE;
}

/* ${NAME}, ${NUMBER} or ${A op B} with op one of + - * / % and A, B names or
 * integers. `number` receives a computed value. */
static gboolean
parser_expression (Parser *p, const char *s, gsize len, guint col, char *number,
                   const char **value, gsize *value_len, GError **error)
{
  const char *end = s + len;
  const char *a, *a_end, *b, *b_end;
  char op;
  gint64 x, y, r;
  gboolean overflow = FALSE;

  a = s;
  while (a < end && is_blank (*a))
    a++;
  a_end = expr_operand (a, end);
  if (a_end == a)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "'${%.*s}': expected a name or an integer, as in ${i}, ${i+1} or ${n/2}",
                        (int) len, s);
  op = '\0';
  b = a_end;
  while (b < end && is_blank (*b))
    b++;
  if (b == end)
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
  if (strchr ("+-*/%", *b) == NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "'${%.*s}': expected one of + - * / %% after '%.*s'",
                        (int) len, s, (int) (a_end - a), a);
  op = *b++;
  while (b < end && is_blank (*b))
    b++;
  b_end = expr_operand (b, end);
  if (b_end == b)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "'${%.*s}': expected a name or an integer after '%c'", (int) len, s, op);
  for (const char *q = b_end; q < end; q++)
    if (!is_blank (*q))
      return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                          "'${%.*s}': only one operator is allowed, as in ${i+1}", (int) len, s);
  if (!expr_value (p, a, a_end - a, col, s, len, &x, error)
      || !expr_value (p, b, b_end - b, col, s, len, &y, error))
    return FALSE;
  switch (op)
    {
    case '+':
      overflow = __builtin_add_overflow (x, y, &r);
      break;
    case '-':
      overflow = __builtin_sub_overflow (x, y, &r);
      break;
    case '*':
      overflow = __builtin_mul_overflow (x, y, &r);
      break;
    default:
      if (y == 0)
        return parser_fail (p, error, SCHEDULE_ERROR_RANGE, col,
                            "'${%.*s}': division by zero", (int) len, s);
      if (x == G_MININT64 && y == -1)
        overflow = TRUE;
      else
        r = op == '/' ? x / y : x % y;
      break;
    }
  if (overflow)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, col,
                        "'${%.*s}' does not fit 64 bits", (int) len, s);
  *value_len = g_snprintf (number, 32, "%" G_GINT64_FORMAT, r);
  *value = number;
  return TRUE;
}

/* Copies src (len bytes, whose first byte is at column col0 of the file's
 * line) into p->buf with every $NAME and ${...} replaced. Substituted bytes
 * take the column of their '$'. */
static gboolean
parser_subst (Parser *p, const char *src, gsize len, guint col0, GError **error)
{
  gsize out = 0;
  gsize i = 0;

  if (memchr (src, '$', len) == NULL)
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
      s = (char *) word_end (s, end);
      t->len = (guint) (s - t->s);
      if (s < end)
        *s++ = '\0';
    }
}

/* Makes lines[index] the current line: substituted and tokenized. */
static gboolean
parser_enter (Parser *p, gsize index, GError **error)
{
  const Line *l = &p->lines[index];

  p->index = index;
  p->lineno = l->lineno;
  if (!parser_subst (p, p->text + l->start + l->first, l->end - l->first, l->first + 1u, error))
    return FALSE;
  parser_tokenize (p);
  return TRUE;
}

/* ---- Parameters ---- */

static gboolean
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
static gboolean
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
static gboolean
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
  param = g_hash_table_lookup (p->params, p->name);
  if (param != NULL)
    {
      if (param->from_define && param->let_lineno == 0)
        {
          param->let_lineno = l->lineno;
          return TRUE;
        }
      return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, (guint) name_start + 1,
                          "parameter '%s' is defined twice; the first `let` is at line %u",
                          p->name, param->from_define ? param->let_lineno : param->lineno);
    }

  if (!parser_subst (p, line + pos, end - pos, (guint) pos + 1, error))
    return FALSE;
  for (vstart = 0; vstart < p->len && is_blank (p->buf[vstart]); vstart++)
    ;
  for (vend = p->len; vend > vstart && is_blank (p->buf[vend - 1]); vend--)
    ;
  if (vend == vstart)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) pos + 1,
                        "`let %.*s =` needs a value; the substitution left it empty",
                        (int) (name_end - name_start), line + name_start);
  if (g_hash_table_size (p->params) >= SCHEDULE_MAX_PARAMS)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, (guint) name_start + 1,
                        "more than %d parameters; a schedule may define at most that many",
                        SCHEDULE_MAX_PARAMS);
  value = g_strndup (p->buf + vstart, vend - vstart);
  param = g_new0 (Param, 1);
  param->value = value;
  param->line_index = index;
  param->lineno = l->lineno;
  g_hash_table_insert (p->params, g_strndup (line + name_start, name_end - name_start), param);
  return TRUE;
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
  if (param != NULL && (param->from_define || param->line_index < index))
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
  if (*from > *to)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t[2].col,
                        "empty range %s: a loop needs A <= B", t[2].s);

  var = &p->vars[p->depth];
  if (var->name == NULL)
    var->name = g_string_new (NULL);
  g_string_assign (var->name, t[1].s);
  var->lineno = p->lineno;
  var->value = *from;
  var->used = FALSE;
  return TRUE;
}

static guint64
range_trips (gint64 from, gint64 to)
{
  guint64 trips = (guint64) to - (guint64) from + 1;
  return trips == 0 ? G_MAXUINT64 : trips; /* the whole 64-bit range */
}

/* Pass 2: how many ops and declarations lines[from, to) expand to. */
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
        case LINE_END:
          i++;
          break;
        case LINE_REPEAT:
          {
            gint64 a, b;
            Count body, loop;
            LoopVar *var;

            if (!parser_repeat (p, i, &a, &b, error))
              return FALSE;
            if (!l->empty_body)
              {
                var = &p->vars[p->depth++];
                if (!parser_count (p, i + 1, l->match, &body, error))
                  return FALSE;
                if (!var->used)
                  {
                    guint64 trips = range_trips (a, b);
                    loop.ops = sat_mul (body.ops, trips);
                    loop.decls = sat_mul (body.decls, trips);
                    loop.lower_bound = body.lower_bound;
                  }
                else
                  {
                    /* Nested headers read this variable: count each
                     * iteration, and stop once past the limit. */
                    loop = body;
                    for (gint64 v = a; v != b && !loop.lower_bound;)
                      {
                        if (loop.ops > p->max_ops || loop.decls > p->max_ops)
                          {
                            loop.lower_bound = TRUE;
                            break;
                          }
                        var->value = ++v;
                        if (!parser_count (p, i + 1, l->match, &body, error))
                          return FALSE;
                        loop.ops = sat_add (loop.ops, body.ops);
                        loop.decls = sat_add (loop.decls, body.decls);
                        loop.lower_bound = body.lower_bound;
                      }
                  }
                p->depth--;
                count->ops = sat_add (count->ops, loop.ops);
                count->decls = sat_add (count->decls, loop.decls);
                count->lower_bound |= loop.lower_bound;
              }
            i = l->match + 1;
            break;
          }
        }
      if (top && !p->over && (count->ops > p->max_ops || count->decls > p->max_ops))
        {
          p->over = TRUE;
          p->over_ops = count->ops > p->max_ops;
          p->over_index = l - p->lines;
        }
    }
  return TRUE;
}

/* ---- Pass 3: statements ---- */

static SchedOp *
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

static gboolean
parser_stream_ref (Parser *p, const Token *t, guint32 *index, GError **error)
{
  gpointer found = g_hash_table_lookup (p->sched->stream_index, t->s);

  if (found != NULL)
    {
      *index = GPOINTER_TO_UINT (found) - 1;
      return TRUE;
    }
  found = g_hash_table_lookup (p->sched->event_index, t->s);
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
  if (!is_object_name (t->s) || strcmp (t->s, "device") == 0)
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

static gboolean
parser_label (Parser *p, const Token *t, const char *value, SchedOp *op, GError **error)
{
  if (op->label != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "label= is given twice; an op has one label");
  if (*value == '\0')
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                        "label= needs a name, for example label=upload");
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

static gboolean
stmt_device (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;

  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 2 ? t[2].col : t[0].col,
                        "expected `device NAME` with one profile name, for example `device k20`");
  if (!is_object_name (t[1].s))
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

static gboolean
stmt_connections (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;
  guint64 n;

  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens > 2 ? t[2].col : t[0].col,
                        "expected `connections N` with N from 1 to 32 (CUDA_DEVICE_MAX_CONNECTIONS)");
  if (sched->connections != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[0].col,
                        "`connections` is given twice; the first is at line %u",
                        sched->connections_line);
  if (!parser_uint (p, &t[1], t[1].s, 1, 32, "connections", &n, error))
    return FALSE;
  sched->connections = (guint) n;
  sched->connections_line = p->lineno;
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
  if (!is_object_name (t[1].s) || strcmp (t[1].s, "device") == 0)
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

/* The optional tokens after a copy's size: pageable or pinned, label=. */
static gboolean
parser_copy_tail (Parser *p, guint first, SchedOp *op, const char *usage, GError **error)
{
  gboolean have_memory = FALSE;

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
      else if ((value = TOKEN_ATTR (t, "label")) != NULL)
        {
          if (!parser_label (p, t, value, op, error))
            return FALSE;
        }
      else
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                            "unexpected '%s'; expected %s", t->s, usage);
    }
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
    "`h2d STREAM SIZE [pageable|pinned] [label=NAME]`",
    "`d2h STREAM SIZE [pageable|pinned] [label=NAME]`",
    "`d2d STREAM SIZE [pageable|pinned] [label=NAME]`",
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
  static const char usage[] = "`memcpy h2d|d2h|d2d SIZE [pageable|pinned] [label=NAME]`";
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

/* time=2ms, or time=c1060:4.3ms,k20:0.4ms,1ms (a bare entry is the fallback). */
static gboolean
parser_time_list (Parser *p, const Token *t, char *value, guint32 *index, GError **error)
{
  Schedule *sched = p->sched;
  ScheduleTimeList list;
  char *s = value;

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

  list.first = sched->times->len;
  list.n = 0;
  for (;;)
    {
      char *comma = strchr (s, ',');
      char *colon;
      SchedDeviceTime entry = { NULL, 0 };
      const char *time_text = s;
      const char *why;

      if (comma != NULL)
        *comma = '\0';
      if (*s == '\0')
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, parser_col (p, s),
                            "empty entry in time=; write time=2ms or time=k20:0.4ms,c2050:1.1ms,2ms");
      colon = strchr (s, ':');
      if (colon != NULL)
        {
          *colon = '\0';
          if (!is_object_name (s))
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, parser_col (p, s),
                                "'%s' is not a device name in time=; names use letters, digits, "
                                "'_', '.' and '-', as in time=k20:0.4ms", s);
          entry.device = s;
          time_text = colon + 1;
        }
      if (!units_parse_time (time_text, &entry.time, &why))
        return parser_fail (p, error, why_code (why), parser_col (p, time_text),
                            "bad time '%s' in time=: %s", time_text, why);
      for (guint i = 0; i < list.n; i++)
        {
          const SchedDeviceTime *other = &g_array_index (sched->times, SchedDeviceTime,
                                                         list.first + i);
          if (entry.device == NULL && other->device == NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, parser_col (p, s),
                                "time= has two entries without a device; "
                                "give at most one fallback time");
          if (entry.device != NULL && other->device != NULL
              && strcmp (entry.device, other->device) == 0)
            return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, parser_col (p, s),
                                "device '%s' appears twice in time=", entry.device);
        }
      if (entry.device != NULL)
        entry.device = parser_intern (p, entry.device);
      g_array_append_val (sched->times, entry);
      list.n++;
      if (comma == NULL)
        break;
      s = comma + 1;
    }
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
    "and optionally smem=SIZE, regs=N and label=NAME";
  const Token *t = p->tokens;
  const Token *timing = NULL;
  gboolean have_grid = FALSE, have_block = FALSE, have_smem = FALSE, have_regs = FALSE;
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
      guint64 n;

      if (eq == NULL)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                            "unexpected '%s'; %s", a->s, attrs);
      key_len = eq - a->s;
      value = eq + 1;
#define KEY_IS(key) (key_len == sizeof (key) - 1 && memcmp (a->s, key, key_len) == 0)
#define ONCE(flag, key)                                                               \
  G_STMT_START                                                                        \
  {                                                                                   \
    if (flag)                                                                         \
      return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col, key " is given twice"); \
    flag = TRUE;                                                                      \
  }                                                                                   \
  G_STMT_END
      if (KEY_IS ("grid"))
        {
          ONCE (have_grid, "grid=");
          if (!parser_uint (p, a, value, 1, G_MAXINT32, "grid=", &n, error))
            return FALSE;
          k->grid = (guint32) n;
        }
      else if (KEY_IS ("block"))
        {
          ONCE (have_block, "block=");
          if (!parser_uint (p, a, value, 1, 1024, "block=", &n, error))
            return FALSE;
          k->block = (guint32) n;
        }
      else if (KEY_IS ("smem"))
        {
          const char *why;
          ONCE (have_smem, "smem=");
          if (!units_parse_size (value, &n, &why))
            return parser_fail (p, error, why_code (why), a->col, "bad smem= '%s': %s", value, why);
          if (n > G_MAXUINT32)
            return parser_fail (p, error, SCHEDULE_ERROR_RANGE, a->col,
                                "smem=%s is out of range; shared memory per block must be below 4GiB",
                                value);
          k->smem = (guint32) n;
        }
      else if (KEY_IS ("regs"))
        {
          ONCE (have_regs, "regs=");
          if (!parser_uint (p, a, value, 1, 255, "regs=", &n, error))
            return FALSE;
          k->regs = (guint32) n;
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
#undef ONCE
    }
  if (!have_grid)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "kernel needs grid=BLOCKS (1 to 2147483647)");
  if (!have_block)
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
  return parser_event_ref (p, &t[1], &op->event, error)
         && parser_stream_ref (p, &t[2], &op->stream, error)
         && parser_label_tail (p, 3, op, usage, error);
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
         && parser_label_tail (p, 3, op, usage, error);
}

/* `sync NAME` means the stream NAME if there is one, else the event NAME. */
static gboolean
stmt_sync (Parser *p, GError **error)
{
  static const char usage[] = "`sync STREAM`, `sync EVENT` or `sync device`, then optionally label=NAME";
  const Token *t = p->tokens;
  gpointer stream;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  stream = g_hash_table_lookup (p->sched->stream_index, t[1].s);
  if (strcmp (t[1].s, "device") == 0)
    op = parser_op (p, SCHED_OP_SYNC_DEVICE);
  else if (stream != NULL)
    {
      op = parser_op (p, SCHED_OP_SYNC_STREAM);
      op->stream = GPOINTER_TO_UINT (stream) - 1;
    }
  else
    {
      op = parser_op (p, SCHED_OP_SYNC_EVENT);
      if (!parser_event_ref (p, &t[1], &op->event, error))
        return FALSE;
    }
  return parser_label_tail (p, 2, op, usage, error);
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

static gboolean
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
      if (KW_IS ("end"))
        goto structural;
      break;
    case 'h':
      if (KW_IS ("h2d"))
        return stmt_copy (p, SCHED_DIR_H2D, error);
      if (KW_IS ("host"))
        return stmt_host (p, error);
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
    case 'w':
      if (KW_IS ("wait"))
        return stmt_wait (p, error);
      break;
    default:
      break;
    }
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->tokens[0].col,
                      "unknown statement '%s'; expected one of device, connections, let, stream, "
                      "repeat, end, h2d, d2h, d2d, memcpy, kernel, record, wait, sync, host", kw);
structural:
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->tokens[0].col,
                      "`%s` must be written out, not produced by a substitution", kw);
}
#undef KW_IS

static gboolean
parser_expand (Parser *p, gsize from, gsize to, GError **error)
{
  for (gsize i = from; i < to;)
    {
      const Line *l = &p->lines[i];

      switch ((LineKind) l->kind)
        {
        case LINE_OP:
        case LINE_DECL:
        case LINE_SETTING:
          if (!parser_enter (p, i, error))
            return FALSE;
          if (p->n_tokens > 0 && !parser_statement (p, error))
            return FALSE;
          i++;
          break;
        case LINE_LET: /* defined by the count pass */
        case LINE_END:
          i++;
          break;
        case LINE_REPEAT:
          if (!l->empty_body)
            {
              gint64 a, b;
              LoopVar *var;

              if (!parser_repeat (p, i, &a, &b, error))
                return FALSE;
              var = &p->vars[p->depth++];
              for (gint64 v = a;; v++)
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
      const Line *l = &p->lines[p->over_index];
      gboolean ops = p->over_ops;
      guint64 n = ops ? total.ops : total.decls;
      gboolean exact = !total.lower_bound && n != G_MAXUINT64;

      p->lineno = l->lineno;
      return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, l->first + 1u,
                          "the schedule expands to %s%" G_GUINT64_FORMAT " %s, more than --max-ops %"
                          G_GUINT64_FORMAT, exact ? "" : "more than ", n,
                          ops ? "ops" : "stream declarations", p->max_ops);
    }

  p->ops_cap = total.ops;
  p->sched->ops = g_new (SchedOp, p->ops_cap);
  if (!parser_expand (p, 0, p->n_lines, error)
      || !parser_defines_used (p, options != NULL ? options->defines : NULL, error))
    return FALSE;
  if (p->sched->n_ops < p->ops_cap)
    p->sched->ops = g_renew (SchedOp, p->sched->ops, p->sched->n_ops);
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
  p->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, param_free);
  p->time_lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sched = p->sched = schedule_new (path);

  ok = parser_run (p, options, error);

  for (guint d = 0; d < REPEAT_MAX_DEPTH; d++)
    if (p->vars[d].name != NULL)
      g_string_free (p->vars[d].name, TRUE);
  g_hash_table_unref (p->params);
  g_hash_table_unref (p->time_lists);
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
