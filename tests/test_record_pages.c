/* test_record_pages.c: the recorder's count of a buffer's bytes on transparent huge pages (validate/record_pages.h), on memory mapped here.
 *
 * Whether the kernel gives huge pages depends on the machine (its THP setting,
 * free memory), so a test that needs them is skipped where none formed; what
 * must hold everywhere is checked by hand below. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <glib.h>
#include "record_pages.h"

#define FRAME (2u << 20)

/* A private anonymous mapping of `frames` whole 2 MiB frames, aligned to one,
 * advised MADV_HUGEPAGE or MADV_NOHUGEPAGE; *map and *span for munmap. */
static char *
map_frames (guint frames, gboolean huge, char **map, size_t *span)
{
  *span = (size_t) (frames + 1) * FRAME;
  *map = mmap (NULL, *span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (*map != MAP_FAILED);
  char *at = (char *) (((guintptr) *map + FRAME - 1) & ~(guintptr) (FRAME - 1));
  g_assert_cmpint (madvise (at, (size_t) frames * FRAME, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE), ==, 0);
  return at;
}

/* Memory never touched has no page at all, huge or not: 0 (or -1 on a
 * kernel without PAGEMAP_SCAN, which the rest then skips). Touched with
 * MADV_NOHUGEPAGE, 4 MiB are on small pages: 0. */
static void
test_small_pages (void)
{
  char *map;
  size_t span;
  char *at = map_frames (2, FALSE, &map, &span);
  gint64 fresh = record_pages_huge (at, 2 * FRAME);
  if (fresh < 0)
    {
      munmap (map, span);
      g_test_skip ("no PAGEMAP_SCAN (Linux before 6.7)");
      return;
    }
  g_assert_cmpint (fresh, ==, 0);
  memset (at, 1, 2 * FRAME);
  g_assert_cmpint (record_pages_huge (at, 2 * FRAME), ==, 0);
  munmap (map, span);
}

/* Two frames advised MADV_HUGEPAGE, written whole: where the kernel gave them
 * huge pages, the count is a buffer's part of them, clipped to the buffer:
 * all 4 MiB from the first frame's start; 16 bytes in, 4 MiB less 16; the
 * second frame alone, 2 MiB; a buffer of 100 bytes inside it, 100. */
static void
test_huge_pages (void)
{
  char *map;
  size_t span;
  char *at = map_frames (2, TRUE, &map, &span);
  memset (at, 1, 2 * FRAME);
  gint64 whole = record_pages_huge (at, 2 * FRAME);
  if (whole != 2 * (gint64) FRAME)
    {
      munmap (map, span);
      g_test_skip ("the kernel gave no huge pages here (THP setting or memory)");
      return;
    }
  g_assert_cmpint (record_pages_huge (at + 16, 2 * FRAME), ==, 2 * (gint64) FRAME - 16);
  g_assert_cmpint (record_pages_huge (at + FRAME, FRAME), ==, FRAME);
  g_assert_cmpint (record_pages_huge (at + FRAME + 4096, 100), ==, 100);
  munmap (map, span);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record-pages/small-pages", test_small_pages);
  g_test_add_func ("/record-pages/huge-pages", test_huge_pages);
  return g_test_run ();
}
