/* test_profile.c: device profiles: loading, inheritance, errors with positions, saving, occupancy. */
#include <string.h>
#include <glib/gstdio.h>
#include "sim/formats/profile_file.h"
#include "support/cli_run.h"
#include "support/temp_dir.h"

#define TESTS SRCDIR "/tests/profiles"
#define BAD TESTS "/bad"
/* The folder compiled into streamsim_lang (see the top CMakeLists.txt). */
#define STREAMSIM_PROFILE_DIR_FOR_TESTS SRCDIR "/engines/profiles"

/* Loads `path`, expects failure with `code`, a message that starts with
 * `prefix` and contains each of the NULL-ended `parts`. */
static void
expect_error (const char *path, ProfileError code, const char *prefix, ...)
{
  GpuProfile profile;
  GError *error = NULL;

  gboolean ok = profile_load (path, &profile, &error);
  g_assert_false (ok);
  g_assert_error (error, PROFILE_ERROR, (gint) code);
  g_test_message ("%s", error->message);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("message '%s' does not start with '%s'", error->message, prefix);

  va_list args;
  va_start (args, prefix);
  for (const char *part = va_arg (args, const char *); part != NULL;
       part = va_arg (args, const char *))
    if (strstr (error->message, part) == NULL)
      g_error ("message '%s' does not contain '%s'", error->message, part);
  va_end (args);

  /* A failed load leaves nothing to free. */
  g_assert_null (profile.names[0]);
  g_assert_null (profile.description);
  g_error_free (error);
}

