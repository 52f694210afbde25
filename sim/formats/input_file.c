/* input_file.c: whole-file reads with a size bound, of text (stopping at a NUL byte) or of bytes. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "input_file.h"
#include "sim/core/located_error.h"

G_DEFINE_QUARK (input-file-error-quark, input_file_error)

const char *
input_file_name (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  return strcmp (path, "-") == 0 ? INPUT_FILE_STDIN_NAME : path;
}

/* The line on which byte `limit` of `data` falls, counting from 1. */
static guint
line_at (const char *data, gsize limit)
{
  guint line = 1;
  for (const char *c = data; c < data + limit; c++)
    line += *c == '\n';
  return line;
}

static char *
read_bounded (const char *path, gsize max_bytes, gboolean text, InputFileHeadCheck head_ok,
              gsize *length, GError **error)
{
  gboolean head_checked = head_ok == NULL;
  gboolean use_stdin = strcmp (path, "-") == 0;
  const char *shown = use_stdin ? "standard input" : path;
  int fd = use_stdin ? 0 : g_open (path, O_RDONLY, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO, "cannot read %s: %s", shown,
                   g_strerror (saved));
      return NULL;
    }
  struct stat st;
  gboolean stat_ok = fstat (fd, &st) == 0;
  if (!stat_ok || S_ISDIR (st.st_mode))
    {
      int saved = errno;
      g_set_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO, "cannot read %s: %s", shown,
                   stat_ok ? "it is a directory" : g_strerror (saved));
      if (!use_stdin)
        close (fd);
      return NULL;
    }
  /* A regular file's size sizes the buffer, plus a byte for the NUL and one
   * for the read that sees the end (else a file of 30 MB would be copied
   * into a buffer of 60 to learn that nothing follows); a pipe or a device
   * grows it. */
  gsize cap = S_ISREG (st.st_mode) && st.st_size > 0 ? MIN ((gsize) st.st_size, max_bytes) + 2
                                                      : 65536;
  char *data = g_malloc (cap);
  gsize len = 0;
  for (;;)
    {
      if (len + 1 >= cap)
        {
          cap *= 2;
          data = g_realloc (data, cap);
        }
      gssize n = read (fd, data + len, cap - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO, "cannot read %s: %s",
                       shown, g_strerror (saved));
          g_free (data);
          data = NULL;
          break;
        }
      if (n == 0)
        break;
      len += (gsize) n;
      if (text && memchr (data + len - n, '\0', (gsize) n) != NULL)
        break;
      if (!head_checked && len >= INPUT_FILE_HEAD_BYTES)
        {
          head_checked = TRUE;
          if (!head_ok ((const guint8 *) data, len))
            break;
        }
      if (len > max_bytes)
        {
          /* Bad input, not a failure of the machine: a place in the file,
           * the line where the limit fell (the byte, in a binary file). */
          g_autofree char *most = g_format_size_full (max_bytes, G_FORMAT_SIZE_IEC_UNITS);
          if (text)
            located_error_set (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_TOO_LARGE,
                               input_file_name (path), line_at (data, max_bytes), 1,
                               "the file is larger than %s, the most streamsim reads", most);
          else
            g_set_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_TOO_LARGE,
                         "%s: at byte %" G_GSIZE_FORMAT ": the file is larger than %s, the most "
                         "streamsim reads", input_file_name (path), max_bytes, most);
          g_free (data);
          data = NULL;
          break;
        }
    }
  if (!use_stdin)
    close (fd);
  if (data != NULL)
    {
      data[len] = '\0';
      *length = len;
    }
  return data;
}

gboolean
input_file_head (const char *path, guint8 *head, gsize size)
{
  g_return_val_if_fail (path != NULL && head != NULL, FALSE);
  if (strcmp (path, "-") == 0 || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  int fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    return FALSE;
  gssize n = read (fd, head, size);
  close (fd);
  return n == (gssize) size;
}

char *
input_file_read (const char *path, gsize max_bytes, gsize *length, GError **error)
{
  g_return_val_if_fail (path != NULL && length != NULL, NULL);
  return read_bounded (path, max_bytes, TRUE, NULL, length, error);
}

char *
input_file_read_bytes (const char *path, gsize max_bytes, InputFileHeadCheck head_ok,
                       gsize *length, GError **error)
{
  g_return_val_if_fail (path != NULL && length != NULL, NULL);
  return read_bounded (path, max_bytes, FALSE, head_ok, length, error);
}

void
input_file_propagate (GError **error, GError *why, GQuark domain, gint io_code,
                      gint too_large_code)
{
  g_return_if_fail (why != NULL);
  gboolean large = g_error_matches (why, INPUT_FILE_ERROR, INPUT_FILE_ERROR_TOO_LARGE);
  g_set_error_literal (error, domain, large ? too_large_code : io_code, why->message);
  g_error_free (why);
}
