/* schedule_scan.c: pass 1 of the schedule parser: the text split into statement lines, checked as UTF-8, comments stripped, each `repeat` paired with its `end`. */
#include "schedule_parser.h"

/* What one pass over a line finds: where it ends, its first '#' and '$',
 * and whether it is plain ASCII (0x01..0x7f, valid UTF-8 without NUL). */
typedef struct
{
  gsize len;      /* bytes before its '\n', or to the end of the text */
  gsize hash;     /* offset of the first '#', or len */
  gsize dollar;   /* offset of the first '$', or len */
  gboolean plain;
} LineScan;

/* 0x01 and 0x80 in every byte of a word. */
static const guint64 every_byte_01 = G_GUINT64_CONSTANT (0x0101010101010101);
static const guint64 every_byte_80 = G_GUINT64_CONSTANT (0x8080808080808080);

/* The flags of the zero bytes of v, in their high bits: (v - 0x01..) & ~v
 * & 0x80.. . The lowest flag is exactly the first zero byte; a byte above a
 * zero one may be flagged too (the borrow), so only the lowest counts. */
static inline guint64
zero_bytes (guint64 v)
{
  return (v - every_byte_01) & ~v & every_byte_80;
}

/* The offset of the lowest flag in `flags` below `limit`, or `none`. */
static inline gsize
first_flag (guint64 flags, guint64 limit, gsize base, gsize none)
{
  flags &= limit;
  return flags != 0 ? base + (gsize) __builtin_ctzll (flags) / 8 : none;
}

/* Scans the line at s (end: the end of the text) eight bytes at a time for
 * its '\n', '#' and '$' and for bytes that are not plain ASCII. It replaces
 * three memchr calls and an ASCII check per line: memchr was a sixth of
 * parsing's samples at 10^6 ops, since a call per 35-byte line costs more
 * in setup and mispredicted tails than the scan. This takes more
 * instructions but less time (PERFORMANCE-LOG.md, eighteenth round).
 *
 * Each set of flags is cut below the line's '\n'. Only the lowest flag of
 * a set is exact, but a flag above a true match is never the lowest, so
 * "some flag below the '\n'" and "the first flag" are exact too. */
static LineScan
line_scan (const char *s, const char *end)
{
  LineScan r = { 0, G_MAXSIZE, G_MAXSIZE, TRUE };
  gsize i = 0, left = (gsize) (end - s);
  for (; left - i >= 8; i += 8)
    {
      guint64 x;
      memcpy (&x, s + i, 8);
      x = GUINT64_FROM_LE (x);
      guint64 newline = zero_bytes (x ^ ('\n' * every_byte_01));
      /* the bytes before the line's end: all eight, or those below its '\n' */
      guint64 limit = newline == 0 ? G_MAXUINT64 : (newline & -newline) - 1;
      if ((x | zero_bytes (x)) & every_byte_80 & limit)
        r.plain = FALSE;
      if (r.hash == G_MAXSIZE)
        r.hash = first_flag (zero_bytes (x ^ ('#' * every_byte_01)), limit, i, G_MAXSIZE);
      if (r.dollar == G_MAXSIZE)
        r.dollar = first_flag (zero_bytes (x ^ ('$' * every_byte_01)), limit, i, G_MAXSIZE);
      if (newline != 0)
        {
          r.len = first_flag (newline, G_MAXUINT64, i, 0);
          goto done;
        }
    }
  for (; i < left && s[i] != '\n'; i++)
    {
      if ((guchar) s[i] - 1u >= 0x7fu)
        r.plain = FALSE;
      if (s[i] == '#' && r.hash == G_MAXSIZE)
        r.hash = i;
      if (s[i] == '$' && r.dollar == G_MAXSIZE)
        r.dollar = i;
    }
  r.len = i;
done:
  r.hash = MIN (r.hash, r.len);
  r.dollar = MIN (r.dollar, r.len);
  return r;
}

gboolean
parser_scan (Parser *p, GError **error)
{
  const char *text = p->text;
  gsize pos = 0;
  guint32 lineno = 0;
  gsize open[REPEAT_MAX_DEPTH];
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

  while (pos < p->length)
    {
      const char *line = text + pos;
      LineScan scan = line_scan (line, text + p->length);
      gsize len = scan.len;
      gsize next = MIN (pos + len + 1, p->length);
      const char *bad;
      gsize first, end, word;
      Line *l;

      p->lineno = ++lineno;
      if (len > 0 && line[len - 1] == '\r')
        len--;
      if (len > LINE_MAX_BYTES)
        return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, LINE_MAX_BYTES + 1,
                            "the line is %" G_GSIZE_FORMAT " bytes long; lines may be at most %d bytes",
                            len, LINE_MAX_BYTES);
      if (!scan.plain && !g_utf8_validate (line, (gssize) len, &bad))
        {
          if (*bad == '\0')
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) (bad - line) + 1,
                                "NUL byte; a schedule is UTF-8 text without NUL bytes");
          return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, (guint) (bad - line) + 1,
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
      else if (WORD_IS ("stream") || WORD_IS ("event"))
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
