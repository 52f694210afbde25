/* test_calib_fit.c: the calibration arithmetic on synthetic timings with known answers. */
#include <math.h>
#include <glib.h>
#include "validate/calib_fit.h"

#define KiB ((guint64) 1024)
#define MiB (1024 * KiB)

/* Sizes 4 KiB * 4^k, k = 0..8, as the calibration sweeps them. */
static void
sweep_sizes (guint64 sizes[9])
{
  for (int k = 0; k < 9; k++)
    sizes[k] = 4 * KiB << (2 * k);
}

/* Exact data from latency 10 us and 25 GB/s: t = 10000 + b / 25 ns, rounded
 * to the nanosecond (4 KiB: 10000 + 163.84 = 10164 ns). The fit must give
 * back 10000 ns and 25e9 B/s, and fit every point to well under 0.1%. */
static void
test_link_exact (void)
{
  guint64 sizes[9];
  SimTime times[9];
  sweep_sizes (sizes);
  for (int k = 0; k < 9; k++)
    times[k] = 10000 + (SimTime) llround ((double) sizes[k] / 25.0);
  g_assert_cmpint (times[0], ==, 10164);

  CalibLinkFit fit;
  g_assert_true (calib_fit_link (sizes, times, 9, &fit));
  g_assert_cmpint (ABS (fit.latency - 10000), <=, 1);
  g_assert_cmpfloat (fabs (fit.bandwidth - 25e9) / 25e9, <, 1e-5);
  g_assert_cmpfloat (fit.max_residual, <, 1e-3);
}

/* The same line with +-2% noise alternating in sign: the weighted fit is
 * pulled by at most about the noise, so latency within 0.5 us (5%) and
 * bandwidth within 3%; the largest misfit is about the noise, 1..3%. */
static void
test_link_noisy (void)
{
  guint64 sizes[9];
  SimTime times[9];
  sweep_sizes (sizes);
  for (int k = 0; k < 9; k++)
    {
      double t = 10000 + (double) sizes[k] / 25.0;
      times[k] = (SimTime) llround (t * (k % 2 ? 1.02 : 0.98));
    }
  CalibLinkFit fit;
  g_assert_true (calib_fit_link (sizes, times, 9, &fit));
  g_assert_cmpint (ABS (fit.latency - 10000), <=, 500);
  g_assert_cmpfloat (fabs (fit.bandwidth - 25e9) / 25e9, <, 0.03);
  g_assert_cmpfloat (fit.max_residual, >, 0.01);
  g_assert_cmpfloat (fit.max_residual, <, 0.03);
}

/* Times that extrapolate to a negative latency (t = b / 10 - 5000 ns, only
 * sizes from 1 MiB on, where that stays positive) are refitted through the
 * origin: latency 0, and the bandwidth a little above 10 GB/s since every
 * point lies below the 10 GB/s line. 1 MiB: 104858 - 5000 = 99858 ns. */
static void
test_link_negative_intercept (void)
{
  guint64 sizes[5] = { MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB };
  SimTime times[5];
  for (int k = 0; k < 5; k++)
    times[k] = (SimTime) llround ((double) sizes[k] / 10.0) - 5000;
  g_assert_cmpint (times[0], ==, 99858);

  CalibLinkFit fit;
  g_assert_true (calib_fit_link (sizes, times, 5, &fit));
  g_assert_cmpint (fit.latency, ==, 0);
  g_assert_cmpfloat (fit.bandwidth, >, 10e9);
  g_assert_cmpfloat (fit.bandwidth, <, 10.6e9);
}

/* Unusable data: one size only, a zero time, or times falling with size. */
static void
test_link_refuses (void)
{
  guint64 same[3] = { MiB, MiB, MiB };
  SimTime t3[3] = { 100, 110, 120 };
  CalibLinkFit fit;
  g_assert_false (calib_fit_link (same, t3, 3, &fit));

  guint64 sizes[3] = { KiB, MiB, 16 * MiB };
  SimTime zero[3] = { 0, 100, 200 };
  g_assert_false (calib_fit_link (sizes, zero, 3, &fit));

  SimTime falling[3] = { 3000, 2000, 1000 };
  g_assert_false (calib_fit_link (sizes, falling, 3, &fit));
  g_assert_false (calib_fit_link (sizes, falling, 0, &fit));
}

