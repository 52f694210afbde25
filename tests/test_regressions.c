/* test_regressions.c: replays every input in tests/fuzz/regressions/ (and a few too big to keep as files) through its reader.
 *
 * A file's name says which reader it is for: schedule-*, profile-* or
 * timeline-*. Each must either load or fail with a GError whose message
 * names the position ("FILE:LINE:COLUMN: ", or "-D " for a bad define);
 * anything else (a crash, a sanitizer report, a hang caught by CTest's
 * timeout, an error without a position) fails the test. Schedules use the
 * fuzz target's convention: a first line "#D A=1 B=2" also passes -D A=1 B=2.
 * predict-* files are fuzz_predict's inputs (first byte: the profile, see
 * tests/support/fuzz_profiles.h): simulated, they must break no rule of the
 * invariant checker, and their critical path's links must pass
 * support/path_links.c. import-* files are traces of a profiler (fuzz_kineto's
 * and fuzz_nsys's inputs), read and converted; record-* files recorder logs
 * (fuzz_record's), converted with the h100 profile.
 * When a fuzzer finds a crash, its input goes into that folder with a name
 * saying what it was, and the fix comes with it. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include "engines/eng_check.h"
#include "engines/eng_sim.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "support/fuzz_profiles.h"
#include "support/path_links.h"
#include "sim/formats/timeline.h"
#include "sim/import/import_file.h"
#include "sim/import/import_schedule.h"
#include "sim/recorded/record_log.h"
#include "sim/recorded/record_schedule.h"

#define REGRESSION_DIR SRCDIR "/tests/fuzz/regressions"

/* "path:LINE:COLUMN: " with LINE and COLUMN >= 1. */
static gboolean
names_position (const char *message, const char *path)
{
  if (!g_str_has_prefix (message, path) || message[strlen (path)] != ':')
    return FALSE;
  const char *p = message + strlen (path) + 1;
  for (int field = 0; field < 2; field++)
    {
      char *end;
      guint64 n = g_ascii_strtoull (p, &end, 10);
      if (end == p || *end != ':' || n == 0)
        return FALSE;
      p = end + 1;
    }
  return *p == ' ';
}

static void
replay_schedule (const char *path)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  g_auto (GStrv) defines = NULL;
  if (length > 3 && memcmp (text, "#D ", 3) == 0)
    {
      const char *eol = memchr (text, '\n', length);
      g_autofree char *line = g_strndup (text + 3, (eol != NULL ? (gsize) (eol - text) : length) - 3);
      defines = g_strsplit (line, " ", 8);
    }
  ScheduleParseOptions options = { (const char *const *) defines, 100000 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) sched = schedule_parse_text (path, text, length, &options, &error);
  if (sched == NULL)
    {
      g_test_message ("%s", error->message);
      g_assert_true (names_position (error->message, path) || g_str_has_prefix (error->message, "-D "));
    }
}

static void
replay_profile (const char *path)
{
  GpuProfile profile;
  g_autoptr (GError) error = NULL;
  if (profile_load (path, &profile, &error))
    {
      g_assert_cmpuint (profile.sm_count, >=, 1);
      gpu_profile_clear (&profile);
      return;
    }
  g_test_message ("%s", error->message);
  /* The position may be in a file the input inherits. */
  g_assert_true (names_position (error->message, path) || strstr (error->message, ".ini:") != NULL);
}

static void
replay_timeline (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Timeline) timeline = timeline_read (path, &error);
  if (timeline == NULL)
    {
      g_test_message ("%s", error->message);
      g_assert_true (names_position (error->message, path));
    }
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
replay_predict (const char *path)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  g_assert_cmpuint (length, >, 0);
  g_autofree char *profile_path = fuzz_profile_path (SRCDIR, (guchar) text[0]);
  GpuProfile profile;
  g_autoptr (GError) error = NULL;
  g_assert_true (profile_load (profile_path, &profile, &error));
  ScheduleParseOptions options = { NULL, 2000 };
  g_autoptr (Schedule) sched = schedule_parse_text (path, text + 1, length - 1, &options, &error);
  if (sched != NULL)
    {
      g_autoptr (EngSim) sim = eng_sim_new (&profile, sched, 0, &error);
      if (sim != NULL)
        {
          eng_sim_run (sim);
          g_autoptr (EngCheck) check = eng_check_results (&profile, sched, eng_sim_connections (sim),
                                                          eng_sim_copy_connections (sim),
                                                          eng_sim_results (sim));
          for (gsize i = 0; i < eng_check_n_kept (check); i++)
            g_test_message ("op %u [%s] %s", eng_check_violation (check, i)->op,
                            eng_check_rule_name (eng_check_violation (check, i)->rule),
                            eng_check_violation (check, i)->message);
          g_assert_cmpuint (eng_check_n_violations (check), ==, 0);
          g_autofree char *broken = path_links_check (sim, sched, &profile);
          if (broken != NULL)
            g_test_message ("%s", broken);
          g_assert_null (broken);
        }
      else
        g_assert_true (names_position (error->message, path));
    }
  gpu_profile_clear (&profile);
}

/* An input refused with an error about its file ("FILE:..."). */
static void
assert_refused_about (const GError *error, const char *path)
{
  g_autofree char *about = g_strconcat (path, ":", NULL);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, about));
}

