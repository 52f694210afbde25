/* timeline_read.c: a timeline CSV read back whole, every mistake reported as file:line:column. */
#include <string.h>
#include "timeline.h"
#include "timeline_private.h"
#include "sim/core/located_error.h"
#include "sim/core/schedule.h"
#include "input_file.h"

static void G_GNUC_PRINTF (5, 6)
set_parse_error (GError **error, const char *path, guint line, guint column,
                 const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (error, TIMELINE_ERROR, TIMELINE_ERROR_PARSE, path, line, column, format,
                      args);
  va_end (args);
}

/* One field of a record: its unquoted text sits at `offset` in the record's
 * buffer, NUL-terminated; line and column are where it starts in the file. */
typedef struct
{
  gsize offset;
  guint line;
  guint column;
} CsvField;

typedef struct
{
  const char *path;
  const char *p;
  const char *end;
  const char *line_start;
  guint line;
  const char *col_at;  /* the last position csv_column counted to, on this line */
  guint col;           /* its column */
} CsvReader;

/* Columns count characters from the start of the line. Fields are read left
 * to right, so counting on from the last position asked for keeps a line of
 * n fields O(n) rather than O(n^2) (a header of 300,000 commas). */
static guint
csv_column (CsvReader *r, const char *at)
{
  if (r->col_at == NULL || r->col_at < r->line_start || r->col_at > at)
    {
      r->col_at = r->line_start;
      r->col = 1;
    }
  r->col += (guint) g_utf8_strlen (r->col_at, at - r->col_at);
  r->col_at = at;
  return r->col;
}

static gboolean
csv_at_eol (const CsvReader *r)
{
  return r->p == r->end || *r->p == '\n'
         || (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n');
}

/* Moves past the end of the line the reader is at (LF or CRLF). */
static void
csv_next_line (CsvReader *r)
{
  while (r->p < r->end && *r->p != '\n')
    r->p++;
  if (r->p < r->end)
    r->p++;
  r->line++;
  r->line_start = r->p;
}

/* Reads one RFC 4180 record into `fields` and `text`. A quoted field may span
 * lines; the reader's line count follows it. */
static gboolean
csv_read_record (CsvReader *r, GArray *fields, GString *text, guint *end_column,
                 GError **error)
{
  g_array_set_size (fields, 0);
  g_string_truncate (text, 0);

  for (;;)
    {
      CsvField field = { text->len, r->line, csv_column (r, r->p) };
      if (r->p < r->end && *r->p == '"')
        {
          r->p++;
          for (;;)
            {
              if (r->p == r->end)
                {
                  set_parse_error (error, r->path, field.line, field.column,
                                   "a quoted field is not closed; it ends with a lone '\"'");
                  return FALSE;
                }
              if (*r->p == '"')
                {
                  if (r->p + 1 < r->end && r->p[1] == '"')
                    {
                      g_string_append_c (text, '"');
                      r->p += 2;
                      continue;
                    }
                  r->p++;
                  break;
                }
              g_string_append_c (text, *r->p);
              if (*r->p++ == '\n')
                {
                  r->line++;
                  r->line_start = r->p;
                }
            }
          if (!csv_at_eol (r) && *r->p != ',')
            {
              set_parse_error (error, r->path, r->line, csv_column (r, r->p),
                               "text after the closing quote of a field; a quote inside "
                               "a quoted field is written twice (\"\")");
              return FALSE;
            }
        }
      else
        {
          while (!csv_at_eol (r) && *r->p != ',')
            {
              if (*r->p == '"')
                {
                  set_parse_error (error, r->path, r->line, csv_column (r, r->p),
                                   "a quote inside an unquoted field; quote the whole "
                                   "field and write the quote twice (\"\")");
                  return FALSE;
                }
              g_string_append_c (text, *r->p++);
            }
        }
      g_string_append_c (text, '\0');
      g_array_append_val (fields, field);

      if (r->p < r->end && *r->p == ',')
        {
          r->p++;
          continue;
        }
      *end_column = csv_column (r, r->p);
      csv_next_line (r);
      return TRUE;
    }
}

typedef enum
{
  INT_OK,
  INT_MALFORMED,
  INT_TOO_LARGE,
} IntResult;

static IntResult
parse_uint (const char *text, guint64 max, guint64 *value)
{
  guint64 v = 0;
  if (*text == '\0')
    return INT_MALFORMED;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return INT_MALFORMED;
      guint digit = *p - '0';
      if (v > (max - digit) / 10)
        {
          /* Keep scanning: "12x" with an overflowing prefix is still malformed. */
          for (; *p != '\0'; p++)
            if (!g_ascii_isdigit (*p))
              return INT_MALFORMED;
          return INT_TOO_LARGE;
        }
      v = v * 10 + digit;
    }
  *value = v;
  return INT_OK;
}

