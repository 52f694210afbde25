/* val_untouched.c: fresh host memory from mmap (see val_untouched.h). */
/* MAP_ANONYMOUS, which -std=c11 hides */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include "val_cuda.h"
#include "val_untouched.h"

#define HUGE_PAGE (2u << 20)

void *
val_untouched_map (guint64 bytes, guint64 huge, GError **error)
{
  g_return_val_if_fail (bytes > 0, NULL);
  /* One huge page more than asked, to cut a 2 MiB-aligned start from. */
  guint64 span = bytes + HUGE_PAGE;
  char *map = mmap (NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "cannot map %" G_GUINT64_FORMAT
                   " bytes of untouched host memory: %s", bytes, g_strerror (errno));
      return NULL;
    }
  char *memory = (char *) (((guintptr) map + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  guint64 kept = (bytes + page - 1) / page * page;
  /* The pieces before and after go back now: val_untouched_unmap is given
   * only `memory` and `bytes`. */
  if (memory > map)
    munmap (map, (size_t) (memory - map));
  if (map + span > memory + kept)
    munmap (memory + kept, (size_t) (map + span - (memory + kept)));
  guint64 plain = huge > 0 ? (bytes - MIN (huge, bytes)) & ~(guint64) (HUGE_PAGE - 1) : kept;
  if (plain > 0)
    madvise (memory, plain, MADV_NOHUGEPAGE);
  if (plain < kept)
    madvise (memory + plain, kept - plain, MADV_HUGEPAGE);
  return memory;
}

void
val_untouched_unmap (void *memory, guint64 bytes)
{
  if (memory != NULL)
    munmap (memory, bytes);
}
