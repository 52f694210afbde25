/* timeline.c: the timeline CSV, written through a temporary file and read back with file:line:column errors. */
#define _POSIX_C_SOURCE 200809L /* fdopen, fsync */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "timeline.h"
#include "located_error.h"
#include "schedule.h"
#include "input_file.h"
#include "output_file.h"
#include "str_append.h"

G_DEFINE_QUARK (timeline-error-quark, timeline_error)

/* The columns, in the order they are written. */
typedef enum
{
  COL_OP,
  COL_LINE,
  COL_STREAM,
  COL_KIND,
  COL_ENGINE,
  COL_CONN,
  COL_ISSUE,
  COL_START,
  COL_END,
  COL_BYTES,
  COL_GRID,
  COL_BLOCK,
  COL_LABEL,
  COL_CAUSE,
  N_COLUMNS
} TimelineColumn;

static const struct
{
  const char *name;
  gboolean required;
} columns[N_COLUMNS] = {
  [COL_OP] = { "op", TRUE },
  [COL_LINE] = { "line", TRUE },
  [COL_STREAM] = { "stream", TRUE },
  [COL_KIND] = { "kind", TRUE },
  [COL_ENGINE] = { "engine", TRUE },
  [COL_CONN] = { "conn", FALSE },
  [COL_ISSUE] = { "issue_ns", TRUE },
  [COL_START] = { "start_ns", TRUE },
  [COL_END] = { "end_ns", TRUE },
  [COL_BYTES] = { "bytes", FALSE },
  [COL_GRID] = { "grid", FALSE },
  [COL_BLOCK] = { "block", FALSE },
  [COL_LABEL] = { "label", FALSE },
  [COL_CAUSE] = { "cause", FALSE },
};

#define REQUIRED_COLUMNS "op, line, stream, kind, engine, issue_ns, start_ns, end_ns"

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

/* ---- Writing ---- */

struct TimelineWriter
{
  FILE *out;
  char *path;     /* the file asked for; NULL for stdout */
  char *tmp_path; /* where rows go until finish */
  gboolean failed;
  GString *row;   /* rows formatted and not yet written */
  gsize chunk;    /* rows are written once this many bytes have gathered */
  guint64 written; /* bytes written so far */
};

/* RFC 4180: a field holding a comma, quote or line break is quoted, and its
 * quotes doubled. */
static void
append_field (GString *s, const char *text)
{
  if (text == NULL)
    return;
  gsize n = strcspn (text, ",\"\r\n");
  if (text[n] == '\0')
    {
      str_append (s, text, n);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

static gboolean
writer_put (TimelineWriter *writer, const char *text, gsize len, GError **error)
{
  if (!writer->failed && fwrite (text, 1, len, writer->out) == len)
    return TRUE;
  int saved = errno;
  writer->failed = TRUE;
  g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO, "cannot write %s: %s",
               writer->tmp_path != NULL ? writer->tmp_path : "standard output",
               g_strerror (saved));
  return FALSE;
}

/* Rows go out in chunks that grow with what was written, a 256th of it,
 * from 16 KiB to 256 KiB: a million-row timeline then makes a few hundred
 * write calls instead of thousands (each costs the file system about as
 * much as formatting 50 rows), while a small one keeps a small buffer, so
 * the buffer stays below half a percent of the bytes written. */
#define WRITER_CHUNK_MIN (16 * 1024)
#define WRITER_CHUNK_MAX (256 * 1024)

/* Writes the rows gathered so far. */
static gboolean
writer_flush (TimelineWriter *writer, GError **error)
{
  gboolean ok = writer->row->len == 0 || writer_put (writer, writer->row->str, writer->row->len, error);
  writer->written += writer->row->len;
  writer->chunk = CLAMP (writer->written / 256, WRITER_CHUNK_MIN, WRITER_CHUNK_MAX);
  g_string_truncate (writer->row, 0);
  return ok;
}

static gboolean
meta_key_is_valid (const char *key)
{
  if (*key == '\0')
    return FALSE;
  for (const char *p = key; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '-'))
      return FALSE;
  return TRUE;
}

