/* record_log.c: reading the recorder's log (record_log.h), every field checked. */
#include <string.h>
#include "sim/formats/input_file.h"
#include "sim/core/located_error.h"
#include "record_log.h"

/* A recording of a long program is large (about 100 bytes a call); past
 * this it is more likely not a log at all. */
#define MAX_LOG_BYTES (G_GUINT64_CONSTANT (4) << 30)

G_DEFINE_QUARK (streamsim-record-error-quark, record_error)

typedef struct
{
  const char *path;
  guint line;
  char **fields;
  guint *columns; /* where each field begins, from 1 */
  guint n_fields;
  GError **error;
} LogLine;

static guint
column_of (const LogLine *l, guint field)
{
  return field < l->n_fields ? l->columns[field] : 1;
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (const LogLine *l, guint field, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (l->error, RECORD_ERROR, RECORD_ERROR_PARSE, l->path, l->line,
                      column_of (l, field), format, args);
  va_end (args);
  return FALSE;
}

static gboolean
number (const LogLine *l, guint field, guint base, guint64 max, guint64 *out)
{
  const char *text = l->fields[field];
  if (base == 16)
    {
      /* printf's %#llx writes a null handle as a bare 0 */
      if (strcmp (text, "0") == 0)
        {
          *out = 0;
          return TRUE;
        }
      if (!g_str_has_prefix (text, "0x"))
        return fail (l, field, "expected a handle such as 0x7f3a00001000, found \"%s\"", text);
      text += 2;
    }
  if (!g_ascii_string_to_unsigned (text, base, 0, max, out, NULL))
    return fail (l, field, "expected a whole number, found \"%s\"", l->fields[field]);
  return TRUE;
}

static gboolean
numbers (const LogLine *l, guint first, guint n, guint base, guint64 *out)
{
  for (guint i = 0; i < n; i++)
    if (!number (l, first + i, base, G_MAXUINT64, &out[i]))
      return FALSE;
  return TRUE;
}

static gboolean
read_call (RecordLog *log, const LogLine *l)
{
  RecordCall c = { .line = l->line };
  guint64 thread, correlation;
  if (!number (l, 1, 10, G_MAXUINT32, &thread) || !number (l, 3, 10, G_MAXUINT64, &c.enter)
      || !number (l, 4, 10, G_MAXUINT64, &c.exit)
      || !number (l, 5, 10, G_MAXUINT32, &correlation))
    return FALSE;
  if (l->fields[2][0] == '\0')
    return fail (l, 2, "a call needs its function's name");
  c.thread = (guint) thread;
  c.correlation = (guint32) correlation;
  c.name = g_string_chunk_insert_const (log->strings, l->fields[2]);
  if (!number (l, 6, 16, G_MAXUINT64, &c.stream) || !number (l, 7, 16, G_MAXUINT64, &c.event)
      || !numbers (l, 8, 3, 10, c.a))
    return FALSE;
  if (c.exit != 0 && c.exit < c.enter)
    return fail (l, 4, "the call returns (%" G_GUINT64_FORMAT ") before it begins (%"
                 G_GUINT64_FORMAT ")", c.exit, c.enter);
  g_array_append_val (log->calls, c);
  return TRUE;
}

/* A kernel, copy or memset record: its numeric fields from field 1 on. */
/* Whether the line's first `n` numbers `v`, its correlation ids, fit in 32
 * bits; else an error at its first field. */
static gboolean
correlations_fit (const LogLine *l, const guint64 *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (v[i] > G_MAXUINT32)
      return fail (l, 1, "a correlation id is a 32-bit number");
  return TRUE;
}

static gboolean
read_work (RecordLog *log, const LogLine *l, RecordWorkKind kind)
{
  static const char *const names[] = { "copy", "kernel", "memset" };
  RecordWork w = { .kind = kind, .name = "" };
  guint64 v[8];
  /* fields after the correlation(s) and the two times */
  guint n = kind == RECORD_WORK_KERNEL ? 7 : kind == RECORD_WORK_COPY ? 8 : 6;
  if (!numbers (l, 1, n, 10, v))
    return FALSE;
  if (!correlations_fit (l, v, kind == RECORD_WORK_COPY ? 2 : 1))
    return FALSE;
  w.correlation = (guint32) v[0];
  guint t = kind == RECORD_WORK_COPY ? 2 : 1;
  if (kind == RECORD_WORK_COPY)
    w.runtime_correlation = (guint32) v[1];
  w.start = v[t];
  w.end = v[t + 1];
  if (w.end < w.start)
    return fail (l, t + 2, "the %s ends (%" G_GUINT64_FORMAT ") before it starts (%"
                 G_GUINT64_FORMAT ")", names[kind], w.end, w.start);
  memcpy (w.a, v + t + 2, (n - t - 2) * sizeof (guint64));
  if (kind == RECORD_WORK_KERNEL)
    w.name = g_string_chunk_insert_const (log->strings, l->fields[8]);
  g_array_append_val (log->works, w);
  return TRUE;
}

static gboolean
read_pages (RecordLog *log, const LogLine *l)
{
  guint64 v[3];
  if (!numbers (l, 1, 3, 10, v) || !correlations_fit (l, v, 1))
    return FALSE;
  RecordPages *p = g_new (RecordPages, 1);
  *p = (RecordPages) { .huge_before = v[1], .huge_after = v[2] };
  g_hash_table_replace (log->pages, GUINT_TO_POINTER ((guint) v[0]), p);
  return TRUE;
}

static gboolean
read_buffer (RecordLog *log, const LogLine *l)
{
  guint64 corr, address;
  if (!number (l, 1, 10, G_MAXUINT64, &corr) || !number (l, 2, 16, G_MAXUINT64, &address)
      || !correlations_fit (l, &corr, 1))
    return FALSE;
  g_hash_table_replace (log->buffers, GUINT_TO_POINTER ((guint) corr), g_memdup2 (&address, sizeof address));
  return TRUE;
}

static gboolean
read_line (RecordLog *log, const LogLine *l, gboolean *ended)
{
  guint n = l->n_fields;
  const char *kind = l->fields[0];
  struct
  {
    const char *kind;
    guint fields;
  } shapes[] = { { "call", 11 }, { "link", 3 }, { "kernel", 9 }, { "copy", 9 },
                 { "memset", 7 }, { "pages", 4 }, { "buffer", 3 }, { "env", 3 }, { "incomplete", 2 }, { "end", 3 } };
  guint want = 0;
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (strcmp (kind, shapes[i].kind) == 0)
      want = shapes[i].fields;
  if (want == 0)
    return fail (l, 0, "unknown record \"%s\" (expected call, link, kernel, copy, memset, "
                 "pages, buffer, env, incomplete or end)", kind);
  if (*ended)
    return fail (l, 0, "a record after the log's end line");
  if (n != want)
    return fail (l, MIN (n, want) - 1, "%s %s record needs %u tab-separated fields, this line "
                 "has %u", strchr ("aeiou", kind[0]) != NULL ? "an" : "a", kind, want, n);
  if (strcmp (kind, "call") == 0)
    return read_call (log, l);
  if (strcmp (kind, "kernel") == 0)
    return read_work (log, l, RECORD_WORK_KERNEL);
  if (strcmp (kind, "copy") == 0)
    return read_work (log, l, RECORD_WORK_COPY);
  if (strcmp (kind, "memset") == 0)
    return read_work (log, l, RECORD_WORK_MEMSET);
  if (strcmp (kind, "env") == 0)
    {
      if (l->fields[1][0] == '\0')
        return fail (l, 1, "an env record needs the variable's name");
      g_hash_table_replace (log->env, g_strdup (l->fields[1]), g_strdup (l->fields[2]));
      return TRUE;
    }
  if (strcmp (kind, "incomplete") == 0)
    {
      g_free (log->incomplete);
      log->incomplete = g_strdup (l->fields[1]);
      return TRUE;
    }
  if (strcmp (kind, "pages") == 0)
    return read_pages (log, l);
  if (strcmp (kind, "buffer") == 0)
    return read_buffer (log, l);
  guint64 v[2];
  if (!numbers (l, 1, 2, 10, v))
    return FALSE;
  if (strcmp (kind, "link") == 0)
    {
      if (!correlations_fit (l, v, 2))
        return FALSE;
      g_hash_table_insert (log->links, GUINT_TO_POINTER ((guint) v[0]),
                           GUINT_TO_POINTER ((guint) v[1]));
      return TRUE;
    }
  if (v[0] != log->calls->len || v[1] != log->works->len)
    return fail (l, 1, "the end line counts %" G_GUINT64_FORMAT " calls and %" G_GUINT64_FORMAT
                 " kernels, copies and memsets, the log holds %u and %u", v[0], v[1], log->calls->len,
                 log->works->len);
  *ended = TRUE;
  return TRUE;
}

RecordLog *
record_log_new (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  RecordLog *log = g_new0 (RecordLog, 1);
  log->path = g_strdup (path);
  log->calls = g_array_new (FALSE, FALSE, sizeof (RecordCall));
  log->works = g_array_new (FALSE, FALSE, sizeof (RecordWork));
  log->links = g_hash_table_new (NULL, NULL);
  log->pages = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  log->buffers = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  log->env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  log->strings = g_string_chunk_new (4096);
  return log;
}

RecordLog *
record_log_parse (const char *path, const char *text, gsize length, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  const char *name = input_file_name (path);
  if (!located_error_check_utf8 (error, RECORD_ERROR, RECORD_ERROR_PARSE, name, text, length,
                                 "recorder log"))
    return NULL;
  RecordLog *log = record_log_new (name);

  gboolean ended = FALSE, ok = TRUE;
  guint line = 0;
  const char *end = text + length;
  for (const char *s = text; s < end && ok; line++)
    {
      const char *nl = memchr (s, '\n', (gsize) (end - s));
      const char *stop = nl != NULL ? nl : end;
      g_autofree char *copy = g_strndup (s, (gsize) (stop - s));
      if (copy[0] != '\0' && copy[strlen (copy) - 1] == '\r')
        copy[strlen (copy) - 1] = '\0';
      g_auto (GStrv) fields = g_strsplit (copy, "\t", -1);
      guint n_fields = g_strv_length (fields);
      g_autofree guint *columns = g_new (guint, n_fields + 1);
      for (guint f = 0, at = 1; f < n_fields; at += (guint) strlen (fields[f]) + 1, f++)
        columns[f] = at;
      LogLine l = { .path = name, .line = line + 1, .fields = fields, .columns = columns,
                    .n_fields = n_fields, .error = error };
      if (line == 0)
        {
          if (n_fields != 2 || strcmp (fields[0], "streamsim-record") != 0)
            ok = fail (&l, 0, "not a streamsim recorder log (its first line is "
                       "\"streamsim-record<TAB>1\")");
          else if (strcmp (fields[1], "1") != 0)
            ok = fail (&l, 1, "log format %s; this streamsim reads format 1", fields[1]);
        }
      else if (copy[0] != '\0')
        ok = read_line (log, &l, &ended);
      s = nl != NULL ? nl + 1 : end;
    }
  if (ok && line == 0)
    {
      located_error_set (error, RECORD_ERROR, RECORD_ERROR_PARSE, name, 1, 1,
                         "empty: the recorder writes its log when the program exits");
      ok = FALSE;
    }
  if (ok && !ended)
    {
      located_error_set (error, RECORD_ERROR, RECORD_ERROR_PARSE, name, line + 1, 1,
                         "the log has no end line: the program stopped before its exit "
                         "handlers ran (a crash, a signal or _exit), so the recording is cut "
                         "short");
      ok = FALSE;
    }
  if (!ok)
    {
      record_log_free (log);
      return NULL;
    }
  return log;
}

RecordLog *
record_log_read (const char *path, GError **error)
{
  gsize length = 0;
  GError *why = NULL;
  g_autofree char *text = input_file_read (path, MAX_LOG_BYTES, &length, &why);
  if (text == NULL)
    {
      input_file_propagate (error, why, RECORD_ERROR, RECORD_ERROR_IO, RECORD_ERROR_PARSE);
      return NULL;
    }
  return record_log_parse (path, text, length, error);
}

void
record_log_free (RecordLog *log)
{
  if (log == NULL)
    return;
  g_free (log->path);
  g_array_unref (log->calls);
  g_array_unref (log->works);
  g_hash_table_unref (log->links);
  g_hash_table_unref (log->pages);
  g_hash_table_unref (log->buffers);
  g_hash_table_unref (log->env);
  g_free (log->incomplete);
  g_string_chunk_free (log->strings);
  g_free (log);
}