/* A field's text as quoted in a message, cut short when long. */
static char *
shown_text (const char *text)
{
  if (g_utf8_strlen (text, -1) <= 40)
    return g_strdup (text);
  char *head = g_utf8_substring (text, 0, 40);
  char *shown = g_strconcat (head, "...", NULL);
  g_free (head);
  return shown;
}

typedef struct
{
  const char *path;
  const char *buffer;       /* the record's field texts */
  const CsvField *fields;
  const int *index;         /* column -> field index, -1 when absent */
} RowContext;

/* Reads an integer column into *value. An absent or empty optional column
 * gives `empty`; -1 is allowed only where `empty` is -1 (conn). */
static gboolean
row_int (const RowContext *ctx, TimelineColumn c, guint64 max, gint64 empty,
         gint64 *value, GError **error)
{
  if (ctx->index[c] < 0)
    {
      *value = empty;
      return TRUE;
    }
  const CsvField *f = &ctx->fields[ctx->index[c]];
  const char *text = ctx->buffer + f->offset;
  if (*text == '\0' && !timeline_columns[c].required)
    {
      *value = empty;
      return TRUE;
    }
  if (empty < 0 && strcmp (text, "-1") == 0)
    {
      *value = -1;
      return TRUE;
    }

  guint64 v = 0;
  IntResult result = parse_uint (text, max, &v);
  if (result == INT_OK)
    {
      *value = (gint64) v;
      return TRUE;
    }
  char *shown = shown_text (text);
  if (*text == '\0')
    set_parse_error (error, ctx->path, f->line, f->column,
                     "empty %s; it is required: a non-negative integer", timeline_columns[c].name);
  else if (result == INT_MALFORMED)
    set_parse_error (error, ctx->path, f->line, f->column,
                     "bad %s '%s': expected a non-negative integer%s", timeline_columns[c].name, shown,
                     empty < 0 ? " or -1 (or nothing) for no queue" : "");
  else
    set_parse_error (error, ctx->path, f->line, f->column,
                     "%s '%s' is too large; at most %" G_GUINT64_FORMAT, timeline_columns[c].name,
                     shown, max);
  g_free (shown);
  return FALSE;
}

static gboolean
row_text (const RowContext *ctx, TimelineColumn c, const char **value, GError **error)
{
  *value = NULL;
  if (ctx->index[c] < 0)
    return TRUE;
  const CsvField *f = &ctx->fields[ctx->index[c]];
  const char *text = ctx->buffer + f->offset;
  /* Host work and device or event syncs belong to no stream: their stream
   * field is empty, but the column itself is still required. */
  if (*text == '\0' && c == COL_STREAM)
    {
      *value = "";
      return TRUE;
    }
  if (*text == '\0' && timeline_columns[c].required)
    {
      set_parse_error (error, ctx->path, f->line, f->column, "empty %s; it is required",
                       timeline_columns[c].name);
      return FALSE;
    }
  *value = *text != '\0' ? text : NULL;
  return TRUE;
}

static gboolean
read_header (CsvReader *r, GArray *fields, GString *text, int *index, GError **error)
{
  guint header_line = r->line, end_column;
  if (!csv_read_record (r, fields, text, &end_column, error))
    return FALSE;

  for (guint c = 0; c < N_COLUMNS; c++)
    index[c] = -1;
  for (guint i = 0; i < fields->len; i++)
    {
      const CsvField *f = &g_array_index (fields, CsvField, i);
      /* "op, line" from a hand-edited file still names the columns. */
      const char *name = g_strstrip (text->str + f->offset);
      for (guint c = 0; c < N_COLUMNS; c++)
        if (strcmp (name, timeline_columns[c].name) == 0)
          {
            if (index[c] >= 0)
              {
                set_parse_error (error, r->path, f->line, f->column,
                                 "column '%s' appears twice in the header", name);
                return FALSE;
              }
            index[c] = (int) i;
          }
    }
  for (guint c = 0; c < N_COLUMNS; c++)
    if (timeline_columns[c].required && index[c] < 0)
      {
        set_parse_error (error, r->path, header_line, 1,
                         "the header has no column '%s'; required columns: " REQUIRED_COLUMNS
                         " (in any order; conn, bytes, grid, block, label, cause, thread optional)",
                         timeline_columns[c].name);
        return FALSE;
      }
  return TRUE;
}