TimelineWriter *
timeline_writer_new (const char *path, const char *const *meta, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  for (const char *const *m = meta; m != NULL && m[0] != NULL; m += 2)
    g_return_val_if_fail (meta_key_is_valid (m[0]) && m[1] != NULL, NULL);

  TimelineWriter *writer = g_new0 (TimelineWriter, 1);
  writer->row = g_string_sized_new (WRITER_CHUNK_MIN + 4096);
  writer->chunk = WRITER_CHUNK_MIN;
  if (strcmp (path, "-") == 0)
    writer->out = stdout;
  else if (output_file_is_special (path))
    {
      /* /dev/null, /dev/stdout, a pipe or a link: written in place, since a
       * rename would replace it (tmp_path stays NULL). */
      int fd = output_file_open_special (path, NULL);
      if (fd < 0 || (writer->out = fdopen (fd, "w")) == NULL)
        {
          int saved = errno;
          g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO, "cannot write %s: %s", path,
                       g_strerror (saved));
          if (fd >= 0)
            close (fd);
          g_string_free (writer->row, TRUE);
          g_free (writer);
          return NULL;
        }
      writer->path = g_strdup (path);
    }
  else
    {
      /* Beside the target, not in /tmp, so that the rename stays on one file
       * system and is atomic. */
      writer->path = g_strdup (path);
      writer->tmp_path = g_strdup_printf ("%s.tmp.XXXXXX", path);
      int fd = g_mkstemp_full (writer->tmp_path, O_WRONLY, 0666);
      if (fd < 0 || (writer->out = fdopen (fd, "w")) == NULL)
        {
          int saved = errno;
          g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO,
                       "cannot create a temporary file beside %s: %s", path,
                       g_strerror (saved));
          if (fd >= 0)
            {
              close (fd);
              g_remove (writer->tmp_path);
            }
          g_free (writer->tmp_path);
          g_free (writer->path);
          g_string_free (writer->row, TRUE);
          g_free (writer);
          return NULL;
        }
    }

  GString *s = g_string_new (NULL);
  for (const char *const *m = meta; m != NULL && m[0] != NULL; m += 2)
    {
      /* A metadata value is one line. */
      char *value = g_strdup (m[1]);
      g_strdelimit (value, "\r\n", ' ');
      g_string_append_printf (s, "# %s: %s\n", m[0], value);
      g_free (value);
    }
  for (guint c = 0; c < N_COLUMNS; c++)
    g_string_append_printf (s, "%s%s", c ? "," : "", columns[c].name);
  g_string_append_c (s, '\n');
  gboolean ok = writer_put (writer, s->str, s->len, error);
  g_string_free (s, TRUE);
  if (!ok)
    {
      timeline_writer_abort (writer);
      return NULL;
    }
  return writer;
}

/* The row by GString appends: any row, slower (fields that need quotes). */
static void
append_row (GString *s, const TimelineRow *row)
{
  str_append_uint (s, row->op);
  g_string_append_c (s, ',');
  str_append_uint (s, row->line);
  g_string_append_c (s, ',');
  append_field (s, row->stream);
  g_string_append_c (s, ',');
  append_field (s, row->kind);
  g_string_append_c (s, ',');
  append_field (s, row->engine);
  g_string_append_c (s, ',');
  if (row->conn >= 0)
    str_append_int (s, row->conn);
  g_string_append_c (s, ',');
  str_append_int (s, row->issue);
  g_string_append_c (s, ',');
  str_append_int (s, row->start);
  g_string_append_c (s, ',');
  str_append_int (s, row->end);
  g_string_append_c (s, ',');
  /* Zero means "not a copy" / "not a kernel": left empty. */
  if (row->bytes != 0)
    str_append_uint (s, row->bytes);
  g_string_append_c (s, ',');
  if (row->grid != 0)
    str_append_uint (s, row->grid);
  g_string_append_c (s, ',');
  if (row->block != 0)
    str_append_uint (s, row->block);
  g_string_append_c (s, ',');
  append_field (s, row->label);
  g_string_append_c (s, ',');
  append_field (s, row->cause);
  g_string_append_c (s, '\n');
}

/* ---- The usual row, written through a pointer ----
 *
 * A million-row timeline spent most of its time in the appends' checks and
 * small memcpy calls. When no field needs quotes, the row's length is
 * bounded beforehand (each number at most 20 digits and a sign), so the
 * buffer is grown once and the fields are written through a pointer.
 * Numbers are written in place, from their last digit back, once their
 * length is known. (Until the twelfth round they went through a small
 * buffer and one copy of 24 bytes, which read back bytes just stored one at
 * a time: the CPU cannot forward those from its store buffer. Writing in
 * place halved this function's samples in a build without link-time
 * optimization, and made the CSV phase 2% faster in the Release build.)
 * The text is the same as append_row's. */

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* Writes the digits of v backwards, ending at d; returns the first. In 32
 * bits: a 64-bit division by 100 is a long multiply, and times in ns have 11
 * digits. */