static void
load_ok (const char *name_or_path, GpuProfile *profile)
{
  GError *error = NULL;
  gboolean ok = profile_load (name_or_path, profile, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

/* Every value of tests/profiles/test_base.ini, converted by hand: 10GB/s is
 * 1e10 B/s, 1500ns is 1500 ns, 2.5us is 2500 ns, 48KiB is 49152 B. */
static void
test_load_base (void)
{
  GpuProfile p;
  load_ok ("test_base", &p);

  g_assert_cmpstr (gpu_profile_name (&p), ==, "test_base");
  g_assert_null (p.names[1]);
  g_assert_cmpstr (p.description, ==, "Test base profile");

  g_assert_cmpuint (p.copy_engines, ==, 2);
  g_assert_cmpfloat (p.h2d_pinned.bandwidth, ==, 10e9);
  g_assert_cmpint (p.h2d_pinned.latency, ==, 10000);
  g_assert_cmpfloat (p.h2d_pageable.bandwidth, ==, 5e9);
  g_assert_cmpint (p.h2d_pageable.latency, ==, 20000);
  g_assert_cmpfloat (p.d2h_pinned.bandwidth, ==, 8e9);
  g_assert_cmpint (p.d2h_pinned.latency, ==, 12000);
  g_assert_cmpfloat (p.d2h_pageable.bandwidth, ==, 4e9);
  g_assert_cmpint (p.d2h_pageable.latency, ==, 25000);
  g_assert_cmpfloat (p.d2d.bandwidth, ==, 100e9);
  g_assert_cmpint (p.d2d.latency, ==, 3000);
  g_assert_cmpfloat (p.duplex_factor, ==, 0.9);

  g_assert_cmpint (p.host_kernel_launch, ==, 4000);
  g_assert_cmpint (p.host_memcpy_async, ==, 3000);
  g_assert_cmpint (p.host_memcpy_sync, ==, 10000);
  g_assert_cmpint (p.host_event_record, ==, 1000);
  g_assert_cmpint (p.host_stream_wait, ==, 1500);
  g_assert_cmpint (p.host_sync, ==, 2500);

  g_assert_cmpint (p.launch_latency, ==, 5000);
  g_assert_cmpint (p.copy_submit, ==, 2000);
  g_assert_cmpint (p.dependency_latency, ==, 1000);
  g_assert_cmpint (p.kernel_gap, ==, 0);

  g_assert_cmpuint (p.max_connections, ==, 32);
  g_assert_cmpuint (p.default_connections, ==, 8);

  g_assert_cmpuint (p.sm_count, ==, 13);
  g_assert_cmpuint (p.max_threads_per_sm, ==, 2048);
  g_assert_cmpuint (p.max_blocks_per_sm, ==, 16);
  g_assert_cmpuint (p.smem_per_sm, ==, 49152);
  g_assert_cmpuint (p.regs_per_sm, ==, 65536);
  g_assert_cmpuint (p.max_threads_per_block, ==, 1024);
  g_assert_cmpuint (p.max_smem_per_block, ==, 49152);
  g_assert_cmpuint (p.default_regs, ==, 32);
  g_assert_cmpuint (p.max_concurrent_kernels, ==, 32);
  g_assert_false (p.deferred_completion);
  g_assert_false (p.connection_serializes);
  g_assert_false (p.assign_on_submit); /* left out: creation order */
  /* left out: not calibrated, rates unknown (0) */
  g_assert_false (p.calibrated);
  g_assert_cmpfloat (p.sm_clock, ==, 0);
  g_assert_cmpfloat (p.memory_bandwidth, ==, 0);
  g_assert_cmpfloat (p.fp32_flops, ==, 0);

  g_assert_cmpstr (p.gpu, ==, "Test GPU");
  g_assert_cmpstr (p.source, ==, "hand-written for tests/test_profile.c");
  g_assert_null (p.driver);
  g_assert_null (p.cuda);
  g_assert_null (p.date);
  gpu_profile_clear (&p);
}

/* test_child overrides engines, h2d_pinned_bandwidth, the connections and
 * deferred_completion; test_grandchild overrides launch. Everything else
 * comes from test_base. */
static void
test_inherit (void)
{
  GpuProfile p;
  load_ok ("test_grandchild", &p);

  g_assert_cmpstr (p.names[0], ==, "test_grandchild");
  g_assert_cmpstr (p.names[1], ==, "test_child");
  g_assert_cmpstr (p.names[2], ==, "test_base");
  g_assert_null (p.names[3]);
  /* test_grandchild has no description: the child's is inherited. */
  g_assert_cmpstr (p.description, ==, "Test child profile");

  g_assert_cmpint (p.launch_latency, ==, 7000);        /* grandchild */
  g_assert_cmpuint (p.copy_engines, ==, 1);            /* child */
  g_assert_cmpfloat (p.h2d_pinned.bandwidth, ==, 6e9); /* child */
  g_assert_cmpuint (p.max_connections, ==, 1);         /* child */
  g_assert_cmpuint (p.default_connections, ==, 1);     /* child */
  g_assert_true (p.deferred_completion);               /* child */
  g_assert_cmpfloat (p.d2h_pinned.bandwidth, ==, 8e9); /* base */
  g_assert_cmpuint (p.sm_count, ==, 13);               /* base */
  g_assert_cmpstr (p.gpu, ==, "Test GPU");             /* base */
  gpu_profile_clear (&p);

  /* By a path relative to the inheriting file's folder. */
  load_ok (TESTS "/test_relpath.ini", &p);
  g_assert_cmpstr (p.names[0], ==, "test_relpath");
  g_assert_cmpstr (p.names[1], ==, "test_base");
  g_assert_null (p.names[2]);
  g_assert_cmpuint (p.sm_count, ==, 2);
  g_assert_cmpuint (p.max_threads_per_sm, ==, 2048);
  gpu_profile_clear (&p);
}

static void
test_unknown (void)
{
  /* Line 5 is "  h2d_bandwidth = 5GB/s": the key starts in column 3. */
  expect_error (BAD "/unknown_key.ini", PROFILE_ERROR_PARSE,
                BAD "/unknown_key.ini:5:3: ",
                "unknown key 'h2d_bandwidth' in [copy]",
                "allowed: engines, h2d_pinned_bandwidth, h2d_pinned_latency,",
                "duplex_factor", NULL);
  /* Line 4 is "[copies]": the name starts in column 2. */
  expect_error (BAD "/unknown_group.ini", PROFILE_ERROR_PARSE,
                BAD "/unknown_group.ini:4:2: ",
                "unknown group [copies]", "[device], [copy], [host]", NULL);
}

static void
test_range (void)
{
  /* "engines =   9": the value is in column 13. */
  expect_error (BAD "/out_of_range.ini", PROFILE_ERROR_RANGE,
                BAD "/out_of_range.ini:4:13: ",
                "engines = 9 is out of range", "an integer from 1 to 8", NULL);
  /* "d2d_bandwidth = 20TB/s": column 17. */
  expect_error (BAD "/too_fast.ini", PROFILE_ERROR_RANGE,
                BAD "/too_fast.ini:4:17: ", "at most 10TB/s", NULL);
  /* max_connections = 4 in the child, default_connections = 8 inherited from
   * test_base.ini line 38, "default_connections = 8", value in column 23:
   * the error points where the offending value was set. */
  expect_error (BAD "/connections.ini", PROFILE_ERROR_RANGE,
                BAD "/../test_base.ini:38:23: ",
                "default_connections = 8", "max_connections (4)", NULL);
  /* "default_copy_connections = 9": column 28; default_connections is 8. */
  expect_error (BAD "/copy_connections.ini", PROFILE_ERROR_RANGE,
                BAD "/copy_connections.ini:5:28: ", "default_copy_connections = 9",
                "1 to default_connections (8)", NULL);
  /* "shared_copy_min_size = 0": column 24; the message gives the key's own
   * range, not another size key's. */
  expect_error (BAD "/copy_min.ini", PROFILE_ERROR_RANGE, BAD "/copy_min.ini:5:24: ",
                "shared_copy_min_size = 0 is out of range", "a size from 1B to 1024MiB", NULL);
  /* "max_smem_per_block = 64KiB": column 22; smem_per_sm is 48 KiB. */
  expect_error (BAD "/smem.ini", PROFILE_ERROR_RANGE,
                BAD "/smem.ini:4:22: ", "max_smem_per_block = 65536 bytes",
                "smem_per_sm (49152 bytes)", NULL);
}

static void
test_bad_values (void)
{
  /* "launch = 5 parsecs": column 10; the reason comes from units.c. */
  expect_error (BAD "/bad_value.ini", PROFILE_ERROR_PARSE,
                BAD "/bad_value.ini:4:10: ",
                "bad value '5 parsecs' for launch", "expected a time", NULL);
  /* GKeyFile has no trailing comments; the message says so. */
  expect_error (BAD "/trailing_comment.ini", PROFILE_ERROR_PARSE,
                BAD "/trailing_comment.ini:4:11: ",
                "bad value '2  # two engines' for engines",
                "a comment goes on a line of its own", NULL);
  expect_error (BAD "/syntax.ini", PROFILE_ERROR_PARSE, BAD "/syntax.ini:4:1: ",
                "not a [group], a key = value pair or a comment", NULL);
  expect_error (BAD "/semicolon.ini", PROFILE_ERROR_PARSE, BAD "/semicolon.ini:2:1: ",
                "comments start with '#'", NULL);
  expect_error (BAD "/before_group.ini", PROFILE_ERROR_PARSE,
                BAD "/before_group.ini:2:1: ", "before the first [group]", NULL);
  /* "inherits = K20": column 12. */
  expect_error (BAD "/bad_name.ini", PROFILE_ERROR_PARSE, BAD "/bad_name.ini:2:12: ",
                "bad profile name 'K20'", NULL);
}

/* The device's rates and [device] calibrated: a bad unit names the key and
 * what it takes, a value beyond the range is a range error, each at the
 * value's line and column. */
static void
test_rate_errors (void)
{
  /* "sm_clock = 1980": a clock needs its unit; the value is in column 12. */
  expect_error (BAD "/sm_clock_unit.ini", PROFILE_ERROR_PARSE, BAD "/sm_clock_unit.ini:4:12: ",
                "bad value '1980' for sm_clock", "expected a clock frequency",
                "such as 1980MHz", NULL);
  /* "sm_clock = 20GHz": above 10 GHz. */
  expect_error (BAD "/sm_clock_range.ini", PROFILE_ERROR_RANGE, BAD "/sm_clock_range.ini:4:12: ",
                "sm_clock = 20GHz is out of range", "at most 10GHz", NULL);
  /* "memory_bandwidth = 3350GHz": column 20; a bandwidth's units only. */
  expect_error (BAD "/memory_bandwidth_unit.ini", PROFILE_ERROR_PARSE,
                BAD "/memory_bandwidth_unit.ini:4:20: ",
                "bad value '3350GHz' for memory_bandwidth", "expected a bandwidth", NULL);
  /* "fp32_flops = 67TFLOP": column 14; a rate is per second. */
  expect_error (BAD "/fp32_flops_unit.ini", PROFILE_ERROR_PARSE, BAD "/fp32_flops_unit.ini:4:14: ",
                "bad value '67TFLOP' for fp32_flops", "expected a FLOP rate", "TFLOP/s", NULL);
  /* "fp32_flops = 20PFLOP/s": above 10 PFLOP/s. */
  expect_error (BAD "/fp32_flops_range.ini", PROFILE_ERROR_RANGE,
                BAD "/fp32_flops_range.ini:4:14: ", "fp32_flops = 20PFLOP/s is out of range",
                "at most 10PFLOP/s", NULL);
  /* "calibrated = yes", line 3: column 14. */
  expect_error (BAD "/calibrated.ini", PROFILE_ERROR_PARSE, BAD "/calibrated.ini:3:14: ",
                "bad value 'yes' for calibrated", "expected true or false", NULL);
  /* memory_bandwidth is a number of its own, not half of a link: there is
   * no memory_latency, and [kernel] says what it has. */
  expect_error (BAD "/memory_latency.ini", PROFILE_ERROR_PARSE, BAD "/memory_latency.ini:4:1: ",
                "unknown key 'memory_latency' in [kernel]",
                "sm_clock, memory_bandwidth, fp32_flops", NULL);
}

/* [copy] *_pageable_sizes: each bad point named at its own column. The
 * value starts in column 22 ("h2d_pageable_sizes = "). */
static void
test_size_times_errors (void)
{
  /* "4KiB 2us, 64KiB": the second point, at offset 10, has no time. */
  expect_error (BAD "/sizes_point.ini", PROFILE_ERROR_PARSE, BAD "/sizes_point.ini:4:32: ",
                "bad point '64KiB' in h2d_pageable_sizes", "a size and a time", NULL);
  expect_error (BAD "/sizes_order.ini", PROFILE_ERROR_RANGE, BAD "/sizes_order.ini:4:33: ",
                "h2d_pageable_sizes's sizes must rise: 16KiB after 65536 B", NULL);
  /* 17 points: the 17th, "17KiB 1us", starts in column 189. */
  expect_error (BAD "/sizes_many.ini", PROFILE_ERROR_RANGE, BAD "/sizes_many.ini:4:189: ",
                "h2d_pageable_sizes has more than 16 points", NULL);
  /* "4KiB 5us, 64KiB 7parsecs": the time, 6 past its point's start. */
  expect_error (BAD "/sizes_time.ini", PROFILE_ERROR_PARSE, BAD "/sizes_time.ini:4:38: ",
                "bad time '7parsecs' in d2h_pageable_sizes", NULL);
  expect_error (BAD "/sizes_comma.ini", PROFILE_ERROR_PARSE, BAD "/sizes_comma.ini:4:30: ",
                "h2d_pageable_sizes ends with a comma", NULL);
  /* [host] sync_blocking_wake's points begin with a time ("sync_blocking_wake = "
   * is 21 characters): "20us 40us, 16KiB 1us" names the size at column 33, and
   * "200us 50us, 20us 40us" the wait that does not rise at 34. */
  expect_error (BAD "/wake_size.ini", PROFILE_ERROR_PARSE, BAD "/wake_size.ini:4:33: ",
                "bad time '16KiB' in sync_blocking_wake", "such as 200us", NULL);
  expect_error (BAD "/wake_order.ini", PROFILE_ERROR_RANGE, BAD "/wake_order.ini:4:34: ",
                "sync_blocking_wake's first times must rise: 20us after 200000 ns", NULL);
}

/* [spread] comes whole: one key of eight names a missing one, at the first
 * key given ("kernel_launch_fast = " is 21 characters: its value in column
 * 22); a slow end faster than the fast one is refused at the slow key. */
static void
test_spread_errors (void)
{
  expect_error (BAD "/spread_partial.ini", PROFILE_ERROR_PARSE, BAD "/spread_partial.ini:4:22: ",
                "[spread] needs memcpy_async_fast too", "all eight keys or none", NULL);
  expect_error (BAD "/spread_inverted.ini", PROFILE_ERROR_RANGE, BAD "/spread_inverted.ini:8:22: ",
                "kernel_launch_slow is below kernel_launch_fast", NULL);
}

/* Bytes a text editor would not show: written here rather than kept as
 * fixtures. "description = a" is 15 characters, so the bad byte is in
 * column 16; "é" counts as one column. */
static void
test_bad_bytes (void)
{
  char *dir = temp_dir_new ("test_profile");
  char *utf8 = g_build_filename (dir, "utf8.ini", NULL);
  char *nul = g_build_filename (dir, "nul.ini", NULL);
  g_assert_true (g_file_set_contents (utf8, "[device]\ndescription = a\xff" "b\n", -1, NULL));
  g_assert_true (g_file_set_contents (nul, "[device]\n\xc3\xa9\0x = 1\n", 18, NULL));

  char *prefix = g_strconcat (utf8, ":2:16: ", NULL);
  expect_error (utf8, PROFILE_ERROR_PARSE, prefix, "invalid UTF-8", NULL);
  g_free (prefix);
  prefix = g_strconcat (nul, ":2:2: ", NULL);
  expect_error (nul, PROFILE_ERROR_PARSE, prefix, "NUL byte", NULL);
  g_free (prefix);

  temp_dir_remove (dir);
  g_free (utf8);
  g_free (nul);
  g_free (dir);
}

static void
test_missing (void)
{
  expect_error (BAD "/missing_key.ini", PROFILE_ERROR_PARSE,
                BAD "/missing_key.ini:1:1: ",
                "missing key 'kernel_gap' in [latency]",
                BAD "/missing_key.ini -> " BAD "/partial_parent.ini",
                "every key of [copy], [host], [latency], [queues] and [kernel]", NULL);
}

/* cycle_a inherits cycle_b (line 2), which inherits cycle_a (line 3,
 * "inherits = cycle_a.ini", value in column 12): the loop is found there. */
static void
test_cycle (void)
{
  expect_error (BAD "/cycle_a.ini", PROFILE_ERROR_CYCLE, BAD "/cycle_b.ini:3:12: ",
                "inherits makes a loop: " BAD "/cycle_a.ini -> " BAD "/cycle_b.ini -> "
                BAD "/cycle_a.ini", NULL);
}

static void
test_not_found (void)
{
  /* By name: no file to point at, so no position. */
  expect_error ("no_such_profile", PROFILE_ERROR_NOT_FOUND,
                "no device profile 'no_such_profile'", TESTS,
                STREAMSIM_PROFILE_DIR_FOR_TESTS,
                "known: ", "c1060, c2050", "k20", "test_base, test_child", NULL);
  /* Through inherits: the position of the inherits value. */
  expect_error (BAD "/no_parent.ini", PROFILE_ERROR_NOT_FOUND, BAD "/no_parent.ini:2:12: ",
                "no device profile 'no_such_profile'", "test_base", NULL);
  /* A bad name is refused before any lookup. */
  expect_error ("K20", PROFILE_ERROR_NOT_FOUND, "bad profile name 'K20'", NULL);
  /* A missing file given by path. */
  expect_error (TESTS "/nothing_here.ini", PROFILE_ERROR_NOT_FOUND,
                "cannot read the profile " TESTS "/nothing_here.ini", NULL);
}

static gboolean
strv_has (char **strv, const char *s)
{
  return strv != NULL && g_strv_contains ((const char *const *) strv, s);
}

static void
test_list (void)
{
  char **names = profile_list ();

  for (guint i = 0; names[i] != NULL && names[i + 1] != NULL; i++)
    g_assert_cmpstr (names[i], <, names[i + 1]);
  g_assert_true (strv_has (names, "test_base"));
  g_assert_true (strv_has (names, "test_child"));
  g_assert_true (strv_has (names, "test_grandchild"));
  g_assert_true (strv_has (names, "c1060"));
  g_assert_true (strv_has (names, "c2050"));
  g_assert_true (strv_has (names, "k20"));
  /* bad/ is a subfolder: not on the path. */
  g_assert_false (strv_has (names, "cycle_a"));
  g_assert_false (strv_has (names, "unknown_key"));
  g_strfreev (names);
}

static void
test_search_path (void)
{
  char *saved = g_strdup (g_getenv ("STREAMSIM_PROFILE_PATH"));

  /* Empty entries are skipped; the compiled-in folder comes last. */
  g_setenv ("STREAMSIM_PROFILE_PATH", "/a::/b:", TRUE);
  const char *const *path = profile_search_path ();
  g_assert_cmpstr (path[0], ==, "/a");
  g_assert_cmpstr (path[1], ==, "/b");
  g_assert_cmpstr (path[2], ==, STREAMSIM_PROFILE_DIR_FOR_TESTS);
  g_assert_null (path[3]);

  g_unsetenv ("STREAMSIM_PROFILE_PATH");
  path = profile_search_path ();
  g_assert_cmpstr (path[0], ==, STREAMSIM_PROFILE_DIR_FOR_TESTS);
  g_assert_null (path[1]);

  /* A folder named twice, or the compiled-in one named, is searched once. */
  g_setenv ("STREAMSIM_PROFILE_PATH", "/a:" STREAMSIM_PROFILE_DIR_FOR_TESTS ":/a", TRUE);
  path = profile_search_path ();
  g_assert_cmpstr (path[0], ==, "/a");
  g_assert_cmpstr (path[1], ==, STREAMSIM_PROFILE_DIR_FOR_TESTS);
  g_assert_null (path[2]);

  g_setenv ("STREAMSIM_PROFILE_PATH", saved, TRUE);
  g_free (saved);
}

/* The three real profiles load, with the numbers of the CUDA C Programming
 * Guide's tables (1.3, 2.0, 3.5) and the data sheets' SM counts. */
static void
test_real_profiles (void)
{
  GpuProfile p;

  load_ok (SRCDIR "/engines/profiles/c1060.ini", &p);
  g_assert_cmpstr (gpu_profile_name (&p), ==, "c1060");
  g_assert_cmpuint (p.sm_count, ==, 30);
  g_assert_cmpuint (p.copy_engines, ==, 1);
  g_assert_cmpuint (p.max_concurrent_kernels, ==, 1);
  g_assert_cmpuint (p.max_connections, ==, 1);
  g_assert_cmpuint (p.max_threads_per_block, ==, 512);
  g_assert_cmpuint (p.smem_per_sm, ==, 16384);
  g_assert_false (p.deferred_completion);
  gpu_profile_clear (&p);

  load_ok (SRCDIR "/engines/profiles/c2050.ini", &p);
  g_assert_cmpstr (gpu_profile_name (&p), ==, "c2050");
  g_assert_cmpuint (p.sm_count, ==, 14);
  g_assert_cmpuint (p.copy_engines, ==, 2);
  g_assert_cmpuint (p.max_concurrent_kernels, ==, 16);
  g_assert_cmpuint (p.max_connections, ==, 1);
  g_assert_cmpuint (p.max_threads_per_sm, ==, 1536);
  g_assert_true (p.deferred_completion);
  gpu_profile_clear (&p);

  load_ok (SRCDIR "/engines/profiles/k20.ini", &p);
  g_assert_cmpstr (gpu_profile_name (&p), ==, "k20");
  g_assert_cmpuint (p.sm_count, ==, 13);
  g_assert_cmpuint (p.copy_engines, ==, 2);
  g_assert_cmpuint (p.max_concurrent_kernels, ==, 32);
  g_assert_cmpuint (p.max_connections, ==, 32);
  g_assert_cmpuint (p.default_connections, ==, 8);
  g_assert_cmpuint (p.regs_per_sm, ==, 65536);
  g_assert_false (p.deferred_completion);
  g_assert_false (p.assign_on_submit);
  gpu_profile_clear (&p);

  /* The H100 and H200 were measured to place streams on submit, and to give
   * copies of 512 KiB or more queues for 4 connections when the connection
   * count is left unset; the seed's devices leave both keys out (0). */
  const char *hopper[] = { SRCDIR "/engines/profiles/h100.ini", SRCDIR "/engines/profiles/h200.ini" };
  for (guint i = 0; i < G_N_ELEMENTS (hopper); i++)
    {
      load_ok (hopper[i], &p);
      g_assert_true (p.assign_on_submit);
      g_assert_cmpuint (p.default_copy_connections, ==, 4);
      g_assert_cmpuint (p.shared_copy_min_size, ==, 512 * 1024);
      gpu_profile_clear (&p);
    }
  load_ok (SRCDIR "/engines/profiles/k20.ini", &p);
  g_assert_cmpuint (p.default_copy_connections, ==, 0);
  g_assert_cmpuint (p.shared_copy_min_size, ==, 0);
  gpu_profile_clear (&p);

  /* A boolean set in a child profile: wide-on-submit over wide. */
  load_ok ("wide-on-submit", &p);
  g_assert_true (p.assign_on_submit);
  g_assert_cmpuint (p.sm_count, ==, 16);
  gpu_profile_clear (&p);

  /* By name too: the compiled-in folder is on the path. */
  load_ok ("k20", &p);
  g_assert_cmpuint (p.max_blocks_per_sm, ==, 16);
  gpu_profile_clear (&p);
}

/* The data-sheet profiles of later GPUs, with the limits of the CUDA C++
 * Programming Guide's compute-capability tables (7.0: 2048 threads, 32
 * blocks, 96 KB per SM and per block; 8.0: 2048, 32, 164 KB, 163 KB; 8.9:
 * 1536, 24, 100 KB, 99 KB; 10.0: 2048, 32, 228 KB, 227 KB; 64 K registers and
 * 128 concurrent kernels on each) and the SM counts of the data sheets and
 * whitepapers (A100 108, L40S 142, RTX 4090 128, B200 148, V100 80). */
static void
test_datasheet_profiles (void)
{
  static const struct
  {
    const char *name;
    guint sms, threads, blocks;
    guint64 smem_kib, smem_block_kib;
    guint engines;
  } expect[] = {
    { "v100", 80, 2048, 32, 96, 96, 2 },
    { "a100", 108, 2048, 32, 164, 163, 3 },
    { "l40s", 142, 1536, 24, 100, 99, 2 },
    { "rtx4090", 128, 1536, 24, 100, 99, 2 },
    { "b200", 148, 2048, 32, 228, 227, 3 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      GpuProfile p;
      g_autofree char *path = g_strdup_printf (SRCDIR "/engines/profiles/%s.ini", expect[i].name);
      load_ok (path, &p);
      g_test_message ("%s", expect[i].name);
      g_assert_cmpstr (gpu_profile_name (&p), ==, expect[i].name);
      g_assert_null (p.names[1]); /* inherits nothing: no other device's kernel times */
      g_assert_false (p.calibrated);
      g_assert_cmpuint (p.sm_count, ==, expect[i].sms);
      g_assert_cmpuint (p.max_threads_per_sm, ==, expect[i].threads);
      g_assert_cmpuint (p.max_blocks_per_sm, ==, expect[i].blocks);
      g_assert_cmpuint (p.smem_per_sm, ==, expect[i].smem_kib * 1024);
      g_assert_cmpuint (p.max_smem_per_block, ==, expect[i].smem_block_kib * 1024);
      g_assert_cmpuint (p.regs_per_sm, ==, 65536);
      g_assert_cmpuint (p.max_threads_per_block, ==, 1024);
      g_assert_cmpuint (p.max_concurrent_kernels, ==, 128);
      g_assert_cmpuint (p.copy_engines, ==, expect[i].engines);
      g_assert_cmpuint (p.max_connections, ==, 32);
      g_assert_cmpuint (p.default_connections, ==, 8);
      g_assert_false (p.deferred_completion);
      /* every optional number a schedule may need is there */
      g_assert_true (gpu_profile_knows_untouched (&p, SCHED_DIR_H2D));
      g_assert_true (gpu_profile_knows_untouched (&p, SCHED_DIR_D2H));
      g_assert_cmpfloat (p.memset.bandwidth, >, 0);
      gpu_profile_clear (&p);
    }
}

/* Every shipped profile gives the numbers for scaling kernel times, and they
 * agree with each other: the FP32 rate (from data sheets) is within 1% of 2 x
 * SMs x the FP32 results per clock per SM of the programming guide's
 * throughput table x the clock (1.3: 8; 2.0: 32; 3.5: 192; 7.0 and 8.0: 64;
 * 8.9, 9.0 and 10.0: 128), and memory bandwidth is the data sheets' (C1060
 * 102 GB/s ... B200 7.7 TB/s). h100 and h200 are the calibrated ones. */
static void
test_shipped_rates (void)
{
  static const struct
  {
    const char *name;
    guint fp32_per_sm;
    double clock_mhz, memory_gbs;
    gboolean calibrated;
  } expect[] = {
    { "c1060", 8, 1296, 102, FALSE },    { "c2050", 32, 1150, 144, FALSE },
    { "k20", 192, 706, 208, FALSE },     { "v100", 64, 1530, 900, FALSE },
    { "a100", 64, 1410, 2039, FALSE },   { "l40s", 128, 2520, 864, FALSE },
    { "rtx4090", 128, 2520, 1008, FALSE }, { "h100", 128, 1980, 3350, TRUE },
    { "h200", 128, 1980, 4800, TRUE },   { "b200", 128, 1980, 7700, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      GpuProfile p;
      g_autofree char *path = g_strdup_printf (SRCDIR "/engines/profiles/%s.ini", expect[i].name);
      load_ok (path, &p);
      g_test_message ("%s", expect[i].name);
      g_assert_cmpint (p.calibrated, ==, expect[i].calibrated);
      g_assert_cmpfloat (p.sm_clock, ==, expect[i].clock_mhz * 1e6);
      g_assert_cmpfloat_with_epsilon (p.memory_bandwidth, expect[i].memory_gbs * 1e9, 1);
      double peak = 2.0 * p.sm_count * expect[i].fp32_per_sm * p.sm_clock;
      g_assert_cmpfloat_with_epsilon (p.fp32_flops, peak, peak * 0.01);
      gpu_profile_clear (&p);
    }
}

/* `streamsim devices` says which profiles were calibrated on their device. */
static void
test_devices_source (void)
{
  const char *const args[] = { "devices", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (NULL, args, NULL, &out, NULL), ==, 0);
  g_test_message ("%s", out);
  /* The eleventh column: name, CEs, conns, assign, SMs, kconc, h2d, d2h,
   * launch, spread, source (the header's "h2d GB/s", "d2h GB/s", "launch us"
   * and "spread us" are two words each). h100 and h200 give a spread (the
   * launch's fast and slow end, h200.ini's 3.853 and 6.246 us); the others
   * none. */
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint seen = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GPtrArray) words = g_ptr_array_new ();
      g_auto (GStrv) split = g_strsplit (lines[i], " ", -1);
      for (guint w = 0; split[w] != NULL; w++)
        if (split[w][0] != '\0')
          g_ptr_array_add (words, split[w]);
      if (words->len < 11)
        continue;
      const char *name = g_ptr_array_index (words, 0), *source = g_ptr_array_index (words, 10);
      const char *spread = g_ptr_array_index (words, 9);
      if (i == 0)
        g_assert_nonnull (strstr (lines[0], " d2h GB/s launch us spread us "));
      else if (strcmp (name, "h100") == 0 || strcmp (name, "h200") == 0)
        {
          g_assert_cmpstr (source, ==, "calibrated");
          if (strcmp (name, "h200") == 0)
            g_assert_cmpstr (spread, ==, "3.85-6.25");
          seen++;
        }
      else if (strcmp (name, "a100") == 0 || strcmp (name, "k20") == 0
               || strcmp (name, "test_base") == 0)
        {
          g_assert_cmpstr (source, ==, "estimate");
          g_assert_cmpstr (spread, ==, "-");
          seen++;
        }
    }
  g_assert_cmpuint (seen, ==, 5);
}

static void
assert_profiles_equal (const GpuProfile *a, const GpuProfile *b)
{
  g_assert_cmpstr (a->description, ==, b->description);
  g_assert_cmpuint (a->copy_engines, ==, b->copy_engines);
  const GpuLink *la[] = { &a->h2d_pinned, &a->h2d_pageable, &a->d2h_pinned, &a->d2h_pageable,
                          &a->d2d, &a->h2d_untouched, &a->d2h_untouched };
  const GpuLink *lb[] = { &b->h2d_pinned, &b->h2d_pageable, &b->d2h_pinned, &b->d2h_pageable,
                          &b->d2d, &b->h2d_untouched, &b->d2h_untouched };
  for (guint i = 0; i < G_N_ELEMENTS (la); i++)
    {
      /* Within 0.1%, the promise of profile_save; an unset link stays 0. */
      if (lb[i]->bandwidth == 0)
        g_assert_cmpfloat (la[i]->bandwidth, ==, 0);
      else
        g_assert_cmpfloat_with_epsilon (la[i]->bandwidth, lb[i]->bandwidth, lb[i]->bandwidth * 1e-3);
      g_assert_cmpint (la[i]->latency, ==, lb[i]->latency);
    }
  const GpuPoints *sa[] = { &a->h2d_pageable_sizes, &a->d2h_pageable_sizes, &a->sync_blocking_wake };
  const GpuPoints *sb[] = { &b->h2d_pageable_sizes, &b->d2h_pageable_sizes, &b->sync_blocking_wake };
  for (guint i = 0; i < G_N_ELEMENTS (sa); i++)
    {
      g_assert_cmpuint (sa[i]->n, ==, sb[i]->n);
      for (guint j = 0; j < sb[i]->n; j++)
        {
          g_assert_cmpuint (sa[i]->at[j], ==, sb[i]->at[j]);
          g_assert_cmpint (sa[i]->time[j], ==, sb[i]->time[j]);
        }
    }
  g_assert_cmpfloat (a->duplex_factor, ==, b->duplex_factor);
  g_assert_cmpint (a->host_kernel_launch, ==, b->host_kernel_launch);
  g_assert_cmpint (a->host_memcpy_async, ==, b->host_memcpy_async);
  g_assert_cmpint (a->host_memcpy_sync, ==, b->host_memcpy_sync);
  g_assert_cmpint (a->host_event_record, ==, b->host_event_record);
  g_assert_cmpint (a->host_stream_wait, ==, b->host_stream_wait);
  g_assert_cmpint (a->host_sync, ==, b->host_sync);
  g_assert_cmpint (a->launch_latency, ==, b->launch_latency);
  g_assert_cmpint (a->copy_submit, ==, b->copy_submit);
  g_assert_cmpint (a->dependency_latency, ==, b->dependency_latency);
  g_assert_cmpint (a->kernel_gap, ==, b->kernel_gap);
  g_assert_cmpuint (a->max_connections, ==, b->max_connections);
  g_assert_cmpuint (a->default_connections, ==, b->default_connections);
  g_assert_cmpuint (a->sm_count, ==, b->sm_count);
  g_assert_cmpuint (a->max_threads_per_sm, ==, b->max_threads_per_sm);
  g_assert_cmpuint (a->max_blocks_per_sm, ==, b->max_blocks_per_sm);
  g_assert_cmpuint (a->smem_per_sm, ==, b->smem_per_sm);
  g_assert_cmpuint (a->regs_per_sm, ==, b->regs_per_sm);
  g_assert_cmpuint (a->max_threads_per_block, ==, b->max_threads_per_block);
  g_assert_cmpuint (a->max_smem_per_block, ==, b->max_smem_per_block);
  g_assert_cmpuint (a->default_regs, ==, b->default_regs);
  g_assert_cmpuint (a->max_concurrent_kernels, ==, b->max_concurrent_kernels);
  g_assert_cmpint (a->deferred_completion, ==, b->deferred_completion);
  g_assert_cmpint (a->connection_serializes, ==, b->connection_serializes);
  g_assert_cmpint (a->assign_on_submit, ==, b->assign_on_submit);
  g_assert_cmpint (a->calibrated, ==, b->calibrated);
  const GpuHostSpeed *ha[] = { &a->host_fast, &a->host_slow };
  const GpuHostSpeed *hb[] = { &b->host_fast, &b->host_slow };
  for (guint i = 0; i < G_N_ELEMENTS (ha); i++)
    {
      g_assert_cmpint (ha[i]->kernel_launch, ==, hb[i]->kernel_launch);
      g_assert_cmpint (ha[i]->memcpy_async, ==, hb[i]->memcpy_async);
      /* within 0.1%, as the links; 0 where the profile gives no spread */
      const double bw[2][2] = { { ha[i]->h2d_pageable_bandwidth, hb[i]->h2d_pageable_bandwidth },
                                { ha[i]->d2h_pageable_bandwidth, hb[i]->d2h_pageable_bandwidth } };
      for (guint d = 0; d < 2; d++)
        if (bw[d][1] == 0)
          g_assert_cmpfloat (bw[d][0], ==, 0);
        else
          g_assert_cmpfloat_with_epsilon (bw[d][0], bw[d][1], bw[d][1] * 1e-3);
    }
  /* Within 0.1%, as the links; an unknown rate stays 0. */
  const double ra[] = { a->sm_clock, a->memory_bandwidth, a->fp32_flops };
  const double rb[] = { b->sm_clock, b->memory_bandwidth, b->fp32_flops };
  for (guint i = 0; i < G_N_ELEMENTS (ra); i++)
    if (rb[i] == 0)
      g_assert_cmpfloat (ra[i], ==, 0);
    else
      g_assert_cmpfloat_with_epsilon (ra[i], rb[i], rb[i] * 1e-3);
  g_assert_cmpstr (a->gpu, ==, b->gpu);
  g_assert_cmpstr (a->driver, ==, b->driver);
  g_assert_cmpstr (a->cuda, ==, b->cuda);
  g_assert_cmpstr (a->date, ==, b->date);
  g_assert_cmpstr (a->source, ==, b->source);
}

/* Saves `p` to `path` without comments, loads it back, checks it is `p`
 * again, and returns the text written. */
static char *
save_round_trip (const GpuProfile *p, const char *path)
{
  GError *error = NULL;
  g_assert_true (profile_save (p, path, NULL, &error));
  g_assert_no_error (error);
  char *saved = NULL;
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_test_message ("%s", saved);
  GpuProfile q;
  load_ok (path, &q);
  assert_profiles_equal (&q, p);
  gpu_profile_clear (&q);
  return saved;
}

/* Saves test_grandchild (flattened) with awkward values and loads it back. */
static void
test_save_round_trip (void)
{
  GpuProfile p, q;
  load_ok ("test_grandchild", &p);

  /* Values whose text form needs care: 12345 ns is "12.345us"; 1.5 s is
   * out of range, so 999999999 ns ("999.999999ms"); a bandwidth with many
   * digits; an odd size; text needing escapes. */
  p.host_sync = 12345;
  p.launch_latency = 999999999;
  p.h2d_pageable.bandwidth = 12345678901.234;
  p.d2h_pageable.bandwidth = 999.5;
  p.max_smem_per_block = 1000;
  p.duplex_factor = 0.123456789;
  p.assign_on_submit = TRUE;
  p.h2d_pageable_sizes = (GpuPoints) { 2, { 4096, 65537 }, { 1835, 16735 } };
  p.sync_blocking_wake = (GpuPoints) { 2, { 20000, 2000000 }, { 37900, 100500 } };
  g_free (p.description);
  p.description = g_strdup ("  leading blanks, a # and\na newline");
  p.date = g_strdup ("2024-06-01");

  char *dir = temp_dir_new ("test_profile");
  char *path = g_build_filename (dir, "saved.ini", NULL);
  const char *const comments[] = {
    "engines", "one copy engine (test)",
    "kernel.sm_count", "data sheet\nsecond line",
    "latency", "the [latency] group",
    "queues.assign_on_submit", "measured (test)",
    NULL,
  };
  GError *error = NULL;
  g_assert_true (profile_save (&p, path, comments, &error));
  g_assert_no_error (error);

  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "# one copy engine (test)\nengines=1\n"));
  g_assert_nonnull (strstr (text, "# data sheet\n# second line\nsm_count=13\n"));
  g_assert_nonnull (strstr (text, "# the [latency] group\n[latency]\n"));
  g_assert_nonnull (strstr (text, "sync=12.345us\n"));
  g_assert_nonnull (strstr (text, "launch=999.999999ms\n"));
  g_assert_nonnull (strstr (text, "h2d_pinned_bandwidth=6GB/s\n"));
  g_assert_nonnull (strstr (text, "smem_per_sm=48KiB\n"));
  g_assert_nonnull (strstr (text, "max_smem_per_block=1000B\n"));
  g_assert_nonnull (strstr (text, "stream_wait=1.5us\n"));
  g_assert_nonnull (strstr (text, "kernel_gap=0\n"));
  g_assert_nonnull (strstr (text, "h2d_pageable_sizes=4KiB 1.835us, 65537B 16.735us\n"));
  g_assert_nonnull (strstr (text, "sync_blocking_wake=20us 37.9us, 2ms 100.5us\n"));
  g_assert_null (strstr (text, "d2h_pageable_sizes"));
  /* the calibration's comment lands on the optional boolean, which is
   * written whether true or false */
  g_assert_nonnull (strstr (text, "# measured (test)\nassign_on_submit=true\n"));
  g_assert_null (strstr (text, "inherits"));
  g_free (text);

  load_ok (path, &q);
  g_assert_cmpstr (q.names[0], ==, "saved");
  g_assert_null (q.names[1]);
  assert_profiles_equal (&q, &p);
  gpu_profile_clear (&q);

  /* A profile that would not load is not saved, and the old file stays. */
  p.copy_engines = 0;
  g_assert_false (profile_save (&p, path, NULL, &error));
  g_assert_error (error, PROFILE_ERROR, PROFILE_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "engines = 0 is out of range"));
  g_clear_error (&error);
  load_ok (path, &q);
  g_assert_cmpuint (q.copy_engines, ==, 1);
  gpu_profile_clear (&q);

  /* Only saved.ini was written: no temporary file left beside it. */
  g_remove (path);
  temp_dir_remove_empty (dir);
  g_free (path);
  g_free (dir);
  gpu_profile_clear (&p);
}

