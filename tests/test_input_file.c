/* test_input_file.c: whole-file reads (sim/input_file.c): contents, standard input, the size bound, and what a failure says.
 *
 * Expected lines in the size-bound messages are counted by hand from the
 * inputs written here. */
#include <glib.h>
#include <string.h>
#include <unistd.h>
#include "sim/formats/input_file.h"
#include "support/temp_dir.h"

/* DIR/NAME holding `text`, in a new folder *dir. */
static char *
file_with (char **dir, const char *name, const char *text)
{
  *dir = temp_dir_new ("streamsim-input");
  temp_dir_write (*dir, name, text);
  return g_build_filename (*dir, name, NULL);
}

/* Standard input becomes `text` for the rest of the test (a pipe). */
static void
stdin_from (const char *text)
{
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  gsize len = strlen (text);
  g_assert_cmpint (write (fds[1], text, len), ==, (gssize) len);
  close (fds[1]);
  g_assert_cmpint (dup2 (fds[0], 0), ==, 0);
  close (fds[0]);
}

/* Reading `path` within `max_bytes` gives exactly `want`. */
static void
assert_reads (const char *path, gsize max_bytes, const char *want)
{
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = input_file_read (path, max_bytes, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, want);
  g_assert_cmpuint (len, ==, strlen (want));
}

static void
test_reads_whole_file (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_with (&dir, "a.txt", "one\ntwo\n");
  assert_reads (path, 1024, "one\ntwo\n");
  g_assert_cmpstr (input_file_name (path), ==, path);
  temp_dir_remove (dir);
}

/* "-" is standard input, named <stdin> in messages. */
static void
test_reads_stdin (void)
{
  stdin_from ("from a pipe\n");
  assert_reads ("-", 1024, "from a pipe\n");
  g_assert_cmpstr (input_file_name ("-"), ==, "<stdin>");
}

/* Past the bound is bad input at a place: 8 bytes "a\nb\nc\nd\n" with a
 * bound of 5; byte 5 (from 0) is the line break that ends "c", line 3. */
static void
test_too_large_names_line (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_with (&dir, "big.txt", "a\nb\nc\nd\n");
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  g_assert_null (input_file_read (path, 5, &len, &error));
  g_assert_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_TOO_LARGE);
  g_autofree char *want = g_strdup_printf ("%s:3:1: the file is larger than 5 bytes, the most "
                                           "streamsim reads", path);
  g_assert_cmpstr (error->message, ==, want);
  g_clear_error (&error);

  /* The same from a pipe, where the size is not known ahead. */
  stdin_from ("x\ny\nz\n");
  g_assert_null (input_file_read ("-", 3, &len, &error));
  g_assert_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_TOO_LARGE);
  g_assert_cmpstr (error->message, ==,
                   "<stdin>:2:1: the file is larger than 3 bytes, the most streamsim reads");
  temp_dir_remove (dir);
}

/* Exactly the bound is allowed. */
static void
test_at_bound_allowed (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_with (&dir, "five.txt", "12345");
  assert_reads (path, 5, "12345");
  temp_dir_remove (dir);
}

/* A NUL byte ends the read at once: /dev/zero returns, it does not fill
 * memory up to the bound; the caller's check then finds the NUL. */
static void
test_stops_at_nul (void)
{
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = input_file_read ("/dev/zero", (gsize) 1 << 30, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (len, <, (gsize) 1 << 20);
  g_assert_cmpint (text[0], ==, '\0');
}

/* A missing file and a folder fail as I/O, naming the path. */
static void
test_io_errors (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-input");
  g_autofree char *missing = g_build_filename (dir, "none.txt", NULL);
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  g_assert_null (input_file_read (missing, 1024, &len, &error));
  g_assert_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO);
  g_autofree char *want = g_strdup_printf ("cannot read %s: No such file or directory", missing);
  g_assert_cmpstr (error->message, ==, want);
  g_clear_error (&error);

  g_assert_null (input_file_read (dir, 1024, &len, &error));
  g_assert_error (error, INPUT_FILE_ERROR, INPUT_FILE_ERROR_IO);
  g_autofree char *want_dir = g_strdup_printf ("cannot read %s: it is a directory", dir);
  g_assert_cmpstr (error->message, ==, want_dir);
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/input-file/reads-whole-file", test_reads_whole_file);
  g_test_add_func ("/input-file/reads-stdin", test_reads_stdin);
  g_test_add_func ("/input-file/too-large-names-line", test_too_large_names_line);
  g_test_add_func ("/input-file/at-bound-allowed", test_at_bound_allowed);
  g_test_add_func ("/input-file/stops-at-nul", test_stops_at_nul);
  g_test_add_func ("/input-file/io-errors", test_io_errors);
  return g_test_run ();
}
