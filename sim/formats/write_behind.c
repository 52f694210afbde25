/* write_behind.c: a large output's page cache written back and handed back behind the writer. */
/* sync_file_range is Linux's; posix_fadvise is POSIX, which -std=c11 hides. */
#define _GNU_SOURCE
#include <fcntl.h>
#include "write_behind.h"

void
write_behind_init (WriteBehind *behind)
{
  g_return_if_fail (behind != NULL);
  *behind = (WriteBehind) { WRITE_BEHIND_KEEP, WRITE_BEHIND_WINDOW, 0, 0 };
}

void
write_behind_advance (WriteBehind *behind, int fd, guint64 written)
{
  g_return_if_fail (behind != NULL && behind->window > 0);
  if (!write_behind_due (behind, written))
    return;
  guint64 previous = behind->started;
#ifdef SYNC_FILE_RANGE_WRITE
  /* Asynchronous: the writer goes on while the disk takes the window. */
  sync_file_range (fd, (off_t) previous, (off_t) (written - previous), SYNC_FILE_RANGE_WRITE);
#endif
  behind->started = written;
  /* Only what an earlier call sent to the disk, a window's writing ago:
   * pages still being written are skipped by the kernel and stay cached.
   * The few that are skipped are left there; a second pass for them is not
   * worth it. */
  guint64 release_to = MIN (previous, written - behind->keep);
  if (release_to > behind->released)
    {
      posix_fadvise (fd, (off_t) behind->released, (off_t) (release_to - behind->released),
                     POSIX_FADV_DONTNEED);
      behind->released = release_to;
    }
}