/* The untouched links are the optional keys: absent from test_base, set
 * for one direction in a child of it, written only where set. The values
 * are the file's, converted by hand (2.5GB/s is 2.5e9 B/s, 12us 12000 ns). */
static void
test_untouched_keys (void)
{
  GpuProfile p;
  load_ok ("test_base", &p);
  g_assert_cmpfloat (p.h2d_untouched.bandwidth, ==, 0);
  g_assert_cmpfloat (p.d2h_untouched.bandwidth, ==, 0);
  g_assert_false (gpu_profile_knows_untouched (&p, SCHED_DIR_H2D));
  g_assert_false (gpu_profile_knows_untouched (&p, SCHED_DIR_D2H));
  g_assert_true (gpu_profile_knows_untouched (&p, SCHED_DIR_D2D));
  /* without the link, an untouched copy runs on the pageable one */
  SchedCopy copy = { .dir = SCHED_DIR_D2H, .pageable = TRUE, .untouched = TRUE, .bytes = 1 };
  GpuLink link = gpu_profile_link (&p, &copy);
  g_assert_cmpfloat (link.bandwidth, ==, 4e9);
  g_assert_cmpint (link.latency, ==, 25000);
  gpu_profile_clear (&p);

  char *dir = temp_dir_new ("test_profile");
  char *path = g_build_filename (dir, "untouched.ini", NULL);
  const char text[] = "[device]\ninherits = test_base\n[copy]\n"
                      "h2d_untouched_bandwidth = 2.5GB/s\nh2d_untouched_latency = 12us\n";
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  load_ok (path, &p);
  g_assert_cmpfloat (p.h2d_untouched.bandwidth, ==, 2.5e9);
  g_assert_cmpint (p.h2d_untouched.latency, ==, 12000);
  g_assert_cmpfloat (p.d2h_untouched.bandwidth, ==, 0);
  g_assert_true (gpu_profile_knows_untouched (&p, SCHED_DIR_H2D));
  g_assert_false (gpu_profile_knows_untouched (&p, SCHED_DIR_D2H));
  copy.dir = SCHED_DIR_H2D;
  link = gpu_profile_link (&p, &copy);
  g_assert_cmpfloat (link.bandwidth, ==, 2.5e9);
  g_assert_cmpint (link.latency, ==, 12000);
  /* the same copy, touched: test_base's pageable H2D link */
  copy.untouched = 0;
  link = gpu_profile_link (&p, &copy);
  g_assert_cmpfloat (link.bandwidth, ==, 5e9);
  g_assert_cmpint (link.latency, ==, 20000);

  /* Saved, the set pair is written and the unset one left out, so the file
   * loads back (a lone latency would not). */
  char *saved = save_round_trip (&p, path);
  g_assert_nonnull (strstr (saved, "h2d_untouched_bandwidth=2.5GB/s\n"));
  g_assert_nonnull (strstr (saved, "h2d_untouched_latency=12us\n"));
  g_assert_null (strstr (saved, "d2h_untouched"));
  g_free (saved);
  gpu_profile_clear (&p);

  g_remove (path);
  temp_dir_remove_empty (dir);
  g_free (path);
  g_free (dir);
}

