/* test_input_gzip.c: schedules and timelines read from gzipped files (sim/front/input_gzip.c, sim/import/gzip_data.c).
 *
 * Each gzipped input is made here from a plain text written here, and read
 * against that plain text: the same schedule, the same timeline, the same
 * command-line output. The byte offsets in the expected messages are the
 * lengths of the data as cut here; the lines and columns are counted by hand
 * in the texts below. */
#include <gio/gio.h>
#include <string.h>
#include "sim/front/input_gzip.h"
#include "sim/import/gzip_data.h"
#include "support/cli_run.h"
#include "support/temp_dir.h"

static const char schedule_text[] = "device k20\n"
                                    "stream s1\n"
                                    "stream s2\n"
                                    "h2d s1 1MiB\n"
                                    "kernel s2 grid=13 block=256 time=50us\n"
                                    "d2h s1 1MiB\n";

/* `text` as gzip data. */
static GBytes *
gzipped (const char *text, gsize length)
{
  g_autoptr (GConverter) z = G_CONVERTER (g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9));
  gsize cap = length + 1024, read = 0, written = 0;
  guint8 *out = g_malloc (cap);
  g_autoptr (GError) error = NULL;
  GConverterResult r = g_converter_convert (z, text, length, out, cap, G_CONVERTER_INPUT_AT_END,
                                            &read, &written, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r, ==, G_CONVERTER_FINISHED);
  g_assert_cmpuint (read, ==, length);
  return g_bytes_new_take (out, written);
}

/* DIR/NAME holding `data[0..length)`. */
static char *
write_bytes (const char *dir, const char *name, const void *data, gsize length)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (path, data, (gssize) length, &error);
  g_assert_no_error (error);
  return path;
}

/* DIR/NAME holding `text[0..length)` gzipped. */
static char *
write_gzipped (const char *dir, const char *name, const char *text, gsize length)
{
  g_autoptr (GBytes) gz = gzipped (text, length);
  gsize n = 0;
  const void *data = g_bytes_get_data (gz, &n);
  return write_bytes (dir, name, data, n);
}

static void
test_schedule_same_as_plain (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-gzip");
  g_autofree char *path = write_gzipped (dir, "s.sched.gz", schedule_text, strlen (schedule_text));
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) packed = input_gzip_schedule (path, &options, &error);
  g_assert_no_error (error);
  g_autoptr (Schedule) plain = schedule_parse_text ("s.sched", schedule_text, strlen (schedule_text),
                                                    &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (packed), ==, 3);
  g_assert_cmpuint (schedule_n_ops (packed), ==, schedule_n_ops (plain));
  for (gsize i = 0; i < schedule_n_ops (plain); i++)
    {
      g_assert_cmpint (schedule_op (packed, i)->kind, ==, schedule_op (plain, i)->kind);
      g_assert_cmpuint (schedule_op (packed, i)->stream, ==, schedule_op (plain, i)->stream);
    }
  temp_dir_remove (dir);
}

/* Two gzip members one after the other (files joined by cat) are one text. */
static void
test_schedule_two_members (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-gzip");
  gsize half = 32; /* inside the fourth line: the cut need not fall between lines */
  g_autoptr (GBytes) a = gzipped (schedule_text, half);
  g_autoptr (GBytes) b = gzipped (schedule_text + half, strlen (schedule_text) - half);
  GByteArray *both = g_byte_array_new ();
  g_byte_array_append (both, g_bytes_get_data (a, NULL), (guint) g_bytes_get_size (a));
  g_byte_array_append (both, g_bytes_get_data (b, NULL), (guint) g_bytes_get_size (b));
  g_autofree char *path = write_bytes (dir, "s.sched.gz", both->data, both->len);
  g_byte_array_unref (both);
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) sched = input_gzip_schedule (path, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 3);
  temp_dir_remove (dir);
}

/* A mistake in the text is at its line and column of the decompressed text. */
static void
test_schedule_error_place (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-gzip");
  static const char bad[] = "stream s1\nkernel s1 grid=4 block=32 time=oops\n";
  g_autofree char *path = write_gzipped (dir, "bad.sched.gz", bad, strlen (bad));
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) sched = input_gzip_schedule (path, &options, &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_SYNTAX);
  /* "kernel s1 grid=4 block=32 " is 26 bytes: "time=" starts at column 27 of
   * line 2, its value at column 32 */
  g_autofree char *place = g_strdup_printf ("%s:2:32: ", path);
  g_assert_true (g_str_has_prefix (error->message, place));
  temp_dir_remove (dir);
}

/* Gzip data cut short: the byte where it ends, and no schedule. */
static void
test_schedule_truncated (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-gzip");
  g_autoptr (GBytes) gz = gzipped (schedule_text, strlen (schedule_text));
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (gz, &n);
  gsize cut = n / 2;
  g_autofree char *path = write_bytes (dir, "cut.sched.gz", data, cut);
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) sched = input_gzip_schedule (path, &options, &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_SYNTAX);
  g_autofree char *want = g_strdup_printf ("%s: at byte %" G_GSIZE_FORMAT " of the gzip data: the "
                                           "compressed data ends early (a truncated file?)",
                                           path, cut);
  g_assert_cmpstr (error->message, ==, want);
  temp_dir_remove (dir);
}

