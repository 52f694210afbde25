/* schedule_scan.c: pass 1 of the schedule parser: the text split into statement lines, checked as UTF-8, comments stripped, each `repeat`, `if`, `graph` and `thread` paired with its `else` and `end`. */
#include "schedule_parser.h"

/* Where a line ends, and its first '#' and '$'. */
typedef struct
{
  gsize len;    /* bytes before its '\n', or to the end of the text */
  gsize hash;   /* offset of the first '#', or len */
  gsize dollar; /* offset of the first '$' before `hash`, or len */
} LineScan;

static LineScan
line_scan (const char *s, const char *end)
{
  LineScan r;
  const char *nl = memchr (s, '\n', (gsize) (end - s));
  r.len = nl != NULL ? (gsize) (nl - s) : (gsize) (end - s);
  const char *hash = memchr (s, '#', r.len);
  r.hash = hash != NULL ? (gsize) (hash - s) : r.len;
  const char *dollar = memchr (s, '$', r.hash);
  r.dollar = dollar != NULL ? (gsize) (dollar - s) : r.len;
  return r;
}

gboolean
parser_scan (Parser *p, GError **error)
{
  const char *text = p->text;
  gsize pos = 0;
  guint32 lineno = 0;
  /* The open blocks: the `repeat` or `if` line, the `else` line once one
   * is read (the opener of the branch a `let` belongs to), and the
   * statements before the block, which tell an empty loop body. */
  gsize open[REPEAT_MAX_DEPTH];
  gsize branch[REPEAT_MAX_DEPTH];
  gsize stmts_at_open[REPEAT_MAX_DEPTH];
  guint depth = 0;
  gsize n_stmts = 0;

  /* Room for a statement per 32 bytes (the generated schedules average 34
   * bytes a line), doubled when short: counting the lines first was a pass
   * over the whole text, and a memchr call per line. */
  gsize lines_cap = MIN (p->length / 32 + 16, SCHEDULE_MAX_LINES);
  p->lines = g_new (Line, lines_cap);
  /* A UTF-8 byte order mark, as some Windows editors write, is not text. */
  if (p->length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    pos = 3;
  /* The text is checked as UTF-8 in one pass; the first bad byte is
   * reported when the scan reaches its line, after what the lines before
   * it report.
   * Option: an OR over the bytes first, skipping the check for ASCII text; 1% of the benchmark's end-to-end figure. */
  const char *bad = NULL;
  gsize bad_at = G_MAXSIZE;
  if (!g_utf8_validate_len (text, p->length, &bad))
    bad_at = (gsize) (bad - text);

  while (pos < p->length)
    {
      const char *line = text + pos;
      LineScan scan = line_scan (line, text + p->length);
      gsize len = scan.len;
      gsize next = MIN (pos + len + 1, p->length);
      gsize first, end, word;
      Line *l;

      p->lineno = ++lineno;
      if (len > 0 && line[len - 1] == '\r')
        len--;
      if (len > LINE_MAX_BYTES)
        return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, LINE_MAX_BYTES + 1,
                            "the line is %" G_GSIZE_FORMAT " bytes long; lines may be at most %d bytes",
                            len, LINE_MAX_BYTES);
      if (bad_at >= pos && bad_at - pos < len)
        {
          if (*bad == '\0')
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) (bad_at - pos) + 1,
                                "NUL byte; a schedule is UTF-8 text without NUL bytes");
          return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) (bad_at - pos) + 1,
                              "invalid UTF-8; a schedule is UTF-8 text");
        }
      pos = next;

      end = MIN (scan.hash, len);
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
      if (p->n_lines == lines_cap)
        {
          lines_cap = MIN (2 * lines_cap, SCHEDULE_MAX_LINES);
          p->lines = g_renew (Line, p->lines, lines_cap);
        }
      l = &p->lines[p->n_lines];
      l->start = line - text;
      l->lineno = lineno;
      l->first = (guint16) first;
      l->end = (guint16) end;
      l->match = 0;
      l->empty_body = FALSE;
      l->has_dollar = scan.dollar < end;
      word = (gsize) (word_end (line + first, line + end) - line);
#define WORD_IS(w) (word - first == sizeof (w) - 1 && memcmp (line + first, w, sizeof (w) - 1) == 0)
      if (WORD_IS ("repeat") || WORD_IS ("if") || WORD_IS ("graph") || WORD_IS ("thread"))
        {
          gboolean is_if = WORD_IS ("if");
          if (depth == REPEAT_MAX_DEPTH)
            return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, (guint) first + 1,
                                "repeat, if, graph and thread blocks nest at most %d deep",
                                REPEAT_MAX_DEPTH);
          l->kind = is_if ? LINE_IF : WORD_IS ("graph") ? LINE_GRAPH
                    : WORD_IS ("thread") ? LINE_THREAD : LINE_REPEAT;
          open[depth] = branch[depth] = p->n_lines;
          stmts_at_open[depth] = n_stmts;
          depth++;
        }
      else if (WORD_IS ("end") || WORD_IS ("else"))
        {
          gboolean is_end = WORD_IS ("end");
          Line *r;
          gsize extra = word;
          while (extra < end && is_blank (line[extra]))
            extra++;
          if (extra < end)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) extra + 1,
                                is_end ? "unexpected text after `end`; `end` stands alone on its line"
                                       : "unexpected text after `else`; `else` stands alone on its "
                                         "line (write a nested `if` on the next line)");
          if (is_end && depth == 0)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) first + 1,
                                "`end` without a `repeat`, `if`, `graph` or `thread`; each `repeat VAR "
                                "A..B`, `if EXPR`, `graph STREAM` and `thread NAME` takes one `end`");
          r = depth > 0 ? &p->lines[open[depth - 1]] : NULL;
          if (!is_end && (r == NULL || r->kind != LINE_IF || branch[depth - 1] != open[depth - 1]))
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) first + 1,
                                r == NULL || r->kind != LINE_IF
                                ? "`else` without an `if`; write `if EXPR`, its lines, `else`, "
                                  "the other lines, `end`"
                                : "a second `else` for the `if` at line %u; an `if` has at most one",
                                r == NULL ? 0 : r->lineno);
          if (!is_end)
            {
              l->kind = LINE_ELSE;
              r->match = (guint32) p->n_lines;
              branch[depth - 1] = p->n_lines;
            }
          else
            {
              l->kind = LINE_END;
              depth--;
              p->lines[branch[depth]].match = (guint32) p->n_lines;
              r->empty_body = n_stmts == stmts_at_open[depth];
            }
        }
      else if (WORD_IS ("let"))
        {
          l->kind = LINE_LET;
          l->match = depth > 0 ? (guint32) branch[depth - 1] : NO_BLOCK;
        }
      else if (WORD_IS ("stream") || WORD_IS ("event"))
        {
          l->kind = LINE_DECL;
          n_stmts++;
        }
      else if (WORD_IS ("device") || WORD_IS ("connections") || WORD_IS ("pool_threshold")
               || WORD_IS ("device_schedule"))
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
                          r->kind == LINE_IF
                          ? "`if` without a matching `end`; close each `if` with a line `end`"
                          : r->kind == LINE_GRAPH
                          ? "`graph` without a matching `end`; close each graph with a line `end`"
                          : r->kind == LINE_THREAD
                          ? "`thread` without a matching `end`; close each thread block with a "
                            "line `end`"
                          : "`repeat` without a matching `end`; close each loop with a line `end`");
    }
  return TRUE;
}