/* [spread] read, saved and read back, and a profile at each end of it:
 * the four costs replaced, nothing else (test_base's sync kept). Without
 * the group, no spread. */
static void
test_spread_keys (void)
{
  GpuProfile p, at;
  char *dir = temp_dir_new ("test_profile");
  char *path = g_build_filename (dir, "spread.ini", NULL);
  const char text[] = "[device]\ninherits = test_base\n[spread]\n"
                      "kernel_launch_fast = 3us\nmemcpy_async_fast = 1.5us\n"
                      "h2d_pageable_bandwidth_fast = 8GB/s\nd2h_pageable_bandwidth_fast = 12GB/s\n"
                      "kernel_launch_slow = 6us\nmemcpy_async_slow = 3.5us\n"
                      "h2d_pageable_bandwidth_slow = 6GB/s\nd2h_pageable_bandwidth_slow = 9GB/s\n";
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  load_ok (path, &p);
  g_assert_true (gpu_profile_has_host_spread (&p));
  g_assert_cmpint (p.host_fast.kernel_launch, ==, 3000);
  g_assert_cmpint (p.host_slow.memcpy_async, ==, 3500);
  g_assert_cmpfloat (p.host_fast.d2h_pageable_bandwidth, ==, 12e9);
  g_assert_cmpfloat (p.host_slow.h2d_pageable_bandwidth, ==, 6e9);

  gpu_profile_at_host_speed (&at, &p, GPU_HOST_SLOW);
  g_assert_cmpint (at.host_kernel_launch, ==, 6000);
  g_assert_cmpint (at.host_memcpy_async, ==, 3500);
  g_assert_cmpfloat (at.h2d_pageable.bandwidth, ==, 6e9);
  g_assert_cmpfloat (at.d2h_pageable.bandwidth, ==, 9e9);
  g_assert_cmpint (at.host_sync, ==, p.host_sync);
  g_assert_cmpint (at.h2d_pageable.latency, ==, p.h2d_pageable.latency);
  gpu_profile_clear (&at);
  gpu_profile_at_host_speed (&at, &p, GPU_HOST_FAST);
  g_assert_cmpint (at.host_kernel_launch, ==, 3000);
  g_assert_cmpfloat (at.h2d_pageable.bandwidth, ==, 8e9);
  gpu_profile_clear (&at);

  char *saved = save_round_trip (&p, path);
  g_assert_nonnull (strstr (saved, "[spread]\n"));
  g_assert_nonnull (strstr (saved, "kernel_launch_slow=6us\n"));
  g_free (saved);
  gpu_profile_clear (&p);

  load_ok ("test_base", &p);
  g_assert_false (gpu_profile_has_host_spread (&p));
  saved = save_round_trip (&p, path);
  g_assert_null (strstr (saved, "[spread]"));
  g_free (saved);
  gpu_profile_clear (&p);

  g_remove (path);
  temp_dir_remove_empty (dir);
  g_free (path);
  g_free (dir);
}

