/* parse_check.h: a schedule text parsed as "t.sched", and a test's checks that it is accepted or refused with a given message. */
#ifndef PARSE_CHECK_H
#define PARSE_CHECK_H

#include <glib.h>
#include "sim/core/schedule.h"

/* The schedule `text` with the -D `defines` (or NULL); fails the calling
 * test if it is refused. */
Schedule *parse_check_ok (const char *text, const char *const *defines);

/* Fails the calling test unless `text` is refused with `code` and a message
 * starting with `prefix` ("t.sched:LINE:COLUMN: ..."). `max_ops` 0 is the
 * default. */
void parse_check_error (const char *text, const char *const *defines, guint64 max_ops,
                        ScheduleError code, const char *prefix);

#endif /* PARSE_CHECK_H */
