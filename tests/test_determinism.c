/* test_determinism.c: the same schedule gives byte-identical CSV and Chrome JSON, run after run and whatever the locale or time zone.
 *
 * Every schedule under traces/ and tests/schedules is predicted three times,
 * each in its own process (STREAMSIM_BIN): twice in the same environment and
 * once with another locale, time zone and LANG, so that nothing read from
 * the clock, the environment, a hash table's order or an uninitialized byte
 * can reach the outputs unnoticed. Schedules that the device refuses (a
 * block too large for it, say) are skipped, and at least 30 must run. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include "support/temp_dir.h"

typedef struct
{
  char *csv;
  gsize csv_len;
  char *json;
  gsize json_len;
} Outputs;

static void
outputs_clear (Outputs *o)
{
  g_free (o->csv);
  g_free (o->json);
  memset (o, 0, sizeof *o);
}

/* Predicts `sched` on `device` in `dir` with `env` added; FALSE if streamsim
 * refuses the schedule (exit 2). */
static gboolean
predict (const char *dir, const char *sched, const char *device, const char *const *env,
         Outputs *out)
{
  g_autofree char *csv = g_build_filename (dir, "t.csv", NULL);
  g_autofree char *json = g_build_filename (dir, "t.json", NULL);
  const char *argv[] = { STREAMSIM_BIN, "predict", sched, "--device", device, "--csv", csv,
                         "--chrome", json, "--quiet", NULL };
  g_auto (GStrv) envp = g_get_environ ();
  for (const char *const *e = env; *e != NULL; e++)
    {
      g_auto (GStrv) kv = g_strsplit (*e, "=", 2);
      envp = g_environ_setenv (envp, kv[0], kv[1], TRUE);
    }
  int wait_status = 0;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  if (WEXITSTATUS (wait_status) == 2)
    return FALSE;
  if (WEXITSTATUS (wait_status) != 0)
    g_error ("predict %s --device %s: exit %d: %s", sched, device, WEXITSTATUS (wait_status), err);
  g_assert_true (g_file_get_contents (csv, &out->csv, &out->csv_len, NULL));
  g_assert_true (g_file_get_contents (json, &out->json, &out->json_len, NULL));
  g_unlink (csv);
  g_unlink (json);
  return TRUE;
}

static void
assert_same (const char *what, const char *sched, const char *a, gsize a_len, const char *b,
             gsize b_len)
{
  if (a_len == b_len && memcmp (a, b, a_len) == 0)
    return;
  gsize at = 0;
  while (at < a_len && at < b_len && a[at] == b[at])
    at++;
  g_error ("%s of %s differs between runs at byte %" G_GSIZE_FORMAT " (lengths %" G_GSIZE_FORMAT
           " and %" G_GSIZE_FORMAT ")", what, sched, at, a_len, b_len);
}

static void
collect (const char *dir, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect (path, out);
      else if (g_str_has_suffix (name, ".sched"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
test_determinism_traces (void)
{
  static const char *const same[] = { "LC_ALL=C", "TZ=UTC", NULL };
  static const char *const other[] = { "LC_ALL=C.UTF-8", "LANG=de_DE.UTF-8", "TZ=Asia/Kolkata",
                                        "LC_NUMERIC=de_DE.UTF-8", NULL };
  g_autoptr (GPtrArray) scheds = g_ptr_array_new_with_free_func (g_free);
  collect (SRCDIR "/traces", scheds);
  collect (SRCDIR "/tests/schedules", scheds);
  g_ptr_array_sort (scheds, compare_paths); /* the same device for each, on every machine */
  g_autofree char *dir = temp_dir_new ("streamsim-determinism");

  guint ran = 0;
  for (guint i = 0; i < scheds->len; i++)
    {
      const char *sched = g_ptr_array_index (scheds, i);
      /* The seed traces list times for these three; the rest use fallbacks. */
      const char *device = (const char *[]) { "k20", "c2050", "c1060" }[i % 3];
      Outputs a = { 0 }, b = { 0 }, c = { 0 };
      if (!predict (dir, sched, device, same, &a))
        {
          g_test_message ("skipped %s on %s: the device refuses it", sched, device);
          continue;
        }
      g_assert_true (predict (dir, sched, device, same, &b));
      g_assert_true (predict (dir, sched, device, other, &c));
      assert_same ("the CSV", sched, a.csv, a.csv_len, b.csv, b.csv_len);
      assert_same ("the Chrome JSON", sched, a.json, a.json_len, b.json, b.json_len);
      assert_same ("the CSV (other locale and time zone)", sched, a.csv, a.csv_len, c.csv, c.csv_len);
      assert_same ("the Chrome JSON (other locale and time zone)", sched, a.json, a.json_len, c.json,
                   c.json_len);
      g_assert_cmpuint (a.csv_len, >, 0);
      g_assert_cmpuint (a.json_len, >, 0);
      outputs_clear (&a);
      outputs_clear (&b);
      outputs_clear (&c);
      ran++;
    }
  temp_dir_remove_empty (dir);
  g_test_message ("%u schedules predicted three times each", ran);
  g_assert_cmpuint (ran, >=, 30);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/determinism/traces", test_determinism_traces);
  return g_test_run ();
}
