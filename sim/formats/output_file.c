/* output_file.c: outputs written through a temporary file and a rename, except where the target is a device or a pipe. */
/* lstat and S_ISLNK are POSIX, which -std=c11 hides. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "output_file.h"

gboolean
output_file_is_special (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);
  GStatBuf st;
  if (g_lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    return TRUE;
  return g_stat (path, &st) == 0 && !S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode);
}

gboolean
output_file_needs_sync (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);
  GStatBuf st;
  return g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0;
}

int
output_file_open_special (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, -1);
  GStatBuf st;
  gboolean regular = g_stat (path, &st) == 0 && S_ISREG (st.st_mode);
  int fd = g_open (path, O_WRONLY | (regular ? O_TRUNC : O_APPEND), 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot open %s: %s",
                   path, g_strerror (saved));
    }
  return fd;
}

static gboolean
write_all (int fd, const char *path, const char *data, gsize length, GError **error)
{
  while (length > 0)
    {
      gssize n = write (fd, data, length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                       path, g_strerror (saved));
          return FALSE;
        }
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* Writes into a special file (or standard output) in place. */
static gboolean
write_in_place (const char *path, const char *data, gsize length, GError **error)
{
  if (strcmp (path, "-") == 0)
    {
      gboolean ok = fwrite (data, 1, length, stdout) == length && fflush (stdout) == 0;
      if (!ok)
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                     "cannot write standard output: %s", g_strerror (errno));
      return ok;
    }
  int fd = output_file_open_special (path, error);
  if (fd < 0)
    return FALSE;
  gboolean ok = write_all (fd, path, data, length, error);
  close (fd);
  return ok;
}

/* The temporary file is ours rather than g_file_set_contents's so that an
 * error names the file asked for, not "path.ABC123". */
gboolean
output_file_set_contents (const char *path, const char *data, gsize length, GError **error)
{
  g_return_val_if_fail (path != NULL && (data != NULL || length == 0), FALSE);
  if (strcmp (path, "-") == 0 || output_file_is_special (path))
    return write_in_place (path, data, length, error);

  /* Beside the target, so that the rename stays on one file system. */
  char *tmp = g_strdup_printf ("%s.tmp.XXXXXX", path);
  int fd = g_mkstemp_full (tmp, O_WRONLY, 0666);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                   path, g_strerror (saved));
      g_free (tmp);
      return FALSE;
    }
  gboolean ok = write_all (fd, path, data, length, error);
  if (ok && output_file_needs_sync (path) && fsync (fd) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                   path, g_strerror (saved));
      ok = FALSE;
    }
  if (close (fd) != 0 && ok)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                   path, g_strerror (saved));
      ok = FALSE;
    }
  if (ok)
    ok = output_file_commit (tmp, path, error);
  else
    g_remove (tmp);
  g_free (tmp);
  return ok;
}

gboolean
output_file_commit (const char *tmp_path, const char *path, GError **error)
{
  g_return_val_if_fail (tmp_path != NULL && path != NULL, FALSE);
  if (output_file_is_special (path))
    {
      char *data = NULL;
      gsize length = 0;
      gboolean ok = g_file_get_contents (tmp_path, &data, &length, error)
                    && write_in_place (path, data, length, error);
      g_free (data);
      g_remove (tmp_path);
      return ok;
    }
  if (g_rename (tmp_path, path) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                   path, g_strerror (saved));
      g_remove (tmp_path);
      return FALSE;
    }
  return TRUE;
}
