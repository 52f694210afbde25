/* test_kernel_scale.c: kernel times carried to another GPU (engines/eng_kernel_scale.h, sim/front/kernel_times.h), against values worked out by hand. */
#include <glib.h>
#include <string.h>

#include "engines/eng_kernel_scale.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/schedule_parse.h"
#include "sim/front/kernel_times.h"

static void
load (const char *name, GpuProfile *profile)
{
  GError *error = NULL;
  memset (profile, 0, sizeof *profile);
  g_assert_true (profile_load (name, profile, &error));
  g_assert_no_error (error);
}

static void
test_bound_by_name (void)
{
  g_assert_cmpint (eng_kernel_bound ("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize6"), ==,
                   ENG_KERNEL_COMPUTE);
  g_assert_cmpint (eng_kernel_bound ("_ZN17cutlass__5x_cudnn6KernelI66cutlass_tensorop"), ==,
                   ENG_KERNEL_COMPUTE);
  g_assert_cmpint (eng_kernel_bound ("_ZN2at6native29vectorized_elementwise_kernelILi4"), ==,
                   ENG_KERNEL_MEMORY);
  g_assert_cmpint (eng_kernel_bound ("transposeNaive"), ==, ENG_KERNEL_MEMORY);
  /* a convolution's name may also hold a memory word: compute wins */
  g_assert_cmpint (eng_kernel_bound ("implicit_convolve_sgemm_copy"), ==, ENG_KERNEL_COMPUTE);
  g_assert_cmpint (eng_kernel_bound ("BlackScholesGPU"), ==, ENG_KERNEL_UNKNOWN);
  g_assert_cmpint (eng_kernel_bound (NULL), ==, ENG_KERNEL_UNKNOWN);
}

/* By hand. scale-a to scale-b (tests/profiles): the same clock, twice the
 * bandwidth and FP32 rate. A memory-bound 1.001 ms: 1 us + 1 ms x
 * (1 - 0.2 x (1 - 1/2)) = 1000 + 900000 = 901000 ns; compute-bound: 1000 +
 * 1000000 x 1/2 = 501000; unknown as compute; 0.5 us: all fixed, 500.
 * h100 to h200 (3.35 and 4.8 TB/s, both 67 TFLOP/s at 1980 MHz): a
 * memory-bound 11 us, 1000 + 10000 x (1 - 0.2 x (1 - 3.35/4.8)) = 10395.83,
 * 10396 ns; compute-bound unchanged. c2050 to k20 (1150 and 706 MHz,
 * 1030.4 and 3524.352 GFLOP/s): compute-bound 2 us, 1000 x 1150/706 +
 * 1000 x 1030.4/3524.352 = 1628.90 + 292.37 = 1921.27, 1921 ns. */
static void
test_scale (void)
{
  GpuProfile a, b, h100, h200, c2050, k20;
  load ("scale-a", &a);
  load ("scale-b", &b);
  load ("h100", &h100);
  load ("h200", &h200);
  load ("c2050", &c2050);
  load ("k20", &k20);
  double factor = 0;
  g_assert_cmpint (eng_kernel_scale (&a, &b, ENG_KERNEL_MEMORY, 1001000, &factor), ==, 901000);
  g_assert_cmpfloat_with_epsilon (factor, 0.9, 1e-12);
  g_assert_cmpint (eng_kernel_scale (&a, &b, ENG_KERNEL_COMPUTE, 1001000, &factor), ==, 501000);
  g_assert_cmpfloat_with_epsilon (factor, 0.5, 1e-12);
  g_assert_cmpint (eng_kernel_scale (&a, &b, ENG_KERNEL_UNKNOWN, 1001000, NULL), ==, 501000);
  g_assert_cmpint (eng_kernel_scale (&a, &b, ENG_KERNEL_MEMORY, 500, NULL), ==, 500);
  g_assert_cmpint (eng_kernel_scale (&h100, &h200, ENG_KERNEL_MEMORY, 11000, NULL), ==, 10396);
  g_assert_cmpint (eng_kernel_scale (&h100, &h200, ENG_KERNEL_COMPUTE, 11000, NULL), ==, 11000);
  g_assert_cmpint (eng_kernel_scale (&c2050, &k20, ENG_KERNEL_COMPUTE, 2000, NULL), ==, 1921);
  GpuProfile *all[] = { &a, &b, &h100, &h200, &c2050, &k20 };
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    gpu_profile_clear (all[i]);
}

/* A kernel with scale-a's time and none for scale-b gets one, scaled; a
 * bare time and a time of its own are left as they are; a device no
 * profile has gives nothing to carry. */
static void
test_carry (void)
{
  static const char text[] =
    "stream s\n"
    "kernel s grid=1 block=32 time=scale-a:1.001ms label=copy_kernel\n"
    "kernel s grid=1 block=32 time=2us label=copy_kernel\n"
    "kernel s grid=1 block=32 time=scale-b:5us,scale-a:1us\n"
    "kernel s grid=1 block=32 time=gtx480:3us\n"
    "kernel s grid=1 block=32 time=gtx480:3us,scale-a:1.001ms label=gemm\n";
  ScheduleParseOptions options = { NULL, 0 };
  GError *error = NULL;
  g_autoptr (Schedule) sched = schedule_parse_text ("c.sched", text, strlen (text), &options, &error);
  g_assert_no_error (error);
  GpuProfile b;
  load ("scale-b", &b);
  g_autoptr (GArray) carried = kernel_times_carry (sched, &b);
  g_assert_cmpuint (carried->len, ==, 2);
  const KernelTimeCarried *c0 = &g_array_index (carried, KernelTimeCarried, 0);
  const KernelTimeCarried *c1 = &g_array_index (carried, KernelTimeCarried, 1);
  g_assert_cmpuint (c0->op, ==, 0);
  g_assert_cmpstr (c0->from, ==, "scale-a");
  g_assert_cmpint (c0->time, ==, 901000);
  g_assert_cmpuint (c1->op, ==, 4);
  g_assert_cmpint (c1->time, ==, 501000);
  const char *names[] = { "scale-b", "schematic-base", NULL };
  const SimTime expected[] = { 901000, 2000, 5000, -1, 501000 };
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      SimTime t = -1;
      GError *missing = NULL;
      gboolean ok = schedule_kernel_time (sched, schedule_op (sched, i), names, &t, &missing);
      g_assert_cmpint (ok ? t : -1, ==, expected[i]);
      g_clear_error (&missing);
    }
  g_autofree char *note = kernel_times_note (carried, &b);
  g_assert_nonnull (strstr (note, "2 kernel times measured on scale-a carried to scale-b"));
  g_assert_nonnull (strstr (note, "1 compute-bound x0.500, 1 memory-bound x0.900"));
  gpu_profile_clear (&b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel-scale/bound-by-name", test_bound_by_name);
  g_test_add_func ("/kernel-scale/scale", test_scale);
  g_test_add_func ("/kernel-scale/carry", test_carry);
  return g_test_run ();
}
