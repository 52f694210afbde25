/* import_file.c: a trace file's format found from its content, gzip undone (import_file.h). */
#include <string.h>
#include "gzip_data.h"
#include "import_file.h"
#include "import_kineto.h"
#include "import_nsys.h"
#include "sim/formats/input_file.h"

static const char sqlite_magic[] = "SQLite format 3";

static gboolean
is_sqlite (const guint8 *data, gsize length)
{
  return length >= sizeof sqlite_magic && memcmp (data, sqlite_magic, sizeof sqlite_magic) == 0;
}

/* Whether `data` begins as a JSON document: white space, then `{` or `[`
 * (or only white space so far). */
static gboolean
is_json_start (const guint8 *data, gsize length)
{
  gsize i = 0;
  while (i < length && g_ascii_isspace (data[i]))
    i++;
  return i == length || data[i] == '{' || data[i] == '[';
}

/* Whether a file beginning with `head` may be a trace of any format read here. */
static gboolean
may_be_trace (const guint8 *head, gsize length)
{
  return gzip_data_is (head, length) || is_sqlite (head, length) || is_json_start (head, length);
}

/* The format from the first bytes of `data` (decompressed). */
static ImportTrace *
parse_plain (const char *path, const guint8 *data, gsize length, GError **error)
{
  if (is_sqlite (data, length))
    return import_nsys_parse (path, data, length, error);
  gsize i = 0;
  while (i < length && g_ascii_isspace (data[i]))
    i++;
  if (i < length && is_json_start (data + i, length - i))
    return import_kineto_parse (path, (const char *) data, length, error);
  g_set_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE, "%s: at byte %" G_GSIZE_FORMAT ": not a "
               "trace streamsim reads: neither a PyTorch profiler (Kineto) JSON trace, nor an "
               "Nsight Systems SQLite export (nsys export --type sqlite), nor either gzipped", path,
               i);
  return NULL;
}

ImportTrace *
import_file_parse (const char *path, const guint8 *data, gsize length, GError **error)
{
  g_return_val_if_fail (path != NULL && (data != NULL || length == 0), NULL);
  if (!gzip_data_is (data, length))
    return parse_plain (path, data, length, error);
  gsize plain_length = 0;
  GError *why = NULL;
  g_autofree guint8 *plain = gzip_data_undo (path, data, length, IMPORT_FILE_MAX_BYTES,
                                             &plain_length, &why);
  if (plain == NULL)
    {
      g_set_error_literal (error, IMPORT_ERROR, IMPORT_ERROR_PARSE, why->message);
      g_error_free (why);
      return NULL;
    }
  return parse_plain (path, plain, plain_length, error);
}

ImportTrace *
import_file_read (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  const char *name = input_file_name (path);
  /* a database is opened where it is, not read into memory */
  guint8 head[sizeof sqlite_magic];
  if (input_file_head (path, head, sizeof head) && is_sqlite (head, sizeof head))
    return import_nsys_read (path, error);
  gsize length = 0;
  GError *why = NULL;
  g_autofree char *data = input_file_read_bytes (path, IMPORT_FILE_MAX_BYTES, may_be_trace,
                                                        &length, &why);
  if (data == NULL)
    {
      input_file_propagate (error, why, IMPORT_ERROR, IMPORT_ERROR_IO, IMPORT_ERROR_PARSE);
      return NULL;
    }
  return import_file_parse (name, (const guint8 *) data, length, error);
}
