/* temp_dir.h: a fresh folder for a test's files, and its removal. */
#ifndef TEMP_DIR_H
#define TEMP_DIR_H

#include <glib.h>

/* A new empty folder in the system's temporary directory, its name starting
 * with `prefix`; fails the calling test if it cannot be made. */
char *temp_dir_new (const char *prefix);

/* Writes `text` to DIR/NAME; fails the calling test on an error. */
void temp_dir_write (const char *dir, const char *name, const char *text);

/* Removes the files in `dir` and then `dir` (one level: tests write no
 * subfolders). */
void temp_dir_remove (const char *dir);

/* Removes `dir`, which the test has emptied; fails the calling test, naming
 * what is left, if it holds anything (a writer that left its temporary file
 * behind, or a file written where none should have been). */
void temp_dir_remove_empty (const char *dir);

#endif /* TEMP_DIR_H */