/* Bytes after the gzip data that are not another member. */
static void
test_trailing_bytes (void)
{
  g_autoptr (GBytes) gz = gzipped (schedule_text, strlen (schedule_text));
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (gz, &n);
  g_autofree guint8 *more = g_malloc (n + 3);
  memcpy (more, data, n);
  memcpy (more + n, "abc", 3);
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *plain = gzip_data_undo ("x.gz", more, n + 3, 1 << 20, &length, &error);
  g_assert_null (plain);
  g_assert_error (error, GZIP_DATA_ERROR, GZIP_DATA_ERROR_BAD);
  g_autofree char *want = g_strdup_printf ("x.gz: at byte %" G_GSIZE_FORMAT " of the gzip data: 3 "
                                           "bytes follow its end", n);
  g_assert_cmpstr (error->message, ==, want);
}

/* Decompressing past the bound stops there; at the bound exactly it does not. */
static void
test_bound (void)
{
  gsize text_length = strlen (schedule_text);
  g_autoptr (GBytes) gz = gzipped (schedule_text, text_length);
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (gz, &n);
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *exact = gzip_data_undo ("x.gz", data, n, text_length, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, text_length);
  g_assert_cmpmem (exact, length, schedule_text, text_length);
  g_assert_cmpint (exact[length], ==, 0);
  g_autofree guint8 *over = gzip_data_undo ("x.gz", data, n, text_length - 1, &length, &error);
  g_assert_null (over);
  g_assert_error (error, GZIP_DATA_ERROR, GZIP_DATA_ERROR_TOO_LARGE);
}

static void
test_timeline_same_as_plain (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-gzip");
  temp_dir_write (dir, "s.sched", schedule_text);
  g_autofree char *sched = g_build_filename (dir, "s.sched", NULL);
  g_autofree char *csv = g_build_filename (dir, "s.csv", NULL);
  const char *args[] = { "predict", sched, "--csv", csv, "-q", NULL };
  g_assert_cmpint (cli_run (NULL, args, NULL, NULL, NULL), ==, 0);
  g_autofree char *text = NULL;
  gsize text_length = 0;
  g_assert_true (g_file_get_contents (csv, &text, &text_length, NULL));
  g_autofree char *path = write_gzipped (dir, "s.csv.gz", text, text_length);
  g_autoptr (GError) error = NULL;
  g_autoptr (Timeline) plain = timeline_read (csv, &error);
  g_assert_no_error (error);
  g_autoptr (Timeline) packed = input_gzip_timeline (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (timeline_n_rows (packed), ==, 3);
  g_assert_cmpuint (timeline_n_rows (packed), ==, timeline_n_rows (plain));
  g_assert_cmpint (timeline_row (packed, 2)->end, ==, timeline_row (plain, 2)->end);
  temp_dir_remove (dir);
}

/* What a user runs: predict and compare take the gzipped files, and say the
 * same as of the plain ones. */
static void
test_command_line (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-gzip");
  temp_dir_write (dir, "s.sched", schedule_text);
  g_autoptr (GBytes) gz = gzipped (schedule_text, strlen (schedule_text));
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (gz, &n);
  g_free (write_bytes (dir, "s.sched.gz", data, n));
  g_free (write_bytes (dir, "cut.sched.gz", data, n - 4));

  const char *plain_args[] = { "predict", "s.sched", "--csv", "plain.csv", NULL };
  const char *packed_args[] = { "predict", "s.sched.gz", "--csv", "packed.csv", NULL };
  g_autofree char *plain_out = NULL, *packed_out = NULL;
  g_assert_cmpint (cli_run (dir, plain_args, NULL, &plain_out, NULL), ==, 0);
  g_assert_cmpint (cli_run (dir, packed_args, NULL, &packed_out, NULL), ==, 0);
  g_assert_nonnull (strstr (packed_out, "s.sched.gz"));
  g_assert_nonnull (strstr (plain_out, "makespan"));
  /* the same prediction, the file's name aside */
  g_autofree char *renamed = g_strdup (packed_out);
  g_autoptr (GString) s = g_string_new (renamed);
  g_string_replace (s, "s.sched.gz", "s.sched", 0);
  g_assert_cmpstr (s->str, ==, plain_out);

  g_autofree char *csv_text = NULL;
  gsize csv_length = 0;
  g_autofree char *plain_csv = g_build_filename (dir, "plain.csv", NULL);
  g_assert_true (g_file_get_contents (plain_csv, &csv_text, &csv_length, NULL));
  g_free (write_gzipped (dir, "plain.csv.gz", csv_text, csv_length));
  const char *compare_args[] = { "compare", "packed.csv", "plain.csv.gz", NULL };
  g_autofree char *compare_out = NULL;
  g_assert_cmpint (cli_run (dir, compare_args, NULL, &compare_out, NULL), ==, 0);
  g_assert_nonnull (strstr (compare_out, "error +0.00%"));

  const char *cut_args[] = { "predict", "cut.sched.gz", NULL };
  g_autofree char *cut_err = NULL;
  g_assert_cmpint (cli_run (dir, cut_args, NULL, NULL, &cut_err), ==, 2);
  g_assert_nonnull (strstr (cut_err, "cut.sched.gz: at byte "));
  g_assert_nonnull (strstr (cut_err, "of the gzip data"));
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/input-gzip/schedule-same-as-plain", test_schedule_same_as_plain);
  g_test_add_func ("/input-gzip/schedule-two-members", test_schedule_two_members);
  g_test_add_func ("/input-gzip/schedule-error-place", test_schedule_error_place);
  g_test_add_func ("/input-gzip/schedule-truncated", test_schedule_truncated);
  g_test_add_func ("/input-gzip/trailing-bytes", test_trailing_bytes);
  g_test_add_func ("/input-gzip/bound", test_bound);
  g_test_add_func ("/input-gzip/timeline-same-as-plain", test_timeline_same_as_plain);
  g_test_add_func ("/input-gzip/command-line", test_command_line);
  return g_test_run ();
}
