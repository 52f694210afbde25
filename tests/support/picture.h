/* picture.h: what tests of pictures share: skipping without gnuplot, and a PNG's size. */
#ifndef PICTURE_H
#define PICTURE_H

#include <glib.h>

/* TRUE when gnuplot is on PATH; else marks the test skipped, saying why. */
gboolean picture_need_gnuplot (void);

/* Fails the test unless `path` is a PNG `width` by `height` pixels (the
 * IHDR chunk follows the 8-byte signature; its width and height are
 * big-endian 32-bit integers at bytes 16 and 20). */
void picture_assert_png_size (const char *path, guint width, guint height);

#endif /* PICTURE_H */
