/* import_file.h: a profiler's trace file read whatever its format, the format found from its content.
 *
 * A file that begins "SQLite format 3" is an Nsight Systems export
 * (import_nsys.h); one whose first character (after white space) is `{` or
 * `[` is a Chrome JSON trace of PyTorch's profiler (import_kineto.h); a
 * gzip file is decompressed first, whatever its name, and read the same
 * way. "-" is standard input. Bad input is IMPORT_ERROR_PARSE naming the
 * place ("FILE:LINE:COLUMN", "FILE: table T row N", "FILE: at byte N" of
 * the compressed data); a file that cannot be read IMPORT_ERROR_IO. */
#ifndef IMPORT_FILE_H
#define IMPORT_FILE_H

#include <glib.h>
#include "import_trace.h"

/* The most a trace may hold, compressed or not: past it, a JSON trace
 * would not fit in memory once parsed. */
#define IMPORT_FILE_MAX_BYTES (G_GUINT64_CONSTANT (2) << 30)

ImportTrace *import_file_read (const char *path, GError **error);

/* The trace held in `data[0..length)`, read as import_file_read reads a
 * file, named `path` in messages (for tests and fuzzing). */
ImportTrace *import_file_parse (const char *path, const guint8 *data, gsize length,
                                GError **error);

#endif /* IMPORT_FILE_H */