static inline char *
digits_u32 (char *d, guint32 v)
{
  while (v >= 100)
    {
      guint i = v % 100 * 2;
      v /= 100;
      *--d = digit_pairs[i + 1];
      *--d = digit_pairs[i];
    }
  if (v >= 10)
    {
      *--d = digit_pairs[v * 2 + 1];
      *--d = digit_pairs[v * 2];
    }
  else
    *--d = (char) ('0' + v);
  return d;
}

/* How many decimal digits v has (1 for 0): its bit length L gives
 * t = floor(L x 1233 / 4096), about L x log10 2, and v has t or t + 1
 * digits; one comparison with 10^t tells which. */
static inline guint
decimal_digits (guint64 v)
{
  static const guint64 pow10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull
  };
  guint t = ((guint) (64 - __builtin_clzll (v | 1)) * 1233) >> 12; /* 0 .. 19 */
  return t + 1 - (v < pow10[t]) + (v == 0);
}

static inline char *
put_uint (char *p, guint64 v)
{
  char *end = p + decimal_digits (v), *d = end;
  while (v >= 100000000)
    {
      /* the low 8 digits, zeros included, in 32 bits */
      guint64 q = v / 100000000;
      guint32 lo = (guint32) (v - q * 100000000);
      v = q;
      for (guint j = 0; j < 4; j++)
        {
          guint i = lo % 100 * 2;
          lo /= 100;
          *--d = digit_pairs[i + 1];
          *--d = digit_pairs[i];
        }
    }
  digits_u32 (d, (guint32) v);
  return end;
}

static inline char *
put_int (char *p, gint64 v)
{
  if (v < 0)
    {
      *p++ = '-';
      return put_uint (p, (guint64) 0 - (guint64) v);
    }
  return put_uint (p, (guint64) v);
}

static inline char *
put_text (char *p, const char *text, gsize n)
{
  memcpy (p, text, n);
  return p + n;
}

/* The length of a field that needs no quotes, or G_MAXSIZE. */
static inline gsize
plain_len (const char *text)
{
  if (text == NULL)
    return 0;
  gsize n = strcspn (text, ",\"\r\n");
  return text[n] == '\0' ? n : G_MAXSIZE;
}

gboolean
timeline_writer_add (TimelineWriter *writer, const TimelineRow *row, GError **error)
{
  g_return_val_if_fail (writer != NULL && row != NULL, FALSE);
  g_return_val_if_fail (row->stream != NULL && row->kind != NULL && row->engine != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Rows gather in writer->row and go out a chunk at a time. */
  GString *s = writer->row;
  gsize n_stream = plain_len (row->stream), n_kind = plain_len (row->kind);
  gsize n_engine = plain_len (row->engine), n_label = plain_len (row->label);
  gsize n_cause = plain_len (row->cause);
  if ((n_stream | n_kind | n_engine | n_label | n_cause) == G_MAXSIZE)
    append_row (s, row);
  else
    {
      /* 9 numbers of at most 21 characters, 13 commas, a newline */
      gsize most = n_stream + n_kind + n_engine + n_label + n_cause + 9 * 21 + 14;
      gsize len = s->len;
      if (len + most >= s->allocated_len)
        {
          g_string_set_size (s, len + most); /* grows it */
          g_string_truncate (s, len);
        }
      char *p = s->str + len;
      p = put_uint (p, row->op);
      *p++ = ',';
      p = put_uint (p, row->line);
      *p++ = ',';
      p = put_text (p, row->stream, n_stream);
      *p++ = ',';
      p = put_text (p, row->kind, n_kind);
      *p++ = ',';
      p = put_text (p, row->engine, n_engine);
      *p++ = ',';
      if (row->conn >= 0)
        p = put_int (p, row->conn);
      *p++ = ',';
      p = put_int (p, row->issue);
      *p++ = ',';
      p = put_int (p, row->start);
      *p++ = ',';
      p = put_int (p, row->end);
      *p++ = ',';
      /* Zero means "not a copy" / "not a kernel": left empty. */
      if (row->bytes != 0)
        p = put_uint (p, row->bytes);
      *p++ = ',';
      if (row->grid != 0)
        p = put_uint (p, row->grid);
      *p++ = ',';
      if (row->block != 0)
        p = put_uint (p, row->block);
      *p++ = ',';
      if (n_label > 0)
        p = put_text (p, row->label, n_label);
      *p++ = ',';
      if (n_cause > 0)
        p = put_text (p, row->cause, n_cause);
      *p++ = '\n';
      *p = '\0';
      s->len = (gsize) (p - s->str);
    }

  if (s->len < writer->chunk)
    return TRUE;
  return writer_flush (writer, error);
}

void
timeline_writer_abort (TimelineWriter *writer)
{
  if (writer == NULL)
    return;
  if (writer->out != stdout)
    {
      fclose (writer->out);
      if (writer->tmp_path != NULL)
        g_remove (writer->tmp_path);
    }
  else
    {
      /* what was gathered for stdout goes out, as it would have unbuffered */
      writer_flush (writer, NULL);
      fflush (stdout);
    }
  g_free (writer->tmp_path);
  g_free (writer->path);
  g_string_free (writer->row, TRUE);
  g_free (writer);
}

/* Flushed and synced before the rename, so that the name never points at a
 * file whose rows are still in a buffer. */
gboolean
timeline_writer_finish (TimelineWriter *writer, GError **error)
{
  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const char *shown = writer->tmp_path != NULL ? writer->tmp_path
                      : writer->path != NULL ? writer->path : "standard output";
  if (writer->failed)
    {
      g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO,
                   "cannot finish %s: an earlier write failed", shown);
      timeline_writer_abort (writer);
      return FALSE;
    }
  if (!writer_flush (writer, error))
    {
      timeline_writer_abort (writer);
      return FALSE;
    }

  if (writer->out == stdout)
    {
      gboolean ok = fflush (stdout) == 0 && !ferror (stdout);
      if (!ok)
        g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO,
                     "cannot write standard output: %s", g_strerror (errno));
      g_string_free (writer->row, TRUE);
      g_free (writer);
      return ok;
    }

  int saved = 0;
  gboolean in_place = writer->tmp_path == NULL; /* a device, pipe or link: no fsync, no rename */
  if (fflush (writer->out) != 0 || (!in_place && fsync (fileno (writer->out)) != 0))
    saved = errno;
  if (fclose (writer->out) != 0 && saved == 0)
    saved = errno;
  writer->out = NULL;
  if (saved == 0 && !in_place && g_rename (writer->tmp_path, writer->path) != 0)
    saved = errno;
  if (saved != 0)
    {
      g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO, "cannot write %s: %s",
                   writer->path, g_strerror (saved));
      if (!in_place)
        g_remove (writer->tmp_path);
    }
  g_free (writer->tmp_path);
  g_free (writer->path);
  g_string_free (writer->row, TRUE);
  g_free (writer);
  return saved == 0;
}

