/* fuzz_import.h: what the two importers' fuzz targets check of a trace they read: a schedule, or an error about the file. */
#ifndef FUZZ_IMPORT_H
#define FUZZ_IMPORT_H

#include <stdint.h>
#include "fuzz_printable.h"
#include "sim/formats/profile_file.h"
#include "sim/import/import_schedule.h"

/* The shipped h100 profile, for kernels' shares of the SMs; NULL where it
 * cannot be found (the conversion then runs without one). */
static const GpuProfile *
fuzz_import_h100 (void)
{
  static GpuProfile profile;
  static int loaded = -1;
  if (loaded < 0)
    loaded = profile_load ("h100", &profile, NULL);
  return loaded ? &profile : NULL;
}

/* `trace` read from `path` (NULL where the reader refused it, with
 * `error`): a refusal is bad input about the file, and a trace read is
 * converted, with or without the profile (`with_profile`), into a schedule
 * that parsed back op for op, or refused with an error about the file. */
static void
fuzz_import_check (const char *path, ImportTrace *trace, GError *error, gboolean with_profile)
{
  if (trace == NULL)
    {
      g_assert (error != NULL && error->domain == IMPORT_ERROR);
      g_assert (error->code == IMPORT_ERROR_PARSE);
      g_assert (fuzz_is_about (error->message, path));
      fuzz_assert_printable (error->message);
      g_error_free (error);
      return;
    }
  ImportScheduleOptions options = { .min_host_ns = 2000,
                                    .profile = with_profile ? fuzz_import_h100 () : NULL };
  ImportCounts counts = { 0 };
  GError *why = NULL;
  RecordSchedule *rec = import_schedule_build (trace, &options, &counts, &why);
  if (rec == NULL)
    {
      g_assert (why != NULL && fuzz_is_about (why->message, path));
      g_error_free (why);
    }
  else
    {
      g_assert (rec->schedule != NULL);
      g_assert (schedule_n_ops (rec->schedule) == rec->n_ops);
      g_free (import_schedule_summary (trace, rec, &counts));
      record_schedule_free (rec);
    }
  import_counts_clear (&counts);
  import_trace_free (trace);
}

#endif /* FUZZ_IMPORT_H */
