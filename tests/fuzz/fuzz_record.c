/* fuzz_record.c: libFuzzer target for the recorder's log (record_log_read) and the schedule made from it.
 *
 * Beyond "no crash": a schedule is built, or refused with an error at a
 * line of the log; one that is built has parsed back with the same number
 * of ops as it has times, which is what `streamsim-validate --record`
 * relies on before it writes anything. */
#include "fuzz_input.h"
#include "fuzz_printable.h"
#include "sim/formats/profile_file.h"
#include "sim/recorded/record_log.h"
#include "sim/recorded/record_schedule.h"

/* The shipped h100 profile, for kernels' shares of the SMs and the costs
 * of host functions and loading launches; NULL where it cannot be found
 * (the conversion then runs without one). */
static const GpuProfile *
h100 (void)
{
  static GpuProfile profile;
  static int loaded = -1;
  if (loaded < 0)
    loaded = profile_load ("h100", &profile, NULL);
  return loaded ? &profile : NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *path = fuzz_input_write (data, size, ".log");
  GError *error = NULL;
  RecordLog *log = record_log_read (path, &error);
  if (log == NULL)
    {
      g_assert (error != NULL);
      if (error->code == RECORD_ERROR_PARSE)
        {
          g_assert (fuzz_is_about (error->message, path));
          fuzz_assert_printable (error->message);
        }
      g_clear_error (&error);
      return 0;
    }
  /* the first byte picks a conversion with or without the profile */
  RecordOptions opt = { .min_host_ns = 2000, .connections = 8,
                        .profile = size > 0 && (data[0] & 1) ? h100 () : NULL };
  RecordSchedule *rec = record_schedule_build (log, &opt, &error);
  if (rec == NULL)
    {
      g_assert (error != NULL && error->code == RECORD_ERROR_PARSE);
      g_assert (fuzz_is_about (error->message, path));
      g_clear_error (&error);
    }
  else
    {
      /* built means parsed back, op for op */
      g_assert (rec->schedule != NULL);
      g_assert (schedule_n_ops (rec->schedule) == rec->n_ops);
      record_schedule_free (rec);
    }
  record_log_free (log);
  return 0;
}
