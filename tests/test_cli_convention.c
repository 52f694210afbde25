/* test_cli_convention.c: one command-line convention for every subcommand: the same options, outputs by extension, help, device names, options before the command.
 *
 * The commands run as a user runs them (cli_run.h), on the schematic test
 * profiles (tests/profiles, on STREAMSIM_PROFILE_PATH under CTest), whose
 * every phase takes 1 ms and whose host calls cost nothing, so the numbers
 * expected below can be worked out by hand. */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "sim/front/cli_argv.h"
#include "sim/core/near_name.h"
#include "sim/front/output_kind.h"
#include "support/cli_run.h"
#include "support/temp_dir.h"

/* One stream: a 4 MiB H2D copy (1 ms), a kernel of 1 ms on the schematic
 * K20 and 3 ms on the schematic C2050, a 4 MiB D2H copy (1 ms). */
static const char one_stream[] =
  "device schematic-k20\n"
  "stream s1\n"
  "h2d s1 4MiB label=up\n"
  "kernel s1 grid=1 block=32 time=schematic-k20:1ms,schematic-c2050:3ms label=work\n"
  "d2h s1 4MiB label=down\n";

/* Runs streamsim with `args` (NULL-ended) in `dir`; returns the status and
 * sets *out and *err (either may be NULL). */
static int
run (const char *dir, const char *const *args, char **out, char **err)
{
  return cli_run (dir, args, NULL, out, err);
}

/* A fresh folder holding one.sched. */
static char *
folder (void)
{
  char *dir = temp_dir_new ("streamsim-cli");
  temp_dir_write (dir, "one.sched", one_stream);
  return dir;
}

