/* record_pages.h: how much of a copy's host buffer lies on transparent huge pages,
 * for libstreamsim-record.so.
 *
 * A copy into host memory the program never touched faults its pages in inside the
 * call; where the kernel gives the buffer transparent huge pages, 2 MiB at a time,
 * the copy runs about twice as fast (engines/MODEL.md, "Untouched pageable memory").
 * Whether it will is not known before: a NumPy array of 4 MiB, advised
 * MADV_HUGEPAGE, got one huge page in some processes and two in others
 * (validate/results/h200/pages/). What it got is known after, from the page tables:
 * the PAGEMAP_SCAN ioctl of /proc/self/pagemap (Linux 6.7 and later), which reports
 * ranges of pages that are PMD-mapped (PAGE_IS_HUGE) without privileges and without
 * the cost of reading /proc/self/smaps (a millisecond and more in a large process).
 *
 * Plain C, no GLib: it runs inside the recorded program (record_inject.c). */
#ifndef RECORD_PAGES_H
#define RECORD_PAGES_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of [buffer, buffer + bytes) on huge pages now; -1 where the kernel cannot
 * tell (no PAGEMAP_SCAN). */
int64_t record_pages_huge (const void *buffer, size_t bytes);

#endif