static gboolean
read_row (Timeline *timeline, CsvReader *r, GArray *fields, GString *text,
          const int *index, guint n_columns, GHashTable *ops, GError **error)
{
  guint row_line = r->line, end_column;
  if (!csv_read_record (r, fields, text, &end_column, error))
    return FALSE;

  if (fields->len != n_columns)
    {
      guint column = fields->len > n_columns
                     ? g_array_index (fields, CsvField, n_columns).column
                     : end_column;
      guint line = fields->len > n_columns
                   ? g_array_index (fields, CsvField, n_columns).line
                   : r->line - 1;
      set_parse_error (error, r->path, line, column,
                       "this row has %u fields, the header has %u", fields->len, n_columns);
      return FALSE;
    }

  RowContext ctx = { r->path, text->str, (const CsvField *) fields->data, index };
  gint64 op, line, conn, issue, start, end, bytes, grid, block;
  TimelineRow row = { 0 };
  if (!row_int (&ctx, COL_OP, G_MAXUINT32, 0, &op, error)
      || !row_int (&ctx, COL_LINE, G_MAXUINT32, 0, &line, error)
      || !row_text (&ctx, COL_STREAM, &row.stream, error)
      || !row_text (&ctx, COL_KIND, &row.kind, error)
      || !row_text (&ctx, COL_ENGINE, &row.engine, error)
      || !row_int (&ctx, COL_CONN, G_MAXINT32, -1, &conn, error)
      || !row_int (&ctx, COL_ISSUE, G_MAXINT64, 0, &issue, error)
      || !row_int (&ctx, COL_START, G_MAXINT64, 0, &start, error)
      || !row_int (&ctx, COL_END, G_MAXINT64, 0, &end, error)
      || !row_int (&ctx, COL_BYTES, G_MAXINT64, 0, &bytes, error)
      || !row_int (&ctx, COL_GRID, G_MAXUINT32, 0, &grid, error)
      || !row_int (&ctx, COL_BLOCK, G_MAXUINT32, 0, &block, error)
      || !row_text (&ctx, COL_LABEL, &row.label, error)
      || !row_text (&ctx, COL_CAUSE, &row.cause, error)
      || !row_text (&ctx, COL_THREAD, &row.issuer, error))
    return FALSE;

  /* the schedule language's kinds of op: a row of another kind cannot be
   * matched against a prediction */
  const char *const *kinds = schedule_kind_names ();
  if (!g_strv_contains (kinds, row.kind))
    {
      const CsvField *f = &ctx.fields[index[COL_KIND]];
      char *shown = shown_text (row.kind);
      char *known = g_strjoinv (", ", (char **) kinds);
      set_parse_error (error, r->path, f->line, f->column,
                       "unknown kind '%s'; expected one of %s", shown, known);
      g_free (known);
      g_free (shown);
      return FALSE;
    }

  if (end < start)
    {
      const CsvField *f = &ctx.fields[index[COL_END]];
      set_parse_error (error, r->path, f->line, f->column,
                       "end_ns %" G_GINT64_FORMAT " is before start_ns %" G_GINT64_FORMAT
                       "; an op cannot end before it starts", end, start);
      return FALSE;
    }

  gpointer first_line;
  if (g_hash_table_lookup_extended (ops, GUINT_TO_POINTER ((guint) op), NULL, &first_line))
    {
      const CsvField *f = &ctx.fields[index[COL_OP]];
      set_parse_error (error, r->path, f->line, f->column,
                       "op %" G_GINT64_FORMAT " appears twice (first on line %u); op numbers "
                       "are unique", op, GPOINTER_TO_UINT (first_line));
      return FALSE;
    }
  g_hash_table_insert (ops, GUINT_TO_POINTER ((guint) op), GUINT_TO_POINTER (row_line));

  row.op = (guint32) op;
  row.line = (guint32) line;
  row.conn = (gint32) conn;
  row.issue = issue;
  row.start = start;
  row.end = end;
  row.bytes = (guint64) bytes;
  row.grid = (guint32) grid;
  row.block = (guint32) block;
  timeline_append (timeline, &row);
  return TRUE;
}

