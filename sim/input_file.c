/* input_file.c: whole-file reads with a size bound that stop at a NUL byte. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "input_file.h"

char *
input_file_read (const char *path, gsize max_bytes, gsize *length, GError **error)
{
  g_return_val_if_fail (path != NULL && length != NULL, NULL);
  gboolean use_stdin = strcmp (path, "-") == 0;
  const char *shown = use_stdin ? "standard input" : path;
  int fd = use_stdin ? 0 : g_open (path, O_RDONLY, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot read %s: %s",
                   shown, g_strerror (saved));
      return NULL;
    }
  struct stat st;
  if (fstat (fd, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "cannot read %s: it is a directory",
                   shown);
      if (!use_stdin)
        close (fd);
      return NULL;
    }
  /* A regular file's size sizes the buffer; a pipe or a device grows it. */
  gsize cap = S_ISREG (st.st_mode) && st.st_size > 0 ? MIN ((gsize) st.st_size, max_bytes) + 1
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
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot read %s: %s",
                       shown, g_strerror (saved));
          g_free (data);
          data = NULL;
          break;
        }
      if (n == 0)
        break;
      len += (gsize) n;
      if (memchr (data + len - n, '\0', (gsize) n) != NULL)
        break;
      if (len > max_bytes)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                       "cannot read %s: it is larger than %" G_GSIZE_FORMAT " MiB, the most "
                       "streamsim reads", shown, max_bytes >> 20);
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