/* The rates and the provenance flag, set in a child of test_base and
 * converted by hand: 1.5GHz is 1.5e9 Hz, 3.35TB/s 3.35e12 B/s, 19.5TFLOPS
 * 19.5e12 FLOP/s. Saved, they are written in MHz, GB/s and TFLOP/s and read
 * back the same; memory_bandwidth alone, with no latency beside it, saves. */
static void
test_rate_keys (void)
{
  GpuProfile p;
  char *dir = temp_dir_new ("test_profile");
  char *path = g_build_filename (dir, "rates.ini", NULL);
  const char text[] = "[device]\ninherits = test_base\ncalibrated = true\n[kernel]\n"
                      "sm_clock = 1.5GHz\nmemory_bandwidth = 3.35TB/s\nfp32_flops = 19.5TFLOPS\n";
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  load_ok (path, &p);
  g_assert_true (p.calibrated);
  g_assert_cmpfloat (p.sm_clock, ==, 1.5e9);
  g_assert_cmpfloat (p.memory_bandwidth, ==, 3.35e12);
  g_assert_cmpfloat (p.fp32_flops, ==, 19.5e12);
  g_assert_cmpuint (p.sm_count, ==, 13); /* test_base's */

  char *saved = save_round_trip (&p, path);
  g_assert_nonnull (strstr (saved, "calibrated=true\n"));
  g_assert_nonnull (strstr (saved, "sm_clock=1500MHz\n"));
  g_assert_nonnull (strstr (saved, "memory_bandwidth=3350GB/s\n"));
  g_assert_nonnull (strstr (saved, "fp32_flops=19.5TFLOP/s\n"));
  g_free (saved);

  /* Left out where unknown: a saved profile without them loads as before. */
  p.sm_clock = p.memory_bandwidth = p.fp32_flops = 0;
  p.calibrated = FALSE;
  saved = save_round_trip (&p, path);
  g_assert_null (strstr (saved, "sm_clock"));
  g_assert_null (strstr (saved, "memory_bandwidth"));
  g_assert_null (strstr (saved, "fp32_flops"));
  g_assert_nonnull (strstr (saved, "calibrated=false\n"));
  g_free (saved);
  gpu_profile_clear (&p);

  g_remove (path);
  temp_dir_remove_empty (dir);
  g_free (path);
  g_free (dir);
}