/* "# key: value" with a one-word key is metadata; any other '#' line is a
 * comment. */
static void
read_meta (Timeline *timeline, const char *line, gsize len)
{
  char *text = g_strndup (line + 1, len - 1);
  char *colon = strchr (text, ':');
  if (colon != NULL)
    {
      *colon = '\0';
      char *key = g_strstrip (text);
      char *value = g_strstrip (colon + 1);
      if (timeline_meta_key_is_valid (key))
        timeline_set_meta (timeline, key, value);
    }
  g_free (text);
}

static gboolean
read_contents (Timeline *timeline, const char *path, const char *data, gsize len,
               GError **error)
{
  if (!located_error_check_utf8 (error, TIMELINE_ERROR, TIMELINE_ERROR_PARSE, path, data, len,
                                 "timeline"))
    return FALSE;

  CsvReader r = { path, data, data + len, data, 1, NULL, 0 };
  /* A byte order mark, as spreadsheets write. */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    r.p = r.line_start = data + 3;

  GArray *fields = g_array_new (FALSE, FALSE, sizeof (CsvField));
  GString *text = g_string_new (NULL);
  GHashTable *ops = g_hash_table_new (g_direct_hash, g_direct_equal);
  int index[N_COLUMNS];
  guint n_columns = 0;
  gboolean ok = TRUE;

  while (ok && r.p < r.end)
    {
      if (csv_at_eol (&r))
        {
          /* Blank lines carry nothing; skipping them forgives a stray one at the end. */
          csv_next_line (&r);
          continue;
        }
      if (*r.p == '#')
        {
          if (n_columns > 0)
            {
              set_parse_error (error, path, r.line, 1,
                               "a comment after the header; '#' lines go before the header");
              ok = FALSE;
              break;
            }
          const char *eol = memchr (r.p, '\n', r.end - r.p);
          gsize n = (eol != NULL ? eol : r.end) - r.p;
          if (n > 0 && r.p[n - 1] == '\r')
            n--;
          read_meta (timeline, r.p, n);
          csv_next_line (&r);
          continue;
        }
      if (n_columns == 0)
        {
          ok = read_header (&r, fields, text, index, error);
          n_columns = fields->len;
        }
      else
        ok = read_row (timeline, &r, fields, text, index, n_columns, ops, error);
    }

  if (ok && n_columns == 0)
    {
      set_parse_error (error, path, r.line > 1 ? r.line - 1 : 1, 1,
                       "no header row; a timeline starts with the header " REQUIRED_COLUMNS
                       " (and optional columns) before its rows");
      ok = FALSE;
    }

  g_hash_table_unref (ops);
  g_string_free (text, TRUE);
  g_array_unref (fields);
  return ok;
}

/* "-" reads standard input. */
Timeline *
timeline_read (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Bounded, and stopping at a NUL byte: `compare /dev/zero x.csv` is refused
   * at once (the UTF-8 check below names the NUL), an endless pipe after 1 GiB. */
  gsize len = 0;
  GError *local = NULL;
  char *data = input_file_read (path, TIMELINE_MAX_FILE_BYTES, &len, &local);
  if (data == NULL)
    {
      gboolean io = g_error_matches (local, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO);
      g_set_error_literal (error, TIMELINE_ERROR, io ? TIMELINE_ERROR_IO : TIMELINE_ERROR_PARSE,
                           local->message);
      g_error_free (local);
      return NULL;
    }

  Timeline *timeline = timeline_read_data (path, data, len, error);
  g_free (data);
  return timeline;
}

Timeline *
timeline_read_data (const char *path, const char *data, gsize length, GError **error)
{
  g_return_val_if_fail (path != NULL && (data != NULL || length == 0), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  Timeline *timeline = timeline_new (path);
  if (!read_contents (timeline, input_file_name (path), data, length, error))
    {
      timeline_free (timeline);
      return NULL;
    }
  return timeline;
}
