/* schedule_parse.h: reading a schedule from the schedule language (sim/formats/LANGUAGE.md) into a Schedule. */
#ifndef SCHEDULE_PARSE_H
#define SCHEDULE_PARSE_H

#include <glib.h>
#include "sim/core/schedule.h"

typedef struct
{
  /* -D name=value overrides, NULL-ended "name=value" strings; they replace the
   * value of a `let` with that name (and define it if the file has none). */
  const char *const *defines;
  /* Refuse schedules that expand to more ops than this (0: the default,
   * SCHEDULE_DEFAULT_MAX_OPS). Checked before memory is allocated. */
  guint64 max_ops;
} ScheduleParseOptions;

#define SCHEDULE_DEFAULT_MAX_OPS ((guint64) 50000000)

/* The longest schedule file read, in bytes (decompressed, where it is gzipped). */
#define SCHEDULE_MAX_FILE_BYTES ((gsize) 1 << 30)

Schedule *schedule_parse_file (const char *path, const ScheduleParseOptions *options,
                               GError **error);
/* Parses text already in memory; `path` is used in messages only. */
Schedule *schedule_parse_text (const char *path, const char *text, gsize length,
                               const ScheduleParseOptions *options, GError **error);

#endif /* SCHEDULE_PARSE_H */