static gboolean
exists (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static char *
contents (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
assert_strv (char **got, const char *const *expected)
{
  guint n = 0;
  while (expected[n] != NULL)
    n++;
  g_assert_cmpuint (g_strv_length (got), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (got[i], ==, expected[i]);
}

/* "-dk20" is "-d k20", as getopt reads it; values and what follows "--"
 * are left alone. */
static void
test_split_short (void)
{
  static char *device, *output;
  static gboolean quiet, explain;
  const GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, NULL, NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, NULL, NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, NULL, NULL },
    { "explain", 'e', 0, G_OPTION_ARG_NONE, &explain, NULL, NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  const struct
  {
    const char *in[8];
    const char *out[10];
  } cases[] = {
    { { "predict", "-dk20", "x.sched", NULL }, { "predict", "-d", "k20", "x.sched", NULL } },
    { { "predict", "-qdk20", NULL }, { "predict", "-q", "-d", "k20", NULL } },
    { { "predict", "-qd", "k20", NULL }, { "predict", "-q", "-d", "k20", NULL } },
    { { "predict", "-d", "k20", NULL }, { "predict", "-d", "k20", NULL } },
    { { "predict", "-qe", NULL }, { "predict", "-qe", NULL } },
    /* a value that looks like a cluster stays a value */
    { { "predict", "-o", "-dx", NULL }, { "predict", "-o", "-dx", NULL } },
    { { "predict", "--output", "-dx", NULL }, { "predict", "--output", "-dx", NULL } },
    { { "predict", "--device=k20", "-dh100", NULL },
      { "predict", "--device=k20", "-d", "h100", NULL } },
    /* an unknown letter: GOption reports the cluster as it was typed */
    { { "predict", "-xdk20", NULL }, { "predict", "-xdk20", NULL } },
    { { "predict", "--", "-dk20", NULL }, { "predict", "--", "-dk20", NULL } },
    { { "predict", "-", NULL }, { "predict", "-", NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GStrv) got = cli_argv_split_short (cases[i].in, entries);
      assert_strv (got, cases[i].out);
    }
  g_assert_true (cli_argv_takes_value (entries, "d", TRUE));
  g_assert_true (cli_argv_takes_value (entries, "output", FALSE));
  g_assert_false (cli_argv_takes_value (entries, "q", TRUE));
  g_assert_false (cli_argv_takes_value (entries, "nothing", FALSE));
}

/* Edit distances counted by hand, and the nearest name within a typo's
 * reach: one edit for names of up to 4 characters, a third of the length
 * beyond. */
static void
test_near_name (void)
{
  g_assert_cmpuint (near_name_distance ("k2O", "k20"), ==, 1);      /* O for 0 */
  g_assert_cmpuint (near_name_distance ("H100", "h100"), ==, 0);    /* case ignored */
  g_assert_cmpuint (near_name_distance ("kitten", "sitting"), ==, 3);
  g_assert_cmpuint (near_name_distance ("", "abc"), ==, 3);
  g_assert_cmpuint (near_name_distance ("predcit", "predict"), ==, 1); /* a swap: one edit */
  g_assert_cmpuint (near_name_distance ("dnoe", "done"), ==, 1);
  g_assert_cmpuint (near_name_distance ("ab", "ba"), ==, 1);
  /* no byte edited twice: ca -> ac -> abc would be 2, but the swapped
   * bytes cannot take an insertion between them */
  g_assert_cmpuint (near_name_distance ("ca", "abc"), ==, 3);
  const char *const devices[] = { "c1060", "c2050", "h100", "h200", "k20", NULL };
  g_assert_cmpstr (near_name ("k2O", devices), ==, "k20");
  g_assert_cmpstr (near_name ("c2060", devices), ==, "c1060"); /* the first of two at 1 */
  g_assert_null (near_name ("x9", devices));
  g_assert_null (near_name ("k20", devices)); /* known: nothing to suggest */
  const char *const commands[] = { "predict", "devices", "compare", "plot", "sweep", NULL };
  g_assert_cmpstr (near_name ("predcit", commands), ==, "predict");
  g_assert_cmpstr (near_name ("plat", commands), ==, "plot"); /* one substitution, 4 letters */
  g_assert_cmpstr (near_name ("plto", commands), ==, "plot"); /* a swap in 4 letters: one edit */
  g_assert_null (near_name ("lpto", commands)); /* two swaps in 4 letters: too far */
  g_assert_null (near_name ("pt", commands));
}

static void
test_output_kind_of (void)
{
  g_assert_cmpint (output_kind_of ("t.csv"), ==, OUTPUT_KIND_CSV);
  g_assert_cmpint (output_kind_of ("dir.png/T.CSV"), ==, OUTPUT_KIND_CSV);
  g_assert_cmpint (output_kind_of ("t.json"), ==, OUTPUT_KIND_JSON);
  g_assert_cmpint (output_kind_of ("t.png"), ==, OUTPUT_KIND_PNG);
  g_assert_cmpint (output_kind_of ("t.Svg"), ==, OUTPUT_KIND_SVG);
  g_assert_cmpint (output_kind_of ("t.txt"), ==, OUTPUT_KIND_OTHER);
  g_assert_cmpint (output_kind_of ("-"), ==, OUTPUT_KIND_BARE);
  g_assert_cmpint (output_kind_of ("/dev/null"), ==, OUTPUT_KIND_BARE);
  g_assert_cmpint (output_kind_of ("out.d/timeline"), ==, OUTPUT_KIND_BARE);
  g_assert_cmpint (output_kind_of (".csv"), ==, OUTPUT_KIND_BARE);
  g_autoptr (GError) error = NULL;
  g_assert_false (output_kind_check ("--csv", "oops.png", OUTPUT_KIND_CSV, "name it .csv",
                                     &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_assert_cmpstr (error->message, ==, "--csv oops.png: the name ends in .png; name it .csv");
}

/* `streamsim help CMD` prints what `streamsim CMD --help` does, for every
 * command; `streamsim help` and `--help` the usage. */
static void
test_help (void)
{
  static const char *const commands[] = { "predict", "devices", "compare", "plot", "sweep",
                                          "import" };
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *help[] = { "help", commands[i], NULL };
      const char *option[] = { commands[i], "--help", NULL };
      const char *before[] = { "--help", commands[i], NULL };
      g_autofree char *a = NULL, *b = NULL, *c = NULL;
      g_assert_cmpint (run (NULL, help, &a, NULL), ==, 0);
      g_assert_cmpint (run (NULL, option, &b, NULL), ==, 0);
      g_assert_cmpint (run (NULL, before, &c, NULL), ==, 0);
      g_assert_cmpstr (a, ==, b);
      g_assert_cmpstr (c, ==, b);
      g_autofree char *usage = g_strdup_printf ("streamsim %s [OPTION", commands[i]);
      g_assert_nonnull (strstr (a, usage));
    }
  const char *help[] = { "help", NULL };
  const char *option[] = { "--help", NULL };
  g_autofree char *a = NULL, *b = NULL, *err = NULL;
  g_assert_cmpint (run (NULL, help, &a, NULL), ==, 0);
  g_assert_cmpint (run (NULL, option, &b, NULL), ==, 0);
  g_assert_cmpstr (a, ==, b);
  const char *typo[] = { "help", "predcit", NULL };
  g_assert_cmpint (run (NULL, typo, NULL, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "streamsim: unknown command 'predcit'; did you mean "
                                        "'predict'?"));
}

/* Device names in any case; a typo gets the nearest profile's name. */
static void
test_device_names (void)
{
  g_autofree char *dir = folder ();
  const char *upper[] = { "predict", "one.sched", "--device", "SCHEMATIC-C2050", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_assert_cmpint (run (dir, upper, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\ndevice       schematic-c2050 (1 connection)\n"));

  const char *typo[] = { "predict", "one.sched", "--device", "schematic-k2O", NULL };
  g_assert_cmpint (run (dir, typo, NULL, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "streamsim: --device schematic-k2O: "));
  g_assert_true (g_str_has_suffix (err, "; did you mean 'schematic-k20'?\n"));

  const char *devices[] = { "devices", "-d", "Schematic-K20,schematic-c2050", NULL };
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (dir, devices, &out, NULL), ==, 0);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4); /* header, two rows, "" */
  g_assert_true (g_str_has_prefix (lines[1], "schematic-k20 "));
  g_assert_true (g_str_has_prefix (lines[2], "schematic-c2050 "));
  temp_dir_remove (dir);
}

/* The shared options may come before the command, and a value may be
 * attached ("-dschematic-c2050"): each form prints what the plain one does. */
static void
test_options_before_command (void)
{
  g_autofree char *dir = folder ();
  const char *plain[] = { "predict", "one.sched", "--device", "schematic-c2050", "--quiet",
                          "--critical-path", NULL };
  const char *const forms[][7] = {
    { "-d", "schematic-c2050", "-q", "predict", "one.sched", "--critical-path", NULL },
    { "-qdschematic-c2050", "predict", "one.sched", "--critical-path", NULL },
    { "--device=schematic-c2050", "predict", "-q", "one.sched", "--critical-path", NULL },
    { "predict", "-dschematic-c2050", "one.sched", "-q", "--critical-path", NULL },
  };
  g_autofree char *expected = NULL;
  g_assert_cmpint (run (dir, plain, &expected, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (expected, "critical path"));
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autofree char *out = NULL;
      g_assert_cmpint (run (dir, forms[i], &out, NULL), ==, 0);
      g_assert_cmpstr (out, ==, expected);
    }
  /* an option only one command has must follow it */
  const char *streams[] = { "--streams", "plot", "t.csv", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (run (dir, streams, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "before the command only"));
  temp_dir_remove (dir);
}

/* The words of a line, blanks collapsed. */
static char **
words (const char *line)
{
  g_auto (GStrv) parts = g_strsplit_set (line, " ", -1);
  GPtrArray *kept = g_ptr_array_new ();
  for (char **p = parts; *p != NULL; p++)
    if (**p != '\0')
      g_ptr_array_add (kept, g_strdup (*p));
  g_ptr_array_add (kept, NULL);
  return (char **) g_ptr_array_free (kept, FALSE);
}

/* --device a,b prints one summary row per device. By hand: on the
 * schematic K20 the copy runs 0-1 ms, the kernel 1-2, the copy back 2-3:
 * makespan 3 ms, the kernel engine busy a third of it, copies two thirds,
 * no copy beside a kernel; the kernel waited 1 ms for its stream, the copy
 * back 2 ms (both issued at 0): the waits cover 0-2 ms, 2 ms counted once.
 * On the schematic C2050 the kernel takes 3 ms: 0-1, 1-4, 4-5, makespan
 * 5 ms, 60% and 40%, waits 1 ms and 4 ms, covering 0-4 ms. The K20 has 8
 * connections, the C2050 one. */
static void
test_several_devices (void)
{
  g_autofree char *dir = folder ();
  const char *both[] = { "predict", "one.sched", "-d", "schematic-k20,Schematic-C2050", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (run (dir, both, &out, NULL), ==, 0);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 7);
  g_assert_cmpstr (lines[0], ==, "schedule     one.sched");
  g_assert_cmpstr (lines[1], ==, "ops          3");
  g_assert_cmpstr (lines[2], ==, "");
  g_auto (GStrv) header = words (lines[3]);
  const char *const expected_header[] = { "device", "conns", "makespan", "compute", "copy",
                                          "overlap", "waited", "longest", "for", NULL };
  assert_strv (header, expected_header);
  g_auto (GStrv) k20 = words (lines[4]);
  const char *const expected_k20[] = { "schematic-k20", "8", "3", "ms", "33.3%", "66.7%", "0.0%",
                                       "stream", "(2", "ops,", "2", "ms)", NULL };
  assert_strv (k20, expected_k20);
  g_auto (GStrv) c2050 = words (lines[5]);
  const char *const expected_c2050[] = { "schematic-c2050", "1", "5", "ms", "60.0%", "40.0%",
                                         "0.0%", "stream", "(2", "ops,", "4", "ms)", NULL };
  assert_strv (c2050, expected_c2050);

  /* -d twice is a list too */
  const char *twice[] = { "predict", "one.sched", "-d", "schematic-k20", "-d",
                          "schematic-c2050", NULL };
  g_autofree char *out2 = NULL;
  g_assert_cmpint (run (dir, twice, &out2, NULL), ==, 0);
  g_assert_cmpstr (out2, ==, out);

  /* one prediction's outputs have no place in a table: refused, no file */
  const char *csv[] = { "predict", "one.sched", "-d", "schematic-k20,schematic-c2050", "--csv",
                        "out.csv", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (run (dir, csv, NULL, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "streamsim predict: --csv describes one prediction"));
  g_assert_false (exists (dir, "out.csv"));
  temp_dir_remove (dir);
}

/* An output's kind follows its extension or is refused, with no file. */
static void
test_output_kinds (void)
{
  g_autofree char *dir = folder ();
  static const char *const refused[][8] = {
    { "predict", "one.sched", "-o", "out.txt", NULL },
    { "predict", "one.sched", "-o", "out.json", NULL },
    { "predict", "one.sched", "--csv", "out.png", NULL },
    { "predict", "one.sched", "--json", "out.csv", NULL },
    { "predict", "one.sched", "--chrome", "out.svg", NULL },
    { "predict", "one.sched", "-o", "out.csv", "--csv", "out2.csv", NULL },
    { "sweep", "one.sched", "-D", "x=1,2", "-o", "out.txt", NULL },
    { "sweep", "one.sched", "-D", "x=1,2", "--csv", "out.png", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *err = NULL;
      g_assert_cmpint (run (dir, refused[i], NULL, &err), ==, 2);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, "out"));
      g_assert_false (exists (dir, "out.txt"));
      g_assert_false (exists (dir, "out.json"));
      g_assert_false (exists (dir, "out.png"));
      g_assert_false (exists (dir, "out.csv"));
      g_assert_false (exists (dir, "out.svg"));
    }

  /* predict -o t.csv: the timeline */
  const char *csv[] = { "predict", "one.sched", "-q", "-o", "t.csv", NULL };
  g_assert_cmpint (run (dir, csv, NULL, NULL), ==, 0);
  g_autofree char *timeline = contents (dir, "t.csv");
  g_assert_nonnull (strstr (timeline, "\nop,line,stream,kind,"));

  /* sweep -o s.csv: the table as CSV */
  temp_dir_write (dir, "param.sched",
                  "device schematic-k20\nlet n = 1\nstream s1\n"
                  "kernel s1 grid=$n block=32 time=1ms\n");
  const char *sweep[] = { "sweep", "param.sched", "-D", "n=1,2", "-q", "-o", "s.csv", NULL };
  g_assert_cmpint (run (dir, sweep, NULL, NULL), ==, 0);
  g_autofree char *table = contents (dir, "s.csv");
  g_assert_true (g_str_has_prefix (table, "param,device,makespan_ns\n"));

  /* plot -o t.json: the Chrome trace */
  const char *trace[] = { "plot", "t.csv", "-o", "t.json", "-q", NULL };
  g_assert_cmpint (run (dir, trace, NULL, NULL), ==, 0);
  g_autofree char *json = contents (dir, "t.json");
  g_assert_true (g_str_has_prefix (json, "{\"traceEvents\":"));
  g_assert_false (exists (dir, "t.png"));

  /* predict -o t.png: a picture, never a CSV */
  g_autofree char *gnuplot = g_find_program_in_path ("gnuplot");
  if (gnuplot != NULL)
    {
      const char *png[] = { "predict", "one.sched", "-q", "-o", "t.png", NULL };
      g_assert_cmpint (run (dir, png, NULL, NULL), ==, 0);
      g_autofree char *picture = contents (dir, "t.png");
      g_assert_cmpmem (picture + 1, 3, "PNG", 3);
    }
  temp_dir_remove (dir);
}

/* -j is --jobs wherever it is taken; --json keeps its long name only. */
static void
test_jobs_letter (void)
{
  g_autofree char *dir = folder ();
  temp_dir_write (dir, "param.sched",
                  "device schematic-k20\nlet n = 1\nstream s1\n"
                  "kernel s1 grid=$n block=32 time=1ms\n");
  const char *short_jobs[] = { "sweep", "param.sched", "-D", "n=1,2", "-j", "2", "--json", "-",
                               NULL };
  const char *long_jobs[] = { "sweep", "param.sched", "-D", "n=1,2", "--jobs=1", "--json", "-",
                              NULL };
  g_autofree char *a = NULL, *b = NULL, *err = NULL;
  g_assert_cmpint (run (dir, short_jobs, &a, NULL), ==, 0);
  g_assert_cmpint (run (dir, long_jobs, &b, NULL), ==, 0);
  g_assert_cmpstr (a, ==, b);
  const char *old_json[] = { "predict", "one.sched", "-j", "s.json", NULL };
  g_assert_cmpint (run (dir, old_json, NULL, &err), ==, 2);
  g_assert_false (exists (dir, "s.json"));
  const char *json[] = { "predict", "one.sched", "-q", "--json", "s.json", NULL };
  g_assert_cmpint (run (dir, json, NULL, NULL), ==, 0);
  g_assert_true (exists (dir, "s.json"));
  temp_dir_remove (dir);
}

/* With -q a listing starts at its heading (no empty first line), two are
 * parted by one empty line, --check says nothing when every rule holds,
 * and compare and plot take -q too. */
static void
test_quiet (void)
{
  g_autofree char *dir = folder ();
  const char *path[] = { "predict", "one.sched", "--critical-path", "-q", NULL };
  const char *explain[] = { "predict", "one.sched", "--explain", "-q", NULL };
  const char *both[] = { "predict", "one.sched", "--explain", "--critical-path", "-q", NULL };
  const char *check[] = { "predict", "one.sched", "--check", "-q", NULL };
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  g_assert_cmpint (run (dir, path, &a, NULL), ==, 0);
  g_assert_cmpint (run (dir, explain, &b, NULL), ==, 0);
  g_assert_cmpint (run (dir, both, &c, NULL), ==, 0);
  g_assert_cmpint (run (dir, check, &d, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (a, "critical path (each op waited"));
  g_assert_true (g_str_has_prefix (b, "why ops waited"));
  g_autofree char *joined = g_strconcat (b, "\n", a, NULL);
  g_assert_cmpstr (c, ==, joined);
  g_assert_cmpstr (d, ==, "");

  const char *csv[] = { "predict", "one.sched", "-q", "-o", "t.csv", NULL };
  g_assert_cmpint (run (dir, csv, NULL, NULL), ==, 0);
  const char *compare[] = { "compare", "t.csv", "t.csv", "-q", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (run (dir, compare, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  const char *plot[] = { "plot", "t.csv", "-q", "--chrome", "t.json", NULL };
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (dir, plot, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/split-short", test_split_short);
  g_test_add_func ("/cli/near-name", test_near_name);
  g_test_add_func ("/cli/output-kind-of", test_output_kind_of);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/device-names", test_device_names);
  g_test_add_func ("/cli/options-before-command", test_options_before_command);
  g_test_add_func ("/cli/several-devices", test_several_devices);
  g_test_add_func ("/cli/output-kinds", test_output_kinds);
  g_test_add_func ("/cli/jobs-letter", test_jobs_letter);
  g_test_add_func ("/cli/quiet", test_quiet);
  return g_test_run ();
}