/* Odd count: the middle value (sorted 1 2 5 9 40 -> 5); even count: the mean
 * of the two middle ones (1 2 5 9 -> (2 + 5) / 2 = 3 in integers, 3.5 in
 * doubles). The input is left as it was. */
static void
test_median (void)
{
  SimTime odd[5] = { 9, 1, 40, 5, 2 };
  g_assert_cmpint (calib_fit_median (odd, 5), ==, 5);
  g_assert_cmpint (odd[0], ==, 9);
  SimTime even[4] = { 9, 1, 5, 2 };
  g_assert_cmpint (calib_fit_median (even, 4), ==, 3);
  double d[4] = { 9, 1, 5, 2 };
  g_assert_cmpfloat (calib_fit_median_double (d, 4), ==, 3.5);
  SimTime one = 7;
  g_assert_cmpint (calib_fit_median (&one, 1), ==, 7);
}

/* Mean: (9 + 1 + 40 + 5 + 2) / 5 = 11.4 -> 11; (1 + 2) / 2 = 1.5 rounds
 * away from zero -> 2. */
static void
test_mean (void)
{
  SimTime v[5] = { 9, 1, 40, 5, 2 };
  g_assert_cmpint (calib_fit_mean (v, 5), ==, 11);
  SimTime w[2] = { 1, 2 };
  g_assert_cmpint (calib_fit_mean (w, 2), ==, 2);
}

/* Batches of 3: {4, 4, 7} mean 5, {5, 5, 5} mean 5, {6, 1000, 8} mean 338
 * (a stall), {2} mean 2 (the short last batch). Sorted 2 5 5 338: median
 * (5 + 5) / 2 = 5, where the plain mean of all ten would be 104.6 and the
 * plain median 5 would ignore the 7 and the 8. With batches of 10, the one
 * batch's mean: 1046 / 10 = 104.6 -> 105. */
static void
test_median_of_means (void)
{
  SimTime v[10] = { 4, 4, 7, 5, 5, 5, 6, 1000, 8, 2 };
  g_assert_cmpint (calib_fit_median_of_means (v, 10, 3), ==, 5);
  g_assert_cmpint (calib_fit_median_of_means (v, 10, 10), ==, 105);
  /* Batches of 4: {4 4 7 5} 5, {5 5 6 1000} 254, {8 2} 5 -> median 5. */
  g_assert_cmpint (calib_fit_median_of_means (v, 10, 4), ==, 5);
  /* Batches of 2: 4, 6, 5, 503, 5 -> sorted 4 5 5 6 503 -> 5. And a case
   * where the means, not the values, decide: {1, 11} {1, 11} {5, 5} have
   * means 6 6 5 -> 6, where the values' median is 5. */
  g_assert_cmpint (calib_fit_median_of_means (v, 10, 2), ==, 5);
  SimTime skew[6] = { 1, 11, 1, 11, 5, 5 };
  g_assert_cmpint (calib_fit_median_of_means (skew, 6, 2), ==, 6);
  g_assert_cmpint (calib_fit_median (skew, 6), ==, 5);
}

/* H2D 100 us alone, 125 together: 0.8; D2H 200 alone, 250 together: 0.8;
 * mean 0.8. With a 0.6 and a 1.0 the mean is 0.8 too. Faster together than
 * alone (noise) is clamped to 1. */
static void
test_duplex (void)
{
  g_assert_cmpfloat (fabs (calib_fit_duplex (100, 125, 200, 250) - 0.8), <, 1e-12);
  g_assert_cmpfloat (fabs (calib_fit_duplex (60, 100, 100, 100) - 0.8), <, 1e-12);
  g_assert_cmpfloat (calib_fit_duplex (100, 90, 100, 95), ==, 1.0);
}

/* [0,100) and [50,150): 50 in common of the shorter 100 -> 0.5.
 * [0,100) and [100,200): touching, 0. [0,100) and [10,20): inside, 1.
 * [0,100) and [300,400): apart, 0. [0,40) and [20,220): 20 of 40 -> 0.5. */