/* ---- The timeline in memory ---- */

struct Timeline
{
  char *path;
  GArray *rows;          /* TimelineRow, strings in `strings` */
  GStringChunk *strings; /* every string of rows and metadata, interned */
  GPtrArray *meta;       /* const char *: key, value, key, value, ... */
};

Timeline *
timeline_new (const char *path)
{
  Timeline *timeline = g_new0 (Timeline, 1);
  timeline->path = g_strdup (path);
  timeline->rows = g_array_new (FALSE, FALSE, sizeof (TimelineRow));
  timeline->strings = g_string_chunk_new (4096);
  timeline->meta = g_ptr_array_new ();
  return timeline;
}

void
timeline_free (Timeline *timeline)
{
  if (timeline == NULL)
    return;
  g_free (timeline->path);
  g_array_unref (timeline->rows);
  g_string_chunk_free (timeline->strings);
  g_ptr_array_unref (timeline->meta);
  g_free (timeline);
}

static const char *
intern (Timeline *timeline, const char *text)
{
  return text != NULL ? g_string_chunk_insert_const (timeline->strings, text) : NULL;
}

void
timeline_append (Timeline *timeline, const TimelineRow *row)
{
  g_return_if_fail (timeline != NULL && row != NULL);

  TimelineRow copy = *row;
  copy.stream = intern (timeline, row->stream);
  copy.kind = intern (timeline, row->kind);
  copy.engine = intern (timeline, row->engine);
  copy.label = intern (timeline, row->label);
  copy.cause = intern (timeline, row->cause);
  g_array_append_val (timeline->rows, copy);
}

void
timeline_set_meta (Timeline *timeline, const char *key, const char *value)
{
  g_return_if_fail (timeline != NULL && key != NULL && value != NULL);
  g_return_if_fail (meta_key_is_valid (key));

  const char *v = intern (timeline, value);
  for (guint i = 0; i < timeline->meta->len; i += 2)
    if (strcmp (g_ptr_array_index (timeline->meta, i), key) == 0)
      {
        timeline->meta->pdata[i + 1] = (gpointer) v;
        return;
      }
  g_ptr_array_add (timeline->meta, (gpointer) intern (timeline, key));
  g_ptr_array_add (timeline->meta, (gpointer) v);
}

