/* record_pages.c: a buffer's bytes on huge pages, from PAGEMAP_SCAN (see
 * record_pages.h). */
#define _GNU_SOURCE
#include "record_pages.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/types.h>

/* The ioctl's interface (include/uapi/linux/fs.h since Linux 6.7), for
 * headers older than the kernels the recorder runs on. */
#ifndef PAGEMAP_SCAN
#define PAGE_IS_PRESENT (1 << 3)
#define PAGE_IS_HUGE (1 << 6)
struct page_region
{
  __u64 start, end, categories;
};
struct pm_scan_arg
{
  __u64 size, flags, start, end, walk_end, vec, vec_len, max_pages;
  __u64 category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN _IOWR ('f', 16, struct pm_scan_arg)
#endif

/* /proc/self/pagemap, opened once: the program's threads may race to open
 * it, and the loser closes its own. */
static int
pagemap (void)
{
  static int fd = -1;
  int have = __atomic_load_n (&fd, __ATOMIC_ACQUIRE);
  if (have >= 0)
    return have;
  int mine = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (mine < 0)
    return -1;
  if (!__atomic_compare_exchange_n (&fd, &have, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      close (mine);
      return have;
    }
  return mine;
}

int64_t
record_pages_huge (const void *buffer, size_t bytes)
{
  long page = sysconf (_SC_PAGESIZE);
  if (page <= 0)
    return -1;
  uint64_t lo = (uintptr_t) buffer & ~((uint64_t) page - 1);
  uint64_t hi = ((uintptr_t) buffer + bytes + (uint64_t) page - 1) & ~((uint64_t) page - 1);
  int fd = pagemap ();
  if (fd < 0)
    return -1;
  struct page_region regions[32];
  int64_t huge = 0;
  /* each call fills at most the vector, up to walk_end; the next goes on from there */
  for (uint64_t at = lo; at < hi && huge >= 0;)
    {
      struct pm_scan_arg arg = { .size = sizeof arg, .start = at, .end = hi,
                                 .vec = (uintptr_t) regions, .vec_len = 32,
                                 .return_mask = PAGE_IS_PRESENT | PAGE_IS_HUGE };
      int n = ioctl (fd, PAGEMAP_SCAN, &arg);
      if (n < 0 || arg.walk_end <= at)
        {
          huge = -1;
          break;
        }
      for (int i = 0; i < n; i++)
        if (regions[i].categories & PAGE_IS_HUGE)
          {
            /* the buffer's part of the range: its first and last pages are
             * shared with what lies beside it */
            uint64_t from = regions[i].start > (uintptr_t) buffer ? regions[i].start : (uintptr_t) buffer;
            uint64_t to = regions[i].end < (uintptr_t) buffer + bytes ? regions[i].end
                                                                       : (uintptr_t) buffer + bytes;
            huge += to > from ? (int64_t) (to - from) : 0;
          }
      at = arg.walk_end;
    }
  return huge;
}
