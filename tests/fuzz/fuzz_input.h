/* fuzz_input.h: hands a fuzz input to a loader that reads files: one temporary file per process, rewritten each run. */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

/* The path of a file holding exactly data[0..size). `suffix` (".ini", ".csv")
 * ends the name. The file is removed when the process exits. */
static const char *fuzz_input_path;

static void
fuzz_input_remove (void)
{
  if (fuzz_input_path != NULL)
    g_unlink (fuzz_input_path);
}

static const char *
fuzz_input_write (const uint8_t *data, size_t size, const char *suffix)
{
  static int fd = -1;
  if (fd < 0)
    {
      char *tmpl = g_strconcat ("streamsim-fuzz-XXXXXX", suffix, NULL);
      char *path = NULL;
      fd = g_file_open_tmp (tmpl, &path, NULL);
      g_free (tmpl);
      if (fd < 0)
        abort ();
      fuzz_input_path = path;
      atexit (fuzz_input_remove);
    }
  if (ftruncate (fd, 0) != 0 || pwrite (fd, data, size, 0) != (ssize_t) size)
    abort ();
  return fuzz_input_path;
}

#endif /* FUZZ_INPUT_H */
