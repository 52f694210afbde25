/* val_rows.h: how the harness lays out a 2D copy (`rows=`) in device memory.
 *
 * Each row's pitch is its width rounded up to 512 bytes, as cudaMallocPitch
 * pitches rows, and 512 more, so that no two rows share a line; the 2D copy
 * probe (validate/examples/copy2d_probe.cu), whose runs fit the profiles'
 * row rates, pitches them so. Host memory is packed (a pitch as wide as the
 * row). Used where the harness runs `rows=` copies (val_run.c) and where the
 * calibration times them (val_calib_copies.c). */
#ifndef VAL_ROWS_H
#define VAL_ROWS_H

#include <stddef.h>

static inline size_t
val_rows_pitch (size_t width)
{
  return (width + 511) / 512 * 512 + 512;
}

#endif /* VAL_ROWS_H */
