/* write_behind.h: a large output's page cache written back and handed back behind the writer.
 *
 * Writing a file fills the page cache, and on a VM that memory is fresh: on
 * the Firecracker VM of PERFORMANCE-LOG.md's sixteenth round, copying a 1.1 GB
 * timeline into new page-cache pages cost 3 to 4 s, a third of predicting
 * 10^7 ops, where copying into pages the kernel had just freed cost 0.3 s.
 * Starting the writeback of each window as it is written, and dropping the
 * windows behind once they are on their way to the disk, lets the kernel
 * reuse the same few hundred MiB of cache for the whole file (as GNU dd's
 * oflag=nocache does). The last `keep` bytes always stay cached, so an output
 * of up to that size (a million-row timeline is 111 MB) is written exactly
 * as before, and a reader of a big one finds its end in memory. */
#ifndef WRITE_BEHIND_H
#define WRITE_BEHIND_H

#include <glib.h>

/* Outputs up to this size are left alone. */
#define WRITE_BEHIND_KEEP (128u << 20)
/* Writeback is started once per this many bytes. */
#define WRITE_BEHIND_WINDOW (32u << 20)

typedef struct
{
  guint64 keep;     /* the last this many bytes stay in the page cache */
  guint64 window;   /* writeback starts each time this many more were written */
  guint64 started;  /* the bytes before this have had their writeback started */
  guint64 released; /* the bytes before this were handed back */
} WriteBehind;

/* WRITE_BEHIND_KEEP and WRITE_BEHIND_WINDOW, nothing started. */
void write_behind_init (WriteBehind *behind);

/* Whether write_behind_advance would act at `written`: a writer that
 * buffers flushes only then. */
static inline gboolean
write_behind_due (const WriteBehind *behind, guint64 written)
{
  return written > behind->keep && written - behind->started >= behind->window;
}

/* Called after each write to the regular file `fd`, with the bytes written
 * to it so far (all of them already in the kernel, not in a stdio buffer).
 * Advice only: where the file system or the platform ignores it, nothing
 * changes, and no error is reported; a failed write reports itself. */
void write_behind_advance (WriteBehind *behind, int fd, guint64 written);

#endif /* WRITE_BEHIND_H */
