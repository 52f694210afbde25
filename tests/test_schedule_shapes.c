/* test_schedule_shapes.c: kernel shapes as CUDA's dim3 (grid=16x32, block=8x8x4), listed per device (grid=k20:26,h100:132), and quoted labels. */
#include <glib.h>
#include <string.h>

#include "sim/core/schedule_device.h"
#include "sim/formats/schedule_write.h"
#include "support/parse_check.h"

/* Each shape multiplied out by hand. */
static void
test_dim3 (void)
{
  static const struct
  {
    const char *attrs;
    guint32 grid, block;
  } cases[] = {
    { "grid=16 block=256", 16, 256 },
    { "grid=16x32 block=32x8", 512, 256 },
    { "grid=2x3x4 block=8x8x4", 24, 256 },
    { "grid=2147483647x1x1 block=1x1x1", 2147483647u, 1 },
    { "grid=1x65535x2 block=1x1x64", 131070, 64 },
    { "grid=32768x65535 block=1024x1", 2147450880u, 1024 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *text = g_strdup_printf ("kernel default %s time=1ms\n", cases[i].attrs);
      Schedule *sched = parse_check_ok (text, NULL);
      const SchedOp *op = schedule_op (sched, 0);
      g_test_message ("%s", cases[i].attrs);
      g_assert_cmpuint (op->u.kernel.grid, ==, cases[i].grid);
      g_assert_cmpuint (op->u.kernel.block, ==, cases[i].block);
      schedule_free (sched);
      g_free (text);
    }

  /* Columns: `kernel default ` is 15 bytes, so grid= is at column 16 and
   * block= after a grid of one byte at column 23. */
  parse_check_error ("kernel default grid=4x70000 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_RANGE, "t.sched:1:16: grid= Y 70000 is out of range");
  parse_check_error ("kernel default grid=65536x32768x2 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_RANGE,
                     "t.sched:1:16: grid=65536x32768x2 is 4294967296 blocks; at most 2147483647");
  parse_check_error ("kernel default grid=4 block=32x64 time=1ms\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:23: block=32x64 is 2048 threads; at most 1024 are allowed");
  parse_check_error ("kernel default grid=4 block=1x1x65 time=1ms\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:23: block= Z 65 is out of range; block= Z takes 1 to 64");
  parse_check_error ("kernel default grid=4x1x1x1 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_SYNTAX, "t.sched:1:16: grid=4x1x1x1 has more than three dimensions");
  parse_check_error ("kernel default grid=4x block=32 time=1ms\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:16: grid= Y has no value");
  parse_check_error ("kernel default grid=4x0 block=32 time=1ms\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:16: grid= Y 0 is out of range");
}

/* label="..." keeps its blanks; written back it is quoted again. */
static void
test_quoted_label (void)
{
  Schedule *sched = parse_check_ok ("let k = gemm\n"
                                    "kernel default grid=1 block=32 time=1us label=\"my $k  1\"\n"
                                    "host 1us label=\"x\"\n"
                                    "host 1us label=plain\"quote\n", NULL);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 3);
  g_assert_cmpstr (schedule_op (sched, 0)->label, ==, "my gemm  1");
  g_assert_cmpstr (schedule_op (sched, 1)->label, ==, "x");
  g_assert_cmpstr (schedule_op (sched, 2)->label, ==, "plain\"quote");

  char *text = schedule_write_text (sched, NULL);
  g_assert_nonnull (strstr (text, " label=\"my gemm  1\"\n"));
  g_assert_nonnull (strstr (text, " label=x\n"));
  Schedule *again = parse_check_ok (text, NULL);
  g_assert_cmpstr (schedule_op (again, 0)->label, ==, "my gemm  1");
  schedule_free (again);
  g_free (text);
  schedule_free (sched);

  /* `host 1us ` is 9 bytes: the label at column 10. */
  parse_check_error ("host 1us label=\"my gemm\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:10: a quoted label runs from label=\" to the next '\"'");
  parse_check_error ("host 1us label=\"a b\"c\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:10: a quoted label runs from label=\" to the next '\"'");
  parse_check_error ("host 1us label=\"\"\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:10: label= needs a name");
}

/* grid=, block=, smem= and regs= listed per device, chosen as time= is:
 * the device's own entry, then its parents', then the bare one. Expected
 * values read off the lists by hand. */
static void
test_per_device (void)
{
  static const char *const k20[] = { "k20", NULL };
  static const char *const h200[] = { "h200", "h100", NULL };
  static const char *const c2050[] = { "c2050", NULL };
  GError *error = NULL;
  Schedule *sched = parse_check_ok ("kernel default grid=k20:26,h100:132,64 block=256 "
                                    "smem=h100:64KiB,h200:100KiB,0 regs=k20:32,64 time=1ms\n"
                                    "kernel default grid=h100:2x66,k20:7 block=h100:16x16,k20:128 time=1ms\n"
                                    "kernel default grid=5 block=64 time=1ms\n", NULL);
  const SchedKernel *k0 = &schedule_op (sched, 0)->u.kernel;
  const SchedKernel *k1 = &schedule_op (sched, 1)->u.kernel;
  const SchedKernel *k2 = &schedule_op (sched, 2)->u.kernel;

  /* Until a device is chosen, the bare values (0: none). */
  g_assert_cmpuint (k0->grid, ==, 64);
  g_assert_cmpuint (k1->grid, ==, 0);

  g_assert_true (schedule_select_device (sched, k20, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (k0->grid, ==, 26);
  g_assert_cmpuint (k0->block, ==, 256);
  g_assert_cmpuint (k0->smem, ==, 0);
  g_assert_cmpuint (k0->regs, ==, 32);
  g_assert_cmpuint (k1->grid, ==, 7);
  g_assert_cmpuint (k1->block, ==, 128);
  g_assert_cmpuint (k2->grid, ==, 5);

  /* h200 inherits from h100: its own smem= entry, h100's grid=, the bare
   * regs=; and the second kernel's h100 entries. */
  g_assert_true (schedule_select_device (sched, h200, &error));
  g_assert_cmpuint (k0->grid, ==, 132);
  g_assert_cmpuint (k0->smem, ==, 100 * 1024);
  g_assert_cmpuint (k0->regs, ==, 64);
  g_assert_cmpuint (k1->grid, ==, 132);
  g_assert_cmpuint (k1->block, ==, 256);
  g_assert_cmpuint (k2->block, ==, 64);

  /* c2050 has no grid= entry for the second kernel and no bare value. */
  g_assert_false (schedule_select_device (sched, c2050, &error));
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_UNDEFINED);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "t.sched:2:1: kernel has no grid= for device "
                                                   "'c2050' (the list has: h100, k20)"));
  g_clear_error (&error);
  schedule_free (sched);

  /* `kernel default grid=` is 20 bytes: the list starts at column 21. */
  parse_check_error ("kernel default grid=k20:4,k20:5 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_DUPLICATE, "t.sched:1:27: device 'k20' appears twice in grid=");
  parse_check_error ("kernel default grid=4,k20:5,6 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_DUPLICATE, "t.sched:1:29: grid= has two entries without a device");
  parse_check_error ("kernel default grid=k20:4,,6 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_SYNTAX, "t.sched:1:27: empty entry in grid=");
  parse_check_error ("kernel default grid=k/20:4 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_SYNTAX, "t.sched:1:21: 'k/20' is not a device name in grid=");
  parse_check_error ("kernel default grid=k20:4,h100:0 block=32 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_RANGE, "t.sched:1:32: grid=0 is out of range");
  parse_check_error ("kernel default grid=1 block=32 regs=k20:300 time=1ms\n", NULL, 0,
                     SCHEDULE_ERROR_RANGE, "t.sched:1:41: regs=300 is out of range");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/schedule-shapes/dim3", test_dim3);
  g_test_add_func ("/schedule-shapes/quoted-label", test_quoted_label);
  g_test_add_func ("/schedule-shapes/per-device", test_per_device);
  return g_test_run ();
}