static void
test_overlap (void)
{
  g_assert_cmpfloat (calib_fit_overlap (0, 100, 50, 150), ==, 0.5);
  g_assert_cmpfloat (calib_fit_overlap (0, 100, 100, 200), ==, 0.0);
  g_assert_cmpfloat (calib_fit_overlap (0, 100, 10, 20), ==, 1.0);
  g_assert_cmpfloat (calib_fit_overlap (0, 100, 300, 400), ==, 0.0);
  g_assert_cmpfloat (calib_fit_overlap (0, 40, 20, 220), ==, 0.5);
}

/* Intervals [0,10) [5,15) [10,20) [12,13) [20,30): at 12, three are open
 * ([5,15), [10,20), [12,13)); [0,10) ended at 10 when [10,20) began, which
 * does not count as overlap. Zero-length intervals count for nothing. */
static void
test_max_overlap (void)
{
  const SimTime start[] = { 0, 5, 10, 12, 20, 7 };
  const SimTime end[] = { 10, 15, 20, 13, 30, 7 };
  g_assert_cmpuint (calib_fit_max_overlap (start, end, 6), ==, 3);
  const SimTime s2[] = { 0, 10, 20 };
  const SimTime e2[] = { 10, 20, 30 };
  g_assert_cmpuint (calib_fit_max_overlap (s2, e2, 3), ==, 1);
  g_assert_cmpuint (calib_fit_max_overlap (s2, e2, 0), ==, 0);
}

/* 17 streams; stream 0 blocked its connection until t = 1000. With 8
 * connections assigned round-robin, streams 8 and 16 share it: their kernels
 * start at 1000 and later, the others at 10..160. Answer 8, round-robin.
 * If stream 3 were also held back, the first held back is 3 and the pattern
 * (3, 8, 16) is not the multiples of 3: not round-robin. None held back: 0. */
static void
test_connections (void)
{
  SimTime start[17];
  for (int j = 0; j < 17; j++)
    start[j] = 10 * (j + 1);
  start[8] = 1000;
  start[16] = 1010;
  gboolean rr = FALSE;
  g_assert_cmpuint (calib_fit_connections (start, 17, 1000, &rr), ==, 8);
  g_assert_true (rr);

  start[3] = 1020;
  g_assert_cmpuint (calib_fit_connections (start, 17, 1000, &rr), ==, 3);
  g_assert_false (rr);

  for (int j = 0; j < 17; j++)
    start[j] = 10 * (j + 1);
  g_assert_cmpuint (calib_fit_connections (start, 17, 1000, &rr), ==, 0);
  g_assert_false (rr);
}

/* The calibration's assign_on_submit from the same probe, 65 streams
 * (stream 0's connection held until 1000, as the probe runs them): none held
 * back means streams took connections that were not held; every eighth held
 * back is creation order. With fewer than 33 streams no stream need share
 * stream 0's connection under creation order (up to 32 connections), so
 * "none held back" proves nothing: the documented rule. */
static void
test_assign_on_submit (void)
{
  SimTime start[65];
  for (int j = 0; j < 65; j++)
    start[j] = 10 * (j + 1);
  g_assert_true (calib_fit_assign_on_submit (start, 65, 1000));
  g_assert_false (calib_fit_assign_on_submit (start, 9, 1000));
  /* stream 32 is the first that shares stream 0's connection with 32 */
  g_assert_false (calib_fit_assign_on_submit (start, 32, 1000));
  g_assert_true (calib_fit_assign_on_submit (start, 33, 1000));

  for (int j = 8; j < 65; j += 8)
    start[j] = 1000 + j;
  g_assert_false (calib_fit_assign_on_submit (start, 65, 1000));
}

/* The device's rates. Per-SM FP32 throughput as the programming guide's
 * table gives it; unknown generations are 0, not a guess. Peak FP32 for the
 * H100 SXM5 (9.0, 132 SMs, 1980 MHz), the A100 (8.0, 108 SMs, 1410 MHz) and
 * the RTX 4090 (8.9, 128 SMs, 2520 MHz), worked by hand: 2 x 132 x 128 x
 * 1.98e9 = 66.90816e12 (data sheet: 67 TFLOPS), 2 x 108 x 64 x 1.41e9 =
 * 19.49184e12 (19.5), 2 x 128 x 128 x 2.52e9 = 82.57536e12 (82.6). Memory: the
 * H100's 2619 MHz (nvidia-smi, validate/results/h100/system.txt) on 5120 bits,
 * 2 x 2.619e9 x 640 = 3.35232e12 B/s (3.35 TB/s); an A100 40GB's 1215 MHz
 * (deviceQuery) on 5120 bits, 1.5552e12 (1555 GB/s). */
