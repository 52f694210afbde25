/* timeline_writer.c: the timeline CSV streamed row by row, through a temporary file renamed into place when it is complete. */
#define _POSIX_C_SOURCE 200809L /* fdopen, fsync */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "timeline_writer.h"
#include "timeline_private.h"
#include "output_file.h"
#include "sim/core/str_append.h"

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

/* The bytes that end a plain field: its NUL, and those that make RFC 4180
 * quote it. */
static const guint8 field_stops[256] = {
  ['\0'] = 1, [','] = 1, ['"'] = 1, ['\r'] = 1, ['\n'] = 1,
};

/* The length of a field that needs no quotes, or G_MAXSIZE. Its first 16
 * bytes by a loop over a table, the rest by strcspn: most fields are a few
 * bytes (a stream name, a kind, an engine), where strcspn's call and setup
 * cost more than the scan, while a cause is 25 to 55 bytes, which strcspn
 * reads 16 at a time. With strcspn alone, five calls a row were a fifth of
 * the CSV phase's samples; this made the phase 3 to 5% faster
 * (PERFORMANCE-LOG.md, seventeenth round). */
static inline gsize
plain_len (const char *text)
{
  if (text == NULL)
    return 0;
  const guint8 *s = (const guint8 *) text;
  gsize n = 0;
  while (n < 16 && !field_stops[s[n]])
    n++;
  if (n == 16)
    n += strcspn (text + 16, ",\"\r\n");
  return s[n] == '\0' ? n : G_MAXSIZE;
}

/* RFC 4180: a field holding a comma, quote or line break is quoted, and its
 * quotes doubled. */
static void
append_field (GString *s, const char *text)
{
  if (text == NULL)
    return;
  gsize n = plain_len (text);
  if (n != G_MAXSIZE)
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

/* Records a failed write (errno says why); FALSE. */
static gboolean
writer_fail (TimelineWriter *writer, GError **error)
{
  int saved = errno;
  writer->failed = TRUE;
  g_set_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO, "cannot write %s: %s",
               writer->tmp_path != NULL ? writer->tmp_path : "standard output",
               g_strerror (saved));
  return FALSE;
}

static gboolean
writer_put (TimelineWriter *writer, const char *text, gsize len, GError **error)
{
  if (!writer->failed && fwrite (text, 1, len, writer->out) == len)
    return TRUE;
  return writer_fail (writer, error);
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
  /* Option: writeback and page-cache release behind outputs over 128 MiB; 0% at 10^6 ops (111 MB, never reached). */
  writer->chunk = CLAMP (writer->written / 256, WRITER_CHUNK_MIN, WRITER_CHUNK_MAX);
  g_string_truncate (writer->row, 0);
  return ok;
}

TimelineWriter *
timeline_writer_new (const char *path, const char *const *meta, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  for (const char *const *m = meta; m != NULL && m[0] != NULL; m += 2)
    g_return_val_if_fail (timeline_meta_key_is_valid (m[0]) && m[1] != NULL, NULL);

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
    g_string_append_printf (s, "%s%s", c ? "," : "", timeline_columns[c].name);
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

/* Flushed before the rename, so that the name never points at a file whose
 * rows are still in a buffer; synced too when it replaces a file
 * (output_file_needs_sync says why only then). */
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
  if (fflush (writer->out) != 0
      || (!in_place && output_file_needs_sync (writer->path) && fsync (fileno (writer->out)) != 0))
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
