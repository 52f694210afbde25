/* test_run_profile.c: validate/run-profile.sh, the profile of one measured run (host call costs and link speeds).
 *
 * The expected numbers are worked by hand from the fixture below, and the
 * last check holds the script to its promise end to end: streamsim, given
 * the profile the script wrote, predicts the run's 64 MiB pageable copy in
 * exactly the time the run measured, and pinned copies as calibrated. */
#include <stdlib.h>
#include <string.h>
#include "support/cli_run.h"
#include "support/temp_dir.h"

#define SCRIPT SRCDIR "/validate/run-profile.sh"

/* The calibrated profile: 64 MiB at 67.108864 GB/s is 1,000,000 ns, so an
 * H2D is 2,000 + 1,000,000 ns; at 33,554.432 MB/s it is 2,000,000 ns, so a
 * D2H is 500 + 2,000,000 ns; at 10 GB/s it is 6,710,886.4 ns, so a
 * pageable H2D is 10,000 + 6,710,886.4 ns. Spaces around
 * '=' as GKeyFile allows. */
static const char *const PROFILE
  = "# the calibration\n"
    "[device]\n"
    "description = fixture\n"
    "inherits = schematic-k20\n"
    "[copy]\n"
    "h2d_pinned_bandwidth = 67.108864GB/s\n"
    "h2d_pinned_latency = 2us\n"
    "d2h_pinned_bandwidth=33554.432MB/s\n"
    "d2h_pinned_latency=500ns\n"
    "h2d_pageable_bandwidth=10GB/s\n"
    "h2d_pageable_latency=10us\n";

/* The run: H2D 5% slower than the profile (1,002,000 * 1.05 = 1,052,100
 * ns), D2H 5% faster (2,000,500 * 0.95 = 1,900,475 ns), pageable H2D
 * exactly as calibrated (10,000 + 6,710,886.4 = 6,720,886.4 ns). */
static const char *const MEASURED
  = "# source: measured\n"
    "# host_calls: kernel_launch=4000ns memcpy_async=2000ns h2d_pinned_64MiB=1052100ns "
    "d2h_pinned_64MiB=1900475ns h2d_pageable_64MiB=6720886.4ns\n"
    "op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause\n";

/* bash validate/run-profile.sh ARGS... */
static int
run_script (const char *const *args, char **out, char **err)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "bash");
  g_ptr_array_add (argv, (gpointer) SCRIPT);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  int status = cli_run_argv (NULL, (const char *const *) argv->pdata, NULL, out, err);
  g_ptr_array_free (argv, TRUE);
  return status;
}

