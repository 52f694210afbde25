/* test_units.c: sizes, times, bandwidths, clocks, FLOP rates and plain numbers as written in schedules and profiles. */
#include <glib.h>
#include <string.h>

#include "sim/formats/units.h"

static guint64
size_ok (const char *text)
{
  guint64 bytes = 0;
  const char *why = NULL;

  if (!units_parse_size (text, &bytes, &why))
    g_error ("units_parse_size (\"%s\") failed: %s", text, why);
  return bytes;
}

static const char *
size_bad (const char *text)
{
  guint64 bytes = 12345;
  const char *why = NULL;

  g_assert_false (units_parse_size (text, &bytes, &why));
  g_assert_nonnull (why);
  g_assert_cmpuint (bytes, ==, 12345); /* untouched on failure */
  return why;
}

static SimTime
time_ok (const char *text)
{
  SimTime ns = -1;
  const char *why = NULL;

  if (!units_parse_time (text, &ns, &why))
    g_error ("units_parse_time (\"%s\") failed: %s", text, why);
  return ns;
}

static const char *
time_bad (const char *text)
{
  SimTime ns = 12345;
  const char *why = NULL;

  g_assert_false (units_parse_time (text, &ns, &why));
  g_assert_nonnull (why);
  g_assert_cmpint (ns, ==, 12345);
  return why;
}

/* Each unit once: 1000^n for the SI units, 1024^n for the binary ones. */
static void
test_size_units (void)
{
  g_assert_cmpuint (size_ok ("512"), ==, 512);
  g_assert_cmpuint (size_ok ("512B"), ==, 512);
  g_assert_cmpuint (size_ok ("0"), ==, 0);
  g_assert_cmpuint (size_ok ("0B"), ==, 0);
  g_assert_cmpuint (size_ok ("4KB"), ==, 4000);
  g_assert_cmpuint (size_ok ("4MB"), ==, 4000000);
  g_assert_cmpuint (size_ok ("4GB"), ==, G_GUINT64_CONSTANT (4000000000));
  g_assert_cmpuint (size_ok ("2TB"), ==, G_GUINT64_CONSTANT (2000000000000));
  g_assert_cmpuint (size_ok ("4KiB"), ==, 4096);
  g_assert_cmpuint (size_ok ("4MiB"), ==, 4194304);
  g_assert_cmpuint (size_ok ("4GiB"), ==, G_GUINT64_CONSTANT (4294967296));
  g_assert_cmpuint (size_ok ("2TiB"), ==, G_GUINT64_CONSTANT (2199023255552));
}

/* Decimals, rounded half up to the nearest byte. */
static void
test_size_decimals (void)
{
  g_assert_cmpuint (size_ok ("1.5MiB"), ==, 1572864);   /* 1.5 * 1048576 */
  g_assert_cmpuint (size_ok ("2.25KiB"), ==, 2304);     /* 2.25 * 1024 */
  g_assert_cmpuint (size_ok ("0.5KB"), ==, 500);
  g_assert_cmpuint (size_ok ("1.0005KB"), ==, 1001);    /* 1000.5 rounds up */
  g_assert_cmpuint (size_ok ("1.0004KB"), ==, 1000);    /* 1000.4 rounds down */
  g_assert_cmpuint (size_ok ("0.5B"), ==, 1);
  g_assert_cmpuint (size_ok ("0.4999"), ==, 0);
  g_assert_cmpuint (size_ok ("1.5"), ==, 2);
  /* 0.1 is not exact in binary; the parser works in decimal: 0.1 * 10^12. */
  g_assert_cmpuint (size_ok ("0.1TB"), ==, G_GUINT64_CONSTANT (100000000000));
  /* Many digits: 0.000000001 * 2^30 = 1.07 -> 1. */
  g_assert_cmpuint (size_ok ("0.000000001GiB"), ==, 1);
}

