/* gzip_data.h: gzip data undone, every member in turn, within a bound.
 *
 * Traces, schedules and timelines are often kept gzipped (the recordings in
 * validate/results/ are); the readers that take them undo gzip whatever the
 * file's name, so `predict X.sched.gz` reads what `predict X.sched` does. */
#ifndef GZIP_DATA_H
#define GZIP_DATA_H

#include <glib.h>

#define GZIP_DATA_ERROR (gzip_data_error_quark ())
GQuark gzip_data_error_quark (void);

typedef enum
{
  GZIP_DATA_ERROR_BAD,       /* not gzip to the end: truncated, corrupt, or bytes after it */
  GZIP_DATA_ERROR_TOO_LARGE, /* decompresses to more than the bound */
} GzipDataError;

/* Whether `data` begins with gzip's magic bytes. */
gboolean gzip_data_is (const guint8 *data, gsize length);

/* `data` decompressed, NUL-terminated, its length in `out_length`; NULL
 * where it is not gzip to the end or would be larger than `max_bytes`, the
 * error naming `name` and the byte of the compressed data: "NAME: at byte
 * N of the gzip data: ...". */
guint8 *gzip_data_undo (const char *name, const guint8 *data, gsize length, gsize max_bytes,
                        gsize *out_length, GError **error);

#endif /* GZIP_DATA_H */
