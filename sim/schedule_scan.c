/* schedule_scan.c: pass 1 of the schedule parser: the text split into statement lines, checked as UTF-8, comments stripped, each `repeat` paired with its `end`. */
#include "schedule_parser.h"

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

gboolean
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
