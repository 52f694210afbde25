/* val_untouched.c: fresh host memory from mmap (see val_untouched.h). */
/* MAP_ANONYMOUS, which -std=c11 hides */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include "val_cuda.h"
#include "val_untouched.h"

void *
val_untouched_map (guint64 bytes, GError **error)
{
  g_return_val_if_fail (bytes > 0, NULL);
  void *memory = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "cannot map %" G_GUINT64_FORMAT
                   " bytes of untouched host memory: %s", bytes, g_strerror (errno));
      return NULL;
    }
  return memory;
}

void
val_untouched_unmap (void *memory, guint64 bytes)
{
  if (memory != NULL)
    munmap (memory, bytes);
}