/* 2D copies (rows=) and the row-rate keys. Times worked out by hand from
 * test_base's links: h2d pinned 10 GB/s + 10 us, d2h pageable 4 GB/s + 25
 * us, d2d 100 GB/s + 3 us. */
static void
test_row_rate_keys (void)
{
  GpuProfile p;
  char *dir = temp_dir_new ("test_profile");
  char *path = g_build_filename (dir, "rows.ini", NULL);
  const char text[] = "[device]\ninherits = test_base\n[copy]\n"
                      "h2d_row_rate = 1GHz\nd2h_row_rate = 100MHz\n";
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  load_ok (path, &p);
  g_assert_cmpfloat (p.row_rate[SCHED_DIR_H2D], ==, 1e9);
  g_assert_cmpfloat (p.row_rate[SCHED_DIR_D2H], ==, 1e8);
  g_assert_cmpfloat (p.row_rate[SCHED_DIR_D2D], ==, 0);

  /* 1,000,000 bytes H2D: 100 us of bytes; 1,000 rows take 1 us at a row a
   * ns, so the bytes set the pace: 10 + 100 us */
  SchedCopy copy = { .dir = SCHED_DIR_H2D, .bytes = 1000000, .rows = 1000 };
  g_assert_cmpint (gpu_profile_copy_time (&p, &copy), ==, 110000);
  /* 500,000 rows of 2 bytes: 500 us of rows beat 100 us of bytes */
  copy.rows = 500000;
  g_assert_cmpint (gpu_profile_copy_time (&p, &copy), ==, 510000);
  /* one row, or no rows=, is a plain copy */
  copy.rows = 1;
  g_assert_cmpint (gpu_profile_copy_time (&p, &copy), ==, 110000);
  copy.rows = 0;
  g_assert_cmpint (gpu_profile_copy_time (&p, &copy), ==, 110000);
  /* pageable D2H, 400,000 bytes in 100,000 rows: 100 us of bytes at 4
   * GB/s, 1,000 us of rows at 100 million a second: 25 + 1,000 us */
  copy = (SchedCopy) { .dir = SCHED_DIR_D2H, .pageable = TRUE, .bytes = 400000, .rows = 100000 };
  g_assert_cmpint (gpu_profile_copy_time (&p, &copy), ==, 1025000);
  /* no d2d row rate: the copy of its bytes, 3 + 10 us */
  copy = (SchedCopy) { .dir = SCHED_DIR_D2D, .bytes = 1000000, .rows = 500000 };
  g_assert_cmpint (gpu_profile_copy_time (&p, &copy), ==, 13000);

  char *saved = save_round_trip (&p, path);
  g_assert_nonnull (strstr (saved, "h2d_row_rate=1000MHz\n"));
  g_assert_nonnull (strstr (saved, "d2h_row_rate=100MHz\n"));
  g_assert_null (strstr (saved, "d2d_row_rate"));
  g_free (saved);
  gpu_profile_clear (&p);

  g_remove (path);
  temp_dir_remove_empty (dir);
  g_free (path);
  g_free (dir);
}

