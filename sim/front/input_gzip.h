/* input_gzip.h: schedules and timelines read from gzipped files as from plain ones.
 *
 * `predict X.sched.gz`, `compare A.csv.gz B.csv`: a file whose first bytes
 * are gzip's is decompressed (gzip_data.h) and read as the text it holds,
 * whatever its name; messages name the file as given, with the line and
 * column of the decompressed text, or the byte of the compressed data where
 * the gzip data itself is bad. Standard input ("-") is read as plain text. */
#ifndef INPUT_GZIP_H
#define INPUT_GZIP_H

#include <glib.h>
#include "sim/formats/schedule_parse.h"
#include "sim/formats/timeline.h"

/* schedule_parse_file, gzip undone. */
Schedule *input_gzip_schedule (const char *path, const ScheduleParseOptions *options,
                               GError **error);

/* timeline_read, gzip undone. */
Timeline *input_gzip_timeline (const char *path, GError **error);

#endif /* INPUT_GZIP_H */
