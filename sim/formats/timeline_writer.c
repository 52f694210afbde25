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
#include "timeline_row.h"

struct TimelineWriter
{
  FILE *out;
  char *path;     /* the file asked for; NULL for stdout */
  char *tmp_path; /* where rows go until finish */
  gboolean failed;
  GString *row;   /* rows formatted and not yet written */
  gsize chunk;    /* rows are written once this many bytes have gathered */
  guint64 written; /* bytes written so far */
  gboolean issuer; /* the thread column is written */
};

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
timeline_writer_new (const char *path, const char *const *meta, gboolean issuer, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  for (const char *const *m = meta; m != NULL && m[0] != NULL; m += 2)
    g_return_val_if_fail (timeline_meta_key_is_valid (m[0]) && m[1] != NULL, NULL);

  TimelineWriter *writer = g_new0 (TimelineWriter, 1);
  writer->row = g_string_sized_new (WRITER_CHUNK_MIN + 4096);
  writer->chunk = WRITER_CHUNK_MIN;
  writer->issuer = issuer;
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
    if (c != COL_THREAD || issuer)
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

gboolean
timeline_writer_add (TimelineWriter *writer, const TimelineRow *row, GError **error)
{
  g_return_val_if_fail (writer != NULL && row != NULL, FALSE);
  g_return_val_if_fail (row->stream != NULL && row->kind != NULL && row->engine != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Rows gather in writer->row and go out a chunk at a time. */
  timeline_row_append (writer->row, row, writer->issuer);
  if (writer->row->len < writer->chunk)
    return TRUE;
  return writer_flush (writer, error);
}

gboolean
timeline_writer_add_rows (TimelineWriter *writer, const char *rows, gsize len, GError **error)
{
  g_return_val_if_fail (writer != NULL && (rows != NULL || len == 0), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!writer_flush (writer, error))
    return FALSE;
  gboolean ok = len == 0 || writer_put (writer, rows, len, error);
  writer->written += len;
  return ok;
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