static void
test_copy_clear (void)
{
  GpuProfile p, q;
  load_ok ("test_child", &p);

  gpu_profile_copy (&q, &p);
  g_assert_true (q.names[0] != p.names[0]);
  g_assert_cmpstr (q.names[0], ==, "test_child");
  g_assert_cmpstr (q.names[1], ==, "test_base");
  g_assert_true (q.description != p.description);
  g_assert_cmpstr (q.description, ==, p.description);
  assert_profiles_equal (&q, &p);

  /* The copy outlives the original. */
  gpu_profile_clear (&p);
  g_assert_null (p.names[0]);
  g_assert_cmpuint (p.sm_count, ==, 0);
  g_assert_cmpstr (q.gpu, ==, "Test GPU");
  gpu_profile_clear (&q);
  g_assert_null (q.description);
  g_assert_cmpuint (q.copy_engines, ==, 0);
}

/* Blocks per SM, checked against the CUDA occupancy calculator for each
 * compute capability (its register and shared-memory granularities do not
 * change these shapes):
 *
 * test_base (3.5: 2048 threads, 16 blocks, 48 KiB, 64 K registers, 32 default regs)
 *   256 threads, 32 regs:  2048/256 = 8; 65536/(32*256) = 8; 16      -> 8
 *   100 threads -> 128:    2048/128 = 16; 65536/(32*128) = 16; 16    -> 16
 *   32 threads:            2048/32 = 64; 65536/1024 = 64; 16         -> 16 (block limit)
 *   256 threads, 20 KiB:   49152/20480 = 2.4                         -> 2
 *   256 threads, 64 regs:  65536/(64*256) = 4                        -> 4
 *   1024 threads:          2048/1024 = 2; 65536/(32*1024) = 2     -> 2
 *   1024 threads, 255 regs: 65536/(255*1024) = 0.25                  -> 0
 *   1025 threads:          over max_threads_per_block                -> 0
 *   smem 64 KiB:           over max_smem_per_block                   -> 0
 * c1060 (1.3: 1024 threads, 8 blocks, 16 K registers, 16 default regs)
 *   256 threads:           1024/256 = 4; 16384/(16*256) = 4          -> 4
 *   64 threads:            1024/64 = 16; 16384/1024 = 16; 8          -> 8
 *   512 threads, 32 regs:  16384/(32*512) = 1                        -> 1
 *   1024 threads:          over 512                                  -> 0
 * c2050 (2.0: 1536 threads, 8 blocks, 32 K registers, 20 default regs)
 *   192 threads:           1536/192 = 8; 32768/(20*192) = 8.5; 8     -> 8
 *   512 threads, 32 regs:  1536/512 = 3; 32768/(32*512) = 2          -> 2 */
