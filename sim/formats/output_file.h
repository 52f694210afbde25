/* output_file.h: writing an output whole or not at all, without ever replacing a device or a pipe. */
#ifndef OUTPUT_FILE_H
#define OUTPUT_FILE_H

#include <glib.h>

/* TRUE when `path` is a symbolic link, or exists and is not a regular file:
 * /dev/null, /dev/stdout, a FIFO, a link to the real file. Such a target is
 * written in place; replacing it by a renamed temporary file would, as root,
 * turn /dev/null into a plain file, and would replace a link by a copy. */
gboolean output_file_is_special (const char *path);

/* Opens a special `path` for writing in place: appending to a device or a
 * pipe, truncating a regular file reached through a link. -1 on error. */
int output_file_open_special (const char *path, GError **error);

/* Whether a temporary file about to replace `path` must be synced first:
 * only when `path` already holds something, as g_file_set_contents does.
 * Renaming over a file whose new contents are still only in the page cache
 * can, after a power loss, leave neither the old contents nor the new; a new
 * file has nothing to lose, and a process that dies or fails never leaves a
 * half-written file under its name either way (the rename comes last). The
 * sync is not free: 65 ms for a million-row timeline on an ext4 VM, about a
 * third of writing it. */
gboolean output_file_needs_sync (const char *path);

/* Like g_file_set_contents (a temporary file beside `path`, synced when it
 * replaces one (output_file_needs_sync), then a rename, so that a failure
 * leaves the old file untouched), but a special file is written in place,
 * and "-" is standard output. Errors are G_FILE_ERROR and name `path`. */
gboolean output_file_set_contents (const char *path, const char *data, gsize length,
                                   GError **error);

/* Puts a finished temporary file in place of `path`: a rename, or for a
 * special file, a copy of its contents into it; the temporary file is gone
 * afterwards either way. */
gboolean output_file_commit (const char *tmp_path, const char *path, GError **error);

#endif /* OUTPUT_FILE_H */