static void
test_size_limits (void)
{
  const char *why;

  g_assert_cmpuint (size_ok ("18446744073709551615"), ==, G_MAXUINT64);
  /* 17179869183 GiB is 2^64 - 2^30; .999999999 GiB is 1073741822.93 -> 1073741823,
   * which makes exactly 2^64 - 1. */
  g_assert_cmpuint (size_ok ("17179869183.999999999GiB"), ==, G_MAXUINT64);
  why = size_bad ("18446744073709551616");
  g_assert_true (g_str_has_prefix (why, "too large"));
  why = size_bad ("17179869184GiB"); /* exactly 2^64 */
  g_assert_true (g_str_has_prefix (why, "too large"));
  why = size_bad ("99999999999GiB");
  g_assert_true (g_str_has_prefix (why, "too large"));
  why = size_bad ("99999999999999999999999999B");
  g_assert_true (g_str_has_prefix (why, "too large"));
}

static void
test_size_negative_and_junk (void)
{
  static const char *const junk[] = {
    "", "MiB", "4 MiB", " 4MiB", "4MiB ", "4MiBs", "4mib", "4M", "4K", "1.", ".5MiB",
    "1..5", "1.5.5", "0x10", "1e3", "+4", "4EiB", "four", "-", "--1",
  };
  const char *why;

  why = size_bad ("-1");
  g_assert_true (g_str_has_prefix (why, "negative"));
  why = size_bad ("-4MiB");
  g_assert_true (g_str_has_prefix (why, "negative"));
  for (gsize i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      why = size_bad (junk[i]);
      g_assert_nonnull (strstr (why, "KiB")); /* the phrase lists the units */
    }
}

static void
test_time_units (void)
{
  g_assert_cmpint (time_ok ("850ns"), ==, 850);
  g_assert_cmpint (time_ok ("200us"), ==, 200000);
  g_assert_cmpint (time_ok ("1.08ms"), ==, 1080000);
  g_assert_cmpint (time_ok ("2.5s"), ==, G_GINT64_CONSTANT (2500000000));
  g_assert_cmpint (time_ok ("0"), ==, 0);
  g_assert_cmpint (time_ok ("0ns"), ==, 0);
  g_assert_cmpint (time_ok ("0.0s"), ==, 0);
  g_assert_cmpint (time_ok ("1.2345ms"), ==, 1234500);
  g_assert_cmpint (time_ok ("0.0005us"), ==, 1);   /* 0.5 ns rounds up */
  g_assert_cmpint (time_ok ("0.0004us"), ==, 0);
  g_assert_cmpint (time_ok ("9223372036854775807ns"), ==, G_MAXINT64);
}

static void
test_time_bad (void)
{
  static const char *const junk[] = {
    "", "5", "1.5", "1 ms", "1min", "1MS", "ms", "1h", "1.ms", "00", "0.0", " 1ms",
  };
  const char *why;

  why = time_bad ("-2ms");
  g_assert_true (g_str_has_prefix (why, "negative"));
  why = time_bad ("9223372036854775808ns");
  g_assert_true (g_str_has_prefix (why, "too large"));
  why = time_bad ("9223372037s");
  g_assert_true (g_str_has_prefix (why, "too large"));
  why = time_bad ("99999999999999999999999s");
  g_assert_true (g_str_has_prefix (why, "too large"));
  for (gsize i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      why = time_bad (junk[i]);
      g_assert_nonnull (strstr (why, "ns, us, ms or s"));
    }
}