typedef struct
{
  char *dir, *profile, *measured;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  (void) data;
  f->dir = temp_dir_new ("run-profile");
  temp_dir_write (f->dir, "gpu.ini", PROFILE);
  temp_dir_write (f->dir, "run.measured.csv", MEASURED);
  f->profile = g_build_filename (f->dir, "gpu.ini", NULL);
  f->measured = g_build_filename (f->dir, "run.measured.csv", NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  (void) data;
  temp_dir_remove (f->dir);
  g_free (f->dir);
  g_free (f->profile);
  g_free (f->measured);
}

/* Pageable bandwidths: 64 MiB over (measured - the profile's latency), in
 * GB/s to six decimals; here 10 exactly. Pinned links keep the calibrated
 * bandwidths (the script says why): no pinned key in the output. */
static void
test_bandwidths (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { f->measured, "host_calls", "gpu", f->profile, NULL };
  g_assert_cmpint (run_script (args, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "\ninherits=gpu\n"));
  g_assert_nonnull (strstr (out, "\n[host]\nkernel_launch=4000ns\nmemcpy_async=2000ns\n"));
  g_assert_nonnull (strstr (out, "\n[copy]\nh2d_pageable_bandwidth=10.000000GB/s\n"));
  g_assert_null (strstr (out, "pinned"));
  /* No latency is touched: the calibration's stands. */
  g_assert_null (strstr (out, "latency"));
}

/* --link: (measured - profile) / profile, the +5% and -5% of the fixture. */
static void
test_link (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *out = NULL;
  const char *args[] = { "--link", f->measured, "host_calls", f->profile, NULL };
  g_assert_cmpint (run_script (args, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "h2d_pinned=+5.00\nd2h_pinned=-5.00\nh2d_pageable=+0.00\n");
}

/* A run that measured nothing under the key: no profile, no error. */
static void
test_no_key (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *out = NULL;
  const char *args[] = { f->measured, "host_calls_untimed", "gpu", f->profile, NULL };
  g_assert_cmpint (run_script (args, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
}

/* Values it cannot use: named by file:line:column, exit 2, nothing on stdout. */
static void
test_bad_values (Fixture *f, gconstpointer data)
{
  (void) data;
  static const struct
  {
    const char *value, *message;
  } cases[] = {
    /* column 15: after "# host_calls: " */
    { "kernel_launch", "run.measured.csv:2:15: \"kernel_launch\" in # host_calls: is not key=value" },
    { "h2d_pinned_64MiB=fast", "run.measured.csv:2:15: h2d_pinned_64MiB=fast: not a time above 0" },
    { "h2d_pinned_64MiB=1500ns",
      "run.measured.csv:2:15: h2d_pinned_64MiB=1500ns is no longer than the profile's "
      "h2d_pinned_latency" },
    /* the fixture has no d2h_pageable keys */
    { "d2h_pageable_64MiB=5ms", "gpu.ini:5:1: [copy] has no usable d2h_pageable_latency" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("# source: measured\n# host_calls: %s\nop,line\n",
                                               cases[i].value);
      temp_dir_write (f->dir, "run.measured.csv", text);
      g_autofree char *out = NULL, *err = NULL;
      const char *args[] = { f->measured, "host_calls", "gpu", f->profile, NULL };
      g_assert_cmpint (run_script (args, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, cases[i].message));
    }
}

/* The point of it all: streamsim, on the run's profile, times a 64 MiB
 * pageable copy as the run measured it, here 10,000 + 8,388,608 =
 * 8,398,608 ns (64 MiB at 8 GB/s against the calibration's 10, after the
 * calibration's latency), and pinned copies as the calibration did:
 * 2,000 + 1,000,000 and 500 + 2,000,000 ns. */
static void
test_predicts_measured (Fixture *f, gconstpointer data)
{
  (void) data;
  temp_dir_write (f->dir, "run.measured.csv",
                  "# host_calls: kernel_launch=4000ns memcpy_async=2000ns "
                  "h2d_pinned_64MiB=1052100ns h2d_pageable_64MiB=8398608ns\nop,line\n");
  g_autofree char *out = NULL;
  const char *args[] = { f->measured, "host_calls", "gpu", f->profile, NULL };
  g_assert_cmpint (run_script (args, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\nh2d_pageable_bandwidth=8.000000GB/s\n"));
  temp_dir_write (f->dir, "gpu-run.ini", out);
  temp_dir_write (f->dir, "copies.sched",
                  "stream s1\nh2d s1 64MiB\nd2h s1 64MiB\nh2d s1 64MiB pageable\n");
  g_autofree char *path = g_strdup_printf ("%s:%s/tests/profiles", f->dir, SRCDIR);
  g_setenv ("STREAMSIM_PROFILE_PATH", path, TRUE);
  g_autofree char *sched = g_build_filename (f->dir, "copies.sched", NULL);
  g_autofree char *csv = NULL;
  const char *predict[] = { "predict", sched, "--device", "gpu-run", "--csv", "-", NULL };
  g_assert_cmpint (cli_run (NULL, predict, NULL, &csv, NULL), ==, 0);
  static const gint64 expected[] = { 1002000, 2000500, 8398608 };
  char **lines = g_strsplit (csv, "\n", -1);
  gsize row = 0;
  for (char **l = lines; *l != NULL; l++)
    {
      if (**l == '#' || **l == '\0' || g_str_has_prefix (*l, "op,"))
        continue;
      /* op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,... */
      char **field = g_strsplit (*l, ",", -1);
      g_assert_cmpuint (g_strv_length (field), >, 8);
      g_assert_cmpuint (row, <, G_N_ELEMENTS (expected));
      g_assert_cmpint (g_ascii_strtoll (field[8], NULL, 10) - g_ascii_strtoll (field[7], NULL, 10),
                       ==, expected[row]);
      row++;
      g_strfreev (field);
    }
  g_assert_cmpuint (row, ==, G_N_ELEMENTS (expected));
  g_strfreev (lines);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/run-profile/bandwidths", test_bandwidths);
  ADD ("/run-profile/link", test_link);
  ADD ("/run-profile/no-key", test_no_key);
  ADD ("/run-profile/bad-values", test_bad_values);
  ADD ("/run-profile/predicts-measured", test_predicts_measured);
#undef ADD
  return g_test_run ();
}
