/* input_file.h: reading a whole input file within a bound, so that /dev/zero or an endless pipe cannot fill memory. */
#ifndef INPUT_FILE_H
#define INPUT_FILE_H

#include <glib.h>

/* How messages name the input "-" (standard input): "<stdin>:3:7: ...". */
#define INPUT_FILE_STDIN_NAME "<stdin>"

#define INPUT_FILE_ERROR (input_file_error_quark ())
GQuark input_file_error_quark (void);

typedef enum
{
  INPUT_FILE_ERROR_IO,        /* "cannot read PATH: why": a failure of the machine */
  INPUT_FILE_ERROR_TOO_LARGE, /* "PATH:LINE:1: the file is larger than ...": bad input */
} InputFileError;

/* `path` as messages name it: INPUT_FILE_STDIN_NAME for "-". */
const char *input_file_name (const char *path);

/* Reads `path` ("-": standard input) into a NUL-terminated buffer. Stops
 * after the first block holding a NUL byte (the caller's UTF-8 check then
 * reports where it is). More than `max_bytes` is INPUT_FILE_ERROR_TOO_LARGE,
 * naming the line where the limit fell; every other failure is
 * INPUT_FILE_ERROR_IO, naming `path`. */
char *input_file_read (const char *path, gsize max_bytes, gsize *length, GError **error);

/* The first `size` bytes of `path` into `head`, where it is a regular file
 * that long; FALSE otherwise ("-", a pipe, a short or unreadable file: the
 * whole read then says why). For a reader that picks a format by them. */
gboolean input_file_head (const char *path, guint8 *head, gsize size);

/* How many bytes, at least, a head check (below) is given. */
#define INPUT_FILE_HEAD_BYTES 16

/* Whether the first bytes of a file may be of the format the caller reads. */
typedef gboolean (*InputFileHeadCheck) (const guint8 *head, gsize length);

/* Reads `path` as input_file_read does, but whole, NUL bytes included (a
 * compressed or binary file); still NUL-terminated. Too large is
 * "PATH: at byte N: ...". Where `head_ok` is given and says no to the
 * first INPUT_FILE_HEAD_BYTES or more, reading stops there (the caller's
 * parser then says what is wrong), so that /dev/zero or a pipe of garbage
 * is not read to the bound. */
char *input_file_read_bytes (const char *path, gsize max_bytes, InputFileHeadCheck head_ok,
                             gsize *length, GError **error);

/* `why`, an error of the reads above (freed), set in `error` as the
 * reader's own: `too_large_code` of `domain` for a file too large (bad
 * input), `io_code` for the others. */
void input_file_propagate (GError **error, GError *why, GQuark domain, gint io_code,
                           gint too_large_code);

#endif /* INPUT_FILE_H */
