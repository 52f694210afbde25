/* fuzz_schedule.c: libFuzzer target for the schedule parser (schedule_parse_text).
 *
 * The input is a schedule's text. Its first line, when it starts with "#D ",
 * is also read as -D definitions (space-separated NAME=VALUE), so that the
 * fuzzer reaches the -D paths too; the parser sees the whole text either way.
 * The op limit is kept small so that one input cannot ask for gigabytes: the
 * limit itself is checked before allocation, which is what is under test. */
#include <stdint.h>
#include <string.h>
#include <glib.h>
#include "fuzz_printable.h"
#include "sim/core/schedule.h"
#include "sim/core/schedule_device.h"
#include "sim/formats/schedule_parse.h"

#define FUZZ_MAX_OPS 100000

static void
check_result (Schedule *sched, GError *error)
{
  if (sched == NULL)
    {
      /* Every refusal names file:line:column (or -D NAME for a define). */
      g_assert (error != NULL);
      g_assert (g_str_has_prefix (error->message, "fuzz.sched:")
                || g_str_has_prefix (error->message, "-D "));
      if (g_str_has_prefix (error->message, "fuzz.sched:"))
        fuzz_assert_printable (error->message);
      return;
    }
  g_assert (error == NULL);
  g_assert (schedule_n_ops (sched) <= FUZZ_MAX_OPS);
  /* Each `elapsed` measures between two records. */
  for (guint i = 0; i < schedule_n_elapsed (sched); i++)
    {
      const SchedElapsed *e = schedule_elapsed (sched, i);
      g_assert (e->from_op < schedule_n_ops (sched) && e->to_op < schedule_n_ops (sched));
      g_assert (schedule_op (sched, e->from_op)->kind == SCHED_OP_RECORD);
      g_assert (schedule_op (sched, e->to_op)->kind == SCHED_OP_RECORD);
    }
  /* Per-device grid=, block=, smem= and regs= lists: chosen, or refused
   * with the kernel's position; a chosen shape is within the language's
   * limits. */
  static const char *const devices[] = { "h100", "k20", NULL };
  GError *local = NULL;
  if (!schedule_select_device (sched, devices, &local))
    {
      g_assert (g_str_has_prefix (local->message, "fuzz.sched:"));
      fuzz_assert_printable (local->message);
      g_clear_error (&local);
    }
  else
    for (gsize i = 0; i < schedule_n_ops (sched); i++)
      {
        const SchedOp *op = schedule_op (sched, i);
        if (op->kind != SCHED_OP_KERNEL)
          continue;
        g_assert (op->u.kernel.grid >= 1 && op->u.kernel.grid <= G_MAXINT32);
        g_assert (op->u.kernel.block >= 1 && op->u.kernel.block <= 1024);
        g_assert (op->u.kernel.regs <= 255);
      }
  /* Walk what was built, as the engines would. */
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      g_assert (op->line >= 1);
      (void) schedule_op_kind_name (op);
      if (op->kind == SCHED_OP_KERNEL && op->u.kernel.times != SCHED_NONE)
        {
          static const char *const names[] = { "k20", "c2050", NULL };
          SimTime t;
          GError *local = NULL;
          if (!schedule_kernel_time (sched, op, names, &t, &local))
            {
              fuzz_assert_printable (local->message);
              g_clear_error (&local);
            }
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = (const char *) data;
  char **defines = NULL;
  if (size > 3 && memcmp (text, "#D ", 3) == 0)
    {
      const char *eol = memchr (text, '\n', size);
      char *line = g_strndup (text + 3, (eol != NULL ? (gsize) (eol - text) : size) - 3);
      defines = g_strsplit (line, " ", 8);
      g_free (line);
    }
  ScheduleParseOptions options = { (const char *const *) defines, FUZZ_MAX_OPS };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text ("fuzz.sched", text, size, &options, &error);
  check_result (sched, error);
  schedule_free (sched);
  g_clear_error (&error);
  g_strfreev (defines);
  return 0;
}