/* A memset's time, worked out by hand: latency 1 us + 1000 B at 1 GB/s
 * (device memory) = 2 us; of pinned host memory at memset_host_bandwidth
 * 0.2 GB/s, 1 + 5 = 6 us; with no memset_host_bandwidth, at the pinned
 * device-to-host link's 0.5 GB/s, 1 + 2 = 3 us. */
static void
test_memset_time (void)
{
  GpuProfile p = { 0 };
  p.memset.bandwidth = 1e9;
  p.memset.latency = 1000;
  p.d2h_pinned.bandwidth = 5e8;
  g_assert_cmpint (gpu_profile_memset_time (&p, 1000, FALSE), ==, 2000);
  g_assert_cmpint (gpu_profile_memset_time (&p, 1000, TRUE), ==, 3000);
  p.memset_host_bandwidth = 2e8;
  g_assert_cmpint (gpu_profile_memset_time (&p, 1000, TRUE), ==, 6000);
  g_assert_cmpint (gpu_profile_memset_time (&p, 1000, FALSE), ==, 2000);
}

/* What a sleeping wait adds, worked out by hand from points (20 us, 40 us)
 * and (220 us, 60 us): none without points; 40 us up to a wait of 20 us;
 * at 120 us half way, 50 us; at 70 us a quarter, 45 us; beyond 220 us 60. */
static void
test_blocking_wake (void)
{
  GpuProfile p = { 0 };
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 100000), ==, 0);
  p.sync_blocking_wake = (GpuPoints) { 2, { 20000, 220000 }, { 40000, 60000 } };
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 0), ==, 40000);
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 20000), ==, 40000);
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 70000), ==, 45000);
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 120000), ==, 50000);
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 220000), ==, 60000);
  g_assert_cmpint (gpu_profile_blocking_wake (&p, 5000000), ==, 60000);
}

static void
test_blocks_per_sm (void)
{
  GpuProfile p;
  load_ok ("test_base", &p);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 256, 0, 0), ==, 8);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 256, 0, 32), ==, 8);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 100, 0, 0), ==, 16);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 32, 0, 0), ==, 16);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 256, 20 * 1024, 0), ==, 2);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 256, 0, 64), ==, 4);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 1024, 0, 255), ==, 0);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 1024, 0, 0), ==, 2);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 1025, 0, 0), ==, 0);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 256, 64 * 1024, 0), ==, 0);
  gpu_profile_clear (&p);

  load_ok (SRCDIR "/engines/profiles/c1060.ini", &p);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 256, 0, 0), ==, 4);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 64, 0, 0), ==, 8);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 512, 0, 32), ==, 1);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 1024, 0, 0), ==, 0);
  gpu_profile_clear (&p);

  load_ok (SRCDIR "/engines/profiles/c2050.ini", &p);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 192, 0, 0), ==, 8);
  g_assert_cmpuint (gpu_profile_blocks_per_sm (&p, 512, 0, 32), ==, 2);
  gpu_profile_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* Whatever the caller's environment, the tests' profiles come first. */
  g_setenv ("STREAMSIM_PROFILE_PATH", TESTS, TRUE);

  g_test_add_func ("/profile/load-base", test_load_base);
  g_test_add_func ("/profile/inherit", test_inherit);
  g_test_add_func ("/profile/unknown-key-group", test_unknown);
  g_test_add_func ("/profile/out-of-range", test_range);
  g_test_add_func ("/profile/bad-values", test_bad_values);
  g_test_add_func ("/profile/rate-errors", test_rate_errors);
  g_test_add_func ("/profile/bad-bytes", test_bad_bytes);
  g_test_add_func ("/profile/size-times-errors", test_size_times_errors);
  g_test_add_func ("/profile/spread-errors", test_spread_errors);
  g_test_add_func ("/profile/spread-keys", test_spread_keys);
  g_test_add_func ("/profile/missing-key", test_missing);
  g_test_add_func ("/profile/cycle", test_cycle);
  g_test_add_func ("/profile/not-found", test_not_found);
  g_test_add_func ("/profile/list", test_list);
  g_test_add_func ("/profile/search-path", test_search_path);
  g_test_add_func ("/profile/real-profiles", test_real_profiles);
  g_test_add_func ("/profile/datasheet-profiles", test_datasheet_profiles);
  g_test_add_func ("/profile/shipped-rates", test_shipped_rates);
  g_test_add_func ("/profile/devices-source", test_devices_source);
  g_test_add_func ("/profile/save-round-trip", test_save_round_trip);
  g_test_add_func ("/profile/untouched-keys", test_untouched_keys);
  g_test_add_func ("/profile/rate-keys", test_rate_keys);
  g_test_add_func ("/profile/row-rate-keys", test_row_rate_keys);
  g_test_add_func ("/profile/copy-clear", test_copy_clear);
  g_test_add_func ("/profile/blocks-per-sm", test_blocks_per_sm);
  g_test_add_func ("/profile/memset-time", test_memset_time);
  g_test_add_func ("/profile/blocking-wake", test_blocking_wake);
  return g_test_run ();
}