static void
test_bandwidth (void)
{
  static const char *const junk[] = { "12GB", "12 GB/s", "GB/s", "12Gb/s", "12GB/sec", "", "1e9B/s" };
  double bw = 0;
  const char *why;

  g_assert_true (units_parse_bandwidth ("12GB/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 12e9);
  g_assert_true (units_parse_bandwidth ("6.5GiB/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 6.5 * 1073741824.0);
  g_assert_true (units_parse_bandwidth ("100MB/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 1e8);
  g_assert_true (units_parse_bandwidth ("3MiB/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 3.0 * 1048576.0);
  g_assert_true (units_parse_bandwidth ("1KB/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 1000.0);
  g_assert_true (units_parse_bandwidth ("512B/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 512.0);
  g_assert_true (units_parse_bandwidth ("2KiB/s", &bw, NULL));
  g_assert_cmpfloat (bw, ==, 2048.0);

  bw = 7;
  g_assert_false (units_parse_bandwidth ("-1GB/s", &bw, &why));
  g_assert_true (g_str_has_prefix (why, "negative"));
  g_assert_false (units_parse_bandwidth ("0GB/s", &bw, &why));
  g_assert_nonnull (strstr (why, "positive"));
  for (gsize i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      g_assert_false (units_parse_bandwidth (junk[i], &bw, &why));
      g_assert_nonnull (strstr (why, "GB/s"));
    }
  g_assert_cmpfloat (bw, ==, 7);
}

/* Clocks as data sheets give them, converted by hand: 1980MHz is 1.98e9 Hz. */
static void
test_frequency (void)
{
  static const char *const junk[] = { "1980", "1980 MHz", "1980mhz", "MHz", "1.98GB/s", "", "2e9Hz" };
  double hz = 0;
  const char *why;

  g_assert_true (units_parse_frequency ("1980MHz", &hz, NULL));
  g_assert_cmpfloat (hz, ==, 1.98e9);
  g_assert_true (units_parse_frequency ("1.296GHz", &hz, NULL));
  g_assert_cmpfloat_with_epsilon (hz, 1.296e9, 1e-3);
  g_assert_true (units_parse_frequency ("706000kHz", &hz, NULL));
  g_assert_cmpfloat (hz, ==, 706e6);
  g_assert_true (units_parse_frequency ("50Hz", &hz, NULL));
  g_assert_cmpfloat (hz, ==, 50);

  hz = 7;
  g_assert_false (units_parse_frequency ("-1MHz", &hz, &why));
  g_assert_true (g_str_has_prefix (why, "negative"));
  g_assert_false (units_parse_frequency ("0MHz", &hz, &why));
  g_assert_nonnull (strstr (why, "positive"));
  for (gsize i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      g_assert_false (units_parse_frequency (junk[i], &hz, &why));
      g_assert_nonnull (strstr (why, "Hz, kHz, MHz or GHz"));
    }
  g_assert_cmpfloat (hz, ==, 7);
}

/* FLOP rates in both spellings: 67TFLOP/s and 67TFLOPS are 67e12 per second,
 * 622.08GFLOP/s 6.2208e11. */
static void
test_flops (void)
{
  static const char *const junk[] = { "67", "67TFLOP", "67 TFLOP/s", "67tflops", "67TFLOPs",
                                      "67TB/s", "", "TFLOP/s" };
  double flops = 0;
  const char *why;

  g_assert_true (units_parse_flops ("67TFLOP/s", &flops, NULL));
  g_assert_cmpfloat (flops, ==, 67e12);
  g_assert_true (units_parse_flops ("67TFLOPS", &flops, NULL));
  g_assert_cmpfloat (flops, ==, 67e12);
  g_assert_true (units_parse_flops ("622.08GFLOP/s", &flops, NULL));
  g_assert_cmpfloat_with_epsilon (flops, 622.08e9, 1e-3);
  g_assert_true (units_parse_flops ("1.2PFLOPS", &flops, NULL));
  g_assert_cmpfloat (flops, ==, 1.2e15);
  g_assert_true (units_parse_flops ("500MFLOP/s", &flops, NULL));
  g_assert_cmpfloat (flops, ==, 5e8);
  g_assert_true (units_parse_flops ("3FLOP/s", &flops, NULL));
  g_assert_cmpfloat (flops, ==, 3);

  flops = 7;
  g_assert_false (units_parse_flops ("-1TFLOP/s", &flops, &why));
  g_assert_true (g_str_has_prefix (why, "negative"));
  g_assert_false (units_parse_flops ("0TFLOPS", &flops, &why));
  g_assert_nonnull (strstr (why, "positive"));
  for (gsize i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      g_assert_false (units_parse_flops (junk[i], &flops, &why));
      g_assert_nonnull (strstr (why, "TFLOP/s"));
    }
  g_assert_cmpfloat (flops, ==, 7);
}

static void
test_uint (void)
{
  guint64 v = 0;
  const char *why;

  g_assert_true (units_parse_uint ("0", 32, &v, NULL));
  g_assert_cmpuint (v, ==, 0);
  g_assert_true (units_parse_uint ("32", 32, &v, NULL));
  g_assert_cmpuint (v, ==, 32);
  g_assert_true (units_parse_uint ("18446744073709551615", G_MAXUINT64, &v, NULL));
  g_assert_cmpuint (v, ==, G_MAXUINT64);

  g_assert_false (units_parse_uint ("33", 32, &v, &why));
  g_assert_true (g_str_has_prefix (why, "too large"));
  g_assert_false (units_parse_uint ("18446744073709551616", G_MAXUINT64, &v, &why));
  g_assert_true (g_str_has_prefix (why, "too large"));
  g_assert_false (units_parse_uint ("-1", 32, &v, &why));
  g_assert_true (g_str_has_prefix (why, "negative"));
  g_assert_false (units_parse_uint ("1.5", 32, &v, &why));
  g_assert_nonnull (strstr (why, "whole number"));
  g_assert_false (units_parse_uint ("", 32, &v, &why));
  g_assert_false (units_parse_uint ("4KB", G_MAXUINT64, &v, &why));
  g_assert_false (units_parse_uint (" 4", 32, &v, &why));
  g_assert_cmpuint (v, ==, G_MAXUINT64); /* untouched by the failures */
}

static void
check_format (char *got, const char *expected)
{
  g_assert_cmpstr (got, ==, expected);
  g_free (got);
}

/* The largest unit that keeps the number >= 1, three decimals at most,
 * trailing zeros dropped; rounding to 1000.000 moves up a unit. */
static void
test_format (void)
{
  check_format (units_format_time (0), "0 ns");
  check_format (units_format_time (850), "850 ns");
  check_format (units_format_time (1000), "1 us");
  check_format (units_format_time (12345), "12.345 us");
  check_format (units_format_time (1234000), "1.234 ms");
  check_format (units_format_time (1234567), "1.235 ms");
  check_format (units_format_time (G_GINT64_CONSTANT (2500000000)), "2.5 s");
  check_format (units_format_time (999999999), "1 s"); /* 999.999999 ms */
  check_format (units_format_time (-1500), "-1.5 us");
  check_format (units_format_time (G_GINT64_CONSTANT (3600000000000)), "3600 s");

  check_format (units_format_size (0), "0 B");
  check_format (units_format_size (512), "512 B");
  check_format (units_format_size (1023), "1023 B");
  check_format (units_format_size (1024), "1 KiB");
  check_format (units_format_size (1536), "1.5 KiB");
  check_format (units_format_size (4194304), "4 MiB");
  check_format (units_format_size (G_GUINT64_CONSTANT (1) << 30), "1 GiB");
  check_format (units_format_size (G_MAXUINT64), "16 EiB");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/size/units", test_size_units);
  g_test_add_func ("/units/size/decimals", test_size_decimals);
  g_test_add_func ("/units/size/limits", test_size_limits);
  g_test_add_func ("/units/size/negative-and-junk", test_size_negative_and_junk);
  g_test_add_func ("/units/time/units", test_time_units);
  g_test_add_func ("/units/time/bad", test_time_bad);
  g_test_add_func ("/units/bandwidth", test_bandwidth);
  g_test_add_func ("/units/frequency", test_frequency);
  g_test_add_func ("/units/flops", test_flops);
  g_test_add_func ("/units/uint", test_uint);
  g_test_add_func ("/units/format", test_format);
  return g_test_run ();
}
