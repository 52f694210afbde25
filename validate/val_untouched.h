/* val_untouched.h: host memory no page of which has been touched, for pageable copies that pay the first touch.
 *
 * A private anonymous mapping, as glibc's malloc gives for large sizes (it
 * maps anything from 128 KiB to 32 MiB up fresh until a free teaches it to
 * keep such blocks): every page faults in, and for a D2H is zeroed, when
 * the driver stages a copy through it (validate/FINDINGS.md, "Untouched
 * pageable memory"). Used by the calibration's untouched sweeps and by the
 * harness for a schedule's `pageable untouched` copies. */
#ifndef VAL_UNTOUCHED_H
#define VAL_UNTOUCHED_H

#include <glib.h>

/* `bytes` (> 0) of fresh memory, or NULL and a VAL_ERROR_CUDA error saying
 * why the mapping failed. 2 MiB-aligned; its last `huge` bytes (`pageable
 * untouched huge[=SIZE]`: pages that fault in as transparent huge pages, as
 * NumPy's arrays of 4 MiB or more do), from the 2 MiB boundary at or before
 * them, advised MADV_HUGEPAGE, the rest MADV_NOHUGEPAGE, so that plain
 * untouched memory faults in small pages whatever the machine's THP
 * setting. A callers' touched part is the buffer's start (val_run.c), which
 * the boundary may reach into: touched first, it faults in before the copy. */
void *val_untouched_map (guint64 bytes, guint64 huge, GError **error);

/* Gives back what val_untouched_map returned for the same `bytes`. */
void val_untouched_unmap (void *memory, guint64 bytes);

#endif /* VAL_UNTOUCHED_H */