gsize
timeline_n_rows (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, 0);
  return timeline->rows->len;
}

const TimelineRow *
timeline_row (const Timeline *timeline, gsize index)
{
  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (index < timeline->rows->len, NULL);
  return &g_array_index (timeline->rows, TimelineRow, index);
}

const char *
timeline_meta (const Timeline *timeline, const char *key)
{
  g_return_val_if_fail (timeline != NULL && key != NULL, NULL);
  for (guint i = 0; i < timeline->meta->len; i += 2)
    if (strcmp (g_ptr_array_index (timeline->meta, i), key) == 0)
      return g_ptr_array_index (timeline->meta, i + 1);
  return NULL;
}

const char *
timeline_path (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, NULL);
  return timeline->path;
}

SimTime
timeline_makespan (const Timeline *timeline)
{
  g_return_val_if_fail (timeline != NULL, 0);
  SimTime makespan = 0;
  for (guint i = 0; i < timeline->rows->len; i++)
    makespan = sim_time_max (makespan, g_array_index (timeline->rows, TimelineRow, i).end);
  return makespan;
}

gboolean
timeline_write (const Timeline *timeline, const char *path, GError **error)
{
  g_return_val_if_fail (timeline != NULL && path != NULL, FALSE);

  const char **meta = g_new (const char *, timeline->meta->len + 1);
  for (guint i = 0; i < timeline->meta->len; i++)
    meta[i] = g_ptr_array_index (timeline->meta, i);
  meta[timeline->meta->len] = NULL;
  TimelineWriter *writer = timeline_writer_new (path, meta, error);
  g_free (meta);
  if (writer == NULL)
    return FALSE;
  for (guint i = 0; i < timeline->rows->len; i++)
    if (!timeline_writer_add (writer, &g_array_index (timeline->rows, TimelineRow, i), error))
      {
        timeline_writer_abort (writer);
        return FALSE;
      }
  return timeline_writer_finish (writer, error);
}

/* ---- Reading ---- */

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
  if (*text == '\0' && !columns[c].required)
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
                     "empty %s; it is required: a non-negative integer", columns[c].name);
  else if (result == INT_MALFORMED)
    set_parse_error (error, ctx->path, f->line, f->column,
                     "bad %s '%s': expected a non-negative integer%s", columns[c].name, shown,
                     empty < 0 ? " or -1 (or nothing) for no queue" : "");
  else
    set_parse_error (error, ctx->path, f->line, f->column,
                     "%s '%s' is too large; at most %" G_GUINT64_FORMAT, columns[c].name,
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
  if (*text == '\0' && columns[c].required)
    {
      set_parse_error (error, ctx->path, f->line, f->column, "empty %s; it is required",
                       columns[c].name);
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
        if (strcmp (name, columns[c].name) == 0)
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
    if (columns[c].required && index[c] < 0)
      {
        set_parse_error (error, r->path, header_line, 1,
                         "the header has no column '%s'; required columns: " REQUIRED_COLUMNS
                         " (in any order; conn, bytes, grid, block, label, cause optional)",
                         columns[c].name);
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
      || !row_text (&ctx, COL_CAUSE, &row.cause, error))
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
      if (meta_key_is_valid (key))
        timeline_set_meta (timeline, key, value);
    }
  g_free (text);
}

static gboolean
read_contents (Timeline *timeline, const char *path, const char *data, gsize len,
               GError **error)
{
  const char *bad;
  if (!g_utf8_validate_len (data, len, &bad))
    {
      guint line = 1;
      const char *line_start = data;
      for (const char *p = data; p < bad; p++)
        if (*p == '\n')
          {
            line++;
            line_start = p + 1;
          }
      set_parse_error (error, path, line, (guint) g_utf8_strlen (line_start, bad - line_start) + 1,
                       "%s; a timeline is UTF-8 text", *bad == '\0' ? "a NUL byte" : "invalid UTF-8");
      return FALSE;
    }

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
  char *data = input_file_read (path, (gsize) 1 << 30, &len, &local);
  if (data == NULL)
    {
      gboolean io = g_error_matches (local, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO);
      g_set_error_literal (error, TIMELINE_ERROR, io ? TIMELINE_ERROR_IO : TIMELINE_ERROR_PARSE,
                           local->message);
      g_error_free (local);
      return NULL;
    }

  Timeline *timeline = timeline_new (path);
  gboolean ok = read_contents (timeline, input_file_name (path), data, len, error);
  g_free (data);
  if (!ok)
    {
      timeline_free (timeline);
      return NULL;
    }
  return timeline;
}