/* A profiler's trace (fuzz_kineto's and fuzz_nsys's inputs): read and
 * converted into a schedule that parses back, or refused with an error
 * about the file ("FILE:LINE:COLUMN: " for JSON, "FILE: " for a database
 * or gzip data). */
static void
replay_import (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ImportTrace) trace = import_file_read (path, &error);
  if (trace == NULL)
    {
      assert_refused_about (error, path);
      return;
    }
  ImportScheduleOptions options = { .min_host_ns = 2000 };
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_schedule_build (trace, &options, &counts, &error);
  if (rec == NULL)
    assert_refused_about (error, path);
  else
    g_assert_cmpuint (schedule_n_ops (rec->schedule), ==, rec->n_ops);
  import_counts_clear (&counts);
}

/* A recorder's log (fuzz_record's inputs): converted with the h100 profile
 * into a schedule that parses back, op for op, or refused with an error at
 * a line of the log. */
static void
replay_record (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) log = record_log_read (path, &error);
  if (log == NULL)
    {
      assert_refused_about (error, path);
      return;
    }
  GpuProfile profile = { 0 };
  g_assert_true (profile_load ("h100", &profile, NULL));
  RecordOptions opt = { .min_host_ns = 2000, .connections = 8, .profile = &profile };
  g_autoptr (RecordSchedule) rec = record_schedule_build (log, &opt, &error);
  gpu_profile_clear (&profile);
  if (rec == NULL)
    assert_refused_about (error, path);
  else
    g_assert_cmpuint (schedule_n_ops (rec->schedule), ==, rec->n_ops);
}

static void
test_regression_file (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_build_filename (REGRESSION_DIR, name, NULL);
  if (g_str_has_prefix (name, "schedule-"))
    replay_schedule (path);
  else if (g_str_has_prefix (name, "profile-"))
    replay_profile (path);
  else if (g_str_has_prefix (name, "timeline-"))
    replay_timeline (path);
  else if (g_str_has_prefix (name, "predict-"))
    replay_predict (path);
  else if (g_str_has_prefix (name, "import-"))
    replay_import (path);
  else if (g_str_has_prefix (name, "record-"))
    replay_record (path);
  else
    g_error ("%s: a regression input is named schedule-*, profile-*, timeline-*, predict-*, "
             "import-* or record-*", name);
}

/* A header of 300,000 empty columns: reading it once took time quadratic in
 * the line's length (each field's column counted from the line's start). It
 * must be refused (no required columns) in well under a second; five
 * allows for sanitizers and valgrind. */
static void
test_regression_wide_header (void)
{
  g_autofree char *commas = g_strnfill (300000, ',');
  g_autofree char *text = g_strconcat ("op,line,stream,kind,engine,issue_ns,start_ns", commas, "\n",
                                       NULL);
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("streamsim-wide-XXXXXX.csv", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (GError) error = NULL;
  g_autoptr (Timeline) timeline = timeline_read (path, &error);
  gint64 took = g_get_monotonic_time () - t0;
  g_assert_null (timeline);
  g_assert_true (names_position (error->message, path));
  g_assert_nonnull (strstr (error->message, "no column 'end_ns'"));
  g_assert_cmpint (took, <, 5 * G_USEC_PER_SEC);
  g_unlink (path);
}

/* A schedule line of 2,000 substitutions expands past the 4096-byte line
 * limit: refused with the limit, at the line, not written past the buffer. */
static void
test_regression_substitution_overflow (void)
{
  GString *text = g_string_new ("let a = 0123456789\nhost 1us ");
  for (guint i = 0; i < 2000; i++)
    g_string_append (text, "$a");
  g_string_append_c (text, '\n');
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) sched = schedule_parse_text ("t.sched", text->str, text->len, &options,
                                                    &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_LIMIT);
  g_assert_true (g_str_has_prefix (error->message, "t.sched:2:"));
  g_string_free (text, TRUE);
}

/* 65,537 `let` lines: one more parameter than a schedule may define,
 * refused at the line that passes the limit (memory stays bounded). */
static void
test_regression_too_many_parameters (void)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i <= 65536; i++)
    g_string_append_printf (text, "let p%u = 1\n", i);
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Schedule) sched = schedule_parse_text ("t.sched", text->str, text->len, &options,
                                                    &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_LIMIT);
  g_assert_true (g_str_has_prefix (error->message, "t.sched:65537:5: more than 65536 parameters"));
  g_string_free (text, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the test profiles' `inherits`, for predict-* inputs of a corner profile */
  fuzz_profiles_search_path (SRCDIR);
  /* One failing input must not hide the others. */
  g_test_set_nonfatal_assertions ();
  g_autoptr (GDir) dir = g_dir_open (REGRESSION_DIR, 0, NULL);
  g_assert_nonnull (dir);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.' && strcmp (name, "README.md") != 0)
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *test = g_strconcat ("/regressions/", (char *) g_ptr_array_index (names, i), NULL);
      g_test_add_data_func (test, g_ptr_array_index (names, i), test_regression_file);
    }
  g_test_add_func ("/regressions/timeline-wide-header", test_regression_wide_header);
  g_test_add_func ("/regressions/schedule-substitution-overflow", test_regression_substitution_overflow);
  g_test_add_func ("/regressions/schedule-too-many-parameters", test_regression_too_many_parameters);
  int status = g_test_run ();
  g_ptr_array_unref (names);
  return status;
}
