/* input_file.h: reading a whole input file within a bound, so that /dev/zero or an endless pipe cannot fill memory. */
#ifndef INPUT_FILE_H
#define INPUT_FILE_H

#include <glib.h>

/* Reads `path` ("-": standard input) into a NUL-terminated buffer. Stops
 * after the first block holding a NUL byte (the caller's UTF-8 check then
 * reports where it is), and fails (G_FILE_ERROR_FAILED) once more than
 * `max_bytes` have been read. Other errors are G_FILE_ERROR too, naming
 * `path`. */
char *input_file_read (const char *path, gsize max_bytes, gsize *length, GError **error);

#endif /* INPUT_FILE_H */