static void
test_device_rates (void)
{
  g_assert_cmpuint (calib_fit_fp32_per_sm (7, 0), ==, 64);
  g_assert_cmpuint (calib_fit_fp32_per_sm (8, 0), ==, 64);
  g_assert_cmpuint (calib_fit_fp32_per_sm (8, 6), ==, 128);
  g_assert_cmpuint (calib_fit_fp32_per_sm (8, 9), ==, 128);
  g_assert_cmpuint (calib_fit_fp32_per_sm (6, 0), ==, 64);
  g_assert_cmpuint (calib_fit_fp32_per_sm (6, 1), ==, 128);
  g_assert_cmpuint (calib_fit_fp32_per_sm (9, 0), ==, 128);
  g_assert_cmpuint (calib_fit_fp32_per_sm (10, 0), ==, 128);
  g_assert_cmpuint (calib_fit_fp32_per_sm (3, 5), ==, 0);
  g_assert_cmpuint (calib_fit_fp32_per_sm (13, 0), ==, 0);

  g_assert_cmpfloat_with_epsilon (calib_fit_fp32_flops (9, 0, 132, 1.98e9), 66.90816e12, 1e6);
  g_assert_cmpfloat_with_epsilon (calib_fit_fp32_flops (8, 0, 108, 1.41e9), 19.49184e12, 1e6);
  g_assert_cmpfloat_with_epsilon (calib_fit_fp32_flops (8, 9, 128, 2.52e9), 82.57536e12, 1e6);
  g_assert_cmpfloat (calib_fit_fp32_flops (13, 0, 100, 2e9), ==, 0);

  g_assert_cmpfloat_with_epsilon (calib_fit_memory_bandwidth (2619000, 5120), 3.35232e12, 1e3);
  g_assert_cmpfloat_with_epsilon (calib_fit_memory_bandwidth (1215000, 5120), 1.5552e12, 1e3);
  g_assert_cmpfloat (calib_fit_memory_bandwidth (0, 5120), ==, 0);
  g_assert_cmpfloat (calib_fit_memory_bandwidth (2619000, 0), ==, 0);
}

/* A blocking link's latency net of what the model charges before the copy:
 * the H100's pageable host-to-device intercept, 6709 ns, less its
 * memcpy_async 2258 and copy_submit 2857 ns is 1594 ns (by hand); an
 * intercept below what comes before is 0. */
static void
test_net_latency (void)
{
  g_assert_cmpint (calib_fit_net_latency (6709, 2258 + 2857), ==, 1594);
  g_assert_cmpint (calib_fit_net_latency (4000, 5115), ==, 0);
  g_assert_cmpint (calib_fit_net_latency (5115, 5115), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calib-fit/link-exact", test_link_exact);
  g_test_add_func ("/calib-fit/link-noisy", test_link_noisy);
  g_test_add_func ("/calib-fit/link-negative-intercept", test_link_negative_intercept);
  g_test_add_func ("/calib-fit/link-refuses", test_link_refuses);
  g_test_add_func ("/calib-fit/median", test_median);
  g_test_add_func ("/calib-fit/mean", test_mean);
  g_test_add_func ("/calib-fit/median-of-means", test_median_of_means);
  g_test_add_func ("/calib-fit/duplex", test_duplex);
  g_test_add_func ("/calib-fit/overlap", test_overlap);
  g_test_add_func ("/calib-fit/max-overlap", test_max_overlap);
  g_test_add_func ("/calib-fit/connections", test_connections);
  g_test_add_func ("/calib-fit/assign-on-submit", test_assign_on_submit);
  g_test_add_func ("/calib-fit/device-rates", test_device_rates);
  g_test_add_func ("/calib-fit/net-latency", test_net_latency);
  return g_test_run ();
}
