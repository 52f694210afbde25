/* schedule_write.h: a Schedule written back as schedule language text, which parses to the same schedule.
 *
 * What the parser expanded stays expanded: parameters are their values,
 * loops their iterations, one statement per op, streams declared at the
 * top in creation order. Sizes and times are exact (units.h), so the text
 * predicts what the schedule predicts, byte for byte. */
#ifndef SCHEDULE_WRITE_H
#define SCHEDULE_WRITE_H

#include <glib.h>
#include "sim/core/schedule.h"

/* The text, with `header` (NULL-ended comment lines without their "# ", or
 * NULL) at the top. */
char *schedule_write_text (const Schedule *sched, const char *const *header);

/* The same into a file, through a temporary file (output_file.h); "-" is
 * standard output. */
gboolean schedule_write_file (const Schedule *sched, const char *const *header,
                              const char *path, GError **error);

#endif /* SCHEDULE_WRITE_H */
